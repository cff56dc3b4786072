# shellcheck shell=bash
# SPDX-License-Identifier: MIT
#
# guest.sh: guest hosts of the testbed (sourced by testbed.sh, bash).
#
# A guest host hK is a real guest kernel in place of a bare namespace:
#   uml    user-mode-linux (Debian user-mode-linux, /usr/bin/linux.uml): a
#          paravirtual Linux kernel as a host process, one vCPU; its user code
#          runs natively, every system call and page fault goes through it
#   qemu   qemu-system-x86_64 with virtio-net and 2 vCPUs: KVM where a standard
#          guest boots with it (probed), instruction emulation (TCG) otherwise
# Its namespace P-hK stays (the veth eth0 on the bridge, the profile's qdiscs);
# in it a bridge gbr joins eth0 and a tap gtap, the guest's NIC, whose address
# is 198.18.0.K. The guest's root is the host's, read-only; it writes only
# tmpfs and its directory STATE_DIR/P-hK (guest.env, hosts, token, console.log,
# relay.log). Commands reach it through relay.py (a TCP command channel; the
# testbed's bridge holds 198.18.0.254 to reach it): agent.sh and exec use it.

readonly RELAY="$SCRIPT_DIR/relay.py"
readonly GUEST_INIT="$SCRIPT_DIR/guest-init.sh"
readonly RELAY_PORT=7411
readonly MGMT_ADDR=$NET_BASE.254
readonly UML_BOOT_TIMEOUT=90   # seconds: a UML guest boots in 2-5 s
readonly QEMU_BOOT_TIMEOUT=300 # seconds: QEMU under TCG boots in 15-60 s
readonly GUEST_STOP_WAIT=10    # seconds a guest gets to power off
GUEST_MEM=${P2PB_TESTBED_GUEST_MEM:-512}

declare -A GUEST=() # host index -> kind

# parse_guest LIST KIND: --guest h2,h3 uml
parse_guest() {
    [[ -n ${2-} ]] || usage_error "--guest needs hosts and a kind (e.g. --guest h2 uml)"
    case $2 in
    uml | qemu) ;;
    *) usage_error "--guest: unknown guest kind '$2' (uml, qemu)" ;;
    esac
    local h
    local -a hs
    IFS=, read -r -a hs <<<"$1"
    ((${#hs[@]})) || usage_error "--guest: no host given"
    for h in "${hs[@]}"; do
        [[ $h =~ ^h([0-9]+)$ ]] || usage_error "--guest: host must be h1..hN, got '$h'"
        GUEST[${BASH_REMATCH[1]}]=$2
    done
}

# check_guests N: every guest within h1..hN; appends +guest:hK:KIND to the label.
check_guests() {
    local k
    for k in $(printf '%s\n' "${!GUEST[@]}" | sort -n); do
        ((k >= 1 && k <= $1)) || usage_error "--guest h$k: there are hosts h1..h$1"
        PROFILE_LABEL+="+guest:h$k:${GUEST[$k]}"
    done
}

guest_prereqs() {
    ((${#GUEST[@]})) || return 0
    local c kinds=" ${GUEST[*]} "
    for c in python3 bridge; do
        command -v "$c" >/dev/null 2>&1 || die "required command not found: $c (guests need it)"
    done
    [[ -c /dev/net/tun ]] || die "/dev/net/tun is missing: guests need tap devices"
    if [[ $kinds == *" uml "* ]]; then
        command -v linux.uml >/dev/null 2>&1 ||
            die "required command not found: linux.uml (Debian package user-mode-linux)"
    fi
    if [[ $kinds == *" qemu "* ]]; then qemu_prereqs; fi
}

guest_dir() { printf '%s/%s-h%s' "$STATE_DIR" "$PREFIX" "$1"; }

# is_guest K: hK is a guest of the testbed that is up (its guest.env exists).
is_guest() { [[ -r $(guest_dir "$1")/guest.env ]]; }

# guest_link K: in hK's namespace, bridge gbr joins eth0 (no address) and the tap.
guest_link() {
    local ns
    ns=$(host_ns "$1")
    ip -n "$ns" link add gbr type bridge
    ip -n "$ns" link set eth0 master gbr
    ip netns exec "$ns" ip tuntap add dev gtap mode tap
    [[ -z $MTU ]] || ip -n "$ns" link set gtap mtu "$MTU"
    ip -n "$ns" link set gtap master gbr up
    ip -n "$ns" link set gbr up
}

# guest_files K N: the guest's directory, with what its init reads.
guest_files() {
    local k=$1 n=$2 d j
    d=$(guest_dir "$k")
    mkdir -p -m 0700 -- "$d"
    {
        printf 'GUEST_KIND=%s\nGUEST_HOST=h%d\nGUEST_ADDR=%s.%d\n' "${GUEST[$k]}" "$k" "$NET_BASE" "$k"
        printf 'GUEST_MTU=%s\nRELAY_PORT=%d\nSCRIPTS=%q\n' "$MTU" "$RELAY_PORT" "$SCRIPT_DIR"
    } >"$d/guest.env"
    {
        printf '127.0.0.1\tlocalhost\n'
        for ((j = 1; j <= n; j++)); do printf '%s.%d\th%d\n' "$NET_BASE" "$j" "$j"; done
    } >"$d/hosts"
    od -An -N16 -tx1 /dev/urandom | tr -d ' \n' >"$d/token"
    chmod 0600 "$d/token"
}

# uml_start K: linux.uml in hK's namespace, in the background, console to a file.
# vec0's gro=1: the vector driver takes the tap's large (GSO) frames with their
# virtio-net header; without it they arrive truncated (the guest's Ip
# InTruncatedPkts counted 227, TCP retransmitted 460 of 3140 segments, and
# PingPong at 64 KiB took 60 ms instead of 1.5 ms).
uml_start() {
    local k=$1 d
    d=$(guest_dir "$k")
    mkdir -p "$d/uml"
    TMPDIR=$d setsid ip netns exec "$(host_ns "$k")" linux.uml \
        "mem=${GUEST_MEM}M" "umid=$PREFIX-h$k" "uml_dir=$d/uml" \
        root=/dev/root rootfstype=hostfs rootflags=/ ro \
        "init=$GUEST_INIT" p2pb_kind=uml "p2pb_dir=$d" \
        con=null con0=fd:0,fd:1 ssl=null vec0:transport=tap,ifname=gtap,depth=128,gro=1 quiet \
        </dev/null >"$d/console.log" 2>&1 9>&- &
    echo $! >"$d/pid"
}

# guest_wait K SECONDS: until the guest's relay answers, or die with its console's end.
guest_wait() {
    local k=$1 d
    d=$(guest_dir "$k")
    if ! ip netns exec "$(br_ns)" python3 "$RELAY" ping "$NET_BASE.$k" "$RELAY_PORT" \
        "$d/token" "$2" 2>/dev/null; then
        log "console of h$k (${GUEST[$k]}), last lines:"
        tail -n 5 "$d/console.log" 2>/dev/null | tr -cd '[:print:]\n\t' >&2
        die "guest h$k (${GUEST[$k]}) did not boot within ${2}s (console: $d/console.log)"
    fi
}

# guests_up N: start every guest side by side, then wait for each (bounded).
guests_up() {
    ((${#GUEST[@]})) || return 0
    local k
    ip -n "$(br_ns)" addr add "$MGMT_ADDR/24" dev br0
    for k in "${!GUEST[@]}"; do
        guest_files "$k" "$1"
        "${GUEST[$k]}_start" "$k"
    done
    for k in "${!GUEST[@]}"; do
        if [[ ${GUEST[$k]} == uml ]]; then guest_wait "$k" "$UML_BOOT_TIMEOUT"; else
            qemu_wait "$k"; fi
        log "up: h$k is a ${GUEST[$k]} guest ($(guest_describe "$k"))"
    done
}

guest_describe() {
    local d
    d=$(guest_dir "$1")
    printf 'NIC %s' "$(cat "$d/nic" 2>/dev/null || echo '?')"
    [[ ! -r $d/accel ]] || printf ', accel %s' "$(cat "$d/accel")"
}

# guest_dirs: the guest directories of this prefix that exist, one a line.
guest_dirs() {
    local d
    for d in "$STATE_DIR/$PREFIX"-h*; do
        [[ -d $d && ${d##*/} =~ ^${PREFIX}-h[0-9]+$ ]] && printf '%s\n' "$d"
    done
    return 0
}

# guests_down: ask each guest to power off, wait (bounded); tb_down kills what
# is left in the namespaces. Then remove the guest directories.
guests_down() {
    local d deadline pid
    local -a dirs asks=()
    mapfile -t dirs < <(guest_dirs)
    ((${#dirs[@]})) || return 0
    for d in "${dirs[@]}"; do
        [[ -r $d/token && -e /run/netns/$(br_ns) ]] || continue
        ip netns exec "$(br_ns)" timeout 5 python3 "$RELAY" run "$NET_BASE.${d##*-h}" \
            "$RELAY_PORT" "$d/token" 'echo o >/proc/sysrq-trigger' </dev/null >/dev/null 2>&1 &
        asks+=($!)
    done
    ((${#asks[@]} == 0)) || wait "${asks[@]}" 2>/dev/null || true
    deadline=$((SECONDS + GUEST_STOP_WAIT))
    for d in "${dirs[@]}"; do
        pid=$(cat "$d/pid" 2>/dev/null || true)
        while [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do
            sleep 0.2
        done
    done
}

# guests_clean: remove the guest directories (after every process is gone).
guests_clean() {
    local d
    while read -r d; do rm -rf -- "$d"; done < <(guest_dirs)
}

# sh_quote ARG...: the words as one POSIX sh command line.
sh_quote() {
    local a out=''
    for a in "$@"; do out+=" '${a//\'/\'\\\'\'}'"; done
    printf '%s' "${out# }"
}

# guest_relay_cmd K CMDLINE: RELAY_CMD, the command that runs CMDLINE in guest hK.
guest_relay_cmd() {
    local d
    d=$(guest_dir "$1")
    RELAY_CMD=(ip netns exec "$(br_ns)" python3 "$RELAY" run "$NET_BASE.$1" "$RELAY_PORT"
        "$d/token" "$2")
}

# parse_hosts LIST N: --hosts h2,h3 -> RUN_HOSTS (mpirun's --host value)
parse_hosts() {
    local h
    local -a hs
    RUN_HOSTS=''
    IFS=, read -r -a hs <<<"$1"
    ((${#hs[@]})) || usage_error "--hosts: no host given"
    for h in "${hs[@]}"; do
        [[ $h =~ ^h([0-9]+)$ ]] && ((BASH_REMATCH[1] >= 1 && BASH_REMATCH[1] <= $2)) ||
            usage_error "--hosts: host must be h1..h$2, got '$h'"
        RUN_HOSTS+=${RUN_HOSTS:+,}$h:1
    done
}

# guest_results HOSTS ARG...: when the first host of HOSTS (mpirun's --host
# value: rank 0's) is a guest, its results file (-o FILE, -oFILE, --output
# FILE, --output=FILE; not '-') is written in that guest's directory, the only
# place it writes, and guest_results_out copies it to FILE after the run.
# Sets RUN_ARGS (ARG... with that path replaced), RESULTS_OUT (FILE or ''),
# RESULTS_HOST (the guest's index or '').
guest_results() {
    local first=${1%%,*} a prev='' inner=/run/p2pb/results.jsonl
    shift
    first=${first%%:*}
    RUN_ARGS=("$@") RESULTS_OUT='' RESULTS_HOST=''
    is_guest "${first#h}" || return 0
    RUN_ARGS=()
    for a in "$@"; do
        if [[ ($prev == -o || $prev == --output) && $a != - ]]; then
            RESULTS_OUT=$a a=$inner
        elif [[ $a == --output=?* && $a != --output=- ]]; then
            RESULTS_OUT=${a#--output=} a=--output=$inner
        elif [[ $a == -o?* && $a != -o- ]]; then
            RESULTS_OUT=${a#-o} a=-o$inner
        fi
        RUN_ARGS+=("$a")
        prev=$a
    done
    [[ -z $RESULTS_OUT ]] || RESULTS_HOST=${first#h}
}

# guest_results_out: the guest's results file to RESULTS_OUT (through a
# temporary file beside it and a rename: never a half-copied file).
guest_results_out() {
    [[ -n $RESULTS_HOST ]] || return 0
    local src tmp
    src=$(guest_dir "$RESULTS_HOST")/results.jsonl
    [[ -f $src ]] || return 0
    tmp=$RESULTS_OUT.copy.$$
    if cp -- "$src" "$tmp" && mv -f -- "$tmp" "$RESULTS_OUT"; then
        log "results of h$RESULTS_HOST (a guest) copied to $RESULTS_OUT"
    else
        rm -f -- "$tmp"
        log "error: cannot copy the results of h$RESULTS_HOST to $RESULTS_OUT"
        return 1
    fi
}
