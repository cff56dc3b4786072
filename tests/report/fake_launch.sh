#!/bin/sh
# SPDX-License-Identifier: MIT
# Stand-in for "mpirun ... p2pbench" in campaign tests: fake_launch.sh LOG FACTOR -o FILE --label L
# Appends "FILE" to LOG; fails (no end record) when FILE matches $FAKE_FAIL.
set -eu
log=$1 factor=$2; shift 2
out='' label=''
while [ $# -gt 0 ]; do
    case $1 in -o) out=$2; shift 2 ;; --label) label=$2; shift 2 ;; *) shift ;; esac
done
echo "$out" >>"$log"
echo "fake table of $out" # a launch's stdout: campaign.sh keeps it beside the file
d=$(mktemp -d)
# each launch its own start time (the campaign's index): copies of one launch count once
GEN_MINUTE=${P2PB_CAMPAIGN_INDEX:-0} \
GEN_END=$( [ "${FAKE_FAIL:-}" = "$out" ] && echo none || echo complete ) \
    sh "$(dirname "$0")/gen_launches.sh" "$d" x "$label" 1 "$factor"
cp "$d/x-01.jsonl" "$out"
rm -rf "$d"
[ "${FAKE_FAIL:-}" != "$out" ] || exit 3
