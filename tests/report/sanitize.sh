#!/bin/sh
# SPDX-License-Identifier: MIT
# Text from a results file never reaches a terminal or a table raw: a label
# holding ESC, a newline, '|', ',' and '"' (tests/data/labels/evil-label.jsonl)
# is shown with '?' for control characters, '|' escaped in markdown cells and
# proper quoting in csv.
#   sanitize.sh P2PBENCH-REPORT SOURCE-DIR
set -u
bin=$1
f=$2/tests/data/labels/evil-label.jsonl
fails=0
check() { # name, command output file, fixed string expected
    if grep -qF -- "$3" "$2"; then echo "PASS: $1"; else echo "FAIL: $1: no '$3' in:"; cat "$2"; fails=$((fails + 1)); fi
}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$bin" show "$f" >"$out" 2>&1
check "text header" "$out" '| label evil?[31m|a,"b"?X |'
if tr -d '\n' <"$out" | grep -q "$(printf '\033')"; then
    echo "FAIL: ESC reached the output"
    fails=$((fails + 1))
else
    echo "PASS: no ESC in the output"
fi
"$bin" show -m latency -f markdown "$f" >"$out" 2>&1
check "markdown cell" "$out" '| evil?[31m\|a,"b"?X |'
"$bin" show -m latency -f csv "$f" >"$out" 2>&1
check "csv header" "$out" 'metric,kernel,variant,bytes,"evil?[31m|a,""b""?X"'
"$bin" show -f csv "$f" >"$out" 2>&1
check "csv label column" "$out" 'p2pbench/1,"evil?[31m|a,""b""?X",memcpy'
echo "$((5 - fails)) passed, $fails failed"
[ "$fails" = 0 ]
