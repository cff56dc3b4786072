/* SPDX-License-Identifier: MIT */
/*
 * overhead.c - the overhead of a kernel against its reference kernel
 * (kernel.h, field overhead_vs; docs/kernels.md, "Partitioned-PingPong"): the
 * suite keeps t.median of every ok row of a kernel that some kernel names as
 * its baseline, and divides the rows of that kernel by the kept row of the
 * same size and variant when it runs later in the same launch.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "bench.h"

/* 1 when a kernel of the registry names kernel `name` as its baseline. */
static int is_a_baseline(const char *name)
{
    for (size_t i = 0; i < p2pb_nkernels; i++)
        if (p2pb_kernels[i]->overhead_vs && strcmp(p2pb_kernels[i]->overhead_vs, name) == 0)
            return 1;
    return 0;
}

void p2pb_overhead_keep(struct p2pb_overhead_refs *b, const struct p2pb_result *rows, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const struct p2pb_result *r = &rows[i];
        if (r->status != P2PB_ROW_OK || !(r->t.median > 0) || !is_a_baseline(r->kernel))
            continue;
        if (p2pb_array_grow(&b->rows, &b->cap, b->n, sizeof *b->rows) != 0)
            return; /* out of memory: rows without an overhead, nothing wrong */
        struct p2pb_overhead_ref *k = &b->rows[b->n++];
        snprintf(k->kernel, sizeof k->kernel, "%s", r->kernel);
        snprintf(k->variant, sizeof k->variant, "%s", r->variant);
        k->bytes = r->bytes;
        k->t_median = r->t.median;
    }
}

void p2pb_overhead_apply(const struct p2pb_overhead_refs *b, const struct p2pb_kernel *k,
                         struct p2pb_result *rows, size_t n)
{
    if (!k->overhead_vs)
        return;
    for (size_t i = 0; i < n; i++) {
        struct p2pb_result *r = &rows[i];
        if (r->status != P2PB_ROW_OK)
            continue;
        for (size_t j = b->n; j-- > 0;) { /* the latest row of that size */
            const struct p2pb_overhead_ref *q = &b->rows[j];
            if (q->bytes == r->bytes && strcmp(q->kernel, k->overhead_vs) == 0 &&
                strcmp(q->variant, r->variant) == 0) {
                snprintf(r->overhead_vs, sizeof r->overhead_vs, "%s", k->overhead_vs);
                r->overhead = r->t.median / q->t_median;
                break;
            }
        }
    }
}

void p2pb_overhead_free(struct p2pb_overhead_refs *b)
{
    free(b->rows);
    memset(b, 0, sizeof *b);
}
