#!/bin/sh
# SPDX-License-Identifier: MIT
# p2pbench-report survey on a survey killed before or during its retests
# (survey_gen.py --retest: 6 hosts, h3 a slow node, h1-h5 a slow link; the
# first pass is lines 2-46, h3's 5 retested pairs lines 47-61, h1-h5's
# retest lines 62-64, the end record line 65), cut as a killed run leaves
# it: whole lines, no end record.
#   - cut after the first pass: both verdicts marked 'suspect, not
#     retested' (text, json "not_retested", html), the reason "the survey
#     stopped before its retests";
#   - cut after h3's retests: h3 confirmed, only h1-h5 marked;
#   - the whole file: nothing marked; h3's retests were capped: "c" in the
#     matrix, "capped_pairs" and the csv column name exactly h3's 5 pairs.
#   survey_partial.sh P2PBENCH-REPORT SOURCE-DIR WORKDIR
set -eu
bin=$1 src=$2 work=$3
DRIVER=survey_partial
. "$src/tests/lib/driver.sh"
mkdir -p "$work" && cd "$work"
python3 "$src/tests/report/survey_gen.py" whole.jsonl 6 h3 h1-h5 --retest
[ "$(wc -l <whole.jsonl)" = 65 ] && [ "$(grep -c '"retest": true' whole.jsonl)" = 18 ] &&
    sed -n 47p whole.jsonl | grep -q '"hosts": \["h1", "h3"\].*"retest": true' &&
    sed -n 62p whole.jsonl | grep -q '"hosts": \["h1", "h5"\].*"retest": true' ||
    fatal "survey_gen.py --retest: not the layout this test cuts"
head -n 46 whole.jsonl >first.jsonl
head -n 61 whole.jsonl >mid.jsonl

# verdicts FILE: slow nodes, slow links and those not retested, from -f json
verdicts() {
    "$bin" survey "$1" -f json -m throughput 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
nr = d["not_retested"]
print(d["slow_nodes"], d["slow_links"], nr["slow_nodes"], nr["slow_links"])'
}

expect_status 0 "$bin" survey first.jsonl -m throughput
grep -q "^slow node: h3 (bandwidth; .*) - suspect, not retested$" out.txt &&
    grep -q "^slow link: h1-h5 (bandwidth; .*) - suspect, not retested$" out.txt &&
    pass "first pass only: h3 and h1-h5 marked suspect, not retested" ||
    fail "first pass only: $(grep '^slow' out.txt)"
grep -q "^# 2 verdicts below marked 'suspect, not retested': .*(the survey stopped before its retests)$" out.txt &&
    pass "first pass only: the reason" || fail "first pass only: no reason line"
grep -q "INCOMPLETE" out.txt && grep -q "no complete end record" err.txt &&
    pass "first pass only: incomplete said" || fail "first pass only: incomplete not said"
got=$(verdicts first.jsonl)
[ "$got" = "['h3'] [['h1', 'h5']] ['h3'] [['h1', 'h5']]" ] &&
    pass "first pass only: json not_retested" || fail "first pass only json: $got"
expect_status 0 "$bin" html first.jsonl -o first.html
[ "$(grep -c 'suspect, not retested' first.html)" = 2 ] && pass "first pass only: html marks both" ||
    fail "html: $(grep -c 'suspect, not retested' first.html) marks"

expect_status 0 "$bin" survey mid.jsonl -m throughput
grep -q "^slow node: h3 (bandwidth; [^)]*)$" out.txt &&
    grep -q "^slow link: h1-h5 (bandwidth; .*) - suspect, not retested$" out.txt &&
    grep -q "^# 1 verdict below marked" out.txt &&
    pass "cut in the retests: h3 retested, h1-h5 marked" || fail "cut in the retests: $(grep '^[#]* *[0-9]* *verdict\|^slow' out.txt)"
got=$(verdicts mid.jsonl)
[ "$got" = "['h3'] [['h1', 'h5']] [] [['h1', 'h5']]" ] && pass "cut in the retests: json" ||
    fail "cut in the retests json: $got"

expect_status 0 "$bin" survey whole.jsonl -m throughput
grep -q "suspect, not retested" out.txt && fail "whole: a verdict marked not retested" ||
    pass "whole: nothing marked not retested"
grep -q "^h3 .* 100.0rc .* 100.0rc " out.txt && grep -q "^h1 .* 100.0r " out.txt &&
    pass "whole: capped cells marked c" || fail "whole: matrix: $(grep -A7 '^# Bandwidth' out.txt)"
got=$(verdicts whole.jsonl)
[ "$got" = "['h3'] [['h1', 'h5']] [] []" ] && pass "whole: json" || fail "whole json: $got"
"$bin" survey whole.jsonl -f json | python3 -c '
import json, sys
got = sorted(sorted(p) for p in json.load(sys.stdin)["capped_pairs"])
want = sorted(sorted(["h3", h]) for h in ("h1", "h2", "h4", "h5", "h6"))
sys.exit(got != want)' && pass "whole: capped_pairs are h3's 5 pairs" || fail "whole: capped_pairs"
expect_status 0 "$bin" survey whole.jsonl -f csv
head -1 out.txt | grep -q ",capped$" && [ "$(grep -c ',1$' out.txt)" = 5 ] &&
    [ "$(grep -c '^h[0-9]*,h3,\|^h3,' out.txt)" = 5 ] && pass "whole: csv capped column" ||
    fail "whole csv: $(cat out.txt)"
summary
