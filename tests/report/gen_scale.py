#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write N synthetic launch files for compare tests at many launches per side:
gen_scale.py DIR PREFIX LABEL N FACTOR SEED

Launch i (1..N) writes DIR/PREFIX-iiii.jsonl: PingPong at 0 and 65536 bytes,
t_usec.median = base(X) x FACTOR x L_i, base(X) = 1 + X / 1000 usec, and
L_i = exp(0.03 z_i) with z_i standard normal from random.Random(SEED): a
lognormal launch-to-launch spread of about 3%, continuous (no ties), the
same L_i for both sizes of a launch. The records have the fields of
tests/report/gen_launches.sh (docs/output-format.md); the 0-byte row has
0 MB/s (its throughput has no ratio: compare's "no verdict (zero value)")."""
import json
import math
import os
import random
import sys


def run_record(label, i):
    return {"type": "run", "schema": "p2pbench/1", "source": "p2pbench", "version": "0.1.0",
            "git_commit": "synthetic", "command_line": "synthetic", "label": label,
            "start_utc": "2026-01-01T00:00:%02dZ" % (i % 60), "mpi_library": "Open MPI v4.1.4",
            "nranks": 2,
            "ranks": [{"rank": 0, "host": "h0", "binding": "0"},
                      {"rank": 1, "host": "h0", "binding": "1"}],
            "hosts": {"h0": {"host": "h0", "kernel_release": "6.1.0",
                             "cpu_model": "Synthetic CPU", "memory_bytes": 4294967296}},
            "policy": {"mode": "adaptive"}}


def result(x, t):
    mb = x / t if x else 0
    return {"type": "result", "kernel": "pingpong", "display_name": "PingPong", "bytes": x,
            "nranks": 2, "active_ranks": 2, "imb_layout": "t", "bytes_factor": 1,
            "time_scale": 0.5, "status": "ok", "samples": 20, "iterations_per_sample": 1,
            "t_usec": {"min": t * 0.99, "p25": t * 0.995, "median": t, "p75": t * 1.005,
                       "p99": t * 1.02, "max": t * 1.03, "mean": t, "stddev": 0.01,
                       "ci95_low": t * 0.995, "ci95_high": t * 1.005},
            "t_min_usec": t, "t_max_usec": t, "t_avg_usec": t, "mbytes_per_sec": mb,
            "mbytes_per_sec_imb": mb, "outliers": 0}


def main():
    out, prefix, label, n, factor, seed = sys.argv[1:7]
    rng = random.Random(int(seed))
    os.makedirs(out, exist_ok=True)
    for i in range(1, int(n) + 1):
        spread = math.exp(0.03 * rng.gauss(0.0, 1.0))
        recs = [run_record(label, i)]
        recs += [result(x, (1 + x / 1000) * float(factor) * spread) for x in (0, 65536)]
        recs.append({"type": "end", "status": "complete", "wall_sec": 1.5})
        with open(os.path.join(out, "%s-%04d.jsonl" % (prefix, i)), "w") as f:
            f.write("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in recs))


if __name__ == "__main__":
    main()
