/* SPDX-License-Identifier: MIT */
/*
 * put_latency: MPI_Put of X bytes to rank 1, then the synchronisation; t =
 * one iteration; MB/s = X / t (docs/kernels.md, "One-sided kernels"; rma.c
 * does the work).
 */
#include "rma.h"

static const struct p2pb_rma_def def_put_lat = {0, 0, 0};

static enum p2pb_status setup_put_lat(struct p2pb_kernel_ctx *c)
{
    return p2pb_rma_setup(c, &def_put_lat);
}

const struct p2pb_kernel p2pb_kernel_put_latency = {
    .name = "put_latency",
    .display_name = "Put-Latency",
    .summary = "rank 0: one MPI_Put of X to rank 1 + --rma-sync; t = one put (OSU "
               "osu_put_latency, IMB Unidir_Put non-aggregate)",
    P2PB_RMA_FIELDS,
    .bytes = {1, P2PB_BYTES_X},
    .imb_layout = P2PB_IMB_T,
    .rbuf_regions = 1,
    .setup = setup_put_lat,
    .bound_paths = 1,
};
