/* SPDX-License-Identifier: MIT */
/*
 * noise_rows.h - the noise kernel's per-rank detour statistics into the
 * rows of one (kernel, size) (kernel.h, noise_stats; result.h, struct
 * p2pb_noise).
 */
#ifndef P2PBENCH_NOISE_ROWS_H
#define P2PBENCH_NOISE_ROWS_H

#include "measure.h"

/*
 * For a kernel with noise_stats: every active rank's statistics to rank 0
 * (one MPI_Gather), rank 0 puts each group's root rank's into the group's
 * row and the rank with the largest lost_share into the last (aggregate or
 * only) row, worst_rank naming it. Collective over r's communicator; does
 * nothing for other kernels. Aborts the job like P2PB_MPI_CHECK when MPI or
 * a small allocation (nranks structs on rank 0) fails.
 */
void p2pb_rows_noise(const struct p2pb_measure *r, struct p2pb_result *rows);

#endif /* P2PBENCH_NOISE_ROWS_H */
