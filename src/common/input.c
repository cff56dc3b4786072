/* SPDX-License-Identifier: MIT */
/* Input files opened without blocking; temporary output files. See input.h. */
#define _GNU_SOURCE
#include "input.h"

#include <errno.h>
#include <fcntl.h>
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

int p2pb_tmp_beside(const char *out, const char *what, char *tmp, size_t len, enum p2pb_status *st,
                    char *err, size_t errlen)
{
    if ((size_t)snprintf(tmp, len, "%s.XXXXXX", out) >= len) {
        *st = p2pb_fail(P2PB_EUSAGE, err, errlen, "%soutput name is too long", what);
        return -1;
    }
    int fd = mkstemp(tmp);
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

enum p2pb_status p2pb_input_too_large(const char *path, size_t max_bytes, char *err, size_t errlen)
{
    return p2pb_fail(P2PB_EFORMAT, err, errlen,
                     "%s: larger than the limit of %zu bytes (%.0f MiB; --max-file-size)", path,
                     max_bytes, (double)max_bytes / 1048576.0);
}
