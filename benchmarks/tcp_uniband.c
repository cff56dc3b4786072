/* SPDX-License-Identifier: MIT */
/*
 * TCP-Uniband: Uniband's definition (uniband.c) over one plain TCP
 * connection between ranks 0 and 1 (tcp.h), each direction apart
 * (P2PB_KF_DIRECTIONS: rows "0->1" and "1->0", with their ratio). One
 * iteration: the sender writes W messages of X bytes (W = --window), the
 * receiver reads them into W distinct regions and writes a 4-byte
 * acknowledgement, which the sender reads before the iteration ends.
 * t = one iteration (max over the two ranks); MB/s = W X / t. The iperf
 * question: is one direction of the (virtual) NIC slower than the other,
 * without MPI in the way. X >= 1.
 */
#include "tcp.h"
#include "window.h"

static enum p2pb_status tcp_uniband_iter(struct p2pb_kernel_ctx *c)
{
    unsigned char ack[P2PB_ACK_BYTES] = {0};
    enum p2pb_status st = P2PB_OK;
    if (p2pb_window_is_sender(c)) {
        for (size_t i = 0; st == P2PB_OK && i < c->window; i++)
            st = p2pb_tcp_send_all(c, c->sbuf, c->bytes);
        return st == P2PB_OK ? p2pb_tcp_recv_all(c, ack, sizeof ack) : st;
    }
    for (size_t i = 0; st == P2PB_OK && i < c->window; i++)
        st = p2pb_tcp_recv_all(c, c->rbuf + i * c->bytes, c->bytes);
    return st == P2PB_OK ? p2pb_tcp_send_all(c, ack, sizeof ack) : st;
}

const struct p2pb_kernel p2pb_kernel_tcp_uniband = {
    .name = "tcp-uniband",
    .display_name = "TCP-Uniband",
    .summary = "W messages one way over a plain TCP socket + 4-byte ack, each direction apart; "
               "MB/s = W X / t",
    .min_ranks = 2,
    .max_ranks = 2,
    .participation = P2PB_PART_PAIR,
    .time_scale = 1.0,
    .bytes = {1, P2PB_BYTES_WINDOW_X},
    .rank_reduce = P2PB_REDUCE_MAX,
    .imb_layout = P2PB_IMB_T,
    .sbuf_regions = 1,
    .rbuf_regions = P2PB_WINDOW_REGIONS,
    .run_iter = tcp_uniband_iter,
    .verify = p2pb_window_uni_verify,
    .setup = p2pb_tcp_setup,
    .teardown = p2pb_tcp_teardown,
    .flags = P2PB_KF_DIRECTIONS | P2PB_KF_NO_MPI,
    .optdefs = p2pb_tcp_options,
    .n_optdefs = P2PB_TCP_NOPTIONS,
    .min_bytes = 1,
};
