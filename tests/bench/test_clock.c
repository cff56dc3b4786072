/* SPDX-License-Identifier: MIT */
/*
 * test_clock.c - the clock model of the one-way kernel (src/bench/clock.c)
 * on hand-made time stamps: a reading from one exchange, the fitted offset
 * and drift, the prediction, the residual of a check and the pass mark
 * (half the fastest round trip, the MPI_WTIME_IS_GLOBAL condition).
 */
#include <math.h>

#include "../lib/check.h"
#include "clock.h"

/* Client clock = reference clock + 5000 ns + 20 ppm x (reference time).
 * One exchange: the reference sends at t1 and receives at t2; the client
 * read its clock when the message arrived, d_out after t1. */
static struct p2pb_clock_point exchange(double t1, double d_out, double d_back)
{
    double tref_at_client = t1 + d_out;
    double tb = tref_at_client + 5000.0 + 20e-6 * tref_at_client;
    return p2pb_clock_reading(t1, t1 + d_out + d_back, tb);
}

static void test_reading(void)
{
    /* symmetric 400 ns each way at t1 = 1e9: the client read 1e9 + 400 on
     * the reference's clock, its own clock said that + 5000 + 20000.008 */
    struct p2pb_clock_point p = exchange(1e9, 400, 400);
    CHECK_NEAR(p.rtt, 800, 1e-6);
    CHECK_NEAR(p.offset, 5000 + 20e-6 * (1e9 + 400), 1e-6);
    CHECK_NEAR(p.t, 1e9 + 400 + 5000 + 20e-6 * (1e9 + 400), 1e-6);
    /* asymmetric delays (600 out, 200 back): the reading is off by half
     * their difference, +200 ns, which no exchange can see */
    struct p2pb_clock_point q = exchange(1e9, 600, 200);
    CHECK_NEAR(q.offset - (5000 + 20e-6 * (1e9 + 600)), 200, 1e-6);
}

static void test_fit(void)
{
    /* ten readings 50 ms apart from t = 3.6e12 (an hour of uptime): the
     * line's slope is the drift in client time, 20e-6 / (1 + 20e-6) */
    struct p2pb_clock_point p[10];
    for (int i = 0; i < 10; i++)
        p[i] = exchange(3.6e12 + 5e7 * i, 300, 300);
    struct p2pb_clock_model m;
    CHECK(p2pb_clock_fit(p, 10, P2PB_CLOCK_MIN_SPAN_NS, &m) == 0);
    CHECK_NEAR(m.drift, 20e-6 / (1 + 20e-6), 1e-12);
    CHECK_NEAR(m.t0, p[9].t, 1e-3);
    CHECK_NEAR(m.offset, p[9].offset, 1e-3);
    /* 1 s after the last reading the line is still exact */
    struct p2pb_clock_point later = exchange(3.6e12 + 5e7 * 9 + 1e9, 300, 300);
    CHECK_NEAR(p2pb_clock_predict(&m, later.t), later.offset, 1e-3);
    /* a span below the minimum: no drift, the mean offset */
    CHECK(p2pb_clock_fit(p, 2, P2PB_CLOCK_MIN_SPAN_NS, &m) == 0); /* 50 ms */
    CHECK(m.drift == 0.0);
    CHECK_NEAR(m.offset, 0.5 * (p[0].offset + p[1].offset), 1e-6);
    CHECK(p2pb_clock_fit(p, 0, 0, &m) == -1);
    /* noise of +-30 ns on alternate readings over 0.45 s: the drift stays
     * within 30 ns / 0.225 s = 0.13 ppm of the truth */
    for (int i = 0; i < 10; i++)
        p[i].offset += (i % 2 ? 30.0 : -30.0);
    CHECK(p2pb_clock_fit(p, 10, P2PB_CLOCK_MIN_SPAN_NS, &m) == 0);
    CHECK(fabs(m.drift - 20e-6 / (1 + 20e-6)) < 0.13e-6);
}

static void test_check(void)
{
    struct p2pb_clock c;
    p2pb_clock_init(&c);
    CHECK(p2pb_clock_within(&c) == -1);
    for (int i = 0; i < 4; i++) {
        struct p2pb_clock_point p = exchange(1e12 + 1e8 * i, 250 + 10 * (i % 2), 250);
        p2pb_clock_add(&c, &p);
    }
    CHECK(c.npts == 4);
    CHECK_NEAR(c.rtt_min, 500, 1e-9);
    /* a delayed exchange (9000 ns out, 1000 back: round trip 10000, its
     * offset 4000 ns off) is kept but stays out of the fit: above
     * P2PB_CLOCK_GOOD_RTT x 500 */
    struct p2pb_clock_model before = c.m;
    struct p2pb_clock_point slow = exchange(1e12 + 3.5e8, 9000, 1000);
    p2pb_clock_add(&c, &slow);
    CHECK(c.npts == 5);
    CHECK_NEAR(c.m.offset, before.offset, 1e-6);
    CHECK_NEAR(c.m.drift, before.drift, 1e-15);
    /* a check 0.2 s later: the readings alternate 0 and +5 ns (delays 250
     * and 260 out), the line through them predicts +6 ns at 0.5 s */
    struct p2pb_clock_point q = exchange(1e12 + 5e8, 250, 250);
    double res = p2pb_clock_check(&c, &q);
    CHECK(fabs(res) < 10);
    CHECK(c.checks == 1 && c.npts == 6);
    CHECK(p2pb_clock_within(&c) == 1);
    /* a reading 400 ns off (the client's clock stepped): residual about 400,
     * above half the fastest round trip (250): not within */
    struct p2pb_clock_point s = exchange(1e12 + 6e8, 250, 250);
    s.offset += 400;
    res = p2pb_clock_check(&c, &s);
    CHECK(res > 380 && res < 420);
    CHECK(c.resid_max > 380);
    CHECK(p2pb_clock_within(&c) == 0);
    /* the store keeps the latest P2PB_CLOCK_MAX_POINTS readings */
    for (int i = 0; i < 2 * P2PB_CLOCK_MAX_POINTS; i++) {
        struct p2pb_clock_point p = exchange(1e12 + 7e8 + 1e6 * i, 250, 250);
        p2pb_clock_add(&c, &p);
    }
    CHECK(c.npts == P2PB_CLOCK_MAX_POINTS);
    CHECK(c.pts[0].t < c.pts[P2PB_CLOCK_MAX_POINTS - 1].t);
}

int main(void)
{
    test_reading();
    test_fit();
    test_check();
    return CHECK_DONE();
}
