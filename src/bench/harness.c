/* SPDX-License-Identifier: MIT */
/*
 * harness.c - the one timing loop: one (kernel, size) as the steps of
 * docs/methodology.md, "One (kernel, size)", each a function of its own file
 * (measure.h lists them). See harness.h.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "measure.h"
#include "noise_rows.h"
#include "host/hostinfo.h"

/* Which ranks work, their partners and groups (kernel.h). Returns how many
 * ranks take part. */
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
        if (!pol->ks.self_all && !(k->flags & P2PB_KF_EVERY_RANK))
            nactive = 1;
        if (k->max_ranks > 0 && nactive > k->max_ranks)
            nactive = k->max_ranks;
        c->active = r < nactive;
        break;
    }
    c->group = c->active ? p2pb_group_of(k, r) : -1;
    return nactive;
}

/* ctx->membind: [addr, addr + bytes) to c->numa_node (kernel.h). */
static int ctx_membind(const struct p2pb_kernel_ctx *c, void *addr, size_t bytes)
{
    return p2pb_hostinfo_membind(c->numa_node, addr, bytes);
}

/* The run's context: ranks, roles, groups, bytes per iteration. */
static void start_run(struct p2pb_measure *r, MPI_Comm comm, const struct p2pb_kernel *k,
                      size_t bytes, int direction, const struct p2pb_policy *pol,
                      const struct p2pb_timer_info *ti)
{
    struct p2pb_kernel_ctx *c = &r->c;
    memset(r, 0, sizeof *r);
    r->k = k;
    r->pol = pol;
    r->ti = ti;
    c->comm = comm;
    MPI_Comm_rank(comm, &c->rank);
    MPI_Comm_size(comm, &c->nranks);
    c->bytes = bytes;
    c->dtype = MPI_BYTE; /* until p2pb_buffers_open builds the message type */
    c->numa_node = pol->numa_node;
    c->membind = ctx_membind;
    c->tcp_if = pol->tcp_if;
    c->window = pol->window;
    c->direction = (k->flags & P2PB_KF_DIRECTIONS) ? (direction != 0) : 0;
    c->copy_bytes = pol->ks.copy_bytes;
    c->prepost = pol->ks.msgrate_prepost;
    c->pollute = pol->ks.cache_pollute;
    c->rma_sync = pol->ks.rma_sync;
    c->rma_window = pol->ks.rma_window;
    if (k->flags & P2PB_KF_OVERLAP) { /* direction is the phase (kernel.h) */
        c->phase = direction;
        c->compute_iters = direction == P2PB_OVL_PURE ? 0 : pol->overlap_steps;
    }
    c->partitions = (k->flags & P2PB_KF_PARTITIONED) ? pol->ks.partitions : 0;
    c->large_count = P2PB_HAVE_MPI4 && (k->flags & P2PB_KF_LARGE_COUNT) && bytes > (size_t)INT_MAX;
    r->nactive = assign_roles(k, pol, c);
    r->bf = p2pb_kernel_bytes_factor(k, bytes, c->window, c->copy_bytes);
    if ((k->flags & P2PB_KF_OVERLAP) && direction == P2PB_OVL_CPU)
        r->bf = 0; /* the compute alone moves no bytes: no MB/s, no bound */
    r->mf = p2pb_kernel_msgs(k, c->window);
    if (p2pb_test_seams()->double_bytes) /* test seam (seams.c): a byte-counting error */
        r->bf *= 2;
    r->ngroups = p2pb_ngroups(k, r->nactive);
    r->per_group = (k->flags & P2PB_KF_PER_GROUP) && r->ngroups > 1;
    r->nout = r->per_group ? (size_t)r->ngroups + 1 : 1;
    p2pb_disturb_init(&r->dist, NULL);
}

/* Steps 2-7 of round r->round, each a phase of the watchdog: (first round)
 * warm-up, (first round) k, samples, (last round) --check; returns the
 * --check verdict. */
static enum p2pb_status measure(struct p2pb_measure *r, char *err, size_t errlen)
{
    const struct p2pb_test_seams *seams = p2pb_test_seams();
    enum p2pb_status verdict = P2PB_OK;
    if (seams->size_start) /* test seam (seams.c); NULL in normal runs */
        seams->size_start(r->k, r->c.bytes, r->c.rank);
    p2pb_watchdog_phase(P2PB_PHASE_WARMUP);
    if (r->round == 0)
        p2pb_bounds_measure(r); /* the rate of one path, for the rows' bound */
    p2pb_warmup(r); /* 2. warm-up until settled (round 0: also the time per iteration) */
    if (r->round == 0) {
        p2pb_watchdog_phase(P2PB_PHASE_CALIBRATION);
        p2pb_calibrate(r); /* 3. k, sample counts */
    }
    if (!r->refused) {
        p2pb_round_counts(r);
        p2pb_watchdog_phase(P2PB_PHASE_SAMPLES);
        p2pb_disturb_begin(&r->dist); /* read around the samples, never inside */
        if (r->round == 0 && !r->pol->batch && r->pol->mode != P2PB_POLICY_FIXED_IMB)
            p2pb_sample_floor(r); /* 4-5, the floor checked on the samples */
        else
            p2pb_sample(r); /* 4-5. until the round's stop rule */
        p2pb_disturb_end(&r->dist);
    }
    if (r->round + 1 == r->nrounds && !r->refused) {
        p2pb_watchdog_phase(P2PB_PHASE_CHECK);
        verdict = p2pb_check_payloads(r, err, errlen); /* 7. --check */
    }
    return verdict;
}

enum p2pb_status p2pb_size_begin(MPI_Comm comm, const struct p2pb_kernel *k, size_t bytes,
                                 int direction, const struct p2pb_policy *pol,
                                 const struct p2pb_timer_info *ti, struct p2pb_result *rows,
                                 size_t cap, size_t *nrows, struct p2pb_size_run **out, char *err,
                                 size_t errlen)
{
    struct p2pb_size_run *sr = calloc(1, sizeof *sr);
    int bad = !sr, anybad = 0;
    *out = NULL;
    *nrows = 0;
    P2PB_MPI_CHECK(MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, comm));
    if (anybad) {
        free(sr);
        return p2pb_fail(P2PB_ENOMEM, err, errlen, "out of memory for kernel %s", k->name);
    }
    struct p2pb_measure *r = &sr->r;
    start_run(r, comm, k, bytes, direction, pol, ti);
    /* the noise probe's detour statistics live in its kernel state, which
     * a round's teardown frees: one round (docs/kernels.md) */
    r->nrounds = pol->rounds && !k->noise_stats ? pol->rounds : 1;
    sr->rows = rows;
    if (cap < r->nout) {
        enum p2pb_status st = p2pb_fail(
            P2PB_ERANGE, err, errlen,
            "internal: %zu result rows needed for kernel %s, room for %zu", r->nout, k->name, cap);
        free(sr);
        return st;
    }
    p2pb_rows_label(r, rows);
    *nrows = r->nout; /* labelled rows, also when an error is returned */
    enum p2pb_status st = p2pb_samples_open(r, err, errlen);
    if (st != P2PB_OK) {
        p2pb_size_free(sr);
        return st;
    }
    *out = sr;
    return P2PB_OK;
}

enum p2pb_status p2pb_size_round(struct p2pb_size_run *sr, size_t round, char *err, size_t errlen)
{
    struct p2pb_measure *r = &sr->r;
    if (r->refused || round >= r->nrounds) /* refused, or a one-round kernel */
        return P2PB_OK;
    r->round = round;
    p2pb_watchdog_size(r->k, r->c.bytes, r->pol->timeout);   /* restarted per round */
    enum p2pb_status st = p2pb_buffers_open(r, err, errlen); /* 1. buffers, setup */
    if (st == P2PB_OK)
        st = measure(r, err, errlen); /* 2-7 */
    if (st != P2PB_OK)
        r->verdict = st;
    else if (round + 1 == r->nrounds)
        p2pb_rows_noise(r, sr->rows); /* noise kernel: detours per rank, before teardown */
    p2pb_buffers_close(r);
    return st;
}

size_t p2pb_size_samples(const struct p2pb_size_run *sr)
{
    return sr ? sr->r.s.n : 0;
}

void p2pb_size_free(struct p2pb_size_run *sr)
{
    if (!sr)
        return;
    p2pb_buffers_close(&sr->r);
    p2pb_samples_close(&sr->r);
    free(sr);
}

/* What disturbed the ranks taking part during the samples of every round:
 * the maximum over them, into every row (collective; rank 0's rows). */
static void rows_disturbance(const struct p2pb_measure *r, struct p2pb_result *rows)
{
    struct p2pb_disturbance mine, all;
    p2pb_disturb_result(&r->dist, r->c.rank, &mine);
    if (p2pb_disturb_reduce(r->c.comm, r->c.active, &mine, &all) != P2PB_OK)
        return; /* not measured: the rows say nothing */
    for (size_t i = 0; i < r->nout && r->c.rank == 0; i++)
        rows[i].disturbance = all;
}

enum p2pb_status p2pb_size_finish(struct p2pb_size_run *sr, struct p2pb_result *rows,
                                  enum p2pb_status failed, char *err, size_t errlen)
{
    struct p2pb_measure *r = &sr->r;
    enum p2pb_status st = failed;
    p2pb_watchdog_phase(P2PB_PHASE_STATISTICS);
    if (r->s.n > 0 || r->refused) {
        p2pb_rows_set_fixed_bytes(r, rows);
        p2pb_rows_reduce_means(r); /* 6. IMB's numbers */
        st = p2pb_rows_finish(r, rows, failed == P2PB_OK ? r->verdict : failed, err, errlen);
        rows_disturbance(r, rows);
        if (st == P2PB_OK)
            st = failed;
    }
    p2pb_size_free(sr);
    p2pb_watchdog_step(P2PB_WAIT_ROW); /* rank 0 writes the rows, the others wait */
    return st;
}

enum p2pb_status p2pb_harness_run_rows(MPI_Comm comm, const struct p2pb_kernel *k, size_t bytes,
                                       int direction, const struct p2pb_policy *pol,
                                       const struct p2pb_timer_info *ti, struct p2pb_result *rows,
                                       size_t cap, size_t *nrows, char *err, size_t errlen)
{
    struct p2pb_size_run *sr = NULL;
    enum p2pb_status st =
        p2pb_size_begin(comm, k, bytes, direction, pol, ti, rows, cap, nrows, &sr, err, errlen);
    if (st != P2PB_OK)
        return st;
    for (size_t i = 0; i < sr->r.nrounds && st == P2PB_OK; i++)
        st = p2pb_size_round(sr, i, err, errlen);
    return p2pb_size_finish(sr, rows, st, err, errlen);
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
