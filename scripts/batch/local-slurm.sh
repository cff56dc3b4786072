#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# local-slurm.sh: a throw-away Slurm on this machine, for testing the batch
# scripts (see docs/testbed.md, "Slurm"). One node on this host, or N nodes
# h1..hN, each a network namespace of the testbed (scripts/testbed/testbed.sh,
# 198.18.0.I) running its own slurmd, slurmctld beside slurmd in h1.
# Everything lives in one state directory: munge key and socket, slurm.conf,
# state, spool, logs and the pids of the daemons it starts (munged, slurmctld,
# one slurmd per node), and a marker file (.p2pb-local-slurm) that 'start'
# writes first: every command refuses a non-empty directory without it, and
# 'stop' deletes only what 'start' made. One 'start' or 'stop' at a time per
# directory (flock on the directory; a second fails at once). Nothing under
# /etc is touched (except the testbed's /etc/netns/PREFIX-hI hosts files);
# clients find the cluster through SLURM_CONF. Needs root. Installs Debian's
# slurm-wlm and munge with apt-get if missing.
set -euo pipefail

readonly PROG=${0##*/}
SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
readonly SCRIPT_DIR
# shellcheck source=SCRIPTDIR/../lib/common.sh
. "$SCRIPT_DIR/../lib/common.sh" # log, die, usage_error, require_root
readonly TESTBED=$SCRIPT_DIR/../testbed/testbed.sh
readonly NET_BASE=198.18.0 # the testbed's addresses: host hI is NET_BASE.I
readonly MAX_NODES=8
DIR=${P2PB_SLURM_DIR:-/tmp/p2pb-slurm}
CTLD_PORT=${P2PB_SLURM_CTLD_PORT:-6817}
SLURMD_PORT=${P2PB_SLURM_SLURMD_PORT:-6818}
START_TIMEOUT=${P2PB_SLURM_START_TIMEOUT:-60}
TB_PREFIX=${P2PB_SLURM_TESTBED_PREFIX:-p2pbslurm}
readonly STOP_TIMEOUT=15
readonly PARTITION=debug
readonly MARKER=.p2pb-local-slurm # in DIR: the directory holds this script's cluster
readonly MARKER_LINE='p2pbench local-slurm.sh state directory (remove with local-slurm.sh stop)'
# What 'start' makes in DIR, besides the marker; 'stop' deletes these only.
readonly OWN_ENTRIES='munge state spool tmp log run bin slurm.conf cluster.env'
readonly CLIENTS='sbatch srun salloc squeue sinfo scontrol scancel sacct'
NODES=1 # of the cluster in DIR (cluster.env), or of the one being started

usage() {
    cat <<EOF
Usage: $PROG start [--nodes N] | stop | status | env | exec COMMAND [ARG...]

  start   install slurm-wlm and munge if missing (apt-get, as root), generate
          $DIR/slurm.conf, start munged, slurmctld and the slurmd(s), and
          wait (at most ${START_TIMEOUT}s) until sinfo shows every node idle.
          $DIR must be missing, empty, or hold a cluster of this script
          (its marker file $MARKER); a second start or stop on the same
          directory while one runs fails at once.
          --nodes 1 (default): one node, this host '$(hostname -s)' ($(nproc) CPUs).
          --nodes N (2..$MAX_NODES): nodes h1..hN, network namespaces
          $TB_PREFIX-h1..hN of the testbed ($NET_BASE.1..N, scripts/testbed/testbed.sh),
          one slurmd in each, slurmctld in h1; each node claims all $(nproc) CPUs.
          Then prints what 'env' prints.
  stop    cancel remaining jobs, stop exactly the daemons 'start' started (by
          pid), remove the namespaces, and delete what 'start' made in $DIR
          (and $DIR itself if start created it; all kept if P2PB_SLURM_KEEP=1).
          Refuses a non-empty directory without the marker file.
  status  show the daemons' pids and sinfo; exit 0 if all are running.
  env     print shell code that points clients (sbatch, srun, sinfo, ...) at
          the cluster: eval "\$($PROG env)". One node: 'export SLURM_CONF=...'.
          --nodes N (the controller is reachable only from the namespaces):
          'export PATH=$DIR/bin:...', a directory of small executables
          $CLIENTS
          that run the command through '$PROG exec' (executables, not shell
          functions: 'timeout 120 srun ...' and scripts find them too).
  exec    run a client command (sbatch, srun, squeue, ...) where it reaches
          the controller (in h1 with --nodes N) with SLURM_CONF set, e.g.
          $PROG exec srun -N 2 -n 2 --mpi=pmix hostname
          With --nodes N it also sets OMPI_MCA_hwloc_base_binding_policy=none
          (unless set): the nodes share this machine's cores, and mpirun's
          default binding puts the rank of every node on the same core 0.

Environment:
  P2PB_SLURM_DIR              state directory (default /tmp/p2pb-slurm)
  P2PB_SLURM_CTLD_PORT        slurmctld port (default 6817)
  P2PB_SLURM_SLURMD_PORT      slurmd port (default 6818)
  P2PB_SLURM_START_TIMEOUT    seconds to wait for idle nodes (default 60)
  P2PB_SLURM_TESTBED_PREFIX   namespace prefix for --nodes N (default p2pbslurm)
  P2PB_SLURM_KEEP=1           keep the state directory (logs) on stop
EOF
}

conf() { printf '%s/slurm.conf' "$DIR"; }
pidfile() { printf '%s/run/%s.pid' "$DIR" "$1"; }
cluster_env() { printf '%s/cluster.env' "$DIR"; }
marker() { printf '%s/%s' "$DIR" "$MARKER"; }

# shq WORD: WORD quoted for the shell ('...', each ' as '\'').
shq() { printf "'%s'" "${1//\'/\'\\\'\'}"; }

# ours: DIR holds this script's cluster (the marker file, its first line).
ours() {
    local line
    [[ -f $(marker) && -r $(marker) ]] || return 1
    IFS= read -r line <"$(marker)" || return 1
    [[ $line == "$MARKER_LINE" ]]
}

# check_dir_path: DIR is an absolute path, not /.
check_dir_path() {
    [[ $DIR == /* && $DIR != / ]] ||
        die "P2PB_SLURM_DIR must be an absolute path other than /, got '$DIR'"
}

# require_ours: die unless DIR holds a cluster of this script.
require_ours() {
    ours || die "P2PB_SLURM_DIR=$DIR holds no cluster of $PROG (no $MARKER file); not touching it"
}

# check_start_dir: DIR may take a new cluster: missing, empty, or ours.
check_start_dir() {
    check_dir_path
    [[ -e $DIR ]] || return 0
    [[ -d $DIR ]] || die "P2PB_SLURM_DIR=$DIR exists and is not a directory"
    ours && return 0
    [[ -z $(ls -A -- "$DIR") ]] ||
        die "P2PB_SLURM_DIR=$DIR is not empty and holds no cluster of $PROG (no $MARKER file); use an empty or new directory"
}

# lock_dir: hold an exclusive lock on DIR (flock on the directory, fd 9)
# until this process ends; fail at once if another start or stop holds it.
# Daemons are started with fd 9 closed, so the lock ends with this process.
lock_dir() {
    command -v flock >/dev/null 2>&1 || die "flock not found (util-linux)"
    exec 9<"$DIR" || die "cannot open $DIR"
    flock -n 9 || die "another $PROG start or stop is working on $DIR; try again when it has finished"
    [[ /dev/fd/9 -ef $DIR ]] || die "$DIR was removed or replaced while locking it; try again"
}

# testbed ARG...: the testbed script on this cluster's namespaces.
testbed() { P2PB_TESTBED_PREFIX=$TB_PREFIX "$TESTBED" "$@" 9<&-; }

# load_cluster: NODES and TB_PREFIX of the cluster recorded in DIR (start
# writes them); a missing file means one node. Read, never sourced.
load_cluster() {
    local k v
    [[ -r $(cluster_env) ]] || return 0
    while IFS='=' read -r k v; do
        case $k in
        NODES) [[ $v =~ ^[0-9]+$ ]] && NODES=$v ;;
        PREFIX) [[ $v =~ ^[a-z][a-z0-9]{0,11}$ ]] && TB_PREFIX=$v ;;
        esac
    done <"$(cluster_env)"
}

# Daemon names, start order: munged, slurmctld, then slurmd (one node) or
# slurmd.hI (one per namespace node). The process name is the part before '.'.
daemons() {
    local i
    printf '%s\n' munged slurmctld
    if ((NODES == 1)); then
        echo slurmd
    else
        for ((i = 1; i <= NODES; i++)); do echo "slurmd.h$i"; done
    fi
}

# node_names: the Slurm node names, one a line (SlurmdSpoolDir's %n).
node_names() {
    local i
    if ((NODES == 1)); then
        hostname -s
    else
        for ((i = 1; i <= NODES; i++)); do echo "h$i"; done
    fi
}

# alive PID: the process exists and is not a zombie (a daemon whose parent
# has exited is reaped by pid 1, maybe late).
alive() {
    local stat
    stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
    stat=${stat##*) }
    [[ ${stat%% *} != Z ]]
}

# daemon_pid NAME: print the pid recorded for NAME if that process is still
# the daemon we started (same executable name, our config or key on its
# command line); return 1 otherwise.
daemon_pid() {
    local name=$1 pid cmdline
    [[ -r $(pidfile "$name") ]] || return 1
    pid=$(<"$(pidfile "$name")")
    [[ $pid =~ ^[0-9]+$ ]] || return 1
    alive "$pid" || return 1
    cmdline=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null) || return 1
    [[ $(cat "/proc/$pid/comm" 2>/dev/null) == "${name%%.*}" && $cmdline == *"$DIR/"* ]] ||
        return 1
    printf '%s\n' "$pid"
}

# client CMD...: run a Slurm client where it reaches slurmctld (in h1 for
# namespace nodes), with SLURM_CONF set.
client() {
    if ((NODES > 1)); then
        testbed exec h1 -- env SLURM_CONF="$(conf)" "$@"
    else
        SLURM_CONF=$(conf) "$@"
    fi
}

ensure_packages() {
    local missing=() c
    for c in munged slurmctld slurmd sbatch sinfo; do
        command -v "$c" >/dev/null 2>&1 || missing+=("$c")
    done
    ((${#missing[@]})) || return 0
    log "missing ${missing[*]}: installing slurm-wlm and munge with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    timeout 600 apt-get install -y -q slurm-wlm munge >&2 ||
        { timeout 300 apt-get update -q >&2 && timeout 600 apt-get install -y -q slurm-wlm munge >&2; } ||
        die "could not install slurm-wlm and munge"
}

# node_lines: slurm.conf's controller, node and partition lines. One node:
# this host. Namespace nodes: hI at NET_BASE.I, the controller in h1. Each
# node's RealMemory is below the machine's: 90% of MemTotal, in MiB (the
# nodes share it; nothing enforces memory here).
node_lines() {
    local cpus mem_mb host i
    cpus=$(nproc)
    mem_mb=$(awk '/^MemTotal:/ {printf "%d", $2 / 1024 * 0.9}' /proc/meminfo)
    if ((NODES == 1)); then
        host=$(hostname -s)
        printf 'SlurmctldHost=%s\n' "$host"
        printf 'NodeName=%s CPUs=%s RealMemory=%s State=UNKNOWN\n' "$host" "$cpus" "$mem_mb"
        printf 'PartitionName=%s Nodes=%s Default=YES MaxTime=INFINITE State=UP\n' \
            "$PARTITION" "$host"
        return
    fi
    printf 'SlurmctldHost=h1(%s.1)\n' "$NET_BASE"
    for ((i = 1; i <= NODES; i++)); do
        printf 'NodeName=h%d NodeHostname=h%d NodeAddr=%s.%d CPUs=%s RealMemory=%s State=UNKNOWN\n' \
            "$i" "$i" "$NET_BASE" "$i" "$cpus" "$mem_mb"
    done
    printf 'PartitionName=%s Nodes=h[1-%d] Default=YES MaxTime=INFINITE State=UP\n' \
        "$PARTITION" "$NODES"
}

write_conf() {
    cat >"$(conf)" <<EOF
# Generated by $PROG for a $NODES-node test cluster. Do not use in production.
ClusterName=p2pbtest
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$DIR/munge/munge.socket
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool/%n
TmpFS=$DIR/tmp/%n
SlurmctldPidFile=$DIR/run/slurmctld.daemon.pid
SlurmdPidFile=$DIR/run/slurmd.%n.daemon.pid
SlurmctldLogFile=$DIR/log/slurmctld.log
SlurmdLogFile=$DIR/log/slurmd.%n.log
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
MinJobAge=300
KillWait=5
$(node_lines)
EOF
}

# launch NAME CMD...: start a daemon in the foreground of its own session, in
# the background of this script, and record its pid. Every wrapper in CMD
# (setsid, unshare, sh, nsenter) execs the next, so the pid is the daemon's.
launch() {
    local name=$1 pid
    shift
    setsid "$@" </dev/null >>"$DIR/log/$name.out" 2>&1 9<&- &
    pid=$!
    printf '%s\n' "$pid" >"$(pidfile "$name")"
    log "started $name (pid $pid)"
}

# in_node NAME CMD...: launch daemon NAME on its node: here for one node,
# else on testbed host hI (slurmctld on h1, slurmd.hI on hI): its network
# namespace, its own UTS namespace named hI, and a mount namespace where
# /etc/hosts is the testbed's hosts file. Not `testbed.sh exec`: `ip netns
# exec` also mounts a fresh /sys, without the cgroup file systems, and
# slurmd (22.05) will not start without one even with proctrack/linuxproc.
in_node() {
    local name=$1 host=h1 ns
    shift
    if ((NODES == 1)); then
        launch "$name" "$@"
        return
    fi
    [[ $name != slurmd.* ]] || host=${name#slurmd.}
    ns=$TB_PREFIX-$host
    [[ -e /run/netns/$ns && -r /etc/netns/$ns/hosts ]] || die "testbed host $host ($ns) not found"
    # shellcheck disable=SC2016 # expanded by the inner sh
    launch "$name" unshare --mount --uts --propagation slave -- sh -c \
        'mount --bind "$1" /etc/hosts && hostname "$2" || exit 1; shift 2; exec "$@"' \
        sh "/etc/netns/$ns/hosts" "$host" nsenter --net="/run/netns/$ns" "$@"
}

# wait_for SECONDS DESCRIPTION CMD...: poll CMD until it succeeds, bounded.
wait_for() {
    local secs=$1 what=$2 deadline
    shift 2
    deadline=$((SECONDS + secs))
    until "$@" >/dev/null 2>&1; do
        ((SECONDS < deadline)) || {
            log "error: timed out after ${secs}s waiting for $what"
            return 1
        }
        sleep 0.5
    done
}

# nodes_idle: sinfo shows all NODES nodes idle.
nodes_idle() {
    local n
    n=$(client timeout 10 sinfo -h -N -t idle -o %N 2>/dev/null | sort -u | wc -l)
    ((n == NODES))
}

all_running() {
    local d
    for d in $(daemons); do daemon_pid "$d" >/dev/null || return 1; done
}

any_running() {
    local d
    for d in $(daemons); do daemon_pid "$d" >/dev/null && return 0; done
    return 1
}

# tb_exists: namespaces of this cluster's testbed prefix exist.
tb_exists() {
    ip netns list 2>/dev/null | awk '{print $1}' | grep -qE "^${TB_PREFIX}-(br|h[0-9]+)\$"
}

show_logs() {
    local f
    for f in "$DIR"/log/*; do
        [[ -s $f ]] || continue
        log "---- last lines of $f"
        tail -n 15 "$f" >&2
    done
}

STARTING=0
on_exit() {
    local rc=$?
    trap - EXIT INT TERM HUP
    if ((STARTING && rc != 0)); then
        show_logs
        log "start failed; stopping what was started"
        P2PB_SLURM_KEEP=${P2PB_SLURM_KEEP:-0} stop_cluster || true
    fi
    exit "$rc"
}

# parse_start ARG...: --nodes N sets NODES.
parse_start() {
    NODES=1
    while [[ $# -gt 0 ]]; do
        case $1 in
        --nodes)
            if ! [[ $# -ge 2 && $2 =~ ^[0-9]+$ ]] || (($2 < 1 || $2 > MAX_NODES)); then
                usage_error "--nodes needs a number from 1 to $MAX_NODES, got '${2-}'"
            fi
            NODES=$2
            shift 2
            ;;
        *) usage_error "start: unexpected argument '$1'" ;;
        esac
    done
}

# remove_own: delete what 'start' made in DIR (OWN_ENTRIES, then the
# marker), never anything else; DIR itself only if 'start' created it (the
# marker says so) and nothing else is left in it.
remove_own() {
    local e created=0 line
    ours || return 0
    while IFS='=' read -r e line; do
        [[ $e == created_dir && $line == 1 ]] && created=1
    done <"$(marker)"
    for e in $OWN_ENTRIES; do rm -rf -- "${DIR:?}/$e"; done
    rm -f -- "$(marker)"
    if ((created)); then
        rmdir -- "$DIR" 2>/dev/null || log "kept $DIR: it holds files $PROG did not make"
    fi
}

# prepare_dir CREATED: a fresh state directory (the marker first, saying
# whether start created DIR: CREATED 1 or 0) with a private munge key (1024
# random bytes, readable by root only), cluster.env and slurm.conf. What an
# earlier cluster left in DIR (ours, nothing running) is removed first.
prepare_dir() {
    local created=$1 node e line
    if ours; then
        while IFS='=' read -r e line; do
            [[ $e == created_dir && $line == 1 ]] && created=1
        done <"$(marker)"
        for e in $OWN_ENTRIES; do rm -rf -- "${DIR:?}/$e"; done
    fi
    printf '%s\ncreated_dir=%d\n' "$MARKER_LINE" "$created" >"$(marker)"
    (umask 077 && mkdir -p "$DIR"/{munge,state,spool,tmp,log,run})
    for node in $(node_names); do mkdir -p "$DIR/spool/$node" "$DIR/tmp/$node"; done
    (umask 077 && head -c 1024 /dev/urandom >"$DIR/munge/munge.key")
    printf 'NODES=%d\nPREFIX=%s\n' "$NODES" "$TB_PREFIX" >"$(cluster_env)"
    ((NODES == 1)) || write_clients
    write_conf
}

cmd_start() {
    local want_prefix=$TB_PREFIX want_nodes created=0
    parse_start "$@"
    want_nodes=$NODES
    check_start_dir
    require_root "SlurmUser=root, munged --force"
    if [[ ! -e $DIR ]]; then
        mkdir -p -- "$(dirname -- "$DIR")" && mkdir -- "$DIR" 2>/dev/null && created=1
        [[ -d $DIR ]] || die "cannot create $DIR"
    fi
    lock_dir
    check_start_dir # again, under the lock
    load_cluster    # what DIR holds, if anything
    if any_running; then
        all_running && ((NODES == want_nodes)) && {
            log "already running in $DIR ($NODES node(s))"
            env_lines
            return 0
        }
        all_running &&
            die "a $NODES-node cluster is running in $DIR, not $want_nodes; run '$PROG stop' first"
        die "a partial cluster is running in $DIR; run '$PROG stop' first"
    fi
    # The namespaces of a cluster in DIR whose daemons are gone (a killed
    # run): they are ours by the prefix DIR recorded; remove them.
    if ((NODES > 1)) && tb_exists; then
        log "removing the stale testbed '$TB_PREFIX' of $DIR"
        testbed down >&2
    fi
    TB_PREFIX=$want_prefix
    NODES=$want_nodes
    [[ $TB_PREFIX =~ ^[a-z][a-z0-9]{0,11}$ ]] ||
        usage_error "P2PB_SLURM_TESTBED_PREFIX must match [a-z][a-z0-9]{0,11}: '$TB_PREFIX'"
    ensure_packages
    command -v setsid >/dev/null || die "setsid not found"
    ((NODES == 1)) || [[ -x $TESTBED ]] || die "testbed script not executable: $TESTBED"

    STARTING=1
    trap on_exit EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    trap 'exit 129' HUP

    prepare_dir "$created"
    if ((NODES > 1)); then
        # Namespaces of our prefix with none of our daemons: a run that was
        # killed before its stop, in another state directory. Ours by name.
        if tb_exists; then
            log "removing the stale testbed '$TB_PREFIX'"
            testbed down >&2
        fi
        testbed up "$NODES" >&2
    fi

    launch munged munged --foreground --force \
        --key-file="$DIR/munge/munge.key" --socket="$DIR/munge/munge.socket" \
        --pid-file="$DIR/munge/munged.pid" --seed-file="$DIR/munge/munged.seed" \
        --log-file="$DIR/log/munged.log"
    # shellcheck disable=SC2016 # expanded by the inner sh
    wait_for 15 "munged" sh -c \
        'munge -n -S "$1" | unmunge -S "$1"' sh "$DIR/munge/munge.socket"

    in_node slurmctld slurmctld -D -i -f "$(conf)"
    wait_for 30 "slurmctld" client timeout 10 scontrol ping

    local d
    for d in $(daemons); do
        [[ $d == slurmd* ]] && in_node "$d" slurmd -D -f "$(conf)"
    done
    wait_for "$START_TIMEOUT" "$NODES node(s) idle in sinfo" nodes_idle
    all_running || die "a daemon exited during start"
    STARTING=0
    local pids=''
    for d in $(daemons); do pids+="${pids:+, }$d $(daemon_pid "$d")"; done
    log "running, $NODES node(s) idle: $pids"
    ((NODES == 1)) || log "clients: eval \"\$($PROG env)\" (puts $DIR/bin first on PATH: $CLIENTS, run in h1), or $PROG exec COMMAND"
    env_lines
}

# stop_daemons: our daemons by pid, TERM then (bounded) KILL, in reverse
# start order (the slurmds first).
stop_daemons() {
    local i name pid deadline rc=0
    local -a names
    mapfile -t names < <(daemons)
    if daemon_pid slurmctld >/dev/null; then
        # Let running jobs go first so no step outlives its slurmd.
        client timeout 10 scancel --quiet --full --user=root 2>/dev/null || true
        deadline=$((SECONDS + STOP_TIMEOUT))
        while ((SECONDS < deadline)) &&
            [[ -n $(client timeout 10 squeue -h -t running,completing -o %i 2>/dev/null) ]]; do
            sleep 0.5
        done
    fi
    for ((i = ${#names[@]} - 1; i >= 0; i--)); do
        name=${names[i]}
        pid=$(daemon_pid "$name") || continue
        kill -TERM "$pid" 2>/dev/null || true
        deadline=$((SECONDS + STOP_TIMEOUT))
        while alive "$pid" && ((SECONDS < deadline)); do sleep 0.2; done
        if alive "$pid"; then
            log "warning: $name (pid $pid) ignored SIGTERM; sending SIGKILL"
            kill -KILL "$pid" 2>/dev/null || true
            sleep 0.2
        fi
        if alive "$pid" && daemon_pid "$name" >/dev/null; then
            log "error: could not stop $name (pid $pid)"
            rc=1
        else
            log "stopped $name (pid $pid)"
        fi
    done
    return "$rc"
}

# stop_cluster: the daemons, then the namespaces (the testbed kills what is
# left in them, e.g. a job step), then the state directory.
stop_cluster() {
    local rc=0
    stop_daemons || rc=1
    if ((NODES > 1)) && tb_exists; then
        testbed down >&2 || rc=1
    fi
    if ((rc == 0)) && [[ ${P2PB_SLURM_KEEP:-0} != 1 ]]; then
        remove_own
    fi
    return "$rc"
}

cmd_stop() {
    check_dir_path
    [[ -e $DIR ]] || {
        log "nothing to stop ($DIR does not exist)"
        return 0
    }
    if ! ours && [[ -d $DIR && -z $(ls -A -- "$DIR") ]]; then
        log "nothing to stop ($DIR is empty)"
        return 0
    fi
    require_ours
    require_root
    lock_dir
    require_ours # again, under the lock
    load_cluster
    stop_cluster
}

cmd_status() {
    local d pid rc=0
    check_dir_path
    [[ ! -e $DIR || ( -d $DIR && -z $(ls -A -- "$DIR") ) ]] || require_ours
    load_cluster
    for d in $(daemons); do
        if pid=$(daemon_pid "$d"); then
            printf '%-10s running (pid %s)\n' "$d" "$pid"
        else
            printf '%-10s not running\n' "$d"
            rc=3
        fi
    done
    if daemon_pid slurmctld >/dev/null; then
        client timeout 10 sinfo -N || true
    fi
    return "$rc"
}

# write_clients: namespace nodes: DIR/bin holds an executable per client
# command that runs it through 'exec' (a SLURM_CONF exported for them would
# send clients to the namespaces' controller address from outside them:
# "Insane message length", or no answer). Executables, not shell functions:
# 'timeout 120 srun ...', xargs and scripts run them too (issue 34).
write_clients() {
    local c self
    self=$SCRIPT_DIR/${BASH_SOURCE[0]##*/}
    mkdir -p "$DIR/bin"
    for c in $CLIENTS; do
        printf '#!/bin/sh\n# %s of the local-slurm.sh cluster in %s\nP2PB_SLURM_DIR=%s exec %s exec %s "$@"\n' \
            "$c" "$(shq "$DIR")" "$(shq "$DIR")" "$(shq "$self")" "$c" >"$DIR/bin/$c"
        chmod 755 "$DIR/bin/$c"
    done
}

# env_lines: shell code for clients. One node: SLURM_CONF. Namespace
# nodes: DIR/bin (write_clients) first on PATH.
env_lines() {
    if ((NODES == 1)); then
        printf 'export SLURM_CONF=%s\n' "$(shq "$(conf)")"
        return
    fi
    [[ -x $DIR/bin/srun ]] || die "$DIR/bin/srun missing: the cluster was started by an older local-slurm.sh; stop and start it"
    # shellcheck disable=SC2016 # $PATH for the shell that evals it
    printf 'unset SLURM_CONF\nexport PATH=%s:"$PATH"\n' "$(shq "$DIR/bin")"
}

# require_cluster: DIR holds a cluster of this script.
require_cluster() {
    check_dir_path
    [[ -e $DIR ]] || die "no cluster in $DIR (run '$PROG start' first)"
    require_ours
    [[ -r $(conf) ]] || die "no cluster in $DIR (no slurm.conf; run '$PROG start' first)"
}

cmd_env() {
    require_cluster
    load_cluster
    env_lines
}

cmd_exec() {
    [[ ${1-} != -- ]] || shift
    [[ $# -ge 1 ]] || usage_error "exec: no command"
    require_cluster
    load_cluster
    # the real client, never the wrappers of DIR/bin (write_clients) again
    PATH=$(printf '%s' "$PATH" | tr ':' '\n' | grep -vxF "$DIR/bin" | paste -sd: -)
    export PATH
    if ((NODES > 1)); then
        require_root "the nodes are network namespaces"
        [[ -n ${OMPI_MCA_hwloc_base_binding_policy:-} ]] ||
            export OMPI_MCA_hwloc_base_binding_policy=none
        exec env P2PB_TESTBED_PREFIX="$TB_PREFIX" "$TESTBED" exec h1 -- \
            env SLURM_CONF="$(conf)" "$@"
    fi
    SLURM_CONF=$(conf) exec "$@"
}

main() {
    [[ $# -ge 1 ]] || {
        usage >&2
        exit 2
    }
    local sub=$1
    shift
    case $sub in
    start) cmd_start "$@" ;;
    exec) cmd_exec "$@" ;;
    stop | status | env | -h | --help | help)
        [[ $# -eq 0 ]] || usage_error "$sub takes no arguments"
        case $sub in
        stop) cmd_stop ;;
        status) cmd_status ;;
        env) cmd_env ;;
        *) usage ;;
        esac
        ;;
    *)
        log "error: unknown command '$sub'"
        usage >&2
        exit 2
        ;;
    esac
}

main "$@"
