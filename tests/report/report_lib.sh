#!/bin/sh
# SPDX-License-Identifier: MIT
# Shared by report_tests.sh and report_import_tests.sh (sourced, POSIX sh):
# the arguments TEST REPORT_BIN SOURCE_DIR WORK_DIR, a fresh WORK_DIR as the
# current directory, and the helpers below; report_done ends a test.
# Set UPDATE_GOLDEN=1 to rewrite the golden files instead of comparing.
set -u
test=$1 bin=$2 src=$3 work=$4
here="$src/tests/report"
golden="$src/tests/golden/report"
cases="$src/tests/data/cases"
# fail, skip, sanitizer_check, and expect_status CODE CMD... (stdout in out.txt,
# stderr in err.txt, a sanitizer report is a failure)
# shellcheck source=SCRIPTDIR/../lib/driver.sh
. "$src/tests/lib/driver.sh"
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1

# golden NAME: compare out.txt with the golden file
golden() {
    if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
        cp out.txt "$golden/$1"
    elif ! diff -u "$golden/$1" out.txt >diff.txt; then
        fail "golden $1 differs:"; head -40 diff.txt
    fi
}
# csvval FILE KERNEL VARIANT BYTES COLUMN: one field of `show -f csv`
csvval() {
    "$bin" show -f csv "$1" 2>/dev/null | awk -F, -v k="$2" -v v="$3" -v b="$4" -v c="$5" '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $3 == k && $4 == v && $5 == b { print $(col[c]); exit }'
}
rows() { "$bin" show -f csv "$1" 2>/dev/null | awk -F, -v k="$2" -v v="$3" 'NR > 1 && $3 == k && $4 == v' | wc -l; }
# near GOT WANT TOL WHAT
near() {
    awk -v g="$1" -v w="$2" -v t="$3" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(g != "" && d <= t) }' ||
        fail "$4: got '$1', want $2 (+-$3)"
}
eq() { [ "$1" = "$2" ] || fail "$3: got '$1', want '$2'"; }

gen() { sh "$here/gen_launches.sh" "$@"; }

# report_done: exit 1 when a check failed, else say so
report_done() {
    [ "$FAILED" = 0 ] || { echo "$FAILED failure(s) in $test" >&2; exit 1; }
    echo "report test $test: ok"
}
