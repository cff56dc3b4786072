/* SPDX-License-Identifier: MIT */
/*
 * survey.h - private: `p2pbench-report survey` (docs/survey.md). A survey
 * results file read into host x host matrices (survey_load.c), the slow
 * node and slow link verdicts (survey_verdict.c, pure), the tables
 * (survey_print.c) and the heatmap through gnuplot (survey_heatmap.c).
 */
#ifndef P2PBENCH_REPORT_SURVEY_H
#define P2PBENCH_REPORT_SURVEY_H

#include <stddef.h>
#include <stdio.h>

#include "outlier.h"
#include "p2pbench/result.h"
#include "p2pbench/status.h"

/* Longest node label: a host name, or "host:rank" when a host has several
 * surveyed ranks (per-rank surveys). */
#define P2PB_SURVEY_LABEL 80

/*
 * The values of a survey, by node (host, or rank with --survey-per rank),
 * nodes in ascending rank order. Matrices are n x n, row-major, NAN where
 * nothing was measured (the diagonal). A pair retested alone holds the
 * better of its first-pass and retest values (lower t, higher MB/s):
 * interference only slows a measurement down (retested[i * n + j] = 1).
 * capped[i * n + j] says the kept value came from a row its time cap ended
 * ("capped": true; bits P2PB_SURVEY_CAPPED_LAT, symmetric, and
 * P2PB_SURVEY_CAPPED_BW, from row i to column j); lat_wait, bw_wait the
 * kept values' cpu_wait_pct (percent of the measurement a rank of the pair
 * waited for a CPU; NAN unknown), laid out as lat and bw.
 */
struct p2pb_survey_matrix {
    size_t n;
    char (*labels)[P2PB_SURVEY_LABEL]; /* [n], sanitised */
    int *ranks;                        /* [n] the node's rank */
    double *lat;                       /* [n * n] t_usec.median of PingPong, symmetric */
    double *bw;                        /* [n * n] MB/s (10^6 B/s) from row i to column j */
    unsigned char *retested;           /* [n * n] */
    unsigned char *capped;             /* [n * n] P2PB_SURVEY_CAPPED_* bits */
    double *lat_wait, *bw_wait;        /* [n * n] percent, NAN unknown; NULL: none */
    /* from the run record's "survey" object ("" / 0 when missing) */
    char per[16], mode[16], order[16];
    double seed;
    size_t lat_bytes, bw_bytes, window;
    int complete; /* 1: the file ends with a "complete" end record */
};

/*
 * Read the survey rows of a results file into m (rows without "pair" are
 * ignored), in two passes: path must be a regular file of at most max_bytes
 * bytes (--max-file-size). Returns P2PB_OK, P2PB_EIO (cannot open, not a
 * regular file, too large), P2PB_EFORMAT (a line that is not JSON, a bad
 * pair, no survey rows: err names file and line), P2PB_ENOMEM. Free with
 * p2pb_survey_matrix_free in any case.
 */
enum p2pb_status p2pb_survey_load(const char *path, size_t max_bytes, struct p2pb_survey_matrix *m,
                                  char *err, size_t errlen);
void p2pb_survey_matrix_free(struct p2pb_survey_matrix *m);

/* Bits of p2pb_survey_matrix.capped. */
#define P2PB_SURVEY_CAPPED_LAT 1u
#define P2PB_SURVEY_CAPPED_BW 2u

/* 1 when node i has a pair retested alone (a slow node's verdict rests on
 * retests, not on the first pass alone); 0 otherwise. */
int p2pb_survey_node_retested(const struct p2pb_survey_matrix *m, size_t i);

/* A pair's bandwidth: the slower of its two directions (either one when
 * the other is missing; NAN when both are). */
double p2pb_survey_pair_bw(const struct p2pb_survey_matrix *m, size_t i, size_t j);

/* Why something is slow: bits. */
#define P2PB_SLOW_LATENCY 1u
#define P2PB_SLOW_BANDWIDTH 2u

/* The words of a nonzero mask of why: "latency", "bandwidth" or "latency
 * and bandwidth". */
const char *p2pb_survey_why(unsigned why);

/*
 * The verdicts (docs/survey.md, "Verdicts"), per metric (latency; bandwidth
 * of a pair = its slower direction), on log values y_ij of the pairs:
 *  - a median polish (Tukey, Exploratory Data Analysis, 1977, ch. 11) of
 *    the symmetric two-way table, y_ij = mu + a_i + a_j + e_ij: a_i, the
 *    node's effect, starts as its median over its partners (less mu) and is
 *    refitted with the partners' effects removed, so a partner that is a
 *    slow node does not drag a healthy node down;
 *  - slow node: an effect beyond the outlier bounds of all nodes' effects
 *    (outlier.h, on the log scale: more than k scaled MADs and at least a
 *    factor 1 + min_off, resp. 1 - min_off, off), latency above or
 *    bandwidth below; needs at least 3 nodes;
 *  - slow link: a pair of two nodes that are not slow whose residual e_ij
 *    lies beyond the bounds of all such pairs' residuals (at least 3),
 *    unless the kept value was CPU-starved: its CPU wait (m->lat_wait,
 *    m->bw_wait; bandwidth: either direction) at least
 *    P2PB_SURVEY_STARVED_PCT points above the median wait of the metric's
 *    kept values (a rank of that pair waited for a CPU far more than the
 *    typical pair's did, as on a host busy with other work; an
 *    oversubscribed but quiet machine makes every pair wait alike): such
 *    a pair goes into starved_link instead, not judged.
 * Arrays [n]: node_lat, node_bw (medians over partners, usec and MB/s, for
 * the tables), node_lat_f, node_bw_f (exp(a_i): the node's factor on its
 * links' values), slow_node. [n * n], symmetric: slow_link, starved_link
 * (P2PB_SLOW_* bits of the rule it met).
 */
struct p2pb_survey_verdict {
    double *node_lat, *node_bw;
    double *node_lat_f, *node_bw_f;
    unsigned char *slow_node;
    unsigned char *slow_link;
    unsigned char *starved_link;
    size_t nslow_nodes, nslow_links, nstarved_links;
    double lat_median, bw_median; /* exp(mu): the typical pair, usec and MB/s */
};

/* Compute v for m, judging the metrics in the mask `metrics`
 * (P2PB_SLOW_LATENCY | P2PB_SLOW_BANDWIDTH: both). Returns P2PB_OK or
 * P2PB_ENOMEM. Free with p2pb_survey_verdict_free in any case. */
enum p2pb_status p2pb_survey_verdict(const struct p2pb_survey_matrix *m,
                                     const struct p2pb_outlier_rule *rule, unsigned metrics,
                                     struct p2pb_survey_verdict *v);
void p2pb_survey_verdict_free(struct p2pb_survey_verdict *v);

/* Slowest pairs listed per metric. */
#define P2PB_SURVEY_NSLOWEST 5

/* The slowest pairs of one metric, worst first: node indices i < j and the
 * pair's value v (usec, or MB/s of the slower direction); n <= 5. */
struct p2pb_survey_slowest {
    size_t i[P2PB_SURVEY_NSLOWEST], j[P2PB_SURVEY_NSLOWEST];
    double v[P2PB_SURVEY_NSLOWEST];
    size_t n;
};

/* The slowest pairs of m into w: bw 0 latency (highest t first), 1
 * bandwidth (lowest p2pb_survey_pair_bw first); pairs without a value are
 * left out. Pure. */
void p2pb_survey_slowest(const struct p2pb_survey_matrix *m, int bw, struct p2pb_survey_slowest *w);

/* Output formats of the survey command. */
enum p2pb_survey_fmt { P2PB_SURVEY_TEXT, P2PB_SURVEY_JSON, P2PB_SURVEY_CSV };

/* Matrices in full up to this many nodes; a per-node summary above. */
#define P2PB_SURVEY_FULL_MAX 32

/*
 * Print m and v to o in fmt: text (matrices or the summary, the slowest
 * pairs, the verdicts), json (one document with "slow_links": [["hA","hB"],
 * ...], "slow_nodes": [...], "not_retested" and "capped_pairs") or csv (one
 * line per pair). A verdict whose pair (link) or none of whose pairs (node)
 * was retested alone is marked "suspect, not retested": it rests on the
 * first pass alone (a survey stopped before its retests). path names the
 * file. rule is printed with the verdicts.
 */
void p2pb_survey_print(FILE *o, enum p2pb_survey_fmt fmt, const char *path,
                       const struct p2pb_survey_matrix *m, const struct p2pb_survey_verdict *v,
                       const struct p2pb_outlier_rule *rule);

/*
 * Draw the latency and bandwidth heatmaps of m into out (.png or .svg)
 * with gnuplot (prog; NULL: "gnuplot" from PATH; killed after timeout_s
 * seconds, --gnuplot-timeout, <= 0: no limit): nodes on both axes, the
 * colour scale in usec and MB/s, slow links marked by a circle in their
 * cells, slow nodes by a cross on the diagonal and "(slow)" after the
 * name. Returns P2PB_OK, P2PB_EUSAGE (a name that is not .png / .svg),
 * P2PB_EIO (cannot write, gnuplot failed or timed out).
 */
enum p2pb_status p2pb_survey_heatmap(const struct p2pb_survey_matrix *m,
                                     const struct p2pb_survey_verdict *v, const char *out,
                                     const char *prog, double timeout_s, char *err, size_t errlen);

#endif /* P2PBENCH_REPORT_SURVEY_H */
