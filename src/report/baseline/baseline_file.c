/* SPDX-License-Identifier: MIT */
/*
 * baseline_file.c - the baseline file (docs/output-format.md, "Baseline
 * file"): one JSON document, "type": "p2pbench-baseline", a class per entry
 * of "classes" with its envelopes. Written beside its name and renamed, so
 * that a failed write leaves the old file; read back with every entry
 * checked, text sanitised.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "baseline/baseline.h"
#include "input.h"
#include "text.h"
#include "version.h"

#define SCHEMA "p2pbench-baseline/1"

static const char *const metric_names[] = {"latency", "throughput"};

static cJSON *class_json(const struct p2pb_baseline_class *c)
{
    cJSON *o = cJSON_CreateObject(), *rows = cJSON_CreateArray();
    cJSON_AddStringToObject(o, "cpu_model", c->cls.cpu_model);
    cJSON_AddStringToObject(o, "hypervisor", c->cls.hypervisor);
    cJSON_AddStringToObject(o, "mpi_library", c->cls.mpi_library);
    cJSON_AddStringToObject(o, "link_profile", c->cls.link_profile);
    cJSON_AddNumberToObject(o, "hosts", c->cls.nhosts);
    cJSON_AddNumberToObject(o, "launches", (double)c->launches);
    cJSON_AddStringToObject(o, "host_names", c->hosts);
    for (size_t i = 0; i < c->nrows; i++) {
        const struct p2pb_envelope *e = &c->rows[i];
        cJSON *r = cJSON_CreateObject();
        cJSON_AddStringToObject(r, "kernel", e->kernel);
        cJSON_AddStringToObject(r, "variant", e->variant);
        cJSON_AddNumberToObject(r, "bytes", (double)e->bytes);
        cJSON_AddStringToObject(r, "metric", metric_names[e->metric]);
        cJSON_AddNumberToObject(r, "n", (double)e->n);
        cJSON_AddNumberToObject(r, "median", e->median);
        cJSON_AddNumberToObject(r, "mean_log", e->mean_log);
        cJSON_AddNumberToObject(r, "sd_log", e->sd_log);
        cJSON_AddItemToArray(rows, r);
    }
    cJSON_AddItemToObject(o, "rows", rows);
    return o;
}

enum p2pb_status p2pb_baseline_write(const struct p2pb_baseline *b, const char *out, char *err,
                                     size_t errlen)
{
    cJSON *doc = cJSON_CreateObject(), *classes = cJSON_CreateArray();
    cJSON_AddStringToObject(doc, "type", "p2pbench-baseline");
    cJSON_AddStringToObject(doc, "schema", SCHEMA);
    cJSON_AddStringToObject(doc, "version", P2PB_VERSION);
    cJSON_AddNumberToObject(doc, "level", P2PB_BASELINE_LEVEL);
    for (size_t k = 0; k < b->nclasses; k++)
        if (b->classes[k].nrows > 0)
            cJSON_AddItemToArray(classes, class_json(&b->classes[k]));
    cJSON_AddItemToObject(doc, "classes", classes);
    char *txt = cJSON_Print(doc);
    cJSON_Delete(doc);
    if (!txt)
        return p2pb_fail(P2PB_ENOMEM, err, errlen, "out of memory writing '%s'", out);
    char tmp[4096];
    enum p2pb_status st;
    int fd = p2pb_tmp_beside(out, "baseline ", tmp, sizeof tmp, &st, err, errlen);
    if (fd < 0) {
        free(txt);
        return st;
    }
    size_t len = strlen(txt), done = 0;
    while (done < len) {
        ssize_t w = write(fd, txt + done, len - done);
        if (w <= 0 && errno != EINTR)
            break;
        done += w > 0 ? (size_t)w : 0;
    }
    free(txt);
    int e = errno;
    if (done < len || write(fd, "\n", 1) != 1 || fsync(fd) != 0 || close(fd) != 0 ||
        p2pb_tmp_commit(tmp, out) != 0) {
        e = errno ? errno : e;
        p2pb_tmp_drop(tmp);
        return p2pb_fail(P2PB_EIO, err, errlen, "cannot write baseline '%s': %s", out, strerror(e));
    }
    return P2PB_OK;
}

/* The whole of path (at most max_bytes; 0 no limit) as a string in *out. */
static enum p2pb_status slurp(const char *path, size_t max_bytes, char **out, char *err,
                              size_t errlen)
{
    enum p2pb_status st;
    FILE *f = p2pb_open_input(path, &st, err, errlen);
    if (!f)
        return st;
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        len += fread(buf + len, 1, cap - len, f);
        if (max_bytes && len > max_bytes) {
            fclose(f);
            free(buf);
            return p2pb_input_too_large(path, max_bytes, err, errlen);
        }
        if (len < cap)
            break;
        char *nb = realloc(buf, 2 * cap + 1);
        if (!nb)
            free(buf);
        buf = nb;
        cap *= 2;
    }
    int bad = !buf || ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return p2pb_fail(buf ? P2PB_EIO : P2PB_ENOMEM, err, errlen, "%s: cannot read", path);
    }
    buf[len] = '\0';
    *out = buf;
    return P2PB_OK;
}

/* Copy the string o[key] into buf (sanitised); 0 when missing. */
static int get_str(const cJSON *o, const char *key, char *buf, size_t len)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsString(v))
        return 0;
    snprintf(buf, len, "%s", v->valuestring);
    p2pb_text_sanitize(buf);
    return 1;
}

/* o[key] as a finite number in *x; 0 when missing or not finite. */
static int get_num(const cJSON *o, const char *key, double *x)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    *x = cJSON_IsNumber(v) ? v->valuedouble : NAN;
    return isfinite(*x);
}

/* One envelope from its JSON object; 0 when an entry is missing or bad. */
static int read_envelope(const cJSON *r, struct p2pb_envelope *e)
{
    char metric[16];
    double bytes, n;
    memset(e, 0, sizeof *e);
    if (!get_str(r, "kernel", e->kernel, sizeof e->kernel) ||
        !get_str(r, "variant", e->variant, sizeof e->variant) ||
        !get_str(r, "metric", metric, sizeof metric) || !get_num(r, "bytes", &bytes) ||
        !get_num(r, "n", &n) || !get_num(r, "median", &e->median) ||
        !get_num(r, "mean_log", &e->mean_log) || !get_num(r, "sd_log", &e->sd_log))
        return 0;
    if (bytes < 0 || bytes > 1e18 || n < 2 || n > 1e9 || e->median <= 0 || e->sd_log < 0)
        return 0;
    e->bytes = (size_t)bytes;
    e->n = (size_t)n;
    e->metric = strcmp(metric, "latency") == 0      ? P2PB_METRIC_LATENCY
                : strcmp(metric, "throughput") == 0 ? P2PB_METRIC_THROUGHPUT
                                                    : (enum p2pb_metric) - 1;
    return e->metric == P2PB_METRIC_LATENCY || e->metric == P2PB_METRIC_THROUGHPUT;
}

/* One class from its JSON object; P2PB_EFORMAT naming what is bad. */
static enum p2pb_status read_class(const cJSON *o, struct p2pb_baseline_class *c, const char *path,
                                   size_t idx, char *err, size_t errlen)
{
    double hosts, launches;
    const cJSON *r, *rows = cJSON_GetObjectItemCaseSensitive(o, "rows");
    if (!get_str(o, "cpu_model", c->cls.cpu_model, sizeof c->cls.cpu_model) ||
        !get_str(o, "hypervisor", c->cls.hypervisor, sizeof c->cls.hypervisor) ||
        !get_str(o, "mpi_library", c->cls.mpi_library, sizeof c->cls.mpi_library) ||
        !get_str(o, "link_profile", c->cls.link_profile, sizeof c->cls.link_profile) ||
        !get_num(o, "hosts", &hosts) || !get_num(o, "launches", &launches) || hosts < 0 ||
        hosts > 1e6 || launches < 0 || launches > 1e9 || !cJSON_IsArray(rows))
        return p2pb_fail(P2PB_EFORMAT, err, errlen, "%s: class %zu: a field is missing or bad",
                         path, idx + 1);
    get_str(o, "host_names", c->hosts, sizeof c->hosts);
    c->cls.nhosts = (int)hosts;
    c->launches = (size_t)launches;
    c->rows = calloc((size_t)cJSON_GetArraySize(rows) + 1, sizeof *c->rows);
    if (!c->rows)
        return p2pb_fail(P2PB_ENOMEM, err, errlen, "out of memory reading '%s'", path);
    cJSON_ArrayForEach(r, rows)
    {
        if (!read_envelope(r, &c->rows[c->nrows]))
            return p2pb_fail(P2PB_EFORMAT, err, errlen, "%s: class %zu, row %zu: bad envelope",
                             path, idx + 1, c->nrows + 1);
        c->nrows++;
    }
    return P2PB_OK;
}

enum p2pb_status p2pb_baseline_read(const char *path, size_t max_bytes, struct p2pb_baseline *b,
                                    char *err, size_t errlen)
{
    char *txt = NULL, schema[64] = "";
    memset(b, 0, sizeof *b);
    enum p2pb_status st = slurp(path, max_bytes, &txt, err, errlen);
    if (st != P2PB_OK)
        return st;
    cJSON *doc = cJSON_Parse(txt), *o;
    free(txt);
    const cJSON *classes = cJSON_GetObjectItemCaseSensitive(doc, "classes");
    get_str(doc, "schema", schema, sizeof schema);
    if (!doc || strcmp(schema, SCHEMA) != 0 || !cJSON_IsArray(classes)) {
        cJSON_Delete(doc);
        return p2pb_fail(P2PB_EFORMAT, err, errlen,
                         "%s: not a p2pbench baseline (schema '%s' wanted; made by "
                         "'p2pbench-report baseline build')",
                         path, SCHEMA);
    }
    b->classes = calloc((size_t)cJSON_GetArraySize(classes) + 1, sizeof *b->classes);
    st = b->classes ? P2PB_OK : P2PB_ENOMEM;
    cJSON_ArrayForEach(o, classes)
    {
        if (st == P2PB_OK)
            st = read_class(o, &b->classes[b->nclasses], path, b->nclasses, err, errlen);
        b->nclasses++;
    }
    cJSON_Delete(doc);
    if (st == P2PB_ENOMEM)
        p2pb_fail(st, err, errlen, "out of memory reading '%s'", path);
    if (st != P2PB_OK)
        p2pb_baseline_free(b);
    return st;
}
