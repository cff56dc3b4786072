/* SPDX-License-Identifier: MIT */
/*
 * clock.c - the clock model's arithmetic (clock.h): readings, the
 * least-squares line, checks. No MPI, no clock reads.
 */
#include <math.h>
#include <string.h>

#include "clock.h"

struct p2pb_clock_point p2pb_clock_reading(double t1, double t2, double tb)
{
    struct p2pb_clock_point p = {tb, tb - 0.5 * (t1 + t2), t2 - t1};
    return p;
}

int p2pb_clock_fit(const struct p2pb_clock_point *p, size_t n, double min_span_ns,
                   struct p2pb_clock_model *m)
{
    if (n == 0)
        return -1;
    /* times relative to the first reading: sums of squares of 1e13 ns
     * would lose the digits that matter */
    const double base = p[0].t;
    double mt = 0, mo = 0;
    for (size_t i = 0; i < n; i++) {
        mt += (p[i].t - base) / (double)n;
        mo += p[i].offset / (double)n;
    }
    double sxx = 0, sxy = 0;
    for (size_t i = 0; i < n; i++) {
        double dx = p[i].t - base - mt;
        sxx += dx * dx;
        sxy += dx * (p[i].offset - mo);
    }
    const double span = p[n - 1].t - p[0].t;
    m->t0 = p[n - 1].t;
    m->drift = (n >= 2 && span >= min_span_ns && sxx > 0) ? sxy / sxx : 0.0;
    m->offset = mo + m->drift * (p[n - 1].t - base - mt);
    return 0;
}

double p2pb_clock_predict(const struct p2pb_clock_model *m, double t)
{
    return m->offset + m->drift * (t - m->t0);
}

void p2pb_clock_init(struct p2pb_clock *c)
{
    memset(c, 0, sizeof *c);
    c->resid_max = -1;
}

void p2pb_clock_add(struct p2pb_clock *c, const struct p2pb_clock_point *p)
{
    if (c->npts == P2PB_CLOCK_MAX_POINTS) {
        memmove(c->pts, c->pts + 1, (P2PB_CLOCK_MAX_POINTS - 1) * sizeof c->pts[0]);
        c->npts--;
    }
    c->pts[c->npts++] = *p;
    if (c->rtt_min <= 0 || p->rtt < c->rtt_min)
        c->rtt_min = p->rtt;
    double fastest = c->pts[0].rtt;
    for (size_t i = 1; i < c->npts; i++)
        if (c->pts[i].rtt < fastest)
            fastest = c->pts[i].rtt;
    struct p2pb_clock_point good[P2PB_CLOCK_MAX_POINTS];
    size_t n = 0;
    for (size_t i = 0; i < c->npts; i++)
        if (c->pts[i].rtt <= P2PB_CLOCK_GOOD_RTT * fastest)
            good[n++] = c->pts[i];
    p2pb_clock_fit(good, n, P2PB_CLOCK_MIN_SPAN_NS, &c->m);
}

double p2pb_clock_check(struct p2pb_clock *c, const struct p2pb_clock_point *p)
{
    double res = c->npts ? p->offset - p2pb_clock_predict(&c->m, p->t) : 0.0;
    if (c->npts && fabs(res) > c->resid_max)
        c->resid_max = fabs(res);
    c->checks += c->npts != 0;
    p2pb_clock_add(c, p);
    return res;
}

int p2pb_clock_within(const struct p2pb_clock *c)
{
    if (c->checks == 0 || c->resid_max < 0)
        return -1;
    return c->resid_max < 0.5 * c->rtt_min;
}
