#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The overlap kernel's rows in a results file (docs/kernels.md, "Overlap").

usage: overlap_rows.py FILE defined|undefined NP

Every size has three ok rows, variants pure, cpu, overlap, in that order
in the file; 2 active ranks of NP. Only the overlap row has an "overlap"
object; its t_pure_usec, t_cpu_usec and t_ovrl_usec are the medians of the
size's pure, cpu and overlap rows; "defined": percent is
100 * max(0, min(1, (t_pure + t_cpu - t_ovrl) / min(t_pure, t_cpu)))
recomputed here; "undefined": percent is null with a reason. The cpu row
moves no bytes (MB/s 0, no bound). The run record has policy.overlap_compute.
"""
import json
import sys


# docs/kernels.md, "Overlap": the row's formula, as every output prints it
FORMULA = "overlap[%] = 100 * max(0, min(1, (t_pure + t_cpu - t_ovrl) / min(t_pure, t_cpu)))"


def main():
    path, mode, np = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with open(path) as f:
        recs = [json.loads(line) for line in f if line.strip()]
    run = recs[0]
    want_c = 0 if mode == "undefined" else 1
    if run["policy"].get("overlap_compute") != want_c:
        return f"run record: policy.overlap_compute {run['policy'].get('overlap_compute')}"
    rows = [r for r in recs if r.get("type") == "result"]
    sizes = sorted({r["bytes"] for r in rows})
    if not rows or len(rows) != 3 * len(sizes):
        return f"{len(rows)} rows for {len(sizes)} sizes, want 3 per size"
    order = [r["variant"] for r in rows]
    want = ["pure"] * len(sizes) + ["cpu"] * len(sizes) + ["overlap"] * len(sizes)
    if order != want:
        return f"variants in the order {order}"
    for x in sizes:
        by = {r["variant"]: r for r in rows if r["bytes"] == x}
        for v, r in by.items():
            if r["status"] != "ok" or r["active_ranks"] != 2 or r["nranks"] != np:
                return f"{x} B {v}: status {r['status']}, {r['active_ranks']} of {r['nranks']}"
            if ("overlap" in r) != (v == "overlap"):
                return f"{x} B {v}: overlap object {'present' if 'overlap' in r else 'missing'}"
        if by["cpu"]["mbytes_per_sec"] != 0 or "bound" in by["cpu"]:
            return f"{x} B cpu: MB/s {by['cpu']['mbytes_per_sec']}, bound {by['cpu'].get('bound')}"
        o = by["overlap"]["overlap"]
        if o.get("formula") != FORMULA:
            return f"{x} B: overlap.formula {o.get('formula')!r}, want {FORMULA!r}"
        tp, tc, to = (by[v]["t_usec"]["median"] for v in ("pure", "cpu", "overlap"))
        if (o["t_pure_usec"], o["t_cpu_usec"], o["t_ovrl_usec"]) != (tp, tc, to):
            return f"{x} B: overlap times {o} are not the rows' medians {tp}, {tc}, {to}"
        if mode == "undefined":
            if o["percent"] is not None or "0 steps" not in o.get("undefined", ""):
                return f"{x} B: {o}, want percent null and the reason"
            continue
        if tp <= 0 or tc <= 0:
            return f"{x} B: a zero median with the default compute: {o}"
        p = 100 * max(0.0, min(1.0, (tp + tc - to) / min(tp, tc)))
        if o["percent"] is None or abs(o["percent"] - p) > 1e-9 * max(1.0, p):
            return f"{x} B: percent {o['percent']}, formula gives {p}"
    return None


if __name__ == "__main__":
    err = main()
    if err:
        print("FAIL:", err)
        sys.exit(1)
    print("PASS")
