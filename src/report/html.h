/* SPDX-License-Identifier: MIT */
/*
 * html.h - private to the html report (html.c the page, html_chart.c the
 * charts, html_table.c the tables): what one report shows.
 */
#ifndef P2PBENCH_REPORT_HTML_H
#define P2PBENCH_REPORT_HTML_H

#include <stdio.h>

#include "report.h"

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
};

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

/* Both charts of kernel (latency, throughput) and their legend. */
void p2pb_html_charts(FILE *o, const struct html_doc *d, const char *kernel);

/* The table of kernel: per variant and size, each side's median and range,
 * and with two sides the ratio B/A, p_adj and the verdict (coloured and
 * worded), for latency and throughput. */
void p2pb_html_table(FILE *o, const struct html_doc *d, const char *kernel);

/* Verdict counts of both metrics (two sides). */
void p2pb_html_verdict_counts(FILE *o, const struct html_doc *d);

#endif /* P2PBENCH_REPORT_HTML_H */
