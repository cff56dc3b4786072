/* SPDX-License-Identifier: MIT */
/*
 * watchdog.c - the --timeout alarm. Every step of a run that can block
 * (harness.h, enum p2pb_wait: the host context and run record, each size
 * and its phases, each row's results-file and stdout writes, closing, MPI
 * finalize) restarts one interval timer of --timeout seconds. When it
 * fires, the handler names on stderr what this rank was waiting on (rank 0
 * also the ranks that had not reached that step, progress.c, unless it was
 * in its own write phase, which the others wait for), appends an
 * aborted end record to the results file without blocking, and exits 1.
 * A second expiry while the handler itself is stuck (stderr a full pipe)
 * exits at once. Also the test seams (struct p2pb_test_seams), fenced off
 * below.
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "measure.h"

/* Seconds the handler may take before a second expiry ends the process. */
#define P2PB_WATCHDOG_GRACE_S 2

/* Seconds the other ranks wait longer than rank 0: rank 0 reports first
 * (it names the stalled ranks and ends the results file); a launcher that
 * kills the job when one rank exits would otherwise cut it off. */
#define P2PB_WATCHDOG_PEER_DELAY_S 2.0

/* Seconds past its deadline after which a firing timer means this rank was
 * not running (SIGSTOP, a paused VM): it names itself. */
#define P2PB_WATCHDOG_LATE_S 0.5
/* Most ranks the timeout line and end record name. */
#define P2PB_WATCHDOG_MAX_NAMED 64

/* The step names of the end record's "waiting_on" (docs/output-format.md),
 * by enum p2pb_wait then enum p2pb_phase. */
static const char *const step_token[] = {"run_record", "size",       "row",    "close",
                                         "finalize",   "setup",      "warmup", "calibration",
                                         "samples",    "statistics", "check"};

/* State the handler reads: formatted before the timer is armed (the handler
 * may only call async-signal-safe functions). */
static struct {
    double seconds;                  /* --timeout; 0: no timer */
    int rank;                        /* this rank */
    uint64_t t0_ns;                  /* p2pb_now_ns() at MPI init, for wall_sec */
    struct p2pb_results_file *rf;    /* rank 0: the results file; NULL none */
    volatile sig_atomic_t step;      /* enum p2pb_wait */
    volatile sig_atomic_t phase;     /* enum p2pb_phase within P2PB_WAIT_SIZE */
    volatile sig_atomic_t firing;    /* the handler is running */
    volatile sig_atomic_t own_write; /* rank 0 writes what the others wait for */
    volatile uint64_t deadline_ns;   /* CLOCK_MONOTONIC when the timer is due */
    char kernel[32];                 /* last (kernel, size) started; "" none */
    size_t bytes;
    char limit[32];                      /* "--timeout" as text, e.g. "5" */
    char what[96];                       /* "kernel pingpong, size 1024 bytes" */
    char path[1100];                     /* "the results file 'PATH'" */
    int blamed[P2PB_WATCHDOG_MAX_NAMED]; /* ranks a failure was traced to */
    size_t nblamed;
} wd = {.rank = -1};

/* ---- async-signal-safe text ---- */

struct sbuf {
    char *p;
    size_t n, cap;
};

static void put(struct sbuf *b, const char *s)
{
    while (*s && b->n + 1 < b->cap)
        b->p[b->n++] = *s++;
    b->p[b->n] = '\0';
}

static void put_ulong(struct sbuf *b, unsigned long v)
{
    char d[24];
    int i = (int)sizeof d - 1;
    d[i] = '\0';
    do {
        d[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v && i > 0);
    put(b, d + i);
}

/* Ranks as "1, 2" (text) or "1,2" (JSON). */
static void put_ranks(struct sbuf *b, const int *ranks, size_t n, const char *sep)
{
    for (size_t i = 0; i < n; i++) {
        if (i)
            put(b, sep);
        put_ulong(b, (unsigned long)ranks[i]);
    }
}

/* Seconds since MPI init with 3 decimals. */
/* CLOCK_MONOTONIC in ns (async-signal-safe). */
static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void put_wall(struct sbuf *b)
{
    uint64_t now = mono_ns();
    unsigned long ms = now > wd.t0_ns ? (unsigned long)((now - wd.t0_ns) / 1000000u) : 0;
    put_ulong(b, ms / 1000);
    put(b, ".");
    put(b, ms % 1000 < 100 ? (ms % 1000 < 10 ? "00" : "0") : "");
    put_ulong(b, ms % 1000);
}

/* What this rank is waiting on, as words. */
static void put_waiting_on(struct sbuf *b, int writing)
{
    int step = wd.step;
    if (step == P2PB_WAIT_FINALIZE) {
        put(b, "MPI_Finalize");
    } else if (step == P2PB_WAIT_SIZE) {
        put(b, wd.what);
        put(b, " (");
        put(b, step_token[P2PB_WAIT_FINALIZE + 1 + wd.phase]);
        put(b, ")");
    } else if (wd.rank != 0) {
        put(b, step == P2PB_WAIT_CONTEXT ? "waiting for rank 0 to write the run record"
               : step == P2PB_WAIT_CLOSE ? "waiting for rank 0 to close the results file"
                                         : "waiting for rank 0 to record the row of ");
        if (step == P2PB_WAIT_ROW)
            put(b, wd.what);
    } else if (writing) {
        put(b, "writing ");
        put(b, wd.path);
        put(b, step == P2PB_WAIT_ROW ? " (the row of " : "");
        put(b, step == P2PB_WAIT_ROW ? wd.what : "");
        put(b, step == P2PB_WAIT_ROW ? ")" : "");
    } else {
        put(b, step == P2PB_WAIT_CONTEXT ? "gathering the host context"
               : step == P2PB_WAIT_CLOSE ? "ending the tables on standard output"
                                         : "writing the tables to standard output (");
        put(b, step == P2PB_WAIT_ROW ? wd.what : "");
        put(b, step == P2PB_WAIT_ROW ? ")" : "");
    }
}

/* The end record of a timeout (docs/output-format.md, section 3). */
static size_t format_end(char *out, size_t cap, int writing, const int *late, size_t nlate)
{
    struct sbuf b = {out, 0, cap};
    int step = wd.step;
    const char *token = step == P2PB_WAIT_SIZE  ? step_token[P2PB_WAIT_FINALIZE + 1 + wd.phase]
                        : writing               ? "results_file"
                        : step == P2PB_WAIT_ROW ? "stdout"
                                                : step_token[step];
    put(&b, "{\"type\":\"end\",\"status\":\"aborted\",\"reason\":\"timeout\",\"kernel\":");
    put(&b, wd.kernel[0] ? "\"" : "null");
    put(&b, wd.kernel);
    put(&b, wd.kernel[0] ? "\",\"bytes\":" : ",\"bytes\":");
    if (wd.kernel[0])
        put_ulong(&b, (unsigned long)wd.bytes);
    else
        put(&b, "null");
    put(&b, ",\"rank\":0,\"ranks\":[");
    put_ranks(&b, late, nlate, ",");
    put(&b, "],\"waiting_on\":\"");
    put(&b, token);
    put(&b, "\",\"wall_sec\":");
    put_wall(&b);
    put(&b, "}\n");
    return b.n + 1 < cap ? b.n : 0;
}

static void on_timeout(int sig)
{
    (void)sig;
    if (wd.firing) /* a second expiry: the handler itself is stuck */
        _exit(1);
    wd.firing = 1;
    struct itimerval grace = {{0, 0}, {P2PB_WATCHDOG_GRACE_S, 0}};
    setitimer(ITIMER_REAL, &grace, NULL);
    int writing = p2pb_results_writing(wd.rf);
    /* rank 0 stuck in its own writes: the others wait for it by design,
     * none of them is behind (their counts may not even have been received) */
    int own = wd.rank == 0 && (writing || wd.own_write || wd.step == P2PB_WAIT_CLOSE);
    int late[P2PB_WATCHDOG_MAX_NAMED];
    size_t nlate = own ? 0 : p2pb_progress_behind(late, P2PB_WATCHDOG_MAX_NAMED);
    /* this rank itself stopped answering: its timer fired long after it was
     * due (it was stopped), or every rank behind none and some ahead of it */
    uint64_t now = mono_ns();
    int self = !own && (now > wd.deadline_ns + (uint64_t)(P2PB_WATCHDOG_LATE_S * 1e9) ||
                        (!nlate && p2pb_progress_self_behind()));
    if (own || (self && nlate < P2PB_WATCHDOG_MAX_NAMED))
        late[nlate++] = wd.rank;
    static char msg[2048], end[1024];
    struct sbuf b = {msg, 0, sizeof msg};
    put(&b, "p2pbench: rank ");
    put_ulong(&b, (unsigned long)wd.rank);
    put(&b, ": timeout: ");
    put_waiting_on(&b, writing);
    put(&b, " did not finish within ");
    put(&b, wd.limit);
    put(&b, " s");
    if (own) {
        put(&b, "; rank 0 was in its own write phase (the other ranks wait for it)");
    } else if (self) {
        put(&b, "; rank ");
        put_ulong(&b, (unsigned long)wd.rank);
        put(&b, " itself stopped answering (stopped, or not run: its timer fired ");
        unsigned long ms =
            now > wd.deadline_ns ? (unsigned long)((now - wd.deadline_ns) / 1000000u) : 0;
        put_ulong(&b, ms / 1000);
        put(&b, ".");
        put_ulong(&b, ms % 1000 / 100);
        put(&b, " s late, or the others had gone on)");
        if (nlate > 1) {
            put(&b, "; rank(s) ");
            put_ranks(&b, late, nlate - 1, ", ");
            put(&b, " had not reached this step or are stopped");
        }
    } else if (wd.rank != 0) {
        put(&b, "; rank 0, which reports first, did not (stopped, or stuck before this step)");
    } else if (nlate) {
        put(&b, "; rank(s) ");
        put_ranks(&b, late, nlate, ", ");
        put(&b, " had not reached this step or are stopped");
    }
    put(&b, "; aborting\n");
    ssize_t w = write(STDERR_FILENO, msg, b.n);
    (void)w;
    if (wd.rf) {
        size_t len = format_end(end, sizeof end, writing, late, nlate);
        if (len)
            p2pb_results_append_now(wd.rf, end, len);
    }
    _exit(1);
}

void p2pb_watchdog_init(MPI_Comm comm, double seconds, uint64_t t0_ns)
{
    MPI_Comm_rank(comm, &wd.rank);
    wd.seconds = seconds;
    wd.t0_ns = t0_ns;
    if (seconds <= 0)
        return;
    snprintf(wd.limit, sizeof wd.limit, "%g", seconds);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_timeout;
    sa.sa_flags = SA_NODEFER; /* a second expiry interrupts a stuck handler */
    sigaction(SIGALRM, &sa, NULL);
    p2pb_progress_init(comm);
}

void p2pb_watchdog_results(struct p2pb_results_file *rf)
{
    if (rf)
        snprintf(wd.path, sizeof wd.path, "the results file '%s'", p2pb_results_path(rf));
    wd.rf = rf;
}

/* Restart the timer: a full --timeout for the step just begun. */
static void restart(void)
{
    if (wd.seconds <= 0)
        return;
    double s = wd.seconds + (wd.rank > 0 ? P2PB_WATCHDOG_PEER_DELAY_S : 0.0);
    struct itimerval it = {{0, 0}, {(time_t)s, (suseconds_t)((s - floor(s)) * 1e6)}};
    wd.deadline_ns = mono_ns() + (uint64_t)(s * 1e9);
    setitimer(ITIMER_REAL, &it, NULL);
    p2pb_progress_mark();
}

void p2pb_watchdog_step(enum p2pb_wait step)
{
    wd.step = step;
    restart();
}

void p2pb_watchdog_own_write(int on)
{
    wd.own_write = on;
}

/* (k, bytes) as the size a timeout or an end record names. */
static void name_size(const struct p2pb_kernel *k, size_t bytes)
{
    snprintf(wd.kernel, sizeof wd.kernel, "%s", k->name);
    wd.bytes = bytes;
    snprintf(wd.what, sizeof wd.what, "kernel %s, size %zu bytes", k->name, bytes);
    wd.nblamed = 0;
}

void p2pb_watchdog_failed_row(const struct p2pb_kernel *k, size_t bytes)
{
    name_size(k, bytes);
}

void p2pb_watchdog_size(const struct p2pb_kernel *k, size_t bytes, double seconds)
{
    if (wd.rank < 0) /* harness used without p2pb_watchdog_init (tests) */
        wd.seconds = seconds;
    name_size(k, bytes);
    wd.phase = P2PB_PHASE_SETUP;
    p2pb_watchdog_step(P2PB_WAIT_SIZE);
}

void p2pb_watchdog_phase(enum p2pb_phase phase)
{
    wd.phase = phase;
    p2pb_progress_mark();
}

void p2pb_watchdog_fini(void)
{
    p2pb_watchdog_step(P2PB_WAIT_FINALIZE);
    p2pb_progress_fini();
}

void p2pb_watchdog_stop(void)
{
    if (wd.seconds <= 0)
        return;
    struct itimerval it = {{0, 0}, {0, 0}};
    setitimer(ITIMER_REAL, &it, NULL);
    wd.seconds = 0;
}

uint64_t p2pb_watchdog_due_ns(void)
{
    return wd.seconds > 0 ? wd.deadline_ns : 0;
}

const char *p2pb_watchdog_kernel(size_t *bytes)
{
    *bytes = wd.bytes;
    return wd.kernel[0] ? wd.kernel : NULL;
}

void p2pb_watchdog_blame(const int *ranks, size_t n)
{
    wd.nblamed = n < P2PB_WATCHDOG_MAX_NAMED ? n : P2PB_WATCHDOG_MAX_NAMED;
    memcpy(wd.blamed, ranks, wd.nblamed * sizeof *ranks);
}

size_t p2pb_watchdog_blamed(const int **ranks)
{
    *ranks = wd.blamed;
    return wd.nblamed;
}
