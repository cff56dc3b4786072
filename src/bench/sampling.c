/* SPDX-License-Identifier: MIT */
/*
 * sampling.c - steps 2, 4 and 5 of one (kernel, size)
 * (docs/methodology.md): warm-up, then samples (barrier, k timed iterations,
 * the per-rank durations reduced to one value) until the stop rule; rank 0
 * decides after each sample and broadcasts, so all ranks stop together.
 */
#include <stdlib.h>

#include "harness_internal.h"
#include "p2pbench/stats.h"

/* Warm-up iterations when --warmup is not given: 10; 2 with --fixed-imb. */
#define P2PB_DEFAULT_WARMUP 10
#define P2PB_DEFAULT_WARMUP_IMB 2

/* Samples after which the adaptive rule tests the CI at every sample; then
 * at every 8th. */
#define P2PB_CI_EVERY_SAMPLE 64
#define P2PB_CI_STRIDE 8

int p2pb_dvec_push(struct p2pb_dvec *d, double x)
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

enum p2pb_status p2pb_samples_open(struct p2pb_measure *r, char *err, size_t errlen)
{
    struct p2pb_samples *s = &r->s;
    int bad = 0, anybad = 0;
    if (r->per_group && r->c.rank == 0) {
        s->dall = calloc((size_t)r->c.nranks, sizeof *s->dall);
        s->mall = calloc((size_t)r->c.nranks, sizeof *s->mall);
        s->group = calloc((size_t)r->ngroups, sizeof *s->group);
        bad = !s->dall || !s->mall || !s->group;
    }
    P2PB_MPI_CHECK(MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, r->c.comm));
    if (anybad)
        return p2pb_fail(P2PB_ENOMEM, err, errlen,
                         "out of memory for per-group samples of kernel %s", r->k->name);
    return P2PB_OK;
}

void p2pb_samples_close(struct p2pb_measure *r)
{
    struct p2pb_samples *s = &r->s;
    for (int g = 0; s->group && g < r->ngroups; g++)
        free(s->group[g].v);
    free(s->group);
    free(s->dall);
    free(s->mall);
    free(s->all.v);
    s->group = NULL;
    s->dall = s->mall = NULL;
    s->all.v = NULL;
}

void p2pb_warmup(struct p2pb_measure *r)
{
    const struct p2pb_policy *pol = r->pol;
    r->warm = pol->warmup >= 0 ? (size_t)pol->warmup : P2PB_DEFAULT_WARMUP;
    if (pol->mode == P2PB_POLICY_FIXED_IMB && pol->warmup < 0)
        r->warm = P2PB_DEFAULT_WARMUP_IMB;
    p2pb_run_iters(r, r->warm);
}

/*
 * Per-group runs: every rank's duration d (ns) to rank 0; a group's value is
 * its maximum (its initiator's for P2PB_REDUCE_ROOT), stored per group in
 * usec per iteration (scale_us). Returns, on rank 0, the maximum over groups.
 */
static double gather_groups(struct p2pb_measure *r, double d, double scale_us)
{
    const struct p2pb_kernel *k = r->k;
    struct p2pb_samples *s = &r->s;
    double mine = r->c.active ? d : 0.0, v = d;
    P2PB_MPI_CHECK(MPI_Gather(&mine, 1, MPI_DOUBLE, s->dall, 1, MPI_DOUBLE, 0, r->c.comm));
    if (r->c.rank != 0)
        return v;
    v = 0.0;
    for (int g = 0; g < r->ngroups; g++) {
        double gv = s->dall[p2pb_group_root(k, g)];
        if (k->rank_reduce == P2PB_REDUCE_MAX)
            for (int q = 0; q < r->nactive; q++)
                if (p2pb_group_of(k, q) == g && s->dall[q] > gv)
                    gv = s->dall[q];
        if (gv > v)
            v = gv;
        if (p2pb_dvec_push(&s->group[g], gv * scale_us) != 0)
            s->oom = 1;
    }
    return v;
}

/* One sample's value in ns on rank 0 from this rank's duration d (ns). */
static double reduce_sample(struct p2pb_measure *r, double d, double scale_us)
{
    double v = d; /* P2PB_REDUCE_ROOT: rank 0 is the initiator */
    if (r->per_group)
        return gather_groups(r, d, scale_us);
    if (r->k->rank_reduce == P2PB_REDUCE_MAX) {
        double mine = r->c.active ? d : 0.0;
        P2PB_MPI_CHECK(MPI_Reduce(&mine, &v, 1, MPI_DOUBLE, MPI_MAX, 0, r->c.comm));
    }
    return v;
}

/* Adaptive budget in s; --timeout is for hangs: keep it well inside. */
static double time_budget(const struct p2pb_policy *pol)
{
    double budget = pol->time_per_size;
    if (pol->timeout > 0 && budget > pol->timeout / 2)
        budget = pol->timeout / 2;
    return budget;
}

/*
 * The stop rule, on rank 0 after storing a sample: stop at max samples (or
 * out of memory); adaptive, after min samples: stop when the budget is spent
 * or the CI half-width of the median is within --ci-target.
 * Returns 1 to go on, 0 to stop.
 */
static int keep_sampling(struct p2pb_measure *r, uint64_t t_start, double budget)
{
    const struct p2pb_policy *pol = r->pol;
    const struct p2pb_samples *s = &r->s;
    if (s->oom || s->n >= r->nmax)
        return 0;
    if (pol->mode != P2PB_POLICY_ADAPTIVE || s->n < r->nmin)
        return 1;
    double elapsed = (double)(p2pb_now_ns() - t_start) * 1e-9;
    if (elapsed >= budget)
        return 0;
    if (s->n >= P2PB_CI_MIN_N && (s->n < P2PB_CI_EVERY_SAMPLE || s->n % P2PB_CI_STRIDE == 0)) {
        struct p2pb_stats st;
        if (p2pb_stats_compute(s->all.v, s->all.n, NULL, &st) == P2PB_OK) {
            double hw = p2pb_stats_ci_rel_halfwidth(&st);
            if (hw >= 0 && hw <= pol->ci_target)
                return 0;
        }
    }
    return 1;
}

void p2pb_sample(struct p2pb_measure *r)
{
    struct p2pb_samples *s = &r->s;
    const double scale_us = r->k->time_scale / 1000.0 / (double)r->kb; /* ns/sample -> usec/iter */
    const uint64_t t_start = p2pb_now_ns();
    const double budget = time_budget(r->pol);
    int go = 1;
    while (go) {
        P2PB_MPI_CHECK(MPI_Barrier(r->c.comm));
        uint64_t t0 = p2pb_now_ns();
        p2pb_run_iters(r, r->kb);
        double d = (double)(p2pb_now_ns() - t0);
        s->local_sum_ns += d;
        double v = reduce_sample(r, d, scale_us);
        s->n++;
        if (r->c.rank == 0) {
            if (p2pb_dvec_push(&s->all, v * scale_us) != 0)
                s->oom = 1;
            go = keep_sampling(r, t_start, budget);
        }
        P2PB_MPI_CHECK(MPI_Bcast(&go, 1, MPI_INT, 0, r->c.comm));
    }
}
