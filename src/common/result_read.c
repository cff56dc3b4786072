/* SPDX-License-Identifier: MIT */
/*
 * Reading a JSON Lines results file back (the writer is result_io.c): each
 * line through cJSON, each record checked, with bounds on the line length and
 * the file size, and an index of the rows by (kernel, variant, bytes).
 */
#include "p2pbench/result.h"
#include "array.h"
#include "row_index.h"
#include "input.h"
#include "text.h"
#include "overlap.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static double get_num(const cJSON *o, const char *name, double dflt)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    return cJSON_IsNumber(v) ? v->valuedouble : dflt;
}

/* A non-negative integer field: absent gives dflt; present but negative,
 * fractional, non-finite or above max fails (no undefined casts). */
static int get_count(const cJSON *o, const char *name, double dflt, double max, double *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    if (!v || cJSON_IsNull(v)) {
        *out = dflt;
        return 0;
    }
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble < 0 ||
        v->valuedouble > max || v->valuedouble != floor(v->valuedouble))
        return -1;
    *out = v->valuedouble;
    return 0;
}

static void get_str(const cJSON *o, const char *name, char *dst, size_t len)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    if (cJSON_IsString(v) && v->valuestring) {
        snprintf(dst, len, "%s", v->valuestring);
        p2pb_text_sanitize(dst); /* text from a file: no control characters on a terminal */
    }
}

/* "round_medians_usec" (at most P2PB_MAX_ROUNDS numbers, all > 0) into r;
 * absent: no rounds. Returns 0, or -1 when it is not such a list. */
static int get_rounds(const cJSON *o, struct p2pb_result *r)
{
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, "round_medians_usec"), *v;
    if (!m)
        return 0;
    if (!cJSON_IsArray(m))
        return -1;
    cJSON_ArrayForEach(v, m)
    {
        if (!cJSON_IsNumber(v) || !(v->valuedouble > 0) || !isfinite(v->valuedouble))
            return -1;
        if (r->rounds < P2PB_MAX_ROUNDS)
            r->round_medians[r->rounds++] = v->valuedouble;
    }
    return 0;
}

/* A real field name of o (shown as prefix + name): absent or null give
 * dflt (null: the writer's "not known", e.g. a CI of fewer than 6 samples);
 * a finite number gives itself; anything else (a string, an object, a number
 * beyond the double range such as 1e999, read as infinite) fails naming it. */
static enum p2pb_status get_real(const cJSON *o, const char *prefix, const char *name, double dflt,
                                 double *out, char *err, size_t errlen)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    *out = dflt;
    if (!v || cJSON_IsNull(v))
        return P2PB_OK;
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble))
        return p2pb_fail(P2PB_EFORMAT, err, errlen, "field \"%s%s\" is not a finite number", prefix,
                         name);
    *out = v->valuedouble;
    return P2PB_OK;
}

/* The real fields of object o (prefix "t_usec." etc.), n of them, into
 * their destinations; absent or null: NAN. */
struct real_field {
    const char *name;
    double *dst;
};

static enum p2pb_status get_reals(const cJSON *o, const char *prefix, const struct real_field *f,
                                  size_t n, char *err, size_t errlen)
{
    enum p2pb_status st = P2PB_OK;
    for (size_t i = 0; i < n && st == P2PB_OK; i++)
        st = get_real(o, prefix, f[i].name, NAN, f[i].dst, err, errlen);
    return st;
}

/* "t_usec" into r->t (r->samples and r->status set). A row with status ok
 * must have it, with finite "min", "median" and "max": its value is the
 * median (docs/output-format.md); other rows carry no numbers (absent, or
 * checked like any other). */
static enum p2pb_status get_times(const cJSON *o, struct p2pb_result *r, char *err, size_t errlen)
{
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(o, "t_usec");
    r->t.min = r->t.p25 = r->t.median = r->t.p75 = r->t.p99 = r->t.max = NAN;
    r->t.mean = r->t.stddev = NAN;
    if (!cJSON_IsObject(t) && r->status != P2PB_ROW_OK)
        return P2PB_OK;
    if (!cJSON_IsObject(t))
        return p2pb_fail(P2PB_EFORMAT, err, errlen,
                         "result record with status ok but no \"t_usec\" object");
    const struct real_field f[] = {
        {"min", &r->t.min}, {"p25", &r->t.p25}, {"median", &r->t.median}, {"p75", &r->t.p75},
        {"p99", &r->t.p99}, {"max", &r->t.max}, {"mean", &r->t.mean},     {"stddev", &r->t.stddev}};
    double lo, hi;
    enum p2pb_status st = get_reals(t, "t_usec.", f, sizeof f / sizeof f[0], err, errlen);
    if (st == P2PB_OK)
        st = get_real(t, "t_usec.", "ci95_low", NAN, &lo, err, errlen);
    if (st == P2PB_OK)
        st = get_real(t, "t_usec.", "ci95_high", NAN, &hi, err, errlen);
    if (st != P2PB_OK)
        return st;
    static const char *const need[] = {"min", "median", "max"};
    const double v[] = {r->t.min, r->t.median, r->t.max};
    for (size_t i = 0; i < sizeof need / sizeof need[0] && r->status == P2PB_ROW_OK; i++)
        if (isnan(v[i]))
            return p2pb_fail(P2PB_EFORMAT, err, errlen,
                             "field \"t_usec.%s\" is missing or null in a row with status ok",
                             need[i]);
    r->t.n = r->samples;
    r->t.ci_valid = !isnan(lo) && !isnan(hi);
    r->t.ci95_low = r->t.ci_valid ? lo : 0;
    r->t.ci95_high = r->t.ci_valid ? hi : 0;
    return P2PB_OK;
}

/* "status": a string naming a row status (the writer always writes one),
 * else the record is refused. */
static enum p2pb_status get_status(const cJSON *o, struct p2pb_result *r, char *err, size_t errlen)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "status");
    if (!cJSON_IsString(v))
        return p2pb_fail(P2PB_EFORMAT, err, errlen,
                         "field \"status\" is %s (ok, skipped, failed, timeout)",
                         v ? "not a string" : "missing");
    char status[16] = "";
    get_str(o, "status", status, sizeof status);
    int s = p2pb_row_status_parse(status);
    if (s < 0)
        return p2pb_fail(P2PB_EFORMAT, err, errlen, "unknown row status '%s'", status);
    r->status = (enum p2pb_row_status)s;
    return P2PB_OK;
}

/* The integer fields, each checked before it is converted. */
static enum p2pb_status get_counts(const cJSON *o, struct p2pb_result *r, char *err, size_t errlen)
{
    static const struct {
        const char *name;
        double dflt, max;
    } counts[] = {
        {"bytes", 0, 9007199254740992.0}, /* 2^53: exact in a double */
        {"nranks", 0, 2147483647.0},        {"active_ranks", 0, 2147483647.0},
        {"samples", 0, 9007199254740992.0}, {"iterations_per_sample", 1, 9007199254740992.0},
        {"warmup", 0, 9007199254740992.0},  {"outliers", 0, 9007199254740992.0},
        {"warmup_capped", 0, 1000000.0},
    };
    double cv[sizeof counts / sizeof counts[0]];
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        if (get_count(o, counts[i].name, counts[i].dflt, counts[i].max, &cv[i]) != 0) {
            return p2pb_fail(P2PB_EFORMAT, err, errlen, "field \"%s\" is not an integer in 0..%.0f",
                             counts[i].name, counts[i].max);
        }
    r->bytes = (size_t)cv[0];
    r->nranks = (int)cv[1];
    r->active_ranks = cJSON_GetObjectItemCaseSensitive(o, "active_ranks") ? (int)cv[2] : r->nranks;
    r->samples = (size_t)cv[3];
    r->iterations_per_sample = (size_t)cv[4];
    r->warmup = (size_t)cv[5];
    r->t.outliers = (size_t)cv[6];
    r->warmup_capped = (size_t)cv[7];
    return P2PB_OK;
}

/* The real fields outside "t_usec"; a measured time or rate of an ok row
 * is never negative (docs/methodology.md: a failed size is a status, not a
 * number). */
static enum p2pb_status get_rates(const cJSON *o, struct p2pb_result *r, char *err, size_t errlen)
{
    const struct real_field f[] = {
        {"warmup_sec", &r->warmup_sec},         {"t_min_usec", &r->t_min_usec},
        {"t_max_usec", &r->t_max_usec},         {"t_avg_usec", &r->t_avg_usec},
        {"mbytes_per_sec", &r->mbytes_per_sec}, {"mbytes_per_sec_imb", &r->mbytes_per_sec_imb}};
    enum p2pb_status st = get_reals(o, "", f, sizeof f / sizeof f[0], err, errlen);
    if (st == P2PB_OK)
        st = get_real(o, "", "bytes_factor", 1.0, &r->bytes_factor, err, errlen);
    if (st == P2PB_OK)
        st = get_real(o, "", "time_scale", 1.0, &r->time_scale, err, errlen);
    if (st == P2PB_OK)
        st = get_real(o, "", "fixed_bytes", 0.0, &r->fixed_bytes, err, errlen);
    if (st == P2PB_OK)
        st = get_real(o, "", "msgs_per_iter", 0.0, &r->msgs_factor, err, errlen);
    if (st == P2PB_OK)
        st = get_real(o, "", "msgs_per_sec", 0.0, &r->msgs_per_sec, err, errlen);
    if (st != P2PB_OK)
        return st;
    if (isnan(r->mbytes_per_sec_imb))
        r->mbytes_per_sec_imb = r->mbytes_per_sec;
    if (r->warmup_sec < 0)
        return p2pb_fail(P2PB_EFORMAT, err, errlen, "field \"warmup_sec\" is negative");
    if (r->status == P2PB_ROW_OK) {
        const double v[] = {r->t.min, r->t.median, r->t.max, r->mbytes_per_sec, r->msgs_per_sec};
        static const char *const nm[] = {"t_usec.min", "t_usec.median", "t_usec.max",
                                         "mbytes_per_sec", "msgs_per_sec"};
        for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
            if (v[i] < 0) {
                return p2pb_fail(P2PB_EFORMAT, err, errlen, "field \"%s\" is negative (%g)", nm[i],
                                 v[i]);
            }
    }
    return P2PB_OK;
}

/* What the readers derive from an ok row must be a finite number: its
 * median positive, every time and rate 0 or a normal double (a subnormal
 * such as 1e-310 is no measurement and makes bytes / t infinite), the
 * factors finite and non-negative, and the bytes moved (bytes_factor x
 * bytes, or fixed_bytes) and the messages over the shortest time finite
 * (compare, plot and html divide by every time of the row). */
static enum p2pb_status check_derived(const struct p2pb_result *r, char *err, size_t errlen)
{
    const struct {
        const char *name;
        double v;
        int time; /* a time in usec (else a factor or a rate) */
    } f[] = {{"t_usec.min", r->t.min, 1},
             {"t_usec.p25", r->t.p25, 1},
             {"t_usec.median", r->t.median, 1},
             {"t_usec.p75", r->t.p75, 1},
             {"t_usec.p99", r->t.p99, 1},
             {"t_usec.max", r->t.max, 1},
             {"t_usec.mean", r->t.mean, 1},
             {"t_usec.ci95_low", r->t.ci95_low, 1},
             {"t_usec.ci95_high", r->t.ci95_high, 1},
             {"t_min_usec", r->t_min_usec, 1},
             {"t_max_usec", r->t_max_usec, 1},
             {"t_avg_usec", r->t_avg_usec, 1},
             {"bytes_factor", r->bytes_factor, 0},
             {"fixed_bytes", r->fixed_bytes, 0},
             {"msgs_per_iter", r->msgs_factor, 0},
             {"mbytes_per_sec", r->mbytes_per_sec, 0},
             {"mbytes_per_sec_imb", r->mbytes_per_sec_imb, 0},
             {"msgs_per_sec", r->msgs_per_sec, 0},
             {"time_scale", r->time_scale, 0}};
    if (r->status != P2PB_ROW_OK)
        return P2PB_OK;
    if (!(r->t.median > 0))
        return p2pb_fail(P2PB_EFORMAT, err, errlen,
                         "field \"t_usec.median\" is %g in a row with status ok (a measured "
                         "size has a positive time)",
                         r->t.median);
    double shortest = r->t.median;
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        if (isnan(f[i].v) || f[i].v == 0)
            continue;
        if (f[i].v < 0 || !isnormal(f[i].v))
            return p2pb_fail(P2PB_EFORMAT, err, errlen, "field \"%s\" is %s (%g)", f[i].name,
                             f[i].v < 0 ? "negative" : "too small: not a normal number", f[i].v);
        if (f[i].time && f[i].v < shortest)
            shortest = f[i].v;
    }
    double moved = r->fixed_bytes > 0 ? r->fixed_bytes : r->bytes_factor * (double)r->bytes;
    if (!isfinite(moved / shortest))
        return p2pb_fail(P2PB_EFORMAT, err, errlen,
                         "field \"%s\" (%g) over %g usec is not a finite rate",
                         r->fixed_bytes > 0 ? "fixed_bytes" : "bytes_factor",
                         r->fixed_bytes > 0 ? r->fixed_bytes : r->bytes_factor, shortest);
    if (!isfinite(r->msgs_factor / shortest * 1e6))
        return p2pb_fail(P2PB_EFORMAT, err, errlen,
                         "field \"msgs_per_iter\" (%g) over %g usec is not a finite rate",
                         r->msgs_factor, shortest);
    return P2PB_OK;
}

/* "overhead" {"vs", "ratio"} (absent: ratio NAN). */
static enum p2pb_status get_overhead(const cJSON *o, struct p2pb_result *r, char *err,
                                     size_t errlen)
{
    const cJSON *ov = cJSON_GetObjectItemCaseSensitive(o, "overhead");
    r->overhead = NAN;
    if (!cJSON_IsObject(ov))
        return P2PB_OK;
    get_str(ov, "vs", r->overhead_vs, sizeof r->overhead_vs);
    return get_real(ov, "overhead.", "ratio", NAN, &r->overhead, err, errlen);
}

/* "asymmetry" {"vs", "ratio"} (absent: ratio NAN). */
static enum p2pb_status get_asymmetry(const cJSON *o, struct p2pb_result *r, char *err,
                                      size_t errlen)
{
    const cJSON *asym = cJSON_GetObjectItemCaseSensitive(o, "asymmetry");
    r->asymmetry = NAN;
    if (!cJSON_IsObject(asym))
        return P2PB_OK;
    get_str(asym, "vs", r->asym_ref, sizeof r->asym_ref);
    return get_real(asym, "asymmetry.", "ratio", NAN, &r->asymmetry, err, errlen);
}

enum p2pb_status p2pb_result_from_json(const void *obj, struct p2pb_result *r, char *err,
                                       size_t errlen)
{
    const cJSON *o = obj;
    memset(r, 0, sizeof *r);
    const cJSON *kernel = cJSON_GetObjectItemCaseSensitive(o, "kernel");
    const cJSON *bytes = cJSON_GetObjectItemCaseSensitive(o, "bytes");
    if (!cJSON_IsString(kernel) || !cJSON_IsNumber(bytes)) {
        return p2pb_fail(P2PB_EFORMAT, err, errlen,
                         "result record without a valid \"kernel\" and \"bytes\"");
    }
    enum p2pb_status st = get_counts(o, r, err, errlen);
    if (st != P2PB_OK)
        return st;
    get_str(o, "kernel", r->kernel, sizeof r->kernel);
    get_str(o, "display_name", r->display_name, sizeof r->display_name);
    if (!r->display_name[0])
        snprintf(r->display_name, sizeof r->display_name, "%s", r->kernel);
    get_str(o, "variant", r->variant, sizeof r->variant);
    get_str(o, "note", r->note, sizeof r->note);
    get_str(o, "count_path", r->count_path, sizeof r->count_path);
    const cJSON *lay = cJSON_GetObjectItemCaseSensitive(o, "imb_layout");
    r->imb_layout = cJSON_IsString(lay) && strcmp(lay->valuestring, "tminmaxavg") == 0;
    const cJSON *met = cJSON_GetObjectItemCaseSensitive(o, "ci_target_met");
    r->ci_target_met = cJSON_IsBool(met) ? cJSON_IsTrue(met) : -1;
    st = get_status(o, r, err, errlen);
    if (st == P2PB_OK)
        st = get_times(o, r, err, errlen);
    if (st == P2PB_OK)
        st = get_rates(o, r, err, errlen);
    if (st == P2PB_OK)
        st = check_derived(r, err, errlen);
    if (st == P2PB_OK)
        st = get_asymmetry(o, r, err, errlen);
    if (st == P2PB_OK)
        st = get_overhead(o, r, err, errlen);
    if (st != P2PB_OK)
        return st;
    if (get_rounds(o, r) != 0)
        return p2pb_fail(P2PB_EFORMAT, err, errlen,
                         "field \"round_medians_usec\" is not a list of positive numbers");
    st = p2pb_noise_from_json(o, &r->noise, err, errlen);
    if (st == P2PB_OK)
        st = p2pb_disturbance_from_json(o, &r->disturbance, err, errlen);
    if (st == P2PB_OK)
        st = p2pb_clock_from_json(o, &r->clock, err, errlen);
    if (st == P2PB_OK)
        st = p2pb_bound_from_json(o, &r->bound, err, errlen);
    if (st == P2PB_OK)
        st = p2pb_shift_from_json(o, &r->shift, err, errlen);
    return st == P2PB_OK ? p2pb_overlap_from_json(o, &r->overlap, err, errlen) : st;
}

void p2pb_run_info_from_json(const void *obj, struct p2pb_run_info *ri)
{
    const cJSON *o = obj;
    memset(ri, 0, sizeof *ri);
    get_str(o, "version", ri->version, sizeof ri->version);
    get_str(o, "git_commit", ri->git_commit, sizeof ri->git_commit);
    get_str(o, "label", ri->label, sizeof ri->label);
    get_str(o, "start_utc", ri->start_utc, sizeof ri->start_utc);
    get_str(o, "mpi_library", ri->mpi_library, sizeof ri->mpi_library);
    get_str(o, "source", ri->source, sizeof ri->source);
    double nr = get_num(o, "nranks", 0);
    ri->nranks = isfinite(nr) && nr >= 0 && nr <= 2147483647.0 ? (int)nr : 0;
    const cJSON *pol = cJSON_GetObjectItemCaseSensitive(o, "policy");
    if (cJSON_IsObject(pol)) {
        get_str(pol, "mode", ri->policy, sizeof ri->policy);
        ri->check = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(pol, "check"));
        get_str(pol, "state", ri->state, sizeof ri->state);
        if (strcmp(ri->state, "steady") != 0 && strcmp(ri->state, "cold") != 0 &&
            strcmp(ri->state, "unwarmed") != 0)
            ri->state[0] = '\0'; /* an older file, or a value this version does not know */
        ri->bounds = cJSON_GetObjectItemCaseSensitive(pol, "bound") != NULL ||
                     cJSON_GetObjectItemCaseSensitive(pol, "bound_mbytes_per_sec") != NULL;
        double c = get_num(pol, "off_cache_bytes", 0);
        ri->off_cache_bytes = c >= 1 && c <= 9007199254740992.0 ? (size_t)c : 0;
    }
    const cJSON *imp = cJSON_GetObjectItemCaseSensitive(o, "imported");
    ri->imported = cJSON_IsTrue(imp);
    const cJSON *ranks = cJSON_GetObjectItemCaseSensitive(o, "ranks");
    const cJSON *r0 = cJSON_IsArray(ranks) ? cJSON_GetArrayItem(ranks, 0) : NULL;
    const cJSON *hosts = cJSON_GetObjectItemCaseSensitive(o, "hosts");
    if (r0)
        get_str(r0, "host", ri->host, sizeof ri->host);
    else if (cJSON_IsObject(hosts) && cJSON_IsObject(hosts->child)) /* imported: its one host */
        get_str(hosts->child, "host", ri->host, sizeof ri->host);
}

void p2pb_results_data_free(struct p2pb_results_data *d)
{
    cJSON_Delete((cJSON *)d->run);
    cJSON_Delete((cJSON *)d->load);
    free(d->rows);
    if (d->index)
        p2pb_row_index_free(d->index);
    free(d->index);
    memset(d, 0, sizeof *d);
}

/* A key sought in the rows of a file (row_index.h's callback context). */
struct row_key {
    const struct p2pb_result *rows;
    const char *kernel, *variant;
    size_t bytes;
};

static int row_has_key(const void *ctx, size_t pos)
{
    const struct row_key *k = ctx;
    const struct p2pb_result *r = &k->rows[pos];
    return r->bytes == k->bytes && strcmp(r->kernel, k->kernel) == 0 &&
           strcmp(r->variant, k->variant) == 0;
}

const struct p2pb_result *p2pb_results_find(const struct p2pb_results_data *d, const char *kernel,
                                            const char *variant, size_t bytes)
{
    struct row_key k = {d->rows, kernel, variant, bytes};
    if (d->index) {
        long i = p2pb_row_index_find(d->index, p2pb_row_key_hash(kernel, variant, bytes),
                                     row_has_key, &k);
        return i >= 0 ? &d->rows[i] : NULL;
    }
    for (size_t i = 0; i < d->nrows; i++)
        if (row_has_key(&k, i))
            return &d->rows[i];
    return NULL;
}

/* Row n of d, just read, into d's index, or counted in nrepeated when an
 * earlier row has its key. Returns 0, or -1 when out of memory. */
static int index_row(struct p2pb_results_data *d, size_t n)
{
    const struct p2pb_result *r = &d->rows[n];
    if (!d->index && !(d->index = calloc(1, sizeof(struct p2pb_row_index))))
        return -1;
    uint64_t h = p2pb_row_key_hash(r->kernel, r->variant, r->bytes);
    struct row_key k = {d->rows, r->kernel, r->variant, r->bytes};
    if (p2pb_row_index_find(d->index, h, row_has_key, &k) >= 0) {
        d->nrepeated++;
        return 0;
    }
    return p2pb_row_index_insert(d->index, h, n);
}

/* Major version of a schema string "p2pbench/MAJOR[.MINOR]" (digits only),
 * or -1 when it is not one. */
static int schema_major(const cJSON *schema)
{
    if (!cJSON_IsString(schema) || strncmp(schema->valuestring, "p2pbench/", 9) != 0)
        return -1;
    const char *v = schema->valuestring + 9;
    size_t d1 = strspn(v, "0123456789"), d2 = 0;
    if (d1 && v[d1] == '.')
        d2 = strspn(v + d1 + 1, "0123456789");
    if (d1 && d1 < 6 && (v[d1] == '\0' || (v[d1] == '.' && d2 && !v[d1 + 1 + d2])))
        return atoi(v);
    return -1;
}

/* State of one file being read: where, and how far. */
struct reader {
    const char *path;
    long lineno, records;
    size_t cap_rows;
    size_t nread, max_bytes; /* bytes read so far; the limit (0: none) */
    struct p2pb_results_data *out;
};

/* The run record: first line, known major version. Takes o on success. */
static enum p2pb_status read_run(struct reader *rd, cJSON *o, char *err, size_t errlen)
{
    const cJSON *schema = cJSON_GetObjectItemCaseSensitive(o, "schema");
    if (schema_major(schema) != P2PB_SCHEMA_MAJOR)
        return p2pb_fail(P2PB_EFORMAT, err, errlen,
                         "%s:%ld: unsupported schema '%s' (this reader knows %s)", rd->path,
                         rd->lineno, cJSON_IsString(schema) ? schema->valuestring : "(none)",
                         P2PB_SCHEMA);
    if (rd->out->run || rd->records != 1)
        return p2pb_fail(P2PB_EFORMAT, err, errlen, "%s:%ld: run record is not the first line",
                         rd->path, rd->lineno);
    rd->out->run = o;
    p2pb_run_info_from_json(o, &rd->out->info);
    return P2PB_OK;
}

/* A result record: one more row in out->rows (grown by doubling). */
static enum p2pb_status read_result(struct reader *rd, const cJSON *o, char *err, size_t errlen)
{
    struct p2pb_results_data *out = rd->out;
    if (p2pb_array_grow(&out->rows, &rd->cap_rows, out->nrows, sizeof *out->rows) != 0)
        return p2pb_fail(P2PB_ENOMEM, err, errlen, "%s: out of memory", rd->path);
    char sub[256];
    if (p2pb_result_from_json(o, &out->rows[out->nrows], sub, sizeof sub) != P2PB_OK)
        return p2pb_fail(P2PB_EFORMAT, err, errlen, "%s:%ld: %s", rd->path, rd->lineno, sub);
    if (index_row(out, out->nrows) != 0)
        return p2pb_fail(P2PB_ENOMEM, err, errlen, "%s: out of memory", rd->path);
    out->nrows++;
    return P2PB_OK;
}

/* One parsed line, by its "type"; unknown types are skipped (forward
 * compatible within a major version). Takes ownership of o. */
static enum p2pb_status read_record(struct reader *rd, cJSON *o, char *err, size_t errlen)
{
    enum p2pb_status st = P2PB_OK;
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(o, "type");
    if (!cJSON_IsString(type))
        st = p2pb_fail(P2PB_EFORMAT, err, errlen, "%s:%ld: record without a \"type\"", rd->path,
                       rd->lineno);
    else if (strcmp(type->valuestring, "run") == 0) {
        st = read_run(rd, o, err, errlen);
        if (st == P2PB_OK)
            return P2PB_OK; /* o is now out->run */
    } else if (!rd->out->run)
        st = p2pb_fail(P2PB_EFORMAT, err, errlen, "%s:%ld: no run record before this line",
                       rd->path, rd->lineno);
    else if (strcmp(type->valuestring, "result") == 0)
        st = read_result(rd, o, err, errlen);
    else if (strcmp(type->valuestring, "end") == 0) {
        get_str(o, "status", rd->out->end_status, sizeof rd->out->end_status);
        rd->out->complete = strcmp(rd->out->end_status, "complete") == 0;
        cJSON_Delete((cJSON *)rd->out->load); /* the last end record counts */
        rd->out->load = cJSON_DetachItemFromObjectCaseSensitive(o, "load");
    }
    cJSON_Delete(o);
    return st;
}

/* Longest line a results file may hold (bytes): a run record of thousands of
 * ranks and hosts stays far below it; /dev/zero or a binary file does not. */
#define P2PB_MAX_LINE_BYTES ((size_t)16 << 20)

/* What read_line returns besides a length. */
enum { LINE_EOF = -1, LINE_TOO_LONG = -2, LINE_NOMEM = -3, FILE_TOO_LARGE = -4 };

/* One line of rd's file fp, with its '\n', into *line (grown, *cap bytes):
 * returns its length, or LINE_EOF at end of file, LINE_TOO_LONG beyond
 * P2PB_MAX_LINE_BYTES, FILE_TOO_LARGE once rd->max_bytes (> 0) bytes are
 * passed, LINE_NOMEM when out of memory. */
static ssize_t read_line(struct reader *rd, FILE *fp, char **line, size_t *cap)
{
    size_t n = 0;
    int c = 0;
    while ((c = getc_unlocked(fp)) != EOF) {
        if (n >= P2PB_MAX_LINE_BYTES)
            return LINE_TOO_LONG;
        if (rd->max_bytes && ++rd->nread > rd->max_bytes)
            return FILE_TOO_LARGE;
        if (n + 2 > *cap) {
            size_t nc = *cap ? 2 * *cap : 4096;
            if (nc > P2PB_MAX_LINE_BYTES + 2)
                nc = P2PB_MAX_LINE_BYTES + 2;
            char *nl = realloc(*line, nc);
            if (!nl)
                return LINE_NOMEM;
            *line = nl;
            *cap = nc;
        }
        (*line)[n++] = (char)c;
        if (c == '\n')
            break;
    }
    if (n == 0)
        return LINE_EOF;
    (*line)[n] = '\0';
    return (ssize_t)n;
}

/* cJSON_Parse returns NULL both for bad JSON and when out of memory: while a
 * file is read, cJSON allocates through this hook, which notes a failure. */
static int cjson_nomem;

static void *noting_malloc(size_t n)
{
    void *p = malloc(n);
    if (!p)
        cjson_nomem = 1;
    return p;
}

/* One line of len bytes (has_nl: it ended in '\n') through cJSON into rd. */
static enum p2pb_status read_one(struct reader *rd, FILE *fp, char *line, ssize_t len, char *err,
                                 size_t errlen)
{
    int has_nl = len > 0 && line[len - 1] == '\n';
    if (has_nl)
        line[--len] = '\0';
    if (len == 0)
        return P2PB_OK;
    cjson_nomem = 0;
    cJSON *o = cJSON_Parse(line);
    rd->records++;
    if (o)
        return read_record(rd, o, err, errlen);
    if (cjson_nomem)
        return p2pb_fail(P2PB_ENOMEM, err, errlen, "%s:%ld: out of memory", rd->path, rd->lineno);
    if (!has_nl && feof(fp)) { /* last line cut off mid-write */
        rd->out->truncated_line = 1;
        return P2PB_OK;
    }
    return p2pb_fail(P2PB_EFORMAT, err, errlen, "%s:%ld: not a JSON object", rd->path, rd->lineno);
}

/* Every line of fp into rd. */
static enum p2pb_status read_lines(struct reader *rd, FILE *fp, char *err, size_t errlen)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    enum p2pb_status st = P2PB_OK;
    while (st == P2PB_OK && (len = read_line(rd, fp, &line, &cap)) != LINE_EOF) {
        rd->lineno++;
        if (len == LINE_TOO_LONG)
            st = p2pb_fail(P2PB_EFORMAT, err, errlen,
                           "%s:%ld: line longer than %zu bytes (not a p2pbench results file)",
                           rd->path, rd->lineno, P2PB_MAX_LINE_BYTES);
        else if (len == FILE_TOO_LARGE)
            st = p2pb_input_too_large(rd->path, rd->max_bytes, err, errlen);
        else if (len == LINE_NOMEM)
            st = p2pb_fail(P2PB_ENOMEM, err, errlen, "%s:%ld: out of memory", rd->path, rd->lineno);
        else
            st = read_one(rd, fp, line, len, err, errlen);
    }
    if (st == P2PB_OK && ferror(fp))
        st = p2pb_fail(P2PB_EIO, err, errlen, "%s: cannot read: %s", rd->path, strerror(errno));
    free(line);
    return st;
}

enum p2pb_status p2pb_results_read_max(const char *path, size_t max_bytes,
                                       struct p2pb_results_data *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    snprintf(out->path, sizeof out->path, "%s", path);
    p2pb_text_sanitize(out->path); /* for tables and notes: a file name may hold ESC too */
    enum p2pb_status st;
    FILE *fp = p2pb_open_input(path, &st, err, errlen);
    if (!fp)
        return st;
    struct reader rd = {.path = path, .out = out, .max_bytes = max_bytes};
    struct stat sb;
    if (max_bytes && fstat(fileno(fp), &sb) == 0 && S_ISREG(sb.st_mode) &&
        (uintmax_t)sb.st_size > max_bytes) /* a regular file: refused before reading */
        st = p2pb_input_too_large(rd.path, rd.max_bytes, err, errlen);
    if (st == P2PB_OK) {
        cJSON_Hooks hooks = {noting_malloc, free};
        cJSON_InitHooks(&hooks);
        st = read_lines(&rd, fp, err, errlen);
        cJSON_InitHooks(NULL); /* back to malloc, free and realloc */
    }
    fclose(fp);
    if (st == P2PB_OK && !out->run)
        st = p2pb_fail(P2PB_EFORMAT, err, errlen, "%s: no run record (not a p2pbench results file)",
                       path);
    if (st != P2PB_OK)
        p2pb_results_data_free(out);
    return st;
}

enum p2pb_status p2pb_results_read(const char *path, struct p2pb_results_data *out, char *err,
                                   size_t errlen)
{
    return p2pb_results_read_max(path, 0, out, err, errlen);
}
