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
#   (a campaign on the testbed, compare finding a shaped link: netns_effect.sh,
#   a 10% effect with an A/A twin; the 100x effect this file once tested as
#   (d) is a weaker case of it)
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
    # second attempt is allowed when either size misses; a wrong rate formula
    # fails both.
    local attempt lo1=0.05 lo64=0.10 psi=''
    for attempt in 1 2; do
        rc=0
        cpu_pressure_mark
        tb shaped 90 2 --profile shaped "$SHAPED_RATE" -- \
            "$BIN" pingpong --sizes 64K,1M --samples 30 --label shaped -o "$f_shaped" || rc=$?
        shaped='' v=''
        if [[ $rc -eq 0 ]]; then
            shaped=$(q "$f_shaped" mbps-best pingpong "$MIB") || shaped=''
            v=$(q "$f_shaped" mbps-best pingpong 65536) || v=''
            say "shaped 1 MiB: fastest sample $shaped MB/s, median $(q "$f_shaped" mbps pingpong "$MIB" 2>&1) MB/s; 64 KiB: fastest $v MB/s"
        fi
        if [[ -n $shaped && -n $v ]] && float_test 'abs(m - r) <= 0.05 * r' "m=$shaped" "r=$SHAPED_MBPS" &&
            float_test 'abs(m - r) <= 0.10 * r' "m=$v" "r=$SHAPED_MBPS"; then
            break
        fi
        psi=$(cpu_pressure_pct)
        echo "$DRIVER: attempt $attempt: shaped rates 1 MiB '$shaped', 64 KiB '$v' MB/s (load average" \
            "$(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs, CPU pressure ${psi:-unknown}%)"
    done
    # A busy machine (CPU pressure, tests/lib/driver.sh: beside two spinning
    # processes a task waits for a CPU ~100% of the time; 1 MiB then read
    # 10.4 MB/s, 64 KiB 3.3 MB/s at load average 15): only the cap is judged.
    if [[ -n $psi ]] && ((psi >= 50)); then
        lo1=1 lo64=1
        say "a busy machine (CPU pressure $psi%): the shaped rates are judged only against the cap"
    fi
    if run_ok "a: shaped $SHAPED_RATE pingpong" "$rc" "$f_shaped"; then
        if [[ -n $shaped ]] && float_test 'm <= 1.05 * r and m >= (1 - lo) * r' "m=$shaped" "r=$SHAPED_MBPS" "lo=$lo1"; then
            pass "a: shaped pingpong 1 MiB: $shaped MB/s within -$lo1..+0.05 of $SHAPED_MBPS"
        else
            fail "a: shaped pingpong 1 MiB: '$shaped' MB/s not within -$lo1..+0.05 of $SHAPED_MBPS" \
                "(load average $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs)"
        fi
        # 64 KiB: tbf's bucket must not let a whole message through unshaped
        # (a 64 KiB bucket gave 23 MB/s); the fastest sample, within 10%
        if [[ -n $v ]] && float_test 'm <= 1.10 * r and m >= (1 - lo) * r' "m=$v" "r=$SHAPED_MBPS" "lo=$lo64"; then
            pass "a: shaped pingpong 64 KiB: $v MB/s within -$lo64..+0.10 of $SHAPED_MBPS"
        else
            fail "a: shaped pingpong 64 KiB: '$v' MB/s not within -$lo64..+0.10 of $SHAPED_MBPS"
        fi
    fi
    rc=0
    tb native 60 2 --profile native -- \
        "$BIN" pingpong --sizes 1M --samples 20 --label native -o "$f_native" || rc=$?
    if run_ok "a: native pingpong" "$rc" "$f_native"; then
        native=$(q "$f_native" mbps-best pingpong "$MIB") || native=''
        say "native 1 MiB: fastest sample $native MB/s, median $(q "$f_native" mbps pingpong "$MIB" 2>&1) MB/s"
        # busy (lo1 = 1): native only has to escape the shaper's cap (at load
        # average 15 its fastest 1 MiB sample read 95 MB/s, 1767 quiet)
        local x=10
        [[ $lo1 == 1 ]] && x=2
        if [[ -n $shaped && -n $native ]] && float_test "n > $x * s" "n=$native" "s=$shaped"; then
            pass "a: native pingpong 1 MiB: $native MB/s > $x x shaped ($shaped MB/s)"
        else
            fail "a: native pingpong 1 MiB: '$native' MB/s not > $x x shaped ('$shaped' MB/s)"
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

start=$SECONDS
say "load average $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs (rates suffer on a busy machine)"
contract_tests
say "took $((SECONDS - start)) s; outputs in $OUTDIR"
summary
