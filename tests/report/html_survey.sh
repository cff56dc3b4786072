#!/bin/sh
# SPDX-License-Identifier: MIT
# The survey section of the html report, on synthetic survey files
# (survey_gen.py): 6 hosts with a slow node h3 and a slow link h1-h5 (both by
# bandwidth) are named exactly so, as `survey -f json` names them; the two
# heatmaps carry a value in every measured cell, h3 (slow) and the framed
# link only in the bandwidth heatmap; no kernel section of the survey's
# rows; --min-off reaches the verdicts; 6 healthy hosts name nothing;
# 40 hosts get the per-node table instead of the heatmaps.
#   html_survey.sh P2PBENCH-REPORT SOURCE-DIR WORKDIR
set -eu
bin=$1 src=$2 work=$3
DRIVER=html_survey
. "$src/tests/lib/driver.sh"
gen="$src/tests/report/survey_gen.py"
rm -rf "$work" && mkdir -p "$work" && cd "$work"
python3 "$gen" slow.jsonl 6 h3 h1-h5
python3 "$gen" ok.jsonl 6
python3 "$gen" big.jsonl 40 h7 h1-h2
# count PATTERN FILE: occurrences (not lines) of a fixed string
count() { grep -o -F -- "$1" "$2" | wc -l | tr -d ' '; }
# eq GOT WANT WHAT
eq() { if [ "$1" = "$2" ]; then pass "$3"; else fail "$3: got '$1', want '$2'"; fi; }

expect_status 0 "$bin" html slow.jsonl -o s.html
[ -s err.txt ] && fail "stderr: $(head -3 err.txt)"
grep -q "<h2>Link survey: slow.jsonl</h2>" s.html && pass "a survey section" || fail "no survey section"
eq "$(count '<b>slow node</b>: h3 (bandwidth; its links x1.01 latency, x0.102 bandwidth' s.html)" 1 "slow node h3 named"
eq "$(count '<b>slow link</b>: h1-h5 (bandwidth; t 20.40 usec, 100.0 MB/s)' s.html)" 1 "slow link h1-h5 named"
eq "$(count '<b>slow ' s.html)" 2 "nothing else named slow"
expect_status 0 "$bin" survey slow.jsonl -f json
python3 -c 'import json; d = json.load(open("out.txt")); assert d["slow_nodes"] == ["h3"] and d["slow_links"] == [["h1", "h5"]]' &&
    pass "the survey command names the same" || fail "survey -f json differs"
eq "$(count 'aria-label="Latency t [usec], PingPong of 8 bytes, median"' s.html)" 1 "latency heatmap"
eq "$(count 'aria-label="Bandwidth MB/s, row to column (64 x 64K one way)"' s.html)" 1 "bandwidth heatmap"
eq "$(count 'class="hv' s.html)" 60 "a value in each of the 2 x 30 measured cells"
eq "$(count '>100</text>' s.html)" 12 "cells of 100 MB/s: h3's row and column, h1-h5 both ways"
eq "$(count '1 survey file. t in usec' s.html)" 1 "survey page subtitle"
eq "$(count 'none: every file complete' s.html)" 1 "notes box of a quiet survey not empty"
eq "$(count 'h3 (slow)' s.html)" 2 "h3 (slow) on both axes of the bandwidth heatmap only"
eq "$(count 'fill:none;stroke:#000;stroke-width:2.5"' s.html)" 3 "slow link framed in its 2 cells (and the legend)"
eq "$(count 'stroke-dasharray:5 3' s.html)" 3 "slow node's row and column outlined (and the legend)"
eq "$(grep -c '<section class="kernel">' s.html)" 0 "no kernel section for the survey's rows"
grep -q -i -E "<script|https?:|src=|href=|url\(" s.html && fail "the page is not self-contained"
grep -q '<td>h1-h3 <span class="flag">(slow node)</span></td><td class="num">100</td>' s.html &&
    pass "slowest pairs: h1-h3 100 MB/s (slow node)" || fail "slowest pairs table"

expect_status 0 "$bin" html slow.jsonl -o r.html --min-off 0.95 --mad-k 3
grep -q "<li>no slow node, no slow link</li>" r.html && pass "--min-off 0.95: nothing slow" || fail "--min-off not used"
expect_status 0 "$bin" html ok.jsonl -o ok.html
grep -q "<li>no slow node, no slow link</li>" ok.html && pass "healthy: nothing slow" || fail "healthy"
eq "$(count 'stroke-dasharray:5 3' ok.html)" 1 "healthy: no outline but the legend's"

expect_status 0 "$bin" html big.jsonl -o big.html
grep -q "<caption>40 nodes: per node" big.html && pass "40 hosts: per-node table" || fail "40 hosts table"
grep -q "aria-label=\"Latency" big.html && fail "40 hosts: a heatmap drawn"
eq "$(count 'slow node (bandwidth)</td>' big.html)" 1 "40 hosts: h7 the one slow node"
grep -q "<b>slow link</b>: h1-h2 (bandwidth" big.html && pass "40 hosts: slow link h1-h2" || fail "40 hosts link"
summary
