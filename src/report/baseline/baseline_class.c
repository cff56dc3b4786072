/* SPDX-License-Identifier: MIT */
/*
 * baseline_class.c - the host class of a launch and the hosts it ran on,
 * from its run record (baseline.h; docs/output-format.md: "ranks",
 * "hosts", "link_profile").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baseline/baseline.h"
#include <cjson/cJSON.h>
#include "text.h"

/* Most distinct values one field of a class joins. */
#define MAX_DISTINCT 64

/* Distinct strings, collected then sorted and joined. */
struct distinct {
    const char *v[MAX_DISTINCT];
    size_t n;
};

static void add_distinct(struct distinct *d, const char *s)
{
    if (!s || !s[0])
        return;
    for (size_t i = 0; i < d->n; i++)
        if (strcmp(d->v[i], s) == 0)
            return;
    if (d->n < MAX_DISTINCT)
        d->v[d->n++] = s;
}

static int cmp_str(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* The sorted values joined by sep into buf, or "unknown" when none;
 * sanitised. */
static void join_distinct(struct distinct *d, const char *sep, char *buf, size_t len)
{
    size_t used = 0;
    qsort(d->v, d->n, sizeof d->v[0], cmp_str);
    buf[0] = '\0';
    for (size_t i = 0; i < d->n && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? sep : "", d->v[i]);
    if (d->n == 0)
        snprintf(buf, len, "unknown");
    p2pb_text_sanitize(buf);
}

static const char *str_of(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* The distinct host names of the ranks of run record run. */
static void rank_hosts(const cJSON *run, struct distinct *h)
{
    const cJSON *r, *ranks = cJSON_GetObjectItemCaseSensitive(run, "ranks");
    cJSON_ArrayForEach(r, ranks) add_distinct(h, str_of(r, "host"));
}

void p2pb_host_class_of(const struct p2pb_results_data *d, struct p2pb_host_class *c)
{
    const cJSON *run = d->run;
    struct distinct hosts = {0}, cpus = {0}, hvs = {0};
    memset(c, 0, sizeof *c);
    rank_hosts(run, &hosts);
    const cJSON *info = cJSON_GetObjectItemCaseSensitive(run, "hosts");
    for (size_t i = 0; i < hosts.n; i++) {
        const cJSON *h = cJSON_GetObjectItemCaseSensitive(info, hosts.v[i]);
        add_distinct(&cpus, str_of(h, "cpu_model"));
        add_distinct(&hvs,
                     str_of(cJSON_GetObjectItemCaseSensitive(h, "hypervisor"), "verdict_derived"));
    }
    join_distinct(&cpus, " + ", c->cpu_model, sizeof c->cpu_model);
    join_distinct(&hvs, " + ", c->hypervisor, sizeof c->hypervisor);
    snprintf(c->mpi_library, sizeof c->mpi_library, "%s",
             d->info.mpi_library[0] ? d->info.mpi_library : "unknown");
    p2pb_text_sanitize(c->mpi_library);
    const char *lp = str_of(run, "link_profile");
    snprintf(c->link_profile, sizeof c->link_profile, "%.*s", lp ? (int)strcspn(lp, "+") : 7,
             lp ? lp : "unknown");
    if (!c->link_profile[0])
        snprintf(c->link_profile, sizeof c->link_profile, "unknown");
    p2pb_text_sanitize(c->link_profile);
    c->nhosts = (int)hosts.n;
}

int p2pb_host_class_equal(const struct p2pb_host_class *a, const struct p2pb_host_class *b)
{
    return strcmp(a->cpu_model, b->cpu_model) == 0 && strcmp(a->hypervisor, b->hypervisor) == 0 &&
           strcmp(a->mpi_library, b->mpi_library) == 0 &&
           strcmp(a->link_profile, b->link_profile) == 0 && a->nhosts == b->nhosts;
}

const char *p2pb_host_class_text(const struct p2pb_host_class *c, char *buf, size_t len)
{
    char hosts[32];
    if (c->nhosts > 0)
        snprintf(hosts, sizeof hosts, "%d host%s", c->nhosts, c->nhosts == 1 ? "" : "s");
    else
        snprintf(hosts, sizeof hosts, "hosts unknown");
    snprintf(buf, len, "cpu %s, hypervisor %s, MPI %s, link %s, %s", c->cpu_model, c->hypervisor,
             c->mpi_library, c->link_profile, hosts);
    return buf;
}

const char *p2pb_run_hosts(const struct p2pb_results_data *d, char *buf, size_t len)
{
    struct distinct hosts = {0};
    rank_hosts(d->run, &hosts);
    if (hosts.n == 0)
        add_distinct(&hosts, d->info.host);
    join_distinct(&hosts, ",", buf, len);
    return buf;
}
