/* SPDX-License-Identifier: MIT */
/*
 * Hypervisor and container signals, and the verdict derived from them, as
 * pure functions over a source of files and CPUID values (hostdetect.h,
 * docs/host-context.md).
 */
#include "host/hostdetect.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
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

int p2pb_host_read_line(const char *root, const char *rel, char *buf, size_t len)
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
    p2pb_host_read_line(s->sysfs, "/hypervisor/type", sig->sys_hypervisor_type,
                        sizeof sig->sys_hypervisor_type);
    sig->xen_capabilities_present =
        p2pb_host_read_line(s->procfs, "/xen/capabilities", sig->xen_capabilities,
                            sizeof sig->xen_capabilities) == 0;
    p2pb_host_read_line(s->sysfs, "/class/dmi/id/sys_vendor", sig->dmi_sys_vendor,
                        sizeof sig->dmi_sys_vendor);
    p2pb_host_read_line(s->sysfs, "/class/dmi/id/product_name", sig->dmi_product_name,
                        sizeof sig->dmi_product_name);
    p2pb_host_read_line(s->sysfs, "/class/dmi/id/bios_vendor", sig->dmi_bios_vendor,
                        sizeof sig->dmi_bios_vendor);
    p2pb_host_read_line(s->sysfs, "/class/dmi/id/board_vendor", sig->dmi_board_vendor,
                        sizeof sig->dmi_board_vendor);
    p2pb_host_read_line(s->sysfs, "/devices/system/clocksource/clocksource0/current_clocksource",
                        sig->clocksource, sizeof sig->clocksource);
    p2pb_host_read_line(s->sysfs, "/devices/system/clocksource/clocksource0/available_clocksource",
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
