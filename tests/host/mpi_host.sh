#!/bin/sh
# SPDX-License-Identifier: MIT
# MPI tests of the host context. Usage: mpi_host.sh MODE MPIEXEC P2PBENCH TEST_MPIT
# Works with Open MPI's mpirun (as root too: the variables that allow it are
# exported here, as root only, never set in code) and MPICH's hydra mpiexec.
# Exit 0 pass, 1 fail, 77 skipped (e.g. the launcher cannot bind as asked).
set -u
mode=$1 mpiexec=$2 bench=$3 mpit=$4
# fatal: FAIL line, then the last run's stdout and stderr, exit 1; skip: exit 77
# shellcheck source=SCRIPTDIR/../lib/driver.sh
. "$(dirname "$0")/../lib/driver.sh"
FATAL_SHOW="stdout=out stderr=err"
allow_mpi_as_root
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$tmp" || exit 1

if "$mpiexec" --version 2>&1 | grep -q "Open MPI\|OpenRTE"; then
    flavor=ompi
elif "$mpiexec" --version 2>&1 | grep -qi "hydra"; then
    flavor=mpich
else
    skip "unknown launcher $mpiexec"
fi
npus=$(nproc --all 2>/dev/null || echo 2)

# run NP [launcher options...] -- [p2pbench options...]: stdout to out, stderr to err
run() {
    np=$1; shift
    lopts=""
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do lopts="$lopts $1"; shift; done
    [ $# -gt 0 ] && shift
    if [ "$flavor" = ompi ]; then
        # shellcheck disable=SC2086
        "$mpiexec" -np "$np" --oversubscribe $lopts "$bench" "$@" >out 2>err
    else
        # shellcheck disable=SC2086
        "$mpiexec" -n "$np" $lopts "$bench" "$@" >out 2>err
    fi
    echo $? >rc
}
expect_warning() { grep -q "p2pbench: warning: .*$1" err || fatal "no warning matching '$1'"; }

case $mode in
mpit)
    if [ "$flavor" = ompi ]; then "$mpiexec" -np 2 --oversubscribe "$mpit"; else "$mpiexec" -n 2 "$mpit"; fi
    exit $? ;;
info)
    run 2 -- --info
    [ "$(cat rc)" = 0 ] || fatal "--info exit $(cat rc)"
    for f in '"verdict_derived"' '"signals"' '"cpuid_1_ecx_bit31"' '"clocksource"' '"cpufreq"' \
             '"topology"' '"pus"' '"caches"' '"memory_bytes"' '"binding"' '"bound"' \
             '"numa_node_of_buffers"' '"eager_limits"' '"warnings"' '"mpi_library"' '"container"'; do
        grep -q "$f" out || fatal "--info lacks $f"
    done
    if [ "$flavor" = ompi ]; then
        grep -q '"btl_vader_eager_limit":[[:space:]]*4096' out || fatal "--info lacks btl_vader_eager_limit 4096"
    fi
    exit 0 ;;
results)
    run 2 -- -k pingpong -s 0,8 --samples 6 -o res.jsonl
    [ "$(cat rc)" = 0 ] || fatal "run exit $(cat rc)"
    head -n 1 res.jsonl >run.json
    for f in '"hypervisor"' '"verdict_derived"' '"clocksource"' '"cpufreq"' '"topology"' \
             '"binding"' '"bound"' '"numa_node_of_buffers"' '"transport"' '"eager_limits"' \
             '"warnings"' '"eager_limit_marked"'; do
        grep -q "$f" run.json || fatal "run record lacks $f"
    done
    exit 0 ;;
numa)
    run 2 -- --numa-node 4096 --info
    [ "$(cat rc)" = 2 ] || fatal "--numa-node 4096: exit $(cat rc), expected 2"
    grep -q "invalid value '4096' for --numa-node" err || fatal "no one-line error naming 4096"
    run 2 -- --numa-node 0 --info
    [ "$(cat rc)" = 0 ] || fatal "--numa-node 0: exit $(cat rc)"
    grep -q '"buffer_policy":[[:space:]]*"bind:0"' out || fatal "buffer_policy bind:0 missing"
    grep -q '"numa_node_of_buffers":[[:space:]]*"0"' out || fatal "buffers not on node 0"
    exit 0 ;;
fixture)
    # the environment overrides reach every rank: a Xen dom0 from fixture files
    d=$(dirname "$0")/../data/hostinfo/xen-dom0
    d=$(cd "$d" && pwd) || fatal "no fixture $d"
    export P2PB_SYSFS_ROOT="$d/sys" P2PB_PROCFS_ROOT="$d/proc" P2PB_ROOTFS_ROOT="$d/root" P2PB_CPUID_FILE="$d/cpuid.txt"
    if [ "$flavor" = ompi ]; then
        run 2 -x P2PB_SYSFS_ROOT -x P2PB_PROCFS_ROOT -x P2PB_ROOTFS_ROOT -x P2PB_CPUID_FILE -- --info
    else
        run 2 -- --info
    fi
    [ "$(cat rc)" = 0 ] || fatal "exit $(cat rc)"
    grep -q '"verdict_derived":[[:space:]]*"xen-dom0"' out || fatal "verdict is not xen-dom0"
    grep -q '"xen_capabilities":[[:space:]]*"control_d"' out || fatal "control_d not recorded"
    grep -q '"clocksource":[[:space:]]*"xen"' out || fatal "clocksource not from the fixture"
    exit 0 ;;
placement_none)
    if [ "$flavor" = ompi ]; then run 2 --bind-to none -- --info; else run 2 -bind-to none -- --info; fi
    [ "$(cat rc)" = 0 ] || fatal "exit $(cat rc)"
    expect_warning "not bound to a PU set"
    grep -q 'not bound to a PU set' out || fatal "warning not in the record"
    exit 0 ;;
placement_overlap)
    if [ "$flavor" = ompi ]; then
        run 2 --cpu-set 0 --bind-to core:overload-allowed -- --info
    else
        run 2 -bind-to user:0,0 -- --info
    fi
    [ "$(cat rc)" = 0 ] || { cat err; skip "launcher could not bind both ranks to PU 0"; }
    grep -q '"binding":[[:space:]]*"0"' out || skip "ranks not bound to PU 0"
    expect_warning "ranks 0 and 1 on host .* are bound to overlapping PUs (0)"
    exit 0 ;;
placement_oversub)
    np=$((npus + 1))
    if [ "$flavor" = ompi ]; then run $np --bind-to none -- --info; else run $np -- --info; fi
    [ "$(cat rc)" = 0 ] || fatal "exit $(cat rc)"
    expect_warning "$np ranks on host .* which has $npus PU(s): oversubscribed"
    exit 0 ;;
placement_ok)
    [ "$npus" -ge 2 ] || skip "needs 2 PUs"
    if [ "$flavor" = ompi ]; then run 2 --bind-to core -- --info; else run 2 -bind-to core -- --info; fi
    [ "$(cat rc)" = 0 ] || fatal "exit $(cat rc)"
    grep -q '"bound":[[:space:]]*true' out || skip "launcher did not bind"
    if grep -q "p2pbench: warning" err; then fatal "unexpected warning"; fi
    exit 0 ;;
netns_overlap)
    # docs/testbed.md pitfall: two "hosts" as network namespaces of one machine,
    # both ranks bound to PU 0 by default. Needs root, ip netns, Open MPI.
    [ "$flavor" = ompi ] || skip "Open MPI's rsh launcher needed"
    # shellcheck disable=SC2015 # skip when any step of the chain fails
    [ "$(id -u)" = 0 ] && command -v ip >/dev/null && command -v unshare >/dev/null ||
        skip "needs root, ip, unshare"
    a=p2pbA$$ b=p2pbB$$
    # shellcheck disable=SC2317 # run by the trap
    cleanup() { ip netns del "$a" 2>/dev/null; ip netns del "$b" 2>/dev/null; rm -rf "$tmp"; }
    trap cleanup EXIT INT TERM
    # shellcheck disable=SC2015 # skip when any step of the chain fails
    ip netns add "$a" 2>/dev/null && ip netns add "$b" || skip "ip netns add failed"
    # shellcheck disable=SC2015 # skip when any step of the chain fails
    ip link add "va$$" type veth peer name "vb$$" && ip link set "va$$" netns "$a" &&
        ip link set "vb$$" netns "$b" && ip -n "$a" addr add 198.18.0.1/24 dev "va$$" &&
        ip -n "$b" addr add 198.18.0.2/24 dev "vb$$" && ip -n "$a" link set "va$$" up &&
        ip -n "$b" link set "vb$$" up && ip -n "$a" link set lo up && ip -n "$b" link set lo up ||
        skip "veth setup failed"
    cat >agent.sh <<AGENT
#!/bin/sh
h=\$1; shift
case \$h in 198.18.0.1) ns=$a ;; 198.18.0.2) ns=$b ;; *) ns=\$h ;; esac
exec ip netns exec "\$ns" unshare --uts sh -c 'hostname "\$0"; exec "\$@"' "\$ns" sh -c "\$*"
AGENT
    chmod +x agent.sh
    timeout 100 ip netns exec "$a" unshare --uts sh -c "hostname $a; exec \"$mpiexec\" \
        --host 198.18.0.1:1,198.18.0.2:1 -np 2 --mca plm_rsh_agent $tmp/agent.sh \
        --mca btl tcp,self --mca btl_tcp_if_include 198.18.0.0/24 \
        --mca oob_tcp_if_include 198.18.0.0/24 -x OMPI_ALLOW_RUN_AS_ROOT \
        -x OMPI_ALLOW_RUN_AS_ROOT_CONFIRM \"$bench\" --info" >out 2>err
    rc=$?
    [ $rc = 0 ] || fatal "two-namespace run: exit $rc"
    grep -q "\"host\":[[:space:]]*\"$b\"" out || skip "rank 1 did not run in $b"
    grep -q '"binding":[[:space:]]*"0"' out || skip "default binding did not use PU 0"
    expect_warning "ranks 0 and 1 on hosts $a and $b (one machine: same boot_id) are bound to overlapping PUs (0)"
    grep -q '"eager_limit_marked":[[:space:]]*65536' out || fatal "tcp eager limit not chosen across hosts"
    exit 0 ;;
*)
    echo "unknown mode $mode"; exit 2 ;;
esac
