#!/bin/sh
# SPDX-License-Identifier: MIT
# Benchmark of `p2pbench-report compare` over 2 x 10 launch files of full default runs
# (4 kernels x 24 sizes each). Not a test: prints the wall time of compare.
#
# Usage: scripts/bench/report-compare.sh [DIR] [BUILD_DIR]
#   DIR        campaign directory with A/A-01..A-10.jsonl and B/B-01..B-10.jsonl; when they are
#              missing, scripts/campaign.sh makes them with `mpirun -np 2 p2pbench`
#              (about 30 s per launch on a 2-core VM: 10 minutes). Default /tmp/p2pb-bench-compare.
#   BUILD_DIR  where p2pbench and p2pbench-report are (default build)
# Do not run while a build or another benchmark runs.
set -eu
scripts=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-/tmp/p2pb-bench-compare}
build=${2:-build}
report="$build/p2pbench-report"
[ -x "$report" ] || { echo "no $report; build first" >&2; exit 2; }
# shellcheck disable=SC2012 # counting names of the form A-NN.jsonl: ls is fine
if [ "$(ls "$dir"/A/A-*.jsonl "$dir"/B/B-*.jsonl 2>/dev/null | wc -l)" -lt 20 ]; then
    sh "$scripts/campaign.sh" -n 10 -o "$dir" -a A -b B \
        -A "mpirun -np 2 $build/p2pbench" -B "mpirun -np 2 $build/p2pbench" >/dev/null
fi
rows=$(grep -c '"type":"result"' "$dir/A/A-01.jsonl")
best=
all=
for f in text json; do
    for _ in 1 2 3 4 5; do
        t0=$(date +%s%N)
        "$report" compare "$dir"/A --vs "$dir"/B -f $f >/dev/null
        t1=$(date +%s%N)
        ms=$(( (t1 - t0) / 1000000 ))
        all="$all $ms"
        if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
    done
done
echo "compare 10 vs 10 launches, $rows rows per launch: best ${best} ms; all runs (ms):$all"
