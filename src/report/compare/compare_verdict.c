/* SPDX-License-Identifier: MIT */
/*
 * The verdict rule of compare (docs/methodology.md, "Verdicts and their
 * power"): Welch's t-test on log launch values, the gate, the family of rows
 * and the launches an inconclusive row would need. Formulas and sources are
 * in src/report/compare/compare.h.
 */
#include "compare/compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Mean and sample variance (n - 1) of log x[0..n-1], n >= 2, x > 0. */
static void log_moments(const double *x, size_t n, double *mean, double *var)
{
    double s = 0.0, ss = 0.0;
    for (size_t i = 0; i < n; i++)
        s += log(x[i]);
    *mean = s / (double)n;
    for (size_t i = 0; i < n; i++) {
        double e = log(x[i]) - *mean;
        ss += e * e;
    }
    *var = ss / (double)(n - 1);
}

static int positive_finite(const double *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i]) || !(x[i] > 0.0))
            return 0;
    return 1;
}

enum p2pb_status p2pb_welch_log(const double *a, size_t m, const double *b, size_t n,
                                struct p2pb_welch *out)
{
    if (!a || !b || !out || m < 2 || n < 2 || !positive_finite(a, m) || !positive_finite(b, n))
        return P2PB_EUSAGE;
    double ma, va, mb, vb;
    log_moments(a, m, &ma, &va);
    log_moments(b, n, &mb, &vb);
    double qa = va / (double)m, qb = vb / (double)n; /* squared standard errors */
    memset(out, 0, sizeof *out);
    out->diff = mb - ma;
    out->sd_log = sqrt(((double)(m - 1) * va + (double)(n - 1) * vb) / (double)(m + n - 2));
    if (!(qa + qb > 0.0)) { /* both sides constant: no spread to weigh the difference by */
        out->df = (double)(m + n - 2);
        out->t = out->diff == 0.0 ? 0.0 : copysign(INFINITY, out->diff);
        out->p = out->diff == 0.0 ? 1.0 : 0.0;
        return P2PB_OK;
    }
    out->t = out->diff / sqrt(qa + qb);
    /* Satterthwaite (1946): (qa + qb)^2 / (qa^2 / (m - 1) + qb^2 / (n - 1)) */
    out->df = (qa + qb) * (qa + qb) / (qa * qa / (double)(m - 1) + qb * qb / (double)(n - 1));
    out->p = p2pb_t_two_sided(out->t, out->df);
    return P2PB_OK;
}

enum p2pb_status p2pb_verdict_row_tests(const double *a, size_t m, const double *b, size_t n,
                                        struct p2pb_mwu_null *null, struct p2pb_verdict_row *out)
{
    if (!out)
        return P2PB_EUSAGE;
    memset(out, 0, sizeof *out);
    out->m = m;
    out->n = n;
    out->u = out->p_mwu = out->p_t = out->p_adj = NAN;
    out->t.diff = out->t.t = out->t.p = out->t.df = out->t.sd_log = NAN;
    struct p2pb_mwu_null own = {0};
    struct p2pb_mwu_null *d = null ? null : &own;
    enum p2pb_status st = p2pb_mwu_null_init(d, m, n);
    if (st == P2PB_OK)
        st = p2pb_mwu_test_null(d, a, b, &out->u, &out->p_mwu);
    if (st == P2PB_OK)
        st = p2pb_hl_ratio_null(d, a, b, 0.05, &out->hl);
    if (st == P2PB_OK && m >= 2 && n >= 2) {
        st = p2pb_welch_log(a, m, b, n, &out->t);
        out->p_t = out->t.p;
    }
    p2pb_mwu_null_free(&own);
    return st;
}

enum p2pb_verdict p2pb_compare_verdict(size_t m, size_t n, double p_mwu, double p_adj,
                                       const struct p2pb_hl_ratio *hl, double d)
{
    if (m < P2PB_COMPARE_MIN_LAUNCHES || n < P2PB_COMPARE_MIN_LAUNCHES)
        return P2PB_VERDICT_NONE;
    if (!hl || !hl->ci_valid)
        return P2PB_VERDICT_INCONCLUSIVE;
    double lo = 1.0 - d, hi = 1.0 + d;
    /* NAN p fails both comparisons, so a row without a test is never changed */
    if (p_mwu < P2PB_VERDICT_ALPHA && p_adj < P2PB_VERDICT_ALPHA &&
        (hl->ci_high < lo || hl->ci_low > hi))
        return P2PB_VERDICT_CHANGED;
    if (hl->ci_low >= lo && hl->ci_high <= hi)
        return P2PB_VERDICT_EQUIVALENT;
    return P2PB_VERDICT_INCONCLUSIVE;
}

enum p2pb_status p2pb_launches_needed(double s, double margin, double alpha, double power,
                                      size_t *n_out)
{
    if (!n_out || !isfinite(s) || s < 0.0 || !isfinite(margin) || !(alpha > 0.0 && alpha < 1.0) ||
        !(power > 0.0 && power < 1.0))
        return P2PB_EUSAGE;
    if (!(margin > 0.0))
        return P2PB_ERANGE; /* on the band edge: no number of launches decides */
    double k = 2.0 * s * s / (margin * margin);
    /* the normal-quantile n is a lower bound: t quantiles exceed z quantiles */
    double z = p2pb_t_quantile(1.0 - alpha / 2.0, INFINITY) + p2pb_t_quantile(power, INFINITY);
    double nz = ceil(k * z * z);
    if (nz > (double)P2PB_POWER_MAX_LAUNCHES)
        return P2PB_ERANGE;
    for (size_t n = nz < 2.0 ? 2 : (size_t)nz; n <= P2PB_POWER_MAX_LAUNCHES; n++) {
        double df = (double)(2 * n - 2);
        double q = p2pb_t_quantile(1.0 - alpha / 2.0, df) + p2pb_t_quantile(power, df);
        if ((double)n >= k * q * q) {
            *n_out = n;
            return P2PB_OK;
        }
    }
    return P2PB_ERANGE;
}

enum p2pb_status p2pb_power_note(double ratio, double sd_log, double d, double alpha_change,
                                 size_t now, struct p2pb_power *out)
{
    if (!out || !(ratio > 0.0) || !isfinite(ratio) || !isfinite(sd_log) || sd_log < 0.0 ||
        !(d > 0.0 && d < 1.0) || !(alpha_change > 0.0 && alpha_change < 1.0))
        return P2PB_EUSAGE;
    double lr = fabs(log(ratio));
    double edge = ratio >= 1.0 ? log1p(d) : -log1p(-d); /* the band edge on the ratio's side */
    memset(out, 0, sizeof *out);
    out->sd_log = sd_log;
    /* inside the band: the CI (95%, unadjusted) must shrink inside it; outside: the
     * adjusted test must reject and the CI clear the edge */
    out->goal = lr < edge ? P2PB_POWER_EQUIVALENT : P2PB_POWER_CHANGED;
    out->margin_log = lr < edge ? edge - lr : lr - edge;
    double alpha = lr < edge ? P2PB_VERDICT_ALPHA : alpha_change;
    size_t n = 0;
    enum p2pb_status st = p2pb_launches_needed(sd_log, out->margin_log, alpha, P2PB_POWER, &n);
    if (st == P2PB_ERANGE || out->margin_log < P2PB_POWER_EDGE_LOG) {
        out->goal = out->margin_log < P2PB_POWER_EDGE_LOG ? P2PB_POWER_EDGE : P2PB_POWER_BEYOND;
        return P2PB_OK;
    }
    if (st != P2PB_OK)
        return st;
    /* the gate needs 4 per side; and the row is undecided at the current count */
    if (n < P2PB_COMPARE_MIN_LAUNCHES)
        n = P2PB_COMPARE_MIN_LAUNCHES;
    n = n > now ? n : now + 1;
    if (n > P2PB_POWER_MAX_LAUNCHES) { /* a row of 1000 launches or more still undecided */
        out->goal = P2PB_POWER_BEYOND;
        return P2PB_OK;
    }
    out->launches = n;
    return P2PB_OK;
}

/* The level 0.05 / k_eff the family gives row r as it stands: k_eff = p_adj / p_t
 * (BH: k / rank; Holm: k - rank + 1), Bonferroni's k when p_adj is capped at 1. */
static double row_alpha(const struct p2pb_verdict_row *r, size_t k)
{
    double mult = (double)k;
    if (r->p_t > 0.0 && r->p_adj < 1.0 && r->p_adj >= r->p_t)
        mult = r->p_adj / r->p_t;
    return P2PB_VERDICT_ALPHA / (mult > 1.0 ? mult : 1.0);
}

enum p2pb_status p2pb_verdict_family(struct p2pb_verdict_row *rows, size_t k, int holm, double d)
{
    if (!rows && k)
        return P2PB_EUSAGE;
    double *p = malloc((k ? k : 1) * sizeof *p);
    if (!p)
        return P2PB_ENOMEM;
    size_t nt = 0; /* rows with a t-test: the family */
    for (size_t i = 0; i < k; i++)
        if (isfinite(rows[i].p_t))
            p[nt++] = rows[i].p_t;
    enum p2pb_status st = holm ? p2pb_p_adjust_holm(p, nt, p) : p2pb_p_adjust_bh(p, nt, p);
    for (size_t i = 0, j = 0; st == P2PB_OK && i < k; i++) {
        struct p2pb_verdict_row *r = &rows[i];
        r->p_adj = isfinite(r->p_t) ? p[j++] : NAN;
        r->verdict = p2pb_compare_verdict(r->m, r->n, r->p_mwu, r->p_adj, &r->hl, d);
        memset(&r->power, 0, sizeof r->power);
        /* bad input (a NAN spread) leaves the row without a note (goal NONE) */
        if (r->verdict == P2PB_VERDICT_INCONCLUSIVE &&
            p2pb_power_note(r->hl.ratio, r->t.sd_log, d, row_alpha(r, nt),
                            r->m < r->n ? r->m : r->n, &r->power) != P2PB_OK)
            memset(&r->power, 0, sizeof r->power);
    }
    free(p);
    return st;
}
