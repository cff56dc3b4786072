/* SPDX-License-Identifier: MIT */
/*
 * imb_table.c - the pieces of an IMB-MPI1 table (output/imb.h): the rule
 * line, the column header and one row's values, in 13-character columns
 * with 2 decimals. The single tables (imb.c) and the held -multi tables
 * (imb_multi.c) both print with them; neither calls the other back.
 */
#include <stdio.h>

#include "output/imb.h"
#include "output/output.h"

void p2pb_imb_rule(FILE *o, int ncols)
{
    fputc('#', o);
    for (int i = 1; i < 13 * ncols; i++)
        fputc('-', o);
    fputc('\n', o);
}

int p2pb_imb_ncols(const struct p2pb_imb_tab *t)
{
    return (t->cols == P2PB_IMB_COLS_TMMA ? 6 : 4) + (t->group ? 1 : 0);
}

void p2pb_imb_col_header(FILE *o, enum p2pb_imb_cols cols, int group)
{
    if (group)
        fprintf(o, "%13s", "Group");
    if (cols == P2PB_IMB_COLS_TMMA)
        fprintf(o, "%13s%13s%13s%13s%13s%13s\n", "#bytes", "#repetitions", "t_min[usec]",
                "t_max[usec]", "t_avg[usec]", "Mbytes/sec");
    else if (cols == P2PB_IMB_COLS_RATE)
        fprintf(o, "%13s%13s%13s%13s\n", "#bytes", "#repetitions", "Mbytes/sec", "Msg/sec");
    else
        fprintf(o, "%13s%13s%13s%13s\n", "#bytes", "#repetitions", "t[usec]", "Mbytes/sec");
}

void p2pb_imb_values(FILE *o, const struct p2pb_imb_tab *t, const struct p2pb_result *r)
{
    size_t reps = p2pb_result_repetitions(r);
    if (t->cols == P2PB_IMB_COLS_TMMA) {
        fprintf(o, "%13zu%13zu%13.2f%13.2f%13.2f%13.2f\n", r->bytes, reps, r->t_min_usec,
                r->t_max_usec, r->t_avg_usec, r->mbytes_per_sec_imb);
    } else if (t->cols == P2PB_IMB_COLS_RATE) {
        /* IMB: messages of one iteration / t_max; MB/s = Msg/sec x X / 10^6 */
        double msgs = r->t_max_usec > 0 ? t->msgs_per_iter * 1e6 / r->t_max_usec : 0;
        fprintf(o, "%13zu%13zu%13.2f%13.0f\n", r->bytes, reps, r->mbytes_per_sec_imb, msgs);
    } else if (t->mode) { /* IMB-EXT: per transfer of one origin (imb_ext.c) */
        fprintf(o, "%13zu%13zu%13.2f%13.2f\n", r->bytes, reps, r->t_max_usec / t->transfers,
                r->mbytes_per_sec_imb / t->rate_div);
    } else {
        fprintf(o, "%13zu%13zu%13.2f%13.2f\n", r->bytes, reps, r->t_max_usec,
                r->mbytes_per_sec_imb);
    }
}
