/* SPDX-License-Identifier: MIT */
/*
 * Simulated A/A campaigns for the verdict rule (aa_sim.h), and the table of
 * launches per side of docs/methodology.md. Test code: runs the library's
 * own row tests and family verdicts (compare_verdict.c) on drawn values.
 */
#include "aa_sim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"

/* splitmix64 (Steele, Lea & Flood, OOPSLA 2014): a fixed seed, the same draws. */
static uint64_t next_u64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Uniform in (0, 1): 53 random bits, never 0. */
static double uniform(uint64_t *s)
{
    return ((double)(next_u64(s) >> 11) + 0.5) / 9007199254740992.0;
}

/* Standard normal by Box-Muller (one of the pair). */
static double normal(uint64_t *s)
{
    const double two_pi = 6.283185307179586;
    return sqrt(-2.0 * log(uniform(s))) * cos(two_pi * uniform(s));
}

/* Lognormal with mean 1 and coefficient of variation cv:
 * sigma^2 = log(1 + cv^2), mu = -sigma^2 / 2. */
static double lognormal(uint64_t *s, double cv)
{
    double s2 = log1p(cv * cv);
    return exp(-s2 / 2.0 + sqrt(s2) * normal(s));
}

struct p2pb_aa_design p2pb_aa_default(size_t n, size_t c)
{
    struct p2pb_aa_design d = {.launches = n,
                               .campaigns = c,
                               .lat_rows = 97,
                               .thr_skip = 4,
                               .bimodal = 24,
                               .cv = 0.03,
                               .fast_usec = 0.13,
                               .slow_usec = 0.40,
                               .d = 0.05,
                               .seed = 20261201u + n};
    return d;
}

/* One side's launch values, v[launch * lat_rows + row] (usec). */
static void draw_side(const struct p2pb_aa_design *d, uint64_t *rng, double *v)
{
    for (size_t l = 0; l < d->launches; l++) {
        int slow = uniform(rng) < 0.5;
        for (size_t r = 0; r < d->lat_rows; r++) {
            double base = r < d->bimodal ? (slow ? d->slow_usec : d->fast_usec) : 1.0 + (double)r;
            v[l * d->lat_rows + r] = base * lognormal(rng, d->cv);
        }
    }
}

/* The family of one metric: rows first .. lat_rows - 1 of va, vb (latency, or its
 * reciprocal for throughput) through the row tests into rows[]. */
static enum p2pb_status family_tests(const struct p2pb_aa_design *d, const double *va,
                                     const double *vb, size_t first, int recip,
                                     struct p2pb_verdict_row *rows, double *a, double *b)
{
    size_t n = d->launches;
    for (size_t r = first; r < d->lat_rows; r++) {
        for (size_t l = 0; l < n; l++) {
            a[l] = va[l * d->lat_rows + r];
            b[l] = vb[l * d->lat_rows + r];
            if (recip) {
                a[l] = 1.0 / a[l];
                b[l] = 1.0 / b[l];
            }
        }
        enum p2pb_status st = p2pb_verdict_row_tests(a, n, b, n, NULL, &rows[r - first]);
        if (st != P2PB_OK)
            return st;
    }
    return P2PB_OK;
}

/* Count the outcome of rows[0..k-1] (the first `bimodal` of them bimodal) after
 * p2pb_verdict_family into res; also the previous rule (Mann-Whitney p adjusted,
 * then the band). */
static enum p2pb_status count_family(struct p2pb_verdict_row *rows, size_t k, size_t bimodal,
                                     int holm, double d, struct p2pb_aa_result *res, int flags[4])
{
    enum p2pb_status st = p2pb_verdict_family(rows, k, holm, d);
    double *p = malloc((k ? k : 1) * sizeof *p);
    if (!p)
        return P2PB_ENOMEM;
    for (size_t i = 0; i < k; i++)
        p[i] = rows[i].p_mwu;
    if (st == P2PB_OK)
        st = holm ? p2pb_p_adjust_holm(p, k, p) : p2pb_p_adjust_bh(p, k, p);
    for (size_t i = 0; st == P2PB_OK && i < k; i++) {
        const struct p2pb_verdict_row *r = &rows[i];
        res->rows++;
        res->changed_rows += r->verdict == P2PB_VERDICT_CHANGED;
        res->changed_bimodal += r->verdict == P2PB_VERDICT_CHANGED && i < bimodal;
        res->equivalent += r->verdict == P2PB_VERDICT_EQUIVALENT;
        res->inconclusive += r->verdict == P2PB_VERDICT_INCONCLUSIVE;
        flags[0] |= r->verdict == P2PB_VERDICT_CHANGED;
        flags[1] |= r->p_mwu < 0.05 && r->p_adj < 0.05;
        flags[2] |= r->p_adj < 0.05;
        /* the previous rule: gate off (0), the adjusted Mann-Whitney p in its place */
        flags[3] |= p2pb_compare_verdict(r->m, r->n, 0.0, p[i], &r->hl, d) == P2PB_VERDICT_CHANGED;
    }
    free(p);
    return st;
}

enum p2pb_status p2pb_aa_run(const struct p2pb_aa_design *d, struct p2pb_aa_result res[2])
{
    size_t n = d->launches, rows_n = d->lat_rows;
    double *va = malloc(n * rows_n * sizeof *va), *vb = malloc(n * rows_n * sizeof *vb);
    double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    struct p2pb_verdict_row *lat = calloc(rows_n, sizeof *lat), *thr = calloc(rows_n, sizeof *thr);
    enum p2pb_status st = va && vb && a && b && lat && thr ? P2PB_OK : P2PB_ENOMEM;
    uint64_t rng = d->seed;
    memset(res, 0, 2 * sizeof *res);
    for (size_t c = 0; st == P2PB_OK && c < d->campaigns; c++) {
        draw_side(d, &rng, va);
        draw_side(d, &rng, vb);
        st = family_tests(d, va, vb, 0, 0, lat, a, b);
        if (st == P2PB_OK)
            st = family_tests(d, va, vb, d->thr_skip, 1, thr, a, b);
        for (int holm = 0; st == P2PB_OK && holm < 2; holm++) {
            int flags[4] = {0, 0, 0, 0};
            st = count_family(lat, rows_n, d->bimodal, holm, d->d, &res[holm], flags);
            if (st == P2PB_OK)
                st = count_family(thr, rows_n - d->thr_skip,
                                  d->bimodal > d->thr_skip ? d->bimodal - d->thr_skip : 0, holm,
                                  d->d, &res[holm], flags);
            res[holm].campaigns++;
            res[holm].any_changed += (size_t)flags[0];
            res[holm].any_tests += (size_t)flags[1];
            res[holm].any_welch += (size_t)flags[2];
            res[holm].any_old += (size_t)flags[3];
        }
    }
    free(va);
    free(vb);
    free(a);
    free(b);
    free(lat);
    free(thr);
    return st;
}

int p2pb_aa_report(FILE *o, size_t c)
{
    const size_t sizes[] = {4, 6, 10};
    fprintf(o,
            "A/A campaigns: 97 latency rows (24 bimodal: a launch is fast 0.13 or slow 0.40 "
            "usec, p 1/2, for all its bimodal rows), 93 throughput rows (1 / latency), every "
            "value x lognormal CV 3%%; threshold 5%%; %zu campaigns per line\n\n",
            c);
    fprintf(
        o,
        "| launches per side | adjustment | campaigns with a `changed` row | changed rows "
        "(bimodal) | campaigns with gate and p_adj < 0.05 (band ignored) | with Welch p_adj < 0.05 "
        "alone | previous rule: campaigns with `changed` | equivalent rows | inconclusive "
        "rows |\n|---|---|---|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        struct p2pb_aa_design d = p2pb_aa_default(sizes[i], c);
        struct p2pb_aa_result r[2];
        if (p2pb_aa_run(&d, r) != P2PB_OK)
            return -1;
        for (int h = 0; h < 2; h++) {
            double cc = (double)r[h].campaigns, rr = (double)r[h].rows;
            fprintf(
                o,
                "| %zu + %zu | %s | %zu (%.2f%%) | %zu (%zu) | %zu (%.2f%%) | %zu (%.2f%%) | %zu "
                "(%.2f%%) | %.1f%% | %.1f%% |\n",
                sizes[i], sizes[i], h ? "Holm" : "BH", r[h].any_changed,
                100.0 * (double)r[h].any_changed / cc, r[h].changed_rows, r[h].changed_bimodal,
                r[h].any_tests, 100.0 * (double)r[h].any_tests / cc, r[h].any_welch,
                100.0 * (double)r[h].any_welch / cc, r[h].any_old,
                100.0 * (double)r[h].any_old / cc, 100.0 * (double)r[h].equivalent / rr,
                100.0 * (double)r[h].inconclusive / rr);
        }
    }
    return 0;
}

/* One cell: launches per side, "-" on the band edge. */
static void cell(FILE *o, double s, double margin, double alpha)
{
    size_t n = 0;
    if (p2pb_launches_needed(s, margin, alpha, P2PB_POWER, &n) == P2PB_OK)
        fprintf(o, " %zu |", n < P2PB_COMPARE_MIN_LAUNCHES ? P2PB_COMPARE_MIN_LAUNCHES : n);
    else
        fprintf(o, " never |");
}

int p2pb_power_table(FILE *o)
{
    const double cvs[] = {0.025, 0.05, 0.10}, effects[] = {0.05, 0.10, 0.20};
    fprintf(o, "Launches per side, 80%% power, two-sided 5%%, margin log(1 + e), "
               "s = sqrt(log(1 + CV^2)); at least 4 (the gate)\n\n"
               "| launch-to-launch CV | e = 5%% | e = 10%% | e = 20%% |\n|---|---|---|---|\n");
    for (size_t i = 0; i < 3; i++) {
        double s = sqrt(log1p(cvs[i] * cvs[i]));
        fprintf(o, "| %.1f%% |", 100.0 * cvs[i]);
        for (size_t j = 0; j < 3; j++)
            cell(o, s, log1p(effects[j]), P2PB_VERDICT_ALPHA);
        fprintf(o, "\n");
    }
    /* the verdicts at the default band d = 5%: equivalence at true ratio 1 and 1.02
     * (margin log 1.05 - log r); a change of 10%, 20% (margin log r - log 1.05), at the
     * unadjusted level and at Bonferroni's 0.05 / 97 (Holm's worst case, 97 rows) */
    fprintf(o, "\nWith the default band d = 5%%\n\n| launch-to-launch CV | equivalent, r = 1 "
               "| equivalent, r = 1.02 | changed, r = 1.10 | changed, r = 1.20 | changed, r = "
               "1.10, level 0.05/97 | changed, r = 1.20, level 0.05/97 |\n"
               "|---|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < 3; i++) {
        double s = sqrt(log1p(cvs[i] * cvs[i])), e = log1p(0.05);
        fprintf(o, "| %.1f%% |", 100.0 * cvs[i]);
        cell(o, s, e, P2PB_VERDICT_ALPHA);
        cell(o, s, e - log(1.02), P2PB_VERDICT_ALPHA);
        cell(o, s, log(1.10) - e, P2PB_VERDICT_ALPHA);
        cell(o, s, log(1.20) - e, P2PB_VERDICT_ALPHA);
        cell(o, s, log(1.10) - e, P2PB_VERDICT_ALPHA / 97);
        cell(o, s, log(1.20) - e, P2PB_VERDICT_ALPHA / 97);
        fprintf(o, "\n");
    }
    return 0;
}
