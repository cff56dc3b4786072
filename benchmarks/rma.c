/* SPDX-License-Identifier: MIT */
/*
 * rma.c - the machinery of the one-sided (MPI RMA) kernels (each kernel's
 * descriptor is its own file: put_latency.c, get_latency.c, put_bw.c,
 * get_bw.c, put_bibw.c, get_bibw.c; rma.h). The kernels run between ranks
 * 0 and 1, from the MPI standard
 * (MPI-3.1, chapter 11) and the documented definitions of IMB-RMA / IMB-EXT
 * (Unidir_Put, Unidir_Get, Bidir_Put, Bidir_Get) and OSU (osu_put_latency,
 * osu_get_latency, osu_put_bw, osu_get_bw, osu_put_bibw). docs/kernels.md,
 * "One-sided kernels", has the definitions; in short:
 *
 *   put_latency  rank 0: one MPI_Put of X bytes to rank 1, then the
 *                synchronisation; t = one iteration; MB/s = X / t
 *   get_latency  the same with one MPI_Get of X bytes from rank 1
 *   put_bw       rank 0: W = --window puts of X bytes (to W distinct regions
 *                of rank 1's window), then one synchronisation; MB/s = W X / t
 *   get_bw       the same with W gets (into W distinct regions of rank 0)
 *   put_bibw     both ranks put W messages to each other, then synchronise;
 *                MB/s = 2 W X / t
 *   get_bibw     the same with gets
 *
 * The synchronisation (--rma-sync, ctx->rma_sync): flush = MPI_Win_lock
 * (shared) once per size in setup, MPI_Win_flush per iteration, unlock in
 * teardown; lock = MPI_Win_lock (exclusive) / MPI_Win_unlock per iteration;
 * fence = MPI_Win_fence per iteration on both ranks (one opening fence in
 * setup); pscw = the target posts and waits, the origin starts and completes.
 * The window (--rma-window, ctx->rma_window): MPI_Win_create on the harness's
 * buffer, MPI_Win_allocate, or MPI_Win_create_dynamic + MPI_Win_attach of the
 * harness's buffer with its address sent to the peer. Window memory: the
 * receive buffer of the target (puts: W regions, or 1), the send buffer of
 * the target (gets: 1 region, every get reads it).
 *
 * Window creation is collective over its communicator: setup runs on ranks 0
 * and 1 only (P2PB_PART_PAIR), so the window lives on a communicator of the
 * two made with MPI_Comm_create_group (collective over the pair alone).
 */
#include <stdlib.h>
#include <string.h>

#include "rma.h"

enum { TAG_PAIR = 131, TAG_ADDR = 132 };

const char *const p2pb_rma_sync_names[] = {"flush", "lock", "fence", "pscw", NULL};
const char *const p2pb_rma_window_names[] = {"create", "allocate", "dynamic", NULL};

const char *p2pb_rma_refusal(int sync, int window)
{
    char v[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    if (window != P2PB_RMA_DYNAMIC || (sync != P2PB_RMA_FLUSH && sync != P2PB_RMA_LOCK))
        return NULL;
    if (MPI_Get_library_version(v, &len) != MPI_SUCCESS)
        return NULL;
    const char *o = strstr(v, "Open MPI v");
    if (o && o[10] >= '1' && o[10] <= '4' && o[11] == '.')
        return "Open MPI 4 fails passive-target puts and gets on dynamic windows "
               "(MPI_ERR_RMA_RANGE); use --rma-sync fence or pscw, or another --rma-window";
    return NULL;
}

/* Granularity of MPI_Win_allocate's windows, bytes. */
#define RMA_PAGE 4096

/* Byte the harness clears receive buffers to (src/bench/check.c). */
#define RMA_CHECK_FILL 0x5a

/* ctx->priv of the RMA kernels. */
struct rma_state {
    const struct p2pb_rma_def *def;
    MPI_Comm pair;      /* ranks 0 and 1 of ctx->comm, same order */
    MPI_Group peer_grp; /* the peer alone (pscw) */
    MPI_Win win;        /* MPI_WIN_NULL until made */
    unsigned char *mem; /* this rank's window memory */
    MPI_Aint peer_base; /* displacement of the peer's window memory: 0, or
                         * its address (dynamic windows) */
    int attached;       /* dynamic: mem attached */
    int locked;         /* flush: the lock on the peer is held */
    int fenced;         /* fence: the opening fence was called */
};

/* Operations per iteration per origin: W or 1. */
static size_t rma_msgs(const struct p2pb_kernel_ctx *c, const struct p2pb_rma_def *d)
{
    return d->windowed ? c->window : 1;
}

static int is_origin(const struct p2pb_kernel_ctx *c, const struct p2pb_rma_def *d)
{
    return d->bidir || c->rank < c->peer;
}

static int is_target(const struct p2pb_kernel_ctx *c, const struct p2pb_rma_def *d)
{
    return d->bidir || c->rank > c->peer;
}

static int passive(const struct p2pb_kernel_ctx *c)
{
    return c->rma_sync == P2PB_RMA_FLUSH || c->rma_sync == P2PB_RMA_LOCK;
}

/* Bytes of this rank's window memory: puts land in W (or 1) regions of X,
 * gets read one region of X. */
static size_t window_bytes(const struct p2pb_kernel_ctx *c, const struct p2pb_rma_def *d)
{
    return d->get ? c->bytes : rma_msgs(c, d) * c->bytes;
}

/* The pair communicator and the peer's group. */
static enum p2pb_status make_pair(struct p2pb_kernel_ctx *c, struct rma_state *s)
{
    MPI_Group all, two;
    int ranks[2] = {0, 1}, peer_in_pair = c->peer;
    P2PB_KCALL(MPI_Comm_group(c->comm, &all));
    P2PB_KCALL(MPI_Group_incl(all, 2, ranks, &two));
    int rc = MPI_Comm_create_group(c->comm, two, TAG_PAIR, &s->pair);
    MPI_Group_free(&two);
    if (rc != MPI_SUCCESS) {
        MPI_Group_free(&all);
        return p2pb_mpi_error("MPI_Comm_create_group", __FILE__, __LINE__, rc);
    }
    P2PB_KCALL(MPI_Comm_set_errhandler(s->pair, MPI_ERRORS_RETURN));
    MPI_Group pg;
    P2PB_KCALL(MPI_Comm_group(s->pair, &pg));
    rc = MPI_Group_incl(pg, 1, &peer_in_pair, &s->peer_grp);
    MPI_Group_free(&pg);
    MPI_Group_free(&all);
    if (rc != MPI_SUCCESS)
        return p2pb_mpi_error("MPI_Group_incl", __FILE__, __LINE__, rc);
    return P2PB_OK;
}

/* The window, by --rma-window. */
static enum p2pb_status make_window(struct p2pb_kernel_ctx *c, struct rma_state *s)
{
    const struct p2pb_rma_def *d = s->def;
    size_t n = window_bytes(c, d);
    unsigned char *harness = d->get ? c->sbuf : c->rbuf;
    switch (c->rma_window) {
    case P2PB_RMA_ALLOCATE: {
        /* whole pages, at least one: MPICH 4.0.2 put into the wrong place of
         * shared-memory windows of other sizes (seen with 999, 1000, 65537 B) */
        size_t pages = (n + RMA_PAGE - 1) / RMA_PAGE;
        size_t len = (pages ? pages : 1) * RMA_PAGE;
        P2PB_KCALL(MPI_Win_allocate((MPI_Aint)len, 1, MPI_INFO_NULL, s->pair, &s->mem, &s->win));
        memset(s->mem, 0, len);
        break;
    }
    case P2PB_RMA_DYNAMIC: {
        MPI_Aint mine = 0;
        s->mem = harness;
        P2PB_KCALL(MPI_Win_create_dynamic(MPI_INFO_NULL, s->pair, &s->win));
        /* the harness's buffer holds at least one byte, also at X = 0 */
        P2PB_KCALL(MPI_Win_attach(s->win, s->mem, (MPI_Aint)(n ? n : 1)));
        s->attached = 1;
        P2PB_KCALL(MPI_Get_address(s->mem, &mine));
        P2PB_KCALL(MPI_Sendrecv(&mine, 1, MPI_AINT, c->peer, TAG_ADDR, &s->peer_base, 1, MPI_AINT,
                                c->peer, TAG_ADDR, s->pair, MPI_STATUS_IGNORE));
        break;
    }
    default:
        s->mem = harness;
        P2PB_KCALL(MPI_Win_create(s->mem, (MPI_Aint)n, 1, MPI_INFO_NULL, s->pair, &s->win));
        break;
    }
    P2PB_KCALL(MPI_Win_set_errhandler(s->win, MPI_ERRORS_RETURN));
    return P2PB_OK;
}

/* Epochs that last the whole size: flush's lock, fence's opening fence. */
static enum p2pb_status open_epochs(struct p2pb_kernel_ctx *c, struct rma_state *s)
{
    if (c->rma_sync == P2PB_RMA_FLUSH && is_origin(c, s->def)) {
        P2PB_KCALL(MPI_Win_lock(MPI_LOCK_SHARED, c->peer, 0, s->win));
        s->locked = 1;
    } else if (c->rma_sync == P2PB_RMA_FENCE) {
        P2PB_KCALL(MPI_Win_fence(MPI_MODE_NOPRECEDE, s->win));
        s->fenced = 1;
    }
    return P2PB_OK;
}

void p2pb_rma_teardown(struct p2pb_kernel_ctx *c)
{
    struct rma_state *s = c->priv;
    if (!s)
        return;
    if (s->win != MPI_WIN_NULL) {
        if (s->locked)
            MPI_Win_unlock(c->peer, s->win);
        if (s->fenced)
            MPI_Win_fence(MPI_MODE_NOSUCCEED, s->win);
        if (s->attached)
            MPI_Win_detach(s->win, s->mem);
        MPI_Win_free(&s->win);
    }
    if (s->peer_grp != MPI_GROUP_NULL)
        MPI_Group_free(&s->peer_grp);
    if (s->pair != MPI_COMM_NULL)
        MPI_Comm_free(&s->pair);
    free(s);
    c->priv = NULL;
}

enum p2pb_status p2pb_rma_setup(struct p2pb_kernel_ctx *c, const struct p2pb_rma_def *d)
{
    struct rma_state *s = calloc(1, sizeof *s);
    if (!s)
        return P2PB_ENOMEM;
    s->def = d;
    s->pair = MPI_COMM_NULL;
    s->peer_grp = MPI_GROUP_NULL;
    s->win = MPI_WIN_NULL;
    c->priv = s;
    enum p2pb_status st = make_pair(c, s);
    if (st == P2PB_OK)
        st = make_window(c, s);
    if (st == P2PB_OK)
        st = open_epochs(c, s);
    return st; /* the harness calls teardown also after a failed setup */
}

/* The origin's operations of one iteration: puts from sbuf into the peer's
 * regions 0..n-1, or gets of the peer's one region into regions 0..n-1 of
 * rbuf. */
static enum p2pb_status issue(struct p2pb_kernel_ctx *c, const struct rma_state *s)
{
    size_t n = rma_msgs(c, s->def);
    for (size_t i = 0; i < n; i++) {
        if (s->def->get)
            P2PB_KCALL(MPI_Get(c->rbuf + i * c->bytes, c->count, c->dtype, c->peer, s->peer_base,
                               c->count, c->dtype, s->win));
        else
            P2PB_KCALL(MPI_Put(c->sbuf, c->count, c->dtype, c->peer,
                               s->peer_base + (MPI_Aint)(i * c->bytes), c->count, c->dtype,
                               s->win));
    }
    return P2PB_OK;
}

enum p2pb_status p2pb_rma_iter(struct p2pb_kernel_ctx *c)
{
    struct rma_state *s = c->priv;
    int origin = is_origin(c, s->def), target = is_target(c, s->def);
    switch (c->rma_sync) {
    case P2PB_RMA_FLUSH:
        if (origin) {
            enum p2pb_status st = issue(c, s);
            if (st != P2PB_OK)
                return st;
            P2PB_KCALL(MPI_Win_flush(c->peer, s->win));
        }
        break;
    case P2PB_RMA_LOCK:
        if (origin) {
            P2PB_KCALL(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, c->peer, 0, s->win));
            enum p2pb_status st = issue(c, s);
            if (st != P2PB_OK)
                return st;
            P2PB_KCALL(MPI_Win_unlock(c->peer, s->win));
        }
        break;
    case P2PB_RMA_FENCE:
        if (origin) {
            enum p2pb_status st = issue(c, s);
            if (st != P2PB_OK)
                return st;
        }
        P2PB_KCALL(MPI_Win_fence(0, s->win));
        break;
    default: /* P2PB_RMA_PSCW: post before start, so two origins cannot wait on each other */
        if (target)
            P2PB_KCALL(MPI_Win_post(s->peer_grp, 0, s->win));
        if (origin) {
            P2PB_KCALL(MPI_Win_start(s->peer_grp, 0, s->win));
            enum p2pb_status st = issue(c, s);
            if (st != P2PB_OK)
                return st;
            P2PB_KCALL(MPI_Win_complete(s->win));
        }
        if (target)
            P2PB_KCALL(MPI_Win_wait(s->win));
        break;
    }
    return P2PB_OK;
}

/* n regions of X bytes at buf against the peer's pattern of iteration iter. */
static enum p2pb_status check_regions(const struct p2pb_kernel_ctx *c, const unsigned char *buf,
                                      size_t n, size_t *bad)
{
    for (size_t i = 0; i < n; i++) {
        size_t off = 0;
        if (p2pb_pattern_check(buf + i * c->bytes, c->bytes, c->peer, c->iter, &off) != P2PB_OK) {
            if (bad)
                *bad = i * c->bytes + off;
            return P2PB_EVERIFY;
        }
    }
    return P2PB_OK;
}

/*
 * --check. Puts: the target's window memory holds the origin's pattern in
 * every region written; gets: the origin's receive regions hold the target's
 * pattern. Under passive synchronisation the target did not take part in the
 * iteration, so both ranks first meet in a barrier on the pair (the origin's
 * flush / unlock has completed the puts at the target before it), and the
 * target reads its window inside a shared lock on itself after MPI_Win_sync
 * (MPI-3.1, 11.7: local loads after remote updates). Collective over the pair.
 */
enum p2pb_status p2pb_rma_verify(const struct p2pb_kernel_ctx *c, size_t *bad)
{
    struct rma_state *s = c->priv;
    const struct p2pb_rma_def *d = s->def;
    size_t n = rma_msgs(c, d);
    if (d->get)
        return is_origin(c, d) ? check_regions(c, c->rbuf, n, bad) : P2PB_OK;
    int pas = passive(c);
    if (pas)
        P2PB_KCALL(MPI_Barrier(s->pair));
    if (!is_target(c, d))
        return P2PB_OK;
    if (pas) {
        P2PB_KCALL(MPI_Win_lock(MPI_LOCK_SHARED, c->rank, 0, s->win));
        P2PB_KCALL(MPI_Win_sync(s->win));
    }
    enum p2pb_status st = check_regions(c, s->mem, n, bad);
    if (pas)
        P2PB_KCALL(MPI_Win_unlock(c->rank, s->win));
    return st;
}

/*
 * Before a --check iteration (the harness has patterned sbuf and cleared
 * rbuf): a target whose window is MPI's memory (allocate) gets the same
 * content there, the pattern for gets, the cleared bytes for puts. Under
 * passive synchronisation the stores are made public with MPI_Win_sync in a
 * lock on this rank's own window (no message to the peer).
 */
void p2pb_rma_prepare_check(struct p2pb_kernel_ctx *c)
{
    struct rma_state *s = c->priv;
    const struct p2pb_rma_def *d = s->def;
    if (!is_target(c, d))
        return;
    int pas = passive(c);
    if (pas && MPI_Win_lock(MPI_LOCK_SHARED, c->rank, 0, s->win) != MPI_SUCCESS)
        return; /* the check then fails, naming the offset */
    size_t n = window_bytes(c, d);
    if (c->rma_window == P2PB_RMA_ALLOCATE && n) {
        if (d->get)
            memcpy(s->mem, c->sbuf, n);
        else
            memset(s->mem, RMA_CHECK_FILL, n);
    }
    if (pas) {
        MPI_Win_sync(s->win);
        MPI_Win_unlock(c->rank, s->win);
    }
}

/* The family's options (option.h), IMB-RMA's definitions by default
 * (passive target: lock once, MPI_Win_flush; MPI_Win_create);
 * docs/kernels.md, "One-sided kernels". */
enum { O_RMA_SYNC, O_RMA_WINDOW };
const struct p2pb_optdef p2pb_rma_options[P2PB_RMA_NOPTIONS] = {
    P2PB_OPT(O_RMA_SYNC, "rma-sync", 0, P2PB_OPT_ENUM, "flush|lock|fence|pscw", .def_text = "flush",
             .def = P2PB_RMA_FLUSH, P2PB_KSET_FIELD(rma_sync), .choices = p2pb_rma_sync_names,
             .help = "one-sided kernels: complete puts / gets with MPI_Win_flush in a lock held "
                     "per size (default {def}), lock / unlock per iteration, MPI_Win_fence, or "
                     "post-start-complete-wait"),
    P2PB_OPT(O_RMA_WINDOW, "rma-window", 0, P2PB_OPT_ENUM, "create|allocate|dynamic",
             .def_text = "create", .def = P2PB_RMA_CREATE, P2PB_KSET_FIELD(rma_window),
             .choices = p2pb_rma_window_names,
             .help = "one-sided kernels: the window by MPI_Win_create on the message buffer "
                     "(default {def}), MPI_Win_allocate, or MPI_Win_create_dynamic + "
                     "MPI_Win_attach"),
};
