/* SPDX-License-Identifier: MIT */
/*
 * compare: per (kernel, variant, size), the launch values of two sides,
 * their medians and spread, the Hodges-Lehmann ratio B/A with its CI, the
 * exact Mann-Whitney p (the gate), Welch's p on log values adjusted over the
 * rows, a verdict and, for an inconclusive row, the launches that would
 * resolve it (docs/methodology.md).
 * The numbers only: compare_print.c prints them.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "p2pbench/stats.h"
#include "array.h"
#include "row_index.h"
#include "compare/compare.h"

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* Row key plus the kernel's first-seen position (for ordering). */
struct key {
    char kernel[32];
    char display_name[32];
    char variant[32];
    size_t bytes;
    size_t kernel_pos; /* position of the first key of its kernel: first-seen order */
};

struct keyset {
    struct key *k;
    size_t n, cap;
    struct p2pb_row_index index;   /* of k by (kernel, variant, bytes): linear in rows */
    struct p2pb_row_index kernels; /* the first key of each kernel, by kernel name */
};

/* Whether key pos of the keyset has the kernel, variant and bytes of a row. */
struct key_sought {
    const struct keyset *s;
    const struct p2pb_result *r;
};

static int key_is(const void *ctx, size_t pos)
{
    const struct key_sought *q = ctx;
    const struct key *k = &q->s->k[pos];
    return k->bytes == q->r->bytes && strcmp(k->kernel, q->r->kernel) == 0 &&
           strcmp(k->variant, q->r->variant) == 0;
}

/* Add the key of row r unless the keyset has it. Returns 0, or -1 when out of memory. */
/* Whether key pos of the keyset has the kernel of a row. */
static int kernel_is(const void *ctx, size_t pos)
{
    const struct key_sought *q = ctx;
    return strcmp(q->s->k[pos].kernel, q->r->kernel) == 0;
}

static int key_add(struct keyset *s, const struct p2pb_result *r)
{
    struct key_sought q = {s, r};
    uint64_t h = p2pb_row_key_hash(r->kernel, r->variant, r->bytes);
    if (p2pb_row_index_find(&s->index, h, key_is, &q) >= 0)
        return 0;
    uint64_t hk = p2pb_row_key_hash(r->kernel, "", 0);
    long first = p2pb_row_index_find(&s->kernels, hk, kernel_is, &q);
    if (p2pb_array_grow(&s->k, &s->cap, s->n, sizeof *s->k) != 0)
        return -1;
    struct key *k = &s->k[s->n++];
    memset(k, 0, sizeof *k);
    snprintf(k->kernel, sizeof k->kernel, "%s", r->kernel);
    snprintf(k->display_name, sizeof k->display_name, "%s", r->display_name);
    snprintf(k->variant, sizeof k->variant, "%s", r->variant);
    k->bytes = r->bytes;
    k->kernel_pos = first >= 0 ? (size_t)first : s->n - 1;
    if (p2pb_row_index_insert(&s->index, h, s->n - 1) != 0 ||
        (first < 0 && p2pb_row_index_insert(&s->kernels, hk, s->n - 1) != 0)) {
        s->n--; /* out of memory: the build fails and frees s */
        return -1;
    }
    return 0;
}

static int key_cmp(const void *x, const void *y)
{
    const struct key *a = x, *b = y;
    if (a->kernel_pos != b->kernel_pos)
        return a->kernel_pos < b->kernel_pos ? -1 : 1;
    int c = strcmp(a->variant, b->variant);
    if (c)
        return c;
    return (a->bytes > b->bytes) - (a->bytes < b->bytes);
}

/* Launch values of key k on side s (finite only) into v; returns count.
 * One lookup per launch (its first row of the key), which also counts the
 * launches whose row was disturbed (*dist) or shifted (*shift) while
 * measured. */
static size_t side_values(const struct p2pb_side *s, const struct key *k, enum p2pb_metric m,
                          double *v, size_t *dist, size_t *shift)
{
    size_t n = 0;
    *dist = *shift = 0;
    for (size_t f = 0; f < s->nfiles; f++) {
        const struct p2pb_result *x =
            p2pb_results_find(&s->files[f], k->kernel, k->variant, k->bytes);
        if (!x || x->status != P2PB_ROW_OK)
            continue;
        double y = p2pb_metric_value(x, m);
        if (isfinite(y))
            v[n++] = y;
        *dist += p2pb_disturbed(&x->disturbance) != 0;
        *shift += x->shift.flagged != 0;
    }
    return n;
}

/* Median, range and 95% CI of the median (order statistics, Le Boudec; needs
 * n >= 6, else NAN) of v[0..n-1]; sorts v. */
static void summarize(double *v, size_t n, double *med, double *mn, double *mx, double ci[2])
{
    size_t lo, hi;
    ci[0] = ci[1] = NAN;
    if (!n) {
        *med = *mn = *mx = NAN;
        return;
    }
    qsort(v, n, sizeof *v, cmp_double);
    *med = p2pb_quantile_sorted(v, n, 0.5);
    *mn = v[0];
    *mx = v[n - 1];
    if (p2pb_median_ci_ranks(n, &lo, &hi) == P2PB_OK) {
        ci[0] = v[lo - 1];
        ci[1] = v[hi - 1];
    }
}

static int all_positive(const double *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!(v[i] > 0.0))
            return 0;
    return 1;
}

/* Every (kernel, variant, size) of both sides, sorted for the table (key_cmp). */
static enum p2pb_status collect_keys(const struct p2pb_side *a, const struct p2pb_side *b,
                                     struct keyset *ks)
{
    const struct p2pb_side *const sides[2] = {a, b};
    for (int s = 0; s < 2; s++)
        for (size_t f = 0; f < sides[s]->nfiles; f++)
            for (size_t i = 0; i < sides[s]->files[f].nrows; i++)
                if (key_add(ks, &sides[s]->files[f].rows[i]))
                    return P2PB_ENOMEM;
    p2pb_row_index_free(&ks->index); /* their positions are stale once sorted */
    p2pb_row_index_free(&ks->kernels);
    if (ks->n > 1) /* ks->k is NULL when no file has a row (qsort needs an array) */
        qsort(ks->k, ks->n, sizeof *ks->k, key_cmp);
    return P2PB_OK;
}

/*
 * Row r of key k: the launch values of each side (into the scratch arrays va,
 * vb of a->nfiles + 1 and b->nfiles + 1 doubles), their summaries, and the
 * row's tests (Mann-Whitney, Hodges-Lehmann, Welch: p2pb_verdict_row_tests,
 * into *v, with the null distribution kept in *null) when both sides have
 * numbers and all of them are positive (else r->tested stays 0: a zero
 * value). Returns P2PB_OK or the error of the tests (P2PB_ENOMEM).
 */
static enum p2pb_status fill_row(struct p2pb_cmp_row *r, struct p2pb_verdict_row *v,
                                 struct p2pb_mwu_null *null, const struct key *k,
                                 const struct p2pb_side *a, const struct p2pb_side *b,
                                 enum p2pb_metric metric, double *va, double *vb)
{
    snprintf(r->kernel, sizeof r->kernel, "%s", k->kernel);
    snprintf(r->display_name, sizeof r->display_name, "%s", k->display_name);
    snprintf(r->variant, sizeof r->variant, "%s", k->variant);
    r->bytes = k->bytes;
    r->na = side_values(a, k, metric, va, &r->dist_a, &r->shift_a);
    r->nb = side_values(b, k, metric, vb, &r->dist_b, &r->shift_b);
    r->verdict = P2PB_VERDICT_NONE;
    r->u = r->p = r->p_adj = r->p_t = r->df_t = r->sd_log = NAN;
    r->hl.ratio = NAN;
    if (r->na == 0 || r->nb == 0) {
        r->only = r->na ? "A" : r->nb ? "B" : "none";
    } else if (all_positive(va, r->na) && all_positive(vb, r->nb)) {
        enum p2pb_status st = p2pb_verdict_row_tests(va, r->na, vb, r->nb, null, v);
        if (st != P2PB_OK)
            return st;
        r->tested = 1;
        r->u = v->u;
        r->p = v->p_mwu;
        r->hl = v->hl;
        r->p_t = v->p_t;
        r->df_t = v->t.df;
        r->sd_log = v->t.sd_log;
    }
    summarize(va, r->na, &r->med_a, &r->min_a, &r->max_a, r->ci_a);
    summarize(vb, r->nb, &r->med_b, &r->min_b, &r->max_b, r->ci_b);
    return P2PB_OK;
}

/* Smallest exact two-sided Mann-Whitney p of m vs n launches: 2 / C(m + n, m). */
static double mwu_floor(size_t m, size_t n)
{
    double f =
        2.0 * exp(lgamma((double)m + 1) + lgamma((double)n + 1) - lgamma((double)(m + n) + 1));
    return f > 1.0 ? 1.0 : f;
}

/*
 * Power check of table t (ntested set): the Mann-Whitney gate (raw p < 0.05)
 * cannot pass when 2 / C(na + nb, na) >= 0.05 (3 vs 3: 0.1). Sets best_p_gate
 * to the smallest such floor over the rows and launches_needed to the launches
 * per side (equal sides, at most 64) that bring it below 0.05, so that a table
 * in which no row can ever be "changed" says so rather than pass silently.
 * The adjusted Welch p has no floor: it falls with the spread.
 */
static void power_floor(struct p2pb_cmp_table *t)
{
    t->best_p_gate = NAN;
    for (size_t i = 0; i < t->nrows; i++) {
        const struct p2pb_cmp_row *r = &t->rows[i];
        if (!r->tested)
            continue;
        double f = mwu_floor(r->na, r->nb);
        if (!(t->best_p_gate <= f))
            t->best_p_gate = f;
    }
    t->launches_needed = 0;
    for (size_t n = 2; n <= 64 && t->ntested; n++)
        if (mwu_floor(n, n) < P2PB_VERDICT_ALPHA) {
            t->launches_needed = n;
            break;
        }
}

/* The family's outcome (v[0..ntested-1], one per tested row in row order):
 * adjusted p, verdict, power note and direction of every tested row of t. */
static void set_verdicts(struct p2pb_cmp_table *t, const struct p2pb_verdict_row *v)
{
    size_t k = 0;
    for (size_t i = 0; i < t->nrows; i++) {
        struct p2pb_cmp_row *r = &t->rows[i];
        if (!r->tested)
            continue;
        r->p_adj = v[k].p_adj;
        r->verdict = v[k].verdict;
        r->power = v[k].power;
        k++;
        if (r->verdict == P2PB_VERDICT_CHANGED)
            r->worse = t->metric == P2PB_METRIC_LATENCY ? r->hl.ratio > 1.0 : r->hl.ratio < 1.0;
    }
}

enum p2pb_status p2pb_compare_build(const struct p2pb_side *a, const struct p2pb_side *b,
                                    enum p2pb_metric metric, int holm, double d,
                                    struct p2pb_cmp_table *out)
{
    memset(out, 0, sizeof *out);
    out->metric = metric;
    struct keyset ks = {0};
    double *va = malloc((a->nfiles + 1) * sizeof *va);
    double *vb = malloc((b->nfiles + 1) * sizeof *vb);
    struct p2pb_verdict_row *v = NULL; /* the tested rows' tests, in row order */
    struct p2pb_mwu_null null = {0};   /* of the last tested row: rows share launch counts */
    enum p2pb_status st = va && vb ? collect_keys(a, b, &ks) : P2PB_ENOMEM;
    if (st != P2PB_OK)
        goto out;
    size_t cap = ks.n ? ks.n : 1;
    out->rows = calloc(cap, sizeof *out->rows);
    v = calloc(cap, sizeof *v);
    if (!out->rows || !v) {
        st = P2PB_ENOMEM;
        goto out;
    }
    for (size_t i = 0; i < ks.n && st == P2PB_OK; i++) {
        struct p2pb_cmp_row *r = &out->rows[out->nrows++];
        st = fill_row(r, &v[out->ntested], &null, &ks.k[i], a, b, metric, va, vb);
        out->ntested += (size_t)r->tested;
    }
    if (st == P2PB_OK)
        st = p2pb_verdict_family(v, out->ntested, holm, d);
    if (st != P2PB_OK)
        goto out;
    power_floor(out);
    set_verdicts(out, v);
out:
    p2pb_mwu_null_free(&null);
    free(va);
    free(vb);
    free(v);
    free(ks.k);
    p2pb_row_index_free(&ks.index);
    p2pb_row_index_free(&ks.kernels);
    if (st != P2PB_OK)
        p2pb_compare_free(out);
    return st;
}

void p2pb_compare_free(struct p2pb_cmp_table *t)
{
    free(t->rows);
    t->rows = NULL;
    t->nrows = 0;
}
