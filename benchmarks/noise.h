/* SPDX-License-Identifier: MIT */
/*
 * noise.h - internal to benchmarks/ (and its unit test): the detour summary of
 * the noise kernel (noise.c). Not a public header.
 */
#ifndef P2PBENCH_KERNELS_NOISE_H
#define P2PBENCH_KERNELS_NOISE_H

#include <stddef.h>

#include "p2pbench/result.h"

/* Wall time one iteration spins, ns (1 ms). */
#define P2PB_NOISE_QUANTUM_NS 1000000.0
/* Detour durations kept for the quantiles; later ones are counted, summed
 * and enter the maximum, but not the median and p99. */
#define P2PB_NOISE_KEPT 65536
/* Smallest detour threshold, ns: a gap of at least 1 usec. */
#define P2PB_NOISE_MIN_THRESHOLD_NS 1000.0

/* What a rank's loop has seen since setup. Times in ns. */
struct p2pb_noise_acc {
    double threshold_ns; /* a gap longer than this is a detour */
    double spin_ns;      /* time spent in the loop */
    double count;        /* detours */
    double lost_ns;      /* sum of their durations */
    double max_ns;       /* longest */
    double *kept;        /* the first P2PB_NOISE_KEPT durations */
    size_t nkept;
};

/*
 * Threshold from the shortest gap between two clock reads, min_gap_ns:
 * max(P2PB_NOISE_MIN_THRESHOLD_NS, 10 x min_gap_ns), so a slow clock read (a
 * clocksource without vDSO) is not itself a detour.
 */
double p2pb_noise_threshold(double min_gap_ns);

/*
 * Summary of acc into out (usec, share 0..1): detours_per_sec = count /
 * spin_sec; median, p99 (type 7 quantiles of the kept durations; 0 with no
 * detour), max; lost_share = lost_ns / spin_ns (0 when spin_ns is 0).
 * worst_rank = rank. Never fails (without memory for the quantiles they
 * stay 0).
 */
void p2pb_noise_summarize(struct p2pb_noise_acc *acc, int rank, struct p2pb_noise *out);

#endif /* P2PBENCH_KERNELS_NOISE_H */
