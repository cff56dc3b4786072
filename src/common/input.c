/* SPDX-License-Identifier: MIT */
/* Input files opened without blocking; temporary output files. See input.h. */
#define _GNU_SOURCE
#include "input.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "text.h"

/* What a file of mode m is, when it is not one we read; NULL when we do. */
static const char *refused_kind(mode_t m)
{
    if (S_ISFIFO(m))
        return "a FIFO";
    if (S_ISSOCK(m))
        return "a socket";
    if (S_ISDIR(m))
        return "a directory";
    return NULL;
}

FILE *p2pb_open_input(const char *path, enum p2pb_status *st, char *err, size_t errlen)
{
    char shown[512];
    snprintf(shown, sizeof shown, "%s", path);
    p2pb_text_sanitize(shown);
    struct stat sb;
    const char *kind = stat(path, &sb) == 0 ? refused_kind(sb.st_mode) : NULL;
    /* O_NONBLOCK: a FIFO that appears between stat and open still cannot block */
    int fd = kind ? -1 : open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (!kind && fd >= 0 && fstat(fd, &sb) == 0)
        kind = refused_kind(sb.st_mode);
    FILE *fp = NULL;
    if (kind)
        *st =
            p2pb_fail(P2PB_EIO, err, errlen,
                      "%s: %s: not read (it can block forever); give a regular file", shown, kind);
    else if (fd < 0)
        *st = p2pb_fail(P2PB_EIO, err, errlen, "%s: cannot open: %s", shown, strerror(errno));
    else if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0 || !(fp = fdopen(fd, "r")))
        *st = p2pb_fail(P2PB_EIO, err, errlen, "%s: cannot open: %s", shown, strerror(errno));
    else
        *st = P2PB_OK;
    if (!fp && fd >= 0)
        close(fd);
    return fp;
}

/* The temporary files of p2pb_tmp_beside not yet renamed or removed. On
 * SIGINT, SIGTERM or SIGHUP the handler removes them (unlink and raise are
 * async-signal-safe) and ends the process as the signal would have. A slot
 * is marked used only once its name is complete. */
enum { TMP_SLOTS = 8, TMP_NAME = 4096 };
static char tmp_names[TMP_SLOTS][TMP_NAME];
static volatile sig_atomic_t tmp_used[TMP_SLOTS];

static void tmp_on_signal(int sig)
{
    for (int i = 0; i < TMP_SLOTS; i++)
        if (tmp_used[i])
            unlink(tmp_names[i]);
    signal(sig, SIG_DFL);
    raise(sig); /* delivered when the handler returns */
}

/* The handler, once, for each of the signals that is not ignored (a
 * command started with nohup or in the background keeps ignoring them). */
static void tmp_handlers(void)
{
    static int done;
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    if (done)
        return;
    done = 1;
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction old, sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = tmp_on_signal;
        sigemptyset(&sa.sa_mask);
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL)
            sigaction(sigs[i], &sa, NULL);
    }
}

/* Note tmp for the handler (all slots taken: not noted; still removed on
 * every error path by its caller). */
static void tmp_remember(const char *tmp)
{
    for (int i = 0; i < TMP_SLOTS; i++)
        if (!tmp_used[i] && strlen(tmp) < TMP_NAME) {
            memcpy(tmp_names[i], tmp, strlen(tmp) + 1);
            tmp_used[i] = 1;
            return;
        }
}

static void tmp_forget(const char *tmp)
{
    for (int i = 0; i < TMP_SLOTS; i++)
        if (tmp_used[i] && strcmp(tmp_names[i], tmp) == 0) {
            tmp_used[i] = 0;
            return;
        }
}

int p2pb_tmp_beside(const char *out, const char *what, char *tmp, size_t len, enum p2pb_status *st,
                    char *err, size_t errlen)
{
    if ((size_t)snprintf(tmp, len, "%s.XXXXXX", out) >= len) {
        *st = p2pb_fail(P2PB_EUSAGE, err, errlen, "%soutput name is too long", what);
        return -1;
    }
    /* made and noted with the signals held: none can come in between */
    sigset_t held, was;
    sigemptyset(&held);
    sigaddset(&held, SIGINT);
    sigaddset(&held, SIGTERM);
    sigaddset(&held, SIGHUP);
    tmp_handlers();
    sigprocmask(SIG_BLOCK, &held, &was);
    int fd = mkstemp(tmp);
    if (fd >= 0)
        tmp_remember(tmp);
    int e = errno;
    sigprocmask(SIG_SETMASK, &was, NULL);
    errno = e;
    if (fd < 0) {
        *st =
            p2pb_fail(P2PB_EIO, err, errlen, "cannot write %s'%s': %s", what, out, strerror(errno));
        return -1;
    }
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    *st = P2PB_OK;
    return fd;
}

int p2pb_tmp_commit(const char *tmp, const char *out)
{
    int rc = rename(tmp, out);
    int e = errno;
    if (rc != 0)
        unlink(tmp);
    tmp_forget(tmp);
    errno = e;
    return rc;
}

void p2pb_tmp_drop(const char *tmp)
{
    int e = errno;
    if (tmp[0])
        unlink(tmp);
    tmp_forget(tmp);
    errno = e;
}

enum p2pb_status p2pb_input_too_large(const char *path, size_t max_bytes, char *err, size_t errlen)
{
    return p2pb_fail(P2PB_EFORMAT, err, errlen,
                     "%s: larger than the limit of %zu bytes (%.0f MiB; --max-file-size)", path,
                     max_bytes, (double)max_bytes / 1048576.0);
}
