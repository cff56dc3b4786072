/* SPDX-License-Identifier: MIT */
/*
 * html_table: the numbers of the html report. Per kernel a table per
 * metric: each side's median of the launch values and their range (from
 * compare's table, compare.c), and with two sides the Hodges-Lehmann ratio
 * B/A with its 95% CI, the adjusted p and the verdict. A verdict is a word
 * in a coloured cell: it reads the same printed in black and white.
 */
#include <math.h>
#include <string.h>

#include "html/html.h"
#include "output/output.h"
#include "html/svg.h"

/* A verdict as a CSS class and its words. */
struct verdict_word {
    const char *cls;
    const char *text;
};

/* The verdict of row r (compare.h), as compare's text table words it. */
static struct verdict_word verdict_of(const struct p2pb_cmp_row *r)
{
    if (r->only)
        return (struct verdict_word){"v-none", strcmp(r->only, "none") == 0 ? "no numbers"
                                               : strcmp(r->only, "A") == 0  ? "on side A only"
                                                                            : "on side B only"};
    if (!r->tested)
        return (struct verdict_word){"v-none", "no verdict (zero value)"};
    switch (r->verdict) {
    case P2PB_VERDICT_CHANGED:
        return r->worse ? (struct verdict_word){"v-worse", "changed (worse)"}
                        : (struct verdict_word){"v-better", "changed (better)"};
    case P2PB_VERDICT_EQUIVALENT: return (struct verdict_word){"v-equiv", "equivalent"};
    case P2PB_VERDICT_INCONCLUSIVE: return (struct verdict_word){"v-inc", "inconclusive"};
    default: return (struct verdict_word){"v-none", "no verdict (< 4 launches)"};
    }
}

/* About 4 significant digits: 10655, 398.5, 12.15, 0.412. */
static const char *num(char *buf, size_t len, double v)
{
    double a = fabs(v);
    if (!isfinite(v))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, a >= 1000 ? "%.0f" : a >= 100 ? "%.1f" : a >= 1 ? "%.2f" : "%.3g", v);
    return buf;
}

/* The marks of a side's cell, in words (not colour): "d 1/6" launches
 * disturbed, "s 1/6" shifted (of the side's launches), as show's 'd', 's'. */
static void marks(FILE *o, size_t dist, size_t shift, size_t launches)
{
    if (dist)
        fprintf(o, "<span class=\"mark\" title=\"disturbed\">d %zu/%zu</span>", dist, launches);
    if (shift)
        fprintf(o, "<span class=\"mark\" title=\"shifted\">s %zu/%zu</span>", shift, launches);
}

/* A side's cell: median [min..max] of its n launches ("-" without any),
 * then its marks. */
static void side_cell(FILE *o, size_t n, double med, double mn, double mx, size_t dist,
                      size_t shift, size_t launches)
{
    char a[32], b[32], c[32];
    if (!n)
        fputs("<td>-", o);
    else if (n == 1 || mn == mx)
        fprintf(o, "<td>%s", num(a, sizeof a, med));
    else
        fprintf(o, "<td>%s <span class=\"n\">[%s..%s]</span>", num(a, sizeof a, med),
                num(b, sizeof b, mn), num(c, sizeof c, mx));
    marks(o, dist, shift, launches);
    fputs("</td>", o);
}

/* A ratio: 3 decimals, or 3 significant digits below 0.1 (0.00712). */
static const char *ratio(char *buf, size_t len, double x)
{
    snprintf(buf, len, x >= 0.1 ? "%.3f" : "%.3g", x);
    return buf;
}

/* The comparison cells of r: ratio [CI], p_adj, verdict (and an order effect). */
static void compare_cells(FILE *o, const struct p2pb_cmp_row *r)
{
    char a[32], b[32], c[32];
    if (r->tested && r->hl.ci_valid)
        fprintf(o, "<td>%s <span class=\"n\">[%s..%s]</span></td>", ratio(a, sizeof a, r->hl.ratio),
                ratio(b, sizeof b, r->hl.ci_low), ratio(c, sizeof c, r->hl.ci_high));
    else
        fprintf(o, "<td>%s</td>", r->tested ? ratio(a, sizeof a, r->hl.ratio) : "-");
    int one = r->na < 2 || r->nb < 2;
    if (one || !isfinite(r->p_adj))
        fputs("<td>-</td>", o);
    else
        fprintf(o, r->p_adj < 0.0001 ? "<td>&lt; 0.0001</td>" : "<td>%.4f</td>", r->p_adj);
    struct verdict_word w = verdict_of(r);
    fprintf(o, "<td class=\"verdict %s\">", w.cls);
    p2pb_xml_text(o, w.text);
    if (r->verdict == P2PB_VERDICT_INCONCLUSIVE && r->power.goal == P2PB_POWER_EDGE)
        fputs("<br><span class=\"n\">on the band edge: more launches will not decide</span>", o);
    else if (r->verdict == P2PB_VERDICT_INCONCLUSIVE && r->power.goal == P2PB_POWER_BEYOND)
        fprintf(o, "<br><span class=\"n\">over %u launches per side at this spread</span>",
                P2PB_POWER_MAX_LAUNCHES);
    else if (r->verdict == P2PB_VERDICT_INCONCLUSIVE && r->power.goal != P2PB_POWER_NONE)
        fprintf(o, "<br><span class=\"n\">%s needs ~%zu launches per side</span>",
                r->power.goal == P2PB_POWER_EQUIVALENT ? "equivalence" : "a change",
                r->power.launches);
    if (r->pos_p_adj < 0.05)
        fprintf(o,
                "<br><span class=\"flag\">order effect: second launch worse in %zu of %zu "
                "rounds</span>",
                r->pos_worse, r->pos_n);
    fputs("</td>", o);
}

/* The header row of a metric's table. */
static void header(FILE *o, const struct html_doc *d, enum p2pb_metric m)
{
    const char *unit = m == P2PB_METRIC_LATENCY ? "t [usec]" : "MB/s";
    fputs("<tr><th>bytes</th>", o);
    for (size_t s = 0; s < d->nsides; s++) {
        fputs("<th>", o);
        p2pb_xml_text(o, d->sides[s].name);
        fprintf(o, " %s<br><span class=\"n\">median [min..max] of %zu</span></th>", unit,
                d->sides[s].nfiles);
    }
    if (d->nsides == 2) {
        fputs("<th>ratio ", o);
        p2pb_xml_printf(o, "%s/%s", d->sides[1].name, d->sides[0].name);
        fputs("<br><span class=\"n\">[95% CI]</span></th><th>p_adj</th><th>verdict</th>", o);
    }
    fputs("</tr>\n", o);
}

/* One metric's table of kernel. */
static void metric_table(FILE *o, const struct html_doc *d, const struct p2pb_cmp_table *t,
                         const char *kernel)
{
    int lat = t->metric == P2PB_METRIC_LATENCY;
    size_t cols = 1 + d->nsides + (d->nsides == 2 ? 3 : 0);
    fprintf(o, "<table class=\"cmp\"><caption>%s%s</caption>\n",
            lat ? "Latency, t [usec]" : "Throughput, MB/s (1 MB = 10^6 B)",
            d->nsides == 2 ? "; ratio: Hodges-Lehmann on log values; p_adj: Welch's t on log "
                             "values, adjusted over all rows of the metric (changed also needs "
                             "the Mann-Whitney p below 0.05)"
                           : "");
    header(o, d, t->metric);
    const char *prev = NULL;
    char sz[32];
    for (size_t i = 0; i < t->nrows; i++) {
        const struct p2pb_cmp_row *r = &t->rows[i];
        if (strcmp(r->kernel, kernel))
            continue;
        if (r->variant[0] && (!prev || strcmp(prev, r->variant))) {
            fprintf(o, "<tr class=\"sub\"><th colspan=\"%zu\">", cols);
            p2pb_xml_text(o, r->variant);
            fputs("</th></tr>\n", o);
        }
        prev = r->variant;
        if (r->bytes < 1024)
            fprintf(o, "<tr><td>%zu</td>", r->bytes);
        else
            fprintf(o, "<tr><td>%zu <span class=\"n\">(%s)</span></td>", r->bytes,
                    p2pb_fmt_size(sz, sizeof sz, r->bytes));
        side_cell(o, r->na, r->med_a, r->min_a, r->max_a, r->dist_a, r->shift_a,
                  d->sides[0].nfiles);
        if (d->nsides == 2) {
            side_cell(o, r->nb, r->med_b, r->min_b, r->max_b, r->dist_b, r->shift_b,
                      d->sides[1].nfiles);
            compare_cells(o, r);
        }
        fputs("</tr>\n", o);
    }
    fputs("</table>\n", o);
}

void p2pb_html_table(FILE *o, const struct html_doc *d, const char *kernel)
{
    fputs("<div class=\"tables\">\n", o);
    metric_table(o, d, &d->lat, kernel);
    metric_table(o, d, &d->thr, kernel);
    size_t dist[2], shift[2];
    if (p2pb_html_marks(d, kernel, dist, shift)) {
        fputs("<p class=\"n\"><span class=\"mark\">d k/n</span>, <span class=\"mark\">s "
              "k/n</span>: k of the side's n launches ",
              o);
        p2pb_xml_text(o, p2pb_html_marks_words);
        fputs(".</p>\n", o);
    }
    fputs("</div>\n", o);
}

/* The verdict classes of the counts, in order, and their words. */
static const char *const count_cls[] = {"v-worse", "v-better", "v-equiv", "v-inc", "v-none"};
static const char *const count_word[] = {"changed (worse)", "changed (better)", "equivalent",
                                         "inconclusive", "no verdict"};
enum { NCOUNT = sizeof count_cls / sizeof count_cls[0] };

/* Rows of t per verdict class of count_cls into n. */
static void count_rows(const struct p2pb_cmp_table *t, size_t n[NCOUNT])
{
    for (size_t i = 0; i < t->nrows; i++) {
        struct verdict_word w = verdict_of(&t->rows[i]);
        for (size_t k = 0; k < NCOUNT; k++)
            n[k] += strcmp(w.cls, count_cls[k]) == 0;
    }
}

void p2pb_html_verdict_counts(FILE *o, const struct html_doc *d)
{
    size_t n[2][NCOUNT] = {{0}};
    count_rows(&d->lat, n[0]);
    count_rows(&d->thr, n[1]);
    fputs("<table class=\"counts\"><caption>Rows per verdict (kernel, variant, size)</caption>\n"
          "<tr><th>verdict</th><th>latency</th><th>throughput</th></tr>\n",
          o);
    for (size_t k = 0; k < NCOUNT; k++) {
        const char *cls = n[0][k] + n[1][k] ? count_cls[k] : "zero";
        fprintf(o,
                "<tr><td class=\"verdict %s\">%s</td><td class=\"%s\">%zu</td>"
                "<td class=\"%s\">%zu</td></tr>\n",
                cls, count_word[k], cls, n[0][k], cls, n[1][k]);
    }
    fputs("</table>\n", o);
}
