/* SPDX-License-Identifier: MIT */
/*
 * result_extras.c - the optional objects of a result record (result.h;
 * docs/output-format.md): "noise" (struct p2pb_noise) and "disturbance"
 * (struct p2pb_disturbance).
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <string.h>

#include "p2pbench/result.h"

/* JSON names of the numeric fields, in struct order after "valid". */
static const char *const noise_names[] = {
    "spin_sec",        "detours",         "detours_per_sec", "detour_median_usec",
    "detour_p99_usec", "detour_max_usec", "lost_share",      "threshold_usec",
};
#define NNOISE (sizeof noise_names / sizeof noise_names[0])

/* Pointers to the fields of n named by noise_names. */
static void noise_fields(struct p2pb_noise *n, double *f[NNOISE])
{
    double *const v[NNOISE] = {&n->spin_sec, &n->detours,  &n->detours_per_sec, &n->median_usec,
                               &n->p99_usec, &n->max_usec, &n->lost_share,      &n->threshold_usec};
    memcpy(f, v, sizeof v);
}

void p2pb_noise_to_json(const struct p2pb_noise *n, void *obj)
{
    if (!n->valid)
        return;
    struct p2pb_noise copy = *n;
    double *f[NNOISE];
    noise_fields(&copy, f);
    cJSON *o = cJSON_AddObjectToObject(obj, "noise");
    for (size_t i = 0; i < NNOISE; i++)
        cJSON_AddNumberToObject(o, noise_names[i], isfinite(*f[i]) ? *f[i] : 0.0);
    cJSON_AddNumberToObject(o, "worst_rank", n->worst_rank);
}

/* A rank field of o: -1 when absent; P2PB_EFORMAT unless an integer in
 * -1 .. 2^31 - 1 (the largest MPI rank). */
static enum p2pb_status get_rank(const cJSON *o, const char *obj, int *rank, char *err,
                                 size_t errlen)
{
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(o, "worst_rank");
    *rank = -1;
    if (!w)
        return P2PB_OK;
    if (!cJSON_IsNumber(w) || w->valuedouble < -1 || w->valuedouble > 2147483647.0 ||
        w->valuedouble != floor(w->valuedouble))
        return p2pb_fail(P2PB_EFORMAT, err, errlen,
                         "field \"%s.worst_rank\" is not a rank (-1 .. 2147483647)", obj);
    *rank = (int)w->valuedouble;
    return P2PB_OK;
}

enum p2pb_status p2pb_noise_from_json(const void *obj, struct p2pb_noise *n, char *err,
                                      size_t errlen)
{
    memset(n, 0, sizeof *n);
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(obj, "noise");
    if (!o)
        return P2PB_OK;
    if (!cJSON_IsObject(o))
        return p2pb_fail(P2PB_EFORMAT, err, errlen, "field \"noise\" is not an object");
    double *f[NNOISE];
    noise_fields(n, f);
    for (size_t i = 0; i < NNOISE; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, noise_names[i]);
        if (!cJSON_IsNumber(v) || v->valuedouble < 0)
            return p2pb_fail(P2PB_EFORMAT, err, errlen,
                             "field \"noise.%s\" is missing, not a number or negative",
                             noise_names[i]);
        *f[i] = v->valuedouble;
    }
    if (n->lost_share > 1)
        return p2pb_fail(P2PB_EFORMAT, err, errlen,
                         "field \"noise.lost_share\" is %g, above 1 (a share of the time)",
                         n->lost_share);
    enum p2pb_status st = get_rank(o, "noise", &n->worst_rank, err, errlen);
    n->valid = st == P2PB_OK;
    return st;
}

int p2pb_disturbed(const struct p2pb_disturbance *d)
{
    return d->valid && (d->steal_pct >= 1.0 || d->cpu_lost_pct >= P2PB_DISTURBED_LOST_PCT ||
                        d->migrations >= 1);
}

void p2pb_disturbance_to_json(const struct p2pb_disturbance *d, void *obj)
{
    if (!d->valid)
        return;
    cJSON *o = cJSON_AddObjectToObject(obj, "disturbance");
    cJSON_AddNumberToObject(o, "steal_pct", isfinite(d->steal_pct) ? d->steal_pct : 0.0);
    cJSON_AddNumberToObject(o, "invol_ctxsw", d->invol_ctxsw);
    cJSON_AddNumberToObject(o, "cpu_lost_pct", isfinite(d->cpu_lost_pct) ? d->cpu_lost_pct : 0.0);
    if (d->migrations >= 0)
        cJSON_AddNumberToObject(o, "migrations", d->migrations);
    else
        cJSON_AddNullToObject(o, "migrations");
    cJSON_AddNumberToObject(o, "worst_rank", d->worst_rank);
    if (d->cpu_mhz > 0 && isfinite(d->cpu_mhz) && d->mhz_source != P2PB_MHZ_NONE) {
        cJSON_AddNumberToObject(o, "cpu_mhz", d->cpu_mhz);
        cJSON_AddStringToObject(o, "cpu_mhz_source",
                                d->mhz_source == P2PB_MHZ_APERF ? "aperf_mperf" : "cpufreq");
    }
}

/* Field name of obj as a number >= 0 into *v; -1 when absent or not one. */
static int nonneg(const cJSON *o, const char *name, double *v)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, name);
    if (!cJSON_IsNumber(x) || x->valuedouble < 0)
        return -1;
    *v = x->valuedouble;
    return 0;
}

/* "cpu_mhz" and "cpu_mhz_source" of a disturbance object o, both or neither. */
static enum p2pb_status mhz_from_json(const cJSON *o, struct p2pb_disturbance *d, char *err,
                                      size_t errlen)
{
    const cJSON *src = cJSON_GetObjectItemCaseSensitive(o, "cpu_mhz_source");
    d->cpu_mhz = -1;
    d->mhz_source = P2PB_MHZ_NONE;
    if (!cJSON_GetObjectItemCaseSensitive(o, "cpu_mhz") && !src)
        return P2PB_OK; /* not readable on that host, or a file from before */
    if (nonneg(o, "cpu_mhz", &d->cpu_mhz) != 0 || !(d->cpu_mhz >= 1) || d->cpu_mhz > 1e5 ||
        !cJSON_IsString(src))
        return p2pb_fail(P2PB_EFORMAT, err, errlen,
                         "field \"disturbance.cpu_mhz\" must be a number from 1 to 100000 (MHz) "
                         "with \"cpu_mhz_source\"");
    if (strcmp(src->valuestring, "aperf_mperf") == 0)
        d->mhz_source = P2PB_MHZ_APERF;
    else if (strcmp(src->valuestring, "cpufreq") == 0)
        d->mhz_source = P2PB_MHZ_CPUFREQ;
    else
        return p2pb_fail(P2PB_EFORMAT, err, errlen,
                         "field \"disturbance.cpu_mhz_source\" must be \"aperf_mperf\" or "
                         "\"cpufreq\"");
    return P2PB_OK;
}

enum p2pb_status p2pb_disturbance_from_json(const void *obj, struct p2pb_disturbance *d, char *err,
                                            size_t errlen)
{
    memset(d, 0, sizeof *d);
    d->migrations = -1;
    d->worst_rank = -1;
    d->cpu_mhz = -1;
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(obj, "disturbance");
    if (!o)
        return P2PB_OK;
    if (!cJSON_IsObject(o))
        return p2pb_fail(P2PB_EFORMAT, err, errlen, "field \"disturbance\" is not an object");
    static const char *const need[] = {"steal_pct", "invol_ctxsw"};
    double *dst[] = {&d->steal_pct, &d->invol_ctxsw};
    for (size_t i = 0; i < 2; i++)
        if (nonneg(o, need[i], dst[i]) != 0)
            return p2pb_fail(P2PB_EFORMAT, err, errlen,
                             "field \"disturbance.%s\" is missing, not a number or negative",
                             need[i]);
    if (nonneg(o, "migrations", &d->migrations) != 0)
        d->migrations = -1;
    if (!cJSON_GetObjectItemCaseSensitive(o, "cpu_lost_pct"))
        d->cpu_lost_pct = 0; /* absent in files before it was recorded */
    else if (nonneg(o, "cpu_lost_pct", &d->cpu_lost_pct) != 0)
        return p2pb_fail(P2PB_EFORMAT, err, errlen,
                         "field \"disturbance.cpu_lost_pct\" is not a number or negative");
    if (d->steal_pct > 100 || d->cpu_lost_pct > 100)
        return p2pb_fail(P2PB_EFORMAT, err, errlen,
                         "field \"disturbance.%s\" is above 100 (a percentage)",
                         d->steal_pct > 100 ? "steal_pct" : "cpu_lost_pct");
    enum p2pb_status st = get_rank(o, "disturbance", &d->worst_rank, err, errlen);
    if (st == P2PB_OK)
        st = mhz_from_json(o, d, err, errlen);
    d->valid = st == P2PB_OK;
    return st;
}

void p2pb_shift_to_json(const struct p2pb_shift *s, void *obj)
{
    if (!s->tested)
        return;
    cJSON *o = cJSON_AddObjectToObject(obj, "shift");
    cJSON_AddNumberToObject(o, "first_median_usec", s->first_median);
    cJSON_AddNumberToObject(o, "last_median_usec", s->last_median);
    cJSON_AddNumberToObject(o, "rel_shift", isfinite(s->rel_shift) ? s->rel_shift : 0.0);
    cJSON_AddNumberToObject(o, "p", isfinite(s->p) ? s->p : 1.0);
    cJSON_AddBoolToObject(o, "flagged", s->flagged);
}

enum p2pb_status p2pb_shift_from_json(const void *obj, struct p2pb_shift *s, char *err,
                                      size_t errlen)
{
    memset(s, 0, sizeof *s);
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(obj, "shift");
    if (!o)
        return P2PB_OK;
    const char *names[] = {"first_median_usec", "last_median_usec", "rel_shift", "p"};
    double *dst[] = {&s->first_median, &s->last_median, &s->rel_shift, &s->p};
    for (size_t i = 0; i < 4; i++) {
        const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, names[i]);
        if (!cJSON_IsNumber(x))
            return p2pb_fail(P2PB_EFORMAT, err, errlen, "shift.%s missing or not a number",
                             names[i]);
        *dst[i] = x->valuedouble;
    }
    if (s->first_median < 0 || s->last_median < 0 || !(s->p >= 0 && s->p <= 1))
        return p2pb_fail(P2PB_EFORMAT, err, errlen,
                         "shift: medians must not be negative and p must be in 0..1");
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(o, "flagged");
    if (!cJSON_IsBool(f))
        return p2pb_fail(P2PB_EFORMAT, err, errlen, "shift.flagged missing or not true/false");
    s->flagged = cJSON_IsTrue(f);
    s->tested = 1;
    return P2PB_OK;
}
