/* SPDX-License-Identifier: MIT */
/*
 * overlap.c - the overlap percentage (overlap.h) and the "overlap" object
 * of a result record (docs/output-format.md).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "overlap.h"
#include "text.h"

const char *p2pb_overlap_phase_name(int phase)
{
    static const char *const names[] = {"pure", "cpu", "overlap"};
    return phase >= 0 && phase < 3 ? names[phase] : "";
}

double p2pb_overlap_percent(double t_pure, double t_cpu, double t_ovrl, const char **why)
{
    *why = "";
    if (!isfinite(t_pure) || !isfinite(t_cpu) || !isfinite(t_ovrl) || t_pure < 0 || t_cpu < 0 ||
        t_ovrl < 0)
        *why = "a time is missing (a phase without a median)";
    else if (t_pure == 0)
        *why = "no transfer time (t_pure = 0)";
    else if (t_cpu == 0)
        *why = "no compute time (t_cpu = 0)";
    if (**why)
        return NAN;
    double shorter = t_pure < t_cpu ? t_pure : t_cpu;
    double share = (t_pure + t_cpu - t_ovrl) / shorter;
    share = share < 0 ? 0 : share > 1 ? 1 : share;
    return 100.0 * share;
}

void p2pb_overlap_fill(struct p2pb_overlap *o, double t_pure, double t_cpu, double t_ovrl,
                       int no_compute)
{
    const char *why = "";
    memset(o, 0, sizeof *o);
    o->valid = 1;
    o->t_pure_usec = t_pure;
    o->t_cpu_usec = t_cpu;
    o->t_ovrl_usec = t_ovrl;
    o->percent = p2pb_overlap_percent(t_pure, no_compute ? 0.0 : t_cpu, t_ovrl, &why);
    if (no_compute && isnan(o->percent))
        why = "no compute time (t_cpu = 0: the compute loop ran 0 steps)";
    snprintf(o->undefined, sizeof o->undefined, "%s", why);
}

static void add_time(cJSON *o, const char *name, double v)
{
    if (isfinite(v))
        cJSON_AddNumberToObject(o, name, v);
    else
        cJSON_AddNullToObject(o, name);
}

void p2pb_overlap_to_json(const struct p2pb_overlap *ov, void *obj)
{
    if (!ov->valid)
        return;
    cJSON *o = cJSON_AddObjectToObject(obj, "overlap");
    add_time(o, "t_pure_usec", ov->t_pure_usec);
    add_time(o, "t_cpu_usec", ov->t_cpu_usec);
    add_time(o, "t_ovrl_usec", ov->t_ovrl_usec);
    add_time(o, "percent", ov->percent);
    if (!isfinite(ov->percent))
        cJSON_AddStringToObject(o, "undefined", ov->undefined[0] ? ov->undefined : "undefined");
    cJSON_AddStringToObject(o, "formula", P2PB_OVERLAP_FORMULA);
}

/* A time field: a number >= 0 or null (NAN). Returns 0, or -1 when wrong. */
static int get_time(const cJSON *o, const char *name, double *v)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, name);
    *v = NAN;
    if (cJSON_IsNull(x))
        return 0;
    if (!cJSON_IsNumber(x) || !isfinite(x->valuedouble) || x->valuedouble < 0)
        return -1;
    *v = x->valuedouble;
    return 0;
}

enum p2pb_status p2pb_overlap_from_json(const void *obj, struct p2pb_overlap *ov, char *err,
                                        size_t errlen)
{
    memset(ov, 0, sizeof *ov);
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(obj, "overlap");
    if (!o)
        return P2PB_OK;
    static const char *const names[] = {"t_pure_usec", "t_cpu_usec", "t_ovrl_usec", "percent"};
    double *f[] = {&ov->t_pure_usec, &ov->t_cpu_usec, &ov->t_ovrl_usec, &ov->percent};
    if (!cJSON_IsObject(o))
        return p2pb_fail(P2PB_EFORMAT, err, errlen, "field \"overlap\" is not an object");
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (get_time(o, names[i], f[i]) != 0)
            return p2pb_fail(P2PB_EFORMAT, err, errlen,
                             "field \"overlap.%s\" is missing or not a number >= 0 or null",
                             names[i]);
    const cJSON *u = cJSON_GetObjectItemCaseSensitive(o, "undefined");
    if (ov->percent > 100 || (isnan(ov->percent) && !cJSON_IsString(u)))
        return p2pb_fail(P2PB_EFORMAT, err, errlen,
                         "field \"overlap.percent\" must be 0..100, or null with a reason in "
                         "\"overlap.undefined\"");
    if (cJSON_IsString(u))
        snprintf(ov->undefined, sizeof ov->undefined, "%s", u->valuestring);
    p2pb_text_sanitize(ov->undefined); /* text from a file: no control characters */
    ov->valid = 1;
    return P2PB_OK;
}
