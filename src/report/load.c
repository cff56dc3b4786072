/* SPDX-License-Identifier: MIT */
/*
 * Loading results files for p2pbench-report, metric values and side names.
 * The host-context differences between two sides are in context_diff.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

double p2pb_metric_value(const struct p2pb_result *r, enum p2pb_metric metric)
{
    if (r->status != P2PB_ROW_OK)
        return NAN;
    return metric == P2PB_METRIC_LATENCY ? r->t.median : r->mbytes_per_sec;
}

enum p2pb_status p2pb_load_results(const char *path, struct p2pb_results_data *d, FILE *warn,
                                   char *err, size_t errlen)
{
    enum p2pb_status st = p2pb_results_read(path, d, err, errlen);
    if (st != P2PB_OK)
        return st;
    if (warn && !d->complete) {
        if (d->end_status[0])
            fprintf(warn, "warning: %s: run ended with status '%s'; %zu row%s read\n", path,
                    d->end_status, d->nrows, d->nrows == 1 ? "" : "s");
        else
            fprintf(warn, "warning: %s: no end record (run cut short?); read %zu row%s%s\n", path,
                    d->nrows, d->nrows == 1 ? "" : "s",
                    d->truncated_line ? ", last line cut off and ignored" : "");
    }
    /* a (kernel, variant, size) twice in one launch: compare uses the first */
    size_t dups = 0;
    for (size_t i = 0; i < d->nrows && warn; i++)
        for (size_t j = 0; j < i; j++)
            if (d->rows[j].bytes == d->rows[i].bytes &&
                strcmp(d->rows[j].kernel, d->rows[i].kernel) == 0 &&
                strcmp(d->rows[j].variant, d->rows[i].variant) == 0) {
                dups++;
                break;
            }
    if (dups)
        fprintf(warn,
                "warning: %s: %zu row%s repeat a kernel and size of an earlier row; compare "
                "uses the first of each\n",
                path, dups, dups == 1 ? "" : "s");
    return P2PB_OK;
}

void p2pb_side_name(struct p2pb_side *s, const char *fallback)
{
    const char *common = NULL;
    for (size_t i = 0; i < s->nfiles; i++) {
        const char *l = s->files[i].info.label;
        if (!l[0] || (common && strcmp(common, l) != 0)) {
            common = NULL;
            break;
        }
        common = l;
    }
    snprintf(s->name, sizeof s->name, "%s", common ? common : fallback);
}

enum p2pb_status p2pb_side_load(char *const *paths, size_t n, struct p2pb_side *s,
                                const char *fallback, FILE *warn, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    s->files = calloc(n ? n : 1, sizeof *s->files);
    if (!s->files)
        return p2pb_fail(P2PB_ENOMEM, err, errlen, "out of memory");
    for (size_t i = 0; i < n; i++) {
        enum p2pb_status st = p2pb_load_results(paths[i], &s->files[i], warn, err, errlen);
        if (st != P2PB_OK)
            return st;
        s->nfiles++;
    }
    p2pb_side_name(s, fallback);
    return P2PB_OK;
}

void p2pb_side_free(struct p2pb_side *s)
{
    for (size_t i = 0; i < s->nfiles; i++)
        p2pb_results_data_free(&s->files[i]);
    free(s->files);
    memset(s, 0, sizeof *s);
}
