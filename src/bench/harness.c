/* SPDX-License-Identifier: MIT */
/*
 * The one timing loop. See harness.h and docs/methodology.md.
 */
#include "harness.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "mpi_util.h"
#include "host/hostinfo.h"
#include "p2pbench/stats.h"

/* Shortest sample the harness aims for, in ns, besides the timer rule of
 * p2pb_choose_batch: a sample starts right after a barrier, and ranks leave a
 * barrier up to about a microsecond apart; 100 us keeps that skew near 1%. */
#define P2PB_MIN_SAMPLE_NS 100000.0

void p2pb_mpi_fail(const char *call, const char *file, int line, int code)
{
    if (code != MPI_SUCCESS)
        p2pb_mpi_error(call, file, line, code);
    MPI_Abort(MPI_COMM_WORLD, 1);
    _exit(1);
}

enum p2pb_status p2pb_make_msg_type(size_t bytes, MPI_Datatype *dtype, int *count, char *err,
                                    size_t errlen)
{
    if (bytes <= (size_t)INT_MAX) {
        *dtype = MPI_BYTE;
        *count = (int)bytes;
        return P2PB_OK;
    }
    if (bytes % 1024 != 0 || bytes / 1024 > (size_t)INT_MAX) {
        return p2pb_fail(P2PB_ERANGE, err, errlen,
                         "message size %zu is above 2^31-1 bytes and not a multiple of 1 KiB",
                         bytes);
    }
    MPI_Datatype t;
    if (MPI_Type_contiguous(1024, MPI_BYTE, &t) != MPI_SUCCESS ||
        MPI_Type_commit(&t) != MPI_SUCCESS) {
        return p2pb_fail(P2PB_EMPI, err, errlen,
                         "cannot build an MPI datatype for message size %zu", bytes);
    }
    *dtype = t;
    *count = (int)(bytes / 1024);
    return P2PB_OK;
}

void p2pb_free_msg_type(MPI_Datatype *dtype)
{
    if (*dtype != MPI_BYTE && *dtype != MPI_DATATYPE_NULL)
        MPI_Type_free(dtype);
    *dtype = MPI_BYTE;
}

/* ---- --timeout: an interval timer whose handler reports and exits ---- */

static char timeout_msg[512];
static size_t timeout_msg_len;
static char abort_line[256];
static size_t abort_line_len;
static int abort_fd = -1;

void p2pb_harness_set_abort_fd(int fd)
{
    abort_fd = fd;
}

static void on_timeout(int sig)
{
    (void)sig;
    ssize_t w = write(STDERR_FILENO, timeout_msg, timeout_msg_len);
    if (abort_fd >= 0 && abort_line_len)
        w = write(abort_fd, abort_line, abort_line_len);
    (void)w;
    _exit(1);
}

static void arm_timeout(const struct p2pb_kernel *k, size_t bytes, int rank, double seconds)
{
    if (seconds <= 0)
        return;
    timeout_msg_len = (size_t)snprintf(
        timeout_msg, sizeof timeout_msg,
        "p2pbench: rank %d: timeout: kernel %s, size %zu bytes did not finish within %g s "
        "on this rank; aborting (every rank still in this size prints this line)\n",
        rank, k->name, bytes, seconds);
    if (timeout_msg_len >= sizeof timeout_msg)
        timeout_msg_len = sizeof timeout_msg - 1;
    abort_line_len = (size_t)snprintf(
        abort_line, sizeof abort_line,
        "{\"type\":\"end\",\"status\":\"aborted\",\"reason\":\"timeout\",\"kernel\":\"%s\","
        "\"bytes\":%zu,\"reported_by_rank\":%d}\n",
        k->name, bytes, rank);
    if (abort_line_len >= sizeof abort_line)
        abort_line_len = 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_timeout;
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval it = {{0, 0},
                           {(time_t)seconds, (suseconds_t)((seconds - floor(seconds)) * 1e6)}};
    setitimer(ITIMER_REAL, &it, NULL);
}

static void disarm_timeout(double seconds)
{
    if (seconds <= 0)
        return;
    struct itimerval it = {{0, 0}, {0, 0}};
    setitimer(ITIMER_REAL, &it, NULL);
}

/* ---- test-only fault injection: P2PB_TEST_FAULT ----
 *   corrupt:R      rank R flips one received byte before --check verifies
 *   stall:R:BYTES  rank R sleeps (bounded, 1 h) before timing size BYTES
 */
struct fault {
    int kind; /* 0 none, 1 corrupt, 2 stall */
    int rank;
    size_t bytes;
};

static struct fault read_fault(void)
{
    struct fault f = {0, -1, 0};
    const char *s = getenv("P2PB_TEST_FAULT");
    if (!s)
        return f;
    if (sscanf(s, "corrupt:%d", &f.rank) == 1)
        f.kind = 1;
    else if (sscanf(s, "stall:%d:%zu", &f.rank, &f.bytes) == 2)
        f.kind = 2;
    return f;
}

/* ---- roles ---- */

static int assign_roles(const struct p2pb_kernel *k, const struct p2pb_policy *pol,
                        struct p2pb_kernel_ctx *c)
{
    int n = c->nranks, r = c->rank, nactive = n;
    c->peer = c->left = c->right = -1;
    switch (k->participation) {
    case P2PB_PART_PAIR:
        nactive = 2;
        c->active = r < 2;
        c->peer = c->active ? 1 - r : -1;
        break;
    case P2PB_PART_PAIRS:
        nactive = n - n % 2;
        if (k->max_ranks > 0 && nactive > k->max_ranks)
            nactive = k->max_ranks - k->max_ranks % 2;
        c->active = r < nactive;
        c->peer = c->active ? (r ^ 1) : -1;
        break;
    case P2PB_PART_ALL:
        if (k->max_ranks > 0 && nactive > k->max_ranks)
            nactive = k->max_ranks;
        c->active = r < nactive;
        if (c->active) {
            c->left = (r - 1 + nactive) % nactive;
            c->right = (r + 1) % nactive;
        }
        break;
    case P2PB_PART_SELF:
        if (!pol->self_all)
            nactive = 1;
        if (k->max_ranks > 0 && nactive > k->max_ranks)
            nactive = k->max_ranks;
        c->active = r < nactive;
        break;
    }
    c->group = -1;
    if (c->active)
        c->group = k->participation == P2PB_PART_PAIRS  ? r / 2
                   : k->participation == P2PB_PART_SELF ? r
                                                        : 0;
    return nactive;
}

/* Groups of ranks for P2PB_KF_PER_GROUP (kernel.h): count, a rank's group,
 * and the group's lowest rank (its initiator for P2PB_REDUCE_ROOT). */
static int n_groups(const struct p2pb_kernel *k, int nactive)
{
    if (k->participation == P2PB_PART_PAIRS)
        return nactive / 2;
    if (k->participation == P2PB_PART_SELF)
        return nactive;
    return 1;
}

static int group_of(const struct p2pb_kernel *k, int rank)
{
    return k->participation == P2PB_PART_PAIRS  ? rank / 2
           : k->participation == P2PB_PART_SELF ? rank
                                                : 0;
}

static int group_root(const struct p2pb_kernel *k, int g)
{
    return k->participation == P2PB_PART_PAIRS ? 2 * g : k->participation == P2PB_PART_SELF ? g : 0;
}

size_t p2pb_harness_max_rows(const struct p2pb_kernel *k, int nranks)
{
    if (!(k->flags & P2PB_KF_PER_GROUP))
        return 1;
    return (size_t)(nranks > 1 ? nranks : 1) + 1;
}

/*
 * Row label (struct p2pb_result.variant) of group g (g == ngroups: the
 * aggregate row) for kernels with P2PB_KF_DIRECTIONS or P2PB_KF_PER_GROUP;
 * "" for the others.
 */
static void row_label(char *buf, size_t len, const struct p2pb_kernel *k, int g, int ngroups,
                      int direction)
{
    int dirs = (k->flags & P2PB_KF_DIRECTIONS) != 0;
    buf[0] = '\0';
    if (!(k->flags & (P2PB_KF_DIRECTIONS | P2PB_KF_PER_GROUP)))
        return;
    if (g >= ngroups) {
        snprintf(buf, len, "%s",
                 !dirs       ? "aggregate"
                 : direction ? "aggregate hi->lo"
                             : "aggregate lo->hi");
        return;
    }
    int a = group_root(k, g);
    if (k->participation == P2PB_PART_SELF)
        snprintf(buf, len, "rank %d", a);
    else if (dirs)
        snprintf(buf, len, "%d->%d", direction ? a + 1 : a, direction ? a : a + 1);
    else if (k->participation == P2PB_PART_PAIR || k->participation == P2PB_PART_PAIRS)
        snprintf(buf, len, "pair %d-%d", a, a + 1);
    else
        snprintf(buf, len, "all");
}

/* Growable array of doubles. */
struct dvec {
    double *v;
    size_t n, cap;
};

static int dvec_push(struct dvec *d, double x)
{
    if (d->n == d->cap) {
        size_t nc = d->cap ? 2 * d->cap : 256;
        double *nv = realloc(d->v, nc * sizeof *nv);
        if (!nv)
            return -1;
        d->v = nv;
        d->cap = nc;
    }
    d->v[d->n++] = x;
    return 0;
}

static void *alloc_pages(size_t bytes)
{
    void *p = NULL;
    if (bytes == 0)
        bytes = 1;
    if (posix_memalign(&p, 4096, bytes) != 0)
        return NULL;
    (void)p2pb_hostinfo_membind(p, bytes); /* --numa-node; failure shows in the run record */
    memset(p, 0, bytes);                   /* first touch: pages land on this rank's NUMA node */
    return p;
}

static inline void select_set(struct p2pb_kernel_ctx *c, unsigned char *sbase, unsigned char *rbase,
                              size_t nsets, size_t sstride, size_t rstride)
{
    size_t set = nsets > 1 ? (size_t)(c->iter % nsets) : 0;
    c->sbuf = sbase + set * sstride;
    c->rbuf = rbase + set * rstride;
}

/* Barrier, then m iterations on the active ranks; the longest duration over
 * all ranks in ns (every rank gets it). Used to choose k. */
static double timed_batch(const struct p2pb_kernel *k, struct p2pb_kernel_ctx *c, size_t m,
                          unsigned char *sbase, unsigned char *rbase, size_t nsets, size_t sstride,
                          size_t rstride)
{
    P2PB_MPI_CHECK(MPI_Barrier(c->comm));
    uint64_t t0 = p2pb_now_ns();
    if (c->active)
        for (size_t i = 0; i < m; i++) {
            select_set(c, sbase, rbase, nsets, sstride, rstride);
            if (k->run_iter(c) != P2PB_OK)
                p2pb_mpi_fail(k->name, __FILE__, __LINE__, MPI_SUCCESS);
            c->iter++;
        }
    double local = (double)(p2pb_now_ns() - t0), dur = 0;
    P2PB_MPI_CHECK(MPI_Allreduce(&local, &dur, 1, MPI_DOUBLE, MPI_MAX, c->comm));
    return dur;
}

enum p2pb_status p2pb_harness_run(MPI_Comm comm, const struct p2pb_kernel *k, size_t bytes,
                                  const struct p2pb_policy *pol, const struct p2pb_timer_info *ti,
                                  struct p2pb_result *out, char *err, size_t errlen)
{
    int nranks = 1;
    MPI_Comm_size(comm, &nranks);
    size_t cap = p2pb_harness_max_rows(k, nranks), nrows = 0;
    struct p2pb_result *rows = calloc(cap, sizeof *rows);
    int bad = !rows, anybad = 0;
    P2PB_MPI_CHECK(MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, comm));
    if (anybad) {
        free(rows);
        memset(out, 0, sizeof *out);
        return p2pb_fail(P2PB_ENOMEM, err, errlen, "out of memory for the rows of kernel %s",
                         k->name);
    }
    enum p2pb_status st =
        p2pb_harness_run_rows(comm, k, bytes, 0, pol, ti, rows, cap, &nrows, err, errlen);
    *out = rows[nrows ? nrows - 1 : 0];
    free(rows);
    return st;
}

/* Fill the fields every row of one (kernel, size, direction) shares. */
static void fill_row(struct p2pb_result *out, const struct p2pb_kernel *k, size_t bytes, int nranks,
                     int nactive, double bf, const char *variant)
{
    memset(out, 0, sizeof *out);
    snprintf(out->kernel, sizeof out->kernel, "%s", k->name);
    snprintf(out->display_name, sizeof out->display_name, "%s", k->display_name);
    snprintf(out->variant, sizeof out->variant, "%s", variant);
    out->bytes = bytes;
    out->nranks = nranks;
    out->active_ranks = nactive;
    out->imb_layout = (int)k->imb_layout;
    out->bytes_factor = bf;
    out->time_scale = k->time_scale;
    out->asymmetry = NAN;
}

enum p2pb_status p2pb_harness_run_rows(MPI_Comm comm, const struct p2pb_kernel *k, size_t bytes,
                                       int direction, const struct p2pb_policy *pol,
                                       const struct p2pb_timer_info *ti, struct p2pb_result *rows,
                                       size_t cap, size_t *nrows, char *err, size_t errlen)
{
    struct p2pb_kernel_ctx c;
    memset(&c, 0, sizeof c);
    *nrows = 0;
    c.comm = comm;
    MPI_Comm_rank(comm, &c.rank);
    MPI_Comm_size(comm, &c.nranks);
    c.bytes = bytes;
    c.membind = p2pb_hostinfo_membind;
    c.window = pol->window ? pol->window : P2PB_DEFAULT_WINDOW;
    c.direction = (k->flags & P2PB_KF_DIRECTIONS) ? (direction != 0) : 0;
    c.copy_bytes = pol->copy_bytes ? pol->copy_bytes : P2PB_DEFAULT_COPY_BYTES;
    int nactive = assign_roles(k, pol, &c);
    const double bf = p2pb_kernel_bytes_factor(k, bytes, c.window, c.copy_bytes);
    const struct fault fault = read_fault();
    const int ngroups = n_groups(k, nactive);
    const int per_group = (k->flags & P2PB_KF_PER_GROUP) && ngroups > 1;
    const size_t nout = per_group ? (size_t)ngroups + 1 : 1;
    if (cap < nout) {
        return p2pb_fail(P2PB_ERANGE, err, errlen,
                         "internal: %zu result rows needed for kernel %s, room for %zu", nout,
                         k->name, cap);
    }
    struct p2pb_result *out = &rows[nout - 1]; /* the overall (or only) row */
    for (size_t i = 0; i < nout; i++) {
        char label[32];
        /* the only row of a one-group kernel is labelled as that group */
        row_label(label, sizeof label, k, per_group ? (int)i : 0, per_group ? ngroups : 1,
                  c.direction);
        /* the factor of this run (window, copy buffer), also for a row that fails */
        fill_row(&rows[i], k, bytes, c.nranks, nactive, bf, label);
    }
    *nrows = nout; /* labelled rows, also when an error is returned */

    enum p2pb_status st = p2pb_make_msg_type(bytes, &c.dtype, &c.count, err, errlen);
    if (st != P2PB_OK)
        return st; /* same verdict on every rank: depends only on bytes */

    /* Buffers: nsets sets of regions, cycling for --off-cache. */
    size_t unit = bytes ? bytes : 1;
    const size_t sregions = p2pb_kernel_regions(k->sbuf_regions, c.window);
    const size_t rregions = p2pb_kernel_regions(k->rbuf_regions, c.window);
    if (sregions > SIZE_MAX / unit || rregions > SIZE_MAX / unit) {
        p2pb_free_msg_type(&c.dtype);
        return p2pb_fail(P2PB_ERANGE, err, errlen,
                         "buffers for kernel %s, size %zu bytes overflow size_t", k->name, bytes);
    }
    size_t sstride = unit * sregions;
    size_t rstride = unit * rregions;
    size_t nsets = 1;
    if (pol->off_cache && pol->llc_bytes > 0) {
        size_t per = sstride + rstride;
        nsets = (2 * pol->llc_bytes + per - 1) / per;
        if (nsets < 1)
            nsets = 1;
        if (nsets > ((size_t)1 << 20)) /* 1 Mi sets: 64 MiB of 32-byte messages */
            nsets = (size_t)1 << 20;
    }
    unsigned char *sbase = NULL, *rbase = NULL;
    int bad = 0;
    if (c.active) {
        if (sstride > SIZE_MAX / nsets || rstride > SIZE_MAX / nsets)
            bad = 1;
        else {
            sbase = alloc_pages(sstride * nsets);
            rbase = alloc_pages(rstride * nsets);
            bad = !sbase || !rbase;
        }
    }
    int anybad = 0;
    P2PB_MPI_CHECK(MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, comm));
    if (anybad) {
        free(sbase);
        free(rbase);
        p2pb_free_msg_type(&c.dtype);
        return p2pb_fail(
            P2PB_ENOMEM, err, errlen,
            "cannot allocate buffers for kernel %s, size %zu bytes (%zu bytes per rank)", k->name,
            bytes, (sstride + rstride) * nsets);
    }
    c.sbuf = sbase;
    c.rbuf = rbase;
    int code = 0; /* the setup's status, agreed as the maximum over ranks */
    if (c.active && k->setup && (st = k->setup(&c)) != P2PB_OK)
        code = (int)st;
    int anycode = 0;
    P2PB_MPI_CHECK(MPI_Allreduce(&code, &anycode, 1, MPI_INT, MPI_MAX, comm));
    if (anycode) {
        if (c.active && k->teardown)
            k->teardown(&c);
        free(sbase);
        free(rbase);
        p2pb_free_msg_type(&c.dtype);
        (void)p2pb_fail(P2PB_OK, err, errlen, "setup of kernel %s failed at size %zu bytes: %s",
                        k->name, bytes, p2pb_status_str((enum p2pb_status)anycode));
        return (enum p2pb_status)anycode;
    }
    for (size_t i = 0; i < nout; i++)
        if (p2pb_kernel_fixed_bytes(k))
            rows[i].fixed_bytes = bf * (double)bytes;

    /* Per-group bookkeeping on rank 0: every rank's duration per sample,
     * one sample list per group. */
    double *dall = NULL, *mall = NULL;
    struct dvec *gsamples = NULL;
    if (per_group && c.rank == 0) {
        dall = calloc((size_t)c.nranks, sizeof *dall);
        mall = calloc((size_t)c.nranks, sizeof *mall);
        gsamples = calloc((size_t)ngroups, sizeof *gsamples);
        bad = !dall || !mall || !gsamples;
    }
    P2PB_MPI_CHECK(MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, comm));
    if (anybad) {
        free(dall);
        free(mall);
        free(gsamples);
        if (c.active && k->teardown)
            k->teardown(&c);
        free(sbase);
        free(rbase);
        p2pb_free_msg_type(&c.dtype);
        return p2pb_fail(P2PB_ENOMEM, err, errlen,
                         "out of memory for per-group samples of kernel %s", k->name);
    }

    arm_timeout(k, bytes, c.rank, pol->timeout);
    if (fault.kind == 2 && fault.rank == c.rank && fault.bytes == bytes)
        for (int i = 0; i < 3600; i++)
            sleep(1);

#define RUN_ONE()                                                               \
    do {                                                                        \
        select_set(&c, sbase, rbase, nsets, sstride, rstride);                  \
        if (k->run_iter(&c) != P2PB_OK) /* the kernel reported the MPI error */ \
            p2pb_mpi_fail(k->name, __FILE__, __LINE__, MPI_SUCCESS);            \
        c.iter++;                                                               \
    } while (0)

    /* Warm-up. */
    size_t warm = pol->warmup >= 0 ? (size_t)pol->warmup : 10;
    if (pol->mode == P2PB_POLICY_FIXED_IMB && pol->warmup < 0)
        warm = 2;
    if (c.active)
        for (size_t i = 0; i < warm; i++)
            RUN_ONE();

    /* Iterations per sample. */
    size_t kb = pol->batch;
    if (!kb) {
        double target = 20.0 * ti->overhead_ns;
        if (10.0 * ti->resolution_ns > target)
            target = 10.0 * ti->resolution_ns;
        if (P2PB_MIN_SAMPLE_NS > target)
            target = P2PB_MIN_SAMPLE_NS;
        size_t m = 1;
        double dur = 0;
        for (;;) {
            dur = timed_batch(k, &c, m, sbase, rbase, nsets, sstride, rstride);
            warm += m;
            if (dur >= target || m >= ((size_t)1 << 20))
                break;
            m *= 4;
        }
        /* A batch hit by a preemption looks slow and would give a k far too
         * small: take the fastest of three batches of m iterations. */
        for (int again = 0; again < 2; again++) {
            double d2 = timed_batch(k, &c, m, sbase, rbase, nsets, sstride, rstride);
            warm += m;
            if (d2 < dur)
                dur = d2;
        }
        double t_iter = dur / (double)m;
        kb = t_iter > 0 ? (size_t)ceil(target / t_iter) : 1;
        size_t kt = p2pb_choose_batch(t_iter, ti);
        if (kt > kb)
            kb = kt;
        if (kb < 1)
            kb = 1;
    }

    size_t nmin = pol->min_samples, nmax = pol->max_samples;
    if (pol->mode == P2PB_POLICY_FIXED) {
        nmin = nmax = pol->samples;
    } else if (pol->mode == P2PB_POLICY_FIXED_IMB) {
        /* IMB's rule is about the bytes an iteration moves: for kernels with
         * fixed bytes per iteration (memcpy copies its whole buffer) that is
         * the buffer, not the chunk size */
        size_t reps = p2pb_imb_repetitions(p2pb_kernel_fixed_bytes(k) ? c.copy_bytes : bytes);
        if (kb > reps)
            kb = reps;
        while (reps % kb)
            kb--;
        nmin = nmax = reps / kb;
    }
    if (nmin < 1)
        nmin = 1;

    /* Sampling. Rank 0 decides when to stop and broadcasts it. */
    struct dvec samples = {0};
    double local_sum_ns = 0;
    size_t n = 0;
    int go = 1;
    const double scale_us = k->time_scale / 1000.0 / (double)kb; /* ns per sample -> usec/iter */
    uint64_t t_start = p2pb_now_ns();
    int oom = 0;
    /* --timeout is for hangs: keep the adaptive budget well inside it */
    double budget = pol->time_per_size;
    if (pol->timeout > 0 && budget > pol->timeout / 2)
        budget = pol->timeout / 2;
    while (go) {
        P2PB_MPI_CHECK(MPI_Barrier(comm));
        uint64_t t0 = p2pb_now_ns();
        if (c.active)
            for (size_t i = 0; i < kb; i++)
                RUN_ONE();
        double d = (double)(p2pb_now_ns() - t0);
        local_sum_ns += d;
        double v = d;
        if (per_group) {
            /* every rank's duration to rank 0; a group's value is its max
             * (or its initiator's for REDUCE_ROOT); overall = max over groups */
            double mine = c.active ? d : 0.0;
            P2PB_MPI_CHECK(MPI_Gather(&mine, 1, MPI_DOUBLE, dall, 1, MPI_DOUBLE, 0, comm));
            if (c.rank == 0) {
                v = 0.0;
                for (int g = 0; g < ngroups; g++) {
                    double gv = dall[group_root(k, g)];
                    if (k->rank_reduce == P2PB_REDUCE_MAX)
                        for (int r = 0; r < nactive; r++)
                            if (group_of(k, r) == g && dall[r] > gv)
                                gv = dall[r];
                    if (gv > v)
                        v = gv;
                    if (dvec_push(&gsamples[g], gv * scale_us) != 0)
                        oom = 1;
                }
            }
        } else if (k->rank_reduce == P2PB_REDUCE_MAX) {
            double mine = c.active ? d : 0.0;
            P2PB_MPI_CHECK(MPI_Reduce(&mine, &v, 1, MPI_DOUBLE, MPI_MAX, 0, comm));
        }
        n++;
        if (c.rank == 0) {
            if (dvec_push(&samples, v * scale_us) != 0)
                oom = 1;
            if (oom || n >= nmax)
                go = 0;
            else if (pol->mode == P2PB_POLICY_ADAPTIVE && n >= nmin) {
                double elapsed = (double)(p2pb_now_ns() - t_start) * 1e-9;
                if (elapsed >= budget)
                    go = 0;
                else if (n >= P2PB_CI_MIN_N && (n < 64 || n % 8 == 0)) {
                    struct p2pb_stats s;
                    if (p2pb_stats_compute(samples.v, samples.n, NULL, &s) == P2PB_OK) {
                        double hw = p2pb_stats_ci_rel_halfwidth(&s);
                        if (hw >= 0 && hw <= pol->ci_target)
                            go = 0;
                    }
                }
            }
        }
        P2PB_MPI_CHECK(MPI_Bcast(&go, 1, MPI_INT, 0, comm));
    }

    /* IMB's t_min / t_max / t_avg: each active rank's mean time per iteration. */
    double mean_us = local_sum_ns / (double)(n * kb) * k->time_scale / 1000.0;
    double tmin = c.active ? mean_us : INFINITY, tmax = c.active ? mean_us : -INFINITY;
    double tsum = c.active ? mean_us : 0.0;
    double rmin = 0, rmax = 0, rsum = 0;
    if (per_group) {
        double mine = c.active ? mean_us : NAN;
        P2PB_MPI_CHECK(MPI_Gather(&mine, 1, MPI_DOUBLE, mall, 1, MPI_DOUBLE, 0, comm));
    }
    if (k->rank_reduce == P2PB_REDUCE_ROOT && per_group) {
        /* overall: over the groups' initiators */
        if (c.rank == 0) {
            rmin = INFINITY;
            rmax = -INFINITY;
            rsum = 0;
            for (int g = 0; g < ngroups; g++) {
                double m = mall[group_root(k, g)];
                rmin = m < rmin ? m : rmin;
                rmax = m > rmax ? m : rmax;
                rsum += m / ngroups;
            }
        }
    } else if (k->rank_reduce == P2PB_REDUCE_ROOT) {
        rmin = rmax = rsum = mean_us;
    } else {
        P2PB_MPI_CHECK(MPI_Reduce(&tmin, &rmin, 1, MPI_DOUBLE, MPI_MIN, 0, comm));
        P2PB_MPI_CHECK(MPI_Reduce(&tmax, &rmax, 1, MPI_DOUBLE, MPI_MAX, 0, comm));
        P2PB_MPI_CHECK(MPI_Reduce(&tsum, &rsum, 1, MPI_DOUBLE, MPI_SUM, 0, comm));
        rsum /= nactive;
    }

    /* --check: patterned iterations off the timed path. */
    enum p2pb_status verdict = P2PB_OK;
    if (pol->check && k->verify) {
        for (int round = 0; round < 3 && verdict == P2PB_OK; round++) {
            c.sbuf = sbase;
            c.rbuf = rbase;
            size_t bad_off = 0;
            int lbad = 0;
            if (c.active) {
                for (size_t r = 0; r < sregions; r++)
                    p2pb_pattern_fill(sbase + r * bytes, bytes, c.rank, c.iter);
                memset(rbase, 0x5a, rstride);
                if (k->prepare_check)
                    k->prepare_check(&c);
            }
            P2PB_MPI_CHECK(MPI_Barrier(comm));
            if (c.active) {
                if (k->run_iter(&c) != P2PB_OK)
                    p2pb_mpi_fail(k->name, __FILE__, __LINE__, MPI_SUCCESS);
                if (fault.kind == 1 && fault.rank == c.rank && bytes > 0)
                    rbase[bytes / 2] ^= 0xff;
                if (k->verify(&c, &bad_off) != P2PB_OK) {
                    lbad = 1;
                    fprintf(stderr,
                            "p2pbench: rank %d: payload check failed: kernel %s, size %zu bytes, "
                            "byte offset %zu\n",
                            c.rank, k->name, bytes, bad_off);
                    fflush(stderr);
                }
            }
            c.iter++;
            int anyv = 0;
            P2PB_MPI_CHECK(MPI_Allreduce(&lbad, &anyv, 1, MPI_INT, MPI_MAX, comm));
            if (anyv) {
                verdict = P2PB_EVERIFY;
                (void)p2pb_fail(P2PB_OK, err, errlen,
                                "payload check failed: kernel %s, size %zu bytes (see the "
                                "rank messages above for the byte offset)",
                                k->name, bytes);
            }
        }
    }

    disarm_timeout(pol->timeout);
    if (c.active && k->teardown)
        k->teardown(&c);
    free(sbase);
    free(rbase);
    p2pb_free_msg_type(&c.dtype);

    /* only rank 0 stores samples: it tells the others whether that failed */
    P2PB_MPI_CHECK(MPI_Bcast(&oom, 1, MPI_INT, 0, comm));
    if (oom) {
        for (int g = 0; gsamples && g < ngroups; g++)
            free(gsamples[g].v);
        free(gsamples);
        free(dall);
        free(mall);
        free(samples.v);
        return p2pb_fail(P2PB_ENOMEM, err, errlen,
                         "out of memory storing samples for kernel %s, size %zu", k->name, bytes);
    }

    out->samples = n;
    out->iterations_per_sample = kb;
    out->warmup = warm;
    if (c.rank == 0) {
        p2pb_stats_compute(samples.v, samples.n, NULL, &out->t);
        out->t_min_usec = rmin;
        out->t_max_usec = rmax;
        out->t_avg_usec = rsum;
        out->mbytes_per_sec = p2pb_mbytes_per_sec(bf, bytes, out->t.median);
        out->mbytes_per_sec_imb = p2pb_mbytes_per_sec(bf, bytes, rmax);
        if (pol->mode == P2PB_POLICY_ADAPTIVE) {
            double hw = p2pb_stats_ci_rel_halfwidth(&out->t);
            out->ci_target_met = hw >= 0 && hw <= pol->ci_target ? 1 : 0;
        } else
            out->ci_target_met = -1;
    }
    if (per_group) {
        /* group rows; the aggregate row's MB/s is the sum of the groups' */
        if (c.rank == 0) {
            out->mbytes_per_sec = out->mbytes_per_sec_imb = 0.0;
            out->bytes_factor = bf * ngroups;
            out->fixed_bytes *= ngroups;
        }
        for (int g = 0; g < ngroups; g++) {
            struct p2pb_result *gr = &rows[g];
            gr->samples = n;
            gr->iterations_per_sample = kb;
            gr->warmup = warm;
            if (c.rank != 0)
                continue;
            p2pb_stats_compute(gsamples[g].v, gsamples[g].n, NULL, &gr->t);
            double gmin = INFINITY, gmax = -INFINITY, gsum = 0;
            int gn = 0;
            for (int r = 0; r < nactive; r++) {
                if (group_of(k, r) != g ||
                    (k->rank_reduce == P2PB_REDUCE_ROOT && r != group_root(k, g)))
                    continue;
                gmin = mall[r] < gmin ? mall[r] : gmin;
                gmax = mall[r] > gmax ? mall[r] : gmax;
                gsum += mall[r];
                gn++;
            }
            gr->t_min_usec = gmin;
            gr->t_max_usec = gmax;
            gr->t_avg_usec = gn ? gsum / gn : NAN;
            gr->ci_target_met = out->ci_target_met;
            if (pol->mode == P2PB_POLICY_ADAPTIVE) {
                double hw = p2pb_stats_ci_rel_halfwidth(&gr->t);
                gr->ci_target_met = hw >= 0 && hw <= pol->ci_target ? 1 : 0;
            }
            gr->mbytes_per_sec = p2pb_mbytes_per_sec(bf, bytes, gr->t.median);
            gr->mbytes_per_sec_imb = p2pb_mbytes_per_sec(bf, bytes, gmax);
            out->mbytes_per_sec += gr->mbytes_per_sec;
            out->mbytes_per_sec_imb += gr->mbytes_per_sec_imb;
        }
        for (int g = 0; gsamples && g < ngroups; g++)
            free(gsamples[g].v);
    }
    free(gsamples);
    free(dall);
    free(mall);
    free(samples.v);
    for (size_t i = 0; i < nout; i++) {
        rows[i].status = verdict == P2PB_OK ? P2PB_ROW_OK : P2PB_ROW_FAILED;
        if (verdict != P2PB_OK)
            snprintf(rows[i].note, sizeof rows[i].note, "payload check failed");
    }
    return verdict;
#undef RUN_ONE
}
