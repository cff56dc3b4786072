/* SPDX-License-Identifier: MIT */
/*
 * OSU logs: the title line ("# OSU MPI Bandwidth Test v5.6.2") names the
 * program and the version; lines after it say the buffers ("# Send Buffer on
 * DEVICE (D) and Receive Buffer on HOST (H)"), the pairs and window of
 * osu_mbw_mr ("# [ pairs: 1 ] [ window size: 64 ]"); the threads of
 * osu_latency_mt come before the title. The column header "# Size ..." starts
 * a table; OSU 7.0-7.3 print "# Datatype: MPI_CHAR." after it, OSU 7 -f adds
 * Min/Max/Iterations columns. Rates are MB/s with 1 MB = 10^6 B.
 *
 * Only the two-sided point-to-point programs of kinds.c are imported; a title
 * of a one-sided, collective or unknown program skips its tables, with a note
 * naming it. Written from the formats as they appear in published logs.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "import.h"
#include "text.h"

/* Words of a title that name a collective operation. */
static const char *const collective_words[] = {
    "Allreduce", "Allgather", "Alltoall", "Barrier",        "Broadcast", "Bcast",
    "Gather",    "Scatter",   "Reduce",   "Neighborhood",   "Neighbor",  "Non-blocking",
    "Scan",      "Exscan",    "Ibcast",   "Reduce_scatter", NULL,
};

/*
 * Split an OSU title "# OSU MPI-CUDA Latency Test v5.8" into the programming
 * model ("MPI-CUDA"), the program words ("Latency") and the version ("5.8",
 * "" if none). Returns 0 when s is not an OSU title.
 */
static int osu_title_split(const char *s, char *model, size_t mlen, char *words, size_t wlen,
                           char *ver, size_t vlen)
{
    const char *p = p2pb_imp_skip_ws(s + 1);
    if (strncmp(p, "OSU ", 4) != 0)
        return 0;
    p = p2pb_imp_skip_ws(p + 4);
    size_t ml = strcspn(p, " \t");
    snprintf(model, mlen, "%.*s", (int)ml, p);
    p = p2pb_imp_skip_ws(p + ml);
    const char *test = NULL;
    for (const char *q = p; (q = strstr(q, "Test")) != NULL; q += 4)
        if ((q == p || q[-1] == ' ') && (q[4] == '\0' || q[4] == ' ' || q[4] == '\t'))
            test = q;
    if (!test || test == p)
        return 0;
    size_t wl = (size_t)(test - p);
    while (wl && (p[wl - 1] == ' ' || p[wl - 1] == '\t'))
        wl--;
    snprintf(words, wlen, "%.*s", (int)wl, p);
    const char *v = p2pb_imp_skip_ws(test + 4);
    ver[0] = '\0';
    if ((*v == 'v' || *v == 'V') && isdigit((unsigned char)v[1]))
        snprintf(ver, vlen, "%.*s", (int)strcspn(v + 1, " \t"), v + 1);
    return 1;
}

/* Why the program (model, words) is not imported: one-sided, collective, other. */
static const char *osu_skip_reason(const char *model, const char *words)
{
    if (strncmp(model, "MPI_", 4) == 0 || strncmp(words, "Sided ", 6) == 0)
        return "one-sided";
    if (strncmp(model, "MPI", 3) != 0)
        return "not MPI";
    for (size_t i = 0; collective_words[i]; i++)
        if (p2pb_imp_ci_contains(words, collective_words[i]))
            return "collective";
    return "not a known point-to-point program";
}

/* A new OSU program starts at title line s (model, words, version split). */
static void osu_open_section(struct p2pb_imp_scan *sc, const char *model, const char *words)
{
    struct p2pb_imp_osu_section *o = &sc->osu;
    int st = o->send_threads, rt = o->recv_threads;
    memset(o, 0, sizeof *o);
    o->send_threads = st;
    o->recv_threads = rt;
    o->open = 1;
    /* "MPI-CUDA", "MPI-ROCM", "MPI-OPENACC": the device API of the build */
    if (strncmp(model, "MPI-", 4) == 0)
        snprintf(o->device, sizeof o->device, "%.15s", model + 4);
    if (strncmp(model, "MPI", 3) == 0 && (model[3] == '\0' || model[3] == '-'))
        o->k = p2pb_imp_osu_kind_named(words);
    else /* one-sided: "MPI_Put Latency", OSU 3.x "One Sided MPI_Put latency" (rma.c) */
        o->k = p2pb_imp_rma_kind_named(model, words);
    if (strncmp(model, "MPI_", 4) == 0 && strchr(model, '-')) /* "MPI_Put-CUDA" */
        snprintf(o->device, sizeof o->device, "%.15s", strchr(model, '-') + 1);
    o->rate = o->k && o->k->is_rate;
    if (!o->k)
        snprintf(o->name, sizeof o->name, "OSU %.24s %.40s (%.34s)", model, words,
                 osu_skip_reason(model, words));
    snprintf(sc->benchbuf, sizeof sc->benchbuf, "osu");
    sc->bench = sc->benchbuf;
}

/* Title line s: source, version and the program of the next tables. */
static int osu_title(struct p2pb_imp_scan *sc, const char *s)
{
    char model[32], words[96], ver[32];
    if (!osu_title_split(s, model, sizeof model, words, sizeof words, ver, sizeof ver))
        return 0;
    osu_open_section(sc, model, words);
    snprintf(sc->osu.version, sizeof sc->osu.version, "%s", ver);
    snprintf(sc->osu.title, sizeof sc->osu.title, "%s", p2pb_imp_skip_ws(s + 1));
    p2pb_imp_rtrim(sc->osu.title);
    return 1;
}

/* An imported table of the section: the log's source (unless an IMB banner
 * named it), title and device API in the run record. */
static void osu_group_facts(struct p2pb_imp_scan *sc)
{
    struct p2pb_imp_group *g = sc->g;
    const struct p2pb_imp_osu_section *o = &sc->osu;
    if (o->own) {
        snprintf(g->source, sizeof g->source, "p2pbench-osu");
        g->mb_pow2 = 0;
    } else if (!g->source[0] || strncmp(g->source, "osu", 3) == 0) {
        if (o->version[0])
            snprintf(g->source, sizeof g->source, "osu-%s", o->version);
        else if (!g->source[0])
            snprintf(g->source, sizeof g->source, "osu");
        g->mb_pow2 = 0;
    }
    if (!cJSON_GetObjectItemCaseSensitive(g->header, "title"))
        cJSON_AddStringToObject(g->header, "title", o->title);
    if (o->device[0] && !cJSON_GetObjectItemCaseSensitive(g->header, "device_api"))
        cJSON_AddStringToObject(g->header, "device_api", o->device);
}

/* The letter in the parentheses after the first "(" at or after p; '?' if none. */
static char paren_letter(const char *p)
{
    const char *q = p ? strchr(p, '(') : NULL;
    return q && isalpha((unsigned char)q[1]) && q[2] == ')' ? q[1] : '?';
}

/* "# Send Buffer on HOST (H) and Receive Buffer on DEVICE (D)" */
static void osu_buffers(struct p2pb_imp_osu_section *o, const char *s)
{
    const char *snd = strstr(s, "Send Buffer");
    const char *rcv = strstr(s, "Receive Buffer");
    if (!snd || !rcv)
        return;
    snprintf(o->buffers, sizeof o->buffers, "%c %c", paren_letter(snd), paren_letter(rcv));
}

/* An integer after key in s (at most 10^6); 0 if none. */
static int int_after(const char *s, const char *key)
{
    const char *p = strstr(s, key);
    if (!p)
        return 0;
    long v = strtol(p + strlen(key), NULL, 10);
    return v > 0 && v <= 1000000 ? (int)v : 0;
}

/* Programs whose value column is a rate (MB/s); the others print usec. */
static int osu_rate_program(const char *prog)
{
    return strcmp(prog, "osu_bw") == 0 || strcmp(prog, "osu_bibw") == 0 ||
           strcmp(prog, "osu_mbw_mr") == 0 || strcmp(prog, "osu_put_bw") == 0 ||
           strcmp(prog, "osu_get_bw") == 0 || strcmp(prog, "osu_put_bibw") == 0 ||
           strcmp(prog, "osu_get_bibw") == 0;
}

/*
 * p2pbench's own -f osu title (src/common/output/osu.c):
 * "# p2pbench 0.3.0: uniband 0->1 in the layout of osu_bw". The table is
 * read as the kernel named (its kind in kinds.c); a kernel the importer has
 * no kind for (noise) is skipped with a note. Returns 0 when s is not one.
 */
static int osu_own_title(struct p2pb_imp_scan *sc, const char *s)
{
    const char *p = p2pb_imp_skip_ws(s + 1), *lay;
    if (strncmp(p, "p2pbench ", 9) != 0 || !(lay = strstr(p, " in the layout of osu_")))
        return 0;
    const char *k = strstr(p, ": ");
    if (!k || k > lay)
        return 0;
    k += 2;
    char kernel[32], prog[32];
    size_t kl = strcspn(k, " ");
    snprintf(kernel, sizeof kernel, "%.*s", (int)(kl < 31 ? kl : 31), k);
    snprintf(prog, sizeof prog, "%.31s", lay + strlen(" in the layout of "));
    p2pb_imp_rtrim(prog);
    struct p2pb_imp_osu_section *o = &sc->osu;
    memset(o, 0, sizeof *o);
    o->open = o->own = 1;
    o->k = p2pb_imp_native_kind(kernel);
    o->rate = osu_rate_program(prog);
    const char *v = p2pb_imp_skip_ws(k + kl);
    if (v < lay)
        snprintf(o->own_variant, sizeof o->own_variant, "%.*s",
                 (int)((size_t)(lay - v) < 31 ? (size_t)(lay - v) : 31), v);
    p2pb_text_sanitize(o->own_variant); /* text of the log: into the results file */
    if (!o->k)
        snprintf(o->name, sizeof o->name, "p2pbench %.31s (no kind to import it as)", kernel);
    snprintf(o->title, sizeof o->title, "%s", p);
    p2pb_imp_rtrim(o->title);
    snprintf(sc->benchbuf, sizeof sc->benchbuf, "osu");
    sc->bench = sc->benchbuf;
    return 1;
}

/* "# p2pbench: 2 of 4 ranks, bytes per iteration = 64 x Size" of an own
 * section (memcpy: "= 1048576 at every Size"). */
static void osu_own_facts(struct p2pb_imp_osu_section *o, const char *s)
{
    const char *p = strstr(s, "p2pbench: ");
    int a, n, end = 0;
    double bf;
    if (!o->own || !p ||
        sscanf(p, "p2pbench: %d of %d ranks, bytes per iteration = %lf %n", &a, &n, &bf, &end) !=
            3 ||
        end == 0 || a <= 0 || n < a || n > P2PB_IMP_MAX_RANKS || !(bf > 0 && bf < 1e12))
        return;
    int fixed = strncmp(p + end, "at every Size", 13) == 0;
    if (!fixed && strncmp(p + end, "x Size", 6) != 0)
        return;
    o->own_active = a;
    o->own_nranks = n;
    if (fixed)
        o->own_fixed = bf;
    else
        o->own_bf = bf;
}

void p2pb_imp_osu_comment(struct p2pb_imp_scan *sc, const char *s)
{
    struct p2pb_imp_osu_section *o = &sc->osu;
    if (osu_own_title(sc, s) || osu_title(sc, s))
        return;
    osu_own_facts(o, s);
    if (strstr(s, "Number of Sender threads:"))
        o->send_threads = int_after(s, "threads:");
    if (strstr(s, "Number of Receiver threads:"))
        o->recv_threads = int_after(s, "threads:");
    if (!o->open)
        return;
    /* one-sided programs only: "# Window creation: ...", "# Synchronization: ..." */
    if (o->k && o->k->native == 2 &&
        p2pb_imp_rma_line(s, o->rma_window, o->rma_sync, sizeof o->rma_window))
        return;
    osu_buffers(o, s);
    if (strstr(s, "pairs:"))
        o->pairs = int_after(s, "pairs:");
    if (strstr(s, "window size:"))
        o->window = int_after(s, "window size:");
}

/* ---- column header ---- */

enum osu_col { O_VAL, O_MIN, O_MAX, O_MSGS, O_OTHER };

/* The value columns after "Size" (col[n]). */
struct osu_cols {
    enum osu_col col[12];
    size_t n;
};

static enum osu_col osu_col_of(const char *name)
{
    if (p2pb_imp_ci_contains(name, "Min"))
        return O_MIN;
    if (p2pb_imp_ci_contains(name, "Max"))
        return O_MAX;
    if (p2pb_imp_ci_contains(name, "Messages/s") || p2pb_imp_ci_contains(name, "Msg"))
        return O_MSGS;
    if (p2pb_imp_ci_contains(name, "Latency") || p2pb_imp_ci_contains(name, "Bandwidth") ||
        p2pb_imp_ci_contains(name, "MB/s") || p2pb_imp_ci_contains(name, "(us)"))
        return O_VAL; /* also "Avg Latency(us)" */
    return O_OTHER;
}

/* Columns of "# Size  Avg Latency(us)  Min Latency(us) ...": names are
 * separated by two or more blanks or a tab. Returns 0 without a value column. */
static int osu_header(const char *s, struct osu_cols *c)
{
    const char *p = p2pb_imp_skip_ws(p2pb_imp_skip_ws(s + 1) + 4); /* past "# Size" */
    int has_val = 0;
    c->n = 0;
    while (*p && c->n < 12) {
        size_t len = 0;
        while (p[len] && p[len] != '\t' && !(p[len] == ' ' && p[len + 1] == ' '))
            len++;
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)(len < 63 ? len : 63), p);
        c->col[c->n] = osu_col_of(name);
        has_val |= c->col[c->n] == O_VAL;
        c->n++;
        p = p2pb_imp_skip_ws(p + len);
    }
    if (c->n == 0) { /* "# Size" alone: one value column */
        c->col[c->n++] = O_VAL;
        has_val = 1;
    }
    return has_val;
}

/* ---- one table ---- */

/* The variant of the section's rows: pairs, threads, non-host buffers. */
static void osu_variant(const struct p2pb_imp_osu_section *o, char *v, size_t len)
{
    char b[64] = "";
    if (o->pairs && strcmp(o->k->kernel, "osu_mbw_mr") == 0)
        snprintf(b, sizeof b, "pairs %d", o->pairs);
    if (o->send_threads || o->recv_threads)
        snprintf(b + strlen(b), sizeof b - strlen(b), "%sthreads %d:%d", b[0] ? " " : "",
                 o->send_threads, o->recv_threads);
    if (o->buffers[0] && strcmp(o->buffers, "H H") != 0)
        snprintf(b + strlen(b), sizeof b - strlen(b), "%s%s", b[0] ? " " : "", o->buffers);
    /* one-sided: OSU's -s and -w as p2pbench's rows name them ("sync=flush win=allocate") */
    if (o->rma_sync[0])
        snprintf(b + strlen(b), sizeof b - strlen(b), "%ssync=%s", b[0] ? " " : "", o->rma_sync);
    if (o->rma_window[0])
        snprintf(b + strlen(b), sizeof b - strlen(b), "%swin=%s", b[0] ? " " : "", o->rma_window);
    snprintf(v, len, "%.31s", b);
}

/* Ranks of the job from an Intel MPI pin map ("[0] MPI startup(): 7  4456  host  {3,7}"); 0 if
 * none. */
static int intel_pin_map_ranks(const struct p2pb_imp_log *lg)
{
    int maxr = -1;
    for (size_t i = 0; i < lg->nlines; i++) {
        const char *p = strstr(lg->lines[i], "MPI startup(): ");
        if (!p || !strchr(p, '{'))
            continue;
        char *end;
        long r = strtol(p + 15, &end, 10);
        if (end != p + 15 && r >= 0 && r < 1000000 && isspace((unsigned char)*end) && r > maxr)
            maxr = (int)r;
    }
    return maxr + 1;
}

/* A new table of the section's kind, header at line i; NULL when out of memory. */
static struct p2pb_imp_table *osu_table_open(struct p2pb_imp_scan *sc, size_t i)
{
    const struct p2pb_imp_osu_section *o = &sc->osu;
    struct p2pb_imp_table *t = p2pb_imp_table_new(sc->g, o->k);
    if (!t)
        return NULL;
    t->layout = P2PB_IMB_T;
    t->nranks = t->active = 2;
    if (strcmp(o->k->kernel, "osu_mbw_mr") == 0 && o->pairs) {
        t->nranks = t->active = 2 * o->pairs;
        t->bytes_factor = o->pairs; /* aggregate MB/s = pairs x X / t per pair */
    } else if (strcmp(o->k->kernel, "osu_multi_lat") == 0) {
        t->nranks = t->active = intel_pin_map_ranks(sc->lg); /* 0: not logged */
    }
    t->line = (long)i + 1;
    osu_group_facts(sc);
    p2pb_imp_rma_policy(sc->g, o->rma_window, o->rma_sync);
    if (o->own) {
        /* the kernel's own ranks, variant and bytes per iteration */
        snprintf(t->variant, sizeof t->variant, "%s", o->own_variant);
        if (o->own_nranks) {
            t->nranks = o->own_nranks;
            t->active = o->own_active;
        }
        if (o->own_bf > 0)
            t->bytes_factor = o->own_bf;
        t->fixed_bytes = o->own_fixed;
        t->rate_is_sum = strncmp(o->own_variant, "aggregate", 9) == 0;
        p2pb_imp_repeat_variant(sc->g, t);
        return t;
    }
    osu_variant(o, t->variant, sizeof t->variant);
    p2pb_imp_repeat_variant(sc->g, t);
    return t;
}

/* The note recorded on each row: what the log says besides the numbers. */
static void osu_row_note(const struct p2pb_imp_osu_section *o, char *n, size_t len)
{
    n[0] = '\0';
    if (o->buffers[0] || o->device[0])
        snprintf(n, len, "buffers %s, device API %s", o->buffers[0] ? o->buffers : "not logged",
                 o->device[0] ? o->device : "none (host build)");
    if (o->window)
        snprintf(n + strlen(n), len - strlen(n), "%swindow %d", n[0] ? ", " : "", o->window);
}

/* Row r from its tokens tok[0..n) under columns c; 0 when a value is not a number. */
static int osu_fill(struct p2pb_imp_row *r, int is_rate, const struct osu_cols *c, char **tok,
                    size_t n, double bf)
{
    for (size_t i = 1; i < n && i - 1 < c->n; i++) {
        double v;
        if (c->col[i - 1] == O_OTHER)
            continue;
        if (!p2pb_imp_parse_num(tok[i], &v))
            return 0;
        if (c->col[i - 1] == O_VAL && is_rate)
            r->mbps = v;
        else if (c->col[i - 1] == O_VAL)
            r->t = r->tavg = v;
        else if (c->col[i - 1] == O_MIN && !is_rate)
            r->tmin = v;
        else if (c->col[i - 1] == O_MAX && !is_rate)
            r->tmax = v;
        else if (c->col[i - 1] == O_MSGS)
            r->msgs = v;
    }
    if (isnan(r->tmax))
        r->tavg = NAN;
    if (is_rate && r->mbps > 0 && r->bytes > 0) {
        r->t = bf * (double)r->bytes / r->mbps; /* MB/s = bf X / t, t in usec */
        r->t_derived = 1;
    }
    return 1;
}

/* Lines of the MPI stack at line j of t (mpilines.c): skipped, counted in
 * t->mpi, when a row of t with a larger size follows them; else t stops
 * there (noted in t->mpi). Returns the index of that row, or 0. */
static size_t osu_mpi_skip(const struct p2pb_imp_log *lg, struct p2pb_imp_table *t, size_t j)
{
    struct p2pb_imp_mpi blk;
    size_t k = p2pb_imp_mpi_block(lg, j, &blk), bytes;
    if (k == j || !t->nrows)
        return 0;
    char buf[512], *tok[4];
    int row = k < lg->nlines &&
              p2pb_imp_tokenize(p2pb_imp_skip_ws(lg->lines[k]), buf, sizeof buf, tok, 4) >= 2 &&
              p2pb_imp_parse_size(tok[0], &bytes) && bytes > t->rows[t->nrows - 1].bytes;
    p2pb_imp_mpi_take(&t->mpi, &blk, j, row);
    return row ? k : 0;
}

/* Read the rows of t from line *j on; *j ends at the first line after the table. */
static enum p2pb_status osu_read_rows(struct p2pb_imp_scan *sc, struct p2pb_imp_table *t,
                                      const struct osu_cols *c, size_t *j, int *partial, char *err,
                                      size_t errlen)
{
    const struct p2pb_imp_log *lg = sc->lg;
    for (; *j < lg->nlines; (*j)++) {
        char buf[512], *tok[14];
        const char *s = p2pb_imp_skip_ws(lg->lines[*j]);
        if (*s == '#' && t->nrows == 0 && strstr(s, "Datatype"))
            continue; /* OSU 7.0-7.3: "# Datatype: MPI_CHAR." after the header */
        size_t failed;
        if (*s == '#' && sc->osu.own && sscanf(s, "# %zu bytes:", &failed) == 1)
            continue; /* p2pbench: a size that failed, inside the table */
        size_t n = p2pb_imp_tokenize(s, buf, sizeof buf, tok, 14), bytes, k;
        if (n == 0 || !p2pb_imp_parse_size(tok[0], &bytes)) {
            if ((k = osu_mpi_skip(lg, t, *j)) != 0) {
                *j = k - 1; /* the MPI library's lines: counted, noted once per table */
                continue;
            }
            break;
        }
        struct p2pb_imp_row tmp;
        p2pb_imp_row_init(&tmp, t->variant);
        tmp.bytes = bytes;
        osu_row_note(&sc->osu, tmp.note, sizeof tmp.note);
        if (n < 2) {
            *partial = 1;
            break;
        }
        if (sc->osu.own && sc->osu.rate && bytes == 0)
            continue; /* p2pbench's 0-byte rate row: 0.00 MB/s, no time in it */
        /* memcpy: the buffer per iteration at every size */
        double bf =
            t->fixed_bytes > 0 && bytes > 0 ? t->fixed_bytes / (double)bytes : t->bytes_factor;
        if (!osu_fill(&tmp, sc->osu.rate, c, tok, n, bf)) {
            p2pb_imp_bad_row(sc->lg, sc->g, t, *j + 1, "a value is not a finite number");
            break;
        }
        int added = p2pb_imp_row_append(sc->lg, sc->g, t, &tmp, *j + 1);
        if (added < 0)
            return p2pb_fail(P2PB_ENOMEM, err, errlen, "%s: out of memory", lg->path);
        if (!added)
            break;
    }
    return P2PB_OK;
}

/* Skip the table at line *i of a program not imported: to its last row. */
static void osu_skip_table(struct p2pb_imp_scan *sc, size_t *i)
{
    p2pb_imp_skip(sc, sc->osu.name);
    size_t j = *i + 1, bytes;
    while (j < sc->lg->nlines) {
        char buf[512], *tok[4];
        const char *s = p2pb_imp_skip_ws(sc->lg->lines[j]);
        size_t n = p2pb_imp_tokenize(s, buf, sizeof buf, tok, 4);
        if (!(*s == '#' && strstr(s, "Datatype")) &&
            (n == 0 || !p2pb_imp_parse_size(tok[0], &bytes)))
            break;
        j++;
    }
    sc->last_end = j;
    *i = j - 1;
}

enum p2pb_status p2pb_imp_osu_table(struct p2pb_imp_scan *sc, size_t *i, int *taken, char *err,
                                    size_t errlen)
{
    const char *s = p2pb_imp_skip_ws(sc->lg->lines[*i]);
    /* OSU column header: "# Size  Latency (us)" / "Bandwidth (MB/s)" ... */
    *taken = *s == '#' && strncmp(p2pb_imp_skip_ws(s + 1), "Size", 4) == 0 && sc->osu.open;
    struct osu_cols c;
    if (!*taken)
        return P2PB_OK;
    sc->osu.open = 0;
    if (!sc->osu.k || !osu_header(s, &c)) {
        if (sc->osu.k)
            snprintf(sc->osu.name, sizeof sc->osu.name, "OSU %s (no value column)",
                     sc->osu.k->display);
        osu_skip_table(sc, i);
        return P2PB_OK;
    }
    struct p2pb_imp_table *t = osu_table_open(sc, *i);
    if (!t)
        return p2pb_fail(P2PB_ENOMEM, err, errlen, "%s: out of memory", sc->lg->path);
    size_t j = *i + 1;
    int partial = 0;
    enum p2pb_status st = osu_read_rows(sc, t, &c, &j, &partial, err, errlen);
    if (st != P2PB_OK)
        return st;
    t->end_line = (long)j + 1;
    p2pb_imp_cut_short(sc->lg, sc->g, t, -1, partial, j + 1);
    /* OSU's point-to-point tests end at 4 MiB unless -m says otherwise */
    t->mpi.early = p2pb_imp_mpi_note(sc->lg, sc->g, t, 4194304);
    p2pb_imp_table_drop_empty(sc->g, t);
    sc->osu.send_threads = sc->osu.recv_threads = 0;
    sc->last_end = j;
    *i = j - 1;
    return P2PB_OK;
}
