/* SPDX-License-Identifier: MIT */
/*
 * IMB-MPI1 compatible layout (docs/kernels.md): 13-character right-aligned
 * columns, 2 decimals; times are means over all timed iterations as IMB
 * prints them; Mbytes/sec from t_max. p2pbench always counts 1 MB = 10^6 B
 * and says so in the header (IMB's own unit varied between releases: PMB
 * and IMB <= 3.2 used 2^20 B; see docs/report.md on imports).
 */
#include <stdio.h>
#include <string.h>

#include "output/output.h"

static const char rule[] = "#---------------------------------------------------";

static void imb_begin(struct p2pb_report_ctx *ctx)
{
    const struct p2pb_run_info *ri = ctx->run;
    fprintf(ctx->out, "%s\n#    p2pbench %s, IMB-MPI1 compatible output\n%s\n", rule,
            ri ? ri->version : "", rule);
    if (ri) {
        fprintf(ctx->out, "# Date                  : %s\n", ri->start_utc);
        fprintf(ctx->out, "# Machine               : %s\n", ri->host);
        fprintf(ctx->out, "# MPI Version           : %s\n", ri->mpi_library);
        if (ri->label[0])
            fprintf(ctx->out, "# Label                 : %s\n", ri->label);
    }
    fprintf(ctx->out, "# Mbytes/sec            : 1 MB = 10^6 bytes\n");
}

static void imb_row(struct p2pb_report_ctx *ctx, const struct p2pb_result *r)
{
    FILE *o = ctx->out;
    int new_section = p2pb_report_new_section(ctx, r);
    if (new_section) {
        int skipped = r->status == P2PB_ROW_SKIPPED;
        fprintf(o, "\n%s\n# Benchmarking %s%s%s\n# #processes = %d\n", rule, r->display_name,
                r->variant[0] ? " " : "", r->variant, skipped ? r->nranks : r->active_ranks);
        if (!skipped && r->nranks > r->active_ranks)
            fprintf(o, "# ( %d additional processes waiting in MPI_Barrier)\n",
                    r->nranks - r->active_ranks);
        fprintf(o, "%s\n", rule);
        if (r->status == P2PB_ROW_SKIPPED) {
            fprintf(o, "# skipped: %s\n", r->note);
            return;
        }
        if (r->imb_layout == P2PB_IMB_TMINMAXAVG)
            fprintf(o, "%13s%13s%13s%13s%13s%13s\n", "#bytes", "#repetitions", "t_min[usec]",
                    "t_max[usec]", "t_avg[usec]", "Mbytes/sec");
        else
            fprintf(o, "%13s%13s%13s%13s\n", "#bytes", "#repetitions", "t[usec]", "Mbytes/sec");
    }
    if (r->status == P2PB_ROW_SKIPPED)
        return;
    if (r->status != P2PB_ROW_OK) {
        fprintf(o, "# %zu bytes: %s%s%s\n", r->bytes, p2pb_row_status_str(r->status),
                r->note[0] ? ": " : "", r->note);
        return;
    }
    size_t reps = p2pb_result_repetitions(r);
    if (r->imb_layout == P2PB_IMB_TMINMAXAVG)
        fprintf(o, "%13zu%13zu%13.2f%13.2f%13.2f%13.2f\n", r->bytes, reps, r->t_min_usec,
                r->t_max_usec, r->t_avg_usec, r->mbytes_per_sec_imb);
    else
        fprintf(o, "%13zu%13zu%13.2f%13.2f\n", r->bytes, reps, r->t_max_usec,
                r->mbytes_per_sec_imb);
}

/* IMB's closing line tells parsers the run finished: only a complete run
 * gets it. */
static void imb_end(struct p2pb_report_ctx *ctx)
{
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
