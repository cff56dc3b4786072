/* SPDX-License-Identifier: MIT */
/*
 * Each output format against its golden file in tests/golden/.
 * Usage: test_report_golden GOLDEN_DIR. With UPDATE_GOLDEN=1 in the
 * environment it rewrites the files instead (the one switch of every golden
 * test: tests/report/report_lib.sh reads it too).
 */
#include <stdlib.h>

#include "../lib/check.h"
#include "output/output.h"
#include "render.h"
#include "rows.h"

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s)
        s[n] = '\0';
    fclose(f);
    *len = (size_t)n;
    return s;
}

/* Issue 20: a busy host printed "256  60*d  1  0.624  0.0000000321  12122652.03".
 * Row 0 (median 0.41 usec) gets those bounds; text and markdown print
 * "unbounded" and say why under the table, CSV leaves the bounds empty. */
static void unbounded_interval(void)
{
    struct p2pb_result rows[7];
    size_t n = test_rows(rows), len = 0;
    rows[0].t.ci95_low = 0.0000000321;
    rows[0].t.ci95_high = 12122652.03;
    CHECK(p2pb_stats_ci_unbounded(&rows[0].t) && !p2pb_stats_ci_unbounded(&rows[1].t));
    char *t = render_rows(&p2pb_reporter_text, &test_run, 4096, rows, n, &len);
    CHECK(t && strstr(t, "unbounded      unbounded") && !strstr(t, "12122652") &&
          strstr(t, "# unbounded: 1 row whose rounds' medians disagree"));
    char *m = render_rows(&p2pb_reporter_markdown, &test_run, 4096, rows, n, &len);
    CHECK(m && strstr(m, "| 0 | 40 | 0.410 | unbounded |") && strstr(m, "- unbounded: 1 row "));
    char *c = render_rows(&p2pb_reporter_csv, &test_run, 4096, rows, n, &len);
    CHECK(c && !strstr(c, "12122652") && !strstr(c, "3.21e-08"));
    free(t);
    free(m);
    free(c);
}

/* -f osu rate tables (not in rows.h): osu_bw for uniband, osu_mbw_mr for
 * multi-uniband with messages/s = bytes_factor / t. By hand: 2 pairs of
 * window 64 (bytes_factor 128), 1 KiB in 50 usec: 128 x 1024 / 50 =
 * 2621.44 MB/s, 128 / 50 usec = 2560000 messages/s. */
static void osu_rate_tables(void)
{
    struct p2pb_result rows[7];
    test_rows(rows);
    struct p2pb_result *u = &rows[0], *m = &rows[1];
    snprintf(u->kernel, sizeof u->kernel, "uniband");
    snprintf(u->variant, sizeof u->variant, "0->1");
    u->bytes = 1024;
    u->bytes_factor = 64;
    u->mbytes_per_sec = 2414.5561;
    snprintf(m->kernel, sizeof m->kernel, "multi-uniband");
    snprintf(m->variant, sizeof m->variant, "aggregate lo->hi");
    m->bytes = 1024;
    m->active_ranks = 4;
    m->nranks = 4;
    m->bytes_factor = 128;
    m->t.median = 50;
    m->mbytes_per_sec = p2pb_mbytes_per_sec(128, 1024, 50);
    size_t len = 0;
    char *o = render_rows(&p2pb_reporter_osu, &test_run, 4096, rows, 2, &len);
    CHECK(o && strstr(o, "# p2pbench 0.1.0: uniband 0->1 in the layout of osu_bw\n"
                         "# p2pbench: 2 of 3 ranks, bytes per iteration = 64 x Size\n"
                         "# Size      Bandwidth (MB/s)\n"
                         "1024                 2414.56\n"));
    CHECK(o && strstr(o, "# p2pbench 0.1.0: multi-uniband aggregate lo->hi in the layout of "
                         "osu_mbw_mr\n"
                         "# p2pbench: 4 of 4 ranks, bytes per iteration = 128 x Size\n"
                         "# Size                  MB/s        Messages/s\n"
                         "1024                 2621.44        2560000.00\n"));
    if (o && !strstr(o, "2560000.00"))
        fprintf(stderr, "osu rate tables:\n%s", o);
    free(o);
}

int main(int argc, char **argv)
{
    unbounded_interval();
    osu_rate_tables();
    if (argc < 2) {
        fprintf(stderr, "usage: %s GOLDEN_DIR (UPDATE_GOLDEN=1: rewrite the files)\n", argv[0]);
        return 2;
    }
    const char *up = getenv("UPDATE_GOLDEN");
    int update = up && strcmp(up, "1") == 0;
    struct p2pb_result rows[7];
    size_t n = test_rows(rows);
    for (size_t i = 0; p2pb_reporters[i]; i++) {
        const struct p2pb_reporter *rep = p2pb_reporters[i];
        size_t len = 0;
        char *buf = render_rows(rep, &test_run, 4096, rows, n, &len);
        char path[1024];
        snprintf(path, sizeof path, "%s/report.%s.txt", argv[1], rep->name);
        if (update) {
            FILE *g = fopen(path, "wb");
            CHECK(g != NULL);
            if (g) {
                fwrite(buf, 1, len, g);
                fclose(g);
            }
        } else {
            size_t glen = 0;
            char *gold = slurp(path, &glen);
            CHECK(gold != NULL);
            int same = gold && glen == len && memcmp(gold, buf, len) == 0;
            if (!same)
                fprintf(stderr, "format %s differs from %s; got:\n%s\n", rep->name, path, buf);
            CHECK(same);
            free(gold);
        }
        free(buf);
    }
    /* significant digits: a positive rate never prints as 0.00 */
    char b[32];
    CHECK(strcmp(p2pb_fmt_sig(b, sizeof b, 0.04123), "0.0412") == 0);
    CHECK(strcmp(p2pb_fmt_sig(b, sizeof b, 0.000123456), "0.000123") == 0);
    CHECK(strcmp(p2pb_fmt_sig(b, sizeof b, 1234.5), "1234.50") == 0);
    CHECK(strcmp(p2pb_fmt_sig(b, sizeof b, 0.0), "0") == 0);
    /* beyond 1e12 and below 1e-9: exponent form, never cut to the buffer */
    CHECK(strcmp(p2pb_fmt_sig(b, sizeof b, 1e40), "1.000e+40") == 0);
    CHECK(strcmp(p2pb_fmt_sig(b, sizeof b, 1.7976931348623157e308), "1.798e+308") == 0);
    CHECK(strcmp(p2pb_fmt_sig(b, sizeof b, 5e-324), "4.941e-324") == 0);
    CHECK(strcmp(p2pb_fmt_sig(b, sizeof b, 999999999999.0), "999999999999.00") == 0);
    CHECK(strcmp(p2pb_fmt_sig(b, sizeof b, 1.5e-9), "0.00000000150") == 0);
    CHECK(strcmp(p2pb_fmt_size(b, sizeof b, 16384), "16K") == 0);
    CHECK(strcmp(p2pb_fmt_size(b, sizeof b, 4194304), "4M") == 0);
    CHECK(strcmp(p2pb_fmt_size(b, sizeof b, 1536), "1.5K") == 0);
    CHECK(strcmp(p2pb_fmt_size(b, sizeof b, 1000), "1000") == 0);
    return CHECK_DONE();
}
