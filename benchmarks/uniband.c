/* SPDX-License-Identifier: MIT */
/*
 * Uniband: unidirectional bandwidth between ranks 0 and 1, measured in each
 * direction separately (P2PB_KF_DIRECTIONS: rows "0->1" and "1->0").
 * One iteration: the sender Isends a window of W messages of X bytes
 * (--window, default 64) and waits for them; the receiver Irecvs them into W
 * distinct regions, waits, and returns a 4-byte acknowledgement, which the
 * sender receives before the iteration ends. t = one iteration, the maximum
 * over the two ranks (the sender's, which includes the acknowledgement);
 * bytes counted W * X (the acknowledgement is not counted); MB/s = W X / t.
 * Virtual NICs are often asymmetric, so the two directions are reported
 * apart, with their ratio (docs/kernels.md).
 */
#include <stdlib.h>

#include "window.h"

enum { TAG_DATA = 111, TAG_ACK = 112 };

enum p2pb_status p2pb_window_setup(struct p2pb_kernel_ctx *c)
{
    size_t n = 2 * (c->window ? c->window : 1);
    struct p2pb_window_state *s = calloc(1, sizeof *s);
    if (s) {
        s->req = calloc(n, sizeof *s->req);
        s->st = calloc(n, sizeof *s->st);
    }
    c->priv = s;
    if (!s || !s->req || !s->st) {
        p2pb_window_teardown(c);
        return P2PB_ENOMEM;
    }
    return P2PB_OK;
}

void p2pb_window_teardown(struct p2pb_kernel_ctx *c)
{
    struct p2pb_window_state *s = c->priv;
    if (s) {
        free(s->req);
        free(s->st);
        free(s);
    }
    c->priv = NULL;
}

int p2pb_window_is_sender(const struct p2pb_kernel_ctx *c)
{
    return c->direction ? c->rank > c->peer : c->rank < c->peer;
}

double p2pb_window_factor(const struct p2pb_kernel_ctx *c)
{
    return (double)c->window;
}

enum p2pb_status p2pb_window_uni_iter(struct p2pb_kernel_ctx *c)
{
    struct p2pb_window_state *s = c->priv;
    MPI_Request *req = s->req;
    unsigned char ack[P2PB_ACK_BYTES] = {0};
    int w = (int)c->window;
    if (p2pb_window_is_sender(c)) {
        for (int i = 0; i < w; i++)
            P2PB_KCALL(MPI_Isend(c->sbuf, c->count, c->dtype, c->peer, TAG_DATA, c->comm, &req[i]));
        P2PB_KCALL(MPI_Waitall(w, req, s->st));
        P2PB_KCALL(
            MPI_Recv(ack, P2PB_ACK_BYTES, MPI_BYTE, c->peer, TAG_ACK, c->comm, MPI_STATUS_IGNORE));
    } else {
        for (int i = 0; i < w; i++)
            P2PB_KCALL(MPI_Irecv(c->rbuf + (size_t)i * c->bytes, c->count, c->dtype, c->peer,
                                 TAG_DATA, c->comm, &req[i]));
        P2PB_KCALL(MPI_Waitall(w, req, s->st));
        P2PB_KCALL(MPI_Send(ack, P2PB_ACK_BYTES, MPI_BYTE, c->peer, TAG_ACK, c->comm));
    }
    return P2PB_OK;
}

enum p2pb_status p2pb_window_check_regions(const struct p2pb_kernel_ctx *c, size_t *bad)
{
    for (size_t i = 0; i < c->window; i++) {
        size_t off = 0;
        if (p2pb_pattern_check(c->rbuf + i * c->bytes, c->bytes, c->peer, c->iter, &off) !=
            P2PB_OK) {
            if (bad)
                *bad = i * c->bytes + off;
            return P2PB_EVERIFY;
        }
    }
    return P2PB_OK;
}

enum p2pb_status p2pb_window_uni_verify(const struct p2pb_kernel_ctx *c, size_t *bad)
{
    if (p2pb_window_is_sender(c))
        return P2PB_OK;
    return p2pb_window_check_regions(c, bad);
}

const struct p2pb_kernel p2pb_kernel_uniband = {
    .name = "uniband",
    .display_name = "Uniband",
    .summary = "window of W Isends one way + 4-byte ack, each direction apart; MB/s = W X / t",
    .min_ranks = 2,
    .max_ranks = 2,
    .participation = P2PB_PART_PAIR,
    .time_scale = 1.0,
    .bytes_factor = 64.0, /* W at the default window; the run uses bytes_factor_fn */
    .rank_reduce = P2PB_REDUCE_MAX,
    .imb_layout = P2PB_IMB_T,
    .sbuf_regions = 1,
    .rbuf_regions = P2PB_WINDOW_REGIONS,
    .setup = p2pb_window_setup,
    .run_iter = p2pb_window_uni_iter,
    .verify = p2pb_window_uni_verify,
    .teardown = p2pb_window_teardown,
    .flags = P2PB_KF_DIRECTIONS,
    .bytes_factor_fn = p2pb_window_factor,
};
