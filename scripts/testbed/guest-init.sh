#!/bin/sh
# SPDX-License-Identifier: MIT
#
# guest-init.sh: PID 1 of a testbed guest (guest.sh), user-mode-linux or QEMU.
# The guest's root is the host's own, read-only (UML hostfs; QEMU virtiofs);
# every path it writes is a tmpfs of its own, or its directory under the
# testbed's state dir (mounted at /run/p2pb), where it reads guest.env:
#   GUEST_KIND   uml | qemu
#   GUEST_HOST   its host name (hK)
#   GUEST_ADDR   its address on the testbed's links (198.18.0.K)
#   GUEST_MTU    the links' MTU, or empty
#   RELAY_PORT   the command channel's TCP port (relay.py)
#   SCRIPTS      the host's scripts/testbed directory
# The kernel passes p2pb_kind=uml|qemu and p2pb_dir=DIR (that directory on
# the host) in the environment. It ends by becoming relay.py's server, which runs what the
# agent sends and reaps orphans; the guest powers off when it ends.
PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export PATH

fail() {
    echo "guest-init: error: $*" >&2
    [ -w /proc/sysrq-trigger ] && echo o >/proc/sysrq-trigger
    exit 1
}

mount -t proc proc /proc || fail "cannot mount /proc"
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev 2>/dev/null || true
mkdir -p /dev/pts /dev/shm 2>/dev/null
mount -t devpts devpts /dev/pts 2>/dev/null || true
# the project's tree (its scripts and builds), before a tmpfs hides it
tree=$(cd "$(dirname "$0")/../.." && pwd) || fail "cannot find the project's tree"
hidden=0
for d in /dev/shm /tmp /run /var/tmp /var/lib/dhcp /root /home /mnt; do
    [ -d "$d" ] || continue
    mount -t tmpfs -o mode=1777 tmpfs "$d"
    case $tree/ in "$d"/*) hidden=1 ;; esac
done
# a tree under /tmp, /home, /root...: the host's copy again, read-only
if [ "$hidden" = 1 ] && [ "${p2pb_kind:-}" != qemu ]; then
    { mkdir -p "$tree" && mount -t hostfs -r -o "$tree" none "$tree"; } ||
        fail "cannot mount the project's tree $tree (hostfs)"
fi

mkdir -p /run/p2pb
case ${p2pb_kind:-} in
qemu) mount -t virtiofs p2pbdir /run/p2pb || fail "cannot mount the guest directory (virtiofs)" ;;
*) mount -t hostfs -o "${p2pb_dir:?}" none /run/p2pb || fail "cannot mount the guest directory $p2pb_dir (hostfs)" ;;
esac
. /run/p2pb/guest.env || fail "no guest.env in the guest directory"

# The testbed's host names, as in every namespace host's /etc/hosts.
mount --bind /run/p2pb/hosts /etc/hosts || fail "cannot bind the hosts file"
hostname "$GUEST_HOST"
echo "$GUEST_HOST" >/proc/sys/kernel/hostname

ip link set lo up
nic=
for n in /sys/class/net/*; do
    [ "${n##*/}" = lo ] || { nic=${n##*/}; break; }
done
[ -n "$nic" ] || fail "no network interface"
[ -z "$GUEST_MTU" ] || ip link set "$nic" mtu "$GUEST_MTU"
ip addr add "$GUEST_ADDR/24" dev "$nic" || fail "cannot set $GUEST_ADDR on $nic"
ip link set "$nic" up
echo "$nic" >/run/p2pb/nic

export HOME=/root TMPDIR=/tmp
# Open MPI refuses root without these; this script runs as root, as the
# project's scripts that set them do (p2pbench itself never does).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
exec python3 "$SCRIPTS/relay.py" serve "$GUEST_ADDR" "$RELAY_PORT" /run/p2pb/token \
    >/run/p2pb/relay.log 2>&1
