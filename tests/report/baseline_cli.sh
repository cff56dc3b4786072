#!/bin/sh
# SPDX-License-Identifier: MIT
# p2pbench-report baseline build|check on synthetic launches (gen_launches.sh:
# values with at most 1.6% spread between launches, host h0, CPU "Synthetic
# CPU"): a baseline of 10; 5 more of the same (ok), 3 at 1.5x the time
# (outside, slower, h0 a suspect, --fail-on-outside exits 1), 3 at 0.6x
# (faster), 2 of another link profile (no baseline for this class), too few
# launches, bad files and commands, a CPU name with a terminal escape.
#   baseline_cli.sh P2PBENCH-REPORT WORKDIR
set -eu
bin=$1 work=$2
DRIVER=baseline_cli
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/driver.sh"
gen="$here/gen_launches.sh"
rm -rf "$work" && mkdir -p "$work" && cd "$work"
sh "$gen" base b base 10 1
sh "$gen" same s same 5 1 2
sh "$gen" slow w slow 3 1.5
sh "$gen" fast f fast 3 0.6
GEN_RUN='"link_profile":"wan"' sh "$gen" wan n wan 2 1
sh "$gen" two t two 2 1

expect_status 0 "$bin" baseline build base -o base.json
grep -q "^class 1: cpu Synthetic CPU, .*, 1 host: 10 launches (hosts h0)" out.txt &&
    pass "build: one class of 10 launches" || fail "build: $(cat out.txt)"
expect_status 0 "$bin" baseline check base.json same --fail-on-outside
[ "$(grep -c '    ok: [0-9]* values within their envelopes' out.txt)" = 5 ] &&
    pass "check: 5 launches of the same kind ok" || fail "same: $(cat out.txt)"
expect_status 1 "$bin" baseline check base.json slow --fail-on-outside
grep -q "outside (slower), envelope" out.txt && grep -q "^#   h0: outside in 3 of 3 runs (slower latency .*- suspect$" out.txt &&
    grep -q "3 of 3 runs outside the baseline (--fail-on-outside)" err.txt &&
    pass "check: 1.5x the time is outside, slower; h0 a suspect; exit 1" || fail "slow: $(cat out.txt err.txt)"
expect_status 0 "$bin" baseline check base.json fast
grep -q "outside (faster)" out.txt && pass "check: 0.6x the time is outside, faster" || fail "fast: $(cat out.txt)"
expect_status 0 "$bin" baseline check base.json wan --fail-on-outside
[ "$(grep -c 'no baseline for this class (.*link wan' out.txt)" = 2 ] &&
    pass "check: another link profile has no baseline, not outside" || fail "wan: $(cat out.txt)"

# too few launches, bad commands, bad files: one line, exit 2 / 1
expect_status 2 "$bin" baseline build two -o two.json
grep -q "no host class has 3 complete launches" err.txt && [ ! -e two.json ] &&
    pass "build: 2 launches are too few, nothing written" || fail "two: $(cat err.txt)"
expect_status 2 "$bin" baseline build base
expect_status 2 "$bin" baseline check base.json
expect_status 2 "$bin" baseline nonsense base.json
expect_status 2 "$bin" baseline check base.json same -o x.json
expect_status 2 "$bin" baseline build base -o y.json --fail-on-outside
expect_status 1 "$bin" baseline check base/b-01.jsonl same
grep -q "not a p2pbench baseline" err.txt && [ "$(wc -l <err.txt)" = 1 ] &&
    pass "check: a results file as baseline is refused in one line" || fail "not a baseline: $(cat err.txt)"
sed 's/"sd_log":.*/"sd_log": -1/' base.json >bad.json
expect_status 1 "$bin" baseline check bad.json same
grep -q "bad.json: class 1, row 1: bad envelope" err.txt && pass "check: a bad envelope is named" ||
    fail "bad envelope: $(cat err.txt)"
printf '{"schema": "p2pbench-baseline/1", "classes": [' >cut.json
expect_status 1 "$bin" baseline check cut.json same

# a CPU name with an escape sequence reaches no terminal raw
mkdir -p evil && sed 's/Synthetic CPU/Evil\\u001b[31mCPU/' same/s-01.jsonl >evil/evil-01.jsonl
expect_status 0 "$bin" baseline check base.json evil
if grep -q "$(printf '\033')" out.txt; then fail "an escape reached the output"; else
    grep -q "no baseline for this class (cpu Evil?\[31mCPU" out.txt && pass "check: a hostile CPU name is sanitised" ||
        fail "evil: $(cat out.txt)"
fi
summary
