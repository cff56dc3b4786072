/* SPDX-License-Identifier: MIT */
/*
 * show: print the tables of results files without rerunning, through the
 * reporters of src/common/output (text, markdown, csv, imb), as json, or with
 * --metric one column per file side by side.
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "compare/compare.h"
#include "output/output.h"
#include "probe.h"
#include "row_index.h"
#include "text.h"

/* The --format values of show, in the order of its error message. */
static const struct p2pb_fmt_name show_formats[] = {
    {"text", P2PB_OUT_TEXT},         {"imb", P2PB_OUT_IMB},   {"csv", P2PB_OUT_CSV},
    {"markdown", P2PB_OUT_MARKDOWN}, {"json", P2PB_OUT_JSON}, {"osu", P2PB_OUT_OSU},
};

/* Reporter names by enum p2pb_outfmt. */
static const char *const reporter_names[] = {"text", "markdown", "csv", "json", "imb", "osu"};

/* n bytes of txt to stdout with tabs more tabs after each newline: the
 * text of a cJSON_Print'ed item placed that much deeper in a document. */
static void print_shifted(const char *txt, size_t n, int tabs)
{
    static const char t[] = "\t\t\t\t\t\t\t\t";
    while (n) {
        const char *nl = memchr(txt, '\n', n);
        size_t k = nl ? (size_t)(nl - txt) + 1 : n;
        p2pb_text_write_json(stdout, txt, k); /* C1 and bidi controls as \uXXXX */
        if (nl)
            fwrite(t, 1, (size_t)tabs < sizeof t - 1 ? (size_t)tabs : sizeof t - 1, stdout);
        txt += k;
        n -= k;
    }
}

/* The rows of d as the elements of an array at depth 3 of show's document,
 * one cJSON object at a time. */
static void print_rows_json(const struct p2pb_results_data *d)
{
    for (size_t i = 0, n = 0; i < d->nrows; i++) {
        cJSON *r = p2pb_result_to_json(&d->rows[i]);
        char *txt = r ? cJSON_Print(r) : NULL;
        if (txt) {
            fputs(n++ ? ", " : "", stdout);
            print_shifted(txt, strlen(txt), 3);
        }
        cJSON_free(txt);
        cJSON_Delete(r);
    }
}

/*
 * One array of {path, complete, end_status, run, results} per file, as
 * cJSON_Print formats it, written file by file and row by row so that memory
 * stays near the size of the rows read (not a document tree of every row).
 */
static void show_json(const struct p2pb_side *s)
{
    putchar('[');
    for (size_t f = 0; f < s->nfiles; f++) {
        const struct p2pb_results_data *d = &s->files[f];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "path", d->path);
        cJSON_AddBoolToObject(o, "complete", d->complete);
        cJSON_AddStringToObject(o, "end_status", d->end_status);
        cJSON_AddItemToObject(o, "run", cJSON_Duplicate((const cJSON *)d->run, 1));
        cJSON_AddArrayToObject(o, "results"); /* last: "[]" at the end of the text */
        char *txt = cJSON_Print(o);
        const char *empty = txt ? strrchr(txt, '[') : NULL;
        if (empty) {
            fputs(f ? ", " : "", stdout);
            print_shifted(txt, (size_t)(empty - txt) + 1, 1);
            print_rows_json(d);
            print_shifted(empty + 1, strlen(empty + 1), 1);
        }
        cJSON_free(txt);
        cJSON_Delete(o);
    }
    puts("]");
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
    p2pb_text_sanitize(buf); /* a path as typed may hold anything */
    return buf;
}

/* 1 when a text column (COLW characters) would cut a file's name: the text
 * tables then head the columns [1], [2], ... and list the names under the title. */
#define COLW 14
static int names_cut(const struct p2pb_side *s)
{
    char name[600];
    for (size_t f = 0; f < s->nfiles; f++)
        if (strlen(file_name_in(s, f, name, sizeof name)) > COLW)
            return 1;
    return 0;
}

/* The csv header, or the one-line title of the text and markdown tables;
 * cut: the text columns are numbered (names_cut), listed here. */
static void metric_title(const struct p2pb_side *s, enum p2pb_metric m, enum p2pb_outfmt fmt,
                         int cut)
{
    char colname[600];
    if (fmt == P2PB_OUT_CSV) {
        printf("metric,kernel,variant,bytes");
        for (size_t f = 0; f < s->nfiles; f++) { /* csv: an incomplete file says so */
            char cell[640];
            snprintf(cell, sizeof cell, "%s%s", file_name_in(s, f, colname, sizeof colname),
                     s->files[f].complete ? "" : " (incomplete)");
            putchar(',');
            p2pb_csv_field(stdout, cell);
        }
        printf("\n");
    } else {
        printf("%s%s; MB/s = 10^6 bytes/s\n", fmt == P2PB_OUT_MARKDOWN ? "" : "# ",
               m == P2PB_METRIC_LATENCY ? "latency: t_usec.median per file, usec"
                                        : "throughput: mbytes_per_sec per file");
        for (size_t f = 0; cut && f < s->nfiles; f++)
            printf("# [%zu] %s\n", f + 1, file_name_in(s, f, colname, sizeof colname));
    }
}

/* Heading and column names of the (kernel, variant) section of row r. */
static void metric_section(const struct p2pb_side *s, const struct p2pb_cmp_row *r,
                           enum p2pb_outfmt fmt, const char *unit, int cut)
{
    char colname[600];
    if (fmt == P2PB_OUT_MARKDOWN) {
        fputs("\n### ", stdout); /* names from the files: no markup */
        p2pb_md_field(stdout, r->display_name);
        fputs(r->variant[0] ? " " : "", stdout);
        p2pb_md_field(stdout, r->variant);
        printf(" (%s)\n\n| bytes | size |", unit);
        for (size_t f = 0; f < s->nfiles; f++) {
            putchar(' ');
            p2pb_md_field(stdout, file_name_in(s, f, colname, sizeof colname));
            printf(" |");
        }
        printf("\n|---:|---:|");
        for (size_t f = 0; f < s->nfiles; f++)
            printf("---:|");
        printf("\n");
    } else {
        printf("\n# %s%s%s: %s\n%12s %6s", r->display_name, r->variant[0] ? " " : "", r->variant,
               unit, "bytes", "size");
        for (size_t f = 0; f < s->nfiles; f++) {
            char num[24];
            snprintf(num, sizeof num, "[%zu]", f + 1);
            printf(" %*s", COLW, cut ? num : file_name_in(s, f, colname, sizeof colname));
        }
        printf("\n");
    }
}

/* One line of the side-by-side table: the key of row r, one value per file. */
static void metric_line(const struct p2pb_side *s, const struct p2pb_cmp_row *r, enum p2pb_metric m,
                        enum p2pb_outfmt fmt)
{
    char sz[16], buf[32];
    p2pb_fmt_size(sz, sizeof sz, r->bytes);
    if (fmt == P2PB_OUT_CSV) { /* kernel and variant from the files: csv text fields */
        printf("%s,", m == P2PB_METRIC_LATENCY ? "latency" : "throughput");
        p2pb_csv_field(stdout, r->kernel);
        putchar(',');
        p2pb_csv_field(stdout, r->variant);
        printf(",%zu", r->bytes);
    } else if (fmt == P2PB_OUT_MARKDOWN)
        printf("| %zu | %s |", r->bytes, sz);
    else
        printf("%12zu %6s", r->bytes, sz);
    for (size_t f = 0; f < s->nfiles; f++) {
        double v = p2pb_file_value(&s->files[f], r->kernel, r->variant, r->bytes, m);
        if (fmt == P2PB_OUT_CSV) {
            if (isfinite(v))
                printf(",%.9g", v);
            else
                printf(",");
        } else {
            p2pb_fmt_sig(buf, sizeof buf, v);
            if (fmt == P2PB_OUT_MARKDOWN)
                printf(" %s |", buf);
            else
                printf(" %*s", COLW, buf);
        }
    }
    printf("\n");
}

/* --metric: one column per file, rows the union of the (kernel, variant,
 * bytes) keys of the files in table order (p2pb_compare_build of the side
 * against nothing). Without memory: a message, and nothing shown. */
static void show_metric(const struct p2pb_side *s, enum p2pb_metric m, enum p2pb_outfmt fmt)
{
    struct p2pb_side empty = {0};
    struct p2pb_cmp_table t;
    if (p2pb_compare_build(s, &empty, m, 0, 0.05, &t) != P2PB_OK) {
        fprintf(stderr, "p2pbench-report: out of memory\n");
        return;
    }
    const char *unit = m == P2PB_METRIC_LATENCY ? "t_median[usec]" : "MB/s";
    int cut = fmt == P2PB_OUT_TEXT && names_cut(s); /* once: names_cut reads every pair */
    metric_title(s, m, fmt, cut);
    for (size_t i = 0; i < t.nrows; i++) {
        const struct p2pb_cmp_row *r = &t.rows[i];
        const struct p2pb_cmp_row *prev = i ? &t.rows[i - 1] : NULL;
        int newsec = !prev || strcmp(prev->kernel, r->kernel) || strcmp(prev->variant, r->variant);
        if (newsec && fmt != P2PB_OUT_CSV)
            metric_section(s, r, fmt, unit, cut);
        metric_line(s, r, m, fmt);
    }
    p2pb_compare_free(&t);
}

/* The rows of a file, sought by table: kernel, variant and rank count. */
struct table_key {
    const struct p2pb_result *rows;
    const size_t *first; /* first[t]: first row of table t */
    const struct p2pb_result *r;
};

static int same_table(const void *ctx, size_t t)
{
    const struct table_key *k = ctx;
    const struct p2pb_result *x = &k->rows[k->first[t]];
    return strcmp(x->kernel, k->r->kernel) == 0 && strcmp(x->variant, k->r->variant) == 0 &&
           x->nranks == k->r->nranks;
}

/* tab[i]: table number of row i of d, tables numbered in order of first
 * appearance (a hash index: linear in rows); first[t]: the table's first row.
 * Returns the number of tables, or 0 when out of memory. */
static size_t number_tables(const struct p2pb_results_data *d, size_t *tab, size_t *first)
{
    struct p2pb_row_index x = {0};
    size_t nt = 0;
    struct table_key k = {d->rows, first, NULL};
    for (size_t i = 0; i < d->nrows; i++) {
        k.r = &d->rows[i];
        uint64_t h = p2pb_row_key_hash(k.r->kernel, k.r->variant, (uint64_t)k.r->nranks);
        long t = p2pb_row_index_find(&x, h, same_table, &k);
        if (t < 0) {
            if (p2pb_row_index_insert(&x, h, nt) != 0) {
                p2pb_row_index_free(&x);
                return 0;
            }
            first[nt] = i;
            t = (long)nt++;
        }
        tab[i] = (size_t)t;
    }
    p2pb_row_index_free(&x);
    return nt;
}

/*
 * Hand a file's rows to a reporter grouped by table, tables in order of first
 * appearance, sizes in file order: a kernel with several rows per size
 * (per pair + aggregate) writes them size by size. A stable counting sort by
 * table number. Without memory for the bookkeeping, file order.
 */
static void show_rows(const struct p2pb_reporter *rep, struct p2pb_report_ctx *ctx,
                      const struct p2pb_results_data *d)
{
    size_t n = d->nrows ? d->nrows : 1;
    size_t *tab = malloc(n * sizeof *tab), *first = malloc(n * sizeof *first);
    size_t *order = malloc(n * sizeof *order), nt = 0;
    if (tab && first && order && d->nrows)
        nt = number_tables(d, tab, first);
    if (!nt) {
        for (size_t i = 0; i < d->nrows; i++)
            rep->row(ctx, &d->rows[i]);
    } else {
        size_t *start = first; /* reused: first row of table t in order[] */
        memset(start, 0, nt * sizeof *start);
        for (size_t i = 0; i < d->nrows; i++)
            if (tab[i] + 1 < nt)
                start[tab[i] + 1]++;
        for (size_t t = 1; t < nt; t++)
            start[t] += start[t - 1];
        for (size_t i = 0; i < d->nrows; i++)
            order[start[tab[i]]++] = i;
        for (size_t i = 0; i < d->nrows; i++)
            rep->row(ctx, &d->rows[order[i]]);
    }
    free(tab);
    free(first);
    free(order);
}

/* The eager limit a file's run marked in its tables ("eager_limit_marked",
 * bytes), or -1 when it had none or the file is not p2pbench's. */
static long marked_eager_limit(const struct p2pb_results_data *d)
{
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(d->run, "eager_limit_marked");
    if (!cJSON_IsNumber(e) || !(e->valuedouble >= 0) || e->valuedouble > 1e15)
        return -1;
    return (long)e->valuedouble;
}

/* The tables of every file through the reporter of fmt; csv has one header. */
static void show_tables(const struct p2pb_side *s, enum p2pb_outfmt fmt)
{
    const struct p2pb_reporter *rep = p2pb_reporter_find(reporter_names[fmt]);
    for (size_t f = 0; rep && f < s->nfiles; f++) {
        struct p2pb_report_ctx ctx = {0};
        ctx.out = stdout;
        ctx.run = &s->files[f].info;
        ctx.incomplete = !s->files[f].complete;
        ctx.eager_limit = marked_eager_limit(&s->files[f]); /* as the live tables */
        struct p2pb_probe probe; /* the placement probe's lines and floors, as live */
        p2pb_probe_from_json(s->files[f].run, &probe);
        ctx.probe = &probe;
        if (fmt != P2PB_OUT_CSV || f == 0)
            rep->begin(&ctx);
        else if (f > 0)
            ctx.rows = 1;
        show_rows(rep, &ctx, &s->files[f]);
        rep->end(&ctx);
    }
}

/* One line per incomplete or aborted file above the tables, on stdout
 * (a "#" comment in text, imb and csv; `show -m -f csv` marks the column
 * instead, p2pb_incomplete_note says what happened). */
static void flag_incomplete(const struct p2pb_side *s, enum p2pb_outfmt fmt, int metric)
{
    char why[128];
    for (size_t f = 0; f < s->nfiles && !(metric && fmt == P2PB_OUT_CSV); f++)
        if (!s->files[f].complete)
            printf("%swarning: incomplete run, %s: %s: %s\n%s",
                   fmt == P2PB_OUT_MARKDOWN ? "" : "# ",
                   s->files[f].nrows ? "its rows as far as they go" : "it measured nothing",
                   s->files[f].path, p2pb_incomplete_note(&s->files[f], why, sizeof why),
                   fmt == P2PB_OUT_MARKDOWN ? "\n" : "");
}

/* The options of show and its output format. */
static enum p2pb_status check_args(const struct p2pb_args *a, enum p2pb_outfmt *fmt, char *err,
                                   size_t errlen)
{
    enum p2pb_status st = p2pb_args_format(
        a, show_formats, sizeof show_formats / sizeof show_formats[0], fmt, err, errlen);
    if (st == P2PB_OK && a->nfiles[0] == 0)
        st = p2pb_fail(P2PB_EUSAGE, err, errlen,
                       "show needs at least one results file" P2PB_TRY_HELP);
    return st;
}

enum p2pb_status p2pb_cmd_show(struct p2pb_args *a, char *err, size_t errlen)
{
    enum p2pb_outfmt fmt;
    enum p2pb_status st = check_args(a, &fmt, err, errlen);
    if (st != P2PB_OK)
        return st;
    struct p2pb_side s;
    st = p2pb_side_load(a->files[0], a->nfiles[0], &s, "", stderr, a->max_file_bytes, err,
                        p2pb_cmd_errlen(errlen));
    if (st == P2PB_OK && a->metric >= 0 && (fmt == P2PB_OUT_IMB || fmt == P2PB_OUT_JSON))
        st = p2pb_fail(P2PB_EUSAGE, err, errlen,
                       "--metric works with text, markdown and csv" P2PB_TRY_HELP);
    if (st == P2PB_OK) {
        if (fmt != P2PB_OUT_JSON) /* json has "complete" and "end_status" per file */
            flag_incomplete(&s, fmt, a->metric >= 0);
        if (a->metric >= 0)
            show_metric(&s, (enum p2pb_metric)a->metric, fmt);
        else if (fmt == P2PB_OUT_JSON)
            show_json(&s);
        else
            show_tables(&s, fmt);
        fflush(stdout);
    }
    p2pb_side_free(&s);
    return st;
}

static const unsigned char show_options[] = {RO_FORMAT, RO_METRIC};

const struct p2pb_report_cmd p2pb_cmd_show_def = {
    .name = "show",
    .run = p2pb_cmd_show,
    .expand_dirs = 1,
    .synopsis = "RUN.jsonl... [-f text|imb|osu|csv|markdown|json] [-m latency|throughput]",
    .help = "print the tables of results files without rerunning; with --metric, one\n"
            "column per file side by side",
    .verbs = NULL,
    .options = show_options,
    .noptions = sizeof show_options,
};
