/* SPDX-License-Identifier: MIT */
#include "p2pbench/hostinfo.h"

#include <cjson/cJSON.h>
#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

static hwloc_topology_t topo;
static int topo_loaded;

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

void *p2pb_hostinfo_rank_json(int rank)
{
    cJSON *o = cJSON_CreateObject();
    char host[256];
    p2pb_hostinfo_hostname(host, sizeof host);
    cJSON_AddNumberToObject(o, "rank", rank);
    cJSON_AddStringToObject(o, "host", host);
    if (p2pb_hostinfo_init() == 0) {
        hwloc_bitmap_t set = hwloc_bitmap_alloc();
        if (set && hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_PROCESS) == 0) {
            char *list = NULL;
            hwloc_bitmap_list_asprintf(&list, set);
            cJSON_AddStringToObject(o, "binding", list ? list : "");
            hwloc_const_cpuset_t all = hwloc_topology_get_topology_cpuset(topo);
            cJSON_AddBoolToObject(o, "bound", !hwloc_bitmap_isincluded(all, set));
            free(list);
        } else {
            cJSON_AddNullToObject(o, "binding");
        }
        hwloc_bitmap_free(set);
    }
    return o;
}

static void read_cpu_model(char *buf, size_t len)
{
    snprintf(buf, len, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) == 0 || strncmp(line, "Processor", 9) == 0) {
            char *c = strchr(line, ':');
            if (c) {
                c++;
                while (*c == ' ' || *c == '\t')
                    c++;
                c[strcspn(c, "\n")] = '\0';
                snprintf(buf, len, "%.*s", (int)(len - 1), c);
                break;
            }
        }
    }
    fclose(f);
}

static void read_os(char *buf, size_t len)
{
    snprintf(buf, len, "unknown");
    FILE *f = fopen("/etc/os-release", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "PRETTY_NAME=", 12) == 0) {
            char *v = line + 12;
            v[strcspn(v, "\n")] = '\0';
            if (*v == '"') {
                v++;
                char *q = strrchr(v, '"');
                if (q)
                    *q = '\0';
            }
            snprintf(buf, len, "%.*s", (int)(len - 1), v);
            break;
        }
    }
    fclose(f);
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

void *p2pb_hostinfo_host_json(void)
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
    if (p2pb_hostinfo_init() == 0) {
        cJSON *t = cJSON_AddObjectToObject(o, "topology");
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
        if (root)
            cJSON_AddNumberToObject(t, "memory_bytes_hwloc", (double)root->total_memory);
        cJSON_AddStringToObject(t, "hwloc_version", HWLOC_VERSION);
    }
    return o;
}
