/* SPDX-License-Identifier: MIT */
/*
 * Sendrecv (IMB definition, docs/kernels.md): every rank, in a periodic chain,
 * calls MPI_Sendrecv sending X bytes to its right neighbour and receiving X
 * bytes from its left neighbour. t = one iteration; throughput 2X / t.
 * Above 2^31-1 bytes: X MPI_BYTEs through MPI_Sendrecv_c with MPI-4
 * (ctx->large_count), else X / 1024 blocks of 1 KiB (ctx->dtype).
 */
#include "p2pbench/kernel.h"

enum { TAG = 103 };

static enum p2pb_status sendrecv_iter(struct p2pb_kernel_ctx *c)
{
#if P2PB_HAVE_MPI4
    if (c->large_count) {
        MPI_Count n = (MPI_Count)c->bytes;
        P2PB_KCALL(MPI_Sendrecv_c(c->sbuf, n, MPI_BYTE, c->right, TAG, c->rbuf, n, MPI_BYTE,
                                  c->left, TAG, c->comm, MPI_STATUS_IGNORE));
        return P2PB_OK;
    }
#endif
    P2PB_KCALL(MPI_Sendrecv(c->sbuf, c->count, c->dtype, c->right, TAG, c->rbuf, c->count, c->dtype,
                            c->left, TAG, c->comm, MPI_STATUS_IGNORE));
    return P2PB_OK;
}

static enum p2pb_status sendrecv_verify(const struct p2pb_kernel_ctx *c, size_t *bad)
{
    return p2pb_pattern_check(c->rbuf, c->bytes, c->left, c->iter, bad);
}

const struct p2pb_kernel p2pb_kernel_sendrecv = {
    .name = "sendrecv",
    .display_name = "Sendrecv",
    .summary = "MPI_Sendrecv in a periodic chain of all ranks: send right, receive left",
    .min_ranks = 2,
    .max_ranks = 0,
    .participation = P2PB_PART_ALL,
    .time_scale = 1.0,
    .bytes = {2, P2PB_BYTES_X},
    .rank_reduce = P2PB_REDUCE_MAX,
    .imb_layout = P2PB_IMB_TMINMAXAVG,
    .sbuf_regions = 1,
    .rbuf_regions = 1,
    .run_iter = sendrecv_iter,
    .verify = sendrecv_verify,
    .bound_paths = 2,
    .flags = P2PB_KF_LARGE_COUNT,
};
