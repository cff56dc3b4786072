/* SPDX-License-Identifier: MIT */
/*
 * pmpi_test.h - the start and end shared by the byte-counting programs of
 * tests/benchmarks/ (each defines MPI_* wrappers that count, then calls
 * PMPI_*): MPI_Init and the rank count at the start, the failures summed
 * over the ranks and one closing line at the end.
 */
#ifndef P2PBENCH_TEST_PMPI_H
#define P2PBENCH_TEST_PMPI_H

#include <mpi.h>
#include <stdio.h>

/* MPI_Init; *rank, *nranks of MPI_COMM_WORLD. Returns 0, or 77 after
 * "SKIP: needs at least 2 ranks" and MPI_Finalize (fewer than 2 ranks). */
static inline int pmpi_test_start(int *argc, char ***argv, int *rank, int *nranks)
{
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, nranks);
    if (*nranks >= 2)
        return 0;
    if (*rank == 0)
        printf("SKIP: needs at least 2 ranks\n");
    MPI_Finalize();
    return 77;
}

/* The failures of every rank summed (through PMPI, uncounted); rank 0
 * prints "PASS|FAIL: CASES WHAT on N ranks, F failures"; MPI_Finalize.
 * Returns the exit code: 0 pass, 1 fail. */
static inline int pmpi_test_end(int failures, int cases, const char *what, int rank, int nranks)
{
    int all = 0;
    PMPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%s: %d %s on %d ranks, %d failures\n", all ? "FAIL" : "PASS", cases, what, nranks,
               all);
    MPI_Finalize();
    return all ? 1 : 0;
}

#endif
