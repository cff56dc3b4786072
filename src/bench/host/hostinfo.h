/* SPDX-License-Identifier: MIT */
/*
 * hostinfo.h - the host context recorded with every run: host name, OS and
 * kernel release, CPU model, hwloc topology summary and memory, each rank's
 * CPU binding. No MPI in here: run_record.c gathers the per-rank objects.
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
 * This rank's placement, its buffers bound to NUMA node numa_node (OS
 * index; -1 = first touch, --numa-node): {"rank":R, "host":..., "boot_id":... (null if
 * unreadable), "binding":"0-1" (hwloc list of the PUs the process is bound
 * to, null if unreadable), "bound": true|false (false when the binding covers
 * every PU the process is allowed to use), "numa_nodes_of_binding":"0",
 * "numa_node_of_buffers":"0" (hwloc list of the NUMA nodes holding a touched
 * 16 KiB buffer allocated as the harness allocates, hwloc_get_area_memlocation;
 * null if the kernel does not tell), "buffer_policy":"first-touch after
 * binding"|"bind:N", "buffer_bind_error": strerror text if binding to N failed}.
 */
void *p2pb_hostinfo_rank_json(int rank, int numa_node);

/*
 * Facts about this host: {"host", "os", "kernel_release", "machine",
 * "cpu_model", "memory_bytes", "topology": {"packages","numa_nodes","cores",
 * "pus", "caches":[{"level","size_bytes","count"}...], "memory_bytes",
 * "hwloc_version"}, "boot_id", "hypervisor": {"signals":{...},
 * "container":{...}, "verdict_derived",...}, "clocksource", "cpufreq":{...},
 * "knobs":{... p2pb_knobs_json ..., "nic": p2pb_nic_json of the interface
 * p2pb_netif_pick(tcp_if) chooses (src/common/netif.h; tcp_if: the run's
 * --tcp-if, "" or NULL = the automatic rules)}}.
 * Files are read from the roots in p2pb_host_source_default (hostdetect.h).
 * See docs/host-context.md for every field.
 */
void *p2pb_hostinfo_host_json(const char *tcp_if);

/* 1 if this host has a NUMA node with OS index node, else 0. */
int p2pb_hostinfo_numa_node_exists(int node);

/* This host's NUMA node OS indexes as an hwloc list ("0-1") into buf. */
void p2pb_hostinfo_numa_nodes(char *buf, size_t len);

/*
 * Apply the buffer policy to [addr, addr+bytes) before its first touch:
 * hwloc_set_area_membind(BIND) to NUMA node (OS index) node (--numa-node);
 * node -1 leaves placement to first touch after the CPU binding.
 * Returns 0 (also when node is -1 or bytes 0), -1 with errno on failure.
 */
int p2pb_hostinfo_membind(int node, void *addr, size_t bytes);

/* Size in bytes of the largest (last-level) cache, 0 if unknown. */
size_t p2pb_hostinfo_llc_bytes(void);

/* Physical memory of this host in bytes, 0 if unknown. */
size_t p2pb_hostinfo_memory_bytes(void);

#endif /* P2PBENCH_HOSTINFO_H */
