/* SPDX-License-Identifier: MIT */
/*
 * result_clock.c - the "clock" object of one-way rows (struct
 * p2pb_clock_sync) and the "bound" object of rows with a bound (struct
 * p2pb_bound; result.h, docs/output-format.md) to and from JSON.
 */
#include <math.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "bound.h"
#include "p2pbench/result.h"

static const char *const clock_names[] = {"offset_usec", "drift_ppm", "residual_usec", "rtt_usec"};
#define NCLOCK (sizeof clock_names / sizeof clock_names[0])

static void clock_fields(struct p2pb_clock_sync *c, double *f[NCLOCK])
{
    f[0] = &c->offset_usec;
    f[1] = &c->drift_ppm;
    f[2] = &c->residual_usec;
    f[3] = &c->rtt_usec;
}

void p2pb_clock_to_json(const struct p2pb_clock_sync *c, void *obj)
{
    if (!c->valid)
        return;
    struct p2pb_clock_sync copy = *c;
    double *f[NCLOCK];
    clock_fields(&copy, f);
    cJSON *o = cJSON_AddObjectToObject(obj, "clock");
    for (size_t i = 0; i < NCLOCK; i++) {
        if (i == 2 && !(*f[i] >= 0)) /* never checked */
            cJSON_AddNullToObject(o, clock_names[i]);
        else
            cJSON_AddNumberToObject(o, clock_names[i], isfinite(*f[i]) ? *f[i] : 0.0);
    }
    cJSON_AddNumberToObject(o, "readings", (double)c->readings);
    if (c->within < 0)
        cJSON_AddNullToObject(o, "within");
    else
        cJSON_AddBoolToObject(o, "within", c->within);
}

enum p2pb_status p2pb_clock_from_json(const void *obj, struct p2pb_clock_sync *c, char *err,
                                      size_t errlen)
{
    memset(c, 0, sizeof *c);
    c->residual_usec = -1;
    c->within = -1;
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(obj, "clock");
    if (!o)
        return P2PB_OK;
    if (!cJSON_IsObject(o))
        return p2pb_fail(P2PB_EFORMAT, err, errlen, "field \"clock\" is not an object");
    double *f[NCLOCK];
    clock_fields(c, f);
    for (size_t i = 0; i < NCLOCK; i++) {
        const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, clock_names[i]);
        if (i == 2 && cJSON_IsNull(x))
            continue;
        if (!cJSON_IsNumber(x) || !isfinite(x->valuedouble) || (i >= 2 && x->valuedouble < 0))
            return p2pb_fail(P2PB_EFORMAT, err, errlen,
                             "field \"clock.%s\" is missing or not a number%s", clock_names[i],
                             i >= 2 ? " >= 0" : "");
        *f[i] = x->valuedouble;
    }
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(o, "readings");
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(o, "within");
    if (!cJSON_IsNumber(n) || !(n->valuedouble >= 0 && n->valuedouble <= 1e9) ||
        !(cJSON_IsBool(w) || cJSON_IsNull(w)))
        return p2pb_fail(P2PB_EFORMAT, err, errlen,
                         "field \"clock.readings\" must be a count and \"clock.within\" "
                         "true, false or null");
    c->readings = (size_t)n->valuedouble;
    c->within = cJSON_IsNull(w) ? -1 : cJSON_IsTrue(w);
    c->valid = 1;
    return P2PB_OK;
}

void p2pb_bound_to_json(const struct p2pb_bound *b, void *obj)
{
    if (!b->valid)
        return;
    cJSON *o = cJSON_AddObjectToObject(obj, "bound");
    cJSON_AddNumberToObject(o, "mbytes_per_sec", b->mbps);
    cJSON_AddStringToObject(o, "source", p2pb_bound_source_str(b->source));
    cJSON_AddNumberToObject(o, "percent", isfinite(b->percent) ? b->percent : 0.0);
    cJSON_AddBoolToObject(o, "exceeds", b->exceeds);
}

enum p2pb_status p2pb_bound_from_json(const void *obj, struct p2pb_bound *b, char *err,
                                      size_t errlen)
{
    memset(b, 0, sizeof *b);
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(obj, "bound");
    if (!o)
        return P2PB_OK;
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, "mbytes_per_sec");
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(o, "source");
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(o, "percent");
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, "exceeds");
    int src = cJSON_IsString(s) ? p2pb_bound_source_parse(s->valuestring) : -1;
    if (!cJSON_IsObject(o) || !cJSON_IsNumber(m) || !(m->valuedouble > 0) ||
        !isfinite(m->valuedouble) || src < 0 || !cJSON_IsNumber(p) || !(p->valuedouble >= 0) ||
        !isfinite(p->valuedouble) || !cJSON_IsBool(x))
        return p2pb_fail(P2PB_EFORMAT, err, errlen,
                         "field \"bound\" must be {\"mbytes_per_sec\": > 0, \"source\": \"copy\", "
                         "\"link\" or \"given\", \"percent\": >= 0, \"exceeds\": true or false}");
    b->valid = 1;
    b->mbps = m->valuedouble;
    b->source = src;
    b->percent = p->valuedouble;
    b->exceeds = cJSON_IsTrue(x);
    return P2PB_OK;
}
