/* SPDX-License-Identifier: MIT */
/*
 * alignment.c - what the placement of PingPong's buffers costs, as a
 * stand-alone MPI program (scripts/bench/alignment.sh builds and runs it).
 *
 * For sizes 0 and 2^0 .. 2^MAXLOG, ascending, it runs the sequence that an
 * IMB-MPI1 sweep runs per size (1 iteration, then the size's repetitions,
 * then a tenth of them, at least 10, then the timed repetitions: 1000 up to
 * 32 KiB, then 40 MiB / X) and prints the timed mean half round trip, once
 * with buffers from malloc (their offsets as the C library places them, as
 * IMB allocates its buffers) and once page aligned (as p2pbench places
 * them), in two launches of this program:
 *
 *   mpirun -np 2 alignment malloc|page [MAXLOG]
 *
 * Output, rank 0: "bytes t_usec send_offset recv_offset" per size from 2 KiB,
 * offsets = address mod 4096.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank;

/* n PingPong iterations after two barriers; the mean half round trip, usec. */
static double pingpong(char *s, char *q, int x, int n)
{
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < n; i++) {
        if (rank == 0) {
            MPI_Send(s, x, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
            MPI_Recv(q, x, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            MPI_Recv(q, x, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(s, x, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
        }
    }
    return (MPI_Wtime() - t0) / n * 1e6 / 2;
}

/* A buffer of x bytes (at least 1): malloc, or page aligned. */
static char *buffer(size_t x, int aligned)
{
    void *p = NULL;
    if (!aligned)
        return malloc(x ? x : 1);
    return posix_memalign(&p, 4096, x ? x : 1) == 0 ? p : NULL;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int aligned = argc > 1 && strcmp(argv[1], "page") == 0;
    int maxlog = argc > 2 ? atoi(argv[2]) : 17;
    if (maxlog < 0 || maxlog > 22)
        maxlog = 17;
    char *s = NULL, *q = NULL;
    size_t have = 0;
    for (int lg = -1; lg <= maxlog; lg++) {
        size_t x = lg < 0 ? 0 : (size_t)1 << lg;
        int reps = x <= 32768 ? 1000 : (int)(41943040 / x);
        if (!s || x > have) { /* grow only, as IMB's buffers do */
            free(s);
            free(q);
            s = buffer(x, aligned);
            q = buffer(x, aligned);
            if (!s || !q)
                MPI_Abort(MPI_COMM_WORLD, 1);
            memset(s, 1, x);
            memset(q, 0, x);
            have = x;
        }
        pingpong(s, q, (int)x, 1);
        pingpong(s, q, (int)x, reps);
        pingpong(s, q, (int)x, reps / 10 > 10 ? reps / 10 : 10);
        double t = pingpong(s, q, (int)x, reps);
        if (rank == 0 && x >= 2048)
            printf("%zu %.3f %lu %lu\n", x, t, (unsigned long)((uintptr_t)s % 4096),
                   (unsigned long)((uintptr_t)q % 4096));
    }
    free(s);
    free(q);
    MPI_Finalize();
    return 0;
}
