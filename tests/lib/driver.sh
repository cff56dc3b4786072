# shellcheck shell=sh
# shellcheck disable=SC3043 # local: dash, bash and busybox sh all have it
# SPDX-License-Identifier: MIT
#
# driver.sh: helpers shared by the shell test drivers (sourced, not run; POSIX
# sh plus 'local', so that sh and bash drivers can both source it).
# Exit codes follow ctest: 0 pass, 1 fail, 2 usage, 77 skipped.
# The caller may set, before sourcing or before use:
#   DRIVER       its name in say's lines (default: the basename of $0)
#   REQUIRE_VAR  the env variable that turns missing prerequisites into a
#                failure (skip_or_fail)
#   FATAL_SHOW   files that fatal prints after its FAIL line, as LABEL=FILE
#                words, e.g. "stdout=out stderr=err"
#
# Counting:   pass [NAME], fail MESSAGE, summary (prints "N passed, N failed",
#             returns 1 after a failure)
# Checking:   expect NAME CMD..., expect_status CODE CMD..., sanitizer_check
# Stopping:   fatal MESSAGE (exit 1), skip REASON (exit 77), skip_or_fail REASON
# Setting up: require_commands, require_root, allow_mpi_as_root, exit_on_signals

PASSED=0
FAILED=0

say() { printf '%s: %s\n' "${DRIVER:-${0##*/}}" "$*"; }

# pass [NAME]: count a pass; print "PASS: NAME" when a name is given.
pass() {
    PASSED=$((PASSED + 1))
    if [ $# -gt 0 ]; then printf 'PASS: %s\n' "$*"; fi
}

# fail MESSAGE: count a failure and print "FAIL: MESSAGE"; the driver goes on.
fail() {
    FAILED=$((FAILED + 1))
    printf 'FAIL: %s\n' "$*"
}

# fatal MESSAGE: fail, print the FATAL_SHOW files ("--- LABEL", then the
# file), and exit 1 at once.
fatal() {
    local item
    fail "$*"
    for item in ${FATAL_SHOW:-}; do
        printf -- '--- %s\n' "${item%%=*}"
        cat "${item#*=}"
    done
    exit 1
}

# skip REASON: print "REASON: skipped" and exit 77.
skip() {
    printf '%s: skipped\n' "$*"
    exit 77
}

# expect NAME CMD...: pass if CMD succeeds.
expect() {
    local name="$1"
    shift
    if "$@"; then pass "$name"; else fail "$name"; fi
}

# sanitizer_check FILE WHAT: an AddressSanitizer, LeakSanitizer or UBSan report
# in FILE is a failure whatever the exit status (asan preset).
sanitizer_check() {
    if grep -q -E "ERROR: (Address|Leak)Sanitizer|runtime error:" "$1" 2>/dev/null; then
        fail "sanitizer report ($2):"
        head -20 "$1"
    fi
}

# expect_status CODE CMD...: run CMD with its stdout in out.txt and its stderr
# in err.txt (current directory); fail unless it exits with CODE, or if err.txt
# holds a sanitizer report.
expect_status() {
    local want="$1" got
    shift
    got=0
    "$@" >out.txt 2>err.txt || got=$?
    [ "$got" = "$want" ] || fail "exit $got (want $want): $* -- $(head -3 err.txt)"
    sanitizer_check err.txt "$*"
}

# skip_or_fail REASON: exit 77, or 1 if ${REQUIRE_VAR}=1.
skip_or_fail() {
    local required=0
    if [ -n "${REQUIRE_VAR:-}" ]; then eval "required=\${$REQUIRE_VAR:-0}"; fi
    if [ "$required" = 1 ]; then
        printf 'FAIL: prerequisite missing (%s=1): %s\n' "$REQUIRE_VAR" "$*"
        printf '0 passed, 1 failed\n'
        exit 1
    fi
    printf 'SKIP: %s (set %s=1 to make this a failure)\n' "$*" "${REQUIRE_VAR:-}"
    exit 77
}

# require_commands CMD...: skip_or_fail unless every CMD is on PATH.
require_commands() {
    local c missing=''
    for c in "$@"; do command -v "$c" >/dev/null 2>&1 || missing="$missing $c"; done
    [ -z "$missing" ] || skip_or_fail "required commands not found:$missing"
}

require_root() {
    [ "$(id -u)" -eq 0 ] || skip_or_fail "needs root (network namespaces / daemons)"
}

# allow_mpi_as_root: Open MPI refuses to run as root without these two
# variables; drivers export them, only when running as root (never the code).
allow_mpi_as_root() {
    if [ "$(id -u)" -eq 0 ]; then
        export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    fi
}

# exit_on_signals: INT, TERM and HUP end the driver with 130, 143 and 129, so
# that its EXIT trap (the cleanup) runs.
exit_on_signals() {
    trap 'exit 130' INT
    trap 'exit 143' TERM
    trap 'exit 129' HUP
}

# float_test EXPR VAR=VALUE...: evaluate a Python comparison on numbers
# (abs, min, max allowed), e.g. float_test 'a > 10 * b' a=1.5 b=0.1
float_test() {
    local expr="$1"
    shift
    python3 -c '
import sys
env = {"abs": abs, "min": min, "max": max}
for kv in sys.argv[2:]:
    k, v = kv.split("=", 1)
    env[k] = float(v)
sys.exit(0 if eval(sys.argv[1], {"__builtins__": {}}, env) else 1)
' "$expr" "$@" 2>/dev/null
}

# help_layout COL WIDTH: reads a --help text; prints its first line wider than
# WIDTH columns or, in its "Options:" section, an option line whose text does
# not start after COL columns, or a wrapped line not indented by COL spaces
# (what getopt_long tools print); prints nothing when all lines are so.
help_layout() {
    awk -v col="$1" -v width="$2" '
        length($0) > width { print NR ": " length($0) " columns: " $0; exit }
        /^Options:/ { opts = 1; next }
        /^$/ { opts = 0 }
        !opts { next }
        /^  -[A-Za-z], --|^      --/ {
            names = $0
            sub(/^ +/, "", names)
            if (index(names, "  ") == 0) next # the names alone: their text below
            if (substr($0, col, 1) != " " || substr($0, col + 1, 1) == " ") {
                print NR ": text not after column " col ": " $0; exit
            }
            next
        }
        substr($0, 1, col) !~ /^ *$/ || substr($0, col + 1, 1) == " " {
            print NR ": not indented by " col " spaces: " $0; exit
        }'
}

# ---- outside load ----
# The kernel's own measure of CPU contention (PSI, Documentation/accounting/
# psi.rst): "some total=" in /proc/pressure/cpu is the time, in usec, that
# at least one runnable task waited for a CPU. A test whose claim needs a
# quiet machine judges what it can on a busy one and says why.

# BUSY_PSI: the CPU pressure (percent) from which a test calls the machine
# busy with other work (two spinning processes on 2 CPUs: 95-100%; a quiet
# machine: below 10).
BUSY_PSI=50

# cpu_pressure_mark: remember the PSI total and the time (CPU_PSI0, CPU_T0).
cpu_pressure_mark() {
    CPU_PSI0=$(awk '/^some/ { for (i = 1; i <= NF; i++) if ($i ~ /^total=/) print substr($i, 7) }' \
        /proc/pressure/cpu 2>/dev/null || true)
    CPU_T0=$(date +%s.%N)
}

# cpu_pressure_pct: the share (percent, integer) of the wall time since
# cpu_pressure_mark in which a task waited for a CPU; empty without PSI.
cpu_pressure_pct() {
    local now t
    now=$(awk '/^some/ { for (i = 1; i <= NF; i++) if ($i ~ /^total=/) print substr($i, 7) }' \
        /proc/pressure/cpu 2>/dev/null || true)
    t=$(date +%s.%N)
    [ -n "${CPU_PSI0:-}" ] && [ -n "$now" ] || return 0
    awk -v a="$CPU_PSI0" -v b="$now" -v t0="$CPU_T0" -v t1="$t" \
        'BEGIN { w = (t1 - t0) * 1e6; printf "%d\n", (w > 0 ? 100 * (b - a) / w : 0) }'
}

summary() {
    printf '%d passed, %d failed\n' "$PASSED" "$FAILED"
    [ "$FAILED" -eq 0 ]
}

# ---- network-namespace tests (tests/multihost) ----

# netns_require [COMMAND...]: root and the testbed's commands (plus COMMAND...),
# else skip (or fail under REQUIRE_VAR); then OUTDIR made and absolute.
netns_require() {
    require_root
    require_commands ip unshare tc mpirun python3 timeout "$@"
    mkdir -p -- "$OUTDIR"
    OUTDIR=$(cd "$OUTDIR" && pwd)
}

# netns_own_testbed TAG: this test's own testbed, namespace prefix TAG + PID
# (a testbed someone else has up is never touched), torn down on every exit
# path (EXIT, INT, TERM, HUP). Needs TESTBED, the path of testbed.sh.
netns_own_testbed() {
    export P2PB_TESTBED_PREFIX="$1$$"
    trap netns_teardown EXIT
    exit_on_signals
}

netns_teardown() {
    _rc=$?
    trap - EXIT INT TERM HUP
    if ip netns list 2>/dev/null | awk '{print $1}' | grep -q "^${P2PB_TESTBED_PREFIX}-"; then
        "$TESTBED" down >/dev/null 2>&1 || say "warning: could not tear down testbed $P2PB_TESTBED_PREFIX"
    fi
    exit "$_rc"
}
