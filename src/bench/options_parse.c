/* SPDX-License-Identifier: MIT */
/*
 * options_parse.c - p2pbench's command line against the option table
 * (options.c): each argument converted and range-checked by its entry's
 * kind and stored in its field, then the checks across options and the
 * defaults that depend on what was given. See options.h.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "options.h"
#include "options_internal.h"

/* ---- Converters of one argument ---- */

static enum p2pb_status parse_count(const char *opt, const char *val, size_t min, size_t max,
                                    size_t *out, char *err, size_t errlen)
{
    char *end;
    errno = 0;
    if (!val || !isdigit((unsigned char)val[0]))
        return p2pb_fail(P2PB_EUSAGE, err, errlen,
                         "invalid value '%s' for --%s (expected an integer)", val ? val : "", opt);
    unsigned long long v = strtoull(val, &end, 10);
    if (*end)
        return p2pb_fail(P2PB_EUSAGE, err, errlen,
                         "invalid value '%s' for --%s (expected an integer)", val, opt);
    if (errno == ERANGE || v < min || v > max)
        return p2pb_fail(P2PB_ERANGE, err, errlen, "value '%s' for --%s is out of range (%zu..%zu)",
                         val, opt, min, max);
    *out = (size_t)v;
    return P2PB_OK;
}

static enum p2pb_status parse_real(const char *opt, const char *val, double min, double max,
                                   double *out, char *err, size_t errlen)
{
    char *end;
    errno = 0;
    double v = strtod(val, &end);
    if (end == val || *end || v != v)
        return p2pb_fail(P2PB_EUSAGE, err, errlen,
                         "invalid value '%s' for --%s (expected a number)", val, opt);
    if (errno == ERANGE || v < min || v > max)
        return p2pb_fail(P2PB_ERANGE, err, errlen, "value '%s' for --%s is out of range (%g..%g)",
                         val, opt, min, max);
    *out = v;
    return P2PB_OK;
}

static enum p2pb_status parse_size_min(const struct p2pb_optdef *d, const char *arg, size_t *v,
                                       char *err, size_t errlen)
{
    char why[200];
    enum p2pb_status st = p2pb_parse_size(arg, v, why, sizeof why);
    if (st != P2PB_OK)
        return p2pb_fail(st, err, errlen, "--%s: %s", d->name, why);
    if (*v < (size_t)d->min)
        return p2pb_fail(P2PB_ERANGE, err, errlen, "--%s %zu: must be at least %zu byte%s", d->name,
                         *v, (size_t)d->min, d->min == 1 ? "" : "s");
    if (d->max > 0 && (double)*v > d->max)
        return p2pb_fail(P2PB_ERANGE, err, errlen, "--%s %zu: must be at most %.0f bytes", d->name,
                         *v, d->max);
    return st;
}

/* Index of arg in d->choices; fails naming the choices ("one, all"). */
static enum p2pb_status parse_enum(const struct p2pb_optdef *d, const char *arg, size_t *v,
                                   char *err, size_t errlen)
{
    char names[256] = "";
    for (size_t i = 0; d->choices[i]; i++) {
        if (strcmp(arg, d->choices[i]) == 0) {
            *v = i;
            return P2PB_OK;
        }
        size_t len = strlen(names);
        snprintf(names + len, sizeof names - len, "%s%s", i ? ", " : "", d->choices[i]);
    }
    return p2pb_fail(P2PB_EUSAGE, err, errlen, "invalid value '%s' for --%s (%s)", arg, d->name,
                     names);
}

static enum p2pb_status parse_sizes(struct p2pb_optparse *ps, const struct p2pb_optdef *d,
                                    const char *arg)
{
    struct p2pb_options *o = ps->o;
    o->sizes_given = 1; /* --sizes with --msglog: check_conflicts */
    return d->list(arg, o->sizes, P2PB_MAX_SIZES, &o->nsizes, ps->err, ps->errlen);
}

/* ---- The generic parser ---- */

/* Convert arg by d's kind and store it in d's field. */
static enum p2pb_status convert_and_store(struct p2pb_optparse *ps, const struct p2pb_optdef *d,
                                          const char *arg)
{
    void *base = d->dst == P2PB_DST_POLICY ? (void *)&ps->o->policy : (void *)ps->o;
    enum p2pb_status st = P2PB_OK;
    size_t v = 1;
    double x = 0;
    switch (d->kind) {
    case P2PB_OPT_FLAG: break;
    case P2PB_OPT_COUNT:
        st = parse_count(d->name, arg, (size_t)d->min, (size_t)d->max, &v, ps->err, ps->errlen);
        break;
    case P2PB_OPT_SECONDS:
    case P2PB_OPT_FRACTION:
        st = parse_real(d->name, arg, d->min, d->max, &x, ps->err, ps->errlen);
        if (st == P2PB_OK)
            p2pb_opt_store_real(d, base, x);
        return st;
    case P2PB_OPT_SIZE: st = parse_size_min(d, arg, &v, ps->err, ps->errlen); break;
    case P2PB_OPT_ENUM: st = parse_enum(d, arg, &v, ps->err, ps->errlen); break;
    case P2PB_OPT_SIZE_LIST: return parse_sizes(ps, d, arg);
    case P2PB_OPT_STRING: return P2PB_OK; /* every STRING entry has an apply step */
    }
    if (st == P2PB_OK && d->dst != P2PB_DST_NONE)
        p2pb_opt_store_count(d, base, v);
    return st;
}

/* An option given a second time: refused naming it (and both values),
 * unless its entry says its values add up (d->many: the kernels). One rule
 * for every option: a second value never silently replaces the first. */
static enum p2pb_status refuse_repeat(struct p2pb_optparse *ps, const struct p2pb_optdef *d,
                                      size_t id, const char *arg)
{
    if (!arg)
        return p2pb_fail(P2PB_EUSAGE, ps->err, ps->errlen, "--%s given twice: give it once",
                         d->name);
    return p2pb_fail(P2PB_EUSAGE, ps->err, ps->errlen,
                     "--%s given twice ('%.40s', then '%.40s'): give it once", d->name,
                     ps->first[id], arg);
}

static enum p2pb_status apply_option(struct p2pb_optparse *ps, size_t id, const char *arg)
{
    const struct p2pb_optdef *d = &p2pb_opt_table[id];
    if (ps->given[id] && !d->many)
        return refuse_repeat(ps, d, id, arg);
    ps->given[id] = 1;
    ps->first[id] = arg;
    return d->apply ? d->apply(ps, arg) : convert_and_store(ps, d, arg);
}

/* getopt_long's arrays from the table: longopts (O_COUNT + 1 entries) and
 * the short option string (":" first: a missing value returns ':'). */
static void getopt_tables(struct option *longopts, char *shortopts)
{
    char *s = shortopts;
    *s++ = ':';
    for (size_t i = 0; i < O_COUNT; i++) {
        const struct p2pb_optdef *d = &p2pb_opt_table[i];
        int has_arg = d->kind == P2PB_OPT_FLAG ? no_argument : required_argument;
        int val = d->letter ? d->letter : OPT_LONG_ONLY + (int)i;
        longopts[i] = (struct option){d->name, has_arg, NULL, val};
        if (d->letter) {
            *s++ = d->letter;
            if (has_arg == required_argument)
                *s++ = ':';
        }
    }
    *s = '\0';
    memset(&longopts[O_COUNT], 0, sizeof longopts[O_COUNT]);
}

/* Table index of getopt_long's value c; O_COUNT if none. */
static size_t option_id(int c)
{
    if (c >= OPT_LONG_ONLY)
        return (size_t)(c - OPT_LONG_ONLY);
    for (size_t i = 0; i < O_COUNT; i++)
        if (p2pb_opt_table[i].letter && p2pb_opt_table[i].letter == c)
            return i;
    return O_COUNT;
}

/* A missing value (c == ':') or an unknown option. */
static enum p2pb_status getopt_error(int c, char **argv, char *err, size_t errlen)
{
    if (c == ':')
        return p2pb_fail(P2PB_EUSAGE, err, errlen, "option '%s' needs a value", argv[optind - 1]);
    if (optopt && optopt < OPT_LONG_ONLY)
        return p2pb_fail(P2PB_EUSAGE, err, errlen, "unknown option '-%c' (see p2pbench --help)",
                         optopt);
    return p2pb_fail(P2PB_EUSAGE, err, errlen, "unknown option '%s' (see p2pbench --help)",
                     argv[optind - 1]);
}

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
        if (ps->given[conflicts[i].a] && ps->given[conflicts[i].b])
            return p2pb_fail(P2PB_EUSAGE, ps->err, ps->errlen,
                             "--%s and --%s exclude each other (%s)",
                             p2pb_opt_table[conflicts[i].a].name,
                             p2pb_opt_table[conflicts[i].b].name, conflicts[i].why);
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
    if (ps->given[O_ROUNDS])
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
    if (!ps->given[O_MIN_SAMPLES] && pol->min_samples > pol->max_samples)
        pol->min_samples = pol->max_samples;
    if (pol->min_samples > pol->max_samples)
        return p2pb_fail(P2PB_EUSAGE, ps->err, ps->errlen,
                         "--min-samples %zu is above --max-samples %zu", pol->min_samples,
                         pol->max_samples);
    if (ps->given[O_CACHE_SIZE] && !pol->off_cache)
        return p2pb_fail(P2PB_EUSAGE, ps->err, ps->errlen,
                         "--cache-size %zu is read only with --off-cache", pol->cache_bytes);
    if (ps->given[O_SAMPLES])
        pol->mode = P2PB_POLICY_FIXED;
    if (ps->given[O_FIXED_IMB])
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
        if (b > (size_t)INT_MAX && (b % 1024 != 0 || b / 1024 > (size_t)INT_MAX))
            return p2pb_fail(P2PB_ERANGE, err, errlen,
                             "message size %zu is above 2^31-1 bytes and not a multiple of 1 KiB "
                             "(cannot be sent as one MPI message)",
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
    if (o->sizes_given && ps->given[O_SURVEY_SIZES])
        return p2pb_fail(P2PB_EUSAGE, ps->err, ps->errlen,
                         "survey sizes given twice (-s and --survey-sizes)");
    if (o->sizes_given && (o->nsizes != 2 || ps->given[O_MSGLOG]))
        return p2pb_fail(P2PB_EUSAGE, ps->err, ps->errlen,
                         "survey takes two sizes, -s LAT,BW (got %zu)", o->nsizes);
    if (o->sizes_given) { /* the list parser keeps the order given */
        char spec[64];
        snprintf(spec, sizeof spec, "%zu,%zu", o->sizes[0], o->sizes[1]);
        return p2pb_opt_survey_sizes(ps, spec);
    }
    if (!ps->given[O_SURVEY_SIZES])
        return p2pb_opt_survey_sizes(ps, p2pb_opt_table[O_SURVEY_SIZES].def_text);
    return P2PB_OK;
}

/* Does kernel k use option id? --window: every kernel of a window of
 * messages; the other kernel-specific options: the kernels that declare
 * them (struct p2pb_kernel.options); every other option: all kernels. */
static int kernel_uses(const struct p2pb_kernel *k, size_t id)
{
    switch (id) {
    case O_WINDOW: return k->bytes.unit == P2PB_BYTES_WINDOW_X;
    case O_TCP_IF:
    case O_MEMCPY_BUFFER:
    case O_MEMCPY_RANKS:
    case O_MSGRATE_PREPOST:
    case O_CACHE_POLLUTE:
    case O_RMA_SYNC:
    case O_RMA_WINDOW:
    case O_OVERLAP_COMPUTE:
    case O_PARTITIONS: return p2pb_kernel_reads(k, p2pb_opt_table[id].name);
    default: return 1;
    }
}

/* A one-sided kernel to run with a --rma-sync / --rma-window pair the MPI
 * library cannot run (p2pb_rma_refusal): P2PB_EUSAGE naming both. */
static enum p2pb_status check_rma(const struct p2pb_optparse *ps)
{
    const struct p2pb_options *o = ps->o;
    for (size_t k = 0; k < o->nkernels; k++) {
        const char *why = (o->kernels[k]->flags & P2PB_KF_RMA)
                              ? p2pb_rma_refusal(o->policy.rma_sync, o->policy.rma_window)
                              : NULL;
        if (why)
            return p2pb_fail(P2PB_EUSAGE, ps->err, ps->errlen,
                             "--rma-sync %s with --rma-window %s refused: %s",
                             p2pb_rma_sync_names[o->policy.rma_sync],
                             p2pb_rma_window_names[o->policy.rma_window], why);
    }
    return P2PB_OK;
}

/* Options given that nothing run will read: one warning line each in
 * o->unused (lines joined by '\n') naming the option and the kernels that
 * read it (the survey reads --window and the --survey-* options, and no
 * kernel option else). */
static void find_unused(const struct p2pb_optparse *ps)
{
    static const size_t some[] = {
        O_WINDOW,          O_TCP_IF,          O_MEMCPY_BUFFER, O_MEMCPY_RANKS, O_SURVEY_SIZES,
        O_SURVEY_MODE,     O_SURVEY_ORDER,    O_SURVEY_SEED,   O_SURVEY_PER,   O_SURVEY_TIME,
        O_SURVEY_CAP,      O_MSGRATE_PREPOST, O_CACHE_POLLUTE, O_RMA_SYNC,     O_RMA_WINDOW,
        O_OVERLAP_COMPUTE, O_PARTITIONS};
    const struct p2pb_options *o = ps->o;
    size_t len = 0;
    for (size_t i = 0; i < sizeof some / sizeof some[0]; i++) {
        size_t id = some[i];
        int survey_opt = id >= O_SURVEY_SIZES && id <= O_SURVEY_CAP, used = 0;
        if (!ps->given[id])
            continue;
        if (o->survey)
            used = survey_opt || id == O_WINDOW;
        for (size_t k = 0; k < o->nkernels && !used && !survey_opt; k++)
            used = kernel_uses(o->kernels[k], id);
        if (used)
            continue;
        ps->o->tcp_if_unused |= id == O_TCP_IF;
        char users[160] = "survey";
        size_t n = 0;
        for (size_t k = 0; k < p2pb_nkernels && !survey_opt; k++)
            if (kernel_uses(p2pb_kernels[k], id) && n + 20 < sizeof users)
                n += (size_t)snprintf(users + n, sizeof users - n, "%s%s", n ? ", " : "",
                                      p2pb_kernels[k]->name);
        int w = snprintf(ps->o->unused + len, sizeof ps->o->unused - len,
                         "%s--%s has no effect on what runs (it is read by: %s%s)", len ? "\n" : "",
                         p2pb_opt_table[id].name, users, id == O_WINDOW ? ", survey" : "");
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
    for (int i = optind; i < argc && st == P2PB_OK; i++)
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
    struct option longopts[O_COUNT + 1];
    char shortopts[2 * O_COUNT + 2];
    p2pb_options_init(o);
    getopt_tables(longopts, shortopts);
    optind = 0; /* reset getopt (GNU: 0 also reinitializes) */
    opterr = 0;
    enum p2pb_status st = P2PB_OK;
    int c;
    while (st == P2PB_OK && (c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
        size_t id = option_id(c);
        if (c == ':' || c == '?' || id >= O_COUNT)
            st = getopt_error(c, argv, err, errlen);
        else
            st = apply_option(&ps, id, optarg);
    }
    return st == P2PB_OK ? finish(&ps, argc, argv) : st;
}
