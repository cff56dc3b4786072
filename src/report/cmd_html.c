/* SPDX-License-Identifier: MIT */
/*
 * html: one self-contained html page of a group of runs, or of two groups
 * (A... --vs B...) with compare's comparison (html.c).
 */
#include <string.h>
#include <strings.h>

#include "args.h"
#include "html/html.h"

/* The options of html: files, -o NAME.html. */
static enum p2pb_status check_args(const struct p2pb_args *a, char *err, size_t errlen)
{
    if (a->nfiles[0] == 0)
        return p2pb_fail(P2PB_EUSAGE, err, errlen,
                         "html needs at least one results file" P2PB_TRY_HELP);
    if (!a->output)
        return p2pb_fail(P2PB_EUSAGE, err, errlen, "html needs -o FILE.html" P2PB_TRY_HELP);
    size_t n = strlen(a->output);
    if (!(n > 5 && strcasecmp(a->output + n - 5, ".html") == 0) &&
        !(n > 4 && strcasecmp(a->output + n - 4, ".htm") == 0))
        return p2pb_fail(P2PB_EUSAGE, err, errlen,
                         "html output '%s' must end in .html or .htm" P2PB_TRY_HELP, a->output);
    return P2PB_OK;
}

/* Load side A (and B after --vs); sides of one name are called "A" and "B". */
static enum p2pb_status load_sides(const struct p2pb_args *a, struct p2pb_side s[2], char *err,
                                   size_t errlen)
{
    int two = a->nfiles[1] > 0;
    enum p2pb_status st = p2pb_side_load(a->files[0], a->nfiles[0], &s[0], two ? "A" : "runs",
                                         stderr, a->max_file_bytes, err, p2pb_cmd_errlen(errlen));
    if (st == P2PB_OK && two)
        st = p2pb_side_load(a->files[1], a->nfiles[1], &s[1], "B", stderr, a->max_file_bytes, err,
                            p2pb_cmd_errlen(errlen));
    for (size_t i = 0; st == P2PB_OK && i < (two ? 2u : 1u); i++)
        p2pb_side_count_once(&s[i], stderr); /* copies of one launch count once */
    if (st == P2PB_OK && two && strcmp(s[0].name, s[1].name) == 0) {
        snprintf(s[0].name, sizeof s[0].name, "A");
        snprintf(s[1].name, sizeof s[1].name, "B");
    }
    return st;
}

enum p2pb_status p2pb_cmd_html(struct p2pb_args *a, char *err, size_t errlen)
{
    enum p2pb_status st = check_args(a, err, errlen);
    if (st != P2PB_OK)
        return st;
    struct p2pb_side s[2];
    memset(s, 0, sizeof s);
    st = load_sides(a, s, err, errlen);
    struct p2pb_html_opt opt = {.title = a->title,
                                .threshold = a->threshold,
                                .holm = a->holm,
                                .mad_k = a->mad_k,
                                .min_off = a->min_off};
    if (st == P2PB_OK)
        st = p2pb_html_report(s, a->nfiles[1] ? 2 : 1, &opt, a->output, err,
                              p2pb_cmd_errlen(errlen));
    p2pb_side_free(&s[0]);
    p2pb_side_free(&s[1]);
    return st;
}

static const unsigned char html_options[] = {RO_VS,    RO_OUTPUT, RO_THRESHOLD, RO_HOLM,
                                             RO_TITLE, RO_MAD_K,  RO_MIN_OFF};

const struct p2pb_report_cmd p2pb_cmd_html_def = {
    .name = "html",
    .run = p2pb_cmd_html,
    .expand_dirs = 1,
    .synopsis = "RUN... [--vs RUN...] -o FILE.html [-t PCT] [--holm] [--title TEXT]\n"
                "[--mad-k K] [--min-off FRAC]",
    .help = "one self-contained page (inline SVG and CSS, no script): run summary, host\n"
            "context, per kernel latency and throughput charts and, with --vs, compare's\n"
            "table with verdicts and the confounders; survey files: heatmaps and verdicts",
    .verbs = NULL,
    .options = html_options,
    .noptions = sizeof html_options,
};
