/* SPDX-License-Identifier: MIT */
/*
 * compare.h - the one header of compare/ (`p2pbench-report compare`, also
 * used by html/ and plot/). Two parts:
 *  - statistics for comparing two groups of launches (docs/methodology.md,
 *    "Across launches"; compare_mwu.c, compare_stats.c, compare_tdist.c,
 *    compare_verdict.c): pure functions, no MPI, no I/O, no globals;
 *  - the comparison of two sides (load.h) built on them: the tables
 *    (compare.c), launch order (compare_order.c), host-context differences
 *    (context_diff.c), and their printing (compare_notes.c,
 *    compare_print.c). Errors follow status.h.
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
 *    with U = u (Andrews, "The Theory of Partitions", 1976, ch. 3), one
 *    factor at a time (Harding, Appl. Statist. 33, 1984), in exact integer
 *    arithmetic (compare_mwu.c).
 *  - Its normal approximation for large samples (Hollander & Wolfe sec. 4.1;
 *    Lehmann, "Nonparametrics", 1975, ch. 1): mean m n / 2, variance
 *        m n / 12 ((N + 1) - sum(t^3 - t) / (N (N - 1))),  N = m + n,
 *    the sum over the groups of t tied values of the pooled sample, and a
 *    continuity correction of 1/2.
 *  - Hodges-Lehmann shift estimate and its distribution-free CI: Hodges &
 *    Lehmann (1963); Hollander & Wolfe sec. 4.2. We estimate a ratio B/A by
 *    working on log values: HL = median_{i,j} (log b_j - log a_i), ratio =
 *    exp(HL); CI = exp of the order statistics D_(k), D_(mn+1-k) of the mn
 *    pairwise differences, k = largest integer with P0(U <= k - 1) <= alpha/2
 *    (Moses' construction, Hollander & Wolfe sec. 4.3); for large samples
 *    k = floor(m n / 2 + 1/2 - z_{1-alpha/2} sqrt(m n (N + 1) / 12)), the
 *    same rule on the continuity-corrected normal approximation. The order
 *    statistics are selected without forming the m n differences (compare_stats.c).
 *  - Holm (1979) step-down and Benjamini-Hochberg (1995) step-up adjustments
 *    of p-values (the "adjusted p" form of R's p.adjust).
 *  - Welch's t-test (Welch, Biometrika 34, 1947) on log launch values with
 *    Satterthwaite's degrees of freedom (Biometrics Bulletin 2, 1946); the
 *    t distribution's tail through the regularized incomplete beta function
 *    (DLMF 8.17.1, 8.17.22; compare_tdist.c).
 *  - Launches per side for 80% power: Chow, Shao & Wang, "Sample Size
 *    Calculations in Clinical Research" (2nd ed., 2008), sec. 3.2 (two-sample
 *    parallel design), with t quantiles in place of z (Julious, Stat. Med.
 *    23, 2004).
 */
#ifndef P2PBENCH_COMPARE_H
#define P2PBENCH_COMPARE_H

#include <stddef.h>
#include <stdio.h>

#include "load.h"
#include "p2pbench/status.h"

/* Fewest launches per side for a verdict: with 4 vs 4 the smallest exact
 * two-sided p is 2 / C(8,4) = 0.0286 < 0.05, so the Mann-Whitney gate can
 * pass; with 3 vs 3 it is 0.1. */
#define P2PB_COMPARE_MIN_LAUNCHES 4

/* The null distribution of U is counted exactly while min(m, n) * m * n is at
 * most this: 100 + 100 launches, 50 + 400, 10 + 10000; the normal
 * approximation beyond. Counting takes min(m, n) steps over floor(m n / 2) + 1
 * counts of w 64-bit words, w = floor((log2 C(m+n, m) + 1) / 64) + 1 <= 4
 * here (log2 C(m+n, m) <= 224): about min(m, n) m n w word operations (4e6 at
 * 100 + 100) and (floor(m n / 2) + 1) (w + 1) 8-byte words of memory (200 KB
 * at 100 + 100, 8 MB at the extreme 1 + 10^6). */
#define P2PB_MWU_EXACT_MAX_WORK 1000000u

/* 1 when the null distribution of U for m, n >= 1 is exact (counted), 0 when
 * it is the normal approximation (or m or n is 0). */
int p2pb_mwu_exact(size_t m, size_t n);

/*
 * The null distribution of U (no ties) for sample sizes m, n. Exact when
 * p2pb_mwu_exact(m, n): lower[u] = P0(U <= u), u = 0..floor(m n / 2), the
 * counts N(u) summed in exact integer arithmetic and divided by C(m+n, m)
 * once (relative error about 1e-16, also far in the tail; a probability
 * below about 1e-308 reads 0). Otherwise lower is NULL and the normal
 * approximation with mean m n / 2 and SD sd is used.
 */
struct p2pb_mwu_null {
    size_t m, n;   /* 0 in a distribution not yet made */
    int exact;     /* 1: lower is exact; 0: normal approximation */
    double *lower; /* exact: floor(m n / 2) + 1 values; else NULL */
    double sd;     /* sqrt(m n (m + n + 1) / 12), the SD of U without ties */
};

/*
 * Make *d the null distribution of (m, n), m, n >= 1. *d must be zeroed
 * before its first use ({0}); when it already holds (m, n) it is kept (a
 * cache for the rows of one table), else freed and remade. Returns P2PB_OK,
 * P2PB_EUSAGE (d NULL, m or n 0), P2PB_ERANGE (2 m n overflows size_t) or
 * P2PB_ENOMEM; *d is zeroed on error.
 */
enum p2pb_status p2pb_mwu_null_init(struct p2pb_mwu_null *d, size_t m, size_t n);
void p2pb_mwu_null_free(struct p2pb_mwu_null *d);

/* P0(U <= floor u) of d: exact, or Phi((floor u + 1/2 - m n / 2) / sd)
 * (continuity-corrected, no ties); 0 below 0, 1 from m n on. */
double p2pb_mwu_null_cdf(const struct p2pb_mwu_null *d, double u);

/*
 * Exact null distribution of U for sample sizes m, n >= 1, no ties.
 * cdf must hold m*n + 1 doubles; on return cdf[u] = P0(U <= u), u = 0..m*n.
 * Returns P2PB_OK, P2PB_EUSAGE (m or n is 0, cdf NULL), P2PB_ENOMEM or
 * P2PB_ERANGE (not p2pb_mwu_exact(m, n)).
 */
enum p2pb_status p2pb_mwu_cdf(size_t m, size_t n, double *cdf);

/*
 * Mann-Whitney test of a[0..m-1] against b[0..n-1] (any order, unmodified).
 * U = #{(i,j): a_i < b_j} + 1/2 #{(i,j): a_i == b_j}, in [0, m*n], counted
 * from sorted copies (O((m + n) log(m + n))).
 * Exact (p2pb_mwu_exact): two-sided p = min(1, 2 min(P0(U' <= U), P0(U' >= U))),
 * U' the no-ties null statistic. Ties: U counts a tie as 1/2 (so U may be a
 * half-integer). The p-value still uses the no-ties exact distribution, and
 * a half-integer U is rounded toward the centre of the distribution before
 * the tail is read (P0(U' <= ceil U) for the lower tail, P0(U' >= floor U)
 * for the upper): conservative, never smaller than the p of any
 * tie-breaking. Identical groups therefore get p = 1.
 * Normal approximation (beyond): z = (|U - m n / 2| - 1/2) / sqrt(var),
 * var with the tie term (see the header comment), p = min(1, erfc(z / sqrt 2)),
 * p = 1 when |U - m n / 2| <= 1/2 or every value is tied.
 * Outputs may be NULL. Returns P2PB_OK, P2PB_EUSAGE (m or n is 0, NULL data,
 * non-finite value), P2PB_ERANGE, P2PB_ENOMEM.
 */
enum p2pb_status p2pb_mwu_test(const double *a, size_t m, const double *b, size_t n, double *u_out,
                               double *p_out);

/* p2pb_mwu_test with the null distribution d of (m, n) = (d->m, d->n)
 * already made (p2pb_mwu_null_init): a[0..d->m-1], b[0..d->n-1]. */
enum p2pb_status p2pb_mwu_test_null(const struct p2pb_mwu_null *d, const double *a, const double *b,
                                    double *u_out, double *p_out);

/* Hodges-Lehmann ratio B/A with a CI (see the header comment). */
struct p2pb_hl_ratio {
    double ratio;  /* exp(median of log b_j - log a_i) */
    int ci_valid;  /* 0 when the sample sizes are too small for the level */
    double ci_low; /* ratio CI, coverage >= ci_level (exact null; else about ci_level) */
    double ci_high;
    double ci_level; /* coverage 1 - 2 P0(U <= k - 1), e.g. 0.971 for 4 vs 4 */
};

/*
 * Hodges-Lehmann estimate of the ratio B/A at confidence 1 - alpha (alpha in
 * (0, 1), 0.05 for a 95% CI). a[0..m-1], b[0..n-1] must be > 0 and finite.
 * The median and the CI's order statistics of the m n differences are
 * selected in O((m + n) log(m + n)) time and O(m + n) memory.
 * Returns P2PB_OK, P2PB_EUSAGE (empty side, value <= 0 or not finite, bad
 * alpha), P2PB_ERANGE, P2PB_ENOMEM.
 */
enum p2pb_status p2pb_hl_ratio(const double *a, size_t m, const double *b, size_t n, double alpha,
                               struct p2pb_hl_ratio *out);

/* p2pb_hl_ratio with the null distribution d of (d->m, d->n) already made. */
enum p2pb_status p2pb_hl_ratio_null(const struct p2pb_mwu_null *d, const double *a, const double *b,
                                    double alpha, struct p2pb_hl_ratio *out);

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
    P2PB_VERDICT_CHANGED,     /* the gate, adjusted p < 0.05 and CI wholly outside [1-d, 1+d] */
    P2PB_VERDICT_EQUIVALENT,  /* CI wholly inside [1-d, 1+d] */
    P2PB_VERDICT_INCONCLUSIVE /* otherwise */
};

/* "no verdict", "changed", "equivalent", "inconclusive". */
const char *p2pb_verdict_str(enum p2pb_verdict v);

/* The level of every test of the verdict rule, and the power the launch
 * estimate aims at. */
#define P2PB_VERDICT_ALPHA 0.05
#define P2PB_POWER 0.80
/* A row that would need more launches per side than this counts as on the
 * band edge (p2pb_power_note), also when it has this many already. */
#define P2PB_POWER_MAX_LAUNCHES 1000u

/*
 * Student's t: two-sided tail P(|T| > |t|) for df > 0 (df = INFINITY: the
 * normal), = I_x(df/2, 1/2) with x = df / (df + t^2); NAN for NAN t or df <= 0;
 * 0 for an infinite t. Accurate to about 1e-14 absolute.
 */
double p2pb_t_two_sided(double t, double df);

/* Quantile of Student's t (df = INFINITY: the normal) at probability p in
 * (0, 1), by bisection on p2pb_t_two_sided; NAN for p outside (0, 1) or df <= 0. */
double p2pb_t_quantile(double p, double df);

/* Welch's two-sample t-test on log values. */
struct p2pb_welch {
    double diff;   /* mean log b - mean log a: the log of the ratio of geometric means */
    double t;      /* diff / sqrt(var_a / m + var_b / n) (+-INFINITY for constant sides) */
    double df;     /* Satterthwaite: (qa + qb)^2 / (qa^2/(m-1) + qb^2/(n-1)), q = var/size */
    double p;      /* two-sided p; 1 when both sides are constant and equal, 0 when they differ */
    double sd_log; /* pooled SD of the log values, sqrt(((m-1) var_a + (n-1) var_b) / (m+n-2)) */
};

/*
 * Welch's t-test of log b[0..n-1] against log a[0..m-1] (sample variances
 * with n - 1). Values are launch values (usec or MB/s), > 0 and finite.
 * Returns P2PB_OK, or P2PB_EUSAGE (NULL, m or n < 2, a value <= 0 or not finite).
 */
enum p2pb_status p2pb_welch_log(const double *a, size_t m, const double *b, size_t n,
                                struct p2pb_welch *out);

/*
 * Verdict of one row (docs/methodology.md, "Verdicts and their power"):
 * m, n launches per side; p_mwu the raw exact Mann-Whitney p (the gate: the
 * launches of the sides are separated); p_adj the Welch p adjusted over the
 * family of rows; hl the ratio and its CI; d the threshold as a fraction
 * (0.05 for 5%).
 *   changed:      m, n >= 4, p_mwu < 0.05, p_adj < 0.05, CI wholly outside [1-d, 1+d]
 *   equivalent:   m, n >= 4, CI wholly inside [1-d, 1+d]
 *   inconclusive: otherwise (also without a valid CI); no verdict below 4 launches.
 * A NAN p is never below 0.05.
 */
enum p2pb_verdict p2pb_compare_verdict(size_t m, size_t n, double p_mwu, double p_adj,
                                       const struct p2pb_hl_ratio *hl, double d);

/*
 * Launches per side (equal sides) for a two-sided test at level alpha to
 * reject with the given power when the true log ratio is margin away from
 * the null (Chow, Shao & Wang sec. 3.2): the smallest n >= 2 with
 *   n >= 2 (t_{1-alpha/2, 2n-2} + t_{power, 2n-2})^2 s^2 / margin^2,
 * s the SD of log launch values (s ~ CV for a small CV), margin in log units.
 * Searched upward from the normal-quantile n, ceil(2 (z_{1-alpha/2} + z_power)^2
 * s^2 / margin^2), which is a lower bound. Returns P2PB_OK, P2PB_ERANGE when
 * margin <= 0 or n would exceed P2PB_POWER_MAX_LAUNCHES (the ratio is on the
 * band edge: launches will not decide), P2PB_EUSAGE (NULL, s < 0 or not
 * finite, alpha or power outside (0, 1)).
 */
enum p2pb_status p2pb_launches_needed(double s, double margin, double alpha, double power,
                                      size_t *n_out);

enum p2pb_power_goal {
    P2PB_POWER_NONE,       /* no estimate (the row is not inconclusive) */
    P2PB_POWER_EQUIVALENT, /* the ratio lies inside the band: launches to show equivalence */
    P2PB_POWER_CHANGED,    /* outside: launches to show a change */
    P2PB_POWER_EDGE,       /* on the band edge (margin below 1e-6 in log units):
                            * more launches will not decide */
    P2PB_POWER_BEYOND      /* off the edge, but more than P2PB_POWER_MAX_LAUNCHES
                            * per side would be needed at the row's spread (or the
                            * row has that many and is still undecided) */
};

/* Below this distance from the band edge, in log units (a ratio within
 * 1e-6 of 1 +- d, finer than ratios are printed), a row is on the edge. */
#define P2PB_POWER_EDGE_LOG 1e-6

/* The launches an inconclusive row would need (p2pb_power_note). */
struct p2pb_power {
    enum p2pb_power_goal goal;
    size_t launches;   /* per side, for EQUIVALENT and CHANGED */
    double sd_log;     /* the spread used: pooled SD of log launch values */
    double margin_log; /* |log ratio| to the band edge, log units */
};

/*
 * Power note of an inconclusive row: observed ratio r (> 0), pooled SD s of
 * log launch values, threshold d in (0, 1), the level alpha_change at which
 * the family lets this row's test reject (0.05 divided by the adjustment's
 * factor on the row), now = the smaller launch count of the two sides.
 * Edge e = log(1 + d) for r >= 1, -log(1 - d) for r < 1. Inside the band
 * (|log r| < e): goal EQUIVALENT, margin e - |log r|, level 0.05 (the CI is
 * unadjusted); else goal CHANGED, margin |log r| - e, level alpha_change.
 * launches = max(p2pb_launches_needed, 4, now + 1) at 80% power; goal EDGE
 * when p2pb_launches_needed is P2PB_ERANGE or launches would exceed
 * P2PB_POWER_MAX_LAUNCHES (a row of 1000 launches per side or more that is
 * still inconclusive). Returns P2PB_OK or P2PB_EUSAGE (bad input).
 */
enum p2pb_status p2pb_power_note(double ratio, double sd_log, double d, double alpha_change,
                                 size_t now, struct p2pb_power *out);

/* One row of a family: the tests of its launch values (p2pb_verdict_row_tests),
 * then the family's outcome (p2pb_verdict_family). */
struct p2pb_verdict_row {
    size_t m, n;               /* launches per side */
    double u, p_mwu;           /* Mann-Whitney U and two-sided p (the gate) */
    struct p2pb_hl_ratio hl;   /* Hodges-Lehmann ratio B/A with its 95% CI */
    struct p2pb_welch t;       /* Welch on log values; fields NAN when m or n < 2 */
    double p_t;                /* t.p, NAN when not computed: outside the family */
    double p_adj;              /* out: p_t adjusted over the family; NAN when p_t is */
    enum p2pb_verdict verdict; /* out */
    struct p2pb_power power;   /* out: for inconclusive rows (goal NONE otherwise) */
};

/*
 * The tests of one row: a[0..m-1] (side A) and b[0..n-1] (side B) launch
 * values, > 0 and finite, m, n >= 1. Welch only when m, n >= 2. null: NULL,
 * or a null distribution kept between calls (zeroed before the first,
 * p2pb_mwu_null_free after the last): remade only when m or n changes.
 * Returns P2PB_OK, or the error of p2pb_mwu_null_init / p2pb_mwu_test /
 * p2pb_hl_ratio / p2pb_welch_log.
 */
enum p2pb_status p2pb_verdict_row_tests(const double *a, size_t m, const double *b, size_t n,
                                        struct p2pb_mwu_null *null, struct p2pb_verdict_row *out);

/*
 * The verdicts of a family of k rows (the rows of one metric): p_t adjusted
 * over the rows with a finite p_t (Holm if holm, else Benjamini-Hochberg),
 * p2pb_compare_verdict per row, and p2pb_power_note for inconclusive rows.
 * Returns P2PB_OK, P2PB_EUSAGE (rows NULL with k > 0), P2PB_ENOMEM.
 */
enum p2pb_status p2pb_verdict_family(struct p2pb_verdict_row *rows, size_t k, int holm, double d);

/* ---- comparing two sides (compare.c, compare_order.c, context_diff.c,
 * compare_notes.c, compare_print.c) ---- */

/* One (kernel, variant, size) row of a comparison table. */
struct p2pb_cmp_row {
    char kernel[32];
    char display_name[32];
    char variant[32];
    size_t bytes;
    size_t na, nb;              /* launches with a number on each side */
    double med_a, min_a, max_a; /* median and range of launch values, side A */
    double med_b, min_b, max_b;
    double ci_a[2], ci_b[2]; /* 95% CI of each median (order statistics, stats.h);
                                NAN when a side has < 6 launches */
    int tested;              /* 1 when u, p, hl are set (both sides > 0) */
    double u, p;             /* exact Mann-Whitney U and two-sided p: the gate */
    double p_t, df_t;        /* Welch's t on log values: p and Satterthwaite df (NAN
                                when a side has < 2 launches) */
    double sd_log;           /* pooled SD of the log launch values (NAN likewise) */
    double p_adj;            /* p_t adjusted over the rows of the metric */
    struct p2pb_hl_ratio hl; /* ratio B/A */
    enum p2pb_verdict verdict;
    struct p2pb_power power; /* inconclusive rows: launches per side to resolve them */
    int worse;               /* 1 if changed for the worse */
    const char *only;        /* NULL, or "A"/"B": the row exists on one side only */
    /* launch position (compare_order.c): rounds with a value on both sides,
     * those in which the launch that ran second was worse (slower, or less
     * MB/s; ties left out of pos_n), exact two-sided sign test p and its
     * adjusted p (as p_adj); NAN when no round is known */
    size_t pos_n, pos_worse;
    double pos_p, pos_p_adj;
    /* launches of each side whose row was measured while disturbed
     * (p2pb_disturbed) and whose level shifted while measured (shift.flagged) */
    size_t dist_a, dist_b, shift_a, shift_b;
};

struct p2pb_cmp_table {
    enum p2pb_metric metric;
    struct p2pb_cmp_row *rows;
    size_t nrows;
    size_t ntested;         /* rows with a test (both sides have launches) */
    double best_p_gate;     /* smallest Mann-Whitney p any row could reach with these
                               launch counts: min over rows of 2 / C(na + nb, na) (the
                               exact two-sided floor); the gate is not adjusted, so a
                               row can be "changed" only when this is < 0.05; NAN when
                               no row is tested */
    size_t launches_needed; /* launches per side (equal sides) for best_p_gate < 0.05 */
    size_t pos_flagged;     /* rows whose pos_p_adj < 0.05 (compare_order.c) */
};

/*
 * Build the comparison table of metric for sides a, b: rows sorted by kernel
 * (first-seen order), variant, bytes. holm selects Holm (else BH) for p_adj;
 * threshold d is a fraction (0.05). A row is tested when both sides have
 * numbers and all are positive. Returns P2PB_OK, P2PB_ENOMEM, or another
 * error of p2pb_verdict_row_tests (never reached by checked values).
 */
enum p2pb_status p2pb_compare_build(const struct p2pb_side *a, const struct p2pb_side *b,
                                    enum p2pb_metric metric, int holm, double d,
                                    struct p2pb_cmp_table *out);
void p2pb_compare_free(struct p2pb_cmp_table *t);

/*
 * Launch order of two sides (docs/report.md, "Launch order"): the rounds
 * (same seed and round number) that hold a launch of each side, and in how
 * many of them side A ran first. Confounded: at least 2 such rounds and one
 * side first in more than 3/4 of them; a position effect then shows as a
 * difference between the sides.
 */
struct p2pb_order {
    size_t known_a, known_b; /* launches with a campaign position, per side */
    size_t rounds;           /* rounds with a launch of each side */
    size_t a_first;          /* of them, rounds in which side A ran first */
    size_t nseeds;           /* distinct seeds among them (1 for one campaign) */
    double seed;             /* the seed, when nseeds is 1 */
    int confounded;
};

/* Fill o from the positions of a and b. No allocation, no failure. */
void p2pb_order_check(const struct p2pb_side *a, const struct p2pb_side *b, struct p2pb_order *o);

/*
 * Position effect per row of t (built by p2pb_compare_build from a and b):
 * for every round with a value on both sides, was the launch that ran second
 * worse than the first? Sets pos_n, pos_worse, the exact two-sided sign test
 * p (binomial, 1/2) and its adjustment over the rows with pos_n > 0 (Holm if
 * holm, else Benjamini-Hochberg) in pos_p_adj, and t->pos_flagged. Returns
 * P2PB_OK or P2PB_ENOMEM.
 */
enum p2pb_status p2pb_compare_position(const struct p2pb_side *a, const struct p2pb_side *b,
                                       int holm, struct p2pb_cmp_table *t);

/* Host-context differences between two sides: "key: A = x | B = y" lines. */
struct p2pb_ctx_diff {
    char **lines;
    size_t n;
};
enum p2pb_status p2pb_context_diff(const struct p2pb_side *a, const struct p2pb_side *b,
                                   struct p2pb_ctx_diff *out);
void p2pb_ctx_diff_free(struct p2pb_ctx_diff *d);

/* The host's load during one launch (rank 0's host; the run record's "load" and
 * the end record's, docs/output-format.md "Load readings"): cpu, the CPU
 * pressure in percent during its kernels (from the "some" totals, else the mean
 * avg10); beside, the mean runnable tasks beside the ranks (procs_running -
 * local_ranks, at least 0); loadavg, the mean 1-minute load average. -1: not
 * recorded (imported logs, older files). */
struct p2pb_launch_load {
    double cpu, beside, loadavg;
};
void p2pb_launch_load(const struct p2pb_results_data *d, struct p2pb_launch_load *out);

/* A load difference between the sides worth naming (context_load.c): the
 * medians over their launches differ by at least P2PB_LOAD_CPU_POINTS of CPU
 * pressure or P2PB_LOAD_BESIDE runnable tasks beside the ranks. Then *line is
 * "load (rank 0's host, during the kernels): A = CPU pressure 3% (1..6%), 0.0
 * tasks beside the ranks, load average 0.4 | B = ..." (malloc'd), else NULL.
 * Returns P2PB_OK or P2PB_ENOMEM. */
#define P2PB_LOAD_CPU_POINTS 10.0
#define P2PB_LOAD_BESIDE 0.5
enum p2pb_status p2pb_context_load(const struct p2pb_side *a, const struct p2pb_side *b,
                                   char **line);

/* Print a full comparison (both tables, context, one-sided rows). */
struct p2pb_cmp_print {
    enum p2pb_outfmt fmt;
    int holm;
    double threshold;               /* d as a fraction */
    const struct p2pb_order *order; /* launch order of the sides (p2pb_order_check) */
};
/*
 * What compare used, above the tables (compare_notes.c): one line per
 * incomplete or aborted file, per distinct placement warning of a side's
 * run records ("warnings"; with the launches that had it, at most 4 per
 * side), the sides' link profiles (when a launch has one), the launch order
 * and its warnings (p2pb_order_check, p2pb_compare_position). Text from the
 * files is sanitised. Text lines start with "# ", markdown lines with
 * nothing and a blank line before each.
 */
void p2pb_compare_notes_text(FILE *o, int md, const struct p2pb_cmp_print *opt,
                             const struct p2pb_side *a, const struct p2pb_side *b,
                             const struct p2pb_cmp_table *lat, const struct p2pb_cmp_table *thr);

/* The same for json, into the cJSON object root: "incomplete" (array of
 * {side, path, why}), "launch_order" (when any launch has a position) and
 * "warnings" (array of strings). */
void p2pb_compare_notes_json(void *root, const struct p2pb_cmp_print *opt,
                             const struct p2pb_side *a, const struct p2pb_side *b,
                             const struct p2pb_cmp_table *lat, const struct p2pb_cmp_table *thr);

void p2pb_compare_print(FILE *o, const struct p2pb_cmp_print *opt, const struct p2pb_side *a,
                        const struct p2pb_side *b, const struct p2pb_cmp_table *lat,
                        const struct p2pb_cmp_table *thr, const struct p2pb_ctx_diff *diff);

#endif /* P2PBENCH_COMPARE_H */
