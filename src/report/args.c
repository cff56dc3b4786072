/* SPDX-License-Identifier: MIT */
/*
 * args: the options of p2pbench-report as one table. getopt_long's option
 * list and short-option string are built from it, each entry's setter stores
 * its value, and p2pb_args_print_options writes the "Options:" lines of the
 * usage text from it.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "args.h"
#include "outlier.h"
#include "roff.h"

typedef enum p2pb_status (*opt_setter)(struct p2pb_args *a, const char *value, char *err,
                                       size_t errlen);

/* One option: long name, short letter (0: none), name of its value in the
 * help (NULL: takes none), the commands that take it, its setter and help. */
struct opt {
    const char *name;
    char letter;
    const char *value;
    unsigned cmds;
    opt_setter set;
    const char *help;
};

static enum p2pb_status set_format(struct p2pb_args *a, const char *v, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    a->format = v;
    return P2PB_OK;
}

static enum p2pb_status set_metric(struct p2pb_args *a, const char *v, char *err, size_t errlen)
{
    if (strcmp(v, "latency") == 0)
        a->metric = P2PB_METRIC_LATENCY;
    else if (strcmp(v, "throughput") == 0)
        a->metric = P2PB_METRIC_THROUGHPUT;
    else
        return p2pb_fail(P2PB_EUSAGE, err, errlen,
                         "invalid --metric '%s' (latency or throughput)" P2PB_TRY_HELP, v);
    return P2PB_OK;
}

static enum p2pb_status set_vs(struct p2pb_args *a, const char *v, char *err, size_t errlen)
{
    (void)v;
    if (a->side == 1)
        return p2pb_fail(P2PB_EUSAGE, err, errlen, "--vs given twice" P2PB_TRY_HELP);
    a->side = 1;
    return P2PB_OK;
}

/* A percentage in [0.0001, 100), "%" allowed after it, stored as a fraction
 * (below 0.0001% the margin is finer than the ratios are printed). */
static enum p2pb_status set_threshold(struct p2pb_args *a, const char *v, char *err, size_t errlen)
{
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (end == v || errno || (*end && strcmp(end, "%") != 0) || !(x >= 0.0001 && x < 100.0))
        return p2pb_fail(
            P2PB_EUSAGE, err, errlen,
            "invalid --threshold '%s' (a percentage from 0.0001 to below 100)" P2PB_TRY_HELP, v);
    a->threshold = x / 100.0;
    return P2PB_OK;
}

static enum p2pb_status set_holm(struct p2pb_args *a, const char *v, char *err, size_t errlen)
{
    (void)v;
    (void)err;
    (void)errlen;
    a->holm = 1;
    return P2PB_OK;
}

/* The regression gate uses Holm: it controls the family-wise error rate. */
static enum p2pb_status set_fail(struct p2pb_args *a, const char *v, char *err, size_t errlen)
{
    a->fail = 1;
    return set_holm(a, v, err, errlen);
}

static enum p2pb_status set_allow_incomplete(struct p2pb_args *a, const char *v, char *err,
                                             size_t errlen)
{
    (void)v;
    (void)err;
    (void)errlen;
    a->allow_incomplete = 1;
    return P2PB_OK;
}

static enum p2pb_status set_output(struct p2pb_args *a, const char *v, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    a->output = v;
    return P2PB_OK;
}

static enum p2pb_status set_kernel(struct p2pb_args *a, const char *v, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    a->kernel = v;
    return P2PB_OK;
}

static enum p2pb_status set_gnuplot(struct p2pb_args *a, const char *v, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    a->gnuplot = v;
    return P2PB_OK;
}

static enum p2pb_status set_title(struct p2pb_args *a, const char *v, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    a->title = v;
    return P2PB_OK;
}

static enum p2pb_status set_force(struct p2pb_args *a, const char *v, char *err, size_t errlen)
{
    (void)v;
    (void)err;
    (void)errlen;
    a->force = 1;
    return P2PB_OK;
}

static enum p2pb_status set_heatmap(struct p2pb_args *a, const char *v, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    a->heatmap = v;
    return P2PB_OK;
}

static enum p2pb_status set_fail_on_outside(struct p2pb_args *a, const char *v, char *err,
                                            size_t errlen)
{
    (void)v;
    (void)err;
    (void)errlen;
    a->fail_on_outside = 1;
    return P2PB_OK;
}

static enum p2pb_status set_fail_on_slow(struct p2pb_args *a, const char *v, char *err,
                                         size_t errlen)
{
    (void)v;
    (void)err;
    (void)errlen;
    a->fail_on_slow = 1;
    return P2PB_OK;
}

/* A number in [lo, hi] into *out, or a usage error naming the option. */
static enum p2pb_status set_real(const char *opt, const char *v, double lo, double hi, double *out,
                                 char *err, size_t errlen)
{
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (end == v || *end || errno || !(x >= lo && x <= hi))
        return p2pb_fail(P2PB_EUSAGE, err, errlen,
                         "invalid --%s '%s' (a number from %g to %g)" P2PB_TRY_HELP, opt, v, lo,
                         hi);
    *out = x;
    return P2PB_OK;
}

static enum p2pb_status set_mad_k(struct p2pb_args *a, const char *v, char *err, size_t errlen)
{
    return set_real("mad-k", v, 0, 100, &a->mad_k, err, errlen);
}

static enum p2pb_status set_min_off(struct p2pb_args *a, const char *v, char *err, size_t errlen)
{
    return set_real("min-off", v, 0, 0.99, &a->min_off, err, errlen);
}

static enum p2pb_status set_gnuplot_timeout(struct p2pb_args *a, const char *v, char *err,
                                            size_t errlen)
{
    return set_real("gnuplot-timeout", v, 1, 86400, &a->gnuplot_timeout, err, errlen);
}

/* A size limit in MiB (an integer in 1..1048576), stored in bytes. */
static enum p2pb_status set_max_file_size(struct p2pb_args *a, const char *v, char *err,
                                          size_t errlen)
{
    char *end;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 10);
    if (end == v || *end || errno || v[0] == '-' || x < 1 || x > 1048576)
        return p2pb_fail(
            P2PB_EUSAGE, err, errlen,
            "invalid --max-file-size '%s' (MiB, an integer in 1..1048576)" P2PB_TRY_HELP, v);
    a->max_file_bytes = (size_t)x << 20;
    return P2PB_OK;
}

static enum p2pb_status set_help(struct p2pb_args *a, const char *v, char *err, size_t errlen)
{
    (void)v;
    (void)err;
    (void)errlen;
    a->action = P2PB_ARGS_HELP;
    return P2PB_OK;
}

static enum p2pb_status set_version(struct p2pb_args *a, const char *v, char *err, size_t errlen)
{
    (void)v;
    (void)err;
    (void)errlen;
    a->action = P2PB_ARGS_VERSION;
    return P2PB_OK;
}

#define CMD_SC (P2PB_CMD_SHOW | P2PB_CMD_COMPARE | P2PB_CMD_SURVEY)
#define CMD_CP (P2PB_CMD_COMPARE | P2PB_CMD_PLOT | P2PB_CMD_HTML)
#define CMD_IP (P2PB_CMD_IMPORT | P2PB_CMD_PLOT | P2PB_CMD_HTML | P2PB_CMD_BASELINE)
#define CMD_CH (P2PB_CMD_COMPARE | P2PB_CMD_HTML)

/*
 * The options, in the order of the usage text. cmds lists the commands that
 * take an option; each command rejects the others with its own message
 * (p2pb_args_only). -t is taken, and ignored, by show, import and plot as
 * well, as it always was.
 */
static const struct opt opts[] = {
    {"format", 'f', "FMT", CMD_SC, set_format, "output format (see above; default text)"},
    {"metric", 'm', "M", P2PB_CMD_SHOW | P2PB_CMD_SURVEY, set_metric,
     "show: latency (t_median, usec) or throughput (MB/s); survey: judge only that"},
    {"vs", 0, NULL, CMD_CP, set_vs, "compare/plot/html: the files after it form side B"},
    {"threshold", 't', "PCT", P2PB_CMD_ALL, set_threshold,
     "compare/html: equivalence margin d in percent (default 5); baseline: least envelope"},
    {"holm", 0, NULL, CMD_CH, set_holm,
     "compare/html: Holm adjustment instead of Benjamini-Hochberg"},
    {"fail-on-regression", 0, NULL, P2PB_CMD_COMPARE, set_fail,
     "compare: exit 1 on a row changed for the worse (Holm) or an incomplete file"},
    {"allow-incomplete", 0, NULL, P2PB_CMD_COMPARE, set_allow_incomplete,
     "compare: the gate passes incomplete files (still flagged)"},
    {"output", 'o', "PATH", CMD_IP, set_output,
     "import: output directory; plot: image; html: the page; baseline build: the file"},
    {"force", 0, NULL, P2PB_CMD_IMPORT, set_force,
     "import: replace results files that exist (default: refuse)"},
    {"kernel", 'k', "NAME", P2PB_CMD_PLOT, set_kernel,
     "plot: kernel to draw (default: the first in the first file)"},
    {"gnuplot", 0, "PATH", P2PB_CMD_PLOT | P2PB_CMD_SURVEY, set_gnuplot,
     "plot, survey: gnuplot executable (default gnuplot, from PATH)"},
    {"gnuplot-timeout", 0, "SEC", P2PB_CMD_PLOT | P2PB_CMD_SURVEY, set_gnuplot_timeout,
     "plot, survey: stop a gnuplot that has not finished after SEC seconds (default 60)"},
    {"max-file-size", 0, "MIB", P2PB_CMD_ALL, set_max_file_size,
     "refuse a results file or log larger than MIB MiB (default 256)"},
    {"heatmap", 0, "FILE", P2PB_CMD_SURVEY, set_heatmap,
     "survey: latency and bandwidth heatmaps (.png or .svg) via gnuplot"},
    {"fail-on-slow", 0, NULL, P2PB_CMD_SURVEY, set_fail_on_slow,
     "survey: exit 1 when a slow node or slow link is found"},
    {"fail-on-outside", 0, NULL, P2PB_CMD_BASELINE, set_fail_on_outside,
     "baseline check: exit 1 when a run is outside its class's baseline"},
    {"mad-k", 0, "K", P2PB_CMD_SURVEY | P2PB_CMD_HTML, set_mad_k,
     "survey, html: slow = more than K scaled MADs off the median (default 3)"},
    {"min-off", 0, "FRAC", P2PB_CMD_SURVEY | P2PB_CMD_HTML, set_min_off,
     "survey, html: ... and at least FRAC of the median off (default 0.2)"},
    {"title", 0, "TEXT", P2PB_CMD_HTML, set_title, "html: page title (default: p2pbench: A vs B)"},
    {"help", 'h', NULL, P2PB_CMD_ALL, set_help, "show this help and exit"},
    {"version", 'V', NULL, P2PB_CMD_ALL, set_version, "show version and exit"},
};

enum { NOPTS = sizeof opts / sizeof opts[0], LONG_ONLY = 256 };

/* getopt_long's view of the table: long options (option i returns its
 * letter, or LONG_ONLY + i), and the short-option string. "-" hands files
 * over in order (as option 1), ":" reports a missing value as ':'. */
static void getopt_tables(struct option longs[NOPTS + 1], char shorts[2 * NOPTS + 3])
{
    size_t k = 0;
    shorts[k++] = '-';
    shorts[k++] = ':';
    for (size_t i = 0; i < NOPTS; i++) {
        longs[i] = (struct option){opts[i].name, opts[i].value ? required_argument : no_argument,
                                   NULL, opts[i].letter ? opts[i].letter : LONG_ONLY + (int)i};
        if (opts[i].letter) {
            shorts[k++] = opts[i].letter;
            if (opts[i].value)
                shorts[k++] = ':';
        }
    }
    longs[NOPTS] = (struct option){NULL, 0, NULL, 0};
    shorts[k] = '\0';
}

/* Table index of what getopt_long returned, or -1. */
static int opt_index(int c)
{
    if (c >= LONG_ONLY)
        return c - LONG_ONLY < NOPTS ? c - LONG_ONLY : -1;
    for (int i = 0; i < NOPTS; i++)
        if (opts[i].letter && opts[i].letter == c)
            return i;
    return -1;
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

/* Act on one result c of getopt_long. */
static enum p2pb_status take(int c, char **argv, struct p2pb_args *a, char *err, size_t errlen)
{
    if (c == 1)
        return add_path(a, optarg, err, errlen);
    if (c == ':')
        return p2pb_fail(P2PB_EUSAGE, err, errlen, "option '%s' needs a value" P2PB_TRY_HELP,
                         argv[optind - 1]);
    int i = opt_index(c);
    if (i < 0)
        return p2pb_fail(P2PB_EUSAGE, err, errlen, "unknown option '%s'" P2PB_TRY_HELP,
                         argv[optind - 1]);
    /* one rule with p2pbench's: an option is taken once, a second value
     * never silently replaces the first (--vs says it in its own words) */
    if ((a->given & (1u << i)) && opts[i].set != set_vs)
        return p2pb_fail(P2PB_EUSAGE, err, errlen, "--%s given twice: give it once" P2PB_TRY_HELP,
                         opts[i].name);
    a->given |= 1u << i;
    return opts[i].set(a, optarg, err, errlen);
}

void p2pb_args_init(struct p2pb_args *a, int expand_dirs)
{
    memset(a, 0, sizeof *a);
    a->metric = -1;
    a->threshold = 0.05;
    a->mad_k = P2PB_OUTLIER_K;
    a->min_off = P2PB_OUTLIER_MIN_OFF;
    a->max_file_bytes = (size_t)256 << 20; /* --max-file-size 256 */
    a->gnuplot_timeout = 60;               /* --gnuplot-timeout 60 */
    a->expand_dirs = expand_dirs;
}

enum p2pb_status p2pb_args_parse(int argc, char **argv, struct p2pb_args *a, char *err,
                                 size_t errlen)
{
    struct option longs[NOPTS + 1];
    char shorts[2 * NOPTS + 3];
    getopt_tables(longs, shorts);
    optind = 1;
    opterr = 0;
    int c;
    while (a->action == P2PB_ARGS_RUN && (c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
        enum p2pb_status st = take(c, argv, a, err, errlen);
        if (st != P2PB_OK)
            return st;
    }
    if (a->action == P2PB_ARGS_RUN && a->side == 1 && a->nfiles[1] == 0)
        return p2pb_fail(P2PB_EUSAGE, err, errlen,
                         "--vs needs at least one file after it" P2PB_TRY_HELP);
    return P2PB_OK;
}

enum p2pb_status p2pb_args_only(const struct p2pb_args *a, unsigned cmd, const char *msg, char *err,
                                size_t errlen)
{
    static const char *const names[] = {"show", "compare", "import", "plot"}; /* P2PB_CMD_* bits */
    const char *cname = "this command";
    for (size_t b = 0; b < sizeof names / sizeof names[0]; b++)
        if (cmd == 1u << b)
            cname = names[b];
    for (int i = 0; i < NOPTS; i++) {
        if (!(a->given & (1u << i)) || (opts[i].cmds & cmd))
            continue;
        char shrt[8] = "";
        if (opts[i].letter)
            snprintf(shrt, sizeof shrt, "-%c/", opts[i].letter);
        return p2pb_fail(P2PB_EUSAGE, err, errlen,
                         "%s--%s is not an option of %s; %s" P2PB_TRY_HELP, shrt, opts[i].name,
                         cname, msg);
    }
    return P2PB_OK;
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

void p2pb_args_print_options(FILE *o)
{
    for (size_t i = 0; i < NOPTS; i++) {
        char name[48];
        snprintf(name, sizeof name, "--%s%s%s", opts[i].name, opts[i].value ? " " : "",
                 opts[i].value ? opts[i].value : "");
        if (opts[i].letter)
            fprintf(o, "  -%c, %-20s  %s\n", opts[i].letter, name, opts[i].help);
        else
            fprintf(o, "      %-20s  %s\n", name, opts[i].help);
    }
}

void p2pb_args_print_man(FILE *o)
{
    for (size_t i = 0; i < NOPTS; i++)
        p2pb_roff_option(o, opts[i].letter, opts[i].name, opts[i].value, opts[i].help);
}
