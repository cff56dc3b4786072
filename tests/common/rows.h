/* SPDX-License-Identifier: MIT */
/* Synthetic, fixed result rows shared by the golden and read-back tests. */
#ifndef P2PBENCH_TEST_ROWS_H
#define P2PBENCH_TEST_ROWS_H

#include <stdio.h>
#include <string.h>

#include "p2pbench/result.h"

static const struct p2pb_run_info test_run = {
    .version = "0.1.0",
    .git_commit = "0123456789ab",
    .label = "native",
    .start_utc = "2026-11-29T18:00:00Z",
    .mpi_library = "Open MPI v4.1.4",
    .host = "node01",
    .nranks = 3,
    .policy = "adaptive",
    .source = "p2pbench",
};

/* Fill rows[0..6]: PingPong 0/1/4M (2 of 3 ranks; 4M disturbed), Sendrecv
 * 1K ok (shifted) + 2K failed (3 ranks), Exchange skipped, PingPong with a
 * tiny rate. */
static size_t test_rows(struct p2pb_result *rows)
{
    memset(rows, 0, 7 * sizeof *rows);
    static const struct {
        const char *k, *d;
        size_t bytes;
        int active, layout;
        double bf, med, lo, hi, p99, mn, mx, tmin, tmax, tavg;
        size_t n, kps;
        enum p2pb_row_status st;
        const char *note;
    } t[] = {
        {"pingpong", "PingPong", 0, 2, 0, 1, 0.41, 0.40, 0.42, 0.61, 0.39, 0.9, 0.43, 0.43, 0.43,
         40, 250, P2PB_ROW_OK, ""},
        {"pingpong", "PingPong", 1, 2, 0, 1, 0.45, 0.44, 0.46, 0.70, 0.43, 1.1, 0.47, 0.47, 0.47,
         30, 250, P2PB_ROW_OK, ""},
        {"pingpong", "PingPong", 4194304, 2, 0, 1, 400.5, 398.0, 402.25, 450.0, 390.0, 500.0, 405.0,
         405.0, 405.0, 12, 1, P2PB_ROW_OK, ""},
        {"sendrecv", "Sendrecv", 1024, 3, 1, 2, 1.5, 1.4, 1.6, 2.5, 1.3, 3.0, 1.45, 1.62, 1.52, 20,
         80, P2PB_ROW_OK, ""},
        {"sendrecv", "Sendrecv", 2048, 3, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, P2PB_ROW_FAILED,
         "payload check failed"},
        {"exchange", "Exchange", 0, 0, 1, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, P2PB_ROW_SKIPPED,
         "needs at least 4 ranks, have 3"},
        {"pingping", "PingPing", 1, 2, 0, 1, 24.27, 24.0, 24.5, 30.0, 23.9, 31.0, 24.3, 24.4, 24.35,
         5, 1, P2PB_ROW_OK, ""},
    };
    for (size_t i = 0; i < 7; i++) {
        struct p2pb_result *r = &rows[i];
        snprintf(r->kernel, sizeof r->kernel, "%s", t[i].k);
        snprintf(r->display_name, sizeof r->display_name, "%s", t[i].d);
        r->bytes = t[i].bytes;
        r->nranks = 3;
        r->active_ranks = t[i].active;
        r->imb_layout = t[i].layout;
        r->bytes_factor = t[i].bf;
        r->time_scale = strcmp(t[i].k, "pingpong") == 0 ? 0.5 : 1.0;
        r->status = t[i].st;
        r->ci_target_met = -1;
        snprintf(r->note, sizeof r->note, "%s", t[i].note);
        if (t[i].st != P2PB_ROW_OK)
            continue;
        r->samples = t[i].n;
        r->iterations_per_sample = t[i].kps;
        r->warmup = 10;
        r->ci_target_met = i == 2 ? 0 : 1;
        r->t.n = t[i].n;
        r->t.median = t[i].med;
        r->t.ci_valid = t[i].n >= 6;
        r->t.ci95_low = t[i].lo;
        r->t.ci95_high = t[i].hi;
        r->t.p99 = t[i].p99;
        r->t.min = t[i].mn;
        r->t.max = t[i].mx;
        r->t.p25 = t[i].lo;
        r->t.p75 = t[i].hi;
        r->t.mean = (t[i].mn + t[i].mx) / 2;
        r->t.stddev = 0.125;
        r->t.outliers = 1;
        r->t_min_usec = t[i].tmin;
        r->t_max_usec = t[i].tmax;
        r->t_avg_usec = t[i].tavg;
        r->mbytes_per_sec = p2pb_mbytes_per_sec(r->bytes_factor, r->bytes, r->t.median);
        r->mbytes_per_sec_imb = p2pb_mbytes_per_sec(r->bytes_factor, r->bytes, r->t_max_usec);
    }
    /* the 4 MiB row was disturbed (steal) and saw 2400 MHz; Sendrecv 1K shifted */
    rows[2].disturbance = (struct p2pb_disturbance){.valid = 1,
                                                    .steal_pct = 2.5,
                                                    .invol_ctxsw = 3,
                                                    .cpu_lost_pct = 1,
                                                    .worst_rank = 1,
                                                    .cpu_mhz = 2400,
                                                    .mhz_source = P2PB_MHZ_APERF};
    rows[3].shift = (struct p2pb_shift){.tested = 1,
                                        .third = 6,
                                        .first_median = 1.4,
                                        .last_median = 1.6,
                                        .rel_shift = 1.6 / 1.4 - 1,
                                        .p = 0.002,
                                        .flagged = 1};
    return 7;
}

#endif
