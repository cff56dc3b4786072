#!/bin/bash
# SPDX-License-Identifier: MIT
# p2pbench's default sweep against IMB-MPI1 on the same 2 ranks, alternated:
# wall time and launch-to-launch spread. Nothing else may run beside it.
#   IMB=path scripts/bench/sweep-vs-peer.sh [-n ROUNDS] [-b BUILD_DIR]
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
#   with IMB also PingPong's t at 8 B and 4 MiB, medians of the launches, and
#   their ratio (aim 0.98 .. 1.02: the harness adds nothing), for p2pbench's
#   median and for its IMB-style t (t_avg_usec: the mean over every timed
#   iteration, IMB's definition)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=SCRIPTDIR/../lib/common.sh
. "$root/scripts/lib/common.sh"
rounds=5 build=$root/build
while getopts "n:b:h" opt; do
    case $opt in
    n) rounds=$OPTARG ;;
    b) build=$OPTARG ;;
    h) sed -n '3,24p' "$0"; exit 0 ;;
    *) usage_error "unknown option" ;;
    esac
done
case $rounds in '' | *[!0-9]* | 0 | 1) usage_error "-n needs at least 2 rounds, not '$rounds'" ;; esac
[ "${#rounds}" -le 4 ] || usage_error "-n $rounds: at most 9999 rounds"
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
else
    command -v NPopenmpi >/dev/null || die "no IMB-MPI1 (IMB=path) and no NPopenmpi (apt-get install netpipe-openmpi)"
    peer=netpipe
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
now() { date +%s.%N; }
for r in $(seq 1 "$rounds"); do
    # alternate which side goes first, so neither always follows the other
    for side in $([ $((r % 2)) = 1 ] && echo "p2pb peer" || echo "peer p2pb"); do
        t0=$(now)
        if [ "$side" = p2pb ]; then
            "${mpi[@]}" "$bin" "${p2pb_args[@]}" -o "$tmp/p2pb-$r.jsonl" >/dev/null
        elif [ "$peer" = imb ]; then
            "${mpi[@]}" "${peer_cmd[@]}" >"$tmp/peer-$r.out"
        else
            "${mpi[@]}" "${peer_cmd[@]}" -o "$tmp/peer-$r.out" >/dev/null 2>&1
        fi
        echo "$side $(now) $t0" >>"$tmp/wall"
    done
done
python3 - "$tmp" "$rounds" "$peer" <<'PY'
import json, re, statistics, sys
tmp, rounds, peer = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def p2pb(path):
    rows = {}
    for line in open(path):
        o = json.loads(line)
        if o.get("type") == "result" and o.get("status") == "ok":
            rows[(o["display_name"], o["bytes"])] = o["t_usec"]["median"]
            rows[("imb:" + o["display_name"], o["bytes"])] = o.get("t_avg_usec")
    return rows
def imb(path):
    rows, kernel, col = {}, None, None
    for line in open(path):
        m = re.match(r"# Benchmarking (\S+)", line)
        if m:
            kernel, col = m.group(1), None
            continue
        f = line.split()
        if f and f[0] == "#bytes":
            col = f.index("t_max[usec]") if "t_max[usec]" in f else f.index("t[usec]")
            continue
        if kernel and col is not None and f and re.fullmatch(r"\d+", f[0]) and len(f) > col:
            rows[(kernel, int(f[0]))] = float(f[col])
    return rows
def netpipe(path):  # NPopenmpi -o: bytes, Mbit/s, seconds one way per line
    fields = (line.split() for line in open(path))
    return {("PingPong", int(f[0])): float(f[2]) * 1e6 for f in fields if len(f) >= 3}
def median_cv(runs):
    cvs = []
    for key in runs[0]:
        if key[0].startswith("imb:"):
            continue
        v = [r[key] for r in runs if key in r]
        if len(v) >= 2 and statistics.mean(v) > 0:
            cvs.append(statistics.stdev(v) / statistics.mean(v))
    return statistics.median(cvs), len(cvs)
wall = {"p2pb": [], "peer": []}
for line in open(tmp + "/wall"):
    side, end, start = line.split()
    wall[side].append(float(end) - float(start))
mine = [p2pb("%s/p2pb-%d.jsonl" % (tmp, r)) for r in range(1, rounds + 1)]
read = imb if peer == "imb" else netpipe
theirs = [read("%s/peer-%d.out" % (tmp, r)) for r in range(1, rounds + 1)]
if peer == "netpipe":  # NetPIPE's sizes: keep those p2pbench measured too
    theirs = [{k: v for k, v in t.items() if k in mine[0]} for t in theirs]
wp, wq = statistics.median(wall["p2pb"]), statistics.median(wall["peer"])
cp, np_ = median_cv(mine)
cq, nq = median_cv(theirs)
print("peer                      %s, %d rounds alternated" % (peer, rounds))
print("wall time, median         p2pbench %.2f s, peer %.2f s" % (wp, wq))
print("wall-time ratio           %.2f  (aim <= 1.25)%s" % (wp / wq, "" if peer == "imb" else
      "; NetPIPE runs its own, longer size schedule: not like for like"))
print("spread (median CV)        p2pbench %.2f%% over %d rows, peer %.2f%% over %d rows" % (100 * cp, np_, 100 * cq, nq))
print("spread ratio              %.2f  (aim <= 0.4)" % (cp / cq if cq > 0 else float("nan")))
if peer == "imb":  # the harness adds nothing: PingPong at 8 B and 4 MiB, medians of the launches
    for b in (8, 4194304):
        k = ("PingPong", b)
        mp = statistics.median(r[k] for r in mine if k in r)
        mq = statistics.median(r[k] for r in theirs if k in r)
        ma = statistics.median(r[("imb:PingPong", b)] for r in mine if ("imb:PingPong", b) in r)
        print("PingPong %7d B t[usec]  p2pbench median %.4g, IMB's mean-based t from the same run %.4g; "
              "IMB %.4g; ratios %.3f, %.3f  (aim 0.98 .. 1.02)" % (b, mp, ma, mq, mp / mq, ma / mq))
PY
