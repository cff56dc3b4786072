/* SPDX-License-Identifier: MIT */
/*
 * survey_pair.c - one pair of the link survey: latency by PingPong (IMB's
 * definition: t = half the round trip, timed on the lower rank; MB/s = X / t)
 * and bandwidth by a one-way stream (one sample: the sender posts W
 * MPI_Isend of X bytes, the receiver W MPI_Irecv, then a 0-byte
 * acknowledgement; t = the sample's time on the sender; MB/s = W X / t, as
 * the Uniband kernel). The rank that times also decides, after each sample
 * and off the timed path, whether to draw another (the adaptive rule of
 * docs/methodology.md with the survey's budget) and tells its partner.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "mpi_util.h"
#include "p2pbench/stats.h"
#include "survey.h"

enum { TAG_LAT = 211, TAG_BW = 212, TAG_ACK = 213, TAG_CTL = 214 };

/* Untimed round trips before the latency samples; windows before the stream's. */
#define LAT_WARMUP 10
#define BW_WARMUP 1
/* A latency sample lasts at least this long (k round trips), ns. */
#define LAT_SAMPLE_NS 100000.0
#define LAT_MAX_K 100000

/* One measurement in progress: which side, its partner, what it stores. */
struct meas {
    MPI_Comm comm;
    const struct p2pb_survey_cfg *cfg;
    struct p2pb_survey_bufs *b;
    int peer;
    int count; /* elements (MPI_BYTE) per message */
    size_t n;  /* samples drawn (controller) */
    uint64_t t0_ns;
};

enum p2pb_status p2pb_survey_bufs_alloc(struct p2pb_survey_bufs *b,
                                        const struct p2pb_survey_cfg *cfg)
{
    size_t sb = cfg->bw_bytes > cfg->lat_bytes ? cfg->bw_bytes : cfg->lat_bytes;
    memset(b, 0, sizeof *b);
    b->sbuf = calloc(sb ? sb : 1, 1);
    b->rbuf = calloc(cfg->window * sb + 1, 1);
    b->samples = calloc(cfg->max_samples, sizeof *b->samples);
    b->req = calloc(cfg->window, sizeof *b->req);
    b->st = calloc(cfg->window, sizeof *b->st);
    if (b->sbuf && b->rbuf && b->samples && b->req && b->st)
        return P2PB_OK;
    p2pb_survey_bufs_free(b);
    return P2PB_ENOMEM;
}

void p2pb_survey_bufs_free(struct p2pb_survey_bufs *b)
{
    free(b->sbuf);
    free(b->rbuf);
    free(b->samples);
    free(b->req);
    free(b->st);
    memset(b, 0, sizeof *b);
}

/* Controller: 1 to draw another sample. Stop at max_samples; from
 * min_samples on, when the CI target is met or the budget is spent. */
static int want_more(const struct meas *m)
{
    const struct p2pb_survey_cfg *cfg = m->cfg;
    if (m->n >= cfg->max_samples)
        return 0;
    if (m->n < cfg->min_samples)
        return 1;
    if ((double)(p2pb_now_ns() - m->t0_ns) * 1e-9 >= cfg->budget_s)
        return 0;
    struct p2pb_stats st;
    if (p2pb_stats_compute(m->b->samples, m->n, NULL, &st) != P2PB_OK)
        return 0;
    double hw = p2pb_stats_ci_rel_halfwidth(&st);
    return !(hw >= 0 && hw <= cfg->ci_target);
}

/* Controller: decide and tell the partner; returns the decision. */
static int tell_more(struct meas *m)
{
    int more = want_more(m);
    P2PB_MPI_CHECK(MPI_Send(&more, 1, MPI_INT, m->peer, TAG_CTL, m->comm));
    return more;
}

static int hear_more(const struct meas *m)
{
    int more = 0;
    P2PB_MPI_CHECK(MPI_Recv(&more, 1, MPI_INT, m->peer, TAG_CTL, m->comm, MPI_STATUS_IGNORE));
    return more;
}

/* k PingPong round trips; the initiator sends first. */
static void round_trips(const struct meas *m, int initiator, long k)
{
    for (long i = 0; i < k; i++) {
        if (initiator) {
            P2PB_MPI_CHECK(MPI_Send(m->b->sbuf, m->count, MPI_BYTE, m->peer, TAG_LAT, m->comm));
            P2PB_MPI_CHECK(MPI_Recv(m->b->rbuf, m->count, MPI_BYTE, m->peer, TAG_LAT, m->comm,
                                    MPI_STATUS_IGNORE));
        } else {
            P2PB_MPI_CHECK(MPI_Recv(m->b->rbuf, m->count, MPI_BYTE, m->peer, TAG_LAT, m->comm,
                                    MPI_STATUS_IGNORE));
            P2PB_MPI_CHECK(MPI_Send(m->b->sbuf, m->count, MPI_BYTE, m->peer, TAG_LAT, m->comm));
        }
    }
}

/* Latency, both sides. The initiator times the warm-up to choose k (a
 * sample of at least LAT_SAMPLE_NS), sends k, then samples; samples[] hold
 * t = round trip / 2 in usec. Returns k (initiator) or 0. */
static long latency(struct meas *m, int initiator)
{
    long k = 0;
    uint64_t w0 = p2pb_now_ns();
    round_trips(m, initiator, LAT_WARMUP);
    if (!initiator) {
        P2PB_MPI_CHECK(MPI_Recv(&k, 1, MPI_LONG, m->peer, TAG_CTL, m->comm, MPI_STATUS_IGNORE));
        do
            round_trips(m, 0, k);
        while (hear_more(m));
        return 0;
    }
    double rt_ns = (double)(p2pb_now_ns() - w0) / LAT_WARMUP;
    k = rt_ns > 0 ? (long)ceil(LAT_SAMPLE_NS / rt_ns) : 1;
    k = k < 1 ? 1 : k > LAT_MAX_K ? LAT_MAX_K : k;
    P2PB_MPI_CHECK(MPI_Send(&k, 1, MPI_LONG, m->peer, TAG_CTL, m->comm));
    m->t0_ns = p2pb_now_ns();
    do {
        uint64_t t0 = p2pb_now_ns();
        round_trips(m, 1, k);
        m->b->samples[m->n++] = (double)(p2pb_now_ns() - t0) / (double)k * 0.5 / 1000.0;
    } while (tell_more(m));
    return k;
}

/* One window of the stream: W messages and the acknowledgement. */
static void window(const struct meas *m, int sender)
{
    int w = (int)m->cfg->window;
    for (int i = 0; i < w; i++) {
        if (sender)
            P2PB_MPI_CHECK(
                MPI_Isend(m->b->sbuf, m->count, MPI_BYTE, m->peer, TAG_BW, m->comm, &m->b->req[i]));
        else
            P2PB_MPI_CHECK(MPI_Irecv(m->b->rbuf + (size_t)i * m->cfg->bw_bytes, m->count, MPI_BYTE,
                                     m->peer, TAG_BW, m->comm, &m->b->req[i]));
    }
    P2PB_MPI_CHECK(MPI_Waitall(w, m->b->req, m->b->st));
    if (sender)
        P2PB_MPI_CHECK(MPI_Recv(NULL, 0, MPI_BYTE, m->peer, TAG_ACK, m->comm, MPI_STATUS_IGNORE));
    else
        P2PB_MPI_CHECK(MPI_Send(NULL, 0, MPI_BYTE, m->peer, TAG_ACK, m->comm));
}

/* The stream, both sides; the sender's samples[] hold one window's time, usec. */
static void stream(struct meas *m, int sender)
{
    for (int i = 0; i < BW_WARMUP; i++)
        window(m, sender);
    if (!sender) {
        do
            window(m, 0);
        while (hear_more(m));
        return;
    }
    m->t0_ns = p2pb_now_ns();
    do {
        uint64_t t0 = p2pb_now_ns();
        window(m, 1);
        m->b->samples[m->n++] = (double)(p2pb_now_ns() - t0) / 1000.0;
    } while (tell_more(m));
}

/* The controller's row: labels, counts and statistics of samples[0..n-1]. */
static void fill_row(struct p2pb_survey_row *o, const struct meas *m, int metric, int lo, int hi,
                     int from, size_t k)
{
    struct p2pb_result *r = &o->r;
    const int lat = metric == P2PB_SURVEY_LATENCY;
    memset(o, 0, sizeof *o);
    snprintf(r->kernel, sizeof r->kernel, "%s", lat ? "survey-pingpong" : "survey-stream");
    snprintf(r->display_name, sizeof r->display_name, "%s",
             lat ? "SurveyPingPong" : "SurveyStream");
    if (lat)
        snprintf(r->variant, sizeof r->variant, "pair %d-%d", lo, hi);
    else
        snprintf(r->variant, sizeof r->variant, "%d->%d", from, from == lo ? hi : lo);
    r->bytes = lat ? m->cfg->lat_bytes : m->cfg->bw_bytes;
    r->nranks = m->cfg->nranks;
    r->active_ranks = 2;
    r->imb_layout = P2PB_IMB_T;
    r->bytes_factor = lat ? 1.0 : (double)m->cfg->window;
    r->time_scale = lat ? 0.5 : 1.0;
    r->samples = m->n;
    r->iterations_per_sample = k;
    r->warmup = lat ? LAT_WARMUP : BW_WARMUP;
    p2pb_stats_compute(m->b->samples, m->n, NULL, &r->t);
    r->t_min_usec = r->t_max_usec = r->t_avg_usec = r->t.mean;
    r->mbytes_per_sec = p2pb_mbytes_per_sec(r->bytes_factor, r->bytes, r->t.median);
    r->mbytes_per_sec_imb = p2pb_mbytes_per_sec(r->bytes_factor, r->bytes, r->t_max_usec);
    double hw = p2pb_stats_ci_rel_halfwidth(&r->t);
    r->ci_target_met = hw >= 0 && hw <= m->cfg->ci_target ? 1 : 0;
    r->asymmetry = NAN;
    r->status = P2PB_ROW_OK;
    o->pair[0] = lo;
    o->pair[1] = hi;
    o->from = lat ? -1 : from;
    o->metric = metric;
    o->stayed_slow = -1;
    o->valid = 1;
}

void p2pb_survey_pair(MPI_Comm comm, const struct p2pb_survey_cfg *cfg, struct p2pb_survey_bufs *b,
                      int me, int peer, struct p2pb_survey_row out[2])
{
    const int lo = me < peer ? me : peer, hi = me < peer ? peer : me;
    struct meas m = {.comm = comm, .cfg = cfg, .b = b, .peer = peer};
    out[0].valid = out[1].valid = 0;

    m.count = (int)cfg->lat_bytes;
    long k = latency(&m, me == lo);
    if (me == lo)
        fill_row(&out[0], &m, P2PB_SURVEY_LATENCY, lo, hi, -1, (size_t)k);

    m.count = (int)cfg->bw_bytes;
    for (int from = lo; from >= 0; from = from == lo ? hi : -1) {
        m.n = 0;
        stream(&m, me == from);
        if (me == from)
            fill_row(&out[1], &m, P2PB_SURVEY_BANDWIDTH, lo, hi, from, 1);
    }
}
