/* SPDX-License-Identifier: MIT */
/*
 * outlier.h - the robust outlier rule of the link survey (docs/survey.md,
 * "Verdicts"): a value is slow when it lies beyond the median of its
 * reference set by more than k scaled MADs AND by at least a fraction
 * min_off of the median. Pure functions, no MPI.
 *
 * MAD = median(|x_i - median(x)|), scaled by 1.4826 so that it estimates the
 * standard deviation of normal data (Rousseeuw & Croux, JASA 88, 1993; the
 * "median + k MAD" rule: Leys et al., J. Exp. Soc. Psych. 49, 2013, who
 * recommend k = 2.5 or 3). The second condition keeps a tight set (MAD near
 * 0: every healthy link alike) from calling a 2% difference slow.
 */
#ifndef P2PBENCH_OUTLIER_H
#define P2PBENCH_OUTLIER_H

#include <stddef.h>

#include "p2pbench/status.h"

/* The survey's defaults: k = 3 scaled MADs and at least 20% off the median
 * (p2pbench's suspects; p2pbench-report survey's -k / --min-off). */
#define P2PB_OUTLIER_K 3.0
#define P2PB_OUTLIER_MIN_OFF 0.2
#define P2PB_MAD_SCALE 1.4826

/* The rule: k scaled MADs and a fraction min_off of the median. */
struct p2pb_outlier_rule {
    double k;
    double min_off;
};

/*
 * Median, scaled MAD and the two bounds of x[0..n-1] (NAN entries ignored;
 * x is not modified): *slow_above = max(med + k MAD, med (1 + min_off)),
 * *slow_below = min(med - k MAD, med (1 - min_off)). A latency above
 * slow_above is slow, a bandwidth below slow_below is slow.
 * Returns P2PB_OK, P2PB_EUSAGE when fewer than 3 values are finite (no
 * reference), P2PB_ENOMEM.
 */
enum p2pb_status p2pb_outlier_bounds(const double *x, size_t n,
                                     const struct p2pb_outlier_rule *rule, double *median,
                                     double *mad, double *slow_above, double *slow_below);

/*
 * The same rule on a logarithmic scale (x are logs of positive values, e.g.
 * the effects of a median polish): *slow_above = med + max(k MAD,
 * log(1 + min_off)), *slow_below = med - max(k MAD, -log(1 - min_off)),
 * i.e. at least a factor 1 + min_off (1 - min_off) off. Returns as
 * p2pb_outlier_bounds.
 */
enum p2pb_status p2pb_outlier_bounds_log(const double *x, size_t n,
                                         const struct p2pb_outlier_rule *rule, double *median,
                                         double *mad, double *slow_above, double *slow_below);

#endif /* P2PBENCH_OUTLIER_H */
