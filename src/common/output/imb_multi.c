/* SPDX-License-Identifier: MIT */
/*
 * IMB -multi 1 tables (docs/kernels.md, "IMB layout"): the rows of every
 * pair (or rank) of a kernel, size by size, one row per group with a Group
 * column and a blank line before each size, under a header that lists the
 * groups:
 *
 *   # Benchmarking Multi-PingPong
 *   # ( 2 groups of 2 processes each running simultaneous )
 *   # Group  0:     0    1
 *   #
 *
 * Rows reach the writer group by group (all sizes of pair 0-1, then of pair
 * 2-3), so they are held until the table is complete.
 */
#include <stdlib.h>
#include <string.h>

#include "output/imb.h"

/* The held table: rows[n] (cap allocated), in the order they came. */
struct imb_held {
    struct p2pb_imb_tab tab;
    struct p2pb_result *rows;
    size_t n, cap;
};

int p2pb_imb_hold(struct p2pb_report_ctx *ctx, const struct p2pb_imb_tab *t,
                  const struct p2pb_result *r)
{
    struct imb_held *h = ctx->priv;
    if (!h) {
        h = calloc(1, sizeof *h);
        if (!h)
            return -1;
        ctx->priv = h;
    }
    if (h->n == 0)
        h->tab = *t;
    if (h->n == h->cap) {
        size_t cap = h->cap ? 2 * h->cap : 32;
        struct p2pb_result *rows = realloc(h->rows, cap * sizeof *rows);
        if (!rows)
            return -1;
        h->rows = rows;
        h->cap = cap;
    }
    h->rows[h->n++] = *r;
    return 0;
}

const char *p2pb_imb_held_name(const struct p2pb_report_ctx *ctx)
{
    const struct imb_held *h = ctx->priv;
    return h && h->n ? h->tab.name : NULL;
}

/* The ranks of group variant v ("pair 0-1", "2->3", "rank 1") into rk[2]; their count. */
static int group_ranks(const char *v, int rk[2])
{
    if (sscanf(v, "pair %d-%d", &rk[0], &rk[1]) == 2 || sscanf(v, "%d->%d", &rk[0], &rk[1]) == 2) {
        if (rk[0] > rk[1]) {
            int x = rk[0];
            rk[0] = rk[1];
            rk[1] = x;
        }
        return 2;
    }
    return sscanf(v, "rank %d", &rk[0]) == 1 ? 1 : 0;
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

/* The header block: name, groups and their ranks, ranks waiting, columns. */
static void multi_header(FILE *o, const struct imb_held *h, const size_t *first, size_t ngroups)
{
    const struct p2pb_imb_tab *t = &h->tab;
    const struct p2pb_result *r0 = &h->rows[0];
    fputc('\n', o);
    p2pb_imb_rule(o, p2pb_imb_ncols(t));
    fprintf(o, "# Benchmarking %s\n", t->name);
    fprintf(o, "# ( %zu groups of %d processes each running simultaneous )\n", ngroups,
            t->group_size);
    for (size_t g = 0; g < ngroups; g++) {
        int rk[2], n = group_ranks(h->rows[first[g]].variant, rk);
        fprintf(o, "# Group %2zu: ", g);
        for (int i = 0; i < n; i++)
            fprintf(o, "%5d", rk[i]);
        fprintf(o, "\n# \n");
    }
    long waiting = (long)r0->nranks - (long)ngroups * t->group_size;
    if (waiting > 0)
        fprintf(o, "# ( %ld additional process%s waiting in MPI_Barrier)\n", waiting,
                waiting == 1 ? "" : "es");
    p2pb_imb_rule(o, p2pb_imb_ncols(t));
    p2pb_imb_col_header(o, t->cols, 1);
}

/* Groups in order of first appearance: first[g] is the first row of group g. */
static size_t multi_groups(const struct imb_held *h, size_t *first)
{
    size_t ng = 0;
    for (size_t i = 0; i < h->n; i++) {
        size_t g = 0;
        while (g < ng && strcmp(h->rows[first[g]].variant, h->rows[i].variant) != 0)
            g++;
        if (g == ng)
            first[ng++] = i;
    }
    return ng;
}

/* The rows of one size, group by group; a row that is not ok as a comment. */
static void multi_size(FILE *o, const struct imb_held *h, const size_t *first, size_t ngroups,
                       size_t bytes)
{
    fputc('\n', o);
    for (size_t g = 0; g < ngroups; g++)
        for (size_t i = 0; i < h->n; i++) {
            const struct p2pb_result *r = &h->rows[i];
            if (r->bytes != bytes || strcmp(r->variant, h->rows[first[g]].variant) != 0)
                continue;
            if (r->status != P2PB_ROW_OK) {
                fprintf(o, "# %zu bytes, group %zu: %s%s%s\n", bytes, g,
                        p2pb_row_status_str(r->status), r->note[0] ? ": " : "", r->note);
                continue;
            }
            fprintf(o, "%13zu", g);
            p2pb_imb_values(o, &h->tab, r);
        }
}

void p2pb_imb_flush(struct p2pb_report_ctx *ctx)
{
    struct imb_held *h = ctx->priv;
    if (!h)
        return;
    size_t *first = h->n ? malloc(2 * h->n * sizeof *first) : NULL;
    if (first) {
        size_t *sizes = first + h->n, ns = 0;
        size_t ng = multi_groups(h, first);
        for (size_t i = 0; i < h->n; i++)
            sizes[ns++] = h->rows[i].bytes;
        qsort(sizes, ns, sizeof *sizes, cmp_size);
        multi_header(ctx->out, h, first, ng);
        for (size_t i = 0; i < ns; i++)
            if (i == 0 || sizes[i] != sizes[i - 1])
                multi_size(ctx->out, h, first, ng, sizes[i]);
    } else if (h->n) {
        fprintf(ctx->out, "\n# %s: out of memory, %zu rows not printed\n", h->tab.name, h->n);
    }
    free(first);
    free(h->rows);
    free(h);
    ctx->priv = NULL;
    /* the next row opens a new table */
    ctx->section_open = 0;
}
