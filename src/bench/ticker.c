/* SPDX-License-Identifier: MIT */
/* The progress line of a long run. See ticker.h. */
#include "ticker.h"

#include <stdio.h>
#include <unistd.h>

#include "harness.h"

void p2pb_ticker_init(struct p2pb_ticker *t, int mode, int rank, uint64_t t0_ns)
{
    t->on = rank == 0 &&
            (mode == P2PB_PROGRESS_ALWAYS || (mode == P2PB_PROGRESS_AUTO && isatty(STDERR_FILENO)));
    t->after_s = mode == P2PB_PROGRESS_ALWAYS ? 0.0 : P2PB_TICKER_AFTER_S;
    t->shown = 0;
    t->t0_ns = t0_ns;
    t->last_ns = 0;
}

void p2pb_ticker_show(struct p2pb_ticker *t, const char *kernel, size_t round, size_t rounds,
                      size_t bytes, size_t left)
{
    if (!t->on)
        return;
    uint64_t now = p2pb_now_ns();
    double age = (double)(now - t->t0_ns) * 1e-9;
    if (age < t->after_s || (t->shown && (double)(now - t->last_ns) * 1e-9 < P2PB_TICKER_EVERY_S))
        return;
    fprintf(stderr, "\rp2pbench: %s round %zu/%zu, %zu bytes (%zu left in the round), %.1f s\033[K",
            kernel, round + 1, rounds, bytes, left, age);
    fflush(stderr);
    t->shown = 1;
    t->last_ns = now;
}

void p2pb_ticker_clear(struct p2pb_ticker *t)
{
    if (!t->shown)
        return;
    fputs("\r\033[K", stderr);
    fflush(stderr);
    t->shown = 0;
}
