/* SPDX-License-Identifier: MIT */
/*
 * overlap.h - the overlap percentage of the overlap kernel (kernel.h
 * P2PB_KF_OVERLAP, docs/kernels.md "Overlap") and its "overlap" object in a
 * result record (struct p2pb_overlap, result.h).
 */
#ifndef P2PBENCH_OVERLAP_H
#define P2PBENCH_OVERLAP_H

#include "p2pbench/result.h"
#include "p2pbench/status.h"

/* The formula as printed in every table header and written to the results
 * file ("overlap.formula"): the share of the most time that could be hidden
 * (the shorter of t_pure and t_cpu) that was hidden. Source: the overlap of
 * the IMB-NBC benchmarks as the Intel MPI Benchmarks User Guide defines it
 * (docs/kernels.md, "Overlap", says why this one and not OSU's). */
#define P2PB_OVERLAP_FORMULA \
    "overlap[%] = 100 * max(0, min(1, (t_pure + t_cpu - t_ovrl) / min(t_pure, t_cpu)))"

/* The row variant of an overlap kernel's phase (kernel.h enum
 * p2pb_overlap_phase): "pure", "cpu", "overlap" for 0, 1, 2; "" otherwise. */
const char *p2pb_overlap_phase_name(int phase);

/*
 * P2PB_OVERLAP_FORMULA of three times in usec (medians). Returns the
 * percentage, 0..100, or NAN when the formula has no meaning, with *why
 * (never NULL) set to the reason: a time that is missing (not finite,
 * negative), t_pure = 0 (no transfer time) or t_cpu = 0 (no compute). On
 * success *why is "". t_ovrl below max(t_pure, t_cpu) gives 100 (more than
 * the shorter part hidden: noise), above t_pure + t_cpu gives 0 (overlap
 * made it slower).
 */
double p2pb_overlap_percent(double t_pure, double t_cpu, double t_ovrl, const char **why);

/* Fill o (valid = 1) from the three medians (usec); no_compute: the compute
 * loop had 0 iterations (--overlap-compute 0, or t_pure below one step), so
 * the formula gets t_cpu = 0 and says undefined. */
void p2pb_overlap_fill(struct p2pb_overlap *o, double t_pure, double t_cpu, double t_ovrl,
                       int no_compute);

/* The "overlap" object (cJSON *obj) of a result record when o->valid, and
 * back: absent -> valid 0; a present object with a missing or wrong field
 * is P2PB_EFORMAT with err naming it. */
void p2pb_overlap_to_json(const struct p2pb_overlap *o, void *obj);
enum p2pb_status p2pb_overlap_from_json(const void *obj, struct p2pb_overlap *o, char *err,
                                        size_t errlen);

#endif /* P2PBENCH_OVERLAP_H */
