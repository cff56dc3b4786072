#!/bin/sh
# SPDX-License-Identifier: MIT
# docs/results.schema.json against imported logs: every IMB/PMB/OSU log of
# tests/data/cases, tests/data/synthetic and tests/data/roundtrip, converted by
# p2pbench-report import, must give results files the schema accepts
# (tests/bench/results_schema.sh does the same for real runs).
# Usage: results_schema.sh P2PBENCH_REPORT SOURCE_DIR WORKDIR
# Needs python3-jsonschema (scripts/deps.sh test).
set -u
bin=$1 src=$2 work=$3
# shellcheck source=tests/lib/driver.sh
. "$src/tests/lib/driver.sh"
rm -rf "$work" && mkdir -p "$work"
cd "$work" || fatal "cannot enter $work"
for d in cases synthetic roundtrip; do
    mkdir -p "$d"
    expect_status 0 "$bin" import "$src/tests/data/$d/"*.txt -o "$d"
done
n=$(find cases synthetic roundtrip -name '*.jsonl' | wc -l)
if [ "$n" -ge 20 ]; then pass; else fail "only $n results files imported"; fi
if python3 "$src/tests/lib/validate_results.py" "$src/docs/results.schema.json" \
    cases/*.jsonl synthetic/*.jsonl roundtrip/*.jsonl >valid.txt 2>&1; then
    pass
else
    fail "imported files do not match the schema:"
    head -30 valid.txt
fi
tail -1 valid.txt
summary
