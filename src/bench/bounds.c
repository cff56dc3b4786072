/* SPDX-License-Identifier: MIT */
/*
 * bounds.c - the bound beside each row (docs/kernels.md, "Bounds"): where
 * the ranks are (one host, or distinct hosts), the link speed of the
 * interface MPI uses, and, for ranks on one host, the rate of a local copy
 * of X bytes measured in the run. The judgement is src/common/bound.c.
 */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bound.h"
#include "measure.h"
#include "netif.h"

/* Timed batches of copies; the fastest gives the rate (a batch that lost
 * its CPU only lowers its own rate). */
#define P2PB_COPY_BATCHES 9

/* Shortest batch of copies, ns (the copy is repeated until this long). */
#define P2PB_COPY_BATCH_NS 20000.0

/* Speed of interface name in MB/s from sysfs (Mbit/s), 0 when unknown. */
static double link_speed_mbps(const char *name)
{
    char path[128];
    long mbit = -1;
    snprintf(path, sizeof path, "/sys/class/net/%s/speed", name);
    FILE *f = fopen(path, "r");
    if (f) {
        if (fscanf(f, "%ld", &mbit) != 1)
            mbit = -1;
        fclose(f);
    }
    return mbit > 0 ? (double)mbit * 1e6 / 8e6 : 0.0;
}

/* The fastest InfiniBand port of this host (RDMA devices under
 * /sys/class/infiniband, also Omni-Path and EFA), MB/s; 0 without one. */
static double ib_speed_mbps(void)
{
    glob_t g;
    double best = 0;
    if (glob("/sys/class/infiniband/*/ports/*/rate", 0, NULL, &g) != 0)
        return 0;
    for (size_t i = 0; i < g.gl_pathc; i++) {
        char line[64] = "";
        FILE *f = fopen(g.gl_pathv[i], "r");
        if (f && fgets(line, sizeof line, f)) {
            double v = p2pb_ib_rate_mbps(line);
            if (v > best)
                best = v;
        }
        if (f)
            fclose(f);
    }
    globfree(&g);
    return best;
}

int p2pb_bounds_open(struct p2pb_bounds *bd, MPI_Comm comm, int rank, int nranks,
                     const char *tcp_if)
{
    MPI_Comm node;
    int leader = rank;
    memset(bd, 0, sizeof *bd);
    P2PB_MPI_CHECK(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node));
    P2PB_MPI_CHECK(MPI_Allreduce(&rank, &leader, 1, MPI_INT, MPI_MIN, node));
    MPI_Comm_free(&node);
    bd->host_of = malloc((size_t)nranks * sizeof *bd->host_of);
    int ok = bd->host_of != NULL, allok = 0;
    P2PB_MPI_CHECK(MPI_Allreduce(&ok, &allok, 1, MPI_INT, MPI_MIN, comm));
    if (!allok) { /* no bound is the safe answer */
        p2pb_bounds_close(bd);
        return -1;
    }
    /* a host is named by its lowest rank */
    P2PB_MPI_CHECK(MPI_Allgather(&leader, 1, MPI_INT, bd->host_of, 1, MPI_INT, comm));
    /* the faster of the interface MPI uses and any RDMA port: MPI may go
     * through either, and a bound must be an upper bound */
    struct p2pb_netif nif;
    if (rank == 0 && p2pb_netif_pick(tcp_if, "/proc", &nif, NULL, 0) == 0)
        bd->link_mbps = link_speed_mbps(nif.name);
    if (rank == 0 && ib_speed_mbps() > bd->link_mbps)
        bd->link_mbps = ib_speed_mbps();
    P2PB_MPI_CHECK(MPI_Bcast(&bd->link_mbps, 1, MPI_DOUBLE, 0, comm));
    return 0;
}

void p2pb_bounds_close(struct p2pb_bounds *bd)
{
    free(bd->host_of);
    memset(bd, 0, sizeof *bd);
}

/* Where the first n ranks are: 1 all on one host, 2 each on its own host,
 * 0 mixed or unknown. */
static int layout(const int *host_of, int n)
{
    if (!host_of || n < 1)
        return 0;
    int same = 1, distinct = 1;
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++) {
            same &= host_of[a] == host_of[b];
            distinct &= host_of[a] != host_of[b];
        }
    return same ? 1 : distinct ? 2 : 0;
}

/* Rank 0: the fastest copy of X bytes from its send to its receive buffer,
 * MB/s: the kernel's own buffers, warm in the cache as its messages are,
 * the copy repeated in batches of at least P2PB_COPY_BATCH_NS; the fastest
 * batch. 0 without buffers. */
static double copy_rate(const struct p2pb_measure *r)
{
    const size_t x = r->c.bytes;
    if (!r->buf.sbase || !r->buf.rbase)
        return 0;
    size_t m = 1;
    double best = 0;
    for (int i = 0; i < P2PB_COPY_BATCHES; i++) {
        uint64_t t0 = p2pb_now_ns();
        for (size_t j = 0; j < m; j++)
            memcpy(r->buf.rbase, r->buf.sbase, x);
        double ns = (double)(p2pb_now_ns() - t0);
        double rate = ns > 0 ? (double)x * (double)m / ns * 1e3 : 0; /* B/ns -> MB/s */
        if (rate > best)
            best = rate;
        if (ns < P2PB_COPY_BATCH_NS && m < ((size_t)1 << 24))
            m *= 2;
    }
    return best;
}

/* The copy rate at r's size: measured once per size and run on rank 0,
 * then kept (every rank keeps the same table). Collective. */
static double cached_copy_rate(struct p2pb_bounds *bd, const struct p2pb_measure *r)
{
    for (size_t i = 0; i < bd->n; i++)
        if (bd->x[i] == r->c.bytes)
            return bd->rate[i];
    double rate = r->c.rank == 0 ? copy_rate(r) : 0.0;
    P2PB_MPI_CHECK(MPI_Bcast(&rate, 1, MPI_DOUBLE, 0, r->c.comm));
    if (bd->n < P2PB_BOUNDS_SIZES) {
        bd->x[bd->n] = r->c.bytes;
        bd->rate[bd->n++] = rate;
    }
    return rate;
}

void p2pb_bounds_measure(struct p2pb_measure *r)
{
    const struct p2pb_policy *pol = r->pol;
    r->path_mbps = 0;
    r->bound_source = P2PB_BOUND_NONE;
    if (!(r->k->bound_paths > 0) || r->c.bytes == 0 || r->bf == 0)
        return; /* r->bf 0: an overlap kernel's compute alone */
    if (pol->bound_mbps > 0) {
        r->path_mbps = pol->bound_mbps;
        r->bound_source = P2PB_BOUND_GIVEN;
        return;
    }
    struct p2pb_bounds *bd = pol->bounds;
    int where = bd ? layout(bd->host_of, r->nactive) : 0;
    if (where == 2 && bd->link_mbps > 0) {
        r->path_mbps = bd->link_mbps;
        r->bound_source = P2PB_BOUND_LINK;
    } else if (where == 1) { /* every rank decides alike: a collective is safe */
        r->path_mbps = cached_copy_rate(bd, r);
        r->bound_source = r->path_mbps > 0 ? P2PB_BOUND_COPY : P2PB_BOUND_NONE;
    }
}

void p2pb_bounds_rows(const struct p2pb_measure *r, struct p2pb_result *rows)
{
    for (size_t i = 0; i < r->nout; i++) {
        double paths = r->k->bound_paths;
        if (r->per_group && i + 1 == r->nout)
            paths *= r->ngroups; /* the aggregate sums the groups' MB/s */
        if (rows[i].status == P2PB_ROW_OK && r->bound_source != P2PB_BOUND_NONE)
            p2pb_bound_judge(&rows[i].bound, paths * r->path_mbps, r->bound_source,
                             rows[i].mbytes_per_sec);
    }
}
