#!/bin/sh
# SPDX-License-Identifier: MIT
# Lines of the MPI stack inside a table (issue 35, item 7): the logs of
# tests/data/mpilines/ (README.md there says what each holds and what a correct
# import gives, read by hand): per table one warning with the count, the lines
# and the libraries; a table stopped by them before its last size "ends early"
# and is said to be cut short; the rows around them are all kept.
#   mpilines.sh P2PBENCH-REPORT SOURCE-DIR WORK-DIR
set -u
# shellcheck source=SCRIPTDIR/../lib/driver.sh
. "$2/tests/lib/driver.sh"
bin=$1 data=$2/tests/data/mpilines work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
# csv F BYTES COLUMN: one column of the row of BYTES in show -f csv of F
csv() {
    "$bin" show -f csv "$1" 2>/dev/null | awk -F, -v b="$2" -v c="$3" '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next } $5 == b { print $(col[c]); exit }'
}
rows() { "$bin" show -f csv "$1" 2>/dev/null | awk 'END { print NR - 1 }'; }
eq() { [ "$1" = "$2" ] || fail "$3: got '$1', want '$2'"; }

expect_status 0 "$bin" import "$data/imb-ucx-banner.txt" -o .
grep -qx "$data/imb-ucx-banner.txt: warning: PingPong table (line 34): 8 non-table lines at lines 47, 55, from the MPI library (UCX, Open MPI), skipped" err.txt ||
    fail "ucx/banner note: $(cat err.txt)"
grep -q "early\|cut short" err.txt && fail "ucx/banner: a complete table said cut short"
eq "$(rows imb-ucx-banner.jsonl)" 24 "ucx/banner rows"
eq "$(csv imb-ucx-banner.jsonl 2048 t_median_usec)" 2.27 "ucx/banner 2048 B t"
eq "$(csv imb-ucx-banner.jsonl 4194304 mbytes_per_sec)" 6241.24 "ucx/banner 4 MiB MB/s"
pass "UCX lines and an Open MPI banner inside an IMB table"

expect_status 0 "$bin" import "$data/imb-cut-pmix.txt" -o .
grep -qx "$data/imb-cut-pmix.txt: warning: PingPong table (line 34): table ends early at 2M: the MPI library's lines at line 58 (PMIx, Open MPI) stop it before 4194304 bytes: cut short, the rows before kept" err.txt ||
    fail "pmix note: $(cat err.txt)"
eq "$(grep -c "PingPong table" err.txt)" 1 "pmix: one warning for the table"
eq "$(rows imb-cut-pmix.jsonl)" 23 "pmix rows"
eq "$(csv imb-cut-pmix.jsonl 2097152 mbytes_per_sec)" 5813.71 "pmix 2 MiB MB/s"
pass "an IMB table cut short by PMIx and Open MPI"

expect_status 0 "$bin" import "$data/osu-libfabric-slurm.txt" -o .
grep -qx "$data/osu-libfabric-slurm.txt: warning: OSU Bandwidth table (line 2): 2 non-table lines at lines 7, 21, from the MPI library (libfabric), skipped; table ends early at 1M: the MPI library's lines at line 26 (Slurm) stop it before 4194304 bytes: cut short, the rows before kept" err.txt ||
    fail "libfabric note: $(cat err.txt)"
eq "$(rows osu-libfabric-slurm.jsonl)" 21 "libfabric rows"
eq "$(csv osu-libfabric-slurm.jsonl 8 mbytes_per_sec)" 0.63 "libfabric 8 B"
eq "$(csv osu-libfabric-slurm.jsonl 1048576 mbytes_per_sec)" 950.3 "libfabric 1 MiB"
pass "libfabric lines inside an OSU table, cut short by Slurm"
summary
