/* SPDX-License-Identifier: MIT */
/*
 * watchdog.c - the --timeout alarm of one (kernel, size): an interval timer
 * whose handler reports, appends an aborted end record to the results file
 * and exits. Also the test seams (struct p2pb_test_seams), fenced off below.
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "harness_internal.h"

/* What the handler writes, formatted before the timer is armed (the handler
 * may only call async-signal-safe functions). */
static char timeout_msg[512];
static size_t timeout_msg_len;
static char abort_line[256];
static size_t abort_line_len;
static int abort_fd = -1;

void p2pb_harness_set_abort_fd(int fd)
{
    abort_fd = fd;
}

static void on_timeout(int sig)
{
    (void)sig;
    ssize_t w = write(STDERR_FILENO, timeout_msg, timeout_msg_len);
    if (abort_fd >= 0 && abort_line_len)
        w = write(abort_fd, abort_line, abort_line_len);
    (void)w;
    _exit(1);
}

/* The stderr line and the end record for (k, bytes) on this rank. */
static void format_messages(const struct p2pb_kernel *k, size_t bytes, int rank, double seconds)
{
    timeout_msg_len = (size_t)snprintf(
        timeout_msg, sizeof timeout_msg,
        "p2pbench: rank %d: timeout: kernel %s, size %zu bytes did not finish within %g s "
        "on this rank; aborting (every rank still in this size prints this line)\n",
        rank, k->name, bytes, seconds);
    if (timeout_msg_len >= sizeof timeout_msg)
        timeout_msg_len = sizeof timeout_msg - 1;
    abort_line_len = (size_t)snprintf(
        abort_line, sizeof abort_line,
        "{\"type\":\"end\",\"status\":\"aborted\",\"reason\":\"timeout\",\"kernel\":\"%s\","
        "\"bytes\":%zu,\"reported_by_rank\":%d}\n",
        k->name, bytes, rank);
    if (abort_line_len >= sizeof abort_line)
        abort_line_len = 0;
}

void p2pb_watchdog_arm(const struct p2pb_kernel *k, size_t bytes, int rank, double seconds)
{
    if (seconds <= 0)
        return;
    format_messages(k, bytes, rank, seconds);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_timeout;
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval it = {{0, 0},
                           {(time_t)seconds, (suseconds_t)((seconds - floor(seconds)) * 1e6)}};
    setitimer(ITIMER_REAL, &it, NULL);
}

void p2pb_watchdog_disarm(double seconds)
{
    if (seconds <= 0)
        return;
    struct itimerval it = {{0, 0}, {0, 0}};
    setitimer(ITIMER_REAL, &it, NULL);
}

/* ==== test seams: test-only fault injection, P2PB_TEST_FAULT ============
 * Read from the environment once; without it every seam stays NULL.
 *   corrupt:R      rank R flips one received byte before --check verifies
 *   stall:R:BYTES[:KERNEL]  rank R sleeps (bounded, 1 h) before timing size
 *                  BYTES (of KERNEL only, when given)
 *   slowcal:R      rank R sleeps 20 ms inside every calibration estimate
 *                  batch (a preempted batch: k would be far too small)
 * Used by tests/bench/faults.sh. Nothing outside this fence injects faults. */

/* Longest stall, in seconds of sleep(1). */
#define P2PB_FAULT_STALL_S 3600

/* Sleep of a slowed calibration batch, in usec. */
#define P2PB_FAULT_SLOWCAL_US 20000

static struct {
    int rank;        /* the rank the fault hits */
    size_t bytes;    /* stall: the size */
    char kernel[32]; /* stall: the kernel; "" any */
} fault = {-1, 0, ""};

static void stall_at_size(const struct p2pb_kernel *k, size_t bytes, int rank)
{
    if (rank != fault.rank || bytes != fault.bytes ||
        (fault.kernel[0] && strcmp(k->name, fault.kernel) != 0))
        return;
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

const struct p2pb_test_seams *p2pb_test_seams(void)
{
    static struct p2pb_test_seams seams; /* all NULL: normal runs */
    static int loaded;
    if (loaded)
        return &seams;
    loaded = 1;
    const char *s = getenv("P2PB_TEST_FAULT");
    if (!s)
        return &seams;
    if (sscanf(s, "corrupt:%d", &fault.rank) == 1)
        seams.check_ran = corrupt_received;
    else if (sscanf(s, "stall:%d:%zu:%31s", &fault.rank, &fault.bytes, fault.kernel) >= 2)
        seams.size_start = stall_at_size;
    else if (sscanf(s, "slowcal:%d", &fault.rank) == 1)
        seams.calib_batch = slow_calibration;
    return &seams;
}
/* ==== end of test seams ================================================= */
