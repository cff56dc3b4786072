/* SPDX-License-Identifier: MIT */
/*
 * Biband: bidirectional bandwidth between ranks 0 and 1, both streaming at
 * once. One iteration, on both ranks: Irecv W messages of X bytes from the
 * other rank into W distinct regions, Isend W messages of X bytes to it
 * (W = --window, default 64), Waitall on all 2W requests. No acknowledgement:
 * each rank's receives complete only once the other rank has sent its whole
 * window. t = one iteration (max over the two ranks); bytes counted 2 W X
 * (both directions); MB/s = 2 W X / t.
 */
#include "window.h"

enum { TAG_DATA = 113 };

static enum p2pb_status biband_iter(struct p2pb_kernel_ctx *c)
{
    struct p2pb_window_state *s = c->priv;
    MPI_Request *req = s->req;
    int w = (int)c->window;
    for (int i = 0; i < w; i++)
        P2PB_KCALL(MPI_Irecv(c->rbuf + (size_t)i * c->bytes, c->count, c->dtype, c->peer, TAG_DATA,
                             c->comm, &req[i]));
    for (int i = 0; i < w; i++)
        P2PB_KCALL(MPI_Isend(c->sbuf, c->count, c->dtype, c->peer, TAG_DATA, c->comm, &req[w + i]));
    P2PB_KCALL(MPI_Waitall(2 * w, req, s->st));
    return P2PB_OK;
}

static enum p2pb_status biband_verify(const struct p2pb_kernel_ctx *c, size_t *bad)
{
    return p2pb_window_check_regions(c, bad); /* both ranks receive W messages */
}

const struct p2pb_kernel p2pb_kernel_biband = {
    .name = "biband",
    .display_name = "Biband",
    .summary = "both ranks Isend and Irecv a window of W messages at once; MB/s = 2 W X / t",
    .min_ranks = 2,
    .max_ranks = 2,
    .participation = P2PB_PART_PAIR,
    .time_scale = 1.0,
    .bytes = {2, P2PB_BYTES_WINDOW_X},
    .rank_reduce = P2PB_REDUCE_MAX,
    .imb_layout = P2PB_IMB_T,
    .sbuf_regions = 1,
    .rbuf_regions = P2PB_WINDOW_REGIONS,
    .setup = p2pb_window_setup,
    .run_iter = biband_iter,
    .verify = biband_verify,
    .teardown = p2pb_window_teardown,
    .bound_paths = 2,
    .msgs = {2, P2PB_MSGS_WINDOW},
};
