#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# run_slurm_test.sh: p2pbench as a real Slurm batch job, on private clusters
# started by scripts/batch/local-slurm.sh:
#
#   (a) one node (this host): `sbatch -N 1 -n 2 p2pbench.sbatch` once per
#       launcher (srun --mpi=pmix, and mpirun inside the allocation), and
#       once more without P2PB_BIN, submitted from a directory holding
#       build/p2pbench (the job script must find it there)
#   (b) two nodes h1, h2 (slurmd in two network namespaces of the testbed):
#       `srun -N 2 -n 2 --mpi=pmix p2pbench`; `sbatch -N 1 -n 2` (srun);
#       the script's default (2 nodes, 2 tasks) once per launcher
#   (c) what `local-slurm.sh start` prints, followed as printed (eval), lets
#       sinfo reach each cluster: one node, and h1, h2
#
# Each job must complete (exit code 0) within P2PB_SLURM_JOB_TIMEOUT (120)
# seconds, and its results file end with status complete, name 2 ranks, hold
# a pingpong result on 2 ranks, name one host for both ranks on one node, two
# different hosts on two, and hold no "bound to overlapping PUs" warning
# (mpirun on the namespace nodes binds each node's rank to the same core 0
# unless told not to). The daemons are stopped and the namespaces removed on
# every exit path.
#
# Exit 0 all passed, 1 a check failed, 2 usage, 77 skipped (not root, or Slurm,
# munge, mpirun, ip, python3 missing; with P2PB_REQUIRE_SLURM=1 that fails).
set -euo pipefail

# shellcheck disable=SC2034 # used by driver.sh
DRIVER=run_slurm_test
# shellcheck disable=SC2034
REQUIRE_VAR=P2PB_REQUIRE_SLURM
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=SCRIPTDIR/../lib/driver.sh
. "$HERE/../lib/driver.sh"
LOCAL_SLURM=$HERE/../../scripts/batch/local-slurm.sh
TESTBED=$HERE/../../scripts/testbed/testbed.sh
SBATCH_SCRIPT=$HERE/../../scripts/batch/p2pbench.sbatch
RESULTS=$HERE/../lib/p2pb_results.py
JOB_TIMEOUT=${P2PB_SLURM_JOB_TIMEOUT:-120}
read -r -a LAUNCHERS <<<"${P2PB_SLURM_LAUNCHERS:-srun mpirun}"

usage() {
    cat <<EOF
Usage: $0 P2PBENCH_BIN OUTDIR

Runs p2pbench through a private one-node, then two-node Slurm (needs root).
Job output and results files go to OUTDIR. Env: P2PB_REQUIRE_SLURM=1
(missing prerequisites fail instead of skip), P2PB_SLURM_LAUNCHERS (default
"srun mpirun"), P2PB_SLURM_JOB_TIMEOUT (default 120 s).
EOF
}

[[ $# -eq 2 ]] || {
    usage >&2
    exit 2
}
BIN=$1
OUTDIR=$2

require_root
require_commands munged munge slurmctld slurmd sbatch squeue scontrol scancel sinfo srun \
    mpirun python3 timeout setsid ip bridge unshare nsenter
for f in "$LOCAL_SLURM" "$TESTBED" "$SBATCH_SCRIPT"; do
    [[ -x $f ]] || {
        fail "script not executable: $f"
        summary || exit 1
    }
done
mkdir -p -- "$OUTDIR"
OUTDIR=$(cd "$OUTDIR" && pwd)

BIN_PATH=$(command -v "$BIN") || {
    fail "p2pbench binary not found or not executable: $BIN"
    summary || exit 1
}
# Absolute: the jobs run in OUTDIR.
[[ $BIN_PATH == /* ]] || BIN_PATH=$PWD/$BIN_PATH
BIN=$BIN_PATH

# Private clusters: own state directories (short paths: they hold the munge
# socket), ports apart from local-slurm.sh's defaults, and a namespace prefix
# of this process, so nothing someone else has running is touched.
ONE_DIR=$(mktemp -d /tmp/p2pbs1.XXXXXX)
TWO_DIR=$(mktemp -d /tmp/p2pbs2.XXXXXX)
export P2PB_SLURM_CTLD_PORT=${P2PB_SLURM_CTLD_PORT:-6827}
export P2PB_SLURM_SLURMD_PORT=${P2PB_SLURM_SLURMD_PORT:-6828}
export P2PB_SLURM_TESTBED_PREFIX=p2ps$$

# slurm DIR ARG...: local-slurm.sh on the cluster in DIR.
slurm() { P2PB_SLURM_DIR=$1 "$LOCAL_SLURM" "${@:2}"; }

cleanup() {
    local rc=$? dir
    trap - EXIT INT TERM HUP
    for dir in "$ONE_DIR" "$TWO_DIR"; do
        if ((FAILED)) && [[ -d $dir/log ]]; then
            cp -r -- "$dir/log" "$OUTDIR/slurm-logs-${dir##*/}" 2>/dev/null || true
            say "daemon logs copied to $OUTDIR/slurm-logs-${dir##*/}"
        fi
        slurm "$dir" stop >>"$OUTDIR/local-slurm.log" 2>&1 ||
            say "warning: local-slurm.sh stop failed for $dir (see $OUTDIR/local-slurm.log)"
        rm -rf -- "$dir"
    done
    # Safety net: the namespaces go with 'stop'; remove them if it failed.
    if ip netns list 2>/dev/null | awk '{print $1}' | grep -q "^${P2PB_SLURM_TESTBED_PREFIX}-"; then
        P2PB_TESTBED_PREFIX=$P2PB_SLURM_TESTBED_PREFIX "$TESTBED" down >/dev/null 2>&1 ||
            say "warning: could not remove testbed $P2PB_SLURM_TESTBED_PREFIX"
    fi
    exit "$rc"
}
trap cleanup EXIT
exit_on_signals

q() { python3 "$RESULTS" "$@"; }

# start_cluster DIR NODES: start a cluster, or fail and return 1. What start
# prints on stdout (for eval) goes to OUTDIR/start-NODES.env.
start_cluster() {
    say "starting a private $2-node Slurm in $1"
    if ! slurm "$1" start --nodes "$2" >"$OUTDIR/start-$2.env" 2>>"$OUTDIR/local-slurm.log"; then
        fail "local Slurm with $2 node(s) started (see $OUTDIR/local-slurm.log)"
        tail -n 30 "$OUTDIR/local-slurm.log" | sed 's/^/    /'
        return 1
    fi
    pass "local Slurm with $2 node(s) started, all idle"
}

# printed_env NODES WANT: eval what start printed, in a new shell without
# SLURM_CONF, then 'timeout 60 sinfo' (an executable on PATH for namespace
# nodes: timeout finds it, never a shell function, issue 34): its node names
# must be WANT (sorted, one line, blank-separated).
printed_env() {
    local got rc=0
    # shellcheck disable=SC2016 # expanded by the inner bash
    got=$(cd "$OUTDIR" && timeout -k 5 60 env -u SLURM_CONF bash -c \
        'eval "$(cat "$1")" && timeout 60 sinfo -h -N -o %N' sh "$OUTDIR/start-$1.env" 2>&1) || rc=$?
    got=$(sort -u <<<"$got" | tr '\n' ' ')
    if ((rc == 0)) && [[ $got == "$2 " ]]; then
        pass "$1 node(s): what start printed, followed, reaches the cluster (sinfo: $got)"
    else
        fail "$1 node(s): eval of start's output ($(tr '\n' ' ' <"$OUTDIR/start-$1.env")) then sinfo: exit $rc, '$got' (want '$2')"
    fi
}

# wait_job DIR ID: wait (bounded) until the job leaves the queue's active
# states; sets JOB_RESULT to "STATE EXITCODE". Not run in a subshell, so that
# a signal reaches this script's traps within a second.
JOB_RESULT=
wait_job() {
    local dir=$1 id=$2 deadline=$((SECONDS + JOB_TIMEOUT)) line state exitcode
    while :; do
        line=$(slurm "$dir" exec timeout 10 scontrol -o show job "$id" 2>/dev/null || true)
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
            slurm "$dir" exec timeout 10 scancel "$id" 2>/dev/null || true
            JOB_RESULT="TIMEOUT(${JOB_TIMEOUT}s) ${state:-unknown}"
            return 1
        fi
        sleep 1
    done
}

# submit DIR LABEL LAUNCHER SBATCH_ARG...: submit the batch script with a
# small pingpong run; sets JOB_ID, or fails and returns 1. With SUBMIT_FROM
# set: from that directory, without P2PB_BIN.
JOB_ID=
SUBMIT_FROM=
submit() {
    local dir=$1 label=$2 launcher=$3 id rc=0
    shift 3
    id=$(
        export P2PB_BIN=$BIN P2PB_LAUNCHER=$launcher P2PB_LABEL=$label P2PB_OUTDIR=$OUTDIR
        export P2PB_KERNELS=pingpong P2PB_SIZES=0,1K P2PB_SAMPLES=5
        [[ -z $SUBMIT_FROM ]] || unset P2PB_BIN # the job script finds it there
        cd "${SUBMIT_FROM:-$OUTDIR}" && slurm "$dir" exec timeout 30 sbatch --parsable "$@" --time=5 \
            --output="$OUTDIR/$label-%j.out" "$SBATCH_SCRIPT"
    ) || rc=$?
    id=${id%%;*}
    if ((rc != 0)) || ! [[ $id =~ ^[0-9]+$ ]]; then
        fail "$label: sbatch $* submitted the job (status $rc, '$id')"
        return 1
    fi
    JOB_ID=$id
}

# check_file NAME FILE HOSTS: the results file is complete with 2 ranks and
# a pingpong 1 KiB result on 2 ranks; HOSTS 'same' or 'differ' for the two
# ranks' recorded host names.
check_file() {
    local name=$1 file=$2 hosts=$3 v
    if ! v=$(q "$file" check 2>&1); then
        fail "$name: results file $file well formed ($v)"
        return
    fi
    v=$(q "$file" end 2>&1) || true
    expect "$name: end record has status complete (got '$v')" test "$v" = complete
    v=$(q "$file" nranks 2>&1) || true
    expect "$name: run record names 2 ranks (got '$v')" test "$v" = 2
    v=$(q "$file" result-nranks pingpong 1024 2>&1) || true
    expect "$name: pingpong 1 KiB ran on 2 ranks (got '$v')" test "$v" = 2
    v=$(q "$file" hosts 2>&1) || true
    if [[ $hosts == same ]]; then
        expect "$name: both ranks on one host (got '$v')" \
            test -n "${v%%,*}" -a "${v%%,*}" = "${v#*,}"
    else
        expect "$name: the ranks on two hosts (got '$v')" \
            test -n "${v%%,*}" -a -n "${v#*,}" -a "${v%%,*}" != "${v#*,}"
    fi
    v=$(q "$file" warnings 2>&1) || true
    if grep -q "overlapping PUs" <<<"$v"; then
        fail "$name: placement: $(grep "overlapping PUs" <<<"$v")"
    else
        pass "$name: no ranks bound to overlapping PUs"
    fi
}

# check_job DIR LABEL ID HOSTS: wait for the job, then check its file.
check_job() {
    local dir=$1 label=$2 id=$3 hosts=$4
    say "$label: job $id submitted; waiting at most ${JOB_TIMEOUT}s"
    wait_job "$dir" "$id" || true
    if [[ $JOB_RESULT == "COMPLETED 0:0" ]]; then
        pass "$label: job $id completed with exit code 0"
    else
        fail "$label: job $id ended as '$JOB_RESULT'; last lines of its output:"
        tail -n 20 "$OUTDIR/$label-$id.out" 2>/dev/null | sed 's/^/    /'
        return
    fi
    check_file "$label" "$OUTDIR/$label-$id.jsonl" "$hosts"
}

# (a) One node: the documented `sbatch -N 1 -n 2`, once per launcher; then
# without P2PB_BIN from a directory with build/p2pbench.
one_node() {
    local launcher tree=$OUTDIR/tree
    start_cluster "$ONE_DIR" 1 || return 0
    printed_env 1 "$(hostname -s)"
    for launcher in "${LAUNCHERS[@]}"; do
        submit "$ONE_DIR" "one-n1-$launcher" "$launcher" -N 1 -n 2 || continue
        check_job "$ONE_DIR" "one-n1-$launcher" "$JOB_ID" same
    done
    mkdir -p "$tree/build"
    ln -sf "$BIN" "$tree/build/p2pbench"
    if SUBMIT_FROM=$tree submit "$ONE_DIR" one-n1-nobin srun -N 1 -n 2; then
        check_job "$ONE_DIR" one-n1-nobin "$JOB_ID" same
        if command -v p2pbench >/dev/null; then
            say "one-n1-nobin: p2pbench is on PATH here, so the job used it; build/p2pbench not checked"
        elif grep -qF "p2pbench: $tree/build/p2pbench (from a build in $tree)" \
            "$OUTDIR/one-n1-nobin-$JOB_ID.out"; then
            pass "one-n1-nobin: the job found build/p2pbench in its submit directory"
        else
            fail "one-n1-nobin: job log does not name $tree/build/p2pbench: $(head -5 "$OUTDIR/one-n1-nobin-$JOB_ID.out")"
        fi
    fi
    slurm "$ONE_DIR" stop >>"$OUTDIR/local-slurm.log" 2>&1 || fail "one-node Slurm stopped"
}

# srun -N 2 straight from the login node (h1), no batch script.
srun_two() {
    local file=$OUTDIR/two-srun-N2.jsonl rc=0
    local -a cmd=("$BIN" pingpong --sizes "0,1K" --samples 5 --label two-srun-N2 -o "$file")
    rm -f -- "$file"
    say "two-srun-N2: srun -N 2 -n 2 --mpi=pmix ${cmd[*]}"
    (cd "$OUTDIR" && timeout -k 10 "$JOB_TIMEOUT" env P2PB_SLURM_DIR="$TWO_DIR" \
        "$LOCAL_SLURM" exec srun -N 2 -n 2 --mpi=pmix --time=5 "${cmd[@]}") \
        >"$OUTDIR/two-srun-N2.out" 2>&1 || rc=$?
    if ((rc != 0)); then
        fail "two-srun-N2: srun exited with status $rc; last lines of its output:"
        tail -n 20 "$OUTDIR/two-srun-N2.out" | sed 's/^/    /'
        return
    fi
    pass "two-srun-N2: srun -N 2 exited 0"
    check_file two-srun-N2 "$file" differ
}

# (b) Two nodes: srun -N 2; sbatch -N 1 -n 2; sbatch with the script's
# default (2 nodes, 2 tasks), once per launcher.
two_nodes() {
    local launcher
    start_cluster "$TWO_DIR" 2 || return 0
    printed_env 2 "h1 h2"
    srun_two
    submit "$TWO_DIR" two-n1-srun srun -N 1 -n 2 &&
        check_job "$TWO_DIR" two-n1-srun "$JOB_ID" same
    for launcher in "${LAUNCHERS[@]}"; do
        submit "$TWO_DIR" "two-default-$launcher" "$launcher" || continue
        check_job "$TWO_DIR" "two-default-$launcher" "$JOB_ID" differ
    done
}

start=$SECONDS
one_node
two_nodes
say "took $((SECONDS - start)) s; outputs in $OUTDIR"
summary
