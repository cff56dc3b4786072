/* SPDX-License-Identifier: MIT */
/*
 * report.h - private interfaces of p2pbench-report (no MPI).
 * Not installed. Errors follow status.h: a p2pb_status and a message in a
 * caller-owned buffer.
 */
#ifndef P2PBENCH_REPORT_INTERNAL_H
#define P2PBENCH_REPORT_INTERNAL_H

#include <stddef.h>
#include <stdio.h>

#include "compare.h"
#include "p2pbench/result.h"

/* Which per-launch number a table uses. */
enum p2pb_metric {
    P2PB_METRIC_LATENCY,   /* t_usec.median of the launch, usec (lower is better) */
    P2PB_METRIC_THROUGHPUT /* mbytes_per_sec of the launch, MB/s = 10^6 B/s (higher is better) */
};

enum p2pb_outfmt {
    P2PB_OUT_TEXT,
    P2PB_OUT_MARKDOWN,
    P2PB_OUT_CSV,
    P2PB_OUT_JSON,
    P2PB_OUT_IMB,
    P2PB_OUT_OSU
};

/* Value of metric for row r; NAN if the row has no number (status not ok). */
double p2pb_metric_value(const struct p2pb_result *r, enum p2pb_metric metric);

/*
 * Read a results file for show/compare/plot, refusing one of more than
 * max_bytes bytes (0: no limit; --max-file-size). A file without an end record
 * is read as far as it goes with a warning on warn (file and row count), as are
 * repeated keys. Returns the status of p2pb_results_read_max.
 */
enum p2pb_status p2pb_load_results(const char *path, struct p2pb_results_data *d, FILE *warn,
                                   size_t max_bytes, char *err, size_t errlen);

/*
 * "What happened to it" of an incomplete file d (d->complete is 0), for the
 * stdout flags and stderr warnings: "no end record (run cut short?); 4 rows
 * read" or "run ended with status 'aborted'; 4 rows read" (sanitised). Returns buf.
 */
const char *p2pb_incomplete_note(const struct p2pb_results_data *d, char *buf, size_t len);

/*
 * Value of metric for the first row of d with that kernel, variant and size
 * (bytes); NAN when d has none or it has no number (p2pb_metric_value).
 */
double p2pb_file_value(const struct p2pb_results_data *d, const char *kernel, const char *variant,
                       size_t bytes, enum p2pb_metric metric);

/* A launch's place in a scripts/campaign.sh campaign: the run record's
 * "campaign" object (docs/output-format.md). */
struct p2pb_launch_pos {
    int known;       /* 1 when the run record has a valid "campaign" object */
    double seed;     /* the campaign's order seed, 0 .. 2^31 - 1 */
    size_t round;    /* 1 .. N */
    size_t position; /* 1 (ran first in its round) or 2 */
};

/* One side of a comparison: the launches (results files) of one configuration. */
struct p2pb_side {
    char name[64];                   /* label of its files (or "A"/"B") */
    struct p2pb_results_data *files; /* nfiles entries */
    struct p2pb_launch_pos *pos;     /* nfiles entries, by file (p2pb_side_load) */
    size_t nfiles;
    size_t nincomplete; /* files without an end record "complete" */
};

/* Name a side from its files' labels: the common label, or "A"/"B" fallback. */
void p2pb_side_name(struct p2pb_side *s, const char *fallback);

/*
 * Load the n results files paths[0..n-1] into s (p2pb_load_results, warnings
 * to warn, files above max_bytes refused) and name it (p2pb_side_name). On failure s holds the
 * files read so far. p2pb_side_free in any case. Returns P2PB_OK, P2PB_ENOMEM or the status of the
 * first file that cannot be read (P2PB_EIO, P2PB_EFORMAT), its message in err.
 */
enum p2pb_status p2pb_side_load(char *const *paths, size_t n, struct p2pb_side *s,
                                const char *fallback, FILE *warn, size_t max_bytes, char *err,
                                size_t errlen);

/* Free the files of s (which owns them) and zero it. */
void p2pb_side_free(struct p2pb_side *s);

/* One (kernel, variant, size) row of a comparison table. */
struct p2pb_cmp_row {
    char kernel[32];
    char display_name[32];
    char variant[32];
    size_t bytes;
    size_t na, nb;              /* launches with a number on each side */
    double med_a, min_a, max_a; /* median and range of launch values, side A */
    double med_b, min_b, max_b;
    double ci_a[2], ci_b[2]; /* 95% CI of each median (order statistics, stats.h);
                                NAN when a side has < 6 launches */
    int tested;              /* 1 when u, p, hl are set (both sides > 0) */
    double u, p;             /* exact Mann-Whitney U and two-sided p: the gate */
    double p_t, df_t;        /* Welch's t on log values: p and Satterthwaite df (NAN
                                when a side has < 2 launches) */
    double sd_log;           /* pooled SD of the log launch values (NAN likewise) */
    double p_adj;            /* p_t adjusted over the rows of the metric */
    struct p2pb_hl_ratio hl; /* ratio B/A */
    enum p2pb_verdict verdict;
    struct p2pb_power power; /* inconclusive rows: launches per side to resolve them */
    int worse;               /* 1 if changed for the worse */
    const char *only;        /* NULL, or "A"/"B": the row exists on one side only */
    /* launch position (compare_order.c): rounds with a value on both sides,
     * those in which the launch that ran second was worse (slower, or less
     * MB/s; ties left out of pos_n), exact two-sided sign test p and its
     * adjusted p (as p_adj); NAN when no round is known */
    size_t pos_n, pos_worse;
    double pos_p, pos_p_adj;
    /* launches of each side whose row was measured while disturbed
     * (p2pb_disturbed) and whose level shifted while measured (shift.flagged) */
    size_t dist_a, dist_b, shift_a, shift_b;
};

struct p2pb_cmp_table {
    enum p2pb_metric metric;
    struct p2pb_cmp_row *rows;
    size_t nrows;
    size_t ntested;         /* rows with a test (both sides have launches) */
    double best_p_gate;     /* smallest Mann-Whitney p any row could reach with these
                               launch counts: min over rows of 2 / C(na + nb, na) (the
                               exact two-sided floor); the gate is not adjusted, so a
                               row can be "changed" only when this is < 0.05; NAN when
                               no row is tested */
    size_t launches_needed; /* launches per side (equal sides) for best_p_gate < 0.05 */
    size_t pos_flagged;     /* rows whose pos_p_adj < 0.05 (compare_order.c) */
};

/*
 * Build the comparison table of metric for sides a, b: rows sorted by kernel
 * (first-seen order), variant, bytes. holm selects Holm (else BH) for p_adj;
 * threshold d is a fraction (0.05). A row is tested when both sides have
 * numbers and all are positive. Returns P2PB_OK, P2PB_ENOMEM, or another
 * error of p2pb_verdict_row_tests (never reached by checked values).
 */
enum p2pb_status p2pb_compare_build(const struct p2pb_side *a, const struct p2pb_side *b,
                                    enum p2pb_metric metric, int holm, double d,
                                    struct p2pb_cmp_table *out);
void p2pb_compare_free(struct p2pb_cmp_table *t);

/*
 * Launch order of two sides (docs/report.md, "Launch order"): the rounds
 * (same seed and round number) that hold a launch of each side, and in how
 * many of them side A ran first. Confounded: at least 2 such rounds and one
 * side first in more than 3/4 of them; a position effect then shows as a
 * difference between the sides.
 */
struct p2pb_order {
    size_t known_a, known_b; /* launches with a campaign position, per side */
    size_t rounds;           /* rounds with a launch of each side */
    size_t a_first;          /* of them, rounds in which side A ran first */
    size_t nseeds;           /* distinct seeds among them (1 for one campaign) */
    double seed;             /* the seed, when nseeds is 1 */
    int confounded;
};

/* Fill o from the positions of a and b. No allocation, no failure. */
void p2pb_order_check(const struct p2pb_side *a, const struct p2pb_side *b, struct p2pb_order *o);

/*
 * Position effect per row of t (built by p2pb_compare_build from a and b):
 * for every round with a value on both sides, was the launch that ran second
 * worse than the first? Sets pos_n, pos_worse, the exact two-sided sign test
 * p (binomial, 1/2) and its adjustment over the rows with pos_n > 0 (Holm if
 * holm, else Benjamini-Hochberg) in pos_p_adj, and t->pos_flagged. Returns
 * P2PB_OK or P2PB_ENOMEM.
 */
enum p2pb_status p2pb_compare_position(const struct p2pb_side *a, const struct p2pb_side *b,
                                       int holm, struct p2pb_cmp_table *t);

/* Host-context differences between two sides: "key: A = x | B = y" lines. */
struct p2pb_ctx_diff {
    char **lines;
    size_t n;
};
enum p2pb_status p2pb_context_diff(const struct p2pb_side *a, const struct p2pb_side *b,
                                   struct p2pb_ctx_diff *out);
void p2pb_ctx_diff_free(struct p2pb_ctx_diff *d);

/* Print a full comparison (both tables, context, one-sided rows). */
struct p2pb_cmp_print {
    enum p2pb_outfmt fmt;
    int holm;
    double threshold;               /* d as a fraction */
    const struct p2pb_order *order; /* launch order of the sides (p2pb_order_check) */
};
/*
 * What compare used, above the tables (compare_notes.c): one line per
 * incomplete or aborted file, per distinct placement warning of a side's
 * run records ("warnings"; with the launches that had it, at most 4 per
 * side), the sides' link profiles (when a launch has one), the launch order
 * and its warnings (p2pb_order_check, p2pb_compare_position). Text from the
 * files is sanitised. Text lines start with "# ", markdown lines with
 * nothing and a blank line before each.
 */
void p2pb_compare_notes_text(FILE *o, int md, const struct p2pb_cmp_print *opt,
                             const struct p2pb_side *a, const struct p2pb_side *b,
                             const struct p2pb_cmp_table *lat, const struct p2pb_cmp_table *thr);

/* The same for json, into the cJSON object root: "incomplete" (array of
 * {side, path, why}), "launch_order" (when any launch has a position) and
 * "warnings" (array of strings). */
void p2pb_compare_notes_json(void *root, const struct p2pb_cmp_print *opt,
                             const struct p2pb_side *a, const struct p2pb_side *b,
                             const struct p2pb_cmp_table *lat, const struct p2pb_cmp_table *thr);

void p2pb_compare_print(FILE *o, const struct p2pb_cmp_print *opt, const struct p2pb_side *a,
                        const struct p2pb_side *b, const struct p2pb_cmp_table *lat,
                        const struct p2pb_cmp_table *thr, const struct p2pb_ctx_diff *diff);

/*
 * Plot latency and throughput against size (log-log) through gnuplot, one
 * line per side, the CI (or the launch range) as a band. out ends in .png or
 * .svg. kernel: the kernel to draw, NULL for the first row's kernel. gnuplot is fork/exec'd with
 * the script on its stdin; no shell. Returns P2PB_OK, P2PB_EUSAGE (bad extension), P2PB_EFORMAT
 * (nothing to plot, unknown kernel), P2PB_EIO (gnuplot failed).
 */
enum p2pb_status p2pb_plot(struct p2pb_side *sides, size_t nsides, const char *out,
                           const char *kernel, const char *gnuplot, char *err, size_t errlen);

/*
 * For a side with one launch: the 95% CI of the median of its row (kernel,
 * variant, bytes) in metric m (usec, or MB/s from the CI's ends) into *lo,
 * *hi, which stay as they are when the row has no CI.
 */
void p2pb_one_launch_band(const struct p2pb_side *s, enum p2pb_metric m, const char *kernel,
                          const char *variant, size_t bytes, double *lo, double *hi);

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

/*
 * Import text logs (IMB/PMB/OSU, two-column comparison tables) into results
 * files in outdir, one per table group; a log of more than max_bytes bytes
 * (--max-file-size) is refused. Messages go to msg (notes, warnings).
 * A log named twice is read once. Nothing is written if any input fails, if
 * no log has an importable table, or if an output file exists and force is 0;
 * err then holds "file:line: reason". A log whose tables were all skipped
 * gets a warning when other logs import. Returns P2PB_OK, P2PB_EIO,
 * P2PB_EFORMAT, P2PB_ENOMEM.
 */
enum p2pb_status p2pb_import_logs(char *const *paths, size_t npaths, const char *outdir, int force,
                                  size_t max_bytes, FILE *msg, char *err, size_t errlen);

#endif /* P2PBENCH_REPORT_INTERNAL_H */
