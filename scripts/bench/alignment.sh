#!/bin/bash
# SPDX-License-Identifier: MIT
# What the placement of PingPong's buffers costs: the same IMB-style sequence
# per size (scripts/bench/alignment.c) with buffers from malloc, as IMB-MPI1
# allocates them, and page aligned, as p2pbench places them; ROUNDS launches
# of each, alternated, 2 ranks (mpirun -np 2 --bind-to core). Nothing else may
# run beside it.
#   scripts/bench/alignment.sh [-n ROUNDS] [-m MAXLOG]
# Printed per size (2 KiB .. 2^MAXLOG, default 17): the median over launches
# of t (usec, half round trip) with malloc'ed and page-aligned buffers, their
# ratio, and the buffers' offsets past a page boundary in the last malloc
# launch. Needs mpicc (Debian libopenmpi-dev).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=SCRIPTDIR/../lib/common.sh
. "$root/scripts/lib/common.sh"
rounds=5 maxlog=17
while getopts "n:m:h" opt; do
    case $opt in
    n) rounds=$OPTARG ;;
    m) maxlog=$OPTARG ;;
    h) sed -n '3,12p' "$0"; exit 0 ;;
    *) usage_error "unknown option" ;;
    esac
done
case $rounds in '' | *[!0-9]* | 0) usage_error "-n needs at least 1 round, not '$rounds'" ;; esac
[ "${#rounds}" -le 3 ] || usage_error "-n $rounds: at most 999 rounds"
case $maxlog in 1[2-9] | 2[0-2]) ;; *) usage_error "-m needs 12 .. 22, not '$maxlog'" ;; esac
command -v mpicc >/dev/null || die "no mpicc (apt-get install libopenmpi-dev)"
allow_mpi_as_root
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mpicc -O2 -o "$tmp/alignment" "$root/scripts/bench/alignment.c"
for r in $(seq 1 "$rounds"); do
    for mode in $([ $((r % 2)) = 1 ] && echo "malloc page" || echo "page malloc"); do
        mpirun -np 2 --bind-to core "$tmp/alignment" "$mode" "$maxlog" >"$tmp/$mode-$r.out"
    done
done
python3 - "$tmp" "$rounds" <<'PY'
import statistics, sys
tmp, rounds = sys.argv[1], int(sys.argv[2])
def read(mode):
    out = {}
    for r in range(1, rounds + 1):
        for line in open("%s/%s-%d.out" % (tmp, mode, r)):
            b, t, so, ro = line.split()
            out.setdefault(int(b), []).append(float(t))
            last = (so, ro)
    return out, last
m, offs = read("malloc")
p, _ = read("page")
print("PingPong t[usec], medians over %d launches each; malloc'ed buffers at offsets %s / %s "
      "past a page in the last launch" % (rounds, offs[0], offs[1]))
print("%10s %10s %10s %8s" % ("bytes", "malloc", "page", "ratio"))
for b in sorted(m):
    a, q = statistics.median(m[b]), statistics.median(p[b])
    print("%10d %10.3f %10.3f %8.3f" % (b, a, q, q / a))
PY
