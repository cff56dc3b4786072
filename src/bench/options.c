/* SPDX-License-Identifier: MIT */
#include "options.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "text.h"

/* ---- The option table ----
 * One entry per option, in --help order: the getopt_long arrays, --help and
 * every default (p2pb_policy_init, options_init) come from it; the generic
 * parser (apply_option) converts and range-checks an argument by its kind
 * and stores it in the entry's field. Kernels default to the registry's
 * (kernels/registry.c, p2pb_kernel_is_default); the default results file
 * name is made by preflight.c. README.md's "### Options" table must agree
 * (tests/bench/test_options.c checks names, letters and defaults). */

enum opt_id {
    O_KERNELS,
    O_SIZES,
    O_MSGLOG,
    O_FORMAT,
    O_OUTPUT,
    O_NO_RESULTS,
    O_LABEL,
    O_CHECK,
    O_OFF_CACHE,
    O_FIXED_IMB,
    O_SAMPLES,
    O_MIN_SAMPLES,
    O_MAX_SAMPLES,
    O_BATCH,
    O_WARMUP,
    O_TIME_PER_SIZE,
    O_CI_TARGET,
    O_ROUNDS,
    O_SEED,
    O_SHIFT_BUFFERS,
    O_TIMEOUT,
    O_WINDOW,
    O_NUMA_NODE,
    O_MEMCPY_BUFFER,
    O_MEMCPY_RANKS,
    O_PROGRESS,
    O_TCP_IF,
    O_SURVEY_SIZES,
    O_SURVEY_MODE,
    O_SURVEY_ORDER,
    O_SURVEY_SEED,
    O_SURVEY_PER,
    O_SURVEY_TIME,
    O_LIST,
    O_INFO,
    O_HELP,
    O_VERSION,
    O_COUNT
};

/* getopt_long's value of an option without a short letter: this + id. */
#define OPT_LONG_ONLY 256

struct p2pb_optparse {
    struct p2pb_options *o;
    unsigned char given[O_COUNT]; /* 1 once the option was on the command line */
    char *err;
    size_t errlen;
};

static enum p2pb_status apply_kernels(struct p2pb_optparse *ps, const char *arg);
static enum p2pb_status apply_format(struct p2pb_optparse *ps, const char *arg);
static enum p2pb_status apply_output(struct p2pb_optparse *ps, const char *arg);
static enum p2pb_status apply_no_results(struct p2pb_optparse *ps, const char *arg);
static enum p2pb_status apply_label(struct p2pb_optparse *ps, const char *arg);
static enum p2pb_status apply_tcp_if(struct p2pb_optparse *ps, const char *arg);
static enum p2pb_status apply_survey_sizes(struct p2pb_optparse *ps, const char *arg);

/* The field of an entry: its struct, its C type (from the member's type, so
 * the two cannot disagree) and its offset. */
/* (clang-format 14 breaks _Generic's associations apart) */
/* clang-format off */
#define CTYPE_OF(x) \
    _Generic((x), size_t: P2PB_CT_SIZE, long: P2PB_CT_LONG, int: P2PB_CT_INT, \
             double: P2PB_CT_DOUBLE)
/* clang-format on */
#define POLICY_FIELD(m)                                                      \
    .dst = P2PB_DST_POLICY, .ctype = CTYPE_OF(((struct p2pb_policy *)0)->m), \
    .off = offsetof(struct p2pb_policy, m)
#define OPTIONS_FIELD(m)                                                       \
    .dst = P2PB_DST_OPTIONS, .ctype = CTYPE_OF(((struct p2pb_options *)0)->m), \
    .off = offsetof(struct p2pb_options, m)

/* One table entry: id, long name, short letter (0: none), kind, metavar
 * (NULL: none), then designated fields (range, default, field, help). */
#define OPT(id, long_name, short_letter, arg_kind, meta, ...) \
    [id] = {.name = (long_name),                              \
            .letter = (short_letter),                         \
            .kind = (arg_kind),                               \
            .metavar = (meta),                                \
            __VA_ARGS__}

/* Largest sample count and batch accepted. */
#define MAX_COUNT 100000000.0

static const char *const memcpy_ranks_names[] = {"one", "all", NULL};
static const char *const progress_names[] = {"auto", "always", "never", NULL};
static const char *const survey_mode_names[] = {"alone", "contention", NULL};
static const char *const survey_order_names[] = {"schedule", "random", NULL};
static const char *const survey_per_names[] = {"auto", "host", "rank", NULL};

static const struct p2pb_optdef opt_table[O_COUNT] = {
    OPT(O_KERNELS, "kernels", 'k', P2PB_OPT_STRING, "LIST", .apply = apply_kernels,
        .help = "kernels to run, comma separated (also positional); see --list"),
    OPT(O_SIZES, "sizes", 's', P2PB_OPT_SIZE_LIST, "LIST", .list = p2pb_parse_size_list,
        .help = "message sizes in bytes: 0,8,1K,64K,1M | 1K..1M (x2) | 1K..1M*4 | 100..1000+100"),
    OPT(O_MSGLOG, "msglog", 'm', P2PB_OPT_SIZE_LIST, "A:B", .def_text = "0:22",
        .list = p2pb_parse_msglog, .help = "sizes 0 and 2^A .. 2^B (as IMB -msglog)"),
    OPT(O_FORMAT, "format", 'f', P2PB_OPT_ENUM, "FMT", .def_text = "text", .apply = apply_format,
        .help = "stdout format: {def} (default), imb, csv, markdown"),
    OPT(O_OUTPUT, "output", 'o', P2PB_OPT_STRING, "FILE",
        .def_text = "p2pbench-<UTC time>-<host>-<pid>.jsonl", .apply = apply_output,
        .help = "results file, JSON Lines; - writes it to stdout, the tables then to stderr "
                "(default {def})"),
    OPT(O_NO_RESULTS, "no-results", 0, P2PB_OPT_FLAG, NULL, .apply = apply_no_results,
        .help = "write no results file"),
    OPT(O_LABEL, "label", 'l', P2PB_OPT_STRING, "NAME", .apply = apply_label,
        .help = "label stored in the results file (e.g. native, domU)"),
    OPT(O_CHECK, "check", 0, P2PB_OPT_FLAG, NULL, POLICY_FIELD(check),
        .help = "verify payloads (pattern per position, rank, iteration) off the timed path"),
    OPT(O_OFF_CACHE, "off-cache", 0, P2PB_OPT_FLAG, NULL, POLICY_FIELD(off_cache),
        .help = "cycle through buffers larger than the last-level cache"),
    OPT(O_FIXED_IMB, "fixed-imb", 0, P2PB_OPT_FLAG, NULL,
        .help = "IMB's repetitions: 1000 up to 32 KiB, then 40 MiB / size"),
    OPT(O_SAMPLES, "samples", 0, P2PB_OPT_COUNT, "N", .min = 1, .max = MAX_COUNT,
        POLICY_FIELD(samples), .help = "exactly N samples per size"),
    OPT(O_MIN_SAMPLES, "min-samples", 0, P2PB_OPT_COUNT, "N", .min = 1, .max = MAX_COUNT,
        .def_text = "10", .def = 10, POLICY_FIELD(min_samples),
        .help = "adaptive: at least N samples per size, and 3 per round (default {def})"),
    OPT(O_MAX_SAMPLES, "max-samples", 0, P2PB_OPT_COUNT, "N", .min = 1, .max = MAX_COUNT,
        .def_text = "1000", .def = 1000, POLICY_FIELD(max_samples),
        .help = "adaptive: at most N samples per size (default {def})"),
    OPT(O_BATCH, "batch", 0, P2PB_OPT_COUNT, "K", .min = 1, .max = MAX_COUNT, POLICY_FIELD(batch),
        .help = "iterations per sample (default: enough for a sample of >= 100 usec)"),
    /* -1: the harness's rule (10, or 2 with --fixed-imb), recorded as -1 */
    OPT(O_WARMUP, "warmup", 0, P2PB_OPT_COUNT, "N", .min = 0, .max = MAX_COUNT, .def_text = "10",
        .def = -1, POLICY_FIELD(warmup),
        .help = "warm-up iterations per size (default {def}; 2 with --fixed-imb)"),
    OPT(O_TIME_PER_SIZE, "time-per-size", 0, P2PB_OPT_SECONDS, "SEC", .min = 1e-6, .max = 86400,
        .def_text = "0.005", .def = 0.005, POLICY_FIELD(time_per_size),
        .help = "adaptive: time budget per size in seconds, all rounds together (default {def})"),
    OPT(O_CI_TARGET, "ci-target", 0, P2PB_OPT_FRACTION, "FRAC", .min = 1e-6, .max = 1.0,
        .def_text = "0.01", .def = 0.01, POLICY_FIELD(ci_target),
        .help = "adaptive: end a round when the 95% CI half-width of its median <= FRAC x median "
                "(default {def})"),
    OPT(O_ROUNDS, "rounds", 0, P2PB_OPT_COUNT, "R", .min = 1, .max = P2PB_MAX_ROUNDS,
        .def_text = "5", .def = 5, POLICY_FIELD(rounds),
        .help = "rounds over each kernel's sizes, shuffled, buffers reallocated each round; the "
                "interval then spans the rounds' spread (default {def})"),
    /* 0: chosen at start-up from the clock, recorded in the run record */
    OPT(O_SEED, "seed", 0, P2PB_OPT_COUNT, "N", .min = 1, .max = 9007199254740991.0,
        POLICY_FIELD(seed),
        .help = "seed of the rounds' shuffled size order (default: from the "
                "clock; recorded in the results file)"),
    OPT(O_SHIFT_BUFFERS, "shift-buffers", 0, P2PB_OPT_FLAG, NULL, POLICY_FIELD(shift_buffers),
        .help = "round i's buffers start (i mod 64) x 64 bytes past a page boundary"),
    OPT(O_TIMEOUT, "timeout", 0, P2PB_OPT_SECONDS, "SEC", .min = 0.001, .max = 86400 * 7.0,
        POLICY_FIELD(timeout),
        .help = "abort when one step (a size, writing its row, closing the results file, "
                "MPI_Finalize) takes longer than SEC seconds (default: none)"),
    OPT(O_WINDOW, "window", 0, P2PB_OPT_COUNT, "W", .min = 1, .max = 65536, .def_text = "64",
        .def = 64, POLICY_FIELD(window),
        .help = "messages in flight per iteration for bandwidth kernels (default {def})"),
    /* -1: first touch */
    OPT(O_NUMA_NODE, "numa-node", 0, P2PB_OPT_COUNT, "N", .min = 0, .max = 65535, .def = -1,
        OPTIONS_FIELD(numa_node),
        .help = "place message buffers on NUMA node N (OS index; default: the rank's own node, "
                "first touch)"),
    /* 16 MiB, the buffer of the seed memcpy table */
    OPT(O_MEMCPY_BUFFER, "memcpy-buffer", 0, P2PB_OPT_SIZE, "SIZE", .min = 1, .def_text = "16M",
        .def = 16.0 * 1024 * 1024, POLICY_FIELD(copy_bytes),
        .help = "memcpy kernel: bytes copied per iteration (default {def})"),
    OPT(O_MEMCPY_RANKS, "memcpy-ranks", 0, P2PB_OPT_ENUM, "one|all", .def_text = "one", .def = 0,
        POLICY_FIELD(self_all), .choices = memcpy_ranks_names,
        .help = "memcpy kernel: copy on rank 0 only (default) or on every rank at once"),
    OPT(O_PROGRESS, "progress", 0, P2PB_OPT_ENUM, "auto|always|never", .def_text = "auto", .def = 0,
        OPTIONS_FIELD(progress), .choices = progress_names,
        .help = "a progress line on stderr (kernel, round, size, elapsed, sizes left); auto: "
                "when stderr is a terminal and the run is past 2 s (default {def})"),
    OPT(O_TCP_IF, "tcp-if", 0, P2PB_OPT_STRING, "NAME", .def_text = "the interface MPI uses",
        .apply = apply_tcp_if,
        .help = "tcp-pingpong, tcp-uniband: network interface to use (default: {def})"),
    OPT(O_SURVEY_SIZES, "survey-sizes", 0, P2PB_OPT_STRING, "LAT,BW", .def_text = "8,1M",
        .apply = apply_survey_sizes,
        .help = "survey: latency and bandwidth message sizes (default {def}; also -s LAT,BW)"),
    OPT(O_SURVEY_MODE, "survey-mode", 0, P2PB_OPT_ENUM, "alone|contention", .def_text = "alone",
        .def = 0, OPTIONS_FIELD(survey_mode), .choices = survey_mode_names,
        .help =
            "survey: one pair at a time, the others wait (default), or every pair of a round at "
            "once"),
    OPT(O_SURVEY_ORDER, "survey-order", 0, P2PB_OPT_ENUM, "schedule|random", .def_text = "schedule",
        .def = 0, OPTIONS_FIELD(survey_order), .choices = survey_order_names,
        .help = "survey: rounds in schedule order (default) or shuffled (seed recorded)"),
    OPT(O_SURVEY_SEED, "survey-seed", 0, P2PB_OPT_COUNT, "N", .min = 1, .max = 4294967295.0,
        OPTIONS_FIELD(survey_seed),
        .help = "survey: seed of the random round order (default: from the clock, recorded)"),
    OPT(O_SURVEY_PER, "survey-per", 0, P2PB_OPT_ENUM, "auto|host|rank", .def_text = "auto",
        .def = 0, OPTIONS_FIELD(survey_per), .choices = survey_per_names,
        .help = "survey: one rank per host, or every rank (default auto: per host when the job "
                "spans 2 or more hosts)"),
    OPT(O_SURVEY_TIME, "survey-time", 0, P2PB_OPT_SECONDS, "SEC", .min = 1e-6, .max = 3600,
        .def_text = "0.05", .def = 0.05, OPTIONS_FIELD(survey_time),
        .help = "survey: time budget per pair, metric and direction in seconds (default {def})"),
    OPT(O_LIST, "list", 0, P2PB_OPT_FLAG, NULL, OPTIONS_FIELD(do_list),
        .help = "list kernels and exit"),
    OPT(O_INFO, "info", 0, P2PB_OPT_FLAG, NULL, OPTIONS_FIELD(do_info),
        .help = "print host context and exit"),
    OPT(O_HELP, "help", 'h', P2PB_OPT_FLAG, NULL, OPTIONS_FIELD(do_help),
        .help = "show this help and exit"),
    OPT(O_VERSION, "version", 'V', P2PB_OPT_FLAG, NULL, OPTIONS_FIELD(do_version),
        .help = "show version and exit"),
};

const struct p2pb_optdef *p2pb_option_table(size_t *n)
{
    *n = O_COUNT;
    return opt_table;
}

/* ---- Defaults ---- */

/* The field of d in the struct at base (a p2pb_options or a p2pb_policy,
 * as d->dst says). */
static void *field_of(const struct p2pb_optdef *d, void *base)
{
    return (char *)base + d->off;
}

static void store_count(const struct p2pb_optdef *d, void *base, size_t v)
{
    void *f = field_of(d, base);
    switch (d->ctype) {
    case P2PB_CT_SIZE: *(size_t *)f = v; break;
    case P2PB_CT_LONG: *(long *)f = (long)v; break;
    case P2PB_CT_INT: *(int *)f = (int)v; break;
    case P2PB_CT_DOUBLE: *(double *)f = (double)v; break;
    case P2PB_CT_NONE: break;
    }
}

static void store_real(const struct p2pb_optdef *d, void *base, double v)
{
    if (d->ctype == P2PB_CT_DOUBLE)
        *(double *)field_of(d, base) = v;
}

/* Store d->def (may be negative: -1 sentinels) in d's field. */
static void store_default(const struct p2pb_optdef *d, void *base)
{
    void *f = field_of(d, base);
    switch (d->ctype) {
    case P2PB_CT_SIZE: *(size_t *)f = (size_t)d->def; break;
    case P2PB_CT_LONG: *(long *)f = (long)d->def; break;
    case P2PB_CT_INT: *(int *)f = (int)d->def; break;
    case P2PB_CT_DOUBLE: *(double *)f = d->def; break;
    case P2PB_CT_NONE: break;
    }
}

/* Store the default of every entry whose field is in a dst struct at base. */
static void apply_defaults(void *base, enum p2pb_optdst dst)
{
    for (size_t i = 0; i < O_COUNT; i++)
        if (opt_table[i].dst == dst)
            store_default(&opt_table[i], base);
}

void p2pb_policy_init(struct p2pb_policy *pol)
{
    memset(pol, 0, sizeof *pol);
    pol->mode = P2PB_POLICY_ADAPTIVE;
    apply_defaults(pol, P2PB_DST_POLICY);
}

void p2pb_default_sizes(size_t *sizes, size_t *n)
{
    char err[128];
    /* cannot fail: the table's text is valid (tests/bench/test_options.c) */
    if (p2pb_parse_msglog(opt_table[O_MSGLOG].def_text, sizes, P2PB_MAX_SIZES, n, err,
                          sizeof err) != P2PB_OK)
        *n = 0;
}

static void options_init(struct p2pb_options *o)
{
    memset(o, 0, sizeof *o);
    p2pb_policy_init(&o->policy);
    apply_defaults(o, P2PB_DST_OPTIONS);
    o->reporter = p2pb_reporter_find(opt_table[O_FORMAT].def_text);
    o->output_default = 1;
}

/* ---- --help ---- */

void p2pb_option_help(const struct p2pb_optdef *d, char *buf, size_t len)
{
    const char *mark = d->def_text ? strstr(d->help, "{def}") : NULL;
    if (!mark)
        snprintf(buf, len, "%s", d->help);
    else
        snprintf(buf, len, "%.*s%s%s", (int)(mark - d->help), d->help, d->def_text,
                 mark + strlen("{def}"));
}

/* d's help with "{def}" replaced by its default text, and a newline. */
static void print_help_text(FILE *f, const struct p2pb_optdef *d)
{
    char help[512];
    p2pb_option_help(d, help, sizeof help);
    fprintf(f, "%s\n", help);
}

void p2pb_options_usage(FILE *f)
{
    fprintf(f, "Usage: mpirun -np N p2pbench [OPTION]... [KERNEL]...\n"
               "       mpirun -np N p2pbench survey [-s LAT,BW] [survey options below]   (every pair; "
               "docs/survey.md)\n"
               "MPI point-to-point benchmarks (PingPong, PingPing, Sendrecv, Exchange, ...)\n"
               "with per-size statistics and a JSON Lines results file.\n\nOptions:\n");
    for (size_t i = 0; i < O_COUNT; i++) {
        const struct p2pb_optdef *d = &opt_table[i];
        char left[64];
        const char *sep = d->metavar ? " " : "", *meta = d->metavar ? d->metavar : "";
        if (d->letter)
            snprintf(left, sizeof left, "-%c, --%s%s%s", d->letter, d->name, sep, meta);
        else
            snprintf(left, sizeof left, "    --%s%s%s", d->name, sep, meta);
        fprintf(f, "  %-28s ", left);
        print_help_text(f, d);
    }
    fprintf(f, "\nUnits: message size in bytes; t in usec; MB/s with 1 MB = 10^6 bytes.\n"
               "Exit status: 0 success, 1 failure, 2 usage error.\n");
}

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
    enum p2pb_status st = p2pb_parse_size(arg, v, err, errlen);
    if (st == P2PB_OK && *v < (size_t)d->min)
        return p2pb_fail(P2PB_ERANGE, err, errlen, "--%s must be at least %zu byte%s", d->name,
                         (size_t)d->min, d->min == 1 ? "" : "s");
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

/* ---- Special steps (the entries' apply) ---- */

static enum p2pb_status add_kernels(struct p2pb_options *o, const char *list, char *err,
                                    size_t errlen)
{
    char *copy = strdup(list);
    if (!copy)
        return p2pb_fail(P2PB_ENOMEM, err, errlen, "out of memory");
    enum p2pb_status st = P2PB_OK;
    char *save = NULL;
    int any = 0;
    for (char *e = strtok_r(copy, ",", &save); e; e = strtok_r(NULL, ",", &save)) {
        any = 1;
        if (strcasecmp(e, "survey") == 0) { /* the link survey (survey.c), not a kernel */
            o->survey = 1;
            continue;
        }
        const struct p2pb_kernel *k = p2pb_kernel_find(e);
        if (!k) {
            st =
                p2pb_fail(P2PB_EUSAGE, err, errlen, "unknown kernel '%s' (see p2pbench --list)", e);
            break;
        }
        int dup = 0;
        for (size_t i = 0; i < o->nkernels; i++)
            dup |= (o->kernels[i] == k);
        if (dup)
            continue;
        if (o->nkernels >= P2PB_MAX_KERNELS) {
            st = p2pb_fail(P2PB_ERANGE, err, errlen, "too many kernels");
            break;
        }
        o->kernels[o->nkernels++] = k;
    }
    if (st == P2PB_OK && (!any || p2pb_text_list_has_empty(list)))
        st = p2pb_fail(P2PB_EUSAGE, err, errlen, "invalid kernel list '%s' (empty element)", list);
    free(copy);
    return st;
}

static enum p2pb_status apply_kernels(struct p2pb_optparse *ps, const char *arg)
{
    return add_kernels(ps->o, arg, ps->err, ps->errlen);
}

/* Reporter names are matched without case; a name of 32 bytes or more is
 * unknown. */
static enum p2pb_status apply_format(struct p2pb_optparse *ps, const char *arg)
{
    char lower[32];
    size_t i = 0;
    for (; arg[i] && i + 1 < sizeof lower; i++)
        lower[i] = (char)tolower((unsigned char)arg[i]);
    lower[i] = '\0';
    ps->o->reporter = arg[i] ? NULL : p2pb_reporter_find(lower);
    if (!ps->o->reporter)
        return p2pb_fail(P2PB_EUSAGE, ps->err, ps->errlen,
                         "unknown format '%s' (text, imb, csv, markdown)", arg);
    return P2PB_OK;
}

static enum p2pb_status apply_output(struct p2pb_optparse *ps, const char *arg)
{
    struct p2pb_options *o = ps->o;
    if (!*arg)
        return p2pb_fail(P2PB_EUSAGE, ps->err, ps->errlen, "empty results file name for --output");
    if (strlen(arg) >= sizeof o->output)
        return p2pb_fail(P2PB_ERANGE, ps->err, ps->errlen, "results file name too long");
    strcpy(o->output, arg);
    o->output_default = 0;
    return P2PB_OK;
}

static enum p2pb_status apply_no_results(struct p2pb_optparse *ps, const char *arg)
{
    (void)arg;
    ps->o->output[0] = '\0';
    ps->o->output_default = 0;
    return P2PB_OK;
}

/* LAT,BW (sizes.c, p2pb_parse_size_pair). */
static enum p2pb_status apply_survey_sizes(struct p2pb_optparse *ps, const char *arg)
{
    return p2pb_parse_size_pair(arg, &ps->o->survey_lat, &ps->o->survey_bw, ps->err, ps->errlen);
}

static enum p2pb_status apply_label(struct p2pb_optparse *ps, const char *arg)
{
    struct p2pb_options *o = ps->o;
    if (strlen(arg) >= sizeof o->label)
        return p2pb_fail(P2PB_ERANGE, ps->err, ps->errlen,
                         "label '%.40s...' too long (at most %zu bytes)", arg, sizeof o->label - 1);
    if (!p2pb_text_is_clean(arg))
        return p2pb_fail(P2PB_EUSAGE, ps->err, ps->errlen,
                         "invalid label (control characters or bytes that are not UTF-8)");
    strcpy(o->label, arg);
    return P2PB_OK;
}

/* An interface name: 1..15 bytes (IFNAMSIZ - 1) of letters, digits and
 * "-_.@:"; whether it exists is checked on every rank (preflight.c). */
static enum p2pb_status apply_tcp_if(struct p2pb_optparse *ps, const char *arg)
{
    struct p2pb_options *o = ps->o;
    size_t n = strlen(arg);
    int ok = n > 0 && n < 16 && n < sizeof o->tcp_if;
    for (size_t i = 0; ok && i < n; i++)
        ok = isalnum((unsigned char)arg[i]) || strchr("-_.@:", arg[i]) != NULL;
    if (!ok)
        return p2pb_fail(P2PB_EUSAGE, ps->err, ps->errlen,
                         "invalid value for --tcp-if: not an interface name (1 to 15 letters, "
                         "digits or -_.@:)");
    strcpy(o->tcp_if, arg);
    return P2PB_OK;
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
            store_real(d, base, x);
        return st;
    case P2PB_OPT_SIZE: st = parse_size_min(d, arg, &v, ps->err, ps->errlen); break;
    case P2PB_OPT_ENUM: st = parse_enum(d, arg, &v, ps->err, ps->errlen); break;
    case P2PB_OPT_SIZE_LIST: return parse_sizes(ps, d, arg);
    case P2PB_OPT_STRING: return P2PB_OK; /* every STRING entry has an apply step */
    }
    if (st == P2PB_OK && d->dst != P2PB_DST_NONE)
        store_count(d, base, v);
    return st;
}

static enum p2pb_status apply_option(struct p2pb_optparse *ps, size_t id, const char *arg)
{
    const struct p2pb_optdef *d = &opt_table[id];
    if (d->kind == P2PB_OPT_SIZE_LIST && ps->given[id]) /* a list: one per command line */
        return p2pb_fail(P2PB_EUSAGE, ps->err, ps->errlen, "--%s given twice (give one list)",
                         d->name);
    ps->given[id] = 1;
    return d->apply ? d->apply(ps, arg) : convert_and_store(ps, d, arg);
}

/* getopt_long's arrays from the table: longopts (O_COUNT + 1 entries) and
 * the short option string (":" first: a missing value returns ':'). */
static void getopt_tables(struct option *longopts, char *shortopts)
{
    char *s = shortopts;
    *s++ = ':';
    for (size_t i = 0; i < O_COUNT; i++) {
        const struct p2pb_optdef *d = &opt_table[i];
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
        if (opt_table[i].letter && opt_table[i].letter == c)
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
            return p2pb_fail(
                P2PB_EUSAGE, ps->err, ps->errlen, "--%s and --%s exclude each other (%s)",
                opt_table[conflicts[i].a].name, opt_table[conflicts[i].b].name, conflicts[i].why);
    return P2PB_OK;
}

/* --samples, --fixed-imb, --min-samples, --max-samples: one policy
 * (their conflicts are refused before, by check_conflicts). */
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
    if (ps->given[O_SAMPLES])
        pol->mode = P2PB_POLICY_FIXED;
    if (ps->given[O_FIXED_IMB])
        pol->mode = P2PB_POLICY_FIXED_IMB;
    return P2PB_OK;
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
        return apply_survey_sizes(ps, spec);
    }
    if (!ps->given[O_SURVEY_SIZES])
        return apply_survey_sizes(ps, opt_table[O_SURVEY_SIZES].def_text);
    return P2PB_OK;
}

/* Positional kernels, the checks across options, then the defaults that
 * depend on what was given (sizes, kernels). */
static enum p2pb_status finish(struct p2pb_optparse *ps, int argc, char **argv)
{
    struct p2pb_options *o = ps->o;
    enum p2pb_status st = P2PB_OK;
    for (int i = optind; i < argc && st == P2PB_OK; i++)
        st = add_kernels(o, argv[i], ps->err, ps->errlen);
    if (st == P2PB_OK)
        st = finish_policy(ps);
    if (st == P2PB_OK && o->survey)
        return finish_survey(ps);
    if (st == P2PB_OK)
        st = finish_sizes(o, ps->err, ps->errlen);
    if (st != P2PB_OK || o->nkernels > 0)
        return st;
    for (size_t i = 0; i < p2pb_nkernels; i++)
        if (p2pb_kernel_is_default(p2pb_kernels[i]) && o->nkernels < P2PB_MAX_KERNELS)
            o->kernels[o->nkernels++] = p2pb_kernels[i];
    return P2PB_OK;
}

enum p2pb_status p2pb_options_parse(int argc, char **argv, struct p2pb_options *o, char *err,
                                    size_t errlen)
{
    struct p2pb_optparse ps = {.o = o, .err = err, .errlen = errlen};
    struct option longopts[O_COUNT + 1];
    char shortopts[2 * O_COUNT + 2];
    options_init(o);
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
