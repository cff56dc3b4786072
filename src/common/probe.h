/* SPDX-License-Identifier: MIT */
/*
 * probe.h - the placement probe's record (docs/host-context.md, "Placement
 * probe"): for pairs of ranks that share a host, the one-way latency of one
 * cache line between their CPUs, measured at start by src/bench/probe.c.
 * MPI-free: the record, its JSON (run record "placement_probe"), the floor it
 * sets under a latency row, and the rule that groups launches by it.
 *
 * Method (the published core-to-core latency measurement): two processes
 * bounce one counter in one shared cache line, each writing when it has seen
 * the other's last value; a batch of R round trips takes T ns; one-way =
 * T / R / 2. The probe value is the median over the batches (min beside it).
 */
#ifndef P2PBENCH_PROBE_H
#define P2PBENCH_PROBE_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "p2pbench/result.h"
#include "p2pbench/status.h"

/* Most pairs probed: (0,1), (2,3), (4,5), (6,7) when each shares a host. */
#define P2PB_PROBE_MAX_PAIRS 4
/* Timed batches per pair (a first, untimed batch warms the line up). */
#define P2PB_PROBE_BATCHES 11
/* Round trips per batch: 11 x 300 = 3300 timed exchanges per pair. */
#define P2PB_PROBE_ROUND_TRIPS 300
/* Wall-clock cap of one pair on its initiator, ms (its partner gives up
 * after 3 times this): a descheduled partner ends the pair, never the run. */
#define P2PB_PROBE_CAP_MS 5.0
/* Fewest timed batches for a floor: a batch can only be stretched (by
 * preemption, load), never shortened, so the floor is the fastest batch,
 * and one of at least this many. */
#define P2PB_PROBE_MIN_BATCHES 3
/* Grouping rule: sorted ascending, a value more than this many times the
 * one before it starts a new group (p2pb_probe_groups). */
#define P2PB_PROBE_GAP 2.0

/* One probed pair. Times in ns (one-way: half a round trip). */
struct p2pb_probe_pair {
    int ranks[2];                        /* the initiator (lower rank), its partner */
    int cpus[2];                         /* sched_getcpu() after the probe; -1 unknown */
    int migrated;                        /* 1 if a rank's CPU changed during the probe */
    char host[64];                       /* host name of the pair */
    size_t nbatches;                     /* timed batches finished within the cap */
    double batch_ns[P2PB_PROBE_BATCHES]; /* one-way ns of each batch, in time order */
    double one_way_ns;                   /* median of batch_ns; NAN when nbatches is 0 */
    double min_ns;                       /* min of batch_ns; NAN when nbatches is 0 */
    int complete;                        /* 1 when all P2PB_PROBE_BATCHES finished */
};

/* The probe of one run: valid (0: not run, --no-probe, or not in the file). */
struct p2pb_probe {
    int valid;
    size_t npairs; /* pairs that share a host, at most P2PB_PROBE_MAX_PAIRS */
    struct p2pb_probe_pair pairs[P2PB_PROBE_MAX_PAIRS];
    size_t round_trips; /* per batch */
    double cap_ms;      /* P2PB_PROBE_CAP_MS of the run */
    double cost_ms;     /* wall time of the whole probe on rank 0, ms */
    char error[192];    /* why nothing was measured (no shared-memory window); "" none */
};

/* Median and min of p->batch_ns[0..nbatches-1] into one_way_ns, min_ns
 * (NAN when there is none), and complete. */
void p2pb_probe_pair_finish(struct p2pb_probe_pair *p);

/* The run record's "placement_probe" object of p (docs/output-format.md);
 * NULL when p is not valid or out of memory. */
cJSON *p2pb_probe_json(const struct p2pb_probe *p);

/* Read run["placement_probe"] into p. Returns 1 when p is valid (a well
 * formed record; pairs with bad fields are left out), 0 when absent or not
 * an object (p->valid = 0). Text from the file is sanitised. */
int p2pb_probe_from_json(const cJSON *run, struct p2pb_probe *p);

/*
 * The ranks whose one-way latency row r shows: a row of the one-way kernel
 * (r->clock.valid) with variant "A->B" gives min(A,B), max(A,B); a row whose
 * t is half a round trip (time_scale 0.5) between two ranks: variant "pair
 * A-B" (per-pair rows) gives A, B; no variant and 2 active ranks gives 0, 1.
 * Returns 1 and sets *a, *b, else 0 (other kernels, aggregate rows).
 */
int p2pb_probe_row_pair(const struct p2pb_result *r, int *a, int *b);

/* The floor of pair q (ns): the fastest of its batches (min_ns) when it has
 * at least P2PB_PROBE_MIN_BATCHES, else NAN. A message between the pair's
 * CPUs cannot be faster than one cache line crossing. */
double p2pb_probe_pair_floor_ns(const struct p2pb_probe_pair *q);

/* The floor of latency row r (usec): p2pb_probe_pair_floor_ns of r's pair,
 * or NAN when p has none for it. */
double p2pb_probe_floor_usec(const struct p2pb_probe *p, const struct p2pb_result *r);

/* The floor of ranks 0 and 1 (ns), what compare groups launches by (load
 * stretches the median of a launch, not its fastest batch); NAN when p is
 * not valid or has none for them. */
double p2pb_probe_floor01_ns(const struct p2pb_probe *p);

/*
 * Group n values by gaps: sorted ascending, a value more than P2PB_PROBE_GAP
 * times the one before it starts a new group. group[i] = group of v[i], 0 for
 * the lowest; -1 for a value that is NAN or <= 0 (left out). *ngroups = the
 * number of groups (0 when no value counts). Returns P2PB_OK or P2PB_ENOMEM.
 */
enum p2pb_status p2pb_probe_groups(const double *v, size_t n, int *group, size_t *ngroups);

#endif /* P2PBENCH_PROBE_H */
