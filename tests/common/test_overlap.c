/* SPDX-License-Identifier: MIT */
/*
 * test_overlap.c - the overlap percentage (src/common/overlap.c) on values
 * worked out by hand, its undefined cases, the "overlap" object and its
 * reader, and every table format printing the formula, the percentage and
 * "undefined" (hand-made rows through the reporters).
 */
#include <math.h>
#include <stdlib.h>

#include <cjson/cJSON.h>

#include "../lib/check.h"
#include "overlap.h"
#include "render.h"

/* The formula, 100 * max(0, min(1, (t_pure + t_cpu - t_ovrl) / min(t_pure, t_cpu))),
 * against values computed by hand. */
static void test_formula(void)
{
    const char *why = NULL;
    /* equal parts, fully hidden: (10 + 10 - 10) / 10 = 1 */
    CHECK_NEAR(p2pb_overlap_percent(10, 10, 10, &why), 100, 1e-12);
    CHECK(why && why[0] == '\0');
    /* half hidden: (20 - 15) / 10 */
    CHECK_NEAR(p2pb_overlap_percent(10, 10, 15, &why), 50, 1e-12);
    /* serial: nothing hidden */
    CHECK_NEAR(p2pb_overlap_percent(10, 10, 20, &why), 0, 1e-12);
    /* shorter compute: hidden (15 - 12) = 3 of at most t_cpu = 5 (OSU's rule
     * would say 100 * (1 - (12 - 5) / 10) = 30) */
    CHECK_NEAR(p2pb_overlap_percent(10, 5, 12, &why), 60, 1e-9);
    /* shorter transfer: hidden (14 - 11) = 3 of at most t_pure = 4 */
    CHECK_NEAR(p2pb_overlap_percent(4, 10, 11, &why), 75, 1e-9);
    /* t_ovrl below t_cpu (faster than its own compute: noise): clamped to 100 */
    CHECK_NEAR(p2pb_overlap_percent(10, 10, 8, &why), 100, 1e-12);
    CHECK(why[0] == '\0');
    /* t_ovrl above t_pure + t_cpu (overlapping made it slower): clamped to 0 */
    CHECK_NEAR(p2pb_overlap_percent(10, 10, 25, &why), 0, 1e-12);
    CHECK(why[0] == '\0');
}

static void test_undefined(void)
{
    const char *why = NULL;
    CHECK(isnan(p2pb_overlap_percent(10, 0, 10, &why))); /* no compute */
    CHECK_STR_CONTAINS(why, "t_cpu = 0");
    CHECK(isnan(p2pb_overlap_percent(0, 10, 10, &why))); /* no transfer time */
    CHECK_STR_CONTAINS(why, "t_pure = 0");
    CHECK(isnan(p2pb_overlap_percent(0, 0, 0, &why)));
    CHECK_STR_CONTAINS(why, "t_pure = 0");
    CHECK(isnan(p2pb_overlap_percent(10, 10, NAN, &why))); /* a phase without a median */
    CHECK_STR_CONTAINS(why, "missing");
    CHECK(isnan(p2pb_overlap_percent(-1, 10, 10, &why)));
    CHECK_STR_CONTAINS(why, "missing");
    CHECK(isnan(p2pb_overlap_percent(10, INFINITY, 10, &why)));
    CHECK_STR_CONTAINS(why, "missing");
    /* a compute loop of 0 steps: undefined whatever t_cpu was measured */
    struct p2pb_overlap o;
    p2pb_overlap_fill(&o, 10, 0.02, 10.5, 1);
    CHECK(o.valid == 1 && isnan(o.percent));
    CHECK_STR_CONTAINS(o.undefined, "0 steps");
    CHECK_NEAR(o.t_cpu_usec, 0.02, 1e-15); /* the measured median is kept */
    p2pb_overlap_fill(&o, 10, 10, 15, 0);
    CHECK(o.valid == 1 && o.undefined[0] == '\0');
    CHECK_NEAR(o.percent, 50, 1e-12);
}

static void test_json(void)
{
    struct p2pb_overlap a, b;
    char err[256];
    p2pb_overlap_fill(&a, 10, 5, 12, 0);
    cJSON *o = cJSON_CreateObject();
    p2pb_overlap_to_json(&a, o);
    char *s = cJSON_PrintUnformatted(o);
    CHECK_STR_CONTAINS(s, "\"percent\":60");
    CHECK_STR_CONTAINS(s, "\"formula\":\"" P2PB_OVERLAP_FORMULA "\"");
    CHECK(strstr(s, "undefined") == NULL);
    CHECK(p2pb_overlap_from_json(o, &b, err, sizeof err) == P2PB_OK);
    CHECK(b.valid && fabs(b.percent - 60) < 1e-9 && b.t_pure_usec == 10 && b.t_cpu_usec == 5 &&
          b.t_ovrl_usec == 12);
    free(s);
    cJSON_Delete(o);
    /* undefined: percent null and the reason */
    p2pb_overlap_fill(&a, 10, 0, 10, 0);
    o = cJSON_CreateObject();
    p2pb_overlap_to_json(&a, o);
    s = cJSON_PrintUnformatted(o);
    CHECK_STR_CONTAINS(s, "\"percent\":null");
    CHECK_STR_CONTAINS(s, "\"undefined\":\"no compute time (t_cpu = 0)\"");
    CHECK(p2pb_overlap_from_json(o, &b, err, sizeof err) == P2PB_OK);
    CHECK(b.valid && isnan(b.percent));
    CHECK_STR_CONTAINS(b.undefined, "t_cpu = 0");
    free(s);
    cJSON_Delete(o);
    /* absent: not valid; broken: refused naming the field */
    o = cJSON_Parse("{}");
    CHECK(p2pb_overlap_from_json(o, &b, err, sizeof err) == P2PB_OK && !b.valid);
    cJSON_Delete(o);
    static const char *const broken[] = {
        "{\"overlap\":1}",
        "{\"overlap\":{\"t_pure_usec\":\"x\",\"t_cpu_usec\":1,\"t_ovrl_usec\":1,\"percent\":1}}",
        "{\"overlap\":{\"t_pure_usec\":1,\"t_cpu_usec\":1,\"t_ovrl_usec\":1,\"percent\":150}}",
        "{\"overlap\":{\"t_pure_usec\":1,\"t_cpu_usec\":1,\"t_ovrl_usec\":1,\"percent\":null}}",
        "{\"overlap\":{\"t_pure_usec\":1,\"t_cpu_usec\":-1,\"t_ovrl_usec\":1,\"percent\":5}}"};
    for (size_t i = 0; i < sizeof broken / sizeof broken[0]; i++) {
        o = cJSON_Parse(broken[i]);
        CHECK(o && p2pb_overlap_from_json(o, &b, err, sizeof err) == P2PB_EFORMAT);
        CHECK_STR_CONTAINS(err, "\"overlap");
        cJSON_Delete(o);
    }
}

/* Three rows of an overlap kernel at one size: pure, cpu, overlap. */
static void overlap_rows(struct p2pb_result *rows, int undefined)
{
    static const char *const v[] = {"pure", "cpu", "overlap"};
    static const double med[] = {10, 10, 15};
    memset(rows, 0, 3 * sizeof *rows);
    for (int i = 0; i < 3; i++) {
        struct p2pb_result *r = &rows[i];
        snprintf(r->kernel, sizeof r->kernel, "overlap");
        snprintf(r->display_name, sizeof r->display_name, "Overlap");
        snprintf(r->variant, sizeof r->variant, "%s", v[i]);
        r->bytes = 1000;
        r->nranks = r->active_ranks = 2;
        r->bytes_factor = i == 1 ? 0 : 2;
        r->time_scale = 1;
        r->samples = 10;
        r->iterations_per_sample = 4;
        r->t.median = r->t.min = r->t.p99 = r->t.mean = r->t_max_usec = med[i];
        r->imb_layout = P2PB_IMB_TMINMAXAVG;
        r->asymmetry = NAN;
        r->ci_target_met = -1;
    }
    p2pb_overlap_fill(&rows[2].overlap, 10, 10, 15, undefined);
}

static void test_formats(void)
{
    static const char *const names[] = {"text", "markdown", "csv", "imb", "osu"};
    struct p2pb_result rows[3];
    for (int undefined = 0; undefined < 2; undefined++) {
        overlap_rows(rows, undefined);
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
            const struct p2pb_reporter *rep = p2pb_reporter_find(names[i]);
            size_t len = 0;
            char *out = rep ? render_rows(rep, NULL, -1, rows, 3, &len) : NULL;
            CHECK(out != NULL);
            if (!out)
                continue;
            if (strcmp(names[i], "csv") == 0) { /* the columns, then the row's values */
                CHECK_STR_CONTAINS(out, ",overlap_pct,overlap_undefined,overlap_formula\n");
                CHECK_STR_CONTAINS(out, undefined ? ",,no compute time (t_cpu = 0: the compute "
                                                    "loop ran 0 steps),\"overlap[%] = 100 * max("
                                                  : ",50,,\"overlap[%] = 100 * max(");
            } else {
                CHECK_STR_CONTAINS(out, P2PB_OVERLAP_FORMULA);
                CHECK_STR_CONTAINS(out, undefined ? "undefined" : "50.0");
            }
            if (undefined)
                CHECK_STR_CONTAINS(out, "0 steps");
            free(out);
        }
    }
}

int main(void)
{
    test_formula();
    test_undefined();
    test_json();
    test_formats();
    return CHECK_DONE();
}
