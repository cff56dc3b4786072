/* SPDX-License-Identifier: MIT */
/*
 * suite.c - the measurements of one p2pbench run: selected kernels x
 * directions x message sizes, each size run by the harness (harness.h) or
 * recorded as a skipped row; the second direction's asymmetry against the
 * first; rank 0 writes every row to the results file and prints it through
 * the reporter (output/output.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "mpi_util.h"
#include "survey.h"

/* State of the suite. Row buffers: one harness call's rows; the first
 * direction's rows (for the asymmetry of the second); rows held back so
 * that a multi-row kernel's rows reach the reporter grouped by variant, one
 * table each. */
struct suite {
    struct p2pb_run *run;
    struct p2pb_report_ctx rctx;
    size_t cap;                /* most rows of one harness call, any kernel */
    size_t maxsizes;           /* most sizes of any kernel, <= P2PB_MAX_SIZES */
    struct p2pb_result *rows;  /* [cap] */
    struct p2pb_result *first; /* [maxsizes][cap] */
    struct p2pb_result *held;  /* [maxsizes][cap] */
    size_t *nheld;             /* [maxsizes] rows held per size */
    enum p2pb_status status;   /* agreed by every rank after each size */
    size_t measured;           /* rank 0: rows written that were not skipped */
};

/* How one kernel runs. */
struct plan {
    const struct p2pb_kernel *k;
    const char *skip;    /* why the whole kernel is skipped; NULL if it runs */
    char why[160];       /* storage for skip */
    const size_t *sizes; /* bytes */
    size_t nsizes;
    int ndirs; /* 2 for P2PB_KF_DIRECTIONS kernels that run, else 1 */
    int hold;  /* more than one row per size: hold rows back */
};

/* Allocate the row buffers on every rank; P2PB_ENOMEM on every rank when
 * one rank could not (message on rank 0). */
static enum p2pb_status alloc_rows(struct suite *s)
{
    const struct p2pb_options *opt = s->run->opt;
    s->cap = 1;
    s->maxsizes = opt->nsizes;
    for (size_t ki = 0; ki < opt->nkernels; ki++) {
        size_t m = p2pb_harness_max_rows(opt->kernels[ki], s->run->nranks);
        s->cap = m > s->cap ? m : s->cap;
        m = opt->kernels[ki]->ndefault_sizes;
        s->maxsizes = m > s->maxsizes ? m : s->maxsizes;
    }
    s->maxsizes = s->maxsizes < P2PB_MAX_SIZES ? s->maxsizes : P2PB_MAX_SIZES;
    s->rows = calloc(s->cap, sizeof *s->rows);
    s->first = calloc(s->cap * s->maxsizes, sizeof *s->first);
    s->held = calloc(s->cap * s->maxsizes, sizeof *s->held);
    s->nheld = calloc(s->maxsizes, sizeof *s->nheld);
    int oom = !s->rows || !s->first || !s->held || !s->nheld, anyoom = 0;
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
    free(s->first);
    free(s->held);
    free(s->nheld);
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
    /* the kernel's own default sizes when the user gave none (memcpy) */
    p->sizes = opt->sizes;
    p->nsizes = opt->nsizes;
    if (!opt->sizes_given && k->default_sizes && k->ndefault_sizes) {
        p->sizes = k->default_sizes;
        p->nsizes = k->ndefault_sizes < s->maxsizes ? k->ndefault_sizes : s->maxsizes;
    }
    p->ndirs = (k->flags & P2PB_KF_DIRECTIONS) && !p->skip ? 2 : 1;
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
    r->bytes_factor = p2pb_kernel_bytes_factor(k, bytes, pol->window, pol->copy_bytes);
    r->time_scale = k->time_scale;
    r->status = P2PB_ROW_SKIPPED;
    snprintf(r->note, sizeof r->note, "%s", note);
}

/* Run one size through the harness into s->rows[0..*nrows-1]; on failure the
 * message is printed (rank 0) and the rows are marked failed. */
static void measure_size(struct suite *s, const struct plan *p, int dir, size_t bytes,
                         size_t *nrows)
{
    struct p2pb_run *run = s->run;
    run->err[0] = '\0';
    s->status = p2pb_harness_run_rows(run->comm, p->k, bytes, dir, &run->opt->policy, &run->ti,
                                      s->rows, s->cap, nrows, run->err, sizeof run->err);
    if (s->status != P2PB_OK && run->rank == 0)
        fprintf(stderr, "p2pbench: error: %s\n", run->err);
    if (*nrows == 0) { /* failed before any row was labelled */
        label_row(&s->rows[0], p->k, bytes, run->nranks);
        *nrows = 1;
    }
    for (size_t i = 0; i < *nrows && s->status != P2PB_OK; i++)
        if (s->rows[i].status == P2PB_ROW_OK) {
            s->rows[i].status = P2PB_ROW_FAILED;
            snprintf(s->rows[i].note, sizeof s->rows[i].note, "%s", p2pb_status_str(s->status));
        }
}

/* The rows of size index si: a skipped row, or the harness's rows. */
static size_t size_rows(struct suite *s, const struct plan *p, int dir, size_t si)
{
    const struct p2pb_kernel *k = p->k;
    size_t bytes = p->sizes[si];
    size_t nrows = 0;
    char note[160] = "";
    if (p->skip)
        snprintf(note, sizeof note, "%s", p->skip);
    else if (bytes < k->min_bytes)
        snprintf(note, sizeof note, "size %zu B is below the minimum of %s, %zu B", bytes,
                 k->display_name, k->min_bytes);
    if (!note[0]) {
        measure_size(s, p, dir, bytes, &nrows);
        return nrows;
    }
    skip_row(&s->rows[0], k, bytes, s->run->nranks, &s->run->opt->policy, note);
    if (s->run->rank == 0 && p->skip && si == 0) /* a size below a minimum: table only */
        fprintf(stderr, "p2pbench: skipping %s: %s\n", k->name, note);
    return 1;
}

/* Asymmetry: the second direction's rows against the first's, row by row
 * (ratio of MB/s; NaN when either is not positive). Keeps direction 0's rows. */
static void add_asymmetry(struct suite *s, int dir, size_t si, size_t nrows)
{
    for (size_t i = 0; i < nrows; i++) {
        struct p2pb_result *f = &s->first[si * s->cap + i];
        struct p2pb_result *r = &s->rows[i];
        if (dir == 0)
            *f = *r;
        else if (r->status == P2PB_ROW_OK && f->status == P2PB_ROW_OK) {
            snprintf(r->asym_ref, sizeof r->asym_ref, "%s", f->variant);
            r->asymmetry = f->mbytes_per_sec > 0 && r->mbytes_per_sec > 0
                               ? r->mbytes_per_sec / f->mbytes_per_sec
                               : NAN;
        }
    }
}

/* Rank 0: write the rows to the results file, then print or hold them. */
static void emit_rows(struct suite *s, const struct plan *p, size_t si, size_t nrows)
{
    struct p2pb_run *run = s->run;
    for (size_t i = 0; i < nrows; i++) {
        s->measured += s->rows[i].status != P2PB_ROW_SKIPPED;
        if (run->rf &&
            p2pb_results_write_result(run->rf, &s->rows[i], run->err, sizeof run->err) != P2PB_OK) {
            fprintf(stderr, "p2pbench: error: %s\n", run->err);
            if (s->status == P2PB_OK)
                s->status = P2PB_EIO;
        }
        if (p->hold)
            s->held[si * s->cap + i] = s->rows[i];
        else
            run->opt->reporter->row(&s->rctx, &s->rows[i]);
    }
    s->nheld[si] = p->hold ? nrows : 0;
    fflush(stdout);
}

/* Rank 0: the held rows, one table per variant (row index), sizes in order. */
static void print_held(struct suite *s, const struct plan *p)
{
    for (size_t i = 0; i < s->cap; i++)
        for (size_t si = 0; si < p->nsizes; si++)
            if (i < s->nheld[si])
                s->run->opt->reporter->row(&s->rctx, &s->held[si * s->cap + i]);
    fflush(stdout);
}

/* One direction of one kernel over its sizes; stops at the first failure. */
static void run_direction(struct suite *s, const struct plan *p, int dir)
{
    memset(s->nheld, 0, s->maxsizes * sizeof *s->nheld);
    for (size_t si = 0; si < p->nsizes && s->status == P2PB_OK; si++) {
        size_t nrows = size_rows(s, p, dir, si);
        if (p->ndirs == 2)
            add_asymmetry(s, dir, si, nrows);
        if (s->run->rank == 0)
            emit_rows(s, p, si, nrows);
        /* a write error on rank 0 stops every rank */
        int st = (int)s->status;
        P2PB_MPI_CHECK(MPI_Bcast(&st, 1, MPI_INT, 0, s->run->comm));
        s->status = (enum p2pb_status)st;
    }
    if (s->run->rank == 0 && p->hold)
        print_held(s, p);
}

/* Rank 0: end the tables; P2PB_EIO when stdout could not be written. */
static enum p2pb_status end_tables(struct suite *s, enum p2pb_status st)
{
    s->rctx.incomplete = st != P2PB_OK;
    s->run->opt->reporter->end(&s->rctx);
    if (fflush(stdout) != 0 || ferror(stdout)) {
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
    if (run->rank == 0)
        opt->reporter->begin(&s.rctx);

    s.status = alloc_rows(&s);
    for (size_t ki = 0; ki < opt->nkernels && s.status == P2PB_OK; ki++) {
        struct plan p;
        plan_kernel(&s, opt->kernels[ki], &p);
        for (int dir = 0; dir < p.ndirs && s.status == P2PB_OK; dir++)
            run_direction(&s, &p, dir);
    }
    free_rows(&s);
    if (run->rank == 0 && s.status == P2PB_OK && s.measured == 0) {
        /* a run that measured nothing must not pass (a CI job would) */
        fprintf(stderr, "p2pbench: error: nothing measured: every requested kernel and size was "
                        "skipped (see the lines above)\n");
        s.status = P2PB_ESKIP;
    }
    return run->rank == 0 ? end_tables(&s, s.status) : s.status;
}
