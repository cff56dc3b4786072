/* SPDX-License-Identifier: MIT */
/*
 * contract.c - the services include/p2pbench/kernel.h promises a kernel:
 * MPI error reporting and buffer-region counts. Needs MPI, nothing of the
 * harness.
 */
#include <stdio.h>

#include "p2pbench/kernel.h"

enum p2pb_status p2pb_mpi_error(const char *call, const char *file, int line, int code)
{
    char msg[MPI_MAX_ERROR_STRING] = "";
    int len = 0, rank = -1;
    MPI_Error_string(code, msg, &len);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    fprintf(stderr, "p2pbench: rank %d: %s failed (%s:%d): %s\n", rank, call, file, line, msg);
    fflush(stderr);
    return P2PB_EMPI;
}

size_t p2pb_kernel_regions(int spec, size_t window)
{
    if (spec == P2PB_WINDOW_REGIONS)
        return window ? window : 1;
    return spec > 0 ? (size_t)spec : 1;
}
