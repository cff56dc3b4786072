/* SPDX-License-Identifier: MIT */
/*
 * bound.h - the bound beside a row (docs/kernels.md, "Bounds"): the most
 * MB/s the hardware allows for that row, and the judgement of a row above
 * it. MPI-free: the harness measures, the writers print, compare notes.
 */
#ifndef P2PBENCH_BOUND_H
#define P2PBENCH_BOUND_H

#include "p2pbench/result.h"
#include "p2pbench/status.h"

/* A row above this multiple of its bound is flagged `exceeds bound`. */
#define P2PB_BOUND_TOLERANCE 1.05

/*
 * A rate as the command line gives it into MB/s (10^6 B/s): a positive
 * number with a unit, bits per second in powers of 1000 (kbit, mbit, gbit,
 * tbit: "100mbit" = 12.5 MB/s) or bytes per second (MB/s, GB/s: "12.5MB/s").
 * The number is decimal (digits and one '.': no sign, exponent or hex, so
 * "0x10gbit" and "1e-30kbit" are refused), the rate within 1 kbit/s .. 10
 * Tbit/s (1.25e-4 .. 1.25e6 MB/s). Units are case-insensitive. Returns
 * P2PB_OK, or P2PB_EUSAGE with err naming the value ("too small", "too
 * large" or what a rate is).
 */
enum p2pb_status p2pb_parse_rate(const char *text, double *mbytes_per_sec, char *err,
                                 size_t errlen);

/*
 * The rate of an InfiniBand port as sysfs gives it (ports/N/rate, e.g.
 * "100 Gb/sec (4X EDR)", "56 Gb/sec (4X FDR)", "2.5 Gb/sec (1X SDR)") in
 * MB/s (10^6 B/s): 100 Gb/s = 12500 MB/s. 0 when the text is not a rate.
 */
double p2pb_ib_rate_mbps(const char *text);

/* "copy", "link", "given" for P2PB_BOUND_COPY, _LINK, _GIVEN; "" else. */
const char *p2pb_bound_source_str(int source);

/* Inverse of p2pb_bound_source_str; -1 when unknown. */
int p2pb_bound_source_parse(const char *s);

/*
 * Judge a row of mbytes_per_sec MB/s against bound_mbps (> 0) from source:
 * b->valid = 1, percent = 100 x mbytes_per_sec / bound, exceeds = 1 when
 * mbytes_per_sec > P2PB_BOUND_TOLERANCE x bound. bound_mbps <= 0 (no bound):
 * b cleared (valid 0).
 */
void p2pb_bound_judge(struct p2pb_bound *b, double bound_mbps, int source, double mbytes_per_sec);

#endif /* P2PBENCH_BOUND_H */
