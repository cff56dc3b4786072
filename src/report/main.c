/* SPDX-License-Identifier: MIT */
/*
 * p2pbench-report: show, compare, import, plot. No MPI.
 * Exit status: 0 success, 1 failure (and compare --fail-on-regression found a
 * regression), 2 usage error.
 */
#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "output/output.h"
#include "version.h"
#include "report.h"

static const char usage_text[] =
    "Usage: p2pbench-report COMMAND [OPTION]... FILE...\n"
    "Reads p2pbench results files (JSON Lines) and IMB/PMB/OSU text logs. No MPI.\n"
    "\n"
    "Commands:\n"
    "  show RUN.jsonl... [-f text|imb|csv|markdown|json] [-m latency|throughput]\n"
    "        print the tables of results files without rerunning; with --metric, one\n"
    "        column per file side by side\n"
    "  compare A... --vs B... [-f text|markdown|csv|json] [-t PCT] [--holm]\n"
    "          [--fail-on-regression]\n"
    "        compare two groups of launches (one results file per launch; a directory\n"
    "        stands for its *.jsonl files): medians, Hodges-Lehmann ratio B/A with 95% CI,\n"
    "        exact Mann-Whitney p, adjusted p, verdict per row, host-context differences\n"
    "  import LOG... [-o DIR]\n"
    "        convert IMB/PMB/OSU text logs into results files in DIR (default .)\n"
    "  plot RUN... [--vs RUN...] -o FILE.png|FILE.svg [-k KERNEL] [--gnuplot PATH]\n"
    "        latency and throughput against size (log-log) via gnuplot; one line per\n"
    "        label (or per side with --vs), the CI or launch range as a band\n"
    "\n"
    "Options:\n"
    "  -f, --format FMT          output format (see above; default text)\n"
    "  -m, --metric M            show: latency (t_median, usec) or throughput (MB/s)\n"
    "      --vs                  compare/plot: the files after it form side B\n"
    "  -t, --threshold PCT       compare: equivalence margin d in percent (default 5)\n"
    "      --holm                compare: Holm adjustment instead of Benjamini-Hochberg\n"
    "      --fail-on-regression  compare: exit 1 if any row changed for the worse (uses Holm)\n"
    "  -o, --output PATH         import: output directory; plot: image file\n"
    "  -k, --kernel NAME         plot: kernel to draw (default: the first in the first file)\n"
    "      --gnuplot PATH        plot: gnuplot executable (default gnuplot, from PATH)\n"
    "  -h, --help                show this help and exit\n"
    "  -V, --version             show version and exit\n"
    "\n"
    "Units: bytes; usec; MB/s with 1 MB = 10^6 bytes.\n"
    "Exit status: 0 success, 1 failure or regression found, 2 usage error.\n";

enum { OPT_VS = 256, OPT_HOLM, OPT_FAIL, OPT_GNUPLOT };

static const struct option long_opts[] = {
    {"format", required_argument, NULL, 'f'}, {"metric", required_argument, NULL, 'm'},
    {"vs", no_argument, NULL, OPT_VS},        {"threshold", required_argument, NULL, 't'},
    {"holm", no_argument, NULL, OPT_HOLM},    {"fail-on-regression", no_argument, NULL, OPT_FAIL},
    {"output", required_argument, NULL, 'o'}, {"gnuplot", required_argument, NULL, OPT_GNUPLOT},
    {"kernel", required_argument, NULL, 'k'}, {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},      {NULL, 0, NULL, 0},
};

struct args {
    const char *format;
    int metric; /* -1 none */
    double threshold;
    int holm, fail;
    const char *output;
    const char *gnuplot;
    const char *kernel;
    char **files[2];
    size_t nfiles[2];
};

static int usage_error(const char *fmt, const char *what)
{
    fprintf(stderr, "p2pbench-report: ");
    fprintf(stderr, fmt, what);
    fprintf(stderr, "\nTry 'p2pbench-report --help'.\n");
    return 2;
}

static int push_file(struct args *a, int side, const char *path)
{
    char **n = realloc(a->files[side], (a->nfiles[side] + 1) * sizeof *n);
    if (!n)
        return -1;
    a->files[side] = n;
    n[a->nfiles[side]] = strdup(path);
    if (!n[a->nfiles[side]])
        return -1;
    a->nfiles[side]++;
    return 0;
}

static int cmp_str(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

/* Add path, or the *.jsonl files of a directory in name order. */
static int add_path(struct args *a, int side, const char *path, int expand_dirs)
{
    struct stat sb;
    if (!expand_dirs || stat(path, &sb) != 0 || !S_ISDIR(sb.st_mode))
        return push_file(a, side, path);
    DIR *d = opendir(path);
    if (!d)
        return push_file(a, side, path); /* reported when read */
    size_t first = a->nfiles[side];
    struct dirent *e;
    int rc = 0;
    while (!rc && (e = readdir(d)) != NULL) {
        size_t l = strlen(e->d_name);
        if (l > 6 && strcmp(e->d_name + l - 6, ".jsonl") == 0) {
            char full[4096];
            snprintf(full, sizeof full, "%s/%s", path, e->d_name);
            rc = push_file(a, side, full);
        }
    }
    closedir(d);
    if (!rc)
        qsort(a->files[side] + first, a->nfiles[side] - first, sizeof(char *), cmp_str);
    return rc;
}

static void free_args(struct args *a)
{
    for (int s = 0; s < 2; s++) {
        for (size_t i = 0; i < a->nfiles[s]; i++)
            free(a->files[s][i]);
        free(a->files[s]);
    }
}

static int parse_threshold(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || errno || (*end && strcmp(end, "%") != 0) || !(v > 0.0 && v < 100.0))
        return -1;
    *out = v / 100.0;
    return 0;
}

/* Parse options and file arguments; returns 0 or an exit code. */
static int parse(int argc, char **argv, struct args *a, int expand_dirs)
{
    int side = 0;
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, "-:f:m:t:o:k:hV", long_opts, NULL)) != -1) {
        switch (c) {
        case 1:
            if (add_path(a, side, optarg, expand_dirs)) {
                fprintf(stderr, "p2pbench-report: out of memory\n");
                return 1;
            }
            break;
        case 'f': a->format = optarg; break;
        case 'm':
            if (strcmp(optarg, "latency") == 0)
                a->metric = P2PB_METRIC_LATENCY;
            else if (strcmp(optarg, "throughput") == 0)
                a->metric = P2PB_METRIC_THROUGHPUT;
            else
                return usage_error("invalid --metric '%s' (latency or throughput)", optarg);
            break;
        case 't':
            if (parse_threshold(optarg, &a->threshold))
                return usage_error("invalid --threshold '%s' (a percentage in (0, 100))", optarg);
            break;
        case OPT_VS:
            if (side == 1)
                return usage_error("%s given twice", "--vs");
            side = 1;
            break;
        case OPT_HOLM: a->holm = 1; break;
        case OPT_FAIL:
            a->fail = 1;
            a->holm = 1;
            break;
        case 'o': a->output = optarg; break;
        case OPT_GNUPLOT: a->gnuplot = optarg; break;
        case 'k': a->kernel = optarg; break;
        case 'h': fputs(usage_text, stdout); return -1;
        case 'V': printf("p2pbench-report %s (%s)\n", P2PB_VERSION, P2PB_GIT_COMMIT); return -1;
        case ':': return usage_error("option '%s' needs a value", argv[optind - 1]);
        default: return usage_error("unknown option '%s'", argv[optind - 1]);
        }
    }
    if (side == 1 && a->nfiles[1] == 0)
        return usage_error("%s needs at least one file after it", "--vs");
    return 0;
}

static int parse_format(const char *s, int allow_imb, enum p2pb_outfmt *out)
{
    static const struct {
        const char *name;
        enum p2pb_outfmt f;
    } fmts[] = {{"text", P2PB_OUT_TEXT},
                {"markdown", P2PB_OUT_MARKDOWN},
                {"csv", P2PB_OUT_CSV},
                {"json", P2PB_OUT_JSON},
                {"imb", P2PB_OUT_IMB}};
    if (!s) {
        *out = P2PB_OUT_TEXT;
        return 0;
    }
    for (size_t i = 0; i < sizeof fmts / sizeof fmts[0]; i++)
        if (strcmp(s, fmts[i].name) == 0 && (allow_imb || fmts[i].f != P2PB_OUT_IMB)) {
            *out = fmts[i].f;
            return 0;
        }
    return -1;
}

/* Load files into a side. Returns 0 or an exit code (message printed). */
static int load_side(char **paths, size_t n, struct p2pb_side *s, const char *fallback)
{
    memset(s, 0, sizeof *s);
    s->files = calloc(n ? n : 1, sizeof *s->files);
    if (!s->files) {
        fprintf(stderr, "p2pbench-report: out of memory\n");
        return 1;
    }
    for (size_t i = 0; i < n; i++) {
        char err[1024];
        enum p2pb_status st = p2pb_load_results(paths[i], &s->files[i], stderr, err, sizeof err);
        if (st != P2PB_OK) {
            fprintf(stderr, "p2pbench-report: %s\n", err);
            return p2pb_status_exit_code(st) == 2 ? 1 : p2pb_status_exit_code(st);
        }
        s->nfiles++;
    }
    p2pb_side_name(s, fallback);
    return 0;
}

static void free_side(struct p2pb_side *s)
{
    for (size_t i = 0; i < s->nfiles; i++)
        p2pb_results_data_free(&s->files[i]);
    free(s->files);
    memset(s, 0, sizeof *s);
}

/* ---- show ---- */

static void show_json(const struct p2pb_side *s)
{
    cJSON *root = cJSON_CreateArray();
    if (!root)
        return;
    for (size_t f = 0; f < s->nfiles; f++) {
        const struct p2pb_results_data *d = &s->files[f];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "path", d->path);
        cJSON_AddBoolToObject(o, "complete", d->complete);
        cJSON_AddStringToObject(o, "end_status", d->end_status);
        cJSON_AddItemToObject(o, "run", cJSON_Duplicate((const cJSON *)d->run, 1));
        cJSON *rows = cJSON_AddArrayToObject(o, "results");
        for (size_t i = 0; i < d->nrows; i++) {
            cJSON *r = p2pb_result_to_json(&d->rows[i]);
            if (r)
                cJSON_AddItemToArray(rows, r);
        }
        cJSON_AddItemToArray(root, o);
    }
    char *txt = cJSON_Print(root);
    if (txt) {
        printf("%s\n", txt);
        cJSON_free(txt);
    }
    cJSON_Delete(root);
}

/* Column name of file f in a side-by-side table: its label, else its path;
 * "label#2" etc. when several files share the label. Returns buf. */
static const char *file_name_in(const struct p2pb_side *s, size_t f, char *buf, size_t len)
{
    const struct p2pb_results_data *d = &s->files[f];
    const char *base = d->info.label[0] ? d->info.label : d->path;
    size_t same = 0, idx = 0;
    for (size_t i = 0; i < s->nfiles; i++) {
        const struct p2pb_results_data *e = &s->files[i];
        if (strcmp(e->info.label[0] ? e->info.label : e->path, base) == 0) {
            if (i < f)
                idx++;
            same++;
        }
    }
    if (same > 1)
        snprintf(buf, len, "%s#%zu", base, idx + 1);
    else
        snprintf(buf, len, "%s", base);
    return buf;
}

static void show_metric(const struct p2pb_side *s, enum p2pb_metric m, enum p2pb_outfmt fmt)
{
    /* union of (kernel, variant, bytes) keys in first-seen order */
    struct p2pb_side one = *s;
    struct p2pb_side empty = {0};
    struct p2pb_cmp_table t;
    if (p2pb_compare_build(&one, &empty, m, 0, 0.05, &t) != P2PB_OK) {
        fprintf(stderr, "p2pbench-report: out of memory\n");
        return;
    }
    const char *unit = m == P2PB_METRIC_LATENCY ? "t_median[usec]" : "MB/s";
    const char *prev_k = NULL, *prev_v = NULL;
    char colname[600];
    if (fmt == P2PB_OUT_CSV) {
        printf("metric,kernel,variant,bytes");
        for (size_t f = 0; f < s->nfiles; f++)
            printf(",%s", file_name_in(s, f, colname, sizeof colname));
        printf("\n");
    } else {
        printf("%s %s; MB/s = 10^6 bytes/s\n", fmt == P2PB_OUT_MARKDOWN ? "" : "#",
               m == P2PB_METRIC_LATENCY ? "latency: t_usec.median per file, usec"
                                        : "throughput: mbytes_per_sec per file");
    }
    for (size_t i = 0; i < t.nrows; i++) {
        const struct p2pb_cmp_row *r = &t.rows[i];
        int newsec = !prev_k || strcmp(prev_k, r->kernel) || strcmp(prev_v, r->variant);
        prev_k = r->kernel;
        prev_v = r->variant;
        if (newsec && fmt != P2PB_OUT_CSV) {
            if (fmt == P2PB_OUT_MARKDOWN) {
                printf("\n### %s%s%s (%s)\n\n| bytes | size |", r->display_name,
                       r->variant[0] ? " " : "", r->variant, unit);
                for (size_t f = 0; f < s->nfiles; f++)
                    printf(" %s |", file_name_in(s, f, colname, sizeof colname));
                printf("\n|---:|---:|");
                for (size_t f = 0; f < s->nfiles; f++)
                    printf("---:|");
                printf("\n");
            } else {
                printf("\n# %s%s%s: %s\n%12s %6s", r->display_name, r->variant[0] ? " " : "",
                       r->variant, unit, "bytes", "size");
                for (size_t f = 0; f < s->nfiles; f++)
                    printf(" %14.14s", file_name_in(s, f, colname, sizeof colname));
                printf("\n");
            }
        }
        char sz[16];
        p2pb_fmt_size(sz, sizeof sz, r->bytes);
        if (fmt == P2PB_OUT_CSV)
            printf("%s,%s,%s,%zu", m == P2PB_METRIC_LATENCY ? "latency" : "throughput", r->kernel,
                   r->variant, r->bytes);
        else if (fmt == P2PB_OUT_MARKDOWN)
            printf("| %zu | %s |", r->bytes, sz);
        else
            printf("%12zu %6s", r->bytes, sz);
        for (size_t f = 0; f < s->nfiles; f++) {
            const struct p2pb_results_data *d = &s->files[f];
            double v = NAN;
            for (size_t j = 0; j < d->nrows; j++)
                if (d->rows[j].bytes == r->bytes && !strcmp(d->rows[j].kernel, r->kernel) &&
                    !strcmp(d->rows[j].variant, r->variant)) {
                    v = p2pb_metric_value(&d->rows[j], m);
                    break;
                }
            char buf[32];
            if (fmt == P2PB_OUT_CSV) {
                if (isfinite(v))
                    printf(",%.9g", v);
                else
                    printf(",");
            } else {
                p2pb_fmt_sig(buf, sizeof buf, v);
                printf(fmt == P2PB_OUT_MARKDOWN ? " %s |" : " %14s", buf);
            }
        }
        printf("\n");
    }
    p2pb_compare_free(&t);
}

/* Same table of a reporter: kernel, variant and rank count. */
static int same_table(const struct p2pb_result *x, const struct p2pb_result *y)
{
    return strcmp(x->kernel, y->kernel) == 0 && strcmp(x->variant, y->variant) == 0 &&
           x->nranks == y->nranks;
}

/*
 * Hand a file's rows to a reporter grouped by table, tables in order of first
 * appearance, sizes in file order: a kernel with several rows per size
 * (per pair + aggregate) writes them size by size. Without memory for the
 * bookkeeping, file order.
 */
static void show_rows(const struct p2pb_reporter *rep, struct p2pb_report_ctx *ctx,
                      const struct p2pb_results_data *d)
{
    unsigned char *done = calloc(d->nrows ? d->nrows : 1, 1);
    for (size_t i = 0; i < d->nrows; i++) {
        if (done && done[i])
            continue;
        for (size_t j = i; j < d->nrows; j++) {
            if (j != i && (!done || done[j] || !same_table(&d->rows[i], &d->rows[j])))
                continue;
            rep->row(ctx, &d->rows[j]);
            if (done)
                done[j] = 1;
        }
    }
    free(done);
}

static int cmd_show(int argc, char **argv)
{
    struct args a = {.metric = -1};
    int rc = parse(argc, argv, &a, 1); /* a directory stands for its *.jsonl files */
    enum p2pb_outfmt fmt;
    if (rc)
        goto out;
    if (a.nfiles[1] || a.output || a.fail || a.holm || a.kernel || a.gnuplot) {
        rc = usage_error("%s", "show takes only --format and --metric");
        goto out;
    }
    if (parse_format(a.format, 1, &fmt)) {
        rc = usage_error("invalid --format '%s' (text, imb, csv, markdown, json)", a.format);
        goto out;
    }
    if (a.nfiles[0] == 0) {
        rc = usage_error("%s", "show needs at least one results file");
        goto out;
    }
    struct p2pb_side s;
    rc = load_side(a.files[0], a.nfiles[0], &s, "");
    if (!rc) {
        if (a.metric >= 0) {
            if (fmt == P2PB_OUT_IMB || fmt == P2PB_OUT_JSON)
                rc = usage_error("%s", "--metric works with text, markdown and csv");
            else
                show_metric(&s, (enum p2pb_metric)a.metric, fmt);
        } else if (fmt == P2PB_OUT_JSON) {
            show_json(&s);
        } else {
            const char *names[] = {"text", "markdown", "csv", "json", "imb"};
            const struct p2pb_reporter *rep = p2pb_reporter_find(names[fmt]);
            for (size_t f = 0; rep && f < s.nfiles; f++) {
                struct p2pb_report_ctx ctx = {0};
                ctx.out = stdout;
                ctx.run = &s.files[f].info;
                ctx.eager_limit = -1;
                if (fmt != P2PB_OUT_CSV || f == 0)
                    rep->begin(&ctx);
                else if (f > 0)
                    ctx.rows = 1;
                show_rows(rep, &ctx, &s.files[f]);
                rep->end(&ctx);
            }
        }
        fflush(stdout);
    }
    free_side(&s);
out:
    free_args(&a);
    return rc < 0 ? 0 : rc;
}

/* ---- compare ---- */

/* One launch counts once: the same file (by device and inode) given twice,
 * on one side or on both, would fake replicates. Returns 0, or 2 after an
 * error naming the file. */
static int check_distinct_files(struct args *a)
{
    size_t n = a->nfiles[0] + a->nfiles[1];
    struct stat *st = calloc(n ? n : 1, sizeof *st);
    if (!st)
        return 0;
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        const char *pi = i < a->nfiles[0] ? a->files[0][i] : a->files[1][i - a->nfiles[0]];
        if (stat(pi, &st[i]) != 0)
            continue; /* load_side reports it */
        for (size_t j = 0; j < i; j++) {
            const char *pj = j < a->nfiles[0] ? a->files[0][j] : a->files[1][j - a->nfiles[0]];
            if (st[j].st_ino == st[i].st_ino && st[j].st_dev == st[i].st_dev && st[i].st_ino) {
                fprintf(stderr,
                        "p2pbench-report: '%s' is the same file as '%s': each launch may be "
                        "given once\nTry 'p2pbench-report --help'.\n",
                        pi, pj);
                rc = 2;
                break;
            }
        }
    }
    free(st);
    return rc;
}

static int cmd_compare(int argc, char **argv)
{
    struct args a = {.metric = -1, .threshold = 0.05};
    int rc = parse(argc, argv, &a, 1);
    enum p2pb_outfmt fmt;
    struct p2pb_side sa = {0}, sb = {0};
    if (rc)
        goto out;
    if (parse_format(a.format, 0, &fmt)) {
        rc = usage_error("invalid --format '%s' (text, markdown, csv, json)", a.format);
        goto out;
    }
    if (a.nfiles[0] == 0 || a.nfiles[1] == 0) {
        rc = usage_error("%s", "compare needs files on both sides: A... --vs B...");
        goto out;
    }
    if (a.metric >= 0 || a.output || a.kernel || a.gnuplot) {
        rc = usage_error("%s", "compare prints both metrics; --metric and --output do not apply");
        goto out;
    }
    rc = check_distinct_files(&a);
    if (!rc)
        rc = load_side(a.files[0], a.nfiles[0], &sa, "A");
    if (!rc)
        rc = load_side(a.files[1], a.nfiles[1], &sb, "B");
    if (!rc && strcmp(sa.name, sb.name) == 0) {
        snprintf(sa.name, sizeof sa.name, "A");
        snprintf(sb.name, sizeof sb.name, "B");
    }
    if (!rc) {
        struct p2pb_cmp_table lat, thr;
        struct p2pb_ctx_diff diff;
        if (p2pb_compare_build(&sa, &sb, P2PB_METRIC_LATENCY, a.holm, a.threshold, &lat) ||
            p2pb_compare_build(&sa, &sb, P2PB_METRIC_THROUGHPUT, a.holm, a.threshold, &thr) ||
            p2pb_context_diff(&sa, &sb, &diff)) {
            fprintf(stderr, "p2pbench-report: out of memory\n");
            rc = 1;
        } else {
            struct p2pb_cmp_print po = {.fmt = fmt, .holm = a.holm, .threshold = a.threshold};
            p2pb_compare_print(stdout, &po, &sa, &sb, &lat, &thr, &diff);
            size_t worse = 0;
            for (size_t i = 0; i < lat.nrows; i++)
                worse += (size_t)lat.rows[i].worse;
            for (size_t i = 0; i < thr.nrows; i++)
                worse += (size_t)thr.rows[i].worse;
            const struct p2pb_cmp_table *blind = NULL;
            if (lat.ntested && lat.best_p_adj >= 0.05)
                blind = &lat;
            else if (thr.ntested && thr.best_p_adj >= 0.05)
                blind = &thr;
            if (a.fail && !worse && blind) {
                /* a gate that cannot fail must not pass silently */
                fprintf(stderr,
                        "p2pbench-report: error: --fail-on-regression cannot detect a regression "
                        "here: with these launch counts and %zu rows (Holm) the smallest "
                        "reachable p_adj is %.3g; use at least %zu launches per side or compare "
                        "fewer sizes\n",
                        blind->ntested, blind->best_p_adj, blind->launches_needed);
                rc = 2;
            } else if (a.fail) {
                fprintf(stderr,
                        "p2pbench-report: %zu row%s changed for the worse (Holm-adjusted)\n", worse,
                        worse == 1 ? "" : "s");
                if (worse)
                    rc = 1;
            }
            p2pb_compare_free(&lat);
            p2pb_compare_free(&thr);
            p2pb_ctx_diff_free(&diff);
        }
    }
    free_side(&sa);
    free_side(&sb);
out:
    free_args(&a);
    return rc < 0 ? 0 : rc;
}

/* ---- import ---- */

static int cmd_import(int argc, char **argv)
{
    struct args a = {.metric = -1};
    int rc = parse(argc, argv, &a, 0);
    if (rc)
        goto out;
    if (a.nfiles[1] || a.format || a.metric >= 0 || a.fail || a.holm || a.kernel || a.gnuplot) {
        rc = usage_error("%s", "import takes only LOG... and -o DIR");
        goto out;
    }
    if (a.nfiles[0] == 0) {
        rc = usage_error("%s", "import needs at least one log file");
        goto out;
    }
    char err[1024] = "";
    enum p2pb_status st = p2pb_import_logs(a.files[0], a.nfiles[0], a.output ? a.output : ".",
                                           stderr, err, sizeof err);
    if (st != P2PB_OK) {
        fprintf(stderr, "p2pbench-report: %s\n", err);
        rc = 1;
    }
out:
    free_args(&a);
    return rc < 0 ? 0 : rc;
}

/* ---- plot ---- */

static int cmd_plot(int argc, char **argv)
{
    struct args a = {.metric = -1};
    int rc = parse(argc, argv, &a, 1);
    struct p2pb_side *sides = NULL;
    size_t nsides = 0;
    struct p2pb_side all = {0};
    if (rc)
        goto out;
    if (!a.output) {
        rc = usage_error("%s", "plot needs -o FILE.png or FILE.svg");
        goto out;
    }
    if (a.nfiles[0] == 0) {
        rc = usage_error("%s", "plot needs at least one results file");
        goto out;
    }
    if (a.format || a.metric >= 0 || a.fail || a.holm) {
        rc = usage_error(
            "%s", "plot takes only RUN... [--vs RUN...] -o FILE [-k KERNEL] [--gnuplot PATH]");
        goto out;
    }
    sides = calloc(a.nfiles[0] + a.nfiles[1], sizeof *sides);
    if (!sides) {
        rc = 1;
        goto out;
    }
    if (a.nfiles[1]) {
        rc = load_side(a.files[0], a.nfiles[0], &sides[0], "A");
        if (!rc) {
            nsides = 1;
            rc = load_side(a.files[1], a.nfiles[1], &sides[1], "B");
            if (!rc)
                nsides = 2;
        }
    } else {
        /* group files by label: one line per label (or per unlabelled file) */
        rc = load_side(a.files[0], a.nfiles[0], &all, "");
        for (size_t f = 0; !rc && f < all.nfiles; f++) {
            const char *l = all.files[f].info.label;
            size_t s = 0;
            for (; s < nsides; s++)
                if (l[0] && strcmp(sides[s].name, l) == 0)
                    break;
            if (s == nsides) {
                sides[s].files = calloc(all.nfiles, sizeof *sides[s].files);
                if (!sides[s].files) {
                    rc = 1;
                    break;
                }
                snprintf(sides[s].name, sizeof sides[s].name, "%.63s",
                         l[0] ? l : all.files[f].path);
                nsides++;
            }
            sides[s].files[sides[s].nfiles++] = all.files[f]; /* shallow: owned by all */
        }
    }
    if (!rc) {
        char err[1024] = "";
        enum p2pb_status st =
            p2pb_plot(sides, nsides, a.output, a.kernel, a.gnuplot, err, sizeof err);
        if (st != P2PB_OK) {
            fprintf(stderr, "p2pbench-report: %s\n", err);
            rc = p2pb_status_exit_code(st);
        }
    }
    if (a.nfiles[1]) {
        for (size_t s = 0; s < nsides; s++)
            free_side(&sides[s]);
    } else {
        for (size_t s = 0; s < nsides; s++)
            free(sides[s].files);
        free_side(&all);
    }
out:
    free(sides);
    free_args(&a);
    return rc < 0 ? 0 : rc;
}

static const struct {
    const char *name;
    int (*fn)(int, char **);
} commands[] = {
    {"show", cmd_show},
    {"compare", cmd_compare},
    {"import", cmd_import},
    {"plot", cmd_plot},
};

int main(int argc, char **argv)
{
    if (argc < 2)
        return usage_error("%s", "missing command (show, compare, import, plot)");
    if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
        fputs(usage_text, stdout);
        return 0;
    }
    if (strcmp(argv[1], "-V") == 0 || strcmp(argv[1], "--version") == 0) {
        printf("p2pbench-report %s (%s)\n", P2PB_VERSION, P2PB_GIT_COMMIT);
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].fn(argc - 1, argv + 1);
    return usage_error("unknown command '%s' (show, compare, import, plot)", argv[1]);
}
