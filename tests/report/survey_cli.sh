#!/bin/sh
# SPDX-License-Identifier: MIT
# p2pbench-report survey on synthetic survey files (survey_gen.py): 6 hosts
# with a slow node h3 and a slow link h1-h5 (text, json, csv, --fail-on-slow,
# a heatmap when gnuplot is there), 6 healthy hosts (nothing, exit 0),
# 40 hosts (the per-host summary instead of the matrices), bad input.
#   survey_cli.sh P2PBENCH-REPORT SOURCE-DIR WORKDIR
set -eu
bin=$1 src=$2 work=$3
DRIVER=survey_cli
. "$src/tests/lib/driver.sh"
gen="$src/tests/report/survey_gen.py"
mkdir -p "$work" && cd "$work"
python3 "$gen" slow.jsonl 6 h3 h1-h5
python3 "$gen" ok.jsonl 6
python3 "$gen" big.jsonl 40 h7 h1-h2

expect_status 0 "$bin" survey slow.jsonl
grep -q "^slow node: h3 (bandwidth" out.txt && pass "text: slow node h3" || fail "text: $(tail -3 out.txt)"
grep -q "^slow link: h1-h5 (bandwidth" out.txt && pass "text: slow link h1-h5" || fail "text link"
[ "$(grep -c '^slow ' out.txt)" = 2 ] && pass "text: nothing else slow" || fail "text: $(grep '^slow' out.txt)"
grep -q "^h3 .* 100.0 .* 100.0 " out.txt && pass "text: bandwidth matrix row h3" || fail "matrix row h3"
expect_status 0 "$bin" survey slow.jsonl -f json
python3 -c '
import json, sys
d = json.load(open("out.txt"))
assert d["slow_nodes"] == ["h3"], d["slow_nodes"]
assert d["slow_links"] == [["h1", "h5"]], d["slow_links"]
assert d["nodes"] == ["h%d" % i for i in range(1, 7)]
assert abs(d["node_bandwidth_factor"][2] - 0.1) < 0.01, d["node_bandwidth_factor"]
assert d["bandwidth_mbs"][2][0] == 100 and d["latency_usec"][0][0] is None
' && pass "json: slow_nodes, slow_links, factor 0.1 of h3" || fail "json"
expect_status 0 "$bin" survey slow.jsonl -f csv
[ "$(wc -l <out.txt)" = 16 ] && pass "csv: 15 pairs" || fail "csv: $(wc -l <out.txt) lines"
grep -q "^h1,h5,.*,0,1,0,0,0$" out.txt && pass "csv: h1-h5 slow link" || fail "csv h1-h5"
# a host name a spreadsheet would run as a formula: quoted with a leading '
sed 's/"h1"/"@h1"/g' slow.jsonl >formula.jsonl
expect_status 0 "$bin" survey formula.jsonl -f csv
grep -q "^\"'@h1\",h2," out.txt && pass "csv: host @h1 as text" || fail "csv formula host: $(sed -n 2p out.txt)"
expect_status 1 "$bin" survey slow.jsonl --fail-on-slow
grep -q "1 slow node, 1 slow link (--fail-on-slow)" err.txt && pass "--fail-on-slow: exit 1" || fail "fail-on-slow"
expect_status 0 "$bin" survey slow.jsonl -m latency --fail-on-slow
pass "-m latency: bandwidth not judged"
expect_status 0 "$bin" survey ok.jsonl --fail-on-slow
grep -q "^no slow node, no slow link" out.txt && pass "healthy: nothing" || fail "healthy"
expect_status 0 "$bin" survey big.jsonl
grep -q "^# 40 nodes: per node" out.txt && pass "40 hosts: summary" || fail "40 hosts summary"
grep -q "^h7 .*slow node" out.txt && grep -q "^slow link: h1-h2" out.txt &&
    pass "40 hosts: h7 and h1-h2" || fail "40 hosts verdicts: $(grep '^slow' out.txt)"
if command -v gnuplot >/dev/null 2>&1; then
    expect_status 0 "$bin" survey slow.jsonl --heatmap map.svg
    grep -q "h3 (slow)" map.svg && pass "heatmap: svg names h3 (slow)" || fail "heatmap svg"
    # a host named 'h1 and a mode holding a quote, ';' and a gnuplot command:
    # all text in the heatmap, nothing run (no file pwned)
    sed -e "s/\"h1\"/\"'h1\"/g" -e "s/\"mode\": \"alone\"/\"mode\": \"x'; system('touch pwned'); print '\"/" \
        slow.jsonl >quote.jsonl
    expect_status 0 "$bin" survey quote.jsonl --heatmap quote.svg
    [ ! -e pwned ] && pass "heatmap: a quote in the mode runs nothing" || fail "heatmap: the mode ran a command"
    grep -q ">'h1</tspan>" quote.svg && grep -q "pairs x'; system('tou" quote.svg &&
        pass "heatmap: host 'h1 and the mode as text" || fail "heatmap quotes: $(grep "h1\|pairs" quote.svg | head -3)"
    expect_status 0 "$bin" survey big.jsonl --heatmap big.png
    [ -s big.png ] && pass "heatmap: 40 hosts png" || fail "heatmap png"
else
    say "gnuplot missing: heatmaps not checked"
fi
# a gnuplot that writes nothing, fails or hangs: exit 1, an image already there
# is left as it was, and no file is left behind otherwise
printf '#!/bin/sh\ncat >/dev/null\nexit 0\n' >silentgp && chmod +x silentgp
printf '#!/bin/sh\nexec sleep 600\n' >hanggp && chmod +x hanggp
echo GOOD >keep.png
expect_status 1 "$bin" survey slow.jsonl --heatmap keep.png --gnuplot ./silentgp
[ "$(cat keep.png)" = GOOD ] && pass "heatmap: failed gnuplot keeps the old image" || fail "keep.png replaced"
expect_status 1 "$bin" survey slow.jsonl --heatmap none.svg --gnuplot ./hanggp --gnuplot-timeout 1
grep -q "did not finish within 1 s writing 'none.svg'" err.txt && pass "heatmap: hanging gnuplot stopped" ||
    fail "hanging gnuplot: $(cat err.txt)"
[ -z "$(ls none.svg* keep.png.* 2>/dev/null)" ] && pass "heatmap: no file left" ||
    fail "heatmap: files left: $(ls none.svg* keep.png.*)"
expect_status 2 "$bin" survey slow.jsonl --heatmap map.jpg
grep -q "heatmap 'map.jpg' must end in .png or .svg" err.txt && pass "bad heatmap name" || fail "jpg"
expect_status 2 "$bin" survey slow.jsonl ok.jsonl
grep -q "survey takes exactly one results file" err.txt && pass "two files: exit 2" || fail "two"
expect_status 2 "$bin" survey slow.jsonl -f markdown
expect_status 2 "$bin" survey slow.jsonl --min-off 1.5
grep -q "value '1.5' for --min-off is out of range (0..0.99)" err.txt && pass "bad --min-off" || fail "min-off"
# a subnormal value is too small, not out of a range that holds 0 (issue 35)
expect_status 2 "$bin" survey slow.jsonl --mad-k 1e-308
grep -q "value '1e-308' for --mad-k is too small (below 2.22507e-308" err.txt && pass "subnormal --mad-k" ||
    fail "subnormal --mad-k: $(cat err.txt)"
expect_status 2 "$bin" compare slow.jsonl --vs ok.jsonl -t 1e-320
grep -q "invalid value '1e-320' for --threshold: too small" err.txt && pass "subnormal -t" ||
    fail "subnormal -t: $(cat err.txt)"
expect_status 2 "$bin" survey slow.jsonl --vs ok.jsonl
printf '{"type":"run","schema":"p2pbench/1"}\n{"type":"end","status":"complete"}\n' >none.jsonl
expect_status 1 "$bin" survey none.jsonl
grep -q "none.jsonl: no survey rows" err.txt && pass "no survey rows: exit 1" || fail "none"
printf '{"type":"result","pair":[3,1],"hosts":["a","b"]}\n' >badpair.jsonl
expect_status 1 "$bin" survey badpair.jsonl
grep -q "badpair.jsonl:1: malformed survey row" err.txt && pass "bad pair: exit 1" || fail "badpair"
# pairs checked against the run record; a file whose rows name far more nodes
# than they could survey is refused before n x n matrices are made
{ head -1 ok.jsonl; grep -m1 '"metric": *"latency"' ok.jsonl | sed 's/"pair": *\[[0-9]*, *[0-9]*\]/"pair": [0, 99]/'; } >oor.jsonl
expect_status 1 "$bin" survey oor.jsonl
grep -q "oor.jsonl:2: survey row's pair \[0, 99\] is not among the run's 6 ranks" err.txt &&
    pass "pair outside the run: exit 1" || fail "oor: $(cat err.txt)"
grep -m1 '"metric": *"latency"' ok.jsonl >norun.jsonl
expect_status 1 "$bin" survey norun.jsonl
grep -q "norun.jsonl:1: survey row before a run record" err.txt && pass "no run record: exit 1" || fail "norun: $(cat err.txt)"
python3 - "$(head -1 ok.jsonl)" "$(grep -m1 '"metric": *"latency"' ok.jsonl)" >sparse.jsonl <<'PY'
import json, sys
run, row = json.loads(sys.argv[1]), json.loads(sys.argv[2])
run["nranks"] = 100000
print(json.dumps(run))
for i in range(0, 4000, 2):  # 2000 disjoint pairs: 4000 nodes, 2000 rows
    row["pair"] = [i, i + 1]
    print(json.dumps(row))
PY
expect_status 1 "$bin" survey sparse.jsonl
grep -q "sparse.jsonl: 2000 rows name 4000 nodes: too few to be a survey of them" err.txt &&
    pass "sparse: refused" || fail "sparse: $(cat err.txt)"
# read twice, so a regular file of at most --max-file-size: a FIFO or a device is
# refused at once (never a hang, never an endless line)
rm -f fifo && mkfifo fifo
expect_status 1 timeout 20 "$bin" survey fifo
grep -q "fifo: a FIFO: not read" err.txt && pass "FIFO refused" || fail "fifo: $(cat err.txt)"
expect_status 1 timeout 20 "$bin" survey /dev/zero
grep -q "/dev/zero: not a regular file" err.txt && pass "device refused" || fail "/dev/zero: $(cat err.txt)"
expect_status 1 "$bin" survey big.jsonl --max-file-size 1
grep -q "big.jsonl: larger than the limit of 1048576 bytes (1 MiB; --max-file-size)" err.txt &&
    pass "--max-file-size" || fail "max-file-size: $(cat err.txt)"
# a measured bandwidth of 0 MB/s: refused (the verdicts take logarithms), no 'nan'
grep -m1 '"metric": *"bandwidth"' ok.jsonl | sed 's/"mbytes_per_sec": *[0-9.e+-]*/"mbytes_per_sec": 0/' >zero-row.jsonl
{ head -1 ok.jsonl; cat zero-row.jsonl; } >zero.jsonl
expect_status 1 "$bin" survey zero.jsonl
grep -q "zero.jsonl:2: survey row without a positive time or bandwidth" err.txt && pass "0 MB/s refused" || fail "zero: $(cat err.txt)"
grep -q nan out.txt && fail "zero: nan printed"
summary
