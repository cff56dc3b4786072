#!/bin/bash
# SPDX-License-Identifier: MIT
# Faults: a corrupted payload under --check, a stalled peer under --timeout,
# and a rank killed mid-run. Every case ends within a bound and leaves a
# results file whose finished rows read back.
# Usage: faults.sh MPIENV P2PBENCH VERIFY OUTDIR
set -uo pipefail
. "$1"
bin=$2 verify=$3 outdir=$4
mkdir -p "$outdir"
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# 1. corrupted payload: exit 1, message names kernel, size, rank and offset
out="$outdir/corrupt.jsonl"
P2PB_TEST_FAULT=corrupt:1 timeout 120 "$P2PB_MPIEXEC" $P2PB_NPFLAG 2 $P2PB_PREFLAGS "$bin" sendrecv \
    -s 0,100 --check --samples 6 -o "$out" >/dev/null 2>"$outdir/corrupt.err"
rc=$?
[ $rc = 1 ] && ok || bad "corrupt: exit $rc, want 1"
grep -qF "p2pbench: rank 1: payload check failed: kernel sendrecv, size 100 bytes, byte offset 50" \
    "$outdir/corrupt.err" && ok || bad "corrupt: rank message missing"
grep -qF "p2pbench: error: payload check failed: kernel sendrecv, size 100 bytes" "$outdir/corrupt.err" \
    && ok || bad "corrupt: summary missing"
grep -q '"status":"failed"' "$out" && grep -q '"type":"end","status":"aborted"' "$out" && ok \
    || bad "corrupt: results file lacks the failed row or the aborted end record"

# 2. a peer that stalls: --timeout ends the run with a message naming kernel and size
out="$outdir/stall.jsonl"
start=$(date +%s)
P2PB_TEST_FAULT=stall:1:1024 timeout 120 "$P2PB_MPIEXEC" $P2PB_NPFLAG 2 $P2PB_PREFLAGS "$bin" pingpong \
    -s 0,1024 --samples 6 --timeout 3 -o "$out" >/dev/null 2>"$outdir/stall.err"
rc=$?
elapsed=$(( $(date +%s) - start ))
[ $rc != 0 ] && [ $rc != 124 ] && ok || bad "stall: exit $rc"
[ $elapsed -lt 60 ] && ok || bad "stall: took $elapsed s"
grep -qF "timeout: kernel pingpong, size 1024 bytes did not finish within 3 s" "$outdir/stall.err" \
    && ok || { bad "stall: timeout message missing"; cat "$outdir/stall.err"; }
"$verify" "$out" 2 incomplete 1 >/dev/null && ok || bad "stall: results file does not read back"
grep -q '"reason":"timeout","kernel":"pingpong","bytes":1024' "$out" && ok \
    || bad "stall: no aborted end record"

# 3. a rank killed mid-run: mpirun ends within a bound; finished rows read back; no end record
out="$outdir/killed.jsonl"
rm -f "$out"
"$P2PB_MPIEXEC" $P2PB_NPFLAG 2 $P2PB_PREFLAGS "$bin" pingpong pingping sendrecv exchange \
    --time-per-size 0.3 --min-samples 50 -o "$out" >/dev/null 2>"$outdir/killed.err" &
launcher=$!
for _ in $(seq 1 300); do
    [ -f "$out" ] && [ "$(wc -l <"$out")" -ge 4 ] && break
    sleep 0.1
done
victim=$(pgrep -f "^$bin .*$out" | tail -1)
if [ -n "$victim" ]; then
    kill -9 "$victim"
    for _ in $(seq 1 600); do kill -0 $launcher 2>/dev/null || break; sleep 0.1; done
    if kill -0 $launcher 2>/dev/null; then
        bad "killed: launcher still running 60 s after a rank was killed"
        pkill -9 -f "$out"
    else
        ok
    fi
    wait $launcher 2>/dev/null
    "$verify" "$out" 2 incomplete 3 >/dev/null && ok || bad "killed: results file does not read back as incomplete"
    report="$(dirname "$bin")/p2pbench-report"
    if [ -x "$report" ]; then
        "$report" show "$out" >/dev/null 2>"$outdir/killed-show.err"
        grep -qF "warning: $out: no end record (run cut short?); read " "$outdir/killed-show.err" && ok \
            || bad "killed: p2pbench-report show does not say the run is incomplete"
    fi
else
    bad "killed: no rank process found"
    wait $launcher
fi

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
