# shellcheck shell=sh
# SPDX-License-Identifier: MIT
#
# common.sh: helpers shared by the scripts under scripts/ (sourced, not run;
# POSIX sh, so that sh and bash scripts can both source it).
#
#   PROG=name            set before sourcing to name the script in messages
#   . "$dir/lib/common.sh"  (default PROG: the basename of $0)
#
# Where it is: scripts/lib/common.sh in the source tree, and
# $datadir/p2pbench/scripts/lib/common.sh (e.g. /usr/share/p2pbench/...) when
# installed. Batch job scripts (scripts/batch/p2pbench.sbatch, .pbs) run as a
# copy in the batch system's spool directory; they look for this file through
# P2PB_HOME (the p2pbench source tree or /usr/share/p2pbench) and carry their
# own fallback definitions of log, die and allow_mpi_as_root.

: "${PROG:=${0##*/}}"

# log MESSAGE...: "PROG: MESSAGE" on stderr.
log() { printf '%s: %s\n' "$PROG" "$*" >&2; }

# die MESSAGE...: "PROG: error: MESSAGE" on stderr, exit 1.
die() {
    log "error: $*"
    exit 1
}

# usage_error MESSAGE...: like die, plus a pointer to --help; exit 2.
usage_error() {
    log "error: $*"
    log "try '$PROG --help'"
    exit 2
}

# require_root [WHY]: die "must run as root (WHY)" unless the user id is 0.
require_root() {
    [ "$(id -u)" -eq 0 ] || die "must run as root${1:+ ($1)}"
}

# allow_mpi_as_root: Open MPI refuses to run as root without these two
# variables. Scripts set them, only when running as root; p2pbench never does.
allow_mpi_as_root() {
    if [ "$(id -u)" -eq 0 ]; then
        export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    fi
}

# baseline_check BIN BASE FILE: the node-acceptance step of a batch job
# (docs/report.md, "Baselines"): p2pbench-report beside BIN (else on PATH)
# checks the results FILE against the baseline BASE; returns its status
# (1 when the run is outside its class's baseline, --fail-on-outside).
baseline_check() {
    _report=$(dirname "$1")/p2pbench-report
    [ -x "$_report" ] || _report=$(command -v p2pbench-report) || {
        log "error: p2pbench-report not found beside $1 or on PATH"
        return 1
    }
    log "node acceptance: $_report baseline check $2 $3 --fail-on-outside"
    "$_report" baseline check "$2" "$3" --fail-on-outside
}
