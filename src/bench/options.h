/* SPDX-License-Identifier: MIT */
/*
 * options.h - command line of p2pbench: option table, size lists, validation.
 * Parsing is pure (no MPI): main.c parses on every rank, rank 0's verdict is
 * broadcast so every rank exits with the same message and code.
 */
#ifndef P2PBENCH_OPTIONS_H
#define P2PBENCH_OPTIONS_H

#include <stddef.h>

#include "harness.h"
#include "p2pbench/kernel.h"
#include "output/output.h"
#include "p2pbench/status.h"
#include "sizes.h" /* p2pb_parse_size, size lists */
#include "text.h"  /* p2pb_text_sanitize for main.c, until it includes text.h itself */

#define P2PB_MAX_SIZES 4096
#define P2PB_MAX_KERNELS 64

struct p2pb_options {
    const struct p2pb_kernel *kernels[P2PB_MAX_KERNELS];
    size_t nkernels;
    size_t sizes[P2PB_MAX_SIZES]; /* message sizes in bytes, ascending, no duplicates */
    size_t nsizes;
    int sizes_given; /* 1 if --sizes / --msglog was given; else sizes
                      * holds the global default and kernels with
                      * their own default_sizes use those */
    const struct p2pb_reporter *reporter;
    char output[1024];  /* results file path; "" = none (--no-results) */
    int output_default; /* 1 if output was not given (default name) */
    char label[64];
    struct p2pb_policy policy;
    int numa_node; /* --numa-node: buffers on this NUMA node (OS index); -1 = first touch */
    int do_list, do_info, do_help, do_version;
};

/* Default sizes: 0 and 2^0 .. 2^22 (24 sizes). */
void p2pb_default_sizes(size_t *sizes, size_t *n);

/*
 * Parse argv into o. Never prints, never exits. Returns P2PB_OK or
 * P2PB_EUSAGE / P2PB_ERANGE with a one-line message in err naming the bad
 * option or value. Kernels may be given as positional arguments or with -k.
 */
enum p2pb_status p2pb_options_parse(int argc, char **argv, struct p2pb_options *o, char *err,
                                    size_t errlen);

/* Print --help to f. */
void p2pb_options_usage(FILE *f);

#endif /* P2PBENCH_OPTIONS_H */
