/* SPDX-License-Identifier: MIT */
/*
 * sampling.c - steps 2, 4 and 5 of one round of one (kernel, size)
 * (docs/methodology.md): warm-up, then samples (barrier, k timed iterations,
 * the per-rank durations reduced to one value, a block at a time) until the
 * round's stop rule; rank 0 decides after each block and broadcasts, so all
 * ranks stop together; the round's median per row.
 */
#include <stdlib.h>

#include "measure.h"
#include "p2pbench/stats.h"

/* Fewest warm-up iterations of a size's first round when --warmup is not
 * given (IMB's minimum warm-up). */
#define P2PB_DEFAULT_WARMUP 10

/* Shortest warm-up batch, ns: the warm-up's batches hold the fewest
 * iterations (1, 2, 4, ...) that last this long in round 0. */
#define P2PB_WARMUP_BATCH_NS 30000.0

/* Largest warm-up batch: 2^20 iterations. */
#define P2PB_MAX_RAMP_BATCH ((size_t)1 << 20)

/* Samples of a round after which the adaptive rule tests the CI at every
 * block; then at every 8th sample. */
#define P2PB_CI_EVERY_SAMPLE 64
#define P2PB_CI_STRIDE 8

/* Samples reduced in one collective and decided on at once. */
#define P2PB_SAMPLE_BLOCK 4

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
    if (r->c.rank == 0) {
        s->round_med = calloc(r->nout, sizeof *s->round_med);
        bad = !s->round_med;
    }
    if (r->per_group && r->c.rank == 0) {
        s->dall = calloc((size_t)r->c.nranks, sizeof *s->dall);
        s->mall = calloc((size_t)r->c.nranks, sizeof *s->mall);
        s->group = calloc((size_t)r->ngroups, sizeof *s->group);
        bad |= !s->dall || !s->mall || !s->group;
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
    free(s->round_med);
    s->round_med = NULL;
    s->group = NULL;
    s->dall = s->mall = NULL;
    s->all.v = NULL;
}

int p2pb_settle_add(struct p2pb_settle *st, double t)
{
    if (st->n++ == 0) {
        st->best = t;
        st->calm = 0;
        return 0;
    }
    if (t >= (1.0 - P2PB_SETTLE_TOL) * st->best)
        st->calm++; /* not faster than the fastest before it: calm */
    else
        st->calm = 0; /* still falling (or not a number) */
    if (t < st->best)
        st->best = t;
    return st->calm >= P2PB_SETTLE_BATCHES;
}

/* Fewest warm-up iterations of round 0: --warmup; by default 10, with
 * --fixed-imb IMB's a tenth of the size's repetitions, at least
 * min(10, repetitions); with --off-cache at least one per position. Later
 * rounds: none (the settle rule alone). */
static size_t warmup_min(const struct p2pb_measure *r)
{
    const struct p2pb_policy *pol = r->pol;
    if (r->round > 0)
        return 0;
    size_t w = P2PB_DEFAULT_WARMUP;
    if (pol->warmup >= 0) {
        w = (size_t)pol->warmup;
    } else if (pol->mode == P2PB_POLICY_FIXED_IMB) {
        size_t reps = p2pb_imb_repetitions(r->c.bytes), floor;
        floor = reps < P2PB_DEFAULT_WARMUP ? reps : P2PB_DEFAULT_WARMUP;
        w = reps / 10 > floor ? reps / 10 : floor;
    }
    /* --off-cache: every position used once before it is timed, as IMB's
     * timed positions were used by its warm-up (a position's first
     * transfer cost up to 12x a later cold one: 6 ms against 490 usec for
     * 4 MiB PingPong on the AMD guest) */
    return r->buf.nsets > w ? r->buf.nsets : w;
}

/* Round 0: batches of 1, 2, 4, ... iterations until one lasts
 * P2PB_WARMUP_BATCH_NS (their iterations are warm-up; the last one's time in
 * *last); later rounds: round 0's batch, *last untouched. */
static size_t warmup_batch(struct p2pb_measure *r, double *last)
{
    if (r->round > 0 && r->wk > 0)
        return r->wk;
    size_t m = 1;
    for (;;) {
        double d = p2pb_timed_batch(r, m, 1);
        r->warm += m;
        r->warm_ns += d;
        if (d >= P2PB_WARMUP_BATCH_NS || m >= P2PB_MAX_RAMP_BATCH) {
            *last = d;
            break;
        }
        m *= 2;
    }
    r->wk = m;
    return m;
}

void p2pb_warmup(struct p2pb_measure *r)
{
    if (r->pol->warmup == 0) /* --warmup 0: none at all, asked for */
        return;
    const size_t wmin = warmup_min(r);
    struct p2pb_settle st = {0};
    double d = -1, spent_ns = 0;
    const size_t m = warmup_batch(r, &d);
    const size_t ramped = d >= 0 ? m : 0; /* the ramp's last batch: in r->warm already */
    size_t done = ramped;
    int settled = d >= 0 && p2pb_settle_add(&st, d);
    /* every rank gets the same batch durations (the maximum over ranks),
     * so every rank takes the same decision without a broadcast */
    while (!settled || done < wmin) {
        if (spent_ns >= P2PB_WARMUP_MAX_SEC * 1e9) {
            r->warm_capped++;
            break;
        }
        d = p2pb_timed_batch(r, m, 0);
        done += m;
        spent_ns += d;
        settled = p2pb_settle_add(&st, d);
    }
    r->warm += done - ramped;
    r->warm_ns += spent_ns;
    if (r->round == 0 && st.best > 0) /* the settled time per iteration, for k */
        r->t_iter_ns = st.best / (double)m;
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

/*
 * A block of b samples: this rank's durations d[0..b-1] (ns) reduced to
 * one value per sample (per-group runs: per sample, with the groups'
 * values; P2PB_REDUCE_MAX: one MPI_Reduce for the block; P2PB_REDUCE_ROOT:
 * rank 0's own), stored on rank 0 in usec per iteration.
 */
static void reduce_block(struct p2pb_measure *r, const double *d, size_t b, double scale_us)
{
    double v[P2PB_SAMPLE_BLOCK], mine[P2PB_SAMPLE_BLOCK];
    for (size_t j = 0; j < b; j++) {
        v[j] = d[j]; /* P2PB_REDUCE_ROOT: rank 0 is the initiator */
        mine[j] = r->c.active ? d[j] : 0.0;
        if (r->per_group)
            v[j] = gather_groups(r, d[j], scale_us);
    }
    if (r->k->flags & P2PB_KF_ONEWAY) /* the ranks' shares sum to the one-way times */
        P2PB_MPI_CHECK(MPI_Reduce(mine, v, (int)b, MPI_DOUBLE, MPI_SUM, 0, r->c.comm));
    else if (!r->per_group && r->k->rank_reduce == P2PB_REDUCE_MAX)
        P2PB_MPI_CHECK(MPI_Reduce(mine, v, (int)b, MPI_DOUBLE, MPI_MAX, 0, r->c.comm));
    for (size_t j = 0; r->c.rank == 0 && j < b; j++)
        if (p2pb_dvec_push(&r->s.all, v[j] * scale_us) != 0)
            r->s.oom = 1;
}

/* Adaptive budget of one round in s: --time-per-size over the rounds;
 * --timeout is for hangs: keep the size well inside it. */
static double round_budget(const struct p2pb_measure *r)
{
    const struct p2pb_policy *pol = r->pol;
    double budget = pol->time_per_size;
    if (pol->timeout > 0 && budget > pol->timeout / 2)
        budget = pol->timeout / 2;
    return budget / (double)r->nrounds;
}

enum p2pb_rule p2pb_stop_rule(const double *x, size_t n, size_t nmin, size_t nmax, double elapsed_s,
                              double budget_s, double ci_target)
{
    if (n >= nmax)
        return P2PB_RULE_MAX;
    if (n < nmin)
        return P2PB_RULE_MORE;
    if (elapsed_s >= budget_s)
        return P2PB_RULE_BUDGET;
    if (n >= P2PB_CI_MIN_N && (n < P2PB_CI_EVERY_SAMPLE || n % P2PB_CI_STRIDE == 0)) {
        struct p2pb_stats st;
        if (p2pb_stats_compute(x, n, NULL, &st) == P2PB_OK) {
            double hw = p2pb_stats_ci_rel_halfwidth(&st);
            if (hw >= 0 && hw <= ci_target)
                return P2PB_RULE_TARGET;
        }
    }
    return P2PB_RULE_MORE;
}

/*
 * The stop rule of a round, on rank 0 after a block: stop at the round's
 * max samples (or out of memory); adaptive: p2pb_stop_rule with the round's
 * min and max samples, its budget and --ci-target. Returns 1 to go on, 0 to
 * stop.
 */
static int keep_sampling(struct p2pb_measure *r, size_t drawn, uint64_t t_start, double budget)
{
    const struct p2pb_policy *pol = r->pol;
    const struct p2pb_samples *s = &r->s;
    if (s->oom || drawn >= r->nmax)
        return 0;
    if (pol->mode != P2PB_POLICY_ADAPTIVE)
        return 1;
    double elapsed = (double)(p2pb_now_ns() - t_start) * 1e-9;
    return p2pb_stop_rule(s->all.v + s->round_start, drawn, r->nmin, r->nmax, elapsed, budget,
                          pol->ci_target) == P2PB_RULE_MORE;
}

/* Median of x[from..n-1] into *out when there are samples; 0 or -1 (OOM). */
static int segment_median(const struct p2pb_dvec *x, size_t from, double *out)
{
    struct p2pb_stats st;
    if (x->n <= from)
        return 0;
    if (p2pb_stats_compute(x->v + from, x->n - from, NULL, &st) != P2PB_OK)
        return -1;
    *out = st.median;
    return 0;
}

/* Rank 0, end of a round that drew samples: each row's round median. */
static void record_round(struct p2pb_measure *r)
{
    struct p2pb_samples *s = &r->s;
    size_t i = s->nround_med;
    if (r->c.rank != 0 || s->oom || s->all.n <= s->round_start || i >= P2PB_MAX_ROUNDS)
        return;
    for (int g = 0; r->per_group && g < r->ngroups; g++)
        if (segment_median(&s->group[g], s->round_start, &s->round_med[g][i]) != 0)
            s->oom = 1;
    if (segment_median(&s->all, s->round_start, &s->round_med[r->nout - 1][i]) != 0)
        s->oom = 1;
    s->nround_med++;
}

void p2pb_sample(struct p2pb_measure *r)
{
    struct p2pb_samples *s = &r->s;
    const double scale_us = r->k->time_scale / 1000.0 / (double)r->kb; /* ns/sample -> usec/iter */
    const uint64_t t_start = p2pb_now_ns();
    const double budget = round_budget(r);
    double d[P2PB_SAMPLE_BLOCK], v[P2PB_SAMPLE_BLOCK];
    size_t drawn = 0;
    int go = r->nmax > 0;
    const int oneway = (r->k->flags & P2PB_KF_ONEWAY) != 0;
    s->round_start = s->all.n;
    if (oneway && go)
        p2pb_oneway_round_begin(r);
    while (go) {
        /* up to the round's minimum first, then blocks */
        size_t left = drawn < r->nmin ? r->nmin - drawn : r->nmax - drawn;
        size_t b = left < P2PB_SAMPLE_BLOCK ? left : P2PB_SAMPLE_BLOCK;
        for (size_t j = 0; j < b; j++) {
            P2PB_MPI_CHECK(MPI_Barrier(r->c.comm));
            uint64_t t0 = p2pb_now_ns(), untimed = 0;
            if (oneway)
                v[j] = p2pb_oneway_iters(r, r->kb);
            else
                untimed = p2pb_run_iters(r, r->kb); /* kernel.h, between_iter */
            d[j] = (double)(p2pb_now_ns() - t0 - untimed);
            s->local_sum_ns += d[j];
        }
        reduce_block(r, oneway ? v : d, b, scale_us);
        drawn += b;
        s->n += b;
        if (r->c.rank == 0)
            go = keep_sampling(r, drawn, t_start, budget);
        P2PB_MPI_CHECK(MPI_Bcast(&go, 1, MPI_INT, 0, r->c.comm));
    }
    if (oneway && drawn)
        p2pb_oneway_round_end(r);
    record_round(r);
}

/* What a round drew, to undo it (p2pb_sample_floor). */
struct round_mark {
    size_t n, all_n, nround_med;
    double local_sum_ns;
};

/* Rank 0: the round's median sample in ns (before dividing by k). */
static double round_sample_ns(const struct p2pb_measure *r)
{
    double med = 0;
    if (segment_median(&r->s.all, r->s.round_start, &med) != 0)
        return 0;
    return med * (double)r->kb / r->k->time_scale * 1000.0;
}

void p2pb_sample_floor(struct p2pb_measure *r)
{
    struct p2pb_samples *s = &r->s;
    const double target = p2pb_sample_target_ns(r->ti);
    for (int tries = 0;; tries++) {
        struct round_mark m = {s->n, s->all.n, s->nround_med, s->local_sum_ns};
        p2pb_sample(r);
        unsigned long long nk = r->kb; /* rank 0 decides */
        if (r->c.rank == 0 && !s->oom && s->all.n > m.all_n)
            nk = p2pb_floor_rebatch(r->kb, round_sample_ns(r), target, (size_t)1 << 26);
        P2PB_MPI_CHECK(MPI_Bcast(&nk, 1, MPI_UNSIGNED_LONG_LONG, 0, r->c.comm));
        if (nk == r->kb)
            return;
        r->warm += (s->n - m.n) * r->kb; /* the round's samples become warm-up */
        s->n = m.n;
        s->local_sum_ns = m.local_sum_ns;
        s->nround_med = m.nround_med;
        s->all.n = r->c.rank == 0 ? m.all_n : s->all.n;
        for (int g = 0; r->per_group && r->c.rank == 0 && g < r->ngroups; g++)
            s->group[g].n = m.all_n;
        if (nk == 0 || tries + 1 >= P2PB_FLOOR_TRIES) {
            r->refused = 1;
            return;
        }
        r->kb = (size_t)nk;
    }
}
