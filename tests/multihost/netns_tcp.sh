#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# netns_tcp.sh: the raw TCP kernels across network-namespace hosts
# (scripts/testbed/testbed.sh), 2 hosts on one link shaped to 100 Mbit/s:
#   (a) tcp-uniband 64 KiB, window 16: each direction within 5% of 12.5 MB/s
#       (a check of shaping plus kernel, not a performance claim), and the
#       1->0 row carries the asymmetry;
#   (b) tcp-pingpong with --check over the same link: status ok;
#   (c) the run record names the interface MPI uses (the veth, basis
#       btl_tcp_if_include);
#   (d) a wrong interface (--tcp-if lo: rank 1 cannot reach rank 0's
#       loopback in another namespace) ends with an error naming the address,
#       not a hang.
# Links with MTU 9000 (P2PB_TESTBED_MTU): tbf counts every frame with its
# headers, so TCP's payload ceiling is 12.5 x 8948 / 9014 = 12.41 MB/s (with
# the default MTU 1500 it is 12.5 x 1448 / 1514 = 11.95, 4.4% under the line
# rate, which left no room for a loaded machine). The fastest sample can beat
# the ceiling by at most tbf's bucket (4 frames, 36 KB, here) per 1 MiB
# iteration: 12.41 x 1.035 = 12.85 MB/s, under the +5% bound (13.125).
# Measured: 12.49 to 12.83 MB/s in 9 runs, 2 of them beside two busy loops on
# this 2-CPU machine. As netns.sh, rates are those of the fastest sample (tbf caps the rate, CPU
# load on a shared machine only slows samples down); one second attempt.
#
# Usage: netns_tcp.sh P2PBENCH_BIN OUTDIR
# Exit 0 all passed, 1 a check failed, 2 usage, 77 skipped (not root, or ip,
# unshare, tc, mpirun, python3 missing; with P2PB_REQUIRE_NETNS=1 that fails).
set -euo pipefail

# shellcheck disable=SC2034 # used by driver.sh
DRIVER=netns_tcp
# shellcheck disable=SC2034
REQUIRE_VAR=P2PB_REQUIRE_NETNS
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=SCRIPTDIR/../lib/driver.sh
. "$HERE/../lib/driver.sh"
TESTBED=$HERE/../../scripts/testbed/testbed.sh
RESULTS=$HERE/../lib/p2pb_results.py

readonly SHAPED_RATE=100mbit
readonly SHAPED_MBPS=12.5 # 100 Mbit/s in MB/s (10^6 B/s)
readonly SIZE=65536

[[ $# -eq 2 ]] || {
    echo "Usage: $0 P2PBENCH_BIN OUTDIR" >&2
    exit 2
}
BIN=$1 OUTDIR=$2
netns_require

netns_own_testbed p2pc
export P2PB_TESTBED_MTU=9000

q() { python3 "$RESULTS" "$@"; }
within() { float_test "abs(m - r) <= $3 * r" "m=$1" "r=$2"; }

f=$OUTDIR/tcp-shaped.jsonl
up='' down=''
for attempt in 1 2; do
    rc=0
    say "attempt $attempt: testbed.sh run 2 --profile shaped $SHAPED_RATE -- tcp-uniband tcp-pingpong"
    "$TESTBED" run 2 --timeout 120 --profile shaped "$SHAPED_RATE" -- \
        "$BIN" tcp-uniband tcp-pingpong --sizes 1K,"$SIZE" --window 16 --samples 15 --warmup 2 \
        --check --label tcp-shaped -o "$f" >"$OUTDIR/tcp-shaped.log" 2>&1 || rc=$?
    up='' down=''
    if ((rc == 0)); then
        up=$(q "$f" mbps-best tcp-uniband "$SIZE" '0->1') || up=''
        down=$(q "$f" mbps-best tcp-uniband "$SIZE" '1->0') || down=''
    else
        tail -n 20 "$OUTDIR/tcp-shaped.log" | sed 's/^/    /'
    fi
    say "tcp-uniband $SIZE B: 0->1 ${up:-?} MB/s, 1->0 ${down:-?} MB/s (fastest samples)"
    if [[ -n $up && -n $down ]] && within "$up" "$SHAPED_MBPS" 0.05 && within "$down" "$SHAPED_MBPS" 0.05; then
        break
    fi
    say "load average $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
done

expect "run exited 0 and its results file is complete" test "$rc" -eq 0 -a "$(q "$f" end 2>/dev/null)" = complete
for d in up down; do
    v=${!d}
    if [[ -n $v ]] && within "$v" "$SHAPED_MBPS" 0.05; then
        pass "a: tcp-uniband $d: $v MB/s within 5% of $SHAPED_MBPS"
    else
        fail "a: tcp-uniband $d: '$v' MB/s not within 5% of $SHAPED_MBPS"
    fi
done
v=$(python3 -c 'import json,sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r.get("kernel") == "tcp-uniband" and r.get("variant") == "1->0" and r.get("bytes") == 65536:
        print((r.get("asymmetry") or {}).get("vs"))' "$f" 2>/dev/null) || v=''
expect "a: the 1->0 row carries the asymmetry against 0->1 (got '$v')" test "$v" = '0->1'
v=$(q "$f" kernels-ok tcp-pingpong 1024,"$SIZE" 2>&1) || true
expect "b: tcp-pingpong --check over the shaped link: status ok (got $v)" test "$v" = ok
v=$(python3 -c 'import json,sys
run = json.loads(open(sys.argv[1]).readline())
nic = [h.get("knobs", {}).get("nic", {}) for h in run["hosts"].values()]
print(",".join(sorted("%s:%s" % (n.get("interface"), n.get("interface_basis")) for n in nic)))' "$f" 2>/dev/null) || v=''
expect "c: run record names each host's interface by btl_tcp_if_include (got '$v')" \
    grep -qE '^[^,:]+:btl_tcp_if_include,[^,:]+:btl_tcp_if_include$' <<<"$v"

rc=0
"$TESTBED" run 2 --timeout 60 --profile native -- \
    "$BIN" tcp-pingpong --sizes 1K --samples 3 --tcp-if lo --no-results \
    >"$OUTDIR/tcp-lo.log" 2>&1 || rc=$?
expect "d: --tcp-if lo across hosts fails, without a timeout (exit $rc)" test "$rc" -ne 0 -a "$rc" -ne 124
expect "d: rank 1 names the address it could not reach" \
    grep -q "rank 1: tcp: cannot connect: 127.0.0.1:" "$OUTDIR/tcp-lo.log"
summary
