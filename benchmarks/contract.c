/* SPDX-License-Identifier: MIT */
/*
 * contract.c - the services include/p2pbench/kernel.h promises a kernel:
 * MPI error reporting, buffer-region counts and the bytes counted per
 * iteration (struct p2pb_bytes_rule). Needs MPI, nothing of the harness.
 */
#include <stdio.h>
#include <string.h>

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

double p2pb_kernel_bytes(const struct p2pb_kernel *k, size_t x, size_t window, size_t copy_bytes)
{
    switch (k->bytes.unit) {
    case P2PB_BYTES_WINDOW_X: return k->bytes.count * (double)window * (double)x;
    case P2PB_BYTES_COPY_BUFFER: return k->bytes.count * (double)copy_bytes;
    case P2PB_BYTES_X: break;
    }
    return k->bytes.count * (double)x;
}

double p2pb_kernel_bytes_factor(const struct p2pb_kernel *k, size_t x, size_t window,
                                size_t copy_bytes)
{
    switch (k->bytes.unit) {
    case P2PB_BYTES_WINDOW_X: return k->bytes.count * (double)window;
    case P2PB_BYTES_COPY_BUFFER: return x ? k->bytes.count * ((double)copy_bytes / (double)x) : 0.0;
    case P2PB_BYTES_X: break;
    }
    return k->bytes.count;
}

int p2pb_kernel_fixed_bytes(const struct p2pb_kernel *k)
{
    return k->bytes.unit == P2PB_BYTES_COPY_BUFFER;
}

int p2pb_kernel_reads(const struct p2pb_kernel *k, const char *opt)
{
    for (size_t i = 0; k->optdefs && i < k->n_optdefs; i++)
        if (strcmp(k->optdefs[i].name, opt) == 0)
            return 1;
    return 0;
}

double p2pb_kernel_msgs(const struct p2pb_kernel *k, size_t window)
{
    if (k->msgs.unit == P2PB_MSGS_WINDOW)
        return k->msgs.count * (double)window;
    return k->msgs.count;
}
