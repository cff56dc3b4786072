/* SPDX-License-Identifier: MIT */
/*
 * baseline.c - build a baseline from launches: their host classes and the
 * envelope of every row and metric of a class; the envelope's bounds
 * (baseline.h). The file: baseline_file.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "baseline/baseline.h"
#include "compare/compare.h"

void p2pb_envelope_bounds(const struct p2pb_envelope *e, size_t k, double floor, double *lo,
                          double *hi)
{
    double n = (double)e->n;
    double p = 1.0 - (1.0 - P2PB_BASELINE_LEVEL) / (2.0 * (double)(k ? k : 1));
    double h = p2pb_t_quantile(p, n - 1.0) * e->sd_log * sqrt(1.0 + 1.0 / n);
    *lo = fmin(exp(e->mean_log - h), e->median / (1.0 + floor));
    *hi = fmax(exp(e->mean_log + h), e->median * (1.0 + floor));
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The envelope of values v[0..n-1] (positive, reordered), n >= 2. */
static void fit(struct p2pb_envelope *e, double *v, size_t n)
{
    double s = 0, ss = 0;
    qsort(v, n, sizeof *v, cmp_double);
    e->n = n;
    e->median = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    for (size_t i = 0; i < n; i++)
        s += log(v[i]);
    e->mean_log = s / (double)n;
    for (size_t i = 0; i < n; i++)
        ss += (log(v[i]) - e->mean_log) * (log(v[i]) - e->mean_log);
    e->sd_log = sqrt(ss / (double)(n - 1));
}

/* The class being built: the files of one host class. */
struct build {
    const struct p2pb_results_data *files;
    const size_t *member; /* indexes into files */
    size_t nmember;
    double *vals; /* nmember scratch values */
};

static int has_envelope(const struct p2pb_baseline_class *c, const struct p2pb_result *r,
                        enum p2pb_metric m)
{
    for (size_t i = 0; i < c->nrows; i++)
        if (c->rows[i].bytes == r->bytes && c->rows[i].metric == m &&
            strcmp(c->rows[i].kernel, r->kernel) == 0 &&
            strcmp(c->rows[i].variant, r->variant) == 0)
            return 1;
    return 0;
}

/* The envelope of row r's key and metric m over the class's files, added to
 * c when enough launches have a positive value. */
static enum p2pb_status add_envelope(struct p2pb_baseline_class *c, const struct build *b,
                                     const struct p2pb_result *r, enum p2pb_metric m)
{
    size_t n = 0;
    for (size_t i = 0; i < b->nmember; i++) {
        double v = p2pb_file_value(&b->files[b->member[i]], r->kernel, r->variant, r->bytes, m);
        if (isfinite(v) && v > 0)
            b->vals[n++] = v;
    }
    if (n < P2PB_BASELINE_MIN_LAUNCHES)
        return P2PB_OK;
    struct p2pb_envelope *rows = realloc(c->rows, (c->nrows + 1) * sizeof *rows);
    if (!rows)
        return P2PB_ENOMEM;
    c->rows = rows;
    struct p2pb_envelope *e = &rows[c->nrows++];
    memset(e, 0, sizeof *e);
    snprintf(e->kernel, sizeof e->kernel, "%s", r->kernel);
    snprintf(e->variant, sizeof e->variant, "%s", r->variant);
    e->bytes = r->bytes;
    e->metric = m;
    fit(e, b->vals, n);
    return P2PB_OK;
}

/* Add the hosts of a comma-joined list to c->hosts, each once. */
static void merge_hosts(struct p2pb_baseline_class *c, const char *list)
{
    char tmp[512], *save = NULL;
    snprintf(tmp, sizeof tmp, "%s", list);
    for (char *h = strtok_r(tmp, ",", &save); h; h = strtok_r(NULL, ",", &save)) {
        size_t hl = strlen(h), used = strlen(c->hosts);
        int found = 0;
        for (const char *p = c->hosts; (p = strstr(p, h)) != NULL; p += hl)
            if ((p == c->hosts || p[-1] == ',') && (p[hl] == ',' || p[hl] == '\0'))
                found = 1;
        if (!found && used + hl + 2 < sizeof c->hosts)
            snprintf(c->hosts + used, sizeof c->hosts - used, "%s%s", used ? "," : "", h);
    }
}

/* The envelopes of class c from its files (b). */
static enum p2pb_status build_class(struct p2pb_baseline_class *c, const struct build *b)
{
    enum p2pb_status st = P2PB_OK;
    for (size_t i = 0; i < b->nmember && st == P2PB_OK; i++) {
        const struct p2pb_results_data *d = &b->files[b->member[i]];
        char hosts[512];
        merge_hosts(c, p2pb_run_hosts(d, hosts, sizeof hosts));
        for (size_t r = 0; r < d->nrows && st == P2PB_OK; r++)
            for (int m = 0; m < 2 && st == P2PB_OK; m++)
                if (!has_envelope(c, &d->rows[r], (enum p2pb_metric)m))
                    st = add_envelope(c, b, &d->rows[r], (enum p2pb_metric)m);
    }
    c->launches = b->nmember;
    return st;
}

/* The class of every complete file (cls[i]; -1 for an incomplete one), the
 * distinct classes appended to b. */
static enum p2pb_status classify(const struct p2pb_results_data *files, size_t n, FILE *warn,
                                 struct p2pb_baseline *b, long *cls)
{
    for (size_t i = 0; i < n; i++) {
        cls[i] = -1;
        if (!files[i].complete) {
            fprintf(warn, "p2pbench-report: warning: %s: no complete end record; left out\n",
                    files[i].path);
            continue;
        }
        struct p2pb_host_class c;
        p2pb_host_class_of(&files[i], &c);
        size_t k = 0;
        while (k < b->nclasses && !p2pb_host_class_equal(&b->classes[k].cls, &c))
            k++;
        if (k == b->nclasses) {
            struct p2pb_baseline_class *nc = realloc(b->classes, (k + 1) * sizeof *nc);
            if (!nc)
                return P2PB_ENOMEM;
            b->classes = nc;
            memset(&nc[k], 0, sizeof nc[k]);
            nc[k].cls = c;
            b->nclasses++;
        }
        cls[i] = (long)k;
    }
    return P2PB_OK;
}

enum p2pb_status p2pb_baseline_build(const struct p2pb_results_data *files, size_t n, FILE *warn,
                                     struct p2pb_baseline *b, char *err, size_t errlen)
{
    memset(b, 0, sizeof *b);
    long *cls = calloc(n + 1, sizeof *cls);
    size_t *member = calloc(n + 1, sizeof *member);
    double *vals = calloc(n + 1, sizeof *vals);
    enum p2pb_status st = cls && member && vals ? classify(files, n, warn, b, cls) : P2PB_ENOMEM;
    size_t usable = 0;
    for (size_t k = 0; k < b->nclasses && st == P2PB_OK; k++) {
        struct build bd = {.files = files, .member = member, .vals = vals};
        for (size_t i = 0; i < n; i++)
            if (cls[i] == (long)k)
                member[bd.nmember++] = i;
        st = build_class(&b->classes[k], &bd);
        usable += b->classes[k].nrows > 0;
    }
    free(cls);
    free(member);
    free(vals);
    if (st == P2PB_OK && usable == 0)
        st = p2pb_fail(P2PB_EUSAGE, err, errlen,
                       "no host class has %d complete launches with values (%zu class%s found); "
                       "a baseline needs at least %d launches of one class",
                       P2PB_BASELINE_MIN_LAUNCHES, b->nclasses, b->nclasses == 1 ? "" : "es",
                       P2PB_BASELINE_MIN_LAUNCHES);
    if (st == P2PB_ENOMEM)
        p2pb_fail(st, err, errlen, "out of memory building the baseline");
    if (st != P2PB_OK)
        p2pb_baseline_free(b);
    return st;
}

const struct p2pb_baseline_class *p2pb_baseline_find(const struct p2pb_baseline *b,
                                                     const struct p2pb_host_class *c)
{
    for (size_t k = 0; k < b->nclasses; k++)
        if (p2pb_host_class_equal(&b->classes[k].cls, c))
            return &b->classes[k];
    return NULL;
}

void p2pb_baseline_free(struct p2pb_baseline *b)
{
    for (size_t k = 0; k < b->nclasses; k++)
        free(b->classes[k].rows);
    free(b->classes);
    memset(b, 0, sizeof *b);
}
