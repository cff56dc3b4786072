/* SPDX-License-Identifier: MIT */
/*
 * seams.c - the test seams (measure.h, struct p2pb_test_seams):
 * hooks at the boundaries of a run that only a test installs, through
 * P2PB_TEST_FAULT, in a build with P2PB_TEST_SEAMS. No step of the harness
 * calls up into here but through p2pb_test_seams().
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "measure.h"

/* ==== test seams: test-only fault injection, P2PB_TEST_FAULT ============
 * Read from the environment once; without it every seam stays NULL.
 *   corrupt:R      rank R flips one received byte before --check verifies
 *   stall:R:BYTES[:KERNEL]  rank R sleeps (bounded, 1 h) before timing size
 *                  BYTES (of KERNEL only, when given)
 *   stop:R:BYTES   rank R stops itself (SIGSTOP) there, as a stopped VM would
 *   late:R:BYTES   rank R's timer fires there 0.8 s after it was due, as in a
 *                  rank stopped and continued (the others' fire 2 s after it)
 *   slowcal:R      rank R sleeps 20 ms inside every batch of the warm-up ramp
 *                  (time per iteration estimates: k would be far too small)
 *   bytes2         every row counts each byte twice (its bound must flag it)
 * Used by tests/bench/faults.sh. Nothing outside this fence injects faults. */

#ifdef P2PB_TEST_SEAMS
/* Longest stall, in seconds of sleep(1). */
#define P2PB_FAULT_STALL_S 3600

/* Sleep of a slowed calibration batch, in usec. */
#define P2PB_FAULT_SLOWCAL_US 20000

static struct {
    int rank;        /* the rank the fault hits */
    size_t bytes;    /* stall, stop: the size */
    int stop;        /* stop: SIGSTOP instead of sleeping */
    int late;        /* late: hold the timer back instead of sleeping */
    char kernel[32]; /* stall: the kernel; "" any */
} fault = {-1, 0, 0, 0, ""};

static void stall_at_size(const struct p2pb_kernel *k, size_t bytes, int rank)
{
    if (rank != fault.rank || bytes != fault.bytes ||
        (fault.kernel[0] && strcmp(k->name, fault.kernel) != 0))
        return;
    if (fault.stop)
        raise(SIGSTOP);
    if (fault.late) { /* the timer disarmed, then fired by hand 0.8 s after it was due
                       * (blocking SIGALRM would not do: MPI's threads take it) */
        uint64_t due = p2pb_watchdog_due_ns();
        struct itimerval off = {{0, 0}, {0, 0}};
        setitimer(ITIMER_REAL, &off, NULL);
        while (due && p2pb_now_ns() < due + 800000000u) {
            struct timespec ts = {0, 10000000L};
            nanosleep(&ts, NULL);
        }
        raise(SIGALRM);
        return;
    }
    for (int i = 0; i < P2PB_FAULT_STALL_S; i++)
        sleep(1);
}

static void slow_calibration(const struct p2pb_kernel_ctx *c)
{
    if (c->rank == fault.rank) {
        struct timespec ts = {0, P2PB_FAULT_SLOWCAL_US * 1000L};
        nanosleep(&ts, NULL);
    }
}

static void corrupt_received(struct p2pb_kernel_ctx *c)
{
    if (c->rank == fault.rank && c->bytes > 0)
        c->rbuf[c->bytes / 2] ^= 0xff;
}

#endif /* P2PB_TEST_SEAMS */

const struct p2pb_test_seams *p2pb_test_seams(void)
{
    static struct p2pb_test_seams seams; /* all NULL: normal runs */
    static int loaded;
    if (loaded)
        return &seams;
    loaded = 1;
#ifndef P2PB_TEST_SEAMS /* a build without the seam (the release preset) ignores it */
    return &seams;
#else
    const char *s = getenv("P2PB_TEST_FAULT");
    if (!s)
        return &seams;
    if (sscanf(s, "corrupt:%d", &fault.rank) == 1)
        seams.check_ran = corrupt_received;
    else if (sscanf(s, "stall:%d:%zu:%31s", &fault.rank, &fault.bytes, fault.kernel) >= 2)
        seams.size_start = stall_at_size;
    else if (sscanf(s, "stop:%d:%zu", &fault.rank, &fault.bytes) == 2) {
        fault.stop = 1;
        seams.size_start = stall_at_size;
    } else if (sscanf(s, "late:%d:%zu", &fault.rank, &fault.bytes) == 2) {
        fault.late = 1;
        seams.size_start = stall_at_size;
    } else if (sscanf(s, "slowcal:%d", &fault.rank) == 1)
        seams.calib_batch = slow_calibration;
    else if (strcmp(s, "bytes2") == 0)
        seams.double_bytes = 1;
    return &seams;
#endif
}
/* ==== end of test seams ================================================= */
