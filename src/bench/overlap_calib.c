/* SPDX-License-Identifier: MIT */
/*
 * overlap_calib.c - the compute loop of an overlap kernel calibrated on the
 * rank that runs it, and the overlap row's percentage. See overlap_calib.h.
 */
#include <math.h>

#include "mpi_util.h"
#include "overlap.h"
#include "overlap_calib.h"

/* Duration of one call of k->compute(n), ns. */
static double time_call(const struct p2pb_kernel *k, uint64_t n)
{
    uint64_t t0 = p2pb_now_ns();
    k->compute(n);
    return (double)(p2pb_now_ns() - t0);
}

/* Steps of k->compute that last target_ns on this rank (0: none). */
static size_t steps_for(const struct p2pb_kernel *k, double target_ns)
{
    if (!(target_ns > 0) || !isfinite(target_ns))
        return 0;
    const double span = target_ns > P2PB_OVERLAP_CAL_MIN_NS ? target_ns : P2PB_OVERLAP_CAL_MIN_NS;
    uint64_t n = 1;
    while (time_call(k, n) < span && n < ((uint64_t)1 << 40))
        n *= 2;
    double best = INFINITY;
    for (int i = 0; i < P2PB_OVERLAP_CAL_REPS; i++) {
        double t = time_call(k, n);
        best = t < best ? t : best;
    }
    if (!(best > 0))
        return 0;
    return (size_t)llround(target_ns * (double)n / best);
}

void p2pb_overlap_calibrate(MPI_Comm comm, const struct p2pb_kernel *k, int active,
                            double *pure_usec, size_t n, double factor, size_t *steps, int *zero)
{
    P2PB_MPI_CHECK(MPI_Bcast(pure_usec, (int)n, MPI_DOUBLE, 0, comm));
    for (size_t i = 0; i < n; i++) {
        steps[i] = active && k->compute ? steps_for(k, factor * pure_usec[i] * 1000.0) : 0;
        zero[i] = active && steps[i] == 0;
    }
    P2PB_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, zero, (int)n, MPI_INT, MPI_MAX, comm));
}

void p2pb_overlap_row(const struct p2pb_result *pure, const struct p2pb_result *cpu,
                      struct p2pb_result *ovl, int no_compute)
{
    if (ovl->status != P2PB_ROW_OK)
        return;
    double tp = pure->status == P2PB_ROW_OK ? pure->t.median : NAN;
    double tc = cpu->status == P2PB_ROW_OK ? cpu->t.median : NAN;
    p2pb_overlap_fill(&ovl->overlap, tp, tc, ovl->t.median, no_compute);
}
