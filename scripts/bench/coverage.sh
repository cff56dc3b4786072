#!/bin/bash
# SPDX-License-Identifier: MIT
# Does a launch's printed 95% interval predict the next launch? N launches of
# p2pbench (default: the default sweep), then over every (launch i, launch j,
# i != j, kernel, variant, size) measured in both: the share of cases where
# launch i's [ci95_low, ci95_high] holds launch j's t_usec.median. Also the
# median relative half-width of the intervals, the median launch-to-launch
# coefficient of variation of the medians, and the rounds used.
# Nothing else may run beside it (timing; 2 cores).
#   scripts/bench/coverage.sh [-n N] [-b BUILD_DIR] [-o DIR] [-- P2PBENCH_ARGS...]
#   -n N    launches (default 20); 0 with -o: analyse DIR's launch-*.jsonl only
#   -o DIR  keep the launches' results files in DIR (default: a temporary directory)
# Aim (docs/methodology.md, "Rounds"): coverage >= 80%.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=SCRIPTDIR/../lib/common.sh
. "$root/scripts/lib/common.sh"
n=20 build=$root/build dir=""
while getopts "n:b:o:h" opt; do
    case $opt in
    n) n=$OPTARG ;;
    b) build=$OPTARG ;;
    o) dir=$OPTARG ;;
    h) sed -n '3,14p' "$0"; exit 0 ;;
    *) usage_error "unknown option" ;;
    esac
done
shift $((OPTIND - 1))
case $n in '' | *[!0-9]*) usage_error "-n needs a number of launches, not '$n'" ;; esac
[ "${#n}" -le 4 ] || usage_error "-n $n: at most 9999 launches"
bin="$build/p2pbench"
if [ -z "$dir" ]; then
    dir=$(mktemp -d)
    trap 'rm -rf "$dir"' EXIT
fi
mkdir -p "$dir"
if [ "$n" -gt 0 ]; then
    [ -x "$bin" ] || die "no $bin: build first (cmake --preset release && cmake --build build)"
    allow_mpi_as_root
    rm -f "$dir"/launch-*.jsonl
    for i in $(seq 1 "$n"); do
        mpirun -np 2 --bind-to core "$bin" "$@" -o "$dir/launch-$i.jsonl" >/dev/null \
            || die "launch $i failed"
    done
fi
python3 - "$dir" <<'PY'
import glob, json, statistics, sys
files = sorted(glob.glob(sys.argv[1] + "/launch-*.jsonl"))
if len(files) < 2:
    sys.exit("coverage.sh: need at least 2 launches, found %d" % len(files))
launches = []
for path in files:
    rows = {}
    for line in open(path):
        o = json.loads(line)
        if o.get("type") != "result" or o.get("status") != "ok":
            continue
        t = o["t_usec"]
        if t.get("ci95_low") is None or t.get("ci95_high") is None:
            continue
        key = (o["kernel"], o.get("variant", ""), o["bytes"])
        rows[key] = (t["median"], t["ci95_low"], t["ci95_high"], o.get("rounds", 1))
    launches.append(rows)
held = cases = 0
half, rounds = [], []
for i, a in enumerate(launches):
    for key, (med, lo, hi, r) in a.items():
        half.append((hi - lo) / 2 / med)
        rounds.append(r)
        for j, b in enumerate(launches):
            if i != j and key in b:
                cases += 1
                held += lo <= b[key][0] <= hi
cvs = []
for key in launches[0]:
    meds = [l[key][0] for l in launches if key in l]
    if len(meds) >= 2 and statistics.mean(meds) > 0:
        cvs.append(statistics.stdev(meds) / statistics.mean(meds))
print("launches                         %d" % len(launches))
print("cases (launch pair, row)         %d" % cases)
print("coverage                         %.1f%%  (aim >= 80%%)" % (100.0 * held / max(cases, 1)))
print("median half-width                %.2f%% of the median" % (100 * statistics.median(half)))
print("median launch-to-launch CV       %.2f%%" % (100 * statistics.median(cvs) if cvs else float("nan")))
print("rounds per row (median)          %g" % statistics.median(rounds))
PY
