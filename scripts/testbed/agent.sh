#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# agent.sh: remote-shell agent for Open MPI's rsh launcher on the namespace
# testbed (testbed.sh). Use as `mpirun --mca plm_rsh_agent /path/agent.sh`.
#
# Open MPI calls it like ssh: `agent.sh HOST WORD...`. As ssh does, the words
# are joined with single spaces into one command line for a POSIX shell
# (Open MPI quotes for that shell itself). The command runs in the host's
# network namespace ($P2PB_TESTBED_PREFIX-HOST, default p2pb-HOST) in a fresh
# UTS namespace whose host name is HOST, so every rank reports its own host.
# A guest host (testbed.sh up --guest, guest.sh) is its own kernel: there the
# line goes through the guest's command channel (relay.py) instead.
set -euo pipefail

readonly PROG=${0##*/}
# shellcheck source=SCRIPTDIR/../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh" # die
PREFIX=${P2PB_TESTBED_PREFIX:-p2pb}
STATE_DIR=${P2PB_TESTBED_STATE_DIR:-/run/p2pb-testbed}

usage() {
    cat <<EOF
Usage: $PROG [-x|-T|-n|-q]... HOST COMMAND [WORD...]

Runs "COMMAND WORD..." (joined by spaces, run by sh -c, as ssh would) inside
the testbed host HOST: network namespace $PREFIX-HOST, host name HOST.
HOST is h1..hN or its address 198.18.0.N. ssh-style flags are ignored.
Environment: P2PB_TESTBED_PREFIX (default p2pb), P2PB_TESTBED_STATE_DIR
(default /run/p2pb-testbed: where a guest host's directory is).
EOF
}

# Ignore the option-less ssh flags a launcher might add.
while [[ $# -gt 0 && $1 == -* ]]; do
    case $1 in
    -h | --help)
        usage
        exit 0
        ;;
    -x | -X | -T | -n | -q) shift ;;
    --)
        shift
        break
        ;;
    *) die "unsupported option '$1'" ;;
    esac
done
[[ $# -ge 2 ]] || {
    usage >&2
    exit 2
}

host=$1
shift
case $host in
198.18.0.*) host=h${host##*.} ;; # an address of the testbed
esac
[[ $host =~ ^h[0-9]+$ ]] || die "not a testbed host: '$host' (expected h1..hN)"
[[ $PREFIX =~ ^[a-z][a-z0-9]{0,11}$ ]] || die "bad P2PB_TESTBED_PREFIX '$PREFIX'"
ns=$PREFIX-$host
[[ -e /run/netns/$ns ]] || die "no namespace $ns for host $host (is the testbed up?)"

# "$*" joins the words with spaces, exactly like ssh does before the remote
# shell parses them. The line reaches the inner shell as "$2", never re-split.
cmdline="$*"
gdir=$STATE_DIR/$ns
if [[ -r $gdir/guest.env ]]; then
    port=$(sed -n 's/^RELAY_PORT=\([0-9]*\)$/\1/p' "$gdir/guest.env")
    exec ip netns exec "$PREFIX-br" python3 "$(dirname "${BASH_SOURCE[0]}")/relay.py" run \
        "198.18.0.${host#h}" "${port:-7411}" "$gdir/token" "$cmdline"
fi
# shellcheck disable=SC2016 # expanded by the inner sh
exec ip netns exec "$ns" unshare --uts -- \
    sh -c 'hostname "$1" || exit 1; exec sh -c "$2"' p2pb-agent "$host" "$cmdline"
