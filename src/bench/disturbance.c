/* SPDX-License-Identifier: MIT */
/*
 * disturbance.c - steal time, involuntary context switches and CPU
 * migrations of a rank around timed stretches (disturbance.h).
 */
#define _GNU_SOURCE 1 /* sched_getaffinity, CPU_ISSET */

#include "disturbance.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>

void p2pb_disturb_init(struct p2pb_disturb *d, const char *procfs)
{
    memset(d, 0, sizeof *d);
    snprintf(d->procfs, sizeof d->procfs, "%s", procfs ? procfs : "/proc");
    cpu_set_t set;
    CPU_ZERO(&set);
    int ok = sched_getaffinity(0, sizeof set, &set) == 0;
    for (int i = 0; i < P2PB_DISTURB_MAXCPU; i++)
        d->cpus[i] = !ok || (i < CPU_SETSIZE && CPU_ISSET(i, &set));
}

void p2pb_disturb_set_cpus(struct p2pb_disturb *d, const int *list, size_t n)
{
    memset(d->cpus, 0, sizeof d->cpus);
    for (size_t i = 0; i < n; i++)
        if (list[i] >= 0 && list[i] < P2PB_DISTURB_MAXCPU)
            d->cpus[list[i]] = 1;
}

int p2pb_disturb_read_stat(const char *path, const unsigned char *cpus, double *steal,
                           double *total)
{
    FILE *f = fopen(path, "r");
    char line[512];
    int found = 0;
    *steal = *total = 0;
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f)) {
        int cpu;
        double v[8] = {0};
        if (sscanf(line, "cpu%d %lf %lf %lf %lf %lf %lf %lf %lf", &cpu, &v[0], &v[1], &v[2], &v[3],
                   &v[4], &v[5], &v[6], &v[7]) < 5 ||
            cpu < 0 || cpu >= P2PB_DISTURB_MAXCPU || !cpus[cpu])
            continue;
        for (int i = 0; i < 8; i++)
            *total += v[i];
        *steal += v[7];
        found = 1;
    }
    fclose(f);
    return found ? 0 : -1;
}

double p2pb_disturb_read_migrations(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[256];
    double v = -1;
    if (!f)
        return -1;
    while (v < 0 && fgets(line, sizeof line, f)) {
        char *c = strchr(line, ':');
        if (strncmp(line, "se.nr_migrations", 16) == 0 && c)
            v = strtod(c + 1, NULL);
    }
    fclose(f);
    return v;
}

void p2pb_disturb_add(struct p2pb_disturb *d, const struct p2pb_disturb_snap *a,
                      const struct p2pb_disturb_snap *b)
{
    d->steal_ticks += b->steal_ticks - a->steal_ticks;
    d->total_ticks += b->total_ticks - a->total_ticks;
    d->invol_ctxsw += b->invol_ctxsw - a->invol_ctxsw;
    d->cpu_ns += b->cpu_ns - a->cpu_ns;
    d->wall_ns += b->wall_ns - a->wall_ns;
    if (a->migrations < 0 || b->migrations < 0 || (d->pairs > 0 && d->migrations < 0))
        d->migrations = -1;
    else
        d->migrations += b->migrations - a->migrations;
    d->pairs++;
}

static void snapshot(const struct p2pb_disturb *d, struct p2pb_disturb_snap *s)
{
    char path[600];
    snprintf(path, sizeof path, "%s/stat", d->procfs);
    if (p2pb_disturb_read_stat(path, d->cpus, &s->steal_ticks, &s->total_ticks) != 0)
        s->steal_ticks = s->total_ticks = 0;
    snprintf(path, sizeof path, "%s/self/sched", d->procfs);
    s->migrations = p2pb_disturb_read_migrations(path);
    struct rusage ru;
    int ok = getrusage(RUSAGE_SELF, &ru) == 0;
    s->invol_ctxsw = ok ? (double)ru.ru_nivcsw : 0;
    s->cpu_ns = ok ? 1e9 * (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
                         1e3 * (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec)
                   : 0;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    s->wall_ns = 1e9 * (double)ts.tv_sec + (double)ts.tv_nsec;
}

void p2pb_disturb_begin(struct p2pb_disturb *d)
{
    if (d->open)
        return;
    snapshot(d, &d->at_begin);
    d->open = 1;
}

void p2pb_disturb_end(struct p2pb_disturb *d)
{
    if (!d->open)
        return;
    struct p2pb_disturb_snap now;
    snapshot(d, &now);
    p2pb_disturb_add(d, &d->at_begin, &now);
    d->open = 0;
}

void p2pb_disturb_result(const struct p2pb_disturb *d, int rank, struct p2pb_disturbance *out)
{
    memset(out, 0, sizeof *out);
    out->valid = 1;
    out->steal_pct = d->total_ticks > 0 ? 100.0 * d->steal_ticks / d->total_ticks : 0.0;
    out->invol_ctxsw = d->invol_ctxsw;
    /* off the CPU while it wanted it: counted only when the kernel took the
     * CPU away (a rank that sleeps in a blocking call by itself loses none) */
    double lost = d->wall_ns > 0 ? 100.0 * (1.0 - d->cpu_ns / d->wall_ns) : 0.0;
    out->cpu_lost_pct = d->invol_ctxsw > 0 && lost > 0 ? lost : 0.0;
    out->migrations = d->pairs ? d->migrations : 0;
    out->worst_rank = rank;
}

enum p2pb_status p2pb_disturb_reduce(MPI_Comm comm, int active, const struct p2pb_disturbance *mine,
                                     struct p2pb_disturbance *out)
{
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    struct {
        double v;
        int rank;
    } in[4], res[4];
    const double vals[4] = {mine->steal_pct, mine->invol_ctxsw, mine->migrations,
                            mine->cpu_lost_pct};
    for (int i = 0; i < 4; i++) {
        in[i].v = active ? vals[i] : -2.0; /* below "unknown" (-1): never chosen */
        in[i].rank = rank;
    }
    if (MPI_Allreduce(in, res, 4, MPI_DOUBLE_INT, MPI_MAXLOC, comm) != MPI_SUCCESS)
        return P2PB_EMPI;
    memset(out, 0, sizeof *out);
    out->valid = 1;
    out->steal_pct = res[0].v > 0 ? res[0].v : 0;
    out->invol_ctxsw = res[1].v > 0 ? res[1].v : 0;
    out->migrations = res[2].v >= 0 ? res[2].v : -1;
    out->cpu_lost_pct = res[3].v > 0 ? res[3].v : 0;
    out->worst_rank = res[0].v > 0   ? res[0].rank
                      : res[3].v > 0 ? res[3].rank
                      : res[1].v > 0 ? res[1].rank
                      : res[2].v > 0 ? res[2].rank
                                     : -1;
    return P2PB_OK;
}
