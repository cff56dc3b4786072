/* SPDX-License-Identifier: MIT */
/*
 * survey_load.c - a survey results file (docs/output-format.md, "Survey
 * rows") into node x node matrices (survey.h). Rows are kept only while
 * reading; a pair retested alone keeps the better of its first-pass and
 * retest values (the retest rows come after the first pass in the file).
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "survey.h"
#include "text.h"

/* Longest line read (as the results reader). */
#define MAX_LINE (16u << 20)

/* One survey row as read. */
struct srow {
    int lo, hi, from, retest, latency;
    double median, mbs;
    char host[2][64];
};

/* The rows of a file while it is read; nranks from the run record (0:
 * none seen yet), every row's pair must lie below it. */
struct reading {
    struct srow *rows;
    size_t n, cap;
    double nranks;
};

/* A survey's node x node matrices take n^2 cells: a file may name at most
 * as many nodes as its rows can cover (a whole survey of n nodes has
 * 3 n (n - 1) / 2 rows; a survey cut short after a tenth of its rounds
 * still passes): n^2 <= 16 x rows + 1024. */
#define NODES_PER_ROWS(rows) (16.0 * (double)(rows) + 1024.0)

static void get_text(const cJSON *o, const char *name, char *dst, size_t len)
{
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(o, name);
    dst[0] = '\0';
    if (cJSON_IsString(s))
        snprintf(dst, len, "%s", s->valuestring);
    p2pb_text_sanitize(dst);
}

static double get_number(const cJSON *o, const char *name, double dflt)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, name);
    return cJSON_IsNumber(x) ? x->valuedouble : dflt;
}

/* The run record's rank count and "survey" object. */
static void read_run(const cJSON *run, struct p2pb_survey_matrix *m, struct reading *rd)
{
    double nr = get_number(run, "nranks", 0);
    rd->nranks = nr >= 2 && nr <= 1e9 && nr == floor(nr) ? nr : 0;
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(run, "survey");
    if (!cJSON_IsObject(s))
        return;
    get_text(s, "per", m->per, sizeof m->per);
    get_text(s, "mode", m->mode, sizeof m->mode);
    get_text(s, "order", m->order, sizeof m->order);
    m->seed = get_number(s, "seed", 0);
    m->lat_bytes = (size_t)get_number(s, "latency_bytes", 0);
    m->bw_bytes = (size_t)get_number(s, "bandwidth_bytes", 0);
    m->window = (size_t)get_number(s, "window", 0);
}

/* A result row with "pair" into r; 0 when it is not a survey row, -1 when
 * its survey fields are malformed, -2 when a measured row has a time or
 * bandwidth that is not positive. */
static int read_row(const cJSON *o, struct srow *r)
{
    const cJSON *pair = cJSON_GetObjectItemCaseSensitive(o, "pair");
    const cJSON *hosts = cJSON_GetObjectItemCaseSensitive(o, "hosts");
    if (!pair)
        return 0;
    if (cJSON_GetArraySize(pair) != 2 || cJSON_GetArraySize(hosts) != 2)
        return -1;
    memset(r, 0, sizeof *r);
    const cJSON *a = cJSON_GetArrayItem(pair, 0), *b = cJSON_GetArrayItem(pair, 1);
    if (!cJSON_IsNumber(a) || !cJSON_IsNumber(b) || a->valuedouble < 0 ||
        a->valuedouble >= b->valuedouble || b->valuedouble > 1e9 ||
        a->valuedouble != floor(a->valuedouble) || b->valuedouble != floor(b->valuedouble))
        return -1;
    r->lo = a->valueint;
    r->hi = b->valueint;
    for (int i = 0; i < 2; i++) {
        const cJSON *h = cJSON_GetArrayItem(hosts, i);
        if (!cJSON_IsString(h))
            return -1;
        snprintf(r->host[i], sizeof r->host[i], "%s", h->valuestring);
        p2pb_text_sanitize(r->host[i]);
    }
    char metric[16], dir[32];
    get_text(o, "metric", metric, sizeof metric);
    get_text(o, "direction", dir, sizeof dir);
    r->latency = strcmp(metric, "latency") == 0;
    if (!r->latency && (strcmp(metric, "bandwidth") != 0 || sscanf(dir, "%d->", &r->from) != 1 ||
                        (r->from != r->lo && r->from != r->hi)))
        return -1;
    r->retest = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "retest"));
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(o, "t_usec");
    r->median = t ? get_number(t, "median", NAN) : NAN;
    r->mbs = get_number(o, "mbytes_per_sec", NAN);
    char status[16];
    get_text(o, "status", status, sizeof status);
    /* the verdicts work on logarithms: a measured row needs positive numbers */
    if (strcmp(status, "ok") == 0 && (!(r->median > 0) || (!r->latency && !(r->mbs > 0))))
        return -2;
    return 1;
}

/* One line: run record, survey row or end record. */
static enum p2pb_status read_line_json(const char *line, struct reading *rd,
                                       struct p2pb_survey_matrix *m, const char *path, size_t ln,
                                       char *err, size_t errlen)
{
    cJSON *o = cJSON_Parse(line);
    if (!o)
        return p2pb_fail(P2PB_EFORMAT, err, errlen, "%s:%zu: not a JSON object", path, ln);
    char type[16];
    get_text(o, "type", type, sizeof type);
    enum p2pb_status st = P2PB_OK;
    if (strcmp(type, "run") == 0)
        read_run(o, m, rd);
    else if (strcmp(type, "end") == 0) {
        char s[32];
        get_text(o, "status", s, sizeof s);
        m->complete = strcmp(s, "complete") == 0;
    } else if (strcmp(type, "result") == 0) {
        if (p2pb_array_grow(&rd->rows, &rd->cap, rd->n, sizeof *rd->rows) != 0)
            st = p2pb_fail(P2PB_ENOMEM, err, errlen, "out of memory");
        else {
            int k = read_row(o, &rd->rows[rd->n]);
            if (k == -2)
                st = p2pb_fail(P2PB_EFORMAT, err, errlen,
                               "%s:%zu: survey row without a positive time or bandwidth (a "
                               "measured row cannot have 0)",
                               path, ln);
            else if (k < 0)
                st = p2pb_fail(P2PB_EFORMAT, err, errlen,
                               "%s:%zu: malformed survey row (pair, hosts, metric or direction)",
                               path, ln);
            else if (k > 0 && !rd->nranks)
                st = p2pb_fail(P2PB_EFORMAT, err, errlen,
                               "%s:%zu: survey row before a run record with \"nranks\"", path, ln);
            else if (k > 0 && !(rd->nranks > rd->rows[rd->n].hi))
                st = p2pb_fail(P2PB_EFORMAT, err, errlen,
                               "%s:%zu: survey row's pair [%d, %d] is not among the run's %.0f "
                               "ranks",
                               path, ln, rd->rows[rd->n].lo, rd->rows[rd->n].hi, rd->nranks);
            rd->n += k > 0;
        }
    }
    cJSON_Delete(o);
    return st;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Index of rank in m->ranks (sorted); -1 if absent. */
static long node_of(const struct p2pb_survey_matrix *m, int rank)
{
    const int *p = bsearch(&rank, m->ranks, m->n, sizeof *m->ranks, cmp_int);
    return p ? p - m->ranks : -1;
}

/* The nodes: distinct ranks, labelled by host, or host:rank where a host
 * has several. */
static enum p2pb_status make_nodes(const struct reading *rd, struct p2pb_survey_matrix *m)
{
    m->ranks = malloc((2 * rd->n + 1) * sizeof *m->ranks);
    if (!m->ranks)
        return P2PB_ENOMEM;
    size_t n = 0;
    for (size_t i = 0; i < rd->n; i++) {
        m->ranks[n++] = rd->rows[i].lo;
        m->ranks[n++] = rd->rows[i].hi;
    }
    qsort(m->ranks, n, sizeof *m->ranks, cmp_int);
    m->n = 0;
    for (size_t i = 0; i < n; i++)
        if (m->n == 0 || m->ranks[m->n - 1] != m->ranks[i])
            m->ranks[m->n++] = m->ranks[i];
    if ((double)m->n * (double)m->n > NODES_PER_ROWS(rd->n))
        return P2PB_ERANGE;
    m->labels = calloc(m->n, sizeof *m->labels);
    if (!m->labels)
        return P2PB_ENOMEM;
    for (size_t i = 0; i < rd->n; i++)
        for (int s = 0; s < 2; s++)
            snprintf(m->labels[node_of(m, s ? rd->rows[i].hi : rd->rows[i].lo)], P2PB_SURVEY_LABEL,
                     "%s", rd->rows[i].host[s]);
    unsigned char *dup = calloc(m->n + 1, 1);
    if (!dup)
        return P2PB_ENOMEM;
    for (size_t i = 0; i < m->n; i++) /* O(n^2): the report holds n x n anyway */
        for (size_t j = i + 1; j < m->n; j++)
            if (strcmp(m->labels[i], m->labels[j]) == 0)
                dup[i] = dup[j] = 1;
    for (size_t i = 0; i < m->n; i++)
        if (dup[i]) {
            size_t l = strlen(m->labels[i]);
            l = l < P2PB_SURVEY_LABEL - 12 ? l : P2PB_SURVEY_LABEL - 12;
            snprintf(m->labels[i] + l, P2PB_SURVEY_LABEL - l, ":%d", m->ranks[i]);
        }
    free(dup);
    return P2PB_OK;
}

/* The matrices from the rows, in file order (a retest overwrites). */
static enum p2pb_status fill(const struct reading *rd, struct p2pb_survey_matrix *m)
{
    size_t n = m->n;
    m->lat = malloc(n * n * sizeof *m->lat);
    m->bw = malloc(n * n * sizeof *m->bw);
    m->retested = calloc(n * n, 1);
    if (!m->lat || !m->bw || !m->retested)
        return P2PB_ENOMEM;
    for (size_t i = 0; i < n * n; i++)
        m->lat[i] = m->bw[i] = NAN;
    for (size_t k = 0; k < rd->n; k++) {
        const struct srow *r = &rd->rows[k];
        size_t a = (size_t)node_of(m, r->lo), b = (size_t)node_of(m, r->hi);
        /* a retest keeps the better of the two: interference (contention,
         * a busy host) only ever slows a measurement down */
        if (r->latency) {
            double *x = &m->lat[a * n + b];
            *x = r->retest && isfinite(*x) && *x < r->median ? *x : r->median;
            m->lat[b * n + a] = *x;
        } else {
            size_t from = r->from == r->lo ? a : b, to = from == a ? b : a;
            double *x = &m->bw[from * n + to];
            *x = r->retest && isfinite(*x) && *x > r->mbs ? *x : r->mbs;
        }
        if (r->retest)
            m->retested[a * n + b] = m->retested[b * n + a] = 1;
    }
    return P2PB_OK;
}

enum p2pb_status p2pb_survey_load(const char *path, struct p2pb_survey_matrix *m, char *err,
                                  size_t errlen)
{
    memset(m, 0, sizeof *m);
    FILE *fp = fopen(path, "r");
    if (!fp)
        return p2pb_fail(P2PB_EIO, err, errlen, "cannot open '%s'", path);
    struct reading rd = {0};
    char *line = NULL;
    size_t cap = 0, ln = 0;
    ssize_t len;
    enum p2pb_status st = P2PB_OK;
    while (st == P2PB_OK && (len = getline(&line, &cap, fp)) >= 0) {
        ln++;
        if ((size_t)len > MAX_LINE)
            st = p2pb_fail(P2PB_EFORMAT, err, errlen, "%s:%zu: line longer than 16 MiB", path, ln);
        else if (len > 1 || (len == 1 && line[0] != '\n'))
            st = read_line_json(line, &rd, m, path, ln, err, errlen);
    }
    free(line);
    fclose(fp);
    if (st == P2PB_OK && rd.n == 0)
        st = p2pb_fail(P2PB_EFORMAT, err, errlen,
                       "%s: no survey rows (not made by 'p2pbench survey'?)", path);
    if (st == P2PB_OK && (st = make_nodes(&rd, m)) == P2PB_ERANGE)
        st = p2pb_fail(P2PB_EFORMAT, err, errlen,
                       "%s: %zu rows name %zu nodes: too few to be a survey of them (its "
                       "matrices would take %zu x %zu cells; a whole survey has 3 rows per pair)",
                       path, rd.n, m->n, m->n, m->n);
    if (st == P2PB_OK)
        st = fill(&rd, m);
    if (st == P2PB_ENOMEM)
        p2pb_fail(st, err, errlen, "out of memory reading '%s'", path);
    free(rd.rows);
    return st;
}

void p2pb_survey_matrix_free(struct p2pb_survey_matrix *m)
{
    free(m->labels);
    free(m->ranks);
    free(m->lat);
    free(m->bw);
    free(m->retested);
    memset(m, 0, sizeof *m);
}
