/* SPDX-License-Identifier: MIT */
/*
 * harness.h - the one timing loop of p2pbench.
 *
 * For each (kernel, message size) the harness: sets up buffers, runs warm-up
 * iterations, chooses k iterations per sample from the timer's overhead and
 * resolution, then draws samples (barrier, k timed iterations, reduction of
 * the per-rank durations) until the stopping rule is met, and finally
 * computes statistics. Rank 0 decides every count and broadcasts it, so all
 * ranks stop together. Methodology: docs/methodology.md. harness.c runs the
 * steps; harness_internal.h says which file holds each.
 */
#ifndef P2PBENCH_HARNESS_H
#define P2PBENCH_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#include <mpi.h>

#include "p2pbench/kernel.h"
#include "p2pbench/result.h"
#include "p2pbench/status.h"

/* How many samples to draw per size. */
enum p2pb_policy_mode {
    P2PB_POLICY_ADAPTIVE, /* until CI target met or time budget spent */
    P2PB_POLICY_FIXED,    /* exactly `samples` samples (--samples) */
    P2PB_POLICY_FIXED_IMB /* IMB's repetition table (--fixed-imb) */
};

struct p2pb_policy {
    enum p2pb_policy_mode mode;
    size_t min_samples;   /* adaptive: at least this many (default 10) */
    size_t max_samples;   /* adaptive: at most this many (default 1000) */
    size_t samples;       /* fixed: this many */
    double ci_target;     /* adaptive: CI half-width / median target (0.01) */
    double time_per_size; /* adaptive: budget per size in seconds (0.2) */
    size_t batch;         /* k iterations per sample; 0 = choose from timer */
    long warmup;          /* warm-up iterations; < 0 = default */
    double timeout;       /* seconds per size before aborting; 0 = none */
    int check;            /* --check: verify payloads off the timed path */
    int off_cache;        /* --off-cache: cycle buffers beyond the LLC */
    size_t llc_bytes;     /* last-level cache size (hwloc), for off_cache */
    size_t window;        /* window W for bandwidth kernels (--window) */
    size_t copy_bytes;    /* memcpy reference: bytes copied per iteration
                           * (--memcpy-buffer) */
    int self_all;         /* P2PB_PART_SELF kernels: 1 = every rank works,
                           * 0 = rank 0 only (--memcpy-ranks all|one) */
};

/* Timer facts measured at start-up (all in ns). */
struct p2pb_timer_info {
    const char *source;   /* "clock_gettime(CLOCK_MONOTONIC)" */
    double overhead_ns;   /* median cost of one clock read */
    double resolution_ns; /* smallest observed nonzero step / clock_getres */
};

/* Monotonic time in ns (CLOCK_MONOTONIC). timer.c */
uint64_t p2pb_now_ns(void);

/* Measure timer overhead and resolution (a few ms). timer.c */
void p2pb_timer_measure(struct p2pb_timer_info *ti);

/*
 * IMB's default repetitions for size X (docs/kernels.md): 1000 up to 32 KiB, then
 * 40 MiB / X (41943040 / X), at least 1. calibration.c
 */
size_t p2pb_imb_repetitions(size_t bytes);

/*
 * Iterations per sample k such that one sample lasts at least
 * max(20 * overhead, 10 * resolution) (timer overhead below 5% of a sample,
 * resolution at least 10x finer), given a per-iteration estimate t_iter_ns.
 * Always >= 1. calibration.c
 */
size_t p2pb_choose_batch(double t_iter_ns, const struct p2pb_timer_info *ti);

/*
 * Map a size to (datatype, count) so that count * extent == bytes with
 * count <= INT_MAX: MPI_BYTE up to INT_MAX bytes, else a contiguous type of
 * 1 KiB blocks (the size must then be a multiple of 1 KiB).
 * Returns P2PB_OK, or P2PB_ERANGE with a message naming the size
 * (P2PB_EMPI if MPI cannot build the type). *dtype must be freed with
 * p2pb_free_msg_type, which leaves MPI_BYTE in it. buffers.c
 */
enum p2pb_status p2pb_make_msg_type(size_t bytes, MPI_Datatype *dtype, int *count, char *err,
                                    size_t errlen);
void p2pb_free_msg_type(MPI_Datatype *dtype);

/*
 * Run one (kernel, size) collectively on comm. Every rank of comm must call
 * it with the same arguments. On return, rank 0's *out holds the finished row
 * (for a per-group kernel the aggregate row; direction 0 for directional ones)
 * (other ranks' *out is filled too but only rank 0's is reported).
 * Returns P2PB_OK; P2PB_EVERIFY / P2PB_EMPI / P2PB_ENOMEM with a message in
 * err (on the rank that saw it, and a summary on rank 0). The status is agreed
 * by all ranks (every rank returns the same code).
 */
enum p2pb_status p2pb_harness_run(MPI_Comm comm, const struct p2pb_kernel *k, size_t bytes,
                                  const struct p2pb_policy *pol, const struct p2pb_timer_info *ti,
                                  struct p2pb_result *out, char *err, size_t errlen);

/*
 * Most rows one p2pb_harness_run_rows call produces for kernel k on nranks
 * ranks: 1, or (for P2PB_KF_PER_GROUP kernels) the number of groups + 1.
 */
size_t p2pb_harness_max_rows(const struct p2pb_kernel *k, int nranks);

/*
 * Like p2pb_harness_run, for any kernel, in one direction (ctx->direction,
 * 0 or 1; pass 0 for kernels without P2PB_KF_DIRECTIONS). Writes *nrows
 * rows to rows[0..cap-1] (rank 0's are the ones to report):
 *  - one row, or for a P2PB_KF_PER_GROUP kernel with more than one group,
 *    one row per group (variant "pair 0-1", "2->3", "rank 1", ...) followed
 *    by an aggregate row (variant "aggregate"; time = max over groups of the
 *    group's per-sample time; MB/s = sum over groups of the groups' MB/s).
 *  - variants of directional kernels name the direction: "0->1", "1->0".
 *  Kernels with neither flag get variant "" (the IMB kernels).
 * cap must be >= p2pb_harness_max_rows(k, size of comm), else P2PB_ERANGE.
 * Returns as p2pb_harness_run.
 */
enum p2pb_status p2pb_harness_run_rows(MPI_Comm comm, const struct p2pb_kernel *k, size_t bytes,
                                       int direction, const struct p2pb_policy *pol,
                                       const struct p2pb_timer_info *ti, struct p2pb_result *rows,
                                       size_t cap, size_t *nrows, char *err, size_t errlen);

/* ---- --timeout (watchdog.c) ---- */

/*
 * The steps of a run that can block. Each one restarts the --timeout timer
 * with the full time; when it expires the rank names its step on stderr,
 * rank 0 appends an aborted end record naming the step ("waiting_on") and
 * the ranks that had not reached it, and the rank exits 1. Every rank passes
 * the same steps in the same order.
 */
enum p2pb_wait {
    P2PB_WAIT_CONTEXT,  /* host context gathered, run record written (rank 0) */
    P2PB_WAIT_SIZE,     /* one (kernel, size), in the phases of enum p2pb_phase */
    P2PB_WAIT_ROW,      /* rank 0 writes the rows to the results file and stdout */
    P2PB_WAIT_CLOSE,    /* rank 0 ends the tables, closes the results file */
    P2PB_WAIT_FINALIZE, /* MPI_Finalize */
};

/* Phases of P2PB_WAIT_SIZE (the steps of docs/methodology.md). */
enum p2pb_phase {
    P2PB_PHASE_SETUP,       /* buffers, the kernel's setup */
    P2PB_PHASE_WARMUP,      /* warm-up iterations */
    P2PB_PHASE_CALIBRATION, /* iterations per sample */
    P2PB_PHASE_SAMPLES,     /* the samples */
    P2PB_PHASE_STATISTICS,  /* IMB's means, statistics */
    P2PB_PHASE_CHECK,       /* --check */
};

/*
 * Start the watchdog of a run on comm: seconds is --timeout (0: none; then
 * only the last size is remembered, for end records), t0_ns the run's start
 * (p2pb_now_ns) for "wall_sec". With a timeout every rank reports its
 * progress to rank 0 (progress.c). Collective.
 */
void p2pb_watchdog_init(MPI_Comm comm, double seconds, uint64_t t0_ns);

/* Rank 0: the results file the handler appends the end record to (NULL:
 * none, e.g. while it is being closed). */
void p2pb_watchdog_results(struct p2pb_results_file *rf);

/* A step begins: restart the timer. Collective in the sense above. */
void p2pb_watchdog_step(enum p2pb_wait step);

/* Begin step P2PB_WAIT_FINALIZE and end the progress reports (collective);
 * the timer then covers MPI_Finalize. p2pb_watchdog_stop after it. */
void p2pb_watchdog_fini(void);

/* Stop the timer (after MPI_Finalize). */
void p2pb_watchdog_stop(void);

/* The last (kernel, size) begun: kernel name (NULL: none yet), *bytes. */
const char *p2pb_watchdog_kernel(size_t *bytes);

/* Ranks the last size's failure was traced to (--check: the ranks that
 * received wrong bytes), rank 0; returns how many, *ranks the list. */
size_t p2pb_watchdog_blamed(const int **ranks);

#endif /* P2PBENCH_HARNESS_H */
