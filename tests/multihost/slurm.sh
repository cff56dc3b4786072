#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# run_slurm_test.sh: p2pbench as a real Slurm batch job. Starts a private
# single-node Slurm (scripts/batch/local-slurm.sh), submits
# scripts/batch/p2pbench.sbatch with a small run once per launcher
# (srun --mpi=pmix, and mpirun inside the allocation), waits at most
# P2PB_SLURM_JOB_TIMEOUT (120) seconds per job, and checks that each results
# file ends with status complete and names 2 ranks. The daemons are stopped
# on every exit path.
#
# Exit 0 all passed, 1 a check failed, 2 usage, 77 skipped (not root, or Slurm,
# munge, mpirun, python3 missing; with P2PB_REQUIRE_SLURM=1 that fails).
#
# Fallback for checking the plumbing by hand before p2pbench exists:
# P2PB_TEST_FALLBACK=npopenmpi submits the same batch script with a stand-in
# binary that ignores its arguments and runs NetPIPE (NPopenmpi); only the
# job's success and NetPIPE's output are checked. Not a test of p2pbench;
# ctest must not set it.
set -euo pipefail

# shellcheck disable=SC2034 # used by driver.sh
DRIVER=run_slurm_test
# shellcheck disable=SC2034
REQUIRE_VAR=P2PB_REQUIRE_SLURM
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=SCRIPTDIR/../lib/driver.sh
. "$HERE/../lib/driver.sh"
LOCAL_SLURM=$HERE/../../scripts/batch/local-slurm.sh
SBATCH_SCRIPT=$HERE/../../scripts/batch/p2pbench.sbatch
RESULTS=$HERE/../lib/p2pb_results.py
JOB_TIMEOUT=${P2PB_SLURM_JOB_TIMEOUT:-120}
read -r -a LAUNCHERS <<<"${P2PB_SLURM_LAUNCHERS:-srun mpirun}"

usage() {
    cat <<EOF
Usage: $0 P2PBENCH_BIN OUTDIR

Runs p2pbench through a private single-node Slurm (needs root). Job output
and results files go to OUTDIR. Env: P2PB_REQUIRE_SLURM=1 (missing
prerequisites fail instead of skip), P2PB_SLURM_LAUNCHERS (default
"srun mpirun"), P2PB_SLURM_JOB_TIMEOUT (default 120 s),
P2PB_TEST_FALLBACK=npopenmpi (manual plumbing check only).
EOF
}

[[ $# -eq 2 ]] || {
    usage >&2
    exit 2
}
BIN=$1
OUTDIR=$2
FALLBACK=${P2PB_TEST_FALLBACK:-}

require_root
require_commands munged munge slurmctld slurmd sbatch squeue scontrol scancel sinfo srun \
    mpirun python3 timeout setsid
for f in "$LOCAL_SLURM" "$SBATCH_SCRIPT"; do
    [[ -x $f ]] || {
        fail "script not executable: $f"
        summary || exit 1
    }
done
mkdir -p -- "$OUTDIR"
OUTDIR=$(cd "$OUTDIR" && pwd)

if [[ -n $FALLBACK ]]; then
    [[ $FALLBACK == npopenmpi ]] || {
        echo "P2PB_TEST_FALLBACK must be 'npopenmpi'" >&2
        exit 2
    }
    command -v NPopenmpi >/dev/null || skip_or_fail "NPopenmpi not found (Debian netpipe-openmpi)"
    # Stand-in for p2pbench: ignores the p2pbench arguments.
    BIN=$OUTDIR/npopenmpi-standin
    cat >"$BIN" <<'EOF'
#!/bin/sh
cd "$(dirname "$0")" && exec NPopenmpi -p 0 -l 8 -u 65536 -o "np-$SLURM_JOB_ID.out"
EOF
    chmod +x "$BIN"
else
    BIN_PATH=$(command -v "$BIN") || {
        fail "p2pbench binary not found or not executable: $BIN"
        summary || exit 1
    }
    BIN=$BIN_PATH
fi

# A private cluster: own state directory (short path: it holds the munge
# socket) and ports apart from local-slurm.sh's defaults.
P2PB_SLURM_DIR=$(mktemp -d /tmp/p2pbs.XXXXXX)
export P2PB_SLURM_DIR
export P2PB_SLURM_CTLD_PORT=${P2PB_SLURM_CTLD_PORT:-6827}
export P2PB_SLURM_SLURMD_PORT=${P2PB_SLURM_SLURMD_PORT:-6828}
export SLURM_CONF=$P2PB_SLURM_DIR/slurm.conf

cleanup() {
    local rc=$?
    trap - EXIT INT TERM HUP
    if ((FAILED)) && [[ -d $P2PB_SLURM_DIR/log ]]; then
        cp -r -- "$P2PB_SLURM_DIR/log" "$OUTDIR/slurm-logs" 2>/dev/null || true
        say "daemon logs copied to $OUTDIR/slurm-logs"
    fi
    "$LOCAL_SLURM" stop >>"$OUTDIR/local-slurm.log" 2>&1 ||
        say "warning: local-slurm.sh stop failed (see $OUTDIR/local-slurm.log)"
    rm -rf -- "$P2PB_SLURM_DIR"
    exit "$rc"
}
trap cleanup EXIT
exit_on_signals

q() { python3 "$RESULTS" "$@"; }

# wait_job ID: wait (bounded) until the job leaves the queue's active states;
# sets JOB_RESULT to "STATE EXITCODE". Not run in a subshell, so that a signal
# reaches this script's traps within a second.
JOB_RESULT=
wait_job() {
    local id=$1 deadline=$((SECONDS + JOB_TIMEOUT)) line state exitcode
    while :; do
        line=$(timeout 10 scontrol -o show job "$id" 2>/dev/null || true)
        state=$(sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' <<<"$line")
        exitcode=$(sed -n 's/.* ExitCode=\([0-9:]*\).*/\1/p' <<<"$line")
        case $state in
        PENDING | CONFIGURING | RUNNING | COMPLETING | SUSPENDED | '') ;;
        *)
            JOB_RESULT="$state $exitcode"
            return 0
            ;;
        esac
        if ((SECONDS >= deadline)); then
            timeout 10 scancel "$id" 2>/dev/null || true
            JOB_RESULT="TIMEOUT(${JOB_TIMEOUT}s) ${state:-unknown}"
            return 1
        fi
        sleep 1
    done
}

start=$SECONDS
say "starting a private Slurm in $P2PB_SLURM_DIR"
if ! "$LOCAL_SLURM" start >"$OUTDIR/local-slurm.log" 2>&1; then
    fail "local Slurm started (see $OUTDIR/local-slurm.log)"
    tail -n 30 "$OUTDIR/local-slurm.log" | sed 's/^/    /'
    summary || exit 1
fi
pass "local Slurm started, node idle"
[[ -z $FALLBACK ]] || say "FALLBACK MODE (NPopenmpi): plumbing only, the p2pbench contract is NOT tested"

for launcher in "${LAUNCHERS[@]}"; do
    label=slurm-$launcher
    rc=0
    id=$(
        export P2PB_BIN=$BIN P2PB_LAUNCHER=$launcher P2PB_LABEL=$label P2PB_OUTDIR=$OUTDIR
        export P2PB_KERNELS=pingpong P2PB_SIZES=0,1K P2PB_SAMPLES=5
        cd "$OUTDIR" && timeout 30 sbatch --parsable --nodes=1 --ntasks=2 --ntasks-per-node=2 \
            --time=5 --output="$OUTDIR/$label-%j.out" "$SBATCH_SCRIPT"
    ) || rc=$?
    id=${id%%;*}
    if ((rc != 0)) || ! [[ $id =~ ^[0-9]+$ ]]; then
        fail "$launcher: sbatch submitted the job (status $rc, '$id')"
        continue
    fi
    say "$launcher: job $id submitted; waiting at most ${JOB_TIMEOUT}s"
    wait_job "$id" || true
    if [[ $JOB_RESULT == "COMPLETED 0:0" ]]; then
        pass "$launcher: job $id completed with exit code 0"
    else
        fail "$launcher: job $id ended as '$JOB_RESULT'; last lines of its output:"
        tail -n 20 "$OUTDIR/$label-$id.out" 2>/dev/null | sed 's/^/    /'
        continue
    fi
    if [[ -n $FALLBACK ]]; then
        expect "$launcher: NPopenmpi wrote its output" test -s "$OUTDIR/np-$id.out"
        continue
    fi
    file=$OUTDIR/$label-$id.jsonl
    if ! v=$(q "$file" check 2>&1); then
        fail "$launcher: results file $file well formed ($v)"
        continue
    fi
    v=$(q "$file" end 2>&1) || true
    expect "$launcher: end record has status complete (got '$v')" test "$v" = complete
    v=$(q "$file" nranks 2>&1) || true
    expect "$launcher: run record names 2 ranks (got '$v')" test "$v" = 2
    v=$(q "$file" result-nranks pingpong 1024 2>&1) || true
    expect "$launcher: pingpong 1 KiB ran on 2 ranks (got '$v')" test "$v" = 2
done

say "took $((SECONDS - start)) s; outputs in $OUTDIR"
summary
