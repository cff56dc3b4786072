/* SPDX-License-Identifier: MIT */
/*
 * Statistics for comparing groups of launches: exact Mann-Whitney U,
 * Hodges-Lehmann ratio, Holm and Benjamini-Hochberg adjustments.
 * Formulas and sources are in src/report/compare.h.
 */
#include "compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

enum p2pb_status p2pb_mwu_cdf(size_t m, size_t n, double *cdf)
{
    if (m == 0 || n == 0 || !cdf)
        return P2PB_EUSAGE;
    if (m > P2PB_MWU_MAX_MN / n)
        return P2PB_ERANGE;
    size_t top = m * n;
    /* Coefficients of the Gaussian binomial [m+n choose m]_q, built as
     * [n+k choose k]_q for k = 1..m: multiply by (1 - q^(n+k)), then divide
     * by (1 - q^k). After each full step all coefficients are counts >= 0.
     * Division by (1 - q^k): if P = Q (1 - q^k) then Q[u] = P[u] + Q[u-k]. */
    /* the product before a division reaches degree n*(k-1) + n + k <= top + m */
    double *c = calloc(top + m + 1, sizeof *c);
    if (!c)
        return P2PB_ENOMEM;
    c[0] = 1.0; /* [n choose 0]_q = 1 */
    size_t deg = 0;
    for (size_t k = 1; k <= m; k++) {
        size_t s = n + k;
        size_t ndeg = deg + s;
        /* multiply by (1 - q^s), from the top down */
        for (size_t u = ndeg; u >= s; u--) {
            c[u] -= c[u - s];
            if (u == s)
                break;
        }
        /* divide by (1 - q^k), from the bottom up */
        for (size_t u = k; u <= ndeg; u++)
            c[u] += c[u - k];
        deg = ndeg - k; /* degree of [n+k choose k]_q is n*k */
    }
    double total = 0.0;
    for (size_t u = 0; u <= top; u++) {
        if (c[u] < 0.0) /* rounding noise for very large m, n */
            c[u] = 0.0;
        total += c[u];
    }
    double run = 0.0;
    for (size_t u = 0; u <= top; u++) {
        run += c[u];
        cdf[u] = run / total;
    }
    cdf[top] = 1.0;
    free(c);
    return P2PB_OK;
}

static int bad_values(const double *x, size_t n, int need_positive)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i]) || (need_positive && !(x[i] > 0.0)))
            return 1;
    return 0;
}

/* P0(U' <= u) from a cdf array; u may be negative. */
static double cdf_at(const double *cdf, size_t top, double u)
{
    if (u < 0.0)
        return 0.0;
    if (u >= (double)top)
        return 1.0;
    return cdf[(size_t)u];
}

enum p2pb_status p2pb_mwu_test(const double *a, size_t m, const double *b, size_t n, double *u_out,
                               double *p_out)
{
    if (!a || !b || m == 0 || n == 0 || bad_values(a, m, 0) || bad_values(b, n, 0))
        return P2PB_EUSAGE;
    if (m > P2PB_MWU_MAX_MN / n)
        return P2PB_ERANGE;
    /* 2U as an integer, to keep half-integers exact */
    size_t twice_u = 0;
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++)
            twice_u += a[i] < b[j] ? 2u : a[i] == b[j] ? 1u : 0u;
    size_t top = m * n;
    double *cdf = malloc((top + 1) * sizeof *cdf);
    if (!cdf)
        return P2PB_ENOMEM;
    enum p2pb_status st = p2pb_mwu_cdf(m, n, cdf);
    if (st != P2PB_OK) {
        free(cdf);
        return st;
    }
    double u = (double)twice_u / 2.0;
    /* lower tail P(U' <= ceil u); upper tail P(U' >= floor u) = 1 - P(U' <= floor u - 1) */
    double lo = cdf_at(cdf, top, ceil(u));
    double hi = 1.0 - cdf_at(cdf, top, floor(u) - 1.0);
    double p = 2.0 * (lo < hi ? lo : hi);
    if (p > 1.0)
        p = 1.0;
    free(cdf);
    if (u_out)
        *u_out = u;
    if (p_out)
        *p_out = p;
    return P2PB_OK;
}

enum p2pb_status p2pb_hl_ratio(const double *a, size_t m, const double *b, size_t n, double alpha,
                               struct p2pb_hl_ratio *out)
{
    if (!a || !b || !out || m == 0 || n == 0 || bad_values(a, m, 1) || bad_values(b, n, 1) ||
        !(alpha > 0.0 && alpha < 1.0))
        return P2PB_EUSAGE;
    if (m > P2PB_MWU_MAX_MN / n)
        return P2PB_ERANGE;
    size_t mn = m * n;
    double *d = malloc(mn * sizeof *d);
    double *cdf = malloc((mn + 1) * sizeof *cdf);
    if (!d || !cdf) {
        free(d);
        free(cdf);
        return P2PB_ENOMEM;
    }
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++)
            d[i * n + j] = log(b[j]) - log(a[i]);
    qsort(d, mn, sizeof *d, cmp_double);
    double med = (mn % 2) ? d[mn / 2] : 0.5 * (d[mn / 2 - 1] + d[mn / 2]);
    memset(out, 0, sizeof *out);
    out->ratio = exp(med);
    enum p2pb_status st = p2pb_mwu_cdf(m, n, cdf);
    if (st == P2PB_OK) {
        /* k = largest integer >= 1 with P0(U <= k - 1) <= alpha / 2 (1e-12 slack
         * for rounding); CI = [D_(k), D_(mn+1-k)], 1-based. */
        size_t k = 0;
        while (k < mn && cdf[k] <= alpha / 2.0 + 1e-12)
            k++;
        if (k >= 1 && k <= mn + 1 - k) {
            out->ci_valid = 1;
            out->ci_low = exp(d[k - 1]);
            out->ci_high = exp(d[mn - k]);
            out->ci_level = 1.0 - 2.0 * cdf[k - 1];
        }
    }
    free(d);
    free(cdf);
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
