/* SPDX-License-Identifier: MIT */
/*
 * OSU logs: the title line ("# OSU MPI Bandwidth Test v5.6.2") names the
 * program (kinds.c) and the version; the column header "# Size ..." starts a
 * table of size and value rows. OSU rates are in MB/s with 1 MB = 10^6 B.
 * Written from the formats as they appear in published logs.
 */
#include <ctype.h>
#include <string.h>

#include "import.h"

void p2pb_imp_osu_title(struct p2pb_imp_scan *sc, const char *s)
{
    struct p2pb_imp_group *g = sc->g;
    if (!(strstr(s, "OSU") && strstr(s, "Test")))
        return;
    const char *vv = strstr(s, " v");
    if (vv && isdigit((unsigned char)vv[2])) {
        char ver[32];
        snprintf(ver, sizeof ver, "%s", vv + 2);
        ver[strcspn(ver, " \t\r")] = '\0';
        snprintf(g->source, sizeof g->source, "osu-%s", ver);
    } else if (!g->source[0])
        snprintf(g->source, sizeof g->source, "osu");
    g->mb_pow2 = 0;
    const struct p2pb_imp_kind *k = p2pb_imp_osu_kind_in_title(s);
    if (k) {
        snprintf(sc->benchbuf, sizeof sc->benchbuf, "%s", k->kernel);
        sc->bench = sc->benchbuf;
    }
    char title[160];
    snprintf(title, sizeof title, "%s", p2pb_imp_skip_ws(s + 1));
    title[strcspn(title, "\r")] = '\0';
    if (!cJSON_GetObjectItemCaseSensitive(g->header, "title"))
        cJSON_AddStringToObject(g->header, "title", title);
}

/* A new table of kind k, header at line i; NULL when out of memory. */
static struct p2pb_imp_table *osu_table_open(struct p2pb_imp_scan *sc,
                                             const struct p2pb_imp_kind *k, size_t i)
{
    struct p2pb_imp_table *t = p2pb_imp_table_new(sc->g, k);
    if (!t)
        return NULL;
    t->layout = P2PB_IMB_T;
    t->nranks = t->active = 2;
    t->line = (long)i + 1;
    p2pb_imp_repeat_variant(sc->g, t);
    return t;
}

/* Row r of size bytes with value v: a rate (MB/s; t = bytes / rate) or a time (usec). */
static void osu_set(struct p2pb_imp_row *r, const struct p2pb_imp_kind *k, size_t bytes, double v)
{
    r->bytes = bytes;
    if (k->is_rate) {
        r->mbps = v;
        if (v > 0 && bytes > 0) {
            r->t = (double)bytes / v;
            r->t_derived = 1;
        }
    } else {
        r->t = v;
    }
}

/* Read the rows of t from line *j on; *j ends at the first line after the table. */
static enum p2pb_status osu_read_rows(const struct p2pb_imp_log *lg, struct p2pb_imp_table *t,
                                      const struct p2pb_imp_kind *k, size_t *j, int *partial,
                                      char *err, size_t errlen)
{
    for (; *j < lg->nlines; (*j)++) {
        char buf[512], *tok[8];
        size_t n = p2pb_imp_tokenize(lg->lines[*j], buf, sizeof buf, tok, 8);
        size_t bytes;
        double v;
        if (n == 0)
            break;
        if (n < 2 || !p2pb_imp_parse_size(tok[0], &bytes) || !p2pb_imp_parse_num(tok[1], &v)) {
            *partial = n == 1 && p2pb_imp_parse_size(tok[0], &bytes);
            break;
        }
        /* further columns (OSU 7 -f: min, max, iterations; -c: Pass) are not used */
        struct p2pb_imp_row *r = p2pb_imp_row_new(t);
        if (!r)
            return p2pb_fail(P2PB_ENOMEM, err, errlen, "%s: out of memory", lg->path);
        osu_set(r, k, bytes, v);
    }
    return P2PB_OK;
}

enum p2pb_status p2pb_imp_osu_table(struct p2pb_imp_scan *sc, size_t *i, int *taken, char *err,
                                    size_t errlen)
{
    const char *s = p2pb_imp_skip_ws(sc->lg->lines[*i]);
    /* OSU column header: "# Size  Latency (us)" / "Bandwidth (MB/s)" ... */
    *taken = *s == '#' && strncmp(p2pb_imp_skip_ws(s + 1), "Size", 4) == 0 && sc->bench &&
             strncmp(sc->bench, "osu_", 4) == 0;
    if (!*taken)
        return P2PB_OK;
    const struct p2pb_imp_kind *k = p2pb_imp_osu_kind(sc->bench);
    if (!k)
        return P2PB_OK;
    struct p2pb_imp_table *t = osu_table_open(sc, k, *i);
    if (!t)
        return p2pb_fail(P2PB_ENOMEM, err, errlen, "%s: out of memory", sc->lg->path);
    size_t j = *i + 1;
    int partial = 0;
    enum p2pb_status st = osu_read_rows(sc->lg, t, k, &j, &partial, err, errlen);
    if (st != P2PB_OK)
        return st;
    p2pb_imp_cut_short(sc->lg, sc->g, t, -1, partial, j + 1);
    p2pb_imp_table_drop_empty(sc->g, t);
    sc->last_end = j;
    *i = j - 1;
    return P2PB_OK;
}
