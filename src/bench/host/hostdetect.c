/* SPDX-License-Identifier: MIT */
/*
 * Host facts as pure functions over a source of files and CPUID values. See
 * hostdetect.h and docs/host-context.md.
 */
#include "host/hostdetect.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdarg.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define P2PB_HAVE_CPUID 1
#endif

/* ---- sources ---- */

static void env_or(char *dst, size_t len, const char *var, const char *dflt)
{
    const char *v = getenv(var);
    snprintf(dst, len, "%s", v && *v ? v : dflt);
}

void p2pb_host_source_default(struct p2pb_host_source *s)
{
    env_or(s->sysfs, sizeof s->sysfs, "P2PB_SYSFS_ROOT", "/sys");
    env_or(s->procfs, sizeof s->procfs, "P2PB_PROCFS_ROOT", "/proc");
    env_or(s->rootfs, sizeof s->rootfs, "P2PB_ROOTFS_ROOT", "");
    env_or(s->cpuid_file, sizeof s->cpuid_file, "P2PB_CPUID_FILE", "");
}

void p2pb_host_source_fixture(struct p2pb_host_source *s, const char *dir)
{
    snprintf(s->sysfs, sizeof s->sysfs, "%.500s/sys", dir);
    snprintf(s->procfs, sizeof s->procfs, "%.500s/proc", dir);
    snprintf(s->rootfs, sizeof s->rootfs, "%.500s/root", dir);
    snprintf(s->cpuid_file, sizeof s->cpuid_file, "%.500s/cpuid.txt", dir);
}

/* Read the first line of root/rel into buf, trailing whitespace removed.
 * Returns 0, or -1 (buf = "") if the file cannot be read. */
static int read_line(const char *root, const char *rel, char *buf, size_t len)
{
    char path[1100];
    snprintf(path, sizeof path, "%s%s", root, rel);
    buf[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    if (!fgets(buf, (int)len, f))
        buf[0] = '\0';
    fclose(f);
    size_t n = strlen(buf);
    while (n > 0 && isspace((unsigned char)buf[n - 1]))
        buf[--n] = '\0';
    return 0;
}

static int path_exists(const char *root, const char *rel)
{
    char path[1100];
    struct stat st;
    snprintf(path, sizeof path, "%s%s", root, rel);
    return stat(path, &st) == 0;
}

int p2pb_cpuid(const struct p2pb_host_source *s, uint32_t leaf, uint32_t regs[4])
{
    regs[0] = regs[1] = regs[2] = regs[3] = 0;
    if (s->cpuid_file[0]) {
        FILE *f = fopen(s->cpuid_file, "r");
        if (!f)
            return -1;
        char line[256];
        int rc = 0;
        while (fgets(line, sizeof line, f)) {
            char *hash = strchr(line, '#');
            if (hash)
                *hash = '\0';
            char word[16];
            if (sscanf(line, "%15s", word) == 1 && strcmp(word, "none") == 0) {
                rc = -1;
                break;
            }
            unsigned long l, a, b, c, d;
            if (sscanf(line, "%lx %lx %lx %lx %lx", &l, &a, &b, &c, &d) == 5 && l == leaf) {
                regs[0] = (uint32_t)a;
                regs[1] = (uint32_t)b;
                regs[2] = (uint32_t)c;
                regs[3] = (uint32_t)d;
                break;
            }
        }
        fclose(f);
        return rc;
    }
#ifdef P2PB_HAVE_CPUID
    unsigned a, b, c, d;
    /* __cpuid, not __get_cpuid: the latter refuses leaves above the basic
     * maximum, and the hypervisor range 0x40000000 always is. */
    __cpuid(leaf, a, b, c, d);
    regs[0] = a;
    regs[1] = b;
    regs[2] = c;
    regs[3] = d;
    return 0;
#else
    return -1;
#endif
}

static void vendor_text(const uint32_t r[4], char out[13])
{
    memcpy(out, &r[1], 4);
    memcpy(out + 4, &r[2], 4);
    memcpy(out + 8, &r[3], 4);
    out[12] = '\0';
    /* keep trailing NULs as the end of the string; other bytes printable */
    size_t n = strlen(out);
    for (size_t i = 0; i < n; i++)
        if (!isprint((unsigned char)out[i]))
            out[i] = '.';
}

/* First line of /proc/1/cgroup (or any line) naming a container runtime. */
static void cgroup_hint(const struct p2pb_host_source *s, char *buf, size_t len)
{
    static const char *const words[] = {"docker", "kubepods", "containerd",
                                        "libpod", "lxc",      "podman"};
    char path[1100];
    buf[0] = '\0';
    snprintf(path, sizeof path, "%s/1/cgroup", s->procfs);
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char line[1024];
    while (!buf[0] && fgets(line, sizeof line, f))
        for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
            if (strstr(line, words[i])) {
                snprintf(buf, len, "%s", words[i]);
                break;
            }
    fclose(f);
}

static void pid1_container_env(const struct p2pb_host_source *s, char *buf, size_t len)
{
    char path[1100];
    buf[0] = '\0';
    snprintf(path, sizeof path, "%s/1/environ", s->procfs);
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char env[8192];
    size_t n = fread(env, 1, sizeof env - 1, f);
    fclose(f);
    env[n] = '\0';
    for (size_t i = 0; i < n;) {
        const char *e = env + i;
        if (strncmp(e, "container=", 10) == 0) {
            snprintf(buf, len, "%s", e + 10);
            return;
        }
        i += strlen(e) + 1;
    }
}

void p2pb_hv_read(const struct p2pb_host_source *s, struct p2pb_hv_signals *sig)
{
    memset(sig, 0, sizeof *sig);
    uint32_t r[4];
    sig->cpuid_hv_bit = -1;
    if (p2pb_cpuid(s, 1, r) == 0) {
        sig->cpuid_available = 1;
        sig->cpuid_hv_bit = (int)((r[2] >> 31) & 1u);
        p2pb_cpuid(s, 0x40000000u, sig->leaf40000000);
        vendor_text(sig->leaf40000000, sig->vendor40000000);
        p2pb_cpuid(s, 0x40000100u, sig->leaf40000100);
        vendor_text(sig->leaf40000100, sig->vendor40000100);
    }
    read_line(s->sysfs, "/hypervisor/type", sig->sys_hypervisor_type,
              sizeof sig->sys_hypervisor_type);
    sig->xen_capabilities_present = read_line(s->procfs, "/xen/capabilities", sig->xen_capabilities,
                                              sizeof sig->xen_capabilities) == 0;
    read_line(s->sysfs, "/class/dmi/id/sys_vendor", sig->dmi_sys_vendor,
              sizeof sig->dmi_sys_vendor);
    read_line(s->sysfs, "/class/dmi/id/product_name", sig->dmi_product_name,
              sizeof sig->dmi_product_name);
    read_line(s->sysfs, "/class/dmi/id/bios_vendor", sig->dmi_bios_vendor,
              sizeof sig->dmi_bios_vendor);
    read_line(s->sysfs, "/class/dmi/id/board_vendor", sig->dmi_board_vendor,
              sizeof sig->dmi_board_vendor);
    read_line(s->sysfs, "/devices/system/clocksource/clocksource0/current_clocksource",
              sig->clocksource, sizeof sig->clocksource);
    read_line(s->sysfs, "/devices/system/clocksource/clocksource0/available_clocksource",
              sig->clocksource_available, sizeof sig->clocksource_available);
    sig->dockerenv = path_exists(s->rootfs, "/.dockerenv");
    sig->containerenv = path_exists(s->rootfs, "/run/.containerenv");
    cgroup_hint(s, sig->cgroup_hint, sizeof sig->cgroup_hint);
    pid1_container_env(s, sig->container_env, sizeof sig->container_env);
}

/* ---- the derived verdict ---- */

/* Known CPUID 0x40000000 vendor signatures (12 bytes, NULs as end). */
static const struct {
    const char *sig;
    const char *verdict;
} cpuid_vendors[] = {
    {"KVMKVMKVM", "kvm"},       {"Linux KVM Hv", "kvm"},    {"XenVMMXenVMM", "xen-domU"},
    {"Microsoft Hv", "hyperv"}, {"VMwareVMware", "vmware"}, {"bhyve bhyve ", "other"},
    {"TCGTCGTCGTCG", "other"},  {"VBoxVBoxVBox", "other"},  {"ACRNACRNACRN", "other"},
    {" lrpepyh  vr", "other"},  {"QNXQVMBSQG", "other"},
};

static const char *vendor_verdict(const char *v)
{
    for (size_t i = 0; i < sizeof cpuid_vendors / sizeof cpuid_vendors[0]; i++)
        if (strcmp(v, cpuid_vendors[i].sig) == 0)
            return cpuid_vendors[i].verdict;
    return NULL;
}

static int icontains(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++)
        if (strncasecmp(hay, needle, n) == 0)
            return 1;
    return 0;
}

/* What the DMI strings suggest, or NULL. */
static const char *dmi_verdict(const struct p2pb_hv_signals *s)
{
    const char *v = s->dmi_sys_vendor, *p = s->dmi_product_name, *b = s->dmi_bios_vendor;
    if (icontains(v, "Xen") || icontains(b, "Xen") || icontains(p, "HVM domU"))
        return "xen-domU";
    if (icontains(v, "QEMU") || icontains(p, "KVM") || icontains(p, "Standard PC") ||
        icontains(b, "SeaBIOS") || icontains(v, "Red Hat") || icontains(p, "Google Compute Engine"))
        return "kvm";
    if (icontains(v, "Microsoft") && icontains(p, "Virtual"))
        return "hyperv";
    if (icontains(v, "VMware") || icontains(p, "VMware"))
        return "vmware";
    if (icontains(v, "innotek") || icontains(p, "VirtualBox") || icontains(p, "BHYVE") ||
        icontains(v, "Parallels") || icontains(v, "Amazon EC2"))
        return "other";
    return NULL;
}

static const char *clocksource_verdict(const char *cs)
{
    if (strcmp(cs, "kvm-clock") == 0)
        return "kvm";
    if (strcmp(cs, "xen") == 0)
        return "xen-domU";
    if (strncmp(cs, "hyperv", 6) == 0)
        return "hyperv";
    if (strcmp(cs, "vmw-tsc") == 0 || strncmp(cs, "vmware", 6) == 0)
        return "vmware";
    return NULL;
}

/* One opinion per signal; verdict = first opinion in priority order. */
struct opinion {
    const char *signal;
    const char *verdict; /* NULL: this signal says nothing */
};

static size_t opinions(const struct p2pb_hv_signals *s, struct opinion *op)
{
    size_t n = 0;
    int dom0 = s->xen_capabilities_present && strstr(s->xen_capabilities, "control_d") != NULL;
    if (s->xen_capabilities_present)
        op[n++] = (struct opinion){"xen_capabilities", dom0 ? "xen-dom0" : "xen-domU"};
    if (s->sys_hypervisor_type[0])
        op[n++] = (struct opinion){"sys_hypervisor_type", strcmp(s->sys_hypervisor_type, "xen") == 0
                                                              ? (dom0 ? "xen-dom0" : "xen-domU")
                                                              : "other"};
    /* Xen's own leaf moves to 0x40000100 when it also offers Hyper-V's
     * interface (viridian) at 0x40000000. */
    if (s->cpuid_available && strcmp(s->vendor40000100, "XenVMMXenVMM") == 0)
        op[n++] = (struct opinion){"cpuid_0x40000100_vendor", dom0 ? "xen-dom0" : "xen-domU"};
    if (s->cpuid_available && s->vendor40000000[0]) {
        const char *v = vendor_verdict(s->vendor40000000);
        /* without the hypervisor bit, leaf 0x40000000 of bare metal returns
         * leftovers: trust only known signatures */
        if (v && strcmp(v, "xen-domU") == 0 && dom0)
            v = "xen-dom0";
        if (!v && s->cpuid_hv_bit == 1)
            v = "other";
        if (v)
            op[n++] = (struct opinion){"cpuid_0x40000000_vendor", v};
    }
    if (s->cpuid_hv_bit == 1)
        op[n++] = (struct opinion){"cpuid_1_ecx_bit31", "other"};
    const char *d = dmi_verdict(s);
    if (d)
        op[n++] = (struct opinion){"dmi", d};
    const char *c = clocksource_verdict(s->clocksource);
    if (c)
        op[n++] = (struct opinion){"clocksource", c};
    return n;
}

/* "other" from the hypervisor bit alone agrees with any guest verdict. */
static int agrees(const char *a, const char *b)
{
    if (strcmp(a, b) == 0)
        return 1;
    if (strncmp(a, "xen", 3) == 0 && strncmp(b, "xen", 3) == 0)
        return 1; /* dom0 vs domU is decided by capabilities alone */
    return 0;
}

const char *p2pb_hv_verdict(const struct p2pb_hv_signals *sig, char *basis, size_t basislen)
{
    struct opinion op[16];
    size_t n = opinions(sig, op);
    const char *v = "none";
    const char *why = "no hypervisor signal";
    for (size_t i = 0; i < n; i++) {
        /* the bare hypervisor bit names no hypervisor: prefer any later
         * signal that does */
        if (strcmp(op[i].signal, "cpuid_1_ecx_bit31") == 0) {
            for (size_t j = i + 1; j < n; j++)
                if (strcmp(op[j].verdict, "other") != 0) {
                    i = j;
                    break;
                }
        }
        v = op[i].verdict;
        why = op[i].signal;
        break;
    }
    if (basis && basislen)
        snprintf(basis, basislen, "%s", why);
    return v;
}

static cJSON *str_or_null(const char *s)
{
    return s && s[0] ? cJSON_CreateString(s) : cJSON_CreateNull();
}

static cJSON *regs_json(const uint32_t r[4])
{
    char buf[64];
    snprintf(buf, sizeof buf, "%08x %08x %08x %08x", r[0], r[1], r[2], r[3]);
    return cJSON_CreateString(buf);
}

void *p2pb_hv_json(const struct p2pb_hv_signals *s)
{
    cJSON *o = cJSON_CreateObject();
    cJSON *g = cJSON_AddObjectToObject(o, "signals");
    if (s->cpuid_available) {
        cJSON_AddBoolToObject(g, "cpuid_1_ecx_bit31", s->cpuid_hv_bit == 1);
        cJSON_AddItemToObject(g, "cpuid_0x40000000_vendor", cJSON_CreateString(s->vendor40000000));
        cJSON_AddItemToObject(g, "cpuid_0x40000000_regs", regs_json(s->leaf40000000));
        cJSON_AddItemToObject(g, "cpuid_0x40000100_vendor", cJSON_CreateString(s->vendor40000100));
        cJSON_AddItemToObject(g, "cpuid_0x40000100_regs", regs_json(s->leaf40000100));
    } else {
        cJSON_AddNullToObject(g, "cpuid_1_ecx_bit31");
        cJSON_AddNullToObject(g, "cpuid_0x40000000_vendor");
        cJSON_AddNullToObject(g, "cpuid_0x40000100_vendor");
    }
    cJSON_AddItemToObject(g, "sys_hypervisor_type", str_or_null(s->sys_hypervisor_type));
    if (s->xen_capabilities_present)
        cJSON_AddStringToObject(g, "xen_capabilities", s->xen_capabilities);
    else
        cJSON_AddNullToObject(g, "xen_capabilities");
    cJSON_AddItemToObject(g, "dmi_sys_vendor", str_or_null(s->dmi_sys_vendor));
    cJSON_AddItemToObject(g, "dmi_product_name", str_or_null(s->dmi_product_name));
    cJSON_AddItemToObject(g, "dmi_bios_vendor", str_or_null(s->dmi_bios_vendor));
    cJSON_AddItemToObject(g, "dmi_board_vendor", str_or_null(s->dmi_board_vendor));
    cJSON_AddItemToObject(g, "clocksource", str_or_null(s->clocksource));
    cJSON_AddItemToObject(g, "clocksource_available", str_or_null(s->clocksource_available));
    cJSON_AddItemToObject(o, "container", p2pb_container_json(s));

    char basis[64];
    const char *v = p2pb_hv_verdict(s, basis, sizeof basis);
    cJSON_AddStringToObject(o, "verdict_derived", v);
    cJSON_AddStringToObject(o, "verdict_basis", basis);
    struct opinion op[16];
    size_t n = opinions(s, op);
    cJSON *dis = cJSON_CreateArray();
    for (size_t i = 0; i < n; i++) {
        if (strcmp(op[i].verdict, "other") == 0 && strcmp(op[i].signal, "cpuid_1_ecx_bit31") == 0 &&
            strcmp(v, "none") != 0)
            continue; /* "some hypervisor" agrees with any named one */
        if (!agrees(op[i].verdict, v)) {
            char buf[128];
            snprintf(buf, sizeof buf, "%s suggests %s", op[i].signal, op[i].verdict);
            cJSON_AddItemToArray(dis, cJSON_CreateString(buf));
        }
    }
    cJSON_AddBoolToObject(o, "signals_disagree", cJSON_GetArraySize(dis) > 0);
    cJSON_AddItemToObject(o, "disagreeing_signals", dis);
    return o;
}

void *p2pb_container_json(const struct p2pb_hv_signals *s)
{
    cJSON *o = cJSON_CreateObject();
    cJSON *m = cJSON_AddObjectToObject(o, "markers");
    cJSON_AddBoolToObject(m, "dockerenv", s->dockerenv);
    cJSON_AddBoolToObject(m, "containerenv", s->containerenv);
    cJSON_AddItemToObject(m, "cgroup", str_or_null(s->cgroup_hint));
    cJSON_AddItemToObject(m, "pid1_container_env", str_or_null(s->container_env));
    const char *v = "none";
    if (s->container_env[0])
        v = s->container_env;
    else if (s->dockerenv)
        v = "docker";
    else if (s->containerenv)
        v = "podman";
    else if (s->cgroup_hint[0])
        v = s->cgroup_hint;
    cJSON_AddStringToObject(o, "container_derived", v);
    return o;
}

/* ---- clock and frequency ---- */

void *p2pb_cpufreq_json(const struct p2pb_host_source *s, int ncpus)
{
    cJSON *o = cJSON_CreateObject();
    char buf[128];
    cJSON_AddItemToObject(o, "governor",
                          read_line(s->sysfs, "/devices/system/cpu/cpu0/cpufreq/scaling_governor",
                                    buf, sizeof buf) == 0 &&
                                  buf[0]
                              ? cJSON_CreateString(buf)
                              : cJSON_CreateNull());
    cJSON_AddItemToObject(o, "driver",
                          read_line(s->sysfs, "/devices/system/cpu/cpu0/cpufreq/scaling_driver",
                                    buf, sizeof buf) == 0 &&
                                  buf[0]
                              ? cJSON_CreateString(buf)
                              : cJSON_CreateNull());
    if (read_line(s->sysfs, "/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", buf, sizeof buf) ==
            0 &&
        buf[0])
        cJSON_AddNumberToObject(o, "max_khz", strtod(buf, NULL));
    else
        cJSON_AddNullToObject(o, "max_khz");

    /* /proc/cpuinfo "cpu MHz" per processor */
    cJSON *mhz = cJSON_CreateArray();
    char path[1100];
    snprintf(path, sizeof path, "%s/cpuinfo", s->procfs);
    FILE *f = fopen(path, "r");
    if (f) {
        char line[512];
        while (fgets(line, sizeof line, f))
            if (strncmp(line, "cpu MHz", 7) == 0) {
                char *c = strchr(line, ':');
                if (c)
                    cJSON_AddItemToArray(mhz, cJSON_CreateNumber(strtod(c + 1, NULL)));
            }
        fclose(f);
    }
    if (ncpus <= 0)
        ncpus = cJSON_GetArraySize(mhz);
    cJSON *cur = cJSON_CreateArray();
    int any = 0;
    for (int i = 0; i < ncpus; i++) {
        char rel[128];
        snprintf(rel, sizeof rel, "/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq", i);
        if (read_line(s->sysfs, rel, buf, sizeof buf) == 0 && buf[0]) {
            cJSON_AddItemToArray(cur, cJSON_CreateNumber(strtod(buf, NULL)));
            any = 1;
        } else
            cJSON_AddItemToArray(cur, cJSON_CreateNull());
    }
    if (any)
        cJSON_AddItemToObject(o, "cur_khz", cur);
    else {
        cJSON_Delete(cur);
        cJSON_AddNullToObject(o, "cur_khz");
    }
    cJSON_AddItemToObject(o, "cpuinfo_mhz", mhz);
    return o;
}

void p2pb_boot_id(const struct p2pb_host_source *s, char *buf, size_t len)
{
    read_line(s->procfs, "/sys/kernel/random/boot_id", buf, len);
}

/* ---- topology ---- */

void *p2pb_topology_json(void *hwloc_topology)
{
    hwloc_topology_t topo = hwloc_topology;
    cJSON *t = cJSON_CreateObject();
    cJSON_AddNumberToObject(t, "packages", hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE));
    cJSON_AddNumberToObject(t, "numa_nodes", hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE));
    cJSON_AddNumberToObject(t, "cores", hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE));
    cJSON_AddNumberToObject(t, "pus", hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU));
    cJSON *caches = cJSON_AddArrayToObject(t, "caches");
    static const hwloc_obj_type_t ctypes[] = {HWLOC_OBJ_L1CACHE, HWLOC_OBJ_L2CACHE,
                                              HWLOC_OBJ_L3CACHE};
    for (size_t i = 0; i < sizeof ctypes / sizeof ctypes[0]; i++) {
        hwloc_obj_t c = hwloc_get_next_obj_by_type(topo, ctypes[i], NULL);
        if (!c || !c->attr)
            continue;
        cJSON *ce = cJSON_CreateObject();
        cJSON_AddNumberToObject(ce, "level", c->attr->cache.depth);
        cJSON_AddNumberToObject(ce, "size_bytes", (double)c->attr->cache.size);
        cJSON_AddNumberToObject(ce, "count", hwloc_get_nbobjs_by_type(topo, ctypes[i]));
        cJSON_AddItemToArray(caches, ce);
    }
    hwloc_obj_t root = hwloc_get_root_obj(topo);
    if (root && root->total_memory)
        cJSON_AddNumberToObject(t, "memory_bytes", (double)root->total_memory);
    cJSON_AddStringToObject(t, "hwloc_version", HWLOC_VERSION);
    return t;
}

/* ---- placement warnings ---- */

static const char *jstr(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* The "rank" field of a record, else its index. */
static int rank_of(const cJSON *o, int idx)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "rank");
    return cJSON_IsNumber(v) ? v->valueint : idx;
}

/* The machine a rank runs on: boot id, else host name. */
static const char *machine_of(const cJSON *r)
{
    const char *b = jstr(r, "boot_id");
    if (b && *b)
        return b;
    const char *h = jstr(r, "host");
    return h ? h : "";
}

static void add_warning(cJSON *arr, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add_warning(cJSON *arr, const char *fmt, ...)
{
    char buf[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    cJSON_AddItemToArray(arr, cJSON_CreateString(buf));
}

/* "host vm" or "hosts a and b (one machine: same boot_id)" */
static void where(char *buf, size_t len, const char *h1, const char *h2)
{
    if (strcmp(h1, h2) == 0)
        snprintf(buf, len, "host %s", h1);
    else
        snprintf(buf, len, "hosts %s and %s (one machine: same boot_id)", h1, h2);
}

void *p2pb_placement_warnings(const void *ranks_v, const void *hosts_v)
{
    const cJSON *ranks = ranks_v, *hosts = hosts_v;
    cJSON *out = cJSON_CreateArray();
    int n = cJSON_GetArraySize(ranks);
    if (n <= 0)
        return out;
    hwloc_bitmap_t *sets = calloc((size_t)n, sizeof *sets);
    const cJSON **r = calloc((size_t)n, sizeof *r);
    char *done = calloc((size_t)n, 1);
    if (!sets || !r || !done) {
        free(sets);
        free(r);
        free(done);
        return out;
    }
    for (int i = 0; i < n; i++) {
        r[i] = cJSON_GetArrayItem(ranks, i);
        const char *b = jstr(r[i], "binding");
        if (b) {
            sets[i] = hwloc_bitmap_alloc();
            if (sets[i] && hwloc_bitmap_list_sscanf(sets[i], b) != 0) {
                hwloc_bitmap_free(sets[i]);
                sets[i] = NULL;
            }
        }
    }
    /* overlapping PU sets of bound ranks on one machine */
    hwloc_bitmap_t inter = hwloc_bitmap_alloc();
    for (int i = 0; i < n; i++) {
        const cJSON *bi = cJSON_GetObjectItemCaseSensitive(r[i], "bound");
        if (!sets[i] || !cJSON_IsTrue(bi))
            continue;
        for (int j = i + 1; j < n; j++) {
            const cJSON *bj = cJSON_GetObjectItemCaseSensitive(r[j], "bound");
            if (!sets[j] || !cJSON_IsTrue(bj) || strcmp(machine_of(r[i]), machine_of(r[j])) != 0)
                continue;
            hwloc_bitmap_and(inter, sets[i], sets[j]);
            if (hwloc_bitmap_iszero(inter))
                continue;
            char *list = NULL, w[300];
            hwloc_bitmap_list_asprintf(&list, inter);
            const char *hi = jstr(r[i], "host"), *hj = jstr(r[j], "host");
            where(w, sizeof w, hi ? hi : "?", hj ? hj : "?");
            add_warning(out, "ranks %d and %d on %s are bound to overlapping PUs (%s)",
                        rank_of(r[i], i), rank_of(r[j], j), w, list ? list : "?");
            free(list);
        }
    }
    hwloc_bitmap_free(inter);
    /* more ranks than PUs on one machine */
    for (int i = 0; i < n; i++) {
        if (done[i])
            continue;
        int count = 0;
        for (int j = i; j < n; j++)
            if (!done[j] && strcmp(machine_of(r[i]), machine_of(r[j])) == 0) {
                done[j] = 1;
                count++;
            }
        const char *h = jstr(r[i], "host");
        const cJSON *hj = h ? cJSON_GetObjectItemCaseSensitive(hosts, h) : NULL;
        const cJSON *topo = cJSON_GetObjectItemCaseSensitive(hj, "topology");
        const cJSON *pus = cJSON_GetObjectItemCaseSensitive(topo, "pus");
        if (cJSON_IsNumber(pus) && pus->valuedouble > 0 && count > (int)pus->valuedouble)
            add_warning(out, "%d ranks on host %s, which has %d PU(s): oversubscribed", count,
                        h ? h : "?", (int)pus->valuedouble);
    }
    /* ranks not bound at all, one warning per host */
    memset(done, 0, (size_t)n);
    for (int i = 0; i < n; i++) {
        const cJSON *bi = cJSON_GetObjectItemCaseSensitive(r[i], "bound");
        if (done[i] || cJSON_IsTrue(bi))
            continue;
        const char *h = jstr(r[i], "host");
        char list[256] = "";
        size_t len = 0;
        int cnt = 0;
        for (int j = i; j < n; j++) {
            const cJSON *bj = cJSON_GetObjectItemCaseSensitive(r[j], "bound");
            const char *hj = jstr(r[j], "host");
            if (done[j] || cJSON_IsTrue(bj) || strcmp(h ? h : "", hj ? hj : "") != 0)
                continue;
            done[j] = 1;
            cnt++;
            if (len < sizeof list - 16)
                len += (size_t)snprintf(list + len, sizeof list - len, "%s%d", cnt > 1 ? "," : "",
                                        rank_of(r[j], j));
        }
        const char *b = jstr(r[i], "binding");
        add_warning(out, "rank%s %s on host %s %s not bound to a PU set (binding: %s)",
                    cnt > 1 ? "s" : "", list, h ? h : "?", cnt > 1 ? "are" : "is",
                    b ? b : "unknown");
    }
    for (int i = 0; i < n; i++)
        if (sets[i])
            hwloc_bitmap_free(sets[i]);
    free(sets);
    free(r);
    free(done);
    return out;
}
