/* SPDX-License-Identifier: MIT */
/* Markdown: one table per kernel, units in the header row. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "output/output.h"
#include "overlap.h"

static void md_begin(struct p2pb_report_ctx *ctx)
{
    const struct p2pb_run_info *ri = ctx->run;
    if (!ri)
        return;
    fprintf(ctx->out, "## p2pbench %s%s", ri->version, ri->label[0] ? ": " : "");
    p2pb_md_field(ctx->out, ri->label);
    fprintf(ctx->out, ", %d ranks, ", ri->nranks);
    p2pb_md_field(ctx->out, ri->start_utc);
    fprintf(ctx->out, "\n\n");
    if (ri->mpi_library[0]) {
        fprintf(ctx->out, "MPI: ");
        p2pb_md_field(ctx->out, ri->mpi_library);
        fprintf(ctx->out, "\n\n");
    }
    char state[256];
    if (p2pb_fmt_state(state, sizeof state, ri))
        fprintf(ctx->out, "State: %s.\n\n", state);
    fprintf(ctx->out, "t = time per iteration (median of samples), usec; MB/s = 10^6 bytes/s.\n");
}

/* A row of the noise kernel: its detours instead of message times. */
static void md_noise_row(FILE *o, const struct p2pb_result *r, const char *n)
{
    const struct p2pb_noise *x = &r->noise;
    char rate[32], med[32], p99[32], mx[32];
    p2pb_fmt_sig(rate, sizeof rate, x->detours_per_sec);
    p2pb_fmt_sig(med, sizeof med, x->median_usec);
    p2pb_fmt_sig(p99, sizeof p99, x->p99_usec);
    p2pb_fmt_sig(mx, sizeof mx, x->max_usec);
    fprintf(o, "| %zu | %s | %s | %s | %s | %s | %.3g |\n", r->bytes, n, rate, med, p99, mx,
            100.0 * x->lost_share);
}

static void md_row(struct p2pb_report_ctx *ctx, const struct p2pb_result *r)
{
    FILE *o = ctx->out;
    p2pb_report_note_bound(ctx, r);
    int new_section = p2pb_report_new_section(ctx, r);
    if (new_section) {
        fprintf(o, "\n### ");
        p2pb_md_field(o, r->display_name);
        fprintf(o, "%s", r->variant[0] ? " " : "");
        p2pb_md_field(o, r->variant);
        if (r->status == P2PB_ROW_SKIPPED) {
            fprintf(o, " (%d ranks)\n\nSkipped: ", r->nranks);
            p2pb_md_field(o, r->note);
            fprintf(o, "\n");
            return;
        }
        fprintf(o, " (%d of %d ranks)\n\n", r->active_ranks, r->nranks);
        ctx->cur_overlap = r->overlap.valid;
        if (ctx->cur_overlap) /* docs/kernels.md, "Overlap" */
            fprintf(o,
                    "%s; t_pure, t_cpu = medians of the pure and cpu rows at the same size, "
                    "t_ovrl = this row's t median.\n\n"
                    "| bytes | n | t median [usec] | 95%% CI [usec] | p99 [usec] | MB/s | "
                    "overlap [%%] |\n"
                    "|------:|--:|----------------:|:-------------:|-----------:|-----:|"
                    "------------:|\n",
                    P2PB_OVERLAP_FORMULA);
        else if (r->noise.valid)
            fprintf(o, "| bytes | n | detours/s | detour median [usec] | p99 [usec] | max [usec] "
                       "| time lost [%%] |\n"
                       "|------:|--:|----------:|---------------------:|-----------:|-----------:"
                       "|--------------:|\n");
        else
            fprintf(o,
                    "| bytes | n | t median [usec] | 95%% CI [usec] | p99 [usec] | MB/s |%s\n"
                    "|------:|--:|----------------:|:-------------:|-----------:|-----:|%s\n",
                    r->msgs_factor > 0 ? " msgs/s |" : "", r->msgs_factor > 0 ? "-------:|" : "");
        ctx->cur_msgs = r->msgs_factor > 0; /* kernels with a msgs rule (kernel.h) */
    }
    if (r->status == P2PB_ROW_SKIPPED)
        return;
    if (r->status != P2PB_ROW_OK) {
        fprintf(o, "| %zu | | %s%s", r->bytes, p2pb_row_status_str(r->status),
                r->note[0] ? ": " : "");
        p2pb_md_field(o, r->note);
        fprintf(o, " | | | |%s\n", ctx->cur_msgs ? " |" : "");
        return;
    }
    char n[32];
    int dist = p2pb_disturbed(&r->disturbance);
    snprintf(n, sizeof n, "%zu%s%s%s", r->samples, r->ci_target_met == 0 ? "\\*" : "",
             dist ? "d" : "", r->shift.flagged ? "s" : "");
    ctx->marked += r->ci_target_met == 0;
    ctx->disturbed += dist != 0;
    ctx->shifted += r->shift.flagged != 0;
    if (r->noise.valid) {
        md_noise_row(o, r, n);
        return;
    }
    char med[32], lo[32], hi[32], p99[32], bw[32];
    p2pb_fmt_sig(med, sizeof med, r->t.median);
    p2pb_fmt_sig(lo, sizeof lo, r->t.ci95_low);
    p2pb_fmt_sig(hi, sizeof hi, r->t.ci95_high);
    p2pb_fmt_sig(p99, sizeof p99, r->t.p99);
    p2pb_fmt_sig(bw, sizeof bw, r->mbytes_per_sec);
    if (p2pb_stats_ci_unbounded(&r->t)) {
        ctx->unbounded++;
        fprintf(o, "| %zu | %s | %s | unbounded | %s | %s |", r->bytes, n, med, p99, bw);
    } else if (r->t.ci_valid)
        fprintf(o, "| %zu | %s | %s | %s .. %s | %s | %s |", r->bytes, n, med, lo, hi, p99, bw);
    else
        fprintf(o, "| %zu | %s | %s | - | %s | %s |", r->bytes, n, med, p99, bw);
    if (ctx->cur_msgs) { /* msgs/s x X / 10^6 = MB/s */
        char ms[32];
        p2pb_fmt_sig(ms, sizeof ms, r->msgs_per_sec);
        fprintf(o, " %s |", ms);
    }
    if (ctx->cur_overlap && r->overlap.valid && isfinite(r->overlap.percent))
        fprintf(o, " %.1f |", r->overlap.percent);
    else if (ctx->cur_overlap && r->overlap.valid) {
        fprintf(o, " undefined: ");
        p2pb_md_field(o, r->overlap.undefined);
        fprintf(o, " |");
    } else if (ctx->cur_overlap)
        fprintf(o, " - |");
    fputc('\n', o);
}

static void md_end(struct p2pb_report_ctx *ctx)
{
    FILE *o = ctx->out;
    if (ctx->marked || ctx->disturbed || ctx->shifted || ctx->unbounded || ctx->exceeds)
        fputc('\n', o);
    p2pb_report_print_bound(ctx, "- ");
    if (ctx->marked)
        fprintf(o, "- n\\*: %zu row%s whose 95%% interval is wider than the CI target\n",
                ctx->marked, ctx->marked == 1 ? "" : "s");
    if (ctx->disturbed)
        fprintf(o,
                "- nd: %zu row%s measured while a rank lost its CPU (steal, time off the CPU, "
                "migrations; \"disturbance\" in the results file)\n",
                ctx->disturbed, ctx->disturbed == 1 ? "" : "s");
    if (ctx->shifted)
        fprintf(o, "- ns: %zu row%s whose level changed while measured (\"shift\")\n", ctx->shifted,
                ctx->shifted == 1 ? "" : "s");
    if (ctx->unbounded)
        fprintf(o,
                "- unbounded: %zu row%s whose 95%% interval reaches beyond %gx or 1/%gx of the "
                "median: it predicts nothing; the bounds stay in the results file\n",
                ctx->unbounded, ctx->unbounded == 1 ? "" : "s", P2PB_CI_UNBOUNDED_FACTOR,
                P2PB_CI_UNBOUNDED_FACTOR);
    fflush(o);
}

const struct p2pb_reporter p2pb_reporter_markdown = {
    .name = "markdown",
    .summary = "Markdown tables, one per kernel",
    .begin = md_begin,
    .row = md_row,
    .end = md_end,
};

void p2pb_md_field(FILE *o, const char *s)
{
    for (; *s; s++) {
        if (*s == '<')
            fputs("&lt;", o);
        else if (*s == '>')
            fputs("&gt;", o);
        else if (*s == '&')
            fputs("&amp;", o);
        else {
            if (*s == '|')
                fputc('\\', o);
            fputc(*s, o);
        }
    }
}
