/* SPDX-License-Identifier: MIT */
/*
 * test_hostload: hostload.c on fixture /proc directories (tests/data/hostload):
 * a busy host with PSI (values read by hand from the files), a host without
 * PSI, and a missing directory; the JSON form; the per-kernel log.
 * Usage: test_hostload DATA_DIR
 */
#include <stdio.h>
#include <string.h>

#include "../lib/check.h"
#include "hostload.h"

static void busy(const char *dir)
{
    char p[600];
    snprintf(p, sizeof p, "%s/busy", dir);
    struct p2pb_hostload l;
    p2pb_hostload_read(p, &l);
    CHECK_NEAR(l.cpu_some, 92.5, 1e-9);
    CHECK_NEAR(l.cpu_full, 0.0, 1e-9);
    CHECK_NEAR(l.cpu_some_total, 123456789.0, 1e-9);
    CHECK_NEAR(l.memory_some, 1.25, 1e-9);
    CHECK_NEAR(l.memory_full, 0.75, 1e-9);
    CHECK_NEAR(l.io_some, 3.0, 1e-9);
    CHECK_NEAR(l.io_full, 2.5, 1e-9);
    CHECK_NEAR(l.loadavg[0], 6.42, 1e-9);
    CHECK_NEAR(l.loadavg[2], 3.99, 1e-9);
    CHECK(l.procs_running == 5);
    CHECK(l.monotonic_sec > 0);
    cJSON *j = p2pb_hostload_json(&l);
    char *txt = cJSON_PrintUnformatted(j);
    CHECK_STR_CONTAINS(txt, "\"cpu_some_avg10\":92.5,\"cpu_full_avg10\":0,");
    CHECK_STR_CONTAINS(txt, "\"cpu_some_total_us\":123456789,");
    CHECK_STR_CONTAINS(txt, "\"loadavg\":[6.42,5.1,3.99],\"procs_running\":5}");
    cJSON_free(txt);
    cJSON_Delete(j);
}

static void no_psi(const char *dir)
{
    char p[600];
    snprintf(p, sizeof p, "%s/nopsi", dir);
    struct p2pb_hostload l;
    p2pb_hostload_read(p, &l);
    CHECK(l.cpu_some < 0 && l.cpu_full < 0 && l.memory_some < 0 && l.io_full < 0);
    CHECK(l.cpu_some_total < 0);
    CHECK_NEAR(l.loadavg[0], 0.79, 1e-9);
    CHECK(l.procs_running == 1);
    cJSON *j = p2pb_hostload_json(&l);
    char *txt = cJSON_PrintUnformatted(j);
    CHECK_STR_CONTAINS(txt, "\"cpu_some_avg10\":null,");
    CHECK_STR_CONTAINS(txt, "\"io_full_avg10\":null,\"cpu_some_total_us\":null,");
    cJSON_free(txt);
    cJSON_Delete(j);
    /* nothing there at all */
    snprintf(p, sizeof p, "%s/no-such-dir", dir);
    p2pb_hostload_read(p, &l);
    CHECK(l.procs_running == -1 && l.loadavg[0] < 0 && l.cpu_some < 0);
}

static void kernel_log(const char *dir)
{
    char p[600];
    snprintf(p, sizeof p, "%s/busy", dir);
    struct p2pb_hostload_log log = {.procfs = p};
    p2pb_hostload_kernel_start(&log, "pingpong");
    p2pb_hostload_kernel_end(&log);
    p2pb_hostload_kernel_start(&log, "sendrecv");
    p2pb_hostload_kernel_end(&log);
    p2pb_hostload_kernel_end(&log); /* a second end adds nothing */
    CHECK(cJSON_GetArraySize(log.kernels) == 2);
    const cJSON *e = cJSON_GetArrayItem(log.kernels, 1);
    CHECK(strcmp(cJSON_GetObjectItem(e, "kernel")->valuestring, "sendrecv") == 0);
    const cJSON *end = cJSON_GetObjectItem(e, "end");
    CHECK(cJSON_GetObjectItem(cJSON_GetObjectItem(e, "start"), "procs_running")->valuedouble == 5);
    CHECK(end && cJSON_GetObjectItem(end, "cpu_some_avg10")->valuedouble == 92.5);
    cJSON_Delete(log.kernels);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s DATA_DIR\n", argv[0]);
        return 2;
    }
    busy(argv[1]);
    no_psi(argv[1]);
    kernel_log(argv[1]);
    return CHECK_DONE();
}
