/* SPDX-License-Identifier: MIT */
/*
 * Msgrate: the rate of small messages between partners, in the manner of
 * the Sandia message-rate benchmark (SMB msgrate; Barrett and Hemmert, "An
 * application based MPI message throughput benchmark", IEEE Cluster 2009),
 * written from its published description: many small messages in flight,
 * receives pre-posted or not, and optionally the caches invalidated between
 * iterations.
 *
 * Ranks: the disjoint pairs (0,1), (2,3), ... at once (an odd last rank
 * waits); rows per pair and an aggregate (P2PB_KF_PER_GROUP).
 * One iteration, on both ranks of a pair: W = --window messages of X bytes
 * each way. Before it, off the clock (between_iter, kernel.h):
 *   - with --cache-pollute BYTES > 0, every cache line of a BYTES buffer is
 *     read and written;
 *   - with --msgrate-prepost on (default), the W receives are posted
 *     (Irecv into W distinct regions);
 *   - with either, a zero-byte MPI_Sendrecv with the partner (handshake):
 *     the partner's receives are posted (and its cache pass over) before
 *     this rank's first send, and neither rank's pass is in the other's time.
 * The timed iteration: on: W Isends, Waitall on the 2 W requests; off: W
 * Isends, then the W Irecvs, Waitall (messages may arrive before their
 * receive: the library's unexpected-message path).
 * t = one iteration (max over the pair); messages counted 2 W (both ways,
 * the handshake not counted); msgs/s = 2 W / t x 10^6; bytes counted 2 W X,
 * MB/s = 2 W X / t. Aggregate: t = max over pairs, msgs/s and MB/s the sums
 * of the pairs'. Default sizes 0, 1, 2, 4, ..., 1024 bytes (message rates
 * are usually quoted at 8 bytes).
 */
#include <stdlib.h>

#include "window.h"

enum { TAG_DATA = 121, TAG_SYNC = 122 };

/* Bytes between the lines touched by the cache pass. */
#define LINE 64

/* ctx->priv: 2 W requests and statuses (receives first), the buffer of
 * the cache pass (NULL when off). */
struct msgrate_state {
    struct p2pb_window_state win;
    unsigned char *cachebuf;
};

static void msgrate_teardown(struct p2pb_kernel_ctx *c)
{
    struct msgrate_state *m = c->priv;
    if (m) {
        free(m->win.req);
        free(m->win.st);
        free(m->cachebuf);
        free(m);
    }
    c->priv = NULL;
}

static enum p2pb_status msgrate_setup(struct p2pb_kernel_ctx *c)
{
    size_t n = 2 * (c->window ? c->window : 1);
    struct msgrate_state *m = calloc(1, sizeof *m);
    c->priv = m;
    if (!m)
        return P2PB_ENOMEM;
    m->win.req = calloc(n, sizeof *m->win.req);
    m->win.st = calloc(n, sizeof *m->win.st);
    if (c->pollute) {
        void *p = NULL;
        if (posix_memalign(&p, 4096, c->pollute) == 0) {
            m->cachebuf = p;
            (void)c->membind(c, p, c->pollute); /* --numa-node, before first touch */
            for (size_t i = 0; i < c->pollute; i += LINE)
                m->cachebuf[i] = 0;
        }
    }
    if (!m->win.req || !m->win.st || (c->pollute && !m->cachebuf)) {
        msgrate_teardown(c);
        return P2PB_ENOMEM;
    }
    return P2PB_OK;
}

/* Post the W receives into W distinct regions: requests 0 .. W-1. */
static enum p2pb_status post_receives(struct p2pb_kernel_ctx *c, MPI_Request *req)
{
    for (int i = 0; i < (int)c->window; i++)
        P2PB_KCALL(MPI_Irecv(c->rbuf + (size_t)i * c->bytes, c->count, c->dtype, c->peer, TAG_DATA,
                             c->comm, &req[i]));
    return P2PB_OK;
}

/* Untimed, before every iteration: cache pass, pre-posted receives,
 * handshake (see the top of the file). */
static enum p2pb_status msgrate_between(struct p2pb_kernel_ctx *c)
{
    struct msgrate_state *m = c->priv;
    if (m->cachebuf) {
        volatile unsigned char *p = m->cachebuf;
        for (size_t i = 0; i < c->pollute; i += LINE)
            p[i] = (unsigned char)(p[i] + 1);
    }
    if (c->prepost && post_receives(c, m->win.req) != P2PB_OK)
        return P2PB_EMPI;
    if (c->prepost || m->cachebuf)
        P2PB_KCALL(MPI_Sendrecv(NULL, 0, MPI_BYTE, c->peer, TAG_SYNC, NULL, 0, MPI_BYTE, c->peer,
                                TAG_SYNC, c->comm, MPI_STATUS_IGNORE));
    return P2PB_OK;
}

static enum p2pb_status msgrate_iter(struct p2pb_kernel_ctx *c)
{
    struct msgrate_state *m = c->priv;
    MPI_Request *req = m->win.req;
    int w = (int)c->window;
    for (int i = 0; i < w; i++)
        P2PB_KCALL(MPI_Isend(c->sbuf, c->count, c->dtype, c->peer, TAG_DATA, c->comm, &req[w + i]));
    if (!c->prepost && post_receives(c, req) != P2PB_OK)
        return P2PB_EMPI;
    P2PB_KCALL(MPI_Waitall(2 * w, req, m->win.st));
    return P2PB_OK;
}

static enum p2pb_status msgrate_verify(const struct p2pb_kernel_ctx *c, size_t *bad)
{
    return p2pb_window_check_regions(c, bad); /* both ranks receive W messages */
}

/* 0 and powers of 2 up to 1 KiB: small messages. */
static const size_t msgrate_sizes[] = {0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024};


static const char *const on_off_names[] = {"off", "on", NULL};

/* msgrate's options (option.h). --msgrate-prepost on: SMB's pre-posted
 * pattern, the figure of merit of LANL's ATS-5 description of SMB. */
enum { O_MSGRATE_PREPOST, O_CACHE_POLLUTE, O_MSGRATE_N };
static const struct p2pb_optdef msgrate_options[O_MSGRATE_N] = {
    P2PB_OPT(O_MSGRATE_PREPOST, "msgrate-prepost", 0, P2PB_OPT_ENUM, "on|off", .def_text = "on",
             .def = 1, P2PB_KSET_FIELD(msgrate_prepost), .choices = on_off_names,
             .help = "msgrate: post each iteration's receives and handshake with the partner "
                     "before it sends, untimed (on, default), or post them after this rank's "
                     "sends, timed (off)"),
    P2PB_OPT(O_CACHE_POLLUTE, "cache-pollute", 0, P2PB_OPT_SIZE, "BYTES", .min = 0,
             .max = (double)((size_t)1 << 40), .def_text = "0", .def = 0,
             P2PB_KSET_FIELD(cache_pollute),
             .help = "msgrate: before each iteration, untimed, touch every cache line of a "
                     "buffer of BYTES (larger than the last-level cache) and handshake with the "
                     "partner (default {def}: off)"),
};

const struct p2pb_kernel p2pb_kernel_msgrate = {
    .name = "msgrate",
    .display_name = "Msgrate",
    .summary = "pairs (0,1), (2,3), ...: W messages each way, receives pre-posted or not, "
               "optional cache pass; msgs/s = 2 W / t",
    .min_ranks = 2,
    .max_ranks = 0,
    .participation = P2PB_PART_PAIRS,
    .time_scale = 1.0,
    .bytes = {2, P2PB_BYTES_WINDOW_X},
    .rank_reduce = P2PB_REDUCE_MAX,
    .imb_layout = P2PB_IMB_T,
    .sbuf_regions = 1,
    .rbuf_regions = P2PB_WINDOW_REGIONS,
    .setup = msgrate_setup,
    .run_iter = msgrate_iter,
    .verify = msgrate_verify,
    .teardown = msgrate_teardown,
    .flags = P2PB_KF_PER_GROUP,
    .optdefs = msgrate_options,
    .n_optdefs = sizeof msgrate_options / sizeof msgrate_options[0],
    .default_sizes = msgrate_sizes,
    .ndefault_sizes = sizeof msgrate_sizes / sizeof msgrate_sizes[0],
    .bound_paths = 2,
    .msgs = {2, P2PB_MSGS_WINDOW},
    .between_iter = msgrate_between,
};
