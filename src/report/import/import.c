/* SPDX-License-Identifier: MIT */
/*
 * import: IMB / PMB / OSU text logs and two-column comparison tables into
 * p2pbench results files (schema p2pbench/1, "imported": true, one averaged
 * value per size: samples 1, no CI).
 *
 * Written from the formats as they appear in published logs; no code from
 * IMB, PMB or OSU. The parser scans every line; a table starts at a column
 * header it knows and ends at the first line that is not a data row of that
 * table, so prompts, harness output and backtraces around a table are never
 * taken for data.
 *
 * Units: PMB and IMB <= 3.2 printed "Mbytes/sec" with 1 MB = 2^20 B; IMB >= 4
 * (4.x, 2017 .. 2021) with 1 MB = 10^6 B; OSU uses 10^6 B. Rates are stored
 * in MB/s with 1 MB = 10^6 B, and the run record says what was assumed. When
 * the version is unknown, the unit is inferred from the rows themselves
 * (bytes_factor * X / (t * rate) is 1.048576 for 2^20 and 1 for 10^6).
 */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "import.h"
#include "report.h"

/* ---- crash markers ---- */

static const char *const crash_markers[] = {
    "*** Process received signal",
    "Segmentation fault",
    "*** End of error message",
    "exited on signal",
    "BAD TERMINATION",
    "MPI_ABORT was invoked",
    "Backtrace",
    "core dumped",
    "Aborted (",
    "Killed",
    "*** Error in",
    NULL,
};

static int is_crash_line(const char *s)
{
    for (size_t i = 0; crash_markers[i]; i++)
        if (strstr(s, crash_markers[i]))
            return 1;
    return 0;
}

/* ---- IMB / PMB ---- */

enum col { C_GROUP, C_BYTES, C_REPS, C_T, C_TMIN, C_TMAX, C_TAVG, C_MBPS, C_OTHER };

/* Column header of an IMB/PMB table: "#bytes #repetitions ..." */
static int imb_header(const char *line, enum col *cols, size_t *ncols)
{
    char buf[1024], *tok[16];
    size_t n = p2pb_imp_tokenize(line, buf, sizeof buf, tok, 16);
    int has_bytes = 0, has_reps = 0;
    for (size_t i = 0; i < n; i++) {
        const char *t = tok[i];
        if (strcmp(t, "#bytes") == 0)
            cols[i] = C_BYTES, has_bytes = 1;
        else if (strcmp(t, "#repetitions") == 0)
            cols[i] = C_REPS, has_reps = 1;
        else if (strcasecmp(t, "Group") == 0)
            cols[i] = C_GROUP;
        else if (strcmp(t, "t[usec]") == 0)
            cols[i] = C_T;
        else if (strcmp(t, "t_min[usec]") == 0)
            cols[i] = C_TMIN;
        else if (strcmp(t, "t_max[usec]") == 0)
            cols[i] = C_TMAX;
        else if (strcmp(t, "t_avg[usec]") == 0)
            cols[i] = C_TAVG;
        else if (strcasecmp(t, "Mbytes/sec") == 0 || strcasecmp(t, "MB/s") == 0)
            cols[i] = C_MBPS;
        else
            cols[i] = C_OTHER;
    }
    *ncols = n;
    return has_bytes && has_reps;
}

/* Header facts "# Key : value" of an IMB banner. */
static const char *const imb_facts[][2] = {
    {"Date", "date"},
    {"Machine", "machine"},
    {"System", "system"},
    {"Release", "release"},
    {"Version", "version"},
    {"MPI Version", "mpi_version"},
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
            size_t l = strlen(val);
            while (l && isspace((unsigned char)val[l - 1]))
                val[--l] = '\0';
            if (!cJSON_GetObjectItemCaseSensitive(g->header, imb_facts[i][1]))
                cJSON_AddStringToObject(g->header, imb_facts[i][1], val);
            return;
        }
    }
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
    size_t l = strlen(b);
    while (l && isspace((unsigned char)b[l - 1]))
        b[--l] = '\0';
    cJSON_DeleteItemFromObjectCaseSensitive(g->header, "banner");
    cJSON_AddStringToObject(g->header, "banner", b);
    char ver[48] = "";
    if (p) {
        p += strlen("MPI Benchmark");
        if (*p == 's')
            p++;
        p = p2pb_imp_skip_ws(p);
        if (strncmp(p, "Suite", 5) == 0)
            p = p2pb_imp_skip_ws(p + 5);
        if ((*p == 'V' || *p == 'v') && isdigit((unsigned char)p[1]))
            p++;
        size_t i = 0;
        while (p[i] && p[i] != ',' && i + 1 < sizeof ver) {
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
    if (pallas) {
        snprintf(g->source, sizeof g->source, "pmb%s%s", ver[0] ? "-" : "", ver);
        g->mb_pow2 = 1;
        return;
    }
    if (!ver[0])
        return;
    snprintf(g->source, sizeof g->source, "imb-%s", ver);
    double v = atof(ver);
    /* PMB and IMB <= 3.2: 2^20; IMB 4 and later (4.x, 2017 .. 2021): 10^6 */
    g->mb_pow2 = v > 0 && v < 4.0 ? 1 : v >= 4.0 ? 0 : -1;
}

/* Is line (with table t's columns) a data row? Fills r if so. */
static int imb_row(const char *line, const enum col *cols, size_t ncols, struct p2pb_imp_row *r,
                   int *partial)
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
    if (n != ncols) {
        *partial = n < ncols;
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        switch (cols[i]) {
        case C_GROUP:
            if (v[i] < 0 || v[i] != floor(v[i]))
                return 0;
            snprintf(r->variant, sizeof r->variant, "group %d", (int)v[i]);
            break;
        case C_BYTES:
            if (v[i] < 0 || v[i] != floor(v[i]) || v[i] > 1e15)
                return 0;
            r->bytes = (size_t)v[i];
            break;
        case C_REPS: r->reps = v[i]; break;
        case C_T: r->t = v[i]; break;
        case C_TMIN: r->tmin = v[i]; break;
        case C_TMAX: r->tmax = v[i]; break;
        case C_TAVG: r->tavg = v[i]; break;
        case C_MBPS: r->mbps = v[i]; break;
        default: break;
        }
    }
    if (isnan(r->t))
        r->t = r->tmax;
    return 1;
}

static enum p2pb_status parse_imb_osu(struct p2pb_imp_log *lg, struct p2pb_imp_group *g, char *err,
                                      size_t errlen)
{
    const char *bench = NULL; /* last "Benchmarking X" name */
    char benchbuf[64] = "";
    int nprocs = 0, waiting = 0, multi = 0;
    long maxbytes = -1;
    size_t last_end = 0; /* line after the previous table */
    int crash_line = 0;
    size_t skipped = 0;
    char skipped_names[256] = "";
    for (size_t i = 0; i < lg->nlines; i++) {
        const char *line = lg->lines[i];
        const char *s = p2pb_imp_skip_ws(line);
        if (is_crash_line(s) && !crash_line)
            crash_line = (int)i + 1;
        if (*s == '#') {
            if (strstr(s, "MPI Benchmark") || strstr(s, "PMB-MPI1"))
                imb_version(g, s);
            else if (strstr(s, " : ") || strstr(s, "\t: "))
                imb_fact(g, s);
            if (strstr(s, "Calling sequence was")) {
                for (size_t j = i + 1; j < lg->nlines && j < i + 4; j++) {
                    const char *c = p2pb_imp_skip_ws(lg->lines[j]);
                    if (*c == '#' && *p2pb_imp_skip_ws(c + 1)) {
                        char cs[512];
                        snprintf(cs, sizeof cs, "%s", p2pb_imp_skip_ws(c + 1));
                        size_t l = strlen(cs);
                        while (l && isspace((unsigned char)cs[l - 1]))
                            cs[--l] = '\0';
                        cJSON_AddStringToObject(g->header, "calling_sequence", cs);
                        break;
                    }
                }
            }
            const char *m;
            if ((m = strstr(s, "Maximum message length in bytes:")) != NULL)
                maxbytes = atol(m + strlen("Maximum message length in bytes:"));
            if ((m = strstr(s, "Benchmarking ")) != NULL) {
                snprintf(benchbuf, sizeof benchbuf, "%s", m + strlen("Benchmarking "));
                size_t l = strcspn(benchbuf, " \t\r");
                benchbuf[l] = '\0';
                bench = benchbuf;
                nprocs = waiting = multi = 0;
                if (!p2pb_imp_imb_kind(bench)) {
                    if (strlen(skipped_names) + strlen(bench) + 3 < sizeof skipped_names)
                        snprintf(skipped_names + strlen(skipped_names),
                                 sizeof skipped_names - strlen(skipped_names), "%s%s",
                                 skipped_names[0] ? ", " : "", bench);
                    skipped++;
                }
            }
            if ((m = strstr(s, "#processes =")) != NULL)
                nprocs = atoi(m + strlen("#processes ="));
            if ((m = strstr(s, "additional processes waiting")) != NULL) {
                const char *p = strchr(s, '(');
                waiting = p ? atoi(p + 1) : 0;
            }
            if (strstr(s, "groups of") && strstr(s, "processes each")) {
                const char *p = strchr(s, '(');
                multi = p ? atoi(p + 1) : 0;
                const char *q = strstr(s, "groups of");
                int per = q ? atoi(q + strlen("groups of")) : 0;
                if (multi > 0 && per > 0)
                    nprocs = multi * per;
            }
            /* OSU title and column header */
            if (strstr(s, "OSU") && strstr(s, "Test")) {
                const char *vv = strstr(s, " v");
                if (vv && isdigit((unsigned char)vv[2])) {
                    char ver[32];
                    snprintf(ver, sizeof ver, "%s", vv + 2);
                    ver[strcspn(ver, " \t\r")] = '\0';
                    snprintf(g->source, sizeof g->source, "osu-%s", ver);
                } else if (!g->source[0])
                    snprintf(g->source, sizeof g->source, "osu");
                g->mb_pow2 = 0;
                const struct p2pb_imp_kind *ok = p2pb_imp_osu_kind_in_title(s);
                if (ok) {
                    snprintf(benchbuf, sizeof benchbuf, "%s", ok->kernel);
                    bench = benchbuf;
                }
                char title[160];
                snprintf(title, sizeof title, "%s", p2pb_imp_skip_ws(s + 1));
                title[strcspn(title, "\r")] = '\0';
                if (!cJSON_GetObjectItemCaseSensitive(g->header, "title"))
                    cJSON_AddStringToObject(g->header, "title", title);
            }
            if (strncmp(p2pb_imp_skip_ws(s + 1), "Size", 4) == 0 && bench &&
                strncmp(bench, "osu_", 4) == 0) {
                /* OSU column header: "# Size  Latency (us)" / "Bandwidth (MB/s)" ... */
                const struct p2pb_imp_kind *k = p2pb_imp_osu_kind(bench);
                if (!k)
                    continue;
                struct p2pb_imp_table *t = p2pb_imp_table_new(g);
                if (!t)
                    goto nomem;
                snprintf(t->kernel, sizeof t->kernel, "%s", k->kernel);
                snprintf(t->display, sizeof t->display, "%s", k->display);
                t->layout = P2PB_IMB_T;
                t->nranks = t->active = 2;
                t->line = (long)i + 1;
                p2pb_imp_repeat_variant(g, t);
                size_t j = i + 1;
                int partial = 0;
                for (; j < lg->nlines; j++) {
                    char buf[512], *tok[8];
                    size_t n = p2pb_imp_tokenize(lg->lines[j], buf, sizeof buf, tok, 8);
                    size_t bytes;
                    double v;
                    if (n == 0)
                        break;
                    if (n < 2 || !p2pb_imp_parse_size(tok[0], &bytes) ||
                        !p2pb_imp_parse_num(tok[1], &v)) {
                        partial = n == 1 && p2pb_imp_parse_size(tok[0], &bytes);
                        break;
                    }
                    /* further columns (OSU 7 -f: min, max, iterations; -c: Pass) are not used */
                    struct p2pb_imp_row *r = p2pb_imp_row_new(t);
                    if (!r)
                        goto nomem;
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
                if (partial)
                    p2pb_imp_note(lg, g, "warning: line %zu: %s table cut short (incomplete row)",
                                  j + 1, t->display);
                if (t->nrows == 0)
                    g->ntabs--;
                last_end = j;
                i = j - 1;
                continue;
            }
        }
        enum col cols[16];
        size_t ncols;
        if (!imb_header(s, cols, &ncols))
            continue;
        /* an IMB/PMB table; which kernel? */
        const struct p2pb_imp_kind *ki = bench ? p2pb_imp_imb_kind(bench) : NULL;
        if (!bench) {
            for (size_t j = i; j-- > last_end && !ki;)
                ki = p2pb_imp_imb_kind_in_line(lg->lines[j]);
        }
        int has_mbps = 0, has_t = 0;
        for (size_t c = 0; c < ncols; c++) {
            has_mbps |= cols[c] == C_MBPS;
            has_t |= cols[c] == C_T || cols[c] == C_TMAX;
        }
        size_t j = i + 1;
        if (!ki || !has_mbps || !has_t) {
            /* a collective (or unknown) benchmark: skip its rows with a note */
            if (!ki && !bench)
                p2pb_imp_note(lg, g, "line %zu: table of an unnamed benchmark skipped", i + 1);
            else if (ki)
                p2pb_imp_note(lg, g, "line %zu: %s table without t and Mbytes/sec columns skipped",
                              i + 1, ki->display);
            bench = NULL;
            continue;
        }
        struct p2pb_imp_table *t = p2pb_imp_table_new(g);
        if (!t)
            goto nomem;
        snprintf(t->kernel, sizeof t->kernel, "%s", ki->kernel);
        snprintf(t->display, sizeof t->display, "%s", ki->display);
        t->bytes_factor = ki->bytes_factor;
        t->layout = P2PB_IMB_T;
        for (size_t c = 0; c < ncols; c++)
            if (cols[c] == C_TMAX)
                t->layout = P2PB_IMB_TMINMAXAVG;
        int has_group = cols[0] == C_GROUP;
        if ((multi || (bench && strncasecmp(bench, "Multi-", 6) == 0)) && !has_group)
            snprintf(t->variant, sizeof t->variant, "multi");
        t->nranks = nprocs + waiting;
        t->active = nprocs;
        t->line = (long)i + 1;
        p2pb_imp_repeat_variant(g, t);
        int partial = 0;
        for (; j < lg->nlines; j++) {
            const char *d = lg->lines[j];
            if (!*p2pb_imp_skip_ws(d) || *p2pb_imp_skip_ws(d) == '\r') {
                /* blank lines separate sizes in PMB -multi tables */
                size_t k = j + 1;
                while (k < lg->nlines && !*p2pb_imp_skip_ws(lg->lines[k]))
                    k++;
                struct p2pb_imp_row probe;
                int pp;
                memset(&probe, 0, sizeof probe);
                if (has_group && k < lg->nlines && imb_row(lg->lines[k], cols, ncols, &probe, &pp))
                    continue;
                break;
            }
            struct p2pb_imp_row tmp;
            memset(&tmp, 0, sizeof tmp);
            tmp.reps = tmp.t = tmp.tmin = tmp.tmax = tmp.tavg = tmp.mbps = NAN;
            snprintf(tmp.variant, sizeof tmp.variant, "%s", t->variant);
            if (!imb_row(d, cols, ncols, &tmp, &partial)) {
                /* Foreign lines inside a table (debug output of another rank written
                 * between two rows): skipped if a row of the same table with a larger
                 * size follows within a few lines, with no blank or '#' line between. */
                size_t k = j + 1;
                int resume = 0;
                if (!partial && *p2pb_imp_skip_ws(d) != '#' && t->nrows > 0) {
                    for (; k < lg->nlines && k < j + 8; k++) {
                        const char *ks = p2pb_imp_skip_ws(lg->lines[k]);
                        struct p2pb_imp_row pr;
                        int pp;
                        memset(&pr, 0, sizeof pr);
                        if (!*ks || *ks == '#')
                            break;
                        if (imb_row(lg->lines[k], cols, ncols, &pr, &pp)) {
                            resume = pr.bytes > t->rows[t->nrows - 1].bytes;
                            break;
                        }
                    }
                }
                if (!resume)
                    break;
                p2pb_imp_note(
                    lg, g, "line %zu: %zu non-data line%s inside the %s table skipped (\"%.50s\")",
                    j + 1, k - j, k - j == 1 ? "" : "s", t->display, p2pb_imp_skip_ws(d));
                j = k - 1;
                continue;
            }
            /* IMB/PMB/OSU tables ascend in message size (per group in -multi
             * tables): a size that does not is a swapped column or not a table */
            for (size_t q = t->nrows; q-- > 0;)
                if (strcmp(t->rows[q].variant, tmp.variant) == 0) {
                    if (tmp.bytes <= t->rows[q].bytes) {
                        return p2pb_fail(
                            P2PB_EFORMAT, err, errlen,
                            "%s:%zu: message size %zu after %zu in the %s table: sizes "
                            "must ascend (columns swapped?)",
                            lg->path, j + 1, tmp.bytes, t->rows[q].bytes, t->display);
                    }
                    break;
                }
            struct p2pb_imp_row *r = p2pb_imp_row_new(t);
            if (!r)
                goto nomem;
            *r = tmp;
        }
        p2pb_imp_cut_short(lg, g, t, maxbytes, partial, j + 1);
        if (t->nrows == 0) {
            g->ntabs--;
            free(t->rows);
        }
        if (nprocs > 2 &&
            (strcmp(t->kernel, "pingpong") == 0 || strcmp(t->kernel, "pingping") == 0) && !multi)
            t->active = 2;
        last_end = j;
        i = j - 1;
        bench = NULL;
        nprocs = waiting = multi = 0;
    }
    if (skipped)
        p2pb_imp_note(lg, g,
                      "note: %zu table%s of other benchmarks skipped (only PingPong, PingPing, "
                      "Sendrecv, Exchange are imported): %s",
                      skipped, skipped == 1 ? "" : "s", skipped_names);
    if (crash_line) {
        int after = 1;
        for (size_t k = 0; k < g->ntabs; k++)
            if (g->tabs[k].line > crash_line)
                after = 0;
        p2pb_imp_note(lg, g,
                      "warning: line %d: the log %s a crash (\"%.60s\"); rows before it are kept",
                      crash_line, after ? "ends in" : "contains",
                      p2pb_imp_skip_ws(lg->lines[crash_line - 1]));
    }
    return P2PB_OK;
nomem:
    return p2pb_fail(P2PB_ENOMEM, err, errlen, "%s: out of memory", lg->path);
}

/* ---- two-column (or N-column) comparison tables, as in the seed ---- */

/* Column header "Message_Size(bytes) Experiment_1 Experiment_2" or a tab-separated
 * "chunk size (cpysize)<TAB>bare metal<TAB>pvhvm<TAB>pv". Returns column count >= 3. */
static size_t cols_header(const char *line, char names[][64], size_t max)
{
    const char *s = p2pb_imp_skip_ws(line);
    if (*s == '#' || !(p2pb_imp_ci_contains(s, "size")))
        return 0;
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", s);
    buf[strcspn(buf, "\r\n")] = '\0';
    const char *sep = strchr(buf, '\t') ? "\t" : " ";
    size_t n = 0;
    char *save = NULL;
    for (char *p = strtok_r(buf, sep, &save); p && n < max; p = strtok_r(NULL, sep, &save)) {
        p = (char *)p2pb_imp_skip_ws(p);
        if (!*p)
            continue;
        snprintf(names[n++], 64, "%s", p);
    }
    if (n < 2 || !p2pb_imp_ci_contains(names[0], "size"))
        return 0;
    double v;
    for (size_t i = 1; i < n; i++)
        if (p2pb_imp_parse_num(names[i], &v))
            return 0;
    return n;
}

struct coltab {
    int metric;     /* 0 latency / time, 1 throughput */
    double t_scale; /* to usec */
    char kernel[32], display[32];
    size_t ncols;
    char names[8][64];
    size_t nrows;
    size_t *bytes;
    double *v; /* nrows x (ncols - 1) */
    long line;
    int unit_label_ms; /* title said millisec */
};

static enum p2pb_status parse_columns(struct p2pb_imp_log *lg, char *err, size_t errlen)
{
    struct coltab tabs[8];
    size_t ntabs = 0;
    enum p2pb_status st = P2PB_OK;
    memset(tabs, 0, sizeof tabs);
    int memcpy_log = 0;
    for (size_t i = 0; i < lg->nlines && ntabs < 8; i++) {
        char names[8][64];
        size_t nc = cols_header(lg->lines[i], names, 8);
        if (nc < 2)
            continue;
        struct coltab *c = &tabs[ntabs];
        memset(c, 0, sizeof *c);
        c->ncols = nc;
        memcpy(c->names, names, sizeof names);
        c->line = (long)i + 1;
        c->metric = 0;
        c->t_scale = 1.0;
        snprintf(c->kernel, sizeof c->kernel, "unknown");
        snprintf(c->display, sizeof c->display, "Unknown");
        /* title: the nearest non-empty line above */
        const char *title = "";
        for (size_t j = i; j-- > 0;)
            if (*p2pb_imp_skip_ws(lg->lines[j])) {
                title = lg->lines[j];
                break;
            }
        const struct p2pb_imp_kind *ki = p2pb_imp_imb_kind_in_line(title);
        if (!ki && p2pb_imp_ci_contains(title, "SendRecv"))
            ki = &p2pb_imp_imb_kinds[2];
        if (ki) {
            snprintf(c->kernel, sizeof c->kernel, "%s", ki->kernel);
            snprintf(c->display, sizeof c->display, "%s", ki->display);
        }
        if (p2pb_imp_ci_contains(title, "throughput") || p2pb_imp_ci_contains(title, "MB/s") ||
            p2pb_imp_ci_contains(title, "MB/sec") || p2pb_imp_ci_contains(title, "bandwidth"))
            c->metric = 1;
        if (p2pb_imp_ci_contains(title, "millisec") || p2pb_imp_ci_contains(title, "msec") ||
            p2pb_imp_ci_contains(title, "(ms"))
            c->unit_label_ms = 1, c->t_scale = 1000.0;
        if (p2pb_imp_ci_contains(names[0], "cpysize") || p2pb_imp_ci_contains(names[0], "chunk") ||
            p2pb_imp_ci_contains(title, "memcpy") || p2pb_imp_ci_contains(title, "loops over")) {
            memcpy_log = 1;
            snprintf(c->kernel, sizeof c->kernel, "memcpy");
            snprintf(c->display, sizeof c->display, "memcpy");
        }
        size_t cap = 0;
        size_t j = i + 1;
        for (; j < lg->nlines; j++) {
            char buf[512], *tok[10];
            const char *ln = lg->lines[j];
            size_t n = p2pb_imp_tokenize(ln, buf, sizeof buf, tok, 10);
            size_t b;
            if (n != nc || !p2pb_imp_parse_size(tok[0], &b))
                break;
            double vals[8];
            int ok = 1;
            for (size_t k = 1; k < n; k++)
                ok &= p2pb_imp_parse_num(tok[k], &vals[k - 1]);
            if (!ok)
                break;
            if (c->nrows == cap) {
                cap = cap ? 2 * cap : 32;
                size_t *nb = realloc(c->bytes, cap * sizeof *nb);
                if (nb)
                    c->bytes = nb;
                double *nv = realloc(c->v, cap * (nc - 1) * sizeof *nv);
                if (nv)
                    c->v = nv;
                if (!nb || !nv) {
                    st = P2PB_ENOMEM;
                    (void)p2pb_fail(P2PB_OK, err, errlen, "%s: out of memory", lg->path);
                    goto done;
                }
            }
            c->bytes[c->nrows] = b;
            memcpy(c->v + c->nrows * (nc - 1), vals, (nc - 1) * sizeof *vals);
            c->nrows++;
        }
        if (c->nrows) {
            ntabs++;
            i = j - 1;
        } else {
            free(c->bytes);
            free(c->v);
        }
    }
    if (!ntabs)
        goto done;
    /* one group per value column (side); sides matched by column name */
    size_t nsides = tabs[0].ncols - 1;
    int seed_pmb = 0;
    for (size_t k = 0; k < ntabs; k++)
        seed_pmb |=
            strcmp(tabs[k].kernel, "sendrecv") == 0 || p2pb_imp_ci_contains(lg->lines[0], "PMB");
    /* Latency labelled millisec: check against the throughput table. With t in
     * usec, bytes_factor * X / t is MB/s in 10^6 B; the log's rate should be that
     * or that / 1.048576 (1 MB = 2^20 B). Whichever reading fits is taken. */
    struct coltab *lat = NULL, *thr = NULL;
    for (size_t k = 0; k < ntabs; k++) {
        if (tabs[k].metric == 1 && !thr)
            thr = &tabs[k];
        if (tabs[k].metric == 0 && !lat)
            lat = &tabs[k];
    }
    double bf = lat ? p2pb_imp_imb_bytes_factor(lat->kernel) : 1.0;
    int pow2 = seed_pmb ? 1 : 0;
    if (lat && thr && !memcpy_log) {
        double best_err[2] = {0, 0}; /* [0] t as usec, [1] t as msec */
        size_t cnt = 0;
        for (size_t r = 0; r < lat->nrows; r++) {
            if (lat->bytes[r] < 1024)
                continue;
            for (size_t s2 = 0; s2 < thr->nrows; s2++) {
                if (thr->bytes[s2] != lat->bytes[r])
                    continue;
                for (size_t c = 0; c + 1 < lat->ncols && c + 1 < thr->ncols; c++) {
                    double t = lat->v[r * (lat->ncols - 1) + c];
                    double rate = thr->v[s2 * (thr->ncols - 1) + c];
                    if (!(t > 0 && rate > 0))
                        continue;
                    double x = bf * (double)lat->bytes[r] / (t * rate); /* 1 or 1.048576 if usec */
                    double e0 = fmin(fabs(log(x)), fabs(log(x / P2PB_IMP_MIB_PER_MB)));
                    double x3 = x / 1000.0;
                    double e1 = fmin(fabs(log(x3)), fabs(log(x3 / P2PB_IMP_MIB_PER_MB)));
                    best_err[0] += e0;
                    best_err[1] += e1;
                    cnt++;
                }
            }
        }
        if (cnt) {
            int usec = best_err[0] <= best_err[1];
            if (lat->unit_label_ms && usec) {
                lat->t_scale = 1.0;
                p2pb_imp_note(
                    lg, NULL,
                    "warning: line %ld: the latency table says millisec but its values are "
                    "usec (checked against the throughput table: %g x bytes / t matches the "
                    "rates only with t in usec); read as usec",
                    lat->line, bf);
            } else if (!usec) {
                lat->t_scale = 1000.0;
            }
        }
    }
    for (size_t sd = 0; sd < nsides && sd < 8; sd++) {
        char label[64];
        snprintf(label, sizeof label, "%s", tabs[0].names[sd + 1]);
        for (char *p = label; *p; p++)
            if (*p == ' ' || *p == '/')
                *p = '_';
        struct p2pb_imp_group *g = p2pb_imp_group_new(lg, label);
        if (!g) {
            st = P2PB_ENOMEM;
            (void)p2pb_fail(P2PB_OK, err, errlen, "%s: out of memory", lg->path);
            goto done;
        }
        if (memcpy_log) {
            snprintf(g->source, sizeof g->source, "table-memcpy");
            g->mb_pow2 = 0;
            snprintf(g->units, sizeof g->units,
                     "time (msec) of 100 loops over 16 MB read as 16 MiB; t_usec = msec x 1000 for "
                     "all loops; MB/s = 100 x 16 x 2^20 B / t, 1 MB = 10^6 B");
        } else {
            snprintf(g->source, sizeof g->source, "%s", seed_pmb ? "pmb-table" : "table");
            g->mb_pow2 = pow2;
        }
        if (lat && lat->unit_label_ms && lat->t_scale == 1.0)
            cJSON_AddItemToArray(
                g->notes, cJSON_CreateString("latency table labelled millisec holds usec (checked "
                                             "against the throughput table); read as usec"));
        cJSON_AddStringToObject(g->header, "column", tabs[0].names[sd + 1]);
        for (size_t k = 0; k < ntabs; k++) {
            char title[200] = "";
            for (size_t j = (size_t)tabs[k].line - 1; j-- > 0;)
                if (*p2pb_imp_skip_ws(lg->lines[j])) {
                    snprintf(title, sizeof title, "%s", p2pb_imp_skip_ws(lg->lines[j]));
                    title[strcspn(title, "\r")] = '\0';
                    break;
                }
            char key[48];
            snprintf(key, sizeof key, "table_%zu_title", k + 1);
            cJSON_AddStringToObject(g->header, key, title);
        }
        /* merge tables by size into one table of this side */
        struct p2pb_imp_table *t = p2pb_imp_table_new(g);
        if (!t) {
            st = P2PB_ENOMEM;
            goto done;
        }
        snprintf(t->kernel, sizeof t->kernel, "%s", tabs[0].kernel);
        snprintf(t->display, sizeof t->display, "%s", tabs[0].display);
        t->bytes_factor = bf;
        t->layout = P2PB_IMB_T;
        t->line = tabs[0].line;
        for (size_t k = 0; k < ntabs; k++) {
            struct coltab *c = &tabs[k];
            if (sd + 1 >= c->ncols)
                continue;
            for (size_t r = 0; r < c->nrows; r++) {
                struct p2pb_imp_row *row = NULL;
                for (size_t q = 0; q < t->nrows; q++)
                    if (t->rows[q].bytes == c->bytes[r])
                        row = &t->rows[q];
                if (!row) {
                    row = p2pb_imp_row_new(t);
                    if (!row) {
                        st = P2PB_ENOMEM;
                        goto done;
                    }
                    row->bytes = c->bytes[r];
                }
                double v = c->v[r * (c->ncols - 1) + sd];
                if (memcpy_log) {
                    row->t = v * 1000.0;
                    row->mbps = 100.0 * 16.0 * 1048576.0 / row->t; /* already 10^6 B */
                } else if (c->metric == 1) {
                    row->mbps = v;
                } else {
                    row->t = v * c->t_scale;
                }
            }
        }
    }
done:
    for (size_t k = 0; k < 8; k++) {
        free(tabs[k].bytes);
        free(tabs[k].v);
    }
    return st;
}

/* ---- reading the file ---- */

static enum p2pb_status read_lines(struct p2pb_imp_log *lg, char *err, size_t errlen)
{
    FILE *fp = fopen(lg->path, "rb");
    if (!fp) {
        return p2pb_fail(P2PB_EIO, err, errlen, "%s:0: cannot open: %s", lg->path, strerror(errno));
    }
    size_t cap = 0, len = 0;
    char chunk[65536];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, fp)) > 0) {
        if (len + got + 1 > cap) {
            size_t nc = (len + got + 1) * 2;
            char *nb = realloc(lg->buf, nc);
            if (!nb) {
                fclose(fp);
                return p2pb_fail(P2PB_ENOMEM, err, errlen, "%s: out of memory", lg->path);
            }
            lg->buf = nb;
            cap = nc;
        }
        memcpy(lg->buf + len, chunk, got);
        len += got;
        if (len > (size_t)256 << 20) {
            fclose(fp);
            return p2pb_fail(P2PB_EFORMAT, err, errlen,
                             "%s:0: larger than 256 MiB, not a benchmark log", lg->path);
        }
    }
    int rerr = ferror(fp);
    fclose(fp);
    if (rerr) {
        return p2pb_fail(P2PB_EIO, err, errlen, "%s:0: read error", lg->path);
    }
    if (!lg->buf) {
        return p2pb_fail(P2PB_EFORMAT, err, errlen, "%s:1: empty file", lg->path);
    }
    lg->buf[len] = '\0';
    /* binary data: a NUL byte or other control characters */
    size_t line = 1;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)lg->buf[i];
        if (c == '\n')
            line++;
        else if (c == 0 || (c < 32 && c != '\t' && c != '\r' && c != '\f' && c != '\v')) {
            return p2pb_fail(P2PB_EFORMAT, err, errlen,
                             "%s:%zu: binary data (byte 0x%02x), not a text log", lg->path, line,
                             c);
        }
    }
    size_t n = 1;
    for (size_t i = 0; i < len; i++)
        n += lg->buf[i] == '\n';
    lg->lines = calloc(n, sizeof *lg->lines);
    if (!lg->lines) {
        return p2pb_fail(P2PB_ENOMEM, err, errlen, "%s: out of memory", lg->path);
    }
    char *p = lg->buf;
    while (p && *p) {
        char *nl = strchr(p, '\n');
        if (nl)
            *nl = '\0';
        size_t l = strlen(p);
        if (l && p[l - 1] == '\r')
            p[l - 1] = '\0';
        lg->lines[lg->nlines++] = p;
        p = nl ? nl + 1 : NULL;
    }
    return P2PB_OK;
}

/* Write one group to path. Returns P2PB_OK or P2PB_EIO/ENOMEM. */
static enum p2pb_status write_group(struct p2pb_imp_log *lg, struct p2pb_imp_group *g,
                                    const char *path, char *err, size_t errlen)
{
    double uf = p2pb_imp_unit_factor(lg, g);
    int nranks = 0;
    for (size_t k = 0; k < g->ntabs; k++)
        if (g->tabs[k].nranks > nranks)
            nranks = g->tabs[k].nranks;
    /* 0: the log does not say (e.g. a comparison table) */
    cJSON *run = p2pb_imp_run_record(lg, g, nranks);
    if (!run) {
        return p2pb_fail(P2PB_ENOMEM, err, errlen, "out of memory");
    }
    struct p2pb_results_file *f;
    enum p2pb_status st = p2pb_results_open(path, &f, err, errlen);
    if (st != P2PB_OK) {
        cJSON_Delete(run);
        return st;
    }
    st = p2pb_results_write_json(f, run, err, errlen);
    cJSON_Delete(run);
    for (size_t k = 0; k < g->ntabs && st == P2PB_OK; k++)
        for (size_t i = 0; i < g->tabs[k].nrows && st == P2PB_OK; i++) {
            struct p2pb_result r;
            p2pb_imp_fill_result(&g->tabs[k], &g->tabs[k].rows[i], uf, nranks, &r);
            /* IMB/PMB/OSU latency: PingPong's t is half the round trip */
            r.time_scale = strcmp(r.kernel, "pingpong") == 0 ? 0.5 : 1.0;
            st = p2pb_results_write_result(f, &r, err, errlen);
        }
    enum p2pb_status cst =
        p2pb_results_close(f, st == P2PB_OK ? "complete" : "aborted", 0.0, err, errlen);
    return st != P2PB_OK ? st : cst;
}

static void base_name(const char *path, char *out, size_t len)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    snprintf(out, len, "%s", b);
    char *dot = strrchr(out, '.');
    if (dot && dot != out)
        *dot = '\0';
}

static void ilog_free(struct p2pb_imp_log *lg)
{
    p2pb_imp_groups_free(lg);
    free(lg->lines);
    free(lg->buf);
    memset(lg, 0, sizeof *lg);
}

/* Parse one log into groups (nothing written). */
static enum p2pb_status parse_log(struct p2pb_imp_log *lg, char *err, size_t errlen)
{
    enum p2pb_status st = read_lines(lg, err, errlen);
    if (st != P2PB_OK)
        return st;
    struct p2pb_imp_group *g = p2pb_imp_group_new(lg, "");
    if (!g) {
        return p2pb_fail(P2PB_ENOMEM, err, errlen, "%s: out of memory", lg->path);
    }
    st = parse_imb_osu(lg, g, err, errlen);
    if (st != P2PB_OK)
        return st;
    if (g->ntabs == 0) {
        /* not IMB/PMB/OSU: try a comparison table with named columns */
        p2pb_imp_groups_free(lg); /* the empty IMB/OSU group, with any emptied table array */
        st = parse_columns(lg, err, errlen);
        if (st != P2PB_OK)
            return st;
        if (lg->ngroups == 0) {
            /* point at the first non-blank line */
            size_t ln = 0;
            while (ln < lg->nlines && !*p2pb_imp_skip_ws(lg->lines[ln]))
                ln++;
            return p2pb_fail(P2PB_EFORMAT, err, errlen,
                             "%s:%zu: no IMB, PMB, OSU or size/value table found", lg->path,
                             ln < lg->nlines ? ln + 1 : 1);
        }
    } else {
        /* label from the log's name */
        base_name(lg->path, g->label, sizeof g->label);
        if (!g->source[0]) {
            int pmb = 0;
            for (size_t i = 0; i < lg->nlines && !pmb; i++)
                pmb = p2pb_imp_ci_contains(lg->lines[i], "Pallas") ||
                      strstr(lg->lines[i], "PMB") != NULL;
            snprintf(g->source, sizeof g->source, "%s", pmb ? "pmb" : "imb-unknown");
            if (pmb)
                g->mb_pow2 = 1;
        }
    }
    return P2PB_OK;
}

enum p2pb_status p2pb_import_logs(char *const *paths, size_t npaths, const char *outdir, FILE *msg,
                                  char *err, size_t errlen)
{
    struct stat sb;
    if (stat(outdir, &sb) != 0 && errno == ENOENT && mkdir(outdir, 0755) != 0) {
        return p2pb_fail(P2PB_EIO, err, errlen, "%s: cannot create directory: %s", outdir,
                         strerror(errno));
    }
    if (stat(outdir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
        return p2pb_fail(P2PB_EIO, err, errlen, "%s: not a directory", outdir);
    }
    struct p2pb_imp_log *logs = calloc(npaths ? npaths : 1, sizeof *logs);
    if (!logs) {
        return p2pb_fail(P2PB_ENOMEM, err, errlen, "out of memory");
    }
    enum p2pb_status st = P2PB_OK;
    for (size_t i = 0; i < npaths && st == P2PB_OK; i++) {
        logs[i].path = paths[i];
        logs[i].msg = msg;
        struct stat ps;
        if (stat(paths[i], &ps) == 0 && S_ISDIR(ps.st_mode)) {
            (void)p2pb_fail(P2PB_OK, err, errlen, "%s: is a directory (import reads text logs)",
                            paths[i]);
            st = P2PB_EIO;
            break;
        }
        st = parse_log(&logs[i], err, errlen);
    }
    /* All parsed: now write, each file first under a temporary name in the
     * same directory; only when every file is complete are they renamed into
     * place. A failure (bad path, full disk) removes the temporaries and leaves
     * every existing file as it was: a failed import writes nothing. */
    size_t cap = npaths * 8 + 8;
    char **written = calloc(cap, sizeof *written); /* final names */
    char **tmps = calloc(cap, sizeof *tmps);       /* temporary names */
    char **notes = calloc(cap, sizeof *notes);     /* "wrote ..." lines */
    size_t nwritten = 0;
    if (!written || !tmps || !notes) {
        (void)p2pb_fail(P2PB_OK, err, errlen, "out of memory");
        st = P2PB_ENOMEM;
    }
    for (size_t i = 0; i < npaths && st == P2PB_OK; i++) {
        char base[256];
        base_name(paths[i], base, sizeof base);
        for (size_t k = 0; k < logs[i].ngroups && st == P2PB_OK; k++) {
            struct p2pb_imp_group *g = &logs[i].groups[k];
            char path[4096], tmp[4200];
            if (logs[i].ngroups > 1)
                snprintf(path, sizeof path, "%s/%s-%s.jsonl", outdir, base, g->label);
            else
                snprintf(path, sizeof path, "%s/%s.jsonl", outdir, base);
            /* two inputs with the same base name: add a counter */
            for (int n = 2;; n++) {
                int dup = 0;
                for (size_t w = 0; w < nwritten; w++)
                    dup |= strcmp(written[w], path) == 0;
                if (!dup)
                    break;
                if (logs[i].ngroups > 1)
                    snprintf(path, sizeof path, "%s/%s-%d-%s.jsonl", outdir, base, n, g->label);
                else
                    snprintf(path, sizeof path, "%s/%s-%d.jsonl", outdir, base, n);
            }
            if (nwritten >= cap) {
                (void)p2pb_fail(P2PB_OK, err, errlen, "too many output files");
                st = P2PB_ERANGE;
                break;
            }
            snprintf(tmp, sizeof tmp, "%s.tmp-%ld", path, (long)getpid());
            tmps[nwritten] = strdup(tmp);
            written[nwritten] = strdup(path);
            nwritten++;
            st = write_group(&logs[i], g, tmp, err, errlen);
            if (st == P2PB_OK) {
                size_t rows = 0;
                for (size_t t = 0; t < g->ntabs; t++)
                    rows += g->tabs[t].nrows;
                char line[4600];
                snprintf(line, sizeof line, "%s: wrote %s (%s, label %s, %zu table%s, %zu rows)\n",
                         paths[i], path, g->source, g->label, g->ntabs, g->ntabs == 1 ? "" : "s",
                         rows);
                notes[nwritten - 1] = strdup(line);
            } else {
                /* the message names the temporary file: name the real one */
                char *at = strstr(err, tmp);
                if (at) {
                    char rest[1024];
                    snprintf(rest, sizeof rest, "%s", at + strlen(tmp));
                    snprintf(at, errlen - (size_t)(at - err), "%s%s", path, rest);
                }
            }
        }
    }
    for (size_t w = 0; w < nwritten && st == P2PB_OK; w++) {
        struct stat ts;
        if (stat(written[w], &ts) == 0 && S_ISDIR(ts.st_mode)) {
            (void)p2pb_fail(P2PB_OK, err, errlen, "cannot write results file '%s': Is a directory",
                            written[w]);
            st = P2PB_EIO;
        }
    }
    for (size_t w = 0; w < nwritten && st == P2PB_OK; w++)
        if (rename(tmps[w], written[w]) != 0) {
            (void)p2pb_fail(P2PB_OK, err, errlen, "cannot write results file '%s': %s", written[w],
                            strerror(errno));
            st = P2PB_EIO;
        } else if (msg && notes[w])
            fputs(notes[w], msg);
    if (st != P2PB_OK)
        for (size_t w = 0; w < nwritten; w++)
            if (tmps[w])
                remove(tmps[w]);
    for (size_t w = 0; w < nwritten; w++) {
        free(written[w]);
        free(tmps[w]);
        free(notes[w]);
    }
    free(written);
    free(tmps);
    free(notes);
    for (size_t i = 0; i < npaths; i++)
        ilog_free(&logs[i]);
    free(logs);
    return st;
}
