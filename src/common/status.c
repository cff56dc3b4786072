/* SPDX-License-Identifier: MIT */
#include "p2pbench/status.h"

#include <stdarg.h>
#include <stdio.h>

static const char *const status_msg[P2PB_STATUS_COUNT] = {
    [P2PB_OK] = "success",
    [P2PB_EUSAGE] = "usage error",
    [P2PB_ERANGE] = "value out of range",
    [P2PB_ENOMEM] = "out of memory",
    [P2PB_EIO] = "input/output error",
    [P2PB_EMPI] = "MPI error",
    [P2PB_EVERIFY] = "payload check failed",
    [P2PB_ETIMEOUT] = "timed out",
    [P2PB_EFORMAT] = "malformed input",
    [P2PB_ESKIP] = "skipped",
};

const char *p2pb_status_str(enum p2pb_status st)
{
    if ((int)st < 0 || st >= P2PB_STATUS_COUNT)
        return "unknown status";
    return status_msg[st];
}

int p2pb_status_exit_code(enum p2pb_status st)
{
    switch (st) {
    case P2PB_OK: return 0;
    case P2PB_EUSAGE:
    case P2PB_ERANGE: return 2;
    case P2PB_ESKIP: return 77;
    default: return 1;
    }
}

enum p2pb_status p2pb_fail(enum p2pb_status st, char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return st;
}
