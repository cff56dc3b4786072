/* SPDX-License-Identifier: MIT */
/*
 * baseline: `baseline build RUN... -o BASE.json` makes an envelope per host
 * class, row and metric from many launches; `baseline check BASE.json
 * RUN...` says of each new launch and row: ok, outside (slower|faster), or
 * no baseline for its class, and which hosts the outside launches share
 * (baseline.h; docs/report.md, "Baselines").
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "baseline/baseline.h"
#include "output/output.h"

/* Most hosts the closing summary of a check counts. */
#define MAX_HOSTS 4096

/* What the check found on one host over the runs it took part in. */
struct host_tally {
    char name[64];
    size_t runs, outside;
    char where[256]; /* "throughput 1M 2M; latency 1M" as found */
};

struct check {
    const struct p2pb_baseline *base;
    double floor;
    struct host_tally *hosts;
    size_t nhosts;
    size_t runs, outside, nobase;
};

static enum p2pb_status load_all(char **paths, size_t n, size_t max_bytes,
                                 struct p2pb_results_data *files, char *err, size_t errlen)
{
    for (size_t i = 0; i < n; i++) {
        enum p2pb_status st =
            p2pb_load_results(paths[i], &files[i], stderr, max_bytes, err, errlen);
        if (st != P2PB_OK)
            return st;
    }
    return P2PB_OK;
}

static void free_all(struct p2pb_results_data *files, size_t n)
{
    for (size_t i = 0; files && i < n; i++)
        p2pb_results_data_free(&files[i]);
    free(files);
}

static enum p2pb_status build(const struct p2pb_args *a, char *err, size_t errlen)
{
    if (!a->output)
        return p2pb_fail(P2PB_EUSAGE, err, errlen,
                         "baseline build needs -o BASE.json" P2PB_TRY_HELP);
    size_t n = a->nfiles[0];
    struct p2pb_results_data *files = calloc(n + 1, sizeof *files);
    struct p2pb_baseline b = {0};
    enum p2pb_status st = files ? load_all(a->files[0], n, a->max_file_bytes, files, err, errlen)
                                : p2pb_fail(P2PB_ENOMEM, err, errlen, "out of memory");
    if (st == P2PB_OK)
        st = p2pb_baseline_build(files, n, stderr, &b, err, errlen);
    if (st == P2PB_OK)
        st = p2pb_baseline_write(&b, a->output, err, errlen);
    for (size_t k = 0; st == P2PB_OK && k < b.nclasses; k++) {
        char cls[1024];
        printf("class %zu: %s: %zu launches (hosts %s), %zu envelopes%s\n", k + 1,
               p2pb_host_class_text(&b.classes[k].cls, cls, sizeof cls), b.classes[k].launches,
               b.classes[k].hosts, b.classes[k].nrows,
               b.classes[k].nrows ? "" : " (too few launches: left out)");
    }
    if (st == P2PB_OK)
        printf("baseline: %s\n", a->output);
    p2pb_baseline_free(&b);
    free_all(files, n);
    return st;
}

/* The tally of host name (added when new; NULL when the table is full). */
static struct host_tally *tally_of(struct check *c, const char *name)
{
    for (size_t i = 0; i < c->nhosts; i++)
        if (strcmp(c->hosts[i].name, name) == 0)
            return &c->hosts[i];
    if (c->nhosts == MAX_HOSTS)
        return NULL;
    struct host_tally *t = &c->hosts[c->nhosts++];
    snprintf(t->name, sizeof t->name, "%s", name);
    return t;
}

/* Add "metric size" to where, once. */
static void note_where(char *where, size_t len, const char *what)
{
    if (strstr(where, what))
        return;
    size_t used = strlen(where);
    if (used + strlen(what) + 3 < len)
        snprintf(where + used, len - used, "%s%s", used ? ", " : "", what);
}

/* The run's tallies: one more run on each of its hosts, one more outside. */
static void tally_run(struct check *c, const char *hosts, int outside, const char *where)
{
    char tmp[512], *save = NULL;
    snprintf(tmp, sizeof tmp, "%s", hosts);
    for (char *h = strtok_r(tmp, ",", &save); h; h = strtok_r(NULL, ",", &save)) {
        struct host_tally *t = tally_of(c, h);
        if (!t)
            continue;
        t->runs++;
        t->outside += (size_t)outside;
        char w[256], *s2 = NULL;
        snprintf(w, sizeof w, "%s", where);
        for (char *x = strtok_r(w, ";", &s2); x; x = strtok_r(NULL, ";", &s2))
            note_where(t->where, sizeof t->where, x);
    }
}

/* The values of run d inside class bc's envelopes: how many (k) there are. */
static size_t count_judged(const struct p2pb_baseline_class *bc, const struct p2pb_results_data *d)
{
    size_t k = 0;
    for (size_t i = 0; i < bc->nrows; i++) {
        const struct p2pb_envelope *e = &bc->rows[i];
        double v = p2pb_file_value(d, e->kernel, e->variant, e->bytes, e->metric);
        k += isfinite(v) && v > 0;
    }
    return k;
}

/* Judge run d against class bc: print its outside values; where gets
 * "throughput 1M;latency 1M;..." of the slower ones. Returns the number
 * outside; *k the values judged. */
static size_t judge_run(const struct check *c, const struct p2pb_baseline_class *bc,
                        const struct p2pb_results_data *d, size_t *k, char *where, size_t wlen)
{
    static const char *const metric[] = {"latency", "throughput"};
    static const char *const unit[] = {"usec", "MB/s"};
    size_t out = 0;
    *k = count_judged(bc, d);
    where[0] = '\0';
    for (size_t i = 0; i < bc->nrows; i++) {
        const struct p2pb_envelope *e = &bc->rows[i];
        double v = p2pb_file_value(d, e->kernel, e->variant, e->bytes, e->metric), lo, hi;
        if (!(isfinite(v) && v > 0))
            continue;
        p2pb_envelope_bounds(e, *k, c->floor, &lo, &hi);
        if (v >= lo && v <= hi)
            continue;
        int slower = e->metric == P2PB_METRIC_LATENCY ? v > hi : v < lo;
        char sz[32], w[64];
        p2pb_fmt_size(sz, sizeof sz, e->bytes);
        printf("    %s%s%s %zu B %s %.6g %s: outside (%s), envelope %.6g .. %.6g (n %zu)\n",
               e->kernel, e->variant[0] ? " " : "", e->variant, e->bytes, metric[e->metric], v,
               unit[e->metric], slower ? "slower" : "faster", lo, hi, e->n);
        snprintf(w, sizeof w, "%s %s %s;", slower ? "slower" : "faster", metric[e->metric], sz);
        if (strlen(where) + strlen(w) + 1 < wlen)
            strcat(where, w);
        out++;
    }
    return out;
}

/* Check one run; print its verdict line (and its outside values). */
static void check_run(struct check *c, const struct p2pb_results_data *d)
{
    struct p2pb_host_class cls;
    char hosts[512], text[1024], where[2048];
    p2pb_host_class_of(d, &cls);
    p2pb_run_hosts(d, hosts, sizeof hosts);
    const struct p2pb_baseline_class *bc = p2pb_baseline_find(c->base, &cls);
    c->runs++;
    if (!bc) {
        c->nobase++;
        printf("%s (hosts %s): no baseline for this class (%s)\n", d->path, hosts,
               p2pb_host_class_text(&cls, text, sizeof text));
        return;
    }
    printf("%s (hosts %s):\n", d->path, hosts);
    size_t k = 0, out = judge_run(c, bc, d, &k, where, sizeof where);
    if (k == 0)
        printf("    nothing to judge: no row of the baseline's class\n");
    else if (out == 0)
        printf("    ok: %zu values within their envelopes\n", k);
    else
        printf("    outside: %zu of %zu values\n", out, k);
    c->outside += out > 0;
    tally_run(c, hosts, out > 0, where);
}

/* The hosts of the outside runs, most often outside first. */
static int cmp_tally(const void *x, const void *y)
{
    const struct host_tally *a = x, *b = y;
    double fa = (double)a->outside / (double)a->runs, fb = (double)b->outside / (double)b->runs;
    return (fb > fa) - (fb < fa);
}

static void print_hosts(struct check *c)
{
    qsort(c->hosts, c->nhosts, sizeof *c->hosts, cmp_tally);
    printf("# hosts (a host outside in more than half of its runs, at least 2, is a suspect):\n");
    for (size_t i = 0; i < c->nhosts; i++) {
        const struct host_tally *t = &c->hosts[i];
        int suspect = t->runs >= 2 && 2 * t->outside > t->runs;
        printf("#   %s: outside in %zu of %zu runs%s%s%s%s\n", t->name, t->outside, t->runs,
               t->where[0] ? " (" : "", t->where, t->where[0] ? ")" : "",
               suspect ? " - suspect" : "");
    }
}

static enum p2pb_status check(const struct p2pb_args *a, char *err, size_t errlen)
{
    struct p2pb_baseline base;
    struct check c = {.base = &base, .floor = a->threshold};
    size_t n = a->nfiles[0];
    if (n < 2)
        return p2pb_fail(
            P2PB_EUSAGE, err, errlen,
            "baseline check needs BASE.json and at least one results file" P2PB_TRY_HELP);
    enum p2pb_status st = p2pb_baseline_read(a->files[0][0], a->max_file_bytes, &base, err, errlen);
    if (st != P2PB_OK)
        return st;
    c.hosts = calloc(MAX_HOSTS, sizeof *c.hosts);
    struct p2pb_results_data *files = calloc(n, sizeof *files);
    st = c.hosts && files ? load_all(a->files[0] + 1, n - 1, a->max_file_bytes, files, err, errlen)
                          : p2pb_fail(P2PB_ENOMEM, err, errlen, "out of memory");
    if (st == P2PB_OK) {
        printf("# baseline check against %s: envelope = prediction interval for one launch, "
               "%.0f%% for all of a run's values together, at least +-%.0f%% (-t)\n",
               a->files[0][0], 100 * P2PB_BASELINE_LEVEL, 100 * a->threshold);
        for (size_t i = 0; i + 1 < n; i++)
            check_run(&c, &files[i]);
        print_hosts(&c);
        printf("# %zu run%s: %zu outside, %zu without a baseline for their class\n", c.runs,
               c.runs == 1 ? "" : "s", c.outside, c.nobase);
    }
    if (st == P2PB_OK && fflush(stdout) != 0)
        st = p2pb_fail(P2PB_EIO, err, errlen, "cannot write to standard output");
    if (st == P2PB_OK && a->fail_on_outside && c.outside)
        st = p2pb_fail(P2PB_EVERIFY, err, errlen,
                       "%zu of %zu runs outside the baseline "
                       "(--fail-on-outside)",
                       c.outside, c.runs);
    free_all(files, n - 1);
    free(c.hosts);
    p2pb_baseline_free(&base);
    return st;
}

enum p2pb_status p2pb_cmd_baseline(struct p2pb_args *a, char *err, size_t errlen)
{
    int is_build = strcmp(a->verb, "build") == 0;
    if (is_build && a->fail_on_outside)
        return p2pb_fail(P2PB_EUSAGE, err, errlen,
                         "--fail-on-outside is an option of baseline check" P2PB_TRY_HELP);
    if (!is_build && a->output)
        return p2pb_fail(P2PB_EUSAGE, err, errlen,
                         "-o is an option of baseline build" P2PB_TRY_HELP);
    return is_build ? build(a, err, errlen) : check(a, err, errlen);
}

static const unsigned char baseline_options[] = {RO_OUTPUT, RO_THRESHOLD, RO_FAIL_ON_OUTSIDE};

static const char *const baseline_verbs[] = {"build", "check", NULL};
const struct p2pb_report_cmd p2pb_cmd_baseline_def = {
    .name = "baseline",
    .run = p2pb_cmd_baseline,
    .expand_dirs = 1,
    .synopsis = "build RUN... -o BASE.json\n"
                "| check BASE.json RUN... [-t PCT] [--fail-on-outside]",
    .help = "build: an envelope per host class (CPU model, hypervisor, MPI library, link\n"
            "profile, host count), row and metric from many launches; check: each new\n"
            "launch's rows ok, outside (slower|faster) or without a baseline for its class,\n"
            "and the hosts the outside launches share (docs/report.md, \"Baselines\")",
    .verbs = baseline_verbs,
    .options = baseline_options,
    .noptions = sizeof baseline_options,
};
