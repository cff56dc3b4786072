/* SPDX-License-Identifier: MIT */
/*
 * pingpong.h - internal to benchmarks/: the PingPong iteration (pingpong.c) that
 * Multi-PingPong (pingpong_multi.c) runs on disjoint pairs, and the
 * descriptor fields the two share, so they cannot drift apart.
 */
#ifndef P2PBENCH_KERNELS_PINGPONG_H
#define P2PBENCH_KERNELS_PINGPONG_H

#include "p2pbench/kernel.h"

/* One round trip with ctx->peer: the lower rank sends first. P2PB_OK or P2PB_EMPI. */
enum p2pb_status p2pb_pingpong_iter(struct p2pb_kernel_ctx *ctx);

/* --check: rbuf holds the partner's pattern. P2PB_OK or P2PB_EVERIFY (*bad set). */
enum p2pb_status p2pb_pingpong_verify(const struct p2pb_kernel_ctx *ctx, size_t *bad);

/* PingPong's definition (IMB): t = half the round trip on the initiator,
 * MB/s = X / t; one path bounds it. Kernels with their own iteration
 * (persistent, partitioned requests) use this alone. */
#define P2PB_PINGPONG_DEFINITION                                                    \
    .time_scale = 0.5, .bytes = {1, P2PB_BYTES_X}, .rank_reduce = P2PB_REDUCE_ROOT, \
    .imb_layout = P2PB_IMB_T, .sbuf_regions = 1, .rbuf_regions = 1, .bound_paths = 1

/* The definition with PingPong's iteration and its --check. */
#define P2PB_PINGPONG_FIELDS \
    P2PB_PINGPONG_DEFINITION, .run_iter = p2pb_pingpong_iter, .verify = p2pb_pingpong_verify

#endif /* P2PBENCH_KERNELS_PINGPONG_H */
