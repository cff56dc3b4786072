/* SPDX-License-Identifier: MIT */
/*
 * context_diff: the host-context differences between two sides of a
 * comparison, from the run records of their results files.
 */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

/* Run-record keys that differ between any two launches by construction. */
static const char *const ctx_skip[] = {
    "type", "schema", "label", "start_utc", "command_line", "timer.overhead_ns", NULL,
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
};

static int kv_add(struct kvlist *l, const char *k, const char *v)
{
    if (l->n == l->cap) {
        size_t nc = l->cap ? 2 * l->cap : 64;
        struct kv *nv = realloc(l->v, nc * sizeof *nv);
        if (!nv)
            return -1;
        l->v = nv;
        l->cap = nc;
    }
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

/* Distinct values of key over the files of a side, joined with ", ";
 * "(not recorded)" when no file has it. Caller frees. */
static char *side_values(struct kvlist *lists, size_t nfiles, const char *key)
{
    size_t cap = 256, len = 0;
    char *out = malloc(cap);
    if (!out)
        return NULL;
    out[0] = '\0';
    for (size_t f = 0; f < nfiles; f++) {
        for (size_t i = 0; i < lists[f].n; i++) {
            if (strcmp(lists[f].v[i].key, key) != 0)
                continue;
            const char *v = lists[f].v[i].val;
            /* already listed? compare against ", "-separated entries */
            int seen = 0;
            for (size_t g = 0; g < f && !seen; g++)
                for (size_t j = 0; j < lists[g].n; j++)
                    if (strcmp(lists[g].v[j].key, key) == 0 && strcmp(lists[g].v[j].val, v) == 0) {
                        seen = 1;
                        break;
                    }
            if (seen)
                break;
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
            break;
        }
    }
    if (!len) {
        free(out);
        return strdup("(not recorded)");
    }
    return out;
}

static int has_key(const struct kvlist *seen, const char *k)
{
    for (size_t i = 0; i < seen->n; i++)
        if (strcmp(seen->v[i].key, k) == 0)
            return 1;
    return 0;
}

enum p2pb_status p2pb_context_diff(const struct p2pb_side *a, const struct p2pb_side *b,
                                   struct p2pb_ctx_diff *out)
{
    memset(out, 0, sizeof *out);
    size_t nf = a->nfiles + b->nfiles;
    struct kvlist *lists = calloc(nf ? nf : 1, sizeof *lists);
    struct kvlist keys = {0};
    enum p2pb_status st = P2PB_OK;
    if (!lists)
        return P2PB_ENOMEM;
    for (size_t f = 0; f < nf; f++) {
        const struct p2pb_results_data *d = f < a->nfiles ? &a->files[f] : &b->files[f - a->nfiles];
        if (d->run && flatten(d->run, "", &lists[f])) {
            st = P2PB_ENOMEM;
            goto done;
        }
    }
    /* all keys in first-seen order */
    for (size_t f = 0; f < nf; f++)
        for (size_t i = 0; i < lists[f].n; i++)
            if (!has_key(&keys, lists[f].v[i].key) && kv_add(&keys, lists[f].v[i].key, "")) {
                st = P2PB_ENOMEM;
                goto done;
            }
    /* Fields that one side does not record at all (an imported log has no
     * binding, an older build no hypervisor signals) are not confounders one
     * can read: they are gathered into one line at the end, so the real
     * differences stay visible. */
    size_t n_one = 0, one_len = 0;
    char one[1024] = "";
    for (size_t k = 0; k < keys.n; k++) {
        char *va = side_values(lists, a->nfiles, keys.v[k].key);
        char *vb = side_values(lists + a->nfiles, b->nfiles, keys.v[k].key);
        if (!va || !vb) {
            free(va);
            free(vb);
            st = P2PB_ENOMEM;
            goto done;
        }
        /* an MPI setting absent from the environment is the library's default:
         * "set on one side only" is a real difference (e.g. --mca btl tcp,self) */
        if (strncmp(keys.v[k].key, "mpi_env.", 8) == 0) {
            char **vs[2] = {&va, &vb};
            for (int i = 0; i < 2; i++)
                if (strcmp(*vs[i], "(not recorded)") == 0) {
                    free(*vs[i]);
                    *vs[i] = strdup("(not set: library default)");
                }
            if (!va || !vb) {
                free(va);
                free(vb);
                st = P2PB_ENOMEM;
                goto done;
            }
        }
        if (strcmp(va, vb) != 0 &&
            (strcmp(va, "(not recorded)") == 0 || strcmp(vb, "(not recorded)") == 0)) {
            if (n_one < 12) {
                int w = snprintf(one + one_len, sizeof one - one_len, "%s%s", n_one ? ", " : "",
                                 keys.v[k].key);
                if (w > 0 && (size_t)w < sizeof one - one_len)
                    one_len += (size_t)w;
            }
            n_one++;
        } else if (strcmp(va, vb) != 0) {
            size_t len = strlen(keys.v[k].key) + strlen(va) + strlen(vb) + strlen(a->name) +
                         strlen(b->name) + 16;
            char *line = malloc(len);
            char **nl = realloc(out->lines, (out->n + 1) * sizeof *nl);
            if (!line || !nl) {
                free(line);
                free(va);
                free(vb);
                if (nl)
                    out->lines = nl;
                st = P2PB_ENOMEM;
                goto done;
            }
            snprintf(line, len, "%s: %s = %s | %s = %s", keys.v[k].key, a->name, va, b->name, vb);
            out->lines = nl;
            out->lines[out->n++] = line;
        }
        free(va);
        free(vb);
    }
    if (n_one) {
        size_t len = one_len + 160;
        char *line = malloc(len);
        char **nl = realloc(out->lines, (out->n + 1) * sizeof *nl);
        if (!line || !nl) {
            free(line);
            if (nl)
                out->lines = nl;
            st = P2PB_ENOMEM;
            goto done;
        }
        out->lines = nl;
        snprintf(line, len, "recorded on one side only (%zu field%s, not compared): %s%s", n_one,
                 n_one == 1 ? "" : "s", one, n_one > 12 ? ", ..." : "");
        out->lines[out->n++] = line;
    }
done:
    for (size_t f = 0; f < nf; f++)
        kv_free(&lists[f]);
    free(lists);
    kv_free(&keys);
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
