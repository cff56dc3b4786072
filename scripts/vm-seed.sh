#!/bin/bash
# SPDX-License-Identifier: MIT
# vm-seed.sh: the seed experiments of p2pbench, native hosts against real guests on
# one machine (docs/virtualization.md). Each part is a campaign of alternated
# launches (scripts/campaign.sh) on the namespace testbed (scripts/testbed/testbed.sh,
# root), one side native, one side guests, and ends with p2pbench-report compare
# (printed, and in DIR/PART/compare.txt) and html (DIR/PART/report.html).
#
# Usage: scripts/vm-seed.sh [-n N] [-o DIR] [-g KIND] [-s SEED] [-p P2PBENCH] [-r REPORT] PART...
#   PART         across     Sendrecv, PingPong, PingPing, Exchange (IMB's kernels,
#                           Sendrecv first as in the PMB measurement) between two
#                           native hosts (side native) and between two guests
#                           (side KIND); ranks on h2 and h3, mpirun on h1
#                direction  Uniband and TCP-Uniband between guest h2 and native h3:
#                           side KIND-first has rank 0 in the guest, side
#                           native-first has rank 0 on the native host, so row
#                           0->1 is guest to native on one side and native to guest
#                           on the other: compare's ratio is the asymmetry, with
#                           its interval (row 1->0 the same, inverted)
#                memcpy     Memcpy per chunk size (16 MiB buffer) on native h2 and
#                           in guest h2
#                all        the three, in this order
#   -n N         launches per side, 4 .. 99 (default 6)
#   -o DIR       output directory (default results/vm-seed-<UTC time>); PART goes
#                to DIR/PART
#   -g KIND      guest kind: uml (user-mode-linux, default) or qemu
#   -s SEED      campaign order seed (default: random, recorded in campaign.txt)
#   -p P2PBENCH  p2pbench to run (default: build/p2pbench of this tree)
#   -r REPORT    p2pbench-report (default: beside P2PBENCH)
# Environment: P2PB_VM_SEED_TIMEOUT seconds per launch (default 300).
# Nothing else may run beside it: a build or a test suite on a 2-CPU machine
# moves the numbers more than the guest does. Exit status: 0 every part ran and
# was compared, 1 a launch or a report failed, 2 usage error.
set -euo pipefail
PROG=vm-seed.sh
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=SCRIPTDIR/lib/common.sh
. "$root/scripts/lib/common.sh"
testbed=$root/scripts/testbed/testbed.sh
campaign=$root/scripts/campaign.sh

usage() {
    sed -n '3,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
    exit "${1:-2}"
}
case "${1:-}" in -h | --help) usage 0 ;; esac

n=6 dir='' kind=uml seed='' bin=$root/build/p2pbench report=''
while getopts "n:o:g:s:p:r:h" opt; do
    case $opt in
    n) n=$OPTARG ;;
    o) dir=$OPTARG ;;
    g) kind=$OPTARG ;;
    s) seed=$OPTARG ;;
    p) bin=$OPTARG ;;
    r) report=$OPTARG ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))
[[ $# -ge 1 ]] || usage_error "no PART given (across, direction, memcpy or all)"
[[ $n =~ ^[0-9]{1,2}$ && $n -ge 4 ]] || usage_error "-n '$n': give 4 .. 99 launches per side"
[[ $kind == uml || $kind == qemu ]] || usage_error "-g '$kind': the guest kind is uml or qemu"
parts=()
for p in "$@"; do
    case $p in
    across | direction | memcpy) parts+=("$p") ;;
    all) parts+=(across direction memcpy) ;;
    *) usage_error "unknown PART '$p' (across, direction, memcpy or all)" ;;
    esac
done
[[ -x $bin ]] || die "-p: not an executable: $bin (build first: cmake --preset release && cmake --build build)"
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
[[ -n $report ]] || report=$(dirname "$bin")/p2pbench-report
[[ -x $report ]] || die "-r: not an executable: $report"
timeout_s=${P2PB_VM_SEED_TIMEOUT:-300}
[[ $timeout_s =~ ^[0-9]{1,4}$ && $timeout_s -gt 0 ]] ||
    usage_error "P2PB_VM_SEED_TIMEOUT '$timeout_s': give 1 .. 9999 seconds"
[[ -n $dir ]] || dir=$root/results/vm-seed-$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p -- "$dir" || die "-o $dir: cannot create the directory"
require_root "the testbed's namespaces, taps and guests"
allow_mpi_as_root

# part NAME LABEL_A LABEL_B 'TESTBED_ARGS_A' 'TESTBED_ARGS_B' P2PBENCH_ARGS...:
# one campaign into DIR/NAME, then compare and html.
part() {
    local name=$1 la=$2 lb=$3 ta=$4 tb=$5 t0=$SECONDS
    shift 5
    local d=$dir/$name run="$testbed run 3 --timeout $timeout_s"
    log "$name: $n + $n launches, $la against $lb, in $d"
    P2PB_TESTBED_PREFIX=p2pvs "$campaign" -n "$n" -o "$d" -a "$la" -b "$lb" ${seed:+-s "$seed"} \
        -A "$run $ta -- $bin $*" -B "$run $tb -- $bin $*" ||
        die "$name: a launch failed (campaign.sh named it; run the same command again to resume)"
    "$report" compare "$d/$la" --vs "$d/$lb" >"$d/compare.txt" ||
        die "$name: p2pbench-report compare failed"
    "$report" html "$d/$la" --vs "$d/$lb" -o "$d/report.html" \
        --title "p2pbench seed experiment: $name, $la against $lb" >/dev/null ||
        die "$name: p2pbench-report html failed"
    printf '\n== %s: %s against %s (%d s)\n' "$name" "$la" "$lb" $((SECONDS - t0))
    cat "$d/compare.txt"
    log "$name: html report $d/report.html"
}

for p in "${parts[@]}"; do
    case $p in
    across)
        part across native "$kind" "--hosts h2,h3" "--guest h2,h3 $kind --hosts h2,h3" \
            sendrecv pingpong pingping exchange -s 0,1..1M*16,4M
        ;;
    direction)
        part direction "$kind-first" native-first "--guest h2 $kind --hosts h2,h3" \
            "--guest h2 $kind --hosts h3,h2" uniband tcp-uniband -s 4K,64K,1M,4M
        ;;
    memcpy)
        part memcpy native "$kind" "--hosts h2" "--guest h2 $kind --hosts h2" \
            memcpy -s 64..16M*4
        ;;
    esac
done
log "done: $dir"
