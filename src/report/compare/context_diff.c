/* SPDX-License-Identifier: MIT */
/*
 * context_diff: the host-context differences between two sides of a
 * comparison, from the run records of their results files.
 */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"
#include "text.h"
#include "array.h"
#include "row_index.h"

/* Run-record keys that differ between any two launches by construction, or
 * are measured per launch (placement_probe: compare notes its groups). */
static const char *const ctx_skip[] = {
    "type",
    "schema",
    "label",
    "start_utc",
    "command_line",
    "timer.overhead_ns",
    "campaign",
    "policy.seed", /* the order of sizes in the rounds, drawn per launch */
    "placement_probe",
    "load", /* measured per launch: p2pb_context_load compares it */
    NULL,
};

static int skip_key(const char *k)
{
    for (size_t i = 0; ctx_skip[i]; i++)
        if (strcmp(ctx_skip[i], k) == 0)
            return 1;
    return 0;
}

/* Flattened "key = value" pairs of one run record. */
struct kv {
    char *key;
    char *val;
};
struct kvlist {
    struct kv *v;
    size_t n, cap;
    struct p2pb_row_index index; /* the first pair of each key, by key: linear lookups */
    int mpi_env;                 /* the run record has an "mpi_env" object */
    int imported;                /* "imported": true (a converted log) */
};

/* row_index.h's callback: pair pos of the list ctx[0] has the key ctx[1]. */
static int kv_has_key(const void *ctx, size_t pos)
{
    const void *const *c = ctx;
    const struct kvlist *l = c[0];
    return strcmp(l->v[pos].key, (const char *)c[1]) == 0;
}

/* Position of the first pair of l with key k, or -1. */
static long kv_find(const struct kvlist *l, const char *k)
{
    const void *ctx[2] = {l, k};
    return p2pb_row_index_find(&l->index, p2pb_row_key_hash(k, "", 0), kv_has_key, ctx);
}

static int kv_add(struct kvlist *l, const char *k, const char *v)
{
    if (p2pb_array_grow(&l->v, &l->cap, l->n, sizeof *l->v) != 0)
        return -1;
    if (kv_find(l, k) < 0 && p2pb_row_index_insert(&l->index, p2pb_row_key_hash(k, "", 0), l->n))
        return -1;
    l->v[l->n].key = strdup(k);
    l->v[l->n].val = strdup(v);
    if (!l->v[l->n].key || !l->v[l->n].val) {
        free(l->v[l->n].key);
        free(l->v[l->n].val);
        return -1;
    }
    l->n++;
    return 0;
}

static void kv_free(struct kvlist *l)
{
    for (size_t i = 0; i < l->n; i++) {
        free(l->v[i].key);
        free(l->v[i].val);
    }
    free(l->v);
    p2pb_row_index_free(&l->index);
    memset(l, 0, sizeof *l);
}

static int all_scalars(const cJSON *arr)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, arr)
    {
        if (cJSON_IsObject(e) || cJSON_IsArray(e))
            return 0;
    }
    return 1;
}

/* Flatten o under prefix. Objects recurse with ".", arrays of objects with
 * "[i]"; the "hosts" object (keyed by host name) is indexed by position so
 * that two sides on different hosts line up. */
static int flatten(const cJSON *o, const char *prefix, struct kvlist *l)
{
    char key[256];
    if (cJSON_IsObject(o)) {
        const cJSON *c;
        size_t i = 0;
        int by_pos = strcmp(prefix, "hosts") == 0;
        cJSON_ArrayForEach(c, o)
        {
            if (by_pos)
                snprintf(key, sizeof key, "%s[%zu]", prefix, i);
            else
                snprintf(key, sizeof key, "%s%s%s", prefix, prefix[0] ? "." : "",
                         c->string ? c->string : "?");
            i++;
            if (skip_key(key))
                continue;
            if (flatten(c, key, l))
                return -1;
        }
        return 0;
    }
    if (cJSON_IsArray(o) && !all_scalars(o)) {
        const cJSON *c;
        size_t i = 0;
        cJSON_ArrayForEach(c, o)
        {
            snprintf(key, sizeof key, "%s[%zu]", prefix, i++);
            if (flatten(c, key, l))
                return -1;
        }
        return 0;
    }
    if (cJSON_IsString(o))
        return kv_add(l, prefix, o->valuestring ? o->valuestring : "");
    char *txt = cJSON_PrintUnformatted(o);
    if (!txt)
        return -1;
    int rc = kv_add(l, prefix, txt);
    cJSON_free(txt);
    return rc;
}

/*
 * The value of key in file list l, or NULL. An MPI setting absent from the
 * environment a run recorded is the library's default: "set on one side
 * only" is a real difference (e.g. --mca btl tcp,self). An imported log
 * records no environment: its settings are unknown, said as such. An older
 * build's file without "mpi_env" says nothing (not recorded).
 * The version and commit of an imported log are the importer's, not those
 * of what measured it (its "source"): not recorded.
 */
static const char *file_value(const struct kvlist *l, const char *key)
{
    if (l->imported && (strcmp(key, "version") == 0 || strcmp(key, "git_commit") == 0))
        return NULL;
    long i = kv_find(l, key);
    if (i >= 0)
        return l->v[i].val;
    if (strncmp(key, "mpi_env.", 8) != 0)
        return NULL;
    if (l->mpi_env)
        return "(not set: library default)";
    return l->imported ? "(unknown: an imported log records no MPI settings)" : NULL;
}

/* Distinct values of key over the files of a side (file_value), joined
 * with ", "; "(not recorded)" when no file has it. Caller frees. */
static char *side_values(struct kvlist *lists, size_t nfiles, const char *key)
{
    size_t cap = 256, len = 0;
    char *out = malloc(cap);
    if (!out)
        return NULL;
    out[0] = '\0';
    for (size_t f = 0; f < nfiles; f++) {
        const char *v = file_value(&lists[f], key);
        if (!v)
            continue;
        /* already listed by an earlier file? */
        int seen = 0;
        for (size_t g = 0; g < f && !seen; g++) {
            const char *w = file_value(&lists[g], key);
            seen = w && strcmp(w, v) == 0;
        }
        if (seen)
            continue;
        size_t need = len + strlen(v) + 3;
        if (need > cap) {
            cap = need * 2;
            char *n = realloc(out, cap);
            if (!n) {
                free(out);
                return NULL;
            }
            out = n;
        }
        len += (size_t)sprintf(out + len, "%s%s", len ? ", " : "", v);
    }
    if (!len) {
        free(out);
        return strdup("(not recorded)");
    }
    return out;
}

/* The flattened run records of both sides: lists[0..na-1] are the files of
 * side A, lists[na..nf-1] those of side B; keys holds every key once, in
 * first-seen order (values empty). */
struct records {
    struct kvlist *lists;
    size_t na, nf;
    struct kvlist keys;
};

static void records_free(struct records *rec)
{
    for (size_t f = 0; rec->lists && f < rec->nf; f++)
        kv_free(&rec->lists[f]);
    free(rec->lists);
    kv_free(&rec->keys);
}

/* Flatten the run record of every file of a and b into rec (zeroed by the
 * caller; records_free in any case). Returns P2PB_OK or P2PB_ENOMEM. */
static enum p2pb_status records_read(const struct p2pb_side *a, const struct p2pb_side *b,
                                     struct records *rec)
{
    rec->na = a->nfiles;
    rec->nf = a->nfiles + b->nfiles;
    rec->lists = calloc(rec->nf ? rec->nf : 1, sizeof *rec->lists);
    if (!rec->lists)
        return P2PB_ENOMEM;
    for (size_t f = 0; f < rec->nf; f++) {
        const struct p2pb_results_data *d = f < a->nfiles ? &a->files[f] : &b->files[f - a->nfiles];
        if (d->run && flatten(d->run, "", &rec->lists[f]))
            return P2PB_ENOMEM;
        rec->lists[f].mpi_env =
            cJSON_IsObject(cJSON_GetObjectItemCaseSensitive((const cJSON *)d->run, "mpi_env"));
        rec->lists[f].imported = d->info.imported;
    }
    for (size_t f = 0; f < rec->nf; f++)
        for (size_t i = 0; i < rec->lists[f].n; i++)
            if (kv_find(&rec->keys, rec->lists[f].v[i].key) < 0 &&
                kv_add(&rec->keys, rec->lists[f].v[i].key, ""))
                return P2PB_ENOMEM;
    return P2PB_OK;
}

/* Values of key on side A and side B (side_values; the caller frees both,
 * also on failure). Returns P2PB_OK or P2PB_ENOMEM. */
static enum p2pb_status key_values(const struct records *rec, const char *key, char **va, char **vb)
{
    *va = side_values(rec->lists, rec->na, key);
    *vb = side_values(rec->lists + rec->na, rec->nf - rec->na, key);
    return *va && *vb ? P2PB_OK : P2PB_ENOMEM;
}

/* Fields that one side does not record at all (an imported log has no
 * binding, an older build no hypervisor signals) are not confounders one can
 * read: they are counted, and the first 12 names gathered into one line at
 * the end, so the real differences stay visible. */
struct one_sided {
    size_t n, len;
    char names[1024];
};

static void one_sided_add(struct one_sided *o, const char *key)
{
    if (o->n < 12) {
        int w =
            snprintf(o->names + o->len, sizeof o->names - o->len, "%s%s", o->n ? ", " : "", key);
        if (w > 0 && (size_t)w < sizeof o->names - o->len)
            o->len += (size_t)w;
    }
    o->n++;
}

/* Append line (malloc'd, may be NULL: no memory) to out, which owns it from
 * then on, its control characters and bad UTF-8 as '?'. Returns P2PB_OK or P2PB_ENOMEM (line
 * freed). */
static enum p2pb_status add_line(struct p2pb_ctx_diff *out, char *line)
{
    char **nl = line ? realloc(out->lines, (out->n + 1) * sizeof *nl) : NULL;
    if (!nl) {
        free(line);
        return P2PB_ENOMEM;
    }
    p2pb_text_sanitize(line); /* keys, values and host names from the files */
    out->lines = nl;
    out->lines[out->n++] = line;
    return P2PB_OK;
}

/* "key: A = x | B = y" (malloc'd; NULL without memory). */
static char *difference_line(const char *key, const struct p2pb_side *a, const char *va,
                             const struct p2pb_side *b, const char *vb)
{
    size_t len = strlen(key) + strlen(va) + strlen(vb) + strlen(a->name) + strlen(b->name) + 16;
    char *line = malloc(len);
    if (line)
        snprintf(line, len, "%s: %s = %s | %s = %s", key, a->name, va, b->name, vb);
    return line;
}

/* Measured quantities of the run record (keys ending so): a difference only
 * when the sides' values lie further apart than max(abs, rel x the larger
 * value) (issue 34: the timer's resolution read 21, 18 ns on one side and 17,
 * 16 on the other, the jitter of the measurement, not a context difference). */
static const struct {
    const char *suffix;
    double abs, rel;
} measured[] = {
    {"timer.resolution_ns", 10, 0.5},
    {"cpufreq.cur_khz", 0, 0.1},
    {"cpufreq.cpuinfo_mhz", 0, 0.1}, /* an array: its mean */
};

static int measured_key(const char *key)
{
    size_t n = strlen(key);
    for (size_t i = 0; i < sizeof measured / sizeof measured[0]; i++) {
        size_t m = strlen(measured[i].suffix);
        if (n >= m && strcmp(key + n - m, measured[i].suffix) == 0 &&
            (n == m || key[n - m - 1] == '.'))
            return (int)i;
    }
    return -1;
}

/* The mean of the numbers in text ("17", "[2096.0, 2100.5]"), or -1. */
static double mean_of(const char *text)
{
    double sum = 0;
    size_t n = 0;
    for (const char *p = text; *p;) {
        char *end;
        double v = strtod(p, &end);
        if (end == p) {
            p++;
            continue;
        }
        sum += v;
        n++;
        p = end;
    }
    return n ? sum / (double)n : -1;
}

/* The range [lo, hi] of key's values (mean_of) over files; 0 if none or one
 * that is not a number. */
static int measured_range(struct kvlist *lists, size_t nfiles, const char *key, double *lo,
                          double *hi)
{
    size_t n = 0;
    for (size_t f = 0; f < nfiles; f++) {
        const char *v = file_value(&lists[f], key);
        double x = v ? mean_of(v) : -1;
        if (!v)
            continue;
        if (x < 0)
            return 0;
        *lo = n && *lo < x ? *lo : x;
        *hi = n && *hi > x ? *hi : x;
        n++;
    }
    return n > 0;
}

/* 1 when key is a measured quantity (measured[]) whose values on the two
 * sides lie within its tolerance: not a difference. */
static int within_tolerance(const struct records *rec, const char *key)
{
    int i = measured_key(key);
    double la, ha, lb, hb;
    if (i < 0 || !measured_range(rec->lists, rec->na, key, &la, &ha) ||
        !measured_range(rec->lists + rec->na, rec->nf - rec->na, key, &lb, &hb))
        return 0;
    double gap = lb > ha ? lb - ha : la > hb ? la - hb : 0;
    double tol = measured[i].rel * (ha > hb ? ha : hb);
    return gap <= (tol > measured[i].abs ? tol : measured[i].abs);
}

/* Compare key between the sides: a difference line in out, or a field
 * recorded on one side only in one. Returns P2PB_OK or P2PB_ENOMEM. */
static enum p2pb_status diff_key(const struct records *rec, const char *key,
                                 const struct p2pb_side *a, const struct p2pb_side *b,
                                 struct one_sided *one, struct p2pb_ctx_diff *out)
{
    char *va = NULL, *vb = NULL;
    enum p2pb_status st = key_values(rec, key, &va, &vb);
    if (st == P2PB_OK && strcmp(va, vb) != 0 && !within_tolerance(rec, key)) {
        if (strcmp(va, "(not recorded)") == 0 || strcmp(vb, "(not recorded)") == 0)
            one_sided_add(one, key);
        else
            st = add_line(out, difference_line(key, a, va, b, vb));
    }
    free(va);
    free(vb);
    return st;
}

/* The closing "recorded on one side only" line, when there is one. */
static enum p2pb_status add_one_sided(const struct one_sided *one, struct p2pb_ctx_diff *out)
{
    if (!one->n)
        return P2PB_OK;
    size_t len = one->len + 160;
    char *line = malloc(len);
    if (line)
        snprintf(line, len, "recorded on one side only (%zu field%s, not compared): %s%s", one->n,
                 one->n == 1 ? "" : "s", one->names, one->n > 12 ? ", ..." : "");
    return add_line(out, line);
}

enum p2pb_status p2pb_context_diff(const struct p2pb_side *a, const struct p2pb_side *b,
                                   struct p2pb_ctx_diff *out)
{
    memset(out, 0, sizeof *out);
    struct records rec = {0};
    struct one_sided one = {0};
    enum p2pb_status st = records_read(a, b, &rec);
    for (size_t k = 0; st == P2PB_OK && k < rec.keys.n; k++)
        st = diff_key(&rec, rec.keys.v[k].key, a, b, &one, out);
    char *load = NULL;
    if (st == P2PB_OK && (st = p2pb_context_load(a, b, &load)) == P2PB_OK && load)
        st = add_line(out, load);
    if (st == P2PB_OK)
        st = add_one_sided(&one, out);
    records_free(&rec);
    if (st != P2PB_OK)
        p2pb_ctx_diff_free(out);
    return st;
}

void p2pb_ctx_diff_free(struct p2pb_ctx_diff *d)
{
    for (size_t i = 0; i < d->n; i++)
        free(d->lines[i]);
    free(d->lines);
    memset(d, 0, sizeof *d);
}
