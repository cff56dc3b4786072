/* SPDX-License-Identifier: MIT */
/*
 * plot.h - the one header of plot/: `p2pbench-report plot` (plot.c: the
 * gnuplot script of a plot, from the sides of load.h) and the gnuplot
 * process (plot_run.c: runs any script, knows nothing of plots; survey/
 * draws its heatmap through it too). plot.c calls plot_run.c, never the
 * other way. Errors follow status.h.
 */
#ifndef P2PBENCH_REPORT_PLOT_H
#define P2PBENCH_REPORT_PLOT_H

#include <stddef.h>
#include <stdio.h>

#include "load.h"
#include "p2pbench/status.h"

/* ---- plot.c: a plot of results files ---- */

/*
 * Plot latency and throughput against size (log-log) through gnuplot, one
 * line per side, the CI (or the launch range) as a band. out ends in .png or
 * .svg. kernel: the kernel to draw, NULL for the first row's kernel. gnuplot (NULL: "gnuplot"
 * from PATH) is fork/exec'd with the script on its stdin; no shell; killed after timeout_s
 * seconds (--gnuplot-timeout; <= 0: no limit). Returns P2PB_OK, P2PB_EUSAGE (bad extension),
 * P2PB_EFORMAT (nothing to plot, unknown kernel), P2PB_EIO (gnuplot failed or timed out).
 */
enum p2pb_status p2pb_plot(struct p2pb_side *sides, size_t nsides, const char *out,
                           const char *kernel, const char *gnuplot, double timeout_s, char *err,
                           size_t errlen);

/*
 * For a side with one launch: the 95% CI of the median of its row (kernel,
 * variant, bytes) in metric m (usec, or MB/s from the CI's ends) into *lo,
 * *hi, which stay as they are when the row has no CI.
 */
void p2pb_one_launch_band(const struct p2pb_side *s, enum p2pb_metric m, const char *kernel,
                          const char *variant, size_t bytes, double *lo, double *hi);

/* ---- plot_run.c: the gnuplot process ---- */

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
 * its stderr kept in a temporary file (never shown raw). timeout_s: seconds
 * gnuplot may take before it (and its process group) is killed
 * (--gnuplot-timeout); <= 0: no limit. Success: exit 0 and a non-empty file
 * at image. Else P2PB_EIO with one line naming prog and name (the file the
 * user asked for), plus gnuplot's first error line, sanitised, or saying
 * that it did not finish within timeout_s. plot_run.c
 */
enum p2pb_status p2pb_gnuplot_run(const char *prog, double timeout_s, p2pb_gnuplot_script_fn script,
                                  const void *ctx, const char *image, const char *name, char *err,
                                  size_t errlen);

#endif /* P2PBENCH_REPORT_PLOT_H */
