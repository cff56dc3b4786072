#!/bin/sh
# SPDX-License-Identifier: MIT
# Copies of one launch count once (issue 35, item 4): files that share the
# run record's start_utc, policy.seed and boot_id and every row are one launch.
#  1. compare of one launch copied 6 times against 6 launches: 5 warnings
#     naming the copies, side A has 1 launch, no verdict, and
#     --fail-on-regression refuses (exit 2: it cannot detect a regression);
#  2. the same launch with one row changed, or another start_utc, is another
#     launch (no warning);
#  3. scripts/gate.sh whose baseline command writes the same file every time
#     refuses (exit 2) instead of passing or failing the candidate;
#  4. (item 6) a row with 3 launches on a side (the other rows have 6: mixed
#     kernel sets per launch), 3x slower there: "not judged" (4 latency and 3
#     throughput rows: 0 bytes has no MB/s), exit 2, never a pass.
#   duplicates.sh P2PBENCH-REPORT SOURCE-DIR WORK-DIR
set -u
# shellcheck source=SCRIPTDIR/../lib/driver.sh
. "$2/tests/lib/driver.sh"
bin=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
gen() { sh "$src/tests/report/gen_launches.sh" "$@"; }

gen one a nat 1 1 >/dev/null
gen b b tcp 6 1.5 >/dev/null
mkdir a
for i in 1 2 3 4 5 6; do cp one/a-01.jsonl "a/copy-$i.jsonl"; done

# 1. six copies: one launch
expect_status 2 "$bin" compare a --vs b --fail-on-regression
n=$(grep -c "^warning: a/copy-[2-6].jsonl is a copy of the launch in a/copy-1.jsonl (same start_utc, policy.seed, boot_id and rows): counted once$" err.txt)
[ "$n" = 5 ] || fail "copies: $n warnings, want 5: $(cat err.txt)"
grep -q "cannot detect a regression" err.txt || fail "copies: the gate did not refuse: $(cat err.txt)"
grep -q "^# A = nat: 1 launch" out.txt || fail "copies: side A is not 1 launch: $(grep '^# A' out.txt)"
grep -q "changed (worse)" out.txt && fail "copies: a verdict from one launch: $(grep 'changed' out.txt)"
pass "copies count once"

# 2. a changed row, or another start time, is another launch
sed 's/"median":1.00400/"median":1.00500/' one/a-01.jsonl >a/copy-2.jsonl
sed 's/"start_utc":"2026-01-01T00:00:01Z"/"start_utc":"2026-01-01T00:09:01Z"/' one/a-01.jsonl >a/copy-3.jsonl
cmp -s a/copy-2.jsonl one/a-01.jsonl && fail "the changed-row file is the same (sed matched nothing)"
cmp -s a/copy-3.jsonl one/a-01.jsonl && fail "the start_utc file is the same (sed matched nothing)"
expect_status 2 "$bin" compare a --vs b --fail-on-regression
n=$(grep -c "is a copy of the launch" err.txt)
[ "$n" = 3 ] || fail "changed copies: $n warnings, want 3 (copies 4, 5, 6): $(cat err.txt)"
grep -q "copy-[23].jsonl is a copy" err.txt && fail "changed copies: a file that differs counted as a copy"
grep -q "^# A = nat: 3 launches" out.txt || fail "changed copies: side A is not 3 launches: $(grep '^# A' out.txt)"
pass "a file that differs is another launch"

# 3. the gate: the baseline command writes one launch every time
copy="sh -c 'while [ \$# -gt 0 ]; do [ \"\$1\" = -o ] && cp $work/one/a-01.jsonl \"\$2\"; shift; done' sh"
fresh="sh $src/tests/report/fake_launch.sh $work/fake.log 1.5"
expect_status 2 timeout 120 sh "$src/scripts/gate.sh" -r "$bin" -n 4 -s 3 -o gate "$copy" "$fresh"
[ "$(grep -c 'is a copy of the launch' err.txt)" = 3 ] ||
    fail "gate: want 3 copy warnings: $(cat err.txt)"
grep -q "cannot detect a regression" err.txt || fail "gate: no refusal: $(tail -3 err.txt)"
pass "gate refuses copies of one launch"

# 4. Sendrecv in 3 of the 6 candidate launches only, 3x slower there
gen ma ma nat 6 1 >/dev/null
gen mb mb tcp 6 1 3 >/dev/null
GEN_MINUTE=1 gen slow mb tcp 3 3 >/dev/null
for i in 1 2 3; do
    grep -v '"kernel":"sendrecv"' "mb/mb-0$i.jsonl" >x && mv x "mb/mb-0$i.jsonl"
    grep -v '"kernel":"pingpong"' "slow/mb-0$i.jsonl" | sed 1d >>"mb/mb-0$((i + 3)).jsonl.s"
done
for i in 4 5 6; do # rows of Sendrecv from the slow launches, the end record last
    grep -v '"kernel":"sendrecv"' "mb/mb-0$i.jsonl" | grep -v '"type":"end"' >x
    cat x "mb/mb-0$i.jsonl.s" >"mb/mb-0$i.jsonl" && rm -f x "mb/mb-0$i.jsonl.s"
done
expect_status 2 "$bin" compare ma --vs mb --fail-on-regression
grep -q "^p2pbench-report: error: --fail-on-regression: not judged: 7 rows with fewer than 4 launches on a side (first: latency sendrecv 0, 6 vs 3 launches)" err.txt ||
    fail "mixed kernel sets: $(cat err.txt)"
grep -q "row.* changed for the worse" err.txt && fail "mixed kernel sets: counted as judged"
pass "a row with too few launches is not judged"
summary
