/* SPDX-License-Identifier: MIT */
/*
 * Statistics for comparing groups of launches: the Hodges-Lehmann ratio and
 * its CI, Holm and Benjamini-Hochberg adjustments (the Mann-Whitney test:
 * compare_mwu.c).
 * Formulas and sources are in src/report/compare/compare.h.
 */
#include "compare/compare.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static int bad_values(const double *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i]) || !(x[i] > 0.0))
            return 1;
    return 0;
}

/* #{(i, j): lb[j] - la[i] <= x}, la[0..m-1] and lb[0..n-1] ascending. For each
 * i the j with lb[j] - la[i] <= x form a prefix, no shorter for a larger i
 * (rounded subtraction is monotone in each operand): one pass, O(m + n). */
static size_t count_le(const double *la, size_t m, const double *lb, size_t n, double x)
{
    size_t c = 0, j = 0;
    for (size_t i = 0; i < m; i++) {
        while (j < n && lb[j] - la[i] <= x)
            j++;
        c += j;
    }
    return c;
}

/* Doubles as unsigned integers in their numeric order (-0 just below +0), and back. */
static uint64_t order_key(double x)
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    return (b >> 63) ? ~b : b | (UINT64_C(1) << 63);
}

static double key_double(uint64_t k)
{
    uint64_t b = (k >> 63) ? k & ~(UINT64_C(1) << 63) : ~k;
    double x;
    memcpy(&x, &b, sizeof x);
    return x;
}

/*
 * The k-th smallest (1-based, 1 <= k <= m n) of the m n differences
 * lb[j] - la[i] without forming them: the smallest double x with
 * count_le(x) >= k, found by bisection over the doubles (order_key) between
 * the smallest difference lb[0] - la[m-1] and the largest lb[n-1] - la[0].
 * That x is one of the differences (a difference of +0 may come back as -0,
 * the same number); at most 64 halvings of O(m + n) each, O(1) extra
 * memory (a 3000 x 3000 row would need 72 MB to hold its differences).
 */
static double select_diff(const double *la, size_t m, const double *lb, size_t n, size_t k)
{
    uint64_t lo = order_key(lb[0] - la[m - 1]), hi = order_key(lb[n - 1] - la[0]);
    if (count_le(la, m, lb, n, key_double(lo)) >= k)
        return key_double(lo);
    /* count_le(lo) < k <= count_le(hi) */
    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (count_le(la, m, lb, n, key_double(mid)) >= k)
            hi = mid;
        else
            lo = mid;
    }
    return key_double(hi);
}

/* The CI's order-statistic index k of the null d at level 1 - alpha (0: no CI),
 * and the coverage 1 - 2 P0(U <= k - 1) it has (compare.h). */
static size_t ci_index(const struct p2pb_mwu_null *d, double alpha, double *level)
{
    size_t mn = d->m * d->n, k = 0;
    if (d->exact) {
        /* largest k with P0(U <= k - 1) <= alpha / 2 (1e-12 slack for rounding);
         * alpha / 2 < 1/2, so k - 1 lies in the lower half */
        while (k <= mn / 2 && d->lower[k] <= alpha / 2.0 + 1e-12)
            k++;
    } else {
        /* P0(U <= k - 1) ~ Phi((k - 1/2 - mn/2) / sd) <= alpha / 2:
         * k = floor(mn/2 + 1/2 - z sd), z = z_{1 - alpha/2} */
        double z = p2pb_t_quantile(1.0 - alpha / 2.0, INFINITY);
        double kd = floor((double)mn / 2.0 + 0.5 - z * d->sd);
        k = kd >= 1.0 ? (size_t)kd : 0;
    }
    if (k < 1 || k > mn + 1 - k)
        return 0;
    *level = 1.0 - 2.0 * p2pb_mwu_null_cdf(d, (double)(k - 1));
    return k;
}

enum p2pb_status p2pb_hl_ratio_null(const struct p2pb_mwu_null *d, const double *a, const double *b,
                                    double alpha, struct p2pb_hl_ratio *out)
{
    if (!d || !a || !b || !out || d->m == 0 || d->n == 0 || bad_values(a, d->m) ||
        bad_values(b, d->n) || !(alpha > 0.0 && alpha < 1.0))
        return P2PB_EUSAGE;
    size_t m = d->m, n = d->n, mn = m * n;
    double *la = malloc((m + n) * sizeof *la), *lb = la + m;
    if (!la)
        return P2PB_ENOMEM;
    for (size_t i = 0; i < m; i++)
        la[i] = log(a[i]);
    for (size_t j = 0; j < n; j++)
        lb[j] = log(b[j]);
    qsort(la, m, sizeof *la, cmp_double);
    qsort(lb, n, sizeof *lb, cmp_double);
    /* median of the differences: D_((mn+1)/2), or the mean of D_(mn/2) and D_(mn/2+1) */
    double med =
        (mn % 2)
            ? select_diff(la, m, lb, n, mn / 2 + 1)
            : 0.5 * (select_diff(la, m, lb, n, mn / 2) + select_diff(la, m, lb, n, mn / 2 + 1));
    memset(out, 0, sizeof *out);
    out->ratio = exp(med);
    /* CI = [D_(k), D_(mn+1-k)], 1-based */
    size_t k = ci_index(d, alpha, &out->ci_level);
    if (k) {
        out->ci_valid = 1;
        out->ci_low = exp(select_diff(la, m, lb, n, k));
        out->ci_high = exp(select_diff(la, m, lb, n, mn + 1 - k));
    }
    free(la);
    return P2PB_OK;
}

enum p2pb_status p2pb_hl_ratio(const double *a, size_t m, const double *b, size_t n, double alpha,
                               struct p2pb_hl_ratio *out)
{
    if (!a || !b || !out || m == 0 || n == 0)
        return P2PB_EUSAGE;
    struct p2pb_mwu_null d = {0};
    enum p2pb_status st = p2pb_mwu_null_init(&d, m, n);
    if (st == P2PB_OK)
        st = p2pb_hl_ratio_null(&d, a, b, alpha, out);
    p2pb_mwu_null_free(&d);
    return st;
}

/* Indices 0..k-1 ordered by ascending p (stable for equal p). */
static size_t *order_by_p(const double *p, size_t k)
{
    size_t *idx = malloc((k ? k : 1) * sizeof *idx);
    if (!idx)
        return NULL;
    for (size_t i = 0; i < k; i++)
        idx[i] = i;
    /* insertion sort: k is the number of table rows (tens to hundreds) */
    for (size_t i = 1; i < k; i++) {
        size_t v = idx[i], j = i;
        while (j > 0 && p[idx[j - 1]] > p[v]) {
            idx[j] = idx[j - 1];
            j--;
        }
        idx[j] = v;
    }
    return idx;
}

/* Holm (step-down, running maximum from the smallest p) or Benjamini-Hochberg
 * (step-up, running minimum from the largest p) on p[0..k-1] into adj[0..k-1].
 * Each p[idx[r]] is read before adj[idx[r]] is written, so adj may be p. */
static enum p2pb_status p_adjust(const double *p, size_t k, double *adj, int holm)
{
    if ((!p || !adj) && k)
        return P2PB_EUSAGE;
    size_t *idx = order_by_p(p, k);
    if (!idx)
        return P2PB_ENOMEM;
    if (holm) {
        double run = 0.0;
        for (size_t r = 0; r < k; r++) {
            double v = fmin(1.0, (double)(k - r) * p[idx[r]]);
            run = fmax(run, v);
            adj[idx[r]] = run;
        }
    } else {
        double run = 1.0;
        for (size_t r = k; r-- > 0;) {
            run = fmin(run, (double)k / (double)(r + 1) * p[idx[r]]);
            adj[idx[r]] = run;
        }
    }
    free(idx);
    return P2PB_OK;
}

enum p2pb_status p2pb_p_adjust_holm(const double *p, size_t k, double *adj)
{
    return p_adjust(p, k, adj, 1);
}

enum p2pb_status p2pb_p_adjust_bh(const double *p, size_t k, double *adj)
{
    return p_adjust(p, k, adj, 0);
}

static const char *const verdict_names[] = {"no verdict", "changed", "equivalent", "inconclusive"};

const char *p2pb_verdict_str(enum p2pb_verdict v)
{
    if ((unsigned)v >= sizeof verdict_names / sizeof verdict_names[0])
        return "unknown";
    return verdict_names[v];
}
