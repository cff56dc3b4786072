/* SPDX-License-Identifier: MIT */
/*
 * imb_ext.c - the IMB-EXT tables of the one-sided kernels (benchmarks/rma.c) in
 * the IMB-compatible layout (docs/kernels.md, "IMB layout"): which IMB-EXT
 * benchmark and mode each kernel's rows print as. IMB-EXT's t[usec] is the
 * time of one transfer of one origin (an iteration of W transfers / W in the
 * aggregate mode) and its Mbytes/sec = X / that time, for Bidir too (one
 * origin's transfers).
 */
#include <stdio.h>
#include <string.h>

#include "kernel_facts.h"
#include "output/imb.h"

int p2pb_imb_ext_describe(const struct p2pb_result *r, struct p2pb_imb_tab *t)
{
    /* the kernel's IMB-EXT name, mode, and how many origins share an
     * iteration's bytes (bytes per iteration = origins x transfers per
     * origin x X): its facts (kernel_facts.c) */
    const struct p2pb_kernel_facts *f = p2pb_kernel_facts(r->kernel);
    if (!f || !f->imb_ext)
        return 0;
    double origins = f->bytes_count;
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "%s", f->imb_ext);
    t->cols = P2PB_IMB_COLS_T;
    t->mode = f->flags & P2PB_FACT_WINDOW ? "AGGREGATE" : "NON-AGGREGATE";
    /* transfers per origin per iteration: bytes_factor / origins (W or 1) */
    t->transfers = r->bytes_factor > 0 ? r->bytes_factor / origins : 1;
    t->rate_div = origins;
    return 1;
}
