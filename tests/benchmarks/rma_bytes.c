/* SPDX-License-Identifier: MIT */
/*
 * Byte accounting of the one-sided kernels (benchmarks/rma.c) through the MPI
 * profiling interface: this program defines MPI_Put, MPI_Get, MPI_Rput and
 * MPI_Rget (each counts the origin's bytes, count x type size, then calls
 * PMPI_*), runs exactly one run_iter of each kernel at a few sizes and
 * windows under the defaults (flush, create) and for every --rma-sync and
 * --rma-window pair the library runs at X = 1000, W = 5, and compares every rank's
 * bytes put and got with the definitions written out below, independently
 * of the kernels' code (docs/kernels.md, "One-sided kernels").
 *
 * Run with 2 or more ranks: mpiexec -n N test_rma_bytes (ranks 2.. must do
 * nothing: no setup, no operation). Exit 0 = pass, 1 = a mismatch (printed),
 * 77 = skipped (fewer than 2 ranks).
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "p2pbench/kernel.h"
#include "pmpi_test.h"

/* ---- counting wrappers ---- */

static long long bytes_put, bytes_got, nputs, ngets;

static long long origin_bytes(int count, MPI_Datatype t)
{
    int size = 0;
    PMPI_Type_size(t, &size);
    return (long long)count * size;
}

int MPI_Put(const void *oaddr, int ocount, MPI_Datatype otype, int trank, MPI_Aint tdisp,
            int tcount, MPI_Datatype ttype, MPI_Win win)
{
    bytes_put += origin_bytes(ocount, otype);
    nputs++;
    return PMPI_Put(oaddr, ocount, otype, trank, tdisp, tcount, ttype, win);
}

int MPI_Get(void *oaddr, int ocount, MPI_Datatype otype, int trank, MPI_Aint tdisp, int tcount,
            MPI_Datatype ttype, MPI_Win win)
{
    bytes_got += origin_bytes(ocount, otype);
    ngets++;
    return PMPI_Get(oaddr, ocount, otype, trank, tdisp, tcount, ttype, win);
}

int MPI_Rput(const void *oaddr, int ocount, MPI_Datatype otype, int trank, MPI_Aint tdisp,
             int tcount, MPI_Datatype ttype, MPI_Win win, MPI_Request *req)
{
    bytes_put += origin_bytes(ocount, otype);
    nputs++;
    return PMPI_Rput(oaddr, ocount, otype, trank, tdisp, tcount, ttype, win, req);
}

int MPI_Rget(void *oaddr, int ocount, MPI_Datatype otype, int trank, MPI_Aint tdisp, int tcount,
             MPI_Datatype ttype, MPI_Win win, MPI_Request *req)
{
    bytes_got += origin_bytes(ocount, otype);
    ngets++;
    return PMPI_Rget(oaddr, ocount, otype, trank, tdisp, tcount, ttype, win, req);
}

/* ---- the definitions, written independently of benchmarks/ ---- */

struct expect {
    int active;
    long long put, got;   /* bytes this rank puts / gets as origin */
    long long nput, nget; /* operations */
    double counted;       /* bytes counted for MB/s per iteration */
};

static struct expect define(const char *kernel, int rank, size_t x, size_t w)
{
    struct expect e = {0, 0, 0, 0, 0, 0};
    long long X = (long long)x, W = (long long)w;
    if (rank > 1)
        return e; /* only ranks 0 and 1 take part */
    e.active = 1;
    int is_get = strncmp(kernel, "get_", 4) == 0;
    long long ops = 0;
    if (!strcmp(kernel, "put_latency") || !strcmp(kernel, "get_latency")) {
        ops = rank == 0 ? 1 : 0; /* rank 0 alone, one operation */
        e.counted = (double)X;
    } else if (!strcmp(kernel, "put_bw") || !strcmp(kernel, "get_bw")) {
        ops = rank == 0 ? W : 0; /* rank 0 alone, a window of W */
        e.counted = (double)(W * X);
    } else { /* put_bibw, get_bibw: both ranks, W each */
        ops = W;
        e.counted = (double)(2 * W * X);
    }
    if (is_get) {
        e.nget = ops;
        e.got = ops * X;
    } else {
        e.nput = ops;
        e.put = ops * X;
    }
    return e;
}

/* ---- one iteration of one kernel ---- */

static int failures;

static int no_membind(const struct p2pb_kernel_ctx *c, void *addr, size_t bytes)
{
    (void)c;
    (void)addr;
    (void)bytes;
    return 0;
}

/* n bytes, zeroed, on a page boundary (4096); NULL when out of memory. */
static unsigned char *page_buffer(size_t n)
{
    void *p = NULL;
    if (posix_memalign(&p, 4096, n) != 0)
        return NULL;
    memset(p, 0, n);
    return p;
}

static void fail(int rank, const char *what, const char *name, size_t x, size_t w, int sync,
                 int win)
{
    printf("FAIL rank %d: %s of %s X=%zu W=%zu sync=%s win=%s\n", rank, what, name, x, w,
           p2pb_rma_sync_names[sync], p2pb_rma_window_names[win]);
    failures++;
}

static void check_one(const char *name, size_t x, size_t w, int sync, int win)
{
    int rank, nranks;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    const struct p2pb_kernel *k = p2pb_kernel_find(name);
    if (!k) {
        fail(rank, "registry lookup", name, x, w, sync, win);
        return;
    }
    struct expect e = define(name, rank, x, w);
    struct p2pb_kernel_ctx c;
    memset(&c, 0, sizeof c);
    c.comm = MPI_COMM_WORLD;
    c.rank = rank;
    c.nranks = nranks;
    c.active = e.active;
    c.peer = e.active ? 1 - rank : -1;
    c.left = c.right = -1;
    c.bytes = x;
    c.window = w;
    c.group = -1;
    c.membind = no_membind;
    c.numa_node = -1;
    c.rma_sync = sync;
    c.rma_window = win;
    char err[256];
    if (p2pb_make_msg_type(x, &c.dtype, &c.count, err, sizeof err) != P2PB_OK) {
        printf("FAIL %s\n", err);
        failures++;
        return;
    }
    /* one pair of page-aligned buffers for every case, as the harness keeps
     * its arena (src/bench/buffers.c): Open MPI 4.1's dynamic windows under
     * passive target refused a put into a region attached at an address
     * where a smaller region had been attached and freed before
     * (MPI_ERR_RMA_RANGE), which the harness never does */
    static unsigned char *sb, *rb;
    const size_t most = 8 * 65537;
    if (!sb)
        sb = page_buffer(most);
    if (!rb)
        rb = page_buffer(most);
    if (!sb || !rb || p2pb_kernel_regions(k->rbuf_regions, w) * x > most) {
        fail(rank, "buffers", name, x, w, sync, win);
        return;
    }
    c.sbuf = sb;
    c.rbuf = rb;
    if (e.active && k->setup && k->setup(&c) != P2PB_OK)
        fail(rank, "setup", name, x, w, sync, win);
    PMPI_Barrier(MPI_COMM_WORLD);
    bytes_put = bytes_got = nputs = ngets = 0;
    if (e.active && k->run_iter(&c) != P2PB_OK)
        fail(rank, "run_iter", name, x, w, sync, win);
    long long p = bytes_put, g = bytes_got, np = nputs, ng = ngets;
    if (e.active && k->teardown)
        k->teardown(&c);
    PMPI_Barrier(MPI_COMM_WORLD);
    if (p != e.put || g != e.got || np != e.nput || ng != e.nget) {
        printf("FAIL %s X=%zu W=%zu sync=%s win=%s rank %d of %d: put %lld B in %lld, got %lld B "
               "in %lld; definition: put %lld B in %lld, got %lld B in %lld\n",
               name, x, w, p2pb_rma_sync_names[sync], p2pb_rma_window_names[win], rank, nranks, p,
               np, g, ng, e.put, e.nput, e.got, e.nget);
        failures++;
    }
    double counted = p2pb_kernel_bytes(k, x, w, 0);
    if (e.active && fabs(counted - e.counted) > 1e-9 * e.counted) {
        printf("FAIL %s X=%zu W=%zu: bytes counted per iteration %.17g, definition %.17g\n", name,
               x, w, counted, e.counted);
        failures++;
    }
    p2pb_free_msg_type(&c.dtype);
}

int main(int argc, char **argv)
{
    int rank, nranks;
    if (pmpi_test_start(&argc, &argv, &rank, &nranks))
        return 77;
    /* every size and window under the defaults, every --rma-sync and
     * --rma-window at one size and window */
    static const size_t xs[] = {0, 1, 1000, 65537};
    static const size_t ws[] = {1, 5};
    static const char *const kernels[] = {"put_latency", "get_latency", "put_bw",
                                          "get_bw",      "put_bibw",    "get_bibw"};
    int checks = 0;
    for (size_t ki = 0; ki < sizeof kernels / sizeof kernels[0]; ki++) {
        const struct p2pb_kernel *k = p2pb_kernel_find(kernels[ki]);
        if (k && !(k->flags & P2PB_KF_RMA)) {
            if (rank == 0)
                printf("FAIL %s does not declare P2PB_KF_RMA\n", kernels[ki]);
            failures++;
        }
        for (size_t xi = 0; xi < sizeof xs / sizeof xs[0]; xi++)
            for (size_t wi = 0; wi < sizeof ws / sizeof ws[0]; wi++, checks++)
                check_one(kernels[ki], xs[xi], ws[wi], P2PB_RMA_FLUSH, P2PB_RMA_CREATE);
        for (int sync = 0; p2pb_rma_sync_names[sync]; sync++)
            for (int win = 0; p2pb_rma_window_names[win]; win++) {
                if (p2pb_rma_refusal(sync, win))
                    continue; /* refused by p2pbench's options, never run */
                check_one(kernels[ki], 1000, 5, sync, win);
                checks++;
            }
    }
    return pmpi_test_end(failures, checks, "cases", rank, nranks);
}
