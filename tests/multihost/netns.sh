#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# run_netns_tests.sh: multi-host tests of p2pbench on the namespace testbed
# (scripts/testbed/testbed.sh): hosts h1..hN, links shaped with tbf.
#
#   (a) 2 hosts, link shaped to 100mbit: pingpong 1 MiB within 5% of
#       12.5 MB/s; the same on a native (unshaped) link more than 10x faster
#   (b) the results file names each rank's host (h1, h2) and records the
#       link profile given by the testbed (P2PB_LINK_PROFILE)
#   (c) sendrecv and exchange over 4 hosts complete with status ok
#   (d) a campaign of 6 + 6 interleaved native and shaped launches: compare
#       says changed (worse) for the throughput at 1 MiB, whatever the load
#
# Exit 0 all passed, 1 a check failed, 2 usage, 77 skipped (not root, or ip,
# unshare, tc, mpirun, python3 missing; with P2PB_REQUIRE_NETNS=1 that fails).
set -euo pipefail

# shellcheck disable=SC2034 # used by driver.sh
DRIVER=run_netns_tests
# shellcheck disable=SC2034
REQUIRE_VAR=P2PB_REQUIRE_NETNS
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=SCRIPTDIR/../lib/driver.sh
. "$HERE/../lib/driver.sh"
TESTBED=$HERE/../../scripts/testbed/testbed.sh
RESULTS=$HERE/../lib/p2pb_results.py

readonly SHAPED_RATE=100mbit
readonly SHAPED_MBPS=12.5 # 100 Mbit/s in MB/s (10^6 B/s)
readonly MIB=1048576

usage() {
    cat <<EOF
Usage: $0 P2PBENCH_BIN OUTDIR

Runs p2pbench across network-namespace hosts (needs root). Results files and
logs go to OUTDIR. Env: P2PB_REQUIRE_NETNS=1 (missing prerequisites fail
instead of skip).
EOF
}

[[ $# -eq 2 ]] || {
    usage >&2
    exit 2
}
BIN=$1
OUTDIR=$2

netns_require
[[ -x $TESTBED ]] || {
    fail "testbed script not executable: $TESTBED"
    summary || exit 1
}

BIN_PATH=$(command -v "$BIN") || {
    fail "p2pbench binary not found or not executable: $BIN"
    summary || exit 1
}
BIN=$BIN_PATH
netns_own_testbed p2pt

# tb NAME TIMEOUT N PROFILE-ARGS... -- MPIRUN-ARGS...: one testbed run, its
# output in OUTDIR/NAME.log; returns testbed.sh's exit status.
tb() {
    local name=$1 secs=$2 n=$3 rc=0
    shift 3
    say "$name: testbed.sh run $n $*"
    "$TESTBED" run "$n" --timeout "$secs" "$@" >"$OUTDIR/$name.log" 2>&1 || rc=$?
    if ((rc != 0)); then
        say "$name: exit status $rc; last lines of $OUTDIR/$name.log:"
        tail -n 20 "$OUTDIR/$name.log" | sed 's/^/    /'
    fi
    return "$rc"
}

q() { python3 "$RESULTS" "$@"; } # query a results file

# run_ok NAME RC FILE: the run exited 0 and its file ends with status complete.
run_ok() {
    local name=$1 rc=$2 file=$3 end
    if ((rc != 0)); then
        fail "$name: run exited with status $rc"
        return 1
    fi
    if ! q "$file" check >/dev/null; then
        fail "$name: results file malformed: $(q "$file" check 2>&1 | tail -n 1)"
        return 1
    fi
    end=$(q "$file" end)
    if [[ $end != complete ]]; then
        fail "$name: end status '$end', expected complete"
        return 1
    fi
    pass "$name: run completed"
}

contract_tests() {
    local rc f_shaped=$OUTDIR/shaped.jsonl f_native=$OUTDIR/native.jsonl f_four=$OUTDIR/four.jsonl
    local shaped='' native='' v
    rm -f -- "$f_shaped" "$f_native" "$f_four"

    # (a) shaped 100mbit vs native, 2 hosts. The link's capacity is what the
    # fastest sample shows: tbf caps the rate (no sample beats the line by more
    # than the 64 KiB burst, +1.6% at 1 MiB), while CPU load on a 2-core
    # machine only slows samples down. So the rates compared are those of the
    # fastest sample (bytes / t_usec.min); the medians are printed too. One
    # second attempt is allowed; a wrong rate formula fails both.
    local attempt
    for attempt in 1 2; do
        rc=0
        tb shaped 90 2 --profile shaped "$SHAPED_RATE" -- \
            "$BIN" pingpong --sizes 64K,1M --samples 9 --label shaped -o "$f_shaped" || rc=$?
        shaped=''
        if [[ $rc -eq 0 ]]; then
            shaped=$(q "$f_shaped" mbps-best pingpong "$MIB") || shaped=''
            say "shaped 1 MiB: fastest sample $shaped MB/s, median $(q "$f_shaped" mbps pingpong "$MIB" 2>&1) MB/s"
        fi
        if [[ -n $shaped ]] && float_test 'abs(m - r) <= 0.05 * r' "m=$shaped" "r=$SHAPED_MBPS"; then
            break
        fi
        echo "$DRIVER: attempt $attempt: shaped 1 MiB rate '$shaped' MB/s (load average" \
            "$(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs)"
    done
    if run_ok "a: shaped $SHAPED_RATE pingpong" "$rc" "$f_shaped"; then
        if [[ -n $shaped ]] && float_test 'abs(m - r) <= 0.05 * r' "m=$shaped" "r=$SHAPED_MBPS"; then
            pass "a: shaped pingpong 1 MiB: $shaped MB/s within 5% of $SHAPED_MBPS"
        else
            fail "a: shaped pingpong 1 MiB: '$shaped' MB/s not within 5% of $SHAPED_MBPS" \
                "(load average $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs)"
        fi
        # 64 KiB: tbf's bucket must not let a whole message through unshaped
        # (a 64 KiB bucket gave 23 MB/s); the fastest sample, within 10%
        v=$(q "$f_shaped" mbps-best pingpong 65536) || v=''
        if [[ -n $v ]] && float_test 'abs(m - r) <= 0.10 * r' "m=$v" "r=$SHAPED_MBPS"; then
            pass "a: shaped pingpong 64 KiB: $v MB/s within 10% of $SHAPED_MBPS"
        else
            fail "a: shaped pingpong 64 KiB: '$v' MB/s not within 10% of $SHAPED_MBPS"
        fi
    fi
    rc=0
    tb native 60 2 --profile native -- \
        "$BIN" pingpong --sizes 1M --samples 20 --label native -o "$f_native" || rc=$?
    if run_ok "a: native pingpong" "$rc" "$f_native"; then
        native=$(q "$f_native" mbps-best pingpong "$MIB") || native=''
        say "native 1 MiB: fastest sample $native MB/s, median $(q "$f_native" mbps pingpong "$MIB" 2>&1) MB/s"
        if [[ -n $shaped && -n $native ]] && float_test 'n > 10 * s' "n=$native" "s=$shaped"; then
            pass "a: native pingpong 1 MiB: $native MB/s > 10 x shaped ($shaped MB/s)"
        else
            fail "a: native pingpong 1 MiB: '$native' MB/s not > 10 x shaped ('$shaped' MB/s)"
        fi
    fi

    # (b) host names and link profile in the results file
    if [[ -s $f_shaped ]]; then
        v=$(q "$f_shaped" hosts 2>&1) || true
        expect "b: ranks' hosts are h1,h2 (got '$v')" test "$v" = h1,h2
        v=$(q "$f_shaped" profile 2>&1) || true
        expect "b: link_profile records shaped $SHAPED_RATE (got $v)" \
            grep -q "shaped.*$SHAPED_RATE" <<<"$v"
    else
        fail "b: no results file from the shaped run"
    fi

    # (c) sendrecv and exchange over 4 hosts
    rc=0
    tb four 60 4 --profile native -- \
        "$BIN" sendrecv exchange --sizes 0,1K,64K --samples 5 --label four -o "$f_four" || rc=$?
    if run_ok "c: sendrecv exchange on 4 hosts" "$rc" "$f_four"; then
        v=$(q "$f_four" kernels-ok sendrecv,exchange 0,1024,65536 2>&1) || true
        expect "c: every sendrecv/exchange result has status ok (got $v)" test "$v" = ok
        v=$(q "$f_four" result-nranks exchange 1024 2>&1) || true
        expect "c: exchange ran on 4 ranks (got $v)" test "$v" = 4
        v=$(q "$f_four" hosts 2>&1) || true
        expect "c: ranks' hosts are h1..h4 (got '$v')" test "$v" = h1,h2,h3,h4
    fi
}

# (d) a campaign of the native and shaped profiles, interleaved, 6 launches
# each, compared with the report tool: throughput at 1 MiB is "changed (worse)".
# Its verdict must not depend on the machine's load. With --bind-to none both
# ranks sometimes share one CPU for a whole launch (measured: a native launch
# at 12 ms per 1 MiB round trip, 87 MB/s, cpu_lost 50%, beside launches at
# 1000-1800 MB/s); the shaped link stays near 12 MB/s. At 4 + 4 launches two
# such native launches made Welch's p on the log values 0.027, and 0.054
# after Benjamini-Hochberg over the 2 rows: inconclusive. At 6 + 6 the worst
# mix (3 fast, 3 at 87 MB/s) gives p 0.0033 (x 2 = 0.0067; Holm alike), and
# every native launch still lies above every shaped one, so the Mann-Whitney
# gate reads 0.0022 (one overlapping pair would still give 0.0043), and the
# ratio's CI (at most 12 / 87) is far outside [0.95, 1.05]. The test prints
# the rows it judged and the load average, and every launch's values when
# the verdict is wrong.
readonly CAMPAIGN_N=6
campaign_test() {
    local report camp dir rc=0 verdict ratio lo hi p pt padj t0=$SECONDS
    report=$(dirname "$BIN")/p2pbench-report
    camp=$HERE/../../scripts/campaign.sh
    dir=$OUTDIR/campaign
    if [[ ! -x $report ]]; then
        fail "d: no p2pbench-report beside $BIN"
        return
    fi
    rm -rf -- "$dir"
    # bounded: 60 s per launch, 300 s for the campaign (about 45 s here)
    timeout -k 15 300 "$camp" -n "$CAMPAIGN_N" -o "$dir" -a native -b shaped \
        -A "$TESTBED run 2 --timeout 60 --profile native -- $BIN pingpong --sizes 64K,1M --samples 5" \
        -B "$TESTBED run 2 --timeout 60 --profile shaped $SHAPED_RATE -- $BIN pingpong --sizes 64K,1M --samples 5" \
        >"$OUTDIR/campaign.log" 2>&1 || rc=$?
    say "d: campaign exit status $rc after $((SECONDS - t0)) s; load average $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
    if ((rc != 0)); then
        tail -n 20 "$OUTDIR/campaign.log" | sed 's/^/    /'
    fi
    expect "d: campaign of $CAMPAIGN_N + $CAMPAIGN_N interleaved launches finished (see $OUTDIR/campaign.log)" test "$rc" -eq 0
    [[ $rc -eq 0 ]] || return 0
    "$report" compare "$dir"/native --vs "$dir"/shaped >"$OUTDIR/campaign-compare.txt" 2>&1 || true
    "$report" compare -f csv "$dir"/native --vs "$dir"/shaped \
        >"$OUTDIR/campaign-compare.csv" 2>&1 || true
    say "d: p2pbench-report compare native --vs shaped, throughput:"
    sed -n '/throughput: MB/,/^$/p' "$OUTDIR/campaign-compare.txt" | grep . | sed 's/^/    /'
    IFS='|' read -r verdict ratio lo hi p pt padj < <(python3 - "$OUTDIR/campaign-compare.csv" <<'EOF'
import csv, sys
with open(sys.argv[1]) as f:
    for r in csv.DictReader(l for l in f if not l.startswith('#')):
        if r.get('metric') == 'throughput' and r.get('kernel') == 'pingpong' and r.get('bytes') == '1048576':
            print('|'.join(r.get(k, '') for k in
                           ('verdict', 'ratio', 'ratio_ci95_low', 'ratio_ci95_high', 'p', 'p_t', 'p_adj')))
            break
EOF
    ) || true
    local what="ratio ${ratio:-?} [${lo:-?}..${hi:-?}], p_mwu ${p:-?}, p_t ${pt:-?}, p_adj ${padj:-?},"
    what+=" verdict '${verdict:-}'; load average $(cut -d' ' -f1-3 /proc/loadavg)"
    if [[ ${verdict:-} == 'changed (worse)' ]]; then
        pass "d: compare native vs shaped: throughput at 1 MiB is changed (worse): $what"
    else
        fail "d: compare native vs shaped: throughput at 1 MiB is not 'changed (worse)': $what"
        say "d: every launch (MB/s at 64K, 1M; share of CPU time lost):"
        python3 - "$dir" <<'EOF'
import glob, json, os, sys
for f in sorted(glob.glob(os.path.join(sys.argv[1], '*', '*.jsonl'))):
    vals = []
    for line in open(f):
        r = json.loads(line)
        if r.get('type') == 'result':
            d = r.get('disturbance') or {}
            vals.append('%d: %.2f (cpu lost %.0f%%)' % (r['bytes'], r.get('mbytes_per_sec') or 0,
                                                        d.get('cpu_lost_pct') or 0))
    print('    %s: %s' % (os.path.basename(f), '; '.join(vals)))
EOF
    fi
}

start=$SECONDS
say "load average $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs (rates suffer on a busy machine)"
contract_tests
campaign_test
say "took $((SECONDS - start)) s; outputs in $OUTDIR"
summary
