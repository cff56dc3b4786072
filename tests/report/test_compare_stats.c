/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of src/report/compare/compare_stats.c against values computed by hand
 * (the verdict rule: test_compare_verdict.c).
 * The hand computation is written next to each CHECK.
 */
#include <math.h>
#include <stdio.h>

#include "../lib/check.h"
#include "compare/compare.h"

#define NEAR(x, y, tol) (fabs((x) - (y)) <= (tol))

static void test_cdf(void)
{
    double cdf[17];
    /* m = n = 2: C(4,2) = 6 arrangements; U = 0,1,2,3,4 occur 1,1,2,1,1 times
     * (partitions of u into at most 2 parts each <= 2: 0:{}, 1:{1}, 2:{2},{1,1},
     * 3:{2,1}, 4:{2,2}); cumulative 1/6, 2/6, 4/6, 5/6, 6/6. */
    CHECK(p2pb_mwu_cdf(2, 2, cdf) == P2PB_OK);
    CHECK(NEAR(cdf[0], 1.0 / 6, 1e-12));
    CHECK(NEAR(cdf[1], 2.0 / 6, 1e-12));
    CHECK(NEAR(cdf[2], 4.0 / 6, 1e-12));
    CHECK(NEAR(cdf[3], 5.0 / 6, 1e-12));
    CHECK(NEAR(cdf[4], 1.0, 1e-12));
    /* m = n = 4: C(8,4) = 70. U = 0: 1 way, U = 1: 1 way ({1}), U = 2: 2 ways
     * ({2},{1,1}), U = 3: 3 ways ({3},{2,1},{1,1,1}) -> cdf 1/70, 2/70, 4/70, 7/70. */
    CHECK(p2pb_mwu_cdf(4, 4, cdf) == P2PB_OK);
    CHECK(NEAR(cdf[0], 1.0 / 70, 1e-12));
    CHECK(NEAR(cdf[1], 2.0 / 70, 1e-12));
    CHECK(NEAR(cdf[2], 4.0 / 70, 1e-12));
    CHECK(NEAR(cdf[3], 7.0 / 70, 1e-12));
    /* symmetry: P(U <= 8) - P(U <= 7) is the central mass; P(U <= 7) = 1 - P(U >= 8)
     * and by symmetry P(U <= 7) = P(U >= 9) = 1 - cdf[8], so cdf[7] + cdf[8] = 1. */
    CHECK(NEAR(cdf[7] + cdf[8], 1.0, 1e-12));
    /* m = 3, n = 1: U uniform on 0..3 (4 arrangements) -> cdf 1/4, 2/4, 3/4, 1. */
    CHECK(p2pb_mwu_cdf(3, 1, cdf) == P2PB_OK);
    CHECK(NEAR(cdf[0], 0.25, 1e-12) && NEAR(cdf[1], 0.5, 1e-12) && NEAR(cdf[2], 0.75, 1e-12));
    CHECK(p2pb_mwu_cdf(0, 4, cdf) == P2PB_EUSAGE);
}

static void test_mwu(void)
{
    double u, p;
    const double a4[] = {1, 2, 3, 4}, b4[] = {5, 6, 7, 8};
    /* every a < every b: U = 16 = mn; p = 2 P(U >= 16) = 2 / C(8,4) = 2/70 = 0.028571 */
    CHECK(p2pb_mwu_test(a4, 4, b4, 4, &u, &p) == P2PB_OK);
    CHECK(u == 16.0);
    CHECK(NEAR(p, 2.0 / 70, 1e-12));
    /* reversed: U = 0, same p */
    CHECK(p2pb_mwu_test(b4, 4, a4, 4, &u, &p) == P2PB_OK);
    CHECK(u == 0.0 && NEAR(p, 2.0 / 70, 1e-12));
    /* identical groups {1,2,3,4} vs itself: strict pairs a<b: 3+2+1 = 6, ties 4 x 1/2 = 2,
     * U = 8 = mn/2 (the centre): p = 1 */
    CHECK(p2pb_mwu_test(a4, 4, a4, 4, &u, &p) == P2PB_OK);
    CHECK(u == 8.0 && NEAR(p, 1.0, 1e-12));
    /* 3 vs 3 fully separated: p = 2 / C(6,3) = 2/20 = 0.1 (no verdict possible) */
    CHECK(p2pb_mwu_test(a4, 3, b4, 3, &u, &p) == P2PB_OK);
    CHECK(u == 9.0 && NEAR(p, 0.1, 1e-12));
    /* ties: a = {1,2}, b = {2,3}: 1<2, 1<3, 2=2 (1/2), 2<3 -> U = 3.5. Conservative:
     * lower tail P(U' <= 4) = 1, upper P(U' >= 3) = 1 - cdf[2] = 1 - 4/6 = 2/6;
     * p = 2 x 2/6 = 0.6667 */
    const double ta[] = {1, 2}, tb[] = {2, 3};
    CHECK(p2pb_mwu_test(ta, 2, tb, 2, &u, &p) == P2PB_OK);
    CHECK(u == 3.5 && NEAR(p, 4.0 / 6, 1e-12));
    /* 10 vs 10 separated: p = 2 / C(20,10) = 2 / 184756 = 1.08251e-5 */
    double a10[10], b10[10];
    for (int i = 0; i < 10; i++) {
        a10[i] = 100 + i;
        b10[i] = 200 + i;
    }
    CHECK(p2pb_mwu_test(a10, 10, b10, 10, &u, &p) == P2PB_OK);
    CHECK(u == 100.0 && NEAR(p, 2.0 / 184756, 1e-15));
    /* a = {1,3,5,7}, b = {2,4,6,8}: pairs a<b: 1:<all 4, 3:<3, 5:<2, 7:<1 -> U = 10.
     * upper tail P(U' >= 10) = P(U' <= 6) (symmetry about 8) = cdf[6];
     * counts of U = 0..6 for 4 vs 4 (partitions into <= 4 parts each <= 4):
     * 1,1,2,3,5,5,7 -> 24/70; p = 48/70 = 0.685714 */
    const double oa[] = {1, 3, 5, 7}, ob[] = {2, 4, 6, 8};
    CHECK(p2pb_mwu_test(oa, 4, ob, 4, &u, &p) == P2PB_OK);
    CHECK(u == 10.0 && NEAR(p, 48.0 / 70, 1e-12));
    const double bad[] = {1, NAN};
    CHECK(p2pb_mwu_test(bad, 2, tb, 2, &u, &p) == P2PB_EUSAGE);
}

static void test_hl(void)
{
    struct p2pb_hl_ratio h;
    /* constant sides 10 and 12: every log difference is log 1.2 -> ratio 1.2, CI [1.2, 1.2] */
    const double a[] = {10, 10, 10, 10}, b[] = {12, 12, 12, 12};
    CHECK(p2pb_hl_ratio(a, 4, b, 4, 0.05, &h) == P2PB_OK);
    CHECK(NEAR(h.ratio, 1.2, 1e-12) && h.ci_valid);
    CHECK(NEAR(h.ci_low, 1.2, 1e-12) && NEAR(h.ci_high, 1.2, 1e-12));
    /* a_i = 2^i, b_j = 2^(j+2), i,j = 0..3: log b_j - log a_i = (j - i + 2) log 2.
     * Exponents -1..5 occur 1,2,3,4,3,2,1 times (16 values, cumulative 1,3,6,10,...);
     * the 8th and 9th smallest are both exponent 2: ratio = 2^2 = 4.
     * CI: 4 vs 4, P0(U <= 0) = 1/70 = 0.0143 <= 0.025 < P0(U <= 1) = 2/70,
     * so k = 1: [D_(1), D_(16)] = [2^-1, 2^5] = [0.5, 32], level 1 - 2/70 = 0.9714 */
    const double a2[] = {1, 2, 4, 8}, b2[] = {4, 8, 16, 32};
    CHECK(p2pb_hl_ratio(a2, 4, b2, 4, 0.05, &h) == P2PB_OK);
    CHECK(NEAR(h.ratio, 4.0, 1e-12));
    CHECK(h.ci_valid && NEAR(h.ci_low, 0.5, 1e-12) && NEAR(h.ci_high, 32.0, 1e-9));
    CHECK(NEAR(h.ci_level, 68.0 / 70, 1e-12));
    /* 3 vs 3: P0(U <= 0) = 1/20 = 0.05 > 0.025: no 95% CI exists */
    CHECK(p2pb_hl_ratio(a2, 3, b2, 3, 0.05, &h) == P2PB_OK);
    CHECK(!h.ci_valid);
    /* one value per side (imported logs): ratio b/a = 3.77 / 14.9 = 0.253020 */
    const double s1 = 14.9, s2 = 3.77;
    CHECK(p2pb_hl_ratio(&s1, 1, &s2, 1, 0.05, &h) == P2PB_OK);
    CHECK(NEAR(h.ratio, 3.77 / 14.9, 1e-12) && !h.ci_valid);
    const double zero[] = {0.0, 1.0};
    CHECK(p2pb_hl_ratio(zero, 2, b, 2, 0.05, &h) == P2PB_EUSAGE);
}

static void test_adjust(void)
{
    /* p = {0.01, 0.04, 0.03, 0.005}, k = 4. Sorted: 0.005 (#3), 0.01 (#0), 0.03 (#2), 0.04 (#1).
     * Holm: 4 x 0.005 = 0.02; 3 x 0.01 = 0.03; 2 x 0.03 = 0.06; 1 x 0.04 = 0.04 -> running
     * max 0.06. adj = {0.03, 0.06, 0.06, 0.02}.
     * BH: 0.005 x 4/1 = 0.02; 0.01 x 4/2 = 0.02; 0.03 x 4/3 = 0.04; 0.04 x 4/4 = 0.04;
     * running min from the top: 0.04, 0.04, 0.02, 0.02. adj = {0.02, 0.04, 0.04, 0.02}. */
    const double p[] = {0.01, 0.04, 0.03, 0.005};
    double adj[4];
    CHECK(p2pb_p_adjust_holm(p, 4, adj) == P2PB_OK);
    CHECK(NEAR(adj[0], 0.03, 1e-12) && NEAR(adj[1], 0.06, 1e-12));
    CHECK(NEAR(adj[2], 0.06, 1e-12) && NEAR(adj[3], 0.02, 1e-12));
    CHECK(p2pb_p_adjust_bh(p, 4, adj) == P2PB_OK);
    CHECK(NEAR(adj[0], 0.02, 1e-12) && NEAR(adj[1], 0.04, 1e-12));
    CHECK(NEAR(adj[2], 0.04, 1e-12) && NEAR(adj[3], 0.02, 1e-12));
    /* caps at 1: Holm {0.5, 0.6}: 2 x 0.5 = 1.0, max(1.0, 0.6) = 1.0 */
    const double q[] = {0.6, 0.5};
    CHECK(p2pb_p_adjust_holm(q, 2, adj) == P2PB_OK);
    CHECK(NEAR(adj[0], 1.0, 1e-12) && NEAR(adj[1], 1.0, 1e-12));
    /* in place works */
    double r[] = {0.01, 0.02};
    CHECK(p2pb_p_adjust_bh(r, 2, r) == P2PB_OK);
    /* BH: 0.01 x 2 = 0.02, 0.02 x 1 = 0.02 -> {0.02, 0.02} */
    CHECK(NEAR(r[0], 0.02, 1e-12) && NEAR(r[1], 0.02, 1e-12));
}

int main(void)
{
    test_cdf();
    test_mwu();
    test_hl();
    test_adjust();
    return CHECK_DONE();
}
