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
    P2PB_WINDOW_UNI_FIELDS,
    .flags = P2PB_KF_DIRECTIONS | P2PB_KF_PER_GROUP,
    .bound_paths = 1,
};
