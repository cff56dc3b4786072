/* SPDX-License-Identifier: MIT */
/*
 * aa_sim.h - simulated A/A campaigns for the verdict rule (test only): both
 * sides drawn from one model, so every "changed" row is a false positive.
 * docs/methodology.md, "Verdicts and their power", records what it printed.
 */
#ifndef P2PBENCH_AA_SIM_H
#define P2PBENCH_AA_SIM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "p2pbench/status.h"

/*
 * One design. A launch's latency value at row r is
 *   bimodal rows (r < bimodal): (slow ? slow_usec : fast_usec) x L,
 *   other rows:                 base_r x L,
 * L lognormal with mean 1 and coefficient of variation cv, drawn per (launch,
 * row); "slow" is drawn once per launch (probability 1/2) and holds for all
 * its bimodal rows (a whole launch is fast or slow). The throughput family
 * is 1 / latency of rows thr_skip .. lat_rows - 1 (the 0-byte rows have no
 * throughput). Each family gets p2pb_verdict_family.
 */
struct p2pb_aa_design {
    size_t launches;             /* per side */
    size_t campaigns;            /* simulated campaigns */
    size_t lat_rows;             /* latency rows (97: the default sweep) */
    size_t thr_skip;             /* rows without throughput (4) */
    size_t bimodal;              /* leading rows that are bimodal (24) */
    double cv;                   /* launch-to-launch CV of every row (0.03) */
    double fast_usec, slow_usec; /* the two levels of a bimodal row (0.13, 0.40 usec) */
    double d;                    /* threshold (0.05) */
    uint64_t seed;
};

/* What the campaigns gave, for one adjustment (index 0: BH, 1: Holm). */
struct p2pb_aa_result {
    size_t campaigns;
    size_t rows;            /* rows with a verdict, over all campaigns */
    size_t any_changed;     /* campaigns with a "changed" row (the rule) */
    size_t changed_rows;    /* "changed" rows, over all campaigns */
    size_t changed_bimodal; /* of them, bimodal rows */
    size_t any_tests;       /* campaigns with a row passing gate and p_adj (the band ignored) */
    size_t any_welch;       /* campaigns with a row whose adjusted Welch p < 0.05 alone */
    size_t any_old;         /* campaigns with a "changed" row under the previous rule
                               (Mann-Whitney p adjusted, the band) */
    size_t equivalent;      /* rows */
    size_t inconclusive;    /* rows */
};

/* The design described above with n launches per side and c campaigns. */
struct p2pb_aa_design p2pb_aa_default(size_t n, size_t c);

/* Run the campaigns of des: res[0] with Benjamini-Hochberg, res[1] with Holm.
 * Returns P2PB_OK, P2PB_ENOMEM, or an error of the statistics. */
enum p2pb_status p2pb_aa_run(const struct p2pb_aa_design *des, struct p2pb_aa_result res[2]);

/* Print the rates of 4 + 4, 6 + 6 and 10 + 10 launches, c campaigns each. Returns 0 or -1. */
int p2pb_aa_report(FILE *o, size_t c);

/* Print docs/methodology.md's launches-per-side tables. Returns 0 or -1. */
int p2pb_power_table(FILE *o);

#endif /* P2PBENCH_AA_SIM_H */
