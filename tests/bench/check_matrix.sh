#!/bin/bash
# SPDX-License-Identifier: MIT
# Every IMB kernel with --check at sizes including 0 and non-powers of two,
# then the results file against the definitions (verify_results).
# Usage: check_matrix.sh MPIENV P2PBENCH VERIFY OUTDIR NP
set -euo pipefail
. "$1"
bin=$2 verify=$3 outdir=$4 np=$5
mkdir -p "$outdir"
out="$outdir/check-np$np.jsonl"
rm -f "$out"
timeout 300 bash -c "$(declare -f mpirun_np); P2PB_MPIEXEC='$P2PB_MPIEXEC' P2PB_NPFLAG='$P2PB_NPFLAG' P2PB_PREFLAGS='$P2PB_PREFLAGS'; mpirun_np $np '$bin' pingpong pingping sendrecv exchange --check -s 0,1,3,1000,4K,65537 --samples 6 --batch 2 --warmup 1 -o '$out'"
"$verify" "$out" "$np" complete 24
