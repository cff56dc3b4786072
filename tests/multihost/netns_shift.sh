#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# netns_shift.sh: a level change while a row is measured is flagged (#12).
# Two network-namespace hosts (scripts/testbed/testbed.sh) on a link shaped
# to 100 Mbit/s, PingPong 64 KiB in one round of 60 samples of 4 iterations:
#   (a) with a 4 MB token bucket (P2PB_TESTBED_BURST: a bucket running dry,
#       as on cloud VMs) the first 60 or so iterations pass at veth speed
#       (more on a busy machine, whose slower iterations let the bucket refill:
#       an 8 MB bucket left fast samples in the last third at load average 5.5),
#       then the rate: the row's "shift" is flagged, the last third slower;
#   (b) with tbf's usual bucket (a few packets) every sample sees the rate:
#       not flagged.
# Usage: netns_shift.sh P2PBENCH_BIN OUTDIR
# Exit 0 all passed, 1 a check failed, 2 usage, 77 skipped (not root, or ip,
# unshare, tc, mpirun, python3 missing; with P2PB_REQUIRE_NETNS=1 that fails).
set -euo pipefail

# shellcheck disable=SC2034 # used by driver.sh
DRIVER=netns_shift
# shellcheck disable=SC2034
REQUIRE_VAR=P2PB_REQUIRE_NETNS
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=SCRIPTDIR/../lib/driver.sh
. "$HERE/../lib/driver.sh"
TESTBED=$HERE/../../scripts/testbed/testbed.sh

[[ $# -eq 2 ]] || {
    echo "Usage: $0 P2PBENCH_BIN OUTDIR" >&2
    exit 2
}
BIN=$1 OUTDIR=$2
netns_require

netns_own_testbed p2ps

# shift_of FILE: "flagged first_median last_median" of the 64 KiB row, or "none"
shift_of() {
    python3 -c 'import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("type") == "result" and r.get("bytes") == 65536 and r.get("status") == "ok":
        s = r.get("shift")
        print("none" if s is None else "%s %g %g" % (str(s["flagged"]).lower(),
              s["first_median_usec"], s["last_median_usec"]))' "$1"
}

# run_case CASE: one run; sets rc, flagged, first, last
run_case() {
    local f=$OUTDIR/$1.jsonl burst='' v
    [[ $1 = burst ]] && burst=4000000
    rc=0
    P2PB_TESTBED_BURST=$burst "$TESTBED" run 2 --timeout 120 --profile shaped 100mbit -- \
        "$BIN" pingpong --sizes 64K --rounds 1 --samples 60 --batch 4 --warmup 0 \
        -o "$f" >"$OUTDIR/$1.log" 2>&1 || rc=$?
    v=$(shift_of "$f" 2>/dev/null) || v=''
    say "$1: shift (flagged, first-third median, last-third median usec): ${v:-?}"
    read -r flagged first last <<<"${v:-x 0 0}"
}
# As the other netns tests: one second attempt (a loaded machine can slow the
# first samples of the plain link too)
for case in burst plain; do
    for attempt in 1 2; do
        cpu_pressure_mark
        run_case "$case"
        want=true
        [[ $case = plain ]] && want=false
        [[ $rc -eq 0 && $flagged = "$want" ]] && break
        say "attempt $attempt: load average $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
    done
    expect "$case: the run exits 0 (exit $rc)" test "$rc" -eq 0
    psi=$(cpu_pressure_pct)
    if [[ $case = burst && $flagged != true && -n $psi ]] && ((psi >= 50)); then
        # A busy machine (CPU pressure, tests/lib/driver.sh): disturbed
        # samples widen the thirds' spread and the shift may go unflagged
        # (at load average 10-15 even the last third's median was not slower:
        # the slowed iterations let the bucket refill); then the row must say
        # it was disturbed (mark 'd').
        say "a busy machine (CPU pressure $psi%): the shift is judged as flagged or disturbed"
        expect "a: burst: not flagged on a busy machine, but marked disturbed 'd'" \
            grep -qE '^ +65536 +60[*]*d' "$OUTDIR/$case.log"
    elif [[ $case = burst ]]; then
        expect "a: burst: the shift is flagged" test "$flagged" = true
        expect "a: burst: the last third is slower" float_test "l > 1.5 * f" "l=$last" "f=$first"
        expect "a: burst: the table marks the row 's'" grep -qE '^ +65536 +60[*d]*s ' "$OUTDIR/$case.log"
    else
        expect "b: plain shaped link: tested and not flagged" test "$flagged" = false
    fi
done
summary
