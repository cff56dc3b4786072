/* SPDX-License-Identifier: MIT */
/*
 * probe.c - the placement probe's record, its JSON, the floor of a latency
 * row and the grouping rule (probe.h). The measurement is src/bench/probe.c.
 */
#include "probe.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "p2pbench/stats.h"
#include "text.h"

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

void p2pb_probe_pair_finish(struct p2pb_probe_pair *p)
{
    double s[P2PB_PROBE_BATCHES];
    size_t n = p->nbatches < P2PB_PROBE_BATCHES ? p->nbatches : P2PB_PROBE_BATCHES;
    p->one_way_ns = p->min_ns = NAN;
    p->complete = n == P2PB_PROBE_BATCHES;
    if (!n)
        return;
    memcpy(s, p->batch_ns, n * sizeof *s);
    p->one_way_ns = p2pb_median_finite(s, n); /* s: its finite values first, ascending */
    p->min_ns = s[0];
}

/* A number, or null when it is not finite. */
static void add_num(cJSON *o, const char *key, double v)
{
    if (isfinite(v))
        cJSON_AddNumberToObject(o, key, v);
    else
        cJSON_AddNullToObject(o, key);
}

static cJSON *pair_json(const struct p2pb_probe_pair *p)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "ranks", cJSON_CreateIntArray(p->ranks, 2));
    cJSON *c = cJSON_AddArrayToObject(o, "cpus");
    for (int i = 0; i < 2; i++)
        cJSON_AddItemToArray(c,
                             p->cpus[i] >= 0 ? cJSON_CreateNumber(p->cpus[i]) : cJSON_CreateNull());
    cJSON_AddBoolToObject(o, "migrated", p->migrated);
    cJSON_AddStringToObject(o, "host", p->host);
    add_num(o, "one_way_ns", p->one_way_ns);
    add_num(o, "one_way_min_ns", p->min_ns);
    cJSON *b = cJSON_AddArrayToObject(o, "batches_ns");
    for (size_t i = 0; i < p->nbatches && i < P2PB_PROBE_BATCHES; i++)
        cJSON_AddItemToArray(b, cJSON_CreateNumber(p->batch_ns[i]));
    cJSON_AddBoolToObject(o, "complete", p->complete);
    return o;
}

cJSON *p2pb_probe_json(const struct p2pb_probe *p)
{
    if (!p->valid)
        return NULL;
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    cJSON_AddStringToObject(o, "method",
                            "one cache line bounced between the pair's CPUs through MPI-3 "
                            "shared memory (C11 atomics); one-way = batch time / round trips / 2");
    cJSON_AddNumberToObject(o, "round_trips_per_batch", (double)p->round_trips);
    cJSON_AddNumberToObject(o, "batches", P2PB_PROBE_BATCHES);
    cJSON_AddNumberToObject(o, "cap_ms", p->cap_ms);
    cJSON_AddNumberToObject(o, "cost_ms", p->cost_ms);
    if (p->error[0])
        cJSON_AddStringToObject(o, "error", p->error);
    cJSON *arr = cJSON_AddArrayToObject(o, "pairs");
    for (size_t i = 0; i < p->npairs && i < P2PB_PROBE_MAX_PAIRS; i++)
        cJSON_AddItemToArray(arr, pair_json(&p->pairs[i]));
    return o;
}

/* Element i of array a as an int in [lo, hi], or def when it is null;
 * returns 0 when it is neither. */
static int int_at(const cJSON *a, int i, int lo, int hi, int def, int *out)
{
    const cJSON *e = cJSON_GetArrayItem(a, i);
    if (cJSON_IsNull(e)) {
        *out = def;
        return 1;
    }
    if (!cJSON_IsNumber(e) || e->valuedouble < lo || e->valuedouble > hi ||
        e->valuedouble != (double)(int)e->valuedouble)
        return 0;
    *out = (int)e->valuedouble;
    return 1;
}

/* One pair from its JSON object; 0 when a field is missing or out of range. */
static int pair_from_json(const cJSON *o, struct p2pb_probe_pair *p)
{
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(o, "ranks");
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(o, "cpus");
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(o, "batches_ns");
    memset(p, 0, sizeof *p);
    if (cJSON_GetArraySize(r) != 2 || !int_at(r, 0, 0, 1 << 30, -1, &p->ranks[0]) ||
        !int_at(r, 1, 0, 1 << 30, -1, &p->ranks[1]) || p->ranks[0] < 0 || p->ranks[1] < 0)
        return 0;
    p->cpus[0] = p->cpus[1] = -1;
    if (cJSON_GetArraySize(c) == 2 &&
        !(int_at(c, 0, 0, 1 << 30, -1, &p->cpus[0]) && int_at(c, 1, 0, 1 << 30, -1, &p->cpus[1])))
        return 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, b)
    {
        if (!cJSON_IsNumber(e) || !(e->valuedouble > 0) || e->valuedouble > 1e12 ||
            p->nbatches == P2PB_PROBE_BATCHES)
            return 0;
        p->batch_ns[p->nbatches++] = e->valuedouble;
    }
    p->migrated = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "migrated"));
    const char *h = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "host"));
    snprintf(p->host, sizeof p->host, "%s", h ? h : "");
    p2pb_text_sanitize(p->host);
    /* the values are recomputed from the batches: the same rule as the run */
    p2pb_probe_pair_finish(p);
    return 1;
}

int p2pb_probe_from_json(const cJSON *run, struct p2pb_probe *p)
{
    memset(p, 0, sizeof *p);
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(run, "placement_probe");
    if (!cJSON_IsObject(o))
        return 0;
    const cJSON *rt = cJSON_GetObjectItemCaseSensitive(o, "round_trips_per_batch");
    const cJSON *cost = cJSON_GetObjectItemCaseSensitive(o, "cost_ms");
    const cJSON *cap = cJSON_GetObjectItemCaseSensitive(o, "cap_ms");
    p->round_trips = cJSON_IsNumber(rt) && rt->valuedouble > 0 && rt->valuedouble < 1e9
                         ? (size_t)rt->valuedouble
                         : 0;
    p->cost_ms = cJSON_IsNumber(cost) ? cost->valuedouble : NAN;
    p->cap_ms = cJSON_IsNumber(cap) ? cap->valuedouble : NAN;
    const char *err = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "error"));
    snprintf(p->error, sizeof p->error, "%s", err ? err : "");
    p2pb_text_sanitize(p->error);
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(o, "pairs"))
    {
        if (p->npairs < P2PB_PROBE_MAX_PAIRS && pair_from_json(e, &p->pairs[p->npairs]))
            p->npairs++;
    }
    p->valid = 1;
    return 1;
}

int p2pb_probe_row_pair(const struct p2pb_result *r, int *a, int *b)
{
    int x, y, n = 0;
    /* one-way rows (clocks synchronised, t = one way): "A->B" is the pair */
    if (r->clock.valid && sscanf(r->variant, "%d->%d%n", &x, &y, &n) == 2 && !r->variant[n] &&
        x >= 0 && y >= 0 && x != y) {
        *a = x < y ? x : y;
        *b = x < y ? y : x;
        return 1;
    }
    if (r->time_scale != 0.5)
        return 0;
    if (sscanf(r->variant, "pair %d-%d%n", &x, &y, &n) == 2 && !r->variant[n] && x >= 0 && y > x) {
        *a = x;
        *b = y;
        return 1;
    }
    if (r->variant[0] || r->active_ranks != 2)
        return 0;
    *a = 0;
    *b = 1;
    return 1;
}

/* The pair a, b of p; NULL when p has none. */
static const struct p2pb_probe_pair *find_pair(const struct p2pb_probe *p, int a, int b)
{
    for (size_t i = 0; p && p->valid && i < p->npairs; i++)
        if (p->pairs[i].ranks[0] == a && p->pairs[i].ranks[1] == b)
            return &p->pairs[i];
    return NULL;
}

double p2pb_probe_pair_floor_ns(const struct p2pb_probe_pair *q)
{
    return q && q->nbatches >= P2PB_PROBE_MIN_BATCHES ? q->min_ns : NAN;
}

double p2pb_probe_floor_usec(const struct p2pb_probe *p, const struct p2pb_result *r)
{
    int a, b;
    const struct p2pb_probe_pair *q = p2pb_probe_row_pair(r, &a, &b) ? find_pair(p, a, b) : NULL;
    return p2pb_probe_pair_floor_ns(q) * 1e-3;
}

double p2pb_probe_floor01_ns(const struct p2pb_probe *p)
{
    return p2pb_probe_pair_floor_ns(find_pair(p, 0, 1));
}

enum p2pb_status p2pb_probe_groups(const double *v, size_t n, int *group, size_t *ngroups)
{
    double *s = malloc((n ? n : 1) * sizeof *s);
    size_t m = 0;
    *ngroups = 0;
    if (!s)
        return P2PB_ENOMEM;
    for (size_t i = 0; i < n; i++)
        if (v[i] > 0 && isfinite(v[i]))
            s[m++] = v[i];
    qsort(s, m, sizeof *s, cmp_double);
    /* s[j] starts a group when it is the first or > GAP x s[j-1]; a value's
     * group is the number of group starts at or below it, minus one */
    for (size_t i = 0; i < n; i++) {
        group[i] = -1;
        if (!(v[i] > 0 && isfinite(v[i])))
            continue;
        for (size_t j = 0; j < m && s[j] <= v[i]; j++)
            group[i] += j == 0 || s[j] > P2PB_PROBE_GAP * s[j - 1];
    }
    for (size_t j = 0; j < m; j++)
        *ngroups += j == 0 || s[j] > P2PB_PROBE_GAP * s[j - 1];
    free(s);
    return P2PB_OK;
}
