/* SPDX-License-Identifier: MIT */
/*
 * survey_rows.c - rank 0's side of the survey: a row as a results-file line
 * (the result record plus the survey's fields, docs/output-format.md), and
 * the tracker that picks the suspects of the first pass from a bounded
 * sample of all pairs' values and the k slowest pairs of each metric.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "outlier.h"
#include "survey.h"

/* Pairs' values kept for the outlier bounds: all of them up to this many,
 * then a uniform sample (reservoir sampling, Vitter's algorithm R). */
#define RESERVOIR 8192

cJSON *p2pb_survey_row_json(const struct p2pb_survey_row *row, const char (*hosts)[64])
{
    cJSON *o = p2pb_result_to_json(&row->r);
    if (!o)
        return NULL;
    const int lo = row->pair[0], hi = row->pair[1];
    const int lat = row->metric == P2PB_SURVEY_LATENCY;
    cJSON *p = cJSON_AddArrayToObject(o, "pair");
    cJSON_AddItemToArray(p, cJSON_CreateNumber(lo));
    cJSON_AddItemToArray(p, cJSON_CreateNumber(hi));
    cJSON *h = cJSON_AddArrayToObject(o, "hosts");
    cJSON_AddItemToArray(h, cJSON_CreateString(hosts[lo]));
    cJSON_AddItemToArray(h, cJSON_CreateString(hosts[hi]));
    cJSON_AddNumberToObject(o, "round", row->round);
    cJSON_AddStringToObject(o, "metric", lat ? "latency" : "bandwidth");
    if (lat)
        cJSON_AddStringToObject(o, "direction", "both");
    else {
        char d[32];
        snprintf(d, sizeof d, "%d->%d", row->from, row->from == lo ? hi : lo);
        cJSON_AddStringToObject(o, "direction", d);
    }
    cJSON_AddStringToObject(o, "survey_mode", row->contention ? "contention" : "alone");
    cJSON_AddBoolToObject(o, "retest", row->retest);
    cJSON_AddBoolToObject(o, "capped", row->capped);
    if (!lat) {
        cJSON_AddNumberToObject(o, "messages_per_sample", (double)row->msgs);
        cJSON_AddNumberToObject(o, "message_bytes", (double)row->msg_bytes);
        cJSON_AddNumberToObject(
            o, "bytes_moved", (double)row->r.samples * (double)row->msgs * (double)row->msg_bytes);
    }
    if (row->retest && row->stayed_slow >= 0)
        cJSON_AddBoolToObject(o, "stayed_slow", row->stayed_slow);
    if (row->cpu_wait_pct >= 0)
        cJSON_AddNumberToObject(o, "cpu_wait_pct", round(row->cpu_wait_pct * 10) / 10);
    return o;
}

/* One pair of the first pass. */
struct cand {
    int lo, hi, round;
    double lat, bw;
};

struct p2pb_survey_tracker {
    double *lat, *bw;                  /* [RESERVOIR] */
    size_t nres;                       /* values held */
    uint64_t seen;                     /* pairs added */
    uint64_t rng;                      /* xorshift64 state */
    struct cand *worst_lat, *worst_bw; /* [k], slowest first */
    size_t k, nlat, nbw;
};

struct p2pb_survey_tracker *p2pb_survey_tracker_new(size_t k, uint64_t seed)
{
    struct p2pb_survey_tracker *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->lat = calloc(RESERVOIR, sizeof *t->lat);
    t->bw = calloc(RESERVOIR, sizeof *t->bw);
    t->worst_lat = calloc(k ? k : 1, sizeof *t->worst_lat);
    t->worst_bw = calloc(k ? k : 1, sizeof *t->worst_bw);
    t->k = k;
    t->rng = seed ? seed : 0x9e3779b97f4a7c15ull;
    if (t->lat && t->bw && t->worst_lat && t->worst_bw)
        return t;
    p2pb_survey_tracker_free(t);
    return NULL;
}

void p2pb_survey_tracker_free(struct p2pb_survey_tracker *t)
{
    if (!t)
        return;
    free(t->lat);
    free(t->bw);
    free(t->worst_lat);
    free(t->worst_bw);
    free(t);
}

static uint64_t xorshift(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Insert c into list (n of cap, slowest first by worse(a, b) > 0). */
static void keep_worst(struct cand *list, size_t *n, size_t cap, const struct cand *c,
                       int higher_is_worse)
{
    double v = higher_is_worse ? c->lat : c->bw;
    if (!isfinite(v) || cap == 0)
        return;
    size_t i = *n;
    while (i > 0) {
        double w = higher_is_worse ? list[i - 1].lat : list[i - 1].bw;
        if (higher_is_worse ? w >= v : w <= v)
            break;
        i--;
    }
    if (i >= cap)
        return;
    size_t last = *n < cap ? *n : cap - 1;
    memmove(&list[i + 1], &list[i], (last - i) * sizeof *list);
    list[i] = *c;
    if (*n < cap)
        (*n)++;
}

void p2pb_survey_tracker_add(struct p2pb_survey_tracker *t, int lo, int hi, int round,
                             double lat_usec, double bw_mbs)
{
    struct cand c = {lo, hi, round, lat_usec, bw_mbs};
    size_t slot = t->nres;
    if (t->nres == RESERVOIR) {
        uint64_t j = xorshift(&t->rng) % (t->seen + 1);
        slot = j < RESERVOIR ? (size_t)j : RESERVOIR;
    } else
        t->nres++;
    if (slot < RESERVOIR) {
        t->lat[slot] = lat_usec;
        t->bw[slot] = bw_mbs;
    }
    t->seen++;
    keep_worst(t->worst_lat, &t->nlat, t->k, &c, 1);
    keep_worst(t->worst_bw, &t->nbw, t->k, &c, 0);
}

/* Append c to pairs[] unless it is there already; returns the new count. */
static size_t add_unique(const struct cand *c, int (*pairs)[2], int *rounds, size_t n, size_t cap)
{
    for (size_t i = 0; i < n; i++)
        if (pairs[i][0] == c->lo && pairs[i][1] == c->hi)
            return n;
    if (n >= cap)
        return n;
    pairs[n][0] = c->lo;
    pairs[n][1] = c->hi;
    rounds[n] = c->round;
    return n + 1;
}

size_t p2pb_survey_suspects(struct p2pb_survey_tracker *t, int (*pairs)[2], int *rounds, size_t cap,
                            double *lat_above, double *bw_below)
{
    /* liberal on purpose (a retest is cheap): only the fraction off the
     * median, no MAD: with many slow pairs (a slow node) the MAD is wide */
    const struct p2pb_outlier_rule rule = {0, P2PB_OUTLIER_MIN_OFF};
    double med, mad, above, below;
    size_t n = 0;
    *lat_above = *bw_below = NAN;
    if (p2pb_outlier_bounds(t->lat, t->nres, &rule, &med, &mad, &above, &below) == P2PB_OK) {
        *lat_above = above;
        for (size_t i = 0; i < t->nlat && t->worst_lat[i].lat > above; i++)
            n = add_unique(&t->worst_lat[i], pairs, rounds, n, cap);
    }
    if (p2pb_outlier_bounds(t->bw, t->nres, &rule, &med, &mad, &above, &below) == P2PB_OK) {
        *bw_below = below;
        for (size_t i = 0; i < t->nbw && t->worst_bw[i].bw < below; i++)
            n = add_unique(&t->worst_bw[i], pairs, rounds, n, cap);
    }
    return n;
}
