#!/bin/sh
# SPDX-License-Identifier: MIT
# Tests of p2pbench-report import, plot and html (no MPI). Usage:
#   report_import_tests.sh TEST REPORT_BIN SOURCE_DIR WORK_DIR
# TEST: import | cases | roundtrip | ownbad | plot | html
# shellcheck source=SCRIPTDIR/report_lib.sh
. "$3/tests/report/report_lib.sh"

case $test in
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
    grep -q "case13.txt: warning: line 28: the log ends in a crash .* ends the OSU Latency table (line 3) at 4194304 bytes" import-messages.txt || fail "case13 crash warning"
    # one crash, one warning (issue 20: it gave three)
    [ "$(grep -c 'case13.txt: warning' import-messages.txt)" = 1 ] || fail "case13: more than one warning for one crash"
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
    # Open MPI's "[host:pid] mca: ..." line is the MPI library's (mpilines.c)
    grep -q "imb2018-interleaved.txt: warning: PingPong table (line 24): 1 non-table line at line 27, from the MPI library (Open MPI), skipped$" err.txt || fail "interleaved note: $(cat err.txt)"
    eq "$(rows imb2018-interleaved.jsonl pingpong '')" 4 "interleaved rows"
    near "$(csvval imb2018-interleaved.jsonl pingpong '' 65536 mbytes_per_sec)" 4096 0.001 "interleaved 64K (10^6 B as logged)"
    eq "$(csvval imb2018-interleaved.jsonl pingpong '' 4096 active_ranks)" 2 "interleaved active ranks"
    eq "$(csvval imb2018-interleaved.jsonl pingpong '' 4096 nranks)" 4 "interleaved ranks"
    grep -q "cut short" err.txt && fail "interleaved: no cut-short warning expected"
    # one-sided layouts (hand-written, tests/data/synthetic/README.md): IMB-RMA, OSU put/get
    expect_status 0 "$bin" import "$syn/imb2019-rma.txt" "$syn/osu-rma-latency.txt" "$syn/osu-rma-bw.txt" -o .
    cp err.txt rma-messages.txt
    for k in put_latency put_bw get_latency get_bw put_bibw; do eq "$(rows imb2019-rma.jsonl $k '')" 4 "IMB-RMA $k rows"; done
    eq "$(rows imb2019-rma.jsonl get_bibw '')" 0 "IMB-RMA Bidir_get without MODE line: skipped"
    grep -q "imb2019-rma.txt: note: 6 tables of other benchmarks skipped (.*): Bidir_put NON-AGGREGATE, Bidir_get no MODE line, One_put_all, Put_local, Exchange_put, Truncated_get$" rma-messages.txt || fail "IMB-RMA note: $(cat rma-messages.txt)"
    near "$(csvval imb2019-rma.jsonl put_latency '' 1024 t_median_usec)" 2.00 0.0001 "IMB-RMA Unidir_put 1K t"
    near "$(csvval imb2019-rma.jsonl put_bw '' 65536 mbytes_per_sec)" 6400 0.001 "IMB-RMA Unidir_put AGGREGATE 64K"
    near "$(csvval imb2019-rma.jsonl get_latency '' 65536 mbytes_per_sec)" 3200 0.001 "IMB-RMA Unidir_get 64K"
    near "$(csvval imb2019-rma.jsonl get_bw '' 1 mbytes_per_sec)" 1.25 0.0001 "IMB-RMA Unidir_get AGGREGATE 1 B"
    eq "$(csvval imb2019-rma.jsonl put_bw '' 1024 nranks)" 4 "IMB-RMA nranks"
    eq "$(csvval imb2019-rma.jsonl put_bw '' 1024 active_ranks)" 2 "IMB-RMA active ranks"
    # Bidir_put t_min/t_max/t_avg: t = t_max, as the other such IMB tables
    near "$(csvval imb2019-rma.jsonl put_bibw '' 1024 t_median_usec)" 2.56 0.0001 "IMB-RMA Bidir_put 1K t = t_max"
    near "$(csvval imb2019-rma.jsonl put_bibw '' 1024 imb_t_min_usec)" 2.40 0.0001 "IMB-RMA Bidir_put 1K t_min"
    near "$(csvval imb2019-rma.jsonl put_bibw '' 1024 imb_t_avg_usec)" 2.50 0.0001 "IMB-RMA Bidir_put 1K t_avg"
    near "$(csvval imb2019-rma.jsonl put_bibw '' 1024 mbytes_per_sec)" 800 0.001 "IMB-RMA Bidir_put 1K: 2 x 400"
    vp='sync=flush win=allocate' vg='sync=lock win=create'
    eq "$(rows osu-rma-latency.jsonl put_latency "$vp")" 6 "osu_put_latency rows"
    eq "$(rows osu-rma-latency.jsonl get_latency "$vg")" 6 "osu_get_latency rows"
    near "$(csvval osu-rma-latency.jsonl put_latency "$vp" 1 t_median_usec)" 1.10 0.0001 "osu_put_latency 1 B"
    near "$(csvval osu-rma-latency.jsonl put_latency "$vp" 1024 t_median_usec)" 1.90 0.0001 "osu_put_latency 1K"
    near "$(csvval osu-rma-latency.jsonl get_latency "$vg" 1024 t_median_usec)" 3.35 0.0001 "osu_get_latency 1K"
    grep -q '"policy":{"mode":"imported","rma_window":"mixed","rma_sync":"mixed"}' osu-rma-latency.jsonl || fail "two windows and syncs: mixed"
    grep -q "osu-rma-latency.txt: note: 2 tables of other benchmarks skipped (.*): OSU MPI_Accumulate latency (one-sided), OSU MPI_Fetch_and_op latency (one-sided)$" rma-messages.txt || fail "osu acc/fop note"
    vb='sync=pscw win=allocate'
    eq "$(rows osu-rma-bw.jsonl get_bw "$vp")" 6 "osu_get_bw rows"
    eq "$(rows osu-rma-bw.jsonl put_bibw "$vb")" 5 "osu_put_bibw rows"
    near "$(csvval osu-rma-bw.jsonl get_bw "$vp" 1048576 mbytes_per_sec)" 12500 0.001 "osu_get_bw 1M"
    near "$(csvval osu-rma-bw.jsonl get_bw "$vp" 1048576 t_median_usec)" 83.88608 0.00001 "osu_get_bw 1M t = X / rate"
    near "$(csvval osu-rma-bw.jsonl put_bibw "$vb" 1048576 mbytes_per_sec)" 20000 0.001 "osu_put_bibw 1M"
    near "$(csvval osu-rma-bw.jsonl put_bibw "$vb" 1048576 t_median_usec)" 104.8576 0.00001 "osu_put_bibw 1M t = 2 X / rate"
    grep -q '"policy":{"mode":"imported","rma_window":"allocate","rma_sync":"mixed"}' osu-rma-bw.jsonl || fail "osu bw policy"
    grep -q "osu-rma-bw.txt: note: 2 tables of other benchmarks skipped (.*): OSU MPI_Compare_and_swap latency (one-sided), OSU MPI_Get_accumulate latency (one-sided)$" rma-messages.txt || fail "osu cas/get_acc note"
    # OSU 3.x titles ("One Sided MPI_Put latency"), no window or sync lines
    expect_status 0 "$bin" import "$syn/osu3-rma.txt" -o .
    eq "$(rows osu3-rma.jsonl put_latency '')" 4 "OSU 3 put latency rows"
    near "$(csvval osu3-rma.jsonl put_latency '' 1024 t_median_usec)" 3.90 0.0001 "OSU 3 put latency 1K"
    near "$(csvval osu3-rma.jsonl get_bw '' 1024 mbytes_per_sec)" 400 0.001 "OSU 3 get bw 1K"
    grep -q '"policy":{"mode":"imported"}' osu3-rma.jsonl || fail "OSU 3: no rma policy when not logged"
    grep -q "osu3-rma.txt: note: 1 table of other benchmarks skipped (.*): OSU One Sided MPI_Accumulate latency (one-sided)$" err.txt || fail "OSU 3 acc note: $(cat err.txt)"
    # the one-sided tables come back from p2pbench's own -f osu
    expect_status 0 "$bin" show -f osu osu-rma-bw.jsonl
    mv out.txt own-rma.txt
    expect_status 0 "$bin" import own-rma.txt -o .
    near "$(csvval own-rma.jsonl put_bibw "$vb" 1048576 mbytes_per_sec)" 20000 0.001 "own -f osu put_bibw 1M"
    near "$(csvval own-rma.jsonl get_bw "$vp" 65536 mbytes_per_sec)" 10000 0.001 "own -f osu get_bw 64K"
    # cut one-sided tables (tests/data/fuzz/import/rma-*): the rows before the cut kept
    expect_status 0 "$bin" import "$src/tests/data/fuzz/import/rma-imb-ext-cut.txt" "$src/tests/data/fuzz/import/rma-osu-put-latency-cut.txt" -o .
    grep -q "rma-imb-ext-cut.txt: warning: line 12: Put-Latency table cut short (incomplete row)" err.txt || fail "cut IMB-EXT table: $(cat err.txt)"
    grep -q "rma-osu-put-latency-cut.txt: warning: line 7: Put-Latency table cut short" err.txt || fail "cut OSU table"
    grep -q "OSU MPI_Get Bandwidth??? (one-sided)" err.txt || fail "a bidirectional override in a title is shown as ?"
    eq "$(rows rma-imb-ext-cut.jsonl put_latency '')" 2 "cut IMB-EXT rows"
    eq "$(rows rma-osu-put-latency-cut.jsonl put_latency 'sync=fence win=dynamic')" 2 "cut OSU rows"
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
    # case28: OSU osu_put_bw (one-sided): put_bw, never osu_bw; -w / -s as the variant
    # and the run's policy (issue 23)
    imp 0 case28
    eq "$(rows case28.jsonl osu_bw '')" 0 "case28 is not osu_bw"
    v28='sync=flush win=allocate'
    eq "$(rows case28.jsonl put_bw "$v28")" 2 "case28 put_bw rows"
    near "$(csvval case28.jsonl put_bw "$v28" 4 mbytes_per_sec)" 0.68 0.0001 "case28 4 B"
    near "$(csvval case28.jsonl put_bw "$v28" 8 mbytes_per_sec)" 0.12 0.0001 "case28 8 B"
    near "$(csvval case28.jsonl put_bw "$v28" 4 t_median_usec)" "$(awk 'BEGIN { printf "%.9g", 4 / 0.68 }')" 0.0001 "case28 4 B t = X / rate"
    grep -q '"policy":{"mode":"imported","rma_window":"allocate","rma_sync":"flush"}' case28.jsonl || fail "case28 policy"
    grep -q '"kernel":"put_bw","display_name":"Put-BW"' case28.jsonl || fail "case28 display name"
    grep -q "skipped" case28.msg && fail "case28: nothing is skipped: $(cat case28.msg)"
    # case31: IMB-EXT: Unidir_* by MODE (never PingPong, whose columns they have),
    # Bidir_* AGGREGATE; the rest named in one note. The rows fit 2^20 B (as case02).
    imp 0 case31
    eq "$(rows case31.jsonl pingpong '')" 0 "case31 is not pingpong"
    for k in put_latency put_bw get_latency get_bw put_bibw get_bibw; do eq "$(rows case31.jsonl $k '')" 22 "case31 $k rows"; done
    grep -q "case31.txt: note: 5 tables of other benchmarks skipped (.*): Window, Bidir_Get NON-AGGREGATE, Bidir_Put NON-AGGREGATE, Accumulate x2$" case31.msg || fail "case31 note: $(cat case31.msg)"
    [ "$(grep -c 'skipped' case31.msg)" = 1 ] || fail "case31: one note for the skipped tables"
    near "$(csvval case31.jsonl get_bw '' 4 t_median_usec)" 1.70 0.0001 "case31 Unidir_Get AGGREGATE 4 B t"
    near "$(csvval case31.jsonl get_bw '' 4 mbytes_per_sec)" "$(awk 'BEGIN { printf "%.9g", 2.24 * 1.048576 }')" 0.0001 "case31 Unidir_Get AGGREGATE 4 B MB/s"
    near "$(csvval case31.jsonl get_bw '' 4194304 mbytes_per_sec)" "$(awk 'BEGIN { printf "%.9g", 2327.32 * 1.048576 }')" 0.001 "case31 Unidir_Get AGGREGATE 4M"
    near "$(csvval case31.jsonl get_latency '' 4 t_median_usec)" 9.61 0.0001 "case31 Unidir_Get NON-AGGREGATE 4 B"
    near "$(csvval case31.jsonl get_latency '' 4194304 t_median_usec)" 2798.89 0.001 "case31 Unidir_Get NON-AGGREGATE 4M"
    near "$(csvval case31.jsonl put_bw '' 0 t_median_usec)" 0.26 0.0001 "case31 Unidir_Put AGGREGATE 0 B"
    near "$(csvval case31.jsonl put_bw '' 4194304 t_median_usec)" 1724.31 0.001 "case31 Unidir_Put AGGREGATE 4M"
    near "$(csvval case31.jsonl put_latency '' 4 t_median_usec)" 9.65 0.0001 "case31 Unidir_Put NON-AGGREGATE 4 B"
    near "$(csvval case31.jsonl put_latency '' 4194304 t_median_usec)" 2670.81 0.001 "case31 Unidir_Put NON-AGGREGATE 4M"
    eq "$(csvval case31.jsonl put_latency '' 4194304 repetitions)" 10 "case31 Unidir_Put 4M repetitions"
    # Bidir: IMB logs X / t (one direction); stored as both directions, 2 X / t
    near "$(csvval case31.jsonl put_bibw '' 4 t_median_usec)" 2.33 0.0001 "case31 Bidir_Put 4 B t"
    near "$(csvval case31.jsonl put_bibw '' 4194304 mbytes_per_sec)" "$(awk 'BEGIN { printf "%.9g", 2 * 818.01 * 1.048576 }')" 0.001 "case31 Bidir_Put 4M: 2 x logged"
    near "$(csvval case31.jsonl get_bibw '' 4194304 t_median_usec)" 4903.39 0.001 "case31 Bidir_Get 4M t"
    grep -q '"kernel":"get_bw","display_name":"Get-BW","bytes":4,[^}]*"bytes_factor":1,[^}]*"note":"IMB Unidir_Get, MODE AGGREGATE"' case31.jsonl || fail "case31 mode note"
    grep -q '"kernel":"put_bibw",[^}]*"bytes_factor":2,[^}]*"note":"IMB Bidir_Put, MODE AGGREGATE; logged MB/s (one direction) x 2"' case31.jsonl || fail "case31 Bidir note"
    # show, -f imb, -f osu and compare read the one-sided files
    for f in case28 case31; do
        for fmt in text imb osu csv; do expect_status 0 "$bin" show -f $fmt $f.jsonl; done
        cp $f.jsonl $f-b.jsonl
        expect_status 0 "$bin" compare $f.jsonl --vs $f-b.jsonl
    done
    grep -q "^# Put-BiBW throughput" out.txt || fail "compare table of Put-BiBW: $(grep '^# ' out.txt)"
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
    # the header of p2pbench's -f imb: rank 0's host and the library string come back
    # as they went out (IMB's own "Machine" and "MPI Version" mean uname -m and the standard)
    sed -n '1,/^# Benchmarking PingPong/p' "$rt/p2pbench-imb-all.txt" | sed '/^# Machine/d; /^# MPI Version/d' >hdr.txt
    sed -i '1,/^# Date/s/^\(# Date.*\)$/\1\n# Host                  : node7\n# MPI Library           : Some MPI 9.1 (x)/' hdr.txt
    sed -n '/^# Benchmarking PingPong/,/^$/p' "$rt/p2pbench-imb-all.txt" | sed 1d >>hdr.txt
    expect_status 0 "$bin" import hdr.txt -o hdr
    expect_status 0 "$bin" show -f imb hdr/hdr.jsonl
    grep -q '^# Host  *: node7$' out.txt || fail "own header: host: $(grep '^# [HM]' out.txt)"
    grep -q '^# MPI Library  *: Some MPI 9.1 (x)$' out.txt || fail "own header: library: $(grep '^# MPI' out.txt)"
    # an _aggregate table's rate is a sum over pairs, not bytes_factor x X / t: kept as
    # logged even below 1 MB/s (pairs of unequal speed: MPICH on a loaded machine)
    { sed -n '1,/^# Mbytes\/sec/p' "$rt/p2pbench-imb-all.txt"; printf '%s\n' \
        '#---------------------------------------------------' \
        '# Benchmarking Multi-Uniband_aggregate' '# #processes = 4' \
        '#---------------------------------------------------' \
        '       #bytes #repetitions      t[usec]   Mbytes/sec' \
        '           64           20      3721.50         0.16' \
        '         1024           80      1533.03        99.79' ''; } >agg.txt
    expect_status 0 "$bin" import agg.txt -o agg
    eq "$(csvval agg/agg.jsonl multi-uniband 'aggregate lo->hi' 64 mbytes_per_sec)" 0.16 "aggregate rate below 1 MB/s kept"
    eq "$(csvval agg/agg.jsonl multi-uniband 'aggregate lo->hi' 64 imb_t_max_usec)" 3721.5 "aggregate t kept"
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
    # p2pbench's own -f osu (tests/golden/report.osu.txt, from tests/common/rows.h): read
    # back as its kernels with ranks and bytes per iteration; the failed and skipped
    # sizes are comment lines, not rows
    expect_status 0 "$bin" import "$src/tests/golden/report.osu.txt" -o osu
    o=osu/report.osu.jsonl
    grep -q '"source":"p2pbench-osu"' $o || fail "own osu: source"
    eq "$(rows $o pingpong '')" 3 "own osu: pingpong rows"
    near "$(csvval $o pingpong '' 4194304 t_median_usec)" 400.50 0.0001 "own osu: pingpong 4M t"
    eq "$(csvval $o pingpong '' 4194304 active_ranks)" 2 "own osu: pingpong active ranks"
    eq "$(csvval $o pingpong '' 4194304 nranks)" 3 "own osu: pingpong ranks"
    eq "$(rows $o sendrecv '')" 1 "own osu: sendrecv rows (2048 failed)"
    # Sendrecv: 2 x 1024 B / 1.50 usec = 1365.33 MB/s
    near "$(csvval $o sendrecv '' 1024 mbytes_per_sec)" 1365.333 0.001 "own osu: sendrecv 1K MB/s"
    eq "$(rows $o exchange '')" 0 "own osu: exchange skipped"
    near "$(csvval $o pingping '' 1 t_median_usec)" 24.27 0.0001 "own osu: pingping 1 t"
    # a rate table: the 0-byte row is not read, a failed size inside is read past;
    # t = 64 x 1024 / 2414.56 = 27.1420 usec; osu_mbw_mr: MB/s read, messages/s in the note
    printf '%s\n' '# p2pbench 0.1.0: uniband 1->0 in the layout of osu_bw' \
        '# p2pbench: 2 of 4 ranks, bytes per iteration = 64 x Size' \
        '# Size      Bandwidth (MB/s)' '0                       0.00' \
        '1024                 2414.56' '# 2048 bytes: failed: payload check failed' \
        '4096                 4105.07' \
        '# p2pbench 0.1.0: multi-uniband aggregate lo->hi in the layout of osu_mbw_mr' \
        '# p2pbench: 4 of 4 ranks, bytes per iteration = 128 x Size' \
        '# Size                  MB/s        Messages/s' \
        '1024                 2621.44        2560000.00' >osurate.txt
    expect_status 0 "$bin" import osurate.txt -o osu
    o=osu/osurate.jsonl
    eq "$(rows $o uniband '1->0')" 2 "own osu rate: uniband rows"
    near "$(csvval $o uniband '1->0' 1024 t_median_usec)" 27.14201 0.00001 "own osu rate: t from MB/s"
    near "$(csvval $o uniband '1->0' 4096 mbytes_per_sec)" 4105.07 0.0001 "own osu rate: row after the failed size"
    eq "$(csvval $o uniband '1->0' 1024 active_ranks)" 2 "own osu rate: active ranks"
    grep -q '"variant":"1->0","bytes":1024,[^}]*"bytes_factor":64' $o || fail "own osu rate: window 64"
    near "$(csvval $o multi-uniband 'aggregate lo->hi' 1024 mbytes_per_sec)" 2621.44 0.0001 "own osu rate: mbw_mr MB/s"
    grep -q 'messages/s 2560000.00' $o || fail "own osu rate: messages/s in the note"
    expect_status 0 "$bin" import "$cases/seed-pmb-sendrecv-native-vs-domU.txt" -o .
    expect_status 0 "$bin" compare seed-pmb-sendrecv-native-vs-domU-Experiment_1.jsonl --vs seed-pmb-sendrecv-native-vs-domU-Experiment_2.jsonl -f csv
    r=$(awk -F, '$1 == "throughput" && $7 == 16384 { print $16 }' out.txt)
    near "$r" "$(awk 'BEGIN { printf "%.9g", 3.77 / 14.9 }')" 0.000001 "seed 16K throughput ratio 3.77/14.9"
    r=$(awk -F, '$1 == "latency" && $7 == 16384 { print $16 }' out.txt)
    near "$r" "$(awk 'BEGIN { printf "%.9g", 8300.18 / 2096.86 }')" 0.000001 "seed 16K latency ratio (usec both sides)"
    expect_status 0 "$bin" compare seed-pmb-sendrecv-native-vs-domU-Experiment_1.jsonl --vs seed-pmb-sendrecv-native-vs-domU-Experiment_2.jsonl
    grep -q "16384    16K .* 0.253 .*no verdict (< 4 launches)" out.txt || fail "seed text row 16K"
    ;;
ownbad)
    # p2pbench's own -f imb output (tests/data/roundtrip/p2pbench-imb-all.txt: its banner,
    # Uniband, 12 sizes 0..1K, and Multi-Uniband, groups 0 (ranks 0 1) and 1 (2 3) at the
    # same 12 sizes) with one line changed by hand: never a row lost without a warning
    rt="$src/tests/data/roundtrip"
    awk '/^# Benchmarking/ { on = ($0 == "# Benchmarking Uniband" || $0 == "# Benchmarking Multi-Uniband") }
         NR <= 8 || on' "$rt/p2pbench-imb-all.txt" >base.txt
    # own LINE-REGEX REPLACEMENT: base.txt with the first match replaced, imported (exit 0)
    own() {
        sed "0,/$1/s//$2/" base.txt >m.txt
        cmp -s base.txt m.txt && fail "sed '$1' changed nothing"
        rm -rf o && expect_status 0 "$bin" import m.txt -o o
    }
    mu() { rows o/m.jsonl multi-uniband "$1"; }
    own '^            1           64 ' '          abc           64 '
    grep -q "m.txt: warning: line 59: Multi-Uniband table (line 35): row skipped: Group 'abc' is not a finite number; the rows before and after it kept" err.txt ||
        fail "Group abc: $(cat err.txt)"
    eq "$(mu '0->1') $(mu '2->3')" "12 11" "Group abc: rows of groups 0 and 1"
    near "$(csvval o/m.jsonl multi-uniband '2->3' 128 mbytes_per_sec)" 220.63 0.001 "Group abc: the row after it"
    # bad_row FROM TO WARNING WHAT: the row of line 59 changed; one warning, the rest kept
    bad_row() {
        own "$1" "$2"
        grep -q "line 59: .*row skipped: $3" err.txt || fail "$4: $(cat err.txt)"
        eq "$(mu '0->1') $(mu '2->3')" "12 11" "$4: rows"
    }
    bad_row '^            1           64 ' '           -1           64 ' \
        "Group -1 is not a whole number 0..1000000" "Group -1"
    bad_row '^            1           64 ' '            7           64 ' \
        "Group 7 is not one of the 2 groups the header lists" "Group 7"
    bad_row '^\(            1           64 .*\)$' '\1 5' \
        "6 values where the header has 5 columns" "extra column"
    # the first row (after the header and a blank line)
    own '^            0            0 ' '          abc            0 '
    grep -q "line 37: .*row skipped: Group 'abc'" err.txt || fail "first row abc: $(cat err.txt)"
    eq "$(mu '0->1') $(mu '2->3')" "11 12" "first row abc rows"
    # Msg/sec 0 is an infinite time: refused like a negative value, never an ok row without t
    own ' 773.57       755438$' ' 773.57            0'
    grep -q "line 70: Multi-Uniband table (line 35) cut short: msg/s 0 is zero (an infinite time); the 22 rows before it kept" err.txt ||
        fail "Msg/sec 0: $(cat err.txt)"
    eq "$(mu '0->1') $(mu '2->3')" "11 11" "Msg/sec 0 rows"
    grep -q '"median":null' o/m.jsonl && fail "Msg/sec 0: a row without a time"
    # _winW: a whole number 1..65536 (p2pbench --window), else the table is skipped
    for w in 99999999999 0 abc -5 '' 2147483648 65537; do
        own '^# Benchmarking Uniband$' "# Benchmarking Uniband_win$w"
        grep -q "m.txt: warning: line 13: Uniband table skipped: line 9: section \"Uniband_win$w\": window '$w' is not a whole number 1..65536" err.txt ||
            fail "_win$w: $(cat err.txt)"
        eq "$(rows o/m.jsonl uniband '0->1') $(mu '0->1')" "0 12" "_win$w rows"
    done
    own '^# Benchmarking Uniband$' '# Benchmarking Uniband_win16_win32'
    grep -q "Uniband table skipped: line 9: section \"Uniband_win16_win32\": suffix '_win32' given twice" err.txt || fail "_win16_win32: $(cat err.txt)"
    own '^# Benchmarking Uniband$' '# Benchmarking Uniband_win65536'
    near "$(csvval o/m.jsonl uniband '0->1' 1024 t_median_usec)" 13159.2712 0.001 "_win65536: t = 65536 / 4980215 msg/s"
    own '^# Benchmarking Uniband$' '# Benchmarking Uniband_win16'
    near "$(csvval o/m.jsonl uniband '0->1' 1024 t_median_usec)" 3.21271 0.0001 "_win16: t = 16 / 4980215 msg/s"
    # group lines: ranks 0..INT_MAX-1, groups 0, 1, ... in order
    own '^# Group  1:     2    3' '# Group 1: 2 99999999999'
    grep -q "m.txt: warning: line 35: Multi-Uniband table skipped: line 32: \"# Group 1: 2 99999999999\": the ranks are not one or two whole numbers 0..2147483646" err.txt ||
        fail "group line: $(cat err.txt)"
    eq "$(mu '0->1') $(rows o/m.jsonl uniband '0->1')" "0 12" "bad group line rows"
    own '^# Group  1:' '# Group  2:'
    grep -q "line 32: \"# Group  2:     2    3\": the groups are not numbered 0, 1, 2, ... in order" err.txt || fail "group order: $(cat err.txt)"
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
    expect_status 0 "$bin" plot a -o w.svg --gnuplot ./warngp -k pingpong
    [ -s err.txt ] && fail "gnuplot warnings passed through: $(cat err.txt)"
    # without -k: the kernels not drawn are named, once
    expect_status 0 "$bin" plot a -o w2.svg
    eq "$(cat err.txt)" "p2pbench-report: plot drew kernel pingpong; the files also hold sendrecv (one plot per kernel: -k NAME)" "plot: kernels not drawn"
    # labels literally (no enhanced text: _ is no subscript); unlabelled files by short name
    sed 's/"label":"native"/"label":"Experiment_1"/' a/a-01.jsonl >e.jsonl
    sed 's/"label":"native"/"label":""/' a/a-01.jsonl >unlabelled.jsonl
    expect_status 0 "$bin" plot e.jsonl .//unlabelled.jsonl -o e.svg
    grep -q "<text>Experiment_1</text>" e.svg || fail "label not literal in the legend"
    grep -q "<text>unlabelled</text>" e.svg || fail "unlabelled file not named 'unlabelled'"
    grep -q "//" e.svg && grep "<text>.*//" e.svg && fail "a path in the legend"
    # labels with single quotes anywhere (gnuplot 5.4 reads neither '''q' nor
    # 'a''''b') and with backquotes (never run: no double-quoted text in the script)
    sed "s/\"label\":\"native\"/\"label\":\"'q\"/" a/a-01.jsonl >q1.jsonl
    sed "s/\"label\":\"domU\"/\"label\":\"a''b\"/" b/b-01.jsonl >q2.jsonl
    sed "s/\"label\":\"native\"/\"label\":\"\`touch pwned\`'\"/" a/a-01.jsonl >q3.jsonl
    expect_status 0 "$bin" plot q1.jsonl --vs q2.jsonl -o q.svg
    grep -q "<text>'q pingpong</text>\|<text>'q</text>" q.svg || fail "legend: no 'q: $(grep -o '<text>[^<]*</text>' q.svg | tr '\n' ' ')"
    expect_status 0 "$bin" plot q3.jsonl q2.jsonl -o q3.svg
    [ -e pwned ] && fail "a backquoted label ran a command"
    grep -q "<text>\`touch pwned\`'</text>" q3.svg || fail "legend: backquoted label not literal: $(grep -o '<text>[^<]*</text>' q3.svg | tr '\n' ' ')"
    grep -q "<text>a''b</text>" q3.svg || fail "legend: a''b not literal"
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
    # the eager limits: dashed lines, their labels above the frame, clear of
    # the title, the tick labels and each other (svg_labels.awk, on gnuplot's
    # coordinates); 4K and, at the right edge, 1M
    GEN_RUN='"eager_limit_marked":4096' gen e4 e4 small 2 1.0
    GEN_RUN='"eager_limit_marked":1048576' gen e1 e1 big 2 1.3
    for v in "e4" "e4 --vs e1"; do
        # shellcheck disable=SC2086 # the sides' arguments
        expect_status 0 "$bin" plot $v -k pingpong -o eager.svg
        awk -v fmt=gnuplot -f "$here/svg_labels.awk" eager.svg >labels.txt
        want=$([ "$v" = e4 ] && echo 2 || echo 4)
        grep -q "^labels $want$" labels.txt || fail "plot $v: want $want eager labels: $(tail -1 labels.txt)"
        grep -v "^labels" labels.txt >bad.txt && fail "plot $v: $(head -3 bad.txt)"
    done
    grep -q "eager limit 1M big" eager.svg || fail "plot: the labels do not name their sides"
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
    # the hypervisor fact: a verdict "other" from signals that disagree says so
    sed 's/"memory_bytes":4294967296}}/"memory_bytes":4294967296,"hypervisor":{"verdict_derived":"other","verdict_basis":"signals disagree","signals_disagree":true,"disagreeing_signals":["cpuid_0x40000000_vendor suggests bhyve","clocksource suggests kvm"]}}}/' \
        a/a-01.jsonl >hv.jsonl
    grep -q '"signals_disagree":true' hv.jsonl || fail "hv.jsonl: the run record did not take the hypervisor object"
    expect_status 0 "$bin" html hv.jsonl -o hv.html
    grep -q "<th>hypervisor</th><td>other; the signals disagree: cpuid_0x40000000_vendor suggests bhyve, clocksource suggests kvm</td>" hv.html ||
        fail "hypervisor cell: $(grep -o '<th>hypervisor</th><td>[^<]*' hv.html)"
    sed 's/"memory_bytes":4294967296}}/"memory_bytes":4294967296,"hypervisor":{"verdict_derived":"bhyve","verdict_basis":"cpuid_0x40000000_vendor","signals_disagree":false,"disagreeing_signals":[]}}}/' \
        a/a-01.jsonl >hv2.jsonl
    expect_status 0 "$bin" html hv2.jsonl -o hv2.html
    grep -q "<th>hypervisor</th><td>bhyve (from cpuid_0x40000000_vendor)</td>" hv2.html || fail "hypervisor cell: $(grep -o '<th>hypervisor</th><td>[^<]*' hv2.html)"
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
    grep -q "^p2pbench-report: -k/--kernel is not an option of html; html takes --vs, -o/--output, " err.txt || fail "html -k: $(cat err.txt)"
    [ -e k.html ] && fail "a usage error left k.html"
    expect_status 1 "$bin" html a -o no/such/dir/x.html
    grep -q "cannot write 'no/such/dir/x.html'" err.txt || fail "unwritable: $(cat err.txt)"
    expect_status 1 "$bin" html a/a-01.jsonl nosuch.jsonl -o n.html
    [ -e n.html ] && fail "a missing input left n.html"
    [ -z "$(ls ./*.html.* 2>/dev/null)" ] || fail "temporary files left: $(ls ./*.html.*)"

    # What the results file holds reaches the page: placement warnings and the
    # link profile in the notes (never "none"), the hypervisor's disagreeing signals
    over='5 ranks on host vm, which has 2 PU(s): oversubscribed'
    unb='ranks 0,1,2,3,4 on host vm are not bound to a PU set (binding: 0-1)'
    hv='"hypervisor":{"signals":{"cpuid_0x40000000_vendor":"bhyve bhyve ","clocksource":"kvm-clock"},"container":{"container_derived":"docker"},"verdict_derived":"other","verdict_basis":"cpuid_0x40000000_vendor","signals_disagree":true,"disagreeing_signals":["clocksource suggests kvm"]}'
    GEN_RUN="\"link_profile\":\"wan-10ms\",\"warnings\":[\"$over\",\"$unb\"],\"mpi_env\":{}" GEN_HOST="$hv" \
        gen vm vm vm 4 1.1
    expect_status 0 "$bin" html vm -o vm.html
    grep -q "<li>warning: placement on side A (vm), in 4 of 4 launches: $over</li>" vm.html || fail "html: no oversubscription warning in the notes"
    grep -q "<li>warning: placement on side A (vm), in 4 of 4 launches: $unb</li>" vm.html || fail "html: no unbound-ranks warning in the notes"
    grep -q "<li>link profile (the testbed&#39;s shaped links): vm: &#39;wan-10ms&#39; in 4 of 4 launches</li>" vm.html ||
        fail "html: no link profile in the notes"
    grep -q "none: every file complete" vm.html && fail "html: the notes say none beside placement warnings"
    grep -q "<th>placement</th><td>2 placement warnings (in the notes)</td>" vm.html || fail "html: placement fact"
    grep -q "<th>link profile</th><td>wan-10ms</td>" vm.html || fail "html: link profile fact"
    grep -q "<th>hypervisor</th><td>other (from cpuid_0x40000000_vendor &#39;bhyve bhyve &#39;); the signals disagree: clocksource suggests kvm; in a container (docker)</td>" vm.html ||
        fail "html: the hypervisor cell does not say that the signals disagree"
    # compare prints the same notes above its tables
    expect_status 0 "$bin" compare a --vs vm
    grep -q "^# warning: placement on side B (vm), in 4 of 4 launches: $over$" out.txt || fail "compare: no placement warning"
    grep -q "^# link profile (the testbed's shaped links): native: none; vm: 'wan-10ms' in 4 of 4 launches$" out.txt ||
        fail "compare: no link profile note"

    # An imported log: named by its source, not the importer's version; its
    # date as logged, in the same layout as the others; MPI settings unknown
    expect_status 0 "$bin" import "$cases/case21.txt" -o .
    GEN_RUN='"mpi_env":{"OMPI_MCA_btl":"tcp,self"}' gen n n native 1 1.0
    expect_status 0 "$bin" html n --vs case21.jsonl -o imp.html
    grep -q "<tr class=\"differs\"><th>measured by</th><td>p2pbench 0.1.0</td><td>imb-2019-update-6 (an imported log; imported by p2pbench-report [^<]*)</td></tr>" imp.html ||
        fail "html: an imported log is not named by its source"
    grep -q "<th>git commit</th><td>synthetic</td><td>not in the log</td>" imp.html || fail "html: the importer's commit shown as the log's"
    grep -q '<span class="n">2026-01-01 00:00:01 UTC</span></td><td>1<br><span class="n">2020-10-01 16:20:15 (as logged, zone unknown)</span>' imp.html ||
        fail "html: start times not in one layout"
    grep -q "Thu Oct" imp.html && fail "html: the raw IMB date beside ISO"
    expect_status 0 "$bin" compare n --vs case21.jsonl
    grep -q "^#   mpi_env.OMPI_MCA_btl: native = tcp,self | case21 = (unknown: an imported log records no MPI settings)$" out.txt ||
        fail "compare: an imported log's MPI setting: $(grep mpi_env out.txt)"
    grep -q "library default" out.txt && fail "compare: an imported log's MPI setting called the library default"
    grep -q "git_commit: native" out.txt && fail "compare: the importer's commit compared with p2pbench's"
    # the policy fact words the state too: steady against cold differs
    gen st st steady 1 1.0
    gen co co cold 1 1.0
    sed -i 's/"policy":{"mode":"adaptive"}/"policy":{"mode":"adaptive","state":"steady"}/' st/*.jsonl
    sed -i 's/"policy":{"mode":"adaptive"}/"policy":{"mode":"adaptive","state":"cold"}/' co/*.jsonl
    expect_status 0 "$bin" html st --vs co -o pol.html
    grep -q '<tr class="differs"><th>policy</th><td>adaptive, steady</td><td>adaptive, cold</td></tr>' pol.html ||
        fail "html: policy state: $(grep -o '<tr[^>]*><th>policy</th>[^\n]*</tr>' pol.html | head -1)"
    # a run that records its environment without the setting: the library default
    GEN_RUN='"mpi_env":{}' gen n0 n0 plain 1 1.0
    expect_status 0 "$bin" compare n --vs n0
    grep -q "^#   mpi_env.OMPI_MCA_btl: native = tcp,self | plain = (not set: library default)$" out.txt ||
        fail "compare: a setting on one side only: $(grep mpi_env out.txt)"

    # Disturbed points graded: the ring's arc is the share of the launches,
    # its weight the time they lost (gen: 2 of 6 launches at 1K lost 3%, all
    # 6 at 64K lost 40%); the notes give the fraction of launch rows
    GEN_DIST="1024:2:3:0 65536:6:0:40" gen d d dist 6 1.0
    expect_status 0 "$bin" html d --vs slow -o d.html
    eq "$(grep -c '<g class="dmark" data-share="2/6" data-lost="3.0"><title>dist 1K: 2 of 6 launches' d.html)" 4 "html: 1K rings (2 kernels x 2 charts)"
    eq "$(grep -c '<g class="dmark" data-share="6/6" data-lost="40.0">' d.html)" 4 "html: 64K rings"
    eq "$(grep -c '<g class="dmark" data-share' d.html)" 8 "html: rings only where launches were disturbed"
    # 2 of 6: an arc of 120 degrees from 12 o'clock (end: cx + 8 sin 120, cy - 8 cos 120), thin;
    # 6 of 6: a full circle, thick
    bad=$(grep -o '<g class="dmark" data-share="2/6"[^\n]*</g>' d.html | awk '{
        match($0, /<circle cx="[0-9.]*" cy="[0-9.]*"/); split(substr($0, RSTART, RLENGTH), c, "\"")
        match($0, /<path d="M[^"]*"/); p = substr($0, RSTART + 9, RLENGTH - 10); gsub(/[MA,]/, " ", p); split(p, a, " ")
        if (a[1] != c[2] || a[2] != c[4] - 8 || a[6] != 0 || a[7] != 1 || (a[8] - (c[2] + 6.928))^2 > 0.001 ||
            (a[9] - (c[4] + 4))^2 > 0.001 || $0 !~ /stroke-width:1.2"/) print }')
    [ -z "$bad" ] || fail "html: a 2/6 ring is not a thin 120-degree arc: $bad"
    grep -o '<g class="dmark" data-share="6/6"[^\n]*</g>' d.html | grep -q -v '<circle [^>]*stroke:#000;stroke-width:3.8"/></g>$' &&
        fail "html: a 6/6 ring at 40% lost is not a thick full circle"
    grep -q "dist: 16 of 48 launch rows disturbed (33%)" d.html || fail "html: the notes do not give the fraction"
    grep -q "Ring: some of the side's launches at this size were disturbed or shifted.*dark arc.*share.*weight is the time they lost" d.html ||
        fail "html: the legend does not say what the ring means"

    # Eager-limit labels off the data and the tick labels: above the plot
    # frame, clear of every other text (svg_labels.awk, on the coordinates);
    # one side's limit, both sides' at 4K and 1M (the latter at the right edge)
    GEN_RUN='"eager_limit_marked":4096' gen e4 e4 small 2 1.0
    GEN_RUN='"eager_limit_marked":1048576' gen e1 e1 big 2 1.3
    expect_status 0 "$bin" html e4 -o e1.html
    expect_status 0 "$bin" html e4 --vs e1 -o e2.html
    for f in e1 e2; do
        awk -v fmt=html -f "$here/svg_labels.awk" $f.html >labels.txt
        want=$([ $f = e1 ] && echo 4 || echo 8)
        grep -q "^labels $want$" labels.txt || fail "$f.html: want $want eager labels: $(tail -1 labels.txt)"
        grep -v "^labels" labels.txt >bad.txt && fail "$f.html: $(head -3 bad.txt)"
    done
    ;;
*)
    echo "unknown test $test" >&2; exit 2 ;;
esac
report_done
