/* SPDX-License-Identifier: MIT */
/*
 * Uniband: unidirectional bandwidth between ranks 0 and 1, measured in each
 * direction separately (P2PB_KF_DIRECTIONS: rows "0->1" and "1->0").
 * One iteration: the sender Isends a window of W messages of X bytes
 * (--window, default 64) and waits for them; the receiver Irecvs them into W
 * distinct regions, waits, and returns a 4-byte acknowledgement, which the
 * sender receives before the iteration ends. t = one iteration, the maximum
 * over the two ranks (the sender's, which includes the acknowledgement);
 * bytes counted W * X (the acknowledgement is not counted); MB/s = W X / t.
 * Virtual NICs are often asymmetric, so the two directions are reported
 * apart, with their ratio (docs/kernels.md).
 */
#include "window.h"

const struct p2pb_kernel p2pb_kernel_uniband = {
    .name = "uniband",
    .display_name = "Uniband",
    .summary = "window of W Isends one way + 4-byte ack, each direction apart; MB/s = W X / t",
    .min_ranks = 2,
    .max_ranks = 2,
    .participation = P2PB_PART_PAIR,
    P2PB_WINDOW_UNI_FIELDS,
    .flags = P2PB_KF_DIRECTIONS,
    .bound_paths = 1,
};
