/* SPDX-License-Identifier: MIT */
/*
 * status.h - the one error convention of p2pbench.
 *
 * Every function that can fail returns an enum p2pb_status: P2PB_OK (0) on
 * success, a positive code otherwise. p2pb_status_str() maps a code to a short
 * message; the detail (which value was bad) is written by the caller into a
 * caller-owned buffer, never into a global.
 *
 * Process exit codes (p2pb_status_exit_code): 0 success, 1 failure,
 * 2 usage error, 77 skipped (understood by ctest as SKIP_RETURN_CODE).
 */
#ifndef P2PBENCH_STATUS_H
#define P2PBENCH_STATUS_H

#include <stddef.h>

enum p2pb_status {
    P2PB_OK = 0,
    P2PB_EUSAGE,   /* bad option or option value (exit 2) */
    P2PB_ERANGE,   /* a value is out of range: too large, overflow (exit 2) */
    P2PB_ENOMEM,   /* allocation failed or would exceed memory (exit 1) */
    P2PB_EIO,      /* file could not be opened, written or read (exit 1) */
    P2PB_EMPI,     /* an MPI call returned an error (exit 1) */
    P2PB_EVERIFY,  /* payload check failed (exit 1) */
    P2PB_ETIMEOUT, /* a message size did not finish within --timeout (exit 1) */
    P2PB_EFORMAT,  /* malformed input file (exit 1) */
    P2PB_ESKIP,    /* nothing could run, e.g. too few ranks (exit 77) */
    P2PB_STATUS_COUNT
};

/* Short, static, human-readable description of a status code. Never NULL. */
const char *p2pb_status_str(enum p2pb_status st);

/*
 * Format a one-line message into err (errlen bytes, always terminated;
 * nothing is written when err is NULL or errlen is 0) and return st, so that
 * `return p2pb_fail(P2PB_EUSAGE, err, errlen, "bad '%s'", v);` reports and
 * fails in one step.
 */
enum p2pb_status p2pb_fail(enum p2pb_status st, char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Process exit code for a status: 0, 1, 2 or 77 as documented above. */
int p2pb_status_exit_code(enum p2pb_status st);

#endif /* P2PBENCH_STATUS_H */
