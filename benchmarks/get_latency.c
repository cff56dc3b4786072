/* SPDX-License-Identifier: MIT */
/*
 * get_latency: MPI_Get of X bytes from rank 1, then the synchronisation; t =
 * one iteration; MB/s = X / t (docs/kernels.md, "One-sided kernels"; rma.c
 * does the work).
 */
#include "rma.h"

static const struct p2pb_rma_def def_get_lat = {1, 0, 0};

static enum p2pb_status setup_get_lat(struct p2pb_kernel_ctx *c)
{
    return p2pb_rma_setup(c, &def_get_lat);
}

const struct p2pb_kernel p2pb_kernel_get_latency = {
    .name = "get_latency",
    .display_name = "Get-Latency",
    .summary = "rank 0: one MPI_Get of X from rank 1 + --rma-sync; t = one get (OSU "
               "osu_get_latency, IMB Unidir_Get non-aggregate)",
    P2PB_RMA_FIELDS,
    .bytes = {1, P2PB_BYTES_X},
    .imb_layout = P2PB_IMB_T,
    .rbuf_regions = 1,
    .setup = setup_get_lat,
    .bound_paths = 1,
};
