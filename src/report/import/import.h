/* SPDX-License-Identifier: MIT */
/*
 * import.h - what the files of the log importer share (not installed; the
 * program calls p2pb_import_logs, below).
 *
 *   import.c   the driver: read each log, offer its lines to the IMB and OSU
 *              readers, else read size/value column tables; write the results
 *              files all-or-nothing through temporary names
 *   imb.c      IMB and PMB: banner, "Benchmarking" sections, their tables
 *   osu.c      OSU: title line, "# Size" tables
 *   columns.c  generic size/value column tables (the seed logs)
 *   table.c    the parsed model (groups, tables, rows), row checks, the unit
 *              of a group's rates, results records
 *   kinds.c    the one map from benchmark names in logs to kernels
 *   text.c     tokens, numbers and message sizes as logs write them
 *
 * Units: PMB and IMB <= 3.2 printed "Mbytes/sec" with 1 MB = 2^20 B; IMB >= 4
 * (4.x, 2017 .. 2021) with 1 MB = 10^6 B; OSU uses 10^6 B. Rates are stored
 * in MB/s with 1 MB = 10^6 B, and the run record says what was assumed.
 */
#ifndef P2PBENCH_REPORT_IMPORT_H
#define P2PBENCH_REPORT_IMPORT_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdio.h>

#include "kernel_facts.h"
#include "p2pbench/result.h"
#include "p2pbench/status.h"

#define P2PB_IMP_MIB_PER_MB (1048576.0 / 1e6) /* 2^20 B expressed in 10^6 B */
#define P2PB_IMP_MAX_RANKS 1000000L           /* process counts and groups above are not read */

/* ---- kinds.c: benchmark names in logs -> kernels ---- */

/*
 * One benchmark as logs name it.
 *  match         IMB: the name after "Benchmarking" (case-insensitive);
 *                OSU: the words of the title ("# OSU MPI Bandwidth Test")
 *  kernel        kernel name written to the results file
 *  display       display name written to the results file
 *  bytes_factor  bytes counted per iteration in units of the message size X:
 *                MB/s = bytes_factor * X / t(usec), 1 MB = 10^6 B (IMB's
 *                definition, as in include/p2pbench/kernel.h)
 *  native        1: kernel is a p2pbench kernel (benchmarks/registry.c); name,
 *                display name and bytes per X then agree with its descriptor
 *                (tests/report/test_import_kinds.c checks it); 2: a one-sided
 *                kernel of issue 23 (rma.c), which a build may lack: name and
 *                display name checked where the descriptor exists; bytes per X
 *                is the log's own definition (IMB Bidir_*: X / t)
 *  is_rate       OSU: the value column is a rate in MB/s, else a time in usec
 *  traits        what the log's benchmark does that its kernel's facts
 *                (kernel_facts.h) do not say: P2PB_IMP_TWO_RANKS, the
 *                benchmark keeps two ranks busy whatever the job size (IMB
 *                PingPong and PingPing, where Uniband and Biband use every
 *                rank); P2PB_IMP_SEED_PMB, a size/value column table titled
 *                with it comes from PMB (columns.c: 1 MB = 2^20 B assumed)
 */
#define P2PB_IMP_TWO_RANKS 0x1u
#define P2PB_IMP_SEED_PMB 0x2u
struct p2pb_imp_kind {
    const char *match;
    const char *kernel;
    const char *display;
    double bytes_factor;
    int native;
    int is_rate;
    unsigned traits;
};

/* IMB / PMB benchmarks imported (PingPong, PingPing, Sendrecv, Exchange). */
extern const struct p2pb_imp_kind p2pb_imp_imb_kinds[];
extern const size_t p2pb_imp_n_imb_kinds;
/* OSU point-to-point programs, by the words of their title (kinds.c). */
extern const struct p2pb_imp_kind p2pb_imp_osu_kinds[];
extern const size_t p2pb_imp_n_osu_kinds;
/* The memcpy tables of the seed logs (columns.c); match unused. */
extern const struct p2pb_imp_kind p2pb_imp_seed_memcpy;

/* p2pbench kernels whose names only its own --format imb output prints. */
extern const struct p2pb_imp_kind p2pb_imp_own_kinds[];
extern const size_t p2pb_imp_n_own_kinds;

/* IMB kind named name, ignoring case; NULL if none. own: p2pbench's own output
 * ("Multi-PingPong" is kernel multi-pingpong), else a "Multi-" prefix is
 * IMB's -multi and ignored. */
const struct p2pb_imp_kind *p2pb_imp_imb_kind(const char *name, int own);
/* First IMB kind whose name appears anywhere in line s (case-insensitive); NULL if none. */
const struct p2pb_imp_kind *p2pb_imp_imb_kind_in_line(const char *s);
/* bytes_factor of the IMB kind with kernel name kernel; 1.0 if none. */
double p2pb_imp_imb_bytes_factor(const char *kernel);
/* OSU kind whose title words ("Bi-Directional Bandwidth") are words, ignoring
 * case; NULL if none (not imported). */
const struct p2pb_imp_kind *p2pb_imp_osu_kind_named(const char *words);
/* Kind of the p2pbench kernel named kernel ("pingpong", "multi-uniband",
 * "put_bw") among the IMB, own and one-sided kinds; NULL if none. */
const struct p2pb_imp_kind *p2pb_imp_native_kind(const char *kernel);

/* ---- rma.c: one-sided tables (IMB-EXT, IMB-RMA, OSU) ---- */

/* IMB's "MODE:" line of a one-sided section. */
enum p2pb_imp_rma_mode { P2PB_IMP_MODE_NONE, P2PB_IMP_AGGREGATE, P2PB_IMP_NON_AGGREGATE };

/* OSU one-sided programs imported, match "MODEL WORDS" ("MPI_Put Latency"). */
extern const struct p2pb_imp_kind p2pb_imp_osu_rma_kinds[];
extern const size_t p2pb_imp_n_osu_rma_kinds;
/* 1 if name ("Unidir_put", "Multi-Bidir_Get") is an IMB one-sided benchmark
 * some MODE of which is imported, ignoring case. */
int p2pb_imp_imb_rma_name(const char *name);
/* Kind of IMB one-sided section name in mode (enum p2pb_imp_rma_mode); NULL:
 * not imported (Bidir_* NON-AGGREGATE, no MODE line). */
const struct p2pb_imp_kind *p2pb_imp_imb_rma_kind(const char *name, int mode);
/* Kind of the OSU title model ("MPI_Put", "MPI_Put-CUDA"; OSU 3.x: "One")
 * and words ("Latency"; OSU 3.x: "Sided MPI_Put latency"); NULL if none. */
const struct p2pb_imp_kind *p2pb_imp_rma_kind_named(const char *model, const char *words);
/* One-sided kind with kernel name (by_display 0) or display name, ignoring
 * case (by_display 1) name; NULL if none. */
const struct p2pb_imp_kind *p2pb_imp_rma_native(const char *name, int by_display);
/* The mode of an IMB line s ("#    MODE: NON-AGGREGATE"); P2PB_IMP_MODE_NONE
 * when s is not a MODE line. */
int p2pb_imp_rma_mode(const char *s);
/* Bytes per X that the logged rate of a table of IMB kind k counts, when
 * not k's bytes_factor (IMB Bidir_*: X / t, one direction, where p2pbench
 * and OSU count both, 2 X / t); 0 otherwise. */
double p2pb_imp_rma_logged_bf(const struct p2pb_imp_kind *k);
/* "AGGREGATE", "NON-AGGREGATE", "no MODE line". */
const char *p2pb_imp_rma_mode_name(int mode);
/*
 * OSU line s "# Window creation: MPI_Win_allocate" sets window (len bytes) to
 * create, allocate or dynamic; "# Synchronization: MPI_Win_flush" sets sync
 * to flush, flush_local, lock, lock_all, pscw or fence (OSU's -w and -s; the
 * words of p2pbench's --rma-window and --rma-sync where they exist); "" for
 * a call not known. Returns 1 when s is one of the two lines, else 0.
 */
int p2pb_imp_rma_line(const char *s, char *window, char *sync, size_t len);
struct p2pb_imp_group;
/* A table of g measured with window and sync ("" not logged): g's policy
 * words, "mixed" when tables of the log differ. */
void p2pb_imp_rma_policy(struct p2pb_imp_group *g, const char *window, const char *sync);

/* ---- text.c: tokens and numbers ---- */

/* 1 if needle occurs in hay, ignoring ASCII case. */
int p2pb_imp_ci_contains(const char *hay, const char *needle);
/* s past leading blanks and tabs. */
const char *p2pb_imp_skip_ws(const char *s);
/* Remove trailing white space from s in place; returns the new length. */
size_t p2pb_imp_rtrim(char *s);
/*
 * Split s (copied into buf, buflen bytes) into at most max tokens separated by
 * blanks, tabs or CR; tok[i] point into buf. Returns the token count.
 */
size_t p2pb_imp_tokenize(const char *s, char *buf, size_t buflen, char **tok, size_t max);
/* 1 and *v if s is a finite plain decimal number as a whole, else 0. */
int p2pb_imp_parse_num(const char *s, double *v);
/*
 * 1 and *out (bytes) if s is a message size: digits with an optional K, M or
 * G suffix (powers of 1024, optional B), at most 2^50 B; else 0.
 */
int p2pb_imp_parse_size(const char *s, size_t *out);

/* ---- table.c: the parsed model ---- */

/* One data row of a table, as logged. */
struct p2pb_imp_row {
    size_t bytes;            /* message size X, bytes */
    char variant[32];        /* "", "multi", "group N", ... */
    double reps;             /* repetitions; NAN if not logged */
    double t;                /* usec; NAN if none */
    double tmin, tmax, tavg; /* usec; NAN if not logged */
    double mbps;             /* as logged (unit of the log), NAN if none */
    double msgs;             /* messages/s as logged (IMB Msg/sec, OSU Messages/s); NAN if none */
    int t_derived;           /* 1: t = bytes_factor X / rate (OSU bandwidth); 2: t = 1 / msg/s */
    char note[96];           /* recorded on the result ("buffers D D, device API CUDA") */
};

/* One table of one kernel; rows[nrows] (cap allocated). */
/* Blocks of MPI-library lines inside one table whose first lines are kept. */
#define P2PB_IMP_MPI_AT 6

/* The MPI stack's lines found inside a table (mpilines.c). */
struct p2pb_imp_mpi {
    size_t lines;               /* lines skipped (blank lines inside a block too) */
    size_t nblocks;             /* runs of such lines */
    size_t at[P2PB_IMP_MPI_AT]; /* first line (1-based) of the first blocks */
    char libs[80];              /* "UCX, Open MPI" */
    size_t ended;               /* the table stopped at such lines (no row of it after
                                 * them): the first one's line (1-based); 0 no */
    char end_libs[80];          /* whose those were */
    int early;                  /* p2pb_imp_mpi_note said the table ends early */
};

struct p2pb_imp_table {
    char kernel[32];
    char display[32];
    char variant[32];        /* default variant of the rows */
    double bytes_factor;     /* as struct p2pb_imp_kind */
    unsigned traits;         /* as struct p2pb_imp_kind */
    int layout;              /* enum p2pb_imb_layout */
    int nranks, active;      /* 0: not logged */
    long line;               /* line of the column header (1-based) */
    long end_line;           /* first line after the table (1-based) */
    int infer_factor;        /* bytes_factor unknown (a window): taken from the rows */
    int rate_is_sum;         /* the rate column is a sum over pairs or ranks (p2pbench's
                              * _aggregate tables), not bytes_factor x X / t: kept as logged */
    double fixed_bytes;      /* memcpy: bytes per iteration whatever X; 0 otherwise */
    double t_scale;          /* the logged times x this are the rows' (0: 1) */
    struct p2pb_imp_mpi mpi; /* MPI-library lines inside the table */
    double logged_bf;        /* bytes per X the logged rate counts when not bytes_factor
                              * (IMB Bidir_*: 1, one direction, stored as 2): the rate
                              * is stored x bytes_factor / logged_bf; 0 otherwise */
    struct p2pb_imp_row *rows;
    size_t nrows, cap;
};

/* One output results file: tabs[ntabs]. */
struct p2pb_imp_group {
    char label[64];
    char source[64]; /* "imb-4.1", "pmb", "osu-5.6.2", "table" */
    int mb_pow2;     /* 1: rates logged with 1 MB = 2^20 B; 0: 10^6 B; -1 unknown */
    char units[200]; /* the assumption recorded in the run record */
    struct p2pb_imp_table *tabs;
    size_t ntabs;
    cJSON *header; /* import_header facts (owned) */
    cJSON *notes;  /* array of strings (owned) */
    int nranks;
    char rma_window[16]; /* one-sided: policy.rma_window ("allocate", "mixed"); "" none */
    char rma_sync[16];   /* one-sided: policy.rma_sync ("flush", "pscw", "mixed"); "" none */
};

/* One input log: lines[nlines] point into buf; groups[ngroups] found in it. */
struct p2pb_imp_log {
    const char *path;
    char **lines;
    size_t nlines;
    char *buf;
    struct p2pb_imp_group *groups;
    size_t ngroups;
    FILE *msg;         /* notes and warnings, "path: text" lines; may be NULL */
    size_t max_bytes;  /* a larger log is refused (--max-file-size; 0: no limit) */
    char nothing[600]; /* tables found but all skipped: what was found ("" otherwise) */
};

/*
 * A note on lg->msg ("path: text") and, when g is not NULL, in g's
 * import_notes. At most 511 characters.
 */
void p2pb_imp_note(struct p2pb_imp_log *lg, struct p2pb_imp_group *g, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/*
 * In place: make s fit to name a file and to be a label (it comes from a
 * log's name or a column header): C0 controls, DEL and '/' become '_', then
 * C1 controls, bidirectional overrides and bytes that are not UTF-8 become
 * '?' (p2pb_text_sanitize, one per byte), as p2pbench refuses them in --label.
 * The length of s does not change.
 */
void p2pb_imp_name_clean(char *s);
/* Append a group labelled label (cleaned: p2pb_imp_name_clean) to lg; NULL
 * when out of memory. */
struct p2pb_imp_group *p2pb_imp_group_new(struct p2pb_imp_log *lg, const char *label);
/* Append an empty table to g: kernel, display name and bytes_factor from
 * kind k, or bytes_factor 1 and no names when k is NULL. NULL when out of
 * memory. */
struct p2pb_imp_table *p2pb_imp_table_new(struct p2pb_imp_group *g, const struct p2pb_imp_kind *k);
/* Set r to an empty row of variant: numbers NAN, bytes 0. */
void p2pb_imp_row_init(struct p2pb_imp_row *r, const char *variant);
/* Append an empty row of t's variant to t; NULL when out of memory. */
struct p2pb_imp_row *p2pb_imp_row_new(struct p2pb_imp_table *t);
/* Drop t, the last table of g, if it has no rows. */
void p2pb_imp_table_drop_empty(struct p2pb_imp_group *g, struct p2pb_imp_table *t);
/* Free every group of lg. */
void p2pb_imp_groups_free(struct p2pb_imp_log *lg);

/* Name the "run N" variant of t when g already holds a table of its kernel. */
void p2pb_imp_repeat_variant(struct p2pb_imp_group *g, struct p2pb_imp_table *t);
/*
 * Warn when table t ended early: partial (an incomplete row at line_no) or
 * below maxbytes, the largest size the log announced (-1: none).
 */
void p2pb_imp_cut_short(struct p2pb_imp_log *lg, struct p2pb_imp_group *g,
                        const struct p2pb_imp_table *t, long maxbytes, int partial, size_t line_no);
/*
 * The results-file reader's rules for row r that would follow t's rows: sizes
 * ascend (per variant), values finite and >= 0 (msg/s > 0), a finite time t
 * (logged or derived), repetitions >= 1,
 * t_min <= t_avg <= t_max, and a logged rate that agrees with
 * bytes_factor * X / t for 1 MB = 10^6 B or 2^20 B (within 25%; rows of at
 * least 1 KiB with a rate of at least 1 MB/s, where both have digits enough).
 * Returns 1 when r may follow, else 0 with the reason in why (whylen bytes).
 */
int p2pb_imp_row_ok(const struct p2pb_imp_table *t, const struct p2pb_imp_row *r, char *why,
                    size_t whylen);
/* t->bytes_factor (window kernels) or t->fixed_bytes (memcpy) from its rows:
 * the median of rate x t / X, resp. rate x t (a power of 2 when within 2%). */
void p2pb_imp_infer_factor(struct p2pb_imp_table *t);
/* Warning: t ended at line line_no (1-based) on a row that breaks the rules (why). */
void p2pb_imp_bad_row(struct p2pb_imp_log *lg, struct p2pb_imp_group *g,
                      const struct p2pb_imp_table *t, size_t line_no, const char *why);
/*
 * Row r of line line_no (1-based) checked by p2pb_imp_row_ok and appended to
 * t: returns 1 when appended; 0 when it breaks the rules (t ends there, with
 * the p2pb_imp_bad_row warning); -1 when out of memory.
 */
int p2pb_imp_row_append(struct p2pb_imp_log *lg, struct p2pb_imp_group *g, struct p2pb_imp_table *t,
                        const struct p2pb_imp_row *r, size_t line_no);

/*
 * Decide the unit of g's logged rates (g->mb_pow2, g->units): from the
 * version, checked against the rows (bytes_factor * X / (t * rate) is 1 for
 * 10^6 B and 1.048576 for 2^20 B, within 2%). Returns the factor that turns
 * a logged rate into MB/s with 1 MB = 10^6 B: 1 or 1.048576.
 */
double p2pb_imp_unit_factor(struct p2pb_imp_log *lg, struct p2pb_imp_group *g);
/* The run record of group g (nranks: 0 when not logged); NULL when out of memory. */
cJSON *p2pb_imp_run_record(const struct p2pb_imp_log *lg, const struct p2pb_imp_group *g,
                           int nranks);
/*
 * Result record of row r of table t: rates times uf (p2pb_imp_unit_factor),
 * nranks where the table does not say.
 */
void p2pb_imp_fill_result(const struct p2pb_imp_table *t, const struct p2pb_imp_row *r, double uf,
                          int nranks, struct p2pb_result *o);

/* ---- the IMB / OSU scan of a log (import.c drives; imb.c, osu.c read) ---- */

/* Tables found but not imported, by name: name[i] seen count[i] times. */
struct p2pb_imp_skips {
    char name[24][112];
    int count[24];
    size_t n;     /* names kept */
    size_t total; /* tables skipped */
};

/* What the lines of the current OSU program said (osu.c). */
struct p2pb_imp_osu_section {
    int open;                       /* an OSU title was seen and no table yet */
    const struct p2pb_imp_kind *k;  /* NULL: the program is not imported */
    char name[112];                 /* skipped: "OSU MPI_Accumulate latency (one-sided)" */
    char device[16];                /* device API from the title ("CUDA"); "" host build */
    char version[32];               /* "5.6.2"; "" not logged */
    char title[160];                /* the title line without "#" */
    char buffers[8];                /* "H H", "D D", "M D" ...; "" not logged */
    int pairs, window;              /* osu_mbw_mr "[ pairs: N ] [ window size: W ]"; 0 none */
    int send_threads, recv_threads; /* osu_latency_mt; 0 none (logged before the title) */
    int rate;                       /* 1: the value column is MB/s, else usec */
    char rma_window[16];            /* one-sided: "allocate" ... (rma.c); "" not logged */
    char rma_sync[16];              /* one-sided: "flush" ... (rma.c); "" not logged */
    /* p2pbench's own -f osu output ("# p2pbench V: KERNEL VARIANT in the layout of
     * osu_bw", "# p2pbench: A of N ranks, bytes per iteration = F x Size") */
    int own;                    /* 1: the section is p2pbench's; k is its kernel's kind */
    char own_variant[32];       /* the table's variant ("0->1", "pair 0-1", "") */
    int own_active, own_nranks; /* ranks; 0: not logged */
    double own_bf;              /* bytes per iteration / X; 0: not logged */
    double own_fixed;           /* memcpy: bytes per iteration at every X; 0: none */
};

/* Most groups of a -multi table whose ranks are kept (own output). */
#define P2PB_IMP_OWN_GROUPS 4096
/* The largest window W of a _winW suffix: the largest --window p2pbench
 * accepts (src/bench/options.c; tests/report/test_import_kinds.c checks it). */
#define P2PB_IMP_MAX_WINDOW 65536

/*
 * p2pbench's own --format imb tables (docs/kernels.md, "IMB layout"): the
 * suffixes of the section's name ("Multi-Uniband_win16_reverse_aggregate")
 * and the ranks of the groups its header lists ("# Group  0:     0    1").
 */
struct p2pb_imp_own {
    int reverse;                      /* _reverse: the higher rank of each pair sends */
    int aggregate;                    /* _aggregate: the sum over pairs or ranks */
    int window;                       /* _winW: W; 0: IMB's window, 64 */
    int ngroups;                      /* group lines read */
    char rma[32];                     /* one-sided: "sync=S win=W" of the section's line
                                       * "# p2pbench: sync=S win=W [window=N] ..."; "" none */
    char rma_sync[16], rma_win[16];   /* its S and W */
    int rma_window;                   /* its N (transfers per iteration); 0: not logged */
    int rank[P2PB_IMP_OWN_GROUPS][2]; /* ranks of group g; -1: none */
    char bad[240]; /* "": the name and group lines are well formed; else what is wrong
                    * ("line 84: section \"Uniband_win0\": window '0' is not ..."):
                    * the section's table is skipped with a warning */
};

/*
 * State of one pass over a log's lines looking for IMB, PMB and OSU tables.
 * A line index i is 0-based; messages say line i + 1.
 */
struct p2pb_imp_scan {
    struct p2pb_imp_log *lg;
    struct p2pb_imp_group *g;    /* the one group of an IMB/OSU log */
    const char *bench;           /* NULL, or benchbuf: the benchmark of the section */
    char benchbuf[64];           /* IMB "Benchmarking X" name, or an OSU kernel name */
    int nprocs;                  /* IMB "#processes = N" of the section (0: none) */
    int waiting;                 /* IMB "additional processes waiting" */
    int multi;                   /* IMB -multi: number of groups (0: not -multi) */
    int rma;                     /* the section is an IMB one-sided benchmark (rma.c) */
    int rma_mode;                /* IMB one-sided "MODE:" of the section (enum p2pb_imp_rma_mode) */
    long maxbytes;               /* IMB "Maximum message length in bytes"; -1: none */
    size_t last_end;             /* index of the line after the previous table */
    int own;                     /* p2pbench's own --format imb output (its banner) */
    char section_variant[32];    /* own output before 0.2: "0->1" after "Benchmarking Uniband" */
    struct p2pb_imp_own own_tab; /* own output: what the section's name says (imb_own.c) */
    struct p2pb_imp_skips skips; /* tables not imported */
    struct p2pb_imp_osu_section osu;
};

/* Count one table of name as skipped. */
void p2pb_imp_skip(struct p2pb_imp_scan *sc, const char *name);
/* The skipped tables as "Uniband x6, Allreduce" into buf (len bytes). */
void p2pb_imp_skips_text(const struct p2pb_imp_skips *s, char *buf, size_t len);

/* imb.c: a '#' line (s: line i past blanks): banner, facts, calling
 * sequence, "Benchmarking" section, process counts. */
void p2pb_imp_imb_comment(struct p2pb_imp_scan *sc, size_t i, const char *s);
/*
 * imb.c: if line *i is an IMB/PMB column header, read its table (or skip it
 * with a note: a benchmark not in kinds.c, no time or rate column) and leave
 * *i at its last line. Returns P2PB_OK, P2PB_EFORMAT (sizes not ascending),
 * P2PB_ENOMEM.
 */
enum p2pb_status p2pb_imp_imb_table(struct p2pb_imp_scan *sc, size_t *i, char *err, size_t errlen);
/* imb_own.c: own output: the name after "Benchmarking " (name, len
 * characters, e.g. "Uniband_reverse") at line line_no (1-based) into its
 * kind's name (base, baselen bytes: "Uniband") and sc->own_tab. A suffix
 * p2pbench does not print (unknown, repeated, a window not 1..
 * P2PB_IMP_MAX_WINDOW: "_win0", "_winabc") sets sc->own_tab.bad. */
void p2pb_imp_own_section(struct p2pb_imp_scan *sc, const char *name, size_t len, char *base,
                          size_t baselen, size_t line_no);
/* imb_own.c: own output: a '#' line s at line line_no (1-based); a group
 * line ("# Group  0:     0    1") is kept; a malformed one (group not the
 * next of 0, 1, ..., ranks not 0..INT_MAX-1, extra text) sets
 * sc->own_tab.bad. */
void p2pb_imp_own_comment(struct p2pb_imp_scan *sc, const char *s, size_t line_no);
/* imb_own.c: own output: the default variant and the bytes per X of a new
 * table t; group: it has a Group column; rate_only: Mbytes/sec and Msg/sec
 * without a time (Uniband, Biband: t from Msg/sec and the window). */
/*
 * Lines of the MPI stack (mpilines.c): the library whose line s is by its
 * form ("UCX", "libfabric", "PMIx", "Open MPI", "Intel MPI", "MPICH",
 * "Slurm"), or NULL for any other line (a row, the benchmark's own text).
 */
const char *p2pb_imp_mpi_line(const char *s);
/* The block of such lines starting at line j (0-based; blank lines between
 * them and an Open MPI or Hydra help banner between its rules included):
 * its lines and libraries into blk (zeroed first), and the index of the
 * first line after it; j when line j starts none. */
size_t p2pb_imp_mpi_block(const struct p2pb_imp_log *lg, size_t j, struct p2pb_imp_mpi *blk);
/* blk, found at line j (0-based), into the table's m: inside the table (a
 * row of it follows: inside 1) or where it stopped (inside 0). */
void p2pb_imp_mpi_take(struct p2pb_imp_mpi *m, const struct p2pb_imp_mpi *blk, size_t j,
                       int inside);
/* One warning per table with such lines: how many, where, whose, and when
 * the table stopped at them below maxbytes (its last size; > 0 known),
 * "table ends early at 2M ... cut short". Returns 1 when it said that. */
int p2pb_imp_mpi_note(struct p2pb_imp_log *lg, struct p2pb_imp_group *g,
                      const struct p2pb_imp_table *t, long maxbytes);

/* A one-sided table of p2pbench's own output (sc->rma): the variant and
 * policy of its "# p2pbench: sync=S win=W window=N" line, and the native
 * rows' definition for the window kernels (AGGREGATE): t x N (one iteration,
 * the logged t is one transfer's), bytes_factor x N, as p2pbench's rows and
 * OSU's imports have them; N is 64 (IMB's) when the line has no window=. */
void p2pb_imp_own_rma(struct p2pb_imp_scan *sc, struct p2pb_imp_table *t);
void p2pb_imp_own_table(const struct p2pb_imp_scan *sc, struct p2pb_imp_table *t, int group,
                        int rate_only);
/* imb_own.c: own output: row r of t as the kernel wrote it: the group's
 * variant ("pair 2-3", "3->2", "rank 1"), t of one iteration from Msg/sec.
 * Returns 1; 0 with the reason in why (whylen bytes) when r's Group is not
 * one the header lists. */
int p2pb_imp_own_row(const struct p2pb_imp_scan *sc, const struct p2pb_imp_table *t,
                     struct p2pb_imp_row *r, char *why, size_t whylen);
/* imb.c: at the end of the log: the note on sections skipped. */
void p2pb_imp_imb_finish(struct p2pb_imp_scan *sc);
/* imb.c: g's source when no banner named it: "pmb" if the log mentions
 * Pallas or PMB (then 1 MB = 2^20 B), else "imb-unknown". */
void p2pb_imp_imb_default_source(const struct p2pb_imp_log *lg, struct p2pb_imp_group *g);

/* osu.c: a '#' line s: an OSU title (source, version, program: a title that
 * names no imported program skips its tables), buffers, pairs, threads. */
void p2pb_imp_osu_comment(struct p2pb_imp_scan *sc, const char *s);
/*
 * osu.c: *taken = 1 if line *i is an OSU column header ("# Size" in a section
 * an OSU title opened); then its table is read (if the program is in
 * kinds.c) and *i left at its last line. Returns P2PB_OK or P2PB_ENOMEM.
 */
enum p2pb_status p2pb_imp_osu_table(struct p2pb_imp_scan *sc, size_t *i, int *taken, char *err,
                                    size_t errlen);

/* ---- columns.c: size/value column tables ---- */

/*
 * Read lg's size/value column tables (seed logs), one group per value column.
 * No group when there is none. Returns P2PB_OK or P2PB_ENOMEM.
 */
enum p2pb_status p2pb_imp_columns(struct p2pb_imp_log *lg, char *err, size_t errlen);

/* ---- import.c: the command ---- */

/*
 * Import text logs (IMB/PMB/OSU, two-column comparison tables) into results
 * files in outdir, one per table group; a log of more than max_bytes bytes
 * (--max-file-size) is refused. Messages go to msg (notes, warnings).
 * A log named twice is read once. Nothing is written if any input fails, if
 * no log has an importable table, or if an output file exists and force is 0;
 * err then holds "file:line: reason". A log whose tables were all skipped
 * gets a warning when other logs import. Returns P2PB_OK, P2PB_EIO,
 * P2PB_EFORMAT, P2PB_ENOMEM.
 */
enum p2pb_status p2pb_import_logs(char *const *paths, size_t npaths, const char *outdir, int force,
                                  size_t max_bytes, FILE *msg, char *err, size_t errlen);

#endif /* P2PBENCH_REPORT_IMPORT_H */
