/* SPDX-License-Identifier: MIT */
/*
 * Loading results files for p2pbench-report, metric values and side names.
 * The host-context differences between two sides are in context_diff.c.
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "load.h"
#include "text.h"

double p2pb_metric_value(const struct p2pb_result *r, enum p2pb_metric metric)
{
    if (r->status != P2PB_ROW_OK)
        return NAN;
    return metric == P2PB_METRIC_LATENCY ? r->t.median : r->mbytes_per_sec;
}

double p2pb_file_value(const struct p2pb_results_data *d, const char *kernel, const char *variant,
                       size_t bytes, enum p2pb_metric metric)
{
    const struct p2pb_result *r = p2pb_results_find(d, kernel, variant, bytes);
    return r ? p2pb_metric_value(r, metric) : NAN;
}

const char *p2pb_incomplete_note(const struct p2pb_results_data *d, char *buf, size_t len)
{
    char status[sizeof d->end_status];
    snprintf(status, sizeof status, "%s", d->end_status);
    p2pb_text_sanitize(status);
    if (status[0])
        snprintf(buf, len, "run ended with status '%s'; %zu row%s read", status, d->nrows,
                 d->nrows == 1 ? "" : "s");
    else
        snprintf(buf, len, "no end record (run cut short?); read %zu row%s%s", d->nrows,
                 d->nrows == 1 ? "" : "s",
                 d->truncated_line ? ", last line cut off and ignored" : "");
    return buf;
}

enum p2pb_status p2pb_load_results(const char *path, struct p2pb_results_data *d, FILE *warn,
                                   size_t max_bytes, char *err, size_t errlen)
{
    enum p2pb_status st = p2pb_results_read_max(path, max_bytes, d, err, errlen);
    if (st != P2PB_OK)
        return st;
    char note[128];
    if (warn && !d->complete)
        fprintf(warn, "warning: %s: %s\n", path, p2pb_incomplete_note(d, note, sizeof note));
    /* a (kernel, variant, size) twice in one launch: compare uses the first (the
     * reader counts them through its hash index: linear in rows) */
    size_t dups = d->nrepeated;
    if (dups && warn)
        fprintf(warn,
                "warning: %s: %zu row%s repeat a kernel and size of an earlier row; compare "
                "uses the first of each\n",
                path, dups, dups == 1 ? "" : "s");
    return P2PB_OK;
}

void p2pb_side_name(struct p2pb_side *s, const char *fallback)
{
    const char *common = NULL;
    for (size_t i = 0; i < s->nfiles; i++) {
        const char *l = s->files[i].info.label;
        if (!l[0] || (common && strcmp(common, l) != 0)) {
            common = NULL;
            break;
        }
        common = l;
    }
    snprintf(s->name, sizeof s->name, "%s", common ? common : fallback);
}

/* Integer member key of object c in [lo, hi] into *v; 0 if absent or not one. */
static int get_uint(const cJSON *c, const char *key, double lo, double hi, double *v)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(c, key);
    if (!cJSON_IsNumber(x) || !(x->valuedouble >= lo && x->valuedouble <= hi) ||
        x->valuedouble != floor(x->valuedouble))
        return 0;
    *v = x->valuedouble;
    return 1;
}

/* The "campaign" object of run record run (seed, round >= 1, position 1 or 2). */
static void read_position(const void *run, struct p2pb_launch_pos *p)
{
    const cJSON *c = run ? cJSON_GetObjectItemCaseSensitive(run, "campaign") : NULL;
    double round, pos;
    memset(p, 0, sizeof *p);
    if (cJSON_IsObject(c) && get_uint(c, "seed", 0, 4294967295.0, &p->seed) &&
        get_uint(c, "round", 1, 1e9, &round) && get_uint(c, "position", 1, 2, &pos)) {
        p->known = 1;
        p->round = (size_t)round;
        p->position = (size_t)pos;
    }
}

enum p2pb_status p2pb_side_load(char *const *paths, size_t n, struct p2pb_side *s,
                                const char *fallback, FILE *warn, size_t max_bytes, char *err,
                                size_t errlen)
{
    memset(s, 0, sizeof *s);
    s->files = calloc(n ? n : 1, sizeof *s->files);
    s->pos = calloc(n ? n : 1, sizeof *s->pos);
    if (!s->files || !s->pos)
        return p2pb_fail(P2PB_ENOMEM, err, errlen, "out of memory");
    for (size_t i = 0; i < n; i++) {
        enum p2pb_status st =
            p2pb_load_results(paths[i], &s->files[i], warn, max_bytes, err, errlen);
        if (st != P2PB_OK)
            return st;
        read_position(s->files[i].run, &s->pos[i]);
        s->nincomplete += !s->files[i].complete;
        s->nfiles++;
    }
    p2pb_side_name(s, fallback);
    return P2PB_OK;
}

/* The string at run.KEY (KEY2 inside it when given), or "" when absent. */
static const char *run_str(const cJSON *o, const char *key, const char *key2)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (key2)
        v = cJSON_GetObjectItemCaseSensitive(v, key2);
    return cJSON_IsString(v) && v->valuestring ? v->valuestring : "";
}

/* The boot_id of rank 0 (ranks[0]) or of the first host (an imported log). */
static const char *run_boot_id(const cJSON *run)
{
    const cJSON *r0 = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(run, "ranks"), 0);
    const cJSON *hosts = cJSON_GetObjectItemCaseSensitive(run, "hosts");
    if (r0)
        return run_str(r0, "boot_id", NULL);
    return cJSON_IsObject(hosts) && hosts->child ? run_str(hosts->child, "boot_id", NULL) : "";
}

/* policy.seed of run, or -1 when absent. */
static double run_seed(const cJSON *run)
{
    const cJSON *s =
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(run, "policy"), "seed");
    return cJSON_IsNumber(s) ? s->valuedouble : -1;
}

/* 1 when rows x and y hold the same measurement (doubles compared by their
 * bytes, so that two NaN are the same). */
static int same_row(const struct p2pb_result *x, const struct p2pb_result *y)
{
    const double vx[] = {x->t.min, x->t.median, x->t.max,          x->t.mean,
                         x->t.p25, x->t.p75,    x->mbytes_per_sec, x->msgs_per_sec};
    const double vy[] = {y->t.min, y->t.median, y->t.max,          y->t.mean,
                         y->t.p25, y->t.p75,    y->mbytes_per_sec, y->msgs_per_sec};
    return x->bytes == y->bytes && x->status == y->status && x->samples == y->samples &&
           strcmp(x->kernel, y->kernel) == 0 && strcmp(x->variant, y->variant) == 0 &&
           memcmp(vx, vy, sizeof vx) == 0;
}

/* 1 when a and b are one launch (p2pb_side_count_once). */
static int same_launch(const struct p2pb_results_data *a, const struct p2pb_results_data *b)
{
    if (a->nrows != b->nrows || run_seed(a->run) != run_seed(b->run) ||
        strcmp(run_str(a->run, "start_utc", NULL), run_str(b->run, "start_utc", NULL)) != 0 ||
        strcmp(run_boot_id(a->run), run_boot_id(b->run)) != 0)
        return 0;
    for (size_t i = 0; i < a->nrows; i++)
        if (!same_row(&a->rows[i], &b->rows[i]))
            return 0;
    return 1;
}

/* A hash of what same_launch compares first (FNV-1a): files of another
 * hash are never compared row by row. */
static uint64_t launch_hash(const struct p2pb_results_data *d)
{
    char key[512];
    snprintf(key, sizeof key, "%s|%.17g|%s|%zu", run_str(d->run, "start_utc", NULL),
             run_seed(d->run), run_boot_id(d->run), d->nrows);
    uint64_t h = 1469598103934665603ULL;
    for (const char *c = key; *c; c++)
        h = (h ^ (unsigned char)*c) * 1099511628211ULL;
    return h;
}

size_t p2pb_side_count_once(struct p2pb_side *s, FILE *warn)
{
    uint64_t *h = malloc((s->nfiles + 1) * sizeof *h);
    size_t kept = 0, dropped = 0;
    if (!h)
        return 0;
    for (size_t i = 0; i < s->nfiles; i++) {
        uint64_t hi = launch_hash(&s->files[i]);
        size_t j = 0;
        while (j < kept && !(h[j] == hi && same_launch(&s->files[j], &s->files[i])))
            j++;
        if (j < kept) {
            if (warn)
                fprintf(warn,
                        "warning: %s is a copy of the launch in %s (same start_utc, policy.seed, "
                        "boot_id and rows): counted once\n",
                        s->files[i].path, s->files[j].path);
            s->nincomplete -= !s->files[i].complete;
            p2pb_results_data_free(&s->files[i]);
            dropped++;
            continue;
        }
        h[kept] = hi;
        s->files[kept] = s->files[i];
        s->pos[kept] = s->pos[i];
        kept++;
    }
    s->nfiles = kept;
    free(h);
    return dropped;
}

void p2pb_side_free(struct p2pb_side *s)
{
    for (size_t i = 0; i < s->nfiles; i++)
        p2pb_results_data_free(&s->files[i]);
    free(s->files);
    free(s->pos);
    memset(s, 0, sizeof *s);
}
