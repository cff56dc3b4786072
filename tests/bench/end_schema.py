#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Check the end records of p2pbench results files against the field table
of docs/output-format.md, section 3 ("End record").

Usage: end_schema.py DOC FILE [WANT]...

DOC is docs/output-format.md. Each FILE's last record must be an end record
whose fields are all in the table, with every field the table marks
"always", every "aborted" field when its status is aborted, every "timeout"
field when its reason is timeout; a field whose meaning says "one of" must
hold one of the `values` listed there. WANT words (KEY=JSON, e.g.
reason='"timeout"' or ranks='[2]') must match the last FILE's end record.
Prints one line per problem; exit 0 when there is none, 1 otherwise.
"""

import json
import re
import sys


def doc_fields(path):
    """{field: (when, [allowed values] or None)} from the section's table."""
    text = open(path, encoding="utf-8").read()
    sec = text.split("## 3. End record", 1)[1].split("\n## ", 1)[0]
    fields = {}
    for line in sec.splitlines():
        m = re.match(r"^\| `(\w+)` \| (always|aborted|timeout|kernels) \| (.*) \|$", line)
        if not m:
            continue
        name, when, meaning = m.groups()
        values = None
        if meaning.startswith("one of "):
            values = re.findall(r"`(\w+)`", meaning)
        fields[name] = (when, values)
    return fields


def check(fields, path):
    problems = []
    with open(path, encoding="utf-8") as f:
        lines = [ln for ln in f if ln.strip()]
    end = json.loads(lines[-1]) if lines else {}
    if end.get("type") != "end":
        return [f"{path}: last record is not an end record"], end
    for key in end:
        if key not in fields:
            problems.append(f"{path}: field '{key}' is not in the documented end record")
    aborted = end.get("status") == "aborted"
    timeout = end.get("reason") == "timeout"
    for name, (when, values) in fields.items():
        due = when == "always" or (when == "aborted" and aborted) or (when == "timeout" and timeout)
        if due and name not in end:
            problems.append(f"{path}: '{name}' missing ({when}): {lines[-1].strip()}")
        if name in end and values is not None and end[name] not in values:
            problems.append(f"{path}: '{name}' is {end[name]!r}, not one of {values}")
    if aborted:
        if not isinstance(end.get("ranks"), list) or end.get("rank") != 0:
            problems.append(f"{path}: 'rank' must be 0 and 'ranks' an array")
        if (end.get("kernel") is None) != (end.get("bytes") is None):
            problems.append(f"{path}: 'kernel' and 'bytes' must be null together")
    return problems, end


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    fields = doc_fields(argv[1])
    if not {"type", "status", "reason", "kernel", "bytes", "ranks"} <= set(fields):
        print(f"{argv[1]}: end record table not found or incomplete: {sorted(fields)}")
        return 1
    files = [a for a in argv[2:] if "=" not in a]
    wants = [a for a in argv[2:] if "=" in a]
    problems, end = [], {}
    for path in files:
        p, end = check(fields, path)
        problems += p
    for want in wants:
        key, val = want.split("=", 1)
        if end.get(key) != json.loads(val):
            problems.append(f"{files[-1]}: {key} is {end.get(key)!r}, want {val}")
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
