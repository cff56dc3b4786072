/* SPDX-License-Identifier: MIT */
/*
 * Tests of src/bench/disturbance.c. Usage:
 *   test_disturbance DATA_DIR        unit: fixture /proc files (tests/data/disturb,
 *                                    values below worked out by hand), the
 *                                    accumulation, the live begin/end
 *   test_disturbance --reduce        under mpirun, 2+ ranks: the maximum over
 *                                    ranks and the worst rank
 */
#define _GNU_SOURCE 1 /* sched_setaffinity, sched_getcpu */

#include <cjson/cJSON.h>
#include <mpi.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../lib/check.h"
#include "disturbance.h"

static void test_fixtures(const char *dir)
{
    char path[1024];
    unsigned char cpus[P2PB_DISTURB_MAXCPU] = {0};
    double steal, total;
    cpus[1] = 1;
    snprintf(path, sizeof path, "%s/before/stat", dir);
    CHECK(p2pb_disturb_read_stat(path, cpus, &steal, &total) == 0);
    CHECK_NEAR(steal, 50, 0);
    CHECK_NEAR(total, 2000 + 500 + 3000 + 50, 0); /* the "cpu" total line is not cpu1 */
    cpus[0] = 1;
    CHECK(p2pb_disturb_read_stat(path, cpus, &steal, &total) == 0);
    CHECK_NEAR(steal, 100, 0);
    memset(cpus, 0, sizeof cpus);
    cpus[7] = 1; /* a CPU the file does not list */
    CHECK(p2pb_disturb_read_stat(path, cpus, &steal, &total) == -1);
    snprintf(path, sizeof path, "%s/after/self/sched", dir);
    CHECK_NEAR(p2pb_disturb_read_migrations(path), 10, 0);
    CHECK_NEAR(p2pb_disturb_read_migrations("/nonexistent/sched"), -1, 0);

    /* cpu1 only, before -> after: steal 350 - 50 = 300 of (2500+650+3600+350) -
     * (2000+500+3000+50) = 7100 - 5550 = 1550 ticks -> 19.35...% */
    struct p2pb_disturb d;
    int one = 1;
    p2pb_disturb_init(&d, dir);
    p2pb_disturb_set_cpus(&d, &one, 1);
    struct p2pb_disturb_snap a = {0}, b = {0};
    snprintf(path, sizeof path, "%s/before/stat", dir);
    p2pb_disturb_read_stat(path, d.cpus, &a.steal_ticks, &a.total_ticks);
    snprintf(path, sizeof path, "%s/after/stat", dir);
    p2pb_disturb_read_stat(path, d.cpus, &b.steal_ticks, &b.total_ticks);
    a.invol_ctxsw = 10, b.invol_ctxsw = 14, a.migrations = 3, b.migrations = 10;
    p2pb_disturb_add(&d, &a, &b);
    p2pb_disturb_add(&d, &a, &b); /* a second pair: everything doubles, the share stays */
    struct p2pb_disturbance r;
    p2pb_disturb_result(&d, 5, &r);
    CHECK(r.valid && r.worst_rank == 5 && d.pairs == 2);
    CHECK_NEAR(r.steal_pct, 100.0 * 600 / 3100, 1e-12);
    CHECK_NEAR(r.invol_ctxsw, 8, 0);
    CHECK_NEAR(r.migrations, 14, 0);
    b.migrations = -1; /* one pair without the file: unknown from then on */
    p2pb_disturb_add(&d, &a, &b);
    p2pb_disturb_add(&d, &a, &a);
    p2pb_disturb_result(&d, 5, &r);
    CHECK_NEAR(r.migrations, -1, 0);
}

static void test_live(void)
{
    struct p2pb_disturb d;
    struct p2pb_disturbance r;
    p2pb_disturb_init(&d, NULL);
    p2pb_disturb_end(&d); /* end without begin: ignored */
    CHECK(d.pairs == 0);
    for (int i = 0; i < 3; i++) {
        p2pb_disturb_begin(&d);
        p2pb_disturb_begin(&d); /* begin while open: ignored */
        p2pb_disturb_end(&d);
    }
    CHECK(d.pairs == 3);
    p2pb_disturb_result(&d, 0, &r);
    CHECK(r.steal_pct >= 0 && r.steal_pct <= 100 && r.invol_ctxsw >= 0);
    CHECK(r.migrations >= 0 || r.migrations == -1);
}

/* Spin until the monotonic clock has advanced by ms milliseconds. */
static void spin_ms(int ms)
{
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    do
        clock_gettime(CLOCK_MONOTONIC, &b);
    while ((b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000 < ms);
}

/* A busy loop pinned to this process's CPU: while both spin for 300 ms the
 * scheduler must take the CPU from us (involuntary context switches > 0).
 * The child is bounded (it spins 2 s at most) and ended by its pid. */
static void test_busy_neighbour(void)
{
    int cpu = sched_getcpu();
    cpu_set_t one, old;
    if (cpu < 0 || sched_getaffinity(0, sizeof old, &old) != 0)
        return;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    if (sched_setaffinity(0, sizeof one, &one) != 0)
        return;
    pid_t child = fork();
    if (child == 0) {
        spin_ms(2000);
        _exit(0);
    }
    struct p2pb_disturb d;
    struct p2pb_disturbance r;
    p2pb_disturb_init(&d, NULL);
    CHECK(d.cpus[cpu] == 1);
    p2pb_disturb_begin(&d);
    spin_ms(300);
    p2pb_disturb_end(&d);
    if (child > 0) {
        kill(child, SIGKILL);
        waitpid(child, NULL, 0);
    }
    sched_setaffinity(0, sizeof old, &old);
    p2pb_disturb_result(&d, 1, &r);
    CHECK(child > 0 && r.invol_ctxsw > 0);
    CHECK(r.cpu_lost_pct > 20); /* about half the wall time went to the neighbour */
    fprintf(stderr,
            "busy neighbour on CPU %d: %.0f involuntary context switches, off the CPU %.1f%%, "
            "steal %.2f%%\n",
            cpu, r.invol_ctxsw, r.cpu_lost_pct, r.steal_pct);
}

/* The "disturbance" object: written only when valid, null migrations when
 * unknown, read back; a bad field is refused with its name. */
static void test_json(void)
{
    struct p2pb_disturbance d = {.valid = 1,
                                 .steal_pct = 19.5,
                                 .invol_ctxsw = 8,
                                 .migrations = -1,
                                 .worst_rank = 1},
                            back;
    char err[200];
    cJSON *o = cJSON_CreateObject();
    p2pb_disturbance_to_json(&d, o);
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, "disturbance");
    CHECK(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(j, "migrations")));
    CHECK(p2pb_disturbance_from_json(o, &back, err, sizeof err) == P2PB_OK);
    CHECK(back.valid && back.steal_pct == 19.5 && back.invol_ctxsw == 8 && back.migrations == -1 &&
          back.worst_rank == 1);
    cJSON_Delete(o);
    o = cJSON_CreateObject();
    d.valid = 0;
    p2pb_disturbance_to_json(&d, o);
    CHECK(!cJSON_GetObjectItemCaseSensitive(o, "disturbance"));
    CHECK(p2pb_disturbance_from_json(o, &back, err, sizeof err) == P2PB_OK && !back.valid);
    cJSON_Delete(o);
    o = cJSON_Parse("{\"disturbance\":{\"steal_pct\":1,\"invol_ctxsw\":-3}}");
    CHECK(p2pb_disturbance_from_json(o, &back, err, sizeof err) == P2PB_EFORMAT);
    CHECK_STR_CONTAINS(err, "disturbance.invol_ctxsw");
    cJSON_Delete(o);
}

/* Write len bytes of buf at offset off of path (a stand-in msr device). */
static void write_at(const char *path, const void *buf, size_t len, long off)
{
    FILE *f = fopen(path, "r+b");
    if (!f)
        f = fopen(path, "w+b");
    CHECK(f != NULL);
    if (!f)
        return;
    CHECK(fseek(f, off, SEEK_SET) == 0 && fwrite(buf, 1, len, f) == len);
    fclose(f);
}

/* CPU frequency: the readers on fixture files, the formulas on hand-made
 * snapshots, the JSON and the reduction's minimum. */
static void test_freq(void)
{
    char dir[] = "/tmp/p2pb-freq-XXXXXX", path[1200];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/khz", dir);
    FILE *f = fopen(path, "w");
    fputs("2394000\n", f);
    fclose(f);
    CHECK_NEAR(p2pb_disturb_read_khz(path), 2394000, 0);
    CHECK_NEAR(p2pb_disturb_read_khz("/nonexistent/scaling_cur_freq"), -1, 0);
    snprintf(path, sizeof path, "%s/msr", dir);
    unsigned long long mperf = 123456789ULL, aperf = 987654321ULL;
    double v = 0; /* the device's file offset is the register number */
    write_at(path, &mperf, 8, 0xE7);
    CHECK(p2pb_disturb_read_msr(path, (unsigned[]){0xE7}, 1, &v) == 0 && v == 123456789.0);
    write_at(path, &aperf, 8, 0xE8);
    CHECK(p2pb_disturb_read_msr(path, (unsigned[]){0xE8}, 1, &v) == 0 && v == 987654321.0);
    CHECK(p2pb_disturb_read_msr(path, (unsigned[]){0x1000}, 1, &v) == -1); /* past the end */

    /* APERF/MPERF: TSC 2.4e9 cycles in 1 s = 2400 MHz nominal; APERF 1.5e9 of
     * MPERF 2e9 busy cycles -> 2400 x 0.75 = 1800 MHz. A pair that changed
     * CPU adds no counters; cpufreq readings give way to the counters. */
    struct p2pb_disturb d;
    p2pb_disturb_init(&d, NULL);
    struct p2pb_disturb_snap a = {.cpu = 3, .aperf = 1e9, .mperf = 1e9, .tsc = 5e9, .khz = 1e6},
                             b = {.cpu = 3,
                                  .aperf = 2.5e9,
                                  .mperf = 3e9,
                                  .tsc = 7.4e9,
                                  .wall_ns = 1e9,
                                  .khz = 3e6},
                             moved = b;
    moved.cpu = 4;
    int src = -1;
    CHECK_NEAR(p2pb_disturb_mhz(&d, &src), -1, 0);
    CHECK(src == P2PB_MHZ_NONE);
    p2pb_disturb_add(&d, &a, &moved);
    CHECK_NEAR(p2pb_disturb_mhz(&d, &src), 2000, 1e-9); /* (1e6 + 3e6) / 2 kHz */
    CHECK(src == P2PB_MHZ_CPUFREQ);
    p2pb_disturb_add(&d, &a, &b);
    CHECK_NEAR(p2pb_disturb_mhz(&d, &src), 1800, 1e-9);
    CHECK(src == P2PB_MHZ_APERF);
    struct p2pb_disturbance r, back;
    p2pb_disturb_result(&d, 0, &r);
    CHECK_NEAR(r.cpu_mhz, 1800, 1e-9);

    /* the live snapshot reads cpufreq under a fixture sysfs root */
    for (int c = 0; c < 64; c++) {
        snprintf(path, sizeof path, "%s/devices/system/cpu/cpu%d/cpufreq", dir, c);
        char cmd[2600];
        snprintf(cmd, sizeof cmd, "mkdir -p '%s' && echo 1200000 > '%s/scaling_cur_freq'", path,
                 path);
        CHECK(system(cmd) == 0);
    }
    p2pb_disturb_init(&d, NULL);
    p2pb_disturb_set_roots(&d, dir, dir); /* no cpu/N/msr under it */
    p2pb_disturb_begin(&d);
    p2pb_disturb_end(&d);
    if (sched_getcpu() < 64) {
        CHECK_NEAR(p2pb_disturb_mhz(&d, &src), 1200, 1e-9);
        CHECK(src == P2PB_MHZ_CPUFREQ);
    }

    char err[200];
    cJSON *o = cJSON_CreateObject();
    r.valid = 1;
    p2pb_disturbance_to_json(&r, o);
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, "disturbance");
    CHECK_STR_CONTAINS(cJSON_GetObjectItemCaseSensitive(j, "cpu_mhz_source")->valuestring,
                       "aperf_mperf");
    CHECK(p2pb_disturbance_from_json(o, &back, err, sizeof err) == P2PB_OK);
    CHECK(back.mhz_source == P2PB_MHZ_APERF && back.cpu_mhz == 1800);
    cJSON_Delete(o);
    o = cJSON_Parse("{\"disturbance\":{\"steal_pct\":1,\"invol_ctxsw\":3,\"worst_rank\":0,"
                    "\"cpu_mhz\":900,\"cpu_mhz_source\":\"guess\"}}");
    CHECK(p2pb_disturbance_from_json(o, &back, err, sizeof err) == P2PB_EFORMAT);
    CHECK_STR_CONTAINS(err, "cpu_mhz_source");
    cJSON_Delete(o);
    static const char *const bad[] = {
        "\"cpu_mhz\":1e308,\"cpu_mhz_source\":\"cpufreq\"",  /* no such clock */
        "\"cpu_mhz\":1e-300,\"cpu_mhz_source\":\"cpufreq\"", /* prints as 0 MHz */
        "\"cpu_lost_pct\":-1",                               /* would hide the 'd' */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char js[256];
        snprintf(js, sizeof js,
                 "{\"disturbance\":{\"steal_pct\":1,\"invol_ctxsw\":3,\"worst_rank\":0,%s}}",
                 bad[i]);
        o = cJSON_Parse(js);
        CHECK(p2pb_disturbance_from_json(o, &back, err, sizeof err) == P2PB_EFORMAT);
        cJSON_Delete(o);
    }
    snprintf(path, sizeof path, "rm -rf '%s'", dir);
    CHECK(system(path) == 0);
}

/* The row's "shift" object: written only when tested, read back whole;
 * p2pb_disturbed's thresholds. */
static void test_shift_json_and_rule(void)
{
    struct p2pb_shift sh = {.tested = 1,
                            .first_median = 2.0,
                            .last_median = 3.0,
                            .rel_shift = 0.5,
                            .p = 0.0004,
                            .flagged = 1},
                      back;
    char err[200];
    cJSON *o = cJSON_CreateObject();
    p2pb_shift_to_json(&sh, o);
    CHECK(p2pb_shift_from_json(o, &back, err, sizeof err) == P2PB_OK);
    CHECK(back.tested && back.flagged && back.first_median == 2.0 && back.last_median == 3.0 &&
          back.rel_shift == 0.5 && back.p == 0.0004);
    cJSON_Delete(o);
    o = cJSON_CreateObject();
    sh.tested = 0;
    p2pb_shift_to_json(&sh, o);
    CHECK(!cJSON_GetObjectItemCaseSensitive(o, "shift"));
    cJSON_Delete(o);
    o = cJSON_Parse("{\"shift\":{\"first_median_usec\":1,\"last_median_usec\":2,"
                    "\"rel_shift\":1,\"p\":0.5}}");
    CHECK(p2pb_shift_from_json(o, &back, err, sizeof err) == P2PB_EFORMAT);
    CHECK_STR_CONTAINS(err, "shift.flagged");
    cJSON_Delete(o);
    /* values out of their range are refused, not shown */
    o = cJSON_Parse("{\"shift\":{\"first_median_usec\":1,\"last_median_usec\":2,"
                    "\"rel_shift\":1,\"p\":-1,\"flagged\":true}}");
    CHECK(p2pb_shift_from_json(o, &back, err, sizeof err) == P2PB_EFORMAT);
    cJSON_Delete(o);
    struct p2pb_disturbance dd;
    o = cJSON_Parse("{\"disturbance\":{\"steal_pct\":500,\"invol_ctxsw\":1}}");
    CHECK(p2pb_disturbance_from_json(o, &dd, err, sizeof err) == P2PB_EFORMAT);
    CHECK_STR_CONTAINS(err, "disturbance.steal_pct");
    cJSON_Delete(o);
    o = cJSON_Parse("{\"disturbance\":{\"steal_pct\":5,\"invol_ctxsw\":1,\"worst_rank\":1e300}}");
    CHECK(p2pb_disturbance_from_json(o, &dd, err, sizeof err) == P2PB_EFORMAT);
    CHECK_STR_CONTAINS(err, "disturbance.worst_rank");
    cJSON_Delete(o);
    struct p2pb_disturbance d = {.valid = 1, .invol_ctxsw = 9, .migrations = 0, .worst_rank = 0};
    d.cpu_lost_pct = 4.9; /* switches, but little time off the CPU: not disturbed */
    CHECK(!p2pb_disturbed(&d));
    d.cpu_lost_pct = P2PB_DISTURBED_LOST_PCT;
    CHECK(p2pb_disturbed(&d));
    d.cpu_lost_pct = 0;
    d.migrations = -1; /* unknown: not counted */
    CHECK(!p2pb_disturbed(&d));
    d.migrations = 1;
    CHECK(p2pb_disturbed(&d));
    d.migrations = 0;
    d.steal_pct = 0.99;
    CHECK(!p2pb_disturbed(&d));
    d.steal_pct = 1.0;
    CHECK(p2pb_disturbed(&d));
    d.valid = 0;
    CHECK(!p2pb_disturbed(&d));
}

/* Rank 1 reports the most context switches, the last rank the most
 * migrations, nobody steal: worst rank 1; inactive ranks never count. */
static void test_reduce(void)
{
    int rank, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    struct p2pb_disturbance mine = {.valid = 1,
                                    .invol_ctxsw = rank == 1 ? 40 : 2,
                                    .migrations = rank == n - 1 ? 9 : 1,
                                    .worst_rank = rank},
                            out;
    CHECK(p2pb_disturb_reduce(MPI_COMM_WORLD, 1, &mine, &out) == P2PB_OK);
    CHECK(out.valid && out.worst_rank == 1 && out.invol_ctxsw == 40 && out.migrations == 9);
    CHECK(out.steal_pct == 0);
    mine.steal_pct = rank == 0 ? 3.5 : 0; /* steal decides first */
    CHECK(p2pb_disturb_reduce(MPI_COMM_WORLD, 1, &mine, &out) == P2PB_OK);
    CHECK(out.worst_rank == 0 && out.steal_pct == 3.5);
    /* only rank 0 takes part, quiet: nothing disturbed, migrations unknown */
    struct p2pb_disturbance quiet = {.valid = 1, .migrations = -1};
    CHECK(p2pb_disturb_reduce(MPI_COMM_WORLD, rank == 0, rank == 0 ? &quiet : &mine, &out) ==
          P2PB_OK);
    CHECK(out.worst_rank == -1 && out.invol_ctxsw == 0 && out.migrations == -1);
    /* the lowest known frequency; a rank without a source does not count */
    mine.cpu_mhz = rank == 0 ? -1 : 2000 - rank;
    mine.mhz_source = rank == 0 ? P2PB_MHZ_NONE : P2PB_MHZ_CPUFREQ;
    CHECK(p2pb_disturb_reduce(MPI_COMM_WORLD, 1, &mine, &out) == P2PB_OK);
    CHECK(out.cpu_mhz == 2000 - (n - 1) && out.mhz_source == P2PB_MHZ_CPUFREQ);
    mine.cpu_mhz = -1;
    mine.mhz_source = P2PB_MHZ_NONE;
    CHECK(p2pb_disturb_reduce(MPI_COMM_WORLD, 1, &mine, &out) == P2PB_OK);
    CHECK(out.cpu_mhz == -1 && out.mhz_source == P2PB_MHZ_NONE);
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--reduce") == 0) {
        MPI_Init(&argc, &argv);
        test_reduce();
        int bad = check_failed_ > 0, anybad = 0;
        MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        MPI_Finalize();
        return anybad ? 1 : 0;
    }
    if (argc != 2) {
        fprintf(stderr, "usage: %s DATA_DIR | --reduce\n", argv[0]);
        return 2;
    }
    test_fixtures(argv[1]);
    test_live();
    test_json();
    test_freq();
    test_shift_json_and_rule();
    test_busy_neighbour();
    return CHECK_DONE();
}
