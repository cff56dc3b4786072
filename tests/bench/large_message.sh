#!/bin/bash
# SPDX-License-Identifier: MIT
# A message of 2 GiB + 1 KiB (above the int count of one MPI_BYTE message) goes
# through PingPong and Sendrecv with every received byte checked, and the
# results file reads back with the byte count intact.
# Usage: large_message.sh MPIENV P2PBENCH VERIFY OUTDIR
set -euo pipefail
. "$1"
bin=$2 verify=$3 outdir=$4
mkdir -p "$outdir"
out="$outdir/large.jsonl"
rm -f "$out"
timeout 500 "$P2PB_MPIEXEC" $P2PB_NPFLAG 2 $P2PB_PREFLAGS "$bin" pingpong sendrecv -s 2097153K \
    --samples 1 --batch 1 --warmup 0 --check -o "$out"
"$verify" "$out" 2 complete 2
grep -q '"bytes":2147484672' "$out" || { echo "FAIL: no row of 2147484672 bytes"; exit 1; }
echo "1 passed, 0 failed"
