# shellcheck shell=bash
# SPDX-License-Identifier: MIT
#
# driver.sh: helpers shared by the shell test drivers (sourced, not run).
# Exit codes follow ctest: 0 pass, 1 fail, 2 usage, 77 skipped.
# The caller sets DRIVER (its name) and REQUIRE_VAR (the env variable that
# turns missing prerequisites into a failure).

PASSED=0
FAILED=0

say() { printf '%s: %s\n' "$DRIVER" "$*"; }

pass() {
    PASSED=$((PASSED + 1))
    printf 'PASS: %s\n' "$*"
}

fail() {
    FAILED=$((FAILED + 1))
    printf 'FAIL: %s\n' "$*"
}

# expect NAME CMD...: pass if CMD succeeds.
expect() {
    local name=$1
    shift
    if "$@"; then pass "$name"; else fail "$name"; fi
}

# skip_or_fail REASON: exit 77, or 1 if ${REQUIRE_VAR}=1.
skip_or_fail() {
    if [[ ${!REQUIRE_VAR:-0} == 1 ]]; then
        printf 'FAIL: prerequisite missing (%s=1): %s\n' "$REQUIRE_VAR" "$*"
        printf '0 passed, 1 failed\n'
        exit 1
    fi
    printf 'SKIP: %s (set %s=1 to make this a failure)\n' "$*" "$REQUIRE_VAR"
    exit 77
}

# require_commands CMD...: skip_or_fail unless every CMD is on PATH.
require_commands() {
    local c missing=()
    for c in "$@"; do command -v "$c" >/dev/null 2>&1 || missing+=("$c"); done
    ((${#missing[@]} == 0)) || skip_or_fail "required commands not found: ${missing[*]}"
}

require_root() {
    [[ $(id -u) -eq 0 ]] || skip_or_fail "needs root (network namespaces / daemons)"
}

# float_test EXPR VAR=VALUE...: evaluate a Python comparison on numbers
# (abs, min, max allowed), e.g. float_test 'a > 10 * b' a=1.5 b=0.1
float_test() {
    local expr=$1
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

summary() {
    printf '%d passed, %d failed\n' "$PASSED" "$FAILED"
    ((FAILED == 0))
}
