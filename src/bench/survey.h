/* SPDX-License-Identifier: MIT */
/*
 * survey.h - internal: the link survey (`p2pbench survey`, docs/survey.md).
 * Every pair of the surveyed ranks (one per host, or every rank) is
 * measured once, in the rounds of the round-robin schedule
 * (src/common/schedule.h): latency by PingPong at LAT bytes, bandwidth by a
 * one-way stream of W messages of BW bytes in each direction. Rank 0 writes
 * one row per (pair, metric, direction) round by round, then retests the
 * slowest pairs alone.
 *
 *   survey.c       prepare (hosts, surveyed ranks, order), the run record's
 *                  "survey" object, the rounds and the retests
 *   survey_pair.c  one pair: the two sides of the three measurements
 *   survey_rows.c  rank 0: the rows' JSON, the suspects of the first pass
 */
#ifndef P2PBENCH_SURVEY_H
#define P2PBENCH_SURVEY_H

/* --survey-mode auto: alone up to this many surveyed ranks (N(N-1)/2 pairs
 * one after another: 496 pairs, about 80 s at 0.16 s per pair), contention
 * above (N - 1 rounds: linear in N). docs/survey.md, "Expected wall time". */
#define P2PB_SURVEY_AUTO_ALONE_MAX 32

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>
#include <mpi.h>

#include "p2pbench/result.h"
#include "p2pbench/status.h"

struct p2pb_run;

enum p2pb_survey_metric { P2PB_SURVEY_LATENCY, P2PB_SURVEY_BANDWIDTH };

/* One row of the survey. Ranks are ranks of the run's communicator. */
struct p2pb_survey_row {
    struct p2pb_result r; /* statistics as every row (usec, MB/s = 10^6 B/s) */
    int pair[2];          /* the two ranks, lo < hi */
    int from;             /* bandwidth: the sending rank; latency: -1 */
    int round;            /* schedule round it ran in (0-based) */
    int metric;           /* enum p2pb_survey_metric */
    int contention;       /* 1: measured with the round's other pairs at once */
    int retest;           /* 1: a suspect of the first pass, measured again alone */
    int stayed_slow;      /* retest rows: 1 still slow, 0 recovered; -1 otherwise */
    int capped;           /* 1: the cap (cfg.cap_s) ended the sampling */
    size_t msgs;          /* messages per sample: the stream's window (<= --window); latency 1 */
    size_t msg_bytes;     /* bytes per message as sent (the stream's: <= X when shrunk) */
    double cpu_wait_pct;  /* the larger of the two ranks' share of the measurement's
                           * wall time spent runnable but waiting for a CPU (run
                           * delay, /proc/self/schedstat), percent; -1 unknown */
    int valid;            /* 1 when the slot holds a row */
};

/* How one pair is measured; the same on every rank. */
struct p2pb_survey_cfg {
    size_t lat_bytes;   /* PingPong message size, bytes */
    size_t bw_bytes;    /* stream message size, bytes (>= 1) */
    size_t window;      /* messages per stream sample (--window) */
    size_t min_samples; /* adaptive rule (--min-samples, --max-samples) */
    size_t max_samples;
    double budget_s;  /* time per (pair, metric, direction), seconds (--survey-time) */
    double cap_s;     /* most time per (pair, metric, direction), warm-up included,
                       * seconds (--survey-cap; ends a measurement whatever budget_s says) */
    double ci_target; /* CI half-width / median target (--ci-target) */
    int nranks;       /* ranks of the run */
};

/* One rank's buffers for the survey (survey_pair.c). */
struct p2pb_survey_bufs {
    unsigned char *sbuf; /* bw_bytes (>= lat_bytes) */
    unsigned char *rbuf; /* window * bw_bytes */
    double *samples;     /* max_samples */
    void *stream_priv;   /* the Uniband kernel's state for window messages
                          * (its setup: requests and statuses) */
};

/* Allocate / free the buffers of cfg. Returns P2PB_OK or P2PB_ENOMEM. */
enum p2pb_status p2pb_survey_bufs_alloc(struct p2pb_survey_bufs *b,
                                        const struct p2pb_survey_cfg *cfg);
void p2pb_survey_bufs_free(struct p2pb_survey_bufs *b);

/*
 * This rank's side of the three measurements of pair (me, peer) on comm,
 * in this order: latency (the lower rank times and decides), bandwidth
 * lower -> higher (the lower rank sends and times), higher -> lower. The
 * rows of this rank: out[0] latency (lower rank only), out[1] the stream
 * this rank sent; valid marks them. Each measurement ends within cfg->cap_s
 * (survey_pair.c: past it only by a sample longer than the one before; a
 * stream's sample shrinks to fit); capped marks a row the cap ended. Round,
 * contention and retest are left to the caller. MPI errors abort the job
 * (P2PB_MPI_CHECK).
 */
void p2pb_survey_pair(MPI_Comm comm, const struct p2pb_survey_cfg *cfg, struct p2pb_survey_bufs *b,
                      int me, int peer, struct p2pb_survey_row out[2]);

/* --- survey_rows.c: rank 0 --- */

/*
 * The row as a results-file line: the result record of row->r plus "pair",
 * "hosts" (host of each rank of the pair: hosts[rank]), "round", "metric",
 * "direction", "survey_mode", "retest", "capped", for bandwidth rows
 * "messages_per_sample", "message_bytes" and "bytes_moved" (bytes of the
 * timed samples), and for retests "stayed_slow" (docs/output-format.md,
 * "Survey rows"). Returns a cJSON object or NULL.
 */
cJSON *p2pb_survey_row_json(const struct p2pb_survey_row *row, const char (*hosts)[64]);

/* Rank 0's running view of the first pass: a bounded sample of the pairs'
 * values and the slowest pairs by latency and by bandwidth (O(cap + k)
 * memory, never an N x N matrix). */
struct p2pb_survey_tracker;

/* A tracker keeping the k slowest pairs of each metric. NULL when out of memory. */
struct p2pb_survey_tracker *p2pb_survey_tracker_new(size_t k, uint64_t seed);
void p2pb_survey_tracker_free(struct p2pb_survey_tracker *t);

/* One pair of the first pass: latency t (usec) and bandwidth (MB/s, the
 * slower direction); NAN when not measured. */
void p2pb_survey_tracker_add(struct p2pb_survey_tracker *t, int lo, int hi, int round,
                             double lat_usec, double bw_mbs);

/*
 * The suspects: pairs among the slowest whose latency is above 1 + min_off,
 * or whose bandwidth below 1 - min_off, times the median of all pairs
 * (P2PB_OUTLIER_MIN_OFF, src/common/outlier.h; no MAD condition). Writes at most cap pairs to
 * pairs[][2] and their rounds to rounds[]; returns how many. *lat_above / *bw_below get the bounds
 * (NAN when fewer than 3 pairs).
 */
size_t p2pb_survey_suspects(struct p2pb_survey_tracker *t, int (*pairs)[2], int *rounds, size_t cap,
                            double *lat_above, double *bw_below);

/* --- survey.c --- */

/* The survey of a run (opaque). */
struct p2pb_survey;

/*
 * Collective: every rank's host name, the surveyed ranks (per host: the
 * lowest rank of each host; per rank: all), the round order (random: seed
 * from --survey-seed, else rank 0's clock, broadcast). Sets run->survey.
 * Returns P2PB_OK or P2PB_ENOMEM on every rank (message in run->err).
 */
enum p2pb_status p2pb_survey_prepare(struct p2pb_run *run);

/* Rank 0: the run record's "survey" object (per, mode, order, seed, sizes,
 * window, budget, surveyed ranks, hosts, rounds). */
void p2pb_survey_describe(cJSON *rec, const struct p2pb_run *run);

/*
 * Collective: the rounds, then the retests; rank 0 writes every row and
 * prints a line per round and the suspects. Returns P2PB_OK, P2PB_ESKIP
 * (fewer than 2 ranks or hosts to survey; message printed), P2PB_ENOMEM or
 * P2PB_EIO (a write on rank 0 failed), the same on every rank.
 */
enum p2pb_status p2pb_survey_run(struct p2pb_run *run);

/* Free run->survey. */
void p2pb_survey_free(struct p2pb_run *run);

#endif /* P2PBENCH_SURVEY_H */
