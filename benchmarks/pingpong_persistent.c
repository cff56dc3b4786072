/* SPDX-License-Identifier: MIT */
/*
 * Persistent-PingPong: the PingPong round trip (IMB definition,
 * docs/kernels.md) through persistent requests. setup makes one send request
 * (MPI_Send_init, X bytes to the partner) and one receive request
 * (MPI_Recv_init, X bytes from it) per rank; an iteration starts and
 * completes them in PingPong's order (the initiator: MPI_Start + MPI_Wait on
 * the send, then on the receive; the partner the other way round); teardown
 * frees them. t = half the round trip on the initiator, MB/s = X / t.
 * MPI-1 calls only: it runs under every library. Above 2^31-1 bytes the
 * requests carry X / 1024 blocks of 1 KiB (ctx->dtype), or X MPI_BYTEs
 * through MPI_Send_init_c / MPI_Recv_init_c with MPI-4.
 */
#include <stdlib.h>

#include "pingpong.h"

enum { TAG = 111 };

/* The two persistent requests of this rank (ctx->priv). */
struct persistent {
    MPI_Request send, recv;
};

static enum p2pb_status persistent_setup(struct p2pb_kernel_ctx *c)
{
    struct persistent *p = malloc(sizeof *p);
    if (!p)
        return P2PB_ENOMEM;
    p->send = p->recv = MPI_REQUEST_NULL;
    c->priv = p;
#if P2PB_HAVE_MPI4
    if (c->large_count) {
        MPI_Count n = (MPI_Count)c->bytes;
        P2PB_KCALL(MPI_Send_init_c(c->sbuf, n, MPI_BYTE, c->peer, TAG, c->comm, &p->send));
        P2PB_KCALL(MPI_Recv_init_c(c->rbuf, n, MPI_BYTE, c->peer, TAG, c->comm, &p->recv));
        return P2PB_OK;
    }
#endif
    P2PB_KCALL(MPI_Send_init(c->sbuf, c->count, c->dtype, c->peer, TAG, c->comm, &p->send));
    P2PB_KCALL(MPI_Recv_init(c->rbuf, c->count, c->dtype, c->peer, TAG, c->comm, &p->recv));
    return P2PB_OK;
}

/* Start request *q and wait for it. */
static enum p2pb_status start_wait(MPI_Request *q)
{
    P2PB_KCALL(MPI_Start(q));
    P2PB_KCALL(MPI_Wait(q, MPI_STATUS_IGNORE));
    return P2PB_OK;
}

static enum p2pb_status persistent_iter(struct p2pb_kernel_ctx *c)
{
    struct persistent *p = c->priv;
    MPI_Request *first = c->rank < c->peer ? &p->send : &p->recv;
    MPI_Request *second = c->rank < c->peer ? &p->recv : &p->send;
    enum p2pb_status st = start_wait(first);
    return st == P2PB_OK ? start_wait(second) : st;
}

static void persistent_teardown(struct p2pb_kernel_ctx *c)
{
    struct persistent *p = c->priv;
    if (!p)
        return;
    if (p->send != MPI_REQUEST_NULL)
        MPI_Request_free(&p->send);
    if (p->recv != MPI_REQUEST_NULL)
        MPI_Request_free(&p->recv);
    free(p);
    c->priv = NULL;
}

const struct p2pb_kernel p2pb_kernel_persistent_pingpong = {
    .name = "persistent-pingpong",
    .display_name = "Persistent-PingPong",
    .summary = "PingPong through MPI_Send_init / MPI_Recv_init requests, MPI_Start + MPI_Wait "
               "per message; t = half round trip",
    .min_ranks = 2,
    .max_ranks = 2,
    .participation = P2PB_PART_PAIR,
    P2PB_PINGPONG_DEFINITION, /* pingpong.h; its own iteration */
    .setup = persistent_setup,
    .run_iter = persistent_iter,
    .verify = p2pb_pingpong_verify,
    .teardown = persistent_teardown,
    .flags = P2PB_KF_LARGE_COUNT | P2PB_KF_BOUND_BUFFERS,
};
