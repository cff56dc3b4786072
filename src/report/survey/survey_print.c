/* SPDX-License-Identifier: MIT */
/*
 * survey_print.c - the survey's tables: text (matrices up to
 * P2PB_SURVEY_FULL_MAX nodes, else one line per node; the slowest pairs; the
 * verdicts), one JSON document, or csv (one line per pair). Labels were
 * sanitised when read (survey_load.c); csv quotes them.
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"
#include "survey/survey.h"
#include "text.h"

void p2pb_survey_slowest(const struct p2pb_survey_matrix *m, int bw, struct p2pb_survey_slowest *w)
{
    w->n = 0;
    for (size_t i = 0; i < m->n; i++)
        for (size_t j = i + 1; j < m->n; j++) {
            double x = bw ? p2pb_survey_pair_bw(m, i, j) : m->lat[i * m->n + j];
            if (!isfinite(x))
                continue;
            size_t k = w->n;
            while (k > 0 && (bw ? w->v[k - 1] > x : w->v[k - 1] < x))
                k--;
            if (k >= P2PB_SURVEY_NSLOWEST)
                continue;
            size_t last = w->n < P2PB_SURVEY_NSLOWEST ? w->n : P2PB_SURVEY_NSLOWEST - 1;
            for (size_t q = last; q > k; q--)
                w->i[q] = w->i[q - 1], w->j[q] = w->j[q - 1], w->v[q] = w->v[q - 1];
            w->i[k] = i, w->j[k] = j, w->v[k] = x;
            w->n += w->n < P2PB_SURVEY_NSLOWEST;
        }
}

/* Width of the label column: the longest label, 6 .. 24. */
static int label_width(const struct p2pb_survey_matrix *m)
{
    size_t w = 6;
    for (size_t i = 0; i < m->n; i++)
        w = strlen(m->labels[i]) > w ? strlen(m->labels[i]) : w;
    return (int)(w < 24 ? w : 24);
}

/* One n x n matrix (bw: MB/s row -> column; else latency). */
static void print_matrix(FILE *o, const struct p2pb_survey_matrix *m, int bw)
{
    int w = label_width(m), cw = w > 9 ? w : 9;
    fprintf(o, "\n# %s\n%-*s",
            bw ? "Bandwidth MB/s, from the row's node to the column's"
               : "Latency t[usec] (median, half round trip)",
            w, "");
    for (size_t j = 0; j < m->n; j++)
        fprintf(o, " %*.*s", cw, cw, m->labels[j]);
    fputc('\n', o);
    for (size_t i = 0; i < m->n; i++) {
        fprintf(o, "%-*.*s", w, w, m->labels[i]);
        for (size_t j = 0; j < m->n; j++) {
            double x = bw ? m->bw[i * m->n + j] : m->lat[i * m->n + j];
            char sfx[3] = "";
            if (m->retested[i * m->n + j])
                strcat(sfx, "r");
            if (m->capped[i * m->n + j] & (bw ? P2PB_SURVEY_CAPPED_BW : P2PB_SURVEY_CAPPED_LAT))
                strcat(sfx, "c");
            if (isnan(x))
                fprintf(o, " %*s", cw, "-");
            else
                fprintf(o, " %*.*f%s", cw - (int)strlen(sfx), bw ? 1 : 2, x, sfx);
        }
        fputc('\n', o);
    }
}

/* More than P2PB_SURVEY_FULL_MAX nodes: one line per node. */
static void print_summary(FILE *o, const struct p2pb_survey_matrix *m,
                          const struct p2pb_survey_verdict *v)
{
    int w = label_width(m);
    fprintf(o,
            "\n# %zu nodes: per node, the median over its partners (matrices: -f json or "
            "csv)\n%-*s %14s %14s  %s\n",
            m->n, w, "node", "t[usec]", "MB/s", "verdict");
    for (size_t i = 0; i < m->n; i++)
        fprintf(o, "%-*.*s %14.2f %14.1f  %s\n", w, w, m->labels[i], v->node_lat[i], v->node_bw[i],
                v->slow_node[i] ? "slow node" : "");
}

const char *p2pb_survey_why(unsigned why)
{
    return why == (P2PB_SLOW_LATENCY | P2PB_SLOW_BANDWIDTH) ? "latency and bandwidth"
           : why == P2PB_SLOW_LATENCY                       ? "latency"
                                                            : "bandwidth";
}

/* How many verdicts of v were never retested alone (survey.h). */
static size_t count_unretested(const struct p2pb_survey_matrix *m,
                               const struct p2pb_survey_verdict *v)
{
    size_t n = m->n, k = 0;
    for (size_t i = 0; i < n; i++) {
        k += v->slow_node[i] && !p2pb_survey_node_retested(m, i);
        for (size_t j = i + 1; j < n; j++)
            k += v->slow_link[i * n + j] && !m->retested[i * n + j];
    }
    return k;
}

static void print_verdicts(FILE *o, const struct p2pb_survey_matrix *m,
                           const struct p2pb_survey_verdict *v,
                           const struct p2pb_outlier_rule *rule)
{
    size_t n = m->n, unretested = count_unretested(m, v);
    const char *nr = " - suspect, not retested";
    fprintf(o,
            "\n# Verdicts: slow = beyond the median by more than %g scaled MADs and by at "
            "least %g%%, on the effects of a median polish (docs/survey.md); typical pair "
            "%.2f usec, %.1f MB/s\n",
            rule->k, rule->min_off * 100, v->lat_median, v->bw_median);
    if (unretested)
        fprintf(o,
                "# %zu verdict%s below marked 'suspect, not retested': named from the first "
                "pass alone, never measured again alone (%s)\n",
                unretested, unretested == 1 ? "" : "s",
                m->complete ? "not among the survey's own suspects"
                            : "the survey stopped before its retests");
    for (size_t i = 0; i < n; i++)
        if (v->slow_node[i])
            fprintf(o,
                    "slow node: %s (%s; its links x%.2f latency, x%.3f bandwidth; median over "
                    "its partners %.2f usec, %.1f MB/s)%s\n",
                    m->labels[i], p2pb_survey_why(v->slow_node[i]), v->node_lat_f[i],
                    v->node_bw_f[i], v->node_lat[i], v->node_bw[i],
                    p2pb_survey_node_retested(m, i) ? "" : nr);
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            if (v->slow_link[i * n + j])
                fprintf(o, "slow link: %s-%s (%s; t %.2f usec, %.1f MB/s)%s\n", m->labels[i],
                        m->labels[j], p2pb_survey_why(v->slow_link[i * n + j]), m->lat[i * n + j],
                        p2pb_survey_pair_bw(m, i, j), m->retested[i * n + j] ? "" : nr);
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            if (v->starved_link[i * n + j])
                fprintf(o,
                        "not judged: %s-%s (%s beyond the link rule, t %.2f usec, %.1f MB/s, "
                        "but measured while a rank of the pair waited for a CPU at least "
                        "%g points more than the typical measurement: CPU-starved, not a "
                        "link verdict)\n",
                        m->labels[i], m->labels[j], p2pb_survey_why(v->starved_link[i * n + j]),
                        m->lat[i * n + j], p2pb_survey_pair_bw(m, i, j), P2PB_SURVEY_STARVED_PCT);
    if (!v->nslow_nodes && !v->nslow_links)
        fprintf(o, "no slow node, no slow link\n");
}

static void print_text(FILE *o, const char *path, const struct p2pb_survey_matrix *m,
                       const struct p2pb_survey_verdict *v, const struct p2pb_outlier_rule *rule)
{
    fprintf(o, "# Survey %s: %zu nodes (per %s), pairs %s, order %s%s\n", path, m->n,
            m->per[0] ? m->per : "?", m->mode[0] ? m->mode : "?", m->order[0] ? m->order : "?",
            m->complete ? "" : "; INCOMPLETE (no complete end record)");
    fprintf(o,
            "# latency: PingPong of %zu bytes; bandwidth: %zu x %zu bytes one way; MB/s with "
            "1 MB = 10^6 bytes; r = retested alone, the better of its two values; c = capped, "
            "its measurement ended at the survey's time cap\n",
            m->lat_bytes, m->window, m->bw_bytes);
    if (m->n <= P2PB_SURVEY_FULL_MAX) {
        print_matrix(o, m, 0);
        print_matrix(o, m, 1);
    } else
        print_summary(o, m, v);
    for (int bw = 0; bw < 2; bw++) {
        struct p2pb_survey_slowest w;
        p2pb_survey_slowest(m, bw, &w);
        fprintf(o, "\n# Slowest pairs by %s\n", bw ? "bandwidth (slower direction)" : "latency");
        for (size_t k = 0; k < w.n; k++)
            fprintf(o, "%s-%s %.*f %s\n", m->labels[w.i[k]], m->labels[w.j[k]], bw ? 1 : 2, w.v[k],
                    bw ? "MB/s" : "usec");
    }
    print_verdicts(o, m, v, rule);
}

/* A finite number, or null. */
static cJSON *num(double x)
{
    return isfinite(x) ? cJSON_CreateNumber(x) : cJSON_CreateNull();
}

/* n x n matrix as an array of rows (bw: MB/s row -> column). */
static cJSON *matrix_json(const struct p2pb_survey_matrix *m, int bw)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; i < m->n; i++) {
        cJSON *row = cJSON_CreateArray();
        for (size_t j = 0; j < m->n; j++)
            cJSON_AddItemToArray(row, num(bw ? m->bw[i * m->n + j] : m->lat[i * m->n + j]));
        cJSON_AddItemToArray(a, row);
    }
    return a;
}

static cJSON *pair_json(const struct p2pb_survey_matrix *m, size_t i, size_t j)
{
    cJSON *p = cJSON_CreateArray();
    cJSON_AddItemToArray(p, cJSON_CreateString(m->labels[i]));
    cJSON_AddItemToArray(p, cJSON_CreateString(m->labels[j]));
    return p;
}

/* "slow_nodes": [labels], "slow_links": [[a, b], ...], the same of those
 * never retested alone in "not_retested", "capped_pairs" (a kept value
 * capped), "starved_links" (beyond the link rule, but CPU-starved: not
 * judged), "slowest": {...}. */
static void add_verdicts(cJSON *d, const struct p2pb_survey_matrix *m,
                         const struct p2pb_survey_verdict *v)
{
    cJSON *nodes = cJSON_AddArrayToObject(d, "slow_nodes");
    cJSON *links = cJSON_AddArrayToObject(d, "slow_links");
    cJSON *nr = cJSON_AddObjectToObject(d, "not_retested");
    cJSON *nr_nodes = cJSON_AddArrayToObject(nr, "slow_nodes");
    cJSON *nr_links = cJSON_AddArrayToObject(nr, "slow_links");
    cJSON *capped = cJSON_AddArrayToObject(d, "capped_pairs");
    cJSON *starved = cJSON_AddArrayToObject(d, "starved_links");
    for (size_t i = 0; i < m->n; i++) {
        if (v->slow_node[i])
            cJSON_AddItemToArray(nodes, cJSON_CreateString(m->labels[i]));
        if (v->slow_node[i] && !p2pb_survey_node_retested(m, i))
            cJSON_AddItemToArray(nr_nodes, cJSON_CreateString(m->labels[i]));
        for (size_t j = i + 1; j < m->n; j++) {
            if (v->slow_link[i * m->n + j])
                cJSON_AddItemToArray(links, pair_json(m, i, j));
            if (v->slow_link[i * m->n + j] && !m->retested[i * m->n + j])
                cJSON_AddItemToArray(nr_links, pair_json(m, i, j));
            if (m->capped[i * m->n + j] || m->capped[j * m->n + i])
                cJSON_AddItemToArray(capped, pair_json(m, i, j));
            if (v->starved_link[i * m->n + j])
                cJSON_AddItemToArray(starved, pair_json(m, i, j));
        }
    }
    cJSON *sl = cJSON_AddObjectToObject(d, "slowest");
    for (int bw = 0; bw < 2; bw++) {
        struct p2pb_survey_slowest w;
        p2pb_survey_slowest(m, bw, &w);
        cJSON *a = cJSON_AddArrayToObject(sl, bw ? "bandwidth_mbs" : "latency_usec");
        for (size_t k = 0; k < w.n; k++) {
            cJSON *e = cJSON_CreateObject();
            cJSON_AddItemToObject(e, "nodes", pair_json(m, w.i[k], w.j[k]));
            cJSON_AddItemToObject(e, "value", num(w.v[k]));
            cJSON_AddItemToArray(a, e);
        }
    }
}

static void print_json(FILE *o, const char *path, const struct p2pb_survey_matrix *m,
                       const struct p2pb_survey_verdict *v, const struct p2pb_outlier_rule *rule)
{
    cJSON *d = cJSON_CreateObject();
    cJSON_AddStringToObject(d, "file", path);
    cJSON_AddBoolToObject(d, "complete", m->complete);
    cJSON_AddStringToObject(d, "per", m->per);
    cJSON_AddStringToObject(d, "mode", m->mode);
    cJSON_AddStringToObject(d, "order", m->order);
    cJSON *nodes = cJSON_AddArrayToObject(d, "nodes");
    for (size_t i = 0; i < m->n; i++)
        cJSON_AddItemToArray(nodes, cJSON_CreateString(m->labels[i]));
    cJSON *r = cJSON_AddObjectToObject(d, "rule");
    cJSON_AddNumberToObject(r, "k_mad", rule->k);
    cJSON_AddNumberToObject(r, "min_off", rule->min_off);
    cJSON *nl = cJSON_AddArrayToObject(d, "node_latency_usec");
    cJSON *nb = cJSON_AddArrayToObject(d, "node_bandwidth_mbs");
    cJSON *fl = cJSON_AddArrayToObject(d, "node_latency_factor");
    cJSON *fb = cJSON_AddArrayToObject(d, "node_bandwidth_factor");
    for (size_t i = 0; i < m->n; i++) {
        cJSON_AddItemToArray(nl, num(v->node_lat[i]));
        cJSON_AddItemToArray(nb, num(v->node_bw[i]));
        cJSON_AddItemToArray(fl, num(v->node_lat_f[i]));
        cJSON_AddItemToArray(fb, num(v->node_bw_f[i]));
    }
    cJSON_AddItemToObject(d, "typical_latency_usec", num(v->lat_median));
    cJSON_AddItemToObject(d, "typical_bandwidth_mbs", num(v->bw_median));
    cJSON_AddItemToObject(d, "latency_usec", matrix_json(m, 0));
    cJSON_AddItemToObject(d, "bandwidth_mbs", matrix_json(m, 1));
    add_verdicts(d, m, v);
    char *s = cJSON_Print(d);
    if (s) {
        p2pb_text_write_json(o, s, strlen(s)); /* C1 and bidi controls as \uXXXX */
        fputc('\n', o);
    }
    free(s);
    cJSON_Delete(d);
}

static void print_csv(FILE *o, const struct p2pb_survey_matrix *m,
                      const struct p2pb_survey_verdict *v)
{
    fprintf(o, "node_a,node_b,t_usec,mbytes_per_sec_a_to_b,mbytes_per_sec_b_to_a,retested,"
               "slow_link,slow_node_a,slow_node_b,capped\n");
    for (size_t i = 0; i < m->n; i++)
        for (size_t j = i + 1; j < m->n; j++) {
            p2pb_csv_field(o, m->labels[i]);
            fputc(',', o);
            p2pb_csv_field(o, m->labels[j]);
            fprintf(o, ",%.3f,%.3f,%.3f,%d,%d,%d,%d,%d\n", m->lat[i * m->n + j],
                    m->bw[i * m->n + j], m->bw[j * m->n + i], m->retested[i * m->n + j],
                    v->slow_link[i * m->n + j] != 0, v->slow_node[i] != 0, v->slow_node[j] != 0,
                    (m->capped[i * m->n + j] | m->capped[j * m->n + i]) != 0);
        }
}

void p2pb_survey_print(FILE *o, enum p2pb_survey_fmt fmt, const char *path,
                       const struct p2pb_survey_matrix *m, const struct p2pb_survey_verdict *v,
                       const struct p2pb_outlier_rule *rule)
{
    if (fmt == P2PB_SURVEY_JSON)
        print_json(o, path, m, v, rule);
    else if (fmt == P2PB_SURVEY_CSV)
        print_csv(o, m, v);
    else
        print_text(o, path, m, v, rule);
}
