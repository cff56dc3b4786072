/* SPDX-License-Identifier: MIT */
/*
 * The default human table: one section per kernel; median time with its 95%
 * CI, p99, min, sample count and throughput from the median. Units in every
 * header; a positive rate is never printed as 0.00.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "output/output.h"
#include "bound.h"
#include "overlap.h"
#include "probe.h"

/* The placement probe of the run in the header: one line per pair, or why
 * there is none (docs/host-context.md, "Placement probe"). */
static void print_probe(struct p2pb_report_ctx *ctx)
{
    const struct p2pb_probe *p = ctx->probe;
    if (!p || !p->valid)
        return;
    if (p->error[0])
        fprintf(ctx->out, "# placement probe: not measured: %s\n", p->error);
    else if (!p->npairs)
        fprintf(ctx->out,
                "# placement probe: no probed pair (ranks 0-1, 2-3, ...) shares a host\n");
    for (size_t i = 0; i < p->npairs; i++) {
        const struct p2pb_probe_pair *q = &p->pairs[i];
        char cpus[80] = "CPUs unknown", med[32], mn[32];
        if (q->cpus[0] >= 0 && q->cpus[0] == q->cpus[1])
            snprintf(cpus, sizeof cpus, "both on CPU %d%s: nothing crosses between CPUs",
                     q->cpus[0], q->migrated ? " at the end" : "");
        else if (q->cpus[0] >= 0 && q->cpus[1] >= 0)
            snprintf(cpus, sizeof cpus, "CPUs %d and %d%s", q->cpus[0], q->cpus[1],
                     q->migrated ? ", moved while probed" : "");
        if (!q->nbatches) {
            fprintf(ctx->out,
                    "# placement probe: ranks %d-%d (%s): no batch within its %g ms cap (a "
                    "rank descheduled?)\n",
                    q->ranks[0], q->ranks[1], cpus, p->cap_ms);
            continue;
        }
        p2pb_fmt_sig(med, sizeof med, q->one_way_ns);
        p2pb_fmt_sig(mn, sizeof mn, q->min_ns);
        fprintf(ctx->out,
                "# placement probe: ranks %d-%d (%s): cache-line one-way %s ns (median of %zu "
                "batch%s, min %s ns)%s\n",
                q->ranks[0], q->ranks[1], cpus, med, q->nbatches, q->nbatches == 1 ? "" : "es", mn,
                q->complete ? "" : ", cut short by its time cap");
    }
}

static void text_begin(struct p2pb_report_ctx *ctx)
{
    const struct p2pb_run_info *ri = ctx->run;
    if (!ri)
        return;
    fprintf(ctx->out, "# p2pbench %s%s%s | %d rank%s | %s\n", ri->version,
            ri->label[0] ? " | label " : "", ri->label, ri->nranks, ri->nranks == 1 ? "" : "s",
            ri->start_utc);
    if (ri->mpi_library[0])
        fprintf(ctx->out, "# MPI: %s\n", ri->mpi_library);
    if (ri->imported)
        fprintf(ctx->out, "# imported from %s: one averaged value per size, no spread\n",
                ri->source[0] ? ri->source : "a text log");
    if (ri->check)
        fprintf(ctx->out,
                "# --check: every received payload byte verified after timing each size\n");
    if (ri->imported) /* the log's value is its own mean: n 1, k its repetitions */
        fprintf(ctx->out, "# t = time per iteration in usec: the log's value, the mean of k "
                          "iterations (n 1); MB/s = 10^6 bytes/s\n");
    else
        fprintf(ctx->out, "# t = time per iteration in usec: median of n samples, each the mean "
                          "of k iterations; ci95 = 95%% interval of the median (with rounds: of "
                          "another launch's median); MB/s = 10^6 bytes/s\n");
    {
        char state[256];
        if (p2pb_fmt_state(state, sizeof state, ri))
            fprintf(ctx->out, "# state: %s\n", state);
    }
    print_probe(ctx);
}

static void print_title(struct p2pb_report_ctx *ctx, const struct p2pb_result *r)
{
    FILE *o = ctx->out;
    fprintf(o, "# %s%s%s: ", r->display_name, r->variant[0] ? " " : "", r->variant);
    if (r->active_ranks < r->nranks)
        fprintf(o, "%d of %d ranks take part, %d waiting in MPI_Barrier", r->active_ranks,
                r->nranks, r->nranks - r->active_ranks);
    else
        fprintf(o, "%d rank%s", r->nranks, r->nranks == 1 ? "" : "s");
    if (r->time_scale == 0.5)
        fprintf(o, "; t = half round trip");
    else if (r->time_scale != 1.0)
        fprintf(o, "; t = %g x iteration time", r->time_scale);
    if (strncmp(r->variant, "aggregate", 9) == 0)
        fprintf(o, "; t = max over groups, MB/s = sum of the groups' MB/s%s\n",
                r->msgs_factor > 0 ? ", msgs/s = sum of the groups' msgs/s" : "");
    else if (r->fixed_bytes > 0)
        fprintf(o, "; MB/s = %.0f bytes / t, whatever the size\n", r->fixed_bytes);
    else if (r->msgs_factor > 0)
        fprintf(o, "; MB/s = %g x bytes / t, msgs/s = %g x 10^6 / t\n", r->bytes_factor,
                r->msgs_factor);
    else if (r->bytes_factor == 0) /* no bytes move (overlap's compute-only row) */
        fprintf(o, "; no bytes move: MB/s 0\n");
    else
        fprintf(o, "; MB/s = %g x bytes / t\n", r->bytes_factor);
    if (r->rounds >= 2) /* docs/methodology.md, "Rounds" */
        fprintf(
            o,
            "# ci95 = where another launch's median should fall, from %zu rounds (sizes "
            "shuffled, each warmed up again every round); what is fixed for a whole launch is only "
            "partly in it: on 2-vCPU VMs it held another launch's median in 82%% (AMD host, "
            "launches in two latency groups) to 93%% (Intel host) of cases "
            "(docs/methodology.md, \"Rounds\")\n",
            r->rounds);
    if (r->clock.valid)
        fprintf(o, "# t = end of the receive - start of the send, on rank 0's clock (rank 1's "
                   "through a fitted line); a constant difference between the directions cannot "
                   "be told from a clock offset, one that grows with the size can\n");
    double floor_usec = p2pb_probe_floor_usec(ctx->probe, r);
    int a, b;
    if (floor_usec > 0 && p2pb_probe_row_pair(r, &a, &b)) {
        char fl[32];
        p2pb_fmt_sig(fl, sizeof fl, floor_usec * 1e3);
        fprintf(o,
                "# placement probe: ranks %d-%d cache-line one-way %s ns (its fastest batch: "
                "floor of 0-byte latency; a median t below it is marked f)\n",
                a, b, fl);
    }
    ctx->cur_overlap = r->overlap.valid;
    if (ctx->cur_overlap) /* docs/kernels.md, "Overlap" */
        fprintf(o,
                "# %s; t_pure, t_cpu = medians of the pure and cpu rows at the same size, "
                "t_ovrl = this row's t_median; undefined when t_pure or t_cpu is 0\n",
                P2PB_OVERLAP_FORMULA);
    ctx->cur_asym = r->asym_ref[0] != 0;
    if (ctx->cur_asym)
        fprintf(o, "# asym = MB/s of %s / MB/s of %s at the same size\n", r->variant, r->asym_ref);
    ctx->title_done = 1;
}

static void open_section(struct p2pb_report_ctx *ctx, const struct p2pb_result *r)
{
    ctx->header_done = 0;
    ctx->title_done = 0;
    ctx->cur_asym = 0;
    ctx->cur_bound = 0;
    ctx->cur_msgs = 0;
    ctx->cur_overlap = 0;
    fprintf(ctx->out, "\n");
    if (r->status != P2PB_ROW_SKIPPED)
        print_title(ctx, r);
}

static void print_header(struct p2pb_report_ctx *ctx)
{
    fprintf(ctx->out, "%12s %7s %7s %14s %14s %14s %12s %12s %12s%s%s%s%s\n", "bytes", "n", "k",
            "t_median[usec]", "ci95_lo[usec]", "ci95_hi[usec]", "p99[usec]", "min[usec]", "MB/s",
            ctx->cur_msgs ? "       msgs/s" : "", ctx->cur_asym ? "         asym" : "",
            ctx->cur_bound ? "     %bound" : "", ctx->cur_overlap ? "  overlap[%]" : "");
    ctx->header_done = 1;
}

/* The overlap[%] column and the end of the row; an undefined percentage
 * says so and why on the line below (result.h, struct p2pb_overlap). */
static void print_overlap(FILE *o, const struct p2pb_overlap *ov)
{
    if (ov->valid && isfinite(ov->percent)) {
        fprintf(o, " %11.1f\n", ov->percent);
        return;
    }
    fprintf(o, " %11s\n", ov->valid ? "undefined" : "-");
    if (ov->valid)
        fprintf(o, "%12s overlap undefined: %s\n", "", ov->undefined);
}

/* The noise kernel's detours under its row (result.h, struct p2pb_noise). */
static void print_noise(FILE *o, const struct p2pb_result *r)
{
    const struct p2pb_noise *n = &r->noise;
    if (!n->valid)
        return;
    char rate[32], med[32], p99[32], mx[32], thr[32];
    p2pb_fmt_sig(rate, sizeof rate, n->detours_per_sec);
    p2pb_fmt_sig(med, sizeof med, n->median_usec);
    p2pb_fmt_sig(p99, sizeof p99, n->p99_usec);
    p2pb_fmt_sig(mx, sizeof mx, n->max_usec);
    p2pb_fmt_sig(thr, sizeof thr, n->threshold_usec);
    char who[48] = "";
    if (strncmp(r->variant, "aggregate", 9) == 0)
        snprintf(who, sizeof who, " (worst rank: %d)", n->worst_rank);
    fprintf(o,
            "%12s detours%s: %s /s, duration median %s usec, p99 %s usec, max %s usec; "
            "%.3g%% of the time lost (gaps > %s usec)\n",
            "", who, rate, med, p99, mx, 100.0 * n->lost_share, thr);
}

/* Count a disturbed row; keep the most disturbed one (most steal, then
 * most CPU time lost) for the note under the tables. */
static void note_disturbed(struct p2pb_report_ctx *ctx, const struct p2pb_result *r)
{
    const struct p2pb_disturbance *d = &r->disturbance, *w = &ctx->worst;
    if (!ctx->disturbed++ || d->steal_pct > w->steal_pct ||
        (d->steal_pct == w->steal_pct && d->cpu_lost_pct > w->cpu_lost_pct)) {
        ctx->worst = *d;
        snprintf(ctx->worst_what, sizeof ctx->worst_what, "%s%s%s, %zu bytes", r->display_name,
                 r->variant[0] ? " " : "", r->variant, r->bytes);
    }
}

/* Keep the range of the rows' CPU frequency (disturbance.cpu_mhz). */
static void note_mhz(struct p2pb_report_ctx *ctx, const struct p2pb_disturbance *d)
{
    if (!d->valid || !(d->cpu_mhz > 0))
        return;
    if (!ctx->mhz_rows++ || d->cpu_mhz < ctx->mhz_min)
        ctx->mhz_min = d->cpu_mhz;
    if (ctx->mhz_rows == 1 || d->cpu_mhz > ctx->mhz_max)
        ctx->mhz_max = d->cpu_mhz;
    if (d->mhz_source > ctx->mhz_source)
        ctx->mhz_source = d->mhz_source;
}

/* The note under the tables: the CPU frequency the rows saw. */
static void print_mhz(const struct p2pb_report_ctx *ctx)
{
    char range[64];
    p2pb_fmt_mhz_range(range, sizeof range, ctx->mhz_min, ctx->mhz_max);
    fprintf(ctx->out,
            "# CPU frequency: %s over %d row%s (the lowest rank's, from %s; "
            "\"disturbance.cpu_mhz\")\n",
            range, ctx->mhz_rows, ctx->mhz_rows == 1 ? "" : "s",
            ctx->mhz_source == P2PB_MHZ_APERF ? "APERF/MPERF" : "cpufreq");
}

/* The note under the tables: how many rows were disturbed, and by what. */
static void print_disturbed(const struct p2pb_report_ctx *ctx)
{
    const struct p2pb_disturbance *w = &ctx->worst;
    char mig[32] = "unknown";
    if (w->migrations >= 0)
        snprintf(mig, sizeof mig, "%.0f", w->migrations);
    fprintf(ctx->out,
            "# nd: %zu row%s measured while a rank lost its CPU (steal >= 1%%, off its CPU >= "
            "%.0f%% of the samples' time after involuntary context switches, or a CPU "
            "migration); the most: %s, rank %d: steal %.1f%%, off its CPU %.1f%%, %.0f "
            "involuntary context switches, %s migrations\n",
            ctx->disturbed, ctx->disturbed == 1 ? "" : "s", P2PB_DISTURBED_LOST_PCT,
            ctx->worst_what, w->worst_rank, w->steal_pct, w->cpu_lost_pct, w->invol_ctxsw, mig);
}

/* Count a one-way row and keep its clock's residual and round trip. */
static void note_clock(struct p2pb_report_ctx *ctx, const struct p2pb_clock_sync *c)
{
    if (!c->valid)
        return;
    if (!ctx->clock_rows++ || c->rtt_usec < ctx->clock_rtt)
        ctx->clock_rtt = c->rtt_usec;
    if (ctx->clock_rows == 1 || c->residual_usec > ctx->clock_resid)
        ctx->clock_resid = c->residual_usec;
    ctx->clock_failed += c->within == 0;
}

/* The note under the tables: how well the clocks of the one-way rows agreed. */
static void print_clock(const struct p2pb_report_ctx *ctx)
{
    char res[32], half[32];
    p2pb_fmt_sig(res, sizeof res, ctx->clock_resid);
    p2pb_fmt_sig(half, sizeof half, ctx->clock_rtt / 2);
    fprintf(ctx->out,
            "# clock: largest residual of the fitted clock after a round %s usec over %zu one-way "
            "row%s; pass mark half the fastest synchronisation round trip, %s usec "
            "(MPI_WTIME_IS_GLOBAL); nc: %zu row%s above it (\"clock\" in the results file)\n",
            ctx->clock_resid >= 0 ? res : "-", ctx->clock_rows, ctx->clock_rows == 1 ? "" : "s",
            half, ctx->clock_failed, ctx->clock_failed == 1 ? "" : "s");
}

static void text_row(struct p2pb_report_ctx *ctx, const struct p2pb_result *r)
{
    FILE *o = ctx->out;
    int new_section = p2pb_report_new_section(ctx, r);
    if (new_section) {
        open_section(ctx, r);
        ctx->last_skip[0] = '\0';
    }
    if (r->status == P2PB_ROW_SKIPPED) {
        /* one line per reason: a kernel skipped at every size says so once */
        const char *why = r->note[0] ? r->note : "not run";
        if (strcmp(ctx->last_skip, why) != 0) {
            if (new_section)
                fprintf(o, "# %s%s%s: %s (skipped)\n", r->display_name, r->variant[0] ? " " : "",
                        r->variant, why);
            else
                fprintf(o, "%12zu skipped: %s\n", r->bytes, why);
            snprintf(ctx->last_skip, sizeof ctx->last_skip, "%s", why);
        }
        return;
    }
    ctx->last_skip[0] = '\0';
    if (!ctx->title_done) /* the section began with skipped sizes */
        print_title(ctx, r);
    if (!ctx->header_done) {
        /* a %bound column when the first row has a bound, or is size 0 (no
         * bound: no bytes) of a kernel whose bytes scale with the size */
        ctx->cur_bound = r->bound.valid || (r->bytes == 0 && r->bytes_factor > 0 &&
                                            r->fixed_bytes <= 0 && ctx->run && ctx->run->bounds);
        ctx->bound_shown |= ctx->cur_bound;
        ctx->cur_msgs = r->msgs_factor > 0; /* kernels with a msgs rule (kernel.h) */
        print_header(ctx);
    }
    /* the eager limit concerns messages: not kernels with fixed bytes (memcpy).
     * MPI libraries count their own header against it (Open MPI's vader:
     * 4096 bytes with the header), so the step shows at the first size that
     * reaches the limit: the marker goes before that row. */
    if (ctx->eager_limit >= 0 && ctx->rows > 0 && r->fixed_bytes <= 0 &&
        r->bytes >= (size_t)ctx->eager_limit && ctx->prev_bytes < (size_t)ctx->eager_limit &&
        !new_section)
        fprintf(o,
                "%12s --- eager limit %ld bytes (library setting, may include its header): "
                "rendezvous from about here ---\n",
                "", ctx->eager_limit);
    ctx->rows++;
    ctx->prev_bytes = r->bytes;
    if (r->status != P2PB_ROW_OK) {
        fprintf(o, "%12zu %s%s%s\n", r->bytes, p2pb_row_status_str(r->status),
                r->note[0] ? ": " : "", r->note);
        return;
    }
    char med[32], lo[32], hi[32], p99[32], mn[32], bw[32];
    p2pb_fmt_sig(med, sizeof med, r->t.median);
    if (p2pb_stats_ci_unbounded(&r->t)) {
        ctx->unbounded++;
        snprintf(lo, sizeof lo, "unbounded");
        snprintf(hi, sizeof hi, "unbounded");
    } else if (r->t.ci_valid) {
        p2pb_fmt_sig(lo, sizeof lo, r->t.ci95_low);
        p2pb_fmt_sig(hi, sizeof hi, r->t.ci95_high);
    } else {
        ctx->no_interval += !(ctx->run && ctx->run->imported); /* imports: said in the header */
        snprintf(lo, sizeof lo, "-");
        snprintf(hi, sizeof hi, "-");
    }
    p2pb_fmt_sig(p99, sizeof p99, r->t.p99);
    p2pb_fmt_sig(mn, sizeof mn, r->t.min);
    p2pb_fmt_sig(bw, sizeof bw, r->mbytes_per_sec);
    ctx->verified += ctx->run && ctx->run->check;
    char n[32];
    int dist = p2pb_disturbed(&r->disturbance);
    int below = r->t.median < p2pb_probe_floor_usec(ctx->probe, r); /* false when NAN */
    snprintf(n, sizeof n, "%zu%s%s%s%s%s", r->samples, r->ci_target_met == 0 ? "*" : "",
             dist ? "d" : "", r->shift.flagged ? "s" : "",
             r->clock.valid && r->clock.within == 0 ? "c" : "", below ? "f" : "");
    note_clock(ctx, &r->clock);
    ctx->shifted += r->shift.flagged != 0;
    ctx->below_floor += below != 0;
    if (r->ci_target_met == 0)
        ctx->marked++;
    if (dist)
        note_disturbed(ctx, r);
    note_mhz(ctx, &r->disturbance);
    fprintf(o, "%12zu %7s %7zu %14s %14s %14s %12s %12s %12s", r->bytes, n,
            r->iterations_per_sample, med, lo, hi, p99, mn, bw);
    if (ctx->cur_msgs) { /* msgs/s x X / 10^6 = MB/s */
        char ms[32];
        p2pb_fmt_sig(ms, sizeof ms, r->msgs_per_sec);
        fprintf(o, " %12s", ms);
    }
    if (ctx->cur_asym) {
        char as[32];
        p2pb_fmt_sig(as, sizeof as, r->asym_ref[0] ? r->asymmetry : NAN);
        fprintf(o, " %12s", as);
    }
    if (r->bound.valid) { /* docs/kernels.md, "Bounds" */
        fprintf(o, " %10.1f%%%s", r->bound.percent, r->bound.exceeds ? " exceeds bound" : "");
        p2pb_report_note_bound(ctx, r);
    } else if (ctx->cur_bound && ctx->cur_overlap)
        fprintf(o, " %11s", "");
    if (ctx->cur_overlap)
        print_overlap(o, &r->overlap);
    else
        fputc('\n', o);
    print_noise(o, r);
}

static void text_end(struct p2pb_report_ctx *ctx)
{
    ctx->section_open = 0;
    if (ctx->marked)
        fprintf(ctx->out,
                "\n# n*: %zu row%s whose 95%% interval is wider than the CI target "
                "(--ci-target; more --rounds or --time-per-size narrow it)\n",
                ctx->marked, ctx->marked == 1 ? "" : "s");
    if (ctx->disturbed)
        print_disturbed(ctx);
    if (ctx->mhz_rows)
        print_mhz(ctx);
    if (ctx->clock_rows)
        print_clock(ctx);
    if (ctx->bound_shown)
        fprintf(ctx->out, "# %%bound: the row's MB/s as a share of the most the hardware allows "
                          "(a local copy of the size, or the link's rate; docs/kernels.md, "
                          "\"Bounds\")\n");
    p2pb_report_print_bound(ctx, "# ");
    if (ctx->verified)
        fprintf(ctx->out,
                "# --check: verified, every byte received arrived as sent, in the %zu row%s "
                "with numbers (a row whose check failed says so in place of its numbers)\n",
                ctx->verified, ctx->verified == 1 ? "" : "s");
    if (ctx->no_interval)
        fprintf(ctx->out,
                "# ci95 -: %zu row%s without a 95%% interval: its median has fewer than %d "
                "samples in one round (more --samples, or --rounds >= 2, give one)\n",
                ctx->no_interval, ctx->no_interval == 1 ? "" : "s", P2PB_CI_MIN_N);
    if (ctx->unbounded)
        fprintf(ctx->out,
                "# unbounded: %zu row%s whose rounds' medians disagree so much that the 95%% "
                "interval reaches beyond %gx or 1/%gx of the median: it predicts nothing (a busy "
                "host?); the bounds stay in the results file (t_usec.ci_unbounded)\n",
                ctx->unbounded, ctx->unbounded == 1 ? "" : "s", P2PB_CI_UNBOUNDED_FACTOR,
                P2PB_CI_UNBOUNDED_FACTOR);
    if (ctx->shifted)
        fprintf(ctx->out,
                "# ns: %zu row%s whose level changed while measured (the first and last third of "
                "its samples differ by >= %.0f%%, Mann-Whitney p < %g; \"shift\" in the results "
                "file)\n",
                ctx->shifted, ctx->shifted == 1 ? "" : "s", 100 * P2PB_SHIFT_MIN_REL,
                P2PB_SHIFT_ALPHA);
    if (ctx->below_floor)
        fprintf(ctx->out,
                "# nf: %zu row%s whose median t lies below the placement probe's floor (the "
                "one-way latency of a cache line between the pair's CPUs): no message can be "
                "faster, so a measurement error (or the ranks moved to other CPUs after the "
                "probe)\n",
                ctx->below_floor, ctx->below_floor == 1 ? "" : "s");
    fflush(ctx->out);
}

const struct p2pb_reporter p2pb_reporter_text = {
    .name = "text",
    .summary = "human table: median, 95% CI, p99, min, n, MB/s",
    .begin = text_begin,
    .row = text_row,
    .end = text_end,
};
