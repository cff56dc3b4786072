/* SPDX-License-Identifier: MIT */
/*
 * IMB-MPI1 compatible layout (docs/kernels.md, "IMB layout"): 13-character
 * right-aligned columns, 2 decimals; times are means over all timed
 * iterations as IMB prints them; Mbytes/sec from t_max. p2pbench always
 * counts 1 MB = 10^6 B and says so in the header (IMB's own unit varied
 * between releases: PMB and IMB <= 3.2 used 2^20 B; see docs/report.md on
 * imports).
 *
 * Each table is named by one word after "# Benchmarking": IMB's name where
 * the kernel's definition is IMB's benchmark of that name (Uniband and Biband
 * with a window of 64 in IMB's direction, Multi-PingPong per pair), else a
 * name of its own: a suffix _winW (another window), _reverse (the higher rank
 * of each pair sends), _aggregate (the sum over pairs or ranks).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "kernel_facts.h"
#include "output/imb.h"
#include "output/output.h"
#include "overlap.h"

/* Kernels of a window of W messages per iteration (and per pair); the
 * one-sided ones print IMB-EXT's tables (imb_ext.c). */
static int window_kernel(const char *k)
{
    return p2pb_kernel_has(k, P2PB_FACT_WINDOW);
}

/* Kernels whose variants are pairs or ranks with an aggregate row (noise:
 * its rows are detours, not a -multi table). */
static int per_group_kernel(const char *k)
{
    return p2pb_kernel_has(k, P2PB_FACT_PER_GROUP) && p2pb_kernel_facts(k)->bytes_count > 0;
}

/* Append "_winW" to name (len bytes) when a window kernel's W is not IMB's. */
static void window_suffix(const struct p2pb_result *r, int agg, char *name, size_t len,
                          struct p2pb_imb_tab *t)
{
    if (!window_kernel(r->kernel))
        return;
    /* bytes_factor: c W X per pair (the bytes rule's count c: 2 for Biband),
     * P c W X for an aggregate of P pairs */
    double pairs = agg && r->active_ranks >= 2 ? (double)(r->active_ranks / 2) : 1.0;
    t->msgs_per_iter = r->bytes_factor / pairs;
    long w = lround(t->msgs_per_iter / p2pb_kernel_facts(r->kernel)->bytes_count);
    size_t used = strlen(name);
    if (w > 0 && w != P2PB_IMB_WINDOW)
        snprintf(name + used, len - used, "_win%ld", w);
}

void p2pb_imb_describe(const struct p2pb_result *r, int foreign, struct p2pb_imb_tab *t)
{
    if (p2pb_imb_ext_describe(r, t))
        return;
    memset(t, 0, sizeof *t);
    const char *v = r->variant;
    int a = -1, b = -1, n = 0;
    int dir = sscanf(v, "%d->%d%n", &a, &b, &n) == 2 && v[n] == '\0';
    int groups = per_group_kernel(r->kernel);
    int agg = groups && strncmp(v, "aggregate", 9) == 0;
    int memcpy_k = groups && p2pb_kernel_has(r->kernel, P2PB_FACT_SELF); /* groups of one rank */
    int rank = strncmp(v, "rank ", 5) == 0;
    t->group = groups && !agg && v[0] && (!memcpy_k || r->active_ranks > 1);
    t->group_size = memcpy_k ? 1 : 2;
    snprintf(t->name, sizeof t->name, "%s",
             memcpy_k && (t->group || agg) ? "Multi-Memcpy" : r->display_name);
    char *end = t->name + strlen(t->name);
    window_suffix(r, agg, t->name, sizeof t->name, t);
    if (foreign)
        *end = '\0'; /* W unknown: IMB's */
    size_t used = strlen(t->name);
    if ((dir && a > b) || (agg && strstr(v, "hi->lo")))
        snprintf(t->name + used, sizeof t->name - used, "_reverse");
    used = strlen(t->name);
    if (agg)
        snprintf(t->name + used, sizeof t->name - used, "_aggregate");
    else if (v[0] && !dir && !t->group && !(memcpy_k && rank) &&
             !(foreign && strncmp(v, "np ", 3) == 0))
        snprintf(t->name + used, sizeof t->name - used, " %s", v); /* noise: "Noise rank 0" */
    if (agg)
        t->cols = P2PB_IMB_COLS_T;
    else if (window_kernel(r->kernel))
        t->cols = P2PB_IMB_COLS_RATE;
    else
        t->cols = r->imb_layout == P2PB_IMB_TMINMAXAVG ? P2PB_IMB_COLS_TMMA : P2PB_IMB_COLS_T;
}

static void imb_begin(struct p2pb_report_ctx *ctx)
{
    const struct p2pb_run_info *ri = ctx->run;
    p2pb_imb_rule(ctx->out, 4);
    fprintf(ctx->out, "#    p2pbench %s, IMB-MPI1 compatible output\n", ri ? ri->version : "");
    p2pb_imb_rule(ctx->out, 4);
    if (ri) {
        if (ri->start_utc[0]) /* an imported log may lack any of these three */
            fprintf(ctx->out, "# Date                  : %s\n", ri->start_utc);
        /* not IMB's "Machine" (uname -m) nor "MPI Version" (the standard's) */
        if (ri->host[0])
            fprintf(ctx->out, "# Host                  : %s\n", ri->host);
        if (ri->mpi_library[0])
            fprintf(ctx->out, "# MPI Library           : %s\n", ri->mpi_library);
        if (ri->label[0])
            fprintf(ctx->out, "# Label                 : %s\n", ri->label);
        char state[256];
        if (p2pb_fmt_state(state, sizeof state, ri))
            fprintf(ctx->out, "# State                 : %s\n", state);
    }
    fprintf(ctx->out, "# t[usec]               : %s\n",
            ri && ri->imported ? "the log's value (a mean over its repetitions)"
                               : "mean over all timed iterations, as IMB's (the median is in "
                                 "the results file)");
    fprintf(ctx->out, "# Mbytes/sec            : 1 MB = 10^6 bytes\n");
}

/* The header block of a table without a Group column; ctx->header_done
 * says whether it ends in the column header (not after a skipped row). */
static void imb_section(struct p2pb_report_ctx *ctx, const struct p2pb_imb_tab *t,
                        const struct p2pb_result *r)
{
    FILE *o = ctx->out;
    int skipped = r->status == P2PB_ROW_SKIPPED;
    int ncols = skipped ? 4 : p2pb_imb_ncols(t);
    fputc('\n', o);
    p2pb_imb_rule(o, ncols);
    fprintf(o, "# Benchmarking %s\n# #processes = %d\n", t->name,
            skipped ? r->nranks : r->active_ranks);
    int waiting = r->nranks - r->active_ranks;
    if (!skipped && waiting > 0)
        fprintf(o, "# ( %d additional process%s waiting in MPI_Barrier)\n", waiting,
                waiting == 1 ? "" : "es");
    if (!skipped && r->overlap.valid) /* docs/kernels.md, "Overlap" */
        fprintf(o,
                "# %s\n# (t_pure, t_cpu, t_ovrl: medians of the pure, cpu and overlap "
                "rows; one line under each row)\n",
                P2PB_OVERLAP_FORMULA);
    p2pb_imb_rule(o, ncols);
    if (t->mode)
        fprintf(o, "#\n#    MODE: %s\n#\n", t->mode);
    if (strncmp(r->variant, "sync=", 5) == 0) { /* one-sided: IMB's table names none */
        /* W transfers per iteration (t is one transfer's): the importer needs it */
        const struct p2pb_kernel_facts *f = p2pb_kernel_facts(r->kernel);
        double w = f && f->bytes_count > 0 && p2pb_kernel_has(r->kernel, P2PB_FACT_WINDOW)
                       ? r->bytes_factor / f->bytes_count
                       : 0;
        if (w >= 1)
            fprintf(o, "# p2pbench: %s window=%.0f (--rma-sync, --rma-window, --window)\n",
                    r->variant, w);
        else
            fprintf(o, "# p2pbench: %s (--rma-sync, --rma-window)\n", r->variant);
    }
    if (skipped)
        fprintf(o, "# skipped: %s\n", r->note);
    else
        p2pb_imb_col_header(o, t->cols, 0);
    ctx->header_done = !skipped;
}

static void imb_row(struct p2pb_report_ctx *ctx, const struct p2pb_result *r)
{
    FILE *o = ctx->out;
    struct p2pb_imb_tab t;
    const struct p2pb_run_info *ri = ctx->run;
    p2pb_report_note_bound(ctx, r);
    p2pb_imb_describe(r, ri && ri->imported && strncmp(ri->source, "p2pbench", 8) != 0, &t);
    const char *held = p2pb_imb_held_name(ctx);
    if (held && (!t.group || strcmp(held, t.name) != 0))
        p2pb_imb_flush(ctx);
    if (t.group && r->status != P2PB_ROW_SKIPPED && p2pb_imb_hold(ctx, &t, r) == 0)
        return;
    t.group = 0; /* a row that could not be held: a table of its own */
    /* a table whose first sizes were skipped (below the kernel's minimum)
     * gets its header again, with the columns, at its first measured row */
    if (p2pb_report_new_section(ctx, r) || (r->status != P2PB_ROW_SKIPPED && !ctx->header_done))
        imb_section(ctx, &t, r);
    if (r->status == P2PB_ROW_SKIPPED)
        return;
    if (r->status != P2PB_ROW_OK) {
        fprintf(o, "# %zu bytes: %s%s%s\n", r->bytes, p2pb_row_status_str(r->status),
                r->note[0] ? ": " : "", r->note);
        return;
    }
    p2pb_imb_values(o, &t, r);
    if (r->overlap.valid && isfinite(r->overlap.percent))
        fprintf(o, "# overlap[%%] %.1f\n", r->overlap.percent);
    else if (r->overlap.valid)
        fprintf(o, "# overlap[%%] undefined: %s\n", r->overlap.undefined);
}

/* IMB's closing line tells parsers the run finished: only a complete run
 * gets it. */
static void imb_end(struct p2pb_report_ctx *ctx)
{
    p2pb_imb_flush(ctx);
    if (ctx->exceeds)
        fputc('\n', ctx->out);
    p2pb_report_print_bound(ctx, "# ");
    if (ctx->incomplete)
        fprintf(ctx->out, "\n\n# p2pbench: run incomplete (aborted or cut short): not every "
                          "size was measured\n\n");
    else
        fprintf(ctx->out, "\n\n# All processes entering MPI_Finalize\n\n");
    fflush(ctx->out);
}

const struct p2pb_reporter p2pb_reporter_imb = {
    .name = "imb",
    .summary = "IMB-MPI1 compatible text (t from means, Mbytes/sec from t_max)",
    .begin = imb_begin,
    .row = imb_row,
    .end = imb_end,
};
