/* SPDX-License-Identifier: MIT */
/*
 * disturbance.h - what disturbed a rank while it was measured: the steal
 * time of its CPUs, its involuntary context switches and its CPU migrations,
 * read before and after (never inside) a timed stretch and accumulated over
 * several such stretches; and their maximum over the ranks that took part.
 * docs/host-context.md, "Disturbance". Not wired into the harness yet.
 *
 * Sources (Linux, proc(5)): /proc/stat "cpuN" lines, fields in USER_HZ ticks
 * user nice system idle iowait irq softirq steal ...; getrusage(RUSAGE_SELF)
 * ru_nivcsw, ru_utime + ru_stime against CLOCK_MONOTONIC (the share of
 * the wall time the rank was off its CPU); /proc/self/sched
 * "se.nr_migrations" (kernels with CONFIG_SCHED_DEBUG; otherwise migrations
 * are unknown, -1). CPU frequency (turbostat's "Bzy_MHz"): on x86 with a
 * readable /dev/cpu/N/msr (msr module, root), TSC MHz x dAPERF / dMPERF
 * (MSRs 0xE8, 0xE7; Intel SDM vol. 3B, 14.2 "Hardware Coordination
 * Feedback"; AMD APM vol. 2, 17.3) over stretches that began and ended on
 * the same CPU, TSC MHz = dTSC / d(CLOCK_MONOTONIC); else the mean of
 * cpufreq's scaling_cur_freq (kHz) of the CPU read at each begin and end;
 * else unknown (most VMs expose neither).
 */
#ifndef P2PBENCH_DISTURBANCE_H
#define P2PBENCH_DISTURBANCE_H

#include <mpi.h>
#include <stddef.h>

#include "p2pbench/result.h"
#include "p2pbench/status.h"

/* Most CPUs whose /proc/stat lines are read (OS indexes 0..P2PB_DISTURB_MAXCPU-1). */
#define P2PB_DISTURB_MAXCPU 1024

/* One reading. Ticks summed over the rank's CPUs. */
struct p2pb_disturb_snap {
    double steal_ticks;  /* 8th field of each cpuN line */
    double total_ticks;  /* sum of the first 8 fields (guest time is inside user) */
    double invol_ctxsw;  /* ru_nivcsw */
    double migrations;   /* se.nr_migrations; -1 unknown */
    double cpu_ns;       /* ru_utime + ru_stime, ns */
    double wall_ns;      /* CLOCK_MONOTONIC, ns */
    int cpu;             /* sched_getcpu(); -1 unknown */
    double aperf, mperf; /* MSR 0xE8, 0xE7 of that CPU; -1 unreadable */
    double tsc;          /* time-stamp counter, cycles; -1 none */
    double khz;          /* cpufreq scaling_cur_freq of that CPU, kHz; -1 none */
};

/* Accumulator over begin/end pairs. Initialise with p2pb_disturb_init. */
struct p2pb_disturb {
    char procfs[512];                        /* "/proc", or a fixture root */
    char sysfs[512];                         /* "/sys", or a fixture root */
    char devfs[512];                         /* "/dev", or a fixture root */
    int no_msr, no_cpufreq;                  /* 1: that source could not be read */
    unsigned char cpus[P2PB_DISTURB_MAXCPU]; /* 1 = a CPU of this rank */
    double steal_ticks, total_ticks;         /* sums of end - begin */
    double invol_ctxsw, migrations;          /* sums; migrations -1 unknown */
    double cpu_ns, wall_ns;                  /* sums: CPU time and wall time, ns */
    double aperf, mperf;                     /* sums over same-CPU pairs, cycles */
    double tsc, tsc_ns;                      /* sums over the same pairs */
    double khz_sum;                          /* sum of cpufreq readings, kHz */
    int khz_n;                               /* number of them */
    int pairs;                               /* finished begin/end pairs */
    int open;                                /* 1 between begin and end */
    struct p2pb_disturb_snap at_begin;
};

/*
 * Zero d, read from procfs ("/proc" when NULL) and take the CPUs of this
 * rank from sched_getaffinity (all CPUs when that fails).
 */
void p2pb_disturb_init(struct p2pb_disturb *d, const char *procfs);

/* Point d's sysfs and devfs reads at fixture roots (tests); NULL keeps one. */
void p2pb_disturb_set_roots(struct p2pb_disturb *d, const char *sysfs, const char *devfs);

/* Mark CPUs of d by hand (tests): cpus[i] = 1 for i in list[0..n-1]. */
void p2pb_disturb_set_cpus(struct p2pb_disturb *d, const int *list, size_t n);

/*
 * Read stat_path ("cpuN" lines) for the CPUs marked in cpus (P2PB_DISTURB_MAXCPU
 * entries) into *steal and *total (ticks). Returns 0, or -1 when the file
 * cannot be read or names none of the CPUs.
 */
int p2pb_disturb_read_stat(const char *stat_path, const unsigned char *cpus, double *steal,
                           double *total);

/* se.nr_migrations from a /proc/PID/sched file; -1 when absent. */
double p2pb_disturb_read_migrations(const char *sched_path);

/* A number from a one-line sysfs file (cpufreq kHz); -1 when unreadable. */
double p2pb_disturb_read_khz(const char *path);

/* The 8-byte registers regs[0..n-1] of an msr(4) device file
 * (/dev/cpu/N/msr, opened once) into v[0..n-1]. Returns 0, or -1 when any is
 * unreadable (no module, not root, not x86). */
int p2pb_disturb_read_msr(const char *path, const unsigned *regs, size_t n, double *v);

/* Effective MHz of d's finished pairs (see the header) and its source
 * (P2PB_MHZ_*) in *source; -1 with P2PB_MHZ_NONE when no source. Pure. */
double p2pb_disturb_mhz(const struct p2pb_disturb *d, int *source);

/* Add b - a (one begin/end pair) to d; unknown migrations on either side
 * make d's migrations unknown. Pure. */
void p2pb_disturb_add(struct p2pb_disturb *d, const struct p2pb_disturb_snap *a,
                      const struct p2pb_disturb_snap *b);

/* Take a snapshot (begin) / take one and add the difference (end). Cost: two
 * small file reads and one getrusage; call outside the timed loop. begin
 * while open, or end while not open, is ignored. */
void p2pb_disturb_begin(struct p2pb_disturb *d);
void p2pb_disturb_end(struct p2pb_disturb *d);

/*
 * This rank's totals: steal_pct = 100 x steal / total ticks (0 when no tick
 * passed), invol_ctxsw, migrations (-1 unknown), worst_rank = rank, valid = 1.
 */
void p2pb_disturb_result(const struct p2pb_disturb *d, int rank, struct p2pb_disturbance *out);

/*
 * Maximum over the ranks of comm that pass active = 1 (collective; every
 * rank gets the answer): each field its own maximum (migrations: unknown
 * when every active rank's is unknown). worst_rank: the rank with the
 * largest steal_pct if any steal was seen, else the one with the most
 * involuntary context switches if any, else the one with the most
 * migrations if any, else -1 (nothing disturbed). Ties: the lowest rank
 * (MPI_MAXLOC). Returns P2PB_OK or P2PB_EMPI.
 */
enum p2pb_status p2pb_disturb_reduce(MPI_Comm comm, int active, const struct p2pb_disturbance *mine,
                                     struct p2pb_disturbance *out);

#endif /* P2PBENCH_DISTURBANCE_H */
