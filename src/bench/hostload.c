/* SPDX-License-Identifier: MIT */
/*
 * hostload.c - the host's load beside the ranks (hostload.h).
 */
#include "hostload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The avg10 of the "some" and "full" lines of a PSI file into some, full,
 * and the "some" line's total= into total when not NULL (left as they are
 * where absent). */
static void read_pressure(const char *procfs, const char *what, double *some, double *full,
                          double *total)
{
    char path[600], line[256];
    snprintf(path, sizeof path, "%s/pressure/%s", procfs, what);
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        double v;
        const char *a = strstr(line, "avg10=");
        if (!a || sscanf(a + 6, "%lf", &v) != 1 || v < 0)
            continue;
        const char *t = strstr(line, "total=");
        double tv;
        if (strncmp(line, "some ", 5) == 0 && total && t && sscanf(t + 6, "%lf", &tv) == 1)
            *total = tv;
        if (strncmp(line, "some ", 5) == 0)
            *some = v;
        else if (strncmp(line, "full ", 5) == 0)
            *full = v;
    }
    fclose(f);
}

static void read_loadavg(const char *procfs, double avg[3])
{
    char path[600];
    snprintf(path, sizeof path, "%s/loadavg", procfs);
    FILE *f = fopen(path, "r");
    double v[3];
    if (f && fscanf(f, "%lf %lf %lf", &v[0], &v[1], &v[2]) == 3)
        memcpy(avg, v, sizeof v);
    if (f)
        fclose(f);
}

static long read_procs_running(const char *procfs)
{
    char path[600], line[512];
    snprintf(path, sizeof path, "%s/stat", procfs);
    FILE *f = fopen(path, "r");
    long n = -1, v;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "procs_running %ld", &v) == 1 && v >= 0)
            n = v;
    if (f)
        fclose(f);
    return n;
}

void p2pb_hostload_read(const char *procfs, struct p2pb_hostload *out)
{
    out->cpu_some = out->cpu_full = out->memory_some = out->memory_full = -1;
    out->io_some = out->io_full = -1;
    out->loadavg[0] = out->loadavg[1] = out->loadavg[2] = -1;
    out->cpu_some_total = -1;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    out->monotonic_sec = (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
    read_pressure(procfs, "cpu", &out->cpu_some, &out->cpu_full, &out->cpu_some_total);
    read_pressure(procfs, "memory", &out->memory_some, &out->memory_full, NULL);
    read_pressure(procfs, "io", &out->io_some, &out->io_full, NULL);
    read_loadavg(procfs, out->loadavg);
    out->procs_running = read_procs_running(procfs);
}

/* v under name, or null when negative (unread). */
static void add_value(cJSON *o, const char *name, double v)
{
    if (v < 0)
        cJSON_AddNullToObject(o, name);
    else
        cJSON_AddNumberToObject(o, name, v);
}

cJSON *p2pb_hostload_json(const struct p2pb_hostload *l)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    add_value(o, "cpu_some_avg10", l->cpu_some);
    add_value(o, "cpu_full_avg10", l->cpu_full);
    add_value(o, "memory_some_avg10", l->memory_some);
    add_value(o, "memory_full_avg10", l->memory_full);
    add_value(o, "io_some_avg10", l->io_some);
    add_value(o, "io_full_avg10", l->io_full);
    add_value(o, "cpu_some_total_us", l->cpu_some_total);
    cJSON_AddNumberToObject(o, "monotonic_sec", l->monotonic_sec);
    if (l->loadavg[0] < 0)
        cJSON_AddNullToObject(o, "loadavg");
    else
        cJSON_AddItemToObject(o, "loadavg", cJSON_CreateDoubleArray(l->loadavg, 3));
    add_value(o, "procs_running", (double)l->procs_running);
    return o;
}

/* A reading now, under name in o. */
static void add_reading(const struct p2pb_hostload_log *log, cJSON *o, const char *name)
{
    struct p2pb_hostload l;
    p2pb_hostload_read(log->procfs ? log->procfs : "/proc", &l);
    cJSON *j = p2pb_hostload_json(&l);
    if (j)
        cJSON_AddItemToObject(o, name, j);
}

void p2pb_hostload_kernel_start(struct p2pb_hostload_log *log, const char *kernel)
{
    if (!log->kernels)
        log->kernels = cJSON_CreateArray();
    cJSON *e = log->kernels ? cJSON_CreateObject() : NULL;
    log->current = e;
    if (!e)
        return;
    cJSON_AddStringToObject(e, "kernel", kernel);
    add_reading(log, e, "start");
    cJSON_AddItemToArray(log->kernels, e);
}

void p2pb_hostload_kernel_end(struct p2pb_hostload_log *log)
{
    if (log->current)
        add_reading(log, log->current, "end");
    log->current = NULL;
}
