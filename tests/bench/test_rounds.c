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

/* Feed t[0..n-1]; the 1-based batch at which the rule says settled, or 0. */
static size_t settled_at(const double *t, size_t n)
{
    struct p2pb_settle st = {0};
    for (size_t i = 0; i < n; i++)
        if (p2pb_settle_add(&st, t[i]))
            return i + 1;
    return 0;
}

/* The warm-up's stop rule (docs/methodology.md, "Warm-up"): settled after
 * P2PB_SETTLE_BATCHES (2) batches in a row that are each at least
 * (1 - 0.03) x the fastest batch before them. */
static void test_settle(void)
{
    CHECK(P2PB_SETTLE_BATCHES == 2);
    CHECK_NEAR(P2PB_SETTLE_TOL, 0.03, 1e-12);
    /* a fresh 4 MiB buffer (usec per batch, measured shape): falling until
     * 186; 207 >= 0.97 x 186 and 208 >= 0.97 x 186: settled at batch 11 */
    const double fresh[] = {5831, 600, 399, 439, 302, 284, 238, 193, 186, 207, 208, 199};
    CHECK(settled_at(fresh, 12) == 11);
    /* 439 after 399 is calm, but 302 falls again: one calm batch never stops it */
    CHECK(settled_at(fresh, 4) == 0);
    /* steady from the start: the earliest stop is the third batch */
    const double flat[] = {100, 100, 100, 100};
    CHECK(settled_at(flat, 1) == 0 && settled_at(flat, 2) == 0 && settled_at(flat, 3) == 3);
    /* noise that slows batches does not delay the stop */
    const double slow[] = {100, 180, 150, 99};
    CHECK(settled_at(slow, 4) == 3);
    /* 97.1 is within 3% of 100 (calm), 96.9 is not (falling, the count
     * starts again): then 96.0 >= 0.97 x 96.9 and 95.5 >= 0.97 x 96.0 */
    const double calm[] = {100, 97.1, 97.1};
    CHECK(settled_at(calm, 3) == 3);
    const double edge[] = {100, 96.9, 96.0, 95.5};
    CHECK(settled_at(edge, 3) == 0);
    CHECK(settled_at(edge, 4) == 4);
    /* a falling series never settles */
    double fall[40];
    for (size_t i = 0; i < 40; i++)
        fall[i] = 1000.0 * pow(0.9, (double)i);
    CHECK(settled_at(fall, 40) == 0);
    /* not a number is not calm */
    const double nan3[] = {100, NAN, NAN, 100, 100};
    CHECK(settled_at(nan3, 3) == 0 && settled_at(nan3, 5) == 5);
}

/* --off-cache's C (IMB's -off_cache C): --cache-size, else hwloc's L3 at
 * most 64 MiB; 0 without --off-cache. */
static void test_off_cache_bytes(void)
{
    struct p2pb_policy pol = {0};
    CHECK(p2pb_off_cache_bytes(&pol) == 0);
    pol.off_cache = 1;
    pol.llc_bytes = (size_t)32 << 20;
    CHECK(p2pb_off_cache_bytes(&pol) == (size_t)32 << 20);
    pol.llc_bytes = (size_t)508 << 20; /* a VM reporting the host's L3 */
    CHECK(p2pb_off_cache_bytes(&pol) == P2PB_OFF_CACHE_MAX);
    pol.llc_bytes = 0; /* unknown */
    CHECK(p2pb_off_cache_bytes(&pol) == P2PB_OFF_CACHE_MAX);
    pol.cache_bytes = (size_t)8 << 20; /* --cache-size 8M, as IMB -off_cache 8 */
    CHECK(p2pb_off_cache_bytes(&pol) == (size_t)8 << 20);
    pol.off_cache = 0;
    CHECK(p2pb_off_cache_bytes(&pol) == 0);
}

int main(void)
{
    test_settle();
    test_off_cache_bytes();
    test_t975();
    test_interval();
    test_interval_coverage();
    test_shuffle();
    test_floor();
    return CHECK_DONE();
}
