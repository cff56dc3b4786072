/* SPDX-License-Identifier: MIT */
/*
 * ticker.h - the progress line of a long run (--progress): on rank 0, on
 * stderr, rewritten in place ("\r"), between (kernel, size) visits only,
 * never inside a timed loop.
 */
#ifndef P2PBENCH_TICKER_H
#define P2PBENCH_TICKER_H

#include <stddef.h>
#include <stdint.h>

/* --progress values (the option table's choices, in order). */
enum { P2PB_PROGRESS_AUTO, P2PB_PROGRESS_ALWAYS, P2PB_PROGRESS_NEVER };

/* auto: the line appears once the run is this many seconds old. */
#define P2PB_TICKER_AFTER_S 2.0

/* The line is rewritten at most this often, seconds. */
#define P2PB_TICKER_EVERY_S 0.25

struct p2pb_ticker {
    int on;         /* rank 0, and --progress always, or auto with stderr a terminal */
    int shown;      /* a line is on the terminal (p2pb_ticker_clear erases it) */
    double after_s; /* seconds from t0_ns before the first line */
    uint64_t t0_ns; /* the run's start (p2pb_now_ns) */
    uint64_t last_ns;
};

/* Set t up for rank `rank` with --progress `mode` (P2PB_PROGRESS_*). */
void p2pb_ticker_init(struct p2pb_ticker *t, int mode, int rank, uint64_t t0_ns);

/* Rank 0: "p2pbench: KERNEL round R/N, BYTES bytes (LEFT left in the
 * round), S s" when due (see above); otherwise nothing. round is 0-based. */
void p2pb_ticker_show(struct p2pb_ticker *t, const char *kernel, size_t round, size_t rounds,
                      size_t bytes, size_t left);

/* Erase the line (before tables or messages are printed). */
void p2pb_ticker_clear(struct p2pb_ticker *t);

#endif
