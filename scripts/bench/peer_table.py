# SPDX-License-Identifier: MIT
"""What sweep-vs-peer.sh prints: wall time, launch-to-launch spread and, with
IMB-MPI1 as the peer, the per-size ratio table of the four kernels.

    python3 peer_table.py TMPDIR LAUNCHES PEER CACHE_MB [ALIGNED]

TMPDIR holds p2pb-N.jsonl and peer-N.out for N = 1..LAUNCHES and a file
"wall" of lines "side end start" (seconds). PEER is imb or netpipe. CACHE_MB
> 0: both sides ran cold (--off-cache / -off_cache): rows from 64 KiB only.
ALIGNED 1: IMB's buffers were page aligned (sweep-vs-peer.sh -a).
"""
import json
import math
import re
import statistics
import sys

KERNELS = ("PingPong", "PingPing", "Sendrecv", "Exchange")
MAX_KERNELS = ("Sendrecv", "Exchange")  # IMB's t_max is the one compared


def p2pb(path):
    """(kernel, bytes) -> median t, and ("imb:" kernel, bytes) -> IMB-style t."""
    rows = {}
    for line in open(path):
        o = json.loads(line)
        if o.get("type") != "result" or o.get("status") != "ok" or o.get("variant"):
            continue
        name, b = o["display_name"], o["bytes"]
        rows[(name, b)] = o["t_usec"]["median"]
        imb_t = o.get("t_max_usec") if name in MAX_KERNELS else o.get("t_avg_usec")
        if imb_t is not None:
            rows[("imb:" + name, b)] = imb_t
    return rows


def imb(path):
    """IMB-MPI1 text: (kernel, bytes) -> t[usec], or t_max[usec] where printed."""
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


def netpipe(path):
    """NPopenmpi -o: bytes, Mbit/s, seconds one way per line."""
    fields = (line.split() for line in open(path))
    return {("PingPong", int(f[0])): float(f[2]) * 1e6 for f in fields if len(f) >= 3}


def median_cv(runs):
    """Median over rows of the coefficient of variation over launches."""
    cvs = []
    for key in runs[0]:
        if key[0].startswith("imb:"):
            continue
        v = [r[key] for r in runs if key in r]
        if len(v) >= 2 and statistics.mean(v) > 0:
            cvs.append(statistics.stdev(v) / statistics.mean(v))
    return (statistics.median(cvs), len(cvs)) if cvs else (float("nan"), 0)


def cpu_model():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


def hl_interval(mv, tv):
    """95% interval of the ratio mine/theirs from the launches: the m x n
    pairwise ratios sorted, their k-th from each end, k from the Mann-Whitney
    critical value (normal approximation; Hollander & Wolfe, Nonparametric
    Statistical Methods, 3rd ed., section 4.3), as p2pbench-report compare's
    band (docs/methodology.md). None below 3 launches a side."""
    m, n = len(mv), len(tv)
    if m < 3 or n < 3:
        return None
    r = sorted(a / b for a in mv for b in tv if b > 0)
    k = int(math.floor(m * n / 2 - 1.96 * math.sqrt(m * n * (m + n + 1) / 12)))
    k = max(k, 0)
    return r[k], r[len(r) - 1 - k]


def verdict(ci):
    """'in' when the interval lies inside 0.95 .. 1.05, 'out' when it lies
    wholly outside, else 'open' (the launches cannot tell)."""
    if ci is None:
        return "open"
    if 0.95 <= ci[0] and ci[1] <= 1.05:
        return "in"
    return "out" if ci[1] < 0.95 or ci[0] > 1.05 else "open"


def ratio_table(title, mine, theirs, prefix, min_bytes):
    """Print the per-size table of median(mine) / median(theirs), each row
    marked * when outside 0.95 .. 1.05, and ! when its 95% interval
    (hl_interval) lies wholly outside; returns the ratios."""
    sizes = sorted({k[1] for k in theirs[0] if k[0] in KERNELS and k[1] >= min_bytes})
    print(title)
    print("%10s" % "bytes" + "".join("%10s" % k for k in KERNELS))
    ratios, verdicts = [], []
    for b in sizes:
        cells = []
        for k in KERNELS:
            mv = [r[(prefix + k, b)] for r in mine if (prefix + k, b) in r]
            tv = [r[(k, b)] for r in theirs if (k, b) in r]
            if not mv or not tv or statistics.median(tv) <= 0:
                cells.append("%10s" % "-")
                continue
            x = statistics.median(mv) / statistics.median(tv)
            ratios.append(x)
            v = verdict(hl_interval(mv, tv))
            verdicts.append(v)
            cells.append("%9.3f%s" % (x, "!" if v == "out" else
                                      " " if 0.95 <= x <= 1.05 else "*"))
        print("%10d" % b + "".join(cells))
    if ratios:
        out = sum(1 for x in ratios if not 0.95 <= x <= 1.05)
        print("rows outside 0.95 .. 1.05 (*): %d of %d; median row %.3f (aim 0.98 .. 1.02); "
              "range %.3f .. %.3f" % (out, len(ratios), statistics.median(ratios), min(ratios),
                                      max(ratios)))
        print("95%% intervals of the ratio (pairwise ratios of launches, as compare's band): "
              "%d rows inside 0.95 .. 1.05, %d wholly outside (!), %d cannot tell at %d launches"
              % (verdicts.count("in"), verdicts.count("out"), verdicts.count("open"),
                 len(mine)))
    return ratios


def main():
    tmp, launches, peer, cache_mb = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
    aligned = len(sys.argv) > 5 and sys.argv[5] == "1"
    wall = {"p2pb": [], "peer": []}
    for line in open(tmp + "/wall"):
        side, end, start = line.split()
        wall[side].append(float(end) - float(start))
    mine = [p2pb("%s/p2pb-%d.jsonl" % (tmp, r)) for r in range(1, launches + 1)]
    read = imb if peer == "imb" else netpipe
    theirs = [read("%s/peer-%d.out" % (tmp, r)) for r in range(1, launches + 1)]
    if peer == "netpipe":  # NetPIPE's sizes: keep those p2pbench measured too
        theirs = [{k: v for k, v in t.items() if k in mine[0]} for t in theirs]
    wp, wq = statistics.median(wall["p2pb"]), statistics.median(wall["peer"])
    cp, np_ = median_cv(mine)
    cq, nq = median_cv(theirs)
    print("host CPU                  %s" % cpu_model())
    print("peer                      %s%s, %d launches each, alternated" %
          (peer, ", cold (-off_cache %d / --off-cache --cache-size %dM)" % (cache_mb, cache_mb)
           if cache_mb else "", launches))
    if aligned:
        print("IMB's buffers              page aligned (malloc preload, -a), as p2pbench's")
    print("wall time, median         p2pbench %.2f s, peer %.2f s" % (wp, wq))
    print("wall-time ratio           %.2f  (aim <= 1.25)%s" % (wp / wq, "" if peer == "imb" else
          "; NetPIPE runs its own, longer size schedule: not like for like"))
    print("spread (median CV)        p2pbench %.2f%% over %d rows, peer %.2f%% over %d rows" %
          (100 * cp, np_, 100 * cq, nq))
    if peer != "imb":
        return
    min_bytes = 65536 if cache_mb else 0
    print()
    ratio_table("p2pbench t_usec.median / IMB t (t_max: Sendrecv, Exchange), medians over "
                "launches:", mine, theirs, "", min_bytes)
    print()
    ratio_table("p2pbench IMB-style t (t_avg_usec; t_max_usec: Sendrecv, Exchange) / IMB t:",
                mine, theirs, "imb:", min_bytes)


if __name__ == "__main__":
    main()
