/* SPDX-License-Identifier: MIT */
/*
 * TCP-PingPong: PingPong's definition (pingpong.c, IMB) over one plain TCP
 * connection between ranks 0 and 1 instead of MPI (tcp.h): rank 0 writes X
 * bytes, rank 1 reads them and writes X bytes back, rank 0 reads them.
 * t = half the round trip, timed on rank 0; MB/s = X / t. Beside the MPI
 * rows of one run it separates MPI's cost from the transport's
 * (docs/kernels.md). X >= 1 (a 0-byte message does not exist on a stream).
 */
#include "pingpong.h"
#include "tcp.h"

static enum p2pb_status tcp_pingpong_iter(struct p2pb_kernel_ctx *c)
{
    enum p2pb_status st;
    if (c->rank < c->peer) {
        st = p2pb_tcp_send_all(c, c->sbuf, c->bytes);
        return st == P2PB_OK ? p2pb_tcp_recv_all(c, c->rbuf, c->bytes) : st;
    }
    st = p2pb_tcp_recv_all(c, c->rbuf, c->bytes);
    return st == P2PB_OK ? p2pb_tcp_send_all(c, c->sbuf, c->bytes) : st;
}

const struct p2pb_kernel p2pb_kernel_tcp_pingpong = {
    .name = "tcp-pingpong",
    .display_name = "TCP-PingPong",
    .summary = "PingPong over a plain TCP socket between ranks 0 and 1 (no MPI); t = half round "
               "trip",
    .min_ranks = 2,
    .max_ranks = 2,
    .participation = P2PB_PART_PAIR,
    .time_scale = 0.5,
    .bytes = {1, P2PB_BYTES_X},
    .rank_reduce = P2PB_REDUCE_ROOT,
    .imb_layout = P2PB_IMB_T,
    .sbuf_regions = 1,
    .rbuf_regions = 1,
    .run_iter = tcp_pingpong_iter,
    .verify = p2pb_pingpong_verify,
    .setup = p2pb_tcp_setup,
    .teardown = p2pb_tcp_teardown,
    .min_bytes = 1,
    .flags = P2PB_KF_NO_MPI,
    .optdefs = p2pb_tcp_options,
    .n_optdefs = P2PB_TCP_NOPTIONS,
};
