/* SPDX-License-Identifier: MIT */
/*
 * Exchange (IMB definition, docs/kernels.md): every rank, in a periodic chain,
 * Isends X bytes to its right and to its left neighbour, Recvs X bytes from
 * the left and from the right, then Waitall. t = one iteration; throughput
 * 4X / t. Messages to the right and to the left carry different tags, so with
 * 2 ranks (left == right) each receive still matches one definite send.
 * Buffers as IMB's Exchange has them: the two messages go out of two send
 * regions (sbuf, sbuf + X) and both land in the one receive region rbuf;
 * only the --check pass receives the right neighbour's into rbuf + X, so
 * that both can be verified (the kernel's priv points there).
 */
#include "p2pbench/kernel.h"

enum { TAG_TO_LEFT = 104, TAG_TO_RIGHT = 105 };

static enum p2pb_status exchange_iter(struct p2pb_kernel_ctx *c)
{
    MPI_Request req[2];
    MPI_Status st[2]; /* not MPI_STATUSES_IGNORE: GCC 12 misreads MPICH's definition */
    unsigned char *from_right = c->priv ? (unsigned char *)c->priv : c->rbuf;
    P2PB_KCALL(MPI_Isend(c->sbuf, c->count, c->dtype, c->right, TAG_TO_RIGHT, c->comm, &req[0]));
    P2PB_KCALL(
        MPI_Isend(c->sbuf + c->bytes, c->count, c->dtype, c->left, TAG_TO_LEFT, c->comm, &req[1]));
    /* what the left neighbour sent to its right, and the right one to its left */
    P2PB_KCALL(
        MPI_Recv(c->rbuf, c->count, c->dtype, c->left, TAG_TO_RIGHT, c->comm, MPI_STATUS_IGNORE));
    P2PB_KCALL(MPI_Recv(from_right, c->count, c->dtype, c->right, TAG_TO_LEFT, c->comm,
                        MPI_STATUS_IGNORE));
    P2PB_KCALL(MPI_Waitall(2, req, st));
    return P2PB_OK;
}

/* --check: the right neighbour's message to its own region, rbuf + X. */
static void exchange_prepare_check(struct p2pb_kernel_ctx *c)
{
    c->priv = c->rbuf + c->bytes;
}

static enum p2pb_status exchange_verify(const struct p2pb_kernel_ctx *c, size_t *bad)
{
    enum p2pb_status st = p2pb_pattern_check(c->rbuf, c->bytes, c->left, c->iter, bad);
    if (st != P2PB_OK)
        return st;
    st = p2pb_pattern_check(c->rbuf + c->bytes, c->bytes, c->right, c->iter, bad);
    if (st != P2PB_OK && bad)
        *bad += c->bytes; /* offset within the whole receive buffer */
    return st;
}

const struct p2pb_kernel p2pb_kernel_exchange = {
    .name = "exchange",
    .display_name = "Exchange",
    .summary =
        "Isend left and right, Recv from left and right, Waitall; periodic chain of all ranks",
    .min_ranks = 2,
    .max_ranks = 0,
    .participation = P2PB_PART_ALL,
    .time_scale = 1.0,
    .bytes = {4, P2PB_BYTES_X},
    .rank_reduce = P2PB_REDUCE_MAX,
    .imb_layout = P2PB_IMB_TMINMAXAVG,
    .sbuf_regions = 2,
    .rbuf_regions = 2,
    .run_iter = exchange_iter,
    .verify = exchange_verify,
    .prepare_check = exchange_prepare_check,
    .bound_paths = 2,
};
