/* SPDX-License-Identifier: MIT */
/*
 * imb_ext.c - the IMB-EXT tables of the one-sided kernels (kernels/rma.c) in
 * the IMB-compatible layout (docs/kernels.md, "IMB layout"): which IMB-EXT
 * benchmark and mode each kernel's rows print as. IMB-EXT's t[usec] is the
 * time of one transfer of one origin (an iteration of W transfers / W in the
 * aggregate mode) and its Mbytes/sec = X / that time, for Bidir too (one
 * origin's transfers).
 */
#include <stdio.h>
#include <string.h>

#include "output/imb.h"

/* One kernel's IMB-EXT table: its name, mode, and how many origins share
 * an iteration's bytes (the kernel's bytes per iteration = origins x
 * transfers per origin x X). */
struct imb_ext_map {
    const char *kernel;
    const char *name;
    int aggregate;
    double origins;
};

static const struct imb_ext_map imb_ext_maps[] = {
    {"put_latency", "Unidir_Put", 0, 1}, {"get_latency", "Unidir_Get", 0, 1},
    {"put_bw", "Unidir_Put", 1, 1},      {"get_bw", "Unidir_Get", 1, 1},
    {"put_bibw", "Bidir_Put", 1, 2},     {"get_bibw", "Bidir_Get", 1, 2},
};

int p2pb_imb_ext_describe(const struct p2pb_result *r, struct p2pb_imb_tab *t)
{
    for (size_t i = 0; i < sizeof imb_ext_maps / sizeof imb_ext_maps[0]; i++) {
        const struct imb_ext_map *m = &imb_ext_maps[i];
        if (strcmp(r->kernel, m->kernel) != 0)
            continue;
        memset(t, 0, sizeof *t);
        snprintf(t->name, sizeof t->name, "%s", m->name);
        t->cols = P2PB_IMB_COLS_T;
        t->mode = m->aggregate ? "AGGREGATE" : "NON-AGGREGATE";
        /* transfers per origin per iteration: bytes_factor / origins (W or 1) */
        t->transfers = r->bytes_factor > 0 ? r->bytes_factor / m->origins : 1;
        t->rate_div = m->origins;
        return 1;
    }
    return 0;
}
