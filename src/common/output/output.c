/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bound.h"
#include "output/output.h"

const struct p2pb_reporter *const p2pb_reporters[] = {&p2pb_reporter_text, &p2pb_reporter_imb,
                                                      &p2pb_reporter_csv,  &p2pb_reporter_markdown,
                                                      &p2pb_reporter_osu,  NULL};

const struct p2pb_reporter *p2pb_reporter_find(const char *name)
{
    for (size_t i = 0; p2pb_reporters[i]; i++)
        if (strcmp(p2pb_reporters[i]->name, name) == 0)
            return p2pb_reporters[i];
    return NULL;
}

char *p2pb_fmt_sig(char *buf, size_t len, double v)
{
    if (!isfinite(v)) {
        snprintf(buf, len, "-");
        return buf;
    }
    double a = fabs(v);
    if (a == 0.0)
        snprintf(buf, len, "0");
    else if (a >= 1e12 || a < 1e-9) /* 4 significant digits, never cut: 1.000e+40, 4.941e-324 */
        snprintf(buf, len, "%.3e", v);
    else if (a >= 1.0)
        snprintf(buf, len, "%.2f", v);
    else /* three significant digits below 1: 0.0412, 0.500, 0.000123 */
        snprintf(buf, len, "%.*f", 2 - (int)floor(log10(a)), v);
    return buf;
}

char *p2pb_fmt_mhz_range(char *buf, size_t len, double lo_mhz, double hi_mhz)
{
    if (lround(lo_mhz) == lround(hi_mhz))
        snprintf(buf, len, "%.0f MHz", lo_mhz);
    else
        snprintf(buf, len, "%.0f-%.0f MHz", lo_mhz, hi_mhz);
    return buf;
}

char *p2pb_fmt_size(char *buf, size_t len, size_t bytes)
{
    static const char suffix[] = "KMGTPE";
    if (bytes < 1024) {
        snprintf(buf, len, "%zu", bytes);
        return buf;
    }
    double v = (double)bytes;
    int i = -1;
    while (v >= 1024.0 && i < 5) {
        v /= 1024.0;
        i++;
    }
    if (v == floor(v))
        snprintf(buf, len, "%.0f%c", v, suffix[i]);
    else
        snprintf(buf, len, "%.3g%c", v, suffix[i]);
    return buf;
}

int p2pb_report_new_section(struct p2pb_report_ctx *ctx, const struct p2pb_result *r)
{
    if (ctx->section_open && strcmp(ctx->cur_kernel, r->kernel) == 0 &&
        strcmp(ctx->cur_variant, r->variant) == 0 && ctx->cur_nranks == r->nranks)
        return 0;
    snprintf(ctx->cur_kernel, sizeof ctx->cur_kernel, "%s", r->kernel);
    snprintf(ctx->cur_variant, sizeof ctx->cur_variant, "%s", r->variant);
    ctx->cur_nranks = r->nranks;
    ctx->section_open = 1;
    return 1;
}

char *p2pb_fmt_state(char *buf, size_t len, const struct p2pb_run_info *ri)
{
    if (strcmp(ri->state, "steady") == 0)
        snprintf(buf, len,
                 "steady (every size and round warmed up until its time per batch "
                 "settled; buffers kept for the whole run)");
    else if (strcmp(ri->state, "cold") == 0 && ri->off_cache_bytes)
        snprintf(buf, len,
                 "cold (--off-cache: each message one cache line past the last, through "
                 "2 x %zu bytes per side, as IMB -off_cache %.6g)",
                 ri->off_cache_bytes, (double)ri->off_cache_bytes / 1048576.0);
    else if (strcmp(ri->state, "cold") == 0)
        snprintf(buf, len, "cold (--off-cache)");
    else if (strcmp(ri->state, "unwarmed") == 0)
        snprintf(buf, len,
                 "not warmed up (--warmup 0: each size timed as it comes; the "
                 "iterations that chose k ran before it)");
    else
        return NULL;
    return buf;
}

void p2pb_report_note_bound(struct p2pb_report_ctx *ctx, const struct p2pb_result *r)
{
    if (r->status != P2PB_ROW_OK || !r->bound.valid || !r->bound.exceeds)
        return;
    if (!ctx->exceeds++)
        snprintf(ctx->exceeds_first, sizeof ctx->exceeds_first, "%s%s%s, %zu bytes, at %.0f%%",
                 r->display_name, r->variant[0] ? " " : "", r->variant, r->bytes, r->bound.percent);
}

void p2pb_report_print_bound(const struct p2pb_report_ctx *ctx, const char *prefix)
{
    if (!ctx->exceeds)
        return;
    fprintf(ctx->out,
            "%sexceeds bound: %zu row%s above %.0f%% of the most the hardware allows (a local "
            "copy of the size, or the link's rate; \"bound\" in the results file), the first "
            "%s: a likely measurement error, not a result\n",
            prefix, ctx->exceeds, ctx->exceeds == 1 ? "" : "s", 100 * P2PB_BOUND_TOLERANCE,
            ctx->exceeds_first);
}
