#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# testbed.sh: N "hosts" on one machine, as Linux network namespaces joined by a
# bridge, for running MPI jobs across hosts without a cluster (see
# docs/testbed.md). Needs root, iproute2 (ip, tc), util-linux (unshare), coreutils
# (timeout). Addresses come only from 198.18.0.0/24 (RFC 2544 benchmarking range).
#
# Layout for N hosts and prefix P (default p2pb, env P2PB_TESTBED_PREFIX):
#   namespace P-br   bridge br0, ports v1..vN
#   namespace P-hI   lo up, eth0 = 198.18.0.I/24 (veth peer of vI), host name hI
#   /etc/netns/P-hI/hosts   h1..hN, seen as /etc/hosts by `ip netns exec`
# Link profiles (tbf on both ends of every veth; netem is not assumed):
#   native        plain veth
#   lan10         tbf rate 80mbit (a 10 MB/s LAN)
#   shaped RATE   tbf rate RATE (e.g. 100mbit)
# Slow hosts and links (htb + u32 filters; with the native profile only):
#   --slow-host hK RATE    every link of hK: htb on hK's eth0 and on the
#                          bridge's port vK (traffic to hK), all at RATE
#   --slow-link hA-hB RATE only traffic between hA and hB: an htb class at
#                          RATE on each one's eth0, a u32 filter on the
#                          other's address; other traffic is not classified
#                          (htb sends it unshaped)
#   --slow-dir 'hA>hB' RATE only traffic from hA to hB: the class and filter
#                          on hA's eth0 alone (the other direction unshaped)
# One process at a time changes a prefix's testbed: up and run hold a lock
# (flock on STATE_DIR/PREFIX.lock) from their check for existing namespaces
# to their end, so a second up or run of the same prefix fails at once and
# never removes the first one's namespaces; down waits for it (bounded).
set -euo pipefail

readonly PROG=${0##*/}
SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
readonly SCRIPT_DIR
# shellcheck source=SCRIPTDIR/../lib/common.sh
. "$SCRIPT_DIR/../lib/common.sh" # log, die, usage_error, require_root, allow_mpi_as_root
readonly AGENT="$SCRIPT_DIR/agent.sh"
readonly NET_BASE=198.18.0
readonly SUBNET=198.18.0.0/24
readonly MAX_HOSTS=64
readonly LAN10_RATE=80mbit
readonly ETH_HEADER=14 # bytes tbf counts per packet on a veth besides the MTU
readonly TBF_PACKETS=4 # packets of the link in tbf's bucket (see tbf_burst)
readonly TBF_LATENCY=50ms
readonly READY_TIMEOUT=10 # seconds to wait for links to come up
readonly DOWN_LOCK_WAIT=20 # seconds 'down' waits for another up / run / down

PREFIX=${P2PB_TESTBED_PREFIX:-p2pb}
STATE_DIR=${P2PB_TESTBED_STATE_DIR:-/run/p2pb-testbed}
MTU=${P2PB_TESTBED_MTU:-}
BURST=${P2PB_TESTBED_BURST:-}
# shellcheck source=SCRIPTDIR/guest.sh
. "$SCRIPT_DIR/guest.sh" # --guest: user-mode-linux and QEMU hosts
# shellcheck source=SCRIPTDIR/guest_qemu.sh
. "$SCRIPT_DIR/guest_qemu.sh"

usage() {
    cat <<EOF
Usage:
  $PROG up N [--profile PROFILE [RATE]] [--slow-host hK RATE]... [--slow-link hA-hB RATE]... [--slow-dir 'hA>hB' RATE]...
        [--guest hK[,hL...] uml|qemu]...
  $PROG down
  $PROG status
  $PROG exec HOST -- COMMAND [ARG...]
  $PROG run N [--profile PROFILE [RATE]] [--slow-host hK RATE]... [--slow-link hA-hB RATE]... [--slow-dir 'hA>hB' RATE]...
        [--guest hK[,hL...] uml|qemu]... [--hosts hA,hB,...] [--timeout SEC] -- [MPIRUN_ARG...] PROGRAM [ARG...]

Creates N hosts h1..hN (2 <= N <= $MAX_HOSTS) as network namespaces
$PREFIX-h1..$PREFIX-hN joined by a bridge in namespace $PREFIX-br, with
addresses 198.18.0.1..198.18.0.N/24 and a hosts file naming h1..hN.

Profiles:
  native          plain veth (default)
  lan10           tbf rate $LAN10_RATE on both ends of each link
  shaped RATE     tbf rate RATE on both ends (e.g. 100mbit); also shaped:RATE

Slow hosts and links (htb classes, u32 filters on destination addresses;
native profile only; combinable, repeatable):
  --slow-host hK RATE     every link of hK at RATE, both directions
  --slow-link hA-hB RATE  only traffic between hA and hB at RATE
  --slow-dir 'hA>hB' RATE only traffic from hA to hB at RATE (quote the >)

Guest hosts (docs/testbed.md, "Guest hosts"; repeatable):
  --guest hK[,hL...] KIND  hK is a real guest kernel, not a bare namespace:
                          uml  user-mode-linux (paravirtual kernel, 1 vCPU)
                          qemu qemu-system-x86_64, virtio-net, 2 vCPUs; KVM
                               where a standard guest boots with it, else TCG
                          Its NIC is a tap on hK's link, address 198.18.0.K;
                          it sees the host's files read-only. h1 runs mpirun
                          in 'run' and must stay native.

Subcommands:
  up      create the testbed and leave it up (until '$PROG down')
  down    delete the testbed: kill processes left in its namespaces, delete them
          (waits at most ${DOWN_LOCK_WAIT}s for an up or run of the prefix to end)
  status  list this testbed's namespaces and profile
  exec    run COMMAND inside HOST (h1..hN) with its host name set
  run     up, then mpirun inside h1 across all N hosts (one slot each), then
          down -- always, also on failure, timeout (default 600 s) or Ctrl-C.
          mpirun gets: --host h1:1,...,hN:1 --mca plm_rsh_agent agent.sh
          --mca btl tcp,self --mca btl_tcp_if_include $SUBNET
          --mca oob_tcp_if_include $SUBNET --bind-to none
          -x P2PB_LINK_PROFILE, followed by your arguments; --hosts
          hA,hB,... puts the ranks on those hosts only (one slot each).
An up or run while another up or run of the same prefix is under way fails
at once (a lock in P2PB_TESTBED_STATE_DIR) and touches nothing.

The ranks see P2PB_LINK_PROFILE=native, lan10:$LAN10_RATE or shaped:RATE,
followed by +slow-host:hK:RATE, +slow-link:hA-hB:RATE and +slow-dir:hA>hB:RATE
for each slow item.

Environment:
  P2PB_TESTBED_PREFIX     namespace name prefix (default p2pb; [a-z][a-z0-9]{0,11})
  P2PB_TESTBED_STATE_DIR  where 'up' records N and profile (default /run/p2pb-testbed)
  P2PB_TESTBED_MTU        MTU of every link, 68..65535 (default: the kernel's, 1500);
                          tbf's bucket follows it
  P2PB_TESTBED_GUEST_MEM  a guest's memory in MiB (default 512)
  P2PB_TESTBED_BURST      tbf's bucket in bytes, 1000..1000000000 (default: a few
                          packets, see tbf_burst); a large one lets the first
                          bytes through at full speed, then the rate (a token
                          bucket running dry, as on cloud VMs)
  MPIRUN                  mpirun to use (default mpirun)

Examples:
  $PROG run 2 --profile shaped 100mbit -- NPopenmpi -p 0 -u 1048576
  $PROG run 4 -- hostname
EOF
}

host_ns() { printf '%s-h%s' "$PREFIX" "$1"; }
br_ns() { printf '%s-br' "$PREFIX"; }
state_file() { printf '%s/%s.env' "$STATE_DIR" "$PREFIX"; }
lock_file() { printf '%s/%s.lock' "$STATE_DIR" "$PREFIX"; }

# tb_lock WAIT: hold the prefix's lock (fd 9) until this process ends. WAIT
# 0: fail at once if another process holds it; else wait at most WAIT
# seconds (each time the file is replaced). tb_down deletes the file under
# the lock, so a lock taken on a deleted file is dropped and taken again on
# the file now at the path. Commands run under the lock get fd 9 closed.
LOCKED=0
tb_lock() {
    ((LOCKED)) && return 0
    command -v flock >/dev/null 2>&1 || die "required command not found: flock (util-linux)"
    while :; do
        mkdir -p "$STATE_DIR"
        exec 9>>"$(lock_file)"
        if (($1 == 0)); then
            flock -n 9 ||
                die "testbed '$PREFIX' is busy: another $PROG up, run or down of this prefix is under way (lock $(lock_file)); nothing was changed"
        else
            flock -w "$1" 9 ||
                die "testbed '$PREFIX' is still busy after ${1}s: another $PROG up or run holds $(lock_file)"
        fi
        [[ /dev/fd/9 -ef $(lock_file) ]] && break
        exec 9>&-
    done
    LOCKED=1
}

# Namespaces that belong to this testbed (by exact name pattern), one a line.
our_namespaces() {
    ip netns list 2>/dev/null | awk '{print $1}' |
        grep -E "^${PREFIX}-(br|h[0-9]+)\$" || true
}

check_prefix() {
    [[ $PREFIX =~ ^[a-z][a-z0-9]{0,11}$ ]] ||
        usage_error "P2PB_TESTBED_PREFIX must match [a-z][a-z0-9]{0,11}: '$PREFIX'"
    [[ -z $MTU ]] || { [[ $MTU =~ ^[0-9]{2,5}$ ]] && ((MTU >= 68 && MTU <= 65535)); } ||
        usage_error "P2PB_TESTBED_MTU must be a number 68..65535: '$MTU'"
    [[ -z $BURST ]] || { [[ $BURST =~ ^[0-9]{4,10}$ ]] && ((BURST >= 1000 && BURST <= 1000000000)); } ||
        usage_error "P2PB_TESTBED_BURST must be a number of bytes 1000..1000000000: '$BURST'"
}

check_prereqs() {
    require_root "creates network namespaces"
    local c
    for c in ip unshare timeout; do
        command -v "$c" >/dev/null 2>&1 || die "required command not found: $c"
    done
    guest_prereqs
}

# parse_profile NAME [RATE]: sets PROFILE, RATE, PROFILE_LABEL, PROFILE_ARGS_USED
parse_profile() {
    local name=$1 rate=${2-}
    PROFILE_ARGS_USED=1
    if [[ $name == shaped:* ]]; then
        rate=${name#shaped:}
        name=shaped
    elif [[ $name == shaped ]]; then
        [[ -n $rate ]] || usage_error "profile 'shaped' needs a RATE (e.g. 100mbit)"
        PROFILE_ARGS_USED=2
    fi
    case $name in
    native)
        PROFILE=native RATE='' PROFILE_LABEL=native
        ;;
    lan10)
        PROFILE=lan10 RATE=$LAN10_RATE PROFILE_LABEL=lan10:$LAN10_RATE
        ;;
    shaped)
        [[ $rate =~ ^[0-9]+([.][0-9]+)?([kKmMgGtT]i?)?(bit|bps)$ ]] ||
            usage_error "bad rate '$rate' (examples: 100mbit, 1gbit, 12500kbps)"
        PROFILE=shaped RATE=$rate PROFILE_LABEL=shaped:$rate
        ;;
    *) usage_error "unknown profile '$name' (native, lan10, shaped RATE)" ;;
    esac
}

check_count() {
    if ! [[ $1 =~ ^[0-9]+$ ]] || (($1 < 2 || $1 > MAX_HOSTS)); then
        usage_error "N must be an integer from 2 to $MAX_HOSTS, got '$1'"
    fi
}


SLOW_HOSTS=() # "K RATE" per --slow-host
SLOW_LINKS=() # "A B RATE" per --slow-link
SLOW_DIRS=()  # "A B RATE" per --slow-dir (from A to B only)

check_rate() {
    [[ $1 =~ ^[0-9]+([.][0-9]+)?([kKmMgGtT]i?)?(bit|bps)$ ]] ||
        usage_error "bad rate '$1' (examples: 100mbit, 1gbit, 12500kbps)"
}

# parse_slow OPTION VALUE RATE: one --slow-host / --slow-link.
parse_slow() {
    [[ -n ${3-} ]] || usage_error "$1 needs a value and a RATE (e.g. $1 ${2:-h2} 50mbit)"
    check_rate "$3"
    case $1 in
    --slow-host)
        [[ $2 =~ ^h([0-9]+)$ ]] || usage_error "--slow-host: host must be h1..hN, got '$2'"
        SLOW_HOSTS+=("${BASH_REMATCH[1]} $3")
        ;;
    --slow-link)
        [[ $2 =~ ^h([0-9]+)-h([0-9]+)$ ]] ||
            usage_error "--slow-link: expected hA-hB (e.g. h1-h2), got '$2'"
        ((BASH_REMATCH[1] != BASH_REMATCH[2])) || usage_error "--slow-link: '$2' names one host"
        SLOW_LINKS+=("${BASH_REMATCH[1]} ${BASH_REMATCH[2]} $3")
        ;;
    --slow-dir)
        [[ $2 =~ ^h([0-9]+)\>h([0-9]+)$ ]] ||
            usage_error "--slow-dir: expected 'hA>hB' (e.g. 'h1>h2', quoted), got '$2'"
        ((BASH_REMATCH[1] != BASH_REMATCH[2])) || usage_error "--slow-dir: '$2' names one host"
        SLOW_DIRS+=("${BASH_REMATCH[1]} ${BASH_REMATCH[2]} $3")
        ;;
    esac
}

# check_slow N: hosts within 1..N, native profile; appends to PROFILE_LABEL.
check_slow() {
    local n=$1 e a b r
    ((${#SLOW_HOSTS[@]} + ${#SLOW_LINKS[@]} + ${#SLOW_DIRS[@]})) || return 0
    [[ $PROFILE == native ]] ||
        usage_error "--slow-host / --slow-link / --slow-dir need the native profile (got $PROFILE_LABEL)"
    for e in "${SLOW_HOSTS[@]}"; do
        read -r a r <<<"$e"
        ((a >= 1 && a <= n)) || usage_error "--slow-host h$a: there are hosts h1..h$n"
        PROFILE_LABEL+="+slow-host:h$a:$r"
    done
    for e in "${SLOW_LINKS[@]}"; do
        read -r a b r <<<"$e"
        ((a >= 1 && a <= n && b >= 1 && b <= n)) ||
            usage_error "--slow-link h$a-h$b: there are hosts h1..h$n"
        PROFILE_LABEL+="+slow-link:h$a-h$b:$r"
    done
    for e in "${SLOW_DIRS[@]}"; do
        read -r a b r <<<"$e"
        ((a >= 1 && a <= n && b >= 1 && b <= n)) ||
            usage_error "--slow-dir h$a>h$b: there are hosts h1..h$n"
        PROFILE_LABEL+="+slow-dir:h$a>h$b:$r"
    done
}

# htb_root NS IFACE DEFAULT: an htb root; unclassified packets go to class
# 1:DEFAULT, or unshaped when that class does not exist (DEFAULT 0).
htb_root() {
    ip netns exec "$1" tc qdisc replace dev "$2" root handle 1: htb default "$3"
}

# htb_class NS IFACE MINOR RATE (quantum one link packet: no warnings at low rates)
htb_class() {
    ip netns exec "$1" tc class add dev "$2" parent 1: classid "1:$3" htb rate "$4" \
        quantum $((1500 + ETH_HEADER))
}

# Egress of host I (its eth0): a host rate (default class 1:10) and one
# class per slow link to host J (1:(100 + J)), matched on J's address.
shape_host_egress() {
    local i=$1 ns e a b r host_rate=''
    ns=$(host_ns "$i")
    for e in "${SLOW_HOSTS[@]}"; do
        read -r a r <<<"$e"
        ((a == i)) && host_rate=$r
    done
    local -a links=()
    for e in "${SLOW_LINKS[@]}"; do
        read -r a b r <<<"$e"
        ((a == i)) && links+=("$b $r")
        ((b == i)) && links+=("$a $r")
    done
    for e in "${SLOW_DIRS[@]}"; do
        read -r a b r <<<"$e"
        ((a == i)) && links+=("$b $r")
    done
    [[ -n $host_rate ]] || ((${#links[@]})) || return 0
    htb_root "$ns" eth0 "$([[ -n $host_rate ]] && echo 10 || echo 0)"
    [[ -z $host_rate ]] || htb_class "$ns" eth0 10 "$host_rate"
    for e in "${links[@]}"; do
        read -r b r <<<"$e"
        htb_class "$ns" eth0 $((100 + b)) "$r"
        ip netns exec "$ns" tc filter add dev eth0 parent 1: protocol ip prio 1 u32 \
            match ip dst "$NET_BASE.$b/32" flowid "1:$((100 + b))"
    done
}

# Slow hosts and links after the links are up: each host's egress, and the
# bridge port of each slow host (the traffic to it).
apply_slow() {
    local n=$1 i e a r
    ((${#SLOW_HOSTS[@]} + ${#SLOW_LINKS[@]} + ${#SLOW_DIRS[@]})) || return 0
    command -v tc >/dev/null 2>&1 || die "required command not found: tc"
    for ((i = 1; i <= n; i++)); do shape_host_egress "$i"; done
    for e in "${SLOW_HOSTS[@]}"; do
        read -r a r <<<"$e"
        htb_root "$(br_ns)" "v$a" 10
        htb_class "$(br_ns)" "v$a" 10 "$r"
    done
}

# ---------------------------------------------------------------- up / down

TB_OWNED=0 # set once this process starts creating namespaces

# rate_bytes RATE: tc's RATE (100mbit, 1gibit, 12500kbps) in bytes per second.
rate_bytes() {
    awk -v r="$1" 'BEGIN {
        n = r; sub(/[a-zA-Z]+$/, "", n); u = substr(r, length(n) + 1)
        m = 1; p = tolower(substr(u, 1, 1)); bin = substr(u, 2, 1) == "i"
        if (p == "k") m = bin ? 1024 : 1e3; else if (p == "m") m = bin ? 1048576 : 1e6
        else if (p == "g") m = bin ? 1073741824 : 1e9; else if (p == "t") m = bin ? 1099511627776 : 1e12
        printf "%.0f\n", n * m / (u ~ /bps$/ ? 1 : 8) }'
}

# tbf_burst NS IFACE: tbf's bucket for $RATE, in bytes: the bytes one tick
# of tc's clock admits (rate / hz, hz from /proc/net/psched as tc reads it)
# plus TBF_PACKETS packets of the link (MTU plus the Ethernet header; tbf
# drops a packet larger than its bucket). One packet is the smallest bucket
# tbf accepts, but then every late timer wakeup loses tokens: 1 MiB ran at
# 10.8 MB/s on a 12.5 MB/s link (a loaded 2-CPU machine); 4 packets (6 KB)
# keep 1 MiB near the rate and let at most 6 KB of a message pass unshaped.
# The 64 KiB bucket used before let a whole 64 KiB message through: 23 MB/s.
tbf_burst() {
    if [[ -n $BURST ]]; then # P2PB_TESTBED_BURST: a bucket of the caller's
        echo "$BURST"
        return
    fi
    local mtu hz=100 f
    mtu=$(ip netns exec "$1" cat "/sys/class/net/$2/mtu")
    read -r -a f </proc/net/psched 2>/dev/null || f=()
    if ((${#f[@]} >= 4)) && ((16#${f[2]} == 1000000)); then hz=$((16#${f[3]})); fi
    awk -v b="$(rate_bytes "$RATE")" -v hz="$hz" -v mtu="$mtu" -v h="$ETH_HEADER" \
        -v k="$TBF_PACKETS" 'BEGIN { printf "%.0f\n", b / hz + k * (mtu + h) + 0.5 }'
}

shape_link() { # shape_link NS IFACE
    ip netns exec "$1" tc qdisc replace dev "$2" root tbf \
        rate "$RATE" burst "$(tbf_burst "$1" "$2")" latency "$TBF_LATENCY"
}

# IPv4 only: no IPv6 link-local addresses or router solicitations on the
# links (quiet shaped links; 198.18.0.0/24 is the only network). Best effort.
no_ipv6() {
    # shellcheck disable=SC2016 # expanded by the inner sh
    ip netns exec "$1" sh -c 'for f in /proc/sys/net/ipv6/conf/all/disable_ipv6 \
        /proc/sys/net/ipv6/conf/default/disable_ipv6; do
        [ -w "$f" ] && echo 1 >"$f"; done; true' 2>/dev/null || true
}

wait_ready() { # wait (bounded) until every link is up and every bridge port forwards
    local n=$1 deadline=$((SECONDS + READY_TIMEOUT)) i ok
    while :; do
        ok=1
        for ((i = 1; i <= n; i++)); do
            ip -n "$(host_ns "$i")" -o link show dev eth0 | grep -q 'state UP' || ok=0
            bridge -n "$(br_ns)" link show dev "v$i" 2>/dev/null |
                grep -q 'state forwarding' || ok=0
        done
        ((ok)) && return 0
        ((SECONDS < deadline)) || die "links not up after ${READY_TIMEOUT}s"
        sleep 0.1
    done
}

tb_up() { # tb_up N
    local n=$1 i ns br
    br=$(br_ns)
    tb_lock 0
    [[ -z $(our_namespaces) ]] ||
        die "a testbed with prefix '$PREFIX' exists already; run '$PROG down' first"
    [[ $PROFILE == native ]] || command -v tc >/dev/null 2>&1 ||
        die "required command not found: tc"
    TB_OWNED=1
    ip netns add "$br"
    no_ipv6 "$br"
    ip -n "$br" link set lo up
    ip -n "$br" link add br0 type bridge
    ip -n "$br" link set br0 up
    for ((i = 1; i <= n; i++)); do
        ns=$(host_ns "$i")
        ip netns add "$ns"
        no_ipv6 "$ns"
        mkdir -p "/etc/netns/$ns"
        {
            printf '127.0.0.1\tlocalhost\n'
            local j
            for ((j = 1; j <= n; j++)); do printf '%s.%d\th%d\n' "$NET_BASE" "$j" "$j"; done
        } >"/etc/netns/$ns/hosts"
        ip -n "$br" link add "v$i" type veth peer name eth0 netns "$ns"
        if [[ -n $MTU ]]; then
            ip -n "$br" link set "v$i" mtu "$MTU"
            ip -n "$ns" link set eth0 mtu "$MTU"
        fi
        ip -n "$br" link set "v$i" master br0 up
        ip -n "$ns" link set lo up
        if [[ -n ${GUEST[$i]-} ]]; then guest_link "$i"; else
            ip -n "$ns" addr add "$NET_BASE.$i/24" dev eth0; fi
        ip -n "$ns" link set eth0 up
        if [[ $PROFILE != native ]]; then
            shape_link "$ns" eth0
            shape_link "$br" "v$i"
        fi
    done
    wait_ready "$n"
    apply_slow "$n"
    mkdir -p "$STATE_DIR"
    guests_up "$n"
    printf 'N=%d\nPROFILE=%s\n' "$n" "$PROFILE_LABEL" >"$(state_file)"
    log "up: $n hosts h1..h$n ($NET_BASE.1-$NET_BASE.$n), profile $PROFILE_LABEL"
}

# Pids of all processes inside our namespaces, one a line.
our_pids() {
    local ns
    for ns in "$@"; do ip netns pids "$ns" 2>/dev/null || true; done
}

# Kill what is still running inside our namespaces (bounded), then delete them.
tb_down() {
    local ns deadline
    local -a nss pids
    tb_lock "$DOWN_LOCK_WAIT"
    mapfile -t nss < <(our_namespaces)
    guests_down
    if ((${#nss[@]})); then
        mapfile -t pids < <(our_pids "${nss[@]}")
        if ((${#pids[@]})); then
            log "down: terminating leftover processes: ${pids[*]}"
            kill -TERM "${pids[@]}" 2>/dev/null || true
            deadline=$((SECONDS + 5))
            while ((SECONDS < deadline)); do
                mapfile -t pids < <(our_pids "${nss[@]}")
                ((${#pids[@]})) || break
                sleep 0.2
            done
            ((${#pids[@]} == 0)) || kill -KILL "${pids[@]}" 2>/dev/null || true
        fi
        for ns in "${nss[@]}"; do
            ip netns delete "$ns" 2>/dev/null || log "warning: could not delete $ns"
        done
    fi
    # Only our own directories: /etc/netns/PREFIX-hNUMBER
    local d
    for d in /etc/netns/"$PREFIX"-h*; do
        [[ -d $d && ${d##*/} =~ ^${PREFIX}-h[0-9]+$ ]] && rm -rf -- "$d"
    done
    rmdir /etc/netns 2>/dev/null || true
    guests_clean
    rm -f -- "$(state_file)" "$(lock_file)"
    rmdir "$STATE_DIR" 2>/dev/null || true
    [[ -z $(our_namespaces) ]] || die "namespaces left behind: $(our_namespaces | tr '\n' ' ')"
}

# ---------------------------------------------------------------- run

CHILD=
on_exit() {
    local rc=$?
    trap - EXIT INT TERM HUP
    if [[ -n $CHILD ]] && kill -0 "$CHILD" 2>/dev/null; then
        kill -TERM "$CHILD" 2>/dev/null || true
        local deadline=$((SECONDS + 15))
        while kill -0 "$CHILD" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.2; done
        kill -KILL "$CHILD" 2>/dev/null || true
    fi
    if ((TB_OWNED)); then
        tb_down || rc=1
        log "down: testbed '$PREFIX' removed"
    fi
    exit "$rc"
}
on_signal() {
    log "caught SIG$1, cleaning up"
    case $1 in INT) exit 130 ;; TERM) exit 143 ;; *) exit 129 ;; esac
}
install_traps() {
    trap on_exit EXIT
    trap 'on_signal INT' INT
    trap 'on_signal TERM' TERM
    trap 'on_signal HUP' HUP
}

# in_host HOSTINDEX CMD...: exec CMD inside the host's namespace with its name set
in_host_cmd() {
    local i=$1
    shift
    # shellcheck disable=SC2016 # expanded by the inner sh
    IN_HOST=(ip netns exec "$(host_ns "$i")" unshare --uts --
        sh -c 'hostname "$1" || exit 1; shift; exec "$@"' p2pb-host "h$i" "$@")
}

# parse_layout_opt ARG...: one option of the testbed's layout (--profile,
# --slow-*, --guest) at $1; sets LAYOUT_ARGS_USED (0: not one of them).
parse_layout_opt() {
    LAYOUT_ARGS_USED=0
    case $1 in
    --profile)
        [[ $# -ge 2 ]] || usage_error "--profile needs a value"
        parse_profile "$2" "${3-}"
        LAYOUT_ARGS_USED=$((1 + PROFILE_ARGS_USED))
        ;;
    --slow-host | --slow-link | --slow-dir)
        parse_slow "$1" "${2-}" "${3-}"
        LAYOUT_ARGS_USED=3
        ;;
    --guest)
        parse_guest "${2-}" "${3-}"
        LAYOUT_ARGS_USED=3
        ;;
    esac
}

cmd_run() {
    local n=$1 timeout_s=600 hosts_arg='' i
    shift
    check_count "$n"
    PROFILE=native RATE='' PROFILE_LABEL=native
    while [[ $# -gt 0 ]]; do
        parse_layout_opt "$@"
        if ((LAYOUT_ARGS_USED)); then
            shift "$LAYOUT_ARGS_USED"
            continue
        fi
        case $1 in
        --timeout)
            [[ $# -ge 2 && $2 =~ ^[0-9]+$ && $2 -gt 0 ]] ||
                usage_error "--timeout needs a positive number of seconds"
            timeout_s=$2
            shift 2
            ;;
        --hosts)
            [[ $# -ge 2 ]] || usage_error "--hosts needs a list (e.g. h2,h3)"
            hosts_arg=$2
            shift 2
            ;;
        --) shift && break ;;
        *) usage_error "unexpected argument '$1' (missing '--' before the mpirun arguments?)" ;;
        esac
    done
    [[ $# -ge 1 ]] || usage_error "run: nothing to run after '--'"
    check_slow "$n"
    check_guests "$n"
    [[ -z ${GUEST[1]-} ]] || usage_error "--guest h1: h1 runs mpirun and must be a native host"
    RUN_HOSTS=h1:1
    for ((i = 2; i <= n; i++)); do RUN_HOSTS+=",h$i:1"; done
    [[ -z $hosts_arg ]] || parse_hosts "$hosts_arg" "$n"
    check_prereqs
    local mpirun=${MPIRUN:-mpirun}
    command -v "$mpirun" >/dev/null 2>&1 || die "mpirun not found: $mpirun"
    [[ -x $AGENT ]] || die "agent not executable: $AGENT"

    install_traps
    tb_up "$n"
    guest_results "$RUN_HOSTS" "$@"
    # campaign.sh's position of the launch, for ranks in guests too (the relay
    # passes no environment; mpirun's -x does)
    local v
    CAMPAIGN_X=()
    for v in $(compgen -e); do [[ $v != P2PB_CAMPAIGN_* ]] || CAMPAIGN_X+=(-x "$v"); done

    export P2PB_LINK_PROFILE=$PROFILE_LABEL
    export P2PB_TESTBED_PREFIX=$PREFIX P2PB_TESTBED_STATE_DIR=$STATE_DIR # read by the agent
    allow_mpi_as_root
    in_host_cmd 1 "$mpirun" --host "$RUN_HOSTS" \
        --mca plm_rsh_agent "$AGENT" \
        --mca btl tcp,self \
        --mca btl_tcp_if_include "$SUBNET" \
        --mca oob_tcp_if_include "$SUBNET" \
        --bind-to none \
        -x P2PB_LINK_PROFILE "${CAMPAIGN_X[@]}" \
        "${RUN_ARGS[@]}"
    log "run (in h1): ${IN_HOST[*]:12}"
    # In the background so that a signal interrupts 'wait' and reaches our trap.
    timeout -k 15 "$timeout_s" "${IN_HOST[@]}" 9>&- &
    CHILD=$!
    local rc=0
    wait "$CHILD" || rc=$?
    CHILD=
    ((rc != 124)) || log "error: mpirun did not finish within ${timeout_s}s"
    guest_results_out || ((rc)) || rc=1
    return "$rc"
}

cmd_up() {
    local n=$1
    shift
    check_count "$n"
    PROFILE=native RATE='' PROFILE_LABEL=native
    while [[ $# -gt 0 ]]; do
        parse_layout_opt "$@"
        ((LAYOUT_ARGS_USED)) || usage_error "unexpected argument '$1'"
        shift "$LAYOUT_ARGS_USED"
    done
    check_slow "$n"
    check_guests "$n"
    check_prereqs
    # On failure half-way, remove what was made; on success keep it up.
    install_traps
    tb_up "$n"
    TB_OWNED=0
}

cmd_exec() {
    local host=$1 i
    shift
    [[ $host =~ ^h([0-9]+)$ ]] || usage_error "HOST must be h1..hN, got '$host'"
    i=${BASH_REMATCH[1]}
    [[ ${1-} == -- ]] && shift
    [[ $# -ge 1 ]] || usage_error "exec: no command"
    check_prereqs
    ip netns list | awk '{print $1}' | grep -qx "$(host_ns "$i")" ||
        die "no such host: $host (namespace $(host_ns "$i"))"
    if is_guest "$i"; then
        guest_relay_cmd "$i" "$(sh_quote "$@")"
        exec "${RELAY_CMD[@]}"
    fi
    in_host_cmd "$i" "$@"
    exec "${IN_HOST[@]}"
}

cmd_status() {
    local nss
    nss=$(our_namespaces)
    if [[ -z $nss ]]; then
        echo "testbed '$PREFIX': down"
        return 0
    fi
    echo "testbed '$PREFIX': up"
    [[ -r $(state_file) ]] && sed 's/^/  /' "$(state_file)"
    # shellcheck disable=SC2086 # one word per namespace
    echo "  namespaces:" $nss
}

main() {
    check_prefix
    [[ $# -ge 1 ]] || {
        usage >&2
        exit 2
    }
    local sub=$1
    shift
    case $sub in
    -h | --help | help) usage ;;
    up)
        [[ $# -ge 1 ]] || usage_error "up: missing N"
        cmd_up "$@"
        ;;
    down)
        [[ $# -eq 0 ]] || usage_error "down takes no arguments"
        check_prereqs
        tb_down
        log "down: testbed '$PREFIX' removed"
        ;;
    status) cmd_status ;;
    exec)
        [[ $# -ge 1 ]] || usage_error "exec: missing HOST"
        cmd_exec "$@"
        ;;
    run)
        [[ $# -ge 1 ]] || usage_error "run: missing N"
        cmd_run "$@"
        ;;
    *) usage_error "unknown subcommand '$sub'" ;;
    esac
}

main "$@"
