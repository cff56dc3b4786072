/* SPDX-License-Identifier: MIT */
/*
 * timer.c - the clock (CLOCK_MONOTONIC, ns) and its overhead and resolution,
 * measured once at start-up (docs/methodology.md, "Timer"); calibration.c
 * uses them to choose the iterations per sample.
 */
#include <stdlib.h>
#include <time.h>

#include "harness.h"

uint64_t p2pb_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

void p2pb_timer_measure(struct p2pb_timer_info *ti)
{
    enum { ROUNDS = 15, READS = 2000 };
    uint64_t per_round[ROUNDS];
    uint64_t min_step = UINT64_MAX;
    for (int r = 0; r < ROUNDS; r++) {
        uint64_t start = p2pb_now_ns(), prev = start;
        for (int i = 0; i < READS; i++) {
            uint64_t now = p2pb_now_ns();
            if (now > prev && now - prev < min_step)
                min_step = now - prev;
            prev = now;
        }
        per_round[r] = prev - start;
    }
    qsort(per_round, ROUNDS, sizeof per_round[0], cmp_u64);
    ti->source = "clock_gettime(CLOCK_MONOTONIC)";
    ti->overhead_ns = (double)per_round[ROUNDS / 2] / READS;
    struct timespec res;
    double getres = 1.0;
    if (clock_getres(CLOCK_MONOTONIC, &res) == 0)
        getres = (double)res.tv_sec * 1e9 + (double)res.tv_nsec;
    /* The effective resolution is the coarser of the advertised one and the
     * smallest step actually observed between two reads. */
    double observed = min_step == UINT64_MAX ? getres : (double)min_step;
    ti->resolution_ns = observed > getres ? observed : getres;
}
