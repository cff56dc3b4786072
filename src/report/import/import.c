/* SPDX-License-Identifier: MIT */
/*
 * import: IMB / PMB / OSU text logs and size/value comparison tables into
 * p2pbench results files (schema p2pbench/1, "imported": true, one averaged
 * value per size: samples 1, no CI). This file is the driver; import.h lists
 * the others (one per log family).
 *
 * Written from the formats as they appear in published logs; no code from
 * IMB, PMB or OSU. Every line of a log is offered to the IMB and the OSU
 * reader; a table starts at a column header they know and ends at the first
 * line that is not a data row of that table, so prompts, harness output and
 * backtraces around a table are never taken for data. A log without IMB or
 * OSU tables is read as size/value column tables (columns.c).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "import.h"
#include "input.h"
#include "text.h"

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
        p2pb_imp_osu_comment(sc, s);
        int taken = 0;
        enum p2pb_status st = p2pb_imp_osu_table(sc, i, &taken, err, errlen);
        if (st != P2PB_OK || taken)
            return st;
    }
    return p2pb_imp_imb_table(sc, i, err, errlen);
}

/* Error lines of MPI libraries, launchers and the benchmarks themselves. */
static const char *const error_markers[] = {"ERROR",       "Error",     "error:", "FATAL",
                                            "Fatal error", "Assertion", NULL};

static int is_error_line(const char *s)
{
    if (*s == '#')
        return 0;
    for (size_t i = 0; error_markers[i]; i++)
        if (strstr(s, error_markers[i]))
            return 1;
    return is_crash_line(s);
}

/* The table of g that ended at most 2 lines before line ln (1-based); NULL if none. */
static const struct p2pb_imp_table *table_cut_at(const struct p2pb_imp_group *g, long ln)
{
    const struct p2pb_imp_table *cut = NULL;
    for (size_t k = 0; k < g->ntabs; k++)
        if (g->tabs[k].line < ln && g->tabs[k].end_line <= ln && g->tabs[k].end_line >= ln - 2)
            cut = &g->tabs[k];
    return cut;
}

/* Error lines that end a table: one warning per table (the first such
 * line), at most 8. Returns 1 when one of them was a crash line (the crash
 * is then named, and note_crash need not say it again). */
static int note_cut_tables(struct p2pb_imp_log *lg, struct p2pb_imp_group *g)
{
    const struct p2pb_imp_table *noted[8];
    int notes = 0, crash = 0;
    for (size_t i = 0; i < lg->nlines && notes < 8; i++) {
        const char *s = p2pb_imp_skip_ws(lg->lines[i]);
        const struct p2pb_imp_table *t = is_error_line(s) ? table_cut_at(g, (long)i + 1) : NULL;
        int seen = 0;
        for (int k = 0; t && k < notes; k++)
            seen |= noted[k] == t;
        if (!t || !t->nrows || seen || t->mpi.early) /* early: said with its MPI lines */
            continue;
        int is_crash = is_crash_line(s), last = 1;
        for (size_t k = 0; k < g->ntabs; k++)
            last &= g->tabs[k].line <= (long)i + 1;
        p2pb_imp_note(
            lg, g,
            "warning: line %zu: %s (\"%.60s\"), which ends the %s table (line %ld) at %zu "
            "bytes: it may be cut short; rows before it are kept",
            i + 1,
            !is_crash ? "an error in the log"
            : last    ? "the log ends in a crash"
                      : "the log contains a crash",
            s, t->display, t->line, t->rows[t->nrows - 1].bytes);
        crash |= is_crash;
        noted[notes++] = t;
    }
    return crash;
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
    if (!note_cut_tables(lg, g))
        note_crash(lg, g, crash_line);
    return P2PB_OK;
}

/* ---- reading the file ---- */

/* The whole file into lg->buf (NUL-terminated); *len: its size in bytes. */
static enum p2pb_status read_file(struct p2pb_imp_log *lg, size_t *len, char *err, size_t errlen)
{
    enum p2pb_status st;
    FILE *fp = p2pb_open_input(lg->path, &st, err, errlen);
    if (!fp)
        return st;
    struct stat sb;
    if (lg->max_bytes && fstat(fileno(fp), &sb) == 0 && S_ISREG(sb.st_mode) &&
        (uintmax_t)sb.st_size > lg->max_bytes) { /* refused before reading */
        st = p2pb_input_too_large(lg->path, lg->max_bytes, err, errlen);
        goto out;
    }
    size_t cap = 0;
    char chunk[65536];
    size_t got;
    *len = 0;
    while ((got = fread(chunk, 1, sizeof chunk, fp)) > 0) {
        if (*len + got + 1 > cap) {
            size_t nc = (*len + got + 1) * 2;
            char *nb = realloc(lg->buf, nc);
            if (!nb) {
                st = p2pb_fail(P2PB_ENOMEM, err, errlen, "%s: out of memory", lg->path);
                goto out;
            }
            lg->buf = nb;
            cap = nc;
        }
        memcpy(lg->buf + *len, chunk, got);
        *len += got;
        if (memchr(chunk, 0, got)) /* binary: check_text names the line; read no more */
            break;
        if (lg->max_bytes && *len > lg->max_bytes) {
            st = p2pb_input_too_large(lg->path, lg->max_bytes, err, errlen);
            goto out;
        }
    }
    if (ferror(fp))
        st = p2pb_fail(P2PB_EIO, err, errlen, "cannot read %s: %s", lg->path, strerror(errno));
    else if (!lg->buf)
        st = p2pb_fail(P2PB_EFORMAT, err, errlen, "%s:1: empty file", lg->path);
    else
        lg->buf[*len] = '\0';
out:
    fclose(fp);
    return st;
}

/* Binary data (a NUL byte or other control characters) is not a log. */
static enum p2pb_status check_text(const struct p2pb_imp_log *lg, size_t len, char *err,
                                   size_t errlen)
{
    size_t line = 1;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)lg->buf[i];
        if (c == '\n')
            line++;
        else if (c == 0 || (c < 32 && c != '\t' && c != '\r' && c != '\f' && c != '\v'))
            return p2pb_fail(P2PB_EFORMAT, err, errlen,
                             "%s:%zu: binary data (byte 0x%02x), not a text log", lg->path, line,
                             c);
    }
    return P2PB_OK;
}

/* Cut lg->buf into lg->lines (without '\n' and a trailing CR). */
static enum p2pb_status split_lines(struct p2pb_imp_log *lg, size_t len, char *err, size_t errlen)
{
    size_t n = 1;
    for (size_t i = 0; i < len; i++)
        n += lg->buf[i] == '\n';
    lg->lines = calloc(n, sizeof *lg->lines);
    if (!lg->lines)
        return p2pb_fail(P2PB_ENOMEM, err, errlen, "%s: out of memory", lg->path);
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

static enum p2pb_status read_lines(struct p2pb_imp_log *lg, char *err, size_t errlen)
{
    size_t len;
    enum p2pb_status st = read_file(lg, &len, err, errlen);
    if (st == P2PB_OK)
        st = check_text(lg, len, err, errlen);
    if (st == P2PB_OK)
        st = split_lines(lg, len, err, errlen);
    return st;
}

/* ---- writing ---- */

/* An ok row has a finite time >= 0: p2pb_imp_row_ok refused any other (a
 * check that this stays so, not an input check). Returns P2PB_OK or
 * P2PB_EFORMAT (the import is refused, nothing written). */
static enum p2pb_status check_result(const struct p2pb_result *r, const struct p2pb_imp_log *lg,
                                     char *err, size_t errlen)
{
    if (r->status == P2PB_ROW_OK && !(isfinite(r->t.median) && r->t.median >= 0))
        return p2pb_fail(P2PB_EFORMAT, err, errlen,
                         "%s: internal error: %s %s %zu B would be written with t %g usec",
                         lg->path, r->kernel, r->variant, r->bytes, r->t.median);
    /* the reader's rules, whole: a file it would refuse is never written */
    void *o = p2pb_result_to_json(r);
    struct p2pb_result back;
    char why[256];
    enum p2pb_status st = o ? p2pb_result_from_json(o, &back, why, sizeof why) : P2PB_ENOMEM;
    cJSON_Delete(o);
    if (st == P2PB_ENOMEM)
        return p2pb_fail(st, err, errlen, "out of memory");
    if (st != P2PB_OK)
        return p2pb_fail(P2PB_EFORMAT, err, errlen,
                         "%s: the %s row of %zu bytes cannot be imported: %s (nothing written)",
                         lg->path, r->display_name, r->bytes, why);
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
            /* IMB/PMB latency: PingPong's t is half the round trip (the
             * kernel's facts; 1 for a benchmark without a kernel) */
            r.time_scale = p2pb_kernel_time_scale(r.kernel);
            st = check_result(&r, lg, err, errlen);
            if (st == P2PB_OK)
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
    p2pb_imp_name_clean(out); /* it names the output file and the label */
}

/* One line "fmt..." on msg (unless NULL), sanitised whole (text.c): it names
 * logs and directories as typed and quotes a log's own text. */
static void say(FILE *msg, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(FILE *msg, const char *fmt, ...)
{
    char line[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    p2pb_text_sanitize(line);
    if (msg)
        fprintf(msg, "%s\n", line);
}

static void log_free(struct p2pb_imp_log *lg)
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
    if (g->ntabs > 0)
        lg->nothing[0] = '\0'; /* some tables imported, others skipped (noted) */
    if (g->ntabs == 0 && lg->nothing[0]) {
        p2pb_imp_groups_free(lg); /* IMB/OSU tables, all skipped: nothing to write */
    } else if (g->ntabs == 0) {
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

/* 1 if paths[i] names the same file as an earlier path (device and inode). */
static int named_before(char *const *paths, size_t i)
{
    struct stat a, b;
    if (stat(paths[i], &a) != 0)
        return 0;
    for (size_t k = 0; k < i; k++)
        if (stat(paths[k], &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
            return 1;
    return 0;
}

/* Every log parsed (nothing written); logs[i].path = paths[i]. A log named
 * twice is read once (the later names are left with no groups). */
static enum p2pb_status parse_all(struct p2pb_imp_log *logs, char *const *paths, size_t npaths,
                                  size_t max_bytes, FILE *msg, char *err, size_t errlen)
{
    for (size_t i = 0; i < npaths; i++) {
        logs[i].path = paths[i];
        logs[i].msg = msg;
        logs[i].max_bytes = max_bytes;
        struct stat ps;
        if (stat(paths[i], &ps) == 0 && S_ISDIR(ps.st_mode))
            return p2pb_fail(P2PB_EIO, err, errlen, "%s: is a directory (import reads text logs)",
                             paths[i]);
        if (named_before(paths, i)) {
            say(msg, "%s: note: named more than once; imported once", paths[i]);
            continue;
        }
        enum p2pb_status st = parse_log(&logs[i], err, errlen);
        if (st != P2PB_OK)
            return st;
    }
    return P2PB_OK;
}

static enum p2pb_status ensure_outdir(const char *outdir, char *err, size_t errlen)
{
    struct stat sb;
    if (stat(outdir, &sb) != 0 && errno == ENOENT && mkdir(outdir, 0755) != 0)
        return p2pb_fail(P2PB_EIO, err, errlen, "%s: cannot create directory: %s", outdir,
                         strerror(errno));
    if (stat(outdir, &sb) != 0 || !S_ISDIR(sb.st_mode))
        return p2pb_fail(P2PB_EIO, err, errlen, "%s: not a directory", outdir);
    return P2PB_OK;
}

/* ---- all or nothing ---- */

/* The files of one import: final[i] is written as tmp[i]; note[i] is its
 * "wrote ..." line. n of cap used. */
struct outset {
    char **final, **tmp, **note;
    size_t n, cap;
};

static enum p2pb_status outset_init(struct outset *o, size_t npaths, char *err, size_t errlen)
{
    o->cap = npaths * 8 + 8;
    o->final = calloc(o->cap, sizeof *o->final);
    o->tmp = calloc(o->cap, sizeof *o->tmp);
    o->note = calloc(o->cap, sizeof *o->note);
    if (!o->final || !o->tmp || !o->note)
        return p2pb_fail(P2PB_ENOMEM, err, errlen, "out of memory");
    return P2PB_OK;
}

static void outset_free(struct outset *o)
{
    for (size_t w = 0; w < o->n; w++) {
        free(o->final[w]);
        free(o->tmp[w]);
        free(o->note[w]);
    }
    free(o->final);
    free(o->tmp);
    free(o->note);
}

static int outset_has(const struct outset *o, const char *path)
{
    int dup = 0;
    for (size_t w = 0; w < o->n; w++)
        dup |= strcmp(o->final[w], path) == 0;
    return dup;
}

/* outdir/base.jsonl, or outdir/base-label.jsonl when the log has several
 * groups; with a counter (base-2...) when another input of the same base
 * name took that name. */
static void output_path(const struct outset *o, const char *outdir, const char *base,
                        const char *label, int many, char *path, size_t len)
{
    if (many)
        snprintf(path, len, "%s/%s-%s.jsonl", outdir, base, label);
    else
        snprintf(path, len, "%s/%s.jsonl", outdir, base);
    for (int n = 2; outset_has(o, path); n++) {
        if (many)
            snprintf(path, len, "%s/%s-%d-%s.jsonl", outdir, base, n, label);
        else
            snprintf(path, len, "%s/%s-%d.jsonl", outdir, base, n);
    }
}

/* A message naming the temporary file tmp names the real one, path. */
static void rename_in_message(char *err, size_t errlen, const char *tmp, const char *path)
{
    char *at = strstr(err, tmp);
    if (at) {
        char rest[1024];
        snprintf(rest, sizeof rest, "%s", at + strlen(tmp));
        snprintf(at, errlen - (size_t)(at - err), "%s%s", path, rest);
    }
}

/* Write group g of lg under a temporary name; base: the log's base name. */
static enum p2pb_status write_one(struct outset *o, struct p2pb_imp_log *lg,
                                  struct p2pb_imp_group *g, const char *base, const char *outdir,
                                  char *err, size_t errlen)
{
    char path[4096], tmp[4200];
    output_path(o, outdir, base, g->label, lg->ngroups > 1, path, sizeof path);
    if (o->n >= o->cap)
        return p2pb_fail(P2PB_ERANGE, err, errlen, "too many output files");
    snprintf(tmp, sizeof tmp, "%s.tmp-%ld", path, (long)getpid());
    o->tmp[o->n] = strdup(tmp);
    o->final[o->n] = strdup(path);
    o->n++;
    enum p2pb_status st = write_group(lg, g, tmp, err, errlen);
    if (st != P2PB_OK) {
        rename_in_message(err, errlen, tmp, path);
        return st;
    }
    size_t rows = 0;
    for (size_t t = 0; t < g->ntabs; t++)
        rows += g->tabs[t].nrows;
    char line[6200];
    snprintf(line, sizeof line, "%s: wrote %s (%s, label %s, %zu table%s, %zu rows)", lg->path,
             path, g->source, g->label, g->ntabs, g->ntabs == 1 ? "" : "s", rows);
    p2pb_text_sanitize(line); /* a log's or directory's name may hold anything */
    o->note[o->n - 1] = strdup(line);
    return P2PB_OK;
}

/* Every group of every log under temporary names. */
static enum p2pb_status write_all(struct outset *o, struct p2pb_imp_log *logs, size_t nlogs,
                                  const char *outdir, char *err, size_t errlen)
{
    for (size_t i = 0; i < nlogs; i++) {
        char base[256];
        base_name(logs[i].path, base, sizeof base);
        for (size_t k = 0; k < logs[i].ngroups; k++) {
            enum p2pb_status st =
                write_one(o, &logs[i], &logs[i].groups[k], base, outdir, err, errlen);
            if (st != P2PB_OK)
                return st;
        }
    }
    return P2PB_OK;
}

/*
 * Rename every temporary file into place, once none of the names is a
 * directory nor (without force) a file that exists.
 */
static enum p2pb_status commit_all(const struct outset *o, int force, FILE *msg, char *err,
                                   size_t errlen)
{
    for (size_t w = 0; w < o->n; w++) {
        struct stat ts;
        if (stat(o->final[w], &ts) == 0 && S_ISDIR(ts.st_mode))
            return p2pb_fail(P2PB_EIO, err, errlen,
                             "cannot write results file '%s': Is a directory", o->final[w]);
        if (!force && lstat(o->final[w], &ts) == 0)
            return p2pb_fail(P2PB_EIO, err, errlen,
                             "%s exists: not replaced (nothing written; --force replaces it)",
                             o->final[w]);
    }
    for (size_t w = 0; w < o->n; w++) {
        if (rename(o->tmp[w], o->final[w]) != 0)
            return p2pb_fail(P2PB_EIO, err, errlen, "cannot write results file '%s': %s",
                             o->final[w], strerror(errno));
        if (msg && o->note[w])
            fprintf(msg, "%s\n", o->note[w]);
    }
    return P2PB_OK;
}

/*
 * All parsed first; then each file is written under a temporary name in the
 * same directory, and only when every file is complete are they renamed into
 * place. A failure (bad path, full disk) removes the temporaries and leaves
 * every existing file as it was: a failed import writes nothing.
 */
/*
 * With no group in any log: the one failure, saying what the first log that
 * had tables held (all skipped). Else a warning for each log without groups.
 */
static enum p2pb_status check_importable(const struct p2pb_imp_log *logs, size_t nlogs, FILE *msg,
                                         char *err, size_t errlen)
{
    size_t groups = 0;
    const struct p2pb_imp_log *first = NULL;
    for (size_t i = 0; i < nlogs; i++) {
        groups += logs[i].ngroups;
        if (logs[i].nothing[0] && !first)
            first = &logs[i];
    }
    if (!groups)
        return p2pb_fail(P2PB_EFORMAT, err, errlen, "%s: nothing importable: %s",
                         first ? first->path : "import", first ? first->nothing : "no tables");
    for (size_t i = 0; i < nlogs; i++)
        if (logs[i].nothing[0])
            say(msg, "%s: warning: nothing importable (%s); no file written for it", logs[i].path,
                logs[i].nothing);
    return P2PB_OK;
}

enum p2pb_status p2pb_import_logs(char *const *paths, size_t npaths, const char *outdir, int force,
                                  size_t max_bytes, FILE *msg, char *err, size_t errlen)
{
    enum p2pb_status st = ensure_outdir(outdir, err, errlen);
    if (st != P2PB_OK)
        return st;
    struct p2pb_imp_log *logs = calloc(npaths ? npaths : 1, sizeof *logs);
    if (!logs)
        return p2pb_fail(P2PB_ENOMEM, err, errlen, "out of memory");
    struct outset o;
    memset(&o, 0, sizeof o);
    st = parse_all(logs, paths, npaths, max_bytes, msg, err, errlen);
    if (st == P2PB_OK)
        st = check_importable(logs, npaths, msg, err, errlen);
    if (st != P2PB_OK)
        goto out;
    st = outset_init(&o, npaths, err, errlen);
    if (st != P2PB_OK)
        goto out;
    st = write_all(&o, logs, npaths, outdir, err, errlen);
    if (st != P2PB_OK)
        goto out;
    st = commit_all(&o, force, msg, err, errlen);
out:
    if (st != P2PB_OK)
        for (size_t w = 0; w < o.n; w++)
            if (o.tmp[w])
                remove(o.tmp[w]);
    outset_free(&o);
    for (size_t i = 0; i < npaths; i++)
        log_free(&logs[i]);
    free(logs);
    return st;
}
