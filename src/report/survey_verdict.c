/* SPDX-License-Identifier: MIT */
/*
 * survey_verdict.c - slow nodes and slow links from the survey's matrices
 * (survey.h; the rule: src/common/outlier.h). Pure: no I/O.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "survey.h"

double p2pb_survey_pair_bw(const struct p2pb_survey_matrix *m, size_t i, size_t j)
{
    double a = m->bw[i * m->n + j], b = m->bw[j * m->n + i];
    if (isnan(a))
        return b;
    if (isnan(b))
        return a;
    return a < b ? a : b;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of the finite values of v[0..n-1] (reordered); NAN when none. */
static double median_finite(double *v, size_t n)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(v[i]))
            v[m++] = v[i];
    if (m == 0)
        return NAN;
    qsort(v, m, sizeof *v, cmp_double);
    return m % 2 ? v[m / 2] : 0.5 * (v[m / 2 - 1] + v[m / 2]);
}

/* Node values: median over partners of latency and pair bandwidth. */
static void node_values(const struct p2pb_survey_matrix *m, struct p2pb_survey_verdict *v,
                        double *tmp)
{
    size_t n = m->n;
    for (size_t i = 0; i < n; i++) {
        size_t k = 0;
        for (size_t j = 0; j < n; j++)
            if (j != i)
                tmp[k++] = m->lat[i * n + j];
        v->node_lat[i] = median_finite(tmp, k);
        k = 0;
        for (size_t j = 0; j < n; j++)
            if (j != i)
                tmp[k++] = p2pb_survey_pair_bw(m, i, j);
        v->node_bw[i] = median_finite(tmp, k);
    }
}

/* Slow nodes: node values beyond the bounds over all nodes. */
static void find_slow_nodes(const struct p2pb_survey_matrix *m, const struct p2pb_outlier_rule *r,
                            struct p2pb_survey_verdict *v)
{
    double med, mad, above, below;
    if (p2pb_outlier_bounds(v->node_lat, m->n, r, &med, &mad, &above, &below) == P2PB_OK) {
        v->node_lat_above = above;
        for (size_t i = 0; i < m->n; i++)
            if (v->node_lat[i] > above)
                v->slow_node[i] |= P2PB_SLOW_LATENCY;
    }
    if (p2pb_outlier_bounds(v->node_bw, m->n, r, &med, &mad, &above, &below) == P2PB_OK) {
        v->node_bw_below = below;
        for (size_t i = 0; i < m->n; i++)
            if (v->node_bw[i] < below)
                v->slow_node[i] |= P2PB_SLOW_BANDWIDTH;
    }
    for (size_t i = 0; i < m->n; i++)
        v->nslow_nodes += v->slow_node[i] != 0;
}

/* The pairs of two healthy nodes, latency into lat[], bandwidth into bw[];
 * returns how many. */
static size_t healthy_pairs(const struct p2pb_survey_matrix *m, const struct p2pb_survey_verdict *v,
                            double *lat, double *bw)
{
    size_t k = 0;
    for (size_t i = 0; i < m->n; i++)
        for (size_t j = i + 1; j < m->n; j++)
            if (!v->slow_node[i] && !v->slow_node[j]) {
                lat[k] = m->lat[i * m->n + j];
                bw[k++] = p2pb_survey_pair_bw(m, i, j);
            }
    return k;
}

/* Slow links: pairs of healthy nodes beyond the bounds of all such pairs. */
static void find_slow_links(const struct p2pb_survey_matrix *m, const struct p2pb_outlier_rule *r,
                            struct p2pb_survey_verdict *v, double *lat, double *bw)
{
    size_t k = healthy_pairs(m, v, lat, bw), n = m->n;
    double mad, lo_l = NAN, hi_l = NAN, lo_b = NAN, hi_b = NAN;
    if (p2pb_outlier_bounds(lat, k, r, &v->lat_median, &mad, &hi_l, &lo_l) == P2PB_OK)
        v->link_lat_above = hi_l;
    if (p2pb_outlier_bounds(bw, k, r, &v->bw_median, &mad, &hi_b, &lo_b) == P2PB_OK)
        v->link_bw_below = lo_b;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            if (v->slow_node[i] || v->slow_node[j])
                continue;
            unsigned why = 0;
            if (m->lat[i * n + j] > v->link_lat_above)
                why |= P2PB_SLOW_LATENCY;
            if (p2pb_survey_pair_bw(m, i, j) < v->link_bw_below)
                why |= P2PB_SLOW_BANDWIDTH;
            v->slow_link[i * n + j] = v->slow_link[j * n + i] = (unsigned char)why;
            v->nslow_links += why != 0;
        }
}

enum p2pb_status p2pb_survey_verdict(const struct p2pb_survey_matrix *m,
                                     const struct p2pb_outlier_rule *rule,
                                     struct p2pb_survey_verdict *v)
{
    size_t n = m->n, np = n * (n - (n > 0)) / 2 + 1;
    memset(v, 0, sizeof *v);
    v->node_lat = calloc(n + 1, sizeof *v->node_lat);
    v->node_bw = calloc(n + 1, sizeof *v->node_bw);
    v->slow_node = calloc(n + 1, 1);
    v->slow_link = calloc(n * n + 1, 1);
    double *lat = calloc(np + n, sizeof *lat), *bw = calloc(np, sizeof *bw);
    enum p2pb_status st = P2PB_ENOMEM;
    if (v->node_lat && v->node_bw && v->slow_node && v->slow_link && lat && bw) {
        v->lat_median = v->bw_median = NAN;
        v->node_lat_above = v->node_bw_below = v->link_lat_above = v->link_bw_below = NAN;
        node_values(m, v, lat);
        find_slow_nodes(m, rule, v);
        find_slow_links(m, rule, v, lat, bw);
        st = P2PB_OK;
    }
    free(lat);
    free(bw);
    return st;
}

void p2pb_survey_verdict_free(struct p2pb_survey_verdict *v)
{
    free(v->node_lat);
    free(v->node_bw);
    free(v->slow_node);
    free(v->slow_link);
    memset(v, 0, sizeof *v);
}
