#!/bin/sh
# SPDX-License-Identifier: MIT
# Tests of p2pbench-report show and compare (no MPI). Usage:
#   report_tests.sh TEST REPORT_BIN SOURCE_DIR WORK_DIR
# TEST: golden | synthetic | errors | campaign | campaignlock | load | order | verdict | marks | incomplete
#       | scale (probe, bound: report_notes_tests.sh)
# shellcheck source=SCRIPTDIR/report_lib.sh
. "$3/tests/report/report_lib.sh"

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
    # unlabelled files with long names: columns [1], [2] and the names under the title
    sed 's/"label":"native"/"label":""/' a/a-01.jsonl >p2pbench-20261203T063049Z-vm-1.jsonl
    sed 's/"label":"domU"/"label":""/' b/b-01.jsonl >p2pbench-20261203T063050Z-vm-2.jsonl
    expect_status 0 "$bin" show -m latency p2pbench-20261203T0630*.jsonl
    grep -q '^# \[2\] p2pbench-20261203T063050Z-vm-2.jsonl$' out.txt || fail "show -m legend: $(cat out.txt)"
    grep -Eq '^ +bytes +size +\[1\] +\[2\]$' out.txt || fail "show -m columns: $(cat out.txt)"
    for f in text markdown csv json; do
        expect_status 0 "$bin" compare a --vs b -f $f; golden compare-$f.txt
    done
    # labels and paths from files are escaped in compare's markdown header lines too
    mkdir -p "x<b>"
    sed 's/"label":"native"/"label":"<img src=x>|a"/' a/a-01.jsonl >"x<b>/x.jsonl"
    expect_status 0 "$bin" compare "x<b>/x.jsonl" --vs b -f markdown
    grep -q '<img\|<b>' out.txt && fail "compare markdown: raw markup: $(grep '<img\|<b>' out.txt | head -2)"
    grep -q '^## p2pbench-report compare: &lt;img src=x&gt;\\|a vs ' out.txt || fail "compare markdown heading: $(head -1 out.txt)"
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
    grep -q "p_adj = Welch's t on log launch values, Holm" out.txt || fail "--fail-on-regression must use Holm"
    expect_status 0 "$bin" compare a --vs slow
    grep -q "p_adj = Welch's t on log launch values, Benjamini-Hochberg" out.txt || fail "default must be Benjamini-Hochberg"
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
    # the eager limit the run marked: show marks it as the live tables did
    sed '1s/"type":"run",/"type":"run","eager_limit_marked":4096,/' a/a-01.jsonl >eager.jsonl
    expect_status 0 "$bin" show eager.jsonl
    eq "$(grep -c -- '--- eager limit 4096 bytes' out.txt)" 2 "show: eager limit lines (PingPong, Sendrecv)"
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
    grep -q "smallest reachable Mann-Whitney p is 0.1 (>= 0.05); use at least 4 launches per side" err.txt \
        || fail "3 launches: the gate's message: $(cat err.txt)"
    eq "$(grep -c 'no verdict (< 4 launches)' out.txt)" 14 "3 launches: no verdict rows"
    grep -q "changed (" out.txt && fail "3 launches gave a verdict"
    grep -q " 1.200 " out.txt || fail "3 launches: ratio not shown"
    # 4 vs 4 launches, 8 latency rows, Holm: the Mann-Whitney floor 2/70 = 0.029 is the
    # gate, not adjusted; Welch's p on the logs falls with the spread (1.6% here), so
    # Holm over 8 rows still finds the 20% slowdown at every row
    gen four4 four4 f4 4 1.0
    gen slow4 slow4 s4 4 1.2
    expect_status 1 "$bin" compare four4 --vs slow4 --fail-on-regression
    eq "$(grep -c 'changed (worse)' out.txt)" 14 "4 vs 4, Holm: changed rows"
    grep -q "smallest reachable" out.txt err.txt && fail "4 vs 4: the gate can pass: no warning"
    expect_status 0 "$bin" compare four4 --vs slow4
    eq "$(grep -c 'changed (worse)' out.txt)" 14 "4 vs 4, BH: changed rows"
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
    grep -q "ucx.txt: warning: PingPong table (line 4): table ends early at 1: the MPI library's lines at line 6 (UCX) stop it before 4194304 bytes: cut short" err.txt \
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
    # a repeated option is refused, never the last one kept (issue 20, item 17)
    expect_status 2 "$bin" show -m latency --metric throughput a/a-01.jsonl
    grep -q "^p2pbench-report: --metric given twice ('latency', then 'throughput'): give it once" err.txt || fail "show -m -m: $(cat err.txt)"
    expect_status 2 "$bin" compare -t 5 a --vs a -t 10
    grep -q "^p2pbench-report: --threshold given twice ('5', then '10'): give it once" err.txt || fail "compare -t -t: $(cat err.txt)"
    # inconsistent rows are refused naming file, line and field (issue 20, item 17)
    run='{"type":"run","schema":"p2pbench/1","nranks":2}'
    row='{"type":"result","kernel":"pingpong","bytes":8,"nranks":2'
    for bad in '"status":3}:field "status" is not a string (ok, skipped, failed, timeout)' \
        '"status":"ok","t_usec":{"min":1,"median":1e999,"max":3}}:field "t_usec.median" is not a finite number' \
        '"status":"ok","t_usec":{}}:field "t_usec.min" is missing or null in a row with status ok'; do
        printf '%s\n%s,%s\n{"type":"end","status":"complete"}\n' "$run" "$row" "${bad%%:field*}" >badrow.jsonl
        expect_status 1 "$bin" show badrow.jsonl
        eq "$(cat err.txt)" "p2pbench-report: badrow.jsonl:2: field ${bad#*:field }" "show of a row with ${bad%%:field*}"
    done
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
    # the list of what a command takes is its own table's (args.c, cmd_*.c)
    expect_status 2 "$bin" show -t 5 a/a-01.jsonl
    grep -q "^p2pbench-report: -t/--threshold is not an option of show; show takes -f/--format, -m/--metric\$" err.txt ||
        fail "show -t: $(cat err.txt)"
    # after "--" every word is a file, never an option (a gate quietly off otherwise)
    expect_status 0 "$bin" show -- a/a-01.jsonl
    expect_status 1 "$bin" compare a/a-01.jsonl --vs a/a-02.jsonl -- --fail-on-regression
    grep -q "^p2pbench-report: --fail-on-regression: cannot open" err.txt || fail "-- then an option-like file: $(cat err.txt)"
    # a value echoed in an error stays on its one line; -V after baseline; no empty -o
    expect_status 2 "$bin" show a/a-01.jsonl -m "$(printf 'x\nFAKE: all good')"
    [ "$(wc -l <err.txt)" = 2 ] && grep -q "^p2pbench-report: invalid value 'x?FAKE: all good' for --metric" err.txt ||
        fail "newline in a value: $(cat err.txt)"
    expect_status 0 "$bin" baseline -V
    expect_status 2 "$bin" import "$cases/case04.txt" -o ''
    grep -q "^p2pbench-report: empty value for --output" err.txt || fail "import -o '': $(cat err.txt)"
    expect_status 2 "$bin" compare a --vs a --holm=1
    grep -q "^p2pbench-report: option '--holm' takes no value" err.txt || fail "--holm=1: $(cat err.txt)"
    expect_status 0 "$bin" --help
    # COMMAND --help: that command and the options it takes, nothing else
    "$bin" compare --help >help.txt 2>&1 || fail "compare --help: exit $?"
    for o in --format --vs --threshold --holm --fail-on-regression --allow-incomplete --max-file-size --help; do
        grep -q -- "^ .* $o\b" help.txt || fail "compare --help lacks $o"
    done
    ! grep -q -e "--heatmap" -e "--kernel" -e "--title" -e "^  show " help.txt || fail "compare --help lists another command's: $(cat help.txt)"
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
    # the launches' stdout goes beside their files, not to campaign.sh's stdout
    grep -q "fake table of camp/native/native-01.jsonl" camp/native/native-01.txt && ! grep -q "fake table" out.txt ||
        fail "launch stdout: $(head -3 out.txt)"
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
    # printed_compare ERRFILE: the arguments after "compare" of the printed command,
    # whatever program it names (p2pbench-report on PATH, or an absolute path to a
    # source tree's build/p2pbench-report: what else sits in the checkout decides,
    # never the test); "" when no such line or another program
    printed_compare() {
        sed -nE "s#^  (p2pbench-report|/[^ ]*/p2pbench-report) compare #compare #p" "$1"
    }
    cmd=$(printed_compare err.txt)
    [ -n "$cmd" ] || fail "no printed compare command: $(tail -2 err.txt)"
    eval "set -- $cmd"
    expect_status 0 "$bin" "$@"
    { grep -q "native (n=2)" out.txt && grep -q "native-vm (n=2)" out.txt; } ||
        fail "printed compare command ($cmd): $(head -3 out.txt)"
    # a copy of the scripts in a tree with a build/p2pbench-report (as after
    # scripts/quickstart.sh) and no p2pbench-report on PATH: the command names that
    # program by its absolute path, with the same arguments
    mkdir -p tree/scripts/lib tree/build && cp "$c" tree/scripts/ && cp "$src/scripts/lib/common.sh" tree/scripts/lib/
    printf '#!/bin/sh\nexit 0\n' >tree/build/p2pbench-report && chmod +x tree/build/p2pbench-report
    expect_status 0 env PATH=/usr/bin:/bin sh tree/scripts/campaign.sh -n 1 -o treecamp -A "sh '$fake' log 1.0" -B "sh '$fake' log 1.0"
    t=$(cd tree/build && pwd)
    grep -q "^  $t/p2pbench-report compare 'treecamp/A' --vs 'treecamp/B'$" err.txt ||
        fail "printed command with build/ present: $(tail -1 err.txt)"
    eq "$(printed_compare err.txt)" "compare 'treecamp/A' --vs 'treecamp/B'" "printed command's arguments with build/ present"
    # a directory given with trailing slashes names its files without "//"
    expect_status 0 "$bin" compare "$d/native/" --vs "$d/native-vm//"
    grep -q "$d/native/native-01.jsonl" out.txt && ! grep -q "//" out.txt ||
        fail "trailing slash: $(head -3 out.txt)"
    for bad in '*' 'a b' '-x' '.hidden' 'a/b' "x'y" '' "$(printf '%064d' 0)"; do
        expect_status 2 sh "$c" -n 2 -o camp3 -a "$bad" -b B -A true -B true
        grep -q "label '.*' must be 1 to 63\|longer than 63" err.txt || fail "label '$bad': $(cat err.txt)"
    done
    expect_status 2 sh "$c" -n 2 -o camp3 -a same -b same -A true -B true
    expect_status 0 sh "$c" -n 1 -o camp3 -a "v1.2_x+y" -b B -A "sh '$fake' log 1.0" -B "sh '$fake' log 1.0"
    ;;
load)
    # issue 34: the host's load per launch (run record "load", end record "load")
    # as a confounder with its numbers; a measured quantity's jitter is none.
    g="$here/gen_launches.sh"
    # reading CPU_AVG10 PROCS LOADAVG1 TOTAL_US SEC: one load reading
    reading() { printf '{"cpu_some_avg10":%s,"cpu_some_total_us":%s,"monotonic_sec":%s,"loadavg":[%s,0.3,0.2],"procs_running":%s}' "$1" "$4" "$5" "$3" "$2"; }
    # loads AVG10 PROCS LOADAVG1 WAIT_US: GEN_RUN and GEN_END_X of a launch whose
    # kernel waited WAIT_US of its 1 s for a CPU
    loads() {
        GEN_RUN="\"load\":{\"local_ranks\":2,\"at_start\":$(reading "$1" "$2" "$3" 5000000 99)}"
        GEN_END_X="\"load\":[{\"kernel\":\"pingpong\",\"start\":$(reading "$1" "$2" "$3" 5000000 100),\"end\":$(reading "$1" "$2" "$3" $((5000000 + $4)) 101)}]"
        export GEN_RUN GEN_END_X
    }
    loads 2 2 0.4 30000 && sh "$g" quiet q native 5 1.0
    loads 88 4 2.6 900000 && sh "$g" busy b domU 5 1.0
    loads 4 2 0.5 50000 && sh "$g" quiet2 q native2 5 1.0
    unset GEN_RUN GEN_END_X
    want="load (rank 0's host, during the kernels): native = CPU pressure 3% (3..3%), 0.0 tasks beside the ranks, load average 0.4 | domU = CPU pressure 90% (90..90%), 2.0 tasks beside the ranks, load average 2.6"
    expect_status 0 "$bin" compare quiet --vs busy
    grep -qxF "#   $want" out.txt || fail "load difference line: $(grep -A4 'Host context' out.txt)"
    grep -q "^# Host context differences besides the label (1)" out.txt || fail "load counted: $(grep 'Host context' out.txt)"
    expect_status 0 "$bin" html quiet --vs busy -o load.html
    grep -qF "CPU pressure 90% (90..90%), 2.0 tasks beside the ranks" load.html || fail "html: no load line"
    # 3% against 5% CPU pressure, no task beside: no difference
    expect_status 0 "$bin" compare quiet --vs quiet2
    grep -q "^#   load " out.txt && fail "3% vs 5% named as a load difference: $(grep '^#   load' out.txt)"
    # no load recorded (older files): nothing said
    sh "$g" old o old 5 1.0
    expect_status 0 "$bin" compare old --vs busy
    grep -q "^#   load " out.txt && fail "a side without load readings: $(grep '^#   load' out.txt)"
    # the timer's resolution, measured per launch: 21, 18 ns against 17, 16 ns is its
    # jitter, not a difference; 20 against 200 ns is one
    for r in 21:ta:1 18:ta:2 17:tb:1 16:tb:2 20:tc:1 20:tc:2 200:td:1 200:td:2; do
        GEN_RUN="\"timer\":{\"source\":\"clock_gettime(CLOCK_MONOTONIC)\",\"resolution_ns\":${r%%:*}}" \
            sh "$g" "$(echo "$r" | cut -d: -f2)" "t${r##*:}" x 2 1.0
    done
    expect_status 0 "$bin" compare ta --vs tb
    grep -q "timer.resolution_ns" out.txt && fail "timer jitter 21/18 vs 17/16 ns named: $(grep timer out.txt)"
    expect_status 0 "$bin" compare tc --vs td
    grep -qxF "#   timer.resolution_ns: A = 20 | B = 200" out.txt || fail "20 vs 200 ns not named: $(grep -A3 'Host context' out.txt)"
    ;;
campaignlock)
    # Two campaign.sh on one directory: while the first runs its first launch,
    # a second one fails at once, naming the directory, and runs, renames and
    # writes nothing; the first then finishes every launch once.
    c="$src/scripts/campaign.sh" fake="$here/fake_launch.sh"
    # gate.sh: the first launch of the test waits (at most 30 s) for file 'go'
    cat >gate.sh <<GATE
if mkdir gate.taken 2>/dev/null; then
    : >started
    i=0
    while [ ! -e go ] && [ \$i -lt 300 ]; do sleep 0.1; i=\$((i + 1)); done
fi
exec sh '$fake' "\$@"
GATE
    sh "$c" -n 2 -s 5 -o camp -A "sh gate.sh log 1.0" -B "sh gate.sh log 1.2" >first.out 2>first.err &
    first=$!
    i=0
    while [ ! -e started ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
    [ -e started ] || fail "the first campaign's first launch did not start"
    before=$(cd camp && find . -type f | sort)
    expect_status 1 sh "$c" -n 2 -s 5 -o camp -A "sh gate.sh log 1.0" -B "sh gate.sh log 1.2"
    { [ "$(wc -l <err.txt)" = 1 ] && grep -q "^campaign.sh: error: another campaign.sh is running on camp " err.txt; } ||
        fail "second campaign's message: $(cat err.txt)"
    eq "$(cd camp && find . -type f | sort)" "$before" "files of the campaign while the second was refused"
    [ -e log ] && fail "the second campaign ran launches: $(cat log)"
    : >go
    rc=0
    wait $first || rc=$?
    eq "$rc" 0 "the first campaign's exit status"
    eq "$(sort log | tr '\n' ' ')" "camp/A/A-01.jsonl camp/A/A-02.jsonl camp/B/B-01.jsonl camp/B/B-02.jsonl " \
        "every launch ran once"
    [ -z "$(find camp -name '*.incomplete')" ] || fail "launch files set aside: $(find camp -name '*.incomplete')"
    grep -q "all 4 launches finished" first.err || fail "first campaign: $(cat first.err)"
    # once it has ended, the same command is let in (and finds nothing to run)
    expect_status 0 sh "$c" -n 2 -s 5 -o camp -A "sh gate.sh log 1.0" -B "sh gate.sh log 1.2"
    eq "$(wc -l <log | tr -d ' ')" 4 "launches after the rerun"
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
    GEN_MINUTE=1 gen plain plain a 2 1.0 # other launches than ba-01, ba-02
    expect_status 0 "$bin" compare ba plain --vs bb
    grep -q "^# warning: 2 of 14 launches record no campaign position" out.txt || fail "unknown positions"
    ;;
verdict)
    # the issue's campaign: 4 + 4 launches, PingPong at 64K and 1M only, native vs a
    # link about 217 times slower at 1M; at 64K both sides have the same values but
    # one native launch (position 2, x2.5) was slow. Before: Mann-Whitney p 2/70 at 1M,
    # BH over 2 rows 0.057: "inconclusive". Now the gate passes (0.0286) and Welch's p
    # on the logs, adjusted, decides.
    GEN_POS_FACTOR=2.5 GEN_SIDE=A GEN_POS="1 1 1 2" gen nat nat native 4 1.0
    gen shp shp shaped 4 217 2
    for i in 1 2 3 4; do
        j=$i; [ "$i" = 4 ] && j=1
        for f in nat/nat-0$i shp/shp-0$i; do
            grep -v '"kernel":"sendrecv"\|"bytes":0,\|"bytes":1024,' $f.jsonl >t.jsonl && mv t.jsonl $f.jsonl
        done
        { grep -v '"bytes":65536,\|"type":"end"' shp/shp-0$i.jsonl; grep '"bytes":65536,' nat/nat-0$j.jsonl
          grep '"type":"end"' shp/shp-0$i.jsonl; } >t.jsonl && mv t.jsonl shp/shp-0$i.jsonl
    done
    for h in "" --holm; do
        expect_status 0 "$bin" compare nat --vs shp $h
        eq "$(grep -c '^ *1048576 .* 0.0286 .* changed (worse)$' out.txt)" 2 "issue $h: 1M rows (latency, throughput) changed"
        eq "$(grep -c '^ *65536 .* inconclusive (equivalence needs ~[0-9]* launches per side)$' out.txt)" 2 \
            "issue $h: 64K rows inconclusive with a power note"
    done
    grep -q ' 0.00463 \[0.00455..0.0117\] ' out.txt || fail "issue: 1M throughput ratio: $(grep 1048576 out.txt)"
    expect_status 1 "$bin" compare nat --vs shp --fail-on-regression
    # power notes: launches alternate 1.0 and 1.08 (position 2 x 1.08) on both sides
    GEN_POS_FACTOR=1.08 GEN_SIDE=A GEN_POS="1 2 1 2 2 1" gen na na a 6 1.0
    GEN_POS_FACTOR=1.08 GEN_SIDE=B GEN_POS="2 1 2 1 1 2" gen nb nb b 6 1.0 2
    GEN_POS_FACTOR=1.08 GEN_SIDE=B GEN_POS="2 1 2 1 1 2" gen nc nc c 6 1.1 2
    gen ne ne e 6 1.05 2
    gen a a base 6 1.0
    expect_status 0 "$bin" compare na --vs nb
    # (8 latency rows: 15 launches; 6 throughput rows, whose ratio differs a little: 13)
    eq "$(grep -c 'inconclusive (equivalence needs ~15 launches per side)$' out.txt)" 8 "same side: equivalence needs 15"
    eq "$(grep -c 'inconclusive (equivalence needs ~13 launches per side)$' out.txt)" 6 "same side: equivalence needs 13"
    expect_status 0 "$bin" compare na --vs nc
    eq "$(grep -c 'inconclusive (a change needs ~14 launches per side)$' out.txt)" 8 "10% slower: a change needs 14"
    eq "$(grep -c 'inconclusive (a change needs ~15 launches per side)$' out.txt)" 6 "10% slower: a change needs 15"
    # latency 1.05 is on the edge; throughput 1/1.05 = 0.952 lies inside [0.95, 1.05],
    # 0.0025 in log units from its edge: equivalence would need many launches
    expect_status 0 "$bin" compare a --vs ne
    eq "$(grep -c 'inconclusive (ratio on the band edge: more launches will not decide)$' out.txt)" 8 \
        "5% slower: on the band edge"
    eq "$(grep -c 'inconclusive (equivalence needs ~87 launches per side)$' out.txt)" 6 \
        "5% slower: throughput 0.952 near its edge"
    expect_status 0 "$bin" compare na --vs nb -f json
    python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
r = [x for x in d["rows"] if x["verdict"] == "inconclusive"]
ok = d["p_adj_test"] == "welch-t-log" and len(r) == 14 and all(
    x["power"]["to_show"] == "equivalent" and x["power"]["launches_per_side"] in (13, 15) and
    abs(x["power"]["sd_log"] - x["sd_log"]) < 1e-12 and x["df_t"] > 0 for x in r)
sys.exit(0 if ok else 1)' out.txt || fail "json: power of the inconclusive rows"
    expect_status 0 "$bin" compare a --vs ne -f csv
    eq "$(awk -F, '$1 == "latency" && $5 == "pingpong" && $7 == 1024 { print $22 "," $39 "," $40 }' out.txt)" \
        "inconclusive,,band edge" "csv: launches_needed, launches_needed_to_show on the edge"
    expect_status 0 "$bin" compare na --vs nc -f csv
    eq "$(awk -F, '$1 == "latency" && $5 == "pingpong" && $7 == 1024 { print $39 "," $40 }' out.txt)" \
        "14,changed" "csv: launches_needed, launches_needed_to_show"
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
    # a ring graded by share and amount: 1 of 6 launches, 48.5% of its time lost (thick)
    eq "$(grep -c '<g class="dmark" data-share="1/6" data-lost="48.5"><title>domU 1K: 1 of 6 launches disturbed or shifted' m.html)" 2 "html: rings (2 charts)"
    eq "$(grep -c '<g class="dmark sample"' m.html)" 3 "html: the legend's three ring samples"
    grep -q "domU: 1 of 48 launch rows disturbed (2%), 1 shifted" m.html || fail "html: the notes do not count the marks"
    # an imported log records no disturbance: not 0/1
    "$bin" import "$cases/case04.txt" -o . >/dev/null 2>&1 || fatal "marks: import case04"
    expect_status 0 "$bin" compare case04.jsonl --vs b
    grep -q '; disturbed A not recorded (imported), B 1/6' out.txt ||
        fail "marks: imported side: $(grep disturbed out.txt | head -2)"
    expect_status 0 "$bin" show case04.jsonl
    grep -q "^# t = time per iteration in usec: the log's value, the mean of k iterations (n 1)" out.txt ||
        fail "show of an import: legend: $(grep '^# t =' out.txt)"
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
    head -1 a/a-06.jsonl >nothing.jsonl # the run record only: killed before its first row
    expect_status 0 "$bin" show nothing.jsonl
    grep -q "^# warning: incomplete run, it measured nothing: nothing.jsonl: no end record" out.txt ||
        fail "show of a run without rows: $(grep warning out.txt)"
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
scale)
    # compare at 4 .. 3000 launches per side (issue 20: the Mann-Whitney
    # distribution cancelled in doubles from about 110 per side, no HL CI from
    # about 130, "no verdict (zero value)" on every row above 2000): side A, an
    # A/A twin and a 1.5x slower side, 3% lognormal launch spread, PingPong at
    # 0 and 64K (tests/report/gen_scale.py); size N uses the first N launches.
    python3 "$here/gen_scale.py" a a base 3000 1.0 1 &&
        python3 "$here/gen_scale.py" b b same 3000 1.0 2 &&
        python3 "$here/gen_scale.py" c c slow 3000 1.5 3 || fatal "gen_scale.py failed"
    for n in 4 10 100 101 130 500 3000; do
        fa=$(seq -f 'a/a-%04g.jsonl' 1 $n) fb=$(seq -f 'b/b-%04g.jsonl' 1 $n)
        fc=$(seq -f 'c/c-%04g.jsonl' 1 $n)
        # shellcheck disable=SC2086 # one word per file
        expect_status 1 "$bin" compare $fa --vs $fc --fail-on-regression
        eq "$(grep -c ' changed (worse)$' out.txt)" 3 "$n per side, 1.5x: rows changed (worse)"
        grep -q '^p2pbench-report: 3 rows changed for the worse' err.txt || fail "$n, 1.5x: $(cat err.txt)"
        # the one zero value is true: the 0-byte throughput row (0 MB/s on both sides)
        eq "$(grep -c 'no verdict (zero value)$' out.txt)" 1 "$n, 1.5x: zero-value rows"
        grep -q '^  *0  *0  *0  *0  .* no verdict (zero value)$' out.txt || fail "$n, 1.5x: zero value on a row with numbers"
        # shellcheck disable=SC2086
        expect_status 0 "$bin" compare $fa --vs $fb --fail-on-regression
        grep -q 'changed (' out.txt && fail "$n per side, A/A: $(grep 'changed (' out.txt)"
        eq "$(grep -c 'no verdict (zero value)$' out.txt)" 1 "$n, A/A: zero-value rows"
        # the header says how p_mwu was computed: exact up to 100 + 100
        if [ "$n" -le 100 ]; then
            grep -q 'p_mwu = exact two-sided Mann-Whitney U' out.txt || fail "$n: header: not exact"
        else
            grep -q 'exact while min(n_A, n_B)^2 max(n_A, n_B) <= 10^6, e.g. 100 + 100, else the normal approximation' out.txt ||
                fail "$n: header: no normal approximation"
        fi
        # from 100 per side the A/A CIs lie inside [0.95, 1.05]
        [ "$n" -lt 100 ] || eq "$(grep -c ' equivalent$' out.txt)" 3 "$n per side, A/A: rows equivalent"
    done
    ;;
*)
    echo "unknown test $test" >&2; exit 2 ;;
esac
report_done
