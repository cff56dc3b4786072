/* SPDX-License-Identifier: MIT */
/*
 * get_bibw: both ranks get W messages of X bytes from each other, then
 * synchronise; MB/s = 2 W X / t (docs/kernels.md, "One-sided kernels"; rma.c
 * does the work).
 */
#include "rma.h"

static const struct p2pb_rma_def def_get_bibw = {1, 1, 1};

static enum p2pb_status setup_get_bibw(struct p2pb_kernel_ctx *c)
{
    return p2pb_rma_setup(c, &def_get_bibw);
}

const struct p2pb_kernel p2pb_kernel_get_bibw = {
    .name = "get_bibw",
    .display_name = "Get-BiBW",
    .summary = "both ranks: W MPI_Gets of X from the other, one --rma-sync; MB/s = 2 W X / t "
               "(IMB Bidir_Get aggregate)",
    P2PB_RMA_FIELDS,
    .bytes = {2, P2PB_BYTES_WINDOW_X},
    .imb_layout = P2PB_IMB_T,
    .rbuf_regions = P2PB_WINDOW_REGIONS,
    .setup = setup_get_bibw,
    .bound_paths = 2,
};
