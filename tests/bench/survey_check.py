#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Check a survey results file: survey_check.py FILE NP MODE [SEED|-] [capped] [shrunk]

Every pair of the NP ranks exactly once per metric (latency: one row per
pair; bandwidth: one row per direction), rounds of disjoint pairs (NP - 1
rounds for even NP, NP for odd NP, one rank resting per round), the fields
of docs/output-format.md ("pair", "hosts", "round", "metric", "direction",
"survey_mode", "retest", "capped"), MB/s = bytes_factor * bytes / median,
the bytes a bandwidth sample moved (bytes_factor * bytes = messages_per_sample
* message_bytes, at most --window x bytes; bytes_moved = samples x that), at
least one sample per row, and the run record's "survey" object; "capped":
every row says capped (the cap ended it), "shrunk": every bandwidth sample
moved fewer than window x bytes; with python3-jsonschema, the result records and the
"survey" object against docs/results.schema.json. Prints one line; exits 1
on the first failure."""
import itertools
import json
import os
import sys

SCHEMA = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "results.schema.json")


def check_schema(run, rows):
    """Result records and the run record's survey object against the schema."""
    try:
        from jsonschema import Draft202012Validator
    except ImportError:
        return "schema not checked (no python3-jsonschema)"
    schema = json.load(open(SCHEMA))
    result = Draft202012Validator(dict(schema["$defs"]["result"], **{"$defs": schema["$defs"]}))
    survey = Draft202012Validator(schema["$defs"]["run"]["properties"]["survey"])
    for o in rows:
        for e in result.iter_errors(o):
            fail(f"row {o.get('variant')}: schema: {e.message}")
    for e in survey.iter_errors(run["survey"]):
        fail(f"run record survey: schema: {e.message}")
    return "schema valid"


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def check_bytes(o, window, expect):
    """A row's sample count and, for bandwidth, the bytes its samples moved."""
    v = o["variant"]
    if not isinstance(o.get("capped"), bool) or o["samples"] < 1:
        fail(f"row {v}: capped {o.get('capped')!r}, {o['samples']} samples")
    if o["metric"] != "bandwidth":
        return
    msgs, each = o["messages_per_sample"], o["message_bytes"]
    if not (1 <= msgs <= window and 1 <= each <= o["bytes"]):
        fail(f"row {v}: {msgs} messages of {each} bytes (window {window}, X {o['bytes']})")
    if abs(o["bytes_factor"] * o["bytes"] - msgs * each) > 1e-6 * msgs * each:
        fail(f"row {v}: bytes_factor {o['bytes_factor']} x {o['bytes']} != {msgs} x {each}")
    if o["bytes_moved"] != o["samples"] * msgs * each:
        fail(f"row {v}: bytes_moved {o['bytes_moved']} != {o['samples']} x {msgs} x {each}")
    if "shrunk" in expect and msgs * each >= window * o["bytes"]:
        fail(f"row {v}: {msgs} x {each} bytes a sample, not shrunk below {window} x {o['bytes']}")


def main():
    path, np_, mode = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    seed = int(sys.argv[4]) if len(sys.argv) > 4 and sys.argv[4] != "-" else None
    expect = set(sys.argv[5:])
    lines = [json.loads(x) for x in open(path)]
    run, end = lines[0], lines[-1]
    if run.get("type") != "run" or end.get("type") != "end" or end.get("status") != "complete":
        fail("run record or complete end record missing")
    sv = run.get("survey") or fail("no survey object in the run record")
    rounds = np_ - 1 if np_ % 2 == 0 else np_
    want = {"per": "rank", "mode": mode, "rounds": rounds, "ranks_surveyed": np_,
            "pairs": np_ * (np_ - 1) // 2}
    for k, v in want.items():
        if sv.get(k) != v:
            fail(f"run record survey.{k} = {sv.get(k)!r}, want {v!r}")
    # the default --survey-mode auto picks alone at these sizes (<= 32 ranks)
    asked = sv.get("mode_requested")
    if asked not in ("auto", mode) or (asked == "auto" and mode != "alone"):
        fail(f"run record survey.mode_requested = {asked!r} with mode {mode!r}")
    if seed is not None and (sv.get("order") != "random" or sv.get("seed") != seed):
        fail(f"random order: order {sv.get('order')!r} seed {sv.get('seed')!r}, want {seed}")
    rows = [o for o in lines if o.get("type") == "result"]
    first = [o for o in rows if not o["retest"]]
    lat = [o for o in first if o["metric"] == "latency"]
    bw = [o for o in first if o["metric"] == "bandwidth"]
    pairs = {tuple(p) for p in itertools.combinations(range(np_), 2)}
    if sorted(tuple(o["pair"]) for o in lat) != sorted(pairs):
        fail(f"latency rows: {len(lat)} pairs, want each of the {len(pairs)} once")
    dirs = sorted(o["direction"] for o in bw)
    want_dirs = sorted(f"{a}->{b}" for a, b in itertools.permutations(range(np_), 2))
    if dirs != want_dirs:
        fail(f"bandwidth rows: {len(bw)} directions, want each of the {len(want_dirs)} once")
    by_round = {}
    for o in lat:
        by_round.setdefault(o["round"], []).append(o["pair"])
    if sorted(by_round) != list(range(rounds)):
        fail(f"rounds {sorted(by_round)}, want 0..{rounds - 1}")
    for r, ps in by_round.items():
        ranks = [x for p in ps for x in p]
        if len(set(ranks)) != len(ranks) or len(ranks) != np_ - np_ % 2:
            fail(f"round {r} is not a perfect matching: {ps}")
    for o in rows:
        if o["survey_mode"] != (mode if not o["retest"] else "alone"):
            fail(f"row {o['variant']}: survey_mode {o['survey_mode']}")
        if len(o["hosts"]) != 2 or not all(isinstance(h, str) and h for h in o["hosts"]):
            fail(f"row {o['variant']}: hosts {o['hosts']}")
        t = o["t_usec"]["median"]
        mbs = o["bytes_factor"] * o["bytes"] / t
        if abs(mbs - o["mbytes_per_sec"]) > 1e-6 * mbs:
            fail(f"row {o['variant']}: MB/s {o['mbytes_per_sec']} != {mbs}")
        if o["retest"] and "stayed_slow" not in o:
            fail(f"retest row {o['variant']} without stayed_slow")
        check_bytes(o, sv["window"], expect)
    capped = sum(o["capped"] for o in rows)
    if "capped" in expect and capped != len(rows):
        fail(f"{capped} of {len(rows)} rows capped, want all")
    note = check_schema(run, rows)
    print(f"PASS: {np_} ranks, {mode}: {len(lat)} latency and {len(bw)} bandwidth rows, "
          f"{rounds} rounds, {len(rows) - len(first)} retest rows, {capped} capped; {note}")


main()
