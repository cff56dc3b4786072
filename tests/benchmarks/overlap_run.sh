#!/bin/sh
# SPDX-License-Identifier: MIT
# The overlap kernel end to end on N ranks (docs/kernels.md, "Overlap"):
#  (a) a run with the default compute: rows pure, cpu, overlap at each
#      size, in that order; each overlap row's "overlap" object holds the
#      medians of its size's three rows and the percentage the formula
#      gives from them (tests/benchmarks/overlap_rows.py); the text table
#      prints the formula and the overlap[%] column;
#  (b) --overlap-compute 0 (no compute): the percentage is undefined
#      everywhere: null with the reason in JSON, empty with the reason in
#      the program's CSV, "undefined" in the report tool's show of the
#      results file (text, markdown, imb, csv: the reporters the program
#      uses; and osu); the formula in each of them, and in the results
#      file's overlap object. Two launches in all.
# usage: overlap_run.sh MPIEXEC NPFLAG NP "EXTRA FLAGS" P2PBENCH REPORT ROWS_PY WORKDIR
# shellcheck disable=SC2015
set -u
# shellcheck source=SCRIPTDIR/../lib/driver.sh
. "$(dirname "$0")/../lib/driver.sh" # pass, fail, fatal, summary
mpiexec=$1 npflag=$2 np=$3 extra=$4 bin=$5 report=$6 rows_py=$7 dir=$8
mkdir -p "$dir" && cd "$dir" || fatal "cannot make or enter $dir"
run() { # run FILE ARGS...: p2pbench overlap on np ranks, results into FILE
    file=$1
    shift
    rm -f "$file"
    # shellcheck disable=SC2086
    "$mpiexec" $npflag "$np" $extra "$bin" overlap -s 0,1000,65537 --samples 3 --batch 2 \
        --rounds 1 --warmup 1 -o "$file" "$@" >out.txt 2>err.txt || { fail "p2pbench $*: $(cat err.txt)"; return 1; }
}
formula='overlap[%] = 100 * max(0, min(1, (t_pure + t_cpu - t_ovrl) / min(t_pure, t_cpu)))'

# (a) default compute
if run a.jsonl; then
    python3 "$rows_py" a.jsonl defined "$np" && pass || fail "results file of the default run"
    grep -qF "# $formula" out.txt && pass "text: formula line" || fail "text: no formula line"
    grep -q 'overlap\[%\]$' out.txt && pass "text: overlap[%] column" || fail "text: no overlap[%] column"
fi
# (b) no compute: undefined, in every format
if run b.jsonl --overlap-compute 0 -f csv; then
    grep -qF "$formula" out.txt && pass "csv: formula" || fail "csv: no formula"
    grep -q ',overlap_pct,overlap_undefined,overlap_formula$' out.txt && pass "csv: columns" ||
        fail "csv: columns"
    [ "$(grep -c ',overlap,.*,,no compute time (t_cpu = 0: the compute loop ran 0 steps),' out.txt)" = 3 ] &&
        pass "csv: 3 undefined overlap rows" || fail "csv: 3 undefined overlap rows"
    python3 "$rows_py" b.jsonl undefined "$np" && pass || fail "results file of --overlap-compute 0"
    for f in text markdown imb csv osu; do
        "$report" show -f $f b.jsonl >show.txt 2>&1 || { fail "show -f $f: $(cat show.txt)"; continue; }
        grep -qF "$formula" show.txt && pass "show -f $f: formula" || fail "show -f $f: no formula"
        word=undefined
        [ $f = csv ] && word='0 steps' # csv: the reason in the overlap_undefined column
        [ "$(grep -c "$word" show.txt)" -ge 3 ] && pass "show -f $f: '$word' on 3 rows or more" ||
            fail "show -f $f: '$word' on fewer than 3 rows"
    done
fi
summary
