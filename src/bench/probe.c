/* SPDX-License-Identifier: MIT */
/*
 * probe.c - the placement probe (docs/host-context.md, "Placement probe"),
 * run once before the kernels, off every timed path of the harness. For the
 * pairs (0,1), (2,3), ... (at most P2PB_PROBE_MAX_PAIRS) whose two ranks
 * share a host (one MPI_COMM_TYPE_SHARED communicator), one pair at a time:
 * one 64-bit counter in one cache line of an MPI-3 shared-memory window
 * (MPI_Win_allocate_shared) is bounced between the two ranks' CPUs. The
 * initiator writes an odd value and waits for the next even one; its partner
 * waits for the odd value and writes the even one. A batch of
 * P2PB_PROBE_ROUND_TRIPS round trips, timed on the initiator, gives the
 * one-way latency of a cache line: batch time / round trips / 2. One untimed
 * batch, then P2PB_PROBE_BATCHES timed ones; every wait is bounded by the
 * pair's wall-clock cap, so a descheduled partner ends the pair early
 * (recorded as incomplete), never the run. Rank 0 gathers the values
 * (struct p2pb_probe, src/common/probe.h) for the run record and tables.
 */
#define _GNU_SOURCE 1 /* sched_getcpu */
#include <math.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "host/hostinfo.h"
#include "mpi_util.h"
#include "probe.h"

/* Bytes between two pairs' counters: two 64-byte lines, so that a CPU's
 * adjacent-line prefetch never pulls in another pair's line. */
enum { LINE_STRIDE = 128 };

/* The value the initiator writes when it stops early; its partner stops
 * when it reads it. */
#define STOP_VALUE UINT64_MAX

/* Clock reads are made once every this many polls of the line. */
enum { POLLS_PER_CLOCK_READ = 256 };

/* Wait until *line holds want (returns 1) or STOP_VALUE or the deadline
 * (p2pb_now_ns) passed (returns 0). */
static int wait_for(_Atomic uint64_t *line, uint64_t want, uint64_t deadline)
{
    for (unsigned polls = 1;; polls++) {
        uint64_t v = atomic_load_explicit(line, memory_order_acquire);
        if (v == want)
            return 1;
        if (v == STOP_VALUE)
            return 0;
        if (polls % POLLS_PER_CLOCK_READ == 0 && p2pb_now_ns() > deadline)
            return 0;
    }
}

/* The initiator's side of one pair: the untimed batch, then the timed ones
 * into p->batch_ns (one-way ns), until all are done or the cap. Always ends
 * with STOP_VALUE so that the partner returns. */
static void initiate(_Atomic uint64_t *line, struct p2pb_probe_pair *p)
{
    uint64_t deadline = p2pb_now_ns() + (uint64_t)(P2PB_PROBE_CAP_MS * 1e6);
    uint64_t seq = 0;
    p->nbatches = 0;
    for (int b = -1; b < P2PB_PROBE_BATCHES; b++) {
        uint64_t t0 = p2pb_now_ns();
        int ok = 1;
        for (int i = 0; i < P2PB_PROBE_ROUND_TRIPS && ok; i++) {
            atomic_store_explicit(line, ++seq, memory_order_release);
            ok = wait_for(line, ++seq, deadline);
        }
        uint64_t t1 = p2pb_now_ns();
        if (!ok)
            break;
        if (b >= 0)
            p->batch_ns[p->nbatches++] = (double)(t1 - t0) / P2PB_PROBE_ROUND_TRIPS / 2.0;
    }
    atomic_store_explicit(line, STOP_VALUE, memory_order_release);
}

/* The partner's side: answer every odd value with the next even one until
 * the initiator stops, or three times the cap. */
static void respond(_Atomic uint64_t *line)
{
    uint64_t deadline = p2pb_now_ns() + (uint64_t)(3 * P2PB_PROBE_CAP_MS * 1e6);
    uint64_t total = (uint64_t)(P2PB_PROBE_BATCHES + 1) * P2PB_PROBE_ROUND_TRIPS;
    for (uint64_t seq = 1; seq < 2 * total; seq += 2) {
        if (!wait_for(line, seq, deadline))
            return;
        atomic_store_explicit(line, seq + 1, memory_order_release);
    }
}

/* What each rank sends to rank 0 after the pairs: its CPU before and after
 * its pair (-1: none or unknown), then, on an initiator, the batch count and
 * the batches. */
enum { G_CPU0, G_CPU1, G_NB, G_BATCH, G_LEN = G_BATCH + P2PB_PROBE_BATCHES };

/* The pairs whose two ranks share a host: pair[i] = initiator rank of the
 * i-th; returns their number. node = this rank's shared-memory communicator.
 * Collective on comm. */
static int find_pairs(MPI_Comm comm, MPI_Comm node, int nranks, int rank, int *pair)
{
    int id = rank, n = 0;
    /* the node's id: the comm rank of its first member */
    P2PB_MPI_CHECK(MPI_Bcast(&id, 1, MPI_INT, 0, node));
    int ids[2 * P2PB_PROBE_MAX_PAIRS];
    int m = nranks < 2 * P2PB_PROBE_MAX_PAIRS ? nranks : 2 * P2PB_PROBE_MAX_PAIRS;
    int *all = malloc((size_t)nranks * sizeof *all);
    if (!all)
        p2pb_mpi_fail("malloc", __FILE__, __LINE__, MPI_ERR_NO_MEM);
    P2PB_MPI_CHECK(MPI_Allgather(&id, 1, MPI_INT, all, 1, MPI_INT, comm));
    memcpy(ids, all, (size_t)m * sizeof *ids);
    free(all);
    for (int a = 0; a + 1 < m; a += 2)
        if (ids[a] == ids[a + 1])
            pair[n++] = a;
    return n;
}

/* Probe the pairs one at a time in the node's window at base (one line
 * per pair index); fill this rank's gather record g. Collective on comm. */
static void probe_pairs(MPI_Comm comm, int rank, const int *pair, int npairs, char *base, double *g,
                        struct p2pb_probe_pair *mine)
{
    for (int i = 0; i < npairs; i++) {
        P2PB_MPI_CHECK(MPI_Barrier(comm));
        int a = pair[i];
        if (rank != a && rank != a + 1)
            continue;
        _Atomic uint64_t *line = (_Atomic uint64_t *)(void *)(base + (size_t)(a / 2) * LINE_STRIDE);
        g[G_CPU0] = sched_getcpu();
        if (rank == a)
            initiate(line, mine);
        else
            respond(line);
        g[G_CPU1] = sched_getcpu();
        g[G_NB] = rank == a ? (double)mine->nbatches : 0;
        for (size_t b = 0; rank == a && b < mine->nbatches; b++)
            g[G_BATCH + b] = mine->batch_ns[b];
    }
    P2PB_MPI_CHECK(MPI_Barrier(comm));
}

/* Rank 0: the pairs from every rank's gather record (all: nranks x G_LEN). */
static void assemble(struct p2pb_run *run, const int *pair, int npairs, const double *all)
{
    struct p2pb_probe *p = &run->probe;
    const cJSON *ranks = run->ranks;
    for (int i = 0; i < npairs; i++) {
        struct p2pb_probe_pair *q = &p->pairs[p->npairs++];
        const double *ga = all + (size_t)pair[i] * G_LEN, *gb = ga + G_LEN;
        memset(q, 0, sizeof *q);
        q->ranks[0] = pair[i];
        q->ranks[1] = pair[i] + 1;
        q->cpus[0] = (int)ga[G_CPU1];
        q->cpus[1] = (int)gb[G_CPU1];
        q->migrated = ga[G_CPU0] != ga[G_CPU1] || gb[G_CPU0] != gb[G_CPU1];
        q->nbatches = (size_t)ga[G_NB];
        memcpy(q->batch_ns, ga + G_BATCH, q->nbatches * sizeof *q->batch_ns);
        const char *h = cJSON_GetStringValue(
            cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(ranks, pair[i]), "host"));
        snprintf(q->host, sizeof q->host, "%s", h ? h : "");
        p2pb_probe_pair_finish(q);
    }
}

/*
 * The node's shared window of one line per possible pair (plus a stride to
 * align the first one), zeroed, under MPI_Win_lock_all; returns its aligned
 * base, or NULL on every rank when some rank could not allocate it (Open MPI
 * without its osc sm component: --mca osc ^sm), the reason in
 * run->probe.error on rank 0. Collective on run->comm.
 */
static char *open_window(struct p2pb_run *run, MPI_Comm node, MPI_Win *win)
{
    int node_rank, disp, ok, all_ok;
    char *base = NULL;
    MPI_Aint size;
    MPI_Comm_rank(node, &node_rank);
    MPI_Aint bytes = node_rank == 0 ? (P2PB_PROBE_MAX_PAIRS + 1) * LINE_STRIDE : 0;
    int rc = MPI_Win_allocate_shared(bytes, 1, MPI_INFO_NULL, node, &base, win);
    ok = rc == MPI_SUCCESS;
    P2PB_MPI_CHECK(MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, run->comm));
    if (!all_ok) {
        char msg[MPI_MAX_ERROR_STRING] = "failed on another rank";
        int len = 0;
        if (!ok)
            MPI_Error_string(rc, msg, &len);
        else
            MPI_Win_free(win);
        snprintf(run->probe.error, sizeof run->probe.error, "MPI_Win_allocate_shared: %.150s", msg);
        return NULL;
    }
    P2PB_MPI_CHECK(MPI_Win_shared_query(*win, 0, &size, &disp, &base));
    base += (LINE_STRIDE - (uintptr_t)base % LINE_STRIDE) % LINE_STRIDE;
    P2PB_MPI_CHECK(MPI_Win_lock_all(MPI_MODE_NOCHECK, *win));
    if (node_rank == 0)
        memset(base, 0, P2PB_PROBE_MAX_PAIRS * LINE_STRIDE);
    P2PB_MPI_CHECK(MPI_Win_sync(*win));
    P2PB_MPI_CHECK(MPI_Barrier(node));
    P2PB_MPI_CHECK(MPI_Win_sync(*win));
    return base;
}

/* Rank 0: the probe's constants, its cost since t0 (p2pb_now_ns), valid. */
static void close_probe(struct p2pb_probe *p, uint64_t t0)
{
    p->valid = 1;
    p->round_trips = P2PB_PROBE_ROUND_TRIPS;
    p->cap_ms = P2PB_PROBE_CAP_MS;
    p->cost_ms = (double)(p2pb_now_ns() - t0) * 1e-6;
}

void p2pb_probe_run(struct p2pb_run *run)
{
    memset(&run->probe, 0, sizeof run->probe);
    if (run->opt->no_probe || run->opt->survey)
        return;
    uint64_t t0 = p2pb_now_ns();
    MPI_Comm node;
    int pair[P2PB_PROBE_MAX_PAIRS];
    P2PB_MPI_CHECK(
        MPI_Comm_split_type(run->comm, MPI_COMM_TYPE_SHARED, run->rank, MPI_INFO_NULL, &node));
    int npairs = find_pairs(run->comm, node, run->nranks, run->rank, pair);
    if (npairs == 0) { /* every rank knows it (Allgather): no window, nothing to gather */
        P2PB_MPI_CHECK(MPI_Comm_free(&node));
        if (run->rank == 0)
            close_probe(&run->probe, t0);
        return;
    }
    MPI_Win win;
    char *base = open_window(run, node, &win);
    if (!base) { /* no shared-memory window in this MPI library (or setting): no values */
        P2PB_MPI_CHECK(MPI_Comm_free(&node));
        if (run->rank == 0)
            close_probe(&run->probe, t0);
        return;
    }

    double g[G_LEN] = {[G_CPU0] = -1, [G_CPU1] = -1};
    struct p2pb_probe_pair mine;
    memset(&mine, 0, sizeof mine);
    probe_pairs(run->comm, run->rank, pair, npairs, base, g, &mine);
    P2PB_MPI_CHECK(MPI_Win_unlock_all(win));
    P2PB_MPI_CHECK(MPI_Win_free(&win));
    P2PB_MPI_CHECK(MPI_Comm_free(&node));

    double *all = run->rank == 0 ? malloc((size_t)run->nranks * G_LEN * sizeof *all) : NULL;
    if (run->rank == 0 && !all)
        p2pb_mpi_fail("malloc", __FILE__, __LINE__, MPI_ERR_NO_MEM);
    P2PB_MPI_CHECK(MPI_Gather(g, G_LEN, MPI_DOUBLE, all, G_LEN, MPI_DOUBLE, 0, run->comm));
    if (run->rank == 0) {
        assemble(run, pair, npairs, all);
        close_probe(&run->probe, t0);
    }
    free(all);
}
