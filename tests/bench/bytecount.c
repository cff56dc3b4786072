/* SPDX-License-Identifier: MIT */
/*
 * Byte accounting of the IMB kernels. PMPI wrappers count the bytes each rank
 * sends and receives through point-to-point calls; the harness runs exactly
 * one timed iteration (samples 1, batch 1, no warm-up); the counts must equal
 * the definitions in docs/kernels.md, written out independently below. Also checks
 * the throughput formula of the returned row.
 * Run with any number of ranks >= 2.
 */
#include <stdlib.h>

#include "../lib/check.h"
#include "harness.h"
#include "options.h"
#include "p2pbench/kernel.h"

static unsigned long long sent_bytes, recv_bytes, n_sends, n_recvs;

static unsigned long long nbytes(int count, MPI_Datatype t)
{
    int sz = 0;
    PMPI_Type_size(t, &sz);
    return (unsigned long long)count * (unsigned long long)sz;
}

int MPI_Send(const void *b, int c, MPI_Datatype t, int d, int tag, MPI_Comm comm)
{
    sent_bytes += nbytes(c, t);
    n_sends++;
    return PMPI_Send(b, c, t, d, tag, comm);
}

int MPI_Isend(const void *b, int c, MPI_Datatype t, int d, int tag, MPI_Comm comm, MPI_Request *r)
{
    sent_bytes += nbytes(c, t);
    n_sends++;
    return PMPI_Isend(b, c, t, d, tag, comm, r);
}

int MPI_Recv(void *b, int c, MPI_Datatype t, int s, int tag, MPI_Comm comm, MPI_Status *st)
{
    MPI_Status local;
    int rc = PMPI_Recv(b, c, t, s, tag, comm, &local);
    int got = 0;
    PMPI_Get_count(&local, t, &got);
    recv_bytes += nbytes(got, t);
    n_recvs++;
    if (st != MPI_STATUS_IGNORE)
        *st = local;
    return rc;
}

int MPI_Irecv(void *b, int c, MPI_Datatype t, int s, int tag, MPI_Comm comm, MPI_Request *r)
{
    recv_bytes += nbytes(c, t);
    n_recvs++;
    return PMPI_Irecv(b, c, t, s, tag, comm, r);
}

int MPI_Sendrecv(const void *sb, int sc, MPI_Datatype st, int d, int stag, void *rb, int rc,
                 MPI_Datatype rt, int s, int rtag, MPI_Comm comm, MPI_Status *status)
{
    MPI_Status local;
    int ret = PMPI_Sendrecv(sb, sc, st, d, stag, rb, rc, rt, s, rtag, comm, &local);
    int got = 0;
    PMPI_Get_count(&local, rt, &got);
    sent_bytes += nbytes(sc, st);
    recv_bytes += nbytes(got, rt);
    n_sends++;
    n_recvs++;
    if (status != MPI_STATUS_IGNORE)
        *status = local;
    return ret;
}

/* The definitions (docs/kernels.md), per rank and iteration, in units of X. */
struct expect {
    const char *name;
    int pair_only;       /* only ranks 0 and 1 move bytes */
    int sends, recvs;    /* messages of X bytes sent / received */
    double bytes_factor; /* throughput counts this many X per iteration */
    double time_scale;
};
static const struct expect expected[] = {
    {"pingpong", 1, 1, 1, 1.0, 0.5},
    {"pingping", 1, 1, 1, 1.0, 1.0},
    {"sendrecv", 0, 1, 1, 2.0, 1.0},
    {"exchange", 0, 2, 2, 4.0, 1.0},
};

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, nranks;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    struct p2pb_timer_info ti;
    p2pb_timer_measure(&ti);
    struct p2pb_policy pol;
    p2pb_policy_init(&pol);
    pol.mode = P2PB_POLICY_FIXED;
    pol.samples = 1;
    pol.batch = 1;
    pol.warmup = 0;
    const size_t sizes[] = {0, 1, 1000, 65537};
    char err[512];
    for (size_t e = 0; e < sizeof expected / sizeof expected[0]; e++) {
        const struct p2pb_kernel *k = p2pb_kernel_find(expected[e].name);
        CHECK(k != NULL);
        if (!k)
            continue;
        CHECK(k->time_scale == expected[e].time_scale);
        CHECK(!p2pb_kernel_fixed_bytes(k));
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            size_t x = sizes[s];
            /* the descriptor's rule against the definition, at any window
             * and copy buffer: IMB's kernels count a multiple of X */
            CHECK(p2pb_kernel_bytes_factor(k, x, pol.window, 100000) == expected[e].bytes_factor);
            CHECK(p2pb_kernel_bytes(k, x, pol.window, 100000) ==
                  expected[e].bytes_factor * (double)x);
            sent_bytes = recv_bytes = n_sends = n_recvs = 0;
            struct p2pb_result r;
            CHECK(p2pb_harness_run(MPI_COMM_WORLD, k, x, &pol, &ti, &r, err, sizeof err) ==
                  P2PB_OK);
            int moves = !expected[e].pair_only || rank < 2;
            unsigned long long want_s = moves ? (unsigned long long)expected[e].sends * x : 0;
            unsigned long long want_r = moves ? (unsigned long long)expected[e].recvs * x : 0;
            if (sent_bytes != want_s || recv_bytes != want_r)
                fprintf(stderr,
                        "rank %d %s X=%zu: sent %llu (want %llu) received %llu (want %llu)\n", rank,
                        k->name, x, sent_bytes, want_s, recv_bytes, want_r);
            CHECK(sent_bytes == want_s);
            CHECK(recv_bytes == want_r);
            CHECK(n_sends == (moves ? (unsigned long long)expected[e].sends : 0));
            CHECK(n_recvs == (moves ? (unsigned long long)expected[e].recvs : 0));
            CHECK(r.samples == 1 && r.iterations_per_sample == 1 && r.warmup == 0);
            if (rank == 0) {
                CHECK(r.active_ranks == (expected[e].pair_only ? 2 : nranks));
                CHECK(r.bytes_factor == expected[e].bytes_factor);
                CHECK(r.fixed_bytes == 0);
                /* throughput column = bytes_factor x size / median time */
                double want_bw = x ? expected[e].bytes_factor * (double)x / r.t.median : 0.0;
                CHECK_NEAR(r.mbytes_per_sec, want_bw, 1e-9 * (want_bw + 1));
                CHECK(r.t.median > 0);
            }
        }
    }
    int failed = check_failed_, any = 0;
    MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0)
        printf("rank 0: ");
    int rc = CHECK_DONE();
    MPI_Finalize();
    return any ? 1 : rc;
}
