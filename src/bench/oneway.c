/* SPDX-License-Identifier: MIT */
/*
 * oneway.c - the clocks of the one-way kernels (P2PB_KF_ONEWAY; kernel.h,
 * clock.h, docs/methodology.md "Clocks of the one-way kernel"). Rank 0 is
 * the reference, rank 1 the client. A reading is the fastest of
 * P2PB_CLOCK_EXCHANGES exchanges: rank 0 sends an empty message at t1,
 * rank 1 answers with its clock tb, rank 0 receives it at t2; the reading
 * goes to every rank, which keeps the same model.
 */
#include "measure.h"

/* Exchanges per reading: at least MIN, then more (up to MAX) while the
 * fastest is still slower than P2PB_CLOCK_GOOD_RTT x the fastest seen in
 * the run (a busy machine delays whole batches). */
#define P2PB_CLOCK_EXCHANGES_MIN 16
#define P2PB_CLOCK_EXCHANGES_MAX 128

/* Readings before a size's first round. */
#define P2PB_CLOCK_FIRST_READINGS 4

/* Tag of the exchanges (the kernels' tags are 100 and up). */
enum { CLOCK_TAG = 97 };

/* Rank 0: 1 while the reading needs another exchange. */
static int more_exchanges(const struct p2pb_clock *clk, int done, double best_rtt)
{
    if (done < P2PB_CLOCK_EXCHANGES_MIN)
        return 1;
    if (done >= P2PB_CLOCK_EXCHANGES_MAX || clk->rtt_min <= 0)
        return 0;
    return best_rtt > P2PB_CLOCK_GOOD_RTT * clk->rtt_min;
}

/* Rank 0's side of a reading: exchanges until more_exchanges says enough;
 * each starts with an int, 1 (answer) or 0 (the reading is over). */
static void reference_side(const struct p2pb_measure *r, double best[3])
{
    const struct p2pb_kernel_ctx *c = &r->c;
    int go = 1, done = 0;
    best[2] = -1;
    while (go) {
        double t1 = (double)p2pb_now_ns(), tb = 0;
        P2PB_MPI_CHECK(MPI_Send(&go, 1, MPI_INT, 1, CLOCK_TAG, c->comm));
        P2PB_MPI_CHECK(MPI_Recv(&tb, 1, MPI_DOUBLE, 1, CLOCK_TAG, c->comm, MPI_STATUS_IGNORE));
        struct p2pb_clock_point p = p2pb_clock_reading(t1, (double)p2pb_now_ns(), tb);
        if (best[2] < 0 || p.rtt < best[2]) {
            best[0] = p.t;
            best[1] = p.offset;
            best[2] = p.rtt;
        }
        go = more_exchanges(&r->clk, ++done, best[2]);
    }
    P2PB_MPI_CHECK(MPI_Send(&go, 1, MPI_INT, 1, CLOCK_TAG, c->comm));
}

/* One reading between ranks 0 and 1, on every rank. Collective. */
static struct p2pb_clock_point reading(struct p2pb_measure *r)
{
    const struct p2pb_kernel_ctx *c = &r->c;
    double best[3] = {0, 0, -1}; /* t, offset, rtt of the fastest exchange */
    if (c->rank == 0) {
        reference_side(r, best);
    } else if (c->rank == 1) {
        for (;;) {
            int go = 0;
            P2PB_MPI_CHECK(MPI_Recv(&go, 1, MPI_INT, 0, CLOCK_TAG, c->comm, MPI_STATUS_IGNORE));
            if (!go)
                break;
            double tb = (double)p2pb_now_ns();
            P2PB_MPI_CHECK(MPI_Send(&tb, 1, MPI_DOUBLE, 0, CLOCK_TAG, c->comm));
        }
    }
    P2PB_MPI_CHECK(MPI_Bcast(best, 3, MPI_DOUBLE, 0, c->comm));
    struct p2pb_clock_point p = {best[0], best[1], best[2]};
    return p;
}

void p2pb_oneway_round_begin(struct p2pb_measure *r)
{
    if (r->round == 0 && r->clk.npts == 0)
        p2pb_clock_init(&r->clk);
    int n = r->clk.npts ? 1 : P2PB_CLOCK_FIRST_READINGS;
    struct p2pb_clock_point p = {0, 0, 0};
    for (int i = 0; i < n; i++) {
        p = reading(r);
        p2pb_clock_add(&r->clk, &p);
    }
    /* rank 0's time of the reading: client time minus its offset */
    r->epoch_ref = p.t - p.offset;
}

void p2pb_oneway_round_end(struct p2pb_measure *r)
{
    struct p2pb_clock_point p = reading(r);
    p2pb_clock_check(&r->clk, &p);
}

/* 1 when this rank sends in the kernel's direction (0: the lower rank). */
static int is_sender(const struct p2pb_kernel_ctx *c)
{
    return c->direction == 0 ? c->rank < c->peer : c->rank > c->peer;
}

double p2pb_oneway_iters(struct p2pb_measure *r, size_t m)
{
    struct p2pb_kernel_ctx *c = &r->c;
    if (!c->active || m == 0)
        return 0.0;
    const int sender = is_sender(c);
    const uint64_t base = p2pb_now_ns(); /* this rank's clock; sums from here stay exact */
    uint64_t sum = 0;
    for (size_t i = 0; i < m; i++) {
        size_t set = r->buf.nsets > 1 ? (size_t)(c->iter % r->buf.nsets) : 0;
        c->sbuf = r->buf.sbase + set * r->buf.sstride;
        c->rbuf = r->buf.rbase + set * r->buf.rstride;
        uint64_t t = sender ? p2pb_now_ns() : 0;
        if (r->k->run_iter(c) != P2PB_OK)
            p2pb_mpi_fail(r->k->name, __FILE__, __LINE__, MPI_SUCCESS);
        if (!sender)
            t = p2pb_now_ns();
        sum += t - base;
        if (r->k->finish_iter && r->k->finish_iter(c) != P2PB_OK)
            p2pb_mpi_fail(r->k->name, __FILE__, __LINE__, MPI_SUCCESS);
        c->iter++;
    }
    /* sum over i of (t_i on rank 0's clock - epoch): rank 0's times as they
     * are, rank 1's minus the model's offset at each; the model is a line,
     * so its sum is taken at the mean time */
    long double mean_t = (long double)base + (long double)sum / (long double)m;
    long double off =
        c->rank == 0 ? 0.0L : (long double)p2pb_clock_predict(&r->clk.m, (double)mean_t);
    long double share = (long double)m * (mean_t - off - (long double)r->epoch_ref);
    return (double)(sender ? -share : share);
}
