#!/bin/bash
# SPDX-License-Identifier: MIT
# Install the Debian/Ubuntu packages p2pbench needs, if missing.
#   scripts/deps.sh build   what building and running p2pbench needs
#   scripts/deps.sh test    also what the whole test suite needs (MPICH,
#                           gnuplot, NetPIPE, iproute2, Slurm, munge, python3,
#                           lintian, man-db, python3-jsonschema; chromium for the
#                           html report's browser test; clang with libFuzzer for
#                           the fuzz targets; the Python packages the vendored
#                           ReFrame needs for the reframe tests, docs/frameworks.md;
#                           user-mode-linux for the real-guest tests, tests/vm/)
# As root, missing packages are installed with apt-get; otherwise their
# names are printed with the command to install them, and the script fails.
set -euo pipefail
PROG=p2pbench
# shellcheck source=SCRIPTDIR/lib/common.sh
. "$(dirname "$0")/lib/common.sh"

build_pkgs=(build-essential cmake pkg-config git openmpi-bin libopenmpi-dev libhwloc-dev hwloc
            libcjson-dev)
test_pkgs=(mpich libmpich-dev gnuplot-nox netpipe-openmpi iproute2 python3 procps
           slurm-wlm munge util-linux lintian man-db python3-jsonschema chromium clang
           libclang-rt-dev user-mode-linux
           python3-argcomplete python3-lxml python3-yaml python3-requests python3-semver
           python3-tabulate python3-filelock)

want=("${build_pkgs[@]}")
case "${1:-build}" in
build) ;;
test) want+=("${test_pkgs[@]}") ;;
*) echo "usage: $0 build|test" >&2; exit 2 ;;
esac

missing=()
for p in "${want[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
    log "missing packages: ${missing[*]}"
    log "install them with: sudo apt-get install ${missing[*]}"
    exit 1
fi
log "installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
# The mpicc/mpirun alternatives must stay on Open MPI when MPICH is added.
if [ -x /usr/bin/mpicc.openmpi ]; then
    update-alternatives --set mpi /usr/bin/mpicc.openmpi >/dev/null 2>&1 || true
    update-alternatives --set mpirun /usr/bin/mpirun.openmpi >/dev/null 2>&1 || true
fi
