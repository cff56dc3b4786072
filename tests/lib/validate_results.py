#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Check p2pbench results files against docs/results.schema.json.

Usage: validate_results.py SCHEMA FILE...

Each line of each FILE must be one JSON object valid under the schema's
definition for its "type" (run, result, end); the run record comes first,
the end record (if any) last, result records between. Prints one line per
problem (FILE:LINE: where: message) and, at the end, "N files, N records
valid" or "N problems"; exit 0 when there is none, 1 otherwise, 2 when the
schema itself is not a valid draft 2020-12 schema or python3-jsonschema is
missing.
"""

import json
import sys

try:
    from jsonschema import Draft202012Validator
except ImportError:
    print("python3-jsonschema is missing (scripts/deps.sh test installs it)")
    sys.exit(2)


def validators(schema):
    """{record type: validator of $defs/<type>, refs resolved in schema}."""
    Draft202012Validator.check_schema(schema)
    out = {}
    for kind in ("run", "result", "end"):
        sub = dict(schema)
        sub.pop("oneOf", None)
        sub["$ref"] = "#/$defs/" + kind
        out[kind] = Draft202012Validator(sub)
    return out


def check_file(path, vals):
    """Problems of one file, as strings; and its record count."""
    problems = []
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    if not lines:
        return [f"{path}: empty file"], 0
    for n, line in enumerate(lines, 1):
        where = f"{path}:{n}"
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as e:
            problems.append(f"{where}: not JSON: {e}")
            continue
        kind = rec.get("type") if isinstance(rec, dict) else None
        if kind not in vals:
            problems.append(f"{where}: no record type run/result/end: {line[:80]}")
            continue
        if (kind == "run") != (n == 1):
            problems.append(f"{where}: the run record must be the first line and only there")
        if kind == "end" and n != len(lines):
            problems.append(f"{where}: the end record must be the last line")
        for e in sorted(vals[kind].iter_errors(rec), key=lambda e: list(e.absolute_path)):
            loc = "/".join(str(p) for p in e.absolute_path) or "(record)"
            msg = e.message
            if e.validator == "not":  # e.message would repeat the whole record
                msg = "holds a field the schema forbids here: not " + json.dumps(e.validator_value)
            problems.append(f"{where}: {kind} {loc}: {msg[:300]}")
    return problems, len(lines)


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[2])
        return 2
    with open(argv[1], encoding="utf-8") as f:
        vals = validators(json.load(f))
    problems, records = [], 0
    for path in argv[2:]:
        p, n = check_file(path, vals)
        problems += p
        records += n
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} problems")
        return 1
    print(f"{len(argv) - 2} files, {records} records valid")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
