/* SPDX-License-Identifier: MIT */
/*
 * get_bw: W MPI_Gets of X bytes into W distinct regions of rank 0, then one
 * synchronisation; MB/s = W X / t (docs/kernels.md, "One-sided kernels";
 * rma.c does the work).
 */
#include "rma.h"

static const struct p2pb_rma_def def_get_bw = {1, 1, 0};

static enum p2pb_status setup_get_bw(struct p2pb_kernel_ctx *c)
{
    return p2pb_rma_setup(c, &def_get_bw);
}

const struct p2pb_kernel p2pb_kernel_get_bw = {
    .name = "get_bw",
    .display_name = "Get-BW",
    .summary = "rank 0: W MPI_Gets of X from rank 1, one --rma-sync; MB/s = W X / t (OSU "
               "osu_get_bw, IMB Unidir_Get aggregate)",
    P2PB_RMA_FIELDS,
    .bytes = {1, P2PB_BYTES_WINDOW_X},
    .imb_layout = P2PB_IMB_T,
    .rbuf_regions = P2PB_WINDOW_REGIONS,
    .setup = setup_get_bw,
    .bound_paths = 1,
};
