/* SPDX-License-Identifier: MIT */
/*
 * hostload.h - the load of the host beside the ranks (issue 34): CPU, memory
 * and I/O pressure (PSI, Documentation/accounting/psi.rst), the load average
 * and the runnable tasks, read from /proc at the start of a launch and at the
 * start and end of every kernel, on rank 0's host. No MPI.
 */
#ifndef P2PB_HOSTLOAD_H
#define P2PB_HOSTLOAD_H

#include <cjson/cJSON.h>

/* One reading. Pressures in percent of wall time over the last 10 s
 * ("avg10"), -1 where the kernel has no such file or line (no PSI, or "full"
 * for the CPU before Linux 5.13); loadavg over 1, 5, 15 min (-1: unread);
 * procs_running: runnable tasks on the whole host (/proc/stat
 * "procs_running", the reading process included; -1: unread);
 * cpu_some_total: the CPU "some" line's total= (usec that a runnable task
 * waited, since boot; -1: unread) at monotonic_sec (CLOCK_MONOTONIC, s): two
 * readings give the pressure between them exactly. */
struct p2pb_hostload {
    double cpu_some, cpu_full, memory_some, memory_full, io_some, io_full;
    double cpu_some_total, monotonic_sec;
    double loadavg[3];
    long procs_running;
};

/* Read procfs ("/proc", or a fixture directory with pressure/cpu,
 * pressure/memory, pressure/io, loadavg and stat) into *out; what is missing
 * stays -1. Never fails. */
void p2pb_hostload_read(const char *procfs, struct p2pb_hostload *out);

/* *l as a JSON object {"cpu_some_avg10", "cpu_full_avg10", "memory_some_avg10",
 * "memory_full_avg10", "io_some_avg10", "io_full_avg10": percent or null,
 * "cpu_some_total_us": usec or null, "monotonic_sec", "loadavg": [1, 5, 15 min]
 * or null, "procs_running": count or null}
 * (docs/output-format.md, "load"). NULL without memory. */
cJSON *p2pb_hostload_json(const struct p2pb_hostload *l);

/* Per-kernel readings of a run (rank 0): the end record's "load" array
 * [{"kernel": name, "start": reading, "end": reading}, ...]. */
struct p2pb_hostload_log {
    const char *procfs; /* "/proc" unless a test says otherwise */
    cJSON *kernels;     /* the array; NULL until the first kernel starts */
    cJSON *current;     /* the entry of the kernel running, or NULL */
};

/* Start and end kernel's entry with a reading now. Out of memory: the
 * entry is left out (the run goes on). */
void p2pb_hostload_kernel_start(struct p2pb_hostload_log *log, const char *kernel);
void p2pb_hostload_kernel_end(struct p2pb_hostload_log *log);

#endif /* P2PB_HOSTLOAD_H */
