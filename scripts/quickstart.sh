#!/bin/bash
# SPDX-License-Identifier: MIT
# First command of the README: install what is missing, build, run the
# default suite (PingPong, PingPing, Sendrecv, Exchange over 0 .. 4 MiB) on
# 2 local ranks, print the tables and the path of the results file.
#   scripts/quickstart.sh [extra p2pbench options...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=SCRIPTDIR/lib/common.sh
. "$root/scripts/lib/common.sh"
log "checking the packages it needs (scripts/deps.sh build)"
"$root/scripts/deps.sh" build
log "configuring and building into $root/build (about a minute the first time; its output: $root/build/quickstart-build.log)"
mkdir -p "$root/build"
if ! { cmake --preset release -S "$root" && cmake --build "$root/build" -j"$(nproc)"; } \
    >"$root/build/quickstart-build.log.tmp" 2>&1; then
    mv -f "$root/build/quickstart-build.log.tmp" "$root/build/quickstart-build.log"
    tail -n 20 "$root/build/quickstart-build.log" >&2
    die "the build failed; its whole output: $root/build/quickstart-build.log"
fi
mv -f "$root/build/quickstart-build.log.tmp" "$root/build/quickstart-build.log"
mkdir -p "$root/results"
allow_mpi_as_root
# -o, --output or --no-results among the extra options: p2pbench takes
# them as given (an option may be given once)
for a in "$@"; do
    case $a in -o* | --output | --output=* | --no-results)
        log "running: mpirun -np 2 build/p2pbench${*:+ $*}"
        exec mpirun -np 2 "$root/build/p2pbench" "$@"
        ;;
    esac
done
# a name of its own under results/, created exclusively by mktemp: two
# quickstarts in the same second never write one file; p2pbench fills it
out=$(mktemp "$root/results/p2pbench-$(date -u +%Y%m%dT%H%M%SZ)-XXXXXX.jsonl")
chmod 644 "$out" # as p2pbench creates its files (mktemp: 600)
log "running: mpirun -np 2 build/p2pbench -o $out${*:+ $*}"
rc=0
mpirun -np 2 "$root/build/p2pbench" -o "$out" "$@" || rc=$?
# a refused run leaves the file as it was: empty, so not kept
if [ ! -s "$out" ]; then rm -f "$out"; fi
exit "$rc"
