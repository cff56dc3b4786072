/* SPDX-License-Identifier: MIT */
/*
 * Byte accounting of the kernels beyond IMB's four, through the MPI
 * profiling interface: this program defines MPI_Send, MPI_Isend, MPI_Recv,
 * MPI_Irecv and MPI_Sendrecv (each counts, then calls PMPI_*), runs exactly
 * one run_iter of each kernel at a few sizes, windows and directions, and
 * compares every rank's bytes sent and received with the definitions written
 * out below, independently of the kernels' code (docs/kernels.md).
 * Receives are counted as posted (count x type size): every kernel here
 * receives exactly what it posts.
 *
 * Run with 2 or 4 ranks: mpiexec -n N test_kernel_bytes. Exit 0 = pass,
 * 1 = a mismatch (printed), 77 = skipped (fewer than 2 ranks).
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

static long long bytes_sent, bytes_recv, nsends, nrecvs;

static long long msg_bytes(int count, MPI_Datatype t)
{
    int size = 0;
    PMPI_Type_size(t, &size);
    return (long long)count * size;
}

int MPI_Send(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm)
{
    bytes_sent += msg_bytes(count, t);
    nsends++;
    return PMPI_Send(buf, count, t, dest, tag, comm);
}

int MPI_Isend(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm,
              MPI_Request *req)
{
    bytes_sent += msg_bytes(count, t);
    nsends++;
    return PMPI_Isend(buf, count, t, dest, tag, comm, req);
}

int MPI_Recv(void *buf, int count, MPI_Datatype t, int src, int tag, MPI_Comm comm, MPI_Status *st)
{
    bytes_recv += msg_bytes(count, t);
    nrecvs++;
    return PMPI_Recv(buf, count, t, src, tag, comm, st);
}

int MPI_Irecv(void *buf, int count, MPI_Datatype t, int src, int tag, MPI_Comm comm,
              MPI_Request *req)
{
    bytes_recv += msg_bytes(count, t);
    nrecvs++;
    return PMPI_Irecv(buf, count, t, src, tag, comm, req);
}

int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype st, int dest, int stag, void *rbuf,
                 int rcount, MPI_Datatype rt, int src, int rtag, MPI_Comm comm, MPI_Status *status)
{
    bytes_sent += msg_bytes(scount, st);
    bytes_recv += msg_bytes(rcount, rt);
    nsends++;
    nrecvs++;
    return PMPI_Sendrecv(sbuf, scount, st, dest, stag, rbuf, rcount, rt, src, rtag, comm, status);
}

/* ---- the definitions, written independently of benchmarks/ ---- */

#define ACK 4 /* bytes of the Uniband acknowledgement */

struct expect {
    int active;
    long long sent, recv; /* bytes */
    double counted;       /* bytes counted for MB/s per iteration */
    int fixed;            /* counted does not scale with X */
};

/* Pairs (0,1), (2,3), ...; `pairs` = how many pairs work. */
static struct expect define(const char *kernel, int rank, int nranks, size_t x, size_t w, int dir,
                            size_t copy)
{
    struct expect e = {0, 0, 0, 0, 0};
    long long X = (long long)x, W = (long long)w;
    int npairs =
        !strcmp(kernel, "uniband") || !strcmp(kernel, "biband") || !strcmp(kernel, "oneway")
            ? 1
            : nranks / 2;
    int in_pair = rank < 2 * npairs;
    int lower = rank % 2 == 0;
    if (!strcmp(kernel, "memcpy")) {
        e.active = rank == 0; /* --memcpy-ranks one */
        e.counted = (double)copy;
        e.fixed = 1;
        return e;
    }
    if (!in_pair)
        return e;
    e.active = 1;
    if (!strcmp(kernel, "uniband") || !strcmp(kernel, "multi-uniband")) {
        int sender = dir == 0 ? lower : !lower;
        e.sent = sender ? W * X : ACK;
        e.recv = sender ? ACK : W * X;
        e.counted = (double)(W * X);
    } else if (!strcmp(kernel, "biband")) {
        e.sent = e.recv = W * X;
        e.counted = (double)(2 * W * X);
    } else if (!strcmp(kernel, "multi-pingpong")) {
        e.sent = e.recv = X;
        e.counted = (double)X;
    } else if (!strcmp(kernel, "oneway")) { /* X one way, an empty acknowledgement back */
        int sender = dir == 0 ? lower : !lower;
        e.sent = sender ? X : 0;
        e.recv = sender ? 0 : X;
        e.counted = (double)X;
    }
    return e;
}

/* ---- one iteration of one kernel, roles set as docs/kernels.md defines ---- */

static int failures;

/* Buffers stay where first touch puts them. */
static int no_membind(const struct p2pb_kernel_ctx *c, void *addr, size_t bytes)
{
    (void)c;
    (void)addr;
    (void)bytes;
    return 0;
}

/* The descriptor's byte rule (kernel.h) against the definition: the bytes
 * counted, the per-X factor rows store, and whether the bytes are fixed. */
static void check_counted(const struct p2pb_kernel *k, const struct expect *e, size_t x, size_t w,
                          size_t copy, int rank)
{
    if (!e->active)
        return;
    double bytes = p2pb_kernel_bytes(k, x, w, copy);
    double got = p2pb_kernel_bytes_factor(k, x, w, copy) * (double)x;
    if (fabs(bytes - e->counted) > 1e-9 * e->counted ||
        (x > 0 && fabs(got - e->counted) > 1e-9 * e->counted)) {
        printf("FAIL %s X=%zu W=%zu rank %d: bytes counted per iteration %.17g (factor x X "
               "%.17g), definition %.17g\n",
               k->name, x, w, rank, bytes, got, e->counted);
        failures++;
    }
    if (p2pb_kernel_fixed_bytes(k) != e->fixed) {
        printf("FAIL %s: fixed bytes %d, definition %d\n", k->name, p2pb_kernel_fixed_bytes(k),
               e->fixed);
        failures++;
    }
}

static void check_one(const char *name, size_t x, size_t w, int dir)
{
    int rank, nranks;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    const struct p2pb_kernel *k = p2pb_kernel_find(name);
    if (!k) {
        if (rank == 0)
            printf("FAIL kernel %s not in the registry\n", name);
        failures++;
        return;
    }
    const size_t copy = 100000;
    struct expect e = define(name, rank, nranks, x, w, dir, copy);

    struct p2pb_kernel_ctx c;
    memset(&c, 0, sizeof c);
    c.comm = MPI_COMM_WORLD;
    c.rank = rank;
    c.nranks = nranks;
    c.active = e.active;
    c.peer = e.active && k->participation != P2PB_PART_SELF ? (rank ^ 1) : -1;
    c.left = c.right = -1;
    c.bytes = x;
    c.window = w;
    c.direction = dir;
    c.group = e.active ? rank / 2 : -1;
    c.copy_bytes = copy;
    c.membind = no_membind;
    c.numa_node = -1;
    char err[256];
    if (p2pb_make_msg_type(x, &c.dtype, &c.count, err, sizeof err) != P2PB_OK) {
        printf("FAIL %s\n", err);
        failures++;
        return;
    }
    size_t unit = x ? x : 1;
    unsigned char *sb = calloc(p2pb_kernel_regions(k->sbuf_regions, w), unit);
    unsigned char *rb = calloc(p2pb_kernel_regions(k->rbuf_regions, w), unit);
    c.sbuf = sb;
    c.rbuf = rb;
    if (e.active && k->setup && k->setup(&c) != P2PB_OK) {
        printf("FAIL rank %d: setup of %s\n", rank, name);
        failures++;
    }
    PMPI_Barrier(MPI_COMM_WORLD);
    bytes_sent = bytes_recv = nsends = nrecvs = 0;
    if (e.active &&
        (k->run_iter(&c) != P2PB_OK || (k->finish_iter && k->finish_iter(&c) != P2PB_OK))) {
        printf("FAIL rank %d: run_iter or finish_iter of %s\n", rank, name);
        failures++;
    }
    long long s = bytes_sent, r = bytes_recv;
    PMPI_Barrier(MPI_COMM_WORLD);
    if (s != e.sent || r != e.recv) {
        printf("FAIL %s X=%zu W=%zu dir=%d rank %d of %d: sent %lld B, received %lld B; "
               "definition: sent %lld B, received %lld B\n",
               name, x, w, dir, rank, nranks, s, r, e.sent, e.recv);
        failures++;
    }
    check_counted(k, &e, x, w, copy, rank);
    if (e.active && k->teardown)
        k->teardown(&c);
    p2pb_free_msg_type(&c.dtype);
    free(sb);
    free(rb);
}

int main(int argc, char **argv)
{
    int rank, nranks;
    if (pmpi_test_start(&argc, &argv, &rank, &nranks))
        return 77;
    static const size_t xs[] = {0, 1, 1000, 65537};
    static const size_t ws[] = {1, 4, 64};
    static const char *const kernels[] = {"uniband",        "multi-uniband", "biband",
                                          "multi-pingpong", "memcpy",        "oneway"};
    int checks = 0;
    for (size_t ki = 0; ki < sizeof kernels / sizeof kernels[0]; ki++)
        for (size_t xi = 0; xi < sizeof xs / sizeof xs[0]; xi++)
            for (size_t wi = 0; wi < sizeof ws / sizeof ws[0]; wi++)
                for (int dir = 0; dir < 2; dir++) {
                    const struct p2pb_kernel *k = p2pb_kernel_find(kernels[ki]);
                    if (dir && k && !(k->flags & P2PB_KF_DIRECTIONS))
                        continue;
                    if (!strcmp(kernels[ki], "memcpy") && xs[xi] == 0)
                        continue; /* chunk size 0 is skipped by src/bench/suite.c, never run */
                    check_one(kernels[ki], xs[xi], ws[wi], dir);
                    checks++;
                }
    /* direction flags: the directional kernels declare it, the others not */
    const char *const dirk[] = {"uniband", "multi-uniband"};
    for (size_t i = 0; i < 2; i++) {
        const struct p2pb_kernel *k = p2pb_kernel_find(dirk[i]);
        if (!k || !(k->flags & P2PB_KF_DIRECTIONS)) {
            if (rank == 0)
                printf("FAIL %s does not declare P2PB_KF_DIRECTIONS\n", dirk[i]);
            failures++;
        }
    }
    /* memcpy's skipped chunk size 0 stores a factor of 0 (no division by 0) */
    const struct p2pb_kernel *mk = p2pb_kernel_find("memcpy");
    if (mk && p2pb_kernel_bytes_factor(mk, 0, 64, 100000) != 0.0) {
        if (rank == 0)
            printf("FAIL memcpy at X = 0: bytes_factor %g, definition 0\n",
                   p2pb_kernel_bytes_factor(mk, 0, 64, 100000));
        failures++;
    }
    return pmpi_test_end(failures, checks, "cases", rank, nranks);
}
