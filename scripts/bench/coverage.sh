#!/bin/bash
# SPDX-License-Identifier: MIT
# Does a launch's printed 95% interval predict the next launch? N launches of
# p2pbench (default: the default sweep), then over every (launch i, launch j,
# i != j, kernel, variant, size) measured in both: the share of cases where
# launch i's [ci95_low, ci95_high] holds launch j's t_usec.median. Also the
# median relative half-width of the intervals, the median launch-to-launch
# coefficient of variation of the medians, the rounds used, the spread s of the
# rounds' log medians, and the coverage of three interval forms recomputed from the
# round medians (docs/methodology.md, "Rounds").
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
    h) sed -n '3,15p' "$0"; exit 0 ;;
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
import glob, json, math, statistics, sys
# t(0.975, df), df = 1..9 (the table of src/bench/rounds.c)
T975 = [12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622]
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
        rows[key] = (t["median"], t["ci95_low"], t["ci95_high"], o.get("round_medians_usec", []))
    launches.append(rows)

def recomputed(factor):
    """the interval median x e^+-h, h = t(R-1) s factor(R), from the round medians"""
    def f(med, lo, hi, rm):
        if len(rm) < 2 or len(rm) > len(T975) + 1 or min(rm) <= 0:
            return None
        s = statistics.stdev([math.log(x) for x in rm])
        h = T975[len(rm) - 2] * s * factor(len(rm))
        return med * math.exp(-h), med * math.exp(h)
    return f

def coverage(interval):
    held = cases = 0
    half = []
    for i, a in enumerate(launches):
        for key, (med, lo, hi, rm) in a.items():
            iv = interval(med, lo, hi, rm)
            if iv is None:
                continue
            half.append((iv[1] - iv[0]) / 2 / med)
            for j, b in enumerate(launches):
                if i != j and key in b:
                    cases += 1
                    held += iv[0] <= b[key][0] <= iv[1]
    return 100.0 * held / max(cases, 1), 100 * statistics.median(half) if half else float("nan"), cases

cov, half, cases = coverage(lambda med, lo, hi, rm: (lo, hi))
cvs, svals, rounds = [], [], []
for key in launches[0]:
    meds = [l[key][0] for l in launches if key in l]
    if len(meds) >= 2 and statistics.mean(meds) > 0:
        cvs.append(statistics.stdev(meds) / statistics.mean(meds))
for l in launches:
    for med, lo, hi, rm in l.values():
        rounds.append(len(rm))
        if len(rm) >= 2 and min(rm) > 0:
            svals.append(statistics.stdev([math.log(x) for x in rm]))
print("launches                         %d" % len(launches))
print("cases (launch pair, row)         %d" % cases)
print("coverage                         %.1f%%  (aim >= 80%%)" % cov)
print("median half-width                %.2f%% of the median" % half)
print("median launch-to-launch CV       %.2f%%" % (100 * statistics.median(cvs) if cvs else float("nan")))
print("rounds per row (median)          %g" % (statistics.median(rounds) if rounds else 0))
if svals:
    print("median s of ln(round medians)    %.2f%%" % (100 * statistics.median(svals)))
    for name, fac in (("CI of the launch's mean, t s/sqrt(R)", lambda R: 1 / math.sqrt(R)),
                      ("difference of two launches, t s sqrt(2/R)", lambda R: math.sqrt(2 / R)),
                      ("prediction, t s sqrt(1 + 1/R)", lambda R: math.sqrt(1 + 1 / R))):
        c, h, _ = coverage(recomputed(fac))
        print("  form %-42s coverage %5.1f%%, half-width %.2f%%" % (name, c, h))
PY
