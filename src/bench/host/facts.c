/* SPDX-License-Identifier: MIT */
/*
 * Clock, frequency and topology facts of a host (hostdetect.h,
 * docs/host-context.md).
 */
#include "host/hostdetect.h"

#include <cjson/cJSON.h>
#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- clock and frequency ---- */

/* Turbo / boost: cpufreq/boost (acpi-cpufreq, amd-pstate: 1 = on), else
 * intel_pstate/no_turbo (1 = off). Adds "boost" and "boost_basis". */
static void add_boost(const struct p2pb_host_source *s, cJSON *o)
{
    static const struct {
        const char *rel;
        int on_when_one;
    } files[] = {{"/devices/system/cpu/cpufreq/boost", 1},
                 {"/devices/system/cpu/intel_pstate/no_turbo", 0}};
    char buf[64];
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        if (p2pb_host_read_line(s->sysfs, files[i].rel, buf, sizeof buf) == 0 &&
            (strcmp(buf, "0") == 0 || strcmp(buf, "1") == 0)) {
            int one = strcmp(buf, "1") == 0;
            cJSON_AddStringToObject(o, "boost", one == files[i].on_when_one ? "on" : "off");
            cJSON_AddStringToObject(o, "boost_basis", files[i].rel + 1);
            return;
        }
    cJSON_AddNullToObject(o, "boost");
    cJSON_AddNullToObject(o, "boost_basis");
}

void *p2pb_cpufreq_json(const struct p2pb_host_source *s, int ncpus)
{
    cJSON *o = cJSON_CreateObject();
    char buf[128];
    cJSON_AddItemToObject(o, "governor",
                          p2pb_host_read_line(s->sysfs,
                                              "/devices/system/cpu/cpu0/cpufreq/scaling_governor",
                                              buf, sizeof buf) == 0 &&
                                  buf[0]
                              ? cJSON_CreateString(buf)
                              : cJSON_CreateNull());
    cJSON_AddItemToObject(o, "driver",
                          p2pb_host_read_line(s->sysfs,
                                              "/devices/system/cpu/cpu0/cpufreq/scaling_driver",
                                              buf, sizeof buf) == 0 &&
                                  buf[0]
                              ? cJSON_CreateString(buf)
                              : cJSON_CreateNull());
    add_boost(s, o);
    if (p2pb_host_read_line(s->sysfs, "/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", buf,
                            sizeof buf) == 0 &&
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
        if (p2pb_host_read_line(s->sysfs, rel, buf, sizeof buf) == 0 && buf[0]) {
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
    p2pb_host_read_line(s->procfs, "/sys/kernel/random/boot_id", buf, len);
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
