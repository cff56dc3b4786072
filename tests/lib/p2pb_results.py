#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Read one p2pbench results file (JSON Lines, schema p2pbench/1) and print
one value from it, for the shell test drivers.

Usage: p2pb_results.py FILE QUERY [ARGS]

Queries:
  check              the file is well formed: first record type "run" with
                     schema p2pbench/1, last record type "end"; prints "ok"
  end                status of the end record ("complete", "aborted"), or
                     "missing" if the last record is not an end record
  nranks             number of entries in the run record's "ranks"
  hosts              the ranks' host names, ordered by rank, comma-separated
  warnings           the run record's placement warnings, one a line
  profile            the run record's "link_profile" as JSON text
  status K B         status of the result for kernel K and B bytes, or "missing"
  mbps K B           its mbytes_per_sec (MB/s, 10^6 B/s, from the median time)
  mbps-best K B [V]  its rate from the fastest sample: bytes_factor x B / t_usec.min
                     (V: the row of that variant, e.g. a direction "1->0")
  result-nranks K B  its nranks
  kernels-ok K,K B,B ... "ok" if every (kernel, bytes) pair has status ok,
                     otherwise the first pair that does not, as K:B=STATUS

Exit status: 0 on success, 1 if the file is malformed or the value is absent,
2 on a usage error.
"""

import json
import sys

SCHEMA_MAJOR = "p2pbench/1"


class Malformed(Exception):
    pass


def load(path):
    records = []
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as e:
                raise Malformed(f"{path}:{lineno}: not JSON: {e}") from None
            if not isinstance(rec, dict) or "type" not in rec:
                raise Malformed(f"{path}:{lineno}: record without a type")
            records.append(rec)
    if not records:
        raise Malformed(f"{path}: empty")
    return records


def run_record(records):
    first = records[0]
    if first.get("type") != "run":
        raise Malformed("first record is not of type run")
    schema = str(first.get("schema", ""))
    if schema != SCHEMA_MAJOR and not schema.startswith(SCHEMA_MAJOR + "."):
        raise Malformed(f"unknown schema {schema!r}, expected {SCHEMA_MAJOR}")
    return first


def find_result(records, kernel, nbytes, variant=None):
    for rec in records:
        if (rec.get("type") == "result" and rec.get("kernel") == kernel
                and rec.get("bytes") == nbytes
                and (variant is None or rec.get("variant") == variant)):
            return rec
    return None


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    path, query, args = argv[1], argv[2], argv[3:]
    try:
        records = load(path)
        run = run_record(records)
        if query == "check":
            if records[-1].get("type") != "end":
                raise Malformed("last record is not of type end")
            print("ok")
        elif query == "end":
            last = records[-1]
            print(last.get("status", "missing") if last.get("type") == "end" else "missing")
        elif query == "nranks":
            print(len(run.get("ranks", [])))
        elif query == "hosts":
            ranks = sorted(run.get("ranks", []), key=lambda r: r.get("rank", 0))
            print(",".join(str(r.get("host", "")) for r in ranks))
        elif query == "warnings":
            for w in run.get("warnings", []):
                print(w)
        elif query == "profile":
            print(json.dumps(run.get("link_profile")))
        elif query == "mbps-best":
            if len(args) not in (2, 3):
                return 2
            rec = find_result(records, args[0], int(args[1]), args[2] if len(args) == 3 else None)
            t = (rec or {}).get("t_usec", {}).get("min")
            if not t:
                print(f"no t_usec.min for {args[0]} {args[1]} bytes", file=sys.stderr)
                return 1
            print(rec.get("bytes_factor", 1) * int(args[1]) / t)
        elif query in ("status", "mbps", "result-nranks"):
            if len(args) != 2:
                return 2
            rec = find_result(records, args[0], int(args[1]))
            if query == "status":
                print(rec.get("status", "missing") if rec else "missing")
            else:
                key = "mbytes_per_sec" if query == "mbps" else "nranks"
                if rec is None or key not in rec:
                    print(f"no {key} for {args[0]} {args[1]} bytes", file=sys.stderr)
                    return 1
                print(rec[key])
        elif query == "kernels-ok":
            if len(args) != 2:
                return 2
            for kernel in args[0].split(","):
                for nbytes in (int(b) for b in args[1].split(",")):
                    rec = find_result(records, kernel, nbytes)
                    status = rec.get("status", "missing") if rec else "missing"
                    if status != "ok":
                        print(f"{kernel}:{nbytes}={status}")
                        return 1
            print("ok")
        else:
            print(f"unknown query {query!r}", file=sys.stderr)
            return 2
    except (OSError, Malformed, ValueError) as e:
        print(f"p2pb_results: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
