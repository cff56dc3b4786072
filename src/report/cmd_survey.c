/* SPDX-License-Identifier: MIT */
/*
 * survey: the verdicts of one `p2pbench survey` results file (survey.h,
 * docs/survey.md): matrices, the slowest pairs, slow nodes and slow links,
 * optionally a heatmap; --fail-on-slow exits 1 when anything is slow.
 */
#include "args.h"
#include "plot/plot.h"
#include "survey/survey.h"

static const struct p2pb_fmt_name survey_formats[] = {
    {"text", P2PB_OUT_TEXT}, {"json", P2PB_OUT_JSON}, {"csv", P2PB_OUT_CSV}};

static enum p2pb_status check_args(const struct p2pb_args *a, enum p2pb_survey_fmt *fmt, char *err,
                                   size_t errlen)
{
    enum p2pb_outfmt f = P2PB_OUT_TEXT;
    if (a->nfiles[0] != 1 || a->nfiles[1] != 0)
        return p2pb_fail(P2PB_EUSAGE, err, errlen,
                         "survey takes exactly one results file" P2PB_TRY_HELP);
    enum p2pb_status st = p2pb_args_format(a, survey_formats, 3, &f, err, errlen);
    if (st != P2PB_OK)
        return st;
    *fmt = f == P2PB_OUT_JSON  ? P2PB_SURVEY_JSON
           : f == P2PB_OUT_CSV ? P2PB_SURVEY_CSV
                               : P2PB_SURVEY_TEXT;
    return P2PB_OK;
}

enum p2pb_status p2pb_cmd_survey(struct p2pb_args *a, char *err, size_t errlen)
{
    enum p2pb_survey_fmt fmt = P2PB_SURVEY_TEXT;
    enum p2pb_status st = check_args(a, &fmt, err, errlen);
    if (st != P2PB_OK)
        return st;
    const struct p2pb_outlier_rule rule = {a->mad_k, a->min_off};
    unsigned metrics = a->metric == P2PB_METRIC_LATENCY ? P2PB_SLOW_LATENCY
                       : a->metric == P2PB_METRIC_THROUGHPUT
                           ? P2PB_SLOW_BANDWIDTH
                           : P2PB_SLOW_LATENCY | P2PB_SLOW_BANDWIDTH;
    struct p2pb_survey_matrix m;
    struct p2pb_survey_verdict v = {0};
    st = p2pb_survey_load(a->files[0][0], a->max_file_bytes, &m, err, p2pb_cmd_errlen(errlen));
    if (st == P2PB_OK && !m.complete)
        fprintf(stderr,
                "p2pbench-report: warning: %s: no complete end record; verdicts from "
                "the rows as far as they go\n",
                a->files[0][0]);
    if (st == P2PB_OK)
        st = p2pb_survey_verdict(&m, &rule, metrics, &v);
    if (st == P2PB_OK)
        p2pb_survey_print(stdout, fmt, a->files[0][0], &m, &v, &rule);
    if (st == P2PB_OK && a->heatmap)
        st = p2pb_survey_heatmap(&m, &v, a->heatmap, a->gnuplot, a->gnuplot_timeout, err,
                                 p2pb_cmd_errlen(errlen));
    if (st == P2PB_OK && fflush(stdout) != 0)
        st = p2pb_fail(P2PB_EIO, err, errlen, "cannot write to standard output");
    if (st == P2PB_OK && a->fail_on_slow && (v.nslow_nodes || v.nslow_links))
        st = p2pb_fail(P2PB_EVERIFY, err, errlen,
                       "%zu slow node%s, %zu slow link%s (--fail-on-slow)", v.nslow_nodes,
                       v.nslow_nodes == 1 ? "" : "s", v.nslow_links, v.nslow_links == 1 ? "" : "s");
    p2pb_survey_verdict_free(&v);
    p2pb_survey_matrix_free(&m);
    return st;
}

static const unsigned char survey_options[] = {RO_FORMAT,       RO_METRIC,         RO_HEATMAP,
                                               RO_FAIL_ON_SLOW, RO_MAD_K,          RO_MIN_OFF,
                                               RO_GNUPLOT,      RO_GNUPLOT_TIMEOUT};

const struct p2pb_report_cmd p2pb_cmd_survey_def = {
    .name = "survey",
    .run = p2pb_cmd_survey,
    .expand_dirs = 0,
    .synopsis = "FILE [-f text|json|csv] [-m latency|throughput]\n"
                "[--heatmap FILE.png|.svg] [--fail-on-slow] [--mad-k K] [--min-off FRAC]",
    .help = "a 'p2pbench survey' file: latency and bandwidth matrices by host, the\n"
            "slowest pairs, slow nodes and slow links (docs/survey.md)",
    .verbs = NULL,
    .options = survey_options,
    .noptions = sizeof survey_options,
};
