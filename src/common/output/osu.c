/* SPDX-License-Identifier: MIT */
/*
 * OSU micro-benchmarks layout (docs/output-format.md, "osu"): each table
 * (kernel, variant, rank count) is printed as the OSU program that measures
 * the same thing would print its run: '#' header lines, a column header
 * "# Size" then the value columns, and one line per size with the size
 * left-aligned in 10 characters and each value right-aligned in 18 with 2
 * decimals. Several tables follow each other as the logs of several OSU
 * programs run one after another would.
 *
 *   kernel          OSU program     value
 *   pingpong        osu_latency     t median, usec (half the round trip)
 *   uniband         osu_bw          MB/s from the median
 *   biband          osu_bibw        MB/s from the median
 *   multi-pingpong  osu_multi_lat   t median, usec
 *   multi-uniband   osu_mbw_mr      MB/s and messages/s from the median
 *   put_latency     osu_put_latency t median, usec (one-sided, issue 23)
 *   get_latency     osu_get_latency t median, usec
 *   put_bw          osu_put_bw      MB/s from the median
 *   get_bw          osu_get_bw      MB/s from the median
 *   put_bibw        osu_put_bibw    MB/s from the median
 *
 * Other kernels have no OSU program: their tables have the columns of
 * osu_latency (a time) or osu_bw (a rate) and a comment line saying so.
 * MB/s counts 1 MB = 10^6 B, as OSU does.
 *
 * A table of a kernel with an OSU twin opens with that program's title
 * line ("# OSU MPI Latency Test (...)"; the one-sided ones then name the
 * window and the synchronisation as OSU does). Besides OSU's lines, each
 * table carries one line for the importer:
 * "# p2pbench: A of N ranks, bytes per iteration = F x Size" (F: the row's
 * bytes_factor; memcpy: "= B at every Size", B its buffer), so `p2pbench-report import` reads the
 * tables back as the kernels they came from (src/report/import/osu.c).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "kernel_facts.h"
#include "output/output.h"
#include "overlap.h"

/* The OSU program a kernel is shown as (its facts, kernel_facts.c). */
struct osu_map {
    const char *program; /* "osu_latency"; for a kernel without one: the layout used */
    int rate;            /* 1: MB/s column(s), 0: latency in usec */
    int own;             /* 1: OSU has no program measuring this kernel */
};

/* Kernels without an OSU program print a time in the columns of osu_latency. */
static struct osu_map osu_map_of(const char *kernel)
{
    const struct p2pb_kernel_facts *f = p2pb_kernel_facts(kernel);
    if (!f || !f->osu_program)
        return (struct osu_map){"osu_latency", 0, 1};
    return (struct osu_map){f->osu_program, f->osu_rate, f->osu_own};
}

/* The title of each OSU program a kernel has as its twin, as the program's
 * first line names it ("# OSU MPI Latency Test"): what OSU consumers look
 * for (PerfKitBenchmarker's parser, ReFrame's checks), and the words this
 * project's importer reads back (src/report/import/kinds.c, rma.c). */
static const char *const osu_titles[][2] = {
    {"osu_latency", "MPI Latency"},
    {"osu_bw", "MPI Bandwidth"},
    {"osu_bibw", "MPI Bi-Directional Bandwidth"},
    {"osu_multi_lat", "MPI Multi Latency"},
    {"osu_mbw_mr", "MPI Multiple Bandwidth / Message Rate"},
    {"osu_put_latency", "MPI_Put Latency"},
    {"osu_get_latency", "MPI_Get Latency"},
    {"osu_put_bw", "MPI_Put Bandwidth"},
    {"osu_get_bw", "MPI_Get Bandwidth"},
    {"osu_put_bibw", "MPI_Put Bi-directional Bandwidth"},
};

/* The one-sided programs' lines on the window and the synchronisation, from
 * a row's variant "sync=S win=W" (--rma-sync, --rma-window), in the MPI
 * calls OSU names them by. */
static void osu_rma_lines(FILE *o, const char *variant)
{
    static const char *const wins[][2] = {
        {"create", "MPI_Win_create"},
        {"allocate", "MPI_Win_allocate"},
        {"dynamic", "MPI_Win_create_dynamic"},
    };
    static const char *const syncs[][2] = {
        {"flush", "MPI_Win_flush"},
        {"lock", "MPI_Win_lock/unlock"},
        {"fence", "MPI_Win_fence"},
        {"pscw", "MPI_Win_post/start/complete/wait"},
    };
    char sync[16] = "", win[16] = "";
    if (sscanf(variant, "sync=%15s win=%15s", sync, win) != 2)
        return;
    for (size_t i = 0; i < sizeof wins / sizeof wins[0]; i++)
        if (strcmp(win, wins[i][0]) == 0)
            fprintf(o, "# Window creation: %s\n", wins[i][1]);
    for (size_t i = 0; i < sizeof syncs / sizeof syncs[0]; i++)
        if (strcmp(sync, syncs[i][0]) == 0)
            fprintf(o, "# Synchronization: %s\n", syncs[i][1]);
}

/* "# OSU MPI Latency Test (...)" for a kernel that has an OSU twin. */
static void osu_title(FILE *o, const struct osu_map *m, const char *version)
{
    for (size_t i = 0; !m->own && i < sizeof osu_titles / sizeof osu_titles[0]; i++)
        if (strcmp(m->program, osu_titles[i][0]) == 0)
            fprintf(o, "# OSU %s Test (the layout of %s; measured by p2pbench %s)\n",
                    osu_titles[i][1], m->program, version);
}

static int osu_mbw_mr(const struct osu_map *m)
{
    return strcmp(m->program, "osu_mbw_mr") == 0;
}

/* The column header: "# Size" in 10 characters, each title right-aligned in 18. */
static void osu_col_header(FILE *o, const struct osu_map *m)
{
    if (osu_mbw_mr(m))
        fprintf(o, "%-10s%18s%18s\n", "# Size", "MB/s", "Messages/s");
    else
        fprintf(o, "%-10s%18s\n", "# Size", m->rate ? "Bandwidth (MB/s)" : "Latency (us)");
}

/* The header block of the table that row r opens. */
static void osu_section(struct p2pb_report_ctx *ctx, const struct p2pb_result *r)
{
    FILE *o = ctx->out;
    const struct osu_map map = osu_map_of(r->kernel), *m = &map;
    const char *version = ctx->run ? ctx->run->version : "";
    osu_title(o, m, version);
    fprintf(o, "# p2pbench %s: %s%s%s in the layout of %s\n", version, r->kernel,
            r->variant[0] ? " " : "", r->variant, m->program);
    if (!m->own)
        osu_rma_lines(o, r->variant);
    if (m->own)
        fprintf(o, "# no OSU program measures %s; columns as %s\n", r->kernel, m->program);
    if (r->status == P2PB_ROW_SKIPPED) {
        fprintf(o, "# skipped: %s\n", r->note);
        ctx->header_done = 0;
        return;
    }
    if (r->fixed_bytes > 0) /* memcpy: the buffer, whatever the size */
        fprintf(o, "# p2pbench: %d of %d ranks, bytes per iteration = %.17g at every Size\n",
                r->active_ranks, r->nranks, r->fixed_bytes);
    else
        fprintf(o, "# p2pbench: %d of %d ranks, bytes per iteration = %.17g x Size\n",
                r->active_ranks, r->nranks, r->bytes_factor);
    if (r->overlap.valid) /* docs/kernels.md, "Overlap" */
        fprintf(o, "# %s (medians of the pure, cpu and overlap rows; one line under each row)\n",
                P2PB_OVERLAP_FORMULA);
    osu_col_header(o, m);
    ctx->header_done = 1;
}

static void osu_row(struct p2pb_report_ctx *ctx, const struct p2pb_result *r)
{
    FILE *o = ctx->out;
    p2pb_report_note_bound(ctx, r);
    /* a table whose first sizes were skipped gets its header at its first measured row */
    if (p2pb_report_new_section(ctx, r) || (r->status != P2PB_ROW_SKIPPED && !ctx->header_done))
        osu_section(ctx, r);
    if (r->status == P2PB_ROW_SKIPPED)
        return;
    if (r->status != P2PB_ROW_OK) {
        fprintf(o, "# %zu bytes: %s%s%s\n", r->bytes, p2pb_row_status_str(r->status),
                r->note[0] ? ": " : "", r->note);
        return;
    }
    const struct osu_map map = osu_map_of(r->kernel), *m = &map;
    if (m->rate && r->bytes == 0)
        return; /* OSU's rate programs start at 1 byte; 0 bytes has no rate */
    ctx->rows++;
    if (osu_mbw_mr(m)) {
        /* messages/s: bytes_factor messages per iteration of t.median usec */
        double msgs = r->t.median > 0 ? r->bytes_factor * 1e6 / r->t.median : 0.0;
        fprintf(o, "%-10zu%18.2f%18.2f\n", r->bytes, r->mbytes_per_sec, msgs);
    } else {
        fprintf(o, "%-10zu%18.2f\n", r->bytes, m->rate ? r->mbytes_per_sec : r->t.median);
    }
    if (r->overlap.valid && isfinite(r->overlap.percent))
        fprintf(o, "# overlap[%%] %.1f\n", r->overlap.percent);
    else if (r->overlap.valid)
        fprintf(o, "# overlap[%%] undefined: %s\n", r->overlap.undefined);
}

static void osu_begin(struct p2pb_report_ctx *ctx)
{
    (void)ctx; /* OSU logs start with the first program's title */
}

static void osu_end(struct p2pb_report_ctx *ctx)
{
    p2pb_report_print_bound(ctx, "# ");
    if (ctx->incomplete)
        fprintf(ctx->out, "# p2pbench: run incomplete (aborted or cut short): not every size "
                          "was measured\n");
    fflush(ctx->out);
}

const struct p2pb_reporter p2pb_reporter_osu = {
    .name = "osu",
    .summary = "OSU micro-benchmarks layout (osu_latency, osu_bw, ... one table per kernel)",
    .begin = osu_begin,
    .row = osu_row,
    .end = osu_end,
};
