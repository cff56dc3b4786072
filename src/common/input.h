/* SPDX-License-Identifier: MIT */
/*
 * input.h - the files of the report tool: opening a file given on the
 * command line for reading without blocking on it (a FIFO, a socket or a
 * directory is refused at once, since opening or reading it can wait
 * forever for a writer), and the temporary file an output is written to
 * before it is renamed into place.
 */
#ifndef P2PBENCH_INPUT_H
#define P2PBENCH_INPUT_H

#include <stddef.h>
#include <stdio.h>

#include "p2pbench/status.h"

/*
 * Open path for reading (fopen mode "r"): a regular file or a character
 * device (/dev/zero is bounded by the readers' own limits). Returns the
 * stream and P2PB_OK in *st, or NULL and *st = P2PB_EIO with one line in err
 * ("PATH: cannot open: reason", "PATH: a FIFO: not read (it can block
 * forever); give a regular file"). The path in err is sanitised.
 */
FILE *p2pb_open_input(const char *path, enum p2pb_status *st, char *err, size_t errlen);

/*
 * The one message for a file above --max-file-size: "PATH: larger than the
 * limit of N bytes (M MiB; --max-file-size)" in err. Returns P2PB_EFORMAT.
 */
enum p2pb_status p2pb_input_too_large(const char *path, size_t max_bytes, char *err, size_t errlen);

/*
 * Create the temporary file beside out ("OUT.XXXXXX" into tmp, len bytes)
 * with the mode a plain file gets (0666 & ~umask; mkstemp makes 0600), so
 * that a finished output can be renamed over out and a failed one leaves
 * nothing. Returns its descriptor, or -1 with *st = P2PB_EUSAGE (name too
 * long) or P2PB_EIO and one line in err, "cannot write WHAT'OUT': reason"
 * (what: "" or e.g. "plot ").
 */
int p2pb_tmp_beside(const char *out, const char *what, char *tmp, size_t len, enum p2pb_status *st,
                    char *err, size_t errlen);

/*
 * A temporary file of p2pb_tmp_beside is removed if the process gets
 * SIGINT, SIGTERM or SIGHUP before one of these two: the process then ends
 * by that signal (a signal the caller ignores stays ignored). SIGKILL
 * leaves it, as nothing can run then.
 * p2pb_tmp_commit: rename tmp over out; on failure tmp is removed. Returns
 * 0, or -1 with errno set (rename's).
 * p2pb_tmp_drop: remove tmp (a failed output); errno is kept. "" is none.
 */
int p2pb_tmp_commit(const char *tmp, const char *out);
void p2pb_tmp_drop(const char *tmp);

#endif
