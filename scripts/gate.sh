#!/bin/sh
# SPDX-License-Identifier: MIT
# gate.sh: the interleaved CI gate. Runs the baseline's and the candidate's launch
# commands alternately on this machine (scripts/campaign.sh: N launches each, in a
# seeded balanced order), then
#   p2pbench-report compare DIR/baseline --vs DIR/candidate --fail-on-regression
# so that drift over time (a quieter or busier minute, a warmer machine) falls on both
# sides alike instead of into the verdict. Its exit status is compare's.
#
# Usage: scripts/gate.sh [-n N] [-o DIR] [-t PCT] [-s SEED] [-r REPORT] 'BASELINE_CMD' 'CANDIDATE_CMD'
#   BASELINE_CMD, CANDIDATE_CMD  launch command lines, e.g.
#                'mpirun -np 2 /opt/p2pbench-1.2/bin/p2pbench pingpong -s 0..64K'
#                and the same with the candidate's binary: the same kernels, sizes and
#                ranks on both sides (compare lists rows measured on one side only)
#   -n N         launches per side (default 10; at least 4, the fewest for a verdict)
#   -o DIR       campaign directory (default: a new one under results/, gate-DATE-PID);
#                the same command again resumes an interrupted gate
#   -t PCT       equivalence band of compare in percent (compare's default when absent)
#   -s SEED      order seed (default: a random one, recorded in DIR/campaign.txt)
#   -r REPORT    p2pbench-report to use (default: build/p2pbench-report of this source
#                tree when present, else p2pbench-report on PATH)
#
# Each launch's tables go beside its results file (DIR/baseline/baseline-01.txt, ...);
# progress on stderr; compare's table on stdout and in DIR/compare.txt.
# Exit status: 0 no row changed for the worse; 1 a regression (a row `changed (worse)`),
# an incomplete launch file or a failed launch; 2 usage error, or "not judged": a gate
# that cannot detect a regression with these launch counts, or a row with fewer than 4
# launches on a side (copies of one launch count once) (compare's exit 2).
set -u
PROG=gate.sh
here=$(dirname "$0")
# shellcheck source=SCRIPTDIR/lib/common.sh
. "$here/lib/common.sh"

usage() {
    text=$(awk 'NR >= 3 && /^#/ { sub(/^# ?/, ""); print; next } NR >= 3 { exit }' "$0")
    if [ "${1:-2}" = 0 ]; then printf '%s\n' "$text"; else printf '%s\n' "$text" >&2; fi
    exit "${1:-2}"
}
case "${1:-}" in -h | --help) usage 0 ;; esac

n=10 dir='' pct='' seed='' report=''
while getopts "n:o:t:s:r:h" opt; do
    case $opt in
    n) n=$OPTARG ;;
    o) dir=$OPTARG ;;
    t) pct=$OPTARG ;;
    s) seed=$OPTARG ;;
    r) report=$OPTARG ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || usage_error "want two launch commands (baseline, candidate), got $#"
base=$1 cand=$2
if [ -z "$base" ] || [ -z "$cand" ]; then usage_error "a launch command is empty"; fi
case $n in
'' | *[!0-9]*) usage_error "-n '$n' is not a number of launches" ;;
esac
if [ ${#n} -gt 4 ] || [ "$n" -lt 4 ]; then usage_error "-n '$n': give 4 .. 9999 launches per side"; fi
if [ -z "$report" ]; then
    report=$here/../build/p2pbench-report
    [ -x "$report" ] || report=$(command -v p2pbench-report) ||
        usage_error "no p2pbench-report: build it (cmake --preset release) or give -r PATH"
fi
[ -x "$report" ] || usage_error "-r '$report' is not an executable"
# -t is compare's: checked by compare's own parser now, before the first launch
if [ -n "$pct" ]; then
    terr=$("$report" compare -t "$pct" --vs 2>&1 | grep -e '--threshold' | head -1)
    [ -z "$terr" ] || usage_error "-t: ${terr#p2pbench-report: }"
fi
[ -n "$dir" ] || dir=results/gate-$(date -u +%Y%m%dT%H%M%SZ)-$$
case $dir in -*) dir=./$dir ;; esac # "-o -x": never read as an option by mkdir, compare, ...

mkdir -p -- "$dir" || die "-o $dir: cannot create the gate's directory"
log "$n launches each of baseline and candidate, interleaved, in $dir"
rc=0
"$here/campaign.sh" -n "$n" -o "$dir" -a baseline -b candidate ${seed:+-s "$seed"} \
    -A "$base" -B "$cand" || rc=$?
case $rc in
0) ;;
2) exit 2 ;;
*) die "a launch failed (campaign.sh exit $rc, which named it); run the same command again to resume" ;;
esac
rc=0
"$report" compare "$dir/baseline" --vs "$dir/candidate" --fail-on-regression ${pct:+-t "$pct"} \
    >"$dir/compare.txt" || rc=$?
cat "$dir/compare.txt"
case $rc in
0) log "pass: no row changed for the worse ($dir/compare.txt)" ;;
1) log "FAIL: a regression or an incomplete launch ($dir/compare.txt)" ;;
2) log "not judged: compare could not judge every row (too few launches, copies of one launch, or a usage error: its error line above; $dir/compare.txt)" ;;
*) log "error: compare exit $rc ($dir/compare.txt)" ;;
esac
exit "$rc"
