/* SPDX-License-Identifier: MIT */
/*
 * mpi_util.h - internal: the one checking macro for MPI calls. On error it
 * prints the call, file, line and MPI's own error string, then aborts the job
 * (a rank that failed mid-message would otherwise leave its peers hanging).
 */
#ifndef P2PBENCH_MPI_UTIL_H
#define P2PBENCH_MPI_UTIL_H

#include <mpi.h>

void p2pb_mpi_fail(const char *call, const char *file, int line, int code);

#define P2PB_MPI_CHECK(call)                                    \
    do {                                                        \
        int p2pb_rc_ = (call);                                  \
        if (p2pb_rc_ != MPI_SUCCESS)                            \
            p2pb_mpi_fail(#call, __FILE__, __LINE__, p2pb_rc_); \
    } while (0)

#endif /* P2PBENCH_MPI_UTIL_H */
