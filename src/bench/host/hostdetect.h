/* SPDX-License-Identifier: MIT */
/*
 * hostdetect.h - host facts read from files and the CPUID instruction, as
 * pure functions over a "source" (the roots of /sys, /proc and / plus a CPUID
 * provider), so tests can point them at fixture directories without MPI and
 * without the real machine. See docs/host-context.md.
 *
 * Facts: hypervisor signals (raw) and a derived verdict, container markers,
 * clocksource, CPU frequency, boot id, a topology summary of a loaded hwloc
 * topology, and placement warnings computed from the gathered rank records.
 *
 * JSON values are cJSON objects returned as void * (the caller frees them with
 * cJSON_Delete). Nothing here fails hard: a file that cannot be read is
 * recorded as null (or left out, where documented).
 */
#ifndef P2PBENCH_HOSTDETECT_H
#define P2PBENCH_HOSTDETECT_H

#include <stddef.h>
#include <stdint.h>

/* Where facts are read from. Paths have no trailing slash. */
struct p2pb_host_source {
    char sysfs[512];      /* "/sys", or $P2PB_SYSFS_ROOT */
    char procfs[512];     /* "/proc", or $P2PB_PROCFS_ROOT */
    char rootfs[512];     /* "" (i.e. "/"), or $P2PB_ROOTFS_ROOT: for /.dockerenv etc. */
    char cpuid_file[512]; /* "" = the CPUID instruction; else a fixture file ($P2PB_CPUID_FILE) */
};

/*
 * Fill s with the real roots, overridden by the environment variables
 * P2PB_SYSFS_ROOT, P2PB_PROCFS_ROOT, P2PB_ROOTFS_ROOT and P2PB_CPUID_FILE
 * (tests only; documented in docs/host-context.md).
 */
void p2pb_host_source_default(struct p2pb_host_source *s);

/*
 * Fill s from one fixture directory: DIR/sys, DIR/proc, DIR/root and
 * DIR/cpuid.txt (tests/data/hostinfo/<case>/).
 */
void p2pb_host_source_fixture(struct p2pb_host_source *s, const char *dir);

/*
 * CPUID leaf (sub-leaf 0) into regs[0..3] = eax, ebx, ecx, edx.
 * Real source: the instruction (x86 only). Fixture source: a text file of
 * lines "LEAF EAX EBX ECX EDX" in hexadecimal ('#' starts a comment); a leaf
 * not listed reads as zeros. Returns 0, or -1 when no CPUID exists (non-x86,
 * unreadable fixture, or a fixture containing the single word "none").
 */
int p2pb_cpuid(const struct p2pb_host_source *s, uint32_t leaf, uint32_t regs[4]);

/*
 * Read the first line of root/rel (root: a source's sysfs or procfs path;
 * rel starts with '/') into buf (len bytes), trailing whitespace removed.
 * Returns 0, or -1 with buf = "" when the file cannot be read.
 */
int p2pb_host_read_line(const char *root, const char *rel, char *buf, size_t len);

/* Raw hypervisor and container signals. "" / -1 mean "not present". */
struct p2pb_hv_signals {
    int cpuid_available;      /* 1 if CPUID could be executed / read */
    int cpuid_hv_bit;         /* CPUID.1:ECX[31]; -1 without CPUID */
    uint32_t leaf40000000[4]; /* raw registers of leaf 0x40000000 */
    char vendor40000000[13];  /* EBX ECX EDX as text, non-printable as '.' */
    uint32_t leaf40000100[4];
    char vendor40000100[13];
    char sys_hypervisor_type[64]; /* /sys/hypervisor/type */
    char xen_capabilities[128];   /* /proc/xen/capabilities ("control_d" = dom0) */
    int xen_capabilities_present; /* file exists (possibly empty: a domU) */
    char dmi_sys_vendor[128];     /* /sys/class/dmi/id/sys_vendor */
    char dmi_product_name[128];   /* .../product_name */
    char dmi_bios_vendor[128];    /* .../bios_vendor */
    char dmi_board_vendor[128];   /* .../board_vendor */
    char clocksource[64];         /* current clocksource */
    char clocksource_available[256];
    char cpuinfo_vendor[64]; /* /proc/cpuinfo's first vendor_id ("User Mode Linux" in UML) */
    char cpuinfo_model[64];  /* its first model name ("UML") */
    /* container markers */
    int dockerenv;          /* /.dockerenv exists */
    int containerenv;       /* /run/.containerenv exists (podman) */
    char cgroup_hint[64];   /* "docker", "lxc", "kubepods", ... found in /proc/1/cgroup */
    char container_env[64]; /* container=... in /proc/1/environ */
};

/* Read every signal from s. Never fails; absent facts stay "" / 0 / -1. */
void p2pb_hv_read(const struct p2pb_host_source *s, struct p2pb_hv_signals *sig);

/*
 * The hypervisor a CPUID leaf 0x40000000 vendor string names (vendor: the
 * 12 bytes of EBX ECX EDX as text, ending at a NUL; compared without spaces
 * and case): "kvm", "hyperv", "vmware", "xen-domU", "bhyve", "qemu-tcg",
 * "acrn", "parallels", "virtualbox", "qnx" or "jailhouse" (sources in
 * hypervisor.c); NULL for an unknown string. Returns a static string.
 */
const char *p2pb_hv_vendor_verdict(const char *vendor);

/*
 * Derived hypervisor verdict from the signals: "none", a named hypervisor
 * ("uml", "kvm", "xen-domU", "xen-dom0", "hyperv", "vmware", "bhyve",
 * "qemu-tcg", "acrn", "parallels", "virtualbox", "qnx", "jailhouse") or
 * "other": a hypervisor no signal names, or signals that name different ones
 * (rules in docs/host-context.md). The innermost layer wins: in a
 * user-mode-linux guest (its /proc/cpuinfo vendor_id) CPUID, DMI and the
 * clocksource describe the machine beneath, which p2pb_hv_json names as the
 * next layer. basis (basislen bytes, may be NULL) gets the signal the verdict
 * rests on, or "signals disagree". Returns a static string.
 */
const char *p2pb_hv_verdict(const struct p2pb_hv_signals *sig, char *basis, size_t basislen);

/*
 * {"signals":{...raw...}, "verdict_derived":..., "verdict_basis":...,
 *  "layers":[{"hypervisor":..., "basis":...}, ...] innermost first (one entry
 *  without nesting; [] for "none"), "verdict_layers": "uml on kvm" (the
 *  layers joined by " on "), "signals_disagree":bool, "disagreeing_signals":[...]}.
 */
void *p2pb_hv_json(const struct p2pb_hv_signals *sig);

/*
 * {"markers":{"dockerenv":bool,"containerenv":bool,"cgroup":str|null,
 *  "pid1_container_env":str|null}, "container_derived":"docker"|"podman"|...|"none"}.
 */
void *p2pb_container_json(const struct p2pb_hv_signals *sig);

/*
 * CPU frequency: {"governor":str|null, "driver":str|null, "boost":"on"|"off"|null
 * (/sys/devices/system/cpu/cpufreq/boost, else the inverse of
 * intel_pstate/no_turbo), "boost_basis": the file read | null, "cur_khz":[per cpu,
 * null where unreadable], "max_khz":n|null, "cpuinfo_mhz":[per cpu from
 * /proc/cpuinfo]} for cpus 0..ncpus-1 (ncpus <= 0: as many as /proc/cpuinfo lists).
 */
void *p2pb_cpufreq_json(const struct p2pb_host_source *s, int ncpus);

/*
 * The selected word of a sysfs choice file ("always [madvise] never" ->
 * "madvise"; a line without brackets is taken whole) into out (len bytes).
 * Returns 0, or -1 when the result is empty.
 */
int p2pb_knob_selected(const char *line, char *out, size_t len);

/* Class of a /sys/devices/system/cpu/vulnerabilities/NAME line: "not affected",
 * "vulnerable", "mitigated" (text starts "Mitigation") or "other". Static. */
const char *p2pb_mitigation_class(const char *text);

/*
 * Host knobs (docs/host-context.md, "Host knobs"): {"thp_enabled",
 * "thp_defrag" (selected word of /sys/kernel/mm/transparent_hugepage/...),
 * "numa_balancing" (/proc/sys/kernel/numa_balancing as read), "smt_control",
 * "smt_active" (/sys/devices/system/cpu/smt/...), "mitigations":
 * {"summary":"mitigated M, vulnerable V, not affected N, other O",
 * "vulnerable":[names], "files":{name: line}}, "cmdline_mitigations"
 * (mitigations= of /proc/cmdline), "tuned_profile" (/etc/tuned/active_profile
 * under rootfs)}. Unreadable facts are null.
 */
void *p2pb_knobs_json(const struct p2pb_host_source *s);

/*
 * The NIC MPI uses: {"interface": name|null, "interface_basis": the rule of
 * p2pb_netif_pick|null, "driver", "bus_info": ETHTOOL_GDRVINFO's ("veth",
 * "virtio_net", "uml-vector"; null where it fails), "coalesce": {"rx_usecs","rx_frames","tx_usecs",
 * "tx_frames" (usec, frames as the driver reports), "adaptive_rx",
 * "adaptive_tx"} | null, "coalesce_error": strerror text when the ioctl
 * (SIOCETHTOOL, ETHTOOL_GCOALESCE) fails, e.g. "Operation not supported" on
 * veth and loopback}. Reads the real machine (no source).
 */
void *p2pb_nic_json(const char *ifname, const char *basis);

/* /proc/sys/kernel/random/boot_id into buf ("" if unreadable). Ranks with
 * equal boot ids share one kernel, hence one set of PUs, even when their host
 * names differ (network namespaces, containers). */
void p2pb_boot_id(const struct p2pb_host_source *s, char *buf, size_t len);

/*
 * Topology summary of a loaded hwloc topology (hwloc_topology_t passed as
 * void *): {"packages","numa_nodes","cores","pus", "caches":[{"level",
 * "size_bytes","count"}...] (L1d/L2/L3 as present), "hwloc_version"}.
 * Counts are objects in the topology; sizes in bytes.
 */
void *p2pb_topology_json(void *hwloc_topology);

/*
 * Placement warnings from the gathered records. ranks: array of rank objects
 * {"rank","host","boot_id","binding" (hwloc list string or null),"bound"};
 * hosts: object keyed by host name whose values carry "topology":{"pus"}.
 * Returns a JSON array of one-line strings (without the "p2pbench: warning: "
 * prefix): ranks bound to overlapping PUs of one machine (same boot_id, or
 * same host name when boot ids are missing), more ranks than PUs on a
 * machine, ranks not bound at all. Empty array when all is well.
 */
void *p2pb_placement_warnings(const void *ranks, const void *hosts);

/* The memory a run may take on this host, bytes (0: not known), and where
 * the bound comes from (memory.c). */
struct p2pb_mem_budget {
    double total;       /* MemTotal of procfs/meminfo */
    double available;   /* MemAvailable of procfs/meminfo */
    double cgroup_max;  /* memory.max of the tightest cgroup v2 of this process (0: none) */
    double cgroup_free; /* that cgroup's memory.max - memory.current */
    char cgroup[320];   /* its path and file, "/a/b (memory.max)"; "" none */
    double budget;      /* the least of 0.9 x total, available and cgroup_free known; -1 none */
};

/*
 * The memory budget of this process from source s: MemTotal and MemAvailable
 * (procfs/meminfo) and, for a cgroup v2 (procfs/self/cgroup "0::PATH"), the
 * least memory.max - memory.current of PATH and each cgroup above it
 * (sysfs/fs/cgroup/...; "max" is no limit). A file that cannot be read
 * leaves its fields 0; budget -1 when nothing is known.
 */
void p2pb_memory_budget(const struct p2pb_host_source *s, struct p2pb_mem_budget *b);

#endif /* P2PBENCH_HOSTDETECT_H */
