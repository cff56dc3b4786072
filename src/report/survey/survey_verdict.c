/* SPDX-License-Identifier: MIT */
/*
 * survey_verdict.c - slow nodes and slow links from the survey's matrices
 * by a median polish on log values (survey.h; the outlier rule:
 * src/common/outlier.h). Pure: no I/O.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "p2pbench/stats.h"
#include "survey/survey.h"

/* Sweeps of the median polish (it settles in a few; Tukey uses 2-4). */
#define POLISH_SWEEPS 10

double p2pb_survey_pair_bw(const struct p2pb_survey_matrix *m, size_t i, size_t j)
{
    double a = m->bw[i * m->n + j], b = m->bw[j * m->n + i];
    if (isnan(a))
        return b;
    if (isnan(b))
        return a;
    return a < b ? a : b;
}

/* One metric being judged: y = log of the pair values (n x n, NAN where
 * missing or not positive), the effects a[n], mu and scratch tmp[n * n]. */
struct fit {
    size_t n;
    double *y, *a, *tmp;
    double mu;
};

/* y from the matrix: latency, or the pair bandwidth. Also the raw medians
 * over partners into node[] (usec or MB/s). */
static void load_metric(const struct p2pb_survey_matrix *m, int bw, struct fit *f, double *node)
{
    size_t n = m->n;
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < n; j++) {
            double x = i == j ? NAN : bw ? p2pb_survey_pair_bw(m, i, j) : m->lat[i * n + j];
            f->y[i * n + j] = x > 0 ? log(x) : NAN;
            f->tmp[j] = x;
        }
        node[i] = p2pb_median_finite(f->tmp, n);
    }
}

/* The median polish: mu = median of y; then each sweep sets every a_i to
 * the median over j of (y_ij - mu - a_j) and moves the median of a into mu. */
static void polish(struct fit *f)
{
    size_t n = f->n, k = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            f->tmp[k++] = f->y[i * n + j];
    f->mu = p2pb_median_finite(f->tmp, k);
    for (size_t i = 0; i < n; i++)
        f->a[i] = 0;
    for (int sweep = 0; sweep < POLISH_SWEEPS && isfinite(f->mu); sweep++) {
        for (size_t i = 0; i < n; i++) {
            for (size_t j = 0; j < n; j++)
                f->tmp[j] = f->y[i * n + j] - f->mu - f->a[j];
            double r = p2pb_median_finite(f->tmp, n);
            f->a[i] = isfinite(r) ? r : 0;
        }
        memcpy(f->tmp, f->a, n * sizeof *f->a);
        double c = p2pb_median_finite(f->tmp, n);
        f->mu += c;
        for (size_t i = 0; i < n; i++)
            f->a[i] -= c;
    }
}

/* x is beyond the bounds on the bad side (latency: above). */
static int bad(double x, double above, double below, int bw)
{
    return bw ? x < below : x > above;
}

/* Slow nodes of one metric: effects beyond the bounds of all effects. */
static void judge_nodes(const struct fit *f, const struct p2pb_outlier_rule *r, int bw,
                        struct p2pb_survey_verdict *v)
{
    double med, mad, above, below;
    if (p2pb_outlier_bounds_log(f->a, f->n, r, &med, &mad, &above, &below) != P2PB_OK)
        return;
    for (size_t i = 0; i < f->n; i++)
        if (bad(f->a[i], above, below, bw))
            v->slow_node[i] |= bw ? P2PB_SLOW_BANDWIDTH : P2PB_SLOW_LATENCY;
}

/* The pair's own value y (log) is off the typical pair mu by at least the
 * rule's fraction on the bad side: latency above mu (1 + min_off),
 * bandwidth below mu (1 - min_off). */
static int off_typical(double y, double mu, const struct p2pb_outlier_rule *r, int bw)
{
    if (!isfinite(y))
        return 0;
    return bw ? y - mu < log(1 - fmin(r->min_off, 0.99)) : y - mu > log(1 + r->min_off);
}

/* The median of the kept values' CPU waits of one metric (percent; NAN
 * when none is known); tmp holds n * n doubles. */
static double typical_wait(const struct p2pb_survey_matrix *m, int bw, double *tmp)
{
    const double *w = bw ? m->bw_wait : m->lat_wait;
    size_t k = 0;
    for (size_t i = 0; w && i < m->n * m->n; i++)
        if (isfinite(w[i]))
            tmp[k++] = w[i];
    return k ? p2pb_median_finite(tmp, k) : NAN;
}

/* 1 when pair (i, j)'s kept value of one metric waited for a CPU at least
 * P2PB_SURVEY_STARVED_PCT points more than the typical (med) one; either
 * direction for bandwidth. */
static int starved(const struct p2pb_survey_matrix *m, int bw, size_t i, size_t j, double med)
{
    const double *w = bw ? m->bw_wait : m->lat_wait;
    const size_t n = m->n;
    if (!w || !isfinite(med))
        return 0;
    double x = fmax(isfinite(w[i * n + j]) ? w[i * n + j] : -1,
                    isfinite(w[j * n + i]) ? w[j * n + i] : -1);
    return x >= med + P2PB_SURVEY_STARVED_PCT;
}

/* Slow links of one metric: residuals of pairs of healthy nodes beyond the
 * bounds of all such residuals, whose own value is also off the typical
 * pair (off_typical): a link only slower than its two nodes' other links is
 * not named, since node effects fitted on noisy values (a CPU-starved run)
 * make such residuals from noise alone (docs/survey.md, "Verdicts"). */
static void judge_links(const struct p2pb_survey_matrix *m, const struct fit *f,
                        const struct p2pb_outlier_rule *r, int bw, struct p2pb_survey_verdict *v)
{
    const double wait_med = typical_wait(m, bw, f->tmp);
    size_t n = f->n, k = 0;
    double *e = f->tmp, med, mad, above, below;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            if (!v->slow_node[i] && !v->slow_node[j])
                e[k++] = f->y[i * n + j] - f->mu - f->a[i] - f->a[j];
    if (p2pb_outlier_bounds_log(e, k, r, &med, &mad, &above, &below) != P2PB_OK)
        return;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            double x = f->y[i * n + j] - f->mu - f->a[i] - f->a[j];
            if (v->slow_node[i] || v->slow_node[j] || !bad(x, above, below, bw) ||
                !off_typical(f->y[i * n + j], f->mu, r, bw))
                continue;
            unsigned char why = bw ? P2PB_SLOW_BANDWIDTH : P2PB_SLOW_LATENCY;
            /* a starved measurement says nothing of the link */
            unsigned char *to = starved(m, bw, i, j, wait_med) ? v->starved_link : v->slow_link;
            to[i * n + j] |= why;
            to[j * n + i] |= why;
        }
}

/* Both metrics: fit, then the nodes of both, then the links of both (a
 * node slow by either metric takes its links out of the link rule). */
static void judge(const struct p2pb_survey_matrix *m, const struct p2pb_outlier_rule *rule,
                  unsigned metrics, struct fit f[2], struct p2pb_survey_verdict *v)
{
    for (int bw = 0; bw < 2; bw++) {
        load_metric(m, bw, &f[bw], bw ? v->node_bw : v->node_lat);
        polish(&f[bw]);
        double *fac = bw ? v->node_bw_f : v->node_lat_f;
        for (size_t i = 0; i < m->n; i++)
            fac[i] = exp(f[bw].a[i]);
        if (metrics & (bw ? P2PB_SLOW_BANDWIDTH : P2PB_SLOW_LATENCY))
            judge_nodes(&f[bw], rule, bw, v);
    }
    v->lat_median = exp(f[0].mu);
    v->bw_median = exp(f[1].mu);
    for (int bw = 0; bw < 2; bw++)
        if (metrics & (bw ? P2PB_SLOW_BANDWIDTH : P2PB_SLOW_LATENCY))
            judge_links(m, &f[bw], rule, bw, v);
    for (size_t i = 0; i < m->n; i++) {
        v->nslow_nodes += v->slow_node[i] != 0;
        for (size_t j = i + 1; j < m->n; j++)
            v->nslow_links += v->slow_link[i * m->n + j] != 0;
        for (size_t j = i + 1; j < m->n; j++)
            v->nstarved_links += v->starved_link[i * m->n + j] && !v->slow_link[i * m->n + j];
    }
}

enum p2pb_status p2pb_survey_verdict(const struct p2pb_survey_matrix *m,
                                     const struct p2pb_outlier_rule *rule, unsigned metrics,
                                     struct p2pb_survey_verdict *v)
{
    size_t n = m->n;
    struct fit f[2] = {{.n = n}, {.n = n}};
    memset(v, 0, sizeof *v);
    v->node_lat = calloc(n + 1, sizeof *v->node_lat);
    v->node_bw = calloc(n + 1, sizeof *v->node_bw);
    v->node_lat_f = calloc(n + 1, sizeof *v->node_lat_f);
    v->node_bw_f = calloc(n + 1, sizeof *v->node_bw_f);
    v->slow_node = calloc(n + 1, 1);
    v->slow_link = calloc(n * n + 1, 1);
    v->starved_link = calloc(n * n + 1, 1);
    int ok = v->node_lat && v->node_bw && v->node_lat_f && v->node_bw_f && v->slow_node &&
             v->slow_link && v->starved_link;
    for (int k = 0; k < 2; k++) {
        f[k].y = calloc(n * n + 1, sizeof *f[k].y);
        f[k].a = calloc(n + 1, sizeof *f[k].a);
        f[k].tmp = calloc(n * n + 1, sizeof *f[k].tmp);
        ok = ok && f[k].y && f[k].a && f[k].tmp;
    }
    if (ok)
        judge(m, rule, metrics, f, v);
    for (int k = 0; k < 2; k++) {
        free(f[k].y);
        free(f[k].a);
        free(f[k].tmp);
    }
    return ok ? P2PB_OK : P2PB_ENOMEM;
}

void p2pb_survey_verdict_free(struct p2pb_survey_verdict *v)
{
    free(v->node_lat);
    free(v->node_bw);
    free(v->node_lat_f);
    free(v->node_bw_f);
    free(v->slow_node);
    free(v->slow_link);
    free(v->starved_link);
    memset(v, 0, sizeof *v);
}
