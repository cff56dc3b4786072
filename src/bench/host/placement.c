/* SPDX-License-Identifier: MIT */
/*
 * Placement warnings from every rank's binding and host (hostdetect.h,
 * docs/host-context.md): overlapping PU sets, oversubscribed machines,
 * unbound ranks.
 */
#include "host/hostdetect.h"

#include <cjson/cJSON.h>
#include <hwloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- placement warnings ---- */

static const char *jstr(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* The "rank" field of a record, else its index. */
static int rank_of(const cJSON *o, int idx)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "rank");
    return cJSON_IsNumber(v) ? v->valueint : idx;
}

/* The machine a rank runs on: boot id, else host name. */
static const char *machine_of(const cJSON *r)
{
    const char *b = jstr(r, "boot_id");
    if (b && *b)
        return b;
    const char *h = jstr(r, "host");
    return h ? h : "";
}

static void add_warning(cJSON *arr, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add_warning(cJSON *arr, const char *fmt, ...)
{
    char buf[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    cJSON_AddItemToArray(arr, cJSON_CreateString(buf));
}

/* "host vm" or "hosts a and b (one machine: same boot_id)" */
static void where(char *buf, size_t len, const char *h1, const char *h2)
{
    if (strcmp(h1, h2) == 0)
        snprintf(buf, len, "host %s", h1);
    else
        snprintf(buf, len, "hosts %s and %s (one machine: same boot_id)", h1, h2);
}

/* What the warnings look at: the rank records and their parsed PU sets. */
struct placement {
    int n;                /* ranks */
    const cJSON **r;      /* [n] rank records */
    hwloc_bitmap_t *sets; /* [n] parsed "binding", NULL if absent or unparsable */
    char *done;           /* [n] scratch marks */
    const cJSON *hosts;   /* host name -> host record */
    cJSON *out;           /* array of warning strings */
};

static int is_bound(const cJSON *r)
{
    return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "bound"));
}

/* Overlapping PU sets of bound ranks on one machine. */
static void warn_overlaps(const struct placement *p)
{
    hwloc_bitmap_t inter = hwloc_bitmap_alloc();
    for (int i = 0; i < p->n; i++) {
        if (!p->sets[i] || !is_bound(p->r[i]))
            continue;
        for (int j = i + 1; j < p->n; j++) {
            if (!p->sets[j] || !is_bound(p->r[j]) ||
                strcmp(machine_of(p->r[i]), machine_of(p->r[j])) != 0)
                continue;
            hwloc_bitmap_and(inter, p->sets[i], p->sets[j]);
            if (hwloc_bitmap_iszero(inter))
                continue;
            char *list = NULL, w[300];
            hwloc_bitmap_list_asprintf(&list, inter);
            const char *hi = jstr(p->r[i], "host"), *hj = jstr(p->r[j], "host");
            where(w, sizeof w, hi ? hi : "?", hj ? hj : "?");
            add_warning(p->out, "ranks %d and %d on %s are bound to overlapping PUs (%s)",
                        rank_of(p->r[i], i), rank_of(p->r[j], j), w, list ? list : "?");
            free(list);
        }
    }
    hwloc_bitmap_free(inter);
}

/* Append host h to the comma-separated list (len bytes) unless it is there. */
static void add_host_name(char *list, size_t len, const char *h, int *nhosts)
{
    size_t hl = strlen(h);
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, ",");
        if (n == hl && strncmp(p, h, hl) == 0)
            return;
        p += n + (p[n] == ',');
    }
    size_t used = strlen(list);
    snprintf(list + used, len - used, "%s%s", used ? "," : "", h);
    (*nhosts)++;
}

/* More ranks than PUs on one machine: the warning names every host name
 * sharing it (namespaces or containers on one boot_id). */
static void warn_oversubscribed(const struct placement *p)
{
    memset(p->done, 0, (size_t)p->n);
    for (int i = 0; i < p->n; i++) {
        if (p->done[i])
            continue;
        int count = 0, nhosts = 0;
        char names[512] = "";
        for (int j = i; j < p->n; j++)
            if (!p->done[j] && strcmp(machine_of(p->r[i]), machine_of(p->r[j])) == 0) {
                p->done[j] = 1;
                count++;
                const char *hj = jstr(p->r[j], "host");
                add_host_name(names, sizeof names, hj ? hj : "?", &nhosts);
            }
        const char *h = jstr(p->r[i], "host");
        const cJSON *hj = h ? cJSON_GetObjectItemCaseSensitive(p->hosts, h) : NULL;
        const cJSON *topo = cJSON_GetObjectItemCaseSensitive(hj, "topology");
        const cJSON *pus = cJSON_GetObjectItemCaseSensitive(topo, "pus");
        if (cJSON_IsNumber(pus) && pus->valuedouble > 0 && count > (int)pus->valuedouble)
            add_warning(p->out, "%d ranks on host%s %s%s, which has %d PU(s): oversubscribed",
                        count, nhosts > 1 ? "s" : "", names,
                        nhosts > 1 ? " (one machine: same boot_id)" : "", (int)pus->valuedouble);
    }
}

/* Ranks not bound at all, one warning per host. */
static void warn_unbound(const struct placement *p)
{
    memset(p->done, 0, (size_t)p->n);
    for (int i = 0; i < p->n; i++) {
        if (p->done[i] || is_bound(p->r[i]))
            continue;
        const char *h = jstr(p->r[i], "host");
        char list[256] = "";
        size_t len = 0;
        int cnt = 0;
        for (int j = i; j < p->n; j++) {
            const char *hj = jstr(p->r[j], "host");
            if (p->done[j] || is_bound(p->r[j]) || strcmp(h ? h : "", hj ? hj : "") != 0)
                continue;
            p->done[j] = 1;
            cnt++;
            if (len < sizeof list - 16)
                len += (size_t)snprintf(list + len, sizeof list - len, "%s%d", cnt > 1 ? "," : "",
                                        rank_of(p->r[j], j));
        }
        const char *b = jstr(p->r[i], "binding");
        add_warning(p->out, "rank%s %s on host %s %s not bound to a PU set (binding: %s)",
                    cnt > 1 ? "s" : "", list, h ? h : "?", cnt > 1 ? "are" : "is",
                    b ? b : "unknown");
    }
}

/* Each rank's "binding" as a PU set, NULL where absent or unparsable. */
static void parse_bindings(struct placement *p, const cJSON *ranks)
{
    for (int i = 0; i < p->n; i++) {
        p->r[i] = cJSON_GetArrayItem(ranks, i);
        const char *b = jstr(p->r[i], "binding");
        if (!b)
            continue;
        p->sets[i] = hwloc_bitmap_alloc();
        if (p->sets[i] && hwloc_bitmap_list_sscanf(p->sets[i], b) != 0) {
            hwloc_bitmap_free(p->sets[i]);
            p->sets[i] = NULL;
        }
    }
}

void *p2pb_placement_warnings(const void *ranks_v, const void *hosts_v)
{
    const cJSON *ranks = ranks_v;
    struct placement p = {.n = cJSON_GetArraySize(ranks), .hosts = hosts_v};
    p.out = cJSON_CreateArray();
    if (p.n <= 0)
        return p.out;
    p.sets = calloc((size_t)p.n, sizeof *p.sets);
    p.r = calloc((size_t)p.n, sizeof *p.r);
    p.done = calloc((size_t)p.n, 1);
    if (p.sets && p.r && p.done) {
        parse_bindings(&p, ranks);
        warn_overlaps(&p);
        warn_oversubscribed(&p);
        warn_unbound(&p);
    }
    for (int i = 0; p.sets && i < p.n; i++)
        if (p.sets[i])
            hwloc_bitmap_free(p.sets[i]);
    free(p.sets);
    free(p.r);
    free(p.done);
    return p.out;
}
