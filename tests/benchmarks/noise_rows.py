#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Check the noise rows of a results file: NP rank rows and one aggregate,
each with a consistent "noise" object. Usage: noise_rows.py FILE NP"""
import json
import sys

path, np = sys.argv[1], int(sys.argv[2])
rows = [r for r in map(json.loads, open(path)) if r.get("type") == "result"]
bad = []
want = [f"rank {i}" for i in range(np)] + ["aggregate"]
if [r.get("variant") for r in rows] != want:
    bad.append(f"variants {[r.get('variant') for r in rows]}, want {want}")
for r in rows:
    n = r.get("noise")
    if r.get("status") != "ok" or not isinstance(n, dict):
        bad.append(f"{r.get('variant')}: status {r.get('status')}, noise {n}")
        continue
    if not 0 <= n["lost_share"] <= 1:
        bad.append(f"{r['variant']}: lost_share {n['lost_share']}")
    if n["detours"] and not n["detour_median_usec"] <= n["detour_p99_usec"] <= n["detour_max_usec"]:
        bad.append(f"{r['variant']}: median <= p99 <= max broken: {n}")
    if n["detours"] and n["detour_median_usec"] < n["threshold_usec"]:
        bad.append(f"{r['variant']}: a detour shorter than the threshold: {n}")
    if abs(n["detours_per_sec"] * n["spin_sec"] - n["detours"]) > 1e-6 * max(1, n["detours"]):
        bad.append(f"{r['variant']}: detours_per_sec x spin_sec != detours: {n}")
    if n["spin_sec"] < 0.001 * r["samples"]:  # 1 ms per iteration at least
        bad.append(f"{r['variant']}: spun {n['spin_sec']} s for {r['samples']} samples")
if not bad:
    ranks = {r["variant"]: r["noise"] for r in rows}
    worst = max(range(np), key=lambda i: ranks[f"rank {i}"]["lost_share"])
    agg = ranks["aggregate"]
    if agg["worst_rank"] != worst or agg != ranks[f"rank {worst}"]:
        bad.append(f"aggregate {agg} is not the worst rank's ({worst})")
for b in bad:
    print("FAIL:", b)
print(f"{len(rows)} noise rows checked, {len(bad)} problems")
sys.exit(1 if bad else 0)
