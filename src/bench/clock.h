/* SPDX-License-Identifier: MIT */
/*
 * clock.h - the clock model of the one-way kernels (docs/methodology.md,
 * "Clocks of the one-way kernel"): rank 1's clock against rank 0's as a
 * line, offset + drift x (t - t0), fitted by least squares to offset
 * measurements from ping-pong exchanges, each exchange read as Cristian's
 * probabilistic clock reading (F. Cristian, Distributed Computing 3(3),
 * 1989): the client's time lies in the middle of the requester's round trip,
 * within half of it. The linear model over repeated readings is the one of
 * Hunold & Carpen-Amarie's HCA (EuroMPI 2015, "On the impact of
 * synchronizing clocks and processes on benchmarking MPI collectives"),
 * here for one pair of ranks. clock.c is pure arithmetic; oneway.c talks
 * MPI. All times in ns of the rank's own CLOCK_MONOTONIC.
 */
#ifndef P2PBENCH_CLOCK_H
#define P2PBENCH_CLOCK_H

#include <stddef.h>

/* Offset readings kept for the fit (the latest ones). */
#define P2PB_CLOCK_MAX_POINTS 64

/* A drift is fitted only when the readings span this long (ns); before,
 * drift 0 (10 ns of reading noise over 0.1 s would be 0.1 ppm). */
#define P2PB_CLOCK_MIN_SPAN_NS 1e8

/* A reading whose round trip is above this many times the fastest kept
 * reading's stays out of the fit (its offset is uncertain by half its
 * round trip: a delayed exchange on a busy machine). */
#define P2PB_CLOCK_GOOD_RTT 3.0

/* One offset reading: at client time t, client clock - reference clock. */
struct p2pb_clock_point {
    double t;      /* client's local time of the reading, ns */
    double offset; /* client clock - reference clock, ns */
    double rtt;    /* the exchange's round trip on the reference, ns */
};

/* offset(t) = offset + drift * (t - t0), t in client ns; drift in ns/ns. */
struct p2pb_clock_model {
    double t0, offset, drift;
};

/* A pair's synchronisation state: readings, model, what the checks found. */
struct p2pb_clock {
    struct p2pb_clock_point pts[P2PB_CLOCK_MAX_POINTS]; /* the latest readings, oldest first */
    size_t npts;
    struct p2pb_clock_model m;
    double resid_max; /* largest |reading - model| of a check, ns; < 0 none yet */
    double rtt_min;   /* smallest round trip of any exchange, ns; 0 none yet */
    size_t checks;    /* checks made (one after each round) */
};

/*
 * One exchange read on the reference: it sent at t1 and received the
 * client's time tb at t2 (its own clock, ns). The reading: offset =
 * tb - (t1 + t2) / 2 at client time tb, round trip t2 - t1.
 */
struct p2pb_clock_point p2pb_clock_reading(double t1, double t2, double tb);

/*
 * Least-squares line through the readings p[0..n-1] (offset against t):
 * m->drift the slope, m->offset the line's value at m->t0 = the last
 * reading's t. With fewer than 2 readings or a span below min_span_ns:
 * drift 0 and the mean offset of the readings. Returns 0, or -1 for n == 0
 * (m unchanged).
 */
int p2pb_clock_fit(const struct p2pb_clock_point *p, size_t n, double min_span_ns,
                   struct p2pb_clock_model *m);

/* The model's offset at client time t, ns. */
double p2pb_clock_predict(const struct p2pb_clock_model *m, double t);

/* Reset c: no readings, no checks. */
void p2pb_clock_init(struct p2pb_clock *c);

/* Keep reading p (the oldest is dropped when full) and refit to the kept
 * readings whose round trip is within P2PB_CLOCK_GOOD_RTT x the fastest. */
void p2pb_clock_add(struct p2pb_clock *c, const struct p2pb_clock_point *p);

/*
 * Check the model against a fresh reading p: |p.offset - predicted| into
 * resid_max; then keep p and refit. Returns the residual, ns (signed).
 */
double p2pb_clock_check(struct p2pb_clock *c, const struct p2pb_clock_point *p);

/*
 * 1 when the largest residual is below half the smallest round trip (the
 * MPI standard's condition for MPI_WTIME_IS_GLOBAL: clocks agree within
 * half a zero-byte round trip), 0 when not, -1 when nothing was checked.
 */
int p2pb_clock_within(const struct p2pb_clock *c);

#endif /* P2PBENCH_CLOCK_H */
