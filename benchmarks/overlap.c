/* SPDX-License-Identifier: MIT */
/*
 * Overlap: how much of a non-blocking exchange between ranks 0 and 1 the
 * MPI library completes while the ranks compute (docs/kernels.md,
 * "Overlap"). One iteration, by phase (kernel.h P2PB_KF_OVERLAP, one row
 * variant each): "pure" both ranks post MPI_Irecv and MPI_Isend of X bytes
 * to each other and MPI_Waitall; "cpu" compute(compute_iters) alone;
 * "overlap" post, compute, wait. An exchange rather than a ping-pong: both
 * ranks have a transfer in flight during their compute, where a pong could
 * only be posted after the ping arrived. No MPI call between post and wait:
 * the row measures what the library progresses on its own. Bytes counted
 * 2X per iteration (each rank sends X and receives X, as Sendrecv).
 */
#include "p2pbench/kernel.h"

enum { TAG = 131 };

/* The compute loop's result, written after every call: the loop cannot be
 * removed, and its start value is unknown to the compiler. */
static volatile double overlap_sink;

/* steps dependent multiply-adds (each waits for the one before: no
 * vectorising, no folding into a closed form in IEEE arithmetic). */
static void overlap_compute(uint64_t steps)
{
    double x = overlap_sink;
    for (uint64_t i = 0; i < steps; i++)
        x = x * 0.999999 + 1.0;
    overlap_sink = x;
}

static enum p2pb_status overlap_iter(struct p2pb_kernel_ctx *c)
{
    MPI_Request req[2];
    MPI_Status st[2]; /* not MPI_STATUSES_IGNORE: gcc's -Wstringop-overflow under MPICH */
    if (c->phase == P2PB_OVL_CPU) {
        overlap_compute(c->compute_iters);
        return P2PB_OK;
    }
    P2PB_KCALL(MPI_Irecv(c->rbuf, c->count, c->dtype, c->peer, TAG, c->comm, &req[0]));
    P2PB_KCALL(MPI_Isend(c->sbuf, c->count, c->dtype, c->peer, TAG, c->comm, &req[1]));
    if (c->phase == P2PB_OVL_OVERLAP)
        overlap_compute(c->compute_iters);
    P2PB_KCALL(MPI_Waitall(2, req, st));
    return P2PB_OK;
}

static enum p2pb_status overlap_verify(const struct p2pb_kernel_ctx *c, size_t *bad)
{
    if (c->phase == P2PB_OVL_CPU) /* nothing received */
        return P2PB_OK;
    return p2pb_pattern_check(c->rbuf, c->bytes, c->peer, c->iter, bad);
}


/* overlap's option (option.h). */
static const struct p2pb_optdef overlap_options[] = {
    P2PB_OPT(0, "overlap-compute", 0, P2PB_OPT_FRACTION, "F", .min = 0, .max = 100,
             .def_text = "1", .def = 1, P2PB_KSET_FIELD(overlap_compute),
             .help = "overlap kernel: the compute lasts F x the pure transfer's median at each "
                     "size (default {def}); 0: no compute, the overlap is undefined"),
};

const struct p2pb_kernel p2pb_kernel_overlap = {
    .name = "overlap",
    .display_name = "Overlap",
    .summary = "Isend+Irecv X each way, Waitall; rows pure (t_pure), cpu (compute alone, "
               "calibrated to t_pure), overlap (post, compute, wait) and the overlap %",
    .min_ranks = 2,
    .max_ranks = 2,
    .participation = P2PB_PART_PAIR,
    .time_scale = 1.0,
    .bytes = {2, P2PB_BYTES_X},
    .rank_reduce = P2PB_REDUCE_MAX,
    .imb_layout = P2PB_IMB_TMINMAXAVG,
    .sbuf_regions = 1,
    .rbuf_regions = 1,
    .run_iter = overlap_iter,
    .verify = overlap_verify,
    .flags = P2PB_KF_OVERLAP,
    .optdefs = overlap_options,
    .n_optdefs = sizeof overlap_options / sizeof overlap_options[0],
    .bound_paths = 2,
    .compute = overlap_compute,
};
