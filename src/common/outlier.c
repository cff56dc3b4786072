/* SPDX-License-Identifier: MIT */
/* outlier.c - median + k MAD and a minimum fraction; see outlier.h. */
#include "outlier.h"

#include <math.h>
#include <stdlib.h>

#include "p2pbench/stats.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median and scaled MAD of the finite values of x; P2PB_EUSAGE below 3. */
static enum p2pb_status median_mad(const double *x, size_t n, double *median, double *mad)
{
    double *v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        return P2PB_ENOMEM;
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(x[i]))
            v[m++] = x[i];
    if (m < 3) {
        free(v);
        return P2PB_EUSAGE;
    }
    qsort(v, m, sizeof *v, cmp_double);
    double med = p2pb_quantile_sorted(v, m, 0.5);
    for (size_t i = 0; i < m; i++)
        v[i] = fabs(v[i] - med);
    qsort(v, m, sizeof *v, cmp_double);
    double s = P2PB_MAD_SCALE * p2pb_quantile_sorted(v, m, 0.5);
    free(v);
    *median = med;
    *mad = s;
    return P2PB_OK;
}

enum p2pb_status p2pb_outlier_bounds(const double *x, size_t n,
                                     const struct p2pb_outlier_rule *rule, double *median,
                                     double *mad, double *slow_above, double *slow_below)
{
    enum p2pb_status st = median_mad(x, n, median, mad);
    if (st != P2PB_OK)
        return st;
    *slow_above = fmax(*median + rule->k * *mad, *median * (1.0 + rule->min_off));
    *slow_below = fmin(*median - rule->k * *mad, *median * (1.0 - rule->min_off));
    return P2PB_OK;
}

enum p2pb_status p2pb_outlier_bounds_log(const double *x, size_t n,
                                         const struct p2pb_outlier_rule *rule, double *median,
                                         double *mad, double *slow_above, double *slow_below)
{
    enum p2pb_status st = median_mad(x, n, median, mad);
    if (st != P2PB_OK)
        return st;
    *slow_above = *median + fmax(rule->k * *mad, log1p(rule->min_off));
    *slow_below = *median - fmax(rule->k * *mad, -log1p(-rule->min_off));
    return P2PB_OK;
}
