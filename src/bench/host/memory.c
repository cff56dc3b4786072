/* SPDX-License-Identifier: MIT */
/*
 * memory.c - the memory budget of a run (hostdetect.h): MemTotal and
 * MemAvailable, and the limit of the process's cgroup v2 (memory.max less
 * memory.current, of its cgroup and every one above it), so that the
 * preflight refuses a run the kernel or the cgroup would OOM-kill.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/hostdetect.h"

/* "Key:   N kB" of procfs/meminfo, bytes; 0 when absent. */
static double meminfo(const struct p2pb_host_source *s, const char *key)
{
    char path[600], line[256];
    snprintf(path, sizeof path, "%s/meminfo", s->procfs);
    FILE *f = fopen(path, "r");
    double v = 0;
    size_t n = strlen(key);
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, key, n) == 0 && line[n] == ':') {
            v = strtod(line + n + 1, NULL) * 1024.0;
            break;
        }
    if (f)
        fclose(f);
    return v > 0 ? v : 0;
}

/* A cgroup hierarchy that limits memory: v2 (procfs/self/cgroup "0::PATH",
 * sysfs/fs/cgroup) or v1's memory controller ("N:...memory...:PATH",
 * sysfs/fs/cgroup/memory), with its limit and usage files. */
struct hier {
    int v1;
    const char *base, *limit, *usage;
};
static const struct hier hiers[] = {
    {0, "/fs/cgroup", "memory.max", "memory.current"},
    {1, "/fs/cgroup/memory", "memory.limit_in_bytes", "memory.usage_in_bytes"},
};

/* 1 when the "CONTROLLERS" field c (up to its ':') names the memory
 * controller of v1, or is v2's empty one. */
static int is_hier(const char *id, const char *c, int v1)
{
    if (!v1)
        return strncmp(id, "0::", 3) == 0;
    for (const char *p = c; *p && *p != ':'; p += strcspn(p, ",:") + (p[strcspn(p, ",:")] == ','))
        if (strncmp(p, "memory", 6) == 0 && (p[6] == ',' || p[6] == ':'))
            return 1;
    return 0;
}

/* The path of this process in hierarchy h ("/a/b"; "" for the root or
 * none) into buf (len bytes). */
static void cgroup_path(const struct p2pb_host_source *s, const struct hier *h, char *buf,
                        size_t len)
{
    char path[600], line[512];
    snprintf(path, sizeof path, "%s/self/cgroup", s->procfs);
    FILE *f = fopen(path, "r");
    buf[0] = '\0';
    while (f && fgets(line, sizeof line, f)) {
        char *c = strchr(line, ':'), *p = c ? strchr(c + 1, ':') : NULL;
        if (!p || !is_hier(line, c + 1, h->v1))
            continue;
        p[strcspn(p, "\n")] = '\0';
        snprintf(buf, len, "%.*s", (int)(len - 1), strcmp(p + 1, "/") == 0 ? "" : p + 1);
        break;
    }
    if (f)
        fclose(f);
}

/* A number file of cgroup dir rel of h; -1 when absent, unreadable, "max"
 * or v1's "no limit" (2^63 rounded down to a page). */
static double cg_value(const struct p2pb_host_source *s, const struct hier *h, const char *rel,
                       const char *file)
{
    char path[1024], v[64];
    snprintf(path, sizeof path, "%s%s/%s", h->base, rel, file);
    if (p2pb_host_read_line(s->sysfs, path, v, sizeof v) != 0 || strcmp(v, "max") == 0)
        return -1;
    char *end;
    double x = strtod(v, &end);
    return end != v && x >= 0 && x < 1e18 ? x : -1;
}

/* The tightest cgroup of cg and those above it in h into b. */
static void cgroup_limit(const struct p2pb_host_source *s, const struct hier *h, const char *cg,
                         struct p2pb_mem_budget *b)
{
    char rel[256];
    snprintf(rel, sizeof rel, "%s", cg);
    for (;;) {
        double max = cg_value(s, h, rel, h->limit), cur = cg_value(s, h, rel, h->usage);
        double free = max >= 0 ? max - (cur > 0 ? cur : 0) : -1;
        if (max >= 0 && (!b->cgroup[0] || free < b->cgroup_free)) {
            b->cgroup_max = max;
            b->cgroup_free = free > 0 ? free : 0;
            snprintf(b->cgroup, sizeof b->cgroup, "%.255s%s (%s)", rel[0] ? rel : "/",
                     h->v1 ? " v1" : "", h->limit);
        }
        char *slash = strrchr(rel, '/');
        if (!rel[0] || !slash)
            break;
        *slash = '\0'; /* the parent; "" is the root, read last */
    }
}

void p2pb_memory_budget(const struct p2pb_host_source *s, struct p2pb_mem_budget *b)
{
    memset(b, 0, sizeof *b);
    b->total = meminfo(s, "MemTotal");
    b->available = meminfo(s, "MemAvailable");
    for (size_t i = 0; i < sizeof hiers / sizeof hiers[0]; i++) {
        char cg[256];
        cgroup_path(s, &hiers[i], cg, sizeof cg);
        cgroup_limit(s, &hiers[i], cg, b);
    }
    const double known[] = {b->total > 0 ? 0.9 * b->total : -1,
                            b->available > 0 ? b->available : -1,
                            b->cgroup[0] ? b->cgroup_free : -1};
    b->budget = -1;
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (known[i] >= 0 && (b->budget < 0 || known[i] < b->budget))
            b->budget = known[i];
}
