/* SPDX-License-Identifier: MIT */
/*
 * progress.c - per-rank progress counters for the --timeout report: which
 * ranks had not reached the step rank 0 was waiting in when its timer fired.
 *
 * Every rank counts the checkpoints it passes (the watchdog's steps and the
 * phases of a size, watchdog.c); all ranks pass the same checkpoints in the
 * same order, so equal counts mean the same place. At each checkpoint a rank
 * sends its count to rank 0 (one int, MPI_Isend on a communicator of its
 * own, off the timed path). Rank 0 keeps one receive posted per rank and
 * collects what arrived at its own checkpoints. Its SIGALRM handler cannot
 * call MPI: it reads the counts it has, plus the receive buffers themselves,
 * where a count that arrived while rank 0 was blocked in another MPI call
 * has already been stored (a diagnostic read; the value only names ranks in
 * the message). A rank stopped inside a phase (SIGSTOP, a paused VM) has
 * reached it like the others; for ranks on rank 0's host the handler also
 * reads each one's state from /proc/PID/stat ("T": stopped). Nothing here
 * blocks except under the watchdog's timer. Used only when --timeout is set.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "measure.h"

/* Message tag of a progress count (the communicator is ours alone). */
#define P2PB_PROGRESS_TAG 1

static struct {
    MPI_Comm comm; /* MPI_COMM_NULL: not in use */
    int rank, nranks;
    int count;        /* checkpoints this rank passed */
    int sendbuf;      /* ranks > 0: the count in flight */
    MPI_Request sreq; /* ranks > 0: its send */
    int *seen;        /* rank 0: last count collected per rank */
    int *slot;        /* rank 0: receive buffer per rank */
    MPI_Request *rreq;
    char (*stat_path)[32]; /* rank 0: "/proc/PID/stat" of ranks on its host, else "" */
} pg = {MPI_COMM_NULL, 0, 0, 0, 0, MPI_REQUEST_NULL, NULL, NULL, NULL, NULL};

/* Rank 0: the /proc/PID/stat path of every rank on its own host (the
 * shared-memory node of MPI_Comm_split_type). Collective. */
static void local_ranks(void)
{
    MPI_Comm node;
    int pid = (int)getpid(), on_mine = 0, *pids = NULL, *local = NULL;
    P2PB_MPI_CHECK(
        MPI_Comm_split_type(pg.comm, MPI_COMM_TYPE_SHARED, pg.rank, MPI_INFO_NULL, &node));
    int node_root_is_0 = pg.rank == 0;
    P2PB_MPI_CHECK(MPI_Bcast(&node_root_is_0, 1, MPI_INT, 0, node));
    on_mine = node_root_is_0;
    MPI_Comm_free(&node);
    if (pg.rank == 0) {
        pids = malloc((size_t)pg.nranks * sizeof *pids);
        local = malloc((size_t)pg.nranks * sizeof *local);
        pg.stat_path = calloc((size_t)pg.nranks, sizeof *pg.stat_path);
    }
    P2PB_MPI_CHECK(MPI_Gather(&pid, 1, MPI_INT, pids, 1, MPI_INT, 0, pg.comm));
    P2PB_MPI_CHECK(MPI_Gather(&on_mine, 1, MPI_INT, local, 1, MPI_INT, 0, pg.comm));
    for (int r = 1; pg.stat_path && pids && local && r < pg.nranks; r++)
        if (local[r])
            snprintf(pg.stat_path[r], sizeof pg.stat_path[r], "/proc/%d/stat", pids[r]);
    free(pids);
    free(local);
}

void p2pb_progress_init(MPI_Comm comm)
{
    P2PB_MPI_CHECK(MPI_Comm_dup(comm, &pg.comm));
    MPI_Comm_rank(pg.comm, &pg.rank);
    MPI_Comm_size(pg.comm, &pg.nranks);
    local_ranks();
    if (pg.rank != 0)
        return;
    pg.seen = calloc((size_t)pg.nranks, sizeof *pg.seen);
    pg.slot = calloc((size_t)pg.nranks, sizeof *pg.slot);
    pg.rreq = malloc((size_t)pg.nranks * sizeof *pg.rreq);
    if (!pg.seen || !pg.slot || !pg.rreq)
        p2pb_mpi_fail("out of memory for the --timeout progress counters", __FILE__, __LINE__,
                      MPI_SUCCESS);
    for (int r = 0; r < pg.nranks; r++) {
        pg.rreq[r] = MPI_REQUEST_NULL;
        if (r > 0)
            P2PB_MPI_CHECK(
                MPI_Irecv(&pg.slot[r], 1, MPI_INT, r, P2PB_PROGRESS_TAG, pg.comm, &pg.rreq[r]));
    }
}

/* Rank 0: store every count that arrived from rank r; with `until`, wait
 * for counts up to it and leave no receive posted. */
static void collect(int r, int until)
{
    for (;;) {
        int done = 0;
        if (pg.rreq[r] == MPI_REQUEST_NULL)
            return;
        if (until && pg.seen[r] < until)
            P2PB_MPI_CHECK(MPI_Wait(&pg.rreq[r], MPI_STATUS_IGNORE));
        else if (until) {
            P2PB_MPI_CHECK(MPI_Cancel(&pg.rreq[r]));
            P2PB_MPI_CHECK(MPI_Wait(&pg.rreq[r], MPI_STATUS_IGNORE));
            return;
        } else
            P2PB_MPI_CHECK(MPI_Test(&pg.rreq[r], &done, MPI_STATUS_IGNORE));
        if (!until && !done)
            return;
        pg.seen[r] = pg.slot[r];
        P2PB_MPI_CHECK(
            MPI_Irecv(&pg.slot[r], 1, MPI_INT, r, P2PB_PROGRESS_TAG, pg.comm, &pg.rreq[r]));
    }
}

void p2pb_progress_mark(void)
{
    if (pg.comm == MPI_COMM_NULL)
        return;
    pg.count++;
    if (pg.rank == 0) {
        for (int r = 1; r < pg.nranks; r++)
            collect(r, 0);
        return;
    }
    P2PB_MPI_CHECK(MPI_Wait(&pg.sreq, MPI_STATUS_IGNORE));
    pg.sendbuf = pg.count;
    P2PB_MPI_CHECK(MPI_Isend(&pg.sendbuf, 1, MPI_INT, 0, P2PB_PROGRESS_TAG, pg.comm, &pg.sreq));
}

/* Async-signal-safe: 1 if /proc says rank r (on rank 0's host) is stopped. */
static int stopped(int r)
{
    if (!pg.stat_path || !pg.stat_path[r][0])
        return 0;
    char buf[256];
    int fd = open(pg.stat_path[r], O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return 0;
    buf[n] = '\0';
    const char *paren = strrchr(buf, ')'); /* "PID (comm) STATE ..." */
    return paren && paren[1] == ' ' && (paren[2] == 'T' || paren[2] == 't');
}

size_t p2pb_progress_behind(int *ranks, size_t cap)
{
    size_t n = 0;
    if (pg.comm == MPI_COMM_NULL || pg.rank != 0)
        return 0;
    for (int r = 1; r < pg.nranks; r++) {
        volatile const int *slot = &pg.slot[r];
        int got = pg.seen[r] > *slot ? pg.seen[r] : *slot;
        if ((got < pg.count || stopped(r)) && n < cap)
            ranks[n++] = r;
    }
    return n;
}

int p2pb_progress_self_behind(void)
{
    if (pg.comm == MPI_COMM_NULL || pg.rank != 0)
        return 0;
    for (int r = 1; r < pg.nranks; r++) {
        volatile const int *slot = &pg.slot[r];
        if (pg.seen[r] > pg.count || *slot > pg.count)
            return 1;
    }
    return 0;
}

void p2pb_progress_fini(void)
{
    if (pg.comm == MPI_COMM_NULL)
        return;
    if (pg.rank == 0)
        for (int r = 1; r < pg.nranks; r++)
            collect(r, pg.count);
    else
        P2PB_MPI_CHECK(MPI_Wait(&pg.sreq, MPI_STATUS_IGNORE));
    free(pg.seen);
    free(pg.slot);
    free(pg.rreq);
    free(pg.stat_path);
    pg.seen = pg.slot = NULL;
    pg.rreq = NULL;
    pg.stat_path = NULL;
    MPI_Comm_free(&pg.comm);
}
