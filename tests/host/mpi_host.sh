#!/bin/sh
# SPDX-License-Identifier: MIT
# MPI tests of the host context. Usage: mpi_host.sh MODE MPIEXEC P2PBENCH TEST_MPIT
# Works with Open MPI's mpirun (as root too: the variables that allow it are
# exported here, as root only, never set in code) and MPICH's hydra mpiexec.
# Exit 0 pass, 1 fail, 77 skipped. The placement modes first launch a probe
# (a shell script that records its host name and Cpus_allowed_list) with the
# same launcher options, and compare p2pbench's account of its placement with
# what the probe saw: a skip means the launcher could not place the ranks as
# asked (said in the message; P2PB_REQUIRE_BINDING=1, or P2PB_REQUIRE_NETNS=1
# for netns_overlap, makes it a failure); p2pbench disagreeing with the probe
# is a failure.
set -u
mode=$1 mpiexec=$2 bench=$3 mpit=$4
here=$(cd "$(dirname "$0")" && pwd) || exit 1
# fatal: FAIL line, then the last run's stdout and stderr, exit 1; skip: exit 77
# shellcheck source=SCRIPTDIR/../lib/driver.sh
. "$here/../lib/driver.sh"
FATAL_SHOW="stdout=out stderr=err"
# shellcheck disable=SC2034 # used by skip_or_fail in driver.sh
case $mode in
netns_overlap) REQUIRE_VAR=P2PB_REQUIRE_NETNS ;;
*) REQUIRE_VAR=P2PB_REQUIRE_BINDING ;;
esac
allow_mpi_as_root
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$tmp" || exit 1

if "$mpiexec" --version 2>&1 | grep -q "Open MPI\|OpenRTE"; then
    flavor=ompi
elif "$mpiexec" --version 2>&1 | grep -qi "hydra"; then
    flavor=mpich
else
    skip "unknown launcher $mpiexec (neither Open MPI nor MPICH hydra)"
fi
npus=$(nproc --all 2>/dev/null || echo 2)

# launch NP PROGRAM [launcher options...] -- [program options...]: stdout to
# out, stderr to err, exit status to rc
launch() {
    np=$1 prog=$2; shift 2
    lopts=""
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do lopts="$lopts $1"; shift; done
    [ $# -gt 0 ] && shift
    if [ "$flavor" = ompi ]; then
        # shellcheck disable=SC2086
        "$mpiexec" -np "$np" --oversubscribe $lopts "$prog" "$@" >out 2>err
    else
        # shellcheck disable=SC2086
        "$mpiexec" -n "$np" $lopts "$prog" "$@" >out 2>err
    fi
    echo $? >rc
}
# run NP [launcher options...] -- [p2pbench options...]
run() { np=$1; shift; launch "$np" "$bench" "$@"; }
expect_warning() { grep -q "p2pbench: warning: .*$1" err || fatal "no warning matching '$1'"; }

# The probe: each rank writes "HOST PUS" (uname -n, its Cpus_allowed_list) to
# $tmp/probe.RANK; the ground truth the placement modes hold p2pbench to.
cat >probe.sh <<PROBE
#!/bin/sh
r=\${OMPI_COMM_WORLD_RANK:-\${PMI_RANK:-}}
[ -n "\$r" ] || { echo "probe: no rank number in the environment" >&2; exit 3; }
printf '%s %s\\n' "\$(uname -n)" "\$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)" >"$tmp/probe.\$r"
PROBE
chmod +x probe.sh
# PUs a rank may use, as hwloc's allowed set that p2pbench's "bound" is
# measured against: the cgroup's cpuset (v1, else v2), else every online PU
allowed_pus() {
    cg1=$(sed -n 's/^[0-9]*:cpuset:\(.*\)/\1/p' /proc/self/cgroup 2>/dev/null)
    cg2=$(sed -n 's/^0:://p' /proc/self/cgroup 2>/dev/null)
    for f in "/sys/fs/cgroup/cpuset${cg1:-/}/cpuset.effective_cpus" \
             "/sys/fs/cgroup${cg2:-/}/cpuset.cpus.effective" /sys/devices/system/cpu/online; do
        if [ -s "$f" ]; then cat "$f"; return; fi
    done
}
allowed=$(allowed_pus)
# truth NP: the probe's files as "RANK HOST PUS BOUND" lines, in truth
truth() {
    python3 "$here/placement.py" probe "$tmp" "$1" "$allowed" >truth ||
        fatal "the probe ran but left no placement (launcher output below)"
}
# told: p2pbench --info's account (in out) as the same lines, in told; fail
# unless it matches the probe's
told_matches_truth() {
    python3 "$here/placement.py" info out >told || fatal "cannot read the ranks of --info"
    diff truth told >placement.diff ||
        fatal "p2pbench's placement differs from the probe's ('<' probe, '>' p2pbench; RANK HOST PUS BOUND): $(tr '\n' ' ' <placement.diff)"
}
pus_of() { awk -v r="$1" '$1 == r { print $3 }' truth; }

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
    # both ranks bound to PU 0: p2pbench must say so and warn of the overlap
    require_commands python3
    if [ "$flavor" = ompi ]; then lo="--cpu-set 0 --bind-to core:overload-allowed"; else lo="-bind-to user:0,0"; fi
    # shellcheck disable=SC2086
    launch 2 "$tmp/probe.sh" $lo
    [ "$(cat rc)" = 0 ] ||
        skip_or_fail "the launcher cannot bind both ranks to PU 0 ($lo): exit $(cat rc): $(grep -m1 "[[:alpha:]]" err)"
    truth 2
    [ "$(pus_of 0) $(pus_of 1)" = "0 0" ] ||
        skip_or_fail "the launcher did not bind both ranks to PU 0 ($lo): the probe ran on PUs '$(pus_of 0)' and '$(pus_of 1)'"
    # shellcheck disable=SC2086
    run 2 $lo -- --info
    [ "$(cat rc)" = 0 ] || fatal "exit $(cat rc) where the probe ran"
    told_matches_truth
    expect_warning "ranks 0 and 1 on host .* are bound to overlapping PUs (0)"
    exit 0 ;;
placement_oversub)
    np=$((npus + 1))
    if [ "$flavor" = ompi ]; then run $np --bind-to none -- --info; else run $np -- --info; fi
    [ "$(cat rc)" = 0 ] || fatal "exit $(cat rc)"
    expect_warning "$np ranks on host .* which has $npus PU(s): oversubscribed"
    exit 0 ;;
placement_ok)
    # one core each: p2pbench must report each rank's PUs, bound, and no warning
    [ "$npus" -ge 2 ] || skip_or_fail "needs 2 PUs, this machine has $npus"
    require_commands python3
    if [ "$flavor" = ompi ]; then lo="--bind-to core"; else lo="-bind-to core"; fi
    # shellcheck disable=SC2086
    launch 2 "$tmp/probe.sh" $lo
    [ "$(cat rc)" = 0 ] || skip_or_fail "the launcher cannot bind to cores ($lo): exit $(cat rc): $(grep -m1 "[[:alpha:]]" err)"
    truth 2
    [ "$(awk '$4 == "true"' truth | wc -l)" = 2 ] ||
        skip_or_fail "the launcher did not bind ($lo): the probe ran on PUs '$(pus_of 0)' and '$(pus_of 1)' of '$allowed'"
    python3 "$here/placement.py" disjoint truth ||
        skip_or_fail "the launcher bound the ranks to overlapping PUs ($lo): '$(pus_of 0)' and '$(pus_of 1)'"
    # shellcheck disable=SC2086
    run 2 $lo -- --info
    [ "$(cat rc)" = 0 ] || fatal "exit $(cat rc)"
    told_matches_truth
    if grep -q "p2pbench: warning" err; then fatal "unexpected warning"; fi
    exit 0 ;;
netns_overlap)
    # docs/testbed.md pitfall: two "hosts" as network namespaces of one machine,
    # both ranks bound to the same PU by default (PU 0). Needs root, ip netns,
    # Open MPI (CMake registers this mode for Open MPI only).
    [ "$flavor" = ompi ] || skip_or_fail "Open MPI's rsh launcher needed, $mpiexec is MPICH's"
    [ "$(id -u)" = 0 ] || skip_or_fail "needs root (network namespaces)"
    require_commands ip unshare timeout python3
    a=p2pbA$$ b=p2pbB$$
    # shellcheck disable=SC2317 # run by the trap
    cleanup() { ip netns del "$a" 2>/dev/null; ip netns del "$b" 2>/dev/null; rm -rf "$tmp"; }
    trap cleanup EXIT INT TERM
    # shellcheck disable=SC2015 # skip when any step of the chain fails
    ip netns add "$a" 2>/dev/null && ip netns add "$b" || skip_or_fail "ip netns add failed"
    # shellcheck disable=SC2015 # skip when any step of the chain fails
    ip link add "va$$" type veth peer name "vb$$" && ip link set "va$$" netns "$a" &&
        ip link set "vb$$" netns "$b" && ip -n "$a" addr add 198.18.0.1/24 dev "va$$" &&
        ip -n "$b" addr add 198.18.0.2/24 dev "vb$$" && ip -n "$a" link set "va$$" up &&
        ip -n "$b" link set "vb$$" up && ip -n "$a" link set lo up && ip -n "$b" link set lo up ||
        skip_or_fail "veth setup failed"
    cat >agent.sh <<AGENT
#!/bin/sh
h=\$1; shift
case \$h in 198.18.0.1) ns=$a ;; 198.18.0.2) ns=$b ;; *) ns=\$h ;; esac
exec ip netns exec "\$ns" unshare --uts sh -c 'hostname "\$0"; exec "\$@"' "\$ns" sh -c "\$*"
AGENT
    chmod +x agent.sh
    # two_hosts PROGRAM [ARG]: one rank in each namespace, as a user would launch
    two_hosts() {
        timeout 100 ip netns exec "$a" unshare --uts sh -c "hostname $a; exec \"$mpiexec\" \
            --host 198.18.0.1:1,198.18.0.2:1 -np 2 --mca plm_rsh_agent $tmp/agent.sh \
            --mca btl tcp,self --mca btl_tcp_if_include 198.18.0.0/24 \
            --mca oob_tcp_if_include 198.18.0.0/24 -x OMPI_ALLOW_RUN_AS_ROOT \
            -x OMPI_ALLOW_RUN_AS_ROOT_CONFIRM \"$1\" ${2:-}" >out 2>err
    }
    two_hosts "$tmp/probe.sh" ||
        skip_or_fail "cannot launch across the two namespaces: exit $?: $(grep -m1 "[[:alpha:]]" err)"
    truth 2
    [ "$(awk '{ print $2 }' truth | tr '\n' ' ')" = "$a $b " ] ||
        skip_or_fail "the rsh agent did not put rank 0 in $a and rank 1 in $b: the probe saw $(awk '{ printf "%s ", $2 }' truth)"
    pus=$(pus_of 0)
    [ "$pus" = "$(pus_of 1)" ] ||
        skip_or_fail "Open MPI's default binding did not put both ranks on the same PUs: the probe ran on '$pus' and '$(pus_of 1)'"
    two_hosts "$bench" --info || fatal "two-namespace run: exit $? where the probe ran"
    told_matches_truth
    expect_warning "ranks 0 and 1 on hosts $a and $b (one machine: same boot_id) are bound to overlapping PUs ($pus)"
    grep -q '"eager_limit_marked":[[:space:]]*65536' out || fatal "tcp eager limit not chosen across hosts"
    exit 0 ;;
*)
    echo "unknown mode $mode"; exit 2 ;;
esac
