/* SPDX-License-Identifier: MIT */
/*
 * Byte and message accounting of the msgrate kernel through the MPI
 * profiling interface: this program defines MPI_Isend, MPI_Irecv,
 * MPI_Send, MPI_Recv and MPI_Sendrecv (each counts calls and bytes, then
 * calls PMPI_*), runs the kernel's untimed step (between_iter) and one
 * timed iteration (run_iter) apart, with receives pre-posted and not, with
 * and without the cache pass, at a few sizes and windows, and compares each
 * rank's counts with the definition in docs/kernels.md, written out here
 * independently of benchmarks/msgrate.c:
 *   untimed step: pre-posted: W Irecv of X bytes; handshake (a zero-byte
 *                 Sendrecv) when pre-posted or with the cache pass;
 *                 nothing else
 *   iteration:    W Isend of X bytes; not pre-posted: also W Irecv of X
 * on every rank of the pairs (0,1), (2,3), ...; an odd last rank nothing.
 * It also checks the descriptor's rules: messages counted 2 W, bytes
 * counted 2 W X (the handshake counted in neither).
 *
 * Run with 2 or more ranks: mpiexec -n N test_msgrate_bytes. Exit 0 = pass,
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

struct counts {
    long long isend, irecv, send, recv, sendrecv; /* calls */
    long long sent, received;                     /* bytes, as posted */
};

static struct counts cnt;

static long long msg_bytes(int count, MPI_Datatype t)
{
    int size = 0;
    PMPI_Type_size(t, &size);
    return (long long)count * size;
}

int MPI_Isend(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm,
              MPI_Request *req)
{
    cnt.isend++;
    cnt.sent += msg_bytes(count, t);
    return PMPI_Isend(buf, count, t, dest, tag, comm, req);
}

int MPI_Irecv(void *buf, int count, MPI_Datatype t, int src, int tag, MPI_Comm comm,
              MPI_Request *req)
{
    cnt.irecv++;
    cnt.received += msg_bytes(count, t);
    return PMPI_Irecv(buf, count, t, src, tag, comm, req);
}

int MPI_Send(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm)
{
    cnt.send++;
    cnt.sent += msg_bytes(count, t);
    return PMPI_Send(buf, count, t, dest, tag, comm);
}

int MPI_Recv(void *buf, int count, MPI_Datatype t, int src, int tag, MPI_Comm comm, MPI_Status *st)
{
    cnt.recv++;
    cnt.received += msg_bytes(count, t);
    return PMPI_Recv(buf, count, t, src, tag, comm, st);
}

int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype st, int dest, int stag, void *rbuf,
                 int rcount, MPI_Datatype rt, int src, int rtag, MPI_Comm comm, MPI_Status *status)
{
    cnt.sendrecv++;
    cnt.sent += msg_bytes(scount, st);
    cnt.received += msg_bytes(rcount, rt);
    return PMPI_Sendrecv(sbuf, scount, st, dest, stag, rbuf, rcount, rt, src, rtag, comm, status);
}

/* ---- the definition ---- */

static struct counts expect_between(int active, int prepost, int pollute, long long w, long long x)
{
    struct counts e = {0, 0, 0, 0, 0, 0, 0};
    if (!active)
        return e;
    if (prepost) {
        e.irecv = w;
        e.received = w * x;
    }
    e.sendrecv = prepost || pollute; /* zero bytes each way */
    return e;
}

static struct counts expect_iter(int active, int prepost, long long w, long long x)
{
    struct counts e = {0, 0, 0, 0, 0, 0, 0};
    if (!active)
        return e;
    e.isend = w;
    e.sent = w * x;
    if (!prepost) {
        e.irecv = w;
        e.received = w * x;
    }
    return e;
}

static int failures;

static void compare(const char *what, const struct counts *got, const struct counts *want, size_t x,
                    size_t w, int prepost, size_t pollute, int rank)
{
    if (memcmp(got, want, sizeof *got) == 0)
        return;
    printf("FAIL msgrate %s X=%zu W=%zu prepost=%d pollute=%zu rank %d: Isend %lld Irecv %lld "
           "Send %lld Recv %lld Sendrecv %lld, sent %lld B received %lld B; definition: Isend "
           "%lld Irecv %lld Send %lld Recv %lld Sendrecv %lld, sent %lld B received %lld B\n",
           what, x, w, prepost, pollute, rank, got->isend, got->irecv, got->send, got->recv,
           got->sendrecv, got->sent, got->received, want->isend, want->irecv, want->send,
           want->recv, want->sendrecv, want->sent, want->received);
    failures++;
}

static int no_membind(const struct p2pb_kernel_ctx *c, void *addr, size_t bytes)
{
    (void)c;
    (void)addr;
    (void)bytes;
    return 0;
}

/* The untimed step and one iteration, each counted apart. */
static void check_one(const struct p2pb_kernel *k, size_t x, size_t w, int prepost, size_t pollute)
{
    int rank, nranks;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    struct p2pb_kernel_ctx c;
    memset(&c, 0, sizeof c);
    c.comm = MPI_COMM_WORLD;
    c.rank = rank;
    c.nranks = nranks;
    c.active = rank < 2 * (nranks / 2);
    c.peer = c.active ? rank ^ 1 : -1;
    c.left = c.right = -1;
    c.bytes = x;
    c.window = w;
    c.group = c.active ? rank / 2 : -1;
    c.prepost = prepost;
    c.pollute = pollute;
    c.membind = no_membind;
    c.numa_node = -1;
    char err[256];
    if (p2pb_make_msg_type(x, &c.dtype, &c.count, err, sizeof err) != P2PB_OK) {
        printf("FAIL %s\n", err);
        failures++;
        return;
    }
    size_t unit = x ? x : 1;
    c.sbuf = calloc(p2pb_kernel_regions(k->sbuf_regions, w), unit);
    c.rbuf = calloc(p2pb_kernel_regions(k->rbuf_regions, w), unit);
    if (c.active && k->setup(&c) != P2PB_OK) {
        printf("FAIL rank %d: setup of msgrate\n", rank);
        failures++;
        c.active = 0;
    }
    PMPI_Barrier(MPI_COMM_WORLD);
    memset(&cnt, 0, sizeof cnt);
    if (c.active && k->between_iter(&c) != P2PB_OK)
        failures++;
    struct counts between = cnt,
                  want = expect_between(c.active, prepost, pollute > 0, (long long)w, (long long)x);
    compare("untimed step", &between, &want, x, w, prepost, pollute, rank);
    memset(&cnt, 0, sizeof cnt);
    if (c.active && k->run_iter(&c) != P2PB_OK)
        failures++;
    struct counts iter = cnt;
    want = expect_iter(c.active, prepost, (long long)w, (long long)x);
    compare("iteration", &iter, &want, x, w, prepost, pollute, rank);
    PMPI_Barrier(MPI_COMM_WORLD);
    if (c.active && k->teardown)
        k->teardown(&c);
    p2pb_free_msg_type(&c.dtype);
    free(c.sbuf);
    free(c.rbuf);
}

/* The descriptor's rules: 2 W messages, 2 W X bytes per iteration. */
static void check_rules(const struct p2pb_kernel *k, size_t x, size_t w)
{
    double msgs = p2pb_kernel_msgs(k, w), bytes = p2pb_kernel_bytes(k, x, w, 0);
    if (msgs != 2.0 * (double)w || bytes != 2.0 * (double)w * (double)x) {
        printf("FAIL msgrate X=%zu W=%zu: rules count %g messages, %g bytes; definition %g, %g\n",
               x, w, msgs, bytes, 2.0 * (double)w, 2.0 * (double)w * (double)x);
        failures++;
    }
    if (!(k->flags & P2PB_KF_PER_GROUP) || k->participation != P2PB_PART_PAIRS ||
        !k->between_iter || (k->flags & P2PB_KF_ONEWAY)) {
        printf("FAIL msgrate: not a per-pair kernel with an untimed step\n");
        failures++;
    }
}

int main(int argc, char **argv)
{
    int rank, nranks;
    if (pmpi_test_start(&argc, &argv, &rank, &nranks))
        return 77;
    const struct p2pb_kernel *k = p2pb_kernel_find("msgrate");
    if (!k) {
        if (rank == 0)
            printf("FAIL kernel msgrate not in the registry\n");
        MPI_Finalize();
        return 1;
    }
    static const size_t xs[] = {0, 1, 8, 1000, 65537};
    static const size_t ws[] = {1, 5, 64};
    static const size_t pollute[] = {0, 1 << 20};
    int cases = 0;
    for (size_t xi = 0; xi < sizeof xs / sizeof xs[0]; xi++)
        for (size_t wi = 0; wi < sizeof ws / sizeof ws[0]; wi++) {
            check_rules(k, xs[xi], ws[wi]);
            for (int pre = 0; pre < 2; pre++)
                for (size_t pi = 0; pi < 2; pi++, cases++)
                    check_one(k, xs[xi], ws[wi], pre, pollute[pi]);
        }
    return pmpi_test_end(failures, cases, "msgrate cases", rank, nranks);
}
