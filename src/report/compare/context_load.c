/* SPDX-License-Identifier: MIT */
/*
 * context_load: the host's load during each launch of a side, and a load
 * difference between two sides as a confounder (compare.h).
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"

/* A number of object o, or -1 when absent, null or negative. */
static double num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) && v->valuedouble >= 0 ? v->valuedouble : -1;
}

/* Sums over the readings of a launch (mean = sum / n). */
struct sums {
    double avg10, beside, loadavg, wait_us, wall_sec;
    size_t n_avg10, n_beside, n_loadavg;
};

static void add_reading(struct sums *s, const cJSON *r, double local_ranks)
{
    double v = num(r, "cpu_some_avg10");
    if (v >= 0) {
        s->avg10 += v;
        s->n_avg10++;
    }
    v = num(r, "procs_running");
    if (v >= 0 && local_ranks >= 0) {
        s->beside += v > local_ranks ? v - local_ranks : 0;
        s->n_beside++;
    }
    const cJSON *la = cJSON_GetObjectItemCaseSensitive(r, "loadavg");
    if (cJSON_IsArray(la) && cJSON_IsNumber(la->child)) {
        s->loadavg += la->child->valuedouble;
        s->n_loadavg++;
    }
}

/* A kernel's start and end: the wait (usec) and wall time between them. */
static void add_span(struct sums *s, const cJSON *k)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(k, "start");
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(k, "end");
    double wa = num(a, "cpu_some_total_us"), wb = num(b, "cpu_some_total_us");
    double ta = num(a, "monotonic_sec"), tb = num(b, "monotonic_sec");
    if (wa >= 0 && wb >= wa && ta >= 0 && tb > ta) {
        s->wait_us += wb - wa;
        s->wall_sec += tb - ta;
    }
}

void p2pb_launch_load(const struct p2pb_results_data *d, struct p2pb_launch_load *out)
{
    out->cpu = out->beside = out->loadavg = -1;
    const cJSON *load = d->run ? cJSON_GetObjectItemCaseSensitive(d->run, "load") : NULL;
    if (!cJSON_IsObject(load))
        return;
    struct sums s = {0};
    double local = num(load, "local_ranks");
    add_reading(&s, cJSON_GetObjectItemCaseSensitive(load, "at_start"), local);
    const cJSON *k;
    cJSON_ArrayForEach(k, (const cJSON *)d->load)
    {
        add_reading(&s, cJSON_GetObjectItemCaseSensitive(k, "start"), local);
        add_reading(&s, cJSON_GetObjectItemCaseSensitive(k, "end"), local);
        add_span(&s, k);
    }
    if (s.wall_sec > 0) {
        double p = 100.0 * s.wait_us / (s.wall_sec * 1e6);
        out->cpu = p > 100 ? 100 : p;
    } else if (s.n_avg10)
        out->cpu = s.avg10 / (double)s.n_avg10;
    if (s.n_beside)
        out->beside = s.beside / (double)s.n_beside;
    if (s.n_loadavg)
        out->loadavg = s.loadavg / (double)s.n_loadavg;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* Median, min and max of one quantity over a side's launches (-1: none). */
struct spread {
    double med, lo, hi;
};

static enum p2pb_status side_spread(const struct p2pb_side *s, size_t field, struct spread *out)
{
    double *v = malloc((s->nfiles ? s->nfiles : 1) * sizeof *v);
    size_t n = 0;
    if (!v)
        return P2PB_ENOMEM;
    for (size_t f = 0; f < s->nfiles; f++) {
        struct p2pb_launch_load l;
        p2pb_launch_load(&s->files[f], &l);
        double x = field == 0 ? l.cpu : field == 1 ? l.beside : l.loadavg;
        if (x >= 0)
            v[n++] = x;
    }
    out->med = out->lo = out->hi = -1;
    if (n) {
        qsort(v, n, sizeof *v, cmp_double);
        out->med = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
        out->lo = v[0];
        out->hi = v[n - 1];
    }
    free(v);
    return P2PB_OK;
}

/* "CPU pressure 3% (1..6%), 0.0 tasks beside the ranks, load average 0.4" */
static void side_text(char *buf, size_t len, const struct spread *q)
{
    int w = snprintf(buf, len, "CPU pressure %.0f%% (%.0f..%.0f%%), %.1f tasks beside the ranks",
                     q[0].med, q[0].lo, q[0].hi, q[1].med < 0 ? 0 : q[1].med);
    if (q[2].med >= 0 && w > 0 && (size_t)w < len)
        snprintf(buf + w, len - (size_t)w, ", load average %.2g", q[2].med);
}

enum p2pb_status p2pb_context_load(const struct p2pb_side *a, const struct p2pb_side *b,
                                   char **line)
{
    struct spread qa[3], qb[3];
    *line = NULL;
    for (size_t i = 0; i < 3; i++)
        if (side_spread(a, i, &qa[i]) != P2PB_OK || side_spread(b, i, &qb[i]) != P2PB_OK)
            return P2PB_ENOMEM;
    if (qa[0].med < 0 || qb[0].med < 0) /* one side records no load: nothing to compare */
        return P2PB_OK;
    double dcpu = qa[0].med - qb[0].med, dbes = qa[1].med - qb[1].med;
    int beside_known = qa[1].med >= 0 && qb[1].med >= 0;
    if (!(dcpu >= P2PB_LOAD_CPU_POINTS || -dcpu >= P2PB_LOAD_CPU_POINTS ||
          (beside_known && (dbes >= P2PB_LOAD_BESIDE || -dbes >= P2PB_LOAD_BESIDE))))
        return P2PB_OK;
    char ta[160], tb[160];
    side_text(ta, sizeof ta, qa);
    side_text(tb, sizeof tb, qb);
    size_t len = strlen(ta) + strlen(tb) + strlen(a->name) + strlen(b->name) + 96;
    *line = malloc(len);
    if (!*line)
        return P2PB_ENOMEM;
    snprintf(*line, len, "load (rank 0's host, during the kernels): %s = %s | %s = %s", a->name, ta,
             b->name, tb);
    return P2PB_OK;
}
