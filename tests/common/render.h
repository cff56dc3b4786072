/* SPDX-License-Identifier: MIT */
/* One reporter's text for a list of rows, as the programs drive it. */
#ifndef P2PBENCH_TEST_RENDER_H
#define P2PBENCH_TEST_RENDER_H

#include <stdio.h>
#include <string.h>

#include "output/output.h"

/*
 * begin, row for rows[0..n-1], end of reporter rep into a memory stream;
 * run may be NULL, eager_limit in bytes (< 0 unknown). Returns the text
 * (caller frees; NULL when out of memory), its length in *len.
 */
static inline char *render_rows(const struct p2pb_reporter *rep, const struct p2pb_run_info *run,
                                long eager_limit, const struct p2pb_result *rows, size_t n,
                                size_t *len)
{
    char *buf = NULL;
    FILE *mem = open_memstream(&buf, len);
    if (!mem)
        return NULL;
    struct p2pb_report_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.out = mem;
    ctx.run = run;
    ctx.eager_limit = eager_limit;
    rep->begin(&ctx);
    for (size_t i = 0; i < n; i++)
        rep->row(&ctx, &rows[i]);
    rep->end(&ctx);
    fclose(mem);
    return buf;
}

#endif
