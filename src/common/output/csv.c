/* SPDX-License-Identifier: MIT */
/*
 * CSV: one header row, then one row per (kernel, size). The first column
 * carries the schema version. Times in usec, rates in MB/s (10^6 B/s).
 * Fields that are not numbers for a row (failed, skipped) are empty.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bound.h"
#include "overlap.h"
#include "output/output.h"

/* 1 if s is a plain decimal number as a spreadsheet reads one: [+-]digits
 * [.digits][e[+-]digits], e.g. "-3" or "-1.5e-3" (no inf, nan, hex). */
static int plain_number(const char *s)
{
    size_t i = (*s == '+' || *s == '-') ? 1 : 0, digits = 0;
    for (; isdigit((unsigned char)s[i]); i++)
        digits++;
    if (s[i] == '.')
        for (i++; isdigit((unsigned char)s[i]); i++)
            digits++;
    if (digits && (s[i] == 'e' || s[i] == 'E')) {
        size_t e = i + 1 + (s[i + 1] == '+' || s[i + 1] == '-');
        if (!isdigit((unsigned char)s[e]))
            return 0;
        for (i = e; isdigit((unsigned char)s[i]); i++)
            ;
    }
    return digits > 0 && s[i] == '\0';
}

void p2pb_csv_field(FILE *o, const char *s)
{
    /* a spreadsheet reads a cell starting with = + - @ (or TAB, CR) as a
     * formula: such text is quoted with a leading ' (OWASP, "CSV Injection":
     * prepend ', escape and enclose in double quotes; OWASP ASVS 5.0,
     * 1.2.10); a plain number stays a number */
    int formula = *s && strchr("=+-@\t\r", *s) && !plain_number(s);
    if (formula || strpbrk(s, ",\"\n\r")) {
        fputc('"', o);
        if (formula)
            fputc('\'', o);
        for (; *s; s++) {
            if (*s == '"')
                fputc('"', o);
            fputc(*s, o);
        }
        fputc('"', o);
    } else
        fputs(s, o);
}

static void csv_num(FILE *o, double v)
{
    fputc(',', o);
    if (isfinite(v))
        fprintf(o, "%.9g", v);
}

static void csv_begin(struct p2pb_report_ctx *ctx)
{
    fputs("schema,label,kernel,variant,bytes,nranks,active_ranks,status,samples,"
          "iterations_per_sample,repetitions,t_median_usec,t_ci95_low_usec,t_ci95_high_usec,"
          "t_min_usec,t_p25_usec,t_p75_usec,t_p99_usec,t_max_usec,t_mean_usec,t_stddev_usec,"
          "outliers,imb_t_min_usec,imb_t_max_usec,imb_t_avg_usec,mbytes_per_sec,"
          "mbytes_per_sec_imb,asymmetry,asymmetry_vs,disturbed,steal_pct,cpu_lost_pct,"
          "invol_ctxsw,migrations,cpu_mhz,shifted,noise_detours_per_sec,noise_median_usec,"
          "noise_p99_usec,noise_max_usec,noise_lost_pct,noise_worst_rank,bound_mbytes_per_sec,"
          "bound_source,bound_pct,exceeds_bound,clock_residual_usec,clock_within,msgs_per_sec,"
          "overlap_pct,overlap_undefined,overlap_formula\n",
          ctx->out);
}

/* The columns from "disturbed" on: what disturbed the row (docs/host-context.md),
 * its level shift, the noise kernel's detours, the row's bound, a one-way
 * row's clock check and an overlap row's percentage; empty where not
 * measured. */
static void csv_extras(FILE *o, const struct p2pb_result *r)
{
    const struct p2pb_disturbance *d = &r->disturbance;
    const struct p2pb_noise *n = &r->noise;
    if (d->valid) {
        fprintf(o, ",%d", p2pb_disturbed(d));
        csv_num(o, d->steal_pct);
        csv_num(o, d->cpu_lost_pct);
        csv_num(o, d->invol_ctxsw);
        csv_num(o, d->migrations >= 0 ? d->migrations : NAN);
        csv_num(o, d->cpu_mhz > 0 ? d->cpu_mhz : NAN);
    } else
        fputs(",,,,,,", o);
    if (r->shift.tested)
        fprintf(o, ",%d", r->shift.flagged != 0);
    else
        fputc(',', o);
    if (n->valid) {
        csv_num(o, n->detours_per_sec);
        csv_num(o, n->median_usec);
        csv_num(o, n->p99_usec);
        csv_num(o, n->max_usec);
        csv_num(o, 100.0 * n->lost_share);
        fprintf(o, ",%d", n->worst_rank);
    } else
        fputs(",,,,,,", o);
    if (r->bound.valid)
        fprintf(o, ",%.9g,%s,%.9g,%d", r->bound.mbps, p2pb_bound_source_str(r->bound.source),
                r->bound.percent, r->bound.exceeds != 0);
    else
        fputs(",,,,", o);
    if (r->clock.valid && r->clock.residual_usec >= 0)
        fprintf(o, ",%.9g,%d", r->clock.residual_usec, r->clock.within == 1);
    else
        fputs(",,", o);
    /* kernels with a msgs rule (kernel.h), ok rows: msgs/s x X / 10^6 = MB/s */
    csv_num(o, r->msgs_factor > 0 && r->status == P2PB_ROW_OK ? r->msgs_per_sec : NAN);
    if (r->overlap.valid) { /* the percentage, or empty with the reason; the formula */
        csv_num(o, r->overlap.percent);
        fputc(',', o);
        p2pb_csv_field(o, r->overlap.undefined);
        fputc(',', o);
        p2pb_csv_field(o, P2PB_OVERLAP_FORMULA);
    } else
        fputs(",,,", o);
}

static void csv_row(struct p2pb_report_ctx *ctx, const struct p2pb_result *r)
{
    FILE *o = ctx->out;
    fputs(P2PB_SCHEMA ",", o);
    p2pb_csv_field(o, ctx->run ? ctx->run->label : "");
    fputc(',', o);
    p2pb_csv_field(o, r->kernel);
    fputc(',', o);
    p2pb_csv_field(o, r->variant);
    fprintf(o, ",%zu,%d,%d,%s", r->bytes, r->nranks, r->active_ranks,
            p2pb_row_status_str(r->status));
    if (r->status != P2PB_ROW_OK) {
        fputs(",,,,,,,,,,,,,,,,,,,,,", o); /* samples .. asymmetry_vs */
        csv_extras(o, r);
        fputc('\n', o);
        return;
    }
    fprintf(o, ",%zu,%zu,%zu", r->samples, r->iterations_per_sample, p2pb_result_repetitions(r));
    csv_num(o, r->t.median);
    const int ci = r->t.ci_valid && !p2pb_stats_ci_unbounded(&r->t); /* empty: no usable bound */
    csv_num(o, ci ? r->t.ci95_low : NAN);
    csv_num(o, ci ? r->t.ci95_high : NAN);
    csv_num(o, r->t.min);
    csv_num(o, r->t.p25);
    csv_num(o, r->t.p75);
    csv_num(o, r->t.p99);
    csv_num(o, r->t.max);
    csv_num(o, r->t.mean);
    csv_num(o, r->t.stddev);
    fprintf(o, ",%zu", r->t.outliers);
    csv_num(o, r->t_min_usec);
    csv_num(o, r->t_max_usec);
    csv_num(o, r->t_avg_usec);
    csv_num(o, r->mbytes_per_sec);
    csv_num(o, r->mbytes_per_sec_imb);
    /* directional kernels, second direction: MB/s of this row / MB/s of asym_ref */
    csv_num(o, r->asym_ref[0] ? r->asymmetry : NAN);
    fputc(',', o);
    p2pb_csv_field(o, r->asym_ref);
    csv_extras(o, r);
    fputc('\n', o);
}

static void csv_end(struct p2pb_report_ctx *ctx)
{
    fflush(ctx->out);
}

const struct p2pb_reporter p2pb_reporter_csv = {
    .name = "csv",
    .summary = "CSV with a header row; first column is the schema version",
    .begin = csv_begin,
    .row = csv_row,
    .end = csv_end,
};
