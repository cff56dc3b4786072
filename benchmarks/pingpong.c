/* SPDX-License-Identifier: MIT */
/*
 * PingPong (IMB definition, docs/kernels.md): the initiator sends X bytes to its
 * partner and receives X bytes back; the partner receives, then sends.
 * Reported time t = half the round trip (time_scale 0.5), timed on the
 * initiator; throughput X / t (bytes {1, P2PB_BYTES_X}). Above 2^31-1 bytes:
 * X MPI_BYTEs through MPI_Send_c / MPI_Recv_c with MPI-4 (ctx->large_count),
 * else X / 1024 blocks of 1 KiB (ctx->dtype).
 */
#include "pingpong.h"

enum { TAG = 101 };

#if P2PB_HAVE_MPI4
/* The round trip with the large-count calls: X MPI_BYTEs as an MPI_Count. */
static enum p2pb_status pingpong_iter_c(struct p2pb_kernel_ctx *c)
{
    MPI_Count n = (MPI_Count)c->bytes;
    if (c->rank < c->peer) {
        P2PB_KCALL(MPI_Send_c(c->sbuf, n, MPI_BYTE, c->peer, TAG, c->comm));
        P2PB_KCALL(MPI_Recv_c(c->rbuf, n, MPI_BYTE, c->peer, TAG, c->comm, MPI_STATUS_IGNORE));
    } else {
        P2PB_KCALL(MPI_Recv_c(c->rbuf, n, MPI_BYTE, c->peer, TAG, c->comm, MPI_STATUS_IGNORE));
        P2PB_KCALL(MPI_Send_c(c->sbuf, n, MPI_BYTE, c->peer, TAG, c->comm));
    }
    return P2PB_OK;
}
#endif

enum p2pb_status p2pb_pingpong_iter(struct p2pb_kernel_ctx *c)
{
#if P2PB_HAVE_MPI4
    if (c->large_count)
        return pingpong_iter_c(c);
#endif
    if (c->rank < c->peer) {
        P2PB_KCALL(MPI_Send(c->sbuf, c->count, c->dtype, c->peer, TAG, c->comm));
        P2PB_KCALL(MPI_Recv(c->rbuf, c->count, c->dtype, c->peer, TAG, c->comm, MPI_STATUS_IGNORE));
    } else {
        P2PB_KCALL(MPI_Recv(c->rbuf, c->count, c->dtype, c->peer, TAG, c->comm, MPI_STATUS_IGNORE));
        P2PB_KCALL(MPI_Send(c->sbuf, c->count, c->dtype, c->peer, TAG, c->comm));
    }
    return P2PB_OK;
}

enum p2pb_status p2pb_pingpong_verify(const struct p2pb_kernel_ctx *c, size_t *bad)
{
    return p2pb_pattern_check(c->rbuf, c->bytes, c->peer, c->iter, bad);
}

const struct p2pb_kernel p2pb_kernel_pingpong = {
    .name = "pingpong",
    .display_name = "PingPong",
    .summary = "blocking Send/Recv round trip between ranks 0 and 1; t = half round trip",
    .min_ranks = 2,
    .max_ranks = 2,
    .participation = P2PB_PART_PAIR,
    P2PB_PINGPONG_FIELDS,
    .flags = P2PB_KF_LARGE_COUNT,
};
