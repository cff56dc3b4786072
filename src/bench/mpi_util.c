/* SPDX-License-Identifier: MIT */
/*
 * mpi_util.c - P2PB_MPI_CHECK's failure path (mpi_util.h): print the call,
 * file, line and MPI's error string (p2pb_mpi_error, kernel.h), then abort
 * the job, so that no peer waits forever for a rank that failed.
 */
#include <unistd.h>

#include "mpi_util.h"
#include "p2pbench/kernel.h"

void p2pb_mpi_fail(const char *call, const char *file, int line, int code)
{
    if (code != MPI_SUCCESS)
        p2pb_mpi_error(call, file, line, code);
    MPI_Abort(MPI_COMM_WORLD, 1);
    _exit(1);
}
