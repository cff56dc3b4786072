#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# vm.sh: real guests (user-mode-linux) as testbed hosts (issue 36). Parts:
#   mixed      3 hosts, h2 a UML guest: PingPong with --check over every pair
#              (h1-h2, h2-h3 with rank 0 in the guest, h1-h3), every row ok; the
#              guest's host record names it (verdict uml, layers[0] uml, NIC
#              driver uml-vector, clocksource timer, 1 PU), the native hosts'
#              do not (veth); compare lists the hypervisor and the NIC driver as
#              context differences, html names both; a row above a --bound
#              given below the link is flagged `exceeds`; bad guest arguments
#              are refused with one line naming the value, nothing left behind
#   lifecycle  an `up` killed mid-boot (SIGTERM: its trap cleans; SIGKILL: then
#              `down`) and an `up` + `down` leave no namespace, process, netns
#              file or guest directory; a guest cannot write the host's files
#              and `exec` runs inside its kernel
#   verdicts   guests h2, h3: an A/A campaign (4 + 4) has no `changed` row; a
#              link shaped 10% slower on side B (400 vs 360 Mbit/s, MTU 9000,
#              8 + 8 launches, PingPong 1M, 2M, 4M) reads `changed (worse)` at
#              every size with the ratio within 3% of 0.9 (one second campaign
#              when it does not; under CPU pressure >= BUSY_PSI% the effect is
#              not judged, only "never changed (better)")
# Usage: vm.sh PART P2PBENCH_BIN P2PBENCH_REPORT_BIN OUTDIR
# Exit 0 all passed, 1 a check failed, 2 usage, 77 skipped (not root, no
# linux.uml, ip, tc, mpirun, python3 or /dev/net/tun; with P2PB_REQUIRE_VM=1
# that fails).
set -euo pipefail

# shellcheck disable=SC2034 # used by driver.sh
DRIVER=vm
# shellcheck disable=SC2034
REQUIRE_VAR=P2PB_REQUIRE_VM
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=SCRIPTDIR/../lib/driver.sh
. "$HERE/../lib/driver.sh"
TESTBED=$HERE/../../scripts/testbed/testbed.sh
CAMPAIGN=$HERE/../../scripts/campaign.sh
readonly BUSY_PSI=50

[[ $# -eq 4 ]] || {
    echo "Usage: $0 mixed|lifecycle|verdicts P2PBENCH_BIN P2PBENCH_REPORT_BIN OUTDIR" >&2
    exit 2
}
PART=$1 BIN=$2 REPORT=$3 OUTDIR=$4
DRIVER=vm.$PART
netns_require linux.uml bridge
[[ -c /dev/net/tun ]] || skip_or_fail "/dev/net/tun is missing (guests need tap devices)"
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
REPORT=$(cd "$(dirname "$REPORT")" && pwd)/$(basename "$REPORT")
allow_mpi_as_root
netns_own_testbed p2vm
STATE=${P2PB_TESTBED_STATE_DIR:-/run/p2pb-testbed} # testbed.sh's default

# leftovers: what a testbed of this prefix left behind, one line each ("" if nothing)
leftovers() {
    ip netns list 2>/dev/null | awk '{print $1}' | grep "^$P2PB_TESTBED_PREFIX-" | sed 's/^/namespace /' || true
    pgrep -af "umid=$P2PB_TESTBED_PREFIX-" | sed 's/^/process /' || true
    find /etc/netns -maxdepth 1 -name "$P2PB_TESTBED_PREFIX-*" 2>/dev/null | sed 's/^/file /' || true
    find "$STATE" -maxdepth 1 -name "$P2PB_TESTBED_PREFIX-h*" 2>/dev/null | sed 's/^/guest dir /' || true
}

expect_clean() { # NAME
    local left
    left=$(leftovers)
    if [[ -z $left ]]; then pass "$1: nothing left"; else fail "$1: left behind: $(echo "$left" | tr '\n' ';')"; fi
}

# host_facts FILE: per host "name verdict layer0 driver clocksource pus"
host_facts() {
    python3 - "$1" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get('type') != 'run':
        continue
    for name, h in sorted(r['hosts'].items()):
        hv = h.get('hypervisor') or {}
        lay = (hv.get('layers') or [{}])[0].get('hypervisor', '-')
        nic = (h.get('knobs') or {}).get('nic') or {}
        print(name, hv.get('verdict_derived'), lay, nic.get('driver'), h.get('clocksource'),
              (h.get('topology') or {}).get('pus'))
PY
}

# rows_ok FILE: "N BAD": result rows and those whose status is not ok
rows_ok() {
    python3 - "$1" <<'PY'
import json, sys
n = bad = 0
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get('type') == 'result':
        n += 1
        bad += r.get('status') != 'ok'
print(n, bad)
PY
}

part_mixed() {
    local pair f n bad h v lay drv cs pus
    for pair in h1,h2 h2,h3 h1,h3; do
        f=$OUTDIR/pair-${pair/,/-}.jsonl
        rm -f -- "$f"
        if ! timeout -k 10 300 "$TESTBED" run 3 --guest h2 uml --hosts "$pair" --timeout 200 -- \
            "$BIN" pingpong -s 0,1,1K,64K,1M --check --samples 5 -o "$f" >"$OUTDIR/pair-$pair.log" 2>&1; then
            fail "mixed $pair: run failed"
            tail -n 15 "$OUTDIR/pair-$pair.log" | sed 's/^/    /'
            continue
        fi
        read -r n bad < <(rows_ok "$f")
        if ((n == 5 && bad == 0)); then pass "mixed $pair: PingPong --check, 5 rows ok"; else
            fail "mixed $pair: $n rows, $bad not ok (want 5, 0)"; fi
        while read -r h v lay drv cs pus; do
            if [[ $h == h2 ]]; then
                [[ "$v $lay $drv $cs $pus" == "uml uml uml-vector timer 1" ]] &&
                    pass "mixed $pair: guest h2 recorded as uml, uml-vector, timer, 1 PU" ||
                    fail "mixed $pair: guest h2 recorded as '$v $lay $drv $cs $pus' (want uml uml uml-vector timer 1)"
            else
                [[ $v != uml && $drv == veth ]] && pass "mixed $pair: native $h recorded as $v, veth" ||
                    fail "mixed $pair: native $h recorded as '$v', driver '$drv' (want not uml, veth)"
            fi
        done < <(host_facts "$f")
    done
    mixed_report
    mixed_bound
    mixed_bad_input
}

# compare of the native pair against the guest-first pair, and html of both:
# the guest named by hypervisor and NIC driver
mixed_report() {
    local a=$OUTDIR/pair-h1-h3.jsonl b=$OUTDIR/pair-h2-h3.jsonl
    [[ -f $a && -f $b ]] || return 0
    "$REPORT" compare "$a" --vs "$b" >"$OUTDIR/compare.txt" 2>&1 || true
    if grep -q 'hypervisor.verdict_derived: .* = uml' "$OUTDIR/compare.txt" &&
        grep -q 'knobs.nic.driver: .*uml-vector' "$OUTDIR/compare.txt"; then
        pass "mixed: compare lists the hypervisor (uml) and the NIC driver as context differences"
    else
        fail "mixed: compare does not list the hypervisor and NIC driver ($OUTDIR/compare.txt)"
    fi
    "$REPORT" html "$a" --vs "$b" -o "$OUTDIR/mixed.html" >/dev/null 2>&1 || true
    if grep -q 'uml on ' "$OUTDIR/mixed.html" && grep -q 'uml-vector' "$OUTDIR/mixed.html"; then
        pass "mixed: html names the guest by its layers and NIC driver"
    else
        fail "mixed: html lacks 'uml on ...' or 'uml-vector' ($OUTDIR/mixed.html)"
    fi
}

# a guest's row above its bound is flagged as a native host's is
mixed_bound() {
    local f=$OUTDIR/bound.jsonl ex
    timeout -k 10 300 "$TESTBED" run 3 --guest h2 uml --hosts h2,h3 --timeout 200 -- \
        "$BIN" uniband -s 1M --samples 5 --bound 10mbit -o "$f" >"$OUTDIR/bound.log" 2>&1 ||
        { fail "bound: run failed"; return 0; }
    ex=$(python3 -c '
import json, sys
print(" ".join(str((r.get("bound") or {}).get("exceeds")) for r in map(json.loads, open(sys.argv[1])) if r.get("type") == "result"))' "$f")
    [[ $ex == "True True" ]] && pass "bound: guest rows above a 10 Mbit/s bound flagged (exceeds: $ex)" ||
        fail "bound: exceeds '$ex' (want True True)"
}

mixed_bad_input() {
    local out rc
    for args in "--guest h2 xen" "--guest h9 uml" "--guest h2"; do
        rc=0
        # shellcheck disable=SC2086 # the words of args
        out=$("$TESTBED" up 3 $args 2>&1) || rc=$?
        if ((rc == 2)) && [[ $(printf '%s\n' "$out" | grep -c 'error') -eq 1 ]]; then
            pass "bad input '$args': exit 2, one error line: $(printf '%s\n' "$out" | grep error)"
        else
            fail "bad input '$args': exit $rc, output: $out"
        fi
    done
    expect_clean "bad input"
}

part_lifecycle() {
    local pid sig t booting
    for sig in TERM KILL; do
        "$TESTBED" up 3 --guest h2,h3 uml >"$OUTDIR/up-$sig.log" 2>&1 &
        pid=$!
        # kill it once a guest directory exists: mid-boot
        booting=0
        for ((t = 0; t < 200; t++)); do
            [[ -z $(find "$STATE" -maxdepth 1 -name "$P2PB_TESTBED_PREFIX-h*" 2>/dev/null) ]] ||
                { booting=1; break; }
            sleep 0.05
        done
        kill -"$sig" "$pid" 2>/dev/null || true
        ((booting)) || fail "up (SIG$sig case): no guest directory within 10 s, killed anyway"
        wait "$pid" 2>/dev/null || true
        [[ $sig == TERM ]] || "$TESTBED" down >>"$OUTDIR/up-$sig.log" 2>&1 || fail "down after SIGKILL failed"
        sleep 0.5
        if [[ $sig == TERM ]]; then expect_clean "up killed mid-boot (SIGTERM)"; else
            expect_clean "up killed mid-boot (SIGKILL, then down)"; fi
    done
    if timeout -k 10 200 "$TESTBED" up 3 --guest h2,h3 uml >"$OUTDIR/up.log" 2>&1; then
        pass "up 3 with two guests"
        if "$TESTBED" exec h2 -- sh -c 'touch /etc/p2pb-vm-ro-probe' >>"$OUTDIR/up.log" 2>&1; then
            rm -f /etc/p2pb-vm-ro-probe
            fail "guest h2 wrote the host's /etc: its view of the host is not read-only"
        else
            pass "guest h2 cannot write the host's files (read-only root)"
        fi
        [[ $("$TESTBED" exec h2 -- cat /proc/cpuinfo 2>/dev/null | grep -c '^vendor_id.*User Mode Linux') -ge 1 ]] &&
            pass "exec h2 runs inside the UML kernel (vendor_id User Mode Linux)" ||
            fail "exec h2: /proc/cpuinfo does not name User Mode Linux"
        "$TESTBED" down >>"$OUTDIR/up.log" 2>&1 || fail "down failed"
    else
        fail "up 3 with two guests failed: $(tail -n 3 "$OUTDIR/up.log" | tr '\n' ' ')"
    fi
    expect_clean "up, then down"
}

# campaign NAME N LABEL_A 'ARGS_A' LABEL_B 'ARGS_B' SIZES: N + N launches
campaign() {
    local name=$1 n=$2 la=$3 ta=$4 lb=$5 tb=$6 sizes=$7
    local run="$TESTBED run 3 --timeout 200 --guest h2,h3 uml --hosts h2,h3"
    rm -rf -- "${OUTDIR:?}/$name"
    timeout -k 15 900 "$CAMPAIGN" -n "$n" -s 23 -o "$OUTDIR/$name" -a "$la" -b "$lb" \
        -A "$run $ta -- $BIN pingpong --sizes $sizes --samples 9" \
        -B "$run $tb -- $BIN pingpong --sizes $sizes --samples 9" >"$OUTDIR/$name.log" 2>&1
}

# verdicts NAME LA LB: "metric bytes verdict ratio" per compare row
verdicts() {
    "$REPORT" compare -f csv "$OUTDIR/$1/$2" --vs "$OUTDIR/$1/$3" 2>/dev/null | python3 -c '
import csv, sys
rows = list(csv.reader(l for l in sys.stdin if not l.startswith("#")))
for r in rows[1:]:
    d = dict(zip(rows[0], r))
    print(d.get("metric"), d.get("bytes"), d.get("ratio"), d.get("verdict", "").replace(" ", "_"))'
}

part_verdicts() {
    local m b ratio v bad=0 psi try ok
    cpu_pressure_mark
    campaign aa 4 a "" b "" 1K,64K,1M || fail "A/A: campaign failed ($OUTDIR/aa.log)"
    while read -r m b ratio v; do
        [[ $v != changed* ]] || { fail "A/A: $m $b B reads $v (ratio $ratio)"; bad=1; }
    done < <(verdicts aa a b)
    ((bad)) || pass "A/A on UML guests: no changed row"
    export P2PB_TESTBED_MTU=9000
    for try in 1 2; do
        ok=1
        campaign effect 8 r400 "--profile shaped 400mbit" r360 "--profile shaped 360mbit" 1M,2M,4M ||
            { ok=0; say "effect: campaign failed ($OUTDIR/effect.log)"; }
        while read -r m b ratio v; do
            [[ $m == throughput ]] || continue
            if [[ $v == changed_\(worse\) ]] && float_test 'abs(r - 0.9) <= 0.027' "r=$ratio"; then
                say "effect try $try: $b B: changed (worse), ratio $ratio"
            else
                ok=0
                say "effect try $try: $b B: $v, ratio $ratio"
                [[ $v != changed_\(better\) ]] || { fail "effect: $b B reads changed (better)"; return 0; }
            fi
        done < <(verdicts effect r400 r360)
        ((ok)) && break
    done
    psi=$(cpu_pressure_pct)
    if ((ok)); then
        pass "known effect on guests: 360 vs 400 Mbit/s found at 1M, 2M, 4M, ratio within 3% of 0.9"
    elif [[ -n $psi ]] && ((psi >= BUSY_PSI)); then
        pass "known effect not judged: CPU pressure ${psi}% (>= $BUSY_PSI%), never changed (better)"
    else
        fail "known effect on guests not found in two campaigns (CPU pressure ${psi:-?}%)"
    fi
}

case $PART in
mixed) part_mixed ;;
lifecycle) part_lifecycle ;;
verdicts) part_verdicts ;;
*)
    echo "unknown part '$PART'" >&2
    exit 2
    ;;
esac
summary
