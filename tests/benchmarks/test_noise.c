/* SPDX-License-Identifier: MIT */
/*
 * Unit tests (no MPI) of the noise kernel's detour summary (benchmarks/noise.h)
 * and of the "noise" object of a result record (result_extras.c): values
 * worked out by hand from synthetic detour lists.
 */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "../../benchmarks/noise.h"
#include "../lib/check.h"

static void test_threshold(void)
{
    CHECK_NEAR(p2pb_noise_threshold(20.0), 1000.0, 0);  /* 10 x 20 ns < 1 usec floor */
    CHECK_NEAR(p2pb_noise_threshold(500.0), 5000.0, 0); /* a slow clock: 10 x its read */
    CHECK_NEAR(p2pb_noise_threshold(0.0), 1000.0, 0);
}

static void test_summary(void)
{
    /* 0.5 s of spinning, 5 detours of 2, 4, 6, 8, 1000 usec (in ns) */
    double kept[5] = {8000, 2000, 1000000, 4000, 6000};
    struct p2pb_noise_acc a = {.threshold_ns = 1000,
                               .spin_ns = 5e8,
                               .count = 5,
                               .lost_ns = 1020000,
                               .max_ns = 1000000,
                               .kept = kept,
                               .nkept = 5};
    struct p2pb_noise n;
    p2pb_noise_summarize(&a, 3, &n);
    CHECK(n.valid == 1 && n.worst_rank == 3);
    CHECK_NEAR(n.spin_sec, 0.5, 1e-12);
    CHECK_NEAR(n.detours, 5, 0);
    CHECK_NEAR(n.detours_per_sec, 10.0, 1e-9); /* 5 / 0.5 s */
    CHECK_NEAR(n.median_usec, 6.0, 1e-9);      /* sorted 2 4 6 8 1000 */
    /* type 7 p99: position 0.99 x 4 = 3.96 -> 8 + 0.96 x (1000 - 8) = 960.32 */
    CHECK_NEAR(n.p99_usec, 960.32, 1e-9);
    CHECK_NEAR(n.max_usec, 1000.0, 0);
    CHECK_NEAR(n.lost_share, 1020000.0 / 5e8, 1e-15); /* 0.204% */
    CHECK_NEAR(n.threshold_usec, 1.0, 0);

    /* a quiet rank: no detour at all */
    struct p2pb_noise_acc q = {.threshold_ns = 1000, .spin_ns = 1e9, .kept = kept, .nkept = 0};
    p2pb_noise_summarize(&q, 0, &n);
    CHECK(n.valid && n.detours == 0 && n.detours_per_sec == 0 && n.median_usec == 0 &&
          n.p99_usec == 0 && n.max_usec == 0 && n.lost_share == 0);
    /* nothing spun: no division by zero */
    struct p2pb_noise_acc z = {.threshold_ns = 1000};
    p2pb_noise_summarize(&z, 0, &n);
    CHECK(n.detours_per_sec == 0 && n.lost_share == 0);
}

static void test_json(void)
{
    struct p2pb_noise n = {.valid = 1,
                           .spin_sec = 0.5,
                           .detours = 5,
                           .detours_per_sec = 10,
                           .median_usec = 6,
                           .p99_usec = 960.32,
                           .max_usec = 1000,
                           .lost_share = 0.00204,
                           .threshold_usec = 1,
                           .worst_rank = 3},
                      back;
    char err[200];
    cJSON *o = cJSON_CreateObject();
    p2pb_noise_to_json(&n, o);
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, "noise");
    CHECK(cJSON_IsObject(j));
    CHECK_NEAR(cJSON_GetObjectItemCaseSensitive(j, "detour_p99_usec")->valuedouble, 960.32, 0);
    CHECK(p2pb_noise_from_json(o, &back, err, sizeof err) == P2PB_OK);
    CHECK(back.valid && back.worst_rank == 3 && back.max_usec == 1000 &&
          back.lost_share == 0.00204);
    cJSON_Delete(o);

    o = cJSON_CreateObject(); /* not a noise row: nothing written, nothing read */
    n.valid = 0;
    p2pb_noise_to_json(&n, o);
    CHECK(cJSON_GetObjectItemCaseSensitive(o, "noise") == NULL);
    CHECK(p2pb_noise_from_json(o, &back, err, sizeof err) == P2PB_OK && !back.valid);
    cJSON_Delete(o);

    o = cJSON_Parse("{\"noise\":{\"spin_sec\":1,\"detours\":\"many\"}}");
    CHECK(p2pb_noise_from_json(o, &back, err, sizeof err) == P2PB_EFORMAT);
    CHECK_STR_CONTAINS(err, "noise.detours");
    cJSON_Delete(o);
}

int main(void)
{
    test_threshold();
    test_summary();
    test_json();
    return CHECK_DONE();
}
