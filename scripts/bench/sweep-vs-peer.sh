#!/bin/bash
# SPDX-License-Identifier: MIT
# p2pbench's default sweep against IMB-MPI1 on the same 2 ranks, alternated:
# wall time and launch-to-launch spread. Nothing else may run beside it.
#   IMB=path scripts/bench/sweep-vs-peer.sh [-n ROUNDS] [-b BUILD_DIR] [-c CACHE_MB] [-a]
# -a: IMB's message buffers page aligned, as p2pbench's are (a malloc preload,
# scripts/bench/pagealign.c): the two tools then differ in method only, not in
# where glibc's heap put IMB's buffers (docs/performance.md, issue 19).
# -c CACHE_MB: the cold mode on both sides, p2pbench --off-cache --cache-size
# CACHE_MB M against IMB -off_cache CACHE_MB (IMB's unit: MB = 2^20 bytes).
# P2PB_ARGS="--shift-buffers ..." adds options to every p2pbench launch (to try
# a setting against the same peer).
# IMB defaults to /opt/imb/IMB-MPI1 when it exists; without it (or with
# IMB=none), NetPIPE's NPopenmpi (Debian netpipe-openmpi) against p2pbench's
# PingPong alone.
# Same work on both sides:
#   p2pbench                                  (PingPong PingPing Sendrecv Exchange, 0 and 2^0..2^22)
#   IMB-MPI1 PingPong PingPing Sendrecv Exchange -msglog 0:22
# Printed:
#   wall-time ratio = median p2pbench wall time / median peer wall time  (aim <= 1.25)
#   spread          = median over kernels x sizes of the coefficient of variation of
#                     the launches' times (p2pbench: t_usec.median; IMB: t[usec] of
#                     PingPong/PingPing, t_max of Sendrecv/Exchange; NetPIPE: time)
#   spread ratio    = p2pbench's / the peer's                           (aim <= 0.4)
#   with IMB also the per-size ratio table of the four kernels: the median over
#   launches of p2pbench's t_usec.median over the median over launches of
#   IMB's t (t_max for Sendrecv and Exchange), every size (with -c: from
#   64 KiB), the rows outside 0.95 .. 1.05 and the median row (aim 0.98 ..
#   1.02), and per row the 95% interval of the ratio from the launches (as
#   compare's band): inside the 5% band, wholly outside it (!), or not
#   decided at this many launches; then the same for p2pbench's IMB-style t
#   (t_avg_usec, t_max_usec: means over every timed iteration), and the
#   host's CPU model
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=SCRIPTDIR/../lib/common.sh
. "$root/scripts/lib/common.sh"
rounds=5 build=$root/build
cache_mb= align=
while getopts "n:b:c:ah" opt; do
    case $opt in
    n) rounds=$OPTARG ;;
    b) build=$OPTARG ;;
    c) cache_mb=$OPTARG ;;
    a) align=1 ;;
    h) sed -n '3,36p' "$0"; exit 0 ;;
    *) usage_error "unknown option" ;;
    esac
done
case $rounds in '' | *[!0-9]* | 0 | 1) usage_error "-n needs at least 2 rounds, not '$rounds'" ;; esac
[ "${#rounds}" -le 4 ] || usage_error "-n $rounds: at most 9999 rounds"
case $cache_mb in '' | [1-9] | [1-9][0-9] | [1-9][0-9][0-9] | [1-9][0-9][0-9][0-9]) ;;
*) usage_error "-c needs a cache size in MB from 1 to 9999, not '$cache_mb'" ;; esac
bin="$build/p2pbench"
[ -x "$bin" ] || die "no $bin: build first (cmake --preset release && cmake --build build)"
imb=${IMB:-}
[ -z "$imb" ] && [ -x /opt/imb/IMB-MPI1 ] && imb=/opt/imb/IMB-MPI1
[ "$imb" = none ] && imb=
if [ -n "$imb" ]; then
    [ -x "$imb" ] || die "IMB=$imb is not an executable"
    peer=imb
    p2pb_args=()
    peer_cmd=("$imb" PingPong PingPing Sendrecv Exchange -msglog 0:22)
    if [ -n "$cache_mb" ]; then
        peer_cmd+=(-off_cache "$cache_mb")
        p2pb_args+=(--off-cache --cache-size "${cache_mb}M")
    fi
else
    command -v NPopenmpi >/dev/null || die "no IMB-MPI1 (IMB=path) and no NPopenmpi (apt-get install netpipe-openmpi)"
    peer=netpipe
    [ -z "$cache_mb" ] || die "-c needs IMB-MPI1 (IMB=path)"
    p2pb_args=(pingpong)
    peer_cmd=(NPopenmpi -p 0 -l 1 -u 4194304)
fi
extra=()
[ -z "${P2PB_ARGS:-}" ] || read -r -a extra <<<"$P2PB_ARGS"
p2pb_args+=("${extra[@]}")
allow_mpi_as_root
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mpi=(mpirun -np 2 --bind-to core)
peer_mpi=("${mpi[@]}")
if [ -n "$align" ]; then
    [ "$peer" = imb ] || die "-a needs IMB-MPI1 (IMB=path)"
    cc -O2 -shared -fPIC -o "$tmp/pagealign.so" "$root/scripts/bench/pagealign.c"
    peer_mpi+=(-x LD_PRELOAD="$tmp/pagealign.so")
fi
now() { date +%s.%N; }
for r in $(seq 1 "$rounds"); do
    # alternate which side goes first, so neither always follows the other
    for side in $([ $((r % 2)) = 1 ] && echo "p2pb peer" || echo "peer p2pb"); do
        t0=$(now)
        if [ "$side" = p2pb ]; then
            "${mpi[@]}" "$bin" "${p2pb_args[@]}" -o "$tmp/p2pb-$r.jsonl" >/dev/null
        elif [ "$peer" = imb ]; then
            "${peer_mpi[@]}" "${peer_cmd[@]}" >"$tmp/peer-$r.out"
        else
            "${mpi[@]}" "${peer_cmd[@]}" -o "$tmp/peer-$r.out" >/dev/null 2>&1
        fi
        echo "$side $(now) $t0" >>"$tmp/wall"
    done
done
python3 "$root/scripts/bench/peer_table.py" "$tmp" "$rounds" "$peer" "${cache_mb:-0}" "${align:-0}"
