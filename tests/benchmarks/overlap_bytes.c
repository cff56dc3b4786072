/* SPDX-License-Identifier: MIT */
/*
 * Byte accounting of the overlap kernel through the MPI profiling
 * interface: this program defines MPI_Isend, MPI_Irecv, MPI_Waitall,
 * MPI_Send and MPI_Recv (each counts, then calls PMPI_*), runs exactly one
 * run_iter of the kernel in each phase at a few sizes, and compares every
 * rank's calls and bytes with the definition written out below
 * (docs/kernels.md, "Overlap"), independently of benchmarks/overlap.c:
 *   pure, overlap: ranks 0 and 1 each post one receive of X bytes from the
 *                  other and one send of X bytes to it, then one
 *                  MPI_Waitall of both requests; bytes counted 2X
 *   cpu:           no MPI call at all
 *   rank 2 and up: nothing (they wait in the harness).
 * Receives are counted as posted (count x type size).
 *
 * Run with 2 or 3 ranks: mpiexec -n N test_overlap_bytes. Exit 0 = pass,
 * 1 = a mismatch (printed), 77 = skipped (fewer than 2 ranks).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "p2pbench/kernel.h"
#include "pmpi_test.h"

/* ---- counting wrappers ---- */

static long long bytes_sent, bytes_recv, nisend, nirecv, nwaitall, nwaited, nblocking;

static long long msg_bytes(int count, MPI_Datatype t)
{
    int size = 0;
    PMPI_Type_size(t, &size);
    return (long long)count * size;
}

int MPI_Isend(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm,
              MPI_Request *req)
{
    bytes_sent += msg_bytes(count, t);
    nisend++;
    return PMPI_Isend(buf, count, t, dest, tag, comm, req);
}

int MPI_Irecv(void *buf, int count, MPI_Datatype t, int src, int tag, MPI_Comm comm,
              MPI_Request *req)
{
    bytes_recv += msg_bytes(count, t);
    nirecv++;
    return PMPI_Irecv(buf, count, t, src, tag, comm, req);
}

int MPI_Waitall(int n, MPI_Request reqs[], MPI_Status sts[])
{
    nwaitall++;
    nwaited += n;
    return PMPI_Waitall(n, reqs, sts);
}

int MPI_Send(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm)
{
    nblocking++;
    return PMPI_Send(buf, count, t, dest, tag, comm);
}

int MPI_Recv(void *buf, int count, MPI_Datatype t, int src, int tag, MPI_Comm comm, MPI_Status *st)
{
    nblocking++;
    return PMPI_Recv(buf, count, t, src, tag, comm, st);
}

static int failures;

static int no_membind(const struct p2pb_kernel_ctx *c, void *addr, size_t bytes)
{
    (void)c;
    (void)addr;
    (void)bytes;
    return 0;
}

/* One iteration of phase `phase` at X = x bytes; counts against the definition. */
static void check_one(const struct p2pb_kernel *k, size_t x, int phase, int rank, int nranks)
{
    const int active = rank < 2, moves = active && phase != P2PB_OVL_CPU;
    const long long X = (long long)x;
    struct p2pb_kernel_ctx c;
    memset(&c, 0, sizeof c);
    c.comm = MPI_COMM_WORLD;
    c.rank = rank;
    c.nranks = nranks;
    c.active = active;
    c.peer = active ? 1 - rank : -1;
    c.left = c.right = c.group = -1;
    c.bytes = x;
    c.window = 1;
    c.membind = no_membind;
    c.numa_node = -1;
    c.phase = phase;
    c.compute_iters = phase == P2PB_OVL_PURE ? 0 : 1000;
    char err[256];
    if (p2pb_make_msg_type(x, &c.dtype, &c.count, err, sizeof err) != P2PB_OK) {
        printf("FAIL %s\n", err);
        failures++;
        return;
    }
    unsigned char *sb = calloc(x ? x : 1, 1), *rb = calloc(x ? x : 1, 1);
    c.sbuf = sb;
    c.rbuf = rb;
    PMPI_Barrier(MPI_COMM_WORLD);
    bytes_sent = bytes_recv = nisend = nirecv = nwaitall = nwaited = nblocking = 0;
    if (active && k->run_iter(&c) != P2PB_OK) {
        printf("FAIL rank %d: run_iter of overlap, phase %d\n", rank, phase);
        failures++;
    }
    PMPI_Barrier(MPI_COMM_WORLD);
    long long want[7] = {moves ? X : 0, moves ? X : 0, moves, moves, moves, moves ? 2 : 0, 0};
    long long got[7] = {bytes_sent, bytes_recv, nisend, nirecv, nwaitall, nwaited, nblocking};
    if (memcmp(want, got, sizeof want) != 0) {
        printf("FAIL overlap X=%zu phase %d rank %d of %d: sent %lld B, received %lld B, "
               "%lld Isend, %lld Irecv, %lld Waitall of %lld requests, %lld blocking calls; "
               "definition %lld B, %lld B, %lld, %lld, %lld of %lld, %lld\n",
               x, phase, rank, nranks, got[0], got[1], got[2], got[3], got[4], got[5], got[6],
               want[0], want[1], want[2], want[3], want[4], want[5], want[6]);
        failures++;
    }
    /* the descriptor's rule: 2X counted per iteration, sent + received per rank */
    if (moves && p2pb_kernel_bytes(k, x, 1, 0) != (double)(2 * X)) {
        printf("FAIL overlap X=%zu: bytes counted %g, definition %lld\n", x,
               p2pb_kernel_bytes(k, x, 1, 0), 2 * X);
        failures++;
    }
    p2pb_free_msg_type(&c.dtype);
    free(sb);
    free(rb);
}

int main(int argc, char **argv)
{
    int rank, nranks;
    if (pmpi_test_start(&argc, &argv, &rank, &nranks))
        return 77;
    const struct p2pb_kernel *k = p2pb_kernel_find("overlap");
    if (!k || !(k->flags & P2PB_KF_OVERLAP) || !k->compute) {
        if (rank == 0)
            printf("FAIL overlap kernel missing, or without P2PB_KF_OVERLAP and compute\n");
        MPI_Finalize();
        return 1;
    }
    static const size_t xs[] = {0, 1, 7, 1000, 65537};
    int checks = 0;
    for (size_t xi = 0; xi < sizeof xs / sizeof xs[0]; xi++)
        for (int phase = 0; phase < P2PB_OVL_NPHASES; phase++, checks++)
            check_one(k, xs[xi], phase, rank, nranks);
    return pmpi_test_end(failures, checks, "cases", rank, nranks);
}
