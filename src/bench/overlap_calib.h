/* SPDX-License-Identifier: MIT */
/*
 * overlap_calib.h - the harness's side of an overlap kernel (kernel.h
 * P2PB_KF_OVERLAP; docs/kernels.md, "Overlap"): the compute loop calibrated
 * on each rank that runs it, between the "pure" and "cpu" phases, and the
 * overlap percentage of the three rows of a size. The suite (suite.c) runs
 * the phases one after the other and calls these in between.
 */
#ifndef P2PBENCH_OVERLAP_CALIB_H
#define P2PBENCH_OVERLAP_CALIB_H

#include <stddef.h>

#include "harness.h"

/*
 * Collective, off every timed path. pure_usec[0..n-1]: rank 0's "pure"
 * medians per size (usec; NAN: no median), sent to every rank. Each active
 * rank (active = 1) times k->compute on itself and writes to steps[i] the
 * steps that last factor x pure_usec[i] (0 when that is 0, not finite, or
 * shorter than half a step); inactive ranks write 0. zero[i] (every rank):
 * 1 when an active rank got 0 steps. Timing: steps doubled from 1 until a
 * call lasts at least max(target, P2PB_OVERLAP_CAL_MIN_NS), then the
 * fastest of P2PB_OVERLAP_CAL_REPS calls of that count gives ns per step.
 */
#define P2PB_OVERLAP_CAL_MIN_NS 200000.0
#define P2PB_OVERLAP_CAL_REPS 3
void p2pb_overlap_calibrate(MPI_Comm comm, const struct p2pb_kernel *k, int active,
                            double *pure_usec, size_t n, double factor, size_t *steps, int *zero);

/*
 * Rank 0: the overlap row's percentage (result.h struct p2pb_overlap) from
 * the medians of the three rows of one size; a row without numbers gives a
 * missing time (undefined). no_compute: zero[i] of p2pb_overlap_calibrate.
 */
void p2pb_overlap_row(const struct p2pb_result *pure, const struct p2pb_result *cpu,
                      struct p2pb_result *ovl, int no_compute);

#endif /* P2PBENCH_OVERLAP_CALIB_H */
