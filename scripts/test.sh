#!/bin/bash
# SPDX-License-Identifier: MIT
# Second command of the README: install what is missing, then build and run
# the whole test suite: against Open MPI (warnings are errors), against
# MPICH, and under AddressSanitizer + UndefinedBehaviorSanitizer; then the
# whole tree again with clang (build-fuzz: the fuzz preset, every target, so
# clang's warnings are errors too) and the fuzz targets of p2pbench-report for
# 25 s each. Every preset the README names is thus compiled: ci, mpich, asan
# and fuzz here in full; debug's flags (-O0 -g, test seams on) are asan's less
# the sanitizers, and release's programs (-O3, no test seams) are what the
# package test (label package, in the ci run) builds.
#   scripts/test.sh          everything (what .ci/run does)
#   scripts/test.sh --fast   Open MPI only, labels unit and mpi
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=SCRIPTDIR/lib/common.sh
. "$root/scripts/lib/common.sh"
fast=0
[ "${1:-}" = "--fast" ] && fast=1
"$root/scripts/deps.sh" test
cd "$root"

# Open MPI refuses to run as root without these (tests only; never in the program).
allow_mpi_as_root
jobs=$(nproc)
status=0
runlog=$(mktemp) # the output of every run, for the closing summary
trap 'rm -f "$runlog"' EXIT
broken=0 # test runs that failed before ctest could count (e.g. a build error)
run() {
    echo "== $*"
    local before
    before=$(grep -c 'tests failed out of' "$runlog" || true)
    if ! "$@" 2>&1 | tee -a "$runlog"; then
        status=1
        echo "== FAILED: $*"
        [ "$(grep -c 'tests failed out of' "$runlog" || true)" != "$before" ] || broken=$((broken + 1))
    fi
}
# One closing line over every ctest run: "N passed, N failed".
summary() {
    awk -v broken="$broken" '
        / tests failed out of / { failed += $4; total += $NF }
        END { printf "%d passed, %d failed\n", total - failed, failed + broken }' "$runlog"
}

# shellcheck disable=SC2317 # called indirectly: through run, and declare -f
build_and_test() {
    local preset=$1
    shift
    cmake --preset "$preset" >/dev/null && cmake --build --preset "$preset" -j"$jobs" >/dev/null &&
        (cd "$root/build-$preset" && ctest --output-on-failure "$@")
}

if [ $fast = 1 ]; then
    run build_and_test ci -L 'unit|mpi'
    summary
    exit $status
fi
# unit tests (no MPI launch, no timing) run two at a time; the rest one at a time
run build_and_test ci -L unit -j"$jobs"
run bash -c "cd '$root/build-ci' && ctest --output-on-failure -LE unit"
run build_and_test mpich -L unit -j"$jobs"
# (report.plot_kernels draws every kernel's rows with gnuplot: report code, not
# the MPI library's; the Open MPI run has it)
run bash -c "cd '$root/build-mpich' && ctest --output-on-failure -L mpi -LE unit -E '^report.plot_kernels\$'"
# Sanitizers: leak detection on for the unit tests; off for mpiexec-launched
# tests, because the MPI library itself leaks at exit. Five mpi tests are left
# to the other builds: bench.bad_input_np2 (the option parser's errors, which
# bench.options runs under ASan as a unit test; np3 keeps the errors the ranks
# must agree on: 63 s -> 15 s), bench.disturbed judges the scheduler's doing,
# not p2pbench's memory (13 s), bench.large_message_2g (labelled mpi so that the
# MPICH run takes its large-count path) needs about 9 GB of buffers, beyond
# what ASan's shadow memory leaves on a CI runner, report.plot_kernels is
# gnuplot's time (27 s), and bench.results_schema checks the files' form (42 s;
# the kernels' rows are written under ASan by their own -o tests).
run env ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    bash -c "$(declare -f build_and_test); root='$root' jobs=$jobs build_and_test asan -L unit -j$jobs"
run env ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    bash -c "cd '$root/build-asan' && ctest --output-on-failure -L mpi -E '^(bench.bad_input_np2|bench.disturbed|bench.large_message_2g|report.plot_kernels|bench.results_schema)\$'"
# The fuzz preset in full (every target: clang -Werror sees all the code, not
# only what the libFuzzer targets link), then the libFuzzer targets
# (tests/fuzz/); without clang's libFuzzer the configure step says so, and
# fails if P2PB_REQUIRE_FUZZ=1.
run bash -c "cmake --preset fuzz >/dev/null && cmake --build --preset fuzz -j$jobs >/dev/null && cd '$root/build-fuzz' && ctest --output-on-failure -L fuzz"
if [ $status = 0 ]; then echo "== all test runs passed"; else echo "== some test runs FAILED"; fi
summary
exit $status
