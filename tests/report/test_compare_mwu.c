/* SPDX-License-Identifier: MIT */
/*
 * The Mann-Whitney p and the Hodges-Lehmann ratio and CI at 4 .. 3000 launches
 * per side (src/report/compare/compare_mwu.c, compare_stats.c) against values computed
 * apart from them by tests/report/mwu_reference.py (python3, standard library:
 * the exact distribution by another recurrence in exact integers, U by every
 * pair, the HL order statistics by sorting all m n differences, the normal
 * approximation by its textbook formula); its output is pasted below. The data
 * is the same splitmix64 stream in both.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "../lib/check.h"
#include "compare/compare.h"

/* |x - want| <= rel |want| (or both 0) */
#define REL(x, want, rel) (fabs((x) - (want)) <= (rel)*fabs(want))

/* u = (x >> 11) 2^-53 of splitmix64 (Steele, Lea & Flood 2014), as the script draws it */
static double next_u(uint64_t *x)
{
    uint64_t z = (*x += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1p-53;
}

/* v[i] = scale (1 + u_i) of seed's stream; with ties, 1 + floor(10 u_i) */
static void draw(uint64_t seed, size_t n, double scale, int ties, double *v)
{
    for (size_t i = 0; i < n; i++) {
        double u = next_u(&seed);
        v[i] = ties ? 1.0 + floor(10.0 * u) : scale * (1.0 + u);
    }
}

struct ref {
    const char *name; /* "aa": seeds 1 and 2; "x15": seed 1 against 1.5 x seed 3 */
    size_t size;      /* launches per side */
    int exact;
    double u, p;
    size_t k; /* the CI's order statistic (not exposed: its level and values are) */
    double ratio, ci_low, ci_high, level;
};

/* python3 tests/report/mwu_reference.py (2026-12-02) */
static const struct ref refs[] = {
    {"aa", 4, 1, 10.0, 0.68571428571428572, 1, 1.013482352353432, 0.80729959981154786,
     1.2222853798058051, 0.97142857142857142},
    {"x15", 4, 1, 12.0, 0.34285714285714286, 1, 1.1914045019268027, 0.81648800450892411,
     1.7657936061004633, 0.97142857142857142},
    {"aa", 10, 1, 40.0, 0.48125094719521966, 24, 0.97100539569901656, 0.86114959637528365,
     1.1165534196646332, 0.95674294745502175},
    {"x15", 10, 1, 83.0, 0.011496243694386109, 24, 1.3535792973694147, 1.0869146893791719,
     1.6226507641600945, 0.95674294745502175},
    {"aa", 100, 1, 4697.0, 0.46066082434582956, 4198, 0.97837756387016728, 0.92396426989212255,
     1.0357395060479901, 0.95024655958094051},
    {"x15", 100, 1, 9239.0, 3.4267157264613993e-31, 4198, 1.4824988514669519, 1.4014430657752956,
     1.5632931624663799, 0.95024655958094051},
    /* 130 + 130 and up: the normal approximation. The exact values (the script with
     * the exact method forced) for comparison: aa p 0.64296343592854188, x15 p
     * 5.4403751573235988e-40, both k 7262 (the same CI), level 0.95015350651450337 */
    {"aa", 130, 0, 8168.0, 0.64242766782780514, 7262, 0.98875222139026708, 0.94151483125946611,
     1.0383921576677764, 0.95004119542012799},
    {"x15", 130, 0, 15603.0, 4.0274259937062818e-32, 7262, 1.4754346836252592, 1.404089780251601,
     1.545788176768355, 0.95004119542012799},
    {"aa", 500, 0, 129046.0, 0.37568121779309105, 116050, 1.0110064108505639, 0.98698186389228437,
     1.0370222141348246, 0.95000146957570464},
    {"x15", 500, 0, 229258.0, 2.2957900671125864e-115, 116050, 1.5052444915103653,
     1.4688311775153142, 1.5438858020475454, 0.95000146957570464},
    {"aa", 3000, 0, 4578020.0, 0.24485014285117424, 4368511, 1.0058401011782601,
     0.99599307132419446, 1.0159227665629784, 0.95000028372055323},
    /* z = 56.2: erfc underflows to 0 in both */
    {"x15", 3000, 0, 8272494.0, 0, 4368511, 1.5027301225116603, 1.4879839446081982,
     1.5177228630892254, 0.95000028372055323},
};

static void test_reference(void)
{
    size_t nmax = 3000;
    double *a = malloc(nmax * sizeof *a), *b = malloc(nmax * sizeof *b);
    CHECK(a && b);
    if (!a || !b)
        goto out;
    for (size_t i = 0; i < sizeof refs / sizeof refs[0]; i++) {
        const struct ref *r = &refs[i];
        int aa = r->name[0] == 'a';
        draw(1, r->size, 1.0, 0, a);
        draw(aa ? 2 : 3, r->size, aa ? 1.0 : 1.5, 0, b);
        double u = NAN, p = NAN;
        struct p2pb_hl_ratio h;
        CHECK(p2pb_mwu_exact(r->size, r->size) == r->exact);
        CHECK(p2pb_mwu_test(a, r->size, b, r->size, &u, &p) == P2PB_OK);
        CHECK(p2pb_hl_ratio(a, r->size, b, r->size, 0.05, &h) == P2PB_OK);
        /* the exact p in exact integers: 1e-12 relative, also at 3e-31; the normal
         * formula: rounding in z only (z^2 x 1e-16 relative at most) */
        int ok = u == r->u && (r->p == 0.0 ? p == 0.0 : REL(p, r->p, 1e-10));
        /* the order statistics are the same doubles: log b - log a, exponentiated */
        ok = ok && REL(h.ratio, r->ratio, 1e-13) && h.ci_valid && REL(h.ci_low, r->ci_low, 1e-13) &&
             REL(h.ci_high, r->ci_high, 1e-13) && REL(h.ci_level, r->level, 1e-12);
        CHECK(ok);
        if (!ok)
            fprintf(stderr, "%s %zu: U %.1f p %.17g ratio %.17g [%.17g..%.17g] level %.17g\n",
                    r->name, r->size, u, p, h.ratio, h.ci_low, h.ci_high, h.ci_level);
    }
out:
    free(a);
    free(b);
}

/* The exact distribution far in the tail: 100 + 100, P0(U <= u) by the script's
 * exact fractions; then the switch to the normal approximation. */
static void test_exact_tail(void)
{
    static const struct {
        double u, want;
    } tail[] = {{0, 1.1043803465997514e-59}, /* 1 / C(200, 100) */
                {1000, 2.8723550143618725e-27},
                {3000, 3.3857653322490882e-07},
                {4500, 0.11140684020349743},
                {5000, 0.50048628586729194}};
    struct p2pb_mwu_null d = {0};
    CHECK(p2pb_mwu_null_init(&d, 100, 100) == P2PB_OK && d.exact);
    for (size_t i = 0; i < sizeof tail / sizeof tail[0]; i++)
        CHECK(REL(p2pb_mwu_null_cdf(&d, tail[i].u), tail[i].want, 1e-12));
    /* kept when asked again for (100, 100) */
    double *kept = d.lower;
    CHECK(p2pb_mwu_null_init(&d, 100, 100) == P2PB_OK && d.lower == kept);
    /* min(m, n)^2 max(m, n) <= 10^6: exact */
    CHECK(p2pb_mwu_exact(100, 100) && !p2pb_mwu_exact(100, 101) && !p2pb_mwu_exact(101, 100));
    CHECK(p2pb_mwu_exact(10, 10000) && !p2pb_mwu_exact(11, 10000) && p2pb_mwu_exact(4, 62500));
    CHECK(p2pb_mwu_null_init(&d, 101, 100) == P2PB_OK && !d.exact && !d.lower);
    /* sd = sqrt(101 x 100 x 202 / 12) = 412.33 */
    CHECK(REL(d.sd, sqrt(101.0 * 100 * 202 / 12), 1e-15));
    /* exact for 10 + 10000 (C(10010, 10) ~ 2^114: two limbs): P0(U <= 0) = 1 / C(10010, 10),
     * 1 / 2.7939e33 (lgamma); the centre P0(U <= 50000) = 1/2 + N(50000) / (2 C) > 1/2 */
    CHECK(p2pb_mwu_null_init(&d, 10, 10000) == P2PB_OK && d.exact);
    double c = exp(lgamma(10011.0) - lgamma(11.0) - lgamma(10001.0));
    CHECK(REL(p2pb_mwu_null_cdf(&d, 0), 1.0 / c, 1e-9));
    CHECK(p2pb_mwu_null_cdf(&d, 50000) > 0.5 && p2pb_mwu_null_cdf(&d, 49999) < 0.5);
    CHECK(REL(p2pb_mwu_null_cdf(&d, 49999) + p2pb_mwu_null_cdf(&d, 50000), 1.0, 1e-15));
    p2pb_mwu_null_free(&d);
    /* p2pb_mwu_cdf is the exact one only */
    double one[1];
    CHECK(p2pb_mwu_cdf(101, 100, one) == P2PB_ERANGE);
}

/* Ties under the normal approximation (200 + 200, values 1..10, seeds 4 and 5):
 * the script's U 21185.5, tie term sum(t^3 - t) = 673638 and p 0.3028237503634475.
 * Identical groups read p = 1 (the old counting in doubles gave 4e-19 at 200). */
static void test_ties(void)
{
    double a[3000], b[200], u, p;
    draw(4, 200, 1.0, 1, a);
    draw(5, 200, 1.0, 1, b);
    CHECK(p2pb_mwu_test(a, 200, b, 200, &u, &p) == P2PB_OK);
    CHECK(u == 21185.5 && REL(p, 0.3028237503634475, 1e-10));
    CHECK(p2pb_mwu_test(a, 200, a, 200, &u, &p) == P2PB_OK && u == 20000.0 && p == 1.0);
    draw(1, 3000, 1.0, 0, a);
    CHECK(p2pb_mwu_test(a, 3000, a, 3000, &u, &p) == P2PB_OK && u == 4500000.0 && p == 1.0);
    CHECK(p2pb_mwu_test(a, 100, a, 100, &u, &p) == P2PB_OK && u == 5000.0 && p == 1.0);
    /* all values equal: no spread to approximate (variance 0): p = 1 */
    for (int i = 0; i < 200; i++)
        a[i] = b[i] = 7.0;
    CHECK(p2pb_mwu_test(a, 200, b, 200, &u, &p) == P2PB_OK && u == 20000.0 && p == 1.0);
}

/* The row tests at 3000 + 3000 (once far above the old cap of m n = 4e6): A/A is
 * not changed, 1.5x is (the reference data above) */
static void test_rows(void)
{
    static double a[3000], b[3000];
    struct p2pb_verdict_row r[2];
    struct p2pb_mwu_null d = {0};
    draw(1, 3000, 1.0, 0, a);
    draw(2, 3000, 1.0, 0, b);
    CHECK(p2pb_verdict_row_tests(a, 3000, b, 3000, &d, &r[0]) == P2PB_OK);
    draw(3, 3000, 1.5, 0, b);
    CHECK(p2pb_verdict_row_tests(a, 3000, b, 3000, &d, &r[1]) == P2PB_OK);
    p2pb_mwu_null_free(&d);
    CHECK(p2pb_verdict_family(r, 2, 1, 0.05) == P2PB_OK);
    CHECK(r[0].verdict == P2PB_VERDICT_EQUIVALENT);
    CHECK(r[1].verdict == P2PB_VERDICT_CHANGED && r[1].hl.ci_low > 1.05);
}

int main(void)
{
    test_reference();
    test_exact_tail();
    test_ties();
    test_rows();
    return CHECK_DONE();
}
