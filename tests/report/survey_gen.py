#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write a synthetic survey results file:
survey_gen.py OUT N [SLOW_NODE] [A-B] [per] [--retest]

N hosts h1..hN, one rank each (ranks 0..N-1); every pair once: latency 20 usec
and 1000 MB/s each way, times a deterministic spread of -3% .. +3%. SLOW_NODE
(e.g. h3, or -) streams 100 MB/s on all its links; A-B (e.g. h1-h5, or -) is a
link at 100 MB/s. --retest: after the first pass, the retest rows p2pbench
survey would write for the slow pairs (SLOW_NODE's pairs, then A-B; the same
values, "stayed_slow": true), the slow node's bandwidth retests "capped": true
with 4 x 65536 bytes a sample (a sample shrunk to fit the cap). The rows have
the fields p2pbench survey writes (docs/output-format.md, "Survey rows");
p2pbench-report survey reads them."""
import itertools
import json
import sys


def row(lo, hi, metric, frm, value, n, retest=False, msgs=64):
    lat = metric == "latency"
    t = value if lat else msgs * 65536 / value
    r = {"type": "result", "kernel": "survey-pingpong" if lat else "survey-stream",
            "display_name": "SurveyPingPong" if lat else "SurveyStream",
            "variant": f"pair {lo}-{hi}" if lat else f"{frm}->{hi if frm == lo else lo}",
            "bytes": 8 if lat else 65536, "nranks": n, "active_ranks": 2, "imb_layout": "t",
            "bytes_factor": 1 if lat else msgs, "status": "ok", "samples": 10,
            "iterations_per_sample": 1, "repetitions": 10, "warmup": 1,
            "t_usec": {"min": t, "p25": t, "median": t, "p75": t, "p99": t, "max": t,
                       "mean": t, "stddev": 0, "ci95_low": t, "ci95_high": t},
            "mbytes_per_sec": (8 if lat else msgs * 65536) / t, "pair": [lo, hi],
            "hosts": [f"h{lo + 1}", f"h{hi + 1}"], "round": 0, "metric": metric,
            "direction": "both" if lat else f"{frm}->{hi if frm == lo else lo}",
            "survey_mode": "alone", "retest": retest, "capped": msgs < 64}
    if not lat:
        r.update(messages_per_sample=msgs, message_bytes=65536, bytes_moved=10 * msgs * 65536)
    if retest:
        r["variant"] += " retest"
        r["stayed_slow"] = True
    return r


def main():
    out, n = sys.argv[1], int(sys.argv[2])
    slow = sys.argv[3] if len(sys.argv) > 3 else "-"
    link = sys.argv[4] if len(sys.argv) > 4 else "-"
    per = sys.argv[5] if len(sys.argv) > 5 and sys.argv[5] != "--retest" else "host"
    retests = []
    lines = [{"type": "run", "schema": "p2pbench/1", "nranks": n,
              "survey": {"per": per, "mode": "alone", "order": "schedule", "seed": None,
                         "latency_bytes": 8, "bandwidth_bytes": 65536, "window": 64}}]
    for lo, hi in itertools.combinations(range(n), 2):
        f = 1 + 0.01 * (((lo * 7 + hi * 3) % 7) - 3)
        names = {f"h{lo + 1}", f"h{hi + 1}"}
        bw = 100 if slow in names or link == f"h{lo + 1}-h{hi + 1}" else 1000 * f
        lines.append(row(lo, hi, "latency", -1, 20 * f, n))
        lines.append(row(lo, hi, "bandwidth", lo, bw, n))
        lines.append(row(lo, hi, "bandwidth", hi, bw * (1.01 if bw > 100 else 1), n))
        if bw == 100 and "--retest" in sys.argv:
            msgs = 4 if slow in names else 64
            retests.append((slow not in names, [row(lo, hi, "latency", -1, 20 * f, n, True),
                                                row(lo, hi, "bandwidth", lo, bw, n, True, msgs),
                                                row(lo, hi, "bandwidth", hi, bw, n, True, msgs)]))
    for _, rows in sorted(retests, key=lambda x: x[0]):
        lines.extend(rows)
    lines.append({"type": "end", "status": "complete", "wall_sec": 1})
    with open(out, "w") as fp:
        for o in lines:
            fp.write(json.dumps(o) + "\n")


main()
