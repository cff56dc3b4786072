/* SPDX-License-Identifier: MIT */
/*
 * noise_rows.c - per-rank detour statistics into the rows (noise_rows.h).
 */
#include "noise_rows.h"

#include <stdio.h>
#include <stdlib.h>

/* Index of the active rank with the largest lost_share in all[0..n-1]. */
static int worst_of(const struct p2pb_noise *all, int n)
{
    int w = 0;
    for (int q = 1; q < n; q++)
        if (all[q].valid && (!all[w].valid || all[q].lost_share > all[w].lost_share))
            w = q;
    return w;
}

void p2pb_rows_noise(const struct p2pb_measure *r, struct p2pb_result *rows)
{
    if (!r->k->noise_stats)
        return;
    struct p2pb_noise mine = {0}, *all = NULL;
    if (r->c.active)
        r->k->noise_stats(&r->c, &mine);
    if (r->c.rank == 0 && !(all = calloc((size_t)r->c.nranks, sizeof *all))) {
        fprintf(stderr, "p2pbench: rank 0: out of memory for the noise statistics\n");
        p2pb_mpi_fail("calloc", __FILE__, __LINE__, MPI_SUCCESS);
    }
    P2PB_MPI_CHECK(MPI_Gather(&mine, (int)sizeof mine, MPI_BYTE, all, (int)sizeof mine, MPI_BYTE, 0,
                              r->c.comm));
    if (r->c.rank != 0)
        return;
    if (r->per_group)
        for (int g = 0; g < r->ngroups; g++)
            rows[g].noise = all[p2pb_group_root(r->k, g)];
    rows[r->nout - 1].noise = all[worst_of(all, r->nactive)];
    free(all);
}
