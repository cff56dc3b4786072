/* SPDX-License-Identifier: MIT */
/*
 * load.h - results files as p2pbench-report reads them (load.c): the metric
 * a table uses, the output formats of the commands, one file loaded with
 * its warnings, and the sides of a comparison (the launches of one
 * configuration). The base of the feature folders (compare/, html/, plot/,
 * survey/, baseline/, import/), which may include it; it includes none of
 * them. Not installed, no MPI. Errors follow status.h: a p2pb_status and a
 * message in a caller-owned buffer.
 */
#ifndef P2PBENCH_REPORT_LOAD_H
#define P2PBENCH_REPORT_LOAD_H

#include <stddef.h>
#include <stdio.h>

#include "p2pbench/result.h"

/* Which per-launch number a table uses. */
enum p2pb_metric {
    P2PB_METRIC_LATENCY,   /* t_usec.median of the launch, usec (lower is better) */
    P2PB_METRIC_THROUGHPUT /* mbytes_per_sec of the launch, MB/s = 10^6 B/s (higher is better) */
};

/* The output format of a command (-f; args.h, p2pb_args_format). */
enum p2pb_outfmt {
    P2PB_OUT_TEXT,
    P2PB_OUT_MARKDOWN,
    P2PB_OUT_CSV,
    P2PB_OUT_JSON,
    P2PB_OUT_IMB,
    P2PB_OUT_OSU
};

/* Value of metric for row r; NAN if the row has no number (status not ok). */
double p2pb_metric_value(const struct p2pb_result *r, enum p2pb_metric metric);

/*
 * Read a results file for show/compare/plot, refusing one of more than
 * max_bytes bytes (0: no limit; --max-file-size). A file without an end record
 * is read as far as it goes with a warning on warn (file and row count), as are
 * repeated keys. Returns the status of p2pb_results_read_max.
 */
enum p2pb_status p2pb_load_results(const char *path, struct p2pb_results_data *d, FILE *warn,
                                   size_t max_bytes, char *err, size_t errlen);

/*
 * "What happened to it" of an incomplete file d (d->complete is 0), for the
 * stdout flags and stderr warnings: "no end record (run cut short?); 4 rows
 * read" or "run ended with status 'aborted'; 4 rows read" (sanitised). Returns buf.
 */
const char *p2pb_incomplete_note(const struct p2pb_results_data *d, char *buf, size_t len);

/*
 * Value of metric for the first row of d with that kernel, variant and size
 * (bytes); NAN when d has none or it has no number (p2pb_metric_value).
 */
double p2pb_file_value(const struct p2pb_results_data *d, const char *kernel, const char *variant,
                       size_t bytes, enum p2pb_metric metric);

/* A launch's place in a scripts/campaign.sh campaign: the run record's
 * "campaign" object (docs/output-format.md). */
struct p2pb_launch_pos {
    int known;       /* 1 when the run record has a valid "campaign" object */
    double seed;     /* the campaign's order seed, 0 .. 2^31 - 1 */
    size_t round;    /* 1 .. N */
    size_t position; /* 1 (ran first in its round) or 2 */
};

/* One side of a comparison: the launches (results files) of one configuration. */
struct p2pb_side {
    char name[64];                   /* label of its files (or "A"/"B") */
    struct p2pb_results_data *files; /* nfiles entries */
    struct p2pb_launch_pos *pos;     /* nfiles entries, by file (p2pb_side_load) */
    size_t nfiles;
    size_t nincomplete; /* files without an end record "complete" */
};

/* Name a side from its files' labels: the common label, or "A"/"B" fallback. */
void p2pb_side_name(struct p2pb_side *s, const char *fallback);

/*
 * Load the n results files paths[0..n-1] into s (p2pb_load_results, warnings
 * to warn, files above max_bytes refused) and name it (p2pb_side_name). On failure s holds the
 * files read so far. p2pb_side_free in any case. Returns P2PB_OK, P2PB_ENOMEM or the status of the
 * first file that cannot be read (P2PB_EIO, P2PB_EFORMAT), its message in err.
 */
enum p2pb_status p2pb_side_load(char *const *paths, size_t n, struct p2pb_side *s,
                                const char *fallback, FILE *warn, size_t max_bytes, char *err,
                                size_t errlen);

/*
 * Count each launch of s once: a file whose run record has the start_utc,
 * policy.seed and boot_id (of rank 0, or of the imported host) of an earlier
 * file of s, and every row the same (kernel, variant, bytes, status,
 * samples and the numbers), is a copy of that launch: a warning to warn
 * ("warning: F2 is a copy of the launch in F1 (same start_utc, policy.seed,
 * boot_id and rows): counted once") and the file is dropped from s (freed).
 * Returns how many were dropped.
 */
size_t p2pb_side_count_once(struct p2pb_side *s, FILE *warn);

/* Free the files of s (which owns them) and zero it. */
void p2pb_side_free(struct p2pb_side *s);

#endif /* P2PBENCH_REPORT_LOAD_H */
