/* SPDX-License-Identifier: MIT */
/*
 * JSON Lines results file: write (one write(2) per line) and read back.
 * All JSON goes through cJSON.
 */
#include "p2pbench/result.h"
#include "array.h"
#include "text.h"
#include "overlap.h"

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

double p2pb_msgs_per_sec(double msgs, double t_usec)
{
    if (!(t_usec > 0.0) || !(msgs > 0.0))
        return 0.0;
    return msgs / t_usec * 1e6; /* messages per usec -> per second */
}

struct p2pb_results_file {
    int fd;
    int regular; /* a regular file: can be cut back after a failed write */
    int started; /* a line was written (a file opened to be replaced is
                  * emptied just before its first line) */
    int created; /* the open created the file (discard removes it) */
    dev_t dev;   /* the file opened, to remove only that one */
    ino_t ino;
    off_t good_size; /* bytes of complete lines written so far */
    char path[1024];
    /* for the --timeout handler (p2pb_results_append_now): 1 while a line is
     * being written, and the file size once it is complete */
    volatile sig_atomic_t writing;
    volatile off_t line_end;
    int failed;  /* a write failed: the file lacks rows of the run */
    int deleted; /* the file lost its last name (deleted or replaced) */
    /* a regular file that was there: its first line goes to a temporary file
     * beside it (tmp), renamed over it once that line is on disk; old_fd
     * keeps the replaced file locked until the close */
    int replace;
    int old_fd;
    int kept; /* the replacement failed: the previous file is as it was */
    char tmp[1040];
};

/* Two runs must never interleave their lines in one file: a regular file is
 * write-locked (POSIX record lock, held until close); it is emptied only at
 * its first line (write_line). Devices and FIFOs (/dev/null, a pipe) are
 * written as they are. */
static enum p2pb_status lock_file(struct p2pb_results_file *f, const char *path, char *err,
                                  size_t errlen)
{
    struct stat sb;
    if (fstat(f->fd, &sb) != 0 || !S_ISREG(sb.st_mode))
        return P2PB_OK;
    f->dev = sb.st_dev;
    f->ino = sb.st_ino;
    struct flock lk;
    memset(&lk, 0, sizeof lk);
    lk.l_type = F_WRLCK;
    lk.l_whence = SEEK_SET;
    if (fcntl(f->fd, F_SETLK, &lk) != 0)
        return p2pb_fail(P2PB_EIO, err, errlen, "cannot write results file '%s': %s", path,
                         (errno == EACCES || errno == EAGAIN) ? "another run is writing it"
                                                              : strerror(errno));
    f->regular = 1;
    return P2PB_OK;
}

/* Flags of every open of a results file. O_NONBLOCK: a FIFO without a
 * reader fails at once (ENXIO) instead of blocking rank 0 while the other
 * ranks wait; cleared once open. No O_TRUNC: see lock_file. */
#define RESULTS_OPEN_FLAGS (O_WRONLY | O_APPEND | O_CLOEXEC | O_NONBLOCK)

/* path is a symbolic link (open said ELOOP under O_NOFOLLOW): a link to a
 * FIFO, a device or a socket (/dev/stdout, /dev/fd/N of a shell's >(...))
 * is opened through it; a link to a regular file, to nothing or to a
 * directory is refused, as nothing is ever created or emptied through a
 * link (someone else's link in a shared directory would make p2pbench
 * destroy the file it points to). Returns the descriptor, or -1 with err
 * set. */
static int open_link(const char *path, char *err, size_t errlen)
{
    int fd = open(path, RESULTS_OPEN_FLAGS);
    struct stat sb;
    if (fd >= 0 && fstat(fd, &sb) == 0 && !S_ISREG(sb.st_mode) && !S_ISDIR(sb.st_mode))
        return fd;
    if (fd < 0 && errno == ENXIO) {
        p2pb_fail(P2PB_EIO, err, errlen, "cannot write results file '%s': a FIFO with no reader",
                  path);
        return -1;
    }
    if (fd >= 0)
        close(fd);
    p2pb_fail(P2PB_EIO, err, errlen,
              "cannot write results file '%s': it is a symbolic link (to a regular file or to "
              "nothing); give the file's own path",
              path);
    return -1;
}

/* Open path as a results file: exclusive (1: create it, never open one that
 * exists: *taken set) or not (create it, or open the one there). */
static enum p2pb_status open_path(const char *path, int exclusive, int *taken,
                                  struct p2pb_results_file **out, char *err, size_t errlen)
{
    *out = NULL;
    if (taken)
        *taken = 0;
    struct p2pb_results_file *f = calloc(1, sizeof *f);
    if (!f)
        return p2pb_fail(P2PB_ENOMEM, err, errlen, "out of memory");
    enum p2pb_status st = P2PB_EIO;
    /* a new file first (then discard may remove it), else the one there */
    f->fd = open(path, RESULTS_OPEN_FLAGS | O_CREAT | O_EXCL | O_NOFOLLOW, 0644);
    f->created = f->fd >= 0;
    if (f->fd < 0 && errno == EEXIST && exclusive && taken)
        *taken = 1;
    if (f->fd < 0 && errno == EEXIST && !exclusive)
        f->fd = open(path, RESULTS_OPEN_FLAGS | O_NOFOLLOW);
    if (f->fd < 0 && errno == ELOOP && !exclusive)
        f->fd = open_link(path, err, errlen);
    else if (f->fd < 0)
        p2pb_fail(P2PB_EIO, err, errlen, "cannot write results file '%s': %s", path,
                  errno == ENXIO   ? "a FIFO with no reader"
                  : errno == ELOOP ? "it is a symbolic link"
                                   : strerror(errno));
    if (f->fd < 0)
        goto fail;
    int fl = fcntl(f->fd, F_GETFL);
    if (fl >= 0)
        fcntl(f->fd, F_SETFL, fl & ~O_NONBLOCK);
    st = lock_file(f, path, err, errlen);
    if (st != P2PB_OK)
        goto fail;
    f->replace = f->regular && !f->created;
    f->old_fd = -1;
    snprintf(f->path, sizeof f->path, "%s", path);
    *out = f;
    return P2PB_OK;
fail:
    if (f->fd >= 0)
        close(f->fd);
    if (f->created)
        unlink(path);
    free(f);
    return st;
}

enum p2pb_status p2pb_results_open(const char *path, struct p2pb_results_file **out, char *err,
                                   size_t errlen)
{
    return open_path(path, 0, NULL, out, err, errlen);
}

enum p2pb_status p2pb_results_open_new(const char *path, int *taken, struct p2pb_results_file **out,
                                       char *err, size_t errlen)
{
    return open_path(path, 1, taken, out, err, errlen);
}

void p2pb_results_discard(struct p2pb_results_file *f)
{
    if (!f)
        return;
    struct stat sb;
    /* a file this open created and nothing was written to: remove it, if
     * the name still leads to it (before the lock goes with the close) */
    if (f->created && !f->started && stat(f->path, &sb) == 0 && sb.st_dev == f->dev &&
        sb.st_ino == f->ino)
        unlink(f->path);
    close(f->fd);
    if (f->old_fd >= 0)
        close(f->old_fd);
    free(f);
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
    f->started = 1; /* never emptied: what is there stays */
    f->old_fd = -1;
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

int p2pb_results_unlinked(struct p2pb_results_file *f)
{
    struct stat sb;
    if (f && f->regular && !f->deleted && fstat(f->fd, &sb) == 0 && sb.st_nlink == 0)
        f->deleted = 1;
    return f && f->deleted;
}

/* Before a line: a file deleted (or replaced) since it was opened takes no
 * more lines, they would go where no one can read them; a file opened to be
 * replaced is emptied before its first line. */
static enum p2pb_status before_line(struct p2pb_results_file *f, char *err, size_t errlen)
{
    if (p2pb_results_unlinked(f)) {
        f->failed = 1;
        return p2pb_fail(P2PB_EIO, err, errlen,
                         "results file '%s' was deleted during the run; its rows are lost",
                         f->path);
    }
    if (f->started)
        return P2PB_OK;
    if (f->kept) /* no line after a first one that failed: the old file stays */
        return p2pb_fail(P2PB_EIO, err, errlen,
                         "cannot write results file '%s': the previous file is kept as it was",
                         f->path);
    if (f->replace)
        return P2PB_OK; /* write_line: replace_with_first */
    if (f->regular && f->good_size == 0 && ftruncate(f->fd, 0) != 0) {
        f->failed = 1;
        return p2pb_fail(P2PB_EIO, err, errlen, "cannot write results file '%s': %s", f->path,
                         strerror(errno));
    }
    f->started = 1;
    return P2PB_OK;
}

/* The directory of path, for its fsync ("." for a name without '/'). */
static void sync_dir(const char *path)
{
    char dir[1040];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else
        slash[slash == dir] = '\0'; /* "/x": "/" */
    int fd = open(dir, O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
}

/* All of buf (len bytes) to fd, retrying short writes; -1 with errno. */
static int write_all(int fd, const char *buf, size_t len)
{
    size_t done = 0;
    while (done < len) {
        ssize_t w = write(fd, buf + done, len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (w == 0)
                errno = ENOSPC;
            return -1;
        }
        done += (size_t)w;
    }
    return 0;
}

/* The first line (buf, len bytes) of a file opened to be replaced: into a
 * temporary file in its directory (same mode as the old file, locked),
 * synced, then renamed over it (the directory synced too): the previous
 * file is replaced only once the run record is on disk. From then on the
 * lines go to the new file under the name given. On failure (a full disk)
 * the temporary file is removed and the previous file stays byte for byte;
 * no later line is written (f->kept). A directory that takes no new file
 * (not writable) falls back to emptying the file in place. */
static enum p2pb_status replace_with_first(struct p2pb_results_file *f, const char *buf, size_t len,
                                           char *err, size_t errlen)
{
    struct stat sb;
    snprintf(f->tmp, sizeof f->tmp, "%s.XXXXXX", f->path);
    int fd = mkstemp(f->tmp), e = errno;
    if (fd < 0 && (e == EACCES || e == EPERM || e == EROFS)) {
        f->tmp[0] = '\0';
        f->replace = 0;
        return before_line(f, err, errlen);
    }
    int ok = fd >= 0 && fstat(f->fd, &sb) == 0 && fchmod(fd, sb.st_mode & 07777) == 0 &&
             fcntl(fd, F_SETFD, FD_CLOEXEC) == 0 && fcntl(fd, F_SETFL, O_APPEND) == 0;
    struct flock lk;
    memset(&lk, 0, sizeof lk);
    lk.l_type = F_WRLCK;
    lk.l_whence = SEEK_SET;
    ok = ok && fcntl(fd, F_SETLK, &lk) == 0;
    f->writing = 1;
    ok = ok && write_all(fd, buf, len) == 0 && fsync(fd) == 0 && rename(f->tmp, f->path) == 0;
    e = errno;
    f->writing = 0;
    if (!ok) {
        if (fd >= 0) {
            unlink(f->tmp);
            close(fd);
        }
        f->tmp[0] = '\0';
        f->failed = f->kept = 1;
        return p2pb_fail(P2PB_EIO, err, errlen,
                         "cannot write results file '%s': %s (the previous file is kept as it was)",
                         f->path, strerror(e));
    }
    f->tmp[0] = '\0';
    sync_dir(f->path);
    f->old_fd = f->fd;
    f->fd = fd;
    if (fstat(fd, &sb) == 0) {
        f->dev = sb.st_dev;
        f->ino = sb.st_ino;
    }
    f->good_size = (off_t)len;
    f->started = 1;
    return P2PB_OK;
}

/* Write text plus '\n' in one write(2) (retrying short writes). */
static enum p2pb_status write_line(struct p2pb_results_file *f, const char *text, char *err,
                                   size_t errlen)
{
    size_t len = strlen(text);
    enum p2pb_status pre = before_line(f, err, errlen);
    if (pre != P2PB_OK)
        return pre;
    char *buf = malloc(len + 2);
    if (!buf) {
        return p2pb_fail(P2PB_ENOMEM, err, errlen, "out of memory");
    }
    memcpy(buf, text, len);
    buf[len++] = '\n';
    if (!f->started && f->replace) {
        enum p2pb_status st = replace_with_first(f, buf, len, err, errlen);
        free(buf);
        return st;
    }
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

int p2pb_results_kept(const struct p2pb_results_file *f)
{
    return f && f->kept;
}

int p2pb_results_append_now(struct p2pb_results_file *f, const char *line, size_t len)
{
    if (!f->started) { /* no line of this run yet: a file to be replaced stays as it was */
        if (f->tmp[0]) /* its replacement being written: gone with the run */
            unlink(f->tmp);
        return 0;
    }
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
    if (r->msgs_factor > 0)
        cJSON_AddNumberToObject(o, "msgs_per_iter", r->msgs_factor);
    if (r->time_scale > 0)
        cJSON_AddNumberToObject(o, "time_scale", r->time_scale);
    cJSON_AddStringToObject(o, "status", p2pb_row_status_str(r->status));
    if (r->note[0])
        cJSON_AddStringToObject(o, "note", r->note);
    if (r->count_path[0])
        cJSON_AddStringToObject(o, "count_path", r->count_path);
    if (r->status == P2PB_ROW_OK) {
        cJSON_AddNumberToObject(o, "samples", (double)r->samples);
        cJSON_AddNumberToObject(o, "iterations_per_sample", (double)r->iterations_per_sample);
        cJSON_AddNumberToObject(o, "repetitions", (double)p2pb_result_repetitions(r));
        cJSON_AddNumberToObject(o, "warmup", (double)r->warmup);
        if (isfinite(r->warmup_sec) && r->warmup_sec > 0)
            cJSON_AddNumberToObject(o, "warmup_sec", r->warmup_sec);
        if (r->warmup_capped > 0)
            cJSON_AddNumberToObject(o, "warmup_capped", (double)r->warmup_capped);
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
            if (p2pb_stats_ci_unbounded(&r->t))
                cJSON_AddTrueToObject(t, "ci_unbounded");
        } else {
            cJSON_AddNullToObject(t, "ci95_low");
            cJSON_AddNullToObject(t, "ci95_high");
        }
        add_num(o, "t_min_usec", r->t_min_usec);
        add_num(o, "t_max_usec", r->t_max_usec);
        add_num(o, "t_avg_usec", r->t_avg_usec);
        add_num(o, "mbytes_per_sec", r->mbytes_per_sec);
        add_num(o, "mbytes_per_sec_imb", r->mbytes_per_sec_imb);
        if (r->msgs_factor > 0)
            add_num(o, "msgs_per_sec", r->msgs_per_sec);
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
        if (r->overhead_vs[0]) {
            cJSON *a = cJSON_AddObjectToObject(o, "overhead");
            cJSON_AddStringToObject(a, "vs", r->overhead_vs);
            add_num(a, "ratio", r->overhead);
        }
        if (r->rounds > 0) { /* rounds (docs/output-format.md) */
            cJSON_AddNumberToObject(o, "rounds", (double)r->rounds);
            cJSON *m = cJSON_AddArrayToObject(o, "round_medians_usec");
            for (size_t i = 0; i < r->rounds && i < P2PB_MAX_ROUNDS; i++)
                cJSON_AddItemToArray(m, cJSON_CreateNumber(r->round_medians[i]));
        }
        p2pb_noise_to_json(&r->noise, o);
        p2pb_disturbance_to_json(&r->disturbance, o);
        p2pb_clock_to_json(&r->clock, o);
        p2pb_bound_to_json(&r->bound, o);
        p2pb_shift_to_json(&r->shift, o);
        p2pb_overlap_to_json(&r->overlap, o);
    }
    return o;
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
    if (e->load)
        cJSON_AddItemToObject(o, "load", cJSON_Duplicate((const cJSON *)e->load, 1));
    return o;
}

enum p2pb_status p2pb_results_close_end(struct p2pb_results_file *f,
                                        const struct p2pb_end_record *e, char *err, size_t errlen)
{
    enum p2pb_status st = P2PB_OK;
    if (e && !f->kept) { /* kept: the previous file stays without a line of this run */
        cJSON *o = end_json(e);
        st = o ? p2pb_results_write_json(f, o, err, errlen)
               : p2pb_fail(P2PB_ENOMEM, err, errlen, "out of memory");
        cJSON_Delete(o);
    }
    if (fsync(f->fd) != 0 && errno != EINVAL && st == P2PB_OK)
        st = p2pb_fail(P2PB_EIO, err, errlen, "cannot sync results file '%s': %s", f->path,
                       strerror(errno));
    if (p2pb_results_unlinked(f) && st == P2PB_OK)
        st = p2pb_fail(P2PB_EIO, err, errlen,
                       "results file '%s' was deleted during the run; its rows are lost", f->path);
    if (close(f->fd) != 0 && st == P2PB_OK)
        st = p2pb_fail(P2PB_EIO, err, errlen, "cannot close results file '%s': %s", f->path,
                       strerror(errno));
    if (f->old_fd >= 0)
        close(f->old_fd);
    free(f);
    return st;
}

enum p2pb_status p2pb_results_close(struct p2pb_results_file *f, const char *status,
                                    double wall_sec, char *err, size_t errlen)
{
    struct p2pb_end_record e = {.status = status, .wall_sec = wall_sec};
    return p2pb_results_close_end(f, status ? &e : NULL, err, errlen);
}
