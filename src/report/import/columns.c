/* SPDX-License-Identifier: MIT */
/*
 * Generic size/value column tables, as in the seed logs: a title line, a
 * column header "Message_Size(bytes) Experiment_1 Experiment_2" (or
 * tab-separated "chunk size (cpysize)<TAB>bare metal<TAB>pvhvm<TAB>pv") and
 * rows of a size and one value per column. Each value column (side) becomes
 * one group, merging the log's tables (latency, throughput) by size.
 *
 * The title says the metric and the kernel; a latency table labelled
 * millisec is checked against the throughput table (the reading of t that
 * makes bytes_factor * X / t match the rates is taken).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "import.h"

#define COLS_MAX 8 /* tables per log, columns per table */

/* One table of the log: rows of bytes[r] and v[r * (ncols - 1) + side]. */
struct coltab {
    int metric;     /* 0 latency / time, 1 throughput */
    double t_scale; /* to usec */
    char kernel[32], display[32];
    unsigned traits; /* the kind's (struct p2pb_imp_kind) */
    size_t ncols;
    char names[COLS_MAX][64];
    size_t nrows;
    size_t *bytes;
    double *v; /* nrows x (ncols - 1) */
    long line;
    int unit_label_ms; /* title said millisec */
};

/* The tables of one log. */
struct colset {
    struct coltab tabs[COLS_MAX];
    size_t ntabs;
    int memcpy_log; /* a table of the seed memcpy log: rates from a fixed buffer */
};

/* ---- finding tables ---- */

/* Column header "Message_Size(bytes) Experiment_1 Experiment_2" or a tab-separated
 * "chunk size (cpysize)<TAB>bare metal<TAB>pvhvm<TAB>pv". Returns column count >= 3. */
static size_t cols_header(const char *line, char names[][64], size_t max)
{
    const char *s = p2pb_imp_skip_ws(line);
    if (*s == '#' || !(p2pb_imp_ci_contains(s, "size")))
        return 0;
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", s);
    buf[strcspn(buf, "\r\n")] = '\0';
    const char *sep = strchr(buf, '\t') ? "\t" : " ";
    size_t n = 0;
    char *save = NULL;
    for (char *p = strtok_r(buf, sep, &save); p && n < max; p = strtok_r(NULL, sep, &save)) {
        p = (char *)p2pb_imp_skip_ws(p);
        if (!*p)
            continue;
        snprintf(names[n++], 64, "%s", p);
    }
    if (n < 2 || !p2pb_imp_ci_contains(names[0], "size"))
        return 0;
    double v;
    for (size_t i = 1; i < n; i++)
        if (p2pb_imp_parse_num(names[i], &v))
            return 0;
    return n;
}

/* Index of the nearest non-empty line above line i; i if none. */
static size_t cols_title_line(const struct p2pb_imp_log *lg, size_t i)
{
    for (size_t j = i; j-- > 0;)
        if (*p2pb_imp_skip_ws(lg->lines[j]))
            return j;
    return i;
}

/* Kernel, metric and time unit of table c from its title and first column name. */
static void coltab_classify(struct colset *set, struct coltab *c, const char *title)
{
    snprintf(c->kernel, sizeof c->kernel, "unknown");
    snprintf(c->display, sizeof c->display, "Unknown");
    const struct p2pb_imp_kind *ki = p2pb_imp_imb_kind_in_line(title);
    if (ki) {
        snprintf(c->kernel, sizeof c->kernel, "%s", ki->kernel);
        snprintf(c->display, sizeof c->display, "%s", ki->display);
        c->traits = ki->traits;
    }
    if (p2pb_imp_ci_contains(title, "throughput") || p2pb_imp_ci_contains(title, "MB/s") ||
        p2pb_imp_ci_contains(title, "MB/sec") || p2pb_imp_ci_contains(title, "bandwidth"))
        c->metric = 1;
    if (p2pb_imp_ci_contains(title, "millisec") || p2pb_imp_ci_contains(title, "msec") ||
        p2pb_imp_ci_contains(title, "(ms"))
        c->unit_label_ms = 1, c->t_scale = 1000.0;
    if (p2pb_imp_ci_contains(c->names[0], "cpysize") ||
        p2pb_imp_ci_contains(c->names[0], "chunk") || p2pb_imp_ci_contains(title, "memcpy") ||
        p2pb_imp_ci_contains(title, "loops over")) {
        set->memcpy_log = 1;
        snprintf(c->kernel, sizeof c->kernel, "%s", p2pb_imp_seed_memcpy.kernel);
        snprintf(c->display, sizeof c->display, "%s", p2pb_imp_seed_memcpy.display);
        c->traits = p2pb_imp_seed_memcpy.traits;
    }
}

/* Line ln as a row of c: a size and ncols - 1 numbers. */
static int coltab_row(const struct coltab *c, const char *ln, size_t *b, double vals[COLS_MAX])
{
    char buf[512], *tok[10];
    size_t n = p2pb_imp_tokenize(ln, buf, sizeof buf, tok, 10);
    if (n != c->ncols || !p2pb_imp_parse_size(tok[0], b))
        return 0;
    int ok = 1;
    for (size_t k = 1; k < n; k++)
        ok &= p2pb_imp_parse_num(tok[k], &vals[k - 1]);
    return ok;
}

/* Why row (b, vals) cannot follow the rows of c (the results-file reader's
 * rules: sizes ascend, values finite and not negative, not subnormal, a time
 * not 0; a rate of 0 is PMB's rounding of a small one), in why; 0 if it can. */
static int coltab_bad_row(const struct coltab *c, size_t b, const double *vals, char *why,
                          size_t whylen)
{
    if (c->nrows && b <= c->bytes[c->nrows - 1]) {
        snprintf(why, whylen, "message size %zu after %zu: sizes must ascend", b,
                 c->bytes[c->nrows - 1]);
        return 1;
    }
    for (size_t k = 0; k + 1 < c->ncols; k++)
        if (!isfinite(vals[k]) || vals[k] < 0) {
            snprintf(why, whylen, "%s %g is negative or not finite", c->names[k + 1], vals[k]);
            return 1;
        } else if ((vals[k] > 0 && !isnormal(vals[k])) || (vals[k] == 0 && c->metric != 1)) {
            snprintf(why, whylen, "%s %g is %s", c->names[k + 1], vals[k],
                     vals[k] > 0 ? "too small (not a normal number)"
                                 : "a time of 0 (a measured size has a positive time)");
            return 1;
        }
    return 0;
}

/* Read the rows of c from line *j on; *j ends at the first line after the
 * table. A row the reader would refuse ends the table with a cut-short note. */
static enum p2pb_status coltab_read_rows(struct p2pb_imp_log *lg, struct coltab *c, size_t *j,
                                         char *err, size_t errlen)
{
    size_t cap = 0, nv = c->ncols - 1;
    for (; *j < lg->nlines; (*j)++) {
        size_t b;
        double vals[COLS_MAX];
        char why[160];
        if (!coltab_row(c, lg->lines[*j], &b, vals))
            break;
        if (coltab_bad_row(c, b, vals, why, sizeof why)) {
            p2pb_imp_note(lg, NULL,
                          "warning: line %zu: %s table (line %ld) cut short: %s; the %zu row%s "
                          "before it kept",
                          *j + 1, c->display, c->line, why, c->nrows, c->nrows == 1 ? "" : "s");
            break;
        }
        if (c->nrows == cap) {
            cap = cap ? 2 * cap : 32;
            size_t *nb = realloc(c->bytes, cap * sizeof *nb);
            if (nb)
                c->bytes = nb;
            double *nvp = realloc(c->v, cap * nv * sizeof *nvp);
            if (nvp)
                c->v = nvp;
            if (!nb || !nvp)
                return p2pb_fail(P2PB_ENOMEM, err, errlen, "%s: out of memory", lg->path);
        }
        c->bytes[c->nrows] = b;
        memcpy(c->v + c->nrows * nv, vals, nv * sizeof *vals);
        c->nrows++;
    }
    return P2PB_OK;
}

/* Every size/value table of lg (at most COLS_MAX) into set. */
static enum p2pb_status cols_find(struct p2pb_imp_log *lg, struct colset *set, char *err,
                                  size_t errlen)
{
    for (size_t i = 0; i < lg->nlines && set->ntabs < COLS_MAX; i++) {
        char names[COLS_MAX][64];
        size_t nc = cols_header(lg->lines[i], names, COLS_MAX);
        if (nc < 2)
            continue;
        struct coltab *c = &set->tabs[set->ntabs];
        memset(c, 0, sizeof *c);
        c->ncols = nc;
        memcpy(c->names, names, sizeof names);
        c->line = (long)i + 1;
        c->t_scale = 1.0;
        size_t tl = cols_title_line(lg, i);
        coltab_classify(set, c, tl < i ? lg->lines[tl] : "");
        size_t j = i + 1;
        enum p2pb_status st = coltab_read_rows(lg, c, &j, err, errlen);
        if (st != P2PB_OK)
            return st;
        if (c->nrows) {
            set->ntabs++;
            i = j - 1;
        } else {
            free(c->bytes);
            free(c->v);
            c->bytes = NULL;
            c->v = NULL;
        }
    }
    return P2PB_OK;
}

/* ---- the time unit of a latency table ---- */

/*
 * Sum over the rows >= 1 KiB of both tables and their common columns of how
 * far bytes_factor * X / (t * rate) is from 1 or 1.048576 (log scale), with t
 * read as usec (err[0]) and as msec (err[1]). Returns the number of terms.
 */
static size_t cols_unit_errors(const struct coltab *lat, const struct coltab *thr, double bf,
                               double err[2])
{
    size_t cnt = 0;
    for (size_t r = 0; r < lat->nrows; r++) {
        if (lat->bytes[r] < 1024)
            continue;
        for (size_t s2 = 0; s2 < thr->nrows; s2++) {
            if (thr->bytes[s2] != lat->bytes[r])
                continue;
            for (size_t c = 0; c + 1 < lat->ncols && c + 1 < thr->ncols; c++) {
                double t = lat->v[r * (lat->ncols - 1) + c];
                double rate = thr->v[s2 * (thr->ncols - 1) + c];
                if (!(t > 0 && rate > 0))
                    continue;
                double x = bf * (double)lat->bytes[r] / (t * rate); /* 1 or 1.048576 if usec */
                double x3 = x / 1000.0;
                err[0] += fmin(fabs(log(x)), fabs(log(x / P2PB_IMP_MIB_PER_MB)));
                err[1] += fmin(fabs(log(x3)), fabs(log(x3 / P2PB_IMP_MIB_PER_MB)));
                cnt++;
            }
        }
    }
    return cnt;
}

/* Latency labelled millisec: check against the throughput table. With t in
 * usec, bytes_factor * X / t is MB/s in 10^6 B; the log's rate should be that
 * or that / 1.048576 (1 MB = 2^20 B). Whichever reading fits is taken. */
static void cols_check_latency_unit(struct p2pb_imp_log *lg, struct coltab *lat,
                                    const struct coltab *thr, double bf)
{
    double best_err[2] = {0, 0}; /* [0] t as usec, [1] t as msec */
    if (!cols_unit_errors(lat, thr, bf, best_err))
        return;
    int usec = best_err[0] <= best_err[1];
    if (lat->unit_label_ms && usec) {
        lat->t_scale = 1.0;
        p2pb_imp_note(lg, NULL,
                      "warning: line %ld: the latency table says millisec but its values are "
                      "usec (checked against the throughput table: %g x bytes / t matches the "
                      "rates only with t in usec); read as usec",
                      lat->line, bf);
    } else if (!usec) {
        lat->t_scale = 1000.0;
    }
}

/* ---- one group per side ---- */

/* What the sides of a log share. */
struct colsides {
    const struct colset *set;
    const struct coltab *lat; /* first latency table, or NULL */
    double bf;                /* bytes_factor of lat's kernel (1 if none) */
    int seed_pmb;             /* a PMB seed table: 1 MB = 2^20 B */
};

/* Source, unit and header facts of the group of side sd. */
static void cols_group_facts(const struct p2pb_imp_log *lg, const struct colsides *cs,
                             struct p2pb_imp_group *g, size_t sd)
{
    const struct colset *set = cs->set;
    if (set->memcpy_log) {
        snprintf(g->source, sizeof g->source, "table-memcpy");
        g->mb_pow2 = 0;
        snprintf(g->units, sizeof g->units,
                 "time (msec) of 100 loops over 16 MB read as 16 MiB; t_usec = msec x 1000 for "
                 "all loops; MB/s = 100 x 16 x 2^20 B / t, 1 MB = 10^6 B");
    } else {
        snprintf(g->source, sizeof g->source, "%s", cs->seed_pmb ? "pmb-table" : "table");
        g->mb_pow2 = cs->seed_pmb ? 1 : 0;
    }
    if (cs->lat && cs->lat->unit_label_ms && cs->lat->t_scale == 1.0)
        cJSON_AddItemToArray(
            g->notes, cJSON_CreateString("latency table labelled millisec holds usec (checked "
                                         "against the throughput table); read as usec"));
    cJSON_AddStringToObject(g->header, "column", set->tabs[0].names[sd + 1]);
    for (size_t k = 0; k < set->ntabs; k++) {
        char title[200] = "";
        size_t i = (size_t)set->tabs[k].line - 1, tl = cols_title_line(lg, i);
        if (tl < i) {
            snprintf(title, sizeof title, "%s", p2pb_imp_skip_ws(lg->lines[tl]));
            title[strcspn(title, "\r")] = '\0';
        }
        char key[48];
        snprintf(key, sizeof key, "table_%zu_title", k + 1);
        cJSON_AddStringToObject(g->header, key, title);
    }
}

/* The row of t for size bytes, appended if new; NULL when out of memory. */
static struct p2pb_imp_row *cols_row_of(struct p2pb_imp_table *t, size_t bytes)
{
    struct p2pb_imp_row *row = NULL;
    for (size_t q = 0; q < t->nrows; q++)
        if (t->rows[q].bytes == bytes)
            row = &t->rows[q];
    if (!row) {
        row = p2pb_imp_row_new(t);
        if (row)
            row->bytes = bytes;
    }
    return row;
}

/* Merge column sd of every table into t by size. Returns 0 when out of memory. */
static int cols_merge_side(const struct colset *set, struct p2pb_imp_table *t, size_t sd)
{
    for (size_t k = 0; k < set->ntabs; k++) {
        const struct coltab *c = &set->tabs[k];
        if (sd + 1 >= c->ncols)
            continue;
        for (size_t r = 0; r < c->nrows; r++) {
            struct p2pb_imp_row *row = cols_row_of(t, c->bytes[r]);
            if (!row)
                return 0;
            double v = c->v[r * (c->ncols - 1) + sd];
            if (set->memcpy_log) {
                row->t = v * 1000.0;
                row->mbps = 100.0 * 16.0 * 1048576.0 / row->t; /* already 10^6 B */
            } else if (c->metric == 1) {
                row->mbps = v;
            } else {
                row->t = v * c->t_scale;
            }
        }
    }
    return 1;
}

/* The one table of a side's group g: first's kernel; NULL when out of memory. */
static struct p2pb_imp_table *cols_side_table(struct p2pb_imp_group *g, const struct coltab *first,
                                              double bf)
{
    struct p2pb_imp_table *t = p2pb_imp_table_new(g, NULL);
    if (!t)
        return NULL;
    /* same sizes as first's (the precision only quiets -Wformat-truncation) */
    snprintf(t->kernel, sizeof t->kernel, "%.*s", (int)sizeof t->kernel - 1, first->kernel);
    snprintf(t->display, sizeof t->display, "%.*s", (int)sizeof t->display - 1, first->display);
    t->bytes_factor = bf;
    t->layout = P2PB_IMB_T;
    t->line = first->line;
    return t;
}

/* The group of side sd (value column sd + 1), labelled by its column name. */
static enum p2pb_status cols_side(struct p2pb_imp_log *lg, const struct colsides *cs, size_t sd,
                                  char *err, size_t errlen)
{
    const struct coltab *first = &cs->set->tabs[0];
    char label[64];
    snprintf(label, sizeof label, "%s", first->names[sd + 1]);
    for (char *p = label; *p; p++)
        if (*p == ' ' || *p == '/')
            *p = '_';
    struct p2pb_imp_group *g = p2pb_imp_group_new(lg, label);
    if (!g)
        return p2pb_fail(P2PB_ENOMEM, err, errlen, "%s: out of memory", lg->path);
    cols_group_facts(lg, cs, g, sd);
    struct p2pb_imp_table *t = cols_side_table(g, first, cs->bf);
    if (!t || !cols_merge_side(cs->set, t, sd))
        return p2pb_fail(P2PB_ENOMEM, err, errlen, "%s: out of memory", lg->path);
    return P2PB_OK;
}

/* The sides of the tables in set, one group each; sides matched by column. */
static enum p2pb_status cols_groups(struct p2pb_imp_log *lg, struct colset *set, char *err,
                                    size_t errlen)
{
    struct colsides cs = {.set = set, .lat = NULL, .bf = 1.0, .seed_pmb = 0};
    struct coltab *lat = NULL, *thr = NULL;
    for (size_t k = 0; k < set->ntabs; k++) {
        cs.seed_pmb |=
            (set->tabs[k].traits & P2PB_IMP_SEED_PMB) || p2pb_imp_ci_contains(lg->lines[0], "PMB");
        if (set->tabs[k].metric == 1 && !thr)
            thr = &set->tabs[k];
        if (set->tabs[k].metric == 0 && !lat)
            lat = &set->tabs[k];
    }
    cs.lat = lat;
    cs.bf = lat ? p2pb_imp_imb_bytes_factor(lat->kernel) : 1.0;
    if (lat && thr && !set->memcpy_log)
        cols_check_latency_unit(lg, lat, thr, cs.bf);
    size_t nsides = set->tabs[0].ncols - 1;
    for (size_t sd = 0; sd < nsides && sd < COLS_MAX; sd++) {
        enum p2pb_status st = cols_side(lg, &cs, sd, err, errlen);
        if (st != P2PB_OK)
            return st;
    }
    return P2PB_OK;
}

enum p2pb_status p2pb_imp_columns(struct p2pb_imp_log *lg, char *err, size_t errlen)
{
    struct colset set;
    memset(&set, 0, sizeof set);
    enum p2pb_status st = cols_find(lg, &set, err, errlen);
    if (st == P2PB_OK && set.ntabs)
        st = cols_groups(lg, &set, err, errlen);
    for (size_t k = 0; k < COLS_MAX; k++) {
        free(set.tabs[k].bytes);
        free(set.tabs[k].v);
    }
    return st;
}
