/* SPDX-License-Identifier: MIT */
/*
 * Multi-PingPong: the PingPong iteration (pingpong.c, IMB definition) on the
 * disjoint pairs (0,1), (2,3), ... at once. Rows per pair ("pair 0-1",
 * "pair 2-3", ...) and an aggregate row: per pair t = half the round trip
 * timed on the pair's lower rank, MB/s = X / t; aggregate t = max over pairs,
 * aggregate MB/s = sum of the pairs' MB/s. An odd last rank waits.
 * The iteration and the check are PingPong's own, called through its
 * descriptor, so the two kernels cannot drift apart.
 */
#include "p2pbench/kernel.h"

extern const struct p2pb_kernel p2pb_kernel_pingpong;

static enum p2pb_status multi_pingpong_iter(struct p2pb_kernel_ctx *c)
{
    return p2pb_kernel_pingpong.run_iter(c);
}

static enum p2pb_status multi_pingpong_verify(const struct p2pb_kernel_ctx *c, size_t *bad)
{
    return p2pb_kernel_pingpong.verify(c, bad);
}

const struct p2pb_kernel p2pb_kernel_multi_pingpong = {
    .name = "multi-pingpong",
    .display_name = "Multi-PingPong",
    .summary = "PingPong on pairs (0,1), (2,3), ... at once; per pair and aggregate",
    .min_ranks = 2,
    .max_ranks = 0,
    .participation = P2PB_PART_PAIRS,
    .time_scale = 0.5,
    .bytes = {1, P2PB_BYTES_X},
    .rank_reduce = P2PB_REDUCE_ROOT,
    .imb_layout = P2PB_IMB_T,
    .sbuf_regions = 1,
    .rbuf_regions = 1,
    .run_iter = multi_pingpong_iter,
    .verify = multi_pingpong_verify,
    .flags = P2PB_KF_PER_GROUP,
};
