#!/bin/sh
# SPDX-License-Identifier: MIT
# scripts/gate.sh and scripts/campaign.sh with hostile arguments (issue 35,
# item 6), on fake launches (tests/report/fake_launch.sh):
#  - gate.sh -t abc is refused by compare's own rule before the first launch
#    (exit 2, the line naming abc, no launch run);
#  - -o -x (a directory whose name starts with '-') is a directory, for gate.sh
#    and for campaign.sh: never read as an option by mkdir, mv or compare.
#   gate_args.sh P2PBENCH-REPORT SOURCE-DIR WORK-DIR
# shellcheck disable=SC2015 # "CHECK && CHECK || fail": fail never fails
set -u
# shellcheck source=SCRIPTDIR/../lib/driver.sh
. "$2/tests/lib/driver.sh"
bin=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fake="sh $src/tests/report/fake_launch.sh $work/fake.log 1"

expect_status 2 sh "$src/scripts/gate.sh" -r "$bin" -n 4 -t abc -o t "$fake" "$fake"
grep -qx "gate.sh: error: -t: invalid value 'abc' for --threshold (a percentage from 0.0001 to below 100)" err.txt ||
    fail "-t abc: $(cat err.txt)"
[ ! -e fake.log ] || fail "-t abc: $(wc -l <fake.log) launches ran before -t was refused"
pass "-t abc refused before the first launch"

expect_status 0 timeout 120 sh "$src/scripts/gate.sh" -r "$bin" -n 4 -s 3 -o -x "$fake" "$fake"
[ -f ./-x/compare.txt ] && [ "$(find ./-x/baseline -name '*.jsonl' | wc -l)" = 4 ] ||
    fail "gate -o -x: no ./-x/compare.txt or not 4 launches: $(tail -3 err.txt)"
pass "gate -o -x"
expect_status 0 timeout 120 sh "$src/scripts/campaign.sh" -n 1 -o -y -A "$fake" -B "$fake"
[ "$(find ./-y -name '*.jsonl' | wc -l)" = 2 ] || fail "campaign -o -y: $(tail -3 err.txt)"
pass "campaign -o -y"
summary
