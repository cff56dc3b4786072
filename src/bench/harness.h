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
 * steps; measure.h says which file holds each.
 */
#ifndef P2PBENCH_HARNESS_H
#define P2PBENCH_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#include <mpi.h>

#include "p2pbench/kernel.h"
#include "p2pbench/result.h"
#include "p2pbench/status.h"

struct p2pb_bounds;

/* How many samples to draw per size. */
enum p2pb_policy_mode {
    P2PB_POLICY_ADAPTIVE, /* until CI target met or time budget spent */
    P2PB_POLICY_FIXED,    /* exactly `samples` samples (--samples) */
    P2PB_POLICY_FIXED_IMB /* IMB's repetition table (--fixed-imb) */
};

struct p2pb_policy {
    enum p2pb_policy_mode mode;
    size_t min_samples;             /* adaptive: at least this many per size (and at
                                     * least P2PB_ROUND_MIN_SAMPLES per round) */
    size_t max_samples;             /* adaptive: at most this many per size */
    size_t samples;                 /* fixed: this many per size, split over the rounds */
    double ci_target;               /* adaptive: a round stops when the CI half-width of
                                     * its median / median is within this */
    double time_per_size;           /* adaptive: budget per size in seconds, all rounds */
    size_t rounds;                  /* rounds over the sizes (--rounds); >= 1 */
    size_t seed;                    /* shuffle seed (--seed); 0: chosen at start-up */
    int shift_buffers;              /* --shift-buffers: round i's buffers start
                                     * (i mod 64) x 64 bytes past a page boundary */
    size_t batch;                   /* k iterations per sample; 0 = choose from timer */
    long warmup;                    /* warm-up iterations; < 0 = default */
    double timeout;                 /* seconds per size before aborting; 0 = none */
    int check;                      /* --check: verify payloads off the timed path */
    int off_cache;                  /* --off-cache: cycle buffers beyond the cache (IMB's
                                     * -off_cache; p2pb_off_cache_bytes) */
    size_t cache_bytes;             /* --cache-size: C for --off-cache, bytes; 0 = from
                                     * llc_bytes */
    size_t llc_bytes;               /* last-level cache size (hwloc), bytes; 0 = unknown */
    size_t window;                  /* window W for bandwidth kernels (--window) */
    double bound_mbps;              /* --bound: the rate of one path, MB/s; 0 = from the hardware */
    struct p2pb_bounds *bounds;     /* run-level facts for the rows' bounds (the suite); NULL
                                     * none */
    size_t overlap_steps;           /* not an option: set by the suite before each size of
                                     * an overlap kernel's cpu and overlap phases, this
                                     * rank's calibrated compute steps (ctx->compute_iters;
                                     * src/bench/overlap.c) */
    struct p2pb_kernel_settings ks; /* the kernel-specific options (kernel.h; each
                                     * declared by its kernel) */
    int numa_node;                  /* --numa-node: buffers on this NUMA node (OS index);
                                     * -1 = first touch */
    char tcp_if[16];                /* not an option: the interface of the TCP kernels, the
                                     * bound and the host record, set by preflight.c once
                                     * checked: --tcp-if, "" (the one MPI uses) when it was
                                     * not given or no kernel of the run reads it */
};

/* Timer facts measured at start-up (all in ns). */
struct p2pb_timer_info {
    const char *source;   /* "clock_gettime(CLOCK_MONOTONIC)" */
    double overhead_ns;   /* median cost of one clock read */
    double resolution_ns; /* smallest observed nonzero step / clock_getres */
};

/* Sizes whose copy rate struct p2pb_bounds keeps (more are measured each time). */
#define P2PB_BOUNDS_SIZES 256

/*
 * Run-level facts for the bound beside each row (bounds.c; docs/kernels.md,
 * "Bounds"): where the ranks are, the link speed, and the local copy rate
 * of each size measured so far (the same on every rank).
 */
struct p2pb_bounds {
    int *host_of;                   /* [nranks] each rank's host, named by its lowest rank */
    double link_mbps;               /* speed of the interface MPI uses, MB/s (rank 0's sysfs);
                                     * 0 unknown */
    size_t n;                       /* sizes measured */
    size_t x[P2PB_BOUNDS_SIZES];    /* their sizes, bytes */
    double rate[P2PB_BOUNDS_SIZES]; /* their copy rates, MB/s (0: none) */
};

/* Fill bd (hosts by MPI_COMM_TYPE_SHARED, the link speed of the interface
 * p2pb_netif_pick(tcp_if) names: the run's --tcp-if, "" or NULL = the one
 * MPI uses, src/common/netif.h). Returns 0, or -1 on every rank when out of
 * memory on any (bd empty: no bounds). Collective. */
int p2pb_bounds_open(struct p2pb_bounds *bd, MPI_Comm comm, int rank, int nranks,
                     const char *tcp_if);

/* Free what bd holds; safe on an empty one. */
void p2pb_bounds_close(struct p2pb_bounds *bd);

/* Monotonic time in ns (CLOCK_MONOTONIC). timer.c */
uint64_t p2pb_now_ns(void);

/* Measure timer overhead and resolution (a few ms). timer.c */
void p2pb_timer_measure(struct p2pb_timer_info *ti);

/*
 * IMB's default repetitions for size X (docs/kernels.md): 1000 up to 32 KiB, then
 * 40 MiB / X (41943040 / X), at least 1. calibration.c
 */
size_t p2pb_imb_repetitions(size_t bytes);

/* What the adaptive stop rule says (p2pb_stop_rule). */
enum p2pb_rule {
    P2PB_RULE_MORE,   /* draw another sample */
    P2PB_RULE_MAX,    /* the most samples allowed are drawn */
    P2PB_RULE_BUDGET, /* the time budget is spent (after the fewest samples) */
    P2PB_RULE_TARGET  /* the CI target is met (after the fewest samples) */
};

/*
 * The adaptive stop rule of docs/methodology.md, shared by the harness's
 * rounds (sampling.c) and the link survey's pairs (survey_pair.c), on the
 * samples x[0..n-1] (usec) drawn since the start of the measurement:
 * P2PB_RULE_MAX when n >= nmax; P2PB_RULE_MORE while n < nmin; then
 * P2PB_RULE_BUDGET when elapsed_s >= budget_s (seconds); P2PB_RULE_TARGET
 * when n >= P2PB_CI_MIN_N and the relative half-width of the median's CI
 * (p2pb_stats_ci_rel_halfwidth) is within ci_target (a fraction), tested at
 * every sample up to 64 and at every 8th after; else P2PB_RULE_MORE.
 * sampling.c
 */
enum p2pb_rule p2pb_stop_rule(const double *x, size_t n, size_t nmin, size_t nmax, double elapsed_s,
                              double budget_s, double ci_target);

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
 * 0 or 1; pass 0 for kernels without P2PB_KF_DIRECTIONS; for a
 * P2PB_KF_OVERLAP kernel the phase, 0..2, with pol->overlap_steps set for
 * phases 1 and 2, and the variant names it: "pure", "cpu", "overlap"). Writes *nrows
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
 * The warm-up's stop rule (docs/methodology.md, "Warm-up"), fed one batch
 * time at a time (any unit; batches of equal iteration counts): a batch is
 * calm when it lasted at least (1 - P2PB_SETTLE_TOL) x the fastest batch
 * before it, and the time has settled after P2PB_SETTLE_BATCHES calm
 * batches in a row (so after 3 batches at the earliest). A warming size
 * gets faster batch after batch; noise that slows a batch does not delay
 * the stop. Start with a zeroed struct.
 */
#define P2PB_SETTLE_TOL 0.03
#define P2PB_SETTLE_BATCHES 2
/* Most time one round's warm-up batches may take, seconds (the cap). */
#define P2PB_WARMUP_MAX_SEC 0.1
struct p2pb_settle {
    double best; /* the fastest batch so far */
    size_t calm; /* calm batches in a row */
    size_t n;    /* batches seen */
};
/* Add batch time t; returns 1 when settled, else 0. sampling.c */
int p2pb_settle_add(struct p2pb_settle *st, double t);

/* Largest cache size C that --off-cache takes from hwloc, bytes: a VM can
 * report the host's whole L3 (508 MiB per vCPU seen on an AMD EPYC host),
 * and 2 C per side is allocated and touched; --cache-size sets any C. */
#define P2PB_OFF_CACHE_MAX ((size_t)64 << 20)

/*
 * The cache size C --off-cache spans twice per side, in bytes, as IMB's
 * -off_cache C: --cache-size when given, else hwloc's last-level cache,
 * at most P2PB_OFF_CACHE_MAX (also when hwloc knows none); 0 without
 * --off-cache. buffers.c
 */
size_t p2pb_off_cache_bytes(const struct p2pb_policy *pol);

/*
 * Grow the run's message memory (buffers.c) once, before any size runs, to
 * what the largest of kernels[0..nkernels-1] x sizes[0..nsizes-1] needs,
 * so that no size's pages are new in its first round (a fresh 4 MiB buffer
 * times its first iterations at up to 30x the steady time on a VM), bound to
 * NUMA node pol->numa_node (-1: first touch).
 * Without memory it does nothing: the size that needs it fails when it runs.
 */
void p2pb_buffers_reserve(const struct p2pb_kernel *const *kernels, size_t nkernels,
                          const size_t *sizes, size_t nsizes, const struct p2pb_policy *pol);

/* The state every size is timed in (docs/methodology.md): "unwarmed"
 * (--warmup 0), "cold" (--off-cache), else "steady". buffers.c */
const char *p2pb_policy_state(const struct p2pb_policy *pol);

/* Unmap the run's message memory (buffers.c); every size is closed. */
void p2pb_buffers_release(void);

/* Fewest samples an adaptive round draws (its median is of at least 3). */
#define P2PB_ROUND_MIN_SAMPLES 1

/*
 * One (kernel, size, direction) measured over several rounds (rounds.c):
 * p2pb_size_begin, then p2pb_size_round once per round (all ranks, same
 * order), then p2pb_size_finish. Each round opens fresh buffers (new pages,
 * the kernel's setup), warms up, draws its samples and releases them.
 */
struct p2pb_size_run;

/*
 * Start one (kernel, size, direction) on comm (collective): *out is the
 * handle, rows[0..*nrows-1] are labelled (cap as p2pb_harness_run_rows).
 * Returns P2PB_OK, P2PB_ERANGE (cap) or P2PB_ENOMEM (agreed), with a message;
 * on failure *out is NULL and *nrows may still be set.
 */
enum p2pb_status p2pb_size_begin(MPI_Comm comm, const struct p2pb_kernel *k, size_t bytes,
                                 int direction, const struct p2pb_policy *pol,
                                 const struct p2pb_timer_info *ti, struct p2pb_result *rows,
                                 size_t cap, size_t *nrows, struct p2pb_size_run **out, char *err,
                                 size_t errlen);

/*
 * Round `round` (0-based) of sr: buffers, (round 0: k), warm-up, samples,
 * (last round with --check: the payload pass), buffers released. Collective.
 * A round past the unit's own count (the noise probe runs one) does nothing.
 * Returns P2PB_OK, or the failure (agreed) with a message.
 */
enum p2pb_status p2pb_size_round(struct p2pb_size_run *sr, size_t round, char *err, size_t errlen);

/*
 * Statistics and the rows of sr (rows as given to p2pb_size_begin; rank 0's
 * are the ones to report) from every round drawn; `failed` is a status of an
 * earlier call (its rows are marked failed). Frees sr. Collective. Returns
 * `failed`, or P2PB_ENOMEM with a message.
 */
enum p2pb_status p2pb_size_finish(struct p2pb_size_run *sr, struct p2pb_result *rows,
                                  enum p2pb_status failed, char *err, size_t errlen);

/* Samples drawn so far by sr (every rank). */
size_t p2pb_size_samples(const struct p2pb_size_run *sr);

/* Free sr without making rows (after a failed p2pb_size_begin: a no-op). */
void p2pb_size_free(struct p2pb_size_run *sr);

/*
 * Student's t quantile t(0.975, df) for df >= 1: exact table to df = 30,
 * then the Cornish-Fisher expansion z + (z^3 + z)/(4 df) +
 * (5z^5 + 16z^3 + 3z)/(96 df^2) with z = 1.959964 (Abramowitz & Stegun
 * 26.7.5). rounds.c
 */
double p2pb_t975(size_t df);

/*
 * The 95% interval of the median another launch would give, from this
 * launch's rounds (docs/methodology.md, "Rounds"), on the log scale (times
 * are positive, their spread relative): with R >= 2 round medians
 * m[0..R-1] (usec, all > 0) whose logarithms have sample standard deviation
 * s, h = t(0.975, R - 1) x s x sqrt(1 + 1/R): the prediction interval of
 * one more draw from the rounds' distribution (Le Boudec 2010, sec. 2.5.2;
 * Hahn & Meeker, "Statistical Intervals", 1991, sec. 4.4), another launch
 * counted as one more round. The interval is the hull of
 * [median x e^-h, median x e^h] and the order-statistic interval
 * [os_lo, os_hi] of all samples when os_valid. Writes *lo, *hi and returns
 * 1; returns 0 (nothing written) when R < 2 or a value is not positive.
 * rounds.c
 */
int p2pb_round_interval(double median, int os_valid, double os_lo, double os_hi, const double *m,
                        size_t R, double *lo, double *hi);

/*
 * Fisher-Yates shuffle of idx[0..n-1] driven by splitmix64 (Steele, Lea &
 * Flood, OOPSLA 2014) with state *state, which it advances. rounds.c
 */
void p2pb_shuffle(size_t *idx, size_t n, unsigned long long *state);

/*
 * Floor check of issue "calibration floor" (calibration.c): a batch of k
 * iterations lasted dur_ns against the shortest sample target_ns. Returns k
 * when dur_ns >= target_ns, else the k that the batch's time per iteration
 * asks for (> k), or 0 when that exceeds max_k (refuse the row).
 */
size_t p2pb_floor_rebatch(size_t k, double dur_ns, double target_ns, size_t max_k);

/*
 * Start the watchdog of a run on comm: seconds is --timeout (0: none; then
 * only the last size is remembered, for end records), t0_ns the run's start
 * (p2pb_now_ns) for "wall_sec". With a timeout every rank reports its
 * progress to rank 0 (progress.c). Collective.
 */
void p2pb_watchdog_init(MPI_Comm comm, double seconds, uint64_t t0_ns);

/* A size begins (step P2PB_WAIT_SIZE, phase setup) for (k, bytes): the
 * timer restarts and a timeout names them; seconds is --timeout when
 * p2pb_watchdog_init was not called (tests). */
void p2pb_watchdog_size(const struct p2pb_kernel *k, size_t bytes, double seconds);

/* Rank 0: the row of (k, bytes) could not be written: the end record names
 * it. No step begins (the other ranks pass no checkpoint here, so none may
 * be counted as behind later). */
void p2pb_watchdog_failed_row(const struct p2pb_kernel *k, size_t bytes);

/* Rank 0: the results file the handler appends the end record to (NULL:
 * none, e.g. while it is being closed). */
void p2pb_watchdog_results(struct p2pb_results_file *rf);

/* A step begins: restart the timer. Collective in the sense above. */
void p2pb_watchdog_step(enum p2pb_wait step);

/* Rank 0: on 1 while it writes rows or tables that the other ranks wait
 * for (suite.c, survey.c), 0 after. A timeout then (or while a line goes to
 * the results file, or in P2PB_WAIT_CLOSE) names no other rank as behind:
 * the line says rank 0 was in its own write phase and the end record's
 * "ranks" is [0]. Not collective; async-signal-safe to read. */
void p2pb_watchdog_own_write(int on);

/* Begin step P2PB_WAIT_FINALIZE and end the progress reports (collective);
 * the timer then covers MPI_Finalize. p2pb_watchdog_stop after it. */
void p2pb_watchdog_fini(void);

/* Stop the timer (after MPI_Finalize). */
void p2pb_watchdog_stop(void);
/* CLOCK_MONOTONIC (ns) at which the running step's timer is due; 0 with
 * no timer. For the test seam that holds the timer back (seams.c). */
uint64_t p2pb_watchdog_due_ns(void);

/* The last (kernel, size) begun: kernel name (NULL: none yet), *bytes. */
const char *p2pb_watchdog_kernel(size_t *bytes);

/* Ranks the last size's failure was traced to (--check: the ranks that
 * received wrong bytes), rank 0; returns how many, *ranks the list. */
size_t p2pb_watchdog_blamed(const int **ranks);

#endif /* P2PBENCH_HARNESS_H */
