/* SPDX-License-Identifier: MIT */
/*
 * html.h - the one header of html/, `p2pbench-report html`: the report
 * (p2pb_html_report, below) and what its files share (what one report
 * shows). html.c the page, which calls html_chart.c the charts,
 * html_table.c the tables, html_facts.c the facts table and html_survey.c
 * the survey section. The charts and tables call style.c (colours, dashes,
 * marks), all of them svg.c (svg.h, html/'s internal header); none calls
 * back into html.c. Other features include this header only.
 */
#ifndef P2PBENCH_REPORT_HTML_H
#define P2PBENCH_REPORT_HTML_H

#include <stddef.h>
#include <stdio.h>

#include "compare/compare.h"
#include "load.h"
#include "survey/survey.h"

/* ---- html.c: the report ---- */

/* What the html report shows besides the files. */
struct p2pb_html_opt {
    const char *title; /* page title; NULL: "p2pbench: A vs B" or "p2pbench: A" */
    double threshold;  /* equivalence margin d of the verdicts, a fraction (0.05) */
    int holm;          /* Holm instead of Benjamini-Hochberg for p_adj */
    double mad_k;      /* survey verdicts: k scaled MADs (outlier.h; --mad-k) */
    double min_off;    /* survey verdicts: least fraction off the median (--min-off) */
};

/*
 * Write the html report of sides[0..nsides-1] (1: one group of runs; 2:
 * A vs B with the comparison) to out: one self-contained file (inline CSS
 * and SVG, no script, no network reference). Text from the files is
 * escaped. Returns P2PB_OK, P2PB_EIO (out cannot be written; nothing left
 * behind), P2PB_ENOMEM, P2PB_EFORMAT (no rows at all).
 */
enum p2pb_status p2pb_html_report(const struct p2pb_side *sides, size_t nsides,
                                  const struct p2pb_html_opt *opt, const char *out, char *err,
                                  size_t errlen);

/* ---- what the files of html/ share ---- */

/* One survey file of the report (html_survey.c): its side, path, matrices
 * and the verdicts of p2pb_survey_verdict. */
struct html_survey {
    size_t side;
    const char *path;
    struct p2pb_survey_matrix m;
    struct p2pb_survey_verdict v;
};

/* Everything the sections of the page read: built once by html.c. */
struct html_doc {
    const struct p2pb_side *sides; /* nsides: 1 (no --vs) or 2 (A, B) */
    size_t nsides;
    const struct p2pb_html_opt *opt;
    struct p2pb_cmp_table lat, thr; /* p2pb_compare_build of A vs B (B empty: one side) */
    struct p2pb_ctx_diff diff;      /* two sides only */
    struct p2pb_order order;        /* two sides only */
    char **notes;                   /* lines of p2pb_compare_notes_text, "# " cut off */
    size_t nnotes;
    double eager[2]; /* eager_limit_marked of each side's first file, bytes; -1 unknown */
    struct html_survey *surveys;    /* nsurveys survey files (at most HTML_MAX_SURVEYS) */
    size_t nsurveys, nsurvey_files; /* drawn, and found in the input */
};

/* Survey files drawn in full; the others are counted. */
#define HTML_MAX_SURVEYS 8

/* ---- style.c: what the charts and tables share ---- */

/* Colour of line i (an Okabe-Ito colour, readable for colour-blind readers). */
const char *p2pb_html_colour(size_t i);

/* stroke-dasharray of variant i ("none" for the first). */
const char *p2pb_html_dash(size_t i);

/* The style index of (side, variant): colour and marker follow the side
 * with two sides, the variant with one; dashes follow the variant with two. */
struct html_style {
    size_t colour, shape, dash;
};
struct html_style p2pb_html_style(const struct html_doc *d, size_t side, size_t variant);

/* The distinct variants of kernel in the latency table of d, in table order,
 * into v (at most cap); returns how many. */
size_t p2pb_html_variants(const struct html_doc *d, const char *kernel, const char **v, size_t cap);

/* Marks of kernel (NULL: every kernel) in the latency table of d: (launch,
 * row) pairs measured while disturbed (dist) or whose level shifted while
 * measured (shift), per side (compare.c's dist_a/b, shift_a/b). Returns
 * the sum of all four. */
size_t p2pb_html_marks(const struct html_doc *d, const char *kernel, size_t dist[2],
                       size_t shift[2]);

/* The words of the marks: what "disturbed" and "shifted" mean. */
extern const char p2pb_html_marks_words[];

/* A string of the run record run (a cJSON object) at the dotted path
 * ("hosts.*.os": * is the first member) into buf (len bytes); numbers as
 * %.17g, booleans as true / false; "" when absent. Returns buf. html_facts.c */
const char *p2pb_html_run_str(const void *run, const char *path, char *buf, size_t len);

/* A start time for the page (html_facts.c): ISO 8601 UTC as "YYYY-MM-DD
 * hh:mm:ss UTC"; an IMB log's date (asctime layout, local time) as
 * "YYYY-MM-DD hh:mm:ss (as logged, zone unknown)"; other text as is with
 * " (as logged)". Into buf, len bytes. */
void p2pb_html_start_time(const char *t, char *buf, size_t len);

/* The summary's table of facts, one column per side (html_facts.c): what
 * measured the runs, launches, files, MPI, host, placement, hypervisor
 * (with the signals that disagree), link profile, eager limit. */
void p2pb_html_facts_table(FILE *o, const struct html_doc *d);

/* Both charts of kernel (latency, throughput) and their legend. */
void p2pb_html_charts(FILE *o, const struct html_doc *d, const char *kernel);

/* The table of kernel: per variant and size, each side's median and range,
 * and with two sides the ratio B/A, p_adj and the verdict (coloured and
 * worded), for latency and throughput. */
void p2pb_html_table(FILE *o, const struct html_doc *d, const char *kernel);

/* Verdict counts of both metrics (two sides). */
void p2pb_html_verdict_counts(FILE *o, const struct html_doc *d);

/*
 * Load the input files whose run record has a "survey" object (a
 * `p2pbench survey` file) into d->surveys with their verdicts (rule of
 * d->opt). Returns P2PB_OK, P2PB_ENOMEM, or the status of p2pb_survey_load
 * (P2PB_EIO, P2PB_EFORMAT) with its message in err. Free with
 * p2pb_html_surveys_free in any case.
 */
enum p2pb_status p2pb_html_surveys_load(struct html_doc *d, char *err, size_t errlen);
void p2pb_html_surveys_free(struct html_doc *d);

/* 1 when kernel has a row in a survey file of the input: the survey
 * section shows it, not a kernel section. */
int p2pb_html_survey_kernel(const struct html_doc *d, const char *kernel);

/* The survey section: per survey file the verdicts, the slowest pairs and
 * the latency and bandwidth heatmaps (a per-node table above
 * P2PB_SURVEY_FULL_MAX nodes). */
void p2pb_html_survey_section(FILE *o, const struct html_doc *d);

#endif /* P2PBENCH_REPORT_HTML_H */
