#!/bin/bash
# SPDX-License-Identifier: MIT
# The placement probe and the bounds over N launches of the default sweep
# (issue 22; docs/host-context.md "Placement probe", docs/kernels.md "Bounds"):
# per launch the probe of ranks 0-1 (its fastest batch, ns), the 8-byte
# PingPong median (usec), and the largest %bound over its rows; then
#   - the launches grouped by the probe (compare's rule: a gap of more than 2x
#     between sorted values) with each group's 8 B PingPong medians, and the
#     Spearman rank correlation of probe and 8 B median over the launches;
#   - rows above 105% of their bound (want none) and rows whose median lies
#     below the probe's floor (want none);
#   - the host's CPU model.
# Nothing else may run beside it (timing; 2 cores).
#   scripts/bench/probe-bound.sh [-n N] [-b BUILD_DIR] [-o DIR] [-- P2PBENCH_ARGS...]
#   -n N    launches (default 20); 0 with -o: analyse DIR's launch-*.jsonl only
#   -o DIR  keep the results files in DIR (default: a temporary directory)
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
    h) sed -n '3,17p' "$0"; exit 0 ;;
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
        mpirun -np 2 --bind-to core "$bin" "$@" -o "$dir/launch-$i.jsonl" >/dev/null ||
            die "launch $i failed"
    done
fi
python3 - "$dir" <<'PY'
import glob, json, sys
files = sorted(glob.glob(sys.argv[1] + "/launch-*.jsonl"), key=lambda p: int(p.split("-")[-1].split(".")[0]))
if len(files) < 2:
    sys.exit("probe-bound.sh: need at least 2 launches, found %d" % len(files))
launches, over, below, bounded, cpu = [], [], [], 0, "?"
for path in files:
    probe, t8, worst = None, None, 0.0
    for line in open(path):
        o = json.loads(line)
        if o.get("type") == "run":
            hosts = o.get("hosts") or []
            hosts = hosts.values() if isinstance(hosts, dict) else hosts
            cpu = next((h.get("cpu_model", "?") for h in hosts if isinstance(h, dict)), cpu)
            for p in (o.get("placement_probe") or {}).get("pairs", []):
                if p.get("ranks") == [0, 1] and p.get("batches_ns"):
                    probe = min(p["batches_ns"])
        if o.get("type") != "result" or o.get("status") != "ok":
            continue
        b = o.get("bound")
        if b:
            bounded += 1
            worst = max(worst, b["percent"])
            if b["exceeds"]:
                over.append((path, o["kernel"], o["bytes"], b["percent"]))
        if o["kernel"] == "pingpong" and o["bytes"] == 8:
            t8 = o["t_usec"]["median"]
        if o["kernel"] == "pingpong" and probe is not None and o["t_usec"]["median"] < probe / 1000:
            below.append((path, o["bytes"], o["t_usec"]["median"], probe))
    launches.append((path, probe, t8, worst))

def ranks(v):
    order = sorted(range(len(v)), key=lambda i: v[i])
    r = [0.0] * len(v)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and v[order[j + 1]] == v[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return r

print("host CPU                  %s" % cpu)
print("launches                  %d" % len(launches))
print("%-22s %12s %14s %12s" % ("launch", "probe [ns]", "8 B t [usec]", "max %bound"))
for path, probe, t8, worst in launches:
    print("%-22s %12s %14s %11.1f%%" % (path.split("/")[-1], "-" if probe is None else "%.0f" % probe,
                                        "-" if t8 is None else "%.3f" % t8, worst))
pairs = [(p, t) for _, p, t, _ in launches if p is not None and t is not None]
if len(pairs) >= 3:
    rp, rt = ranks([p for p, _ in pairs]), ranks([t for _, t in pairs])
    m = (len(pairs) + 1) / 2
    num = sum((a - m) * (b - m) for a, b in zip(rp, rt))
    den = (sum((a - m) ** 2 for a in rp) * sum((b - m) ** 2 for b in rt)) ** 0.5
    print("Spearman(probe, 8 B t)    %s over %d launches" % ("%.2f" % (num / den) if den else "-", len(pairs)))
    vals = sorted(pairs)
    groups, cur = [], [vals[0]]
    for prev, nxt in zip(vals, vals[1:]):
        if nxt[0] > 2 * prev[0]:
            groups.append(cur)
            cur = []
        cur.append(nxt)
    groups.append(cur)
    for g in groups:
        ts = sorted(t for _, t in g)
        print("probe group %5.0f-%5.0f ns: %2d launches, 8 B t %.3f-%.3f usec (median %.3f)" %
              (g[0][0], g[-1][0], len(g), ts[0], ts[-1], ts[len(ts) // 2]))
print("rows with a bound          %d; above 105%%: %d%s" % (bounded, len(over),
      "".join("\n    %s %s %d B %.1f%%" % (p.split('/')[-1], k, b, v) for p, k, b, v in over[:10])))
print("PingPong rows below the probe's floor: %d%s" % (len(below),
      "".join("\n    %s %d B %.3f usec < %.0f ns" % (p.split('/')[-1], b, t, f) for p, b, t, f in below[:10])))
PY
