/* SPDX-License-Identifier: MIT */
/*
 * html: the html report, one self-contained page (inline CSS and SVG, no
 * script, no network reference) that opens from a mail attachment and
 * reads the same printed. The page is a table of sections (below): a
 * summary of the runs and the verdicts with the confounders compare found,
 * per kernel its charts (html_chart.c) and tables (html_table.c), and the
 * host-context differences. The numbers are compare's (compare.c,
 * compare_order.c, compare_notes.c, context_diff.c), never recomputed here.
 * A new section (e.g. a survey heatmap) is one more entry of sections[]
 * with its own "applies" test. Every text from a file goes through
 * p2pb_xml_text (svg.c): sanitised, then escaped.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "html/html.h"
#include "html/svg.h"
#include "input.h"
#include "version.h"

static const char css[] =
    "body{font:14px/1.4 system-ui,'DejaVu Sans',Arial,sans-serif;color:#111;margin:0 auto;"
    "max-width:1120px;padding:12px 20px;background:#fff}\n"
    "h1{font-size:22px;margin:4px 0}h2{font-size:18px;border-bottom:2px solid #333;"
    "margin:22px 0 8px}h3{font-size:15px;margin:12px 0 6px}\n"
    ".sub1{color:#444;margin:0 0 8px}.n{color:#555;font-size:12px}\n"
    "table{border-collapse:collapse;margin:6px 0 12px}caption{text-align:left;font-weight:600;"
    "padding:2px 0}\n"
    "td,th{border:1px solid #bbb;padding:3px 7px;text-align:right;vertical-align:top}"
    "th{background:#eee}\n"
    "table.facts td,table.facts th{text-align:left}tr.differs th::after{content:' (differs)';"
    "font-weight:400;color:#a00}\n"
    "tr.sub th{text-align:left;background:#f6f6f6}\n"
    ".verdict{text-align:left;font-weight:600}.v-worse{background:#f8c9c4}.v-better{background:"
    "#c8e8c8}.v-equiv{background:#d4e4f4}.v-inc{background:#fbeab0}.v-none{background:#eee;"
    "font-weight:400}.zero{color:#888;font-weight:400}\n"
    ".flag{font-weight:400;font-size:12px}\n"
    ".top{display:flex;flex-wrap:wrap;gap:18px;align-items:flex-start}.top>div{flex:1 1 420px}\n"
    ".notes{border:2px solid #333;padding:4px 12px;background:#fafafa}.notes li{margin:3px 0}\n"
    ".charts{display:flex;flex-wrap:wrap;gap:8px}figure.chart{margin:0}\n"
    "svg text{font-family:system-ui,'DejaVu Sans',Arial,sans-serif}\n"
    ".ctitle{font-size:14px;font-weight:600}.tick{font-size:11px;fill:#333}.alabel{font-size:"
    "12px}.eagerlabel{font-size:11px;fill:#333}\n"
    ".grid{stroke:#ccc;stroke-width:0.8}.minor{stroke:#e6e6e6}.frame{fill:none;stroke:#333}"
    ".eager{stroke:#333;stroke-width:1.2;stroke-dasharray:5 4}\n"
    "ul.legend{list-style:none;padding:0;margin:2px 0 8px;display:flex;flex-wrap:wrap;gap:4px "
    "18px}ul.legend svg{vertical-align:middle}\n"
    ".kernel{break-inside:avoid-page}\n"
    ".hl{font-size:11px;fill:#222}.slow{font-weight:700;fill:#000}.hv{font-size:10.5px;fill:#111}"
    ".hv.dark{fill:#fff}.xmark{stroke:#000;stroke-width:2}.xmark.under{stroke:#fff;"
    "stroke-width:4.5}\n"
    "td.name{text-align:left}.mark{font-size:12px;font-weight:700;border:1px solid #333;"
    "padding:0 3px;margin-left:4px;white-space:nowrap}\n"
    "@media print{body{max-width:none}*{-webkit-print-color-adjust:exact;print-color-adjust:"
    "exact}figure.chart,table{break-inside:avoid}}\n";

/* Every file is a survey file: the page is a survey report, its section first. */
static int survey_only(const struct html_doc *d)
{
    size_t n = 0;
    for (size_t s = 0; s < d->nsides; s++)
        n += d->sides[s].nfiles;
    return d->nsurvey_files > 0 && d->nsurvey_files == n;
}

/* What compare used and what to distrust (compare_notes.c), and the number
 * of host-context differences. */
static void notes_box(FILE *o, const struct html_doc *d)
{
    fputs("<div class=\"notes\"><h3>Confounders and notes</h3><ul>\n", o);
    for (size_t i = 0; i < d->nnotes; i++) {
        fputs("<li>", o);
        p2pb_xml_text(o, d->notes[i]);
        fputs("</li>\n", o);
    }
    if (d->nsides == 2)
        fprintf(o, "<li>%zu host-context difference%s besides the label (listed at the end)</li>\n",
                d->diff.n, d->diff.n == 1 ? "" : "s");
    size_t dist[2], shift[2];
    if (p2pb_html_marks(d, NULL, dist, shift)) {
        size_t rows[2] = {0, 0}; /* (launch, row) pairs with a number, per side */
        for (size_t i = 0; i < d->lat.nrows; i++) {
            rows[0] += d->lat.rows[i].na;
            rows[1] += d->lat.rows[i].nb;
        }
        fputs("<li class=\"marked\">", o);
        for (size_t s = 0; s < d->nsides; s++)
            p2pb_xml_printf(o, "%s%s: %zu of %zu launch rows disturbed (%.0f%%), %zu shifted",
                            s ? "; " : "", d->sides[s].name, dist[s], rows[s],
                            rows[s] ? 100.0 * (double)dist[s] / (double)rows[s] : 0.0, shift[s]);
        fputs(" (marked in the tables and charts; ", o);
        p2pb_xml_text(o, p2pb_html_marks_words);
        fputs(")</li>\n", o);
    }
    if (!d->nnotes && d->nsides == 1 && !survey_only(d))
        fputs("<li>one group of runs: no comparison (give a second group after --vs)</li>\n", o);
    else if (!d->nnotes && d->nsides == 1 && !p2pb_html_marks(d, NULL, dist, shift))
        fputs("<li>none: every file complete, no launch row disturbed or shifted</li>\n", o);
    fputs("</ul></div>\n", o);
}

static int always(const struct html_doc *d)
{
    (void)d;
    return 1;
}

static int two_sides(const struct html_doc *d)
{
    return d->nsides == 2;
}

static int survey_and_more(const struct html_doc *d)
{
    return d->nsurvey_files > 0 && !survey_only(d);
}

static void section_summary(FILE *o, const struct html_doc *d)
{
    fputs("<h2>Summary</h2>\n<div class=\"top\"><div>\n", o);
    p2pb_html_facts_table(o, d);
    fputs("</div><div>\n", o);
    if (d->nsides == 2)
        p2pb_html_verdict_counts(o, d);
    notes_box(o, d);
    fputs("</div></div>\n", o);
}

static void section_context(FILE *o, const struct html_doc *d)
{
    fprintf(o, "<h2>Host context differences besides the label (%zu)</h2>\n<ul>\n", d->diff.n);
    if (!d->diff.n)
        fputs("<li>none recorded</li>\n", o);
    for (size_t i = 0; i < d->diff.n; i++) {
        fputs("<li>", o);
        p2pb_xml_text(o, d->diff.lines[i]);
        fputs("</li>\n", o);
    }
    fputs("</ul>\n", o);
}

/* Per kernel (in table order): its charts and tables; the kernels of
 * survey files are the survey section's. */
static void section_kernels(FILE *o, const struct html_doc *d)
{
    for (size_t i = 0; i < d->lat.nrows; i++) {
        const struct p2pb_cmp_row *r = &d->lat.rows[i];
        if ((i && strcmp(d->lat.rows[i - 1].kernel, r->kernel) == 0) ||
            p2pb_html_survey_kernel(d, r->kernel))
            continue;
        fputs("<section class=\"kernel\">\n<h2>", o);
        p2pb_xml_text(o, r->display_name);
        fputs("</h2>\n", o);
        p2pb_html_charts(o, d, r->kernel);
        p2pb_html_table(o, d, r->kernel);
        fputs("</section>\n", o);
    }
}

/* The sections of the page, in order: each is written when it applies. */
static const struct html_section {
    int (*applies)(const struct html_doc *d);
    void (*write)(FILE *o, const struct html_doc *d);
} sections[] = {
    {survey_only, p2pb_html_survey_section},
    {always, section_summary},
    {survey_and_more, p2pb_html_survey_section},
    {always, section_kernels},
    {two_sides, section_context},
};

/* The page head: title, what the page shows, the units. */
static void page_head(FILE *o, const struct html_doc *d, const char *title)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", o);
    p2pb_xml_text(o, title);
    fprintf(o, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", css);
    p2pb_xml_text(o, title);
    fputs("</h1>\n<p class=\"sub1\">", o);
    if (survey_only(d)) {
        fprintf(o,
                "%zu survey file%s. t in usec; MB/s with 1 MB = 10^6 B. Written by "
                "p2pbench-report %s.</p>\n",
                d->nsurvey_files, d->nsurvey_files == 1 ? "" : "s", P2PB_VERSION);
        return;
    }
    for (size_t s = 0; s < d->nsides; s++) {
        fputs(s ? " vs " : "", o);
        p2pb_xml_text(o, d->sides[s].name);
        fprintf(o, " (%zu launch%s)", d->sides[s].nfiles, d->sides[s].nfiles == 1 ? "" : "es");
    }
    fprintf(o,
            ". Message size in bytes (1K = 1024); t in usec; MB/s with 1 MB = 10^6 B. Written by "
            "p2pbench-report %s.</p>\n",
            P2PB_VERSION);
}

/* The notes of p2pb_compare_notes_text as lines without their "# ". */
static enum p2pb_status collect_notes(struct html_doc *d)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m)
        return P2PB_ENOMEM;
    struct p2pb_side empty = {0};
    struct p2pb_cmp_print po = {.holm = d->opt->holm,
                                .threshold = d->opt->threshold,
                                .order = d->nsides == 2 ? &d->order : NULL};
    p2pb_compare_notes_text(m, 0, &po, &d->sides[0], d->nsides == 2 ? &d->sides[1] : &empty,
                            &d->lat, &d->thr);
    fclose(m);
    enum p2pb_status st = P2PB_OK;
    for (char *line = buf, *nl; st == P2PB_OK && line && *line; line = nl ? nl + 1 : NULL) {
        nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        char **grown = realloc(d->notes, (d->nnotes + 1) * sizeof *grown);
        if (!grown || !(grown[d->nnotes] = strdup(line + (strncmp(line, "# ", 2) ? 0 : 2))))
            st = P2PB_ENOMEM;
        if (grown)
            d->notes = grown;
        if (st == P2PB_OK)
            d->nnotes++;
    }
    free(buf);
    return st;
}

/* The tables, the context differences, the order, the notes, the eager
 * limits and the surveys. Returns P2PB_OK, P2PB_ENOMEM (no message), or the
 * status of p2pb_html_surveys_load with its message in err. */
static enum p2pb_status doc_build(struct html_doc *d, char *err, size_t errlen)
{
    struct p2pb_side empty = {0};
    const struct p2pb_side *b = d->nsides == 2 ? &d->sides[1] : &empty;
    const struct p2pb_html_opt *opt = d->opt;
    if (p2pb_compare_build(&d->sides[0], b, P2PB_METRIC_LATENCY, opt->holm, opt->threshold,
                           &d->lat) ||
        p2pb_compare_build(&d->sides[0], b, P2PB_METRIC_THROUGHPUT, opt->holm, opt->threshold,
                           &d->thr))
        return P2PB_ENOMEM;
    if (d->nsides == 2) {
        if (p2pb_compare_position(&d->sides[0], b, opt->holm, &d->lat) ||
            p2pb_compare_position(&d->sides[0], b, opt->holm, &d->thr) ||
            p2pb_context_diff(&d->sides[0], b, &d->diff))
            return P2PB_ENOMEM;
        p2pb_order_check(&d->sides[0], b, &d->order);
    }
    for (size_t s = 0; s < 2; s++) {
        char v[64];
        d->eager[s] = -1;
        if (s < d->nsides && d->sides[s].nfiles &&
            p2pb_html_run_str(d->sides[s].files[0].run, "eager_limit_marked", v, sizeof v)[0])
            d->eager[s] = strtod(v, NULL);
    }
    enum p2pb_status st = collect_notes(d);
    return st == P2PB_OK ? p2pb_html_surveys_load(d, err, errlen) : st;
}

static void doc_free(struct html_doc *d)
{
    p2pb_compare_free(&d->lat);
    p2pb_compare_free(&d->thr);
    p2pb_ctx_diff_free(&d->diff);
    for (size_t i = 0; i < d->nnotes; i++)
        free(d->notes[i]);
    free(d->notes);
    p2pb_html_surveys_free(d);
}

/* Write the page of d to o. */
static void write_page(FILE *o, const struct html_doc *d)
{
    char title[256];
    if (d->opt->title)
        snprintf(title, sizeof title, "%s", d->opt->title);
    else if (survey_only(d) && d->nsurveys == 1)
        snprintf(title, sizeof title, "p2pbench link survey: %s", d->surveys[0].path);
    else if (d->nsides == 2)
        snprintf(title, sizeof title, "p2pbench: %s vs %s", d->sides[0].name, d->sides[1].name);
    else
        snprintf(title, sizeof title, "p2pbench: %s", d->sides[0].name);
    page_head(o, d, title);
    for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++)
        if (sections[i].applies(d))
            sections[i].write(o, d);
    fputs("</body>\n</html>\n", o);
}

/* Test seam (a build with P2PB_TEST_SEAMS only): P2PB_TEST_FAULT=html-stall
 * holds a written page for up to 60 s before its rename, so that a test can
 * signal html while its temporary file exists (tests/report/html_extreme.sh). */
static void stall_seam(void)
{
#ifdef P2PB_TEST_SEAMS
    const char *f = getenv("P2PB_TEST_FAULT");
    for (int i = 0; f && strcmp(f, "html-stall") == 0 && i < 600; i++)
        nanosleep(&(struct timespec){0, 100000000L}, NULL);
#endif
}

/* Write d into a temporary file next to out, renamed to out when complete;
 * a failure or a signal (input.h) leaves no temporary file. */
static enum p2pb_status write_file(const struct html_doc *d, const char *out, char *err,
                                   size_t errlen)
{
    char tmp[4096];
    enum p2pb_status st;
    int fd = p2pb_tmp_beside(out, "", tmp, sizeof tmp, &st, err, errlen);
    if (fd < 0)
        return st;
    FILE *o = fdopen(fd, "w");
    if (!o) {
        close(fd);
        p2pb_tmp_drop(tmp);
        return p2pb_fail(P2PB_EIO, err, errlen, "cannot write '%s': %s", out, strerror(errno));
    }
    write_page(o, d);
    int bad = ferror(o);
    bad |= fclose(o) != 0;
    stall_seam();
    if (bad)
        p2pb_tmp_drop(tmp);
    if (bad || p2pb_tmp_commit(tmp, out) != 0) {
        int e = errno;
        return p2pb_fail(P2PB_EIO, err, errlen, "cannot write '%s': %s", out, strerror(e));
    }
    return P2PB_OK;
}

enum p2pb_status p2pb_html_report(const struct p2pb_side *sides, size_t nsides,
                                  const struct p2pb_html_opt *opt, const char *out, char *err,
                                  size_t errlen)
{
    struct html_doc d = {.sides = sides, .nsides = nsides, .opt = opt};
    enum p2pb_status st = doc_build(&d, err, errlen);
    if (st == P2PB_ENOMEM)
        p2pb_fail(st, err, errlen, "out of memory");
    else if (!d.lat.nrows)
        st = p2pb_fail(P2PB_EFORMAT, err, errlen, "nothing to report: the files have no rows");
    if (st == P2PB_OK)
        st = write_file(&d, out, err, errlen);
    doc_free(&d);
    return st;
}
