/* SPDX-License-Identifier: MIT */
/*
 * result.h - plain records of a run, and the JSON Lines results file.
 *
 * Results file (schema "p2pbench/1"): one JSON object per line.
 *   1. {"type":"run", "schema":"p2pbench/1", ...}     run record, first line
 *   2. {"type":"result", "kernel":..., "bytes":...}   one per (kernel, size)
 *   3. {"type":"end", "status":"complete"|"aborted", ...}  last line
 * Each line is written with one write(2) and flushed as soon as its row is
 * finished, so a run that dies keeps every finished row and lacks the end
 * record (recognizably incomplete). See docs/output-format.md.
 */
#ifndef P2PBENCH_RESULT_H
#define P2PBENCH_RESULT_H

#include <stddef.h>
#include <stdio.h>

#include "p2pbench/stats.h"
#include "p2pbench/status.h"

#define P2PB_SCHEMA "p2pbench/1"
#define P2PB_SCHEMA_MAJOR 1

/* Column layout of the IMB-compatible table (docs/kernels.md). */
enum p2pb_imb_layout {
    P2PB_IMB_T,         /* #bytes #repetitions t[usec] Mbytes/sec */
    P2PB_IMB_TMINMAXAVG /* #bytes #repetitions t_min t_max t_avg Mbytes/sec */
};

/* Most rounds over the sizes in one launch (--rounds). */
#define P2PB_MAX_ROUNDS 32

/* Outcome of one (kernel, size) row. */
enum p2pb_row_status {
    P2PB_ROW_OK,
    P2PB_ROW_SKIPPED, /* not run (e.g. too few ranks); no numbers */
    P2PB_ROW_FAILED,  /* an error stopped it; no numbers */
    P2PB_ROW_TIMEOUT  /* --timeout expired; no numbers */
};

/* "ok", "skipped", "failed", "timeout". */
const char *p2pb_row_status_str(enum p2pb_row_status st);
/* Inverse of p2pb_row_status_str; returns -1 if unknown. */
int p2pb_row_status_parse(const char *s);

/*
 * Detours of the noise kernel (benchmarks/noise.c, docs/kernels.md) on one rank,
 * or on the aggregate row the worst rank's (largest lost_share). A detour is
 * a gap between two consecutive clock reads of a busy loop longer than
 * threshold_usec: the time the rank did not run its own loop (interrupts,
 * other tasks, the hypervisor). JSON "noise": {...}, present only when valid.
 */
struct p2pb_noise {
    int valid;              /* 1 on rows of the noise kernel */
    double spin_sec;        /* seconds spent in the loop (all iterations) */
    double detours;         /* number of detours */
    double detours_per_sec; /* detours / spin_sec */
    double median_usec;     /* detour durations: median, p99, max (usec); */
    double p99_usec;        /*   0 when there was none */
    double max_usec;
    double lost_share;     /* sum of detour durations / spin time, 0..1 */
    double threshold_usec; /* gap counted as a detour from this length on */
    int worst_rank;        /* aggregate row: the rank shown; else the row's rank */
};

/*
 * What disturbed a row while it was measured (src/bench/disturbance.h),
 * the maximum over the ranks taking part. JSON "disturbance": {"steal_pct",
 * "invol_ctxsw", "migrations" (null when unknown), "worst_rank", "cpu_lost_pct",
 * and "cpu_mhz" with "cpu_mhz_source" ("cpufreq" | "aperf_mperf") when a
 * frequency source was readable}, present only when valid.
 */
struct p2pb_disturbance {
    int valid;           /* 1 when measured */
    double steal_pct;    /* steal ticks / all ticks of the rank's CPUs, percent */
    double invol_ctxsw;  /* involuntary context switches of the rank */
    double migrations;   /* CPU migrations of the rank; -1 unknown */
    double cpu_lost_pct; /* share of the samples' wall time the rank was off its
                          * CPU, percent, when it had involuntary switches */
    int worst_rank;      /* the rank these came from (disturbance.h); -1 none */
    double cpu_mhz;      /* lowest effective CPU frequency among the ranks over
                          * the samples, MHz; <= 0 unknown (no source readable) */
    int mhz_source;      /* where cpu_mhz came from: P2PB_MHZ_* */
};

/*
 * The clocks of a one-way row (kernel.h P2PB_KF_ONEWAY; src/bench/clock.h):
 * rank 1's clock against rank 0's as a line fitted to offset readings, and
 * the check after each round. JSON "clock": {"offset_usec", "drift_ppm",
 * "residual_usec", "rtt_usec", "readings", "within"}, present only when
 * valid. within: residual_usec < rtt_usec / 2, the MPI standard's condition
 * for MPI_WTIME_IS_GLOBAL; a row that fails it is marked, not hidden.
 */
struct p2pb_clock_sync {
    int valid;            /* 1 on one-way rows */
    double offset_usec;   /* rank 1's clock - rank 0's at the last fit, usec */
    double drift_ppm;     /* fitted drift of rank 1's clock, parts per million */
    double residual_usec; /* largest |reading - model| after a round, usec; < 0 unchecked */
    double rtt_usec;      /* fastest synchronisation exchange (0 B there, 8 B back), usec */
    size_t readings;      /* offset readings the model was fitted to */
    int within;           /* 1 residual below half the round trip, 0 not, -1 unchecked */
};

/* Where a row's bound came from (struct p2pb_bound.source; JSON
 * "bound.source": "copy", "link", "given"). */
enum { P2PB_BOUND_NONE = 0, P2PB_BOUND_COPY = 1, P2PB_BOUND_LINK = 2, P2PB_BOUND_GIVEN = 3 };

/*
 * The most MB/s the hardware allows for a row (docs/kernels.md, "Bounds"):
 * the kernel's paths x the rate of one path, a local copy of X bytes
 * measured in the run (ranks on one host), the link rate of the interface
 * MPI uses (ranks on distinct hosts) or --bound. JSON "bound":
 * {"mbytes_per_sec", "source", "percent", "exceeds"}, present only when valid.
 */
struct p2pb_bound {
    int valid;      /* 1 when the row has a bound */
    double mbps;    /* the bound, MB/s (10^6 B/s) */
    int source;     /* P2PB_BOUND_COPY, _LINK or _GIVEN */
    double percent; /* 100 x the row's mbytes_per_sec / mbps */
    int exceeds;    /* 1: the row is above 105% of its bound, a likely measurement error */
};

/*
 * The overlap percentage of an overlap row (kernel.h P2PB_KF_OVERLAP;
 * docs/kernels.md, "Overlap"): from the medians of the three rows of one
 * size, t_pure (post, wait), t_cpu (the calibrated compute alone) and
 * t_ovrl (post, compute, wait), usec. percent = P2PB_OVERLAP_FORMULA
 * (src/common/overlap.h), NAN when undefined, with the reason in undefined.
 * JSON "overlap": {"t_pure_usec", "t_cpu_usec", "t_ovrl_usec", "percent"
 * (null when undefined), "undefined" (the reason, only then), "formula"},
 * present only when valid.
 */
struct p2pb_overlap {
    int valid;          /* 1 on overlap rows with numbers */
    double t_pure_usec; /* median of the "pure" row, usec */
    double t_cpu_usec;  /* median of the "cpu" row, usec */
    double t_ovrl_usec; /* median of this row, usec */
    double percent;     /* 0..100; NAN: undefined */
    char undefined[96]; /* why percent is undefined; "" when defined */
};

/* Sources of p2pb_disturbance.cpu_mhz, best last (JSON "cpu_mhz_source"). */
enum { P2PB_MHZ_NONE = 0, P2PB_MHZ_CPUFREQ = 1, P2PB_MHZ_APERF = 2 };

/*
 * One finished (kernel, size) row. Times in usec per iteration after the
 * kernel's time_scale; rates in MB/s with 1 MB = 10^6 B.
 */
struct p2pb_result {
    char kernel[32];              /* kernel name, e.g. "pingpong" */
    char display_name[32];        /* table label, e.g. "PingPong" */
    char variant[32];             /* e.g. direction "0->1"; "" if none */
    size_t bytes;                 /* message size X */
    int nranks;                   /* ranks in the run */
    int active_ranks;             /* ranks that took part; the rest waited */
    int imb_layout;               /* enum p2pb_imb_layout */
    double bytes_factor;          /* bytes per iteration / X (kernel.h) */
    double time_scale;            /* reported t / measured iteration time (PingPong 0.5) */
    size_t samples;               /* n */
    size_t iterations_per_sample; /* k */
    size_t warmup;                /* warm-up iterations, not in the data */
    double warmup_sec;            /* time of the warm-up batches, all rounds, s
                                   * (JSON "warmup_sec" when > 0; NAN when not
                                   * recorded) */
    size_t warmup_capped;         /* rounds whose warm-up stopped at its time cap
                                   * before the time settled (JSON, when > 0) */
    struct p2pb_stats t;          /* per-sample time statistics, usec */
    double t_min_usec;            /* IMB: min over active ranks of each rank's mean */
    double t_max_usec;            /* IMB: max over active ranks of each rank's mean */
    double t_avg_usec;            /* IMB: average over active ranks */
    double mbytes_per_sec;        /* bytes_factor * X / t.median */
    double mbytes_per_sec_imb;    /* bytes_factor * X / t_max_usec (IMB) */
    int ci_target_met;            /* adaptive policy: 1 if the CI target was met,
                                     0 if the time budget or max samples ended it;
                                     -1 fixed policies or unknown */
    enum p2pb_row_status status;
    char note[160]; /* why skipped / failed; "" otherwise */
    /* Directional kernels (P2PB_KF_DIRECTIONS), rows of the second direction:
     * mbytes_per_sec of this row / mbytes_per_sec of the row asym_ref (the
     * same group in the first direction) at the same size; e.g. 38.3 when
     * "1->0" streams 92 MB/s and "0->1" 2.4 MB/s. NAN when not applicable
     * (other kernels, first direction, a rate of 0). Set only when
     * asym_ref is non-empty. JSON: "asymmetry": {"vs": asym_ref, "ratio":
     * asymmetry or null}, present only when asym_ref is non-empty. */
    double asymmetry;
    char asym_ref[32];
    /* Kernels with fixed bytes (P2PB_BYTES_COPY_BUFFER): bytes per iteration, the
     * same at every size (memcpy: the buffer); MB/s = fixed_bytes / t.
     * 0 for other kernels. JSON "fixed_bytes", present only when > 0. */
    double fixed_bytes;
    /* Rounds (--rounds, docs/methodology.md): how many rounds drew samples
     * of this row, and the median of each round's samples (usec, round
     * order). With rounds >= 2 the t.ci95_* interval accounts for the spread
     * of these medians. JSON "rounds" and "round_medians_usec", present when
     * rounds > 0. */
    size_t rounds;
    double round_medians[P2PB_MAX_ROUNDS];
    struct p2pb_noise noise;             /* noise kernel only (valid = 1) */
    struct p2pb_disturbance disturbance; /* when the harness measured it */
    struct p2pb_clock_sync clock;        /* one-way rows (valid = 1) */
    struct p2pb_bound bound;             /* when a bound is known (valid = 1) */
    struct p2pb_shift shift;             /* level change while measured (p2pb_change_point
                                          * over the samples in time order); JSON "shift"
                                          * when tested */
    /* Message rate (kernels with a msgs rule, kernel.h): messages counted
     * per iteration (aggregate rows: summed over the groups, as
     * bytes_factor) and msgs/s = msgs_factor / t.median x 10^6 (aggregate:
     * the sum of the groups' msgs/s), so msgs_per_sec x X / 10^6 =
     * mbytes_per_sec. 0 for kernels that count no messages. JSON
     * "msgs_per_iter" and "msgs_per_sec", present only when msgs_factor > 0. */
    double msgs_factor;
    double msgs_per_sec;
    struct p2pb_overlap overlap; /* overlap rows (valid = 1) */
    /* How a message above 2^31-1 bytes went (docs/kernels.md, "Large
     * messages"): "large-count" (MPI-4's MPI_Send_c etc., X MPI_BYTEs) or
     * "datatype" (X / 1024 blocks of a 1 KiB contiguous type); "" at
     * X <= 2^31-1 and for kernels without MPI messages. JSON "count_path",
     * present only when non-empty. */
    char count_path[16];
    /* Kernels with a baseline (kernel.h; partitioned-pingpong): t.median of
     * this row / t.median of kernel overhead_vs's row at the same size in the
     * same launch. Set only when overhead_vs is non-empty. JSON "overhead":
     * {"vs": overhead_vs, "ratio": overhead}, present only then. */
    double overhead;
    char overhead_vs[32];
};

/* Total timed iterations of a row: samples * iterations_per_sample. */
size_t p2pb_result_repetitions(const struct p2pb_result *r);

/*
 * Throughput in MB/s (10^6 B/s) for bytes_factor * bytes moved in t_usec.
 * Returns 0 when t_usec <= 0 or bytes == 0.  Source: IMB definition,
 * docs/kernels.md (X / t for PingPong, 2X / t Sendrecv, 4X / t Exchange).
 */
double p2pb_mbytes_per_sec(double bytes_factor, size_t bytes, double t_usec);

/*
 * Message rate in messages per second for msgs messages in t_usec:
 * msgs / t_usec x 10^6 (defined at X = 0 too). Returns 0 when t_usec <= 0
 * or msgs <= 0. With msgs = bytes_factor (kernel.h, struct p2pb_msgs_rule):
 * p2pb_msgs_per_sec x X / 10^6 = p2pb_mbytes_per_sec.
 */
double p2pb_msgs_per_sec(double msgs, double t_usec);

/* Per-rank placement, as recorded in the run record. */
struct p2pb_rank_info {
    int rank;
    char host[64];
    char binding[128]; /* hwloc cpuset as a list, e.g. "0-1"; "unbound" */
};

/* Facts about a run that reporters print in their header. */
struct p2pb_run_info {
    char version[32];
    char git_commit[48];
    char label[64];
    char start_utc[32];    /* ISO 8601, e.g. 2026-11-29T18:07:19Z */
    char mpi_library[256]; /* first line of MPI_Get_library_version */
    char host[64];         /* host of rank 0 */
    int nranks;
    char policy[64];        /* "adaptive", "fixed-imb", "fixed" */
    int imported;           /* 1 if converted from a text log */
    int check;              /* 1 if payloads were verified (--check) */
    char state[12];         /* "steady", "cold" (--off-cache), "unwarmed" (--warmup 0), ""
                             * unknown (policy.state) */
    int bounds;             /* 1: the run judged its rows against bounds (policy.bound present;
                             * docs/kernels.md, "Bounds"), so tables carry a %bound column */
    size_t off_cache_bytes; /* cold: the cache size C spanned twice per side, bytes */
    char source[64];        /* "p2pbench" or e.g. "imb-4.1" for imports */
};

/*
 * An open results file. Lines are written with one write(2) each and the
 * file is fsync'd at the end. All functions return P2PB_OK or P2PB_EIO with a
 * message in err (errlen bytes, may be NULL).
 *
 * A file that exists is opened and write-locked, but its contents are
 * replaced only when the first line is on disk: that line goes to a
 * temporary file beside it ("PATH.XXXXXX"), synced and renamed over it, and
 * the later lines follow under the name given. A run that stops before it
 * (a refused option, a failed step, p2pb_results_discard) or whose first
 * line cannot be written (a full disk: p2pb_results_kept) leaves the file
 * as it was. Before each line, a file that lost its last name (deleted, or
 * replaced by a rename) is refused: "results file 'P' was deleted during
 * the run; its rows are lost". Nothing is created or emptied through a
 * symbolic link: a link to a FIFO, device or socket is written through, a
 * link to a regular file or to nothing is refused.
 */
struct p2pb_results_file;

/* Write the results to standard output (a duplicate of its descriptor;
 * path "(standard output)"): not locked, never emptied. */
enum p2pb_status p2pb_results_open_stdout(struct p2pb_results_file **out, char *err, size_t errlen);
/* Create path, or open the file there to replace its contents at the first
 * line (see above). */
enum p2pb_status p2pb_results_open(const char *path, struct p2pb_results_file **out, char *err,
                                   size_t errlen);
/* Create path, which must not exist (O_EXCL; a symbolic link counts as
 * existing): when it does, *taken is 1 and P2PB_EIO is returned with
 * nothing touched (the caller tries another name); else *taken is 0. */
enum p2pb_status p2pb_results_open_new(const char *path, int *taken, struct p2pb_results_file **out,
                                       char *err, size_t errlen);
/* Close f without an end record (f is freed). A file no line was written
 * to is left as it was before the open, and removed if the open created it. */
void p2pb_results_discard(struct p2pb_results_file *f);
/* 1 when f's file has lost its last name (deleted, or replaced by another
 * file renamed over it) since it was opened: its lines cannot be read by
 * anyone. Checked with fstat, now; regular files only, else 0. */
int p2pb_results_unlinked(struct p2pb_results_file *f);
/* Write one line: a JSON object (cJSON *, passed as void * to keep cJSON out
 * of this header). The object is not freed. */
enum p2pb_status p2pb_results_write_json(struct p2pb_results_file *f, const void *cjson_obj,
                                         char *err, size_t errlen);
/* Write a result record for r. */
enum p2pb_status p2pb_results_write_result(struct p2pb_results_file *f, const struct p2pb_result *r,
                                           char *err, size_t errlen);
/*
 * The end record (docs/output-format.md, section 3): status "complete", or
 * "aborted" with reason, the (kernel, size) it happened in (kernel NULL: no
 * size had begun; written as null), the rank that wrote the record and the
 * ranks the failure was traced to (nranks of them; may be none).
 */
struct p2pb_end_record {
    const char *status; /* "complete" or "aborted" */
    const char *reason; /* aborted: "timeout", "payload_check", "write_error", ... */
    const char *kernel; /* aborted: kernel name, or NULL */
    size_t bytes;       /* aborted: message size, with kernel */
    int rank;           /* aborted: the rank that wrote the record (0) */
    const int *ranks;   /* aborted: ranks involved, nranks of them */
    size_t nranks;
    double wall_sec;  /* run time in seconds */
    const void *load; /* the kernels' load readings (cJSON array, copied), or NULL */
};
/* Write the end record e (NULL: none), sync and close f (freed either way).
 * A file deleted during the run is P2PB_EIO ("... was deleted during the
 * run; its rows are lost"). */
enum p2pb_status p2pb_results_close_end(struct p2pb_results_file *f,
                                        const struct p2pb_end_record *e, char *err, size_t errlen);
/* p2pb_results_close_end with {status, wall_sec} (status NULL: no end record). */
enum p2pb_status p2pb_results_close(struct p2pb_results_file *f, const char *status,
                                    double wall_sec, char *err, size_t errlen);
/* File descriptor of an open results file (for the --timeout handler), or -1. */
int p2pb_results_fd(const struct p2pb_results_file *f);
/* 1 while a line is being written to f (async-signal-safe read). */
int p2pb_results_writing(const struct p2pb_results_file *f);
/* 1 once a write to f failed: the file lacks rows of the run. */
int p2pb_results_failed(const struct p2pb_results_file *f);
/* 1 when f was opened to replace a file and its first line could not be
 * written: the previous file is as it was, and nothing more is written. */
int p2pb_results_kept(const struct p2pb_results_file *f);
/*
 * For a signal handler (async-signal-safe, never blocks): switch f to
 * non-blocking, cut back a line the handler interrupted (regular files;
 * nothing is written to a pipe then), append line (len bytes, ending in
 * '\n') with one write(2), cutting back a partial write. Returns 1 if the
 * whole line was written, else 0.
 */
int p2pb_results_append_now(struct p2pb_results_file *f, const char *line, size_t len);
/* Path of an open results file. */
const char *p2pb_results_path(const struct p2pb_results_file *f);

/* Result record <-> struct. The cJSON objects are passed as void *. */
void *p2pb_result_to_json(const struct p2pb_result *r);
enum p2pb_status p2pb_result_from_json(const void *cjson_obj, struct p2pb_result *r, char *err,
                                       size_t errlen);
/* The "noise" object of a result record (struct p2pb_noise) into the
 * cJSON object o, when n->valid; and back: absent -> valid = 0, a present
 * object with a non-numeric field -> P2PB_EFORMAT with err naming it.
 * src/common/result_extras.c. */
void p2pb_noise_to_json(const struct p2pb_noise *n, void *cjson_obj);
enum p2pb_status p2pb_noise_from_json(const void *cjson_obj, struct p2pb_noise *n, char *err,
                                      size_t errlen);

/* The same for the "disturbance" object (struct p2pb_disturbance):
 * migrations -1 is written as null and read back as -1; a present object
 * whose steal_pct or invol_ctxsw is missing, non-numeric or negative is
 * P2PB_EFORMAT. src/common/result_extras.c. */
void p2pb_disturbance_to_json(const struct p2pb_disturbance *d, void *cjson_obj);
enum p2pb_status p2pb_disturbance_from_json(const void *cjson_obj, struct p2pb_disturbance *d,
                                            char *err, size_t errlen);

/* A row counts as disturbed when a rank was off its CPU for at least this
 * share of its samples' wall time, percent (docs/host-context.md). */
#define P2PB_DISTURBED_LOST_PCT 5.0

/* A survey measurement is CPU-starved when a rank of the pair waited for a
 * CPU (run delay, the row's cpu_wait_pct) at least this many percentage
 * points of its wall time more than the survey's typical measurement did: a
 * slow value of it says nothing about the link, and p2pbench-report survey
 * does not name a link slow on it (docs/survey.md). */
#define P2PB_SURVEY_STARVED_PCT 20.0

/* 1 when d was measured and a rank lost its CPU during the samples: steal
 * of at least 1% of its CPUs' time, at least P2PB_DISTURBED_LOST_PCT of the
 * wall time off its CPU after involuntary context switches, or a CPU
 * migration; else 0. src/common/result_extras.c. */
int p2pb_disturbed(const struct p2pb_disturbance *d);

/* The row's "clock" object (struct p2pb_clock_sync) when c->valid, and
 * back: a present object with a missing or wrong field is P2PB_EFORMAT with
 * err naming it. src/common/result_clock.c. */
void p2pb_clock_to_json(const struct p2pb_clock_sync *c, void *cjson_obj);
enum p2pb_status p2pb_clock_from_json(const void *cjson_obj, struct p2pb_clock_sync *c, char *err,
                                      size_t errlen);

/* The row's "bound" object (struct p2pb_bound) when b->valid, and back:
 * a present object with a missing or wrong field is P2PB_EFORMAT with err
 * naming it. src/common/result_clock.c. */
void p2pb_bound_to_json(const struct p2pb_bound *b, void *cjson_obj);
enum p2pb_status p2pb_bound_from_json(const void *cjson_obj, struct p2pb_bound *b, char *err,
                                      size_t errlen);

/* The row's "shift" object {"first_median_usec", "last_median_usec",
 * "rel_shift", "p", "flagged"} when s->tested, and back: a present object
 * with a missing or non-numeric field is P2PB_EFORMAT with err naming it.
 * src/common/result_extras.c. */
void p2pb_shift_to_json(const struct p2pb_shift *s, void *cjson_obj);
enum p2pb_status p2pb_shift_from_json(const void *cjson_obj, struct p2pb_shift *s, char *err,
                                      size_t errlen);

/* Change-point rule of the harness rows (docs/methodology.md): the U test
 * at this level, and at least this relative change of level. */
#define P2PB_SHIFT_ALPHA 0.001
#define P2PB_SHIFT_MIN_REL 0.10

/* Fill the reporter-facing facts from a run record. */
void p2pb_run_info_from_json(const void *cjson_obj, struct p2pb_run_info *ri);

/*
 * A results file read back into memory.
 *   path     the path it was read from, control characters as '?' (for messages)
 *   run      the run record (cJSON object, owned), NULL if missing
 *   rows     nrows result records
 *   complete 1 if an end record with status "complete" was read
 *   end_status "complete", "aborted", or "" when the end record is missing
 *   truncated_line 1 if the last line was cut off mid-write (ignored)
 *   nrepeated, index  see below; index is a struct p2pb_row_index
 *            (src/common/row_index.h), NULL in a struct not made by the reader
 */
struct p2pb_results_data {
    char path[512];
    void *run;
    struct p2pb_run_info info;
    struct p2pb_result *rows;
    size_t nrows;
    int complete;
    char end_status[32];
    int truncated_line;
    size_t nrepeated; /* rows whose (kernel, variant, bytes) an earlier row has */
    void *index;      /* the first row of each key, for p2pb_results_find */
    void *load;       /* the end record's "load" array (cJSON: the kernels' load), or NULL */
};

/*
 * Read a results file. Refuses an unknown schema major version, a line longer
 * than 16 MiB and, when max_bytes > 0, a file (or device, or pipe) of more
 * than max_bytes bytes. Loading is linear in rows: the rows are indexed by
 * (kernel, variant, bytes) as they are read (p2pb_results_find, nrepeated).
 * Returns P2PB_OK, P2PB_EIO (cannot open or read), P2PB_ENOMEM (out of
 * memory, said as such, never as a bad line) or P2PB_EFORMAT (bad line: err
 * names the file and line number; too large: err names the file and the
 * limit). On error *out is left empty.
 */
enum p2pb_status p2pb_results_read_max(const char *path, size_t max_bytes,
                                       struct p2pb_results_data *out, char *err, size_t errlen);
/* p2pb_results_read_max without a file size limit (the line limit stays). */
enum p2pb_status p2pb_results_read(const char *path, struct p2pb_results_data *out, char *err,
                                   size_t errlen);
/*
 * The first row of d with this kernel, variant and bytes, or NULL: O(1) on
 * average through d->index (a linear search when d was not made by the
 * reader and has no index).
 */
const struct p2pb_result *p2pb_results_find(const struct p2pb_results_data *d, const char *kernel,
                                            const char *variant, size_t bytes);
void p2pb_results_data_free(struct p2pb_results_data *d);

#endif /* P2PBENCH_RESULT_H */
