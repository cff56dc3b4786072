/* SPDX-License-Identifier: MIT */
/*
 * hostinfo.h - the host context recorded with every run: host name, OS and
 * kernel release, CPU model, hwloc topology summary and memory, each rank's
 * CPU binding. No MPI in here: main.c gathers the per-rank objects.
 *
 * Objects are cJSON objects passed as void * (the caller owns and frees them
 * with cJSON_Delete). Functions never fail hard: a fact that cannot be read
 * is left out or recorded as null.
 */
#ifndef P2PBENCH_HOSTINFO_H
#define P2PBENCH_HOSTINFO_H

#include <stddef.h>

/* Load the hwloc topology of this host (once). Returns 0 or -1. */
int p2pb_hostinfo_init(void);
void p2pb_hostinfo_fini(void);

/* This process's host name (gethostname), in buf (len bytes). */
void p2pb_hostinfo_hostname(char *buf, size_t len);

/*
 * This rank's placement: {"rank":R, "host":..., "binding":"0-1" (hwloc list
 * of the PUs the process is bound to), "bound": true|false (false when the
 * binding covers every PU of the host)}.
 */
void *p2pb_hostinfo_rank_json(int rank);

/*
 * Facts about this host: {"host", "os", "kernel_release", "machine",
 * "cpu_model", "topology": {"packages","numa_nodes","cores","pus",
 * "caches":[{"level","size_bytes"}...]}, "memory_bytes"}.
 */
void *p2pb_hostinfo_host_json(void);

/* Size in bytes of the largest (last-level) cache, 0 if unknown. */
size_t p2pb_hostinfo_llc_bytes(void);

/* Physical memory of this host in bytes, 0 if unknown. */
size_t p2pb_hostinfo_memory_bytes(void);

#endif /* P2PBENCH_HOSTINFO_H */
