/* SPDX-License-Identifier: MIT */
/*
 * plot.h - private to plot.c (the gnuplot script) and plot_run.c (the
 * gnuplot process): what one plot draws.
 */
#ifndef P2PBENCH_REPORT_PLOT_H
#define P2PBENCH_REPORT_PLOT_H

#include <stdio.h>

#include "report.h"

/* One line of a plot: a variant ("" for none) of the kernel drawn, on one side. */
struct plot_line {
    size_t side; /* index into plot_job.sides */
    char variant[32];
};

/* What the gnuplot script draws, and where. */
struct plot_job {
    struct p2pb_side *sides;
    size_t nsides;
    const char *out;                 /* the image file asked for */
    const char *tmp;                 /* the file gnuplot writes (renamed to out) */
    int svg;                         /* 1: svg terminal, 0: pngcairo */
    const struct p2pb_result *first; /* a row of the kernel drawn */
    struct plot_line *lines;         /* nlines distinct (side, variant), first-seen order */
    size_t nlines;
    size_t min_bytes, max_bytes; /* smallest and largest size drawn, bytes > 0 */
};

/* Write the whole gnuplot script of job (terminal, data, both panels) to o. */
void p2pb_plot_script(FILE *o, const struct plot_job *job);

/*
 * Write s to o as a gnuplot string expression that gnuplot reads back as s:
 * runs without a single quote as single-quoted strings (no backquote, macro
 * or backslash processing in them), each single quote as the double-quoted
 * "'", joined by '.' and in parentheses, e.g. it's -> ('it'."'".'s'); ""
 * -> (''). gnuplot's reader cannot take a doubled '' at the start of a
 * single-quoted string ('''q' is an error in gnuplot 5.4), and double
 * quotes would run `commands` (gnuplot docs, "quotes" and "substitution
 * backquotes"). Newlines and carriage returns become spaces. plot_run.c
 */
void p2pb_gnuplot_quote(FILE *o, const char *s);

/* Writes a gnuplot script for ctx to o. */
typedef void (*p2pb_gnuplot_script_fn)(FILE *o, const void *ctx);

/*
 * Run gnuplot prog (fork/exec, no shell) with script(ctx) on its stdin and
 * its stderr kept in a temporary file (never shown raw). Success: exit 0
 * and a non-empty file at image. Else P2PB_EIO with one line naming prog
 * and name (the file the user asked for), plus gnuplot's first error line,
 * sanitised. plot_run.c
 */
/* Seconds a gnuplot started by p2pb_gnuplot_run may take before it is
 * killed (--gnuplot-timeout, set by the commands from their options);
 * <= 0: no limit. */
void p2pb_gnuplot_set_timeout(double seconds);

enum p2pb_status p2pb_gnuplot_run(const char *prog, p2pb_gnuplot_script_fn script, const void *ctx,
                                  const char *image, const char *name, char *err, size_t errlen);

/*
 * Run gnuplot prog with the script of job on its stdin, its stderr captured
 * (never passed through), and check that job->tmp then holds a non-empty
 * image. Returns P2PB_OK, or P2PB_EIO with one line, plus gnuplot's first
 * error line (sanitised) when it printed one.
 */
enum p2pb_status p2pb_plot_run(const char *prog, const struct plot_job *job, char *err,
                               size_t errlen);

#endif /* P2PBENCH_REPORT_PLOT_H */
