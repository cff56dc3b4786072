/* SPDX-License-Identifier: MIT */
/*
 * options_parse.c - p2pbench's command line against the option table
 * (options.c) by the option engine (src/common/optengine.c: each argument
 * converted, range-checked and stored by its entry's kind), then the checks
 * across options and the defaults that depend on what was given. See
 * options.h.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "options.h"
#include "options_internal.h"

/* ---- Checks across options, after the command line ---- */

/* Pairs of options that exclude each other: the second would be ignored or
 * overridden by the first, so the run could not be what the run record
 * says. One line each: why. */
static const struct {
    enum opt_id a, b;
    const char *why;
} conflicts[] = {
    {O_SIZES, O_MSGLOG, "both set the message sizes"},
    {O_OUTPUT, O_NO_RESULTS, "one names a results file, the other asks for none"},
    {O_FIXED_IMB, O_SAMPLES, "both set the number of samples"},
    {O_FIXED_IMB, O_MIN_SAMPLES, "IMB's rule sets the repetitions"},
    {O_FIXED_IMB, O_MAX_SAMPLES, "IMB's rule sets the repetitions"},
    {O_FIXED_IMB, O_BATCH, "IMB's rule sets the repetitions and the batch divides them"},
    {O_FIXED_IMB, O_CI_TARGET, "the adaptive stop rule is not used"},
    {O_FIXED_IMB, O_TIME_PER_SIZE, "the adaptive stop rule is not used"},
    {O_SAMPLES, O_MIN_SAMPLES, "--samples fixes the number of samples"},
    {O_SAMPLES, O_MAX_SAMPLES, "--samples fixes the number of samples"},
    {O_SAMPLES, O_CI_TARGET, "the adaptive stop rule is not used"},
    {O_SAMPLES, O_TIME_PER_SIZE, "the adaptive stop rule is not used"},
};

/* The first pair of conflicts[] given together, named in long form. */
static enum p2pb_status check_conflicts(const struct p2pb_optparse *ps)
{
    for (size_t i = 0; i < sizeof conflicts / sizeof conflicts[0]; i++)
        if (ps->eng.given[conflicts[i].a] && ps->eng.given[conflicts[i].b])
            return p2pb_fail(P2PB_EUSAGE, ps->err, ps->errlen,
                             "--%s and --%s exclude each other (%s)", OPTDEF(conflicts[i].a)->name,
                             OPTDEF(conflicts[i].b)->name, conflicts[i].why);
    return P2PB_OK;
}

/* --samples, --fixed-imb, --min-samples, --max-samples: one policy
 * (their conflicts are refused before, by check_conflicts). */
/* Every round draws at least P2PB_ROUND_MIN_SAMPLES samples (a median of
 * at least 3): with --samples N or --max-samples N below that many per
 * round, the default --rounds becomes N / 3 (at least 1; the run record
 * says what ran); a --rounds given on the command line is refused. */
static enum p2pb_status fit_rounds(struct p2pb_optparse *ps)
{
    struct p2pb_policy *pol = &ps->o->policy;
    size_t cap = pol->mode == P2PB_POLICY_FIXED      ? pol->samples
                 : pol->mode == P2PB_POLICY_ADAPTIVE ? pol->max_samples
                                                     : 0; /* --fixed-imb: IMB's table */
    const char *name = pol->mode == P2PB_POLICY_FIXED ? "samples" : "max-samples";
    if (!cap || cap >= P2PB_ROUND_MIN_SAMPLES * pol->rounds)
        return P2PB_OK;
    if (ps->eng.given[O_ROUNDS])
        return p2pb_fail(P2PB_EUSAGE, ps->err, ps->errlen,
                         "--rounds %zu needs at least %zu samples per size (%d per round); --%s "
                         "%zu gives fewer",
                         pol->rounds, P2PB_ROUND_MIN_SAMPLES * pol->rounds, P2PB_ROUND_MIN_SAMPLES,
                         name, cap);
    pol->rounds = cap / P2PB_ROUND_MIN_SAMPLES ? cap / P2PB_ROUND_MIN_SAMPLES : 1;
    return P2PB_OK;
}

static enum p2pb_status finish_policy(struct p2pb_optparse *ps)
{
    struct p2pb_policy *pol = &ps->o->policy;
    enum p2pb_status st = check_conflicts(ps);
    if (st != P2PB_OK)
        return st;
    if (!ps->eng.given[O_MIN_SAMPLES] && pol->min_samples > pol->max_samples)
        pol->min_samples = pol->max_samples;
    if (pol->min_samples > pol->max_samples)
        return p2pb_fail(P2PB_EUSAGE, ps->err, ps->errlen,
                         "--min-samples %zu is above --max-samples %zu", pol->min_samples,
                         pol->max_samples);
    if (ps->eng.given[O_CACHE_SIZE] && !pol->off_cache)
        return p2pb_fail(P2PB_EUSAGE, ps->err, ps->errlen,
                         "--cache-size %zu is read only with --off-cache", pol->cache_bytes);
    if (ps->eng.given[O_SAMPLES])
        pol->mode = P2PB_POLICY_FIXED;
    if (ps->eng.given[O_FIXED_IMB])
        pol->mode = P2PB_POLICY_FIXED_IMB;
    return fit_rounds(ps);
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

/* Default sizes if none given; ascending (tables ascend, as IMB's); each
 * size sendable as one MPI message (p2pb_make_msg_type's rule). */
static enum p2pb_status finish_sizes(struct p2pb_options *o, char *err, size_t errlen)
{
    if (!o->sizes_given)
        p2pb_default_sizes(o->sizes, &o->nsizes);
    qsort(o->sizes, o->nsizes, sizeof o->sizes[0], cmp_size);
    for (size_t i = 0; i < o->nsizes; i++) {
        size_t b = o->sizes[i];
        if (b > (size_t)INT_MAX && b % 1024 != 0)
            return p2pb_fail(P2PB_ERANGE, err, errlen,
                             "message size %zu is above 2^31-1 bytes and not a multiple of 1 KiB "
                             "(cannot be sent as one MPI message)",
                             b);
        if (b / 1024 > (size_t)INT_MAX)
            return p2pb_fail(P2PB_ERANGE, err, errlen,
                             "message size %zu is above 2^31-1 KiB (cannot be sent as one MPI "
                             "message: a count of at most 2^31-1 units of 1 KiB)",
                             b);
    }
    return P2PB_OK;
}

/* The survey: alone (no kernels); sizes from -s LAT,BW, --survey-sizes or
 * the table's default. */
static enum p2pb_status finish_survey(struct p2pb_optparse *ps)
{
    struct p2pb_options *o = ps->o;
    if (o->nkernels > 0)
        return p2pb_fail(P2PB_EUSAGE, ps->err, ps->errlen,
                         "survey runs alone: drop the kernel '%s'", o->kernels[0]->name);
    if (o->sizes_given && ps->eng.given[O_SURVEY_SIZES])
        return p2pb_fail(P2PB_EUSAGE, ps->err, ps->errlen,
                         "survey sizes given twice (-s and --survey-sizes)");
    if (o->sizes_given && (o->nsizes != 2 || ps->eng.given[O_MSGLOG]))
        return p2pb_fail(P2PB_EUSAGE, ps->err, ps->errlen,
                         "survey takes two sizes, -s LAT,BW (got %zu)", o->nsizes);
    if (o->sizes_given) { /* the list parser keeps the order given */
        char spec[64];
        snprintf(spec, sizeof spec, "%zu,%zu", o->sizes[0], o->sizes[1]);
        return p2pb_opt_survey_sizes(&ps->eng, spec);
    }
    if (!ps->eng.given[O_SURVEY_SIZES])
        return p2pb_opt_survey_sizes(&ps->eng, OPTDEF(O_SURVEY_SIZES)->def_text);
    return P2PB_OK;
}

/* Does kernel k use option id? --window: every kernel of a window of
 * messages; a kernel's own option (id >= O_CORE): the kernels that declare
 * it (struct p2pb_kernel.optdefs); every other option: all kernels. */
static int kernel_uses(const struct p2pb_kernel *k, size_t id)
{
    if (id == O_WINDOW)
        return k->bytes.unit == P2PB_BYTES_WINDOW_X;
    return id < O_CORE || p2pb_kernel_reads(k, OPTDEF(id)->name);
}

/* A one-sided kernel to run with a --rma-sync / --rma-window pair the MPI
 * library cannot run (p2pb_rma_refusal): P2PB_EUSAGE naming both. */
static enum p2pb_status check_rma(const struct p2pb_optparse *ps)
{
    const struct p2pb_options *o = ps->o;
    for (size_t k = 0; k < o->nkernels; k++) {
        const char *why = (o->kernels[k]->flags & P2PB_KF_RMA)
                              ? p2pb_rma_refusal(o->policy.ks.rma_sync, o->policy.ks.rma_window)
                              : NULL;
        if (why)
            return p2pb_fail(P2PB_EUSAGE, ps->err, ps->errlen,
                             "--rma-sync %s with --rma-window %s refused: %s",
                             p2pb_rma_sync_names[o->policy.ks.rma_sync],
                             p2pb_rma_window_names[o->policy.ks.rma_window], why);
    }
    return P2PB_OK;
}

/* Options given that nothing run will read: one warning line each in
 * o->unused (lines joined by '\n') naming the option and the kernels that
 * read it (the survey reads --window and the --survey-* options, and no
 * kernel option else). */
static void find_unused(const struct p2pb_optparse *ps)
{
    const struct p2pb_options *o = ps->o;
    size_t len = 0;
    for (size_t id = 0; id < ps->eng.n; id++) {
        int survey_opt = id >= O_SURVEY_SIZES && id <= O_SURVEY_CAP, used = 0;
        if (!ps->eng.given[id] || !(id == O_WINDOW || survey_opt || id >= O_CORE))
            continue;
        if (o->survey)
            used = survey_opt || id == O_WINDOW;
        for (size_t k = 0; k < o->nkernels && !used && !survey_opt; k++)
            used = kernel_uses(o->kernels[k], id);
        if (used)
            continue;
        ps->o->tcp_if_unused |= strcmp(OPTDEF(id)->name, "tcp-if") == 0;
        char users[160] = "survey";
        size_t n = 0;
        for (size_t k = 0; k < p2pb_nkernels && !survey_opt; k++)
            if (kernel_uses(p2pb_kernels[k], id) && n + 20 < sizeof users)
                n += (size_t)snprintf(users + n, sizeof users - n, "%s%s", n ? ", " : "",
                                      p2pb_kernels[k]->name);
        int w = snprintf(ps->o->unused + len, sizeof ps->o->unused - len,
                         "%s--%s has no effect on what runs (it is read by: %s%s)", len ? "\n" : "",
                         OPTDEF(id)->name, users, id == O_WINDOW ? ", survey" : "");
        if (w < 0 || (size_t)w >= sizeof ps->o->unused - len)
            return; /* the lines that fit */
        len += (size_t)w;
    }
}

/* Positional kernels, the checks across options, then the defaults that
 * depend on what was given (sizes, kernels). */
static enum p2pb_status finish(struct p2pb_optparse *ps, int argc, char **argv)
{
    struct p2pb_options *o = ps->o;
    enum p2pb_status st = P2PB_OK;
    for (int i = ps->eng.next; i < argc && st == P2PB_OK; i++)
        st = p2pb_opt_add_kernels(o, argv[i], ps->err, ps->errlen);
    if (st == P2PB_OK)
        st = finish_policy(ps);
    if (st == P2PB_OK && o->survey) {
        find_unused(ps);
        return finish_survey(ps);
    }
    if (st == P2PB_OK)
        st = finish_sizes(o, ps->err, ps->errlen);
    if (st != P2PB_OK)
        return st;
    ps->kernels_given = o->nkernels > 0;
    for (size_t i = 0; i < p2pb_nkernels && !ps->kernels_given; i++)
        if (p2pb_kernel_is_default(p2pb_kernels[i]) && o->nkernels < P2PB_MAX_KERNELS)
            o->kernels[o->nkernels++] = p2pb_kernels[i];
    find_unused(ps);
    return check_rma(ps);
}

enum p2pb_status p2pb_options_parse(int argc, char **argv, struct p2pb_options *o, char *err,
                                    size_t errlen)
{
    struct p2pb_optparse ps = {.o = o, .err = err, .errlen = errlen};
    p2pb_options_init(o);
    p2pb_options_engine(&ps.eng, o);
    ps.eng.user = &ps;
    ps.eng.hint = " (see p2pbench --help)";
    ps.eng.err = err;
    ps.eng.errlen = errlen;
    enum p2pb_status st = p2pb_opt_parse(&ps.eng, argc, argv);
    return st == P2PB_OK ? finish(&ps, argc, argv) : st;
}
