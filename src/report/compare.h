/* SPDX-License-Identifier: MIT */
/*
 * compare.h - statistics for comparing two groups of launches (docs/methodology.md,
 * "Across launches"). Pure functions: no MPI, no I/O, no globals.
 *
 * The unit of replication is a launch: each side of a comparison is an array
 * of per-launch values (a launch median time in usec, or a launch throughput
 * in MB/s = 10^6 B/s). Nothing here knows which; callers pass positive values.
 *
 * Sources:
 *  - Mann-Whitney U and its exact null distribution: Mann & Whitney (1947);
 *    Hollander & Wolfe, "Nonparametric Statistical Methods" (2nd ed., 1999),
 *    sec. 4.1. The distribution is counted through the generating function
 *    of U, the Gaussian binomial coefficient
 *        sum_u N(u) q^u = prod_{k=1..m} (1 - q^(n+k)) / (1 - q^k),
 *    where N(u) is the number of the C(m+n, m) equally likely arrangements
 *    with U = u (Andrews, "The Theory of Partitions", 1976, ch. 3).
 *  - Hodges-Lehmann shift estimate and its distribution-free CI: Hodges &
 *    Lehmann (1963); Hollander & Wolfe sec. 4.2. We estimate a ratio B/A by
 *    working on log values: HL = median_{i,j} (log b_j - log a_i), ratio =
 *    exp(HL); CI = exp of the order statistics D_(k), D_(mn+1-k) of the mn
 *    pairwise differences, k = largest integer with P0(U <= k - 1) <= alpha/2.
 *  - Holm (1979) step-down and Benjamini-Hochberg (1995) step-up adjustments
 *    of p-values (the "adjusted p" form of R's p.adjust).
 */
#ifndef P2PBENCH_COMPARE_H
#define P2PBENCH_COMPARE_H

#include <stddef.h>

#include "p2pbench/status.h"

/* Fewest launches per side for a verdict: with 4 vs 4 the smallest exact
 * two-sided p is 2 / C(8,4) = 0.0286 < 0.05; with 3 vs 3 it is 0.1. */
#define P2PB_COMPARE_MIN_LAUNCHES 4

/* Largest m * n for which the exact distribution is counted (memory m*n+1
 * doubles). 1000 launches per side would be 10^6. */
#define P2PB_MWU_MAX_MN 4000000u

/*
 * Exact null distribution of U for sample sizes m, n >= 1, no ties.
 * cdf must hold m*n + 1 doubles; on return cdf[u] = P0(U <= u), u = 0..m*n.
 * Returns P2PB_OK, P2PB_EUSAGE (m or n is 0, cdf NULL), P2PB_ENOMEM or P2PB_ERANGE
 * (m*n > P2PB_MWU_MAX_MN).
 */
enum p2pb_status p2pb_mwu_cdf(size_t m, size_t n, double *cdf);

/*
 * Mann-Whitney test of a[0..m-1] against b[0..n-1] (any order, unmodified).
 * U = #{(i,j): a_i < b_j} + 1/2 #{(i,j): a_i == b_j}, in [0, m*n].
 * Two-sided exact p = min(1, 2 min(P0(U' <= U), P0(U' >= U))), U' the
 * no-ties null statistic.
 * Ties: U counts a tie as 1/2 (so U may be a half-integer). The p-value still
 * uses the no-ties exact distribution, and a half-integer U is rounded toward
 * the centre of the distribution before the tail is read (P0(U' <= ceil U)
 * for the lower tail, P0(U' >= floor U) for the upper): conservative, never
 * smaller than the p of any tie-breaking. Identical groups therefore get p = 1.
 * Outputs may be NULL. Returns P2PB_OK, P2PB_EUSAGE (m or n is 0, NULL data,
 * non-finite value), P2PB_ERANGE (m*n too large), P2PB_ENOMEM.
 */
enum p2pb_status p2pb_mwu_test(const double *a, size_t m, const double *b, size_t n, double *u_out,
                               double *p_out);

/* Hodges-Lehmann ratio B/A with a CI (see the header comment). */
struct p2pb_hl_ratio {
    double ratio;  /* exp(median of log b_j - log a_i) */
    int ci_valid;  /* 0 when the sample sizes are too small for the level */
    double ci_low; /* ratio CI, exact coverage >= ci_level */
    double ci_high;
    double ci_level; /* actual coverage 1 - 2 P0(U <= k - 1), e.g. 0.971 for 4 vs 4 */
};

/*
 * Hodges-Lehmann estimate of the ratio B/A at confidence 1 - alpha (alpha in
 * (0, 1), 0.05 for a 95% CI). a[0..m-1], b[0..n-1] must be > 0 and finite.
 * Returns P2PB_OK, P2PB_EUSAGE (empty side, value <= 0 or not finite, bad
 * alpha), P2PB_ERANGE (m*n too large), P2PB_ENOMEM.
 */
enum p2pb_status p2pb_hl_ratio(const double *a, size_t m, const double *b, size_t n, double alpha,
                               struct p2pb_hl_ratio *out);

/*
 * Holm step-down adjustment of p[0..k-1] into adj[0..k-1] (same order; may be
 * the same array): sort ascending p_(1) <= ... <= p_(k), then
 *   adj_(i) = max_{j <= i} min(1, (k - j + 1) p_(j)).
 * Controls the family-wise error rate. Returns P2PB_OK, P2PB_EUSAGE (NULL),
 * P2PB_ENOMEM.
 */
enum p2pb_status p2pb_p_adjust_holm(const double *p, size_t k, double *adj);

/*
 * Benjamini-Hochberg step-up adjustment (false discovery rate):
 *   adj_(i) = min_{j >= i} min(1, k / j * p_(j)).
 * Same conventions as p2pb_p_adjust_holm.
 */
enum p2pb_status p2pb_p_adjust_bh(const double *p, size_t k, double *adj);

enum p2pb_verdict {
    P2PB_VERDICT_NONE,        /* fewer than P2PB_COMPARE_MIN_LAUNCHES on a side */
    P2PB_VERDICT_CHANGED,     /* adjusted p < 0.05 and CI wholly outside [1-d, 1+d] */
    P2PB_VERDICT_EQUIVALENT,  /* CI wholly inside [1-d, 1+d] */
    P2PB_VERDICT_INCONCLUSIVE /* otherwise */
};

/* "no verdict", "changed", "equivalent", "inconclusive". */
const char *p2pb_verdict_str(enum p2pb_verdict v);

/*
 * Verdict of one row (docs/methodology.md): m, n launches per side, adjusted p,
 * the ratio CI (hl->ci_valid must be 1 for anything but inconclusive), and the
 * threshold d as a fraction (0.05 for 5%).
 */
enum p2pb_verdict p2pb_compare_verdict(size_t m, size_t n, double p_adj,
                                       const struct p2pb_hl_ratio *hl, double d);

#endif /* P2PBENCH_COMPARE_H */
