#!/bin/bash
# SPDX-License-Identifier: MIT
# Does a row's time depend on what the same launch ran before it? The rows of
# Sendrecv and Exchange that sweep-vs-peer.sh finds outside 5% of IMB-MPI1,
# timed by each tool in its full default sweep (0 .. 4 MiB, four kernels)
# and alone (only those rows), alternated, ROUNDS launches of each of the
# four. Nothing else may run beside it.
#   IMB=path scripts/bench/imb-context.sh [-n ROUNDS] [-b BUILD_DIR] [-a]
# -a: IMB's message buffers page aligned, as p2pbench's (scripts/bench/pagealign.c).
# Printed per row: the median over launches of t (IMB: t_max[usec];
# p2pbench: t_usec.median) in the full sweep and alone, for both tools, and
# p2pbench / IMB in each context. A tool whose full and alone columns differ
# measures a state left by the sizes before it, not the row's own.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=SCRIPTDIR/../lib/common.sh
. "$root/scripts/lib/common.sh"
rounds=10 build=$root/build align=
while getopts "n:b:ah" opt; do
    case $opt in
    n) rounds=$OPTARG ;;
    b) build=$OPTARG ;;
    a) align=1 ;;
    h) sed -n '3,14p' "$0"; exit 0 ;;
    *) usage_error "unknown option" ;;
    esac
done
case $rounds in '' | *[!0-9]* | 0 | 1 | 2) usage_error "-n needs at least 3 rounds, not '$rounds'" ;; esac
[ "${#rounds}" -le 4 ] || usage_error "-n $rounds: at most 9999 rounds"
bin="$build/p2pbench"
[ -x "$bin" ] || die "no $bin: build first (cmake --preset release && cmake --build build)"
imb=${IMB:-/opt/imb/IMB-MPI1}
[ -x "$imb" ] || die "IMB=$imb is not an executable (IMB=path to IMB-MPI1)"
allow_mpi_as_root
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mpi=(mpirun -np 2 --bind-to core)
peer_mpi=("${mpi[@]}")
if [ -n "$align" ]; then
    cc -O2 -shared -fPIC -o "$tmp/pagealign.so" "$root/scripts/bench/pagealign.c"
    peer_mpi+=(-x LD_PRELOAD="$tmp/pagealign.so")
fi
for r in $(seq 1 "$rounds"); do
    "${peer_mpi[@]}" "$imb" PingPong PingPing Sendrecv Exchange -msglog 0:22 >"$tmp/imb-full-$r.out"
    "${mpi[@]}" "$bin" -o "$tmp/p2pb-full-$r.jsonl" >/dev/null
    "${peer_mpi[@]}" "$imb" Sendrecv Exchange -msglog 0:8 >"$tmp/imb-alone-$r.out"
    "${mpi[@]}" "$bin" sendrecv,exchange -s 1,2,4,64,128,256 -o "$tmp/p2pb-alone-$r.jsonl" >/dev/null
done
python3 - "$tmp" "$rounds" "$root/scripts/bench" <<'PY'
import statistics, sys
tmp, n = sys.argv[1], int(sys.argv[2])
sys.path.insert(0, sys.argv[3])
from peer_table import imb, p2pb  # the parsers of sweep-vs-peer.sh's table
ROWS = [(k, b) for k in ("Sendrecv", "Exchange") for b in (1, 2, 4, 64, 128, 256)]
runs = {(tool, ctx): [(imb if tool == "imb" else p2pb)("%s/%s-%s-%d.%s" % (
            tmp, tool, ctx, r, "out" if tool == "imb" else "jsonl")) for r in range(1, n + 1)]
        for tool in ("imb", "p2pb") for ctx in ("full", "alone")}
def med(tool, ctx, row):
    v = [x[row] for x in runs[(tool, ctx)] if row in x]
    return statistics.median(v) if v else float("nan")
print("t in usec, medians over %d launches of each; full: in the default sweep, alone: only these rows" % n)
print("%-9s %5s  %10s %10s  %10s %10s  %9s %9s" % ("kernel", "bytes", "IMB full", "IMB alone",
      "p2pb full", "p2pb alone", "full p/I", "alone p/I"))
for row in ROWS:
    a, b = med("imb", "full", row), med("imb", "alone", row)
    c, d = med("p2pb", "full", row), med("p2pb", "alone", row)
    print("%-9s %5d  %10.3f %10.3f  %10.3f %10.3f  %9.3f %9.3f" % (row + (a, b, c, d, c / a, d / b)))
def spread(tool):
    return max(abs(med(tool, "full", r) / med(tool, "alone", r) - 1) for r in ROWS)
print("largest full/alone difference: IMB %.1f%%, p2pbench %.1f%%" % (100 * spread("imb"),
      100 * spread("p2pb")))
PY
