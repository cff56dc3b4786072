#!/bin/sh
# SPDX-License-Identifier: MIT
# Tests of the notes p2pbench-report show and compare print beside the rows
# (no MPI): the placement probe's floor and the bounds. Usage:
#   report_notes_tests.sh TEST REPORT_BIN SOURCE_DIR WORK_DIR
# TEST: probe | bound
# shellcheck source=SCRIPTDIR/report_lib.sh
. "$3/tests/report/report_lib.sh"

case $test in
probe)
    # the placement probe (docs/host-context.md): hand-made run records whose
    # probe of ranks 0-1 is 45 ns (batches 44, 45, 46) or 220 ns (200, 220, 240);
    # the floor, which compare groups by, is the fastest batch: 44 or 200 ns
    near45='"placement_probe":{"method":"m","round_trips_per_batch":300,"batches":11,"cap_ms":5,"cost_ms":1,"pairs":[{"ranks":[0,1],"cpus":[0,1],"migrated":false,"host":"h0","one_way_ns":45,"one_way_min_ns":44,"batches_ns":[44,45,46],"complete":false}]}'
    far220='"placement_probe":{"method":"m","round_trips_per_batch":300,"batches":11,"cap_ms":5,"cost_ms":1,"pairs":[{"ranks":[0,1],"cpus":[0,2],"migrated":false,"host":"h0","one_way_ns":220,"one_way_min_ns":200,"batches_ns":[200,220,240],"complete":false}]}'
    # side bi: 3 launches near (t x 1.0), 3 far (t x 3.0): bimodal, split by the probe
    GEN_RUN=$near45 gen bi near bi 3 1.0
    GEN_RUN=$far220 gen bi far bi 3 3.0
    # side one: 4 launches, all near: one group
    GEN_RUN=$near45 gen one one one 4 1.0
    expect_status 0 "$bin" compare bi --vs one
    # group 1: 0-byte PingPong t = 1.004, 1.008, 1.012 (median 1.008, printed 1.01);
    # group 2: 3 x those (3.024, printed 3.02)
    grep -q '^# warning: placement on side A (bi): its launches fall into 2 groups by the placement probe of ranks 0-1 (cache-line one-way latency between their CPUs, fastest batch; a gap of more than 2x between sorted values): 3 launches at 44.00 ns, PingPong 0 bytes median t 1.01 usec; 3 launches at 200.00 ns, PingPong 0 bytes median t 3.02 usec; the likely cause of a bimodal side' out.txt ||
        fail "compare: no group note for side A: $(grep -i 'placement' out.txt)"
    grep -q 'placement on side B' out.txt && fail "compare: side B (one group) has a group note"
    grep -q 'placement_probe' out.txt && fail "compare: the probe listed as a context difference"
    grep -q 'placement differs between the sides' out.txt && fail "compare: bi (near and far) against one (near): sides apart"
    # side far: 3 launches, all far: its probe (200 ns) and one's (44 ns) fall
    # into different groups, a context difference of the sides
    GEN_RUN=$far220 gen far far far 3 1.0
    expect_status 0 "$bin" compare far --vs one
    grep -q '^# warning: placement differs between the sides: the placement probe of ranks 0-1 (cache-line one-way latency between their CPUs, fastest batch; median of the launches) is 200.00 ns on side A (far) and 44.00 ns on side B (one), more than 2x apart' out.txt ||
        fail "compare: sides apart by the probe: $(grep -i 'placement' out.txt)"
    # the other way round, and markdown and json carry it too
    expect_status 0 "$bin" compare one --vs bi -f markdown
    grep -q '^warning: placement on side B (bi): its launches fall into 2 groups' out.txt ||
        fail "compare markdown: no group note: $(grep -i 'placement' out.txt)"
    expect_status 0 "$bin" compare one --vs bi -f json
    grep -q 'placement on side B (bi): its launches fall into 2 groups' out.txt || fail "compare json: no group note"
    # a side without a probe (files before it, imports): no note
    gen plain plain plain 4 1.0
    expect_status 0 "$bin" compare plain --vs one
    grep -q 'placement probe' out.txt && fail "compare: a note without two groups: $(grep 'placement probe' out.txt)"
    # html: the note and the probe fact of the first launch
    expect_status 0 "$bin" html bi --vs one -o r.html
    grep -q 'its launches fall into 2 groups by the placement probe' r.html || fail "html: no group note"
    grep -q '<th>placement probe (first launch)</th><td>ranks 0-1: 220.00 ns one-way (CPUs 0, 2)</td><td>ranks 0-1: 45.00 ns one-way (CPUs 0, 1)</td>' r.html ||
        fail "html: probe fact: $(grep -o '<th>placement probe[^/]*/th>.\{0,120\}' r.html)"
    # show: the probe line in the header, the floor under PingPong (t = half a
    # round trip), not under Sendrecv; a floor of 2000 ns (the fastest of 2000,
    # 7000, 2100) lies above the 0-byte row (1.004 usec) and below the 1024-byte
    # row (2.032 usec): one row marked f
    expect_status 0 "$bin" show bi/near-01.jsonl
    grep -q '^# placement probe: ranks 0-1 (CPUs 0 and 1): cache-line one-way 45.00 ns (median of 3 batches, min 44.00 ns), cut short by its time cap$' out.txt ||
        fail "show: probe line: $(grep 'placement probe' out.txt)"
    eq "$(grep -c '^# placement probe: ranks 0-1 cache-line one-way 44.00 ns (its fastest batch: floor of 0-byte latency' out.txt)" 1 "show: floor lines"
    grep -q '^# nf:' out.txt && fail "show: a row below a floor of 45 ns"
    sed 's/"batches_ns":\[44,45,46\]/"batches_ns":[2000,7000,2100]/' bi/near-01.jsonl >floor.jsonl
    expect_status 0 "$bin" show floor.jsonl
    grep -q '^           0     20f ' out.txt || fail "show: the 0-byte row is not marked f: $(grep '^           0 ' out.txt)"
    grep -q '^        1024     20f' out.txt && fail "show: the 1024-byte row (above the floor) marked f"
    grep -q '^# nf: 1 row whose median t lies below the placement probe.s floor' out.txt ||
        fail "show: nf line: $(grep '^# nf' out.txt)"
    ;;
bound)
    # the bound beside each row (docs/kernels.md, "Bounds"): hand-made rows with a
    # bound; side bad has the 1024-byte rows (PingPong, Sendrecv) of its first launch above 105%
    gen good good good 4 1.0
    gen bad bad bad 4 1.0
    for f in good/*.jsonl bad/*.jsonl; do
        python3 -c '
import json, sys
out = []
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("type") == "result" and r.get("status") == "ok":
        over = sys.argv[2] == "1" and r["bytes"] == 1024
        pct = 130.0 if over else 40.0
        r["bound"] = {"mbytes_per_sec": 1000.0, "source": "copy", "percent": pct, "exceeds": over}
    out.append(json.dumps(r))
open(sys.argv[1], "w").write("\n".join(out) + "\n")
' "$f" "$(case $f in bad/bad-01.jsonl) echo 1 ;; *) echo 0 ;; esac)" || fail "cannot edit $f"
    done
    expect_status 0 "$bin" compare bad --vs good
    grep -q '^# warning: exceeds bound on side A (bad): 2 rows above 105% of the most the hardware allows, the first PingPong 1K at 130% (bad/bad-01.jsonl): a likely measurement error, not a result$' out.txt ||
        fail "compare: no exceeds-bound warning: $(grep -i 'bound' out.txt)"
    grep -q 'exceeds bound on side B' out.txt && fail "compare: side B (no row above) warned"
    expect_status 0 "$bin" compare good --vs bad -f json
    grep -q 'exceeds bound on side B (bad): 2 rows' out.txt || fail "compare json: no exceeds-bound warning"
    # show: the %bound column, the flag on the row and the note under the tables
    expect_status 0 "$bin" show bad/bad-01.jsonl
    grep -q '%bound$' out.txt || fail "show: no %bound column: $(grep 'MB/s' out.txt | head -1)"
    grep -q '^        1024 .* 130.0% exceeds bound$' out.txt || fail "show: the 1024-byte row not flagged: $(grep '^        1024 ' out.txt)"
    grep -q '^           0 .*  40.0%$' out.txt || fail "show: the 0-byte row: $(grep '^           0 ' out.txt)"
    grep -q '^# exceeds bound: 2 rows above 105% of the most the hardware allows' out.txt ||
        fail "show: no note under the tables"
    # every other format says it too
    for fmt in imb osu; do
        expect_status 0 "$bin" show -f $fmt bad/bad-01.jsonl
        grep -q '^# exceeds bound: 2 rows above 105%.*the first PingPong, 1024 bytes, at 130%: a likely measurement error' out.txt ||
            fail "show -f $fmt: no exceeds-bound line"
    done
    expect_status 0 "$bin" show -f markdown bad/bad-01.jsonl
    grep -q '^- exceeds bound: 2 rows above 105%' out.txt || fail "show -f markdown: no exceeds-bound line"
    expect_status 0 "$bin" show -f osu good/good-01.jsonl
    grep -q 'exceeds bound' out.txt && fail "show -f osu: a note without a row above its bound"
    # csv: the bound columns
    expect_status 0 "$bin" show -f csv bad/bad-01.jsonl
    grep -q ',1000,copy,130,1,,,,,,$' out.txt || fail "show csv: bound columns: $(grep ',1024,' out.txt | head -1)"
    ;;
*)
    echo "unknown test $test" >&2; exit 2 ;;
esac
report_done
