/* SPDX-License-Identifier: MIT */
/*
 * test_probe.c - the placement probe's MPI-free part (src/common/probe.c) on
 * hand-made values: the grouping rule (sorted values, a new group after a gap
 * of more than P2PB_PROBE_GAP = 2x), the median and min of the batches, the
 * pair of a latency row (PingPong, per-pair rows, one-way directions), the
 * floor, the JSON written and read back, and the text table's floor line and
 * f mark (src/common/output/text.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/check.h"
#include "output/output.h"
#include "probe.h"

/* groups of v[0..n-1]; want[i] the expected group of v[i], nwant the count */
static void expect_groups(const double *v, size_t n, const int *want, size_t nwant)
{
    int g[16];
    size_t ng = 99;
    CHECK(p2pb_probe_groups(v, n, g, &ng) == P2PB_OK);
    CHECK(ng == nwant);
    for (size_t i = 0; i < n; i++) {
        CHECK(g[i] == want[i]);
        if (g[i] != want[i])
            fprintf(stderr, "  value %g: group %d, want %d\n", v[i], g[i], want[i]);
    }
}

static void test_groups(void)
{
    /* the two placements of issue 22 in launch order: 45 ns and 220 ns */
    const double a[] = {45, 43, 220, 210, 47, 230};
    expect_groups(a, 6, (const int[]){0, 0, 1, 1, 0, 1}, 2);
    /* one placement with spread below 2x: one group */
    const double b[] = {40, 55, 79.9, 60};
    expect_groups(b, 4, (const int[]){0, 0, 0, 0}, 1);
    /* exactly 2x is no gap; just above it is */
    const double c[] = {10, 20};
    expect_groups(c, 2, (const int[]){0, 0}, 1);
    const double d[] = {20.01, 10};
    expect_groups(d, 2, (const int[]){1, 0}, 2);
    /* four groups: every step above 2x splits */
    const double e[] = {100, 10, 30, 11, 300};
    expect_groups(e, 5, (const int[]){2, 0, 1, 0, 3}, 4);
    /* a chain of small steps never splits: 10, 19, 36 (each < 2x the one before) */
    const double f[] = {36, 10, 19};
    expect_groups(f, 3, (const int[]){0, 0, 0}, 1);
    /* launches without a value (NAN, 0, negative) are left out */
    const double h[] = {NAN, 50, 0, 200, -1};
    expect_groups(h, 5, (const int[]){-1, 0, -1, 1, -1}, 2);
    /* nothing */
    expect_groups(h, 0, NULL, 0);
    const double z[] = {NAN};
    expect_groups(z, 1, (const int[]){-1}, 0);
}

static void test_finish(void)
{
    struct p2pb_probe_pair p = {.nbatches = 4, .batch_ns = {50, 40, 90, 44}};
    p2pb_probe_pair_finish(&p);
    CHECK_NEAR(p.one_way_ns, 47, 1e-12); /* (44 + 50) / 2 */
    CHECK_NEAR(p.min_ns, 40, 1e-12);
    CHECK(!p.complete);
    CHECK_NEAR(p.batch_ns[0], 50, 0); /* the batches keep their time order */
    struct p2pb_probe_pair q = {.nbatches = P2PB_PROBE_BATCHES};
    for (int i = 0; i < P2PB_PROBE_BATCHES; i++)
        q.batch_ns[i] = 100 + i;
    p2pb_probe_pair_finish(&q);
    CHECK_NEAR(q.one_way_ns, 100 + P2PB_PROBE_BATCHES / 2, 1e-12);
    CHECK(q.complete);
    struct p2pb_probe_pair none = {0};
    p2pb_probe_pair_finish(&none);
    CHECK(isnan(none.one_way_ns) && isnan(none.min_ns) && !none.complete);
}

static struct p2pb_result row(const char *variant, double scale, int active, double med)
{
    struct p2pb_result r;
    memset(&r, 0, sizeof r);
    snprintf(r.kernel, sizeof r.kernel, "pingpong");
    snprintf(r.display_name, sizeof r.display_name, "PingPong");
    snprintf(r.variant, sizeof r.variant, "%s", variant);
    r.time_scale = scale;
    r.nranks = r.active_ranks = active;
    r.bytes_factor = 1;
    r.samples = 5;
    r.iterations_per_sample = 10;
    r.t.median = r.t.min = r.t.p99 = med;
    r.status = P2PB_ROW_OK;
    r.ci_target_met = -1;
    return r;
}

static struct p2pb_probe two_pairs(void)
{
    struct p2pb_probe p = {.valid = 1, .npairs = 2, .round_trips = 300, .cap_ms = 5};
    p.pairs[0] = (struct p2pb_probe_pair){
        .ranks = {0, 1}, .cpus = {0, 1}, .nbatches = 3, .batch_ns = {45, 44, 47}, .host = "h0"};
    p.pairs[1] = (struct p2pb_probe_pair){
        .ranks = {2, 3}, .cpus = {-1, -1}, .nbatches = 1, .batch_ns = {230}, .host = "h0"};
    p2pb_probe_pair_finish(&p.pairs[0]);
    p2pb_probe_pair_finish(&p.pairs[1]);
    return p;
}

static void test_rows(void)
{
    int a = -1, b = -1;
    struct p2pb_result r = row("", 0.5, 2, 1.0);
    CHECK(p2pb_probe_row_pair(&r, &a, &b) && a == 0 && b == 1);
    r = row("pair 2-3", 0.5, 4, 1.0);
    CHECK(p2pb_probe_row_pair(&r, &a, &b) && a == 2 && b == 3);
    r = row("aggregate", 0.5, 4, 1.0);
    CHECK(!p2pb_probe_row_pair(&r, &a, &b));
    r = row("", 1.0, 2, 1.0); /* t is a whole iteration: not a one-way latency */
    CHECK(!p2pb_probe_row_pair(&r, &a, &b));
    r = row("pair 2-3x", 0.5, 4, 1.0);
    CHECK(!p2pb_probe_row_pair(&r, &a, &b));
    /* the one-way kernel's directions (t = one way on synchronised clocks) */
    r = row("1->0", 1.0, 2, 1.0);
    CHECK(!p2pb_probe_row_pair(&r, &a, &b)); /* a direction without clocks: Uniband's */
    r.clock.valid = 1;
    CHECK(p2pb_probe_row_pair(&r, &a, &b) && a == 0 && b == 1);

    struct p2pb_probe p = two_pairs();
    r = row("", 0.5, 2, 1.0); /* the floor: the fastest of 45, 44, 47 */
    CHECK_NEAR(p2pb_probe_floor_usec(&p, &r), 0.044, 1e-12);
    r = row("pair 2-3", 0.5, 4, 1.0); /* one batch: no floor (P2PB_PROBE_MIN_BATCHES) */
    CHECK(isnan(p2pb_probe_floor_usec(&p, &r)));
    p.pairs[1].nbatches = 3;
    p.pairs[1].batch_ns[1] = 7620; /* a stretched batch does not lift the floor */
    p.pairs[1].batch_ns[2] = 240;
    p2pb_probe_pair_finish(&p.pairs[1]);
    CHECK_NEAR(p2pb_probe_floor_usec(&p, &r), 0.230, 1e-12);
    CHECK_NEAR(p.pairs[1].one_way_ns, 240, 1e-12);
    r = row("pair 4-5", 0.5, 6, 1.0);
    CHECK(isnan(p2pb_probe_floor_usec(&p, &r)));
    CHECK(isnan(p2pb_probe_floor_usec(NULL, &r)));
    CHECK_NEAR(p2pb_probe_floor01_ns(&p), 44, 1e-12);
    struct p2pb_probe off = {0};
    CHECK(isnan(p2pb_probe_floor01_ns(&off)));
}

static void test_json(void)
{
    struct p2pb_probe p = two_pairs(), back;
    p.cost_ms = 1.25;
    cJSON *run = cJSON_CreateObject();
    cJSON_AddItemToObject(run, "placement_probe", p2pb_probe_json(&p));
    char *s = cJSON_PrintUnformatted(run);
    CHECK_STR_CONTAINS(s, "\"ranks\":[0,1],\"cpus\":[0,1]");
    CHECK_STR_CONTAINS(s, "\"cpus\":[null,null]");
    CHECK_STR_CONTAINS(s, "\"one_way_ns\":45,\"one_way_min_ns\":44,\"batches_ns\":[45,44,47]");
    CHECK_STR_CONTAINS(s, "\"round_trips_per_batch\":300");
    CHECK(p2pb_probe_from_json(run, &back) == 1);
    CHECK(back.npairs == 2 && back.round_trips == 300);
    CHECK_NEAR(back.cost_ms, 1.25, 0);
    CHECK_NEAR(back.pairs[1].one_way_ns, 230, 0);
    CHECK(back.pairs[1].cpus[0] == -1 && strcmp(back.pairs[1].host, "h0") == 0);
    cJSON_free(s);
    cJSON_Delete(run);
    /* not valid: no object written; a record without one reads as none */
    struct p2pb_probe off = {0};
    CHECK(p2pb_probe_json(&off) == NULL);
    cJSON *empty = cJSON_Parse("{\"placement_probe\":{\"pairs\":[{\"ranks\":[0,1],"
                               "\"batches_ns\":[-3]},{\"ranks\":[2]}]}}");
    CHECK(p2pb_probe_from_json(empty, &back) == 1 && back.npairs == 0); /* bad pairs left out */
    cJSON_Delete(empty);
    CHECK(p2pb_probe_from_json(NULL, &back) == 0 && !back.valid);
}

/* The text table: the header line, the floor line of a latency table and
 * the f mark of the row below the floor. */
static void test_text(void)
{
    struct p2pb_probe p = two_pairs();
    struct p2pb_run_info ri = {.version = "0.1.0", .nranks = 2};
    char *buf = NULL;
    size_t len = 0;
    FILE *o = open_memstream(&buf, &len);
    struct p2pb_report_ctx ctx = {.out = o, .run = &ri, .probe = &p, .eager_limit = -1};
    p2pb_reporter_text.begin(&ctx);
    struct p2pb_result r0 = row("", 0.5, 2, 0.040), r1 = row("", 0.5, 2, 0.050);
    r1.bytes = 8;
    p2pb_reporter_text.row(&ctx, &r0);
    p2pb_reporter_text.row(&ctx, &r1);
    p2pb_reporter_text.end(&ctx);
    fclose(o);
    CHECK_STR_CONTAINS(buf, "# placement probe: ranks 0-1 (CPUs 0 and 1): cache-line one-way "
                            "45.00 ns (median of 3 batches, min 44.00 ns), cut short");
    CHECK_STR_CONTAINS(buf, "# placement probe: ranks 2-3 (CPUs unknown): cache-line one-way "
                            "230.00 ns");
    CHECK_STR_CONTAINS(buf, "# placement probe: ranks 0-1 cache-line one-way 44.00 ns (its "
                            "fastest batch: floor of 0-byte latency");
    CHECK_STR_CONTAINS(buf, "\n           0      5f "); /* 0.040 usec < 44 ns */
    CHECK_STR_CONTAINS(buf, "\n           8       5 "); /* 0.050 usec: above */
    CHECK_STR_CONTAINS(buf, "# nf: 1 row whose median t lies below the placement probe's floor");
    CHECK(ctx.below_floor == 1);
    free(buf);
}

int main(void)
{
    test_groups();
    test_finish();
    test_rows();
    test_json();
    test_text();
    return CHECK_DONE();
}
