/* SPDX-License-Identifier: MIT */
/*
 * survey_load.c - a survey results file (docs/output-format.md, "Survey
 * rows") into node x node matrices (survey.h), in two passes over the file:
 * the first checks every line and collects the surveyed ranks, the second
 * fills the matrices; no row is held, so memory is the n x n matrices plus
 * the ranks (a survey of thousands of hosts reads in the matrices' size).
 * A pair retested alone keeps the better of its first-pass and retest
 * values (the retest rows come after the first pass in the file).
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>

#include "array.h"
#include "input.h"
#include "survey/survey.h"
#include "text.h"

/* Longest line read (as the results reader). */
#define MAX_LINE (16u << 20)

/* One survey row as read. */
struct srow {
    int lo, hi, from, retest, latency, capped;
    double wait; /* cpu_wait_pct; NAN unknown */
    double median, mbs;
    char host[2][64];
};

/* A file while it is read: nranks from the run record (0: none seen yet),
 * every row's pair must lie below it; n survey rows; the ranks of their
 * pairs (pass 1: nr entries, the first uniq of them sorted and distinct). */
struct reading {
    size_t n;
    double nranks;
    int *ranks;
    size_t nr, cap, uniq;
    int pass; /* 1 check and collect, 2 fill */
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
    r->capped = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "capped"));
    r->wait = get_number(o, "cpu_wait_pct", NAN);
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

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Sort rd->ranks and keep each rank once: uniq = nr = the distinct count. */
static void compact_ranks(struct reading *rd)
{
    qsort(rd->ranks, rd->nr, sizeof *rd->ranks, cmp_int);
    size_t u = 0;
    for (size_t i = 0; i < rd->nr; i++)
        if (u == 0 || rd->ranks[u - 1] != rd->ranks[i])
            rd->ranks[u++] = rd->ranks[i];
    rd->nr = rd->uniq = u;
}

/* Pass 1: the two ranks of row r into rd->ranks, compacted whenever the
 * unsorted tail outgrows the distinct part (memory O(distinct ranks)).
 * 0, or -1 out of memory. */
static int add_ranks(struct reading *rd, const struct srow *r)
{
    if (p2pb_array_grow(&rd->ranks, &rd->cap, rd->nr + 1, sizeof *rd->ranks) != 0)
        return -1;
    rd->ranks[rd->nr++] = r->lo;
    rd->ranks[rd->nr++] = r->hi;
    if (rd->nr - rd->uniq > (rd->uniq > 65536 ? rd->uniq : 65536))
        compact_ranks(rd);
    return 0;
}

/* Index of rank in m->ranks (sorted); -1 if absent. */
static long node_of(const struct p2pb_survey_matrix *m, int rank)
{
    const int *p = bsearch(&rank, m->ranks, m->n, sizeof *m->ranks, cmp_int);
    return p ? p - m->ranks : -1;
}

/* Set (on) or clear bit in *c. */
static void mark(unsigned char *c, unsigned bit, int on)
{
    *c = (unsigned char)((*c & ~bit) | (on ? bit : 0));
}

/* Pass 2: row r into the labels and the matrices (a retest keeps the better
 * of the two: interference, contention or a busy host, only ever slows a
 * measurement down). */
static void fill_row(struct p2pb_survey_matrix *m, const struct srow *r)
{
    size_t n = m->n;
    long la = node_of(m, r->lo), lb = node_of(m, r->hi);
    if (la < 0 || lb < 0)
        return; /* cannot happen: pass 1 saw the same rows */
    size_t a = (size_t)la, b = (size_t)lb;
    snprintf(m->labels[a], P2PB_SURVEY_LABEL, "%s", r->host[0]);
    snprintf(m->labels[b], P2PB_SURVEY_LABEL, "%s", r->host[1]);
    if (r->latency) {
        double *x = &m->lat[a * n + b];
        int keep = r->retest && isfinite(*x) && *x < r->median;
        *x = keep ? *x : r->median;
        m->lat[b * n + a] = *x;
        for (int k = 0; k < 2 && !keep; k++) {
            size_t at = k ? b * n + a : a * n + b;
            mark(&m->capped[at], P2PB_SURVEY_CAPPED_LAT, r->capped);
            m->lat_wait[at] = r->wait;
        }
    } else {
        size_t from = r->from == r->lo ? a : b, to = from == a ? b : a;
        double *x = &m->bw[from * n + to];
        int keep = r->retest && isfinite(*x) && *x > r->mbs;
        *x = keep ? *x : r->mbs;
        if (!keep) {
            mark(&m->capped[from * n + to], P2PB_SURVEY_CAPPED_BW, r->capped);
            m->bw_wait[from * n + to] = r->wait;
        }
    }
    if (r->retest)
        m->retested[a * n + b] = m->retested[b * n + a] = 1;
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
        struct srow row;
        int k = read_row(o, &row);
        if (k == -2)
            st = p2pb_fail(P2PB_EFORMAT, err, errlen,
                           "%s:%zu: survey row without a positive time or bandwidth (a "
                           "measured row cannot have 0)",
                           path, ln);
        else if (k < 0)
            st = p2pb_fail(P2PB_EFORMAT, err, errlen,
                           "%s:%zu: malformed survey row (pair, hosts, metric or direction)", path,
                           ln);
        else if (k > 0 && !rd->nranks)
            st = p2pb_fail(P2PB_EFORMAT, err, errlen,
                           "%s:%zu: survey row before a run record with \"nranks\"", path, ln);
        else if (k > 0 && !(rd->nranks > row.hi))
            st = p2pb_fail(P2PB_EFORMAT, err, errlen,
                           "%s:%zu: survey row's pair [%d, %d] is not among the run's %.0f ranks",
                           path, ln, row.lo, row.hi, rd->nranks);
        else if (k > 0 && rd->pass == 1 && add_ranks(rd, &row) != 0)
            st = p2pb_fail(P2PB_ENOMEM, err, errlen, "out of memory");
        else if (k > 0 && rd->pass == 2)
            fill_row(m, &row);
        rd->n += k > 0;
    }
    cJSON_Delete(o);
    return st;
}

/* After pass 1: the nodes (the distinct ranks, taken from rd) and empty
 * matrices. P2PB_ERANGE when the rows name far more nodes than they could
 * survey (NODES_PER_ROWS), P2PB_ENOMEM. */
static enum p2pb_status make_nodes(struct reading *rd, struct p2pb_survey_matrix *m)
{
    compact_ranks(rd);
    m->ranks = rd->ranks;
    m->n = rd->uniq;
    rd->ranks = NULL;
    if ((double)m->n * (double)m->n > NODES_PER_ROWS(rd->n))
        return P2PB_ERANGE;
    size_t n = m->n;
    m->labels = calloc(n, sizeof *m->labels);
    m->lat = malloc(n * n * sizeof *m->lat);
    m->bw = malloc(n * n * sizeof *m->bw);
    m->retested = calloc(n * n, 1);
    m->capped = calloc(n * n, 1);
    m->lat_wait = malloc(n * n * sizeof *m->lat_wait);
    m->bw_wait = malloc(n * n * sizeof *m->bw_wait);
    for (size_t i = 0; m->lat_wait && m->bw_wait && i < n * n; i++)
        m->lat_wait[i] = m->bw_wait[i] = NAN;
    if (!m->labels || !m->lat || !m->bw || !m->retested || !m->capped || !m->lat_wait ||
        !m->bw_wait)
        return P2PB_ENOMEM;
    for (size_t i = 0; i < n * n; i++)
        m->lat[i] = m->bw[i] = NAN;
    return P2PB_OK;
}

/* After pass 2: a host with several surveyed ranks labels them host:rank. */
static enum p2pb_status unique_labels(struct p2pb_survey_matrix *m)
{
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

/* One pass over fp (rewound) with rd->pass set. */
static enum p2pb_status read_pass(FILE *fp, struct reading *rd, struct p2pb_survey_matrix *m,
                                  const char *path, char *err, size_t errlen)
{
    char *line = NULL;
    size_t cap = 0, ln = 0;
    ssize_t len;
    enum p2pb_status st = P2PB_OK;
    rewind(fp);
    rd->n = 0;
    while (st == P2PB_OK && (len = getline(&line, &cap, fp)) >= 0) {
        ln++;
        if ((size_t)len > MAX_LINE)
            st = p2pb_fail(P2PB_EFORMAT, err, errlen, "%s:%zu: line longer than 16 MiB", path, ln);
        else if (len > 1 || (len == 1 && line[0] != '\n'))
            st = read_line_json(line, rd, m, path, ln, err, errlen);
    }
    free(line);
    return st;
}

/* path opened for two passes: a regular file (it is read twice) of at most
 * max_bytes bytes; NULL with one line in err otherwise. */
static FILE *open_survey(const char *path, size_t max_bytes, enum p2pb_status *st, char *err,
                         size_t errlen)
{
    FILE *fp = p2pb_open_input(path, st, err, errlen);
    struct stat sb;
    char shown[256];
    snprintf(shown, sizeof shown, "%s", path);
    p2pb_text_sanitize(shown);
    if (fp && (fstat(fileno(fp), &sb) != 0 || !S_ISREG(sb.st_mode)))
        *st = p2pb_fail(P2PB_EIO, err, errlen, "%s: not a regular file (a survey is read twice)",
                        shown);
    else if (fp && (unsigned long long)sb.st_size > (unsigned long long)max_bytes)
        *st = p2pb_input_too_large(shown, max_bytes, err, errlen);
    else
        return fp;
    if (fp)
        fclose(fp);
    return NULL;
}

enum p2pb_status p2pb_survey_load(const char *path, size_t max_bytes, struct p2pb_survey_matrix *m,
                                  char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    enum p2pb_status st = P2PB_OK;
    FILE *fp = open_survey(path, max_bytes, &st, err, errlen);
    if (!fp)
        return st;
    struct reading rd = {.pass = 1};
    st = read_pass(fp, &rd, m, path, err, errlen);
    if (st == P2PB_OK && rd.n == 0)
        st = p2pb_fail(P2PB_EFORMAT, err, errlen,
                       "%s: no survey rows (not made by 'p2pbench survey'?)", path);
    if (st == P2PB_OK && (st = make_nodes(&rd, m)) == P2PB_ERANGE)
        st = p2pb_fail(P2PB_EFORMAT, err, errlen,
                       "%s: %zu rows name %zu nodes: too few to be a survey of them (its "
                       "matrices would take %zu x %zu cells; a whole survey has 3 rows per pair)",
                       path, rd.n, m->n, m->n, m->n);
    rd.pass = 2;
    if (st == P2PB_OK)
        st = read_pass(fp, &rd, m, path, err, errlen);
    if (st == P2PB_OK)
        st = unique_labels(m);
    if (st == P2PB_ENOMEM)
        p2pb_fail(st, err, errlen, "out of memory reading '%s'", path);
    free(rd.ranks);
    fclose(fp);
    return st;
}

int p2pb_survey_node_retested(const struct p2pb_survey_matrix *m, size_t i)
{
    for (size_t j = 0; j < m->n; j++)
        if (m->retested[i * m->n + j])
            return 1;
    return 0;
}

void p2pb_survey_matrix_free(struct p2pb_survey_matrix *m)
{
    free(m->labels);
    free(m->ranks);
    free(m->lat);
    free(m->bw);
    free(m->retested);
    free(m->capped);
    free(m->lat_wait);
    free(m->bw_wait);
    memset(m, 0, sizeof *m);
}
