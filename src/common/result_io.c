/* SPDX-License-Identifier: MIT */
/*
 * JSON Lines results file: write (one write(2) per line) and read back.
 * All JSON goes through cJSON.
 */
#include "p2pbench/result.h"
#include "array.h"
#include "text.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const row_status_names[] = {"ok", "skipped", "failed", "timeout"};

const char *p2pb_row_status_str(enum p2pb_row_status st)
{
    if ((unsigned)st >= sizeof row_status_names / sizeof row_status_names[0])
        return "unknown";
    return row_status_names[st];
}

int p2pb_row_status_parse(const char *s)
{
    for (size_t i = 0; i < sizeof row_status_names / sizeof row_status_names[0]; i++)
        if (s && strcmp(s, row_status_names[i]) == 0)
            return (int)i;
    return -1;
}

size_t p2pb_result_repetitions(const struct p2pb_result *r)
{
    return r->samples * r->iterations_per_sample;
}

double p2pb_mbytes_per_sec(double bytes_factor, size_t bytes, double t_usec)
{
    if (!(t_usec > 0.0) || bytes == 0)
        return 0.0;
    /* bytes / usec == 10^6 bytes / s == MB/s with 1 MB = 10^6 B */
    return bytes_factor * (double)bytes / t_usec;
}

struct p2pb_results_file {
    int fd;
    int regular;     /* a regular file: can be cut back after a failed write */
    off_t good_size; /* bytes of complete lines written so far */
    char path[1024];
    /* for the --timeout handler (p2pb_results_append_now): 1 while a line is
     * being written, and the file size once it is complete */
    volatile sig_atomic_t writing;
    volatile off_t line_end;
    int failed; /* a write failed: the file lacks rows of the run */
};

/* Two runs must never interleave their lines in one file: a regular file is
 * write-locked (POSIX record lock, held until close) and only then
 * truncated. Devices and FIFOs (/dev/null, a pipe) are written as they are. */
static enum p2pb_status lock_and_truncate(struct p2pb_results_file *f, const char *path, char *err,
                                          size_t errlen)
{
    struct stat sb;
    if (fstat(f->fd, &sb) != 0 || !S_ISREG(sb.st_mode))
        return P2PB_OK;
    struct flock lk;
    memset(&lk, 0, sizeof lk);
    lk.l_type = F_WRLCK;
    lk.l_whence = SEEK_SET;
    if (fcntl(f->fd, F_SETLK, &lk) != 0)
        return p2pb_fail(P2PB_EIO, err, errlen, "cannot write results file '%s': %s", path,
                         (errno == EACCES || errno == EAGAIN) ? "another run is writing it"
                                                              : strerror(errno));
    f->regular = 1;
    if (ftruncate(f->fd, 0) != 0)
        return p2pb_fail(P2PB_EIO, err, errlen, "cannot write results file '%s': %s", path,
                         strerror(errno));
    return P2PB_OK;
}

enum p2pb_status p2pb_results_open(const char *path, struct p2pb_results_file **out, char *err,
                                   size_t errlen)
{
    *out = NULL;
    struct p2pb_results_file *f = calloc(1, sizeof *f);
    if (!f)
        return p2pb_fail(P2PB_ENOMEM, err, errlen, "out of memory");
    enum p2pb_status st;
    /* O_NONBLOCK: a FIFO without a reader fails at once (ENXIO) instead of
     * blocking rank 0 while the other ranks wait; cleared right after. */
    f->fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NONBLOCK, 0644);
    if (f->fd < 0) {
        st = p2pb_fail(P2PB_EIO, err, errlen, "cannot write results file '%s': %s", path,
                       errno == ENXIO ? "a FIFO with no reader" : strerror(errno));
        goto fail;
    }
    int fl = fcntl(f->fd, F_GETFL);
    if (fl >= 0)
        fcntl(f->fd, F_SETFL, fl & ~O_NONBLOCK);
    st = lock_and_truncate(f, path, err, errlen);
    if (st != P2PB_OK)
        goto fail;
    snprintf(f->path, sizeof f->path, "%s", path);
    *out = f;
    return P2PB_OK;
fail:
    if (f->fd >= 0)
        close(f->fd);
    free(f);
    return st;
}

enum p2pb_status p2pb_results_open_stdout(struct p2pb_results_file **out, char *err, size_t errlen)
{
    *out = NULL;
    struct p2pb_results_file *f = calloc(1, sizeof *f);
    if (!f)
        return p2pb_fail(P2PB_ENOMEM, err, errlen, "out of memory");
    f->fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
    if (f->fd < 0) {
        free(f);
        return p2pb_fail(P2PB_EIO, err, errlen, "cannot write results to standard output: %s",
                         strerror(errno));
    }
    /* a redirected file is neither locked nor truncated (">>" appends); a
     * failed line is cut back to where this run's lines end */
    struct stat sb;
    off_t pos = lseek(f->fd, 0, SEEK_CUR);
    f->regular = fstat(f->fd, &sb) == 0 && S_ISREG(sb.st_mode) && pos >= 0;
    f->good_size = f->regular ? pos : 0;
    snprintf(f->path, sizeof f->path, "(standard output)");
    *out = f;
    return P2PB_OK;
}

const char *p2pb_results_path(const struct p2pb_results_file *f)
{
    return f->path;
}

int p2pb_results_fd(const struct p2pb_results_file *f)
{
    return f ? f->fd : -1;
}

/* Write text plus '\n' in one write(2) (retrying short writes). */
static enum p2pb_status write_line(struct p2pb_results_file *f, const char *text, char *err,
                                   size_t errlen)
{
    size_t len = strlen(text);
    char *buf = malloc(len + 2);
    if (!buf) {
        return p2pb_fail(P2PB_ENOMEM, err, errlen, "out of memory");
    }
    memcpy(buf, text, len);
    buf[len++] = '\n';
    size_t done = 0;
    f->line_end = f->good_size + (off_t)len;
    f->writing = 1;
    while (done < len) {
        ssize_t w = write(f->fd, buf + done, len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            enum p2pb_status st =
                p2pb_fail(P2PB_EIO, err, errlen, "cannot write results file '%s': %s", f->path,
                          w < 0 ? strerror(errno) : "short write");
            f->failed = 1;
            free(buf);
            /* never leave half a line: cut back to the last complete one */
            if (f->regular && done > 0 &&
                (ftruncate(f->fd, f->good_size) != 0 || lseek(f->fd, f->good_size, SEEK_SET) < 0))
                st = p2pb_fail(P2PB_EIO, err, errlen,
                               "cannot write results file '%s' (and cannot cut back a "
                               "partial line): %s",
                               f->path, strerror(errno));
            return st;
        }
        done += (size_t)w;
    }
    f->good_size += (off_t)len;
    f->writing = 0;
    free(buf);
    return P2PB_OK;
}

int p2pb_results_writing(const struct p2pb_results_file *f)
{
    return f && f->writing;
}

int p2pb_results_failed(const struct p2pb_results_file *f)
{
    return f && f->failed;
}

int p2pb_results_append_now(struct p2pb_results_file *f, const char *line, size_t len)
{
    int fl = fcntl(f->fd, F_GETFL);
    if (fl < 0 || fcntl(f->fd, F_SETFL, fl | O_NONBLOCK) != 0)
        return 0;
    off_t keep = f->good_size;
    if (f->writing) {
        /* interrupted mid-line: a regular file is cut back to its last
         * complete line (unless that line did complete); a pipe cannot be */
        struct stat sb;
        if (!f->regular || fstat(f->fd, &sb) != 0)
            return 0;
        if (sb.st_size == f->line_end)
            keep = f->line_end;
        else if (ftruncate(f->fd, keep) != 0 || lseek(f->fd, keep, SEEK_SET) < 0)
            return 0;
    }
    ssize_t w = write(f->fd, line, len);
    if (w >= 0 && (size_t)w < len && f->regular && ftruncate(f->fd, keep) == 0)
        lseek(f->fd, keep, SEEK_SET); /* never leave half a line */
    return w == (ssize_t)len;
}

enum p2pb_status p2pb_results_write_json(struct p2pb_results_file *f, const void *obj, char *err,
                                         size_t errlen)
{
    char *text = cJSON_PrintUnformatted((const cJSON *)obj);
    if (!text) {
        return p2pb_fail(P2PB_ENOMEM, err, errlen, "out of memory formatting JSON");
    }
    enum p2pb_status st = write_line(f, text, err, errlen);
    cJSON_free(text);
    return st;
}

/* JSON has no NaN/Inf: write null for non-finite values. */
static void add_num(cJSON *o, const char *name, double v)
{
    if (isfinite(v))
        cJSON_AddNumberToObject(o, name, v);
    else
        cJSON_AddNullToObject(o, name);
}

void *p2pb_result_to_json(const struct p2pb_result *r)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    cJSON_AddStringToObject(o, "type", "result");
    cJSON_AddStringToObject(o, "kernel", r->kernel);
    cJSON_AddStringToObject(o, "display_name", r->display_name);
    if (r->variant[0])
        cJSON_AddStringToObject(o, "variant", r->variant);
    cJSON_AddNumberToObject(o, "bytes", (double)r->bytes);
    cJSON_AddNumberToObject(o, "nranks", r->nranks);
    cJSON_AddNumberToObject(o, "active_ranks", r->active_ranks);
    cJSON_AddStringToObject(o, "imb_layout", r->imb_layout ? "tminmaxavg" : "t");
    cJSON_AddNumberToObject(o, "bytes_factor", r->bytes_factor);
    if (r->time_scale > 0)
        cJSON_AddNumberToObject(o, "time_scale", r->time_scale);
    cJSON_AddStringToObject(o, "status", p2pb_row_status_str(r->status));
    if (r->note[0])
        cJSON_AddStringToObject(o, "note", r->note);
    if (r->status == P2PB_ROW_OK) {
        cJSON_AddNumberToObject(o, "samples", (double)r->samples);
        cJSON_AddNumberToObject(o, "iterations_per_sample", (double)r->iterations_per_sample);
        cJSON_AddNumberToObject(o, "repetitions", (double)p2pb_result_repetitions(r));
        cJSON_AddNumberToObject(o, "warmup", (double)r->warmup);
        cJSON *t = cJSON_AddObjectToObject(o, "t_usec");
        add_num(t, "min", r->t.min);
        add_num(t, "p25", r->t.p25);
        add_num(t, "median", r->t.median);
        add_num(t, "p75", r->t.p75);
        add_num(t, "p99", r->t.p99);
        add_num(t, "max", r->t.max);
        add_num(t, "mean", r->t.mean);
        add_num(t, "stddev", r->t.stddev);
        if (r->t.ci_valid) {
            add_num(t, "ci95_low", r->t.ci95_low);
            add_num(t, "ci95_high", r->t.ci95_high);
        } else {
            cJSON_AddNullToObject(t, "ci95_low");
            cJSON_AddNullToObject(t, "ci95_high");
        }
        add_num(o, "t_min_usec", r->t_min_usec);
        add_num(o, "t_max_usec", r->t_max_usec);
        add_num(o, "t_avg_usec", r->t_avg_usec);
        add_num(o, "mbytes_per_sec", r->mbytes_per_sec);
        add_num(o, "mbytes_per_sec_imb", r->mbytes_per_sec_imb);
        cJSON_AddNumberToObject(o, "outliers", (double)r->t.outliers);
        if (r->ci_target_met >= 0)
            cJSON_AddBoolToObject(o, "ci_target_met", r->ci_target_met);
        if (r->fixed_bytes > 0)
            cJSON_AddNumberToObject(o, "fixed_bytes", r->fixed_bytes);
        if (r->asym_ref[0]) {
            cJSON *a = cJSON_AddObjectToObject(o, "asymmetry");
            cJSON_AddStringToObject(a, "vs", r->asym_ref);
            add_num(a, "ratio", r->asymmetry);
        }
        if (r->rounds > 0) { /* rounds (docs/output-format.md) */
            cJSON_AddNumberToObject(o, "rounds", (double)r->rounds);
            cJSON *m = cJSON_AddArrayToObject(o, "round_medians_usec");
            for (size_t i = 0; i < r->rounds && i < P2PB_MAX_ROUNDS; i++)
                cJSON_AddItemToArray(m, cJSON_CreateNumber(r->round_medians[i]));
        }
        p2pb_noise_to_json(&r->noise, o);
        p2pb_disturbance_to_json(&r->disturbance, o);
        p2pb_shift_to_json(&r->shift, o);
    }
    return o;
}

/* "round_medians_usec" (at most P2PB_MAX_ROUNDS numbers) into r. */
static void get_rounds(const cJSON *o, struct p2pb_result *r)
{
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, "round_medians_usec"), *v;
    cJSON_ArrayForEach(v, m)
    {
        if (!cJSON_IsNumber(v) || r->rounds >= P2PB_MAX_ROUNDS)
            break;
        r->round_medians[r->rounds++] = v->valuedouble;
    }
}

enum p2pb_status p2pb_results_write_result(struct p2pb_results_file *f, const struct p2pb_result *r,
                                           char *err, size_t errlen)
{
    cJSON *o = p2pb_result_to_json(r);
    if (!o) {
        return p2pb_fail(P2PB_ENOMEM, err, errlen, "out of memory");
    }
    enum p2pb_status st = p2pb_results_write_json(f, o, err, errlen);
    cJSON_Delete(o);
    return st;
}

/* The end record of e as JSON (docs/output-format.md, section 3). */
static cJSON *end_json(const struct p2pb_end_record *e)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "type", "end");
    cJSON_AddStringToObject(o, "status", e->status);
    if (strcmp(e->status, "aborted") == 0) {
        cJSON_AddStringToObject(o, "reason", e->reason ? e->reason : "error");
        if (e->kernel) {
            cJSON_AddStringToObject(o, "kernel", e->kernel);
            cJSON_AddNumberToObject(o, "bytes", (double)e->bytes);
        } else {
            cJSON_AddNullToObject(o, "kernel");
            cJSON_AddNullToObject(o, "bytes");
        }
        cJSON_AddNumberToObject(o, "rank", e->rank);
        cJSON *ranks = cJSON_AddArrayToObject(o, "ranks");
        for (size_t i = 0; i < e->nranks; i++)
            cJSON_AddItemToArray(ranks, cJSON_CreateNumber(e->ranks[i]));
    }
    add_num(o, "wall_sec", e->wall_sec);
    return o;
}

enum p2pb_status p2pb_results_close_end(struct p2pb_results_file *f,
                                        const struct p2pb_end_record *e, char *err, size_t errlen)
{
    enum p2pb_status st = P2PB_OK;
    if (e) {
        cJSON *o = end_json(e);
        st = o ? p2pb_results_write_json(f, o, err, errlen)
               : p2pb_fail(P2PB_ENOMEM, err, errlen, "out of memory");
        cJSON_Delete(o);
    }
    if (fsync(f->fd) != 0 && errno != EINVAL && st == P2PB_OK)
        st = p2pb_fail(P2PB_EIO, err, errlen, "cannot sync results file '%s': %s", f->path,
                       strerror(errno));
    if (close(f->fd) != 0 && st == P2PB_OK)
        st = p2pb_fail(P2PB_EIO, err, errlen, "cannot close results file '%s': %s", f->path,
                       strerror(errno));
    free(f);
    return st;
}

enum p2pb_status p2pb_results_close(struct p2pb_results_file *f, const char *status,
                                    double wall_sec, char *err, size_t errlen)
{
    struct p2pb_end_record e = {.status = status, .wall_sec = wall_sec};
    return p2pb_results_close_end(f, status ? &e : NULL, err, errlen);
}

/* ---- reading ---- */

static double get_num(const cJSON *o, const char *name, double dflt)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    return cJSON_IsNumber(v) ? v->valuedouble : dflt;
}

/* A non-negative integer field: absent gives dflt; present but negative,
 * fractional, non-finite or above max fails (no undefined casts). */
static int get_count(const cJSON *o, const char *name, double dflt, double max, double *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    if (!v || cJSON_IsNull(v)) {
        *out = dflt;
        return 0;
    }
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble < 0 ||
        v->valuedouble > max || v->valuedouble != floor(v->valuedouble))
        return -1;
    *out = v->valuedouble;
    return 0;
}

static void get_str(const cJSON *o, const char *name, char *dst, size_t len)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    if (cJSON_IsString(v) && v->valuestring) {
        snprintf(dst, len, "%s", v->valuestring);
        p2pb_text_sanitize(dst); /* text from a file: no control characters on a terminal */
    }
}

enum p2pb_status p2pb_result_from_json(const void *obj, struct p2pb_result *r, char *err,
                                       size_t errlen)
{
    const cJSON *o = obj;
    memset(r, 0, sizeof *r);
    const cJSON *kernel = cJSON_GetObjectItemCaseSensitive(o, "kernel");
    const cJSON *bytes = cJSON_GetObjectItemCaseSensitive(o, "bytes");
    if (!cJSON_IsString(kernel) || !cJSON_IsNumber(bytes)) {
        return p2pb_fail(P2PB_EFORMAT, err, errlen,
                         "result record without a valid \"kernel\" and \"bytes\"");
    }
    /* every integer field checked before it is converted */
    static const struct {
        const char *name;
        double dflt, max;
    } counts[] = {
        {"bytes", 0, 9007199254740992.0}, /* 2^53: exact in a double */
        {"nranks", 0, 2147483647.0},        {"active_ranks", 0, 2147483647.0},
        {"samples", 0, 9007199254740992.0}, {"iterations_per_sample", 1, 9007199254740992.0},
        {"warmup", 0, 9007199254740992.0},  {"outliers", 0, 9007199254740992.0},
    };
    double cv[sizeof counts / sizeof counts[0]];
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        if (get_count(o, counts[i].name, counts[i].dflt, counts[i].max, &cv[i]) != 0) {
            return p2pb_fail(P2PB_EFORMAT, err, errlen, "field \"%s\" is not an integer in 0..%.0f",
                             counts[i].name, counts[i].max);
        }
    get_str(o, "kernel", r->kernel, sizeof r->kernel);
    get_str(o, "display_name", r->display_name, sizeof r->display_name);
    if (!r->display_name[0])
        snprintf(r->display_name, sizeof r->display_name, "%s", r->kernel);
    get_str(o, "variant", r->variant, sizeof r->variant);
    get_str(o, "note", r->note, sizeof r->note);
    r->bytes = (size_t)cv[0];
    r->nranks = (int)cv[1];
    r->active_ranks = cJSON_GetObjectItemCaseSensitive(o, "active_ranks") ? (int)cv[2] : r->nranks;
    const cJSON *lay = cJSON_GetObjectItemCaseSensitive(o, "imb_layout");
    r->imb_layout = cJSON_IsString(lay) && strcmp(lay->valuestring, "tminmaxavg") == 0;
    r->bytes_factor = get_num(o, "bytes_factor", 1.0);
    r->time_scale = get_num(o, "time_scale", 1.0);
    char status[16] = "ok";
    get_str(o, "status", status, sizeof status);
    int s = p2pb_row_status_parse(status);
    if (s < 0) {
        return p2pb_fail(P2PB_EFORMAT, err, errlen, "unknown row status '%s'", status);
    }
    r->status = (enum p2pb_row_status)s;
    r->samples = (size_t)cv[3];
    r->iterations_per_sample = (size_t)cv[4];
    r->warmup = (size_t)cv[5];
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(o, "t_usec");
    if (cJSON_IsObject(t)) {
        r->t.n = r->samples;
        r->t.min = get_num(t, "min", NAN);
        r->t.p25 = get_num(t, "p25", NAN);
        r->t.median = get_num(t, "median", NAN);
        r->t.p75 = get_num(t, "p75", NAN);
        r->t.p99 = get_num(t, "p99", NAN);
        r->t.max = get_num(t, "max", NAN);
        r->t.mean = get_num(t, "mean", NAN);
        r->t.stddev = get_num(t, "stddev", NAN);
        const cJSON *lo = cJSON_GetObjectItemCaseSensitive(t, "ci95_low");
        const cJSON *hi = cJSON_GetObjectItemCaseSensitive(t, "ci95_high");
        if (cJSON_IsNumber(lo) && cJSON_IsNumber(hi)) {
            r->t.ci_valid = 1;
            r->t.ci95_low = lo->valuedouble;
            r->t.ci95_high = hi->valuedouble;
        }
    } else if (r->status == P2PB_ROW_OK) {
        return p2pb_fail(P2PB_EFORMAT, err, errlen,
                         "result record with status ok but no \"t_usec\"");
    }
    r->t.outliers = (size_t)cv[6];
    const cJSON *met = cJSON_GetObjectItemCaseSensitive(o, "ci_target_met");
    r->ci_target_met = cJSON_IsBool(met) ? cJSON_IsTrue(met) : -1;
    r->t_min_usec = get_num(o, "t_min_usec", NAN);
    r->t_max_usec = get_num(o, "t_max_usec", NAN);
    r->t_avg_usec = get_num(o, "t_avg_usec", NAN);
    r->mbytes_per_sec = get_num(o, "mbytes_per_sec", NAN);
    r->mbytes_per_sec_imb = get_num(o, "mbytes_per_sec_imb", r->mbytes_per_sec);
    /* a measured time or rate is never negative (docs/methodology.md: a failed size is
     * a status, not a number) */
    if (r->status == P2PB_ROW_OK) {
        const double v[] = {r->t.min, r->t.median, r->t.max, r->mbytes_per_sec};
        static const char *const nm[] = {"t_usec.min", "t_usec.median", "t_usec.max",
                                         "mbytes_per_sec"};
        for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
            if (v[i] < 0) {
                return p2pb_fail(P2PB_EFORMAT, err, errlen, "field \"%s\" is negative (%g)", nm[i],
                                 v[i]);
            }
    }
    r->asymmetry = NAN;
    r->fixed_bytes = get_num(o, "fixed_bytes", 0.0);
    const cJSON *asym = cJSON_GetObjectItemCaseSensitive(o, "asymmetry");
    if (cJSON_IsObject(asym)) {
        get_str(asym, "vs", r->asym_ref, sizeof r->asym_ref);
        r->asymmetry = get_num(asym, "ratio", NAN);
    }
    get_rounds(o, r);
    enum p2pb_status st = p2pb_noise_from_json(o, &r->noise, err, errlen);
    if (st == P2PB_OK)
        st = p2pb_disturbance_from_json(o, &r->disturbance, err, errlen);
    return st == P2PB_OK ? p2pb_shift_from_json(o, &r->shift, err, errlen) : st;
}

void p2pb_run_info_from_json(const void *obj, struct p2pb_run_info *ri)
{
    const cJSON *o = obj;
    memset(ri, 0, sizeof *ri);
    get_str(o, "version", ri->version, sizeof ri->version);
    get_str(o, "git_commit", ri->git_commit, sizeof ri->git_commit);
    get_str(o, "label", ri->label, sizeof ri->label);
    get_str(o, "start_utc", ri->start_utc, sizeof ri->start_utc);
    get_str(o, "mpi_library", ri->mpi_library, sizeof ri->mpi_library);
    get_str(o, "source", ri->source, sizeof ri->source);
    double nr = get_num(o, "nranks", 0);
    ri->nranks = isfinite(nr) && nr >= 0 && nr <= 2147483647.0 ? (int)nr : 0;
    const cJSON *pol = cJSON_GetObjectItemCaseSensitive(o, "policy");
    if (cJSON_IsObject(pol)) {
        get_str(pol, "mode", ri->policy, sizeof ri->policy);
        ri->check = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(pol, "check"));
    }
    const cJSON *imp = cJSON_GetObjectItemCaseSensitive(o, "imported");
    ri->imported = cJSON_IsTrue(imp);
    const cJSON *ranks = cJSON_GetObjectItemCaseSensitive(o, "ranks");
    const cJSON *r0 = cJSON_IsArray(ranks) ? cJSON_GetArrayItem(ranks, 0) : NULL;
    if (r0)
        get_str(r0, "host", ri->host, sizeof ri->host);
}

void p2pb_results_data_free(struct p2pb_results_data *d)
{
    cJSON_Delete((cJSON *)d->run);
    free(d->rows);
    memset(d, 0, sizeof *d);
}

/* Major version of a schema string "p2pbench/MAJOR[.MINOR]" (digits only),
 * or -1 when it is not one. */
static int schema_major(const cJSON *schema)
{
    if (!cJSON_IsString(schema) || strncmp(schema->valuestring, "p2pbench/", 9) != 0)
        return -1;
    const char *v = schema->valuestring + 9;
    size_t d1 = strspn(v, "0123456789"), d2 = 0;
    if (d1 && v[d1] == '.')
        d2 = strspn(v + d1 + 1, "0123456789");
    if (d1 && d1 < 6 && (v[d1] == '\0' || (v[d1] == '.' && d2 && !v[d1 + 1 + d2])))
        return atoi(v);
    return -1;
}

/* State of one file being read: where, and how far. */
struct reader {
    const char *path;
    long lineno, records;
    size_t cap_rows;
    struct p2pb_results_data *out;
};

/* The run record: first line, known major version. Takes o on success. */
static enum p2pb_status read_run(struct reader *rd, cJSON *o, char *err, size_t errlen)
{
    const cJSON *schema = cJSON_GetObjectItemCaseSensitive(o, "schema");
    if (schema_major(schema) != P2PB_SCHEMA_MAJOR)
        return p2pb_fail(P2PB_EFORMAT, err, errlen,
                         "%s:%ld: unsupported schema '%s' (this reader knows %s)", rd->path,
                         rd->lineno, cJSON_IsString(schema) ? schema->valuestring : "(none)",
                         P2PB_SCHEMA);
    if (rd->out->run || rd->records != 1)
        return p2pb_fail(P2PB_EFORMAT, err, errlen, "%s:%ld: run record is not the first line",
                         rd->path, rd->lineno);
    rd->out->run = o;
    p2pb_run_info_from_json(o, &rd->out->info);
    return P2PB_OK;
}

/* A result record: one more row in out->rows (grown by doubling). */
static enum p2pb_status read_result(struct reader *rd, const cJSON *o, char *err, size_t errlen)
{
    struct p2pb_results_data *out = rd->out;
    if (p2pb_array_grow(&out->rows, &rd->cap_rows, out->nrows, sizeof *out->rows) != 0)
        return p2pb_fail(P2PB_ENOMEM, err, errlen, "%s: out of memory", rd->path);
    char sub[256];
    if (p2pb_result_from_json(o, &out->rows[out->nrows], sub, sizeof sub) != P2PB_OK)
        return p2pb_fail(P2PB_EFORMAT, err, errlen, "%s:%ld: %s", rd->path, rd->lineno, sub);
    out->nrows++;
    return P2PB_OK;
}

/* One parsed line, by its "type"; unknown types are skipped (forward
 * compatible within a major version). Takes ownership of o. */
static enum p2pb_status read_record(struct reader *rd, cJSON *o, char *err, size_t errlen)
{
    enum p2pb_status st = P2PB_OK;
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(o, "type");
    if (!cJSON_IsString(type))
        st = p2pb_fail(P2PB_EFORMAT, err, errlen, "%s:%ld: record without a \"type\"", rd->path,
                       rd->lineno);
    else if (strcmp(type->valuestring, "run") == 0) {
        st = read_run(rd, o, err, errlen);
        if (st == P2PB_OK)
            return P2PB_OK; /* o is now out->run */
    } else if (!rd->out->run)
        st = p2pb_fail(P2PB_EFORMAT, err, errlen, "%s:%ld: no run record before this line",
                       rd->path, rd->lineno);
    else if (strcmp(type->valuestring, "result") == 0)
        st = read_result(rd, o, err, errlen);
    else if (strcmp(type->valuestring, "end") == 0) {
        get_str(o, "status", rd->out->end_status, sizeof rd->out->end_status);
        rd->out->complete = strcmp(rd->out->end_status, "complete") == 0;
    }
    cJSON_Delete(o);
    return st;
}

/* Longest line a results file may hold (bytes): a run record of thousands of
 * ranks and hosts stays far below it; /dev/zero or a binary file does not. */
#define P2PB_MAX_LINE_BYTES ((size_t)16 << 20)

/* One line of fp, with its '\n', into *line (grown, *cap bytes): returns its
 * length; -1 at end of file; -2 when it is longer than P2PB_MAX_LINE_BYTES;
 * -3 when out of memory. */
static ssize_t read_line(FILE *fp, char **line, size_t *cap)
{
    size_t n = 0;
    int c = 0;
    while ((c = getc_unlocked(fp)) != EOF) {
        if (n >= P2PB_MAX_LINE_BYTES)
            return -2;
        if (n + 2 > *cap) {
            size_t nc = *cap ? 2 * *cap : 4096;
            if (nc > P2PB_MAX_LINE_BYTES + 2)
                nc = P2PB_MAX_LINE_BYTES + 2;
            char *nl = realloc(*line, nc);
            if (!nl)
                return -3;
            *line = nl;
            *cap = nc;
        }
        (*line)[n++] = (char)c;
        if (c == '\n')
            break;
    }
    if (n == 0)
        return -1;
    (*line)[n] = '\0';
    return (ssize_t)n;
}

enum p2pb_status p2pb_results_read(const char *path, struct p2pb_results_data *out, char *err,
                                   size_t errlen)
{
    memset(out, 0, sizeof *out);
    snprintf(out->path, sizeof out->path, "%s", path);
    FILE *fp = fopen(path, "r");
    if (!fp)
        return p2pb_fail(P2PB_EIO, err, errlen, "%s: cannot open: %s", path, strerror(errno));
    struct reader rd = {.path = path, .out = out};
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    enum p2pb_status st = P2PB_OK;
    while (st == P2PB_OK && (len = read_line(fp, &line, &cap)) != -1) {
        rd.lineno++;
        if (len == -2) {
            st = p2pb_fail(P2PB_EFORMAT, err, errlen,
                           "%s:%ld: line longer than %zu bytes (not a p2pbench results file)", path,
                           rd.lineno, P2PB_MAX_LINE_BYTES);
            break;
        }
        if (len == -3) {
            st = p2pb_fail(P2PB_ENOMEM, err, errlen, "%s:%ld: out of memory", path, rd.lineno);
            break;
        }
        int has_nl = len > 0 && line[len - 1] == '\n';
        if (has_nl)
            line[--len] = '\0';
        if (len == 0)
            continue;
        cJSON *o = cJSON_Parse(line);
        rd.records++;
        if (o)
            st = read_record(&rd, o, err, errlen);
        else if (!has_nl && feof(fp)) /* last line cut off mid-write */
            out->truncated_line = 1;
        else
            st = p2pb_fail(P2PB_EFORMAT, err, errlen, "%s:%ld: not a JSON object", path, rd.lineno);
    }
    free(line);
    fclose(fp);
    if (st == P2PB_OK && !out->run)
        st = p2pb_fail(P2PB_EFORMAT, err, errlen, "%s: no run record (not a p2pbench results file)",
                       path);
    if (st != P2PB_OK)
        p2pb_results_data_free(out);
    return st;
}
