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
    .time_scale = 1.0,
    .bytes = {1, P2PB_BYTES_WINDOW_X},
    .rank_reduce = P2PB_REDUCE_MAX,
    .imb_layout = P2PB_IMB_T,
    .sbuf_regions = 1,
    .rbuf_regions = P2PB_WINDOW_REGIONS,
    .setup = p2pb_window_setup,
    .run_iter = p2pb_window_uni_iter,
    .verify = p2pb_window_uni_verify,
    .teardown = p2pb_window_teardown,
    .flags = P2PB_KF_DIRECTIONS,
};
