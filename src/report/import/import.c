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
        st = p2pb_imp_columns(lg, err, errlen);
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
