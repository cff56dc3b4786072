/* SPDX-License-Identifier: MIT */
/*
 * Noise: a "selfish detour" probe on every rank at once, no messages. One
 * iteration spins for P2PB_NOISE_QUANTUM_NS of wall time reading the
 * monotonic clock; a gap between two consecutive reads longer than the
 * threshold (noise.h) is a detour: time in which the rank did not run (timer
 * and device interrupts, other tasks, a hypervisor descheduling the vCPU).
 * Per rank: detours per second, their median / p99 / max in usec and the
 * share of the loop's time they took (struct p2pb_noise, one row per rank
 * and the worst rank's on the aggregate row). t = one iteration, about the
 * quantum; no bytes are counted. X is not used (default size 0).
 * Method: the "selfish detour" benchmark (Beckman, Iskra, Yoshii, Coghlan,
 * "The Influence of Operating Systems on the Performance of Collective
 * Operations at Extreme Scale", IEEE Cluster 2006), as also found in Netgauge.
 */
#include "noise.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "p2pbench/kernel.h"
#include "p2pbench/stats.h"

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

double p2pb_noise_threshold(double min_gap_ns)
{
    double t = 10.0 * min_gap_ns;
    return t > P2PB_NOISE_MIN_THRESHOLD_NS ? t : P2PB_NOISE_MIN_THRESHOLD_NS;
}

/* Shortest gap between two clock reads in 10000 reads, ns. */
static double min_gap_ns(void)
{
    double best = 1e18, prev = now_ns();
    for (int i = 0; i < 10000; i++) {
        double t = now_ns();
        if (t - prev > 0 && t - prev < best)
            best = t - prev;
        prev = t;
    }
    return best < 1e18 ? best : 0.0;
}

static enum p2pb_status noise_setup(struct p2pb_kernel_ctx *c)
{
    struct p2pb_noise_acc *a = calloc(1, sizeof *a);
    if (a)
        a->kept = malloc(P2PB_NOISE_KEPT * sizeof *a->kept);
    c->priv = a;
    if (!a || !a->kept)
        return P2PB_ENOMEM;
    a->threshold_ns = p2pb_noise_threshold(min_gap_ns());
    return P2PB_OK;
}

static void noise_teardown(struct p2pb_kernel_ctx *c)
{
    struct p2pb_noise_acc *a = c->priv;
    if (a)
        free(a->kept);
    free(a);
    c->priv = NULL;
}

static void add_detour(struct p2pb_noise_acc *a, double gap)
{
    a->count += 1;
    a->lost_ns += gap;
    if (gap > a->max_ns)
        a->max_ns = gap;
    if (a->nkept < P2PB_NOISE_KEPT)
        a->kept[a->nkept++] = gap;
}

static enum p2pb_status noise_iter(struct p2pb_kernel_ctx *c)
{
    struct p2pb_noise_acc *a = c->priv;
    double t0 = now_ns(), prev = t0, t = t0;
    while (t - t0 < P2PB_NOISE_QUANTUM_NS) {
        t = now_ns();
        if (t - prev > a->threshold_ns)
            add_detour(a, t - prev);
        prev = t;
    }
    a->spin_ns += t - t0;
    return P2PB_OK;
}

void p2pb_noise_summarize(struct p2pb_noise_acc *a, int rank, struct p2pb_noise *out)
{
    memset(out, 0, sizeof *out);
    out->valid = 1;
    out->worst_rank = rank;
    out->spin_sec = a->spin_ns / 1e9;
    out->detours = a->count;
    out->threshold_usec = a->threshold_ns / 1e3;
    if (a->spin_ns > 0) {
        out->detours_per_sec = a->count / out->spin_sec;
        out->lost_share = a->lost_ns / a->spin_ns;
    }
    out->max_usec = a->max_ns / 1e3;
    if (a->nkept == 0)
        return;
    double *scratch = malloc(a->nkept * sizeof *scratch);
    struct p2pb_stats st;
    if (scratch && p2pb_stats_compute(a->kept, a->nkept, scratch, &st) == P2PB_OK) {
        out->median_usec = st.median / 1e3;
        out->p99_usec = st.p99 / 1e3;
    }
    free(scratch);
}

static void noise_stats(const struct p2pb_kernel_ctx *c, struct p2pb_noise *out)
{
    p2pb_noise_summarize(c->priv, c->rank, out);
}

static const size_t noise_sizes[] = {0};

const struct p2pb_kernel p2pb_kernel_noise = {
    .name = "noise",
    .display_name = "Noise",
    .summary = "every rank spins 1 ms per iteration reading the clock; detours per rank "
               "(no messages)",
    .min_ranks = 1,
    .max_ranks = 0,
    .participation = P2PB_PART_SELF,
    .time_scale = 1.0,
    .bytes = {0, P2PB_BYTES_X},
    .rank_reduce = P2PB_REDUCE_MAX,
    .imb_layout = P2PB_IMB_T,
    .sbuf_regions = 1,
    .rbuf_regions = 1,
    .setup = noise_setup,
    .run_iter = noise_iter,
    .teardown = noise_teardown,
    .flags = P2PB_KF_PER_GROUP | P2PB_KF_EVERY_RANK | P2PB_KF_NO_MPI,
    .default_sizes = noise_sizes,
    .ndefault_sizes = 1,
    .noise_stats = noise_stats,
};
