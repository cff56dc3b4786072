/* SPDX-License-Identifier: MIT */
#include "options.h"
#include "bound.h"
#include "options_internal.h"

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
 * (benchmarks/registry.c, p2pb_kernel_is_default); the default results file
 * name is made by preflight.c. README.md's "### Options" table must agree
 * (tests/bench/test_options.c checks names, letters and defaults). */

static enum p2pb_status apply_kernels(struct p2pb_optparser *p, const char *arg);
static enum p2pb_status apply_sizes(struct p2pb_optparser *p, const char *arg);
static enum p2pb_status apply_msglog(struct p2pb_optparser *p, const char *arg);
static enum p2pb_status apply_format(struct p2pb_optparser *p, const char *arg);
static enum p2pb_status apply_output(struct p2pb_optparser *p, const char *arg);
static enum p2pb_status apply_no_results(struct p2pb_optparser *p, const char *arg);
static enum p2pb_status apply_label(struct p2pb_optparser *p, const char *arg);
static enum p2pb_status apply_bound(struct p2pb_optparser *p, const char *arg);

/* The field of an entry: its struct, its C type (from the member's type, so
 * the two cannot disagree) and its offset. */
#define POLICY_FIELD(m) P2PB_OPT_FIELD(P2PB_DST_POLICY, struct p2pb_policy, m)
#define OPTIONS_FIELD(m) P2PB_OPT_FIELD(P2PB_DST_OPTIONS, struct p2pb_options, m)

#define OPT P2PB_OPT

/* Largest sample count and batch accepted. */
#define MAX_COUNT 100000000.0

static const char *const progress_names[] = {"auto", "always", "never", NULL};
static const char *const survey_mode_names[] = {"alone", "contention", "auto", NULL};
static const char *const survey_order_names[] = {"schedule", "random", NULL};
static const char *const survey_per_names[] = {"auto", "host", "rank", NULL};

/* p2pbench's own entries; the kernels' follow them (full_table). */
static const struct p2pb_optdef core_table[O_CORE] = {
    OPT(O_KERNELS, "kernels", 'k', P2PB_OPT_STRING, "LIST", .apply = apply_kernels, .many = 1,
        .help = "kernels to run, comma separated (also positional; -k may be repeated); see "
                "--list"),
    OPT(O_SIZES, "sizes", 's', P2PB_OPT_SIZE_LIST, "LIST", .apply = apply_sizes,
        .help = "message sizes in bytes: 0,8,1K,64K,1M | 1K..1M (x2) | 1K..1M*4 | 100..1000+100"),
    OPT(O_MSGLOG, "msglog", 'm', P2PB_OPT_SIZE_LIST, "A:B", .def_text = "0:22",
        .apply = apply_msglog, .help = "sizes 0 and 2^A .. 2^B (as IMB -msglog)"),
    OPT(O_FORMAT, "format", 'f', P2PB_OPT_ENUM, "FMT", .def_text = "text", .apply = apply_format,
        .help = "stdout format: {def} (default), imb, csv, markdown, osu"),
    OPT(O_OUTPUT, "output", 'o', P2PB_OPT_STRING, "FILE",
        .def_text = "p2pbench-<UTC time>-<host>-<pid>.jsonl", .apply = apply_output,
        .help = "results file, JSON Lines, replaced only when the run starts (a refused run "
                "leaves it); never written through a link to a file; - writes it to stdout, the "
                "tables then to stderr (default {def}, a new file)"),
    OPT(O_NO_RESULTS, "no-results", 0, P2PB_OPT_FLAG, NULL, .apply = apply_no_results,
        .help = "write no results file"),
    OPT(O_LABEL, "label", 'l', P2PB_OPT_STRING, "NAME", .apply = apply_label,
        .help = "label stored in the results file (e.g. native, domU)"),
    OPT(O_CHECK, "check", 0, P2PB_OPT_FLAG, NULL, POLICY_FIELD(check),
        .help = "verify payloads (pattern per position, rank, iteration) off the timed path"),
    OPT(O_OFF_CACHE, "off-cache", 0, P2PB_OPT_FLAG, NULL, POLICY_FIELD(off_cache),
        .help = "time every size cold, as IMB -off_cache C: each message one cache line past the "
                "last one's end, cycling through 2 x C bytes per side"),
    /* 0: hwloc's last-level cache, at most P2PB_OFF_CACHE_MAX (harness.h) */
    OPT(O_CACHE_SIZE, "cache-size", 0, P2PB_OPT_SIZE, "SIZE", .min = 1024,
        .max = (double)((size_t)1 << 40), POLICY_FIELD(cache_bytes),
        .help = "--off-cache: the cache size C (IMB -off_cache C, in MB there; default: the "
                "L3 hwloc reports, at most 64M)"),
    OPT(O_FIXED_IMB, "fixed-imb", 0, P2PB_OPT_FLAG, NULL,
        .help = "IMB's repetitions: 1000 up to 32 KiB, then 40 MiB / size"),
    OPT(O_SAMPLES, "samples", 0, P2PB_OPT_COUNT, "N", .min = 1, .max = MAX_COUNT,
        POLICY_FIELD(samples), .help = "exactly N samples per size"),
    OPT(O_MIN_SAMPLES, "min-samples", 0, P2PB_OPT_COUNT, "N", .min = 1, .max = MAX_COUNT,
        .def_text = "5", .def = 5, POLICY_FIELD(min_samples),
        .help = "adaptive: at least N samples per size, and 1 per round (default {def})"),
    OPT(O_MAX_SAMPLES, "max-samples", 0, P2PB_OPT_COUNT, "N", .min = 1, .max = MAX_COUNT,
        .def_text = "1000", .def = 1000, POLICY_FIELD(max_samples),
        .help = "adaptive: at most N samples per size (default {def})"),
    OPT(O_BATCH, "batch", 0, P2PB_OPT_COUNT, "K", .min = 1, .max = MAX_COUNT, POLICY_FIELD(batch),
        .help = "iterations per sample (default: enough for a sample of >= 1 ms)"),
    /* -1: the harness's rule (10, or IMB's with --fixed-imb), recorded as -1 */
    OPT(O_WARMUP, "warmup", 0, P2PB_OPT_COUNT, "N", .min = 0, .max = MAX_COUNT, .def_text = "10",
        .def = -1, POLICY_FIELD(warmup),
        .help = "fewest warm-up iterations of a size's first round; every round then warms up "
                "until its time has settled (default {def}; with --fixed-imb a tenth of IMB's "
                "repetitions); 0: no warm-up"),
    OPT(O_TIME_PER_SIZE, "time-per-size", 0, P2PB_OPT_SECONDS, "SEC", .min = 1e-6, .max = 86400,
        .def_text = "0.002", .def = 0.002, POLICY_FIELD(time_per_size),
        .help = "adaptive: time budget per size in seconds, all rounds together (default {def})"),
    OPT(O_CI_TARGET, "ci-target", 0, P2PB_OPT_FRACTION, "FRAC", .min = 1e-6, .max = 1.0,
        .def_text = "0.1", .def = 0.1, POLICY_FIELD(ci_target),
        .help = "adaptive: end a round when the 95% CI half-width of its median <= FRAC x median; "
                "rows whose printed interval is wider are marked n* (default {def})"),
    OPT(O_ROUNDS, "rounds", 0, P2PB_OPT_COUNT, "R", .min = 1, .max = P2PB_MAX_ROUNDS,
        .def_text = "5", .def = 5, POLICY_FIELD(rounds),
        .help = "rounds over each kernel's sizes, in a shuffled order, the buffers kept for the "
                "run; the interval then spans the rounds' spread (default {def})"),
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
        POLICY_FIELD(numa_node),
        .help = "place message buffers on NUMA node N (OS index; default: the rank's own node, "
                "first touch)"),
    OPT(O_PROGRESS, "progress", 0, P2PB_OPT_ENUM, "auto|always|never", .def_text = "auto", .def = 0,
        OPTIONS_FIELD(progress), .choices = progress_names,
        .help = "a progress line on stderr (kernel, round, size, elapsed, sizes left); auto: "
                "when rank 0's stderr is a terminal (not under mpirun: use always) and the run "
                "is past 2 s (default {def})"),
    OPT(O_BOUND, "bound", 0, P2PB_OPT_STRING, "RATE", .def_text = "from the hardware",
        .apply = apply_bound,
        .help = "the rate of one path for the bound beside each row (e.g. 100mbit, 10gbit, "
                "12.5MB/s); default: a local copy measured in the run (ranks on one host) or the "
                "link speed of the interface MPI uses (ranks on distinct hosts)"),
    OPT(O_SURVEY_SIZES, "survey-sizes", 0, P2PB_OPT_STRING, "LAT,BW", .def_text = "8,1M",
        .apply = p2pb_opt_survey_sizes,
        .help = "survey: latency and bandwidth message sizes (default {def}; also -s LAT,BW)"),
    OPT(O_SURVEY_MODE, "survey-mode", 0, P2PB_OPT_ENUM, "auto|alone|contention", .def_text = "auto",
        .def = 2, OPTIONS_FIELD(survey_mode), .choices = survey_mode_names,
        .help = "survey: one pair at a time while the others wait (alone), every pair of a round "
                "at once (contention), or auto (default): alone up to 32 surveyed ranks, "
                "contention above"),
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
    OPT(O_SURVEY_CAP, "survey-cap", 0, P2PB_OPT_SECONDS, "SEC", .min = 1e-6, .max = 3600,
        .def_text = "1", .def = 1, OPTIONS_FIELD(survey_cap),
        .help = "survey: most time per pair, metric and direction, warm-up included, in seconds: "
                "a slow link's rows end there, marked capped, and its stream samples shrink to "
                "fit (default {def})"),
    OPT(O_NO_PROBE, "no-probe", 0, P2PB_OPT_FLAG, NULL, OPTIONS_FIELD(no_probe),
        .help = "skip the placement probe at start (the cache-line latency between the CPUs of "
                "ranks 0-1, 2-3, ... that share a host, in the run record and under latency "
                "tables; about 1 ms)"),
    OPT(O_LIST, "list", 0, P2PB_OPT_FLAG, NULL, OPTIONS_FIELD(do_list),
        .help = "list kernels and exit"),
    OPT(O_INFO, "info", 0, P2PB_OPT_FLAG, NULL, OPTIONS_FIELD(do_info),
        .help = "print host context and exit"),
    OPT(O_HELP, "help", 'h', P2PB_OPT_FLAG, NULL, OPTIONS_FIELD(do_help),
        .help = "show this help and exit"),
    OPT(O_VERSION, "version", 'V', P2PB_OPT_FLAG, NULL, OPTIONS_FIELD(do_version),
        .help = "show version and exit"),
};

/* The whole table: core_table (ids = enum opt_id), then the entries each
 * registered kernel declares (struct p2pb_kernel.optdefs) in registry
 * order, an option that several kernels declare (one array they share)
 * taken once. Built on first use, the same every time; a kernel entry
 * beyond P2PB_OPT_MAX is left out (tests/bench/test_options.c checks
 * that none is). */
static const struct p2pb_optdef *full_table(size_t *n)
{
    static struct p2pb_optdef table[P2PB_OPT_MAX];
    static size_t count;
    if (!count) {
        for (size_t i = 0; i < O_CORE; i++)
            table[count++] = core_table[i];
        for (size_t k = 0; k < p2pb_nkernels; k++)
            for (size_t j = 0; j < p2pb_kernels[k]->n_optdefs; j++) {
                const struct p2pb_optdef *d = &p2pb_kernels[k]->optdefs[j];
                size_t at = O_CORE;
                while (at < count && strcmp(table[at].name, d->name) != 0)
                    at++;
                if (at == count && count < P2PB_OPT_MAX)
                    table[count++] = *d;
            }
    }
    if (n)
        *n = count;
    return table;
}

const struct p2pb_optdef *p2pb_option_table(size_t *n)
{
    return full_table(n);
}

/* ---- Defaults ---- */

void p2pb_options_engine(struct p2pb_optparser *p, struct p2pb_options *o)
{
    memset(p, 0, sizeof *p);
    p->table = full_table(&p->n);
    p->base[P2PB_DST_OPTIONS] = o;
    p->base[P2PB_DST_POLICY] = o ? &o->policy : NULL;
    p->base[P2PB_DST_KERNEL] = o ? &o->policy.ks : NULL;
}

void p2pb_policy_init(struct p2pb_policy *pol)
{
    struct p2pb_optparser p;
    p2pb_options_engine(&p, NULL);
    memset(pol, 0, sizeof *pol);
    pol->mode = P2PB_POLICY_ADAPTIVE;
    p.base[P2PB_DST_POLICY] = pol;
    p.base[P2PB_DST_KERNEL] = &pol->ks;
    p2pb_opt_defaults(&p);
}

void p2pb_default_sizes(size_t *sizes, size_t *n)
{
    char err[128];
    /* cannot fail: the table's text is valid (tests/bench/test_options.c) */
    if (p2pb_parse_msglog(core_table[O_MSGLOG].def_text, sizes, P2PB_MAX_SIZES, n, err,
                          sizeof err) != P2PB_OK)
        *n = 0;
}

void p2pb_options_init(struct p2pb_options *o)
{
    struct p2pb_optparser p;
    memset(o, 0, sizeof *o);
    o->policy.mode = P2PB_POLICY_ADAPTIVE;
    p2pb_options_engine(&p, o);
    p2pb_opt_defaults(&p);
    o->reporter = p2pb_reporter_find(core_table[O_FORMAT].def_text);
    o->output_default = 1;
}

/* ---- --help ---- */

void p2pb_options_usage(FILE *f)
{
    fprintf(f,
            "Usage: mpirun -np N p2pbench [OPTION]... [KERNEL]...\n"
            "       mpirun -np N p2pbench survey [-s LAT,BW] [SURVEY OPTION]...\n"
            "         (every pair of ranks; the --survey-* options below; docs/survey.md)\n"
            "MPI point-to-point benchmarks (PingPong, PingPing, Sendrecv, Exchange, ...)\n"
            "with per-size statistics and a JSON Lines results file.\n\nOptions:\n");
    size_t n;
    const struct p2pb_optdef *t = full_table(&n);
    for (size_t i = 0; i < O_CORE; i++)
        p2pb_opt_print_line(f, &t[i]);
    fprintf(f, "\nKernel options (each declared by the kernels that read it):\n");
    for (size_t i = O_CORE; i < n; i++)
        p2pb_opt_print_line(f, &t[i]);
    fputc('\n', f);
    p2pb_help_wrap(f,
                   "Each option may be given once (a second one is a usage error); -k adds "
                   "kernels each time.",
                   0);
    fprintf(f, "Units: message size in bytes; t in usec; MB/s with 1 MB = 10^6 bytes.\n"
               "Exit status: 0 success, 1 failure, 2 usage error.\n");
}

/* ---- Special steps (the entries' apply) ---- */

enum p2pb_status p2pb_opt_add_kernels(struct p2pb_options *o, const char *list, char *err,
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

/* --sizes, --msglog: the list into o->sizes (--sizes with --msglog:
 * check_conflicts, options_parse.c). */
static enum p2pb_status apply_sizes(struct p2pb_optparser *p, const char *arg)
{
    struct p2pb_optparse *ps = p->user;
    struct p2pb_options *o = ps->o;
    o->sizes_given = 1;
    char why[256];
    enum p2pb_status st = p2pb_parse_size_list(arg, o->sizes, P2PB_MAX_SIZES, &o->nsizes, why,
                                               sizeof why);
    return st == P2PB_OK ? st : p2pb_fail(st, ps->err, ps->errlen, "--sizes: %s", why);
}

static enum p2pb_status apply_msglog(struct p2pb_optparser *p, const char *arg)
{
    struct p2pb_optparse *ps = p->user;
    struct p2pb_options *o = ps->o;
    o->sizes_given = 1;
    return p2pb_parse_msglog(arg, o->sizes, P2PB_MAX_SIZES, &o->nsizes, ps->err, ps->errlen);
}

static enum p2pb_status apply_kernels(struct p2pb_optparser *p, const char *arg)
{
    struct p2pb_optparse *ps = p->user;
    return p2pb_opt_add_kernels(ps->o, arg, ps->err, ps->errlen);
}

/* Reporter names are matched without case; a name of 32 bytes or more is
 * unknown. */
static enum p2pb_status apply_format(struct p2pb_optparser *p, const char *arg)
{
    struct p2pb_optparse *ps = p->user;
    char lower[32];
    size_t i = 0;
    for (; arg[i] && i + 1 < sizeof lower; i++)
        lower[i] = (char)tolower((unsigned char)arg[i]);
    lower[i] = '\0';
    ps->o->reporter = arg[i] ? NULL : p2pb_reporter_find(lower);
    if (!ps->o->reporter)
        return p2pb_fail(P2PB_EUSAGE, ps->err, ps->errlen,
                         "unknown format '%s' (text, imb, csv, markdown, osu)", arg);
    return P2PB_OK;
}

static enum p2pb_status apply_output(struct p2pb_optparser *p, const char *arg)
{
    struct p2pb_optparse *ps = p->user;
    struct p2pb_options *o = ps->o;
    if (!*arg)
        return p2pb_fail(P2PB_EUSAGE, ps->err, ps->errlen, "empty results file name for --output");
    if (strlen(arg) >= sizeof o->output)
        return p2pb_fail(P2PB_ERANGE, ps->err, ps->errlen, "results file name too long");
    strcpy(o->output, arg);
    o->output_default = 0;
    return P2PB_OK;
}

static enum p2pb_status apply_no_results(struct p2pb_optparser *p, const char *arg)
{
    struct p2pb_optparse *ps = p->user;
    (void)arg;
    ps->o->output[0] = '\0';
    ps->o->output_default = 0;
    return P2PB_OK;
}

/* LAT,BW (sizes.c, p2pb_parse_size_pair). */
enum p2pb_status p2pb_opt_survey_sizes(struct p2pb_optparser *p, const char *arg)
{
    struct p2pb_optparse *ps = p->user;
    return p2pb_parse_size_pair(arg, &ps->o->survey_lat, &ps->o->survey_bw, ps->err, ps->errlen);
}

static enum p2pb_status apply_label(struct p2pb_optparser *p, const char *arg)
{
    struct p2pb_optparse *ps = p->user;
    struct p2pb_options *o = ps->o;
    char shown[48]; /* the value as the message shows it: cut, sanitised */
    snprintf(shown, sizeof shown, "%.40s", arg);
    p2pb_text_sanitize(shown);
    if (strlen(arg) >= sizeof o->label)
        return p2pb_fail(P2PB_ERANGE, ps->err, ps->errlen,
                         "label '%s...' too long (at most %zu bytes)", shown, sizeof o->label - 1);
    if (!p2pb_text_is_clean(arg))
        return p2pb_fail(P2PB_EUSAGE, ps->err, ps->errlen,
                         "invalid label '%s' (control characters or bytes that are not UTF-8)",
                         shown);
    strcpy(o->label, arg);
    return P2PB_OK;
}

/* --bound RATE: the rate of one path, MB/s (bound.h, p2pb_parse_rate). */
static enum p2pb_status apply_bound(struct p2pb_optparser *p, const char *arg)
{
    struct p2pb_optparse *ps = p->user;
    char why[160];
    if (p2pb_parse_rate(arg, &ps->o->policy.bound_mbps, why, sizeof why) != P2PB_OK)
        return p2pb_fail(P2PB_EUSAGE, ps->err, ps->errlen, "--bound: %s", why);
    return P2PB_OK;
}
