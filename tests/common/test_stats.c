/* SPDX-License-Identifier: MIT */
/* Statistics against values computed by hand (see the comments). */
#include <math.h>

#include "../lib/check.h"
#include "p2pbench/result.h"
#include "p2pbench/stats.h"

static void ci_ranks(void)
{
    size_t lo, hi;
    /* n = 5: P(all 5 on one side) = 2/32 = 0.0625 > 0.05: no 95% CI */
    CHECK(p2pb_median_ci_ranks(5, &lo, &hi) == P2PB_ERANGE);
    /* n = 6: P(B <= 0) = 1/64 = 0.0156 <= 0.025, P(B <= 1) = 7/64 = 0.109: j = 1 */
    CHECK(p2pb_median_ci_ranks(6, &lo, &hi) == P2PB_OK);
    CHECK(lo == 1 && hi == 6);
    /* n = 10: P(B <= 1) = 11/1024 = 0.0107, P(B <= 2) = 56/1024 = 0.0547: j = 2 */
    CHECK(p2pb_median_ci_ranks(10, &lo, &hi) == P2PB_OK);
    CHECK(lo == 2 && hi == 9);
    /* n = 20: P(B <= 5) = 21700/2^20 = 0.0207, P(B <= 6) = 60460/2^20 = 0.0577: j = 6 */
    CHECK(p2pb_median_ci_ranks(20, &lo, &hi) == P2PB_OK);
    CHECK(lo == 6 && hi == 15);
    /* n = 50 (normal approximation): 1.96 sqrt(50) = 13.859;
     * lo = floor((50 - 13.859) / 2) = floor(18.07) = 18;
     * hi = ceil(1 + (50 + 13.859) / 2) = ceil(32.93) = 33 */
    CHECK(p2pb_median_ci_ranks(50, &lo, &hi) == P2PB_OK);
    CHECK(lo == 18 && hi == 33);
    /* n = 100: 1.96 * 10 = 19.6; lo = floor(40.2) = 40; hi = ceil(60.8) = 61 */
    CHECK(p2pb_median_ci_ranks(100, &lo, &hi) == P2PB_OK);
    CHECK(lo == 40 && hi == 61);
}

static void summary(void)
{
    struct p2pb_stats s;
    /* 1..6 shuffled. Type 7 quantiles: h = 5p; p25: h = 1.25 -> 2 + 0.25 = 2.25;
     * median 3.5; p75: h = 3.75 -> 4.75; p99: h = 4.95 -> 5.95.
     * mean 3.5; sum of squared deviations 17.5; stddev sqrt(17.5 / 5) = 1.8708287.
     * CI ranks (1, 6) -> [1, 6]. IQR 2.5; fences -1.5 and 8.5: no outlier. */
    const double x[] = {4, 1, 6, 3, 5, 2};
    CHECK(p2pb_stats_compute(x, 6, NULL, &s) == P2PB_OK);
    CHECK(s.n == 6);
    CHECK_NEAR(s.min, 1, 1e-12);
    CHECK_NEAR(s.max, 6, 1e-12);
    CHECK_NEAR(s.p25, 2.25, 1e-12);
    CHECK_NEAR(s.median, 3.5, 1e-12);
    CHECK_NEAR(s.p75, 4.75, 1e-12);
    CHECK_NEAR(s.p99, 5.95, 1e-12);
    CHECK_NEAR(s.mean, 3.5, 1e-12);
    CHECK_NEAR(s.stddev, 1.8708286933869707, 1e-12);
    CHECK(s.ci_valid);
    CHECK_NEAR(s.ci95_low, 1, 1e-12);
    CHECK_NEAR(s.ci95_high, 6, 1e-12);
    CHECK(s.outliers == 0);
    CHECK(x[0] == 4); /* input untouched */

    /* {1,2,3,4,5,100}: p25 2.25, p75 4.75, upper fence 8.5: 100 is an outlier. */
    const double y[] = {1, 2, 3, 4, 5, 100};
    CHECK(p2pb_stats_compute(y, 6, NULL, &s) == P2PB_OK);
    CHECK(s.outliers == 1);
    CHECK_NEAR(s.median, 3.5, 1e-12);

    /* n = 10, values 10..100: CI ranks (2, 9) -> [20, 90]; relative
     * half-width (90 - 20) / 2 / 55 = 0.636363... */
    double z[10];
    for (int i = 0; i < 10; i++)
        z[i] = 10.0 * (10 - i);
    double scratch[10];
    CHECK(p2pb_stats_compute(z, 10, scratch, &s) == P2PB_OK);
    CHECK_NEAR(s.median, 55, 1e-12);
    CHECK_NEAR(s.ci95_low, 20, 1e-12);
    CHECK_NEAR(s.ci95_high, 90, 1e-12);
    CHECK_NEAR(p2pb_stats_ci_rel_halfwidth(&s), 35.0 / 55.0, 1e-12);
    /* unbounded: beyond 10x either way of the median (55); 550 and 5.5 are not */
    CHECK(!p2pb_stats_ci_unbounded(&s));
    s.ci95_high = 550.0;
    CHECK(!p2pb_stats_ci_unbounded(&s));
    s.ci95_high = 550.1;
    CHECK(p2pb_stats_ci_unbounded(&s));
    s.ci95_high = 90.0;
    s.ci95_low = 5.5;
    CHECK(!p2pb_stats_ci_unbounded(&s));
    s.ci95_low = 5.49;
    CHECK(p2pb_stats_ci_unbounded(&s));
    s.ci_valid = 0;
    CHECK(!p2pb_stats_ci_unbounded(&s));

    /* A single sample: everything equals it; no CI; stddev 0. */
    const double one[] = {7.5};
    CHECK(p2pb_stats_compute(one, 1, NULL, &s) == P2PB_OK);
    CHECK(s.min == 7.5 && s.median == 7.5 && s.p99 == 7.5 && s.max == 7.5 && s.stddev == 0);
    CHECK(!s.ci_valid);
    CHECK(p2pb_stats_ci_rel_halfwidth(&s) < 0);

    CHECK(p2pb_stats_compute(one, 0, NULL, &s) == P2PB_EUSAGE);
}

static void throughput(void)
{
    /* 1 MiB in 100 usec, PingPong (factor 1): 1048576 / 100 = 10485.76 MB/s */
    CHECK_NEAR(p2pb_mbytes_per_sec(1.0, 1048576, 100.0), 10485.76, 1e-9);
    /* Exchange (factor 4), 1000 B in 8 usec: 4000 / 8 = 500 MB/s */
    CHECK_NEAR(p2pb_mbytes_per_sec(4.0, 1000, 8.0), 500.0, 1e-12);
    CHECK(p2pb_mbytes_per_sec(1.0, 0, 1.0) == 0.0);
    CHECK(p2pb_mbytes_per_sec(1.0, 10, 0.0) == 0.0);
}

static void median_finite(void)
{
    /* finite values 1, 3, 4, 9 (NAN and INFINITY left out): (3 + 4) / 2 = 3.5 */
    double v[] = {9, NAN, 3, INFINITY, 1, 4};
    CHECK_NEAR(p2pb_median_finite(v, 6), 3.5, 0);
    CHECK(v[0] == 1 && v[1] == 3 && v[2] == 4 && v[3] == 9); /* finite first, ascending */
    double w[] = {5, -INFINITY, 2, 8};
    CHECK_NEAR(p2pb_median_finite(w, 4), 5, 0); /* odd count: the middle one */
    double z[] = {NAN, INFINITY};
    CHECK(isnan(p2pb_median_finite(z, 2)));
    CHECK(isnan(p2pb_median_finite(z, 0)));
}

/* Deterministic noise for the change-point tests: xorshift64, and a normal
 * variate by Box-Muller. */
static unsigned long long rng = 88172645463325252ull;

static double uniform01(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return ((double)(rng >> 11) + 0.5) / 9007199254740992.0; /* (0, 1) */
}

static double normal(double mean, double sd)
{
    return mean + sd * sqrt(-2.0 * log(uniform01())) * cos(6.283185307179586 * uniform01());
}

static void change_point(void)
{
    struct p2pb_shift sh;
    double x[3000];
    /* Hand case: m = 8 (n = 24); first third 10..17, last third 20..27 (the
     * middle is ignored): last-third ranks 9..16 sum to 100, U = 100 - 36 = 64;
     * mean 32, variance 64/12 x 17 = 90.667, z = (64 - 32 - 0.5) / 9.522 =
     * 3.3082, p = erfc(3.3082 / sqrt 2) = 0.000939 */
    for (int i = 0; i < 24; i++)
        x[i] = i < 8 ? 10 + i : i < 16 ? 100 : 4 + i;
    CHECK(p2pb_change_point(x, 24, 0.01, 0.05, &sh) == P2PB_OK);
    CHECK(sh.tested && sh.third == 8);
    CHECK_NEAR(sh.u, 64, 0);
    CHECK_NEAR(sh.z, 3.30817, 1e-5);
    CHECK_NEAR(sh.p, 0.000939, 1e-6);
    CHECK_NEAR(sh.first_median, 13.5, 0);
    CHECK_NEAR(sh.last_median, 23.5, 0);
    CHECK(sh.flagged);
    /* too few samples: not tested; all equal: ties, variance 0, p = 1 */
    CHECK(p2pb_change_point(x, 23, 0.01, 0.05, &sh) == P2PB_OK && !sh.tested && !sh.flagged);
    for (int i = 0; i < 30; i++)
        x[i] = 5.0;
    CHECK(p2pb_change_point(x, 30, 0.01, 0.0, &sh) == P2PB_OK && sh.tested && sh.p == 1.0 &&
          !sh.flagged);
    CHECK(p2pb_change_point(x, 30, 0.0, 0.0, &sh) == P2PB_EUSAGE);
    CHECK(p2pb_change_point(x, 30, 0.01, -1.0, &sh) == P2PB_EUSAGE);

    /* Stationary noise, 2000 rows of 60 samples, alpha 0.01, no effect-size
     * floor: about 1% flagged (binomial sd 0.22%); at most 1.5% */
    int fp = 0;
    for (int r = 0; r < 2000; r++) {
        for (int i = 0; i < 60; i++)
            x[i] = normal(10.0, 0.5);
        p2pb_change_point(x, 60, 0.01, 0.0, &sh);
        fp += sh.flagged;
    }
    CHECK(fp <= 30);
    fprintf(stderr, "change point: %d of 2000 stationary rows flagged at alpha 0.01\n", fp);

    /* A level shift of 20% in the middle: flagged in every one of 200 rows */
    int hit = 0;
    for (int r = 0; r < 200; r++) {
        for (int i = 0; i < 60; i++)
            x[i] = normal(i < 30 ? 10.0 : 12.0, 0.5);
        p2pb_change_point(x, 60, 0.01, 0.05, &sh);
        hit += sh.flagged && sh.rel_shift > 0.1;
    }
    CHECK(hit == 200);
    /* A token bucket running dry: 10 fast samples (burst), then the shaped rate */
    for (int i = 0; i < 45; i++)
        x[i] = i < 10 ? normal(20.0, 0.5) : normal(84.0, 1.0);
    CHECK(p2pb_change_point(x, 45, 0.01, 0.05, &sh) == P2PB_OK && sh.flagged);
    /* A drift of 1% over 3000 tight samples: significant, but below a 5% floor */
    for (int i = 0; i < 3000; i++)
        x[i] = normal(i < 1500 ? 100.0 : 101.0, 0.1);
    CHECK(p2pb_change_point(x, 3000, 0.01, 0.05, &sh) == P2PB_OK && sh.p < 0.01 && !sh.flagged);
}

int main(void)
{
    ci_ranks();
    summary();
    throughput();
    median_finite();
    change_point();
    return CHECK_DONE();
}
