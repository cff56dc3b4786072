/* SPDX-License-Identifier: MIT */
/*
 * PingPing (IMB definition, docs/kernels.md): both ranks of the pair Isend X bytes
 * to the other, Recv X bytes from the other, then Wait. Reported time t = one
 * iteration (the maximum over the two ranks); throughput X / t.
 */
#include "p2pbench/kernel.h"

enum { TAG = 102 };

static enum p2pb_status pingping_iter(struct p2pb_kernel_ctx *c)
{
    MPI_Request req;
    P2PB_KCALL(MPI_Isend(c->sbuf, c->count, c->dtype, c->peer, TAG, c->comm, &req));
    P2PB_KCALL(MPI_Recv(c->rbuf, c->count, c->dtype, c->peer, TAG, c->comm, MPI_STATUS_IGNORE));
    P2PB_KCALL(MPI_Wait(&req, MPI_STATUS_IGNORE));
    return P2PB_OK;
}

static enum p2pb_status pingping_verify(const struct p2pb_kernel_ctx *c, size_t *bad)
{
    return p2pb_pattern_check(c->rbuf, c->bytes, c->peer, c->iter, bad);
}

const struct p2pb_kernel p2pb_kernel_pingping = {
    .name = "pingping",
    .display_name = "PingPing",
    .summary = "simultaneous Isend/Recv/Wait between ranks 0 and 1; t = one iteration",
    .min_ranks = 2,
    .max_ranks = 2,
    .participation = P2PB_PART_PAIR,
    .time_scale = 1.0,
    .bytes = {1, P2PB_BYTES_X},
    .rank_reduce = P2PB_REDUCE_MAX,
    .imb_layout = P2PB_IMB_T,
    .sbuf_regions = 1,
    .rbuf_regions = 1,
    .run_iter = pingping_iter,
    .verify = pingping_verify,
    .bound_paths = 1,
};
