/* SPDX-License-Identifier: MIT */
/*
 * window.h - internal to benchmarks/: the windowed streaming iteration that
 * the unidirectional bandwidth kernels share (window.c defines it; uniband.c
 * runs it on ranks 0 and 1, uniband_multi.c on disjoint pairs). Not a public
 * header.
 */
#ifndef P2PBENCH_KERNELS_WINDOW_H
#define P2PBENCH_KERNELS_WINDOW_H

#include "p2pbench/kernel.h"

/* Bytes of the acknowledgement the receiver returns after each window. */
#define P2PB_ACK_BYTES 4

/*
 * ctx->priv of the window kernels: 2 W requests and 2 W statuses. Statuses
 * rather than MPI_STATUSES_IGNORE: GCC 12 misreads MPICH's definition of it
 * (-Wstringop-overflow) when the count is not a constant.
 */
struct p2pb_window_state {
    MPI_Request *req;
    MPI_Status *st;
};

/*
 * Allocate ctx->priv (struct p2pb_window_state) for ctx->window messages each
 * way. Returns P2PB_OK or P2PB_ENOMEM.
 */
enum p2pb_status p2pb_window_setup(struct p2pb_kernel_ctx *ctx);

/* Free ctx->priv. */
void p2pb_window_teardown(struct p2pb_kernel_ctx *ctx);

/*
 * 1 if this rank sends in ctx->direction: direction 0 = the lower rank of
 * the pair (ctx->rank < ctx->peer), direction 1 = the higher rank.
 */
int p2pb_window_is_sender(const struct p2pb_kernel_ctx *ctx);

/*
 * One unidirectional iteration: the sender Isends W = ctx->window messages of
 * X bytes (all from sbuf), Waitall, then receives a P2PB_ACK_BYTES-byte
 * acknowledgement; the receiver Irecvs the W messages into W consecutive
 * X-byte regions of rbuf, Waitall, then sends the acknowledgement.
 * Returns P2PB_OK or P2PB_EMPI.
 */
enum p2pb_status p2pb_window_uni_iter(struct p2pb_kernel_ctx *ctx);

/* Check the W receive regions against the pattern of the peer at c->iter.
 * Returns P2PB_OK or P2PB_EVERIFY with the byte offset in the whole receive
 * buffer in *bad. */
enum p2pb_status p2pb_window_check_regions(const struct p2pb_kernel_ctx *c, size_t *bad);

/*
 * --check of a unidirectional iteration: on the receiver, each of the W
 * regions of rbuf holds the peer's pattern for ctx->iter; the sender has
 * nothing to check. Returns P2PB_OK or P2PB_EVERIFY with the offset within
 * rbuf in *bad.
 */
enum p2pb_status p2pb_window_uni_verify(const struct p2pb_kernel_ctx *ctx, size_t *bad);

/* The descriptor fields of the one-way windowed stream, shared by uniband
 * and multi-uniband: t = one iteration (max over the pair), MB/s = W X / t,
 * msgs/s = W / t. */
#define P2PB_WINDOW_UNI_FIELDS                                                            \
    .time_scale = 1.0, .bytes = {1, P2PB_BYTES_WINDOW_X}, .rank_reduce = P2PB_REDUCE_MAX, \
    .imb_layout = P2PB_IMB_T, .sbuf_regions = 1, .rbuf_regions = P2PB_WINDOW_REGIONS,     \
    .setup = p2pb_window_setup, .run_iter = p2pb_window_uni_iter,                         \
    .verify = p2pb_window_uni_verify, .teardown = p2pb_window_teardown,                   \
    .msgs = {1, P2PB_MSGS_WINDOW}

#endif /* P2PBENCH_KERNELS_WINDOW_H */
