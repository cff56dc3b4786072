/* SPDX-License-Identifier: MIT */
/*
 * compare_print: the tables of p2pb_compare_build (compare.c) and the
 * host-context differences (context_diff.c) in text, markdown, csv and json.
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"
#include "compare/compare.h"
#include "text.h"

static const char *metric_name(enum p2pb_metric m)
{
    return m == P2PB_METRIC_LATENCY ? "latency" : "throughput";
}

static const char *metric_unit(enum p2pb_metric m)
{
    return m == P2PB_METRIC_LATENCY ? "usec" : "MB/s";
}

/* "12.34" or "12.34 [11.9 .. 13.1]" (the launch range) */
/* About 4 significant digits, so that "median [min..max]" fits its column:
 * 10655, 398.5, 12.15, 0.412 (p2pb_fmt_sig below 1). */
static char *fmt_cmp(char *buf, size_t len, double v)
{
    double a = fabs(v);
    if (!isfinite(v) || a < 1.0)
        return p2pb_fmt_sig(buf, len, v);
    snprintf(buf, len, a >= 1000 ? "%.0f" : a >= 100 ? "%.1f" : "%.2f", v);
    return buf;
}

/* A side's cell: median [min..max] of its n launch values, and " n=4" when
 * the row used fewer launches than the side has (all). */
static void fmt_side(char *buf, size_t len, size_t n, size_t all, double med, double mn, double mx)
{
    char a[32], b[32], c[32], used[32] = "";
    if (n == 0) {
        snprintf(buf, len, "-");
        return;
    }
    if (n != all)
        snprintf(used, sizeof used, " n=%zu", n);
    fmt_cmp(a, sizeof a, med);
    char whole[160];
    if (n == 1 || mn == mx)
        snprintf(whole, sizeof whole, "%s%s", a, used);
    else
        snprintf(whole, sizeof whole, "%s [%s..%s]%s", a, fmt_cmp(b, sizeof b, mn),
                 fmt_cmp(c, sizeof c, mx), used);
    snprintf(buf, len, "%.*s", (int)(len - 1), whole);
}

/* Significant digits (at least 3) with which 1 - d and 1 + d print as
 * themselves, so that a threshold of 0.0001% does not print as [1, 1]. */
static int bound_digits(double d)
{
    int p = 3;
    for (char b[40]; p < 15; p++) {
        snprintf(b, sizeof b, "%.*g", p, 1.0 - d);
        double lo = strtod(b, NULL);
        snprintf(b, sizeof b, "%.*g", p, 1.0 + d);
        if (fabs(lo - (1.0 - d)) <= 1e-3 * d && fabs(strtod(b, NULL) - (1.0 + d)) <= 1e-3 * d)
            break;
    }
    return p;
}

/* Decimals of a ratio next to threshold d: 3, or enough to tell 1 + d
 * from 1 (one more than the position of d's first digit). */
static int ratio_decimals(double d)
{
    int k = (int)ceil(-log10(d)) + 1;
    return k > 3 ? k : 3;
}

/* dec decimals (3 by default, ratio_decimals), or that many significant digits below 0.1 */
static const char *ratio_str(char *buf, size_t len, double x, int dec)
{
    snprintf(buf, len, x >= 0.1 ? "%.*f" : "%.*g", dec, x);
    return buf;
}

static void fmt_ratio(char *buf, size_t len, const struct p2pb_cmp_row *r, int dec)
{
    char a[32], b[32], c[32];
    if (!r->tested)
        snprintf(buf, len, "-");
    else if (r->hl.ci_valid)
        snprintf(buf, len, "%s [%s..%s]", ratio_str(a, sizeof a, r->hl.ratio, dec),
                 ratio_str(b, sizeof b, r->hl.ci_low, dec),
                 ratio_str(c, sizeof c, r->hl.ci_high, dec));
    else
        snprintf(buf, len, "%s", ratio_str(a, sizeof a, r->hl.ratio, dec));
}

static void fmt_p(char *buf, size_t len, double p)
{
    if (!isfinite(p))
        snprintf(buf, len, "-");
    else if (p < 0.0001)
        snprintf(buf, len, "%.1e", p);
    else
        snprintf(buf, len, "%.4f", p);
}

static const char *row_verdict(const struct p2pb_cmp_row *r)
{
    if (!r->tested)
        return "no verdict (zero value)";
    if (r->verdict == P2PB_VERDICT_NONE)
        return "no verdict (< 4 launches)";
    if (r->verdict == P2PB_VERDICT_CHANGED)
        return r->worse ? "changed (worse)" : "changed (better)";
    return p2pb_verdict_str(r->verdict);
}

/* The power note of an inconclusive row (struct p2pb_power) into buf: what
 * its launches per side would show at its observed spread; "" for others. */
static const char *power_note(char *buf, size_t len, const struct p2pb_cmp_row *r)
{
    buf[0] = '\0';
    if (r->verdict != P2PB_VERDICT_INCONCLUSIVE)
        return buf;
    switch (r->power.goal) {
    case P2PB_POWER_EQUIVALENT:
        snprintf(buf, len, "equivalence needs ~%zu launches per side", r->power.launches);
        break;
    case P2PB_POWER_CHANGED:
        snprintf(buf, len, "a change needs ~%zu launches per side", r->power.launches);
        break;
    case P2PB_POWER_EDGE:
        snprintf(buf, len, "ratio on the band edge: more launches will not decide");
        break;
    case P2PB_POWER_BEYOND:
        snprintf(buf, len, "over %u launches per side at this spread", P2PB_POWER_MAX_LAUNCHES);
        break;
    default: break;
    }
    return buf;
}

/* "k/N" for k marked launches of side s, N its launches; "not recorded" when
 * every file of s is an imported log (a log records no disturbance). */
static const char *marked_of(char *buf, size_t len, size_t k, const struct p2pb_side *s)
{
    size_t imported = 0;
    for (size_t f = 0; f < s->nfiles; f++)
        imported += s->files[f].info.imported != 0;
    if (s->nfiles && imported == s->nfiles)
        snprintf(buf, len, "not recorded (imported)");
    else
        snprintf(buf, len, "%zu/%zu", k, s->nfiles);
    return buf;
}

/* The verdict with its power note in parentheses, then what disturbed the
 * launches of the row, when anything did: "; disturbed A 2/10, B 0/10; shift
 * A 1/10" (docs/host-context.md). */
static const char *verdict_marks(char *buf, size_t len, const struct p2pb_cmp_row *r,
                                 const struct p2pb_side *a, const struct p2pb_side *b)
{
    char pw[96];
    power_note(pw, sizeof pw, r);
    int n = snprintf(buf, len, pw[0] ? "%s (%s)" : "%s%s", row_verdict(r), pw);
    char da[48], db[48];
    if ((r->dist_a || r->dist_b) && n >= 0 && (size_t)n < len)
        n += snprintf(buf + n, len - (size_t)n, "; disturbed A %s, B %s",
                      marked_of(da, sizeof da, r->dist_a, a),
                      marked_of(db, sizeof db, r->dist_b, b));
    if ((r->shift_a || r->shift_b) && n >= 0 && (size_t)n < len)
        snprintf(buf + n, len - (size_t)n, "; shift A %s, B %s",
                 marked_of(da, sizeof da, r->shift_a, a), marked_of(db, sizeof db, r->shift_b, b));
    return buf;
}

/* s for a markdown cell or heading: '|' escaped, '<', '>', '&' as HTML
 * entities (text from files must not become markup); cut to fit len. */
static const char *md_escape(char *buf, size_t len, const char *s)
{
    size_t k = 0;
    for (; *s; s++) {
        const char *e = *s == '<' ? "&lt;" : *s == '>' ? "&gt;" : *s == '&' ? "&amp;" : NULL;
        size_t need = e ? strlen(e) : (*s == '|' ? 2 : 1);
        if (k + need + 1 > len)
            break;
        if (e) {
            memcpy(buf + k, e, need);
            k += need;
            continue;
        }
        if (*s == '|')
            buf[k++] = '\\';
        buf[k++] = *s;
    }
    buf[k] = '\0';
    return buf;
}

/* s as is in text, escaped for markdown (md_escape) into buf. */
static const char *md_text(int md, char *buf, size_t len, const char *s)
{
    return md ? md_escape(buf, len, s) : s;
}

static int same_section(const struct p2pb_cmp_row *x, const struct p2pb_cmp_row *y)
{
    return strcmp(x->kernel, y->kernel) == 0 && strcmp(x->variant, y->variant) == 0;
}

static void print_table_text(FILE *o, int md, const struct p2pb_side *a, const struct p2pb_side *b,
                             const struct p2pb_cmp_table *t, int dec)
{
    const struct p2pb_cmp_row *prev = NULL;
    char sz[16], ca[64], cb[64], cr[128], cp[16], cq[16], vd[256];
    for (size_t i = 0; i < t->nrows; i++) {
        const struct p2pb_cmp_row *r = &t->rows[i];
        if (r->only)
            continue;
        if (!prev || !same_section(prev, r)) {
            if (md) {
                char ea[5 * sizeof a->name], eb[5 * sizeof b->name];
                char en[5 * sizeof r->display_name], ev[5 * sizeof r->variant];
                md_escape(ea, sizeof ea, a->name);
                md_escape(eb, sizeof eb, b->name);
                fprintf(o, "\n### %s%s%s %s (%s)\n\n", md_escape(en, sizeof en, r->display_name),
                        r->variant[0] ? " " : "", md_escape(ev, sizeof ev, r->variant),
                        metric_name(t->metric), metric_unit(t->metric));
                fprintf(o,
                        "| bytes | size | %s [%s] | %s [%s] | ratio %s/%s [95%% CI] | p_mwu | "
                        "p_adj | verdict |\n",
                        ea, metric_unit(t->metric), eb, metric_unit(t->metric), eb, ea);
                fprintf(o, "|---:|---:|---:|---:|---:|---:|---:|:---|\n");
            } else {
                fprintf(o, "\n# %s%s%s %s: %s, median of launch values [min..max]\n",
                        r->display_name, r->variant[0] ? " " : "", r->variant,
                        metric_name(t->metric), metric_unit(t->metric));
                char ha[96], hb[96], hr[160];
                snprintf(ha, sizeof ha, "%s (n=%zu)", a->name, a->nfiles);
                snprintf(hb, sizeof hb, "%s (n=%zu)", b->name, b->nfiles);
                snprintf(hr, sizeof hr, "ratio %s/%s [95%% CI]", b->name, a->name);
                fprintf(o, "%12s %6s %28s %28s %26s %8s %8s  %s\n", "bytes", "size", ha, hb, hr,
                        "p_mwu", "p_adj", "verdict");
            }
        }
        prev = r;
        p2pb_fmt_size(sz, sizeof sz, r->bytes);
        fmt_side(ca, sizeof ca, r->na, a->nfiles, r->med_a, r->min_a, r->max_a);
        fmt_side(cb, sizeof cb, r->nb, b->nfiles, r->med_b, r->min_b, r->max_b);
        fmt_ratio(cr, sizeof cr, r, dec);
        /* one launch on a side: the test has nothing to say (p = 1) */
        int one = r->na < 2 || r->nb < 2;
        fmt_p(cp, sizeof cp, one ? NAN : r->p);
        fmt_p(cq, sizeof cq, one ? NAN : r->p_adj);
        if (md)
            fprintf(o, "| %zu | %s | %s | %s | %s | %s | %s | %s |\n", r->bytes, sz, ca, cb, cr, cp,
                    cq, verdict_marks(vd, sizeof vd, r, a, b));
        else
            fprintf(o, "%12zu %6s %28s %28s %26s %8s %8s  %s\n", r->bytes, sz, ca, cb, cr, cp, cq,
                    verdict_marks(vd, sizeof vd, r, a, b));
    }
}

/* Rows with numbers on one side only, runs of consecutive sizes of one
 * (kernel, variant, side) on one line. */
static void print_only_rows(FILE *o, int md, const struct p2pb_side *a, const struct p2pb_side *b,
                            const struct p2pb_cmp_table *t)
{
    int any = 0;
    char s1[16], s2[16];
    for (size_t i = 0; i < t->nrows; i++) {
        const struct p2pb_cmp_row *r = &t->rows[i];
        if (!r->only)
            continue;
        size_t j = i;
        while (j + 1 < t->nrows && t->rows[j + 1].only && !strcmp(t->rows[j + 1].only, r->only) &&
               same_section(&t->rows[j + 1], r))
            j++;
        const struct p2pb_cmp_row *e = &t->rows[j];
        if (!any)
            fprintf(o, "\n%s Rows with %s values on one side only (not compared):\n",
                    md ? "####" : "#", metric_name(t->metric));
        any = 1;
        const char *side = strcmp(r->only, "A") == 0   ? a->name
                           : strcmp(r->only, "B") == 0 ? b->name
                                                       : "neither side (no numbers)";
        char es[5 * sizeof a->name], ed[5 * sizeof r->display_name], ev[5 * sizeof r->variant];
        side = md_text(md, es, sizeof es, side);
        fprintf(o, "%s%s%s%s ", md ? "- " : "#   ", md_text(md, ed, sizeof ed, r->display_name),
                r->variant[0] ? " " : "", md_text(md, ev, sizeof ev, r->variant));
        if (j == i)
            fprintf(o, "%zu (%s): %s\n", r->bytes, p2pb_fmt_size(s1, sizeof s1, r->bytes), side);
        else
            fprintf(o, "%zu .. %zu (%s .. %s), %zu sizes: %s\n", r->bytes, e->bytes,
                    p2pb_fmt_size(s1, sizeof s1, r->bytes), p2pb_fmt_size(s2, sizeof s2, e->bytes),
                    j - i + 1, side);
        i = j;
    }
}

static void print_files(FILE *o, int md, const char *pfx, const char *tag,
                        const struct p2pb_side *s)
{
    char e[5 * sizeof s->files[0].path];
    fprintf(o, "%s%s = %s: %zu launch%s:", pfx, tag, md_text(md, e, sizeof e, s->name), s->nfiles,
            s->nfiles == 1 ? "" : "es");
    for (size_t i = 0; i < s->nfiles && i < 4; i++)
        fprintf(o, " %s", md_text(md, e, sizeof e, s->files[i].path));
    if (s->nfiles > 4)
        fprintf(o, " ... (%zu more)", s->nfiles - 4);
    int imported = 0;
    for (size_t i = 0; i < s->nfiles; i++)
        imported |= s->files[i].info.imported;
    fprintf(o, "%s\n", imported ? " (imported logs: one averaged value per size, no CI)" : "");
}

/* One line counting the (launch, row) pairs disturbed or shifted per side,
 * over the rows of t (latency and throughput share their launches' rows). */
static void print_marks_summary(FILE *o, const char *pfx, const struct p2pb_cmp_table *t)
{
    size_t da = 0, db = 0, sa = 0, sb = 0, na = 0, nb = 0;
    for (size_t i = 0; i < t->nrows; i++) {
        da += t->rows[i].dist_a;
        db += t->rows[i].dist_b;
        sa += t->rows[i].shift_a;
        sb += t->rows[i].shift_b;
        na += t->rows[i].na;
        nb += t->rows[i].nb;
    }
    if (da + db + sa + sb == 0)
        return;
    fprintf(o,
            "%sdisturbed while measured (steal, time off the CPU, migrations; "
            "docs/host-context.md): A %zu of %zu launch rows, B %zu of %zu; level shifted "
            "while measured: A %zu, B %zu (the verdict column names the rows)\n",
            pfx, da, na, db, nb, sa, sb);
}

/* Range of the CPU frequency (disturbance.cpu_mhz, MHz) over side s's rows
 * into lo, hi; returns the number of rows that had one. */
static size_t side_mhz(const struct p2pb_side *s, double *lo, double *hi)
{
    size_t n = 0;
    for (size_t f = 0; f < s->nfiles; f++)
        for (size_t i = 0; i < s->files[f].nrows; i++) {
            const struct p2pb_disturbance *d = &s->files[f].rows[i].disturbance;
            if (!d->valid || !(d->cpu_mhz > 0))
                continue;
            *lo = n && *lo < d->cpu_mhz ? *lo : d->cpu_mhz;
            *hi = n && *hi > d->cpu_mhz ? *hi : d->cpu_mhz;
            n++;
        }
    return n;
}

/* One line with each side's CPU frequency range, when either side has one. */
static void print_mhz_summary(FILE *o, const char *pfx, const struct p2pb_side *a,
                              const struct p2pb_side *b)
{
    const struct p2pb_side *side[2] = {a, b};
    char txt[2][64];
    size_t total = 0;
    for (int i = 0; i < 2; i++) {
        double lo = 0, hi = 0;
        size_t n = side_mhz(side[i], &lo, &hi);
        total += n;
        if (n)
            p2pb_fmt_mhz_range(txt[i], sizeof txt[i], lo, hi);
        else
            snprintf(txt[i], sizeof txt[i], "unknown");
    }
    if (total)
        fprintf(o, "%sCPU frequency while measured (disturbance.cpu_mhz): A %s, B %s\n", pfx,
                txt[0], txt[1]);
}

/* Whether every tested row of the tables had the exact Mann-Whitney p, not
 * the normal approximation (compare.h, p2pb_mwu_exact). */
static int mwu_all_exact(const struct p2pb_cmp_table *lat, const struct p2pb_cmp_table *thr)
{
    const struct p2pb_cmp_table *const t[2] = {lat, thr};
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < t[k]->nrows; i++)
            if (t[k]->rows[i].tested && !p2pb_mwu_exact(t[k]->rows[i].na, t[k]->rows[i].nb))
                return 0;
    return 1;
}

static void print_text(FILE *o, int md, const struct p2pb_cmp_print *opt, const struct p2pb_side *a,
                       const struct p2pb_side *b, const struct p2pb_cmp_table *lat,
                       const struct p2pb_cmp_table *thr, const struct p2pb_ctx_diff *diff)
{
    const char *pfx = md ? "" : "# ";
    char ea[5 * sizeof a->name], eb[5 * sizeof b->name];
    const char *an = md_text(md, ea, sizeof ea, a->name), *bn = md_text(md, eb, sizeof eb, b->name);
    if (md)
        fprintf(o, "## p2pbench-report compare: %s vs %s\n\n", an, bn);
    else
        fprintf(o, "# p2pbench-report compare: %s vs %s\n", an, bn);
    print_files(o, md, pfx, "A", a);
    if (md)
        fprintf(o, "\n");
    print_files(o, md, pfx, "B", b);
    if (md)
        fprintf(o, "\n");
    fprintf(o,
            "%sper launch: latency = t_usec.median (usec), throughput = mbytes_per_sec "
            "(MB/s, 1 MB = 10^6 B)\n",
            pfx);
    if (md)
        fprintf(o, "\n");
    fprintf(o,
            "%sratio = %s/%s, Hodges-Lehmann on log values with 95%% CI; p_mwu = %stwo-sided "
            "Mann-Whitney U on launch values (the gate, not adjusted%s)\n",
            pfx, bn, an, mwu_all_exact(lat, thr) ? "exact " : "",
            mwu_all_exact(lat, thr) ? ""
                                    : "; exact while min(n_A, n_B)^2 max(n_A, n_B) <= 10^6, "
                                      "e.g. 100 + 100, else the normal approximation with tie "
                                      "and continuity corrections");
    if (md)
        fprintf(o, "\n");
    fprintf(o,
            "%sp_adj = Welch's t on log launch values, %s over all rows of a metric (every kernel "
            "and size of the latency tables together, and of the throughput tables); verdict: "
            "changed if p_mwu < 0.05, p_adj < 0.05 and CI outside [%.*g, %.*g], equivalent if CI "
            "inside, else inconclusive, with the launches per side that would resolve it (80%% "
            "power at the row's spread); no verdict below %d launches per side\n",
            pfx, opt->holm ? "Holm" : "Benjamini-Hochberg", bound_digits(opt->threshold),
            1.0 - opt->threshold, bound_digits(opt->threshold), 1.0 + opt->threshold,
            P2PB_COMPARE_MIN_LAUNCHES);
    p2pb_compare_notes_text(o, md, opt, a, b, lat, thr);
    print_table_text(o, md, a, b, lat, ratio_decimals(opt->threshold));
    print_table_text(o, md, a, b, thr, ratio_decimals(opt->threshold));
    const struct p2pb_cmp_table *tabs[2] = {lat, thr};
    for (int i = 0; i < 2; i++)
        if (tabs[i]->ntested && tabs[i]->best_p_gate >= P2PB_VERDICT_ALPHA)
            fprintf(o,
                    "%swarning: %s: with these launch counts the smallest reachable Mann-Whitney "
                    "p is %.3g (>= 0.05), so no row can be 'changed'; use at least %zu launches "
                    "per side\n",
                    pfx, metric_name(tabs[i]->metric), tabs[i]->best_p_gate,
                    tabs[i]->launches_needed);
    print_only_rows(o, md, a, b, lat);
    print_only_rows(o, md, a, b, thr);
    print_marks_summary(o, pfx, lat);
    print_mhz_summary(o, pfx, a, b);
    if (md)
        fprintf(o, "\n#### Host context differences besides the label\n\n");
    else
        fprintf(o, "\n# Host context differences besides the label (%zu):\n", diff->n);
    if (!diff->n)
        fprintf(o, "%s(none recorded)\n", md ? "- " : "#   ");
    for (size_t i = 0; i < diff->n; i++) { /* sanitised (context_diff.c); markup escaped */
        fputs(md ? "- " : "#   ", o);
        if (md)
            p2pb_md_field(o, diff->lines[i]);
        else
            fputs(diff->lines[i], o);
        fputc('\n', o);
    }
}

static void csv_num(FILE *o, double v)
{
    fputc(',', o);
    if (isfinite(v))
        fprintf(o, "%.9g", v);
}

static void csv_str(FILE *o, const char *s)
{
    fputc(',', o);
    p2pb_csv_field(o, s);
}

/* What an inconclusive row needs (struct p2pb_power): its goal as a word and
 * the launches per side; "" and "" for other rows. */
static const char *power_goal(const struct p2pb_cmp_row *r)
{
    if (r->verdict != P2PB_VERDICT_INCONCLUSIVE)
        return NULL;
    switch (r->power.goal) {
    case P2PB_POWER_EQUIVALENT: return "equivalent";
    case P2PB_POWER_CHANGED: return "changed";
    case P2PB_POWER_EDGE: return "band edge";
    case P2PB_POWER_BEYOND: return "over 1000";
    default: return NULL;
    }
}

static void csv_power(FILE *o, const struct p2pb_cmp_row *r)
{
    const char *g = power_goal(r);
    if (g && r->power.goal != P2PB_POWER_EDGE && r->power.goal != P2PB_POWER_BEYOND)
        fprintf(o, ",%zu", r->power.launches);
    else
        fputc(',', o);
    csv_str(o, g ? g : "");
}

static void print_csv(FILE *o, const struct p2pb_side *a, const struct p2pb_side *b,
                      const struct p2pb_cmp_table *const tabs[2])
{
    fputs("metric,unit,side_a,side_b,kernel,variant,bytes,n_a,median_a,min_a,max_a,n_b,median_b,"
          "min_b,max_b,ratio,ratio_ci95_low,ratio_ci95_high,u,p,p_adj,verdict,worse,only,"
          "median_a_ci95_low,median_a_ci95_high,median_b_ci95_low,median_b_ci95_high,"
          "launches_a,launches_b,incomplete_a,incomplete_b,position_rounds,"
          "position_second_worse,position_p_adj,p_t,df_t,sd_log,launches_needed,"
          "launches_needed_to_show\n",
          o);
    for (int t = 0; t < 2; t++)
        for (size_t i = 0; i < tabs[t]->nrows; i++) {
            const struct p2pb_cmp_row *r = &tabs[t]->rows[i];
            fputs(metric_name(tabs[t]->metric), o);
            csv_str(o, metric_unit(tabs[t]->metric));
            csv_str(o, a->name);
            csv_str(o, b->name);
            csv_str(o, r->kernel);
            csv_str(o, r->variant);
            fprintf(o, ",%zu,%zu", r->bytes, r->na);
            csv_num(o, r->med_a);
            csv_num(o, r->min_a);
            csv_num(o, r->max_a);
            fprintf(o, ",%zu", r->nb);
            csv_num(o, r->med_b);
            csv_num(o, r->min_b);
            csv_num(o, r->max_b);
            csv_num(o, r->tested ? r->hl.ratio : NAN);
            csv_num(o, r->tested && r->hl.ci_valid ? r->hl.ci_low : NAN);
            csv_num(o, r->tested && r->hl.ci_valid ? r->hl.ci_high : NAN);
            csv_num(o, r->u);
            csv_num(o, r->p);
            csv_num(o, r->p_adj);
            csv_str(o, r->only ? "one side only" : row_verdict(r));
            fprintf(o, ",%d", r->worse);
            csv_str(o, r->only ? r->only : "");
            csv_num(o, r->ci_a[0]);
            csv_num(o, r->ci_a[1]);
            csv_num(o, r->ci_b[0]);
            csv_num(o, r->ci_b[1]);
            fprintf(o, ",%zu,%zu,%zu,%zu,%zu,%zu", a->nfiles, b->nfiles, a->nincomplete,
                    b->nincomplete, r->pos_n, r->pos_worse);
            csv_num(o, r->pos_p_adj);
            csv_num(o, r->p_t);
            csv_num(o, r->df_t);
            csv_num(o, r->sd_log);
            csv_power(o, r);
            fputc('\n', o);
        }
}

static void jnum(cJSON *o, const char *k, double v)
{
    if (isfinite(v))
        cJSON_AddNumberToObject(o, k, v);
    else
        cJSON_AddNullToObject(o, k);
}

/* One side's fields of a json row: n_S, median_S, min_S, max_S and the
 * median's 95% CI, for side S ("a" or "b"). */
static void json_side(cJSON *j, const char *side, size_t n, double med, double mn, double mx,
                      const double ci[2])
{
    static const char *const fmt[] = {"n_%s",   "median_%s",          "min_%s",
                                      "max_%s", "median_%s_ci95_low", "median_%s_ci95_high"};
    const double v[] = {(double)n, med, mn, mx, ci[0], ci[1]};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        char key[32];
        snprintf(key, sizeof key, fmt[i], side);
        if (i == 0)
            cJSON_AddNumberToObject(j, key, v[i]);
        else
            jnum(j, key, v[i]);
    }
}

/* "power" of an inconclusive row: {"to_show": "equivalent" | "changed" |
 * "band edge" or "over 1000", "launches_per_side": n or null, "sd_log", "margin_log"}. */
static void json_power(cJSON *j, const struct p2pb_cmp_row *r)
{
    const char *g = power_goal(r);
    if (!g)
        return;
    cJSON *pw = cJSON_AddObjectToObject(j, "power");
    cJSON_AddStringToObject(pw, "to_show", g);
    jnum(pw, "launches_per_side",
         r->power.goal == P2PB_POWER_EDGE || r->power.goal == P2PB_POWER_BEYOND
             ? NAN
             : (double)r->power.launches);
    jnum(pw, "sd_log", r->power.sd_log);
    jnum(pw, "margin_log", r->power.margin_log);
}

static void print_json(FILE *o, const struct p2pb_cmp_print *opt, const struct p2pb_side *a,
                       const struct p2pb_side *b, const struct p2pb_cmp_table *const tabs[2],
                       const struct p2pb_ctx_diff *diff)
{
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return;
    cJSON_AddStringToObject(root, "type", "compare");
    cJSON_AddStringToObject(root, "side_a", a->name);
    cJSON_AddStringToObject(root, "side_b", b->name);
    cJSON_AddNumberToObject(root, "launches_a", (double)a->nfiles);
    cJSON_AddNumberToObject(root, "launches_b", (double)b->nfiles);
    cJSON_AddStringToObject(root, "p_adjust", opt->holm ? "holm" : "benjamini-hochberg");
    cJSON_AddStringToObject(root, "p_adj_test", "welch-t-log");
    cJSON_AddNumberToObject(root, "threshold", opt->threshold);
    cJSON_AddNumberToObject(root, "incomplete_a", (double)a->nincomplete);
    cJSON_AddNumberToObject(root, "incomplete_b", (double)b->nincomplete);
    p2pb_compare_notes_json(root, opt, a, b, tabs[0], tabs[1]);
    cJSON *rows = cJSON_AddArrayToObject(root, "rows");
    for (int t = 0; t < 2; t++)
        for (size_t i = 0; i < tabs[t]->nrows; i++) {
            const struct p2pb_cmp_row *r = &tabs[t]->rows[i];
            cJSON *j = cJSON_CreateObject();
            cJSON_AddStringToObject(j, "metric", metric_name(tabs[t]->metric));
            cJSON_AddStringToObject(j, "unit", metric_unit(tabs[t]->metric));
            cJSON_AddStringToObject(j, "kernel", r->kernel);
            if (r->variant[0])
                cJSON_AddStringToObject(j, "variant", r->variant);
            cJSON_AddNumberToObject(j, "bytes", (double)r->bytes);
            json_side(j, "a", r->na, r->med_a, r->min_a, r->max_a, r->ci_a);
            json_side(j, "b", r->nb, r->med_b, r->min_b, r->max_b, r->ci_b);
            jnum(j, "ratio", r->tested ? r->hl.ratio : NAN);
            jnum(j, "ratio_ci95_low", r->tested && r->hl.ci_valid ? r->hl.ci_low : NAN);
            jnum(j, "ratio_ci95_high", r->tested && r->hl.ci_valid ? r->hl.ci_high : NAN);
            jnum(j, "u", r->u);
            jnum(j, "p", r->p);
            jnum(j, "p_t", r->p_t);
            jnum(j, "df_t", r->df_t);
            jnum(j, "sd_log", r->sd_log);
            jnum(j, "p_adj", r->p_adj);
            cJSON_AddStringToObject(j, "verdict",
                                    r->only ? "one side only" : p2pb_verdict_str(r->verdict));
            cJSON_AddBoolToObject(j, "worse", r->worse);
            json_power(j, r);
            if (r->only)
                cJSON_AddStringToObject(j, "only", r->only);
            if (r->dist_a || r->dist_b || r->shift_a || r->shift_b) {
                cJSON_AddNumberToObject(j, "disturbed_a", (double)r->dist_a);
                cJSON_AddNumberToObject(j, "disturbed_b", (double)r->dist_b);
                cJSON_AddNumberToObject(j, "shifted_a", (double)r->shift_a);
                cJSON_AddNumberToObject(j, "shifted_b", (double)r->shift_b);
            }
            if (r->pos_n) {
                cJSON_AddNumberToObject(j, "position_rounds", (double)r->pos_n);
                cJSON_AddNumberToObject(j, "position_second_worse", (double)r->pos_worse);
                jnum(j, "position_p_adj", r->pos_p_adj);
            }
            cJSON_AddItemToArray(rows, j);
        }
    cJSON *ctx = cJSON_AddArrayToObject(root, "context_differences");
    for (size_t i = 0; i < diff->n; i++)
        cJSON_AddItemToArray(ctx, cJSON_CreateString(diff->lines[i]));
    char *txt = cJSON_Print(root);
    if (txt) {
        p2pb_text_write_json(o, txt, strlen(txt)); /* C1 and bidi controls as \uXXXX */
        fputc('\n', o);
        cJSON_free(txt);
    }
    cJSON_Delete(root);
}

void p2pb_compare_print(FILE *o, const struct p2pb_cmp_print *opt, const struct p2pb_side *a,
                        const struct p2pb_side *b, const struct p2pb_cmp_table *lat,
                        const struct p2pb_cmp_table *thr, const struct p2pb_ctx_diff *diff)
{
    const struct p2pb_cmp_table *const tabs[2] = {lat, thr};
    switch (opt->fmt) {
    case P2PB_OUT_CSV: print_csv(o, a, b, tabs); break;
    case P2PB_OUT_JSON: print_json(o, opt, a, b, tabs, diff); break;
    case P2PB_OUT_MARKDOWN: print_text(o, 1, opt, a, b, lat, thr, diff); break;
    default: print_text(o, 0, opt, a, b, lat, thr, diff); break;
    }
    fflush(o);
}
