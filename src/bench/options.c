/* SPDX-License-Identifier: MIT */
#include "options.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void p2pb_default_sizes(size_t *sizes, size_t *n)
{
    *n = 0;
    sizes[(*n)++] = 0;
    for (int e = 0; e <= 22; e++)
        sizes[(*n)++] = (size_t)1 << e;
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

/* Option table: getopt_long entries plus metavariable and help text, so the
 * parser and --help come from one place. */
enum {
    OPT_CHECK = 256,
    OPT_OFF_CACHE,
    OPT_FIXED_IMB,
    OPT_SAMPLES,
    OPT_MIN_SAMPLES,
    OPT_MAX_SAMPLES,
    OPT_BATCH,
    OPT_WARMUP,
    OPT_TIME_PER_SIZE,
    OPT_CI_TARGET,
    OPT_TIMEOUT,
    OPT_WINDOW,
    OPT_LIST,
    OPT_INFO,
    OPT_NO_RESULTS,
    OPT_NUMA_NODE,
    OPT_MEMCPY_BUFFER,
    OPT_MEMCPY_RANKS
};

struct opt_doc {
    struct option opt;
    const char *metavar;
    const char *help;
};

static const struct opt_doc opt_docs[] = {
    {{"kernels", required_argument, NULL, 'k'},
     "LIST",
     "kernels to run, comma separated (also positional); see --list"},
    {{"sizes", required_argument, NULL, 's'},
     "LIST",
     "message sizes in bytes: 0,8,1K,64K,1M | 1K..1M (x2) | 1K..1M*4 | 100..1000+100"},
    {{"msglog", required_argument, NULL, 'm'}, "A:B", "sizes 0 and 2^A .. 2^B (as IMB -msglog)"},
    {{"format", required_argument, NULL, 'f'},
     "FMT",
     "stdout format: text (default), imb, csv, markdown"},
    {{"output", required_argument, NULL, 'o'},
     "FILE",
     "results file, JSON Lines (default p2pbench-<UTC time>.jsonl)"},
    {{"no-results", no_argument, NULL, OPT_NO_RESULTS}, NULL, "write no results file"},
    {{"label", required_argument, NULL, 'l'},
     "NAME",
     "label stored in the results file (e.g. native, domU)"},
    {{"check", no_argument, NULL, OPT_CHECK},
     NULL,
     "verify payloads (pattern per position, rank, iteration) off the timed path"},
    {{"off-cache", no_argument, NULL, OPT_OFF_CACHE},
     NULL,
     "cycle through buffers larger than the last-level cache"},
    {{"fixed-imb", no_argument, NULL, OPT_FIXED_IMB},
     NULL,
     "IMB's repetitions: 1000 up to 32 KiB, then 40 MiB / size"},
    {{"samples", required_argument, NULL, OPT_SAMPLES}, "N", "exactly N samples per size"},
    {{"min-samples", required_argument, NULL, OPT_MIN_SAMPLES},
     "N",
     "adaptive: at least N samples (default 10)"},
    {{"max-samples", required_argument, NULL, OPT_MAX_SAMPLES},
     "N",
     "adaptive: at most N samples (default 1000)"},
    {{"batch", required_argument, NULL, OPT_BATCH},
     "K",
     "iterations per sample (default: enough for a sample of >= 100 usec)"},
    {{"warmup", required_argument, NULL, OPT_WARMUP},
     "N",
     "warm-up iterations per size (default 10; 2 with --fixed-imb)"},
    {{"time-per-size", required_argument, NULL, OPT_TIME_PER_SIZE},
     "SEC",
     "adaptive: time budget per size in seconds (default 0.2)"},
    {{"ci-target", required_argument, NULL, OPT_CI_TARGET},
     "FRAC",
     "adaptive: stop when the 95% CI half-width of the median <= FRAC x median (default 0.01)"},
    {{"timeout", required_argument, NULL, OPT_TIMEOUT},
     "SEC",
     "abort when one size takes longer than SEC seconds (default: none)"},
    {{"window", required_argument, NULL, OPT_WINDOW},
     "W",
     "messages in flight per iteration for bandwidth kernels (default 64)"},
    {{"numa-node", required_argument, NULL, OPT_NUMA_NODE},
     "N",
     "place message buffers on NUMA node N (OS index; default: the rank's own node, first touch)"},
    {{"memcpy-buffer", required_argument, NULL, OPT_MEMCPY_BUFFER},
     "SIZE",
     "memcpy kernel: bytes copied per iteration (default 16M)"},
    {{"memcpy-ranks", required_argument, NULL, OPT_MEMCPY_RANKS},
     "one|all",
     "memcpy kernel: copy on rank 0 only (default) or on every rank at once"},
    {{"list", no_argument, NULL, OPT_LIST}, NULL, "list kernels and exit"},
    {{"info", no_argument, NULL, OPT_INFO}, NULL, "print host context and exit"},
    {{"help", no_argument, NULL, 'h'}, NULL, "show this help and exit"},
    {{"version", no_argument, NULL, 'V'}, NULL, "show version and exit"},
};
#define N_OPTS (sizeof opt_docs / sizeof opt_docs[0])

void p2pb_options_usage(FILE *f)
{
    fprintf(f, "Usage: mpirun -np N p2pbench [OPTION]... [KERNEL]...\n"
               "MPI point-to-point benchmarks (PingPong, PingPing, Sendrecv, Exchange, ...)\n"
               "with per-size statistics and a JSON Lines results file.\n\nOptions:\n");
    for (size_t i = 0; i < N_OPTS; i++) {
        char left[64];
        const struct option *o = &opt_docs[i].opt;
        if (o->val < 256)
            snprintf(left, sizeof left, "-%c, --%s%s%s", o->val, o->name,
                     opt_docs[i].metavar ? " " : "",
                     opt_docs[i].metavar ? opt_docs[i].metavar : "");
        else
            snprintf(left, sizeof left, "    --%s%s%s", o->name, opt_docs[i].metavar ? " " : "",
                     opt_docs[i].metavar ? opt_docs[i].metavar : "");
        fprintf(f, "  %-28s %s\n", left, opt_docs[i].help);
    }
    fprintf(f, "\nUnits: message size in bytes; t in usec; MB/s with 1 MB = 10^6 bytes.\n"
               "Exit status: 0 success, 1 failure, 2 usage error.\n");
}

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

enum p2pb_status p2pb_options_parse(int argc, char **argv, struct p2pb_options *o, char *err,
                                    size_t errlen)
{
    memset(o, 0, sizeof(*o));
    o->reporter = &p2pb_reporter_text;
    o->output_default = 1;
    o->policy.mode = P2PB_POLICY_ADAPTIVE;
    o->policy.min_samples = 10;
    o->policy.max_samples = 1000;
    o->policy.ci_target = 0.01;
    o->policy.time_per_size = 0.2;
    o->policy.warmup = -1;
    o->policy.window = 64;
    o->numa_node = -1;
    o->policy.copy_bytes = P2PB_DEFAULT_COPY_BYTES;
    int sizes_given = 0, samples_given = 0, fixed_imb = 0, minmax_given = 0, min_given = 0;

    struct option longopts[N_OPTS + 1];
    for (size_t i = 0; i < N_OPTS; i++)
        longopts[i] = opt_docs[i].opt;
    memset(&longopts[N_OPTS], 0, sizeof longopts[N_OPTS]);

    enum p2pb_status st = P2PB_OK;
    size_t v;
    double d;
    optind = 0; /* reset getopt (GNU: 0 also reinitializes) */
    opterr = 0;
    int c;
    while (st == P2PB_OK &&
           (c = getopt_long(argc, argv, ":k:s:m:f:o:l:hV", longopts, NULL)) != -1) {
        switch (c) {
        case 'k': st = add_kernels(o, optarg, err, errlen); break;
        case 's':
            if (sizes_given)
                return p2pb_fail(P2PB_EUSAGE, err, errlen,
                                 "message sizes given twice (--sizes / --msglog)");
            sizes_given = 1;
            st = p2pb_parse_size_list(optarg, o->sizes, P2PB_MAX_SIZES, &o->nsizes, err, errlen);
            break;
        case 'm':
            if (sizes_given)
                return p2pb_fail(P2PB_EUSAGE, err, errlen,
                                 "message sizes given twice (--sizes / --msglog)");
            sizes_given = 1;
            st = p2pb_parse_msglog(optarg, o->sizes, P2PB_MAX_SIZES, &o->nsizes, err, errlen);
            break;
        case 'f': {
            char lower[32];
            size_t i = 0;
            for (; optarg[i] && i + 1 < sizeof lower; i++)
                lower[i] = (char)tolower((unsigned char)optarg[i]);
            lower[i] = '\0';
            o->reporter = optarg[i] ? NULL : p2pb_reporter_find(lower);
        }
            if (!o->reporter)
                st = p2pb_fail(P2PB_EUSAGE, err, errlen,
                               "unknown format '%s' (text, imb, csv, markdown)", optarg);
            break;
        case 'o':
            if (!*optarg)
                return p2pb_fail(P2PB_EUSAGE, err, errlen, "empty results file name for --output");
            if (strlen(optarg) >= sizeof o->output)
                return p2pb_fail(P2PB_ERANGE, err, errlen, "results file name too long");
            strcpy(o->output, optarg);
            o->output_default = 0;
            break;
        case OPT_NO_RESULTS:
            o->output[0] = '\0';
            o->output_default = 0;
            break;
        case 'l':
            if (strlen(optarg) >= sizeof o->label)
                return p2pb_fail(P2PB_ERANGE, err, errlen,
                                 "label '%.40s...' too long (at most %zu bytes)", optarg,
                                 sizeof o->label - 1);
            if (!p2pb_text_is_clean(optarg))
                return p2pb_fail(P2PB_EUSAGE, err, errlen,
                                 "invalid label (control characters or bytes that are not UTF-8)");
            strcpy(o->label, optarg);
            break;
        case OPT_CHECK: o->policy.check = 1; break;
        case OPT_OFF_CACHE: o->policy.off_cache = 1; break;
        case OPT_FIXED_IMB: fixed_imb = 1; break;
        case OPT_SAMPLES:
            st = parse_count("samples", optarg, 1, 100000000, &o->policy.samples, err, errlen);
            samples_given = 1;
            break;
        case OPT_MIN_SAMPLES:
            st = parse_count("min-samples", optarg, 1, 100000000, &o->policy.min_samples, err,
                             errlen);
            minmax_given = 1;
            min_given = 1;
            break;
        case OPT_MAX_SAMPLES:
            st = parse_count("max-samples", optarg, 1, 100000000, &o->policy.max_samples, err,
                             errlen);
            minmax_given = 1;
            break;
        case OPT_BATCH:
            st = parse_count("batch", optarg, 1, 100000000, &o->policy.batch, err, errlen);
            break;
        case OPT_WARMUP:
            st = parse_count("warmup", optarg, 0, 100000000, &v, err, errlen);
            o->policy.warmup = (long)v;
            break;
        case OPT_TIME_PER_SIZE:
            st = parse_real("time-per-size", optarg, 1e-6, 86400, &o->policy.time_per_size, err,
                            errlen);
            break;
        case OPT_CI_TARGET:
            st = parse_real("ci-target", optarg, 1e-6, 1.0, &o->policy.ci_target, err, errlen);
            break;
        case OPT_TIMEOUT:
            st = parse_real("timeout", optarg, 0.001, 86400 * 7.0, &d, err, errlen);
            o->policy.timeout = d;
            break;
        case OPT_WINDOW:
            st = parse_count("window", optarg, 1, 65536, &o->policy.window, err, errlen);
            break;
        case OPT_NUMA_NODE:
            st = parse_count("numa-node", optarg, 0, 65535, &v, err, errlen);
            o->numa_node = (int)v;
            break;
        case OPT_MEMCPY_BUFFER:
            st = p2pb_parse_size(optarg, &o->policy.copy_bytes, err, errlen);
            if (st == P2PB_OK && o->policy.copy_bytes == 0)
                st = p2pb_fail(P2PB_ERANGE, err, errlen, "--memcpy-buffer must be at least 1 byte");
            break;
        case OPT_MEMCPY_RANKS:
            if (strcmp(optarg, "one") == 0)
                o->policy.self_all = 0;
            else if (strcmp(optarg, "all") == 0)
                o->policy.self_all = 1;
            else
                st = p2pb_fail(P2PB_EUSAGE, err, errlen,
                               "invalid value '%s' for --memcpy-ranks (one, all)", optarg);
            break;
        case OPT_LIST: o->do_list = 1; break;
        case OPT_INFO: o->do_info = 1; break;
        case 'h': o->do_help = 1; break;
        case 'V': o->do_version = 1; break;
        case ':':
            return p2pb_fail(P2PB_EUSAGE, err, errlen, "option '%s' needs a value",
                             argv[optind - 1]);
        case '?':
        default:
            if (optopt && optopt < 256)
                return p2pb_fail(P2PB_EUSAGE, err, errlen,
                                 "unknown option '-%c' (see p2pbench --help)", optopt);
            return p2pb_fail(P2PB_EUSAGE, err, errlen, "unknown option '%s' (see p2pbench --help)",
                             argv[optind - 1]);
        }
    }
    if (st != P2PB_OK)
        return st;
    for (int i = optind; i < argc; i++)
        if ((st = add_kernels(o, argv[i], err, errlen)) != P2PB_OK)
            return st;

    if (samples_given && fixed_imb)
        return p2pb_fail(P2PB_EUSAGE, err, errlen, "--samples and --fixed-imb exclude each other");
    if (samples_given && minmax_given)
        return p2pb_fail(P2PB_EUSAGE, err, errlen,
                         "--samples excludes --min-samples / --max-samples");
    if (!min_given && o->policy.min_samples > o->policy.max_samples)
        o->policy.min_samples = o->policy.max_samples;
    if (o->policy.min_samples > o->policy.max_samples)
        return p2pb_fail(P2PB_EUSAGE, err, errlen, "--min-samples %zu is above --max-samples %zu",
                         o->policy.min_samples, o->policy.max_samples);
    if (samples_given)
        o->policy.mode = P2PB_POLICY_FIXED;
    if (fixed_imb)
        o->policy.mode = P2PB_POLICY_FIXED_IMB;

    o->sizes_given = sizes_given;
    if (!sizes_given)
        p2pb_default_sizes(o->sizes, &o->nsizes);
    qsort(o->sizes, o->nsizes, sizeof o->sizes[0], cmp_size); /* tables ascend, as IMB's */
    for (size_t i = 0; i < o->nsizes; i++) {
        size_t b = o->sizes[i];
        if (b > (size_t)INT_MAX && (b % 1024 != 0 || b / 1024 > (size_t)INT_MAX))
            return p2pb_fail(P2PB_ERANGE, err, errlen,
                             "message size %zu is above 2^31-1 bytes and not a multiple of 1 KiB "
                             "(cannot be sent as one MPI message)",
                             b);
    }
    if (o->nkernels == 0)
        for (size_t i = 0; i < p2pb_nkernels; i++)
            if (p2pb_kernel_is_default(p2pb_kernels[i]) && o->nkernels < P2PB_MAX_KERNELS)
                o->kernels[o->nkernels++] = p2pb_kernels[i];
    return P2PB_OK;
}
