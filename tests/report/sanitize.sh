#!/bin/sh
# SPDX-License-Identifier: MIT
# Text from a results file never reaches a terminal or a table raw: a label
# holding ESC, a newline, '|', ',' and '"' (tests/data/labels/evil-label.jsonl)
# is shown with '?' for control characters, '|' escaped in markdown cells and
# proper quoting in csv; in show and in compare, whose header lines, side
# names, file names and host-context differences (a host name with ESC) are
# sanitised too.
#   sanitize.sh P2PBENCH-REPORT SOURCE-DIR
set -u
# shellcheck source=SCRIPTDIR/../lib/driver.sh
. "$(dirname "$0")/../lib/driver.sh" # pass, fail, summary
bin=$1
f=$2/tests/data/labels/evil-label.jsonl
check() { # name, command output file, fixed string expected
    if grep -qF -- "$3" "$2"; then pass "$1"; else fail "$1: no '$3' in:"; cat "$2"; fi
}
out=$(mktemp)
dir=$(mktemp -d)
trap 'rm -f "$out"; rm -rf "$dir"' EXIT
esc=$(printf '\033')
# no_esc NAME: the output holds no ESC byte
no_esc() {
    if tr -d '\n' <"$out" | grep -q "$esc"; then
        fail "$1: ESC reached the output"
    else
        pass "$1: no ESC in the output"
    fi
}
"$bin" show "$f" >"$out" 2>&1
check "text header" "$out" '| label evil?[31m|a,"b"?X |'
no_esc "show text"
"$bin" show -m latency -f markdown "$f" >"$out" 2>&1
check "markdown cell" "$out" '| evil?[31m\|a,"b"?X |'
"$bin" show -m latency -f csv "$f" >"$out" 2>&1
check "csv header" "$out" 'metric,kernel,variant,bytes,"evil?[31m|a,""b""?X"'
"$bin" show -f csv "$f" >"$out" 2>&1
check "csv label column" "$out" 'p2pbench/1,"evil?[31m|a,""b""?X",memcpy'
# compare: side B is the same run with a plain label and a host name holding ESC
# and '|', in a file whose name holds ESC
b="$dir/b${esc}[1m.jsonl"
sed -e 's/"label": ".*", "start_utc"/"label": "plain", "start_utc"/' \
    -e 's/"host": "vm"/"host": "v\\u001b[2Jm|x"/g' "$f" >"$b"
"$bin" compare "$f" --vs "$b" >"$out" 2>&1
no_esc "compare text"
check "compare text header" "$out" '# p2pbench-report compare: evil?[31m|a,"b"?X vs plain'
check "compare text file name" "$out" "# B = plain: 1 launch: $dir/b?[1m.jsonl"
check "compare text host context" "$out" 'v?[2Jm|x'
"$bin" compare -f markdown "$f" --vs "$b" >"$out" 2>&1
no_esc "compare markdown"
check "compare markdown header cells" "$out" '| bytes | size | evil?[31m\|a,"b"?X [usec] | plain [usec] | ratio plain/evil?[31m\|a,"b"?X [95% CI] |'
# markdown: markup in a host-context difference (a host name) and in a note
# (side B's label, in an incomplete launch's warning) stays text
m="$dir/markup.jsonl"
sed -e 's/"label": ".*", "start_utc"/"label": "<i>y<\/i>", "start_utc"/' \
    -e 's/"host": "vm"/"host": "<script>x<\/script>"/g' -e '/"type": *"end"/d' "$f" >"$m"
"$bin" compare -f markdown "$f" --vs "$m" >"$out" 2>&1
check "compare markdown host context escapes markup" "$out" \
    '- ranks[0].host: evil?[31m\|a,"b"?X = vm \| &lt;i&gt;y&lt;/i&gt; = &lt;script&gt;x&lt;/script&gt;'
check "compare markdown note escapes markup" "$out" 'incomplete launch on side B (&lt;i&gt;y&lt;/i&gt;)'
if grep -q '<script>\|<i>' "$out"; then
    fail "raw markup in compare -f markdown:"; grep '<script>\|<i>' "$out"
else
    pass "no raw markup in compare -f markdown"
fi
"$bin" compare -f csv "$f" --vs "$b" >"$out" 2>&1
check "compare csv side_a" "$out" 'latency,usec,"evil?[31m|a,""b""?X",plain,memcpy,rank 0,1024'
"$bin" compare -f json "$f" --vs "$b" >"$out" 2>&1
no_esc "compare json"
# csv: a label, host or variant that a spreadsheet would run as a formula
# (=, +, -, @ first) is quoted with a leading '; numbers stay numbers
fm="$dir/formula.jsonl"
sed -e 's/"label": ".*", "start_utc"/"label": "=1+2", "start_utc"/' "$f" >"$fm"
"$bin" show -f csv "$fm" >"$out" 2>&1
check "show csv formula label" "$out" "p2pbench/1,\"'=1+2\",memcpy,"
"$bin" show -m latency -f csv "$fm" >"$out" 2>&1
check "show -m csv formula header" "$out" "metric,kernel,variant,bytes,\"'=1+2\""
fv="$dir/formula-variant.jsonl"
sed -e 's/"label": ".*", "start_utc"/"label": "-x", "start_utc"/' -e 's/"variant":"rank 0"/"variant":"@v,w"/' "$f" >"$fv"
"$bin" show -m latency -f csv "$fv" >"$out" 2>&1
check "show -m csv formula variant" "$out" "latency,memcpy,\"'@v,w\",1024,"
"$bin" compare -f csv "$fm" --vs "$fv" >"$out" 2>&1
check "compare csv formula sides" "$out" "latency,usec,\"'=1+2\",\"'-x\",memcpy,\"'@v,w\""
if grep -q ',=1+2\|,-x,\|,@v' "$out"; then
    fail "a formula reached compare's csv raw"
else
    pass "compare csv: no raw formula"
fi
# markup from a file stays text in markdown (label, MPI library, headings);
# a right-to-left override (U+202E) becomes '?'s
h="$dir/html.jsonl"
sed -e 's/"label": ".*", "start_utc"/"label": "<b>x<\/b>\&", "start_utc"/' \
    -e 's/"mpi_library": "[^"]*"/"mpi_library": "<script>y<\/script> \\u202e"/' "$f" >"$h"
"$bin" show -f markdown "$h" >"$out" 2>&1
check "markdown heading escapes markup" "$out" '## p2pbench 0.1.0: &lt;b&gt;x&lt;/b&gt;&amp;, '
check "markdown MPI line escapes markup" "$out" 'MPI: &lt;script&gt;y&lt;/script&gt; ???'
if grep -q '<b>\|<script>' "$out"; then fail "raw markup in show -f markdown"; else pass "no raw markup"; fi
# import of a log whose name holds a newline and ESC: messages sanitised, the
# written file's name and label without control characters
evil="$dir/nl
name${esc}[31m.txt"
cp "$2/tests/data/cases/case02.txt" "$evil"
"$bin" import "$evil" -o "$dir/imp" >"$out" 2>&1
no_esc "import messages"
check "import wrote line" "$out" "nl?name?[31m.txt: wrote $dir/imp/nl_name_[31m.jsonl"
if [ -f "$dir/imp/nl_name_[31m.jsonl" ]; then pass "import file name"; else fail "import file name: $(ls "$dir/imp")"; fi
# import of a log whose name, column header and output directory hold a C1
# control (U+009B, a CSI of its own) and a right-to-left override (U+202E):
# '?' for each of their bytes in the messages, in the file names and in the label
c1=$(printf '\302\233') rlo=$(printf '\342\200\256')
sed "s/Experiment_1/E${c1}x${rlo}y/" "$2/tests/data/cases/seed-pmb-sendrecv-native-vs-domU.txt" \
    >"$dir/log${c1}${rlo}.txt"
"$bin" import "$dir/log${c1}${rlo}.txt" -o "$dir/out${c1}${rlo}" >"$out" 2>&1
# raw_bytes NAME FILE: FILE holds neither U+009B nor U+202E
raw_bytes() {
    if grep -q "$c1\|$rlo" "$2"; then
        fail "$1: a C1 control or bidi override reached it:"; cat "$2"
    else
        pass "$1: no C1 control or bidi override"
    fi
}
raw_bytes "import messages (C1, U+202E)" "$out"
check "import wrote line (C1, U+202E)" "$out" \
    "log?????.txt: wrote $dir/out?????/log?????-E??x???y.jsonl (pmb-table, label E??x???y,"
ls "$dir/out${c1}${rlo}" >"$dir/names" 2>&1
raw_bytes "import file names" "$dir/names"
check "import file name (C1, U+202E)" "$dir/names" "log?????-E??x???y.jsonl"
check "imported label (C1, U+202E)" "$dir/out${c1}${rlo}/log?????-E??x???y.jsonl" '"label":"E??x???y"'
# show -f json and compare -f json of a run record holding U+009B and U+202E
# (the reader keeps the run record as it is): escaped as \u009b, \u202e, the
# same JSON value
j="$dir/c1.jsonl"
sed -e 's/"label": ".*", "start_utc"/"label": "c\\u009b[2Jd", "start_utc"/' \
    -e 's/"host": "vm"/"host": "v\\u202em"/g' "$f" >"$j"
"$bin" show -f json "$j" >"$out" 2>&1
raw_bytes "show -f json (C1, U+202E)" "$out"
check "show -f json label escaped" "$out" '"label":	"c\u009b[2Jd"'
check "show -f json host escaped" "$out" '"host":	"v\u202em"'
if python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$out"; then
    pass "show -f json parses"
else
    fail "show -f json: not JSON"
fi
"$bin" compare -f json "$j" --vs "$b" >"$out" 2>&1
raw_bytes "compare -f json (C1, U+202E)" "$out"
summary
