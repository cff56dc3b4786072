#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Check the msgs/s of every row of a results file (docs/kernels.md, "Message rate").

Usage: msgs_rows.py RESULTS.jsonl [--csv TABLE.csv] KERNEL...

Every named kernel must have ok rows, each with msgs_per_iter and
msgs_per_sec. On every ok row that has both rates:
  - msgs_per_sec x bytes / 10^6 agrees with mbytes_per_sec within 1%
    (at bytes 0: MB/s is 0 and msgs/s is still > 0);
  - a group row (not "aggregate"): msgs_per_sec = msgs_per_iter / t median x 10^6;
  - an aggregate row: msgs_per_sec = the sum of its groups' msgs_per_sec.
Rows of other kernels must not carry the fields. With --csv, the table the
program printed with -f csv: every row there with both rates agrees within 1%
too, and carries the results file's msgs/s. Exit 0 pass, 1 fail.
"""
import csv
import json
import sys


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def close(a, b, rel):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)


def main():
    args = sys.argv[2:]
    table = None
    if args[:1] == ["--csv"] and len(args) >= 2:
        table, args = args[1], args[2:]
    if len(sys.argv) < 3 or not args:
        fail("usage: msgs_rows.py RESULTS.jsonl [--csv TABLE.csv] KERNEL...")
    want = set(args)
    rows = []
    with open(sys.argv[1], encoding="utf-8") as f:
        for line in f:
            o = json.loads(line)
            if o.get("type") == "result":
                rows.append(o)
    seen = {k: 0 for k in want}
    groups = {}  # (kernel, direction half, bytes) -> sum of group msgs/s
    checked = 0
    for r in rows:
        k, x, var = r["kernel"], r["bytes"], r.get("variant", "")
        has = "msgs_per_sec" in r or "msgs_per_iter" in r
        if k not in want:
            if has:
                fail(f"{k} {var} {x}: carries a message rate, but counts no messages")
            continue
        if r["status"] != "ok":
            continue
        if "msgs_per_sec" not in r or "msgs_per_iter" not in r:
            fail(f"{k} {var} {x}: ok row without msgs_per_sec / msgs_per_iter")
        seen[k] += 1
        m, mb, t = r["msgs_per_sec"], r["mbytes_per_sec"], r["t_usec"]["median"]
        if not (m > 0):
            fail(f"{k} {var} {x}: msgs/s {m} is not positive")
        if x == 0:
            if mb != 0:
                fail(f"{k} {var} size 0: MB/s {mb}, want 0")
        elif not close(m * x / 1e6, mb, 0.01):
            fail(f"{k} {var} {x}: msgs/s {m} x {x} / 10^6 = {m * x / 1e6}, MB/s {mb}")
        half = "hi" if ("hi->lo" in var or (var[:1].isdigit() and
                                            int(var.split("->")[0]) % 2 == 1)) else "lo"
        key = (k, half, x)
        if var.startswith("aggregate"):
            if not close(m, groups.get(key, 0.0), 1e-9):
                fail(f"{k} {var} {x}: msgs/s {m}, sum of the groups' {groups.get(key)}")
        else:
            if not close(m, r["msgs_per_iter"] / t * 1e6, 1e-9):
                fail(f"{k} {var} {x}: msgs/s {m}, msgs_per_iter / t = "
                     f"{r['msgs_per_iter'] / t * 1e6}")
            groups[key] = groups.get(key, 0.0) + m
        checked += 1
    for k, n in seen.items():
        if n == 0:
            fail(f"no ok row of {k}")
    printed = check_table(table, rows) if table else 0
    print(f"PASS: {checked} rows with msgs/s and MB/s agree" +
          (f"; {printed} rows of the printed CSV too" if table else ""))


def check_table(path, rows):
    """The -f csv table: its rows with msgs/s agree with MB/s within 1% and
    with the results file's msgs/s (to the precision printed). Returns how
    many rows were checked."""
    by = {(r["kernel"], r.get("variant", ""), r["bytes"]): r for r in rows}
    n = 0
    with open(path, encoding="utf-8", newline="") as f:
        for c in csv.DictReader(f):
            if not c.get("msgs_per_sec"):
                continue
            k = (c["kernel"], c["variant"], int(c["bytes"]))
            m, mb = float(c["msgs_per_sec"]), float(c["mbytes_per_sec"])
            if k[2] and not close(m * k[2] / 1e6, mb, 0.01):
                fail(f"csv {k}: msgs/s {m} x {k[2]} / 10^6 = {m * k[2] / 1e6}, MB/s {mb}")
            got = by[k].get("msgs_per_sec", -1) if k in by else -1
            if not (close(m, got, 1e-6) or abs(m - got) <= 0.0051):  # 2 decimals printed
                fail(f"csv {k}: msgs/s {m}, results file {by.get(k, {}).get('msgs_per_sec')}")
            n += 1
    if n == 0:
        fail(f"{path}: no row with msgs/s")
    return n


if __name__ == "__main__":
    main()
