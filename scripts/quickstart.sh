#!/bin/bash
# SPDX-License-Identifier: MIT
# First command of the README: install what is missing, build, run the
# default suite (PingPong, PingPing, Sendrecv, Exchange over 0 .. 4 MiB) on
# 2 local ranks, print the tables and the path of the results file.
#   scripts/quickstart.sh [extra p2pbench options...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=SCRIPTDIR/lib/common.sh
. "$root/scripts/lib/common.sh"
"$root/scripts/deps.sh" build
cmake --preset release -S "$root" >/dev/null
cmake --build "$root/build" -j"$(nproc)" >/dev/null
mkdir -p "$root/results"
out="$root/results/p2pbench-$(date -u +%Y%m%dT%H%M%SZ).jsonl"
allow_mpi_as_root
mpirun -np 2 "$root/build/p2pbench" -o "$out" "$@"
