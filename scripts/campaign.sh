#!/bin/sh
# SPDX-License-Identifier: MIT
# campaign.sh: N launches of each of two configurations, in N rounds of one launch
# each, in a seeded random but balanced order, one results file per launch, each
# side in its own subdirectory, ready for
#   p2pbench-report compare DIR/LABEL_A --vs DIR/LABEL_B
#
# Usage: scripts/campaign.sh -n N -o DIR [-a LABEL_A] [-b LABEL_B] [-s SEED] -A 'CMD_A' -B 'CMD_B'
#   -A, -B CMD   launch command lines, e.g. 'mpirun -np 2 --host n1,n2 build/p2pbench'.
#                Each launch runs: CMD -o DIR/LABEL/LABEL-07.jsonl --label LABEL (file
#                name and label are appended as separate arguments, never through the
#                shell), with P2PB_CAMPAIGN_SEED, _ROUND, _POSITION, _INDEX and _SIDE in
#                its environment (p2pbench records them in its run record).
#   -n N         launches per configuration, 1 .. 9999 (default 10; 4 is the minimum
#                for a verdict)
#   -o DIR       campaign directory (created); DIR/campaign.txt records the commands,
#                the seed and the order of every round
#   -a, -b       labels (default A and B): 1 to 63 of the characters A-Z a-z 0-9 . _ + -,
#                not starting with '.' or '-'; they name the sides and their directories
#   -s SEED      order seed, 0 .. 2147483647 (default: a random one, recorded)
#
# Order: in each round both sides run once. Rounds come in pairs, one A-then-B and one
# B-then-A, the pair's order drawn from the seed: each side runs first in half the
# rounds (one more with an odd N), and no fixed pattern lines up with the order.
# Resuming: run the same command again (the seed is read from campaign.txt). A launch
# counts as finished only if its file ends with an end record with status "complete";
# other launches are run again (an unfinished file is kept as *.jsonl.incomplete).
# Another command line, label or seed for the same directory is refused (the campaign
# would mix configurations); the same commands with a larger -n add rounds, a smaller
# -n is refused.
# One campaign.sh at a time per directory: a second one on DIR while one runs fails at
# once (exit 1) and changes nothing (flock(1) on DIR/campaign.lock, held to the end).
# Progress on stderr: launch i of 2N, elapsed time, estimated time left. Each launch's
# tables (its standard output) go to DIR/LABEL/LABEL-07.txt beside its results file;
# its standard error stays on the terminal.
# Exit status: 0 all launches finished, 1 a launch failed (rerun to resume), 2 usage error.
set -u
PROG=campaign.sh
# shellcheck source=SCRIPTDIR/lib/common.sh
. "$(dirname "$0")/lib/common.sh"
# Open MPI refuses root without these; set only when running as root.
allow_mpi_as_root

# The comment block above, from its third line: on stdout when asked for
# (exit 0), on stderr after a usage error (exit 2).
usage() {
    local text
    text=$(awk 'NR >= 3 && /^#/ { sub(/^# ?/, ""); print; next } NR >= 3 { exit }' "$0")
    if [ "${1:-2}" = 0 ]; then printf '%s\n' "$text"; else printf '%s\n' "$text" >&2; fi
    exit "${1:-2}"
}
case "${1:-}" in -h | --help) usage 0 ;; esac

n=10 dir='' la=A lb=B ca='' cb='' seed=''
while getopts "n:o:a:b:A:B:s:h" opt; do
    case $opt in
    n) n=$OPTARG ;;
    o) dir=$OPTARG ;;
    a) la=$OPTARG ;;
    b) lb=$OPTARG ;;
    A) ca=$OPTARG ;;
    B) cb=$OPTARG ;;
    s) seed=$OPTARG ;;
    *) usage ;;
    esac
done

# uint NAME VALUE MAX: VALUE is a decimal integer in 0 .. MAX (checked as text
# first, so that no shell arithmetic sees a huge number); prints it without
# leading zeros, or exits 2 with a message naming NAME.
uint() {
    case $2 in
    '' | *[!0-9]*) usage_error "$1 '$2' is not a non-negative integer" ;;
    esac
    v=$(printf '%s' "$2" | sed 's/^0*//')
    if [ ${#v} -gt ${#3} ] || [ "${v:-0}" -gt "$3" ]; then
        usage_error "$1 '$2' is too large (at most $3)"
    fi
    echo "${v:-0}"
}
n=$(uint -n "$n" 9999) || exit 2
[ "$n" -ge 1 ] || usage_error "-n must be at least 1"
{ [ -n "$dir" ] && [ -n "$ca" ] && [ -n "$cb" ]; } || usage
for l in "$la" "$lb"; do
    case $l in
    '' | [.-]* | *[!A-Za-z0-9._+-]*)
        usage_error "label '$l' must be 1 to 63 of A-Z a-z 0-9 . _ + - and not start with '.' or '-'"
        ;;
    esac
    [ ${#l} -le 63 ] || usage_error "label '$l' is longer than 63 characters"
done
[ "$la" != "$lb" ] || usage_error "the two labels must differ"
nl='
'
case "$ca$cb" in *"$nl"*) usage_error "a command line must be one line" ;; esac

[ -z "$seed" ] || seed=$(uint -s "$seed" 2147483647) || exit 2
case $dir in -*) dir=./$dir ;; esac # "-o -x": never read as an option by mv, compare, ...
if [ -e "$dir" ] && [ ! -d "$dir" ]; then
    log "-o $dir: exists and is not a directory"
    exit 2
fi
mkdir -p -- "$dir" 2>/dev/null || { log "-o $dir: cannot create the campaign directory"; exit 1; }
# The lock, before campaign.txt is read: a second campaign.sh on DIR stops here,
# before it renames or runs anything. Launches run with fd 9 closed, so that
# one left behind cannot hold the lock.
if command -v flock >/dev/null 2>&1; then
    exec 9>>"$dir/campaign.lock" || { log "-o $dir: cannot open $dir/campaign.lock"; exit 1; }
    flock -n 9 || die "another campaign.sh is running on $dir (it holds $dir/campaign.lock); wait for it to end"
else
    log "warning: flock (util-linux) not found: nothing stops a second campaign.sh on $dir"
fi
manifest="$dir/campaign.txt"
if [ -f "$manifest" ]; then
    old_seed=$(sed -n 's/^order seed: //p' "$manifest")
    old_n=$(sed -n 's/^launches per side: //p' "$manifest")
    [ -n "$seed" ] || seed=$old_seed
fi
if [ -z "$seed" ]; then
    seed=$(od -An -N4 -tu4 /dev/urandom 2>/dev/null | tr -d ' ')
    seed=$(( ${seed:-$$} % 2147483648 ))
fi
seed=$(uint -s "$seed" 2147483647) || exit 2
head=$(printf 'A label: %s\nA command: %s\nB label: %s\nB command: %s\nlayout: LABEL/LABEL-NN.jsonl\norder seed: %s' \
    "$la" "$ca" "$lb" "$cb" "$seed")
if [ -f "$manifest" ]; then
    if [ "$(sed -n '1,6p' "$manifest")" != "$head" ]; then
        log "$manifest records another campaign (commands, labels, seed or an older file layout):"
        sed -n '1,6p' "$manifest" | sed 's/^/    /' >&2
        usage_error "use a new directory, or the same options"
    fi
    if [ "${old_n:-0}" -gt "$n" ]; then
        usage_error "$dir holds a campaign of $old_n launches per side; -n $n would hide launches $((n + 1)) .. $old_n (no file is ever deleted): give -n $old_n or more"
    fi
fi

# first_side K: the side (A or B) that runs first in round K (1-based). Rounds
# 2p+1 and 2p+2 have opposite orders; which of them is A-first comes from bit
# 16 of an LCG (glibc's constants, mod 2^31) started at seed + 40503 p and
# stepped three times. Shell arithmetic is at least 64-bit here: every product
# stays below 2^62.
first_side() {
    x=$(((seed + 40503 * (($1 - 1) / 2)) % 2147483648))
    for _ in 1 2 3; do x=$(((x * 1103515245 + 12345) % 2147483648)); done
    if [ $((((x / 65536) + ($1 - 1)) % 2)) -eq 0 ]; then echo A; else echo B; fi
}
other() { if [ "$1" = A ]; then echo B; else echo A; fi; }

{
    printf '%s\nlaunches per side: %s\n' "$head" "$n"
    echo "order (round: first second; launch index = 2 (round - 1) + position):"
    k=1
    while [ "$k" -le "$n" ]; do
        f=$(first_side "$k")
        echo "round $k: $f $(other "$f")"
        k=$((k + 1))
    done
} >"$manifest.tmp" && mv -f "$manifest.tmp" "$manifest" || exit 1
mkdir -p -- "$dir/$la" "$dir/$lb" || exit 1

finished() {
    [ -s "$1" ] && tail -n 1 "$1" | grep -q '"type":"end"' &&
        tail -n 1 "$1" | grep -q '"status":"complete"'
}

total=$((2 * n))
start=$(date +%s)
ran=0
i=0
k=1
warned=0
while [ "$k" -le "$n" ]; do
    first=$(first_side "$k")
    for side in $first $(other "$first"); do
        i=$((i + 1))
        pos=$((i - 2 * (k - 1)))
        if [ "$side" = A ]; then
            cmd=$ca label=$la
        else
            cmd=$cb label=$lb
        fi
        file=$(printf '%s/%s/%s-%02d.jsonl' "$dir" "$label" "$label" "$k")
        what="launch $i of $total ($label $k/$n, round $k position $pos)"
        if finished "$file"; then
            echo "campaign: $what: finished before, kept" >&2
            continue
        fi
        [ -e "$file" ] && mv -f "$file" "$file.incomplete"
        el=$(($(date +%s) - start))
        if [ "$ran" -gt 0 ]; then
            eta="$((el * (total - i + 1) / ran))s"
        else
            eta="unknown"
        fi
        echo "campaign: $what, elapsed ${el}s, estimated left $eta" >&2
        # CMD is the user's shell text; file and label are positional arguments
        P2PB_CAMPAIGN_SEED=$seed P2PB_CAMPAIGN_ROUND=$k P2PB_CAMPAIGN_POSITION=$pos \
            P2PB_CAMPAIGN_INDEX=$i P2PB_CAMPAIGN_SIDE=$side \
            sh -c "$cmd"' "$@"' sh -o "$file" --label "$label" 9>&- >"${file%.jsonl}.txt"
        rc=$?
        ran=$((ran + 1))
        if [ $rc -ne 0 ] || ! finished "$file"; then
            tail -n 5 "${file%.jsonl}.txt" | sed 's/^/    /' >&2
            echo "campaign: $what failed (exit $rc; its tables: ${file%.jsonl}.txt); run the same command again to resume" >&2
            exit 1
        fi
        if [ $warned = 0 ] && ! head -n 1 "$file" | grep -q '"campaign":{'; then
            warned=1
            log "warning: $file does not record its round and position (rank 0 did not see" \
                "P2PB_CAMPAIGN_*; with Open MPI on other hosts add -x P2PB_CAMPAIGN_SEED" \
                "-x P2PB_CAMPAIGN_ROUND -x P2PB_CAMPAIGN_POSITION -x P2PB_CAMPAIGN_INDEX" \
                "-x P2PB_CAMPAIGN_SIDE to the commands); $manifest records the order"
        fi
    done
    k=$((k + 1))
done
el=$(($(date +%s) - start))
# quote DIR for the shell: 'DIR' with each ' as '\''
q=$(printf '%s' "$dir" | sed "s/'/'\\\\''/g")
echo "campaign: all $total launches finished (${el}s this session); compare with:" >&2
# the report program to name: on PATH, else this source tree's build/ (as gate.sh)
rep=p2pbench-report
if ! command -v "$rep" >/dev/null 2>&1 && [ -x "$(dirname "$0")/../build/p2pbench-report" ]; then
    rep=$(cd "$(dirname "$0")/../build" && pwd)/p2pbench-report
fi
echo "  $rep compare '$q/$la' --vs '$q/$lb'" >&2
