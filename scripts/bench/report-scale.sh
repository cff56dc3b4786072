#!/bin/sh
# SPDX-License-Identifier: MIT
# Scaling of `p2pbench-report show` (and compare) with the number of rows: makes
# results files of 32k and 128k rows (the run record of tests/data/labels/evil-label.jsonl,
# then kernel "memcpy", variants "rank 0".."rank N/32-1", 32 sizes 1 B..2 GiB each) and
# prints the best of 3 wall times of show for each and the ratio show(128k)/show(32k).
# Loading is linear in rows when the ratio stays near 4 (the issue's bound is 6).
# Not a test: run it on a quiet machine.
#
# Usage: scripts/bench/report-scale.sh [BUILD_DIR] [WORK_DIR]
#   BUILD_DIR  where p2pbench-report is (default build)
#   WORK_DIR   where the generated files go (default: a new directory under /tmp, removed)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-build}
report="$build/p2pbench-report"
[ -x "$report" ] || { echo "no $report; build first" >&2; exit 2; }
if [ -n "${2:-}" ]; then work=$2; mkdir -p "$work"; else
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
fi
# gen ROWS FILE: the run record, ROWS result records, an end record.
gen() {
    sed -n 1p "$root/tests/data/labels/evil-label.jsonl" >"$2"
    awk -v rows="$1" 'BEGIN {
        for (i = 0; i < rows; i++) {
            v = int(i / 32); b = 2 ^ (i % 32); t = 1 + b / 10000
            printf "{\"type\":\"result\",\"kernel\":\"memcpy\",\"display_name\":\"Memcpy\","
            printf "\"variant\":\"rank %d\",\"bytes\":%.0f,\"nranks\":1,\"active_ranks\":1,", v, b
            printf "\"imb_layout\":\"t\",\"bytes_factor\":1,\"status\":\"ok\",\"samples\":10,"
            printf "\"iterations_per_sample\":1,\"repetitions\":10,\"warmup\":2,\"t_usec\":{"
            printf "\"min\":%g,\"p25\":%g,\"median\":%g,\"p75\":%g,\"p99\":%g,\"max\":%g,", t, t, t, t, t, t
            printf "\"mean\":%g,\"stddev\":0,\"ci95_low\":%g,\"ci95_high\":%g},", t, t, t
            printf "\"mbytes_per_sec\":%g,\"outliers\":0}\n", b / t
        }
        print "{\"type\":\"end\",\"status\":\"complete\",\"wall_sec\":1}"
    }' >>"$2"
}
# best3 CMD...: the least wall time of three runs, in ms.
best3() {
    best=
    for _ in 1 2 3; do
        t0=$(date +%s%N)
        "$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; exit 1; }
        t1=$(date +%s%N)
        ms=$(((t1 - t0) / 1000000))
        if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
    done
    echo "$best"
}
gen 32768 "$work/r32k.jsonl"
gen 131072 "$work/r128k.jsonl"
s32=$(best3 "$report" show "$work/r32k.jsonl")
s128=$(best3 "$report" show "$work/r128k.jsonl")
cp "$work/r32k.jsonl" "$work/r32k-b.jsonl"
c32=$(best3 "$report" compare "$work/r32k.jsonl" --vs "$work/r32k-b.jsonl")
echo "show 32768 rows: ${s32} ms; show 131072 rows: ${s128} ms; compare 32768 vs 32768 rows: ${c32} ms"
awk -v a="$s32" -v b="$s128" 'BEGIN { printf "ratio show(128k)/show(32k): %.2f (bound 6)\n", b / (a > 0 ? a : 1) }'
