/* SPDX-License-Identifier: MIT */
/*
 * IMB and PMB logs: the banner (version, so the unit of the rates), the
 * "# Key : value" facts, the calling sequence, the "Benchmarking X" sections
 * with their process counts, and the "#bytes #repetitions ..." tables of the
 * benchmarks in kinds.c. Written from the formats as they appear in
 * published logs.
 *
 * A table starts at its column header and ends at the first line that is not
 * one of its data rows, except: a blank line between the sizes of a PMB
 * -multi table, and a few foreign lines (another rank's output) followed by a
 * row of a larger size.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "import.h"

/* ---- column header ---- */

enum imb_col { C_GROUP, C_BYTES, C_REPS, C_T, C_TMIN, C_TMAX, C_TAVG, C_MBPS, C_MSGS, C_OTHER };

/* The columns of one table, in order. */
struct imb_cols {
    enum imb_col col[16];
    char name[16][16]; /* as the header writes them, for messages */
    size_t n;
};

static enum imb_col imb_col_of(const char *t)
{
    if (strcmp(t, "#bytes") == 0)
        return C_BYTES;
    if (strcmp(t, "#repetitions") == 0)
        return C_REPS;
    if (strcasecmp(t, "Group") == 0)
        return C_GROUP;
    if (strcmp(t, "t[usec]") == 0)
        return C_T;
    if (strcmp(t, "t_min[usec]") == 0)
        return C_TMIN;
    if (strcmp(t, "t_max[usec]") == 0)
        return C_TMAX;
    if (strcmp(t, "t_avg[usec]") == 0)
        return C_TAVG;
    if (strcasecmp(t, "Mbytes/sec") == 0 || strcasecmp(t, "MB/s") == 0)
        return C_MBPS;
    if (strcasecmp(t, "Msg/sec") == 0 || strcasecmp(t, "Msg/s") == 0)
        return C_MSGS;
    return C_OTHER;
}

/* Column header of an IMB/PMB table: "#bytes #repetitions ..." */
static int imb_header(const char *line, struct imb_cols *c)
{
    char buf[1024], *tok[16];
    size_t n = p2pb_imp_tokenize(line, buf, sizeof buf, tok, 16);
    int has_bytes = 0, has_reps = 0;
    for (size_t i = 0; i < n; i++) {
        c->col[i] = imb_col_of(tok[i]);
        snprintf(c->name[i], sizeof c->name[i], "%s", tok[i]);
        has_bytes |= c->col[i] == C_BYTES;
        has_reps |= c->col[i] == C_REPS;
    }
    c->n = n;
    return has_bytes && has_reps;
}

static int imb_has(const struct imb_cols *c, enum imb_col want)
{
    for (size_t i = 0; i < c->n; i++)
        if (c->col[i] == want)
            return 1;
    return 0;
}

/* ---- banner and facts ---- */

/* Header facts "# Key : value" of an IMB banner. */
static const char *const imb_facts[][2] = {
    {"Date", "date"},
    {"Machine", "machine"},
    {"System", "system"},
    {"Release", "release"},
    {"Version", "version"},
    {"MPI Version", "mpi_version"},
    {"Host", "host"},               /* p2pbench's -f imb: rank 0's host */
    {"MPI Library", "mpi_library"}, /* p2pbench's -f imb: the library's own string */
    {"MPI Thread Environment", "mpi_thread_environment"},
};

static void imb_fact(struct p2pb_imp_group *g, const char *line)
{
    const char *s = p2pb_imp_skip_ws(line + 1);
    const char *colon = strchr(s, ':');
    if (!colon)
        return;
    size_t klen = (size_t)(colon - s);
    while (klen && (s[klen - 1] == ' ' || s[klen - 1] == '\t'))
        klen--;
    for (size_t i = 0; i < sizeof imb_facts / sizeof imb_facts[0]; i++) {
        if (strlen(imb_facts[i][0]) == klen && strncmp(s, imb_facts[i][0], klen) == 0) {
            char val[256];
            snprintf(val, sizeof val, "%s", p2pb_imp_skip_ws(colon + 1));
            p2pb_imp_rtrim(val);
            if (!cJSON_GetObjectItemCaseSensitive(g->header, imb_facts[i][1]))
                cJSON_AddStringToObject(g->header, imb_facts[i][1], val);
            return;
        }
    }
}

/* The version after "MPI Benchmark" (p) in lower case, blanks as '-':
 * "4.1", "2019-update-5", "3.2.4", "2.2"; "" unless it starts with a digit. */
static void imb_version_string(const char *p, char *ver, size_t len)
{
    p += strlen("MPI Benchmark");
    if (*p == 's')
        p++;
    p = p2pb_imp_skip_ws(p);
    if (strncmp(p, "Suite", 5) == 0)
        p = p2pb_imp_skip_ws(p + 5);
    if ((*p == 'V' || *p == 'v') && isdigit((unsigned char)p[1]))
        p++;
    size_t i = 0;
    while (p[i] && p[i] != ',' && i + 1 < len) {
        ver[i] = p[i];
        i++;
    }
    ver[i] = '\0';
    while (i && ver[i - 1] == ' ')
        ver[--i] = '\0';
    for (char *c = ver; *c; c++)
        *c = *c == ' ' ? '-' : (char)tolower((unsigned char)*c);
    if (!isdigit((unsigned char)ver[0]))
        ver[0] = '\0';
}

/* Version from a banner line ("Intel (R) MPI Benchmarks 4.1, MPI-1 part",
 * "Intel(R) MPI Benchmarks 2019 Update 5", "Intel (R) MPI Benchmark Suite V3.2.4",
 * "Pallas MPI Benchmark Suite V2.2", "PMB-MPI1"); sets source and the unit. */
static void imb_version(struct p2pb_imp_group *g, const char *line)
{
    int pallas = p2pb_imp_ci_contains(line, "Pallas") || strstr(line, "PMB") != NULL;
    const char *p = strstr(line, "MPI Benchmark");
    char b[256];
    snprintf(b, sizeof b, "%s", p2pb_imp_skip_ws(line + 1));
    p2pb_imp_rtrim(b);
    cJSON_DeleteItemFromObjectCaseSensitive(g->header, "banner");
    cJSON_AddStringToObject(g->header, "banner", b);
    char ver[48] = "";
    if (p)
        imb_version_string(p, ver, sizeof ver);
    if (pallas) {
        snprintf(g->source, sizeof g->source, "pmb%s%s", ver[0] ? "-" : "", ver);
        g->mb_pow2 = 1;
        return;
    }
    if (!ver[0])
        return;
    snprintf(g->source, sizeof g->source, "imb-%s", ver);
    double v = strtod(ver, NULL); /* "2019-update-5": 2019 */
    /* PMB and IMB <= 3.2: 2^20; IMB 4 and later (4.x, 2017 .. 2021): 10^6 */
    g->mb_pow2 = v > 0 && v < 4.0 ? 1 : v >= 4.0 ? 0 : -1;
}

/* "# Calling sequence was:" at line i: the first non-empty '#' line of the next three. */
static void imb_calling_sequence(struct p2pb_imp_scan *sc, size_t i)
{
    const struct p2pb_imp_log *lg = sc->lg;
    for (size_t j = i + 1; j < lg->nlines && j < i + 4; j++) {
        const char *c = p2pb_imp_skip_ws(lg->lines[j]);
        if (*c == '#' && *p2pb_imp_skip_ws(c + 1)) {
            char cs[512];
            snprintf(cs, sizeof cs, "%s", p2pb_imp_skip_ws(c + 1));
            p2pb_imp_rtrim(cs);
            cJSON_AddStringToObject(sc->g->header, "calling_sequence", cs);
            break;
        }
    }
}

/* "# Benchmarking X" (m at "Benchmarking ") at line i: a new section; X noted
 * if not imported. */
static void imb_section(struct p2pb_imp_scan *sc, const char *m, size_t i)
{
    const char *name = m + strlen("Benchmarking ");
    size_t l = strcspn(name, " \t\r");
    snprintf(sc->benchbuf, sizeof sc->benchbuf, "%.*s", (int)(l < 63 ? l : 63), name);
    /* IMB-EXT / IMB-RMA (also in p2pbench's own -f imb): no suffixes */
    sc->rma = p2pb_imp_imb_rma_name(sc->benchbuf);
    sc->own_tab.bad[0] = '\0';
    sc->own_tab.rma[0] = '\0';
    sc->own_tab.rma_window = 0;
    if (sc->own && !sc->rma) /* "Uniband_reverse": kind Uniband, the suffixes noted */
        p2pb_imp_own_section(sc, name, l, sc->benchbuf, sizeof sc->benchbuf, i + 1);
    sc->bench = sc->benchbuf;
    /* p2pbench's own output before 0.2 named the part after the kernel:
     * "Uniband 0->1", "Multi-PingPong pair 0-1", "Memcpy rank 0": that is the
     * variant (still "Noise rank 0") */
    snprintf(sc->section_variant, sizeof sc->section_variant, "%.31s", p2pb_imp_skip_ws(name + l));
    p2pb_imp_rtrim(sc->section_variant);
    sc->nprocs = sc->waiting = sc->multi = sc->rma_mode = 0;
    sc->osu.open = 0;
    /* a one-sided name is decided at its table, by the MODE line (rma.c) */
    if (!sc->rma && !p2pb_imp_imb_kind(sc->bench, sc->own))
        p2pb_imp_skip(sc, sc->bench);
}

/* A process count at s: 0..P2PB_IMP_MAX_RANKS, else 0 (not a count). */
static int count_at(const char *s)
{
    char *end;
    long v = strtol(s, &end, 10);
    return end != s && v > 0 && v <= P2PB_IMP_MAX_RANKS ? (int)v : 0;
}

/* "#processes = N", "( M additional processes waiting in MPI_Barrier)",
 * "( G groups of P processes each running simultaneous )". */
static void imb_process_counts(struct p2pb_imp_scan *sc, const char *s)
{
    const char *m;
    if ((m = strstr(s, "#processes =")) != NULL)
        sc->nprocs = count_at(m + strlen("#processes ="));
    if (strstr(s, "additional processes waiting") != NULL ||
        strstr(s, "additional process waiting") != NULL) {
        const char *p = strchr(s, '(');
        sc->waiting = p ? count_at(p + 1) : 0;
    }
    if (strstr(s, "groups of") && strstr(s, "processes each")) {
        const char *p = strchr(s, '(');
        sc->multi = p ? count_at(p + 1) : 0;
        const char *q = strstr(s, "groups of");
        long per = q ? count_at(q + strlen("groups of")) : 0;
        /* both at most P2PB_IMP_MAX_RANKS: the product fits a long */
        if (sc->multi > 0 && per > 0 && (long)sc->multi * per <= P2PB_IMP_MAX_RANKS)
            sc->nprocs = (int)(sc->multi * per);
    }
}

/* The size after "Maximum message length in bytes:" (s): 0..2^50 B; -1 (not
 * announced) for anything else, so no "cut short" warning rests on it. */
static long imb_max_bytes(const char *s)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    while (isspace((unsigned char)*end))
        end++;
    if (end == s || errno || v < 0 || v > (1L << 50) || *end)
        return -1;
    return v;
}

void p2pb_imp_imb_comment(struct p2pb_imp_scan *sc, size_t i, const char *s)
{
    if (strstr(s, "p2pbench") && strstr(s, "IMB-MPI1 compatible output")) {
        /* p2pbench's own --format imb: its kernels, 1 MB = 10^6 B */
        sc->own = 1;
        snprintf(sc->g->source, sizeof sc->g->source, "p2pbench-imb");
        sc->g->mb_pow2 = 0;
    }
    if (strstr(s, "MPI Benchmark") || strstr(s, "PMB-MPI1"))
        imb_version(sc->g, s);
    else if (strstr(s, " : ") || strstr(s, "\t: "))
        imb_fact(sc->g, s);
    if (strstr(s, "Calling sequence was"))
        imb_calling_sequence(sc, i);
    const char *m;
    if ((m = strstr(s, "Maximum message length in bytes:")) != NULL)
        sc->maxbytes = imb_max_bytes(m + strlen("Maximum message length in bytes:"));
    if ((m = strstr(s, "Benchmarking ")) != NULL)
        imb_section(sc, m, i);
    imb_process_counts(sc, s);
    int mode = sc->bench ? p2pb_imp_rma_mode(s) : P2PB_IMP_MODE_NONE;
    if (mode != P2PB_IMP_MODE_NONE)
        sc->rma_mode = mode;
    if (sc->own)
        p2pb_imp_own_comment(sc, s, i + 1);
}

/* ---- data rows ---- */

/* Store value v of column col in r; 0 if v cannot be that column. */
static int imb_set(struct p2pb_imp_row *r, enum imb_col col, double v)
{
    switch (col) {
    case C_GROUP:
        if (v < 0 || v != floor(v) || v > P2PB_IMP_MAX_RANKS)
            return 0;
        snprintf(r->variant, sizeof r->variant, "group %d", (int)v);
        break;
    case C_BYTES:
        if (v < 0 || v != floor(v) || v > 1e15)
            return 0;
        r->bytes = (size_t)v;
        break;
    case C_REPS: r->reps = v; break;
    case C_T: r->t = v; break;
    case C_TMIN: r->tmin = v; break;
    case C_TMAX: r->tmax = v; break;
    case C_TAVG: r->tavg = v; break;
    case C_MBPS: r->mbps = v; break;
    case C_MSGS: r->msgs = v; break;
    default: break;
    }
    return 1;
}

/* Is line a data row of a table with columns c? Fills r if so; *partial: a
 * row of numbers with too few columns (cut short). */
static int imb_row(const char *line, const struct imb_cols *c, struct p2pb_imp_row *r, int *partial)
{
    char buf[1024], *tok[16];
    size_t n = p2pb_imp_tokenize(line, buf, sizeof buf, tok, 16);
    *partial = 0;
    if (n == 0)
        return 0;
    double v[16];
    for (size_t i = 0; i < n; i++)
        if (!p2pb_imp_parse_num(tok[i], &v[i]))
            return 0;
    if (n != c->n) {
        *partial = n < c->n;
        return 0;
    }
    for (size_t i = 0; i < n; i++)
        if (!imb_set(r, c->col[i], v[i]))
            return 0;
    if (isnan(r->t))
        r->t = r->tmax;
    if (isnan(r->t) && r->msgs > 0) {
        /* IMB Uniband/Biband: no time column; one message every 1/(msg/s) */
        r->t = 1e6 / r->msgs;
        r->t_derived = 2;
    }
    return 1;
}

/* Is line k a data row (its contents not kept)? *bytes: its size. */
static int imb_probe(const char *line, const struct imb_cols *c, size_t *bytes)
{
    struct p2pb_imp_row probe;
    int pp;
    memset(&probe, 0, sizeof probe);
    if (!imb_row(line, c, &probe, &pp))
        return 0;
    *bytes = probe.bytes;
    return 1;
}

/* Line d of a table with columns c that imb_row refused, but looks like a
 * row: at least as many values as columns, and all numbers but one or the
 * first starting with a digit. Returns 1 with what is wrong in why (whylen
 * bytes); 0: another kind of line (text of another program, the next table). */
static int imb_bad_row(const char *d, const struct imb_cols *c, char *why, size_t whylen)
{
    char buf[1024], *tok[17];
    size_t n = p2pb_imp_tokenize(d, buf, sizeof buf, tok, 17), nums = 0;
    double v;
    for (size_t i = 0; i < n; i++)
        nums += (size_t)p2pb_imp_parse_num(tok[i], &v);
    if (n < c->n || (nums + 1 < c->n && !isdigit((unsigned char)tok[0][0])))
        return 0;
    if (n > c->n) {
        snprintf(why, whylen, "%zu%s values where the header has %zu columns", n,
                 n == 17 ? " or more" : "", c->n);
        return 1;
    }
    struct p2pb_imp_row r;
    p2pb_imp_row_init(&r, "");
    for (size_t i = 0; i < n; i++) {
        if (!p2pb_imp_parse_num(tok[i], &v)) {
            snprintf(why, whylen, "%s '%.24s' is not a finite number", c->name[i], tok[i]);
            return 1;
        }
        if (!imb_set(&r, c->col[i], v)) {
            snprintf(why, whylen, "%s %.24s is not a whole number 0..%s", c->name[i], tok[i],
                     c->col[i] == C_GROUP ? "1000000" : "10^15");
            return 1;
        }
    }
    snprintf(why, whylen, "a value is not valid in its column");
    return 1;
}

/* A blank line (blanks, tabs, a CR). */
static int imb_blank(const char *d)
{
    const char *s = p2pb_imp_skip_ws(d);
    return !*s || *s == '\r';
}

/* Blank line j: blank lines separate sizes in PMB -multi tables (with a Group
 * column); the table goes on if the next non-blank line is a row, or a bad
 * row (imb_bad_row: it is reported there). */
static int imb_blank_continues(const struct p2pb_imp_log *lg, const struct imb_cols *c, size_t j)
{
    size_t k = j + 1;
    while (k < lg->nlines && !*p2pb_imp_skip_ws(lg->lines[k]))
        k++;
    size_t bytes;
    char why[160];
    return c->col[0] == C_GROUP && k < lg->nlines &&
           (imb_probe(lg->lines[k], c, &bytes) || imb_bad_row(lg->lines[k], c, why, sizeof why));
}

/*
 * Foreign lines inside a table (debug output of another rank written between
 * two rows) at line j: skipped if a row of the same table with a larger size
 * follows within a few lines, with no blank or '#' line between. Returns the
 * index of that row, or 0: the table ends at j.
 */
static size_t imb_foreign_end(const struct p2pb_imp_log *lg, const struct p2pb_imp_table *t,
                              const struct imb_cols *c, size_t j, int partial)
{
    const char *d = p2pb_imp_skip_ws(lg->lines[j]);
    if (partial || *d == '#' || t->nrows == 0)
        return 0;
    for (size_t k = j + 1; k < lg->nlines && k < j + 8; k++) {
        const char *ks = p2pb_imp_skip_ws(lg->lines[k]);
        size_t bytes;
        if (!*ks || *ks == '#')
            return 0;
        if (imb_probe(lg->lines[k], c, &bytes))
            return bytes > t->rows[t->nrows - 1].bytes ? k : 0;
    }
    return 0;
}

/* Lines of the MPI stack at line j of t (mpilines.c): skipped, counted in
 * t->mpi, when a row of t with a larger size follows them; else t stops
 * there (noted in t->mpi). Returns the index of that row, or 0. */
static size_t imb_mpi_skip(const struct p2pb_imp_log *lg, struct p2pb_imp_table *t,
                           const struct imb_cols *c, size_t j)
{
    struct p2pb_imp_mpi blk;
    size_t k = p2pb_imp_mpi_block(lg, j, &blk), bytes;
    if (k == j || !t->nrows)
        return 0;
    int row =
        k < lg->nlines && imb_probe(lg->lines[k], c, &bytes) && bytes > t->rows[t->nrows - 1].bytes;
    p2pb_imp_mpi_take(&t->mpi, &blk, j, row);
    return row ? k : 0;
}

/* ---- one table ---- */

/* The kind of the table at line i: the section's, or for logs without
 * "Benchmarking" a kind named on a line since the previous table. */
static const struct p2pb_imp_kind *imb_table_kind(const struct p2pb_imp_scan *sc, size_t i)
{
    if (sc->bench && sc->rma)
        return p2pb_imp_imb_rma_kind(sc->bench, sc->rma_mode); /* never PingPong's */
    const struct p2pb_imp_kind *ki = sc->bench ? p2pb_imp_imb_kind(sc->bench, sc->own) : NULL;
    if (!sc->bench) {
        for (size_t j = i; j-- > sc->last_end && !ki;)
            ki = p2pb_imp_imb_kind_in_line(sc->lg->lines[j]);
    }
    return ki;
}

/* A collective (or unknown) benchmark's table at line i: its rows are skipped with a note. */
static void imb_skip_table(struct p2pb_imp_scan *sc, const struct p2pb_imp_kind *ki, size_t i)
{
    if (!ki && !sc->bench) {
        p2pb_imp_note(sc->lg, sc->g, "line %zu: table of an unnamed benchmark skipped", i + 1);
    } else if (!ki && sc->rma) {
        char name[96]; /* a one-sided MODE without a kernel: "Bidir_Put NON-AGGREGATE" */
        snprintf(name, sizeof name, "%.63s %s", sc->bench, p2pb_imp_rma_mode_name(sc->rma_mode));
        p2pb_imp_skip(sc, name);
    } else if (ki)
        p2pb_imp_note(sc->lg, sc->g, "line %zu: %s table without t and Mbytes/sec columns skipped",
                      i + 1, ki->display);
    sc->bench = NULL;
}

/* A table of p2pbench's own output at line i whose section's name or group
 * lines are malformed (sc->own_tab.bad): skipped with a warning. */
static void imb_skip_malformed(struct p2pb_imp_scan *sc, const struct p2pb_imp_kind *ki, size_t i)
{
    struct p2pb_imp_log *lg = sc->lg;
    p2pb_imp_note(lg, sc->g, "warning: line %zu: %s table skipped: %s", i + 1, ki->display,
                  sc->own_tab.bad);
    size_t used = strlen(lg->nothing);
    if (used + 1 < sizeof lg->nothing)
        snprintf(lg->nothing + used, sizeof lg->nothing - used, "%sthe %s table (line %zu): %.300s",
                 used ? "; " : "", ki->display, i + 1, sc->own_tab.bad);
    sc->bench = NULL;
}

/* A new table of kind ki with columns c, header at line i; NULL when out of memory. */
static struct p2pb_imp_table *imb_table_open(struct p2pb_imp_scan *sc,
                                             const struct p2pb_imp_kind *ki,
                                             const struct imb_cols *c, size_t i)
{
    struct p2pb_imp_table *t = p2pb_imp_table_new(sc->g, ki);
    if (!t)
        return NULL;
    t->layout = imb_has(c, C_TMAX) ? P2PB_IMB_TMINMAXAVG : P2PB_IMB_T;
    int has_group = c->col[0] == C_GROUP;
    int window = !sc->rma && p2pb_kernel_has(ki->kernel, P2PB_FACT_WINDOW);
    t->logged_bf = sc->rma ? p2pb_imp_rma_logged_bf(ki) : 0;
    if (sc->own && !sc->rma) {
        p2pb_imp_own_table(sc, t, has_group,
                           imb_has(c, C_MSGS) && !imb_has(c, C_T) && !imb_has(c, C_TMAX));
    } else if ((sc->multi || (sc->bench && strncasecmp(sc->bench, "Multi-", 6) == 0)) &&
               !has_group) {
        snprintf(t->variant, sizeof t->variant, "multi");
    } else if (window && sc->nprocs > 2) {
        /* IMB Uniband/Biband with -npmin: one table per process count */
        snprintf(t->variant, sizeof t->variant, "np %d", sc->nprocs);
    }
    if (sc->own && sc->rma)
        p2pb_imp_own_rma(sc, t);
    if (window && !sc->own && !imb_has(c, C_T) && !imb_has(c, C_TMAX))
        t->bytes_factor = 1; /* t = 1 / (messages/s): one message of X bytes */
    t->nranks = sc->nprocs + sc->waiting;
    t->active = sc->nprocs;
    t->line = (long)i + 1;
    p2pb_imp_repeat_variant(sc->g, t);
    return t;
}

/*
 * Bad row at line j of t (why): skipped with a warning when a row of the
 * table, good or bad, follows (the next line; in a Group table after blank
 * lines), and 1:
 * the table goes on; else the table is cut short there (p2pb_imp_bad_row), 0.
 */
static int imb_reject(struct p2pb_imp_scan *sc, const struct p2pb_imp_table *t,
                      const struct imb_cols *c, size_t j, const char *why)
{
    const struct p2pb_imp_log *lg = sc->lg;
    size_t k = j + 1, bytes;
    while (c->col[0] == C_GROUP && k < lg->nlines && imb_blank(lg->lines[k]))
        k++;
    char next[160];
    if (k >= lg->nlines ||
        !(imb_probe(lg->lines[k], c, &bytes) || imb_bad_row(lg->lines[k], c, next, sizeof next))) {
        p2pb_imp_bad_row(sc->lg, sc->g, t, j + 1, why);
        return 0;
    }
    p2pb_imp_note(sc->lg, sc->g,
                  "warning: line %zu: %s table (line %ld): row skipped: %s; the rows before "
                  "and after it kept",
                  j + 1, t->display, t->line, why);
    return 1;
}

/* Read the rows of t from line *j on; *j ends at the first line after the table. */
static enum p2pb_status imb_read_rows(struct p2pb_imp_scan *sc, struct p2pb_imp_table *t,
                                      const struct imb_cols *c, size_t *j, int *partial, char *err,
                                      size_t errlen)
{
    const struct p2pb_imp_log *lg = sc->lg;
    char why[160];
    for (; *j < lg->nlines; (*j)++) {
        const char *d = lg->lines[*j];
        size_t k;
        if (imb_blank(d)) {
            if (imb_blank_continues(lg, c, *j))
                continue;
            if ((k = imb_mpi_skip(lg, t, c, *j)) != 0) {
                *j = k - 1;
                continue;
            }
            break;
        }
        struct p2pb_imp_row tmp;
        p2pb_imp_row_init(&tmp, t->variant);
        if (sc->rma)
            snprintf(tmp.note, sizeof tmp.note, "IMB %.24s, MODE %s%s", sc->bench,
                     p2pb_imp_rma_mode_name(sc->rma_mode),
                     t->logged_bf > 0 ? "; logged MB/s (one direction) x 2" : "");
        if (!imb_row(d, c, &tmp, partial)) {
            if (!*partial && imb_bad_row(d, c, why, sizeof why)) {
                if (imb_reject(sc, t, c, *j, why))
                    continue;
                break;
            }
            if (!*partial && (k = imb_mpi_skip(lg, t, c, *j)) != 0) {
                *j = k - 1; /* the MPI library's lines: counted, noted once per table */
                continue;
            }
            k = t->mpi.ended ? 0 : imb_foreign_end(lg, t, c, *j, *partial);
            if (!k)
                break;
            p2pb_imp_note(sc->lg, sc->g,
                          "line %zu: %zu non-data line%s inside the %s table skipped (\"%.50s\")",
                          *j + 1, k - *j, k - *j == 1 ? "" : "s", t->display, p2pb_imp_skip_ws(d));
            *j = k - 1;
            continue;
        }
        if (sc->own && !sc->rma && !p2pb_imp_own_row(sc, t, &tmp, why, sizeof why)) {
            if (imb_reject(sc, t, c, *j, why))
                continue;
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

/* After the table t that ended at line j: checks, and the section is over. */
static void imb_table_close(struct p2pb_imp_scan *sc, struct p2pb_imp_table *t, size_t j,
                            int partial)
{
    /* stopped by the MPI library's lines: said by p2pb_imp_mpi_note, against
     * the header's largest size or IMB's default, 4 MiB */
    p2pb_imp_cut_short(sc->lg, sc->g, t, t->mpi.ended ? -1 : sc->maxbytes, partial, j + 1);
    t->mpi.early = p2pb_imp_mpi_note(sc->lg, sc->g, t, sc->maxbytes > 0 ? sc->maxbytes : 4194304);
    t->end_line = (long)j + 1;
    if (t->infer_factor)
        p2pb_imp_infer_factor(t);
    p2pb_imp_table_drop_empty(sc->g, t);
    /* PingPong and PingPing keep two ranks busy whatever the job size (not -multi) */
    if (sc->nprocs > 2 && (t->traits & P2PB_IMP_TWO_RANKS) && !sc->multi)
        t->active = 2;
    sc->last_end = j;
    sc->bench = NULL;
    sc->nprocs = sc->waiting = sc->multi = sc->rma = 0;
}

enum p2pb_status p2pb_imp_imb_table(struct p2pb_imp_scan *sc, size_t *i, char *err, size_t errlen)
{
    struct imb_cols c;
    if (!imb_header(p2pb_imp_skip_ws(sc->lg->lines[*i]), &c))
        return P2PB_OK;
    const struct p2pb_imp_kind *ki = imb_table_kind(sc, *i);
    if (!ki || !imb_has(&c, C_MBPS) ||
        !(imb_has(&c, C_T) || imb_has(&c, C_TMAX) || imb_has(&c, C_MSGS))) {
        imb_skip_table(sc, ki, *i);
        return P2PB_OK;
    }
    if (sc->own && sc->own_tab.bad[0]) { /* a malformed name or group line */
        imb_skip_malformed(sc, ki, *i);
        return P2PB_OK;
    }
    struct p2pb_imp_table *t = imb_table_open(sc, ki, &c, *i);
    if (!t)
        return p2pb_fail(P2PB_ENOMEM, err, errlen, "%s: out of memory", sc->lg->path);
    size_t j = *i + 1;
    int partial = 0;
    enum p2pb_status st = imb_read_rows(sc, t, &c, &j, &partial, err, errlen);
    if (st != P2PB_OK)
        return st;
    imb_table_close(sc, t, j, partial);
    *i = j - 1;
    return P2PB_OK;
}

/* ---- the whole log ---- */

void p2pb_imp_imb_finish(struct p2pb_imp_scan *sc)
{
    char names[1600];
    size_t n = sc->skips.total;
    if (!n)
        return;
    p2pb_imp_skips_text(&sc->skips, names, sizeof names);
    p2pb_imp_note(sc->lg, sc->g,
                  "note: %zu table%s of other benchmarks skipped (imported: IMB PingPong, "
                  "PingPing, Sendrecv, Exchange, Uniband, Biband, Unidir_Put/Get, Bidir_Put/Get "
                  "AGGREGATE; OSU point-to-point, put and get): %.400s",
                  n, n == 1 ? "" : "s", names);
    size_t used = strlen(sc->lg->nothing);
    snprintf(sc->lg->nothing + used, sizeof sc->lg->nothing - used,
             "%s%zu table%s of other benchmarks skipped: %.500s", used ? "; " : "", n,
             n == 1 ? "" : "s", names);
}

void p2pb_imp_imb_default_source(const struct p2pb_imp_log *lg, struct p2pb_imp_group *g)
{
    if (g->source[0])
        return;
    int pmb = 0;
    for (size_t i = 0; i < lg->nlines && !pmb; i++)
        pmb = p2pb_imp_ci_contains(lg->lines[i], "Pallas") || strstr(lg->lines[i], "PMB") != NULL;
    snprintf(g->source, sizeof g->source, "%s", pmb ? "pmb" : "imb-unknown");
    if (pmb)
        g->mb_pow2 = 1;
}
