#!/bin/sh
# SPDX-License-Identifier: MIT
# Tests of p2pbench-report (no MPI). Usage:
#   report_tests.sh TEST REPORT_BIN SOURCE_DIR WORK_DIR
# TEST: golden | synthetic | import | cases | roundtrip | errors | plot | campaign | order | incomplete | html
# Set UPDATE_GOLDEN=1 to rewrite the golden files instead of comparing.
set -u
test=$1 bin=$2 src=$3 work=$4
here="$src/tests/report"
golden="$src/tests/golden/report"
cases="$src/tests/data/cases"
# fail, skip, sanitizer_check, and expect_status CODE CMD... (stdout in out.txt,
# stderr in err.txt, a sanitizer report is a failure)
# shellcheck source=SCRIPTDIR/../lib/driver.sh
. "$src/tests/lib/driver.sh"
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1

# golden NAME: compare out.txt with the golden file
golden() {
    if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
        cp out.txt "$golden/$1"
    elif ! diff -u "$golden/$1" out.txt >diff.txt; then
        fail "golden $1 differs:"; head -40 diff.txt
    fi
}
# csvval FILE KERNEL VARIANT BYTES COLUMN: one field of `show -f csv`
csvval() {
    "$bin" show -f csv "$1" 2>/dev/null | awk -F, -v k="$2" -v v="$3" -v b="$4" -v c="$5" '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $3 == k && $4 == v && $5 == b { print $(col[c]); exit }'
}
rows() { "$bin" show -f csv "$1" 2>/dev/null | awk -F, -v k="$2" -v v="$3" 'NR > 1 && $3 == k && $4 == v' | wc -l; }
# near GOT WANT TOL WHAT
near() {
    awk -v g="$1" -v w="$2" -v t="$3" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(g != "" && d <= t) }' ||
        fail "$4: got '$1', want $2 (+-$3)"
}
eq() { [ "$1" = "$2" ] || fail "$3: got '$1', want '$2'"; }

gen() { sh "$here/gen_launches.sh" "$@"; }

case $test in
golden)
    gen a a native 6 1.0
    gen b b domU 6 1.2 2
    for f in text csv markdown json imb; do
        expect_status 0 "$bin" show -f $f a/a-01.jsonl; golden show-$f.txt
    done
    expect_status 0 "$bin" show -m latency a/a-01.jsonl b/b-01.jsonl; golden show-metric-latency.txt
    expect_status 0 "$bin" show -m throughput -f markdown a/a-01.jsonl b/b-01.jsonl
    golden show-metric-throughput.md
    for f in text markdown csv json; do
        expect_status 0 "$bin" compare a --vs b -f $f; golden compare-$f.txt
    done
    # an incomplete file: rows as far as they go, a warning naming file and rows
    GEN_END=none gen c c cut 1 1.0
    head -5 c/c-01.jsonl >c/cut.jsonl
    expect_status 0 "$bin" show c/cut.jsonl
    grep -q "warning: c/cut.jsonl: no end record.*read 4 rows" err.txt || fail "no warning for a cut file: $(cat err.txt)"
    ;;
synthetic)
    gen a a base 6 1.0
    gen same same base2 6 1.0 3
    gen slow slow slow 6 1.2 2
    gen fast fast fast 6 0.8 1
    gen three3 three3 t3 3 1.0
    gen slow3 slow3 s3 3 1.2
    # identical groups: no "changed"
    expect_status 0 "$bin" compare a --vs same
    grep -q "changed (" out.txt && fail "identical groups gave 'changed'"
    eq "$(grep -c '  equivalent$' out.txt)" 14 "identical groups: equivalent rows"
    # 20% slower: changed (worse) at every size with a number (8 latency + 6 throughput rows)
    expect_status 1 "$bin" compare a --vs slow --fail-on-regression
    eq "$(grep -c 'changed (worse)' out.txt)" 14 "20% slower: changed rows"
    grep -q "p_adj = Holm" out.txt || fail "--fail-on-regression must use Holm"
    expect_status 0 "$bin" compare a --vs slow
    grep -q "p_adj = Benjamini-Hochberg" out.txt || fail "default must be Benjamini-Hochberg"
    eq "$(grep -c 'changed (worse)' out.txt)" 14 "20% slower (BH): changed rows"
    # ratio of every latency row 1.200
    eq "$(grep -c ' 1.200 \[' out.txt)" 8 "latency ratio 1.200"
    # the rows' CPU frequency: one line under the tables with its range
    sed 's/"bytes":0,/"bytes":0,"disturbance":{"steal_pct":0,"invol_ctxsw":0,"migrations":0,"worst_rank":-1,"cpu_mhz":1500,"cpu_mhz_source":"cpufreq"},/; s/"bytes":1024,/"bytes":1024,"disturbance":{"steal_pct":0,"invol_ctxsw":0,"migrations":0,"worst_rank":-1,"cpu_mhz":2400.4,"cpu_mhz_source":"aperf_mperf"},/' \
        a/a-01.jsonl >mhz.jsonl
    expect_status 0 "$bin" show mhz.jsonl
    grep -q '^# CPU frequency: 1500-2400 MHz over 4 rows (the lowest rank.s, from APERF/MPERF' out.txt ||
        fail "CPU frequency note: $(grep -i 'frequency' out.txt)"
    expect_status 0 "$bin" compare mhz.jsonl --vs a/a-01.jsonl
    grep -q '^# CPU frequency while measured (disturbance.cpu_mhz): A 1500-2400 MHz, B unknown$' out.txt ||
        fail "compare: CPU frequency line: $(grep -i 'frequency' out.txt)"
    # faster is changed (better) and passes the gate
    expect_status 0 "$bin" compare a --vs fast --fail-on-regression
    eq "$(grep -c 'changed (better)' out.txt)" 14 "20% faster: changed (better) rows"
    expect_status 0 "$bin" compare a --vs same --fail-on-regression
    # nothing in common (another kernel on side B): the gate cannot pass
    sed 's/"kernel":"pingpong"/"kernel":"pingping"/; s/"kernel":"sendrecv"/"kernel":"exchange"/' \
        a/a-01.jsonl >other.jsonl
    expect_status 1 "$bin" compare a/a-01.jsonl --vs other.jsonl --fail-on-regression
    grep -q "error: --fail-on-regression: no (kernel, size) has numbers on both sides: nothing was compared" err.txt ||
        fail "nothing compared: $(cat err.txt)"
    # 3 launches per side: ratio shown, no verdict
    expect_status 2 "$bin" compare three3 --vs slow3 --fail-on-regression
    grep -q "error: --fail-on-regression cannot detect a regression" err.txt \
        || fail "3 launches: the gate must refuse to pass blind: $(cat err.txt)"
    eq "$(grep -c 'no verdict (< 4 launches)' out.txt)" 14 "3 launches: no verdict rows"
    grep -q "changed (" out.txt && fail "3 launches gave a verdict"
    grep -q " 1.200 " out.txt || fail "3 launches: ratio not shown"
    # 4 vs 4 launches, 8 latency rows, Holm: the floor is 8 x 2/70 = 0.229, so the
    # gate cannot fail: exit 2 with the launch count it needs (6: 8 x 2/924 = 0.017)
    gen four4 four4 f4 4 1.0
    gen slow4 slow4 s4 4 1.2
    expect_status 2 "$bin" compare four4 --vs slow4 --fail-on-regression
    grep -q "smallest reachable p_adj is 0.229; use at least 6 launches per side" err.txt \
        || fail "4 vs 4 gate: $(cat err.txt)"
    expect_status 0 "$bin" compare four4 --vs slow4
    grep -q "changed (worse)" out.txt || fail "4 vs 4 with BH should still find the 20% slowdown"
    # threshold: 25% makes the 20% slowdown inconclusive
    expect_status 0 "$bin" compare a --vs slow -t 25
    grep -q "changed (" out.txt && fail "-t 25 still says changed"
    # context differences are listed
    GEN_KREL=2.6.10 GEN_MEM=377487360 gen dom dom domU 4 1.0
    GEN_KREL=2.4.29 GEN_MEM=536870912 gen nat nat native 4 1.0
    expect_status 0 "$bin" compare nat --vs dom
    grep -q "hosts\[0\].kernel_release: native = 2.4.29 | domU = 2.6.10" out.txt || fail "kernel release difference not listed"
    grep -q "hosts\[0\].memory_bytes: native = 536870912 | domU = 377487360" out.txt || fail "memory difference not listed"
    # two runs that differ in one host knob (THP) only: that difference and no other
    GEN_THP=always gen thpon thpon thp-on 4 1.0
    GEN_THP=never gen thpoff thpoff thp-off 4 1.0
    expect_status 0 "$bin" compare thpon --vs thpoff
    grep -q "hosts\[0\].knobs.thp_enabled: thp-on = always | thp-off = never" out.txt \
        || fail "THP difference not listed: $(cat out.txt)"
    grep -q "numa_balancing\|kernel_release:\|memory_bytes:" out.txt && fail "knobs that agree listed as differences"
    # rows on one side only are listed
    head -5 a/a-01.jsonl >one.jsonl
    expect_status 0 "$bin" compare one.jsonl --vs slow/slow-01.jsonl
    grep -q "one side only" out.txt || fail "one-sided rows not listed"
    grep -q "Sendrecv 0 .. 1048576 (0 .. 1M), 4 sizes: slow" out.txt || fail "Sendrecv should be listed as slow-only"
    head -4 a/a-01.jsonl >one2.jsonl
    expect_status 0 "$bin" compare one2.jsonl --vs slow/slow-01.jsonl
    grep -q "PingPong 1048576 (1M): slow" out.txt || fail "PingPong 1M should be listed as slow-only"
    # json output parses and has all rows
    expect_status 0 "$bin" compare a --vs slow -f json
    grep -c '"metric":' out.txt | grep -qx 16 || fail "json: want 16 rows"
    ;;
import)
    expect_status 0 "$bin" import "$cases"/*.txt -o .
    cp err.txt import-messages.txt
    for f in *.jsonl; do expect_status 0 "$bin" show "$f"; done  # every file reads back (p2pb_results_read)
    # case02: IMB 4.1, four kernels x 24 sizes, collectives skipped with a note
    for k in pingpong pingping sendrecv exchange; do eq "$(rows case02.jsonl $k '')" 24 "case02 $k rows"; done
    grep -q "case02.txt: note: 13 tables of other benchmarks skipped.*Allreduce.*Barrier" import-messages.txt || fail "case02 collectives note"
    near "$(csvval case02.jsonl pingpong '' 4194304 t_median_usec)" 36946.39 0.001 "case02 PingPong 4M t"
    near "$(csvval case02.jsonl sendrecv '' 1024 imb_t_min_usec)" 342.37 0.001 "case02 Sendrecv 1K t_min"
    near "$(csvval case02.jsonl sendrecv '' 1024 imb_t_max_usec)" 342.40 0.001 "case02 Sendrecv 1K t_max"
    near "$(csvval case02.jsonl sendrecv '' 1024 imb_t_avg_usec)" 342.38 0.001 "case02 Sendrecv 1K t_avg"
    near "$(csvval case02.jsonl exchange '' 4194304 t_median_usec)" 120539.31 0.001 "case02 Exchange 4M t (= t_max)"
    eq "$(csvval case02.jsonl pingpong '' 65536 repetitions)" 640 "case02 PingPong 64K repetitions"
    # the rows of this IMB 4.1 log fit 1 MB = 2^20 B: 108.26 x 1.048576 = 113.5188
    near "$(csvval case02.jsonl pingpong '' 4194304 mbytes_per_sec)" 113.5188 0.001 "case02 PingPong 4M MB/s"
    grep -q '"release":"4.3.0-rc5"' case02.jsonl || fail "case02 header release"
    grep -q '"machine":"aarch64"' case02.jsonl || fail "case02 header machine"
    grep -q '"source":"imb-4.1"' case02.jsonl || fail "case02 source"
    # case04: IMB 2019 U5, 10^6 B as logged; the drop at 256K is kept
    eq "$(rows case04.jsonl pingpong '')" 24 "case04 rows"
    near "$(csvval case04.jsonl pingpong '' 131072 mbytes_per_sec)" 5628.98 0.001 "case04 128K MB/s"
    near "$(csvval case04.jsonl pingpong '' 262144 mbytes_per_sec)" 3422.21 0.001 "case04 256K MB/s"
    near "$(csvval case04.jsonl pingpong '' 262144 t_median_usec)" 76.60 0.001 "case04 256K t"
    grep -q '"calling_sequence":"IMB-MPI1 pingpong"' case04.jsonl || fail "case04 calling sequence"
    # case06: OSU 5.6.2 bibw, every row kept
    eq "$(rows case06.jsonl osu_bibw '')" 23 "case06 rows"
    near "$(csvval case06.jsonl osu_bibw '' 4096 mbytes_per_sec)" 249.63 0.001 "case06 4K"
    near "$(csvval case06.jsonl osu_bibw '' 8192 mbytes_per_sec)" 6660.37 0.001 "case06 8K"
    near "$(csvval case06.jsonl osu_bibw '' 16384 mbytes_per_sec)" 849.51 0.001 "case06 16K"
    grep -q '"source":"osu-5.6.2"' case06.jsonl || fail "case06 source"
    # case09: Multi-PingPong with t_min/t_max/t_avg, calling sequence kept
    eq "$(rows case09.jsonl pingpong multi)" 2 "case09 rows"
    near "$(csvval case09.jsonl pingpong multi 1024 imb_t_min_usec)" 56.92 0.001 "case09 t_min"
    near "$(csvval case09.jsonl pingpong multi 1024 imb_t_max_usec)" 61.39 0.001 "case09 t_max"
    near "$(csvval case09.jsonl pingpong multi 2048 imb_t_avg_usec)" 66.40 0.001 "case09 t_avg"
    near "$(csvval case09.jsonl pingpong multi 2048 mbytes_per_sec)" 29.77 0.001 "case09 MB/s"
    eq "$(csvval case09.jsonl pingpong multi 1024 repetitions)" 100000 "case09 repetitions"
    grep -q '"calling_sequence":"mpi-benchmarks/IMB-MPI1 -msglog 10:11 -multi 0' case09.jsonl || fail "case09 calling sequence"
    eq "$(csvval case09.jsonl pingpong multi 1024 nranks)" 4 "case09 ranks (2 groups of 2)"
    # case11: PMB inside a harness log; 4 processes, 2 waiting; then -multi 1 with groups
    eq "$(rows case11.jsonl pingpong '')" 24 "case11 plain rows"
    eq "$(rows case11.jsonl pingpong 'group 0')" 24 "case11 group 0 rows"
    eq "$(rows case11.jsonl pingpong 'group 1')" 24 "case11 group 1 rows"
    eq "$(csvval case11.jsonl pingpong '' 1024 nranks)" 4 "case11 nranks"
    eq "$(csvval case11.jsonl pingpong '' 1024 active_ranks)" 2 "case11 active ranks"
    near "$(csvval case11.jsonl pingpong '' 0 t_median_usec)" 10.19 0.001 "case11 0 t"
    near "$(csvval case11.jsonl pingpong 'group 1' 4194304 t_median_usec)" 5693.45 0.001 "case11 group 1 4M t"
    # PMB: 1 MB = 2^20 B: 697.08 x 1.048576 = 730.9415
    near "$(csvval case11.jsonl pingpong '' 4194304 mbytes_per_sec)" 730.9415 0.001 "case11 4M MB/s (converted)"
    grep -q '"units_assumed":"1 MB = 2^20 B (PMB/IMB <= 3.2), converted to 10^6 B"' case11.jsonl || fail "case11 units"
    # case13: OSU 3.3 latency then a crash
    eq "$(rows case13.jsonl osu_latency '')" 24 "case13 rows"
    near "$(csvval case13.jsonl osu_latency '' 4194304 t_median_usec)" 4616.67 0.001 "case13 4M"
    near "$(csvval case13.jsonl osu_latency '' 0 t_median_usec)" 0.76 0.001 "case13 0"
    grep -q "case13.txt: warning: line 28: the log ends in a crash" import-messages.txt || fail "case13 crash warning"
    # seed PMB: two sides, usec despite the millisec label, 2^20 B
    s1=seed-pmb-sendrecv-native-vs-domU-Experiment_1.jsonl s2=seed-pmb-sendrecv-native-vs-domU-Experiment_2.jsonl
    eq "$(rows $s1 sendrecv '')" 24 "seed E1 rows"
    eq "$(rows $s2 sendrecv '')" 24 "seed E2 rows"
    near "$(csvval $s1 sendrecv '' 16384 t_median_usec)" 2096.86 0.001 "seed E1 16K t (usec)"
    near "$(csvval $s2 sendrecv '' 4194304 t_median_usec)" 1503987.61 0.01 "seed E2 4M t"
    near "$(csvval $s1 sendrecv '' 16384 mbytes_per_sec)" 15.6238 0.0001 "seed E1 16K MB/s: 14.9 x 1.048576"
    grep -q "seed-pmb-sendrecv-native-vs-domU.txt: warning: line 28: the latency table says millisec but its values are usec" import-messages.txt || fail "seed millisec warning"
    # seed memcpy: three sides, 16 chunk sizes each
    eq "$(rows seed-memcpy-baremetal-pvhvm-pv-pv.jsonl memcpy '')" 16 "memcpy pv rows"
    grep -q '"kernel":"memcpy","display_name":"Memcpy"' seed-memcpy-baremetal-pvhvm-pv-pv.jsonl ||
        fail "memcpy display name as the descriptor says (Memcpy)"
    near "$(csvval seed-memcpy-baremetal-pvhvm-pv-bare_metal.jsonl memcpy '' 4 t_median_usec)" 5827000 0.5 "memcpy bare metal 4 B (msec -> usec)"
    # hand-written logs in the IMB 3.2 and OSU 7 layouts (tests/data/synthetic/README.md)
    syn="$src/tests/data/synthetic"
    expect_status 0 "$bin" import "$syn/imb32-cut.txt" "$syn/osu7-capture.txt" -o .
    grep -q "imb32-cut.txt: warning: line 38: Sendrecv table cut short" err.txt || fail "imb32 cut-short warning"
    grep -q '"source":"imb-3.2.4"' imb32-cut.jsonl || fail "imb32 source"
    grep -q '"units_assumed":"1 MB = 2^20 B (PMB/IMB <= 3.2), converted to 10^6 B"' imb32-cut.jsonl || fail "imb32 units"
    eq "$(rows imb32-cut.jsonl pingpong '')" 4 "imb32 PingPong rows"
    eq "$(rows imb32-cut.jsonl sendrecv '')" 3 "imb32 Sendrecv rows (partial row dropped)"
    near "$(csvval imb32-cut.jsonl pingpong '' 1048576 mbytes_per_sec)" 5242.88 0.001 "imb32 1M: 5000 x 1.048576"
    near "$(csvval imb32-cut.jsonl sendrecv '' 65536 t_median_usec)" 32 0.001 "imb32 Sendrecv 64K t = t_max"
    eq "$(rows osu7-capture.jsonl osu_latency '')" 4 "osu7 latency rows"
    eq "$(rows osu7-capture.jsonl osu_bw '')" 3 "osu7 bw rows"
    eq "$(rows osu7-capture.jsonl osu_bibw '')" 2 "osu7 bibw rows"
    near "$(csvval osu7-capture.jsonl osu_latency '' 8 t_median_usec)" 0.23 0.0001 "osu7 latency 8 B (avg column)"
    near "$(csvval osu7-capture.jsonl osu_bw '' 1048576 mbytes_per_sec)" 11800.75 0.001 "osu7 bw 1M"
    grep -q '"source":"osu-7.1"' osu7-capture.jsonl || fail "osu7 source"
    expect_status 0 "$bin" import "$syn/imb2018-interleaved.txt" -o .
    grep -q "imb2018-interleaved.txt: line 27: 1 non-data line inside the PingPong table skipped" err.txt || fail "interleaved note: $(cat err.txt)"
    eq "$(rows imb2018-interleaved.jsonl pingpong '')" 4 "interleaved rows"
    near "$(csvval imb2018-interleaved.jsonl pingpong '' 65536 mbytes_per_sec)" 4096 0.001 "interleaved 64K (10^6 B as logged)"
    eq "$(csvval imb2018-interleaved.jsonl pingpong '' 4096 active_ranks)" 2 "interleaved active ranks"
    eq "$(csvval imb2018-interleaved.jsonl pingpong '' 4096 nranks)" 4 "interleaved ranks"
    grep -q "cut short" err.txt && fail "interleaved: no cut-short warning expected"
    ;;
cases)
    # the real logs of tests/data/cases/README.md ("More real logs"), one import each
    imp() { expect_status "$1" "$bin" import "$cases/$2.txt" -o .; cp err.txt "$2.msg"; }
    # case21: IMB 2019 U6 PingPong after an Intel MPI startup line
    imp 0 case21
    eq "$(rows case21.jsonl pingpong '')" 24 "case21 rows"
    eq "$(csvval case21.jsonl pingpong '' 1024 nranks)" 2 "case21 nranks"
    near "$(csvval case21.jsonl pingpong '' 1024 t_median_usec)" 1.72 0.001 "case21 1K t"
    near "$(csvval case21.jsonl pingpong '' 1024 mbytes_per_sec)" 595.82 0.001 "case21 1K MB/s"
    near "$(csvval case21.jsonl pingpong '' 4194304 mbytes_per_sec)" 12069.36 0.001 "case21 4M MB/s"
    eq "$(csvval case21.jsonl pingpong '' 4194304 repetitions)" 10 "case21 4M reps"
    # case22: six Uniband sections, one table per #processes, no time column
    imp 0 case22
    for v in '' 'np 4' 'np 8' 'np 16' 'np 32' 'np 56'; do eq "$(rows case22.jsonl uniband "$v")" 24 "case22 uniband '$v' rows"; done
    near "$(csvval case22.jsonl uniband '' 1 mbytes_per_sec)" 6.01 0.001 "case22 2 ranks 1 B"
    near "$(csvval case22.jsonl uniband '' 4194304 mbytes_per_sec)" 4730.15 0.001 "case22 2 ranks 4M"
    near "$(csvval case22.jsonl uniband 'np 56' 4194304 mbytes_per_sec)" 5786.19 0.001 "case22 56 ranks 4M"
    eq "$(csvval case22.jsonl uniband 'np 56' 4194304 repetitions)" 8 "case22 56 ranks 4M reps"
    eq "$(csvval case22.jsonl uniband 'np 56' 4194304 active_ranks)" 56 "case22 56 ranks active"
    near "$(csvval case22.jsonl uniband '' 1 t_median_usec)" "$(awk 'BEGIN { printf "%.9g", 1e6 / 6005859 }')" 0.000001 "case22 t = 1/(msg/s)"
    # case23: osu_mbw_mr, 1 pair, window 64: its own kernel, never osu_bw
    imp 0 case23
    eq "$(rows case23.jsonl osu_mbw_mr 'pairs 1')" 23 "case23 rows"
    eq "$(rows case23.jsonl osu_bw '')" 0 "case23 is not osu_bw"
    near "$(csvval case23.jsonl osu_mbw_mr 'pairs 1' 1 mbytes_per_sec)" 7.59 0.001 "case23 1 B"
    near "$(csvval case23.jsonl osu_mbw_mr 'pairs 1' 4194304 mbytes_per_sec)" 12069.22 0.001 "case23 4M"
    grep -q '"note":"[^"]*window 64, messages/s 7592221.77"' case23.jsonl || fail "case23 messages/s and window"
    # case24: osu_bibw counts both directions: t = 2 X / rate
    imp 0 case24
    eq "$(rows case24.jsonl osu_bibw '')" 23 "case24 rows"
    near "$(csvval case24.jsonl osu_bibw '' 65536 mbytes_per_sec)" 16349.49 0.001 "case24 64K"
    near "$(csvval case24.jsonl osu_bibw '' 4194304 mbytes_per_sec)" 18666.02 0.001 "case24 4M"
    near "$(csvval case24.jsonl osu_bibw '' 4194304 t_median_usec)" "$(awk 'BEGIN { printf "%.9g", 2 * 4194304 / 18666.02 }')" 0.0001 "case24 4M t"
    # case26, case27: multi-pair and multi-threaded latency, never osu_latency
    imp 0 case26
    eq "$(rows case26.jsonl osu_latency '')" 0 "case26 is not osu_latency"
    near "$(csvval case26.jsonl osu_multi_lat '' 4 t_median_usec)" 0.16 0.0001 "case26 4 B"
    eq "$(csvval case26.jsonl osu_multi_lat '' 8 nranks)" 8 "case26 nranks"
    imp 0 case27
    eq "$(rows case27.jsonl osu_latency '')" 0 "case27 is not osu_latency"
    near "$(csvval case27.jsonl osu_latency_mt 'threads 1:2' 4 t_median_usec)" 40.51 0.0001 "case27 4 B"
    near "$(csvval case27.jsonl osu_latency_mt 'threads 1:2' 8 t_median_usec)" 45.16 0.0001 "case27 8 B"
    # case28 (one-sided OSU), case31 (IMB-EXT): nothing importable, each table named
    imp 1 case28
    grep -q "case28.txt: nothing importable: 1 table of other benchmarks skipped: OSU MPI_Put Bandwidth (one-sided)" err.txt || fail "case28 message: $(cat err.txt)"
    [ -e case28.jsonl ] && fail "case28 wrote a file"
    imp 1 case31
    grep -q "case31.txt: nothing importable: 11 tables of other benchmarks skipped: Window, Unidir_Get x2, Unidir_Put x2, Bidir_Get x2, Bidir_Put x2, Accumulate x2" err.txt || fail "case31 message: $(cat err.txt)"
    grep -c "no IMB, PMB, OSU" err.txt | grep -qx 0 || fail "case31: contradicting last line"
    # case33: OSU 5.8 osu_bw with JSON after the table
    imp 0 case33
    eq "$(rows case33.jsonl osu_bw '')" 23 "case33 rows"
    near "$(csvval case33.jsonl osu_bw '' 1 mbytes_per_sec)" 0.08 0.0001 "case33 1 B"
    near "$(csvval case33.jsonl osu_bw '' 4194304 mbytes_per_sec)" 921.91 0.001 "case33 4M"
    # case35: MPI-CUDA latency, H H: buffers and device API recorded
    imp 0 case35
    eq "$(rows case35.jsonl osu_latency '')" 24 "case35 rows"
    near "$(csvval case35.jsonl osu_latency '' 0 t_median_usec)" 21.91 0.0001 "case35 0 B"
    near "$(csvval case35.jsonl osu_latency '' 4194304 t_median_usec)" 1655.53 0.0001 "case35 4M"
    grep -q '"note":"buffers H H, device API CUDA"' case35.jsonl || fail "case35 buffers"
    grep -q '"device_api":"CUDA"' case35.jsonl || fail "case35 device API"
    # case38: IMB 4.0 with 62 waiting; the rows fit 2^20 B
    imp 0 case38
    eq "$(rows case38.jsonl pingpong '')" 24 "case38 rows"
    eq "$(csvval case38.jsonl pingpong '' 1024 nranks)" 64 "case38 nranks"
    eq "$(csvval case38.jsonl pingpong '' 1024 active_ranks)" 2 "case38 active"
    near "$(csvval case38.jsonl pingpong '' 1024 mbytes_per_sec)" 288.74 0.01 "case38 1K"
    near "$(csvval case38.jsonl pingpong '' 4194304 mbytes_per_sec)" 6211.93 0.01 "case38 4M"
    # case40: IMB 2021.3 PingPong kept, OSU Broadcast skipped, source from IMB
    imp 0 case40
    eq "$(rows case40.jsonl pingpong '')" 24 "case40 rows"
    near "$(csvval case40.jsonl pingpong '' 262144 t_median_usec)" 127.18 0.001 "case40 256K t"
    near "$(csvval case40.jsonl pingpong '' 262144 mbytes_per_sec)" 2061.29 0.001 "case40 256K"
    near "$(csvval case40.jsonl pingpong '' 4194304 mbytes_per_sec)" 10526.36 0.001 "case40 4M"
    eq "$(rows case40.jsonl osu_latency '')" 0 "case40 Broadcast is not osu_latency"
    grep -q '"source":"imb-2021.3"' case40.jsonl || fail "case40 source"
    grep -q "OSU MPI Broadcast Latency (collective)" case40.msg || fail "case40 bcast note"
    # case45: OSU 7.2, "# Datatype" after the header
    imp 0 case45
    eq "$(rows case45.jsonl osu_latency '')" 1 "case45 rows"
    near "$(csvval case45.jsonl osu_latency '' 8192 t_median_usec)" 2.06 0.0001 "case45 8K"
    # import refuses to replace a file, and reads a log named twice once
    expect_status 1 "$bin" import "$cases/case45.txt" -o .
    grep -q "case45.jsonl exists: not replaced" err.txt || fail "overwrite refused: $(cat err.txt)"
    expect_status 0 "$bin" import "$cases/case45.txt" "$cases/case45.txt" -o dup
    eq "$(ls dup)" case45.jsonl "a log named twice gives one file"
    grep -q "named more than once; imported once" err.txt || fail "duplicate note"
    expect_status 0 "$bin" import --force "$cases/case45.txt" -o dup
    ;;
roundtrip)
    # p2pbench's own -f imb output of every kernel of `p2pbench --list` (a 4-rank run,
    # tests/data/roundtrip/): each row's rate as in the results file of that run
    rt="$src/tests/data/roundtrip"
    expect_status 0 "$bin" import "$rt/p2pbench-imb-all.txt" -o .
    grep -q "cut short" err.txt && fail "own output: $(cat err.txt)"
    grep -q '"source":"p2pbench-imb"' p2pbench-imb-all.jsonl || fail "own output source"
    "$bin" show -f csv p2pbench-imb-all.jsonl >own.csv 2>/dev/null
    for k in pingpong pingping sendrecv exchange uniband biband multi-pingpong multi-uniband memcpy; do
        eq "$(awk -F, -v k=$k '$1 == k' "$rt/p2pbench-imb-all.csv" | wc -l)" \
            "$(awk -F, -v k=$k 'NR > 1 && $3 == k' own.csv | wc -l)" "own output: $k rows"
    done
    bad=$(awk -F, 'NR == FNR { if (FNR > 1) want[$1 "," $2 "," $3] = $4; next }
        FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { k = $3 "," $4 "," $5; g = $(c["mbytes_per_sec"]); w = want[k]; d = g - w; if (d < 0) d = -d
          if (!(k in want) || d > 0.01 + 0.005 * w) print k, g, w }' "$rt/p2pbench-imb-all.csv" own.csv)
    [ -z "$bad" ] || fail "own output rates differ from the run's results file: $bad"
    # the layout before IMB's Uniband/-multi tables ("Uniband 0->1", "Multi-PingPong pair 0-1")
    expect_status 0 "$bin" import "$rt/p2pbench-imb-old-layout.txt" -o .
    "$bin" show -f csv p2pbench-imb-old-layout.jsonl >old.csv 2>/dev/null
    bad=$(awk -F, 'NR == FNR { if (FNR > 1) want[$1 "," $2 "," $3] = $4; next }
        FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { k = $3 "," $4 "," $5; g = $(c["mbytes_per_sec"]); w = want[k]; d = g - w; if (d < 0) d = -d; n++
          if (!(k in want) || d > 0.01 + 0.005 * w) print k, g, w }
        END { if (n != 203) print n " rows, want 203" }' "$rt/p2pbench-imb-old-layout.csv" old.csv)
    [ -z "$bad" ] || fail "old own layout: $bad"
    grep -q '"kernel":"uniband","display_name":"Uniband","variant":"0->1","bytes":1024,[^}]*"bytes_factor":64' p2pbench-imb-all.jsonl || fail "uniband window 64"
    grep -q '"fixed_bytes":16777216' p2pbench-imb-all.jsonl || fail "memcpy buffer 16 MiB"
    # values read from the text: Uniband/Biband t of one iteration = messages of a
    # window (64; Biband 128, both ways) / Msg/sec; -multi Group rows by the header's groups
    j=p2pbench-imb-all.jsonl
    near "$(csvval $j uniband 0-\>1 1024 t_median_usec)" 12.85085 0.0001 "Uniband 1K: 64 / 4980215 msg/s"
    near "$(csvval $j uniband 0-\>1 1024 mbytes_per_sec)" 5099.74 0.001 "Uniband 1K MB/s"
    near "$(csvval $j uniband 1-\>0 1024 mbytes_per_sec)" 5379.35 0.001 "Uniband_reverse 1K MB/s"
    near "$(csvval $j biband '' 1024 t_median_usec)" 23.61692 0.0001 "Biband 1K: 128 / 5419843 msg/s"
    near "$(csvval $j biband '' 1024 mbytes_per_sec)" 5549.92 0.001 "Biband 1K MB/s"
    near "$(csvval $j multi-pingpong 'pair 2-3' 1024 t_median_usec)" 0.89 0.0001 "Multi-PingPong group 1 1K t"
    near "$(csvval $j multi-pingpong 'pair 2-3' 1024 mbytes_per_sec)" 1155.31 0.001 "Multi-PingPong group 1 1K"
    near "$(csvval $j multi-pingpong aggregate 1024 mbytes_per_sec)" 2308.34 0.001 "Multi-PingPong_aggregate 1K"
    near "$(csvval $j multi-uniband 2-\>3 1024 mbytes_per_sec)" 2117.42 0.001 "Multi-Uniband group 1 1K"
    near "$(csvval $j multi-uniband 3-\>2 1024 mbytes_per_sec)" 2231.02 0.001 "Multi-Uniband_reverse group 1 1K"
    near "$(csvval $j multi-uniband 'aggregate hi->lo' 1024 t_median_usec)" 50.19 0.0001 "reverse aggregate 1K t"
    near "$(csvval $j multi-uniband 'aggregate hi->lo' 1024 mbytes_per_sec)" 3536.73 0.001 "reverse aggregate 1K"
    near "$(csvval $j memcpy 'rank 0' 1024 t_median_usec)" 1234.09 0.0001 "Memcpy 1K t"
    near "$(csvval $j memcpy 'rank 0' 1024 mbytes_per_sec)" 13594.82 0.001 "Memcpy 1K MB/s"
    expect_status 0 "$bin" import "$cases/seed-pmb-sendrecv-native-vs-domU.txt" -o .
    expect_status 0 "$bin" compare seed-pmb-sendrecv-native-vs-domU-Experiment_1.jsonl --vs seed-pmb-sendrecv-native-vs-domU-Experiment_2.jsonl -f csv
    r=$(awk -F, '$1 == "throughput" && $7 == 16384 { print $16 }' out.txt)
    near "$r" "$(awk 'BEGIN { printf "%.9g", 3.77 / 14.9 }')" 0.000001 "seed 16K throughput ratio 3.77/14.9"
    r=$(awk -F, '$1 == "latency" && $7 == 16384 { print $16 }' out.txt)
    near "$r" "$(awk 'BEGIN { printf "%.9g", 8300.18 / 2096.86 }')" 0.000001 "seed 16K latency ratio (usec both sides)"
    expect_status 0 "$bin" compare seed-pmb-sendrecv-native-vs-domU-Experiment_1.jsonl --vs seed-pmb-sendrecv-native-vs-domU-Experiment_2.jsonl
    grep -q "16384    16K .* 0.253 .*no verdict (< 4 launches)" out.txt || fail "seed text row 16K"
    ;;
errors)
    gen a a base 2 1.0
    : >empty.txt
    printf 'PK\003\004\000\001binary' >junk.bin
    head -c 700 a/a-01.jsonl >trunc.jsonl
    printf '{"type":"run","schema":"p2pbench/9"}\n' >future.jsonl
    printf 'hello\nworld\n' >prose.txt
    expect_status 1 "$bin" import empty.txt -o .
    grep -q "empty.txt:1: empty file" err.txt || fail "empty file message: $(cat err.txt)"
    expect_status 1 "$bin" import "$cases/case04.txt" junk.bin -o .
    grep -q "junk.bin:1: binary data" err.txt || fail "junk message: $(cat err.txt)"
    [ -e case04.jsonl ] && fail "import wrote a file although one input was bad"
    # bytes and repetitions swapped: sizes stop ascending at line 36
    awk 'NR>=34 && NR<=60 && $1 ~ /^[0-9]+$/ {t=$1; $1=$2; $2=t} {print}' "$cases/case04.txt" >swap.txt
    expect_status 1 "$bin" import swap.txt -o .
    grep -q "swap.txt: nothing importable: the PingPong table (line 34) has no valid row (line 35: repetitions 0 below 1)" err.txt \
        || fail "swapped columns: $(cat err.txt)"
    [ -e swap.jsonl ] && fail "import of a swapped table wrote a file"
    # a file that exists is left as it was when an import fails
    echo keep >case06.jsonl
    expect_status 1 "$bin" import "$cases/case06.txt" junk.bin -o .
    eq "$(cat case06.jsonl)" keep "existing file untouched by a failed import"
    rm -f case06.jsonl
    expect_status 1 "$bin" import prose.txt -o .
    grep -q "prose.txt:1: no IMB, PMB, OSU" err.txt || fail "prose message"
    eq "$(wc -l <err.txt)" 1 "one error line"
    expect_status 1 "$bin" import nosuch.txt -o .
    eq "$(cat err.txt)" "p2pbench-report: nosuch.txt: cannot open: No such file or directory" "import of a missing file"
    # a FIFO would block forever (open waits for a writer): refused at once
    mkfifo fifo.jsonl
    for c in show import; do
        expect_status 1 timeout 10 "$bin" $c fifo.jsonl
        eq "$(cat err.txt)" "p2pbench-report: fifo.jsonl: a FIFO: not read (it can block forever); give a regular file" "$c of a FIFO"
    done
    expect_status 1 timeout 10 "$bin" compare fifo.jsonl --vs a/a-01.jsonl
    rm -f fifo.jsonl
    # a directory without results files is named as such (show, compare, plot)
    mkdir -p emptydir
    expect_status 1 "$bin" show emptydir
    eq "$(cat err.txt)" "p2pbench-report: emptydir: no .jsonl results files" "show of an empty directory"
    expect_status 1 "$bin" compare a --vs emptydir
    eq "$(cat err.txt)" "p2pbench-report: emptydir: no .jsonl results files" "compare with an empty directory"
    # one file on both sides of plot is refused as compare refuses it
    expect_status 2 "$bin" plot a/a-01.jsonl --vs ./a/a-01.jsonl -o same.svg
    grep -q "'./a/a-01.jsonl' is the same file as 'a/a-01.jsonl'" err.txt || fail "plot A --vs A: $(cat err.txt)"
    # rows the results-file reader would refuse end their table with a warning naming the line
    hdr='#----\n# Benchmarking PingPong\n#----\n       #bytes #repetitions      t[usec]   Mbytes/sec\n'
    for bad in '8 1000 -0.20 0.00' '8 1000 nan 0.00' '2 1000 1.00 2.00' '4096 1000 1.00 4096000000.00' '8 1e74 1.00 8.00'; do
        printf "$hdr"'            1         1000         1.00         1.00\n            4         1000         1.00         4.00\n%s\n' "$bad" >bad.txt
        expect_status 0 "$bin" import --force bad.txt -o .
        grep -q "bad.txt: warning: line 7: PingPong table (line 4) cut short: .*the 2 rows before it kept" err.txt \
            || fail "bad row '$bad': $(cat err.txt)"
        eq "$(rows bad.jsonl pingpong '')" 2 "bad row '$bad': rows kept"
    done
    # size/value column tables follow the same rules (fuzz_import found a negative value written)
    printf 'Table 1: SendRecv latency (usec)\nMessage_Size(bytes) Experiment_1 Experiment_2\n1 2.0 3.0\n2 2.1 -3.1\n4 2.2 3.2\n' >cols.txt
    expect_status 0 "$bin" import --force cols.txt -o .
    grep -q "cols.txt: warning: line 4: Sendrecv table (line 2) cut short: Experiment_2 -3.1 is negative or not finite; the 1 row before it kept" err.txt ||
        fail "column table negative value: $(cat err.txt)"
    expect_status 0 "$bin" show cols-Experiment_2.jsonl
    printf '#----\n# Benchmarking Sendrecv\n#----\n  #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]   Mbytes/sec\n  1024  10  5.00  4.00  4.50  0.50\n' >minmax.txt
    expect_status 1 "$bin" import minmax.txt -o .
    grep -q "t_min 5, t_avg 4.5, t_max 4 out of order" err.txt || fail "t_min > t_max: $(cat err.txt)"
    # an error line right after a table names it
    printf "$hdr"'            1         1000         1.00         1.00\n[1612] UCX ERROR: transport lost\n' >ucx.txt
    expect_status 0 "$bin" import ucx.txt -o .
    grep -q "ucx.txt: warning: line 6: an error in the log .* ends the PingPong table (line 4) at 1 bytes" err.txt \
        || fail "error line: $(cat err.txt)"
    # UBSan reproducers: a group count that overflows int, a Group of 1e20
    printf '# Benchmarking PingPong\n# #processes = 2\n# ( 1073741824 groups of 2 processes each running simultaneous )\n       #bytes #repetitions      t[usec]   Mbytes/sec\n         1024         1000         2.00       512.00\n' >groups.txt
    expect_status 0 "$bin" import groups.txt -o .
    eq "$(csvval groups.jsonl pingpong "" 1024 nranks)" 2 "absurd group count not read (ranks from #processes)"
    printf '# Benchmarking PingPong\n# #processes = 4\n        Group       #bytes #repetitions      t[usec]   Mbytes/sec\n 1e20 1024 1000 2.00 512.00\n' >g20.txt
    expect_status 1 "$bin" import g20.txt -o .
    grep -q "g20.txt: nothing importable: the PingPong table (line 3) has no valid row (line 4" err.txt || fail "Group 1e20: $(cat err.txt)"
    # a run record and no rows: show -m and compare (qsort of an empty array)
    printf '{"type":"run","schema":"p2pbench/1","nranks":2}\n{"type":"end","status":"complete"}\n' >norows.jsonl
    cp norows.jsonl norows2.jsonl
    expect_status 0 "$bin" show -m latency norows.jsonl
    expect_status 0 "$bin" compare norows.jsonl --vs norows2.jsonl
    expect_status 1 "$bin" show junk.bin
    expect_status 1 "$bin" show empty.txt
    expect_status 1 "$bin" show future.jsonl
    grep -q "unsupported schema" err.txt || fail "future schema message"
    expect_status 0 "$bin" show trunc.jsonl
    grep -q "warning: trunc.jsonl: no end record" err.txt || fail "truncated: warning"
    # --max-file-size: a file above the limit is refused naming it and the limit
    head -c 1100000 /dev/zero | tr '\0' ' ' >pad.txt
    cat a/a-01.jsonl pad.txt >padded.jsonl
    expect_status 1 "$bin" show --max-file-size 1 padded.jsonl
    grep -q "padded.jsonl: larger than the limit of 1048576 bytes (1 MiB; --max-file-size)" err.txt || fail "size limit: $(cat err.txt)"
    expect_status 1 "$bin" import --max-file-size 1 pad.txt -o .
    grep -q "pad.txt: larger than the limit of 1048576 bytes" err.txt || fail "import size limit: $(cat err.txt)"
    # a device of zeros stops at the first block with a NUL byte (not after 256 MiB)
    expect_status 1 "$bin" import /dev/zero -o .
    eq "$(cat err.txt)" "p2pbench-report: /dev/zero:1: binary data (byte 0x00), not a text log" "import /dev/zero"
    expect_status 2 "$bin" show --max-file-size 0 a/a-01.jsonl
    expect_status 2 "$bin"
    expect_status 2 "$bin" frobnicate
    expect_status 2 "$bin" show --format xml a/a-01.jsonl
    expect_status 2 "$bin" show --metric speed a/a-01.jsonl
    expect_status 2 "$bin" compare a/a-01.jsonl
    expect_status 2 "$bin" compare a --vs a -t 0
    expect_status 2 "$bin" compare a --vs a -t abc
    expect_status 2 "$bin" compare a --vs
    expect_status 2 "$bin" compare --bogus a --vs a
    # an option of another command: the message names it and the command (issue #13)
    expect_status 2 "$bin" compare -k pingpong a --vs a
    grep -q "^p2pbench-report: -k/--kernel is not an option of compare; " err.txt || fail "compare -k: $(cat err.txt)"
    expect_status 2 "$bin" show -o x.png a/a-01.jsonl
    grep -q "^p2pbench-report: -o/--output is not an option of show; " err.txt || fail "show -o: $(cat err.txt)"
    expect_status 2 "$bin" import --holm "$cases/case04.txt" -o .
    grep -q "^p2pbench-report: --holm is not an option of import; " err.txt || fail "import --holm: $(cat err.txt)"
    expect_status 2 "$bin" plot --metric latency a/a-01.jsonl -o x.png
    grep -q "^p2pbench-report: -m/--metric is not an option of plot; " err.txt || fail "plot -m: $(cat err.txt)"
    expect_status 2 "$bin" plot a/a-01.jsonl
    expect_status 0 "$bin" --help
    # fuzz: truncations and byte flips of every case file must never crash
    for f in "$cases"/*.txt; do
        n=$(wc -c <"$f")
        for cut in 1 7 50 200 333 1000 2500; do
            [ "$cut" -lt "$n" ] || continue
            head -c "$cut" "$f" >fz.txt
            "$bin" import fz.txt -o . >/dev/null 2>fz.err
            rc=$?; [ $rc -le 2 ] || fail "import crashed (rc $rc) on $f cut at $cut"
            sanitizer_check fz.err "import $f cut at $cut"
        done
        tr 0123456789 9876543210 <"$f" >fz.txt
        "$bin" import fz.txt -o . >/dev/null 2>fz.err; rc=$?; [ $rc -le 2 ] || fail "import crashed on digit-flipped $f"
        sanitizer_check fz.err "digit-flipped $f"
        tr 'a-z#' 'A-Z ' <"$f" >fz.txt
        "$bin" import fz.txt -o . >/dev/null 2>fz.err; rc=$?; [ $rc -le 2 ] || fail "import crashed on case-flipped $f"
        sanitizer_check fz.err "case-flipped $f"
    done
    for cut in 10 100 400 1500 3000; do
        head -c $cut a/a-01.jsonl >fz.jsonl
        "$bin" show fz.jsonl >/dev/null 2>fz.err; rc=$?; [ $rc -le 2 ] || fail "show crashed on cut $cut"
        sanitizer_check fz.err "show cut $cut"
        "$bin" compare fz.jsonl --vs a >/dev/null 2>fz.err; rc=$?; [ $rc -le 2 ] || fail "compare crashed on cut $cut"
        sanitizer_check fz.err "compare cut $cut"
    done
    # random bytes
    for i in 1 2 3 4 5 6; do
        head -c $((i * 1500)) /dev/urandom >rnd.bin
        "$bin" import rnd.bin -o . >/dev/null 2>fz.err; rc=$?; [ $rc -le 2 ] || fail "import crashed on random bytes"
        sanitizer_check fz.err "import random"
        "$bin" show rnd.bin >/dev/null 2>fz.err; rc=$?; [ $rc -le 2 ] || fail "show crashed on random bytes"
        sanitizer_check fz.err "show random"
    done
    ;;
plot)
    command -v gnuplot >/dev/null 2>&1 || skip "gnuplot not installed"
    gen a a native 4 1.0
    gen b b domU 4 1.2 2
    expect_status 0 "$bin" plot a --vs b -o "it's a plot.svg"
    grep -q "<svg" "it's a plot.svg" || fail "no svg written"
    expect_status 0 "$bin" plot a/a-01.jsonl b/b-01.jsonl -o p.png
    [ -s p.png ] || fail "no png written"
    expect_status 0 "$bin" plot a --vs b -k sendrecv -o s.svg
    grep -q "Sendrecv latency" s.svg || fail "plot -k sendrecv: no Sendrecv title"
    expect_status 1 "$bin" plot a -k nosuch -o n.svg
    grep -q "kernel 'nosuch' is not in the files" err.txt || fail "plot unknown kernel message"
    expect_status 2 "$bin" plot a -o p.gif
    expect_status 1 "$bin" plot a -o p.svg --gnuplot /nonexistent/gnuplot
    grep -q "cannot run gnuplot '/nonexistent/gnuplot': No such file" err.txt || fail "missing gnuplot: $(cat err.txt)"
    # upper-case extensions
    expect_status 0 "$bin" plot a -o P.SVG
    grep -q "<svg" P.SVG || fail "plot -o P.SVG: no svg"
    expect_status 0 "$bin" plot a -o P.Png
    [ -s P.Png ] || fail "plot -o P.Png: no png"
    # a gnuplot that writes nothing: one line, exit 1, no file left
    expect_status 1 "$bin" plot a -o t.png --gnuplot /bin/true
    eq "$(cat err.txt)" "p2pbench-report: gnuplot ('/bin/true') exited 0 but wrote no image for 't.png'" "/bin/true"
    [ -z "$(ls t.png* 2>/dev/null)" ] || fail "/bin/true: files left: $(ls t.png*)"
    # gnuplot's stderr: never raw; on failure one line plus its first error line, sanitised
    printf '#!/bin/sh\ncat >/dev/null\necho "\"-\", line 3: warning: Skipping data file" >&2\necho " plot \$d" >&2\necho "      ^" >&2\nprintf "\"-\", line 9: x range is invalid\\033[2J\\n" >&2\necho more >&2\nexit 1\n' >fakegp
    chmod +x fakegp
    expect_status 1 "$bin" plot a -o f.svg --gnuplot ./fakegp
    eq "$(sed -n 2p err.txt)" 'gnuplot: "-", line 9: x range is invalid?[2J' "gnuplot's first error line"
    eq "$(wc -l <err.txt | tr -d ' ')" 2 "gnuplot failure: lines on stderr"
    [ -z "$(ls f.svg* 2>/dev/null)" ] || fail "failed gnuplot: files left"
    # a gnuplot that hangs: stopped after --gnuplot-timeout, one line, no file left
    printf '#!/bin/sh\nexec sleep 600\n' >hanggp
    chmod +x hanggp
    expect_status 1 "$bin" plot a -o h.svg --gnuplot ./hanggp --gnuplot-timeout 1
    eq "$(cat err.txt)" "p2pbench-report: gnuplot ('./hanggp') did not finish within 1 s writing 'h.svg'; stopped it (--gnuplot-timeout)" "hanging gnuplot"
    [ -z "$(ls h.svg* 2>/dev/null)" ] || fail "hanging gnuplot: files left"
    expect_status 2 "$bin" plot a -o h.svg --gnuplot-timeout 0
    printf '#!/bin/sh\necho "warning: noise" >&2\nexec gnuplot\n' >warngp
    chmod +x warngp
    expect_status 0 "$bin" plot a -o w.svg --gnuplot ./warngp
    [ -s err.txt ] && fail "gnuplot warnings passed through: $(cat err.txt)"
    # labels literally (no enhanced text: _ is no subscript); unlabelled files by short name
    sed 's/"label":"native"/"label":"Experiment_1"/' a/a-01.jsonl >e.jsonl
    sed 's/"label":"native"/"label":""/' a/a-01.jsonl >unlabelled.jsonl
    expect_status 0 "$bin" plot e.jsonl .//unlabelled.jsonl -o e.svg
    grep -q "<text>Experiment_1</text>" e.svg || fail "label not literal in the legend"
    grep -q "<text>unlabelled</text>" e.svg || fail "unlabelled file not named 'unlabelled'"
    grep -q "//" e.svg && grep "<text>.*//" e.svg && fail "a path in the legend"
    # ticks as 1K/1M: powers of 2
    grep -q "<text>1K</text>" e.svg || fail "no 1K tick"
    # nothing to draw (only 0 bytes): one line, exit 1, no file
    grep -v '"bytes":[1-9]' a/a-01.jsonl >zero.jsonl
    expect_status 1 "$bin" plot zero.jsonl -o z.png
    eq "$(wc -l <err.txt | tr -d ' ')" 1 "nothing to draw: lines on stderr"
    grep -q "nothing to plot: kernel pingpong has no measured size above 0 bytes" err.txt || fail "nothing to draw: $(cat err.txt)"
    [ -z "$(ls z.png* 2>/dev/null)" ] || fail "nothing to draw: file left"
    # side B fails after its first file was read: every file read so far is freed
    # (LeakSanitizer under the asan preset; it leaked 2,400 B before the command table)
    expect_status 1 "$bin" plot a --vs b/b-01.jsonl nosuch.jsonl -o p.svg
    grep -q "nosuch.jsonl: cannot open" err.txt || fail "plot side B error: $(cat err.txt)"
    expect_status 1 "$bin" plot a/a-01.jsonl b/b-01.jsonl nosuch.jsonl -o p.svg
    ;;
html)
    gen a a native 6 1.0
    GEN_KREL=6.2.0 gen slow slow slow 6 1.2 2
    expect_status 0 "$bin" html a --vs slow -o r.html
    [ -s err.txt ] && fail "html printed on stderr: $(head -3 err.txt)"
    # compare's verdicts: 20% slower at every size with a number (8 latency, 6 throughput rows)
    grep -q '<td class="verdict v-worse">changed (worse)</td><td class="v-worse">8</td><td class="v-worse">6</td>' r.html ||
        fail "verdict counts: want 8 latency and 6 throughput rows changed (worse)"
    eq "$(grep -o '<td class="verdict v-worse">changed (worse)' r.html | wc -l | tr -d ' ')" 15 "worse cells (14 rows and the count)"
    eq "$(grep -o '<td>1.200 <span' r.html | wc -l | tr -d ' ')" 8 "latency ratio 1.200 cells"
    grep -q "kernel_release: native = 6.1.0 | slow = 6.2.0" r.html || fail "the context difference is not listed"
    eq "$(grep -c '<section class="kernel">' r.html)" 2 "one section per kernel (pingpong, sendrecv)"
    eq "$(grep -c '<svg viewBox="0 0 540 320"' r.html)" 4 "two charts per kernel"
    grep -q -i -E "<script|https?:|src=|href=|url\(" r.html && fail "the page is not self-contained"
    # the same input, the same page
    expect_status 0 "$bin" html a --vs slow -o r2.html
    cmp -s r.html r2.html || fail "two runs wrote different pages"
    # one group: charts and values, no comparison
    expect_status 0 "$bin" html a -o ONE.HTML --title 'My <runs>'
    grep -q "<h1>My &lt;runs&gt;</h1>" ONE.HTML || fail "--title not escaped in the heading"
    grep -q "ratio" ONE.HTML && fail "one group: a ratio column"
    eq "$(grep -c '<svg viewBox="0 0 540 320"' ONE.HTML)" 4 "one group: two charts per kernel"
    # usage errors: one line naming the value, exit 2, no file
    expect_status 2 "$bin" html a
    grep -q "html needs -o FILE.html" err.txt || fail "html without -o: $(cat err.txt)"
    expect_status 2 "$bin" html a -o r.txt
    grep -q "html output 'r.txt' must end in .html or .htm" err.txt || fail "html -o r.txt: $(cat err.txt)"
    expect_status 2 "$bin" html a -o k.html -k pingpong
    grep -q "html takes only" err.txt || fail "html -k: $(cat err.txt)"
    [ -e k.html ] && fail "a usage error left k.html"
    expect_status 1 "$bin" html a -o no/such/dir/x.html
    grep -q "cannot write 'no/such/dir/x.html'" err.txt || fail "unwritable: $(cat err.txt)"
    expect_status 1 "$bin" html a/a-01.jsonl nosuch.jsonl -o n.html
    [ -e n.html ] && fail "a missing input left n.html"
    [ -z "$(ls ./*.html.* 2>/dev/null)" ] || fail "temporary files left: $(ls ./*.html.*)"
    ;;
campaign)
    c="$src/scripts/campaign.sh" fake="$here/fake_launch.sh"
    # order DIR: the sides of campaign.txt's rounds, "A B B A ..."
    order() { sed -n 's/^round [0-9]*: //p' "$1/campaign.txt" | tr '\n' ' ' | sed 's/ $//'; }
    # files DIR A_LABEL B_LABEL: the file of each launch in campaign.txt's order
    files() {
        sed -n 's/^round \([0-9]*\): \(.\) \(.\)$/\1 \2 \3/p' "$1/campaign.txt" |
            while read -r k x y; do
                for s in $x $y; do
                    if [ "$s" = A ]; then l=$2; else l=$3; fi
                    printf '%s/%s/%s-%02d.jsonl ' "$1" "$l" "$l" "$k"
                done
            done
    }
    run() { sh "$c" -o camp -a native -b domU -A "sh '$fake' log 1.0" -B "sh '$fake' log 1.2" "$@"; }
    FAKE_FAIL=camp/domU/domU-02.jsonl expect_status 1 run -n 3 -s 7
    want=$(files camp native domU)
    eq "$(tr '\n' ' ' <log)" "$(echo "$want" | awk '{ for (i = 1; i <= NF; i++) { printf "%s ", $i; if ($i == "camp/domU/domU-02.jsonl") exit } }')" \
        "launches in campaign.txt's order up to the failure"
    grep -q "(domU 2/3, round 2 position [12]) failed" err.txt || fail "failure message: $(cat err.txt)"
    grep -q "launch 3 of 6 ([a-zA-Z]* 2/3, round 2 position 1), elapsed [0-9]*s, estimated left" err.txt ||
        fail "progress line: $(cat err.txt)"
    : >log
    expect_status 0 run -n 3
    eq "$(tr '\n' ' ' <log)" "$(echo "$want" | awk '{ for (i = 1; i <= NF; i++) if (go || $i == "camp/domU/domU-02.jsonl") { go = 1; printf "%s ", $i } }')" \
        "resume (seed from campaign.txt) redoes only unfinished launches"
    [ -f camp/domU/domU-02.jsonl.incomplete ] || fail "unfinished file not kept aside"
    # every launch records its round, position and seed as campaign.txt says
    for k in 1 2 3; do
        first=$(sed -n "s/^round $k: \(.\) .$/\1/p" camp/campaign.txt)
        pa=1; [ "$first" = A ] || pa=2
        grep -q "\"campaign\":{\"seed\":7,\"round\":$k,\"position\":$pa,\"index\":$((2 * k - 2 + pa)),\"side\":\"A\"}" \
            "camp/native/native-0$k.jsonl" || fail "round $k: native's position not recorded as $pa"
        grep -q "\"campaign\":{\"seed\":7,\"round\":$k,\"position\":$((3 - pa))," "camp/domU/domU-0$k.jsonl" ||
            fail "round $k: domU's position not recorded"
    done
    # a larger -n adds rounds; a smaller one is refused with the reason
    : >log
    expect_status 0 run -n 4
    eq "$(sort log | tr '\n' ' ')" "camp/domU/domU-04.jsonl camp/native/native-04.jsonl " "a larger -n adds round 4"
    expect_status 2 run -n 2
    grep -q "holds a campaign of 4 launches per side; -n 2 would hide launches 3 .. 4" err.txt ||
        fail "smaller -n: $(cat err.txt)"
    # other commands or another seed for the same directory are refused
    expect_status 2 sh "$c" -n 4 -o camp -a native -b domU -A "sh '$fake' log 1.0" -B "sh '$fake' log 1.3"
    expect_status 2 run -n 4 -s 8
    grep -q "records another campaign" err.txt || fail "another seed: $(cat err.txt)"
    expect_status 2 sh "$c" -n x -o camp2 -A true -B true
    expect_status 2 sh "$c" -n 99999999999999999999 -o camp2 -A true -B true
    grep -q "'99999999999999999999' is too large (at most 9999)" err.txt || fail "huge -n: $(cat err.txt)"
    grep -q "Illegal number" err.txt && fail "huge -n reached the shell's arithmetic"
    expect_status 2 sh "$c" -n 0 -o camp2 -A true -B true
    expect_status 2 sh "$c" -n 4 -s 2147483648 -o camp2 -A true -B true
    [ -e camp2 ] && fail "a refused campaign created its directory"
    : >notadir
    expect_status 2 sh "$c" -n 4 -o notadir -A true -B true
    grep -q "^campaign.sh: -o notadir: exists and is not a directory$" err.txt || fail "-o FILE: $(cat err.txt)"
    # order: each round holds each side once; positions balanced; seed -> order
    for seed in 1 2 3 4 5 6 7 8; do
        : >log
        expect_status 0 sh "$c" -n 6 -s $seed -o "o$seed" -A "sh '$fake' log 1.0" -B "sh '$fake' log 1.0"
        o=$(order "o$seed")
        echo "$o" | awk '{ for (i = 1; i <= NF; i += 2) if ($i == $(i + 1)) exit 1 }' ||
            fail "seed $seed: a round without both sides: $o"
        eq "$(echo "$o" | awk '{ for (i = 1; i <= NF; i += 2) n += $i == "A"; print n }')" 3 \
            "seed $seed: rounds with A first (of 6)"
        eq "$(tr '\n' ' ' <log)" "$(files "o$seed" A B)" "seed $seed: launches ran in campaign.txt's order"
        echo "$o" >>orders.txt
    done
    [ "$(sort -u orders.txt | wc -l)" -ge 3 ] || fail "8 seeds gave fewer than 3 orders: $(cat orders.txt)"
    expect_status 0 sh "$c" -n 6 -s 3 -o again -A "sh '$fake' log 1.0" -B "sh '$fake' log 1.0"
    eq "$(order again)" "$(order o3)" "same seed, same order"
    expect_status 0 sh "$c" -n 7 -s 3 -o o3 -A "sh '$fake' log 1.0" -B "sh '$fake' log 1.0"
    eq "$(order o3 | cut -d' ' -f1-12)" "$(order again)" "a larger -n keeps the earlier rounds"
    # labels: one a prefix of the other; odd directory names; the printed command works
    d="my 'camp' dir"
    expect_status 0 sh "$c" -n 2 -o "$d" -a native -b native-vm -A "sh '$fake' log 1.0" -B "sh '$fake' log 1.2"
    cmd=$(sed -n 's/^  p2pbench-report compare /compare /p' err.txt)
    eval "set -- $cmd"
    expect_status 0 "$bin" "$@"
    { grep -q "native (n=2)" out.txt && grep -q "native-vm (n=2)" out.txt; } ||
        fail "printed compare command ($cmd): $(head -3 out.txt)"
    for bad in '*' 'a b' '-x' '.hidden' 'a/b' "x'y" '' "$(printf '%064d' 0)"; do
        expect_status 2 sh "$c" -n 2 -o camp3 -a "$bad" -b B -A true -B true
        grep -q "label '.*' must be 1 to 63\|longer than 63" err.txt || fail "label '$bad': $(cat err.txt)"
    done
    expect_status 2 sh "$c" -n 2 -o camp3 -a same -b same -A true -B true
    expect_status 0 sh "$c" -n 1 -o camp3 -a "v1.2_x+y" -b B -A "sh '$fake' log 1.0" -B "sh '$fake' log 1.0"
    ;;
order)
    # synthetic campaigns: GEN_POS gives each launch's position in its round
    GEN_SIDE=A GEN_POS="1 1 1 1 1 1" gen fa fa first 6 1.0
    GEN_SIDE=B GEN_POS="2 2 2 2 2 2" gen fb fb second 6 1.0 2
    expect_status 0 "$bin" compare fa --vs fb
    grep -q "^# launch order: 6 rounds with both sides (campaign seed 1): first first in 6, second first in 0" out.txt ||
        fail "order line: $(grep order out.txt)"
    grep -q "^# warning: launch order and side are confounded: first ran first in 6 of 6 rounds" out.txt ||
        fail "fixed order: no confounding warning"
    expect_status 0 "$bin" compare fa --vs fb -f json
    grep -q '"confounded":	true' out.txt || fail "json: confounded"
    grep -q '"launch order and side are confounded' out.txt || fail "json: warning"
    # balanced order (3 of 6 rounds each way), no position effect: no warning
    GEN_SIDE=A GEN_POS="1 2 1 2 2 1" gen ba ba a 6 1.0
    GEN_SIDE=B GEN_POS="2 1 2 1 1 2" gen bb bb b 6 1.0 2
    expect_status 0 "$bin" compare ba --vs bb
    grep -q "^# launch order: 6 rounds .*: a first in 3, b first in 3" out.txt || fail "balanced: order line"
    grep -q "warning" out.txt && fail "balanced, no position effect: $(grep warning out.txt)"
    # the launch that runs second is 10% slower, order balanced over 8 rounds: every
    # latency row 8 of 8 (sign test p = 2/2^8 = 0.0078, BH over 8 rows: 0.0078),
    # every throughput row with a number too; the sides stay equivalent
    GEN_POS_FACTOR=1.1 GEN_SIDE=A GEN_POS="1 2 1 2 2 1 2 1" gen pa pa a 8 1.0
    GEN_POS_FACTOR=1.1 GEN_SIDE=B GEN_POS="2 1 2 1 1 2 1 2" gen pb pb b 8 1.0 2
    expect_status 0 "$bin" compare pa --vs pb
    grep -q "^# warning: latency: the value depends on the position in the round: at 8 rows the launch that ran second was worse in most rounds (sign test, p_adj < 0.05, Benjamini-Hochberg): PingPong 0 (8 of 8), PingPong 1K (8 of 8)" out.txt ||
        fail "position effect (latency): $(grep warning out.txt)"
    grep -q "^# warning: throughput: .* at 6 rows" out.txt || fail "position effect (throughput)"
    grep -q "confounded" out.txt && fail "balanced order said confounded"
    grep -q "changed (" out.txt && fail "balanced order with a position effect gave 'changed'"
    expect_status 0 "$bin" compare pa --vs pb -f csv
    eq "$(awk -F, '$1 == "latency" && $5 == "pingpong" && $7 == 1024 { print $33 "," $34 "," $35 }' out.txt)" "8,8,0.0078125" \
        "csv: position_rounds, position_second_worse, position_p_adj"
    # Holm over the 8 latency rows: 8 x 0.0078 = 0.0625, not flagged; over the 6
    # throughput rows with a number: 6 x 0.0078 = 0.047, flagged (the documented rule)
    expect_status 0 "$bin" compare pa --vs pb --holm
    grep -q "latency: the value depends on the position" out.txt && fail "--holm: 0.0625 must not be flagged"
    grep -q "throughput: the value depends on the position.*at 6 rows.*Holm" out.txt ||
        fail "--holm: 0.047 must be flagged"
    # the issue's case: fixed order and a position effect give "changed", and the warning says why
    GEN_POS_FACTOR=1.1 GEN_SIDE=A GEN_POS="1 1 1 1 1 1" gen qa qa a 6 1.0
    GEN_POS_FACTOR=1.1 GEN_SIDE=B GEN_POS="2 2 2 2 2 2" gen qb qb b 6 1.0 2
    expect_status 0 "$bin" compare qa --vs qb
    grep -q "changed (worse)" out.txt || fail "confounded position effect should look like a change"
    grep -q "confounded: a ran first in 6 of 6" out.txt || fail "and the warning must say so"
    # files without positions mixed in are counted
    gen plain plain a 2 1.0
    expect_status 0 "$bin" compare ba plain --vs bb
    grep -q "^# warning: 2 of 14 launches record no campaign position" out.txt || fail "unknown positions"
    ;;
marks)
    # rows measured while disturbed or while their level shifted: named in
    # compare's verdict column, counted once under the tables, in json too
    gen a a native 6 1.0
    gen b b domU 6 1.0 2
    sed 's/"kernel":"pingpong","display_name":"PingPong","bytes":1024,\(.*\)}$/"kernel":"pingpong","display_name":"PingPong","bytes":1024,\1,"disturbance":{"steal_pct":0,"invol_ctxsw":9,"cpu_lost_pct":48.5,"migrations":0,"worst_rank":1},"shift":{"first_median_usec":1,"last_median_usec":2,"rel_shift":1,"p":0.0001,"flagged":true}}/' \
        b/b-02.jsonl >b/b-02.marked && mv b/b-02.marked b/b-02.jsonl
    grep -q '"cpu_lost_pct":48.5' b/b-02.jsonl || fatal "marks: the test could not mark a row"
    expect_status 0 "$bin" compare a --vs b
    eq "$(grep -c '; disturbed A 0/6, B 1/6; shift A 0/6, B 1/6$' out.txt)" 2 "marked rows (latency, throughput at 1K)"
    grep -q "^# disturbed while measured (steal, time off the CPU, migrations; docs/host-context.md): A 0 of [0-9]* launch rows, B 1 of [0-9]*; level shifted while measured: A 0, B 1" out.txt ||
        fail "marks: no count under the tables"
    expect_status 0 "$bin" compare a --vs b -f json
    python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
m = [r for r in d["rows"] if r.get("disturbed_b")]
sys.exit(0 if len(m) == 2 and all(r["bytes"] == 1024 and r["shifted_b"] == 1 for r in m) else 1)' out.txt ||
        fail "marks: json rows"
    expect_status 0 "$bin" show b/b-02.jsonl
    grep -qE '^ +1024 +[0-9]+\*?ds ' out.txt || fail "marks: show does not mark the row 'ds'"
    # html: the marked cells in words (latency, throughput), a legend line under
    # the tables, a ring at the marked points of both charts, the count in the notes
    expect_status 0 "$bin" html a --vs b -o m.html
    eq "$(grep -o '<span class="mark" title="disturbed">d 1/6</span><span class="mark" title="shifted">s 1/6</span>' m.html | wc -l | tr -d ' ')" 2 "html: marked cells"
    grep -q '<span class="mark">d k/n</span>.*disturbed: measured while the host was disturbed' m.html || fail "html: no legend line for the marks"
    eq "$(grep -c '<circle cx="[0-9.]*" cy="[0-9.]*" r="8"' m.html)" 3 "html: rings (2 charts and the legend)"
    grep -q "domU: 1 launch row disturbed, 1 shifted" m.html || fail "html: the notes do not count the marks"
    ;;
incomplete)
    gen a a native 6 1.0
    gen b b domU 6 1.0 2
    head -5 a/a-06.jsonl >a/a-06.cut && mv a/a-06.cut a/a-06.jsonl
    GEN_END=aborted gen ab ab domU 1 1.0
    for f in text markdown; do
        expect_status 0 "$bin" compare a --vs b -f $f
        grep -q "^\(# \)\{0,1\}warning: incomplete launch on side A (native), its rows used as far as they go: a/a-06.jsonl: no end record (run cut short?); read 4 rows" out.txt ||
            fail "$f: incomplete file not flagged on stdout"
        [ "$(grep -n 'incomplete launch' out.txt | cut -d: -f1)" -lt "$(grep -n 'PingPong' out.txt | head -1 | cut -d: -f1)" ] ||
            fail "$f: the flag must come above the tables"
    done
    # the header counts the side's launches; a row that used fewer says so
    expect_status 0 "$bin" compare a --vs b
    grep -q "native (n=6)" out.txt || fail "header n"
    eq "$(grep -c ' n=5 ' out.txt)" 8 "Sendrecv rows (latency and throughput) used 5 of 6 launches"
    grep "^ *1024 *1K .*2.0[0-9] \[.*\] *2.0" out.txt | head -1 | grep -q "n=5" &&
        fail "PingPong rows used all 6 launches: no n="
    expect_status 0 "$bin" compare a --vs b -f json
    grep -q '"incomplete_a":	1' out.txt || fail "json incomplete_a"
    grep -q '"path":	"a/a-06.jsonl"' out.txt || fail "json incomplete path"
    grep -q '"warnings":	\["incomplete launch on side A' out.txt || fail "json warnings"
    expect_status 0 "$bin" compare a --vs b -f csv
    eq "$(awk -F, '$1 == "latency" && $5 == "sendrecv" && $7 == 0 { print $8 "," $29 "," $31 "," $32 }' out.txt)" "5,6,1,0" \
        "csv: n_a, launches_a, incomplete_a, incomplete_b"
    # the gate fails on an incomplete file unless --allow-incomplete
    expect_status 1 "$bin" compare a --vs b --fail-on-regression
    grep -q "1 launch file is incomplete or aborted.*--allow-incomplete" err.txt || fail "gate message: $(cat err.txt)"
    expect_status 0 "$bin" compare a --vs b --fail-on-regression --allow-incomplete
    grep -q "warning: incomplete launch" out.txt || fail "--allow-incomplete still flags the file"
    expect_status 2 "$bin" compare b --vs b --allow-incomplete -f xml
    "$bin" compare a --vs b --fail-on-regression -f markdown >cmp.md 2>/dev/null
    grep -q "incomplete launch" cmp.md || fail "the CI recipe's compare.md must show the incomplete file"
    # an aborted run
    expect_status 0 "$bin" compare a --vs ab
    grep -q "^# warning: incomplete launch on side B (domU), .*: ab/ab-01.jsonl: run ended with status 'aborted'; 8 rows read" out.txt ||
        fail "aborted file: $(grep warning out.txt)"
    # show flags it on stdout in every format
    for f in text markdown imb csv; do
        expect_status 0 "$bin" show -f $f a/a-06.jsonl
        head -3 out.txt | grep -q "warning: incomplete run, its rows as far as they go: a/a-06.jsonl: no end record" ||
            fail "show -f $f: not flagged above the table"
    done
    expect_status 0 "$bin" show -f json a/a-06.jsonl
    grep -q '"complete":	false' out.txt || fail "show json: complete false"
    expect_status 0 "$bin" show -m latency -f csv a/a-05.jsonl a/a-06.jsonl
    head -1 out.txt | grep -q ",native#2 (incomplete)$" || fail "show -m csv: column: $(head -1 out.txt)"
    expect_status 0 "$bin" show -m latency a/a-06.jsonl
    grep -q "^# warning: incomplete run" out.txt || fail "show -m text"
    # complete files: no flag
    expect_status 0 "$bin" show b/b-01.jsonl
    grep -q "incomplete" out.txt && fail "complete file flagged"
    # -t 0.0001 (percent): the bounds and the ratios carry the threshold's digits
    expect_status 0 "$bin" compare b --vs a -t 0.0001
    grep -q "CI outside \[0.999999, 1.000001\]" out.txt || fail "-t 0.0001 bounds: $(grep 'CI outside' out.txt)"
    grep -q " 1.0000000 \[[0-9.]*\.\.[0-9.]*\]" out.txt || fail "-t 0.0001: ratio decimals"
    expect_status 2 "$bin" compare b --vs a -t 1e-14 # finer than any printed ratio
    expect_status 0 "$bin" compare b --vs a -t 12.5
    grep -q "CI outside \[0.875, 1.125\]" out.txt || fail "-t 12.5 bounds"
    ;;
*)
    echo "unknown test $test" >&2; exit 2 ;;
esac
[ "$FAILED" = 0 ] || { echo "$FAILED failure(s) in $test" >&2; exit 1; }
echo "report test $test: ok"
