/* SPDX-License-Identifier: MIT */
/*
 * compare: two groups of launches, A... --vs B..., one results file per
 * launch: both metrics (compare.c), the host-context differences
 * (context_diff.c), printed by compare_print.c; with --fail-on-regression a
 * gate on the rows changed for the worse.
 */
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "compare/compare.h"
#include "output/output.h"

/* The --format values of compare, in the order of its error message. */
static const struct p2pb_fmt_name compare_formats[] = {
    {"text", P2PB_OUT_TEXT},
    {"markdown", P2PB_OUT_MARKDOWN},
    {"csv", P2PB_OUT_CSV},
    {"json", P2PB_OUT_JSON},
};

/* The options of compare and its output format. */
static enum p2pb_status check_args(const struct p2pb_args *a, enum p2pb_outfmt *fmt, char *err,
                                   size_t errlen)
{
    enum p2pb_status st = p2pb_args_format(
        a, compare_formats, sizeof compare_formats / sizeof compare_formats[0], fmt, err, errlen);
    if (st == P2PB_OK && (a->nfiles[0] == 0 || a->nfiles[1] == 0))
        st = p2pb_fail(P2PB_EUSAGE, err, errlen,
                       "compare needs files on both sides: A... --vs B..." P2PB_TRY_HELP);
    return st;
}

/* Load both sides; sides of one name are called "A" and "B". */
static enum p2pb_status load_sides(const struct p2pb_args *a, struct p2pb_side *sa,
                                   struct p2pb_side *sb, char *err, size_t errlen)
{
    enum p2pb_status st = p2pb_side_load(a->files[0], a->nfiles[0], sa, "A", stderr,
                                         a->max_file_bytes, err, p2pb_cmd_errlen(errlen));
    if (st == P2PB_OK)
        st = p2pb_side_load(a->files[1], a->nfiles[1], sb, "B", stderr, a->max_file_bytes, err,
                            p2pb_cmd_errlen(errlen));
    if (st == P2PB_OK) { /* copies of one launch count once (the gate then sees too few) */
        p2pb_side_count_once(sa, stderr);
        p2pb_side_count_once(sb, stderr);
    }
    if (st == P2PB_OK && strcmp(sa->name, sb->name) == 0) {
        snprintf(sa->name, sizeof sa->name, "A");
        snprintf(sb->name, sizeof sb->name, "B");
    }
    return st;
}

static size_t count_worse(const struct p2pb_cmp_table *t)
{
    size_t worse = 0;
    for (size_t i = 0; i < t->nrows; i++)
        worse += (size_t)t->rows[i].worse;
    return worse;
}

/* The first row of t that has numbers on both sides but no verdict (fewer
 * than P2PB_COMPARE_MIN_LAUNCHES on a side), or NULL; *n counts them all. */
static const struct p2pb_cmp_row *unjudged(const struct p2pb_cmp_table *t, size_t *n)
{
    const struct p2pb_cmp_row *first = NULL;
    for (size_t i = 0; i < t->nrows; i++)
        if (t->rows[i].tested && t->rows[i].verdict == P2PB_VERDICT_NONE) {
            first = first ? first : &t->rows[i];
            (*n)++;
        }
    return first;
}

/* A gate with a row it could not judge does not pass: P2PB_EUSAGE naming
 * the first such row and the count, unless a row is worse already. */
static enum p2pb_status judged_gate(const struct p2pb_cmp_table *lat,
                                    const struct p2pb_cmp_table *thr, char *err, size_t errlen)
{
    size_t n = 0;
    const struct p2pb_cmp_row *r = unjudged(lat, &n), *rt = unjudged(thr, &n);
    const char *metric = r ? "latency" : "throughput";
    if (!r)
        r = rt;
    if (!r)
        return P2PB_OK;
    char sz[32];
    return p2pb_fail(P2PB_EUSAGE, err, errlen,
                     "error: --fail-on-regression: not judged: %zu row%s with fewer than %d "
                     "launches on a side (first: %s %s%s%s %s, %zu vs %zu launches); give every "
                     "row at least %d launches per side",
                     n, n == 1 ? "" : "s", P2PB_COMPARE_MIN_LAUNCHES, metric, r->kernel,
                     r->variant[0] ? " " : "", r->variant, p2pb_fmt_size(sz, sizeof sz, r->bytes),
                     r->na, r->nb, P2PB_COMPARE_MIN_LAUNCHES);
}

/*
 * --fail-on-regression: P2PB_EVERIFY when a row changed for the worse, the
 * count on stderr either way. A gate that cannot fail (the Mann-Whitney gate
 * of every row of a table is out of reach: 2 / C(na + nb, na) >= 0.05, e.g.
 * 3 vs 3 launches) must not pass silently: P2PB_EUSAGE then, unless a row is
 * worse already; so must a row with numbers on both sides but too few
 * launches for a verdict (judged_gate). Nothing compared (no row with
 * numbers on both sides): P2PB_EVERIFY.
 */
static enum p2pb_status regression_gate(const struct p2pb_args *a, const struct p2pb_cmp_table *lat,
                                        const struct p2pb_cmp_table *thr, char *err, size_t errlen)
{
    if (!a->fail)
        return P2PB_OK;
    if (!lat->ntested && !thr->ntested) /* a gate that compared nothing cannot pass */
        return p2pb_fail(P2PB_EVERIFY, err, errlen,
                         "error: --fail-on-regression: no (kernel, size) has numbers on both "
                         "sides: nothing was compared");
    size_t worse = count_worse(lat) + count_worse(thr);
    const struct p2pb_cmp_table *blind = NULL;
    if (lat->ntested && lat->best_p_gate >= P2PB_VERDICT_ALPHA)
        blind = lat;
    else if (thr->ntested && thr->best_p_gate >= P2PB_VERDICT_ALPHA)
        blind = thr;
    if (!worse && !blind && judged_gate(lat, thr, err, errlen) != P2PB_OK)
        return P2PB_EUSAGE;
    if (!worse && blind)
        return p2pb_fail(P2PB_EUSAGE, err, errlen,
                         "error: --fail-on-regression cannot detect a regression here: with "
                         "these launch counts the smallest reachable Mann-Whitney p is %.3g "
                         "(>= 0.05); use at least %zu launches per side",
                         blind->best_p_gate, blind->launches_needed);
    fprintf(stderr, "p2pbench-report: %zu row%s changed for the worse (Holm-adjusted)\n", worse,
            worse == 1 ? "" : "s");
    return worse ? P2PB_EVERIFY : P2PB_OK;
}

/* --fail-on-regression without --allow-incomplete: P2PB_EVERIFY when a file
 * of either side is incomplete or aborted (its rows may be missing or cut). */
static enum p2pb_status incomplete_gate(const struct p2pb_args *a, const struct p2pb_side *sa,
                                        const struct p2pb_side *sb, char *err, size_t errlen)
{
    size_t n = sa->nincomplete + sb->nincomplete;
    if (!a->fail || a->allow_incomplete || !n)
        return P2PB_OK;
    return p2pb_fail(P2PB_EVERIFY, err, errlen,
                     "error: --fail-on-regression: %zu launch file%s incomplete or aborted (listed "
                     "above the tables); rerun them, or pass --allow-incomplete",
                     n, n == 1 ? " is" : "s are");
}

/* Build both tables and the context differences, print them, run the gate. */
static enum p2pb_status compare_sides(const struct p2pb_args *a, enum p2pb_outfmt fmt,
                                      const struct p2pb_side *sa, const struct p2pb_side *sb,
                                      char *err, size_t errlen)
{
    struct p2pb_cmp_table lat = {0}, thr = {0};
    struct p2pb_ctx_diff diff = {0};
    struct p2pb_order order;
    enum p2pb_status st;
    if (p2pb_compare_build(sa, sb, P2PB_METRIC_LATENCY, a->holm, a->threshold, &lat) ||
        p2pb_compare_build(sa, sb, P2PB_METRIC_THROUGHPUT, a->holm, a->threshold, &thr) ||
        p2pb_compare_position(sa, sb, a->holm, &lat) ||
        p2pb_compare_position(sa, sb, a->holm, &thr) || p2pb_context_diff(sa, sb, &diff)) {
        st = p2pb_fail(P2PB_ENOMEM, err, errlen, "out of memory");
        goto out;
    }
    p2pb_order_check(sa, sb, &order);
    struct p2pb_cmp_print po = {
        .fmt = fmt, .holm = a->holm, .threshold = a->threshold, .order = &order};
    p2pb_compare_print(stdout, &po, sa, sb, &lat, &thr, &diff);
    st = regression_gate(a, &lat, &thr, err, errlen);
    if (st == P2PB_OK)
        st = incomplete_gate(a, sa, sb, err, errlen);
out:
    p2pb_compare_free(&lat);
    p2pb_compare_free(&thr);
    p2pb_ctx_diff_free(&diff);
    return st;
}

enum p2pb_status p2pb_cmd_compare(struct p2pb_args *a, char *err, size_t errlen)
{
    enum p2pb_outfmt fmt;
    enum p2pb_status st = check_args(a, &fmt, err, errlen);
    if (st != P2PB_OK)
        return st;
    struct p2pb_side sa = {0}, sb = {0};
    st = p2pb_args_distinct_files(a, err, errlen);
    if (st == P2PB_OK)
        st = load_sides(a, &sa, &sb, err, errlen);
    if (st == P2PB_OK)
        st = compare_sides(a, fmt, &sa, &sb, err, errlen);
    p2pb_side_free(&sa);
    p2pb_side_free(&sb);
    return st;
}

static const unsigned char compare_options[] = {RO_FORMAT, RO_VS,   RO_THRESHOLD,
                                                RO_HOLM,   RO_FAIL, RO_ALLOW_INCOMPLETE};

const struct p2pb_report_cmd p2pb_cmd_compare_def = {
    .name = "compare",
    .run = p2pb_cmd_compare,
    .expand_dirs = 1,
    .synopsis = "A... --vs B... [-f text|markdown|csv|json] [-t PCT] [--holm]\n"
                "[--fail-on-regression [--allow-incomplete]]",
    .help = "compare two groups of launches (one results file per launch; a directory\n"
            "stands for its *.jsonl files): medians, Hodges-Lehmann ratio B/A with 95% CI,\n"
            "Mann-Whitney p (the gate), Welch's p on log values adjusted over the\n"
            "rows, verdict per row (an inconclusive one with the launches it needs),\n"
            "host-context differences",
    .verbs = NULL,
    .options = compare_options,
    .noptions = sizeof compare_options,
};
