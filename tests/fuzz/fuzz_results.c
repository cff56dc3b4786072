/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: the results-file reader (src/common/result_read.c) and what
 * show and compare do with what it accepts: the reporters of every format,
 * the comparison tables (the file against an empty side and against itself),
 * the launch-position test, the host-context differences and compare's
 * printing in every format, all written to /dev/null.
 */
#include <stdio.h>
#include <string.h>

#include "fuzz.h"
#include "output/output.h"
#include "compare/compare.h"

static FILE *devnull(void)
{
    static FILE *f;
    if (!f)
        f = fopen("/dev/null", "w");
    return f;
}

/* Every row of s's first file through each reporter. */
static void show_all(const struct p2pb_side *s, FILE *o)
{
    static const char *const names[] = {"text", "markdown", "csv", "json", "imb"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const struct p2pb_reporter *rep = p2pb_reporter_find(names[i]);
        if (!rep)
            continue;
        struct p2pb_report_ctx ctx = {0};
        ctx.out = o;
        ctx.run = &s->files[0].info;
        ctx.eager_limit = -1;
        ctx.incomplete = !s->files[0].complete;
        rep->begin(&ctx);
        for (size_t r = 0; r < s->files[0].nrows; r++)
            rep->row(&ctx, &s->files[0].rows[r]);
        rep->end(&ctx);
    }
}

/* a against b: both tables, position test, context, printed in every format. */
static void compare_all(const struct p2pb_side *a, const struct p2pb_side *b, FILE *o)
{
    struct p2pb_cmp_table t[2];
    int built = 0;
    for (; built < 2; built++) {
        if (p2pb_compare_build(a, b, (enum p2pb_metric)built, built, 0.05, &t[built]) != P2PB_OK)
            break;
        p2pb_compare_position(a, b, built, &t[built]);
    }
    struct p2pb_ctx_diff diff;
    if (built == 2 && p2pb_context_diff(a, b, &diff) == P2PB_OK) {
        struct p2pb_order order;
        p2pb_order_check(a, b, &order);
        static const enum p2pb_outfmt fmts[] = {P2PB_OUT_TEXT, P2PB_OUT_MARKDOWN, P2PB_OUT_CSV,
                                                P2PB_OUT_JSON};
        for (size_t i = 0; i < sizeof fmts / sizeof fmts[0]; i++) {
            struct p2pb_cmp_print opt = {fmts[i], 0, 0.05, &order};
            p2pb_compare_print(o, &opt, a, b, &t[0], &t[1], &diff);
        }
        p2pb_ctx_diff_free(&diff);
    }
    while (built > 0)
        p2pb_compare_free(&t[--built]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *dir = NULL;
    const char *path = p2pb_fuzz_file("run.jsonl", data, size, &dir);
    FILE *o = devnull();
    if (!path || !o)
        return 0;
    char *paths[1] = {(char *)path};
    char err[1024];
    struct p2pb_side s, empty;
    memset(&empty, 0, sizeof empty);
    if (p2pb_side_load(paths, 1, &s, "A", NULL, (size_t)1 << 20, err, sizeof err) == P2PB_OK &&
        s.nfiles == 1) {
        show_all(&s, o);
        compare_all(&s, &empty, o);
        compare_all(&s, &s, o);
    }
    p2pb_side_free(&s);
    return 0;
}
