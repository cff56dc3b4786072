/* SPDX-License-Identifier: MIT */
/*
 * disturbance.c - steal time, involuntary context switches and CPU
 * migrations of a rank around timed stretches (disturbance.h).
 */
#define _GNU_SOURCE 1 /* sched_getaffinity, CPU_ISSET */

#include "disturbance.h"

#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h> /* __rdtsc */
#define P2PB_HAVE_TSC 1
#endif

#define MSR_MPERF 0xE7u /* Intel SDM vol. 4, table 2-2; AMD APM vol. 2 */
#define MSR_APERF 0xE8u

void p2pb_disturb_init(struct p2pb_disturb *d, const char *procfs)
{
    memset(d, 0, sizeof *d);
    snprintf(d->procfs, sizeof d->procfs, "%s", procfs ? procfs : "/proc");
    p2pb_disturb_set_roots(d, "/sys", "/dev");
    cpu_set_t set;
    CPU_ZERO(&set);
    int ok = sched_getaffinity(0, sizeof set, &set) == 0;
    for (int i = 0; i < P2PB_DISTURB_MAXCPU; i++)
        d->cpus[i] = !ok || (i < CPU_SETSIZE && CPU_ISSET(i, &set));
}

void p2pb_disturb_set_roots(struct p2pb_disturb *d, const char *sysfs, const char *devfs)
{
    if (sysfs)
        snprintf(d->sysfs, sizeof d->sysfs, "%s", sysfs);
    if (devfs)
        snprintf(d->devfs, sizeof d->devfs, "%s", devfs);
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

double p2pb_disturb_read_khz(const char *path)
{
    FILE *f = fopen(path, "r");
    double v = -1;
    if (!f)
        return -1;
    if (fscanf(f, "%lf", &v) != 1 || !(v > 0))
        v = -1;
    fclose(f);
    return v;
}

int p2pb_disturb_read_msr(const char *path, const unsigned *regs, size_t n, double *v)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC), bad = fd < 0;
    for (size_t i = 0; i < n && !bad; i++) {
        uint64_t x = 0;
        bad = pread(fd, &x, sizeof x, (off_t)regs[i]) != (ssize_t)sizeof x;
        v[i] = (double)x;
    }
    if (fd >= 0)
        close(fd);
    return bad ? -1 : 0;
}

double p2pb_disturb_mhz(const struct p2pb_disturb *d, int *source)
{
    if (d->mperf > 0 && d->aperf > 0 && d->tsc > 0 && d->tsc_ns > 0) {
        *source = P2PB_MHZ_APERF; /* TSC MHz = cycles per usec */
        return 1e3 * d->tsc / d->tsc_ns * d->aperf / d->mperf;
    }
    if (d->khz_n > 0) {
        *source = P2PB_MHZ_CPUFREQ;
        return d->khz_sum / d->khz_n / 1e3;
    }
    *source = P2PB_MHZ_NONE;
    return -1;
}

/* The frequency part of one begin/end pair: counters only when both ends
 * read them on the same CPU (MSRs are per CPU). */
static void add_freq(struct p2pb_disturb *d, const struct p2pb_disturb_snap *a,
                     const struct p2pb_disturb_snap *b)
{
    if (a->cpu >= 0 && a->cpu == b->cpu && a->aperf >= 0 && b->aperf > a->aperf && a->mperf >= 0 &&
        b->mperf > a->mperf && a->tsc >= 0 && b->tsc > a->tsc && b->wall_ns > a->wall_ns) {
        d->aperf += b->aperf - a->aperf;
        d->mperf += b->mperf - a->mperf;
        d->tsc += b->tsc - a->tsc;
        d->tsc_ns += b->wall_ns - a->wall_ns;
    }
    const struct p2pb_disturb_snap *ends[2] = {a, b};
    for (int i = 0; i < 2; i++)
        if (ends[i]->khz > 0) {
            d->khz_sum += ends[i]->khz;
            d->khz_n++;
        }
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
    add_freq(d, a, b);
    d->pairs++;
}

/* The CPU the rank runs on, its APERF/MPERF and the TSC right after, and
 * its cpufreq reading; a source that could not be read once is not tried
 * again (every CPU of a host has the same). */
static void snapshot_freq(struct p2pb_disturb *d, struct p2pb_disturb_snap *s)
{
    char path[600];
    s->cpu = sched_getcpu();
    s->aperf = s->mperf = s->tsc = s->khz = -1;
    if (s->cpu < 0)
        return;
    snprintf(path, sizeof path, "%s/cpu/%d/msr", d->devfs, s->cpu);
#ifdef P2PB_HAVE_TSC
    static const unsigned regs[2] = {MSR_APERF, MSR_MPERF};
    double v[2];
    if (!d->no_msr && p2pb_disturb_read_msr(path, regs, 2, v) == 0) {
        s->aperf = v[0];
        s->mperf = v[1];
        s->tsc = (double)__rdtsc();
    } else
        d->no_msr = 1;
#endif
    snprintf(path, sizeof path, "%s/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq", d->sysfs,
             s->cpu);
    s->khz = d->no_cpufreq ? -1 : p2pb_disturb_read_khz(path);
    d->no_cpufreq = s->khz < 0;
}

static void snapshot(struct p2pb_disturb *d, struct p2pb_disturb_snap *s)
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
    snapshot_freq(d, s);
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
    out->cpu_mhz = p2pb_disturb_mhz(d, &out->mhz_source);
}

enum p2pb_status p2pb_disturb_reduce(MPI_Comm comm, int active, const struct p2pb_disturbance *mine,
                                     struct p2pb_disturbance *out)
{
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    struct {
        double v;
        int rank;
    } in[6], res[6];
    /* the lowest frequency as the largest of -MHz; unknown never chosen */
    const double vals[6] = {mine->steal_pct,
                            mine->invol_ctxsw,
                            mine->migrations,
                            mine->cpu_lost_pct,
                            mine->cpu_mhz > 0 ? -mine->cpu_mhz : -1e300,
                            (double)mine->mhz_source};
    for (int i = 0; i < 6; i++) {
        in[i].v = active ? vals[i] : (i == 4 ? -1e300 : -2.0); /* below "unknown" (-1) */
        in[i].rank = rank;
    }
    if (MPI_Allreduce(in, res, 6, MPI_DOUBLE_INT, MPI_MAXLOC, comm) != MPI_SUCCESS)
        return P2PB_EMPI;
    memset(out, 0, sizeof *out);
    out->valid = 1;
    out->steal_pct = res[0].v > 0 ? res[0].v : 0;
    out->invol_ctxsw = res[1].v > 0 ? res[1].v : 0;
    out->migrations = res[2].v >= 0 ? res[2].v : -1;
    out->cpu_lost_pct = res[3].v > 0 ? res[3].v : 0;
    out->cpu_mhz = res[4].v > -1e299 ? -res[4].v : -1;
    out->mhz_source = out->cpu_mhz > 0 && res[5].v > 0 ? (int)res[5].v : P2PB_MHZ_NONE;
    out->worst_rank = res[0].v > 0   ? res[0].rank
                      : res[3].v > 0 ? res[3].rank
                      : res[1].v > 0 ? res[1].rank
                      : res[2].v > 0 ? res[2].rank
                                     : -1;
    return P2PB_OK;
}
