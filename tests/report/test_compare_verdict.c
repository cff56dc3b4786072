/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the verdict rule (src/report/compare/compare_verdict.c,
 * compare_tdist.c) against values computed by hand, the issue's case (a
 * 200-fold difference next to a noisy row), and a simulation of A/A
 * campaigns (aa_sim.c). The hand computation is written next to each CHECK.
 *
 *   test_compare_verdict             the checks (ctest, label unit)
 *   test_compare_verdict aa [N]      the A/A simulation, N campaigns per design
 *                                    (default 2000); prints the rates
 *   test_compare_verdict table       the launches-per-side table of
 *                                    docs/methodology.md, in markdown
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aa_sim.h"
#include "../lib/check.h"
#include "compare/compare.h"

#define NEAR(x, y, tol) (fabs((x) - (y)) <= (tol))

static void test_tdist(void)
{
    /* table values (Student's t, e.g. any statistics text; checked with mpmath):
     * t(0.975; 1) = 12.706205, t(0.975; 3) = 3.182446, t(0.975; 10) = 2.228139,
     * t(0.975; 30) = 2.042272, t(0.8; 30) = 0.853767, z(0.975) = 1.959964,
     * z(0.8) = 0.841621 */
    CHECK(NEAR(p2pb_t_quantile(0.975, 1), 12.706205, 1e-6));
    CHECK(NEAR(p2pb_t_quantile(0.975, 3), 3.182446, 1e-6));
    CHECK(NEAR(p2pb_t_quantile(0.975, 10), 2.228139, 1e-6));
    CHECK(NEAR(p2pb_t_quantile(0.975, 30), 2.042272, 1e-6));
    CHECK(NEAR(p2pb_t_quantile(0.8, 30), 0.853767, 1e-6));
    CHECK(NEAR(p2pb_t_quantile(0.025, 10), -2.228139, 1e-6));
    CHECK(NEAR(p2pb_t_quantile(0.975, INFINITY), 1.959964, 1e-6));
    CHECK(NEAR(p2pb_t_quantile(0.8, INFINITY), 0.841621, 1e-6));
    /* the tail at a quantile: P(|T| > t(0.975; 10)) = 0.05; t = 0: 1; df = 1 is
     * Cauchy: P(|T| > 1) = 1 - 2 atan(1) / pi = 0.5 */
    CHECK(NEAR(p2pb_t_two_sided(2.2281388520, 10), 0.05, 1e-9));
    CHECK(NEAR(p2pb_t_two_sided(0.0, 7), 1.0, 1e-12));
    CHECK(NEAR(p2pb_t_two_sided(1.0, 1), 0.5, 1e-12));
    CHECK(p2pb_t_two_sided(INFINITY, 3) == 0.0);
    CHECK(isnan(p2pb_t_two_sided(1.0, 0.0)) && isnan(p2pb_t_quantile(1.0, 3)));
}

static void test_welch(void)
{
    struct p2pb_welch w;
    /* log a = {0, .1, .2, .3}: mean .15, var (.0225 + .0025 + .0025 + .0225) / 3 = .016667;
     * log b = {.5, .7, .9}: mean .7, var (.04 + 0 + .04) / 2 = .04.
     * qa = .016667 / 4 = .0041667, qb = .04 / 3 = .013333; t = .55 / sqrt(.0175) = 4.157609;
     * df = .0175^2 / (.0041667^2 / 3 + .013333^2 / 2) = 3.234719; p (mpmath) = 0.0218187;
     * pooled sd = sqrt((3 x .016667 + 2 x .04) / 5) = sqrt(.026) = 0.161245 */
    const double a[] = {exp(0.0), exp(0.1), exp(0.2), exp(0.3)};
    const double b[] = {exp(0.5), exp(0.7), exp(0.9)};
    CHECK(p2pb_welch_log(a, 4, b, 3, &w) == P2PB_OK);
    CHECK(NEAR(w.diff, 0.55, 1e-12));
    CHECK(NEAR(w.t, 4.157609, 1e-6));
    CHECK(NEAR(w.df, 3.234719, 1e-6));
    CHECK(NEAR(w.p, 0.0218187, 1e-7));
    CHECK(NEAR(w.sd_log, 0.161245, 1e-6));
    /* constant sides: equal -> p 1; different -> p 0 (no spread to weigh by) */
    const double c1[] = {2, 2, 2}, c2[] = {3, 3, 3};
    CHECK(p2pb_welch_log(c1, 3, c1, 3, &w) == P2PB_OK && w.p == 1.0);
    CHECK(p2pb_welch_log(c1, 3, c2, 3, &w) == P2PB_OK && w.p == 0.0 && w.sd_log == 0.0);
    CHECK(p2pb_welch_log(a, 1, b, 3, &w) == P2PB_EUSAGE); /* one launch: no variance */
    const double z[] = {0.0, 1.0};
    CHECK(p2pb_welch_log(z, 2, b, 3, &w) == P2PB_EUSAGE);
}

static void test_verdict_rule(void)
{
    struct p2pb_hl_ratio h = {.ratio = 1.2, .ci_valid = 1, .ci_low = 1.1, .ci_high = 1.3};
    /* CI [1.1, 1.3] wholly above 1.05, gate 0.03, p_adj 0.001: changed */
    CHECK(p2pb_compare_verdict(4, 4, 0.03, 0.001, &h, 0.05) == P2PB_VERDICT_CHANGED);
    /* the gate fails (launches overlap): inconclusive however small p_adj is */
    CHECK(p2pb_compare_verdict(4, 4, 0.06, 1e-9, &h, 0.05) == P2PB_VERDICT_INCONCLUSIVE);
    /* the adjusted test fails: inconclusive */
    CHECK(p2pb_compare_verdict(4, 4, 0.03, 0.2, &h, 0.05) == P2PB_VERDICT_INCONCLUSIVE);
    /* no adjusted p (NAN): never changed */
    CHECK(p2pb_compare_verdict(4, 4, 0.03, NAN, &h, 0.05) == P2PB_VERDICT_INCONCLUSIVE);
    /* 3 launches: no verdict */
    CHECK(p2pb_compare_verdict(3, 10, 0.001, 0.001, &h, 0.05) == P2PB_VERDICT_NONE);
    /* CI [0.98, 1.03] inside [0.95, 1.05]: equivalent; with d = 2%: 1.03 > 1.02, inconclusive */
    struct p2pb_hl_ratio e = {.ratio = 1.0, .ci_valid = 1, .ci_low = 0.98, .ci_high = 1.03};
    CHECK(p2pb_compare_verdict(10, 10, 0.9, 0.9, &e, 0.05) == P2PB_VERDICT_EQUIVALENT);
    CHECK(p2pb_compare_verdict(10, 10, 0.9, 0.9, &e, 0.02) == P2PB_VERDICT_INCONCLUSIVE);
}

/*
 * The issue's campaign (4 + 4 launches, throughput in MB/s, native vs a
 * shaped link): at 64 KiB one native launch was slow; at 1 MiB the shaped
 * link is about 200 times slower and no launch of one side comes near the other.
 */
static void test_issue_case(void)
{
    const double a64[] = {900, 950, 1000, 400}, b64[] = {700, 800, 850, 750};
    const double a1m[] = {1000, 1010, 990, 1005}, b1m[] = {4.6, 4.62, 4.58, 4.61};
    struct p2pb_verdict_row rows[2];
    CHECK(p2pb_verdict_row_tests(a64, 4, b64, 4, NULL, &rows[0]) == P2PB_OK);
    CHECK(p2pb_verdict_row_tests(a1m, 4, b1m, 4, NULL, &rows[1]) == P2PB_OK);
    /* 64K: only a = 400 lies below the b's: U = 4; P0(U <= 4) for 4 vs 4 =
     * (1 + 1 + 2 + 3 + 5) / 70 = 12/70, p = 24/70 = 0.342857 */
    CHECK(NEAR(rows[0].p_mwu, 24.0 / 70, 1e-12));
    /* 1M: U = 0, p = 2/70 = 0.028571, the floor of 4 vs 4 */
    CHECK(NEAR(rows[1].p_mwu, 2.0 / 70, 1e-12));
    /* the rule before: BH on the Mann-Whitney p's: 0.028571 x 2/1 = 0.057 > 0.05,
     * so the 200-fold row was "inconclusive" */
    double p[2] = {rows[0].p_mwu, rows[1].p_mwu};
    CHECK(p2pb_p_adjust_bh(p, 2, p) == P2PB_OK && NEAR(p[1], 4.0 / 70, 1e-12));
    /* now: Welch on the logs of the 1M row: diff = log(4.6025 / 1001.25) = -5.382,
     * standard error about 0.005, |t| > 1000: p far below 1e-6; BH x 2, Holm x 2 */
    for (int holm = 0; holm < 2; holm++) {
        CHECK(p2pb_verdict_family(rows, 2, holm, 0.05) == P2PB_OK);
        CHECK(rows[1].p_adj < 1e-6);
        CHECK(rows[1].verdict == P2PB_VERDICT_CHANGED);
        CHECK(rows[1].hl.ci_high < 0.0047 && rows[1].hl.ci_low > 0.0045);
        CHECK(rows[0].verdict == P2PB_VERDICT_INCONCLUSIVE);
        /* the noisy row's ratio (about 0.84) lies outside the band, with a pooled
         * log SD of about 0.3: a change would need many launches, and says so */
        CHECK(rows[0].power.goal == P2PB_POWER_CHANGED && rows[0].power.launches > 4);
    }
    /* the same 200-fold row next to 96 noisy rows (a default sweep, Holm): changed */
    struct p2pb_verdict_row many[97];
    for (int i = 0; i < 96; i++)
        CHECK(p2pb_verdict_row_tests(a64, 4, b64, 4, NULL, &many[i]) == P2PB_OK);
    CHECK(p2pb_verdict_row_tests(a1m, 4, b1m, 4, NULL, &many[96]) == P2PB_OK);
    CHECK(p2pb_verdict_family(many, 97, 1, 0.05) == P2PB_OK);
    CHECK(many[96].verdict == P2PB_VERDICT_CHANGED);
    /* the README's campaign, 10 + 10, Holm over 97 rows: 96 bimodal A/A rows (launches
     * 0.13 or 0.40) and a 200-fold row in which one launch of A was 2.5 times slower */
    double a10[10], b10[10], c10[10], d10[10];
    for (int i = 0; i < 10; i++) {
        a10[i] = 1000.0 + i;
        b10[i] = (1000.0 + 2 * i) / 217.0;
        c10[i] = i % 2 ? 0.40 : 0.13;
        d10[i] = i % 3 ? 0.40 : 0.13;
    }
    a10[3] *= 2.5;
    for (int i = 0; i < 96; i++)
        CHECK(p2pb_verdict_row_tests(c10, 10, d10, 10, NULL, &many[i]) == P2PB_OK);
    CHECK(p2pb_verdict_row_tests(a10, 10, b10, 10, NULL, &many[96]) == P2PB_OK);
    CHECK(p2pb_verdict_family(many, 97, 1, 0.05) == P2PB_OK);
    CHECK(many[96].verdict == P2PB_VERDICT_CHANGED);
    CHECK(many[0].verdict != P2PB_VERDICT_CHANGED);
}

/* Hand-made A/A campaigns: the same configuration on both sides. */
static void test_aa_cases(void)
{
    /* interleaved values 0.97 .. 1.03: ratio near 1, CI inside [0.95, 1.05] */
    const double a[] = {1.00, 1.02, 0.99, 1.01, 1.03, 0.98};
    const double b[] = {1.01, 0.99, 1.02, 1.00, 0.97, 1.03};
    /* bimodal launches (a whole launch fast or slow), 3 of 6 slow on A, 4 of 6 on B */
    const double c[] = {0.13, 0.40, 0.13, 0.40, 0.41, 0.12};
    const double d[] = {0.40, 0.13, 0.39, 0.40, 0.14, 0.41};
    struct p2pb_verdict_row rows[4];
    CHECK(p2pb_verdict_row_tests(a, 6, b, 6, NULL, &rows[0]) == P2PB_OK);
    CHECK(p2pb_verdict_row_tests(b, 6, a, 6, NULL, &rows[1]) == P2PB_OK);
    CHECK(p2pb_verdict_row_tests(c, 6, d, 6, NULL, &rows[2]) == P2PB_OK);
    CHECK(p2pb_verdict_row_tests(d, 6, c, 6, NULL, &rows[3]) == P2PB_OK);
    for (int holm = 0; holm < 2; holm++) {
        CHECK(p2pb_verdict_family(rows, 4, holm, 0.05) == P2PB_OK);
        for (int i = 0; i < 4; i++)
            CHECK(rows[i].verdict != P2PB_VERDICT_CHANGED);
        CHECK(rows[0].verdict == P2PB_VERDICT_EQUIVALENT);
        /* bimodal: the CI spans 0.13/0.40 .. 0.40/0.13: inconclusive, and no number of
         * launches at this spread can show equivalence quickly: the note says how many */
        CHECK(rows[2].verdict == P2PB_VERDICT_INCONCLUSIVE);
        CHECK(rows[2].power.goal != P2PB_POWER_NONE);
    }
}

static void test_power(void)
{
    size_t n = 0;
    /* s = .05, margin = .05: 2 s^2 / margin^2 = 2. Normal quantiles: 2 (1.959964 + 0.841621)^2
     * = 15.698 -> 16. With t at n = 16 (df 30): 2 (2.042272 + 0.853767)^2 = 16.774 > 16;
     * n = 17 (df 32): 2 (2.036933 + 0.852998)^2 = 16.703 <= 17 -> 17 */
    CHECK(p2pb_launches_needed(0.05, 0.05, 0.05, 0.8, &n) == P2PB_OK && n == 17);
    /* s = .03, margin = .1: k = 2 x .0009 / .01 = .18; z: .18 x 7.848879 = 1.41 -> 2;
     * n = 2 (df 2): .18 (4.302653 + 1.060660)^2 = 5.18 > 2; n = 3 (df 4):
     * .18 (2.776445 + 0.940965)^2 = 2.49 <= 3 -> 3 */
    CHECK(p2pb_launches_needed(0.03, 0.1, 0.05, 0.8, &n) == P2PB_OK && n == 3);
    /* no spread: the smallest n, 2 */
    CHECK(p2pb_launches_needed(0.0, 0.1, 0.05, 0.8, &n) == P2PB_OK && n == 2);
    /* margin 0, or s = .1 with margin .001 (k = 20000, z-n 156978 > 1000): the band edge */
    CHECK(p2pb_launches_needed(0.05, 0.0, 0.05, 0.8, &n) == P2PB_ERANGE);
    CHECK(p2pb_launches_needed(0.1, 0.001, 0.05, 0.8, &n) == P2PB_ERANGE);
    CHECK(p2pb_launches_needed(-1.0, 0.1, 0.05, 0.8, &n) == P2PB_EUSAGE);
    CHECK(p2pb_launches_needed(0.1, 0.1, 0.0, 0.8, &n) == P2PB_EUSAGE);

    struct p2pb_power pw;
    /* ratio 1.02 inside [0.95, 1.05], s = .04: margin log 1.05 - log 1.02 = .0487902 - .0198026
     * = .0289876 (equivalence); k = 2 x .0016 / .0289876^2 = 3.80826; z: 3.80826 x 7.848879
     * = 29.89 -> 30; t at 30 (df 58): 3.80826 (2.001717 + 0.847862)^2 = 30.93 > 30;
     * at 31 (df 60): 3.80826 (2.000298 + 0.847653)^2 = 30.89 <= 31 -> 31 */
    CHECK(p2pb_power_note(1.02, 0.04, 0.05, 0.05, 6, &pw) == P2PB_OK);
    CHECK(pw.goal == P2PB_POWER_EQUIVALENT && pw.launches == 31);
    CHECK(NEAR(pw.margin_log, 0.0289876, 1e-7));
    /* ratio 0.90, s = .05, the family's level for the row .025 (e.g. BH x 2): the lower edge
     * -log .95 = .0512933; margin -log .90 - .0512933 = .1053605 - .0512933 = .0540672
     * (a change); k = 2 x .0025 / .0540672^2 = 1.71042; z: (2.241403 + 0.841621)^2 = 9.50504,
     * x k = 16.26 -> 17; t: 17 fails, 18 holds (mpmath) -> 18 */
    CHECK(p2pb_power_note(0.90, 0.05, 0.05, 0.025, 4, &pw) == P2PB_OK);
    CHECK(pw.goal == P2PB_POWER_CHANGED && pw.launches == 18);
    /* a formula value at or below the current count: one more than now (the row is
     * undecided at now); and never below 4 (the gate) */
    CHECK(p2pb_power_note(1.5, 0.03, 0.05, 0.05, 10, &pw) == P2PB_OK && pw.launches == 11);
    CHECK(p2pb_power_note(1.5, 0.03, 0.05, 0.05, 2, &pw) == P2PB_OK && pw.launches == 4);
    /* one more than now is above 1000 (P2PB_POWER_MAX_LAUNCHES): a row of 1000 or 3000
     * launches per side still undecided needs over 1000, not "~3001" */
    CHECK(p2pb_power_note(1.5, 0.03, 0.05, 0.05, 999, &pw) == P2PB_OK && pw.launches == 1000 &&
          pw.goal == P2PB_POWER_CHANGED);
    CHECK(p2pb_power_note(1.5, 0.03, 0.05, 0.05, 1000, &pw) == P2PB_OK &&
          pw.goal == P2PB_POWER_BEYOND && pw.launches == 0);
    CHECK(p2pb_power_note(1.5, 0.03, 0.05, 0.05, 3000, &pw) == P2PB_OK &&
          pw.goal == P2PB_POWER_BEYOND);
    /* off the edge but a wide spread (a new user's 4 + 4 launches: ratio 1.076, CI
     * [0.816, 2.740]): s = 0.5, margin log(1.076) - log(1.05) = 0.02446; k = 2 x .25 /
     * .02446^2 = 835.7, x z^2 (1.959964 + 0.841621)^2 = 7.849 -> 6560 > 1000 */
    CHECK(p2pb_power_note(1.076, 0.5, 0.05, 0.05, 4, &pw) == P2PB_OK &&
          pw.goal == P2PB_POWER_BEYOND && pw.launches == 0);
    /* on the band edge: 1.05 (margin 0) */
    CHECK(p2pb_power_note(1.05, 0.05, 0.05, 0.05, 6, &pw) == P2PB_OK && pw.goal == P2PB_POWER_EDGE);
    CHECK(p2pb_power_note(0.0, 0.05, 0.05, 0.05, 6, &pw) == P2PB_EUSAGE);
    CHECK(p2pb_power_note(1.1, NAN, 0.05, 0.05, 6, &pw) == P2PB_EUSAGE);
}

/* The A/A simulation at a size the unit test can afford: 100 campaigns of each design;
 * the rule's bound is 5% of campaigns with any "changed" (the measured rate: aa). */
static void test_aa_small(void)
{
    const size_t sizes[] = {6, 10};
    for (size_t i = 0; i < 2; i++) {
        struct p2pb_aa_result res[2];
        struct p2pb_aa_design des = p2pb_aa_default(sizes[i], 100);
        CHECK(p2pb_aa_run(&des, res) == P2PB_OK);
        CHECK(res[0].campaigns == 100 && res[1].campaigns == 100);
        CHECK(res[0].any_changed <= 5 && res[1].any_changed <= 5);
    }
}

int main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "aa") == 0)
        return p2pb_aa_report(stdout, argc >= 3 ? strtoul(argv[2], NULL, 10) : 2000) ? 1 : 0;
    if (argc >= 2 && strcmp(argv[1], "table") == 0)
        return p2pb_power_table(stdout) ? 1 : 0;
    test_tdist();
    test_welch();
    test_verdict_rule();
    test_issue_case();
    test_aa_cases();
    test_power();
    test_aa_small();
    return CHECK_DONE();
}
