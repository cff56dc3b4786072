/* SPDX-License-Identifier: MIT */
/*
 * input.h - opening a file given on the command line for reading, without
 * blocking on it: a FIFO (or a socket, a directory) is refused at once,
 * since opening or reading it can wait forever for a writer.
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

#endif
