/* SPDX-License-Identifier: MIT */
/*
 * report.h - reporters: one small interface (begin, row, end) per output
 * format. A reporter receives finished plain records and knows nothing of MPI
 * or of how the numbers were measured.
 *
 * Formats: text (the default human table), imb (IMB-MPI1 compatible layout,
 * docs/kernels.md), csv (header row, schema column), markdown, osu (the
 * layout of the OSU micro-benchmarks, docs/output-format.md).
 */
#ifndef P2PBENCH_REPORT_H
#define P2PBENCH_REPORT_H

#include <stdio.h>

#include "p2pbench/result.h"

struct p2pb_probe;

/* State shared by a reporter's calls; zero-initialize, then set out. */
struct p2pb_report_ctx {
    FILE *out;
    const struct p2pb_run_info *run;
    /* key of the section (kernel table) currently open */
    char cur_kernel[32];
    char cur_variant[32];
    int cur_nranks;
    int section_open;
    int title_done;                /* the open section's title line is printed */
    char last_skip[160];           /* text: reason of the skipped rows just printed */
    int header_done;               /* text, imb: column header of the open section printed */
    int cur_asym;                  /* text: the open section has an asymmetry column */
    int cur_bound;                 /* text: the open section has a %bound column */
    int bound_shown;               /* text: some section had one (its legend line) */
    int cur_msgs;                  /* text: the open section has a msgs/s column */
    size_t exceeds;                /* rows above 105% of their bound (struct p2pb_bound) */
    char exceeds_first[96];        /* the first of them: kernel, variant, size */
    size_t rows;                   /* rows printed in total */
    size_t prev_bytes;             /* size of the previous row */
    size_t marked;                 /* rows whose CI target was not met */
    size_t disturbed;              /* text: rows marked disturbed (p2pb_disturbed) */
    size_t shifted;                /* text: rows whose level changed while measured */
    size_t unbounded;              /* rows whose interval is unbounded (p2pb_stats_ci_unbounded) */
    size_t no_interval;            /* text: rows without a 95% interval (n < P2PB_CI_MIN_N, 1 round) */
    size_t verified;               /* text: ok rows of a --check run (payloads verified) */
    size_t clock_rows;             /* text: one-way rows (result.h, struct p2pb_clock_sync) */
    size_t clock_failed;           /* text: of them, residual not within half the round trip */
    double clock_resid, clock_rtt; /* text: their largest residual, smallest round trip, usec */
    struct p2pb_disturbance worst; /* text: the most disturbed of them */
    char worst_what[128];          /* text: its kernel and size */
    double mhz_min, mhz_max;       /* text: range of the rows' CPU frequency, MHz */
    int mhz_rows, mhz_source;      /* text: rows with one; its best source (P2PB_MHZ_*) */
    long eager_limit;              /* bytes; < 0 if unknown. Marked in text tables. */
    int incomplete;                /* set before end(): the run aborted or was cut short
                                    * (imb: no "All processes entering MPI_Finalize") */
    void *priv;                    /* the reporter's own state (imb: rows of a -multi
                                    * table held until it is complete); end() frees it */

    /* text: the placement probe of the run (probe.h), printed in the header and as
     * the floor of latency tables (NULL or not valid: none), and the rows whose
     * median lies below their floor */
    const struct p2pb_probe *probe;
    size_t below_floor;
    int cur_overlap; /* text, markdown: the open section has an overlap[%] column */
};

struct p2pb_reporter {
    const char *name;    /* "text", "imb", "csv", "markdown", "osu" */
    const char *summary; /* one line for --help */
    void (*begin)(struct p2pb_report_ctx *ctx);
    void (*row)(struct p2pb_report_ctx *ctx, const struct p2pb_result *r);
    void (*end)(struct p2pb_report_ctx *ctx);
};

extern const struct p2pb_reporter p2pb_reporter_text;
extern const struct p2pb_reporter p2pb_reporter_imb;
extern const struct p2pb_reporter p2pb_reporter_csv;
extern const struct p2pb_reporter p2pb_reporter_markdown;
extern const struct p2pb_reporter p2pb_reporter_osu;

/* NULL-terminated table of reporters. */
extern const struct p2pb_reporter *const p2pb_reporters[];

/* Find a reporter by name; NULL if unknown. */
const struct p2pb_reporter *p2pb_reporter_find(const char *name);

/*
 * Format a rate or time with 4 significant digits, never as 0.00 for a
 * positive value (e.g. 0.04123 -> "0.04123", 1234.5 -> "1234.50" with at
 * least 2 decimals when >= 1). Writes into buf (len bytes), returns buf.
 */
char *p2pb_fmt_sig(char *buf, size_t len, double v);

/* A CPU frequency range in MHz, rounded to 1 MHz: "1200-2400 MHz", or
 * "2400 MHz" when both ends round alike. Writes into buf, returns buf. */
char *p2pb_fmt_mhz_range(char *buf, size_t len, double lo_mhz, double hi_mhz);

/*
 * Write s as one CSV text field (RFC 4180: quoted when it holds , " CR or
 * LF). Text starting with '=', '+', '-', '@', TAB or CR, which a spreadsheet
 * would run as a formula, is written quoted with a leading single quote
 * ("'=1+1"), unless it is a plain decimal number ("-3", "-1.5e-3"), which
 * stays as it is (OWASP, "CSV Injection"). Numbers written as numbers
 * (printf) do not come here.
 */
void p2pb_csv_field(FILE *o, const char *s);

/* Write s as markdown text (a table cell or a heading): each '|' preceded by
 * a backslash, '<', '>' and '&' as HTML entities (text from files never
 * becomes markup). */
void p2pb_md_field(FILE *o, const char *s);

/*
 * For reporters that print one table per (kernel, variant, rank count):
 * returns 1 when r starts a new table (and records it as the open one in
 * ctx), 0 when r continues the open table.
 */
int p2pb_report_new_section(struct p2pb_report_ctx *ctx, const struct p2pb_result *r);

/* Count r when it exceeds its bound (struct p2pb_bound); keep the first. */
void p2pb_report_note_bound(struct p2pb_report_ctx *ctx, const struct p2pb_result *r);

/* When rows exceeded their bound: one line, prefix first ("# ", "- "),
 * saying how many, the first, and that it is a likely measurement error. */
void p2pb_report_print_bound(const struct p2pb_report_ctx *ctx, const char *prefix);

/* Message size in short form: 0, 1, ..., 512, 1K, 1.5K, 4M, 1G (powers of 1024). */
char *p2pb_fmt_size(char *buf, size_t len, size_t bytes);

/* The state every size was timed in (run record policy.state and
 * off_cache_bytes; docs/methodology.md, "Warm-up") as one line of text
 * in buf; returns buf, or NULL when the record names no state. */
char *p2pb_fmt_state(char *buf, size_t len, const struct p2pb_run_info *ri);

#endif /* P2PBENCH_REPORT_H */
