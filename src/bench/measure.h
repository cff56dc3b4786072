/* SPDX-License-Identifier: MIT */
/*
 * measure.h - private to the harness files of src/bench/. One
 * (kernel, size) is one struct p2pb_measure that harness.c takes through the
 * steps of docs/methodology.md, "One (kernel, size)":
 *
 *   buffers.c      1. buffers (off-cache sets, NUMA), the kernel's setup
 *   sampling.c     2. warm-up; 4-5. samples until the stop rule
 *   calibration.c  3. iterations per sample k, sample counts
 *   rows.c         6. IMB's per-rank means; statistics; the result rows
 *   check.c        7. the --check payload pass
 *   watchdog.c     the --timeout alarm
 *   seams.c        the test-only seams (P2PB_TEST_FAULT)
 *   mpi_util.c     P2PB_MPI_CHECK's abort (mpi_util.h)
 *   progress.c     per-rank progress counters for the timeout report
 *
 * Every step is collective: all ranks of the communicator call it in the
 * same order. The public face is harness.h.
 */
#ifndef P2PBENCH_MEASURE_H
#define P2PBENCH_MEASURE_H

#include <stddef.h>
#include <stdint.h>

#include "clock.h"
#include "disturbance.h"
#include "harness.h"
#include "mpi_util.h"

/* Growable array of doubles (sampling.c). */
struct p2pb_dvec {
    double *v;
    size_t n, cap;
};

/* Append x. Returns 0, or -1 when out of memory (d unchanged). */
int p2pb_dvec_push(struct p2pb_dvec *d, double x);

/*
 * The message buffers of one (kernel, size), owned here and released only by
 * p2pb_buffers_close: nsets sets, each of sregions (rregions) X-byte send
 * (receive) regions; set i of the send side starts at sbase + i * sstride.
 */
struct p2pb_buffers {
    unsigned char *sbase, *rbase; /* page aligned (+ shift), in the run's arena
                                   * (buffers.c); NULL on inactive ranks */
    size_t sregions, rregions;    /* X-byte regions in one send / receive set */
    size_t sstride, rstride;      /* bytes of one send / receive set (>= 1) */
    size_t nsets;                 /* sets cycled through (--off-cache), >= 1 */
    int setup_called;             /* the kernel's setup ran here: teardown due */
};

/*
 * Samples of one (kernel, size) (sampling.c). Times in usec per iteration
 * (after time_scale) unless marked ns.
 */
struct p2pb_samples {
    struct p2pb_dvec all;                 /* rank 0: one value per sample */
    struct p2pb_dvec *group;              /* rank 0, per-group runs: ngroups lists */
    double *dall;                         /* rank 0, per-group runs: each rank's duration
                                           * of the current sample, ns; nranks entries */
    double *mall;                         /* rank 0, per-group runs: each rank's mean time
                                           * per iteration (rows.c); nranks entries */
    size_t n;                             /* samples drawn (every rank) */
    size_t round_start;                   /* rank 0: index of the current round's first sample */
    double (*round_med)[P2PB_MAX_ROUNDS]; /* rank 0: [nout][rounds] round medians,
                                           * row order (groups, then all) */
    size_t nround_med;                    /* rounds that drew samples */
    double local_sum_ns;                  /* this rank's timed duration, all samples, ns */
    int oom;                              /* rank 0 could not store a sample */
};

/* IMB's t_min / t_max / t_avg on rank 0, usec per iteration (rows.c). */
struct p2pb_rank_times {
    double min, max, avg;
};

/* One (kernel, size, direction) on one rank. */
struct p2pb_measure {
    const struct p2pb_kernel *k;
    const struct p2pb_policy *pol;
    const struct p2pb_timer_info *ti;
    struct p2pb_kernel_ctx c;
    int nactive;   /* ranks taking part */
    int ngroups;   /* groups of ranks (kernel.h, P2PB_KF_PER_GROUP) */
    int per_group; /* 1: one row per group plus the aggregate row */
    size_t nout;   /* result rows: 1, or ngroups + 1 */
    double bf;     /* bytes counted per iteration / X (kernel.h) */
    double mf;     /* messages counted per iteration (kernel.h msgs); 0 none */
    struct p2pb_buffers buf;
    size_t warm;              /* warm-up plus calibration iterations */
    double warm_ns;           /* time of the warm-up batches, all rounds, ns
                               * (the maximum over ranks of each batch) */
    size_t warm_capped;       /* rounds whose warm-up hit P2PB_WARMUP_MAX_SEC */
    size_t wk;                /* iterations per warm-up batch (round 0 finds it) */
    double t_iter_ns;         /* round 0's settled time per iteration, ns (the
                               * fastest warm-up batch / wk); 0 = no warm-up ran */
    size_t kb;                /* k, iterations per sample */
    size_t nmin, nmax;        /* samples of the current round: at least, at most */
    size_t ntotal;            /* fixed policies: samples of all rounds (k known) */
    size_t round;             /* current round, 0-based */
    size_t nrounds;           /* rounds of the run (--rounds) */
    int refused;              /* the floor could not be met: no samples, row skipped */
    enum p2pb_status verdict; /* --check outcome (last round) */
    struct p2pb_samples s;
    struct p2pb_rank_times rt;
    struct p2pb_disturb dist; /* this rank's disturbance around its samples */
    struct p2pb_clock clk;    /* P2PB_KF_ONEWAY: rank 1's clock against rank 0's
                               * (every rank keeps the same copy) */
    double epoch_ref;         /* P2PB_KF_ONEWAY: rank 0's time of the round's first
                               * reading, ns; sample sums are taken from it */
    double path_mbps;         /* the rate of one path for the rows' bound, MB/s; 0 none */
    int bound_source;         /* P2PB_BOUND_* (result.h) */
};

/* The handle of harness.h: one (kernel, size, direction) across rounds. */
struct p2pb_size_run {
    struct p2pb_measure r;
    struct p2pb_result *rows; /* the rows labelled by p2pb_size_begin */
};

/* ---- buffers.c ---- */

/* Bytes between the starts of two --off-cache positions are a multiple of
 * this (IMB's default last-level cache line, bytes). */
#define P2PB_CACHE_LINE 64

/*
 * Step 1, every round: the message datatype, nsets buffer sets taken from
 * the run's arena (two mappings that only grow, so a page is faulted in once
 * per run; page aligned, or shifted by --shift-buffers; bound to
 * --numa-node, first touched there), then the kernel's setup; every verdict
 * agreed over all ranks. Returns P2PB_OK; P2PB_ERANGE (size), P2PB_ENOMEM
 * (buffers) or the setup's status, with a message in err. Whatever it did is
 * undone by p2pb_buffers_close, also on failure.
 */
enum p2pb_status p2pb_buffers_open(struct p2pb_measure *r, char *err, size_t errlen);

/* The kernel's teardown and the datatype (the memory stays in the arena);
 * safe to call again. */
void p2pb_buffers_close(struct p2pb_measure *r);

/* ---- calibration.c ---- */

/* Floor-check batches (each may re-calibrate) before a row is refused. */
#define P2PB_FLOOR_TRIES 8

/*
 * Step 3, first round, after the warm-up: k (r->kb) from --batch, or from
 * the warm-up's settled time per iteration (r->t_iter_ns), or with --warmup
 * 0 from timed batches (their iterations are added to r->warm); with --fixed-imb checked against
 * the floor by batches of k (re-calibrated from them, at most P2PB_FLOOR_TRIES times; r->refused
 * when it cannot be met; the other policies check the first round's samples, p2pb_sample_floor),
 * then r->ntotal for the fixed policies (IMB's repetitions for --fixed-imb, which may lower k to a
 * divisor of them).
 */
void p2pb_calibrate(struct p2pb_measure *r);

/* r->nmin / r->nmax of round r->round (docs/methodology.md, "Rounds"). */
void p2pb_round_counts(struct p2pb_measure *r);

/* Shortest sample in ns: max(20 x timer overhead, 10 x resolution, 100 us). */
double p2pb_sample_target_ns(const struct p2pb_timer_info *ti);

/*
 * Barrier, then m iterations on the active ranks; the longest duration over
 * all ranks in ns (every rank gets it). ramp: a calibration estimate batch
 * (the test seam calib_batch may slow it down).
 */
double p2pb_timed_batch(struct p2pb_measure *r, size_t m, int ramp);

/* ---- sampling.c ---- */

/*
 * Rank 0's sample lists (per-group runs: also per group). Returns P2PB_OK or
 * P2PB_ENOMEM (agreed) with a message. Freed by p2pb_samples_close.
 */
enum p2pb_status p2pb_samples_open(struct p2pb_measure *r, char *err, size_t errlen);
void p2pb_samples_close(struct p2pb_measure *r);

/*
 * Step 2, every round, before k is chosen (docs/methodology.md, "Warm-up"):
 * batches of r->wk iterations (round 0 finds it: 1, 2, 4, ... until a batch
 * lasts 30 usec), each after a barrier, timed, the maximum over ranks, until
 * the batch time has settled (p2pb_settle_add) and, in round 0, at least
 * --warmup iterations ran (default 10; --fixed-imb: a tenth of IMB's
 * repetitions, at least 10); stops after P2PB_WARMUP_MAX_SEC of batches in
 * one round (counted in r->warm_capped). Round 0 leaves the settled time per
 * iteration in r->t_iter_ns for step 3. --warmup 0: no warm-up. Adds the
 * iterations to r->warm and their time to r->warm_ns. Collective; every
 * rank decides alike from the agreed batch times.
 */
void p2pb_warmup(struct p2pb_measure *r);

/*
 * Steps 4-5, one round: samples of k iterations until the round's stop
 * rule; blocks of P2PB_SAMPLE_BLOCK samples are reduced in one call and rank
 * 0 decides after each block and broadcasts. Fills r->s and, on rank 0,
 * the round's medians.
 */
void p2pb_sample(struct p2pb_measure *r);

/*
 * The first round with the floor check on its samples (k chosen by the
 * calibration, adaptive and --samples policies): when the round's median
 * sample lasts less than the target, its samples become warm-up and the
 * round is drawn again with k from p2pb_floor_rebatch, at most
 * P2PB_FLOOR_TRIES times; then r->refused. Rank 0 decides. Collective.
 */
void p2pb_sample_floor(struct p2pb_measure *r);

/* ---- rows.c ---- */

/* Groups (kernel.h, P2PB_KF_PER_GROUP): how many among nactive ranks, the
 * group of a rank, and a group's lowest rank (its initiator). */
int p2pb_ngroups(const struct p2pb_kernel *k, int nactive);
int p2pb_group_of(const struct p2pb_kernel *k, int rank);
int p2pb_group_root(const struct p2pb_kernel *k, int g);

/* Label and clear rows[0..r->nout-1] (fields shared by every row). */
void p2pb_rows_label(const struct p2pb_measure *r, struct p2pb_result *rows);

/* Fixed-bytes kernels (memcpy): rows[].fixed_bytes = bf * X. */
void p2pb_rows_set_fixed_bytes(const struct p2pb_measure *r, struct p2pb_result *rows);

/* Step 6: each rank's mean time per iteration, reduced into r->rt. */
void p2pb_rows_reduce_means(struct p2pb_measure *r);

/*
 * Statistics and every row's numbers and status from the samples. Returns
 * `verdict` (the --check outcome), or P2PB_ENOMEM (agreed) with a message
 * when rank 0 could not store a sample.
 */
enum p2pb_status p2pb_rows_finish(struct p2pb_measure *r, struct p2pb_result *rows,
                                  enum p2pb_status verdict, char *err, size_t errlen);

/* ---- check.c ---- */

/*
 * Step 7, --check: up to three patterned iterations off the timed path,
 * every received byte verified. Returns P2PB_OK, or P2PB_EVERIFY (agreed)
 * with a message; each failing rank names its byte offset on stderr.
 */
enum p2pb_status p2pb_check_payloads(struct p2pb_measure *r, char *err, size_t errlen);

/* ---- watchdog.c ---- */

/* The next phase of the size begins (the timer keeps running). */
void p2pb_watchdog_phase(enum p2pb_phase phase);

/* Rank 0: the ranks a failure of this size was traced to (copied). */
void p2pb_watchdog_blame(const int *ranks, size_t n);

/* ---- progress.c: per-rank progress for the timeout report ---- */

/* Collective: a communicator of its own; rank 0 posts one receive per rank. */
void p2pb_progress_init(MPI_Comm comm);

/* This rank passed its next checkpoint (every rank passes the same ones):
 * count it and tell rank 0, without waiting for it. No-op before init. */
void p2pb_progress_mark(void);

/* Rank 0, async-signal-safe: the ranks (ascending, at most cap) whose last
 * reported checkpoint is behind rank 0's own, or that are stopped (ranks on
 * rank 0's host, /proc/PID/stat). Returns how many. */
size_t p2pb_progress_behind(int *ranks, size_t cap);

/* Rank 0, async-signal-safe: 1 when some rank reported a checkpoint beyond
 * rank 0's own (rank 0 is the one behind: stopped, or stuck), else 0. */
int p2pb_progress_self_behind(void);

/* Collective: rank 0 collects every count still due, no request is left. */
void p2pb_progress_fini(void);

/*
 * Test seams: hooks at the boundaries of a run, installed only by a test
 * run (environment P2PB_TEST_FAULT, tests/bench/faults.sh); every pointer
 * is NULL in normal runs. Never NULL itself.
 */
struct p2pb_test_seams {
    /* a size starts: the watchdog is armed, warm-up not begun */
    void (*size_start)(const struct p2pb_kernel *k, size_t bytes, int rank);
    /* a --check iteration ran on an active rank; its verify comes next */
    void (*check_ran)(struct p2pb_kernel_ctx *c);
    /* inside the timed region of a calibration estimate batch */
    void (*calib_batch)(const struct p2pb_kernel_ctx *c);
    /* 1: every row counts each byte twice (a byte-counting error) */
    int double_bytes;
};
const struct p2pb_test_seams *p2pb_test_seams(void);

/* ---- iterations, shared by warm-up, calibration and sampling ---- */

/*
 * m iterations of the kernel on an active rank (none elsewhere), cycling
 * through the buffer sets by iteration index, each after the kernel's
 * between_iter (kernel.h) when it has one. Returns the ns spent in
 * between_iter, which the caller takes out of its timed duration (0
 * without the hook). A kernel's failure has been reported by the kernel;
 * the job is aborted. Inline: this is the timed path.
 */
static inline uint64_t p2pb_run_iters(struct p2pb_measure *r, size_t m)
{
    struct p2pb_kernel_ctx *c = &r->c;
    uint64_t untimed = 0;
    if (!c->active)
        return 0;
    unsigned char *const sbase = r->buf.sbase, *const rbase = r->buf.rbase;
    const size_t nsets = r->buf.nsets, sstride = r->buf.sstride, rstride = r->buf.rstride;
    enum p2pb_status (*const between)(struct p2pb_kernel_ctx *) = r->k->between_iter;
    for (size_t i = 0; i < m; i++) {
        size_t set = nsets > 1 ? (size_t)(c->iter % nsets) : 0;
        c->sbuf = sbase + set * sstride;
        c->rbuf = rbase + set * rstride;
        if (between) { /* untimed: its duration comes out of the sample */
            uint64_t b0 = p2pb_now_ns();
            if (between(c) != P2PB_OK)
                p2pb_mpi_fail(r->k->name, __FILE__, __LINE__, MPI_SUCCESS);
            untimed += p2pb_now_ns() - b0;
        }
        if (r->k->run_iter(c) != P2PB_OK || (r->k->finish_iter && r->k->finish_iter(c) != P2PB_OK))
            p2pb_mpi_fail(r->k->name, __FILE__, __LINE__, MPI_SUCCESS);
        c->iter++;
    }
    return untimed;
}

/* ---- bounds.c: the bound beside each row ---- */

/*
 * First round, after the buffers: the rate of one path for the rows'
 * bound into r->path_mbps and r->bound_source: --bound; else, when every
 * active rank is on one host, the fastest local copy of X bytes over the
 * active ranks (warm buffers: an upper bound on any transfer that copies
 * them once); when each is on its own host, the link speed (policy);
 * else none. Collective (every rank decides alike from the policy).
 */
void p2pb_bounds_measure(struct p2pb_measure *r);

/* Rank 0, after the rows' numbers: each ok row's bound (kernel.h
 * bound_paths x r->path_mbps; the aggregate of per-group runs: x groups),
 * judged against its MB/s (bound.h). */
void p2pb_bounds_rows(const struct p2pb_measure *r, struct p2pb_result *rows);

/* ---- oneway.c: the one-way kernels' clocks (P2PB_KF_ONEWAY) ---- */

/* Before a round's samples: readings of rank 1's clock (round 0: the first
 * ones), the model refitted; every rank gets them. Collective. */
void p2pb_oneway_round_begin(struct p2pb_measure *r);

/* After a round's samples: one more reading checks the model (residual
 * kept in r->clk), then joins the fit. Collective. */
void p2pb_oneway_round_end(struct p2pb_measure *r);

/*
 * m iterations with time stamps: the sender's clock read before each
 * run_iter, the receiver's after it (then finish_iter, untimed). Returns
 * this rank's share of the sample, ns on rank 0's clock from r->epoch_ref:
 * the receiver + sum of its end times, the sender - sum of its start
 * times, other ranks 0; summed over ranks it is the sum of the m one-way
 * times.
 */
double p2pb_oneway_iters(struct p2pb_measure *r, size_t m);

#endif /* P2PBENCH_MEASURE_H */
