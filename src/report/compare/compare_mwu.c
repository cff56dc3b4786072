/* SPDX-License-Identifier: MIT */
/*
 * The Mann-Whitney U test (compare.h): the null distribution of U, exact
 * (counted in exact integer arithmetic) while that is cheap, the normal
 * approximation beyond; U and the tie groups from sorted copies of the two
 * sides; the two-sided p. Formulas and sources are in src/report/compare/compare.h.
 */
#include "compare/compare.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int p2pb_mwu_exact(size_t m, size_t n)
{
    double lo = (double)(m < n ? m : n);
    return m && n && lo * (double)m * (double)n <= (double)P2PB_MWU_EXACT_MAX_WORK;
}

/* x += y and x -= y on w-limb unsigned integers modulo 2^(64 w), limb 0 lowest. */
static void limbs_add(uint64_t *x, const uint64_t *y, size_t w)
{
    uint64_t carry = 0;
    for (size_t l = 0; l < w; l++) {
        uint64_t s = x[l] + y[l];
        uint64_t c = s < y[l];
        x[l] = s + carry;
        carry = c | (x[l] < carry); /* c and a second carry never both happen */
    }
}

static void limbs_sub(uint64_t *x, const uint64_t *y, size_t w)
{
    uint64_t borrow = 0;
    for (size_t l = 0; l < w; l++) {
        uint64_t d = x[l] - y[l];
        uint64_t b = x[l] < y[l];
        x[l] = d - borrow;
        borrow = b | (d < borrow);
    }
}

/* The value of a w-limb integer as a double (relative error a few units of 2^-53). */
static double limbs_double(const uint64_t *x, size_t w)
{
    double v = 0.0;
    for (size_t l = w; l-- > 0;)
        v = v * 0x1p64 + (double)x[l];
    return v;
}

/*
 * The counts N(u), u = 0..half (half = floor(m n / 2)), of the C(m+n, m)
 * arrangements with U = u, into c[u * w .. u * w + w - 1], m <= n: the
 * coefficients of the Gaussian binomial [m+n choose m]_q built as
 * [n+k choose k]_q = [n+k-1 choose k-1]_q (1 - q^(n+k)) / (1 - q^k), k = 1..m
 * (Harding, Appl. Statist. 33, 1984). Multiplying by (1 - q^s) subtracts,
 * so in floating point it cancels once the counts pass 2^53; here every
 * step is in integers modulo 2^(64 w). Reduction modulo 2^(64 w) respects
 * sums and differences, and the final counts lie in [0, C(m+n, m)) with
 * C(m+n, m) < 2^(64 w), so they come out exact whatever the intermediate
 * values were. A coefficient depends only on coefficients of lower degree,
 * so cutting every polynomial at degree half changes none of 0..half.
 * c holds (half + 1) w zeros on entry.
 */
static void harding_counts(size_t m, size_t n, size_t half, size_t w, uint64_t *c)
{
    c[0] = 1;       /* [n choose 0]_q = 1 */
    size_t deg = 0; /* degree of [n+k-1 choose k-1]_q, cut at half */
    for (size_t k = 1; k <= m; k++) {
        size_t s = n + k;
        size_t top = deg + s < half ? deg + s : half;
        /* multiply by (1 - q^s), from the top down: c[u] -= c[u - s] */
        for (size_t u = top; u >= s && u <= top; u--)
            limbs_sub(c + u * w, c + (u - s) * w, w);
        /* divide by (1 - q^k), from the bottom up: if P = Q (1 - q^k), Q[u] = P[u] + Q[u - k] */
        for (size_t u = k; u <= top; u++)
            limbs_add(c + u * w, c + (u - k) * w, w);
        deg = n * k < half ? n * k : half; /* [n+k choose k]_q has degree n k */
    }
}

/* Exact P0(U <= u), u = 0..floor(m n / 2), into lower[]: the counts of
 * harding_counts, summed (exactly) and divided by their total C(m+n, m). */
static enum p2pb_status exact_lower(size_t m, size_t n, double *lower)
{
    if (m > n) { /* [m+n choose m]_q = [m+n choose n]_q: fewer steps with m the smaller */
        size_t t = m;
        m = n;
        n = t;
    }
    size_t mn = m * n, half = mn / 2;
    /* log2 C(m+n, m), one bit of margin for lgamma's rounding: w limbs hold C(m+n, m) */
    double bits =
        (lgamma((double)(m + n) + 1) - lgamma((double)m + 1) - lgamma((double)n + 1)) / log(2.0);
    size_t w = (size_t)((bits + 1.0) / 64.0) + 1;
    uint64_t *c = calloc((half + 1) * w, sizeof *c);
    uint64_t *total = calloc(w, sizeof *total);
    if (!c || !total) {
        free(c);
        free(total);
        return P2PB_ENOMEM;
    }
    harding_counts(m, n, half, w, c);
    /* running sums in place; the total counts u and m n - u (symmetry), the centre once */
    for (size_t u = 0; u <= half; u++) {
        limbs_add(total, c + u * w, w);
        if (2 * u != mn)
            limbs_add(total, c + u * w, w);
        if (u)
            limbs_add(c + u * w, c + (u - 1) * w, w);
    }
    double t = limbs_double(total, w);
    for (size_t u = 0; u <= half; u++)
        lower[u] = limbs_double(c + u * w, w) / t;
    free(c);
    free(total);
    return P2PB_OK;
}

void p2pb_mwu_null_free(struct p2pb_mwu_null *d)
{
    if (!d)
        return;
    free(d->lower);
    memset(d, 0, sizeof *d);
}

enum p2pb_status p2pb_mwu_null_init(struct p2pb_mwu_null *d, size_t m, size_t n)
{
    if (!d || m == 0 || n == 0)
        return P2PB_EUSAGE;
    if (d->m == m && d->n == n)
        return P2PB_OK; /* already the distribution of (m, n) */
    p2pb_mwu_null_free(d);
    if (m > SIZE_MAX / 2 / n)
        return P2PB_ERANGE;
    double mn = (double)m * (double)n;
    d->sd = sqrt(mn * (double)(m + n + 1) / 12.0);
    d->exact = p2pb_mwu_exact(m, n);
    if (d->exact) {
        d->lower = malloc((m * n / 2 + 1) * sizeof *d->lower);
        enum p2pb_status st = d->lower ? exact_lower(m, n, d->lower) : P2PB_ENOMEM;
        if (st != P2PB_OK) {
            p2pb_mwu_null_free(d);
            return st;
        }
    }
    d->m = m;
    d->n = n;
    return P2PB_OK;
}

double p2pb_mwu_null_cdf(const struct p2pb_mwu_null *d, double u)
{
    size_t mn = d->m * d->n;
    u = floor(u);
    if (u < 0.0)
        return 0.0;
    if (u >= (double)mn)
        return 1.0;
    if (!d->exact) /* Phi((u + 1/2 - m n / 2) / sd) */
        return 0.5 * erfc(((double)mn / 2.0 - u - 0.5) / (d->sd * sqrt(2.0)));
    size_t iu = (size_t)u;
    /* upper half by symmetry: P0(U <= u) = 1 - P0(U >= u + 1) = 1 - P0(U <= m n - u - 1) */
    return iu <= mn / 2 ? d->lower[iu] : 1.0 - d->lower[mn - iu - 1];
}

enum p2pb_status p2pb_mwu_cdf(size_t m, size_t n, double *cdf)
{
    if (m == 0 || n == 0 || !cdf)
        return P2PB_EUSAGE;
    if (!p2pb_mwu_exact(m, n))
        return P2PB_ERANGE;
    struct p2pb_mwu_null d = {0};
    enum p2pb_status st = p2pb_mwu_null_init(&d, m, n);
    for (size_t u = 0; st == P2PB_OK && u <= m * n; u++)
        cdf[u] = p2pb_mwu_null_cdf(&d, (double)u);
    p2pb_mwu_null_free(&d);
    return st;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static int bad_values(const double *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i]))
            return 1;
    return 0;
}

/*
 * 2U and the tie term sum(t^3 - t) over the groups of equal values of the
 * pooled sample, from sa[0..m-1] and sb[0..n-1] sorted ascending: one merge.
 * For each value v, every b equal to v counts the a's below v (those already
 * passed) once and the a's equal to v one half each.
 */
static void rank_walk(const double *sa, size_t m, const double *sb, size_t n, size_t *twice_u,
                      double *ties)
{
    size_t i = 0, j = 0;
    *twice_u = 0;
    *ties = 0.0;
    while (i < m || j < n) {
        double v = j == n || (i < m && sa[i] < sb[j]) ? sa[i] : sb[j];
        size_t ca = 0, cb = 0;
        while (i + ca < m && sa[i + ca] == v)
            ca++;
        while (j + cb < n && sb[j + cb] == v)
            cb++;
        *twice_u += cb * (2 * i + ca);
        double t = (double)(ca + cb);
        *ties += t * t * t - t;
        i += ca;
        j += cb;
    }
}

/* Two-sided p of U = u from d: exact, or normal with the tie term (compare.h). */
static double two_sided_p(const struct p2pb_mwu_null *d, double u, double ties)
{
    double mn = (double)d->m * (double)d->n;
    if (d->exact) {
        /* lower tail P0(U' <= ceil u); upper P0(U' >= floor u) = P0(U' <= m n - floor u) */
        double lo = p2pb_mwu_null_cdf(d, ceil(u));
        double hi = p2pb_mwu_null_cdf(d, mn - floor(u));
        return fmin(1.0, 2.0 * fmin(lo, hi));
    }
    double big_n = (double)(d->m + d->n);
    double var = mn / 12.0 * ((big_n + 1.0) - ties / (big_n * (big_n - 1.0)));
    double dev = fabs(u - mn / 2.0) - 0.5; /* continuity correction */
    if (!(dev > 0.0) || !(var > 0.0))
        return 1.0;
    return fmin(1.0, erfc(dev / sqrt(2.0 * var)));
}

enum p2pb_status p2pb_mwu_test_null(const struct p2pb_mwu_null *d, const double *a, const double *b,
                                    double *u_out, double *p_out)
{
    if (!d || !a || !b || d->m == 0 || d->n == 0 || bad_values(a, d->m) || bad_values(b, d->n))
        return P2PB_EUSAGE;
    size_t m = d->m, n = d->n;
    double *s = malloc((m + n) * sizeof *s);
    if (!s)
        return P2PB_ENOMEM;
    memcpy(s, a, m * sizeof *s);
    memcpy(s + m, b, n * sizeof *s);
    qsort(s, m, sizeof *s, cmp_double);
    qsort(s + m, n, sizeof *s, cmp_double);
    size_t twice_u; /* 2U as an integer keeps half-integers exact */
    double ties;
    rank_walk(s, m, s + m, n, &twice_u, &ties);
    free(s);
    double u = (double)twice_u / 2.0;
    if (u_out)
        *u_out = u;
    if (p_out)
        *p_out = two_sided_p(d, u, ties);
    return P2PB_OK;
}

enum p2pb_status p2pb_mwu_test(const double *a, size_t m, const double *b, size_t n, double *u_out,
                               double *p_out)
{
    if (!a || !b || m == 0 || n == 0 || bad_values(a, m) || bad_values(b, n))
        return P2PB_EUSAGE;
    struct p2pb_mwu_null d = {0};
    enum p2pb_status st = p2pb_mwu_null_init(&d, m, n);
    if (st == P2PB_OK)
        st = p2pb_mwu_test_null(&d, a, b, u_out, p_out);
    p2pb_mwu_null_free(&d);
    return st;
}
