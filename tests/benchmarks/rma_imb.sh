#!/bin/sh
# SPDX-License-Identifier: MIT
# The one-sided kernels in -f imb (IMB-EXT's tables: docs/kernels.md, "IMB
# layout") against the results file of the same run, read by hand below:
# table names, MODE lines, the sync / window line, columns; t[usec] = t_max / W (aggregate) or t_max,
# Mbytes/sec = X / that t; policy.rma_sync / rma_window and the rows'
# variant; and a bad --rma-window value refused on every rank.
# Usage: rma_imb.sh MPIEXEC NPFLAG P2PBENCH OUTPREFIX [OVERSUBSCRIBE]
# shellcheck disable=SC2015
set -u
# shellcheck source=SCRIPTDIR/../lib/driver.sh
. "$(dirname "$0")/../lib/driver.sh" # pass, fail, fatal, summary
run="$1"; np="$2"; prog="$3"; out="$4"; over="${5:-}"
FATAL_SHOW="stderr=$out.err"
rc=0
# shellcheck disable=SC2086
"$run" "$np" 2 $over "$prog" put_latency get_latency put_bw get_bw put_bibw get_bibw -f imb \
    -s 0,1000 --window 4 --samples 3 --rounds 1 --batch 1 --warmup 1 --no-probe --rma-sync pscw \
    -o "$out.jsonl" \
    >"$out.txt" 2>"$out.err" || rc=$?
[ "$rc" = 0 ] || fatal "run exited $rc"
# the script prints its own PASS or FAIL lines
python3 - "$out.txt" "$out.jsonl" <<'PY' && pass || fail "IMB-EXT tables of $out.txt against $out.jsonl"
import json, sys
text = open(sys.argv[1]).read().split("\n")
recs = [json.loads(l) for l in open(sys.argv[2]) if l.strip()]
run = recs[0]
pol = run["policy"]
bad = []
if pol.get("rma_sync") != "pscw" or pol.get("rma_window") != "create":
    bad.append("policy.rma_sync / rma_window: %r %r" % (pol.get("rma_sync"), pol.get("rma_window")))
# expected tables, in run order: (IMB name, mode, transfers per origin, origins)
want = [("Unidir_Put", "NON-AGGREGATE", 1, 1), ("Unidir_Get", "NON-AGGREGATE", 1, 1),
        ("Unidir_Put", "AGGREGATE", 4, 1), ("Unidir_Get", "AGGREGATE", 4, 1),
        ("Bidir_Put", "AGGREGATE", 4, 2), ("Bidir_Get", "AGGREGATE", 4, 2)]
kernels = ["put_latency", "get_latency", "put_bw", "get_bw", "put_bibw", "get_bibw"]
heads = [i for i, l in enumerate(text) if l.startswith("# Benchmarking ")]
if len(heads) != 6:
    bad.append("%d tables, want 6" % len(heads))
for n, i in enumerate(heads[:6]):
    name, mode, w, origins = want[n]
    block = text[i:i + 10]
    if block[0] != "# Benchmarking " + name or block[1] != "# #processes = 2":
        bad.append("table %d: %r" % (n, block[:2]))
    if block[3:6] != ["#", "#    MODE: " + mode, "#"]:
        bad.append("table %d: MODE lines %r" % (n, block[3:6]))
    line = "# p2pbench: sync=pscw win=create" + (" window=4 (--rma-sync, --rma-window, --window)"
                                                  if mode == "AGGREGATE" else " (--rma-sync, --rma-window)")
    if block[6] != line:
        bad.append("table %d: no sync / window line: %r" % (n, block[6]))
    if block[7].split() != ["#bytes", "#repetitions", "t[usec]", "Mbytes/sec"]:
        bad.append("table %d: columns %r" % (n, block[7]))
    rows = {r["bytes"]: r for r in recs if r.get("type") == "result" and r["kernel"] == kernels[n]}
    for line in block[8:10]:
        x, reps, t, mbs = line.split()
        r = rows[int(x)]
        if r.get("variant") != "sync=pscw win=create":
            bad.append("%s: variant %r" % (kernels[n], r.get("variant")))
        tw = r["t_max_usec"] / w
        mw = int(x) / tw if tw > 0 else 0.0
        if abs(float(t) - tw) > 0.006 or abs(float(mbs) - mw) > 0.006 + 1e-6 * mw:
            bad.append("%s %s B: printed t %s MB/s %s, want %.2f %.2f" % (kernels[n], x, t, mbs, tw, mw))
        if int(reps) != r["repetitions"]:
            bad.append("%s %s B: repetitions %s" % (kernels[n], x, reps))
for b in bad:
    print("FAIL:", b)
if bad:
    sys.exit(1)
print("PASS: 6 IMB-EXT tables")
PY
# a bad value: one line naming it, non-zero exit, no hang
# shellcheck disable=SC2086
if "$run" "$np" 2 $over "$prog" put_bw --rma-window shared --no-results >"$out.bad" 2>&1; then
    fail "--rma-window shared accepted"
else
    pass "--rma-window shared refused"
fi
if grep -q "invalid value 'shared' for --rma-window (create, allocate, dynamic)" "$out.bad"; then
    pass "--rma-window shared: the message names it"
else
    fail "message"
    cat "$out.bad"
fi
summary
