/* SPDX-License-Identifier: MIT */
/*
 * rows.c - the result rows of one (kernel, size): labels, IMB's per-rank
 * means reduced across ranks (step 6 of docs/methodology.md), statistics
 * (src/common/stats.c), and for per-group kernels (kernel.h,
 * P2PB_KF_PER_GROUP) one row per group plus the aggregate row.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "measure.h"
#include "overlap.h"
#include "p2pbench/stats.h"

int p2pb_ngroups(const struct p2pb_kernel *k, int nactive)
{
    if (k->participation == P2PB_PART_PAIRS)
        return nactive / 2;
    if (k->participation == P2PB_PART_SELF)
        return nactive;
    return 1;
}

int p2pb_group_of(const struct p2pb_kernel *k, int rank)
{
    return k->participation == P2PB_PART_PAIRS  ? rank / 2
           : k->participation == P2PB_PART_SELF ? rank
                                                : 0;
}

int p2pb_group_root(const struct p2pb_kernel *k, int g)
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
 * for P2PB_KF_OVERLAP ones the name of the phase passed as direction;
 * "" for the others.
 */
static void row_label(char *buf, size_t len, const struct p2pb_kernel *k, int g, int ngroups,
                      int direction)
{
    int dirs = (k->flags & P2PB_KF_DIRECTIONS) != 0;
    buf[0] = '\0';
    if (k->flags & P2PB_KF_OVERLAP) { /* direction: the phase (ctx->phase) */
        snprintf(buf, len, "%s", p2pb_overlap_phase_name(direction));
        return;
    }
    if (!(k->flags & (P2PB_KF_DIRECTIONS | P2PB_KF_PER_GROUP)))
        return;
    if (g >= ngroups) {
        snprintf(buf, len, "%s",
                 !dirs       ? "aggregate"
                 : direction ? "aggregate hi->lo"
                             : "aggregate lo->hi");
        return;
    }
    int a = p2pb_group_root(k, g);
    if (k->participation == P2PB_PART_SELF)
        snprintf(buf, len, "rank %d", a);
    else if (dirs)
        snprintf(buf, len, "%d->%d", direction ? a + 1 : a, direction ? a : a + 1);
    else if (k->participation == P2PB_PART_PAIR || k->participation == P2PB_PART_PAIRS)
        snprintf(buf, len, "pair %d-%d", a, a + 1);
    else
        snprintf(buf, len, "all");
}

/* Fill the fields every row of one (kernel, size, direction) shares. */
static void fill_row(struct p2pb_result *out, const struct p2pb_measure *r, const char *variant)
{
    const struct p2pb_kernel *k = r->k;
    memset(out, 0, sizeof *out);
    snprintf(out->kernel, sizeof out->kernel, "%s", k->name);
    snprintf(out->display_name, sizeof out->display_name, "%s", k->display_name);
    snprintf(out->variant, sizeof out->variant, "%s", variant);
    out->bytes = r->c.bytes;
    out->nranks = r->c.nranks;
    out->active_ranks = r->nactive;
    out->imb_layout = (int)k->imb_layout;
    out->bytes_factor = r->bf; /* of this run (window, copy buffer), also for a failed row */
    out->msgs_factor = r->mf;
    out->time_scale = k->time_scale;
    out->asymmetry = NAN;
    if (r->c.bytes > (size_t)INT_MAX && !(k->flags & P2PB_KF_NO_MPI) &&
        k->participation != P2PB_PART_SELF)
        snprintf(out->count_path, sizeof out->count_path, "%s",
                 r->c.large_count ? "large-count" : "datatype");
}

void p2pb_rows_label(const struct p2pb_measure *r, struct p2pb_result *rows)
{
    for (size_t i = 0; i < r->nout; i++) {
        char label[32];
        /* the only row of a one-group kernel is labelled as that group */
        row_label(label, sizeof label, r->k, r->per_group ? (int)i : 0,
                  r->per_group ? r->ngroups : 1,
                  (r->k->flags & P2PB_KF_OVERLAP) ? r->c.phase : r->c.direction);
        if (r->k->flags & P2PB_KF_RMA) /* one-sided: the synchronisation and window */
            snprintf(label, sizeof label, "sync=%s win=%s", p2pb_rma_sync_names[r->c.rma_sync],
                     p2pb_rma_window_names[r->c.rma_window]);
        fill_row(&rows[i], r, label);
    }
}

void p2pb_rows_set_fixed_bytes(const struct p2pb_measure *r, struct p2pb_result *rows)
{
    if (!p2pb_kernel_fixed_bytes(r->k))
        return;
    for (size_t i = 0; i < r->nout; i++)
        rows[i].fixed_bytes = r->bf * (double)r->c.bytes;
}

/* Per-group runs, P2PB_REDUCE_ROOT, on rank 0: over the groups' initiators. */
static void means_over_roots(struct p2pb_measure *r)
{
    const double *mall = r->s.mall;
    struct p2pb_rank_times *rt = &r->rt;
    rt->min = INFINITY;
    rt->max = -INFINITY;
    rt->avg = 0;
    for (int g = 0; g < r->ngroups; g++) {
        double m = mall[p2pb_group_root(r->k, g)];
        rt->min = m < rt->min ? m : rt->min;
        rt->max = m > rt->max ? m : rt->max;
        rt->avg += m / r->ngroups;
    }
}

/* Minimum, maximum and average over the active ranks, to rank 0. */
static void means_over_ranks(struct p2pb_measure *r, double mean_us)
{
    const int active = r->c.active;
    double tmin = active ? mean_us : INFINITY, tmax = active ? mean_us : -INFINITY;
    double tsum = active ? mean_us : 0.0;
    struct p2pb_rank_times *rt = &r->rt;
    P2PB_MPI_CHECK(MPI_Reduce(&tmin, &rt->min, 1, MPI_DOUBLE, MPI_MIN, 0, r->c.comm));
    P2PB_MPI_CHECK(MPI_Reduce(&tmax, &rt->max, 1, MPI_DOUBLE, MPI_MAX, 0, r->c.comm));
    P2PB_MPI_CHECK(MPI_Reduce(&tsum, &rt->avg, 1, MPI_DOUBLE, MPI_SUM, 0, r->c.comm));
    rt->avg /= r->nactive;
}

void p2pb_rows_reduce_means(struct p2pb_measure *r)
{
    /* IMB's t_min / t_max / t_avg: each active rank's mean time per iteration */
    const double mean_us = r->s.local_sum_ns / (double)(r->s.n * r->kb) * r->k->time_scale / 1000.0;
    r->rt.min = r->rt.max = r->rt.avg = 0;
    if (r->per_group) {
        double mine = r->c.active ? mean_us : NAN;
        P2PB_MPI_CHECK(MPI_Gather(&mine, 1, MPI_DOUBLE, r->s.mall, 1, MPI_DOUBLE, 0, r->c.comm));
    }
    if (r->k->rank_reduce == P2PB_REDUCE_ROOT && r->per_group) {
        if (r->c.rank == 0)
            means_over_roots(r);
    } else if (r->k->rank_reduce == P2PB_REDUCE_ROOT) {
        r->rt.min = r->rt.max = r->rt.avg = mean_us;
    } else {
        means_over_ranks(r, mean_us);
    }
}

/* ci_target_met of a row: 1 / 0 under the adaptive policy, else -1. */
static int ci_met(const struct p2pb_policy *pol, const struct p2pb_stats *t)
{
    if (pol->mode != P2PB_POLICY_ADAPTIVE)
        return -1;
    double hw = p2pb_stats_ci_rel_halfwidth(t);
    return hw >= 0 && hw <= pol->ci_target ? 1 : 0;
}

/* Row i's round medians into row; with two or more, its interval becomes
 * the rounds' interval (p2pb_round_interval). Rank 0. */
static void apply_rounds(const struct p2pb_measure *r, size_t i, struct p2pb_result *row)
{
    const struct p2pb_samples *s = &r->s;
    struct p2pb_stats *t = &row->t;
    row->rounds = s->nround_med;
    for (size_t j = 0; j < s->nround_med; j++)
        row->round_medians[j] = s->round_med[i][j];
    double lo, hi;
    if (p2pb_round_interval(t->median, t->ci_valid, t->ci95_low, t->ci95_high, s->round_med[i],
                            s->nround_med, &lo, &hi)) {
        t->ci95_low = lo;
        t->ci95_high = hi;
        t->ci_valid = 1;
    }
}

/* Counts every rank reports; rank 0 also the statistics of `samples` (row
 * i of the run, for its round medians) and the IMB times (usec). */
static void fill_numbers(const struct p2pb_measure *r, struct p2pb_result *row, size_t i,
                         const struct p2pb_dvec *samples, const struct p2pb_rank_times *rt)
{
    row->samples = r->s.n;
    row->iterations_per_sample = r->kb;
    row->warmup = r->warm;
    row->warmup_sec = r->warm_ns * 1e-9;
    row->warmup_capped = r->warm_capped;
    if (r->c.rank != 0)
        return;
    p2pb_stats_compute(samples->v, samples->n, NULL, &row->t);
    apply_rounds(r, i, row);
    /* samples are in time order: did the level change while measured? */
    if (p2pb_change_point(samples->v, samples->n, P2PB_SHIFT_ALPHA, P2PB_SHIFT_MIN_REL,
                          &row->shift) != P2PB_OK)
        memset(&row->shift, 0, sizeof row->shift); /* out of memory: not tested */
    row->t_min_usec = rt->min;
    row->t_max_usec = rt->max;
    row->t_avg_usec = rt->avg;
    row->mbytes_per_sec = p2pb_mbytes_per_sec(r->bf, r->c.bytes, row->t.median);
    row->mbytes_per_sec_imb = p2pb_mbytes_per_sec(r->bf, r->c.bytes, rt->max);
    row->msgs_per_sec = p2pb_msgs_per_sec(r->mf, row->t.median); /* x X / 10^6 = MB/s */
    row->ci_target_met = ci_met(r->pol, &row->t);
}

/* IMB times of group g on rank 0: over its ranks' means (P2PB_REDUCE_ROOT:
 * its initiator's); avg NAN when the group has none. */
static struct p2pb_rank_times group_times(const struct p2pb_measure *r, int g)
{
    const struct p2pb_kernel *k = r->k;
    const double *mall = r->s.mall;
    double gmin = INFINITY, gmax = -INFINITY, gsum = 0;
    int gn = 0;
    for (int q = 0; q < r->nactive; q++) {
        if (p2pb_group_of(k, q) != g ||
            (k->rank_reduce == P2PB_REDUCE_ROOT && q != p2pb_group_root(k, g)))
            continue;
        gmin = mall[q] < gmin ? mall[q] : gmin;
        gmax = mall[q] > gmax ? mall[q] : gmax;
        gsum += mall[q];
        gn++;
    }
    struct p2pb_rank_times t = {gmin, gmax, gn ? gsum / gn : NAN};
    return t;
}

/* Group rows; the aggregate row (out) sums the groups' MB/s and bytes. */
static void fill_group_rows(const struct p2pb_measure *r, struct p2pb_result *rows,
                            struct p2pb_result *out)
{
    if (r->c.rank == 0) {
        out->mbytes_per_sec = out->mbytes_per_sec_imb = out->msgs_per_sec = 0.0;
        out->bytes_factor = r->bf * r->ngroups;
        out->msgs_factor = r->mf * r->ngroups;
        out->fixed_bytes *= r->ngroups;
    }
    for (int g = 0; g < r->ngroups; g++) {
        struct p2pb_result *gr = &rows[g];
        struct p2pb_rank_times gt = {0, 0, 0};
        if (r->c.rank == 0)
            gt = group_times(r, g);
        fill_numbers(r, gr, (size_t)g, &r->s.group[g], &gt);
        if (r->c.rank != 0)
            continue;
        out->mbytes_per_sec += gr->mbytes_per_sec;
        out->mbytes_per_sec_imb += gr->mbytes_per_sec_imb;
        out->msgs_per_sec += gr->msgs_per_sec;
    }
}

/* The floor could not be met (calibration.c): every row skipped, with why. */
static void refuse_rows(const struct p2pb_measure *r, struct p2pb_result *rows)
{
    for (size_t i = 0; i < r->nout; i++) {
        rows[i].status = P2PB_ROW_SKIPPED;
        snprintf(rows[i].note, sizeof rows[i].note,
                 "refused: a sample stays below the %.0f usec floor after %d re-calibrations",
                 p2pb_sample_target_ns(r->ti) / 1000.0, P2PB_FLOOR_TRIES);
    }
}

/* One-way rows: the clock model and its checks (struct p2pb_clock_sync). */
static void fill_clock(const struct p2pb_measure *r, struct p2pb_result *row)
{
    const struct p2pb_clock *k = &r->clk;
    if (!(r->k->flags & P2PB_KF_ONEWAY) || k->npts == 0)
        return;
    struct p2pb_clock_sync *c = &row->clock;
    c->valid = 1;
    c->offset_usec = k->m.offset / 1000.0;
    c->drift_ppm = k->m.drift * 1e6;
    c->residual_usec = k->resid_max >= 0 ? k->resid_max / 1000.0 : -1.0;
    c->rtt_usec = k->rtt_min / 1000.0;
    c->readings = k->npts;
    c->within = p2pb_clock_within(k);
}

enum p2pb_status p2pb_rows_finish(struct p2pb_measure *r, struct p2pb_result *rows,
                                  enum p2pb_status verdict, char *err, size_t errlen)
{
    if (r->refused) { /* agreed: the floor check's batches are collective */
        refuse_rows(r, rows);
        return verdict;
    }
    /* only rank 0 stores samples: it tells the others whether that failed */
    P2PB_MPI_CHECK(MPI_Bcast(&r->s.oom, 1, MPI_INT, 0, r->c.comm));
    if (r->s.oom)
        return p2pb_fail(P2PB_ENOMEM, err, errlen,
                         "out of memory storing samples for kernel %s, size %zu", r->k->name,
                         r->c.bytes);
    struct p2pb_result *out = &rows[r->nout - 1]; /* the overall (or only) row */
    fill_numbers(r, out, r->nout - 1, &r->s.all, &r->rt);
    fill_clock(r, out);
    if (r->per_group)
        fill_group_rows(r, rows, out);
    for (size_t i = 0; i < r->nout; i++) {
        rows[i].status = verdict == P2PB_OK ? P2PB_ROW_OK : P2PB_ROW_FAILED;
        if (verdict != P2PB_OK)
            snprintf(rows[i].note, sizeof rows[i].note, "%s",
                     verdict == P2PB_EVERIFY ? "payload check failed" : p2pb_status_str(verdict));
    }
    if (r->c.rank == 0)
        p2pb_bounds_rows(r, rows);
    return verdict;
}
