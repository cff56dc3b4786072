#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# survey.sh: the link survey across 6 network-namespace hosts
# (scripts/testbed/testbed.sh), one rank per host:
#   (a) docs/testbed.md's example with the survey's defaults (8 bytes and
#       64 x 1 MiB, --survey-cap 1): h3 a slow host and h1-h5 a slow link
#       (htb, 50 Mbit/s; other links plain veth, some GB/s). The run must
#       end within docs/survey.md's bound for 6 hosts (every measurement
#       capped: 3 x cap x (15 pairs + 8 retests) = 69 s) plus 60 s for the
#       testbed's launch and teardown, or testbed.sh stops it. Every
#       shaped stream sample shrank below 64 MiB (10.7 s at the line rate)
#       and its bytes add up (messages_per_sample x message_bytes =
#       bytes_factor x bytes; bytes_moved); the report's MB/s of every
#       shaped direction lies within -15% .. +2% of tc's rate, 6.25 MB/s
#       (TCP's payload ceiling at MTU 1500 is 95.6% of it); p2pbench-report
#       survey names exactly the node h3 and the link h1-h5 (-f json),
#       --fail-on-slow exits 1, the heatmap is a PNG; the suspects' retest
#       rows say they stayed slow;
#   (b) no shaping (8 bytes, 4 x 64 KiB): it names nothing and
#       --fail-on-slow exits 0;
#   (c) 2 ranks on each of 3 hosts: per host by default (ranks 0, 2, 4:
#       3 pairs, run record per "host"), every rank with --survey-per rank
#       (15 pairs; the report labels the nodes host:rank).
# The verdicts: -m throughput --min-off 0.5. On this 2-CPU machine, shared
# with other builds and running 6 ranks, healthy links differ by up to
# 1.5-2x in bandwidth and in 8-byte latency (measured), while the shaped ones
# stream 300x slower; htb does not change an 8-byte latency, so latency
# carries only noise here.
#   survey.sh P2PBENCH_BIN P2PBENCH_REPORT_BIN OUTDIR
# Exit 0 passed, 1 failed, 77 skipped (not root, or ip, unshare, tc, mpirun,
# python3, gnuplot missing; with P2PB_REQUIRE_NETNS=1 that fails).
set -euo pipefail

# shellcheck disable=SC2034 # used by driver.sh
DRIVER=survey
# shellcheck disable=SC2034
REQUIRE_VAR=P2PB_REQUIRE_NETNS
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=SCRIPTDIR/../lib/driver.sh
. "$HERE/../lib/driver.sh"
TESTBED=$HERE/../../scripts/testbed/testbed.sh

[[ $# -eq 3 ]] || {
    echo "usage: $0 P2PBENCH_BIN P2PBENCH_REPORT_BIN OUTDIR" >&2
    exit 2
}
BIN=$1 REPORT=$2 OUTDIR=$3
JUDGE=(-m throughput --min-off 0.5)
# From CPU pressure BUSY_PSI (tests/lib/driver.sh: percent of the survey's
# time some task waited for a CPU) the shaped rates' -15% is not judged:
# beside two spinning processes the ranks wait for a CPU most of the time
# (~90%) and the shaped directions read 18-34% below tc's rate. Nor are the
# slow links: a pair starved of CPU in its retest reads as slow as the
# 50 Mbit/s link, one way or the other (the slow node must still be named).
# The cap (+2%) and the bytes are judged at any load.
netns_require gnuplot

netns_own_testbed p2pv

# survey NAME TIMEOUT SHAPING... [-- SURVEY_ARG...]: 6 hosts, the survey's
# file in OUTDIR/NAME.jsonl, testbed.sh --timeout TIMEOUT.
# mpi_yield_when_idle: 6 ranks on 2 CPUs; a waiting rank must not spin.
survey() {
    local name=$1 timeout=$2 rc=0 shaping=() args=()
    shift 2
    while (($#)) && [[ $1 != -- ]]; do shaping+=("$1") && shift; done
    (($#)) && shift && args=("$@")
    rm -f -- "$OUTDIR/$name.jsonl"
    say "$name: testbed.sh run 6 ${shaping[*]} --timeout $timeout -- p2pbench survey ${args[*]}"
    "$TESTBED" run 6 "${shaping[@]}" --timeout "$timeout" -- --mca mpi_yield_when_idle 1 "$BIN" \
        survey "${args[@]}" -o "$OUTDIR/$name.jsonl" >"$OUTDIR/$name.log" 2>&1 || rc=$?
    if ((rc == 124)); then
        fail "$name: not finished within ${timeout}s (the documented bound and the launch)"
        return 1
    elif ((rc != 0)); then
        fail "$name: exit status $rc"
        tail -n 20 "$OUTDIR/$name.log" | sed 's/^/    /'
        return 1
    fi
    pass "$name: survey completed"
}

# verdict NAME: the report's slow nodes and slow links, as one line of JSON.
verdict() {
    "$REPORT" survey "$OUTDIR/$1.jsonl" -f json "${JUDGE[@]}" | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(json.dumps({"slow_nodes": d["slow_nodes"], "slow_links": d["slow_links"]}))'
}

# retests NAME: "stayed" when every retest row of a pair with h3 stayed slow.
retests() {
    python3 - "$OUTDIR/$1.jsonl" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
run = rows[0]
bw = [r for r in rows if r.get("retest") and r.get("metric") == "bandwidth" and "h3" in r["hosts"]]
ok = run["survey"]["per"] == "host" and bw and all(r["stayed_slow"] for r in bw)
print("stayed" if ok else f"per {run['survey']['per']}, {len(bw)} retest rows with h3: "
      + ", ".join(str(r["stayed_slow"]) for r in bw))
PY
}

# shaped NAME LOW: the shaped directions (pairs with h3, and h1-h5) by the
# report's matrix (a retested pair's better value) against tc's 6.25 MB/s
# (from LOW x that to +2%), and every shaped stream row's bytes; "ok" or
# what is wrong.
shaped() {
    "$REPORT" survey "$OUTDIR/$1.jsonl" -f json >"$OUTDIR/$1.report.json" 2>/dev/null || true
    python3 - "$OUTDIR/$1.jsonl" "$OUTDIR/$1.report.json" "$2" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
try:
    d = json.load(open(sys.argv[2]))
except ValueError:
    sys.exit(print("p2pbench-report survey -f json gave no document"))
line = 50e6 / 8 / 1e6  # 50 Mbit/s in MB/s
bad = []
def is_shaped(a, b):
    return "h3" in (a, b) or {a, b} == {"h1", "h5"}
nodes = d["nodes"]
for i, a in enumerate(nodes):
    for j, b in enumerate(nodes):
        v = d["bandwidth_mbs"][i][j]
        if i != j and is_shaped(a, b) and not (v and float(sys.argv[3]) * line <= v <= 1.02 * line):
            bad.append(f"{a}->{b} {v} MB/s")
n = 0
for r in rows:
    if r.get("type") != "result" or r["metric"] != "bandwidth" or not is_shaped(*r["hosts"]):
        continue
    n += 1
    msgs, each = r["messages_per_sample"], r["message_bytes"]
    if msgs * each >= 64 * 1048576 or r["samples"] < 1:
        bad.append(f"{r['variant']}: {r['samples']} samples of {msgs} x {each} bytes, not shrunk")
    if abs(r["bytes_factor"] * r["bytes"] - msgs * each) > 1e-6 * msgs * each or \
            r["bytes_moved"] != r["samples"] * msgs * each:
        bad.append(f"{r['variant']}: bytes do not add up")
print("ok" if not bad and n >= 12 else f"{n} shaped rows; " + "; ".join(bad))
PY
}

# (a) one slow node and one slow link: docs/testbed.md's example, defaults
cpu_pressure_mark
if survey slow 129 --slow-host h3 50mbit --slow-link h1-h5 50mbit; then
    psi=$(cpu_pressure_pct)
    if [[ -n $psi ]] && ((psi >= BUSY_PSI)); then low=0; else low=0.85; fi
    got=$(shaped slow "$low")
    if [[ $got == ok && $low == 0 ]]; then
        pass "slow: shaped directions at most +2% of 6.25 MB/s (CPU pressure $psi%: the -15% not judged), samples shrunk, bytes add up"
    elif [[ $got == ok ]]; then
        pass "slow: shaped directions within -15%..+2% of 6.25 MB/s, samples shrunk, bytes add up"
    else
        fail "slow: shaped rows: $got"
    fi
    busy=0
    [[ -n $psi ]] && ((psi >= BUSY_PSI)) && busy=1
    got=$(verdict slow)
    want='{"slow_nodes": ["h3"], "slow_links": [["h1", "h5"]]}'
    if [[ $got == "$want" ]]; then pass "slow: report names h3 and h1-h5"; elif ((busy)) &&
        python3 -c 'import json, sys; d = json.loads(sys.argv[1])
sys.exit(d["slow_nodes"] != ["h3"])' "$got"; then
        pass "slow: report names h3 (CPU pressure $psi%: slow links not judged, a starved pair reads as slow as the 50 Mbit/s link: $got)"
    else
        fail "slow: report says $got, want $want"
        "$REPORT" survey "$OUTDIR/slow.jsonl" "${JUDGE[@]}" | sed 's/^/    /'
    fi
    rc=0
    "$REPORT" survey "$OUTDIR/slow.jsonl" "${JUDGE[@]}" --fail-on-slow \
        --heatmap "$OUTDIR/slow.png" >/dev/null 2>"$OUTDIR/slow.err" || rc=$?
    if ((rc == 1)) && grep -q "1 slow node, 1 slow link" "$OUTDIR/slow.err"; then
        pass "slow: --fail-on-slow exits 1"
    elif ((rc == 1 && busy)) && grep -q "1 slow node, [0-9]* slow links\{0,1\}" "$OUTDIR/slow.err"; then
        pass "slow: --fail-on-slow exits 1 (CPU pressure $psi%: $(cat "$OUTDIR/slow.err"))"
    else
        fail "slow: --fail-on-slow exit $rc: $(cat "$OUTDIR/slow.err")"
    fi
    if [[ $(head -c 4 "$OUTDIR/slow.png" | od -An -c | tr -d ' ') == 211PNG ]]; then
        pass "slow: heatmap written"
    else
        fail "slow: no PNG heatmap in $OUTDIR/slow.png"
    fi
    got=$(retests slow)
    if [[ $got == stayed ]]; then pass "slow: retests of h3's pairs stayed slow"; elif ((busy)); then
        say "slow: retests not judged (CPU pressure $psi%: the typical pair was starved too): $got"
    else
        fail "slow: retests: $got"
    fi
fi

# (b) no shaping
cpu_pressure_mark
if survey plain 240 -- -s 8,64K --window 4 --survey-time 0.05; then
    psi=$(cpu_pressure_pct)
    got=$(verdict plain)
    want='{"slow_nodes": [], "slow_links": []}'
    if [[ $got == "$want" ]]; then pass "plain: report names nothing"; elif [[ -n $psi ]] &&
        ((psi >= BUSY_PSI)); then
        say "plain: what the report names not judged (CPU pressure $psi%: a pair starved in its retest stays slow): $got"
    else
        fail "plain: report says $got"
        "$REPORT" survey "$OUTDIR/plain.jsonl" "${JUDGE[@]}" | sed 's/^/    /'
    fi
    if "$REPORT" survey "$OUTDIR/plain.jsonl" "${JUDGE[@]}" --fail-on-slow -f csv >/dev/null; then
        pass "plain: --fail-on-slow exits 0"
    elif [[ $got != "$want" && -n $psi ]] && ((psi >= BUSY_PSI)); then
        say "plain: --fail-on-slow not judged (CPU pressure $psi%)"
    else
        fail "plain: --fail-on-slow failed"
    fi
fi

# (c) several ranks per host
per_host() { # per_host NAME ARGS...: 2 ranks on each of 3 hosts
    local name=$1 rc=0
    shift
    "$TESTBED" run 3 --timeout 120 -- --oversubscribe -np 6 --mca mpi_yield_when_idle 1 "$BIN" \
        survey -s 8,4K --window 4 --survey-time 0.01 -o "$OUTDIR/$name.jsonl" "$@" \
        >"$OUTDIR/$name.log" 2>&1 || rc=$?
    ((rc == 0)) || { fail "$name: exit status $rc"; tail -n 20 "$OUTDIR/$name.log"; return 1; }
    python3 - "$OUTDIR/$name.jsonl" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
sv = rows[0]["survey"]
pairs = sorted({tuple(r["pair"]) for r in rows if r.get("type") == "result"})
print(sv["per"], sv["ranks_surveyed"], len(pairs), pairs[:3])
PY
}
got=$(per_host perhost)
if [[ $got == "host 3 3 [(0, 2), (0, 4), (2, 4)]" ]]; then pass "per host: ranks 0, 2, 4"; else
    fail "per host: $got"
fi
got=$(per_host perrank --survey-per rank)
if [[ $got == "rank 6 15 [(0, 1), (0, 2), (0, 3)]" ]]; then pass "per rank: 15 pairs"; else
    fail "per rank: $got"
fi
if "$REPORT" survey "$OUTDIR/perrank.jsonl" -f csv | grep -q '^h1:0,h1:1,'; then
    pass "per rank: nodes labelled host:rank"
else
    fail "per rank: labels: $("$REPORT" survey "$OUTDIR/perrank.jsonl" -f csv | head -2)"
fi
summary
