/* SPDX-License-Identifier: MIT */
/*
 * test_rounds.c - the arithmetic of rounds (src/bench/rounds.c) and the
 * floor rule of the calibration (src/bench/calibration.c), against values
 * worked out by hand from the formulas in docs/methodology.md, "Rounds".
 */
#include <math.h>
#include <stdint.h>

#include "../lib/check.h"
#include "harness.h"

static void test_t975(void)
{
    CHECK_NEAR(p2pb_t975(1), 12.7062, 1e-4);
    CHECK_NEAR(p2pb_t975(4), 2.7764, 1e-4); /* 5 rounds */
    CHECK_NEAR(p2pb_t975(30), 2.0423, 1e-4);
    CHECK_NEAR(p2pb_t975(40), 2.0211, 2e-4); /* table value 2.021 */
    CHECK_NEAR(p2pb_t975(120), 1.9799, 2e-4);
    CHECK(isnan(p2pb_t975(0)));
}

static void test_interval(void)
{
    /* medians 1, 2, 4: logs 0, ln 2, 2 ln 2; mean ln 2; s = ln 2;
     * h = t(0.975, 2) ln 2 sqrt(1 + 1/3) = 4.3027 x 0.693147 x 1.154701 = 3.44377 */
    const double m[3] = {1, 2, 4};
    double lo = 0, hi = 0;
    CHECK(p2pb_round_interval(2.0, 0, 0, 0, m, 3, &lo, &hi) == 1);
    CHECK_NEAR(lo, 2.0 * exp(-3.44377), 1e-5);
    CHECK_NEAR(hi, 2.0 * exp(3.44377), 1e-3);
    /* the hull with a wider order-statistic interval keeps its bounds */
    CHECK(p2pb_round_interval(2.0, 1, 0.01, 100.0, m, 3, &lo, &hi) == 1);
    CHECK(lo == 0.01 && hi == 100.0);
    /* equal round medians: h = 0, the order-statistic interval stays */
    const double same[5] = {3, 3, 3, 3, 3};
    CHECK(p2pb_round_interval(3.0, 1, 2.9, 3.2, same, 5, &lo, &hi) == 1);
    CHECK(lo == 2.9 && hi == 3.2);
    CHECK(p2pb_round_interval(3.0, 0, 0, 0, same, 5, &lo, &hi) == 1);
    CHECK(lo == 3.0 && hi == 3.0);
    /* one round, or a non-positive value: no round interval */
    lo = hi = -1;
    CHECK(p2pb_round_interval(2.0, 1, 1, 3, m, 1, &lo, &hi) == 0);
    CHECK(lo == -1 && hi == -1);
    const double zero[2] = {0, 1};
    CHECK(p2pb_round_interval(1.0, 0, 0, 0, zero, 2, &lo, &hi) == 0);
}

/* A uniform in (0, 1) from a 64-bit LCG (Knuth MMIX constants). */
static double uniform(uint64_t *x)
{
    *x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
    return ((double)(*x >> 11) + 0.5) / 9007199254740992.0;
}

/* A standard normal draw (Box-Muller). */
static double normal(uint64_t *x)
{
    double u = uniform(x), v = uniform(x);
    return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

/* What the interval claims, checked as a sceptic would: with round medians
 * drawn from one lognormal (no launch effect), the interval centred on their
 * geometric mean holds one more draw in 95% of 20000 trials, for R = 3 and 5
 * (standard error of a 95% share over 20000: 0.15%; bounds at 4 s.e.). */
static void test_interval_coverage(void)
{
    uint64_t x = 12345;
    for (size_t R = 3; R <= 5; R += 2) {
        size_t held = 0, trials = 20000;
        for (size_t t = 0; t < trials; t++) {
            double m[5], mean = 0, lo, hi;
            for (size_t i = 0; i < R; i++) {
                m[i] = 10.0 * exp(0.03 * normal(&x));
                mean += log(m[i]) / (double)R;
            }
            double next = 10.0 * exp(0.03 * normal(&x));
            CHECK(p2pb_round_interval(exp(mean), 0, 0, 0, m, R, &lo, &hi) == 1);
            held += lo <= next && next <= hi;
        }
        double share = (double)held / (double)trials;
        CHECK(share > 0.944 && share < 0.956);
    }
}

static void test_shuffle(void)
{
    size_t a[24], b[24], seen[24] = {0};
    for (size_t i = 0; i < 24; i++)
        a[i] = b[i] = i;
    unsigned long long s1 = 42, s2 = 42;
    p2pb_shuffle(a, 24, &s1);
    p2pb_shuffle(b, 24, &s2);
    int same = 1, moved = 0;
    for (size_t i = 0; i < 24; i++) {
        same &= a[i] == b[i];
        moved += a[i] != i;
        if (a[i] < 24)
            seen[a[i]]++;
    }
    CHECK(same); /* the seed decides the order */
    CHECK(s1 == s2 && s1 != 42);
    CHECK(moved > 0); /* 24! orders: the identity has probability 1 / 24! */
    for (size_t i = 0; i < 24; i++)
        CHECK(seen[i] == 1);  /* a permutation */
    p2pb_shuffle(a, 24, &s1); /* the next round: another order */
    int differ = 0;
    for (size_t i = 0; i < 24; i++)
        differ |= a[i] != b[i];
    CHECK(differ);
    size_t one = 7;
    p2pb_shuffle(&one, 1, &s1);
    CHECK(one == 7);
}

static void test_floor(void)
{
    const double target = 100000.0; /* 100 usec in ns */
    CHECK(p2pb_floor_rebatch(50, 100000.0, target, 1000) == 50);
    CHECK(p2pb_floor_rebatch(50, 250000.0, target, 1000) == 50);
    /* k = 1 whose batch lasted 1 usec: ceil(1 x 100 x 1.05) = 105 */
    CHECK(p2pb_floor_rebatch(1, 1000.0, target, 1000) == 105);
    /* 99 usec for k = 10: ceil(10 x 100000 / 99000 x 1.05) = ceil(10.606) = 11 */
    CHECK(p2pb_floor_rebatch(10, 99000.0, target, 1000) == 11);
    /* a batch that read 0 ns: x16 */
    CHECK(p2pb_floor_rebatch(3, 0.0, target, 1000) == 48);
    /* more than the largest k: refuse */
    CHECK(p2pb_floor_rebatch(1, 1.0, target, 1000) == 0);
}

int main(void)
{
    test_t975();
    test_interval();
    test_interval_coverage();
    test_shuffle();
    test_floor();
    return CHECK_DONE();
}
