/* SPDX-License-Identifier: MIT */
/*
 * put_bw: W = --window MPI_Puts of X bytes to W distinct regions of rank 1's
 * window, then one synchronisation; MB/s = W X / t (docs/kernels.md,
 * "One-sided kernels"; rma.c does the work).
 */
#include "rma.h"

static const struct p2pb_rma_def def_put_bw = {0, 1, 0};

static enum p2pb_status setup_put_bw(struct p2pb_kernel_ctx *c)
{
    return p2pb_rma_setup(c, &def_put_bw);
}

const struct p2pb_kernel p2pb_kernel_put_bw = {
    .name = "put_bw",
    .display_name = "Put-BW",
    .summary = "rank 0: W MPI_Puts of X to rank 1, one --rma-sync; MB/s = W X / t (OSU "
               "osu_put_bw, IMB Unidir_Put aggregate)",
    P2PB_RMA_FIELDS,
    .bytes = {1, P2PB_BYTES_WINDOW_X},
    .imb_layout = P2PB_IMB_T,
    .rbuf_regions = P2PB_WINDOW_REGIONS,
    .setup = setup_put_bw,
    .bound_paths = 1,
};
