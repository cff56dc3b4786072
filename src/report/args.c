/* SPDX-License-Identifier: MIT */
/*
 * args: the options of p2pbench-report as one table of the option engine
 * (src/common/optengine.h): it converts, checks and stores each value, and
 * writes the "Options:" lines of the usage text and the man page from it.
 * Each command lists the options it takes (struct p2pb_report_cmd).
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "args.h"
#include "outlier.h"
#include "text.h"

/* The struct an entry's field is in: the engine's base 1. */
#define ARG(m) P2PB_OPT_FIELD(1, struct p2pb_args, m)
#define STRUCT_ARGS(p) ((struct p2pb_args *)(p)->base[1])

/* --vs: the files after it form side B (its own words when given twice). */
static enum p2pb_status set_vs(struct p2pb_optparser *p, const char *v)
{
    (void)v;
    struct p2pb_args *a = STRUCT_ARGS(p);
    if (a->side == 1)
        return p2pb_fail(P2PB_EUSAGE, p->err, p->errlen, "--vs given twice");
    a->side = 1;
    return P2PB_OK;
}

/* A percentage in [0.0001, 100), "%" allowed after it, stored as a fraction
 * (below 0.0001% the margin is finer than the ratios are printed). */
static enum p2pb_status set_threshold(struct p2pb_optparser *p, const char *v)
{
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    char shown[72];
    if (end != v && (!*end || strcmp(end, "%") == 0) && (x > 0 || (errno == ERANGE && x == 0)) &&
        x < 0.0001)
        return p2pb_fail(P2PB_EUSAGE, p->err, p->errlen,
                         "invalid value '%s' for --threshold: too small (a percentage from "
                         "0.0001 to below 100)",
                         p2pb_text_shown(shown, sizeof shown, v, 60));
    if (end == v || errno || (*end && strcmp(end, "%") != 0) || !(x >= 0.0001 && x < 100.0))
        return p2pb_fail(P2PB_EUSAGE, p->err, p->errlen,
                         "invalid value '%s' for --threshold (a percentage from 0.0001 to below "
                         "100)",
                         p2pb_text_shown(shown, sizeof shown, v, 60));
    STRUCT_ARGS(p)->threshold = x / 100.0;
    return P2PB_OK;
}

/* The regression gate uses Holm: it controls the family-wise error rate. */
static enum p2pb_status set_fail(struct p2pb_optparser *p, const char *v)
{
    (void)v;
    STRUCT_ARGS(p)->fail = 1;
    STRUCT_ARGS(p)->holm = 1;
    return P2PB_OK;
}

/* A size limit in MiB (an integer in the entry's range), stored in bytes. */
static enum p2pb_status set_max_file_size(struct p2pb_optparser *p, const char *v)
{
    size_t mib;
    enum p2pb_status st =
        p2pb_opt_count(&p2pb_report_options[RO_MAX_FILE_SIZE], v, &mib, p->err, p->errlen);
    if (st == P2PB_OK)
        STRUCT_ARGS(p)->max_file_bytes = mib << 20;
    return st;
}

static enum p2pb_status set_help(struct p2pb_optparser *p, const char *v)
{
    (void)v;
    STRUCT_ARGS(p)->action = P2PB_ARGS_HELP;
    return P2PB_OK;
}

static enum p2pb_status set_version(struct p2pb_optparser *p, const char *v)
{
    (void)v;
    STRUCT_ARGS(p)->action = P2PB_ARGS_VERSION;
    return P2PB_OK;
}

static const char *const metric_names[] = {"latency", "throughput", NULL}; /* enum p2pb_metric */

#define OPT P2PB_OPT

/*
 * Every option of p2pbench-report, in the order of the usage text. Which
 * commands take one is the command's own list (struct p2pb_report_cmd,
 * cmd_*.c); --help, --version and --max-file-size every command takes.
 */
const struct p2pb_optdef p2pb_report_options[RO_COUNT] = {
    OPT(RO_FORMAT, "format", 'f', P2PB_OPT_STRING, "FMT", ARG(format),
        .help = "output format (see above; default text)"),
    OPT(RO_METRIC, "metric", 'm', P2PB_OPT_ENUM, "M", ARG(metric), .def = -1,
        .choices = metric_names,
        .help = "show: latency (t_median, usec) or throughput (MB/s); survey: judge only that"),
    OPT(RO_VS, "vs", 0, P2PB_OPT_FLAG, NULL, .apply = set_vs, .many = 1,
        .help = "compare/plot/html: the files after it form side B"),
    OPT(RO_THRESHOLD, "threshold", 't', P2PB_OPT_FRACTION, "PCT", ARG(threshold), .def_text = "5",
        .def = 0.05, .apply = set_threshold,
        .help = "compare/html: equivalence margin d in percent (default {def}); baseline: least "
                "envelope"),
    OPT(RO_HOLM, "holm", 0, P2PB_OPT_FLAG, NULL, ARG(holm),
        .help = "compare/html: Holm adjustment instead of Benjamini-Hochberg"),
    OPT(RO_FAIL, "fail-on-regression", 0, P2PB_OPT_FLAG, NULL, .apply = set_fail,
        .help = "compare: exit 1 on a row changed for the worse (Holm) or an incomplete file"),
    OPT(RO_ALLOW_INCOMPLETE, "allow-incomplete", 0, P2PB_OPT_FLAG, NULL, ARG(allow_incomplete),
        .help = "compare: the gate passes incomplete files (still flagged)"),
    OPT(RO_OUTPUT, "output", 'o', P2PB_OPT_STRING, "PATH", ARG(output),
        .help = "import: output directory; plot: image; html: the page; baseline build: the file"),
    OPT(RO_FORCE, "force", 0, P2PB_OPT_FLAG, NULL, ARG(force),
        .help = "import: replace results files that exist (default: refuse)"),
    OPT(RO_KERNEL, "kernel", 'k', P2PB_OPT_STRING, "NAME", ARG(kernel),
        .help = "plot: kernel to draw (default: the first in the first file)"),
    OPT(RO_GNUPLOT, "gnuplot", 0, P2PB_OPT_STRING, "PATH", ARG(gnuplot),
        .help = "plot, survey: gnuplot executable (default gnuplot, from PATH)"),
    OPT(RO_GNUPLOT_TIMEOUT, "gnuplot-timeout", 0, P2PB_OPT_SECONDS, "SEC", .min = 1, .max = 86400,
        .def_text = "60", .def = 60, ARG(gnuplot_timeout),
        .help = "plot, survey: stop a gnuplot that has not finished after SEC seconds (default "
                "{def})"),
    /* stored in bytes: def is def_text MiB */
    OPT(RO_MAX_FILE_SIZE, "max-file-size", 0, P2PB_OPT_COUNT, "MIB", .min = 1, .max = 1048576,
        .def_text = "256", .def = 256.0 * 1048576, ARG(max_file_bytes), .apply = set_max_file_size,
        .help = "refuse a results file or log larger than MIB MiB (default {def})"),
    OPT(RO_HEATMAP, "heatmap", 0, P2PB_OPT_STRING, "FILE", ARG(heatmap),
        .help = "survey: latency and bandwidth heatmaps (.png or .svg) via gnuplot"),
    OPT(RO_FAIL_ON_SLOW, "fail-on-slow", 0, P2PB_OPT_FLAG, NULL, ARG(fail_on_slow),
        .help = "survey: exit 1 when a slow node or slow link is found"),
    OPT(RO_FAIL_ON_OUTSIDE, "fail-on-outside", 0, P2PB_OPT_FLAG, NULL, ARG(fail_on_outside),
        .help = "baseline check: exit 1 when a run is outside its class's baseline"),
    OPT(RO_MAD_K, "mad-k", 0, P2PB_OPT_FRACTION, "K", .min = 0, .max = 100, .def_text = "3",
        .def = P2PB_OUTLIER_K, ARG(mad_k),
        .help = "survey, html: slow = more than K scaled MADs off the median (default {def})"),
    OPT(RO_MIN_OFF, "min-off", 0, P2PB_OPT_FRACTION, "FRAC", .min = 0, .max = 0.99,
        .def_text = "0.2", .def = P2PB_OUTLIER_MIN_OFF, ARG(min_off),
        .help = "survey, html: ... and at least FRAC of the median off (default {def})"),
    OPT(RO_TITLE, "title", 0, P2PB_OPT_STRING, "TEXT", ARG(title),
        .help = "html: page title (default: p2pbench: A vs B)"),
    OPT(RO_HELP, "help", 'h', P2PB_OPT_FLAG, NULL, .apply = set_help, .stop = 1,
        .help = "show this help and exit"),
    OPT(RO_VERSION, "version", 'V', P2PB_OPT_FLAG, NULL, .apply = set_version, .stop = 1,
        .help = "show version and exit"),
};

/* Options every command takes besides its own list. */
static int common_option(size_t id)
{
    return id == RO_HELP || id == RO_VERSION || id == RO_MAX_FILE_SIZE;
}

static enum p2pb_status push_file(struct p2pb_args *a, const char *path)
{
    int s = a->side;
    char **n = realloc(a->files[s], (a->nfiles[s] + 1) * sizeof *n);
    if (!n)
        return P2PB_ENOMEM;
    a->files[s] = n;
    n[a->nfiles[s]] = strdup(path);
    if (!n[a->nfiles[s]])
        return P2PB_ENOMEM;
    a->nfiles[s]++;
    return P2PB_OK;
}

static int cmp_str(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

/* Add path to the current side, or, with expand_dirs, the *.jsonl files of a
 * directory in name order. Returns P2PB_OK, P2PB_ENOMEM, or P2PB_EIO for a
 * directory without such files ("DIR: no .jsonl results files"). */
static enum p2pb_status add_path(struct p2pb_args *a, const char *path, char *err, size_t errlen)
{
    struct stat sb;
    DIR *d = NULL;
    if (a->expand_dirs && stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
        d = opendir(path); /* NULL: the path is reported when read */
    if (!d)
        return push_file(a, path) == P2PB_OK ? P2PB_OK
                                             : p2pb_fail(P2PB_ENOMEM, err, errlen, "out of memory");
    size_t first = a->nfiles[a->side];
    struct dirent *e;
    enum p2pb_status st = P2PB_OK;
    int dl = (int)strlen(path); /* "dir/" and "dir" name the same files: no "dir//x" */
    while (dl > 1 && path[dl - 1] == '/')
        dl--;
    while (st == P2PB_OK && (e = readdir(d)) != NULL) {
        size_t l = strlen(e->d_name);
        if (l > 6 && strcmp(e->d_name + l - 6, ".jsonl") == 0) {
            char full[4096];
            int w = snprintf(full, sizeof full, "%.*s%s%s", dl, path,
                             path[dl - 1] == '/' ? "" : "/", e->d_name);
            if (w < 0 || (size_t)w >= sizeof full) {
                closedir(d);
                return p2pb_fail(P2PB_EUSAGE, err, errlen, "%s: a file name in it is too long",
                                 path);
            }
            st = push_file(a, full);
        }
    }
    closedir(d);
    if (st != P2PB_OK)
        return p2pb_fail(st, err, errlen, "out of memory");
    if (a->nfiles[a->side] == first)
        return p2pb_fail(P2PB_EIO, err, errlen, "%s: no .jsonl results files", path);
    qsort(a->files[a->side] + first, a->nfiles[a->side] - first, sizeof(char *), cmp_str);
    return P2PB_OK;
}

/* The engine's operand step: a file (or a directory's files) of the
 * current side. */
static enum p2pb_status take_path(struct p2pb_optparser *p, const char *path)
{
    return add_path(STRUCT_ARGS(p), path, p->err, p->errlen);
}

/* Is option id one the command takes? Else "-k/--kernel is not an option of
 * compare; compare takes -f/--format, ..." */
static enum p2pb_status cmd_takes(struct p2pb_optparser *p, size_t id)
{
    const struct p2pb_report_cmd *c = p->user;
    if (common_option(id))
        return P2PB_OK;
    for (size_t i = 0; i < c->noptions; i++)
        if (c->options[i] == id)
            return P2PB_OK;
    char name[48], list[512] = "";
    size_t len = 0;
    for (size_t i = 0; i < c->noptions && len < sizeof list; i++)
        len += (size_t)snprintf(
            list + len, sizeof list - len, "%s%s", i ? ", " : "",
            p2pb_opt_names(&p2pb_report_options[c->options[i]], name, sizeof name));
    if (len >= sizeof list)
        len = sizeof list - 1;
    return p2pb_fail(P2PB_EUSAGE, p->err, p->errlen, "%s is not an option of %s; %s takes %s",
                     p2pb_opt_names(&p2pb_report_options[id], name, sizeof name), c->name, c->name,
                     c->noptions ? list : "no option but --max-file-size");
}

void p2pb_args_init(struct p2pb_args *a, int expand_dirs)
{
    struct p2pb_optparser p = {.table = p2pb_report_options, .n = RO_COUNT, .base = {NULL, a}};
    memset(a, 0, sizeof *a);
    p2pb_opt_defaults(&p);
    a->expand_dirs = expand_dirs;
}

/* A usage error's message ends with P2PB_TRY_HELP (once). */
static enum p2pb_status with_try_help(enum p2pb_status st, char *err, size_t errlen)
{
    size_t len = strlen(err), tl = strlen(P2PB_TRY_HELP);
    if (st != P2PB_EUSAGE || (len >= tl && strcmp(err + len - tl, P2PB_TRY_HELP) == 0))
        return st;
    snprintf(err + len, errlen > len ? errlen - len : 0, "%s", P2PB_TRY_HELP);
    return st;
}

enum p2pb_status p2pb_args_parse(int argc, char **argv, const struct p2pb_report_cmd *cmd,
                                 struct p2pb_args *a, char *err, size_t errlen)
{
    struct p2pb_optparser p = {.table = p2pb_report_options,
                               .n = RO_COUNT,
                               .base = {NULL, a},
                               .user = (void *)cmd,
                               .on_operand = take_path,
                               .accepts = cmd_takes,
                               .err = err,
                               .errlen = errlen};
    enum p2pb_status st = p2pb_opt_parse(&p, argc, argv);
    /* after "--" every word is a file (getopt stops there) */
    for (int i = p.next; st == P2PB_OK && !p.stopped && i < argc; i++)
        st = take_path(&p, argv[i]);
    if (st == P2PB_ERANGE) /* a value out of its range: a usage error here (exit 2) */
        st = P2PB_EUSAGE;
    if (st == P2PB_OK && a->action == P2PB_ARGS_RUN && a->side == 1 && a->nfiles[1] == 0)
        st = p2pb_fail(P2PB_EUSAGE, err, errlen, "--vs needs at least one file after it");
    return with_try_help(st, err, errlen);
}

enum p2pb_status p2pb_args_format(const struct p2pb_args *a, const struct p2pb_fmt_name *names,
                                  size_t n, enum p2pb_outfmt *out, char *err, size_t errlen)
{
    *out = P2PB_OUT_TEXT;
    if (!a->format)
        return P2PB_OK;
    char list[128] = "";
    size_t len = 0;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(a->format, names[i].name) == 0) {
            *out = names[i].fmt;
            return P2PB_OK;
        }
        len +=
            (size_t)snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "", names[i].name);
        if (len >= sizeof list)
            len = sizeof list - 1;
    }
    return p2pb_fail(P2PB_EUSAGE, err, errlen, "invalid --format '%s' (%s)" P2PB_TRY_HELP,
                     a->format, list);
}

void p2pb_args_free(struct p2pb_args *a)
{
    for (int s = 0; s < 2; s++) {
        for (size_t i = 0; i < a->nfiles[s]; i++)
            free(a->files[s][i]);
        free(a->files[s]);
        a->files[s] = NULL;
        a->nfiles[s] = 0;
    }
}

/* Path i of the files of both sides, side A first. */
static const char *path_at(const struct p2pb_args *a, size_t i)
{
    return i < a->nfiles[0] ? a->files[0][i] : a->files[1][i - a->nfiles[0]];
}

enum p2pb_status p2pb_args_distinct_files(const struct p2pb_args *a, char *err, size_t errlen)
{
    size_t n = a->nfiles[0] + a->nfiles[1];
    struct stat *st = calloc(n ? n : 1, sizeof *st);
    if (!st)
        return P2PB_OK;
    enum p2pb_status rc = P2PB_OK;
    for (size_t i = 0; i < n && rc == P2PB_OK; i++) {
        if (stat(path_at(a, i), &st[i]) != 0)
            continue; /* p2pb_side_load reports it */
        for (size_t j = 0; j < i; j++)
            if (st[j].st_ino == st[i].st_ino && st[j].st_dev == st[i].st_dev && st[i].st_ino) {
                rc = p2pb_fail(P2PB_EUSAGE, err, errlen,
                               "'%s' is the same file as '%s': each launch may be "
                               "given once" P2PB_TRY_HELP,
                               path_at(a, i), path_at(a, j));
                break;
            }
    }
    free(st);
    return rc;
}

void p2pb_args_print_options(FILE *o, const struct p2pb_report_cmd *cmd)
{
    for (size_t i = 0; i < RO_COUNT; i++) {
        int taken = !cmd || common_option(i);
        for (size_t k = 0; cmd && k < cmd->noptions; k++)
            taken |= cmd->options[k] == i;
        if (taken)
            p2pb_opt_print_line(o, &p2pb_report_options[i]);
    }
}

void p2pb_args_print_man(FILE *o)
{
    for (size_t i = 0; i < RO_COUNT; i++)
        p2pb_opt_print_man(o, &p2pb_report_options[i]);
}
