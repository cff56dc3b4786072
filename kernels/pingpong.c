/* SPDX-License-Identifier: MIT */
/*
 * PingPong (IMB definition, docs/kernels.md): the initiator sends X bytes to its
 * partner and receives X bytes back; the partner receives, then sends.
 * Reported time t = half the round trip (time_scale 0.5), timed on the
 * initiator; throughput X / t (bytes {1, P2PB_BYTES_X}).
 */
#include "pingpong.h"

enum { TAG = 101 };

enum p2pb_status p2pb_pingpong_iter(struct p2pb_kernel_ctx *c)
{
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
};
