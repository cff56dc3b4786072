/* SPDX-License-Identifier: MIT */
/*
 * sizes.h - message sizes as the command line writes them: one size with a
 * binary suffix, size lists with ranges, IMB's -msglog. MPI-free; the
 * options of p2pbench (src/bench/options.c) use them.
 */
#ifndef P2PBENCH_SIZES_H
#define P2PBENCH_SIZES_H

#include <stddef.h>

#include "p2pbench/status.h"

/*
 * Parse one size with an optional binary suffix: "0", "8", "1K" (1024),
 * "64k", "1M" (2^20), "2G" (2^30), "1T" (2^40), "1KiB", "3B". Whitespace is
 * not allowed.
 * Returns P2PB_OK, P2PB_EUSAGE (not a size) or P2PB_ERANGE (overflows
 * size_t), with a message in err naming the text.
 */
enum p2pb_status p2pb_parse_size(const char *text, size_t *out, char *err, size_t errlen);

/*
 * Parse a size list into sizes[0..*n-1] (at most cap entries), in the given
 * order, duplicates removed. Forms, comma separated and mixable:
 *   "0,8,1K,64K,1M"   explicit sizes
 *   "1K..1M"          powers of 2 from 1K to 1M (step factor 2)
 *   "1K..1M*4"        step factor 4 (any integer >= 2)
 *   "100..1000+100"   arithmetic step 100
 * Returns P2PB_OK, P2PB_EUSAGE or P2PB_ERANGE with a message naming the bad
 * element.
 */
enum p2pb_status p2pb_parse_size_list(const char *spec, size_t *sizes, size_t cap, size_t *n,
                                      char *err, size_t errlen);

/*
 * IMB's -msglog "A:B" (or "B"): 0 and 2^A .. 2^B. 0 <= A <= B <= 62.
 * Returns P2PB_OK, P2PB_EUSAGE or P2PB_ERANGE.
 */
enum p2pb_status p2pb_parse_msglog(const char *spec, size_t *sizes, size_t cap, size_t *n,
                                   char *err, size_t errlen);

/*
 * The survey's "LAT,BW": exactly two sizes (p2pb_parse_size forms), in this
 * order, each sendable as one MPI message of MPI_BYTE: LAT 0 .. 2^31-1,
 * BW 1 .. 2^31-1 bytes. Returns P2PB_OK, P2PB_EUSAGE (not two sizes, a bad
 * size) or P2PB_ERANGE, with a message naming the value.
 */
enum p2pb_status p2pb_parse_size_pair(const char *spec, size_t *lat, size_t *bw, char *err,
                                      size_t errlen);

#endif /* P2PBENCH_SIZES_H */
