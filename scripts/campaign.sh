#!/bin/sh
# SPDX-License-Identifier: MIT
# campaign.sh: N launches of each of two configurations, interleaved A B A B ...,
# one results file per launch in one directory, ready for
#   p2pbench-report compare DIR/LABEL_A-*.jsonl --vs DIR/LABEL_B-*.jsonl
#
# Usage: scripts/campaign.sh -n N -o DIR [-a LABEL_A] [-b LABEL_B] -A 'CMD_A' -B 'CMD_B'
#   -A, -B CMD   launch command lines, e.g. 'mpirun -np 2 --host n1,n2 build/p2pbench'.
#                Each launch runs: CMD -o DIR/LABEL-07.jsonl --label LABEL (file name
#                and label are appended as separate arguments, never through the shell).
#   -n N         launches per configuration (default 10; 4 is the minimum for a verdict)
#   -o DIR       campaign directory (created); DIR/campaign.txt records the commands
#   -a, -b       labels (default A and B); they name the files and the sides
#
# Resuming: run the same command again. A launch counts as finished only if its file
# ends with an end record with status "complete"; other launches are run again (an
# unfinished file is kept as *.jsonl.incomplete). Another command line for the same
# directory is refused (the campaign would mix configurations); the same commands with
# a larger -n add launches to a finished campaign.
# Progress on stderr: launch i of 2N, elapsed time, estimated time left.
# Exit status: 0 all launches finished, 1 a launch failed (rerun to resume), 2 usage error.
set -u
PROG=campaign.sh
# shellcheck source=SCRIPTDIR/lib/common.sh
. "$(dirname "$0")/lib/common.sh"
# Open MPI refuses root without these; set only when running as root.
allow_mpi_as_root

usage() {
    sed -n '3,21p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit "${1:-2}"
}
case "${1:-}" in --help) usage 0 ;; esac

n=10 dir='' la=A lb=B ca='' cb=''
while getopts "n:o:a:b:A:B:h" opt; do
    case $opt in
    n) n=$OPTARG ;;
    o) dir=$OPTARG ;;
    a) la=$OPTARG ;;
    b) lb=$OPTARG ;;
    A) ca=$OPTARG ;;
    B) cb=$OPTARG ;;
    *) usage ;;
    esac
done
case $n in
'' | *[!0-9]*)
    log "-n '$n' is not a positive integer"
    exit 2
    ;;
esac
[ "$n" -ge 1 ] || { log "-n must be at least 1"; exit 2; }
{ [ -n "$dir" ] && [ -n "$ca" ] && [ -n "$cb" ]; } || usage
for l in "$la" "$lb"; do
    case $l in
    '' | */*)
        log "label '$l' must be non-empty and without '/'"
        exit 2
        ;;
    esac
done
[ "$la" != "$lb" ] || { log "the two labels must differ"; exit 2; }

mkdir -p "$dir" || exit 1
manifest="$dir/campaign.txt"
want=$(printf 'A label: %s\nA command: %s\nB label: %s\nB command: %s\nlaunches per side: %s\n' \
    "$la" "$ca" "$lb" "$cb" "$n")
if [ -f "$manifest" ]; then
    # the same configurations with another -n: grow (or cap) the campaign
    if [ "$(grep -v '^launches per side:' "$manifest")" != \
        "$(printf '%s\n' "$want" | grep -v '^launches per side:')" ]; then
        log "$manifest records another campaign; use a new directory"
        exit 2
    fi
    printf '%s\n' "$want" >"$manifest" || exit 1
else
    printf '%s\n' "$want" >"$manifest" || exit 1
fi

finished() {
    [ -s "$1" ] && tail -n 1 "$1" | grep -q '"type":"end"' &&
        tail -n 1 "$1" | grep -q '"status":"complete"'
}

total=$((2 * n))
start=$(date +%s)
ran=0
i=0
k=1
while [ "$k" -le "$n" ]; do
    for side in A B; do
        i=$((i + 1))
        if [ $side = A ]; then
            cmd=$ca label=$la
        else
            cmd=$cb label=$lb
        fi
        file=$(printf '%s/%s-%02d.jsonl' "$dir" "$label" "$k")
        if finished "$file"; then
            echo "campaign: launch $i of $total ($label $k/$n): finished before, kept" >&2
            continue
        fi
        [ -e "$file" ] && mv -f "$file" "$file.incomplete"
        el=$(($(date +%s) - start))
        if [ "$ran" -gt 0 ]; then
            eta="$((el * (total - i + 1) / ran))s"
        else
            eta="unknown"
        fi
        echo "campaign: launch $i of $total ($label $k/$n), elapsed ${el}s, estimated left $eta" >&2
        # CMD is the user's shell text; file and label are positional arguments
        sh -c "$cmd"' "$@"' sh -o "$file" --label "$label"
        rc=$?
        ran=$((ran + 1))
        if [ $rc -ne 0 ] || ! finished "$file"; then
            echo "campaign: launch $i of $total ($label $k/$n) failed (exit $rc); run the same command again to resume" >&2
            exit 1
        fi
    done
    k=$((k + 1))
done
el=$(($(date +%s) - start))
echo "campaign: all $total launches finished (${el}s this session); compare with:" >&2
echo "  p2pbench-report compare $dir/$la-*.jsonl --vs $dir/$lb-*.jsonl" >&2
