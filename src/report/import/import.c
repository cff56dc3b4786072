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

/* ---- IMB, PMB and OSU logs: one pass over the lines ---- */

/* A line is offered to the OSU reader, then to the IMB reader (a log may hold both). */
static enum p2pb_status scan_line(struct p2pb_imp_scan *sc, size_t *i, char *err, size_t errlen)
{
    const char *s = p2pb_imp_skip_ws(sc->lg->lines[*i]);
    if (*s == '#') {
        p2pb_imp_imb_comment(sc, *i, s);
        p2pb_imp_osu_title(sc, s);
        int taken = 0;
        enum p2pb_status st = p2pb_imp_osu_table(sc, i, &taken, err, errlen);
        if (st != P2PB_OK || taken)
            return st;
    }
    return p2pb_imp_imb_table(sc, i, err, errlen);
}

/* The first crash marker seen outside tables, at line crash_line (1-based; 0: none). */
static void note_crash(struct p2pb_imp_log *lg, struct p2pb_imp_group *g, int crash_line)
{
    if (!crash_line)
        return;
    int after = 1;
    for (size_t k = 0; k < g->ntabs; k++)
        if (g->tabs[k].line > crash_line)
            after = 0;
    p2pb_imp_note(
        lg, g, "warning: line %d: the log %s a crash (\"%.60s\"); rows before it are kept",
        crash_line, after ? "ends in" : "contains", p2pb_imp_skip_ws(lg->lines[crash_line - 1]));
}

/* Read the IMB, PMB and OSU tables of lg into g. */
static enum p2pb_status scan_imb_osu(struct p2pb_imp_log *lg, struct p2pb_imp_group *g, char *err,
                                     size_t errlen)
{
    struct p2pb_imp_scan sc;
    memset(&sc, 0, sizeof sc);
    sc.lg = lg;
    sc.g = g;
    sc.maxbytes = -1;
    int crash_line = 0;
    for (size_t i = 0; i < lg->nlines; i++) {
        if (!crash_line && is_crash_line(p2pb_imp_skip_ws(lg->lines[i])))
            crash_line = (int)i + 1;
        enum p2pb_status st = scan_line(&sc, &i, err, errlen);
        if (st != P2PB_OK)
            return st;
    }
    p2pb_imp_imb_finish(&sc);
    note_crash(lg, g, crash_line);
    return P2PB_OK;
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
    st = scan_imb_osu(lg, g, err, errlen);
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
        p2pb_imp_imb_default_source(lg, g);
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
