/* SPDX-License-Identifier: MIT */
/*
 * Multi-PingPong: the PingPong iteration (pingpong.c, IMB definition) on the
 * disjoint pairs (0,1), (2,3), ... at once. Rows per pair ("pair 0-1",
 * "pair 2-3", ...) and an aggregate row: per pair t = half the round trip
 * timed on the pair's lower rank, MB/s = X / t; aggregate t = max over pairs,
 * aggregate MB/s = sum of the pairs' MB/s. An odd last rank waits.
 * The iteration, the check and the definition are PingPong's own
 * (pingpong.h), so the two kernels cannot drift apart.
 */
#include "pingpong.h"

const struct p2pb_kernel p2pb_kernel_multi_pingpong = {
    .name = "multi-pingpong",
    .display_name = "Multi-PingPong",
    .summary = "PingPong on pairs (0,1), (2,3), ... at once; per pair and aggregate",
    .min_ranks = 2,
    .max_ranks = 0,
    .participation = P2PB_PART_PAIRS,
    P2PB_PINGPONG_FIELDS,
    .flags = P2PB_KF_PER_GROUP,
    .msgs = {1, P2PB_MSGS_ONE}, /* one message per half round trip: msgs/s = 1 / t */
};
