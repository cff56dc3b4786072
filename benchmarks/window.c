/* SPDX-License-Identifier: MIT */
/*
 * window.c - the windowed streaming iteration that uniband and
 * multi-uniband run (window.h): W Isends of X bytes one way, W Irecvs into
 * distinct regions, one 4-byte acknowledgement per window.
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
