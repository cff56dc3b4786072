/* SPDX-License-Identifier: MIT */
/*
 * imb.h - the IMB-MPI1 compatible writer's parts (imb.c: banner, names,
 * plain tables; imb_multi.c: IMB -multi 1 tables with a Group column).
 * The layout and every name are described in docs/kernels.md, "IMB layout".
 */
#ifndef P2PBENCH_OUTPUT_IMB_H
#define P2PBENCH_OUTPUT_IMB_H

#include <stdio.h>

#include "output/output.h"

/* IMB's window: MAX_WIN_SIZE messages per iteration of Uniband and Biband. */
#define P2PB_IMB_WINDOW 64

/* Column sets of an IMB table. */
enum p2pb_imb_cols {
    P2PB_IMB_COLS_T,    /* #bytes #repetitions t[usec] Mbytes/sec */
    P2PB_IMB_COLS_TMMA, /* #bytes #repetitions t_min[usec] t_max[usec] t_avg[usec] Mbytes/sec */
    P2PB_IMB_COLS_RATE  /* #bytes #repetitions Mbytes/sec Msg/sec (Uniband, Biband) */
};

/* How one result row is printed: the table it belongs to. */
struct p2pb_imb_tab {
    char name[64]; /* after "# Benchmarking ": "Uniband", "Uniband_reverse", ... */
    enum p2pb_imb_cols cols;
    int group;            /* 1: a -multi 1 table, one row per group and size */
    int group_size;       /* ranks per group: 2 (pairs) or 1 (memcpy on every rank) */
    double msgs_per_iter; /* COLS_RATE: messages per iteration (W, or 2 W for Biband) */
    /* IMB-EXT tables (imb_ext.c), else NULL / 0: */
    const char *mode; /* "AGGREGATE" or "NON-AGGREGATE": the "#    MODE:" line */
    double transfers; /* transfers per origin per iteration: t[usec] = t_max / this */
    double rate_div;  /* origins per iteration: Mbytes/sec = this row's / rate_div */
};

/* The table of row r (docs/kernels.md, "IMB layout"). foreign: r was imported
 * from another tool's log (IMB's Uniband imports as one message per
 * iteration: no window suffix; "np N" rows say N in "#processes"). */
void p2pb_imb_describe(const struct p2pb_result *r, int foreign, struct p2pb_imb_tab *t);

/* imb_ext.c: 1 and t filled when row r is of a one-sided kernel with an
 * IMB-EXT table (Unidir_Put, Unidir_Get, Bidir_Put, Bidir_Get, with their
 * mode); else 0 and t untouched. */
int p2pb_imb_ext_describe(const struct p2pb_result *r, struct p2pb_imb_tab *t);

/* imb_table.c: a rule as wide as ncols 13-character columns ("#---...",
 * 13 ncols characters). */
void p2pb_imb_rule(FILE *o, int ncols);

/* The column header of cols, with a leading Group column when group. */
void p2pb_imb_col_header(FILE *o, enum p2pb_imb_cols cols, int group);

/* The numbers of ok row r in the columns of t (without the Group column). */
void p2pb_imb_values(FILE *o, const struct p2pb_imb_tab *t, const struct p2pb_result *r);

/* Number of columns of a table t (Group included). */
int p2pb_imb_ncols(const struct p2pb_imb_tab *t);

/*
 * imb_multi.c: hold row r of a group table t (copied; printed by
 * p2pb_imb_flush). Returns 0, or -1 when out of memory (then the row is
 * printed at once as a comment line saying so).
 */
int p2pb_imb_hold(struct p2pb_report_ctx *ctx, const struct p2pb_imb_tab *t,
                  const struct p2pb_result *r);
/* imb_multi.c: print the held group table, if any, and release it. */
void p2pb_imb_flush(struct p2pb_report_ctx *ctx);
/* imb_multi.c: name of the held group table; NULL when none is held. */
const char *p2pb_imb_held_name(const struct p2pb_report_ctx *ctx);

#endif /* P2PBENCH_OUTPUT_IMB_H */
