/* SPDX-License-Identifier: MIT */
/*
 * Checks a results file written by p2pbench against the definitions:
 *   verify_results FILE NRANKS complete|incomplete [MIN_ROWS]
 * Every row reads back; ok rows have min <= ci_low <= median <= ci_high <=
 * max, repetitions = samples x k, MB/s = bytes_factor x bytes / median,
 * the IMB rate from t_max, the right number of active ranks; pairwise kernels
 * with fewer than 2 ranks are skipped rows. The end record is present and
 * "complete", or absent for "incomplete".
 */
#include <stdlib.h>

#include "../lib/check.h"
#include "harness.h" /* p2pb_round_interval */
#include "p2pbench/result.h"

/* Rounds (docs/methodology.md): one median per round within the samples'
 * range; the interval holds median x e^(+-h) of p2pb_round_interval. */
static void check_rounds(const struct p2pb_result *r)
{
    const struct p2pb_stats *t = &r->t;
    double lo = 0, hi = 0;
    CHECK(r->rounds <= r->samples);
    for (size_t j = 0; j < r->rounds; j++)
        CHECK(t->min <= r->round_medians[j] && r->round_medians[j] <= t->max);
    CHECK(p2pb_round_interval(t->median, 0, 0, 0, r->round_medians, r->rounds, &lo, &hi) == 1);
    CHECK(t->ci95_low > 0 && t->ci95_low <= lo * (1 + 1e-9) && hi <= t->ci95_high * (1 + 1e-9));
    CHECK(t->ci95_low <= t->median && t->median <= t->ci95_high);
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: %s FILE NRANKS complete|incomplete [MIN_ROWS]\n", argv[0]);
        return 2;
    }
    int nranks = atoi(argv[2]);
    int want_complete = strcmp(argv[3], "complete") == 0;
    size_t min_rows = argc > 4 ? (size_t)atol(argv[4]) : 1;
    struct p2pb_results_data d;
    char err[512];
    enum p2pb_status st = p2pb_results_read(argv[1], &d, err, sizeof err);
    if (st != P2PB_OK) {
        fprintf(stderr, "%s\n", err);
        CHECK(st == P2PB_OK);
        return CHECK_DONE();
    }
    CHECK(d.complete == want_complete);
    if (!want_complete)
        CHECK(strcmp(d.end_status, "complete") != 0);
    CHECK(d.info.nranks == nranks);
    CHECK(d.nrows >= min_rows);
    for (size_t i = 0; i < d.nrows; i++) {
        const struct p2pb_result *r = &d.rows[i];
        CHECK(r->nranks == nranks);
        int pair = strcmp(r->kernel, "pingpong") == 0 || strcmp(r->kernel, "pingping") == 0;
        if (nranks < 2) {
            CHECK(r->status == P2PB_ROW_SKIPPED);
            continue;
        }
        CHECK(r->status == P2PB_ROW_OK);
        if (r->status != P2PB_ROW_OK)
            continue;
        if (pair)
            CHECK(r->active_ranks == 2);
        else if (strcmp(r->kernel, "sendrecv") == 0 || strcmp(r->kernel, "exchange") == 0)
            CHECK(r->active_ranks == nranks);
        const struct p2pb_stats *t = &r->t;
        CHECK(t->min > 0);
        CHECK(t->min <= t->p25 && t->p25 <= t->median && t->median <= t->p75 && t->p75 <= t->p99 &&
              t->p99 <= t->max);
        if (t->ci_valid && r->rounds < 2)
            CHECK(t->min <= t->ci95_low && t->ci95_low <= t->median && t->median <= t->ci95_high &&
                  t->ci95_high <= t->max);
        else if (t->ci_valid)
            check_rounds(r);
        else
            CHECK(r->samples < 6);
        CHECK(r->samples >= 1 && r->iterations_per_sample >= 1);
        double want = r->bytes ? r->bytes_factor * (double)r->bytes / t->median : 0;
        CHECK_NEAR(r->mbytes_per_sec, want, 1e-9 * (want + 1));
        double want_imb = r->bytes ? r->bytes_factor * (double)r->bytes / r->t_max_usec : 0;
        CHECK_NEAR(r->mbytes_per_sec_imb, want_imb, 1e-9 * (want_imb + 1));
        CHECK(r->t_min_usec <= r->t_avg_usec + 1e-12 && r->t_avg_usec <= r->t_max_usec + 1e-12);
    }
    p2pb_results_data_free(&d);
    return CHECK_DONE();
}
