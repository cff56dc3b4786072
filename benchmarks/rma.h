/* SPDX-License-Identifier: MIT */
/*
 * rma.h - internal to benchmarks/: what the one-sided kernels share (rma.c):
 * the steps of the kernel contract for any of them, their options, and the
 * descriptor fields they have in common. Each kernel's file gives its
 * struct p2pb_rma_def and its descriptor. Not a public header.
 */
#ifndef P2PBENCH_KERNELS_RMA_H
#define P2PBENCH_KERNELS_RMA_H

#include "p2pbench/kernel.h"

/* What a kernel of the family does. */
struct p2pb_rma_def {
    int get;      /* 1: MPI_Get, 0: MPI_Put */
    int windowed; /* 1: W operations per iteration, 0: one */
    int bidir;    /* 1: both ranks are origin and target */
};

/* The pair communicator, the window (--rma-window) and the epochs that last
 * the size (--rma-sync) for kernel d; ctx->priv holds them. P2PB_OK,
 * P2PB_ENOMEM or P2PB_EMPI. */
enum p2pb_status p2pb_rma_setup(struct p2pb_kernel_ctx *c, const struct p2pb_rma_def *d);
/* One iteration: the origin's operations and the synchronisation. */
enum p2pb_status p2pb_rma_iter(struct p2pb_kernel_ctx *c);
/* --check: the regions written this iteration against the peer's pattern;
 * *bad the first wrong byte's offset. */
enum p2pb_status p2pb_rma_verify(const struct p2pb_kernel_ctx *c, size_t *bad);
/* Before a --check iteration: a target's window memory set as the harness set
 * its buffers. */
void p2pb_rma_prepare_check(struct p2pb_kernel_ctx *c);
/* Close the epochs, free the window and the pair communicator. */
void p2pb_rma_teardown(struct p2pb_kernel_ctx *c);

/* --rma-sync and --rma-window (option.h): one array the six kernels share. */
#define P2PB_RMA_NOPTIONS 2
extern const struct p2pb_optdef p2pb_rma_options[P2PB_RMA_NOPTIONS];

/* Fields every kernel of the family shares. */
#define P2PB_RMA_FIELDS                                                                         \
    .min_ranks = 2, .max_ranks = 2, .participation = P2PB_PART_PAIR, .time_scale = 1.0,         \
    .rank_reduce = P2PB_REDUCE_MAX, .sbuf_regions = 1, .run_iter = p2pb_rma_iter,               \
    .verify = p2pb_rma_verify, .teardown = p2pb_rma_teardown,                                   \
    .prepare_check = p2pb_rma_prepare_check, .flags = P2PB_KF_RMA, .optdefs = p2pb_rma_options, \
    .n_optdefs = P2PB_RMA_NOPTIONS

#endif /* P2PBENCH_KERNELS_RMA_H */
