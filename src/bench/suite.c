/* SPDX-License-Identifier: MIT */
/*
 * suite.c - the measurements of one p2pbench run: selected kernels x
 * directions x message sizes. Per kernel, --rounds rounds over its
 * (direction, size) list, each round in an order shuffled with --seed, each
 * size measured a round at a time by the harness (harness.h) or recorded as
 * a skipped row; then the rows in size order: the second direction's
 * asymmetry against the first; rank 0 writes every row to the results file
 * and prints it through the reporter (output/output.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "mpi_util.h"
#include "overlap.h"
#include "overlap_calib.h"
#include "survey.h"
#include "ticker.h"

/* State of the suite. Row buffers: one kernel's rows, [maxdirs][nsizes][cap]
 * (a (direction, size) unit's rows at unit * cap; an overlap kernel's
 * phases are its directions, P2PB_OVL_NPHASES of them). */
struct suite {
    struct p2pb_run *run;
    struct p2pb_report_ctx rctx;
    size_t cap;                     /* most rows of one harness call, any kernel */
    size_t maxsizes;                /* most sizes of any kernel, <= P2PB_MAX_SIZES */
    size_t maxdirs;                 /* most directions (overlap: phases) of any kernel, 2 or 3 */
    struct p2pb_result *rows;       /* [maxdirs * maxsizes * cap] */
    size_t *nrows;                  /* [maxdirs * maxsizes] rows of each unit; 0: none */
    struct p2pb_size_run **sr;      /* [maxdirs * maxsizes] units being measured */
    size_t *order;                  /* [maxdirs * maxsizes] a round's order of units */
    unsigned long long rng;         /* shuffle state, from --seed */
    size_t measured;                /* rows measured (not skipped) so far */
    enum p2pb_status status;        /* agreed by every rank */
    struct p2pb_ticker tick;        /* rank 0: the progress line (--progress) */
    size_t *ovl_steps;              /* [maxsizes] overlap kernel: this rank's compute steps */
    int *ovl_zero;                  /* [maxsizes] overlap kernel: a rank got 0 steps */
    double *ovl_pure;               /* [maxsizes] overlap kernel: the "pure" medians, usec */
    struct p2pb_overhead_refs base; /* rows of baseline kernels so far (overhead.c) */
};

/* How one kernel runs. */
struct plan {
    const struct p2pb_kernel *k;
    const char *skip;    /* why the whole kernel is skipped; NULL if it runs */
    char why[160];       /* storage for skip */
    const size_t *sizes; /* bytes */
    size_t nsizes;
    int ndirs; /* 2 for P2PB_KF_DIRECTIONS kernels that run, P2PB_OVL_NPHASES
                * for P2PB_KF_OVERLAP ones (a phase each), else 1 */
    int hold;  /* more than one row per size: print grouped by variant */
};

/* Allocate the row buffers on every rank; P2PB_ENOMEM on every rank when
 * one rank could not (message on rank 0). */
static enum p2pb_status alloc_rows(struct suite *s)
{
    const struct p2pb_options *opt = s->run->opt;
    s->cap = 1;
    s->maxsizes = opt->nsizes;
    s->maxdirs = 2;
    for (size_t ki = 0; ki < opt->nkernels; ki++) {
        if (opt->kernels[ki]->flags & P2PB_KF_OVERLAP)
            s->maxdirs = P2PB_OVL_NPHASES;
        size_t m = p2pb_harness_max_rows(opt->kernels[ki], s->run->nranks);
        s->cap = m > s->cap ? m : s->cap;
        m = opt->kernels[ki]->ndefault_sizes;
        s->maxsizes = m > s->maxsizes ? m : s->maxsizes;
    }
    s->maxsizes = s->maxsizes < P2PB_MAX_SIZES ? s->maxsizes : P2PB_MAX_SIZES;
    size_t units = s->maxdirs * s->maxsizes;
    s->rows = calloc(units * s->cap, sizeof *s->rows);
    s->nrows = calloc(units, sizeof *s->nrows);
    s->sr = calloc(units, sizeof *s->sr);
    s->order = calloc(units, sizeof *s->order);
    s->ovl_steps = calloc(s->maxsizes, sizeof *s->ovl_steps);
    s->ovl_zero = calloc(s->maxsizes, sizeof *s->ovl_zero);
    s->ovl_pure = calloc(s->maxsizes, sizeof *s->ovl_pure);
    int oom = !s->rows || !s->nrows || !s->sr || !s->order || !s->ovl_steps || !s->ovl_zero ||
              !s->ovl_pure,
        anyoom = 0;
    P2PB_MPI_CHECK(MPI_Allreduce(&oom, &anyoom, 1, MPI_INT, MPI_MAX, s->run->comm));
    if (!anyoom)
        return P2PB_OK;
    if (s->run->rank == 0)
        fprintf(stderr, "p2pbench: error: out of memory for result rows\n");
    return P2PB_ENOMEM;
}

static void free_rows(struct suite *s)
{
    free(s->rows);
    free(s->nrows);
    free(s->sr);
    free(s->order);
    free(s->ovl_steps);
    free(s->ovl_zero);
    free(s->ovl_pure);
}

/* 1 when kernel k counts no bytes per iteration: the message size means
 * nothing to it (the noise probe). */
static int sizeless(const struct p2pb_kernel *k)
{
    return k->bytes.count == 0;
}

/* Why kernel k cannot run at all, its sizes, directions and row holding. */
static void plan_kernel(const struct suite *s, const struct p2pb_kernel *k, struct plan *p)
{
    const struct p2pb_options *opt = s->run->opt;
    int nranks = s->run->nranks;
    memset(p, 0, sizeof *p);
    p->k = k;
    if (k->unavailable_reason)
        p->skip = k->unavailable_reason;
    else if (nranks < k->min_ranks) {
        snprintf(p->why, sizeof p->why, "needs at least %d ranks, have %d", k->min_ranks, nranks);
        p->skip = p->why;
    }
    /* the kernel's own default sizes when the user gave none (memcpy), or
     * always when it moves no bytes (noise): every size would repeat one
     * identical measurement (p2pb_suite_run says so once) */
    p->sizes = opt->sizes;
    p->nsizes = opt->nsizes;
    if ((!opt->sizes_given || sizeless(k)) && k->default_sizes && k->ndefault_sizes) {
        p->sizes = k->default_sizes;
        p->nsizes = k->ndefault_sizes < s->maxsizes ? k->ndefault_sizes : s->maxsizes;
    }
    p->ndirs = p->skip                           ? 1
               : (k->flags & P2PB_KF_DIRECTIONS) ? 2
               : (k->flags & P2PB_KF_OVERLAP)    ? P2PB_OVL_NPHASES
                                                 : 1;
    p->hold = p2pb_harness_max_rows(k, nranks) > 1;
}

/* A row of kernel k at bytes with no numbers (status as memset: OK). */
static void label_row(struct p2pb_result *r, const struct p2pb_kernel *k, size_t bytes, int nranks)
{
    memset(r, 0, sizeof *r);
    snprintf(r->kernel, sizeof r->kernel, "%s", k->name);
    snprintf(r->display_name, sizeof r->display_name, "%s", k->display_name);
    r->bytes = bytes;
    r->nranks = nranks;
}

/* The skipped row of kernel k at bytes, with the reason in note. */
static void skip_row(struct p2pb_result *r, const struct p2pb_kernel *k, size_t bytes, int nranks,
                     const struct p2pb_policy *pol, const char *note)
{
    label_row(r, k, bytes, nranks);
    r->active_ranks = 0;
    r->imb_layout = (int)k->imb_layout;
    r->bytes_factor = p2pb_kernel_bytes_factor(k, bytes, pol->window, pol->ks.copy_bytes);
    r->msgs_factor = p2pb_kernel_msgs(k, pol->window);
    r->time_scale = k->time_scale;
    r->status = P2PB_ROW_SKIPPED;
    snprintf(r->note, sizeof r->note, "%s", note);
}

/* Rank 0: the error line; the unit's labelled rows marked failed. */
static void fail_unit(struct suite *s, const struct plan *p, size_t u, enum p2pb_status st)
{
    struct p2pb_run *run = s->run;
    struct p2pb_result *rows = &s->rows[u * s->cap];
    p2pb_ticker_clear(&s->tick);
    if (run->rank == 0)
        fprintf(stderr, "p2pbench: error: %s\n", run->err);
    if (s->nrows[u] == 0) { /* failed before any row was labelled */
        label_row(&rows[0], p->k, p->sizes[u % p->nsizes], run->nranks);
        s->nrows[u] = 1;
    }
    for (size_t i = 0; i < s->nrows[u]; i++)
        if (rows[i].status == P2PB_ROW_OK) {
            rows[i].status = P2PB_ROW_FAILED;
            snprintf(rows[i].note, sizeof rows[i].note, "%s", p2pb_status_str(st));
        }
}

/* Unit u (direction u / nsizes, size index u % nsizes): a skipped row, or
 * the harness started on it (s->sr[u]). Returns 1 when it is measured. */
static int start_unit(struct suite *s, const struct plan *p, size_t u)
{
    const struct p2pb_kernel *k = p->k;
    struct p2pb_run *run = s->run;
    size_t si = u % p->nsizes, bytes = p->sizes[si];
    char note[160] = "";
    if (p->skip)
        snprintf(note, sizeof note, "%s", p->skip);
    else if (bytes < k->min_bytes)
        snprintf(note, sizeof note, "size %zu B is below the minimum of %s, %zu B", bytes,
                 k->display_name, k->min_bytes);
    else if ((k->flags & P2PB_KF_PARTITIONED) && bytes % run->opt->policy.ks.partitions != 0)
        snprintf(note, sizeof note, "size %zu B is not a multiple of --partitions %zu", bytes,
                 run->opt->policy.ks.partitions);
    if (note[0]) {
        skip_row(&s->rows[u * s->cap], k, bytes, run->nranks, &run->opt->policy, note);
        if (k->flags & P2PB_KF_DIRECTIONS) /* one row per direction: tell them apart */
            snprintf(s->rows[u * s->cap].variant, sizeof s->rows[u * s->cap].variant, "%s",
                     u < p->nsizes ? "0->1" : "1->0");
        else if ((k->flags & P2PB_KF_OVERLAP) && p->ndirs > 1) /* one row per phase */
            snprintf(s->rows[u * s->cap].variant, sizeof s->rows[u * s->cap].variant, "%s",
                     p2pb_overlap_phase_name((int)(u / p->nsizes)));
        s->nrows[u] = 1;
        if (run->rank == 0 && p->skip && u == 0) /* a size below a minimum: table only */
            fprintf(stderr, "p2pbench: skipping %s: %s\n", k->name, note);
        return 0;
    }
    run->err[0] = '\0';
    if (k->flags & P2PB_KF_OVERLAP) /* this rank's compute steps at this size */
        run->opt->policy.overlap_steps = s->ovl_steps[si];
    p2pb_watchdog_size(k, bytes, run->opt->policy.timeout); /* setup: named if it hangs */
    enum p2pb_status st = p2pb_size_begin(run->comm, k, bytes, (int)(u / p->nsizes),
                                          &run->opt->policy, &run->ti, &s->rows[u * s->cap], s->cap,
                                          &s->nrows[u], &s->sr[u], run->err, sizeof run->err);
    if (st != P2PB_OK) {
        s->status = st;
        fail_unit(s, p, u, st);
    }
    return st == P2PB_OK;
}

/* The rounds over the n measured units of s->order (all ranks, the same
 * shuffled order); stops at the first failure (that unit's rows failed). */
static void run_rounds(struct suite *s, const struct plan *p, size_t n)
{
    struct p2pb_run *run = s->run;
    const size_t rounds = run->opt->policy.rounds ? run->opt->policy.rounds : 1;
    for (size_t round = 0; round < rounds && s->status == P2PB_OK; round++) {
        p2pb_shuffle(s->order, n, &s->rng);
        for (size_t i = 0; i < n && s->status == P2PB_OK; i++) {
            size_t u = s->order[i];
            p2pb_ticker_show(&s->tick, p->k->name, round, rounds, p->sizes[u % p->nsizes], n - i);
            run->err[0] = '\0';
            s->status = p2pb_size_round(s->sr[u], round, run->err, sizeof run->err);
            if (s->status != P2PB_OK) {
                enum p2pb_status st = p2pb_size_finish(s->sr[u], &s->rows[u * s->cap], s->status,
                                                       run->err, sizeof run->err);
                s->sr[u] = NULL;
                fail_unit(s, p, u, st);
            }
        }
    }
}

/* Rows of every unit in [u0, u1) still open; after a failure, units
 * without samples are dropped (nrows 0). Counts the measured rows. */
static void finish_units(struct suite *s, const struct plan *p, size_t u0, size_t u1)
{
    struct p2pb_run *run = s->run;
    for (size_t u = u0; u < u1; u++) {
        struct p2pb_result *rows = &s->rows[u * s->cap];
        if (s->sr[u] && s->status != P2PB_OK && p2pb_size_samples(s->sr[u]) == 0) {
            p2pb_size_free(s->sr[u]);
            s->nrows[u] = 0;
        } else if (s->sr[u]) {
            enum p2pb_status st =
                p2pb_size_finish(s->sr[u], rows, P2PB_OK, run->err, sizeof run->err);
            if (st != P2PB_OK) {
                if (s->status == P2PB_OK)
                    s->status = st;
                fail_unit(s, p, u, st);
            }
        }
        s->sr[u] = NULL;
        for (size_t i = 0; i < s->nrows[u]; i++)
            s->measured += rows[i].status != P2PB_ROW_SKIPPED;
    }
}

/* Asymmetry: direction 1's rows of size si against direction 0's, row by
 * row (ratio of MB/s; NaN when either is not positive). */
static void add_asymmetry(struct suite *s, const struct plan *p, size_t si)
{
    size_t u0 = si, u1 = p->nsizes + si;
    for (size_t i = 0; i < s->nrows[u1] && i < s->nrows[u0]; i++) {
        const struct p2pb_result *f = &s->rows[u0 * s->cap + i];
        struct p2pb_result *r = &s->rows[u1 * s->cap + i];
        if (r->status == P2PB_ROW_OK && f->status == P2PB_ROW_OK) {
            snprintf(r->asym_ref, sizeof r->asym_ref, "%s", f->variant);
            r->asymmetry = f->mbytes_per_sec > 0 && r->mbytes_per_sec > 0
                               ? r->mbytes_per_sec / f->mbytes_per_sec
                               : NAN;
        }
    }
}

/* Rank 0: write the rows of one direction to the results file in size
 * order and print them (grouped by variant when held). */
static void emit_direction(struct suite *s, const struct plan *p, int dir)
{
    struct p2pb_run *run = s->run;
    p2pb_ticker_clear(&s->tick);
    p2pb_watchdog_own_write(1); /* the other ranks wait for these writes */
    for (size_t si = 0; si < p->nsizes; si++) {
        size_t u = (size_t)dir * p->nsizes + si;
        for (size_t i = 0; i < s->nrows[u]; i++) {
            const struct p2pb_result *r = &s->rows[u * s->cap + i];
            /* after a failed write, no more: one message, and the end
             * record names the row that could not be written */
            if (run->rf && s->status != P2PB_EIO &&
                p2pb_results_write_result(run->rf, r, run->err, sizeof run->err) != P2PB_OK) {
                fprintf(stderr, "p2pbench: error: %s\n", run->err);
                p2pb_watchdog_failed_row(p->k, r->bytes);
                s->status = P2PB_EIO;
            }
            if (!p->hold)
                run->opt->reporter->row(&s->rctx, r);
        }
    }
    for (size_t i = 0; p->hold && i < s->cap; i++)
        for (size_t si = 0; si < p->nsizes; si++) {
            size_t u = (size_t)dir * p->nsizes + si;
            if (i < s->nrows[u])
                run->opt->reporter->row(&s->rctx, &s->rows[u * s->cap + i]);
        }
    fflush(stdout);
    p2pb_watchdog_own_write(0);
}

/* Units [u0, u1): started, their rounds (shuffled together), their rows
 * finished. */
static void run_units(struct suite *s, const struct plan *p, size_t u0, size_t u1)
{
    size_t n = 0;
    for (size_t u = u0; u < u1 && s->status == P2PB_OK; u++)
        if (start_unit(s, p, u))
            s->order[n++] = u;
    run_rounds(s, p, n);
    finish_units(s, p, u0, u1);
}

/* An overlap kernel (kernel.h P2PB_KF_OVERLAP): its phases one after the
 * other, every size of one before the next; before "cpu" the compute
 * steps calibrated from the "pure" medians (overlap_calib.h); after
 * "overlap", rank 0 puts the percentage into each overlap row. */
static void run_overlap(struct suite *s, const struct plan *p)
{
    const size_t ns = p->nsizes;
    for (size_t ph = 0; ph < P2PB_OVL_NPHASES && s->status == P2PB_OK; ph++) {
        if (ph == P2PB_OVL_CPU) {
            for (size_t si = 0; si < ns; si++) { /* rank 0's rows have the numbers */
                const struct p2pb_result *r = &s->rows[si * s->cap];
                s->ovl_pure[si] = s->nrows[si] && r->status == P2PB_ROW_OK ? r->t.median : NAN;
            }
            p2pb_overlap_calibrate(s->run->comm, p->k, s->run->rank < 2 /* P2PB_PART_PAIR */,
                                   s->ovl_pure, ns, s->run->opt->policy.ks.overlap_compute,
                                   s->ovl_steps, s->ovl_zero);
        }
        run_units(s, p, ph * ns, (ph + 1) * ns);
    }
    for (size_t si = 0; si < ns && s->run->rank == 0; si++) {
        size_t u[P2PB_OVL_NPHASES] = {si, ns + si, 2 * ns + si};
        if (s->nrows[u[0]] && s->nrows[u[1]] && s->nrows[u[2]])
            p2pb_overlap_row(&s->rows[u[0] * s->cap], &s->rows[u[1] * s->cap],
                             &s->rows[u[2] * s->cap], s->ovl_zero[si]);
    }
}

/* One kernel: its units started, the rounds, the rows finished and
 * emitted; a write error on rank 0 stops every rank. */
static void run_kernel(struct suite *s, const struct plan *p)
{
    memset(s->nrows, 0, s->maxdirs * s->maxsizes * sizeof *s->nrows);
    if (p->ndirs == P2PB_OVL_NPHASES && (p->k->flags & P2PB_KF_OVERLAP))
        run_overlap(s, p);
    else
        run_units(s, p, 0, (size_t)p->ndirs * p->nsizes);
    for (size_t si = 0; p->ndirs == 2 && si < p->nsizes; si++)
        add_asymmetry(s, p, si);
    for (size_t u = 0; u < (size_t)p->ndirs * p->nsizes; u++) { /* overhead vs a baseline */
        p2pb_overhead_apply(&s->base, p->k, &s->rows[u * s->cap], s->nrows[u]);
        p2pb_overhead_keep(&s->base, &s->rows[u * s->cap], s->nrows[u]);
    }
    for (int dir = 0; dir < p->ndirs && s->run->rank == 0; dir++)
        emit_direction(s, p, dir);
    int st = (int)s->status;
    P2PB_MPI_CHECK(MPI_Bcast(&st, 1, MPI_INT, 0, s->run->comm));
    s->status = (enum p2pb_status)st;
}

/* No row was measured (every kernel or size skipped): one line on rank 0
 * naming the first kernel's reason; P2PB_ESKIP (exit 1, end record
 * "nothing-measured"). */
static enum p2pb_status nothing_measured(struct suite *s)
{
    if (s->run->rank == 0) {
        const struct p2pb_options *opt = s->run->opt;
        struct plan p;
        plan_kernel(s, opt->kernels[0], &p);
        fprintf(stderr,
                "p2pbench: error: nothing measured: every requested kernel and size was skipped "
                "(%s: %s)\n",
                p.k->name, p.skip ? p.skip : "see the notes of its rows");
    }
    return P2PB_ESKIP;
}

/* Rank 0: end the tables; P2PB_EIO when stdout could not be written. */
static enum p2pb_status end_tables(struct suite *s, enum p2pb_status st)
{
    s->rctx.incomplete = st != P2PB_OK;
    p2pb_watchdog_own_write(1);
    s->run->opt->reporter->end(&s->rctx);
    int bad = fflush(stdout) != 0 || ferror(stdout);
    p2pb_watchdog_own_write(0);
    if (bad) {
        fprintf(stderr, "p2pbench: error: cannot write the tables to standard output\n");
        if (st == P2PB_OK)
            st = P2PB_EIO;
    }
    return st;
}

enum p2pb_status p2pb_suite_run(struct p2pb_run *run)
{
    const struct p2pb_options *opt = run->opt;
    if (opt->survey) /* the link survey (survey.c) replaces the kernels */
        return p2pb_survey_run(run);
    struct suite s;
    memset(&s, 0, sizeof s);
    s.run = run;
    s.rctx.out = stdout;
    s.rctx.run = &run->ri;
    s.rctx.eager_limit = run->eager_limit;
    s.rctx.probe = &run->probe;
    if (run->rank == 0)
        opt->reporter->begin(&s.rctx);

    s.rng = opt->policy.seed;
    p2pb_ticker_init(&s.tick, opt->progress, run->rank, run->t_wall0_ns);
    s.status = alloc_rows(&s);
    struct p2pb_bounds bounds; /* the rows' bounds (bounds.c) */
    if (p2pb_bounds_open(&bounds, run->comm, run->rank, run->nranks, opt->policy.tcp_if) == 0)
        run->opt->policy.bounds = &bounds;
    if (s.status == P2PB_OK)
        p2pb_buffers_reserve(opt->kernels, opt->nkernels, opt->sizes, opt->nsizes, &opt->policy);
    for (size_t ki = 0; ki < opt->nkernels && s.status == P2PB_OK; ki++) {
        struct plan p;
        plan_kernel(&s, opt->kernels[ki], &p);
        if (run->rank == 0 && opt->sizes_given && sizeless(p.k) && !p.skip)
            fprintf(stderr,
                    "p2pbench: note: %s moves no bytes: -s does not apply to it (one row)\n",
                    p.k->name);
        /* MPI's eager limit means nothing to a kernel that sends no MPI message */
        s.rctx.eager_limit = (p.k->flags & P2PB_KF_NO_MPI) ? -1 : run->eager_limit;
        if (run->rank == 0) /* the host's load beside the ranks (hostload.h) */
            p2pb_hostload_kernel_start(&run->load, p.k->name);
        run_kernel(&s, &p);
        if (run->rank == 0)
            p2pb_hostload_kernel_end(&run->load);
    }
    free_rows(&s);
    p2pb_overhead_free(&s.base);
    run->opt->policy.bounds = NULL;
    p2pb_bounds_close(&bounds);
    p2pb_ticker_clear(&s.tick);
    if (s.status == P2PB_OK && s.measured == 0)
        s.status = nothing_measured(&s);
    return run->rank == 0 ? end_tables(&s, s.status) : s.status;
}
