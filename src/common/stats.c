/* SPDX-License-Identifier: MIT */
#include "p2pbench/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* log of the binomial coefficient C(n, k). */
static double log_choose(size_t n, size_t k)
{
    return lgamma((double)n + 1.0) - lgamma((double)k + 1.0) - lgamma((double)(n - k) + 1.0);
}

enum p2pb_status p2pb_median_ci_ranks(size_t n, size_t *lo, size_t *hi)
{
    if (n < P2PB_CI_MIN_N)
        return P2PB_ERANGE;
    if (n < 50) {
        /* Largest j with P(B <= j - 1) <= 0.025, B ~ Binomial(n, 1/2):
         * then P(x_(j) <= median <= x_(n-j+1)) >= 0.95. */
        double cum = 0.0;
        size_t j = 0;
        for (size_t i = 0; i < n; i++) {
            cum += exp(log_choose(n, i) - (double)n * log(2.0));
            if (cum > 0.025 + 1e-12)
                break;
            j = i + 1;
        }
        if (j < 1)
            j = 1;
        *lo = j;
        *hi = n - j + 1;
        return P2PB_OK;
    }
    double s = 1.96 * sqrt((double)n);
    double l = floor(((double)n - s) / 2.0);
    double h = ceil(1.0 + ((double)n + s) / 2.0);
    if (l < 1)
        l = 1;
    if (h > (double)n)
        h = (double)n;
    *lo = (size_t)l;
    *hi = (size_t)h;
    return P2PB_OK;
}

double p2pb_median_finite(double *v, size_t n)
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

double p2pb_quantile_sorted(const double *sorted, size_t n, double p)
{
    if (n == 1)
        return sorted[0];
    if (p <= 0.0)
        return sorted[0];
    if (p >= 1.0)
        return sorted[n - 1];
    double h = (double)(n - 1) * p;
    size_t i = (size_t)floor(h);
    double frac = h - (double)i;
    if (i + 1 >= n)
        return sorted[n - 1];
    return sorted[i] + frac * (sorted[i + 1] - sorted[i]);
}

enum p2pb_status p2pb_stats_compute(const double *x, size_t n, double *scratch,
                                    struct p2pb_stats *out)
{
    memset(out, 0, sizeof(*out));
    if (n == 0)
        return P2PB_EUSAGE;
    double *s = scratch;
    if (!s) {
        s = malloc(n * sizeof(*s));
        if (!s)
            return P2PB_ENOMEM;
    }
    memcpy(s, x, n * sizeof(*s));
    qsort(s, n, sizeof(*s), cmp_double);

    out->n = n;
    out->min = s[0];
    out->max = s[n - 1];
    out->p25 = p2pb_quantile_sorted(s, n, 0.25);
    out->median = p2pb_quantile_sorted(s, n, 0.5);
    out->p75 = p2pb_quantile_sorted(s, n, 0.75);
    out->p99 = p2pb_quantile_sorted(s, n, 0.99);

    /* Welford's algorithm for a numerically stable mean and variance. */
    double mean = 0.0, m2 = 0.0;
    for (size_t i = 0; i < n; i++) {
        double d = s[i] - mean;
        mean += d / (double)(i + 1);
        m2 += d * (s[i] - mean);
    }
    out->mean = mean;
    out->stddev = n > 1 ? sqrt(m2 / (double)(n - 1)) : 0.0;

    size_t lo, hi;
    if (p2pb_median_ci_ranks(n, &lo, &hi) == P2PB_OK) {
        out->ci_valid = 1;
        out->ci95_low = s[lo - 1];
        out->ci95_high = s[hi - 1];
    }

    double iqr = out->p75 - out->p25;
    double fence_lo = out->p25 - 1.5 * iqr, fence_hi = out->p75 + 1.5 * iqr;
    for (size_t i = 0; i < n; i++)
        if (s[i] < fence_lo || s[i] > fence_hi)
            out->outliers++;

    if (!scratch)
        free(s);
    return P2PB_OK;
}

double p2pb_stats_ci_rel_halfwidth(const struct p2pb_stats *s)
{
    if (!s->ci_valid || !(s->median > 0.0))
        return -1.0;
    return (s->ci95_high - s->ci95_low) / 2.0 / s->median;
}

int p2pb_stats_ci_unbounded(const struct p2pb_stats *s)
{
    if (!s->ci_valid || !(s->median > 0.0))
        return 0;
    return s->ci95_high > P2PB_CI_UNBOUNDED_FACTOR * s->median ||
           s->ci95_low < s->median / P2PB_CI_UNBOUNDED_FACTOR;
}

/* A sample of the change-point test: value and group (0 first third, 1 last). */
struct tagged {
    double v;
    int grp;
};

static int cmp_tagged(const void *a, const void *b)
{
    double x = ((const struct tagged *)a)->v, y = ((const struct tagged *)b)->v;
    return (x > y) - (x < y);
}

/* U of group 1 from the sorted tagged samples t[0..2m-1] (average ranks for
 * ties) and the tie term sum(t^3 - t) into *ties. */
static double mann_whitney_u(const struct tagged *t, size_t m, double *ties)
{
    double r1 = 0.0;
    *ties = 0.0;
    for (size_t i = 0; i < 2 * m;) {
        size_t j = i;
        while (j + 1 < 2 * m && t[j + 1].v == t[i].v)
            j++;
        double avg_rank = ((double)i + (double)j) / 2.0 + 1.0, k = (double)(j - i + 1);
        for (size_t q = i; q <= j; q++)
            if (t[q].grp)
                r1 += avg_rank;
        *ties += k * k * k - k;
        i = j + 1;
    }
    return r1 - (double)m * ((double)m + 1.0) / 2.0;
}

/* The medians of the thirds into out. */
static enum p2pb_status third_medians(const double *x, size_t n, size_t m, struct p2pb_shift *out)
{
    struct p2pb_stats a, b;
    enum p2pb_status st = p2pb_stats_compute(x, m, NULL, &a);
    if (st == P2PB_OK)
        st = p2pb_stats_compute(x + n - m, m, NULL, &b);
    if (st != P2PB_OK)
        return st;
    out->first_median = a.median;
    out->last_median = b.median;
    out->rel_shift = a.median != 0.0 ? (b.median - a.median) / a.median : 0.0;
    return P2PB_OK;
}

enum p2pb_status p2pb_change_point(const double *x, size_t n, double alpha, double min_rel_shift,
                                   struct p2pb_shift *out)
{
    memset(out, 0, sizeof *out);
    out->p = 1.0;
    if (!(alpha > 0.0 && alpha < 1.0) || !(min_rel_shift >= 0.0))
        return P2PB_EUSAGE;
    size_t m = n / 3;
    if (m < P2PB_SHIFT_MIN_THIRD)
        return P2PB_OK;
    struct tagged *t = malloc(2 * m * sizeof *t);
    if (!t)
        return P2PB_ENOMEM;
    for (size_t i = 0; i < m; i++) {
        t[i] = (struct tagged){x[i], 0};
        t[m + i] = (struct tagged){x[n - m + i], 1};
    }
    qsort(t, 2 * m, sizeof *t, cmp_tagged);
    double ties, N = 2.0 * (double)m, mm = (double)m * (double)m;
    out->u = mann_whitney_u(t, m, &ties);
    free(t);
    double var = mm / 12.0 * ((N + 1.0) - ties / (N * (N - 1.0)));
    double d = out->u - mm / 2.0;
    d = d > 0.5 ? d - 0.5 : d < -0.5 ? d + 0.5 : 0.0; /* continuity */
    out->z = var > 0.0 ? d / sqrt(var) : 0.0;
    out->p = erfc(fabs(out->z) / sqrt(2.0));
    out->tested = 1;
    out->third = m;
    enum p2pb_status st = third_medians(x, n, m, out);
    out->flagged = st == P2PB_OK && out->p < alpha && fabs(out->rel_shift) >= min_rel_shift;
    return st;
}
