/* SPDX-License-Identifier: MIT */
#include "host/hostinfo.h"

#include "host/hostdetect.h"
#include "netif.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

static hwloc_topology_t topo;
static int topo_loaded;

/* Host knobs plus the NIC of the interface MPI uses (tcp_if: --tcp-if, ""
 * or NULL = the automatic rules of netif.h). */
static cJSON *knobs_json(const struct p2pb_host_source *src, const char *tcp_if)
{
    cJSON *k = p2pb_knobs_json(src);
    struct p2pb_netif nif;
    int found = p2pb_netif_pick(tcp_if, src->procfs, &nif, NULL, 0) == 0;
    cJSON_AddItemToObject(k, "nic", p2pb_nic_json(found ? nif.name : NULL, nif.basis));
    return k;
}

int p2pb_hostinfo_init(void)
{
    if (topo_loaded)
        return 0;
    if (hwloc_topology_init(&topo) != 0)
        return -1;
    if (hwloc_topology_load(topo) != 0) {
        hwloc_topology_destroy(topo);
        return -1;
    }
    topo_loaded = 1;
    return 0;
}

void p2pb_hostinfo_fini(void)
{
    if (topo_loaded)
        hwloc_topology_destroy(topo);
    topo_loaded = 0;
}

void p2pb_hostinfo_hostname(char *buf, size_t len)
{
    if (gethostname(buf, len) != 0)
        snprintf(buf, len, "unknown");
    buf[len - 1] = '\0';
}

/* NUMA node(s) holding a touched buffer bound to node (-1: first touch), as
 * an hwloc list ("0"), in buf; "" if unknown. */
static void buffer_location(int node, char *buf, size_t len, int *bind_errno)
{
    buf[0] = '\0';
    *bind_errno = 0;
    size_t bytes = 4 * 4096;
    void *p = NULL;
    if (posix_memalign(&p, 4096, bytes) != 0)
        return;
    if (p2pb_hostinfo_membind(node, p, bytes) != 0)
        *bind_errno = errno ? errno : EINVAL;
    memset(p, 1, bytes);
    hwloc_nodeset_t ns = hwloc_bitmap_alloc();
    if (ns && hwloc_get_area_memlocation(topo, p, bytes, ns, HWLOC_MEMBIND_BYNODESET) == 0 &&
        !hwloc_bitmap_iszero(ns)) {
        char *list = NULL;
        hwloc_bitmap_list_asprintf(&list, ns);
        snprintf(buf, len, "%s", list ? list : "");
        free(list);
    }
    hwloc_bitmap_free(ns);
    free(p);
}

void *p2pb_hostinfo_rank_json(int rank, int numa_node)
{
    cJSON *o = cJSON_CreateObject();
    char host[256];
    p2pb_hostinfo_hostname(host, sizeof host);
    cJSON_AddNumberToObject(o, "rank", rank);
    cJSON_AddStringToObject(o, "host", host);
    struct p2pb_host_source src;
    p2pb_host_source_default(&src);
    char boot[64];
    p2pb_boot_id(&src, boot, sizeof boot);
    cJSON_AddItemToObject(o, "boot_id", boot[0] ? cJSON_CreateString(boot) : cJSON_CreateNull());
    if (p2pb_hostinfo_init() == 0) {
        hwloc_bitmap_t set = hwloc_bitmap_alloc();
        if (set && hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_PROCESS) == 0) {
            char *list = NULL;
            hwloc_bitmap_list_asprintf(&list, set);
            cJSON_AddStringToObject(o, "binding", list ? list : "");
            /* bound: the binding leaves out some PU this process may use
             * (the allowed set: the container's cpuset, else every PU) */
            hwloc_const_cpuset_t all = hwloc_topology_get_allowed_cpuset(topo);
            cJSON_AddBoolToObject(o, "bound", !hwloc_bitmap_isincluded(all, set));
            free(list);
            /* NUMA nodes near the binding */
            hwloc_nodeset_t near = hwloc_bitmap_alloc();
            if (near) {
                hwloc_cpuset_to_nodeset(topo, set, near);
                char *nl = NULL;
                hwloc_bitmap_list_asprintf(&nl, near);
                cJSON_AddStringToObject(o, "numa_nodes_of_binding", nl ? nl : "");
                free(nl);
                hwloc_bitmap_free(near);
            }
        } else {
            cJSON_AddNullToObject(o, "binding");
            cJSON_AddNullToObject(o, "bound");
        }
        hwloc_bitmap_free(set);
        char loc[64];
        int berr;
        buffer_location(numa_node, loc, sizeof loc, &berr);
        cJSON_AddItemToObject(o, "numa_node_of_buffers",
                              loc[0] ? cJSON_CreateString(loc) : cJSON_CreateNull());
        if (numa_node >= 0) {
            char pol[32];
            snprintf(pol, sizeof pol, "bind:%d", numa_node);
            cJSON_AddStringToObject(o, "buffer_policy", pol);
            if (berr)
                cJSON_AddStringToObject(o, "buffer_bind_error", strerror(berr));
        } else
            cJSON_AddStringToObject(o, "buffer_policy", "first-touch after binding");
    }
    return o;
}

int p2pb_hostinfo_numa_node_exists(int node)
{
    if (node < 0 || p2pb_hostinfo_init() != 0)
        return 0;
    hwloc_obj_t obj = NULL;
    while ((obj = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_NUMANODE, obj)))
        if (obj->os_index == (unsigned)node)
            return 1;
    return 0;
}

void p2pb_hostinfo_numa_nodes(char *buf, size_t len)
{
    buf[0] = '\0';
    if (p2pb_hostinfo_init() != 0)
        return;
    hwloc_const_nodeset_t ns = hwloc_topology_get_topology_nodeset(topo);
    char *list = NULL;
    hwloc_bitmap_list_asprintf(&list, ns);
    snprintf(buf, len, "%s", list ? list : "");
    free(list);
}

int p2pb_hostinfo_membind(int node, void *addr, size_t bytes)
{
    if (node < 0 || bytes == 0)
        return 0;
    if (p2pb_hostinfo_init() != 0)
        return -1;
    hwloc_nodeset_t ns = hwloc_bitmap_alloc();
    if (!ns)
        return -1;
    hwloc_bitmap_only(ns, (unsigned)node);
    int rc =
        hwloc_set_area_membind(topo, addr, bytes, ns, HWLOC_MEMBIND_BIND, HWLOC_MEMBIND_BYNODESET);
    int e = errno;
    hwloc_bitmap_free(ns);
    errno = e;
    return rc == 0 ? 0 : -1;
}

/* The first line of file path that starts with prefix a or b (b may be
 * NULL), newline removed, into line. Returns 0, or -1 if there is none. */
static int find_line(const char *path, const char *a, const char *b, char *line, size_t len)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    int found = -1;
    while (found < 0 && fgets(line, (int)len, f))
        if (strncmp(line, a, strlen(a)) == 0 || (b && strncmp(line, b, strlen(b)) == 0))
            found = 0;
    fclose(f);
    if (found == 0)
        line[strcspn(line, "\n")] = '\0';
    return found;
}

/* /proc/cpuinfo's "model name" (x86) or "Processor" (Arm), else "unknown". */
static void read_cpu_model(char *buf, size_t len)
{
    char line[512];
    char *c = NULL;
    snprintf(buf, len, "unknown");
    if (find_line("/proc/cpuinfo", "model name", "Processor", line, sizeof line) == 0)
        c = strchr(line, ':');
    if (!c)
        return;
    c++;
    while (*c == ' ' || *c == '\t')
        c++;
    snprintf(buf, len, "%.*s", (int)(len - 1), c);
}

/* /etc/os-release's PRETTY_NAME without its quotes, else "unknown". */
static void read_os(char *buf, size_t len)
{
    char line[512];
    snprintf(buf, len, "unknown");
    if (find_line("/etc/os-release", "PRETTY_NAME=", NULL, line, sizeof line) != 0)
        return;
    char *v = line + 12;
    if (*v == '"') {
        v++;
        char *q = strrchr(v, '"');
        if (q)
            *q = '\0';
    }
    snprintf(buf, len, "%.*s", (int)(len - 1), v);
}

size_t p2pb_hostinfo_llc_bytes(void)
{
    if (p2pb_hostinfo_init() != 0)
        return 0;
    size_t best = 0;
    hwloc_obj_t obj = NULL;
    while ((obj = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_L3CACHE, obj)))
        if (obj->attr && obj->attr->cache.size > best)
            best = obj->attr->cache.size;
    if (!best)
        while ((obj = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_L2CACHE, obj)))
            if (obj->attr && obj->attr->cache.size > best)
                best = obj->attr->cache.size;
    return best;
}

size_t p2pb_hostinfo_memory_bytes(void)
{
    /* The kernel's MemTotal. hwloc's total can be smaller in VMs and
     * containers (it sums what the NUMA nodes report); it is recorded apart. */
    long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
    if (pages > 0 && psz > 0)
        return (size_t)pages * (size_t)psz;
    if (p2pb_hostinfo_init() == 0) {
        hwloc_obj_t root = hwloc_get_root_obj(topo);
        if (root && root->total_memory)
            return (size_t)root->total_memory;
    }
    return 0;
}

void *p2pb_hostinfo_host_json(const char *tcp_if)
{
    cJSON *o = cJSON_CreateObject();
    char buf[256];
    p2pb_hostinfo_hostname(buf, sizeof buf);
    cJSON_AddStringToObject(o, "host", buf);
    read_os(buf, sizeof buf);
    cJSON_AddStringToObject(o, "os", buf);
    struct utsname u;
    if (uname(&u) == 0) {
        cJSON_AddStringToObject(o, "kernel_release", u.release);
        cJSON_AddStringToObject(o, "machine", u.machine);
    }
    read_cpu_model(buf, sizeof buf);
    cJSON_AddStringToObject(o, "cpu_model", buf);
    cJSON_AddNumberToObject(o, "memory_bytes", (double)p2pb_hostinfo_memory_bytes());
    if (p2pb_hostinfo_init() == 0)
        cJSON_AddItemToObject(o, "topology", p2pb_topology_json(topo));
    struct p2pb_host_source src;
    p2pb_host_source_default(&src);
    char boot[64];
    p2pb_boot_id(&src, boot, sizeof boot);
    cJSON_AddItemToObject(o, "boot_id", boot[0] ? cJSON_CreateString(boot) : cJSON_CreateNull());
    struct p2pb_hv_signals sig;
    p2pb_hv_read(&src, &sig);
    cJSON_AddItemToObject(o, "hypervisor", p2pb_hv_json(&sig));
    cJSON_AddItemToObject(o, "clocksource",
                          sig.clocksource[0] ? cJSON_CreateString(sig.clocksource)
                                             : cJSON_CreateNull());
    int npus = topo_loaded ? hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU) : 0;
    cJSON_AddItemToObject(o, "cpufreq", p2pb_cpufreq_json(&src, npus));
    cJSON_AddItemToObject(o, "knobs", knobs_json(&src, tcp_if));
    return o;
}
