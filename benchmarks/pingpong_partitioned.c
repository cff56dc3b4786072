/* SPDX-License-Identifier: MIT */
/*
 * Partitioned-PingPong (MPI-4 partitioned communication; docs/kernels.md):
 * the PingPong round trip (IMB definition) with each X-byte message sent as
 * P = --partitions equal parts of X / P bytes. setup makes one partitioned
 * send request (MPI_Psend_init, P parts to the partner) and one partitioned
 * receive request (MPI_Precv_init, P parts from it) per rank. An iteration:
 * the initiator starts its receive and its send, marks each part ready
 * (MPI_Pready, part 0 .. P-1), waits for the send, polls MPI_Parrived until
 * every part of the reply has arrived, then MPI_Wait on the receive; the
 * partner starts its receive, polls MPI_Parrived part by part, MPI_Wait,
 * then sends back the same way. teardown frees the requests.
 * t = half the round trip on the initiator, MB/s = X / t. X must be a
 * multiple of P (P2PB_KF_PARTITIONED: the suite skips other sizes with a
 * note). Rows carry overhead = t / t(PingPong) at the same size when
 * pingpong ran earlier in the launch (descriptor field baseline).
 * Needs MPI 4.0: under an older library the kernel is listed with the
 * reason and skipped.
 */
#include <stdlib.h>

#include "pingpong.h"

#define P2PB_STR_(x) #x
#define P2PB_STR(x) P2PB_STR_(x)

#if P2PB_HAVE_MPI4

enum { TAG = 112 };

/* The two partitioned requests of this rank (ctx->priv). */
struct partitioned {
    MPI_Request send, recv;
};

static enum p2pb_status partitioned_setup(struct p2pb_kernel_ctx *c)
{
    struct partitioned *p = malloc(sizeof *p);
    if (!p)
        return P2PB_ENOMEM;
    p->send = p->recv = MPI_REQUEST_NULL;
    c->priv = p;
    int parts = (int)c->partitions;
    MPI_Count per = (MPI_Count)(c->bytes / c->partitions); /* bytes of one part */
    P2PB_KCALL(MPI_Psend_init(c->sbuf, parts, per, MPI_BYTE, c->peer, TAG, c->comm, MPI_INFO_NULL,
                              &p->send));
    P2PB_KCALL(MPI_Precv_init(c->rbuf, parts, per, MPI_BYTE, c->peer, TAG, c->comm, MPI_INFO_NULL,
                              &p->recv));
    return P2PB_OK;
}

/* Start the send, mark parts 0 .. P-1 ready, wait for it. */
static enum p2pb_status send_parts(struct p2pb_kernel_ctx *c, MPI_Request *q)
{
    P2PB_KCALL(MPI_Start(q));
    for (int i = 0; i < (int)c->partitions; i++)
        P2PB_KCALL(MPI_Pready(i, *q));
    P2PB_KCALL(MPI_Wait(q, MPI_STATUS_IGNORE));
    return P2PB_OK;
}

/* The started receive *q: poll MPI_Parrived until part 0 .. P-1 each has
 * arrived, then MPI_Wait. */
static enum p2pb_status recv_parts(struct p2pb_kernel_ctx *c, MPI_Request *q)
{
    for (int i = 0; i < (int)c->partitions; i++) {
        int flag = 0;
        while (!flag)
            P2PB_KCALL(MPI_Parrived(*q, i, &flag));
    }
    P2PB_KCALL(MPI_Wait(q, MPI_STATUS_IGNORE));
    return P2PB_OK;
}

static enum p2pb_status partitioned_iter(struct p2pb_kernel_ctx *c)
{
    struct partitioned *p = c->priv;
    enum p2pb_status st;
    P2PB_KCALL(MPI_Start(&p->recv));
    if (c->rank < c->peer) {
        st = send_parts(c, &p->send);
        return st == P2PB_OK ? recv_parts(c, &p->recv) : st;
    }
    st = recv_parts(c, &p->recv);
    return st == P2PB_OK ? send_parts(c, &p->send) : st;
}

static void partitioned_teardown(struct p2pb_kernel_ctx *c)
{
    struct partitioned *p = c->priv;
    if (!p)
        return;
    if (p->send != MPI_REQUEST_NULL)
        MPI_Request_free(&p->send);
    if (p->recv != MPI_REQUEST_NULL)
        MPI_Request_free(&p->recv);
    free(p);
    c->priv = NULL;
}

#define PARTITIONED_CALLS                                                                     \
    .setup = partitioned_setup, .run_iter = partitioned_iter, .verify = p2pb_pingpong_verify, \
    .teardown = partitioned_teardown

#else /* MPI 3.x: listed, never run */

static enum p2pb_status partitioned_none(struct p2pb_kernel_ctx *c)
{
    (void)c;
    return P2PB_EMPI;
}

#define PARTITIONED_CALLS                                                                \
    .run_iter = partitioned_none,                                                        \
    .unavailable_reason = "needs MPI_Psend_init (MPI-4); this library is MPI " P2PB_STR( \
        MPI_VERSION) "." P2PB_STR(MPI_SUBVERSION)

#endif

/* partitioned-pingpong's option (option.h). */
static const struct p2pb_optdef partitioned_options[] = {
    P2PB_OPT(0, "partitions", 0, P2PB_OPT_COUNT, "P", .min = 1, .max = 65536, .def_text = "8",
             .def = 8, P2PB_KSET_FIELD(partitions),
             .help = "partitioned-pingpong: parts per message (MPI_Psend_init); sizes that are "
                     "not a multiple of P are skipped (default {def})"),
};

const struct p2pb_kernel p2pb_kernel_partitioned_pingpong = {
    .name = "partitioned-pingpong",
    .display_name = "Partitioned-PingPong",
    .summary = "PingPong with MPI_Psend_init / MPI_Precv_init, --partitions parts per message "
               "(MPI_Pready, MPI_Parrived); t = half round trip",
    .min_ranks = 2,
    .max_ranks = 2,
    .participation = P2PB_PART_PAIR,
    P2PB_PINGPONG_DEFINITION, /* pingpong.h; its own iteration */
    PARTITIONED_CALLS,
    .flags = P2PB_KF_LARGE_COUNT | P2PB_KF_BOUND_BUFFERS | P2PB_KF_PARTITIONED,
    .optdefs = partitioned_options,
    .n_optdefs = sizeof partitioned_options / sizeof partitioned_options[0],
    .overhead_vs = "pingpong",
};
