/* SPDX-License-Identifier: MIT */
/*
 * check.c - step 7 of one (kernel, size) (docs/methodology.md), --check:
 * iterations off the timed path whose send buffers carry the pattern of
 * (sender rank, iteration, byte offset) (benchmarks/pattern.c); the kernel's
 * verify compares every received byte with what its sender must have sent.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure.h"

/* Patterned iterations per size; the pass stops at the first failure. */
#define P2PB_CHECK_ROUNDS 3

/* Byte the receive buffer is cleared to before a checked iteration. */
#define P2PB_CHECK_FILL 0x5a

/* Pattern every send region of the first set, clear its receive side, and
 * let the kernel pattern buffers of its own. */
static void pattern_buffers(struct p2pb_measure *r)
{
    struct p2pb_kernel_ctx *c = &r->c;
    for (size_t q = 0; q < r->buf.sregions; q++)
        p2pb_pattern_fill(r->buf.sbase + q * c->bytes, c->bytes, c->rank, c->iter);
    memset(r->buf.rbase, P2PB_CHECK_FILL, r->buf.rstride);
    if (r->k->prepare_check)
        r->k->prepare_check(c);
}

/* One iteration, then the kernel's verify. Returns 1 (and names the first
 * bad byte on stderr) when the payload is wrong, else 0. */
static int run_and_verify(struct p2pb_measure *r)
{
    struct p2pb_kernel_ctx *c = &r->c;
    const struct p2pb_test_seams *seams = p2pb_test_seams();
    size_t bad_off = 0;
    if ((r->k->between_iter && r->k->between_iter(c) != P2PB_OK) || r->k->run_iter(c) != P2PB_OK ||
        (r->k->finish_iter && r->k->finish_iter(c) != P2PB_OK))
        p2pb_mpi_fail(r->k->name, __FILE__, __LINE__, MPI_SUCCESS);
    if (seams->check_ran) /* test seam (seams.c); NULL in normal runs */
        seams->check_ran(c);
    if (r->k->verify(c, &bad_off) == P2PB_OK)
        return 0;
    fprintf(stderr,
            "p2pbench: rank %d: payload check failed: kernel %s, size %zu bytes, byte offset %zu\n",
            c->rank, r->k->name, c->bytes, bad_off);
    fflush(stderr);
    return 1;
}

/* The ranks that saw wrong bytes, to rank 0's watchdog (end record). */
static void blame_ranks(struct p2pb_measure *r, int lbad)
{
    struct p2pb_kernel_ctx *c = &r->c;
    int *all = c->rank == 0 ? calloc((size_t)c->nranks, sizeof *all) : NULL;
    P2PB_MPI_CHECK(MPI_Gather(&lbad, 1, MPI_INT, all, 1, MPI_INT, 0, c->comm));
    if (!all)
        return;
    size_t n = 0;
    for (int q = 0; q < c->nranks; q++)
        if (all[q])
            all[n++] = q;
    p2pb_watchdog_blame(all, n);
    free(all);
}

/* One checked iteration on every rank; 1 if it failed on any rank. */
static int check_round(struct p2pb_measure *r)
{
    struct p2pb_kernel_ctx *c = &r->c;
    int lbad = 0, anybad = 0;
    c->sbuf = r->buf.sbase;
    c->rbuf = r->buf.rbase;
    if (c->active)
        pattern_buffers(r);
    P2PB_MPI_CHECK(MPI_Barrier(c->comm));
    if (c->active)
        lbad = run_and_verify(r);
    c->iter++;
    P2PB_MPI_CHECK(MPI_Allreduce(&lbad, &anybad, 1, MPI_INT, MPI_MAX, c->comm));
    if (anybad)
        blame_ranks(r, lbad);
    return anybad;
}

enum p2pb_status p2pb_check_payloads(struct p2pb_measure *r, char *err, size_t errlen)
{
    if (!r->pol->check || !r->k->verify)
        return P2PB_OK;
    for (int round = 0; round < P2PB_CHECK_ROUNDS; round++)
        if (check_round(r))
            return p2pb_fail(P2PB_EVERIFY, err, errlen,
                             "payload check failed: kernel %s, size %zu bytes (see the rank "
                             "messages above for the byte offset)",
                             r->k->name, r->c.bytes);
    return P2PB_OK;
}
