#!/bin/bash
# SPDX-License-Identifier: MIT
# Each bad input gives its one-line message on every rank, the documented
# exit code, and no hang. Usage: bad_input.sh MPIENV P2PBENCH OUTDIR NP
set -uo pipefail
. "$1"
bin=$2 outdir=$3 np=$4
mkdir -p "$outdir"
pass=0 fail=0

# expect CODE MESSAGE ARGS...: run with NP ranks, bounded; check code and message count.
expect() {
    local code=$1 msg=$2
    shift 2
    local err="$outdir/bad.err"
    timeout 120 "$P2PB_MPIEXEC" $P2PB_NPFLAG "$np" $P2PB_PREFLAGS "$bin" "$@" >/dev/null 2>"$err"
    local rc=$?
    local count
    count=$(grep -cF -- "p2pbench: error: $msg" "$err")
    if [ "$rc" = "$code" ] && [ "$count" = "$np" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL: p2pbench $*: exit $rc (want $code), message '$msg' seen $count times (want $np)"
        sed 's/^/    /' "$err" | head -20
    fi
}

expect 2 "unknown kernel 'pingpog' (see p2pbench --list)" pingpog
expect 2 "unknown kernel 'pingpog' (see p2pbench --list)" pingpong,pingpog
expect 2 "invalid message size 'abc'" -s 1K,abc
expect 2 "invalid size range '8..4': start above end" -s 8..4
expect 2 "message size 2147483649 is above 2^31-1 bytes and not a multiple of 1 KiB" -s 2147483649
expect 2 "unknown option '--bogus' (see p2pbench --help)" --bogus
expect 2 "option '--samples' needs a value" --samples
expect 2 "value '0' for --samples is out of range" --samples 0
expect 2 "unknown format 'xml' (text, imb, csv, markdown)" --format xml
expect 2 "invalid --msglog '5:2' (need 0 <= A <= B <= 62)" --msglog 5:2
expect 2 "invalid message size list '1,,2' (empty element)" -s 1,,2
expect 2 "invalid label (control characters or bytes that are not UTF-8)" -l "$(printf 'a\nb')"
expect 2 "invalid label (control characters or bytes that are not UTF-8)" -l "$(printf '\377x')"
expect 2 "unknown kernel 'ping?pong' (see p2pbench --list)" "$(printf 'ping\npong')"
rm -f "$outdir/fifo" && mkfifo "$outdir/fifo"
expect 1 "cannot write results file '$outdir/fifo': a FIFO with no reader" -s 0 -o "$outdir/fifo"
expect 1 "message size 1099511627776 (1T) needs" -s 1T
expect 1 "cannot write results file '/nonexistent-dir/x.jsonl'" -o /nonexistent-dir/x.jsonl

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
