/* SPDX-License-Identifier: MIT */
/*
 * result_noise.c - the "noise" object of a result record (result.h,
 * struct p2pb_noise; docs/output-format.md).
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
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(o, "worst_rank");
    n->worst_rank = cJSON_IsNumber(w) ? w->valueint : -1;
    n->valid = 1;
    return P2PB_OK;
}
