/* SPDX-License-Identifier: MIT */
/*
 * stats.h - descriptive statistics of one sample set. Pure functions: no MPI,
 * no I/O, no globals. Units are whatever the caller passes (p2pbench passes
 * usec per iteration).
 *
 * Sources: quantiles use linear interpolation between order statistics
 * (Hyndman & Fan type 7, the default of R and numpy). The 95% confidence
 * interval of the median uses order statistics (Le Boudec, "Performance
 * Evaluation of Computer and Communication Systems", 2010, sec. 2.2.1):
 * exact binomial ranks for n < 50, otherwise the normal approximation
 * lo = floor((n - 1.96 sqrt(n)) / 2), hi = ceil(1 + (n + 1.96 sqrt(n)) / 2).
 * Outliers are Tukey's: outside [p25 - 1.5 IQR, p75 + 1.5 IQR]; counted,
 * never removed.
 */
#ifndef P2PBENCH_STATS_H
#define P2PBENCH_STATS_H

#include <stddef.h>

#include "p2pbench/status.h"

/* Smallest n for which a 95% CI of the median exists (1 - 2 * 2^-n >= 0.95). */
#define P2PB_CI_MIN_N 6

/* Summary of n samples. All values in the samples' unit. */
struct p2pb_stats {
    size_t n; /* number of samples */
    double min, p25, median, p75, p99, max;
    double mean;
    double stddev;   /* sample standard deviation (n - 1); 0 when n < 2 */
    int ci_valid;    /* 1 when n >= P2PB_CI_MIN_N and ci95_* are set */
    double ci95_low; /* 95% CI of the median, order-statistic bounds */
    double ci95_high;
    size_t outliers; /* Tukey outlier count (1.5 IQR) */
};

/*
 * Ranks (1-based, lo <= hi) of the order statistics that bound the 95% CI of
 * the median of n samples: CI = [x_(lo), x_(hi)].
 * Returns P2PB_OK, or P2PB_ERANGE when n < P2PB_CI_MIN_N (no such interval).
 */
enum p2pb_status p2pb_median_ci_ranks(size_t n, size_t *lo, size_t *hi);

/*
 * Quantile p (0 <= p <= 1) of an ascending array sorted[0..n-1], n >= 1,
 * by linear interpolation (type 7).
 */
double p2pb_quantile_sorted(const double *sorted, size_t n, double p);

/*
 * Median of the finite values among v[0..n-1]: the middle one, or the mean of
 * the two middle ones. v is reordered: its finite values come first, ascending.
 * Returns NAN when v holds no finite value (n = 0 included).
 */
double p2pb_median_finite(double *v, size_t n);

/*
 * Compute the summary of x[0..n-1] (need not be sorted; not modified).
 * scratch must hold n doubles (it receives the sorted copy); pass NULL to
 * let the function allocate.
 * Returns P2PB_OK, P2PB_EUSAGE when n == 0, P2PB_ENOMEM on allocation failure.
 */
enum p2pb_status p2pb_stats_compute(const double *x, size_t n, double *scratch,
                                    struct p2pb_stats *out);

/*
 * Relative half-width of the CI of the median: (hi - lo) / 2 / median.
 * Returns a negative value when the CI is not valid or the median is <= 0.
 */
double p2pb_stats_ci_rel_halfwidth(const struct p2pb_stats *s);

/* An interval reaching beyond this factor of its median, either way, bounds
 * nothing a reader can use: on a busy host two or three rounds' medians far
 * apart gave 3e-8 .. 1.2e7 usec around a median of 0.62 usec (issue 20). */
#define P2PB_CI_UNBOUNDED_FACTOR 10.0

/*
 * 1 when the CI is valid and ci95_high > P2PB_CI_UNBOUNDED_FACTOR x median
 * or ci95_low < median / P2PB_CI_UNBOUNDED_FACTOR: the tables print
 * "unbounded" instead of the bounds, the results file keeps them and says
 * so (t_usec.ci_unbounded); 0 otherwise (also when the median is <= 0).
 */
int p2pb_stats_ci_unbounded(const struct p2pb_stats *s);

/* Fewest samples per third for the change-point test (normal approximation
 * of the U statistic; Mann & Whitney's tables start at 8 per group). */
#define P2PB_SHIFT_MIN_THIRD 8

/* Outcome of p2pb_change_point. */
struct p2pb_shift {
    int tested;          /* 0: fewer than 3 x P2PB_SHIFT_MIN_THIRD samples */
    size_t third;        /* m: samples in the first and in the last third */
    double first_median; /* median of x[0..m-1] */
    double last_median;  /* median of x[n-m..n-1] */
    double rel_shift;    /* (last_median - first_median) / first_median; 0 if that is 0 */
    double u;            /* Mann-Whitney U of the last third against the first */
    double z;            /* (U - m^2/2) / sd, continuity- and tie-corrected */
    double p;            /* two-sided p-value, erfc(|z| / sqrt 2) */
    int flagged;         /* tested && p < alpha && |rel_shift| >= min_rel_shift */
};

/*
 * Did the level of x[0..n-1] (samples in time order) change while it was
 * measured? Compares the first and the last third (m = n / 3 samples each;
 * the middle third is left out, so a shift anywhere in it is seen as a
 * difference of the ends) with the Mann-Whitney U test (Mann & Whitney,
 * Ann. Math. Statist. 18, 1947), normal approximation with average ranks for
 * ties and the tie-corrected variance m^2/12 ((2m+1) - sum(t^3-t)/(2m(2m-1)))
 * and a continuity correction of 0.5 (Hollander & Wolfe, "Nonparametric
 * Statistical Methods", sec. 4.1). Flags when p < alpha and the medians of
 * the thirds differ by at least min_rel_shift (e.g. 0.05): a significant but
 * tiny drift is not a change of level. For independent samples of one
 * distribution the test flags at most a fraction alpha of rows.
 * Returns P2PB_OK (also when not tested), P2PB_EUSAGE for alpha outside
 * (0, 1) or a negative min_rel_shift, P2PB_ENOMEM.
 */
enum p2pb_status p2pb_change_point(const double *x, size_t n, double alpha, double min_rel_shift,
                                   struct p2pb_shift *out);

#endif /* P2PBENCH_STATS_H */
