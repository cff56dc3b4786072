/* SPDX-License-Identifier: MIT */
/*
 * put_bibw: both ranks put W messages of X bytes to each other, then
 * synchronise; MB/s = 2 W X / t (docs/kernels.md, "One-sided kernels"; rma.c
 * does the work).
 */
#include "rma.h"

static const struct p2pb_rma_def def_put_bibw = {0, 1, 1};

static enum p2pb_status setup_put_bibw(struct p2pb_kernel_ctx *c)
{
    return p2pb_rma_setup(c, &def_put_bibw);
}

const struct p2pb_kernel p2pb_kernel_put_bibw = {
    .name = "put_bibw",
    .display_name = "Put-BiBW",
    .summary = "both ranks: W MPI_Puts of X to the other, one --rma-sync; MB/s = 2 W X / t "
               "(OSU osu_put_bibw, IMB Bidir_Put aggregate)",
    P2PB_RMA_FIELDS,
    .bytes = {2, P2PB_BYTES_WINDOW_X},
    .imb_layout = P2PB_IMB_T,
    .rbuf_regions = P2PB_WINDOW_REGIONS,
    .setup = setup_put_bibw,
    .bound_paths = 2,
};
