/* SPDX-License-Identifier: MIT */
/*
 * Multi-Uniband: the Uniband iteration (uniband.c) on the disjoint pairs
 * (0,1), (2,3), ... at once, in each direction separately. Rows per pair
 * ("0->1", "2->3", ...) and an aggregate row ("aggregate lo->hi"): per pair
 * t = one iteration (max over the pair), MB/s = W X / t; aggregate t = max
 * over pairs, aggregate MB/s = sum of the pairs' MB/s. An odd last rank waits.
 */
#include "window.h"

const struct p2pb_kernel p2pb_kernel_multi_uniband = {
    .name = "multi-uniband",
    .display_name = "Multi-Uniband",
    .summary = "Uniband on pairs (0,1), (2,3), ... at once; per pair and aggregate",
    .min_ranks = 2,
    .max_ranks = 0,
    .participation = P2PB_PART_PAIRS,
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
    .flags = P2PB_KF_DIRECTIONS | P2PB_KF_PER_GROUP,
};
