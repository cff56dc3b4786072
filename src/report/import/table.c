/* SPDX-License-Identifier: MIT */
/*
 * The parsed model of a log (groups of tables of rows, import.h), the checks
 * on tables and rows, the unit of a group's rates and the results records
 * made from them.
 *
 * Unit inference: with t in usec, bytes_factor * X / t is MB/s in 10^6 B; a
 * logged rate in 2^20 B is that / 1.048576. So bytes_factor * X / (t * rate)
 * is 1 for 10^6 B and 1.048576 for 2^20 B; the rows of 64 KiB and more (where
 * the rates have enough digits) decide within 2%.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "import.h"
#include "text.h"
#include "version.h"

/* ---- model ---- */

void p2pb_imp_note(struct p2pb_imp_log *lg, struct p2pb_imp_group *g, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    p2pb_text_sanitize(buf); /* it may quote the log's own text */
    if (lg->msg) {
        char shown[1024];
        snprintf(shown, sizeof shown, "%s", lg->path);
        p2pb_text_sanitize(shown);
        fprintf(lg->msg, "%s: %s\n", shown, buf);
    }
    if (g && g->notes)
        cJSON_AddItemToArray(g->notes, cJSON_CreateString(buf));
}

void p2pb_imp_name_clean(char *s)
{
    for (char *c = s; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f || *c == '/')
            *c = '_';
    p2pb_text_sanitize(s);
}

struct p2pb_imp_group *p2pb_imp_group_new(struct p2pb_imp_log *lg, const char *label)
{
    struct p2pb_imp_group *n = realloc(lg->groups, (lg->ngroups + 1) * sizeof *n);
    if (!n)
        return NULL;
    lg->groups = n;
    struct p2pb_imp_group *g = &n[lg->ngroups++];
    memset(g, 0, sizeof *g);
    snprintf(g->label, sizeof g->label, "%s", label);
    p2pb_imp_name_clean(g->label);
    g->mb_pow2 = -1;
    g->header = cJSON_CreateObject();
    g->notes = cJSON_CreateArray();
    if (!g->header || !g->notes)
        return NULL;
    return g;
}

struct p2pb_imp_table *p2pb_imp_table_new(struct p2pb_imp_group *g, const struct p2pb_imp_kind *k)
{
    struct p2pb_imp_table *n = realloc(g->tabs, (g->ntabs + 1) * sizeof *n);
    if (!n)
        return NULL;
    g->tabs = n;
    struct p2pb_imp_table *t = &n[g->ntabs++];
    memset(t, 0, sizeof *t);
    t->bytes_factor = 1.0;
    if (k) {
        snprintf(t->kernel, sizeof t->kernel, "%s", k->kernel);
        snprintf(t->display, sizeof t->display, "%s", k->display);
        t->bytes_factor = k->bytes_factor;
        t->traits = k->traits;
    }
    return t;
}

void p2pb_imp_row_init(struct p2pb_imp_row *r, const char *variant)
{
    memset(r, 0, sizeof *r);
    r->reps = r->t = r->tmin = r->tmax = r->tavg = r->mbps = r->msgs = NAN;
    snprintf(r->variant, sizeof r->variant, "%s", variant);
}

struct p2pb_imp_row *p2pb_imp_row_new(struct p2pb_imp_table *t)
{
    if (t->nrows == t->cap) {
        size_t nc = t->cap ? 2 * t->cap : 32;
        struct p2pb_imp_row *n = realloc(t->rows, nc * sizeof *n);
        if (!n)
            return NULL;
        t->rows = n;
        t->cap = nc;
    }
    struct p2pb_imp_row *r = &t->rows[t->nrows++];
    p2pb_imp_row_init(r, t->variant);
    return r;
}

void p2pb_imp_table_drop_empty(struct p2pb_imp_group *g, struct p2pb_imp_table *t)
{
    if (t->nrows == 0) {
        g->ntabs--;
        free(t->rows);
        t->rows = NULL;
    }
}

void p2pb_imp_groups_free(struct p2pb_imp_log *lg)
{
    for (size_t i = 0; i < lg->ngroups; i++) {
        struct p2pb_imp_group *g = &lg->groups[i];
        for (size_t j = 0; j < g->ntabs; j++)
            free(g->tabs[j].rows);
        free(g->tabs);
        cJSON_Delete(g->header);
        cJSON_Delete(g->notes);
    }
    free(lg->groups);
    lg->groups = NULL;
    lg->ngroups = 0;
}

/* ---- checks on tables and rows ---- */

void p2pb_imp_cut_short(struct p2pb_imp_log *lg, struct p2pb_imp_group *g,
                        const struct p2pb_imp_table *t, long maxbytes, int partial, size_t line_no)
{
    if (partial)
        p2pb_imp_note(lg, g, "warning: line %zu: %s table cut short (incomplete row)", line_no,
                      t->display);
    else if (maxbytes > 0 && t->nrows && t->rows[t->nrows - 1].bytes < (size_t)maxbytes &&
             t->layout >= 0)
        p2pb_imp_note(
            lg, g,
            "warning: %s table (line %ld) ends at %zu bytes; the header announced %ld: cut short",
            t->display, t->line, t->rows[t->nrows - 1].bytes, maxbytes);
}

void p2pb_imp_repeat_variant(struct p2pb_imp_group *g, struct p2pb_imp_table *t)
{
    int count = 0;
    for (size_t i = 0; i + 1 < g->ntabs; i++)
        if (strcmp(g->tabs[i].kernel, t->kernel) == 0 &&
            strncmp(g->tabs[i].variant, t->variant, strlen(t->variant)) == 0)
            count++;
    if (count) {
        char v[64];
        snprintf(v, sizeof v, "%.20s%srun %d", t->variant, t->variant[0] ? " " : "", count + 1);
        snprintf(t->variant, sizeof t->variant, "%.31s", v);
    }
}

/* The last row of t of r's variant; NULL if none. */
static const struct p2pb_imp_row *last_of_variant(const struct p2pb_imp_table *t,
                                                  const struct p2pb_imp_row *r)
{
    for (size_t q = t->nrows; q-- > 0;)
        if (strcmp(t->rows[q].variant, r->variant) == 0)
            return &t->rows[q];
    return NULL;
}

/* A logged value (NAN: not logged) that is negative or not finite, or
 * positive but subnormal (1e-310), a time t of 0 or a msg/s of 0 (no time
 * follows from it): the results file's reader refuses such rows; name in
 * *bad, what is wrong in *what. */
static int bad_value(const struct p2pb_imp_row *r, const char **bad, double *val, const char **what)
{
    const struct {
        const char *name;
        double v;
    } f[] = {{"t", r->t},       {"t_min", r->tmin}, {"t_max", r->tmax},      {"t_avg", r->tavg},
             {"rate", r->mbps}, {"msg/s", r->msgs}, {"repetitions", r->reps}};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        if (!isnan(f[i].v) && (!isfinite(f[i].v) || f[i].v < 0)) {
            *bad = f[i].name;
            *val = f[i].v;
            *what = "negative or not finite";
            return 1;
        } else if (f[i].v > 0 && !isnormal(f[i].v)) {
            *bad = f[i].name;
            *val = f[i].v;
            *what = "too small (not a normal number)";
            return 1;
        }
    if (r->t == 0) { /* a measured size has a positive time */
        *bad = "t";
        *val = 0;
        *what = "zero (a measured size has a positive time)";
        return 1;
    }
    if (r->msgs == 0) { /* IMB Msg/sec: messages per second, so 1 / t */
        *bad = "msg/s";
        *val = 0;
        *what = "zero (an infinite time)";
        return 1;
    }
    return 0;
}

/* bytes_factor x X / (t x rate): 1 for 10^6 B, 1.048576 for 2^20 B; 0 when
 * the row has too few digits to say (under 1 KiB or 1 MB/s). */
static double rate_fit(const struct p2pb_imp_table *t, const struct p2pb_imp_row *r)
{
    if (t->infer_factor || r->t_derived || r->bytes < 1024 || !(r->t > 0) || !(r->mbps >= 1))
        return 0;
    return (t->logged_bf > 0 ? t->logged_bf : t->bytes_factor) * (double)r->bytes /
           (r->t * r->mbps);
}

int p2pb_imp_row_ok(const struct p2pb_imp_table *t, const struct p2pb_imp_row *r, char *why,
                    size_t whylen)
{
    const struct p2pb_imp_row *prev = last_of_variant(t, r);
    const char *bad, *what;
    double v, fit = rate_fit(t, r);
    if (prev && r->bytes <= prev->bytes)
        snprintf(why, whylen, "message size %zu after %zu: sizes must ascend", r->bytes,
                 prev->bytes);
    else if (bad_value(r, &bad, &v, &what))
        snprintf(why, whylen, "%s %g is %s", bad, v, what);
    else if (!isfinite(r->t)) /* the results file's rows have a time */
        snprintf(why, whylen, "no time: the row has no t column and no msg/s to derive it from");
    else if (!isfinite(t->bytes_factor * (double)r->bytes / r->t))
        snprintf(why, whylen, "%g x %zu B / %g usec is not a finite rate", t->bytes_factor,
                 r->bytes, r->t);
    else if (!isnan(r->reps) && r->reps < 1)
        snprintf(why, whylen, "repetitions %g below 1", r->reps);
    else if (!isnan(r->reps) && r->reps > 9007199254740992.0) /* the reader's limit, 2^53 */
        snprintf(why, whylen, "repetitions %g above 2^53", r->reps);
    else if (r->tmin > r->tmax + 0.005 || r->tavg > r->tmax + 0.005 || r->tmin > r->tavg + 0.005)
        snprintf(why, whylen, "t_min %g, t_avg %g, t_max %g out of order", r->tmin, r->tavg,
                 r->tmax);
    else if (fit > 0 && (fit < 0.75 || fit > 1.25 * P2PB_IMP_MIB_PER_MB))
        snprintf(why, whylen,
                 "rate %g MB/s contradicts %g x %zu B / %g usec (off by a factor %.3g)", r->mbps,
                 t->bytes_factor, r->bytes, r->t, fit);
    else
        return 1;
    return 0;
}

void p2pb_imp_bad_row(struct p2pb_imp_log *lg, struct p2pb_imp_group *g,
                      const struct p2pb_imp_table *t, size_t line_no, const char *why)
{
    p2pb_imp_note(lg, g,
                  "warning: line %zu: %s table (line %ld) cut short: %s; the %zu row%s before "
                  "it kept",
                  line_no, t->display, t->line, why, t->nrows, t->nrows == 1 ? "" : "s");
    size_t used = strlen(lg->nothing);
    if (t->nrows == 0 && used + 1 < sizeof lg->nothing)
        snprintf(lg->nothing + used, sizeof lg->nothing - used,
                 "%sthe %s table (line %ld) has no valid row (line %zu: %.200s)", used ? "; " : "",
                 t->display, t->line, line_no, why);
}

void p2pb_imp_skip(struct p2pb_imp_scan *sc, const char *name)
{
    struct p2pb_imp_skips *s = &sc->skips;
    s->total++;
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->name[i], name) == 0) {
            s->count[i]++;
            return;
        }
    if (s->n < sizeof s->name / sizeof s->name[0]) {
        snprintf(s->name[s->n], sizeof s->name[0], "%s", name);
        s->count[s->n++] = 1;
    }
}

void p2pb_imp_skips_text(const struct p2pb_imp_skips *s, char *buf, size_t len)
{
    buf[0] = '\0';
    for (size_t i = 0; i < s->n; i++) {
        size_t used = strlen(buf);
        char cnt[16] = "";
        if (s->count[i] > 1)
            snprintf(cnt, sizeof cnt, " x%d", s->count[i]);
        snprintf(buf + used, len - used, "%s%s%s", used ? ", " : "", s->name[i], cnt);
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void p2pb_imp_infer_factor(struct p2pb_imp_table *t)
{
    int fixed = p2pb_kernel_has(t->kernel, P2PB_FACT_FIXED_BYTES);
    double v[64];
    size_t n = 0;
    for (size_t i = 0; i < t->nrows && n < 64; i++) {
        const struct p2pb_imp_row *r = &t->rows[i];
        if (r->bytes > 0 && r->t > 0 && r->mbps >= 1)
            v[n++] = r->mbps * r->t / (fixed ? 1.0 : (double)r->bytes);
    }
    if (!n)
        return;
    qsort(v, n, sizeof v[0], cmp_double);
    double m = v[n / 2];
    if (!fixed) {
        t->bytes_factor = m >= 1 ? floor(m + 0.5) : 1; /* W or 2 W messages of X bytes */
        return;
    }
    double p2 = exp2(floor(log2(m) + 0.5));
    t->fixed_bytes = fabs(m / p2 - 1) < 0.02 ? p2 : floor(m + 0.5);
}

/* ---- unit of the rates ---- */

/* 1 (2^20 B) or 0 (10^6 B) when the rows fit one unit within 2%, else -1. */
static int infer_pow2(const struct p2pb_imp_group *g)
{
    double sum = 0;
    size_t cnt = 0;
    for (size_t k = 0; k < g->ntabs; k++)
        for (size_t i = 0; i < g->tabs[k].nrows; i++) {
            const struct p2pb_imp_row *r = &g->tabs[k].rows[i];
            if (r->bytes < 65536 || !(r->t > 0) || !(r->mbps > 0) || r->t_derived ||
                g->tabs[k].infer_factor)
                continue;
            double bf = g->tabs[k].logged_bf > 0 ? g->tabs[k].logged_bf : g->tabs[k].bytes_factor;
            sum += log(bf * (double)r->bytes / (r->t * r->mbps));
            cnt++;
        }
    if (!cnt)
        return -1;
    double x = exp(sum / (double)cnt);
    if (fabs(x / P2PB_IMP_MIB_PER_MB - 1.0) < 0.02)
        return 1;
    if (fabs(x - 1.0) < 0.02)
        return 0;
    return -1;
}

/* Version unknown: the rows decide, else 10^6 B. */
static void units_unknown_version(struct p2pb_imp_log *lg, struct p2pb_imp_group *g, int inferred)
{
    if (inferred >= 0) {
        g->mb_pow2 = inferred;
        snprintf(g->units, sizeof g->units,
                 "version unknown; 1 MB = %s inferred from the rows (bytes x factor / t / "
                 "rate)%s",
                 inferred ? "2^20 B" : "10^6 B", inferred ? ", converted to 10^6 B" : "");
    } else {
        g->mb_pow2 = 0;
        snprintf(g->units, sizeof g->units,
                 "version unknown and not inferable; assumed 1 MB = 10^6 B (IMB >= 4, OSU), "
                 "values as logged");
    }
    p2pb_imp_note(lg, g, "units: %s", g->units);
}

/* Version known: its unit, unless the rows fit the other one. */
static void units_known_version(struct p2pb_imp_log *lg, struct p2pb_imp_group *g, int inferred)
{
    if (g->mb_pow2)
        snprintf(g->units, sizeof g->units, "1 MB = 2^20 B (PMB/IMB <= 3.2), converted to 10^6 B");
    else
        snprintf(g->units, sizeof g->units, "1 MB = 10^6 B (%s), as logged",
                 strncmp(g->source, "osu", 3) == 0 ? "OSU" : "IMB >= 4");
    if (inferred >= 0 && inferred != g->mb_pow2) {
        /* the rows are the stronger evidence: X / t / rate fits one unit within 2% */
        const char *ver = g->mb_pow2 ? "2^20 B" : "10^6 B";
        g->mb_pow2 = inferred;
        snprintf(g->units, sizeof g->units,
                 "1 MB = %s: the rows fit it (bytes x factor / t / rate), although %s "
                 "versions are documented with 1 MB = %s%s",
                 inferred ? "2^20 B" : "10^6 B", g->source, ver,
                 inferred ? "; converted to 10^6 B" : "");
        p2pb_imp_note(lg, g, "warning: units: %s", g->units);
    }
}

double p2pb_imp_unit_factor(struct p2pb_imp_log *lg, struct p2pb_imp_group *g)
{
    if (g->units[0])
        return 1.0; /* set by the parser (seed memcpy: rates computed in 10^6 B) */
    int inferred = infer_pow2(g);
    if (g->mb_pow2 < 0)
        units_unknown_version(lg, g, inferred);
    else
        units_known_version(lg, g, inferred);
    return g->mb_pow2 ? P2PB_IMP_MIB_PER_MB : 1.0;
}

/* ---- results records ---- */

/* Host facts from the header, under "hosts" like a native run. */
static void run_hosts(cJSON *run, const struct p2pb_imp_group *g)
{
    cJSON *hosts = cJSON_AddObjectToObject(run, "hosts");
    cJSON *h = cJSON_AddObjectToObject(hosts, "imported");
    static const char *const map[][2] = {{"host", "host"},
                                         {"release", "kernel_release"},
                                         {"machine", "machine"},
                                         {"system", "os"},
                                         {"version", "kernel_version"}};
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(g->header, map[i][0]);
        if (cJSON_IsString(v))
            cJSON_AddStringToObject(h, map[i][1], v->valuestring);
    }
}

cJSON *p2pb_imp_run_record(const struct p2pb_imp_log *lg, const struct p2pb_imp_group *g,
                           int nranks)
{
    cJSON *run = cJSON_CreateObject();
    if (!run)
        return NULL;
    cJSON_AddStringToObject(run, "type", "run");
    cJSON_AddStringToObject(run, "schema", P2PB_SCHEMA);
    cJSON_AddStringToObject(run, "source", g->source[0] ? g->source : "unknown");
    cJSON_AddBoolToObject(run, "imported", 1);
    cJSON_AddStringToObject(run, "imported_from", lg->path);
    cJSON_AddStringToObject(run, "version", P2PB_VERSION);
    cJSON_AddStringToObject(run, "git_commit", P2PB_GIT_COMMIT);
    cJSON_AddStringToObject(run, "label", g->label);
    const cJSON *date = cJSON_GetObjectItemCaseSensitive(g->header, "date");
    cJSON_AddStringToObject(run, "start_utc", cJSON_IsString(date) ? date->valuestring : "");
    const cJSON *mv = cJSON_GetObjectItemCaseSensitive(g->header, "mpi_version");
    const cJSON *lib = cJSON_GetObjectItemCaseSensitive(g->header, "mpi_library");
    char mpi[256] = "";
    if (cJSON_IsString(lib) && lib->valuestring[0]) /* p2pbench's own -f imb */
        snprintf(mpi, sizeof mpi, "%s", lib->valuestring);
    else if (cJSON_IsString(mv) && mv->valuestring[0])
        snprintf(mpi, sizeof mpi, "MPI standard %s (as logged)", mv->valuestring);
    cJSON_AddStringToObject(run, "mpi_library", mpi);
    cJSON_AddNumberToObject(run, "nranks", nranks);
    const cJSON *cs = cJSON_GetObjectItemCaseSensitive(g->header, "calling_sequence");
    cJSON_AddStringToObject(run, "command_line", cJSON_IsString(cs) ? cs->valuestring : "");
    cJSON_AddStringToObject(run, "units_assumed", g->units);
    run_hosts(run, g);
    cJSON_AddItemToObject(run, "import_header", cJSON_Duplicate(g->header, 1));
    cJSON *pol = cJSON_AddObjectToObject(run, "policy");
    cJSON_AddStringToObject(pol, "mode", "imported");
    if (g->rma_window[0]) /* one-sided OSU: "# Window creation: ..." (rma.c) */
        cJSON_AddStringToObject(pol, "rma_window", g->rma_window);
    if (g->rma_sync[0])
        cJSON_AddStringToObject(pol, "rma_sync", g->rma_sync);
    cJSON_AddItemToObject(run, "import_notes", cJSON_Duplicate(g->notes, 1));
    return run;
}

void p2pb_imp_fill_result(const struct p2pb_imp_table *t, const struct p2pb_imp_row *r, double uf,
                          int nranks, struct p2pb_result *o)
{
    memset(o, 0, sizeof *o);
    snprintf(o->kernel, sizeof o->kernel, "%s", t->kernel);
    snprintf(o->display_name, sizeof o->display_name, "%s", t->display);
    snprintf(o->variant, sizeof o->variant, "%s", r->variant);
    o->bytes = r->bytes;
    o->nranks = t->nranks > 0 ? t->nranks : nranks;
    o->active_ranks = t->active > 0 ? t->active : o->nranks;
    o->imb_layout = t->layout;
    o->bytes_factor = t->bytes_factor;
    if (t->fixed_bytes > 0) { /* memcpy: MB/s = buffer / t at every X */
        o->fixed_bytes = t->fixed_bytes;
        o->bytes_factor = r->bytes ? t->fixed_bytes / (double)r->bytes : 0;
    }
    o->samples = 1;
    o->iterations_per_sample = isfinite(r->reps) && r->reps >= 1 ? (size_t)r->reps : 1;
    o->status = P2PB_ROW_OK;
    double tv = r->t;
    o->t.n = 1;
    o->t.min = o->t.p25 = o->t.median = o->t.p75 = o->t.p99 = o->t.max = o->t.mean = tv;
    o->t.stddev = 0;
    o->t_min_usec = r->tmin;
    o->t_max_usec = r->tmax;
    o->t_avg_usec = r->tavg;
    if (t->layout == P2PB_IMB_T && isnan(r->tmax)) {
        /* one time column (IMB PingPong/PingPing t[usec], OSU): that is IMB's time
         * for the row; p2pbench fills t_min = t_max = t_avg likewise */
        o->t_min_usec = o->t_max_usec = o->t_avg_usec = tv;
    }
    double rate = isfinite(r->mbps) ? r->mbps * uf : NAN;
    if (t->logged_bf > 0) /* IMB Bidir_*: one direction logged, both stored */
        rate *= t->bytes_factor / t->logged_bf;
    /* A logged rate below 1 has at most 2 significant digits (IMB and PMB print
     * 2 decimals: 0.01 for 0.0064): where the log has the time, the rate follows
     * from the definition, bytes_factor x X / t, with the time's precision. */
    if (tv > 0 && !r->t_derived && !t->rate_is_sum && (!isfinite(rate) || r->mbps < 1.0))
        rate = p2pb_mbytes_per_sec(t->bytes_factor, r->bytes, tv);
    o->mbytes_per_sec = rate;
    o->mbytes_per_sec_imb = rate;
    o->ci_target_met = -1; /* no sampling policy behind an imported value */
    char extra[64] = "", head[64] = "", note[320];
    if (isfinite(r->msgs))
        snprintf(extra, sizeof extra, "%smessages/s %.2f", r->note[0] ? ", " : "", r->msgs);
    if (r->t_derived == 2)
        snprintf(head, sizeof head, "t = 1 / (messages/s), one message");
    else if (r->t_derived)
        snprintf(head, sizeof head, "t derived from the logged rate: %g x bytes / MB/s",
                 t->bytes_factor);
    snprintf(note, sizeof note, "%s%s%s%s", head, head[0] && (r->note[0] || extra[0]) ? "; " : "",
             r->note, extra);
    snprintf(o->note, sizeof o->note, "%.159s", note);
}

int p2pb_imp_row_append(struct p2pb_imp_log *lg, struct p2pb_imp_group *g, struct p2pb_imp_table *t,
                        const struct p2pb_imp_row *r, size_t line_no)
{
    char why[160];
    struct p2pb_imp_row s = *r;
    if (t->t_scale > 0) { /* one transfer's logged time: the iteration's (p2pb_imp_own_rma) */
        s.t *= t->t_scale;
        s.tmin *= t->t_scale;
        s.tmax *= t->t_scale;
        s.tavg *= t->t_scale;
    }
    if (!p2pb_imp_row_ok(t, &s, why, sizeof why)) {
        p2pb_imp_bad_row(lg, g, t, line_no, why);
        return 0;
    }
    struct p2pb_imp_row *n = p2pb_imp_row_new(t);
    if (!n)
        return -1;
    *n = s;
    return 1;
}
