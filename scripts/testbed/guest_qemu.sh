# shellcheck shell=bash
# SPDX-License-Identifier: MIT
#
# guest_qemu.sh: the qemu kind of guest host (sourced by testbed.sh after guest.sh).
qemu_prereqs() { die "guest kind qemu: not available yet"; }
qemu_start() { die "guest kind qemu: not available yet"; }
qemu_wait() { die "guest kind qemu: not available yet"; }
