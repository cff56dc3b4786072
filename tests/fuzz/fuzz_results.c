/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: the results-file reader (src/common/result_read.c) and what
 * show and compare do with what it accepts: the reporters of every format,
 * the comparison tables (the file against an empty side and against itself),
 * the launch-position test, the host-context differences and compare's
 * printing in every format, all written to /dev/null; and the html page of
 * the file alone and against itself, written beside the input, whose size
 * is bounded: above HTML_MAX_BYTES the target aborts (an axis or band loop
 * that never ends fills a disk: RLIMIT_FSIZE stops it at the bound too).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "fuzz.h"
#include "output/output.h"
#include "compare/compare.h"
#include "html/html.h"
#include "outlier.h"

/* The largest html page of an input (at most 64 KiB under libFuzzer's
 * -max_len; a seed may be larger): far above any page of such a file. */
#define HTML_MAX_BYTES ((off_t)64 << 20)

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

/* Any writing beyond HTML_MAX_BYTES ends the process (SIGXFSZ, a crash to
 * libFuzzer and to replay): set once. */
static void bound_file_size(void)
{
    static int done;
    if (done)
        return;
    done = 1;
    struct rlimit rl;
    if (getrlimit(RLIMIT_FSIZE, &rl) == 0 &&
        (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > (rlim_t)HTML_MAX_BYTES + 1)) {
        rl.rlim_cur = (rlim_t)HTML_MAX_BYTES + 1;
        setrlimit(RLIMIT_FSIZE, &rl);
    }
    signal(SIGXFSZ, SIG_DFL);
}

/* The html page of s (and of s against s): written, then its size checked. */
static void html_all(const struct p2pb_side *s, const char *dir)
{
    struct p2pb_side two[2] = {*s, *s};
    struct p2pb_html_opt opt = {NULL, 0.05, 0, P2PB_OUTLIER_K, P2PB_OUTLIER_MIN_OFF};
    char out[512], err[1024];
    snprintf(out, sizeof out, "%s/page.html", dir);
    bound_file_size();
    for (size_t n = 1; n <= 2; n++) {
        if (p2pb_html_report(two, n, &opt, out, err, sizeof err) != P2PB_OK)
            continue;
        struct stat sb;
        if (stat(out, &sb) == 0 && sb.st_size > HTML_MAX_BYTES) {
            fprintf(stderr, "fuzz_results: html page of %lld bytes (bound %lld)\n",
                    (long long)sb.st_size, (long long)HTML_MAX_BYTES);
            abort();
        }
        remove(out);
    }
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
        html_all(&s, dir);
    }
    p2pb_side_free(&s);
    return 0;
}
