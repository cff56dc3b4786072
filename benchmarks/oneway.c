/* SPDX-License-Identifier: MIT */
/*
 * One-way: the time from the start of a send on one rank to the end of the
 * matching receive on the other, each direction apart (P2PB_KF_DIRECTIONS:
 * rows "0->1" and "1->0"), on clocks synchronised by the harness
 * (P2PB_KF_ONEWAY; src/bench/clock.h). One iteration: the sender Sends X
 * bytes (timed part, run_iter), the receiver Recvs them (timed part), then
 * returns an empty acknowledgement that the sender receives (finish_iter,
 * untimed), so the next message never overtakes the receiver. t = receiver's
 * end - sender's start on rank 0's clock; bytes counted X; MB/s = X / t. A
 * constant difference between the directions cannot be told from a clock
 * offset (docs/kernels.md); the size-dependent one can.
 */
#include "p2pbench/kernel.h"

enum { TAG_DATA = 121, TAG_ACK = 122 };

/* 1 if this rank sends in c->direction (0: the lower rank of the pair). */
static int is_sender(const struct p2pb_kernel_ctx *c)
{
    return c->direction == 0 ? c->rank < c->peer : c->rank > c->peer;
}

static enum p2pb_status oneway_iter(struct p2pb_kernel_ctx *c)
{
    if (is_sender(c))
        P2PB_KCALL(MPI_Send(c->sbuf, c->count, c->dtype, c->peer, TAG_DATA, c->comm));
    else
        P2PB_KCALL(
            MPI_Recv(c->rbuf, c->count, c->dtype, c->peer, TAG_DATA, c->comm, MPI_STATUS_IGNORE));
    return P2PB_OK;
}

static enum p2pb_status oneway_finish(struct p2pb_kernel_ctx *c)
{
    if (is_sender(c))
        P2PB_KCALL(MPI_Recv(NULL, 0, MPI_BYTE, c->peer, TAG_ACK, c->comm, MPI_STATUS_IGNORE));
    else
        P2PB_KCALL(MPI_Send(NULL, 0, MPI_BYTE, c->peer, TAG_ACK, c->comm));
    return P2PB_OK;
}

static enum p2pb_status oneway_verify(const struct p2pb_kernel_ctx *c, size_t *bad)
{
    if (is_sender(c))
        return P2PB_OK;
    return p2pb_pattern_check(c->rbuf, c->bytes, c->peer, c->iter, bad);
}

const struct p2pb_kernel p2pb_kernel_oneway = {
    .name = "oneway",
    .display_name = "One-way",
    .summary = "Send X one way + empty ack, each direction apart; t = receive end - send start "
               "on synchronised clocks",
    .min_ranks = 2,
    .max_ranks = 2,
    .participation = P2PB_PART_PAIR,
    .time_scale = 1.0,
    .bytes = {1, P2PB_BYTES_X},
    .rank_reduce = P2PB_REDUCE_MAX,
    .imb_layout = P2PB_IMB_T,
    .sbuf_regions = 1,
    .rbuf_regions = 1,
    .run_iter = oneway_iter,
    .finish_iter = oneway_finish,
    .verify = oneway_verify,
    .flags = P2PB_KF_DIRECTIONS | P2PB_KF_ONEWAY,
    .bound_paths = 1,
};
