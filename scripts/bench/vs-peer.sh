#!/bin/bash
# SPDX-License-Identifier: MIT
# p2pbench PingPong against NetPIPE's NPopenmpi (Debian netpipe-openmpi) on the
# same 2 ranks, alternated ROUNDS times, plus the memcpy upper bound and the
# wall time of a default full run. Prints ratios; nothing else may run beside
# it (2 cores: a build or ctest next to it makes the numbers meaningless).
#   scripts/bench/vs-peer.sh [BUILD_DIR] [ROUNDS]
# Both peers are blocking ping-pongs timed as half the round trip:
#   latency ratio    = p2pbench t(8 B) / NetPIPE t(8 B)        aim <= 1.02
#   throughput ratio = p2pbench MB/s / NetPIPE MB/s (1M, 4M)    aim >= 1.0
# p2pbench's headline is its median; NetPIPE prints its best trial, so the
# ratios are also printed with p2pbench's minimum (like for like).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=SCRIPTDIR/../lib/common.sh
. "$root/scripts/lib/common.sh"
build=${1:-$root/build}
rounds=${2:-5}
bin="$build/p2pbench"
command -v NPopenmpi >/dev/null || { echo "NPopenmpi missing: apt-get install netpipe-openmpi" >&2; exit 1; }
[ -x "$bin" ] || { echo "no $bin: build first (cmake --preset release && cmake --build build)" >&2; exit 1; }
allow_mpi_as_root
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mpi=(mpirun -np 2 --bind-to core)

for r in $(seq 1 "$rounds"); do
    "${mpi[@]}" "$bin" pingpong -s 8,1M,4M --time-per-size 0.5 -o "$tmp/p2pb-$r.jsonl" >/dev/null
    "${mpi[@]}" NPopenmpi -p 0 -l 8 -u 8 -o "$tmp/np-lat-$r.out" >/dev/null 2>&1
    "${mpi[@]}" NPopenmpi -p 0 -l 1048576 -u 4194304 -o "$tmp/np-bw-$r.out" >/dev/null 2>&1
done
"${mpi[@]}" "$bin" memcpy -s 1M,4M -o "$tmp/memcpy.jsonl" >/dev/null 2>&1 || true
start=$(date +%s.%N)
"${mpi[@]}" "$bin" --no-results >/dev/null
end=$(date +%s.%N)

python3 - "$tmp" "$rounds" "$start" "$end" <<'PY'
import json, statistics, sys, os
tmp, rounds, start, end = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
def p2pb(path, kernel="pingpong"):
    rows = {}
    for line in open(path):
        o = json.loads(line)
        if o.get("type") == "result" and o.get("kernel") == kernel and o.get("status") == "ok":
            t = o["t_usec"]
            rows[o["bytes"]] = (t["median"], o["mbytes_per_sec"], t["min"], o["bytes"] * o["bytes_factor"] / t["min"] if o["bytes"] else 0)
    return rows
def netpipe(path):
    rows = {}
    for line in open(path):
        f = line.split()
        if len(f) >= 3:
            b = int(f[0]); t = float(f[2]) * 1e6  # seconds, one way -> usec
            rows[b] = (t, b / t)                # MB/s = bytes / usec
    return rows
lat, bw1, bw4 = [], [], []
lat_min, bw1_min, bw4_min = [], [], []
pl, nl = [], []
for r in range(1, rounds + 1):
    p = p2pb(f"{tmp}/p2pb-{r}.jsonl")
    nlat = netpipe(f"{tmp}/np-lat-{r}.out"); nbw = netpipe(f"{tmp}/np-bw-{r}.out")
    lat.append(p[8][0] / nlat[8][0]); pl.append(p[8][0]); nl.append(nlat[8][0])
    bw1.append(p[1048576][1] / nbw[1048576][1])
    bw4.append(p[4194304][1] / nbw[4194304][1])
    lat_min.append(p[8][2] / nlat[8][0])
    bw1_min.append(p[1048576][3] / nbw[1048576][1])
    bw4_min.append(p[4194304][3] / nbw[4194304][1])
med = statistics.median
print(f"rounds (alternated p2pbench / NetPIPE): {rounds}")
print(f"8 B latency:   p2pbench {med(pl):.3f} usec, NetPIPE {med(nl):.3f} usec, ratio {med(lat):.3f} (aim <= 1.02; per round {', '.join(f'{x:.3f}' for x in lat)})")
print(f"1 MiB MB/s ratio p2pbench/NetPIPE: {med(bw1):.3f} (aim >= 1.0; per round {', '.join(f'{x:.3f}' for x in bw1)})")
print(f"4 MiB MB/s ratio p2pbench/NetPIPE: {med(bw4):.3f} (aim >= 1.0; per round {', '.join(f'{x:.3f}' for x in bw4)})")
print("NetPIPE reports the best (minimum) time of its trials; like for like, p2pbench's minimum:")
print(f"  8 B latency ratio {med(lat_min):.3f}; 1 MiB MB/s ratio {med(bw1_min):.3f}; 4 MiB MB/s ratio {med(bw4_min):.3f}")
mc = f"{tmp}/memcpy.jsonl"
last = p2pb(f"{tmp}/p2pb-{rounds}.jsonl")
try:
    m = p2pb(mc, "memcpy")
    for b in (1048576, 4194304):
        print(f"memcpy upper bound at {b} B: {m[b][1]:.0f} MB/s; p2pbench PingPong reaches {last[b][1]:.0f} MB/s = {last[b][1]/m[b][1]:.2f} of it")
except Exception as e:
    print(f"memcpy upper bound: not available ({e.__class__.__name__})")
print(f"default full p2pbench run (4 kernels x 24 sizes, 2 ranks): {end - start:.1f} s wall")
PY
