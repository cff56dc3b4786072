#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# script_guards.sh: what the batch and testbed scripts refuse, and how they
# behave when started twice at once.
#
#   script_guards.sh TEST OUTDIR
#
#   slurm-dir     local-slurm.sh on a directory of unrelated files: start,
#                 stop, status, env and exec refuse it (one line naming it,
#                 exit 1) and every file survives. No root, no Slurm.
#   batch-bin     p2pbench.sbatch and p2pbench.pbs, run as a copy (as from a
#                 spool directory) with --dry-run and no p2pbench on PATH:
#                 the binary is found in the submit directory's build, its
#                 path printed; several builds or none: an error that says
#                 to set P2PB_BIN. No root, no batch system.
#   slurm-lock    two 'local-slurm.sh start' at once on one directory: one
#                 cluster runs, the other start fails at once naming the
#                 directory; 'stop' then leaves no daemon of it, and keeps a
#                 file that start did not make. Root, Slurm and munge.
#   testbed-lock  two 'testbed.sh run 2' with one prefix at once: one runs
#                 (h1 and h2 answer), the other fails at once and leaves its
#                 namespaces alone; nothing is left afterwards. Root, ip,
#                 unshare, mpirun.
#
# Exit 0 passed, 1 a check failed, 2 usage, 77 skipped (slurm-lock and
# testbed-lock without root or their commands; with P2PB_REQUIRE_SLURM=1 /
# P2PB_REQUIRE_NETNS=1 that fails).
set -euo pipefail

# shellcheck disable=SC2034 # used by driver.sh
DRIVER=script_guards
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=SCRIPTDIR/../lib/driver.sh
. "$HERE/../lib/driver.sh"
SCRIPTS=$(cd "$HERE/../../scripts" && pwd)
LOCAL_SLURM=$SCRIPTS/batch/local-slurm.sh
TESTBED=$SCRIPTS/testbed/testbed.sh
readonly JOB_TIMEOUT=120 # seconds for any one start or run below

[[ $# -eq 2 ]] || {
    echo "usage: $0 slurm-dir|batch-bin|slurm-lock|testbed-lock OUTDIR" >&2
    exit 2
}
TEST=$1
OUTDIR=$2
rm -rf -- "$OUTDIR"
mkdir -p -- "$OUTDIR"
OUTDIR=$(cd "$OUTDIR" && pwd)
cd "$OUTDIR"

# listing DIR: every path under DIR with its content's checksum.
listing() { (cd "$1" && find . -print0 | sort -z | xargs -0 -n1 sh -c \
    'if [ -f "$1" ]; then printf "%s %s\n" "$1" "$(cksum <"$1")"; else echo "$1"; fi' sh); }

# one_line_error FILE WORDS: FILE (stderr) is one line holding WORDS.
one_line_error() {
    [[ $(wc -l <"$1") -eq 1 ]] && grep -qF -- "$2" "$1"
}

# ---- slurm-dir --------------------------------------------------------------
slurm_dir() {
    local d=$OUTDIR/unrelated before sub
    mkdir -p "$d/results"
    echo "measurements" >"$d/results/run-1.jsonl"
    echo "notes" >"$d/notes.txt"
    before=$(listing "$d")
    # High ports: should a broken guard start a cluster, it meets no other.
    export P2PB_SLURM_CTLD_PORT=6867 P2PB_SLURM_SLURMD_PORT=6868 P2PB_SLURM_START_TIMEOUT=20
    for sub in stop status env "exec true" start "start --nodes 2"; do
        # shellcheck disable=SC2086 # sub is words
        expect_status 1 env P2PB_SLURM_DIR="$d" timeout "$JOB_TIMEOUT" "$LOCAL_SLURM" $sub
        if one_line_error err.txt "P2PB_SLURM_DIR=$d " && grep -q "holds no cluster of local-slurm.sh" err.txt; then
            pass "$sub refuses a directory of other files: $(cat err.txt)"
        else
            fail "$sub on a directory of other files: want one line naming it, got: $(head -3 err.txt)"
        fi
        if [[ $(listing "$d") == "$before" ]]; then
            pass "$sub left every file as it was"
        else
            fail "$sub changed the directory: $(listing "$d" | tr '\n' ' ')"
        fi
    done
    # A marker file of another content is not this script's.
    echo "something else" >"$d/.p2pb-local-slurm"
    before=$(listing "$d")
    expect_status 1 env P2PB_SLURM_DIR="$d" "$LOCAL_SLURM" stop
    if one_line_error err.txt "holds no cluster of local-slurm.sh" && [[ $(listing "$d") == "$before" ]]; then
        pass "stop refuses a foreign marker file"
    else
        fail "stop with a foreign marker: $(head -3 err.txt)"
    fi
    # The state directory must be absolute; a missing one is nothing to stop.
    expect_status 1 env P2PB_SLURM_DIR=relative/dir "$LOCAL_SLURM" stop
    if one_line_error err.txt "P2PB_SLURM_DIR must be an absolute path"; then
        pass "relative directory refused"
    else
        fail "relative directory: $(head -3 err.txt)"
    fi
    expect_status 0 env P2PB_SLURM_DIR="$OUTDIR/missing" "$LOCAL_SLURM" stop
    if [[ ! -e $OUTDIR/missing ]] && grep -q "nothing to stop" err.txt; then
        pass "stop of a missing directory"
    else
        fail "stop of a missing directory: $(head -3 err.txt)"
    fi
    # An empty directory: nothing to stop, and it stays (start did not make it).
    mkdir "$OUTDIR/empty"
    expect_status 0 env P2PB_SLURM_DIR="$OUTDIR/empty" "$LOCAL_SLURM" stop
    if [[ -d $OUTDIR/empty ]] && one_line_error err.txt "nothing to stop ($OUTDIR/empty is empty)"; then
        pass "stop of an empty directory: nothing to stop, the directory kept"
    else
        fail "stop of an empty directory: $(head -3 err.txt)"
    fi
}

# ---- batch-bin --------------------------------------------------------------
# tools_path DIR: a PATH directory with the commands the job scripts use and
# no p2pbench (one may be installed in /usr/bin).
tools_path() {
    local c
    mkdir -p "$1"
    for c in bash env awk sed grep dirname id mkdir cat tr head sort paste wc; do
        ln -sf "$(command -v "$c")" "$1/$c"
    done
}

# stub FILE: an executable that stands for p2pbench (never run: --dry-run).
stub() {
    mkdir -p "$(dirname "$1")"
    printf '#!/bin/sh\nexit 0\n' >"$1"
    chmod +x "$1"
}

# batch_run KIND SUBMIT_DIR [VAR=VALUE...]: the spool copy of the KIND script
# with --dry-run, submitted from SUBMIT_DIR; stdout/stderr in out.txt/err.txt.
batch_run() {
    local kind=$1 dir=$2 rc=0
    shift 2
    local -a vars=(PATH="$OUTDIR/tools")
    if [[ $kind == sbatch ]]; then vars+=(SLURM_SUBMIT_DIR="$dir"); else vars+=(PBS_O_WORKDIR="$dir"); fi
    (cd "$dir" && env -i HOME="$OUTDIR" "${vars[@]}" "$@" "$OUTDIR/spool/p2pbench.$kind" --dry-run) \
        >out.txt 2>err.txt || rc=$?
    return "$rc"
}

batch_bin() {
    local kind launch t rc
    tools_path "$OUTDIR/tools"
    mkdir -p spool
    cp "$SCRIPTS/batch/p2pbench.sbatch" "$SCRIPTS/batch/p2pbench.pbs" spool/
    stub tree/build/p2pbench
    stub one/build-ci/p2pbench
    stub two/build-ci/p2pbench
    stub two/build-asan/p2pbench
    stub other/bin/p2pbench
    mkdir -p empty
    for kind in sbatch pbs; do
        if [[ $kind == sbatch ]]; then launch="srun --mpi=pmix"; else launch=mpirun; fi
        for t in tree tree/build one; do
            case $t in
            one) want=$OUTDIR/one/build-ci/p2pbench ;;
            *) want=$OUTDIR/tree/build/p2pbench ;;
            esac
            rc=0
            batch_run "$kind" "$OUTDIR/$t" || rc=$?
            if ((rc == 0)) && grep -qF "command: $launch $want pingpong " err.txt &&
                grep -qF "p2pbench: $want (from a build in $OUTDIR/$t)" err.txt; then
                pass "$kind submitted from $t: uses $want"
            else
                fail "$kind submitted from $t: want $want (exit $rc): $(cat err.txt)"
            fi
        done
        rc=0
        batch_run "$kind" "$OUTDIR/two" || rc=$?
        if ((rc == 1)) && one_line_error err.txt "has several builds" && grep -q "set P2PB_BIN to one" err.txt &&
            grep -qF "$OUTDIR/two/build-ci/p2pbench" err.txt && grep -qF "$OUTDIR/two/build-asan/p2pbench" err.txt; then
            pass "$kind with two builds: names both, asks for P2PB_BIN"
        else
            fail "$kind with two builds (exit $rc): $(cat err.txt)"
        fi
        rc=0
        batch_run "$kind" "$OUTDIR/empty" || rc=$?
        if ((rc == 1)) && one_line_error err.txt "p2pbench not found: not on PATH, not in $OUTDIR/empty " &&
            grep -q "set P2PB_BIN to its path" err.txt; then
            pass "$kind without a binary: says where it looked and to set P2PB_BIN"
        else
            fail "$kind without a binary (exit $rc): $(cat err.txt)"
        fi
        rc=0
        batch_run "$kind" "$OUTDIR/tree" P2PB_BIN=../other/bin/p2pbench || rc=$?
        if ((rc == 0)) && grep -qF "command: $launch $OUTDIR/tree/../other/bin/p2pbench " err.txt; then
            pass "$kind: a relative P2PB_BIN is taken from the submit directory"
        else
            fail "$kind with P2PB_BIN=../other/bin/p2pbench (exit $rc): $(cat err.txt)"
        fi
        rc=0
        batch_run "$kind" "$OUTDIR/tree" P2PB_BIN="$OUTDIR/nonexistent" || rc=$?
        if ((rc == 1)) && one_line_error err.txt "P2PB_BIN='$OUTDIR/nonexistent' is not an executable file"; then
            pass "$kind: a wrong P2PB_BIN is named"
        else
            fail "$kind with a wrong P2PB_BIN (exit $rc): $(cat err.txt)"
        fi
        rc=0
        batch_run "$kind" "$OUTDIR/tree" PATH="$OUTDIR/tools:$OUTDIR/other/bin" || rc=$?
        if ((rc == 0)) && grep -qF "command: $launch $OUTDIR/other/bin/p2pbench " err.txt; then
            pass "$kind: p2pbench on PATH comes first"
        else
            fail "$kind with p2pbench on PATH (exit $rc): $(cat err.txt)"
        fi
        # node acceptance: --baseline needs the tree's common.sh, then
        # names the check it will run after the job
        rc=0
        batch_run "$kind" "$OUTDIR/tree" P2PB_BASELINE=base.json || rc=$?
        if ((rc == 1)) && one_line_error err.txt "--baseline needs the p2pbench tree (set P2PB_HOME)"; then
            pass "$kind: --baseline without the tree says to set P2PB_HOME"
        else
            fail "$kind: --baseline without the tree (exit $rc): $(cat err.txt)"
        fi
        rc=0
        batch_run "$kind" "$OUTDIR/tree" P2PB_BASELINE=base.json P2PB_HOME="$SCRIPTS/.." || rc=$?
        if ((rc == 0)) && grep -qE "then: p2pbench-report baseline check $OUTDIR/tree/base.json .*/slurm-0.jsonl --fail-on-outside|then: p2pbench-report baseline check $OUTDIR/tree/base.json .*/pbs-0.jsonl --fail-on-outside" err.txt; then
            pass "$kind --baseline: the node-acceptance check is named"
        else
            fail "$kind --baseline (exit $rc): $(cat err.txt)"
        fi
    done
}

# ---- slurm-lock -------------------------------------------------------------
# our_munged DIR: pids of munged processes whose command line names DIR.
our_munged() {
    local p
    for p in $(pgrep -x munged || true); do
        tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | grep -qF -- "$1/" && echo "$p"
    done
    return 0
}

SLURM_DIR=
slurm_cleanup() {
    local rc=$?
    trap - EXIT INT TERM HUP
    if [[ -n $SLURM_DIR && -e $SLURM_DIR/.p2pb-local-slurm ]]; then
        P2PB_SLURM_DIR=$SLURM_DIR "$LOCAL_SLURM" stop >>local-slurm.log 2>&1 ||
            say "warning: local-slurm.sh stop failed for $SLURM_DIR"
    fi
    [[ -z $SLURM_DIR ]] || rm -rf -- "${SLURM_DIR%/c}"
    exit "$rc"
}

slurm_lock() {
    local a b ra=0 rb=0 wins pids
    REQUIRE_VAR=P2PB_REQUIRE_SLURM
    require_root
    require_commands munged munge unmunge slurmctld slurmd sinfo scontrol squeue scancel \
        setsid flock pgrep timeout
    # A short path: it holds the munge socket.
    SLURM_DIR=$(mktemp -d /tmp/p2pbl.XXXXXX)/c
    trap slurm_cleanup EXIT
    exit_on_signals
    export P2PB_SLURM_DIR=$SLURM_DIR P2PB_SLURM_CTLD_PORT=6857 P2PB_SLURM_SLURMD_PORT=6858
    timeout -k 10 "$JOB_TIMEOUT" "$LOCAL_SLURM" start >a.out 2>a.err &
    a=$!
    timeout -k 10 "$JOB_TIMEOUT" "$LOCAL_SLURM" start >b.out 2>b.err &
    b=$!
    wait "$a" || ra=$?
    wait "$b" || rb=$?
    cat a.err b.err >>local-slurm.log
    wins=$(((ra == 0) + (rb == 0)))
    if ((wins == 1)) && { ((ra == 1)) || ((rb == 1)); }; then
        pass "two starts at once: one cluster started, the other start failed (exit $ra, $rb)"
    else
        fail "two starts at once: exits $ra and $rb (want one 0, one 1): $(cat a.err b.err)"
    fi
    if one_line_error "$( ((ra == 1)) && echo a.err || echo b.err)" \
        "another local-slurm.sh start or stop is working on $SLURM_DIR"; then
        pass "the second start says another start is working on the directory"
    else
        fail "the losing start's message: $(cat a.err b.err)"
    fi
    expect_status 0 "$LOCAL_SLURM" status
    if [[ $(grep -c ' running (pid ' out.txt) == 3 ]]; then
        pass "status: munged, slurmctld, slurmd running"
    else
        fail "status after two starts: $(cat out.txt err.txt)"
    fi
    pids=$(our_munged "$SLURM_DIR" | wc -l)
    if ((pids == 1)); then
        pass "one munged for the directory"
    else
        fail "$pids munged processes for $SLURM_DIR"
    fi
    # stop deletes what start made, keeps what it did not, and the directory
    # with it (start created it)
    echo "mine" >"$SLURM_DIR/user-notes.txt"
    expect_status 0 "$LOCAL_SLURM" stop
    cat err.txt >>local-slurm.log
    pids=$(our_munged "$SLURM_DIR" | wc -l)
    if ((pids == 0)); then
        pass "no munged left after stop"
    else
        fail "$pids munged left after stop"
    fi
    if [[ $(ls -A "$SLURM_DIR" 2>&1) == user-notes.txt && $(cat "$SLURM_DIR/user-notes.txt") == mine ]]; then
        pass "stop deleted what start made and kept user-notes.txt"
    else
        fail "after stop the directory holds: $(ls -A "$SLURM_DIR" 2>&1 | tr '\n' ' ')"
    fi
    rm -f -- "$SLURM_DIR/user-notes.txt"
}

# ---- testbed-lock -----------------------------------------------------------
testbed_lock() {
    local a b ra=0 rb=0 win lose
    REQUIRE_VAR=P2PB_REQUIRE_NETNS
    require_root
    require_commands ip unshare mpirun timeout flock
    allow_mpi_as_root
    netns_own_testbed tbl
    timeout -k 10 "$JOB_TIMEOUT" "$TESTBED" run 2 --timeout 60 -- hostname >a.out 2>a.err &
    a=$!
    timeout -k 10 "$JOB_TIMEOUT" "$TESTBED" run 2 --timeout 60 -- hostname >b.out 2>b.err &
    b=$!
    wait "$a" || ra=$?
    wait "$b" || rb=$?
    if { ((ra == 0)) && ((rb == 1)); } || { ((ra == 1)) && ((rb == 0)); }; then
        pass "two runs at once: one ran, the other failed (exit $ra, $rb)"
    else
        fail "two runs at once: exits $ra and $rb (want one 0, one 1): $(cat a.err b.err)"
    fi
    if ((ra == 0)); then win=a lose=b; else win=b lose=a; fi
    if [[ $(sort "$win.out" | tr '\n' ' ') == "h1 h2 " ]]; then
        pass "the winner's ranks ran on h1 and h2"
    else
        fail "the winner's output: $(cat "$win.out")"
    fi
    if one_line_error "$lose.err" "testbed '$P2PB_TESTBED_PREFIX' is busy" &&
        grep -q "nothing was changed" "$lose.err"; then
        pass "the loser says the testbed is busy"
    else
        fail "the loser's message: $(cat "$lose.err")"
    fi
    if [[ -z $(ip netns list | awk '{print $1}' | grep "^$P2PB_TESTBED_PREFIX-" || true) ]]; then
        pass "no namespace left"
    else
        fail "namespaces left: $(ip netns list | grep "^$P2PB_TESTBED_PREFIX-")"
    fi
}

case $TEST in
slurm-dir) slurm_dir ;;
batch-bin) batch_bin ;;
slurm-lock) slurm_lock ;;
testbed-lock) testbed_lock ;;
*)
    echo "unknown test '$TEST'" >&2
    exit 2
    ;;
esac
summary
