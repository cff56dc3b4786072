/* SPDX-License-Identifier: MIT */
/*
 * survey_pair.c - one pair of the link survey: latency by PingPong (IMB's
 * definition: t = half the round trip, timed on the lower rank; MB/s = X / t)
 * and bandwidth by a one-way stream (one sample: one iteration of the
 * Uniband kernel, the sender's W MPI_Isend of X bytes, the receiver's W
 * MPI_Irecv, then the acknowledgement; t = the sample's time on the sender;
 * MB/s = W X / t). Both time the kernels' own iterations (benchmarks/pingpong.c,
 * benchmarks/window.c, through their descriptors). The rank that times also
 * decides, after each sample and off the timed path, whether to draw another
 * (the harness's stop rule, p2pb_stop_rule, with the survey's budget, and
 * the cap below) and tells its partner.
 *
 * The cap (--survey-cap, cfg->cap_s) bounds each measurement, warm-up
 * included: sampling stops once the next sample would end past it (at
 * least one sample is drawn; the row is then marked capped). The stream's
 * warm-up is a ramp of growing windows (RAMP_FIRST bytes, then x4 until W
 * messages of X bytes) that stops when the next step would outgrow one
 * sample's share of the cap, cap x CAP_SHARE / min_samples (with one more
 * step at half the share when the last was much shorter); a link too slow
 * for W x X bytes in that share gets smaller samples (fewer messages, then
 * one shorter message), and the row records the bytes a sample moved.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "mpi_util.h"
#include "p2pbench/kernel.h"
#include "p2pbench/stats.h"
#include "survey.h"

/* The kernels whose iterations the survey times (benchmarks/registry.c). */
extern const struct p2pb_kernel p2pb_kernel_pingpong;
extern const struct p2pb_kernel p2pb_kernel_uniband;

enum { TAG_CTL = 214 }; /* the kernels' messages use tags of their own (101, 111, 112) */

/* Untimed round trips before the latency samples, at most (a slow round
 * trip: as many as fit in a quarter of the cap). */
#define LAT_WARMUP 10
/* Share of the cap that min_samples samples may take (the rest: the warm-up). */
#define CAP_SHARE 0.6
/* The stream's ramp: the first step's message, bytes; each step moves 4x more. */
#define RAMP_FIRST 4096
#define RAMP_GROWTH 4
/* A latency sample lasts at least this long (k round trips), ns. */
#define LAT_SAMPLE_NS 100000.0
#define LAT_MAX_K 100000

/* One measurement in progress: which side, its partner, what it stores. */
struct meas {
    MPI_Comm comm;
    const struct p2pb_survey_cfg *cfg;
    struct p2pb_survey_bufs *b;
    int peer;
    int count;                 /* elements (MPI_BYTE) per message */
    size_t msgs;               /* stream: messages per window (<= cfg->window) */
    struct p2pb_kernel_ctx kc; /* what the kernel's iteration reads */
    size_t n;                  /* samples drawn (controller) */
    uint64_t all_ns;           /* the measurement's start, warm-up included (cap) */
    uint64_t t0_ns;            /* the first sample's start (budget) */
    uint64_t last_ns;          /* the previous decision (one sample's step) */
    uint64_t warm_ns;          /* warm-up time */
    size_t warmup;             /* warm-up round trips, or the ramp's windows */
    int capped;                /* 1: the cap ended the sampling */
};

enum p2pb_status p2pb_survey_bufs_alloc(struct p2pb_survey_bufs *b,
                                        const struct p2pb_survey_cfg *cfg)
{
    size_t sb = cfg->bw_bytes > cfg->lat_bytes ? cfg->bw_bytes : cfg->lat_bytes;
    memset(b, 0, sizeof *b);
    b->sbuf = calloc(sb ? sb : 1, 1);
    b->rbuf = calloc(cfg->window * sb + 1, 1);
    b->samples = calloc(cfg->max_samples, sizeof *b->samples);
    struct p2pb_kernel_ctx c = {.window = cfg->window}; /* the stream's requests */
    if (b->sbuf && b->rbuf && b->samples && p2pb_kernel_uniband.setup(&c) == P2PB_OK) {
        b->stream_priv = c.priv;
        return P2PB_OK;
    }
    p2pb_survey_bufs_free(b);
    return P2PB_ENOMEM;
}

void p2pb_survey_bufs_free(struct p2pb_survey_bufs *b)
{
    free(b->sbuf);
    free(b->rbuf);
    free(b->samples);
    struct p2pb_kernel_ctx c = {.priv = b->stream_priv};
    if (c.priv)
        p2pb_kernel_uniband.teardown(&c);
    memset(b, 0, sizeof *b);
}

/* Controller: 1 to draw another sample. The harness's stop rule
 * (p2pb_stop_rule: max_samples, min_samples, the budget from the first
 * sample, the CI target) and the cap: when the rule does not stop for the
 * most samples or the CI target, the row is capped if one more sample, as
 * long as the last step, would end past the cap (never before the first
 * sample). The cap is judged before the budget: a row that overran its cap
 * is marked capped even when a slow sample also spent the budget (a loaded
 * machine). */
static int want_more(struct meas *m)
{
    const struct p2pb_survey_cfg *cfg = m->cfg;
    uint64_t now = p2pb_now_ns(), step = now - m->last_ns;
    m->last_ns = now;
    enum p2pb_rule rule =
        p2pb_stop_rule(m->b->samples, m->n, cfg->min_samples, cfg->max_samples,
                       (double)(now - m->t0_ns) * 1e-9, cfg->budget_s, cfg->ci_target);
    if (rule == P2PB_RULE_MAX || rule == P2PB_RULE_TARGET)
        return 0;
    if (m->n >= 1 && (double)(now - m->all_ns + step) * 1e-9 > cfg->cap_s) {
        m->capped = 1;
        return 0;
    }
    return rule == P2PB_RULE_MORE;
}

/* One sample's share of the cap, ns: min_samples of them fit in CAP_SHARE of it. */
static double sample_share_ns(const struct p2pb_survey_cfg *cfg)
{
    size_t k = cfg->min_samples ? cfg->min_samples : 1;
    return cfg->cap_s * CAP_SHARE / (double)k * 1e9;
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

/* One iteration of kernel k on m->kc; a failed MPI call (the kernel has
 * reported it) ends the job as every survey MPI error does. */
static void iterate(struct meas *m, const struct p2pb_kernel *k)
{
    if (k->run_iter(&m->kc) != P2PB_OK)
        p2pb_mpi_fail(k->name, __FILE__, __LINE__, MPI_SUCCESS);
}

/* k PingPong round trips (PingPong's iteration: the lower rank sends first). */
static void round_trips(struct meas *m, long k)
{
    for (long i = 0; i < k; i++)
        iterate(m, &p2pb_kernel_pingpong);
}

/* Latency, both sides. The initiator times one round trip, then up to
 * LAT_WARMUP - 1 more (as many as fit in a quarter of the cap; their count
 * is sent), and chooses k from the fastest of those more (the first when
 * there are none): a sample of at least
 * LAT_SAMPLE_NS, at most one sample's share of the cap (k >= 1); it sends
 * k, then samples; samples[] hold t = round trip / 2 in usec. Returns k
 * (initiator) or 0. */
static long latency(struct meas *m, int initiator)
{
    long extra = 0, k = 0;
    m->all_ns = p2pb_now_ns();
    round_trips(m, 1);
    if (!initiator) {
        P2PB_MPI_CHECK(MPI_Recv(&extra, 1, MPI_LONG, m->peer, TAG_CTL, m->comm, MPI_STATUS_IGNORE));
        round_trips(m, extra);
        P2PB_MPI_CHECK(MPI_Recv(&k, 1, MPI_LONG, m->peer, TAG_CTL, m->comm, MPI_STATUS_IGNORE));
        do
            round_trips(m, k);
        while (hear_more(m));
        return 0;
    }
    double rt_ns = (double)(p2pb_now_ns() - m->all_ns), quarter = m->cfg->cap_s * 0.25e9;
    extra = rt_ns * LAT_WARMUP <= quarter ? LAT_WARMUP - 1 : (long)(quarter / rt_ns);
    P2PB_MPI_CHECK(MPI_Send(&extra, 1, MPI_LONG, m->peer, TAG_CTL, m->comm));
    /* k from the fastest round trip after the first: the first ones pay the
     * pair's connection set-up (milliseconds under MPICH), which made k 1
     * and the samples as short as the clock's steps (a CI of width 0) */
    for (long i = 0; i < extra; i++) {
        uint64_t t1 = p2pb_now_ns();
        round_trips(m, 1);
        double d = (double)(p2pb_now_ns() - t1);
        rt_ns = i == 0 || d < rt_ns ? d : rt_ns;
    }
    m->warmup = (size_t)extra + 1;
    m->last_ns = m->t0_ns = p2pb_now_ns();
    m->warm_ns = m->t0_ns - m->all_ns;
    double most = rt_ns > 0 ? floor(sample_share_ns(m->cfg) / rt_ns) : LAT_MAX_K;
    k = rt_ns > 0 ? (long)ceil(LAT_SAMPLE_NS / rt_ns) : 1;
    k = (double)k > most ? (long)most : k;
    k = k < 1 ? 1 : k > LAT_MAX_K ? LAT_MAX_K : k;
    P2PB_MPI_CHECK(MPI_Send(&k, 1, MPI_LONG, m->peer, TAG_CTL, m->comm));
    do {
        uint64_t t0 = p2pb_now_ns();
        round_trips(m, k);
        m->b->samples[m->n++] = (double)(p2pb_now_ns() - t0) / (double)k * 0.5 / 1000.0;
    } while (tell_more(m));
    return k;
}

/* One window of the stream: one iteration of the Uniband kernel, m->msgs
 * messages of m->count bytes and the acknowledgement (m->kc.direction says
 * which rank sends). */
static void window(struct meas *m)
{
    m->kc.window = m->msgs;
    m->kc.bytes = (size_t)m->count;
    m->kc.count = m->count;
    iterate(m, &p2pb_kernel_uniband);
}

/* Sender: before each window, tell the receiver whether one follows and
 * its shape (messages, bytes each); the receiver's side of it. */
static void order(const struct meas *m, long more)
{
    long ctl[3] = {more, (long)m->msgs, (long)m->count};
    P2PB_MPI_CHECK(MPI_Send(ctl, 3, MPI_LONG, m->peer, TAG_CTL, m->comm));
}

static int hear_order(struct meas *m)
{
    long ctl[3] = {0, 0, 0};
    P2PB_MPI_CHECK(MPI_Recv(ctl, 3, MPI_LONG, m->peer, TAG_CTL, m->comm, MPI_STATUS_IGNORE));
    m->msgs = (size_t)ctl[1];
    m->count = (int)ctl[2];
    return ctl[0] != 0;
}

/* One untimed window of the current shape on the sender; its time, ns. */
static double ramp_step(struct meas *m)
{
    order(m, 1);
    uint64_t t0 = p2pb_now_ns();
    window(m);
    m->warmup++;
    return (double)(p2pb_now_ns() - t0);
}

/* The shape whose window moves as many bytes as the current shape's rate
 * (its bytes / t_ns) moves in share ns: messages of X bytes (at most W),
 * below one such message one shorter message. */
static void fit_shape(struct meas *m, double t_ns, double share)
{
    const double full = (double)m->cfg->bw_bytes;
    double fit = (double)m->msgs * m->count / (t_ns > 1 ? t_ns : 1) * share; /* bytes */
    if (fit >= full) {
        double w = floor(fit / full);
        m->msgs = w < (double)m->cfg->window ? (size_t)w : m->cfg->window;
        m->count = (int)full;
    } else {
        m->msgs = 1;
        m->count = fit >= 1 ? (int)fit : 1;
    }
}

/* Sender: the warm-up ramp (file comment), then the samples' shape: W
 * messages of X bytes when such a window fits one sample's share of the
 * cap, else fit_shape from the last step. A step much shorter than the
 * share (the fit more than twice its bytes: its fixed costs or a
 * disturbance weigh most) is followed by one more at half the fit, and the
 * fit taken again from that one. */
static void ramp(struct meas *m)
{
    const struct p2pb_survey_cfg *cfg = m->cfg;
    const double share = sample_share_ns(cfg);
    double t_ns = 0;
    int at_full = 0;
    m->msgs = 1;
    m->count = (int)(cfg->bw_bytes < RAMP_FIRST ? cfg->bw_bytes : RAMP_FIRST);
    for (m->warmup = 0;;) {
        t_ns = ramp_step(m);
        at_full = m->msgs == cfg->window && (size_t)m->count == cfg->bw_bytes;
        if (at_full || t_ns * RAMP_GROWTH > share)
            break;
        if ((size_t)m->count < cfg->bw_bytes)
            m->count = (size_t)m->count * RAMP_GROWTH < cfg->bw_bytes ? m->count * RAMP_GROWTH
                                                                      : (int)cfg->bw_bytes;
        else
            m->msgs = m->msgs * RAMP_GROWTH < cfg->window ? m->msgs * RAMP_GROWTH : cfg->window;
    }
    if (at_full && t_ns <= share)
        return;
    double last = (double)m->msgs * m->count;
    fit_shape(m, t_ns, share);
    if ((double)m->msgs * m->count <= 2 * last)
        return;
    if (m->msgs >= 2)
        m->msgs /= 2;
    else
        m->count = m->count / 2 > 0 ? m->count / 2 : 1;
    fit_shape(m, ramp_step(m), share);
}

/* The stream, both sides; the sender's samples[] hold one window's time, usec. */
static void stream(struct meas *m, int sender)
{
    if (!sender) {
        while (hear_order(m))
            window(m);
        return;
    }
    m->all_ns = p2pb_now_ns();
    ramp(m);
    m->last_ns = m->t0_ns = p2pb_now_ns();
    m->warm_ns = m->t0_ns - m->all_ns;
    do {
        order(m, 1);
        uint64_t t0 = p2pb_now_ns();
        window(m);
        m->b->samples[m->n++] = (double)(p2pb_now_ns() - t0) / 1000.0;
    } while (want_more(m));
    order(m, 0);
}

/* The controller's row: labels, counts and statistics of samples[0..n-1].
 * A stream's bytes_factor is the bytes a sample moved over X (W when the
 * sample was not shrunk), so that MB/s = bytes_factor x X / t holds. */
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
    o->msgs = lat ? 1 : m->msgs;
    o->msg_bytes = lat ? m->cfg->lat_bytes : (size_t)m->count;
    r->bytes_factor = lat ? 1.0 : (double)o->msgs * (double)o->msg_bytes / (double)r->bytes;
    r->time_scale = lat ? 0.5 : 1.0;
    r->samples = m->n;
    r->iterations_per_sample = k;
    r->warmup = m->warmup;
    r->warmup_sec = (double)m->warm_ns * 1e-9;
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
    o->capped = m->capped;
    o->stayed_slow = -1;
    o->valid = 1;
}

/* This thread's run delay, ns: the time it was runnable but waited for a
 * CPU, the second field of /proc/self/schedstat (the kernel's
 * Documentation/scheduler/sched-stats.rst); -1 when unreadable (a kernel
 * without schedstats). */
static double run_delay_ns(void)
{
    unsigned long long run = 0, wait = 0;
    FILE *f = fopen("/proc/self/schedstat", "r");
    int n = f ? fscanf(f, "%llu %llu", &run, &wait) : 0;
    if (f)
        fclose(f);
    return n == 2 ? (double)wait : -1.0;
}

/* A measurement's start for its CPU wait (wait_pct). */
struct wait_mark {
    double delay_ns; /* run_delay_ns() then; -1 unknown */
    uint64_t wall_ns;
};

static void wait_begin(struct wait_mark *w)
{
    w->delay_ns = run_delay_ns();
    w->wall_ns = p2pb_now_ns();
}

/* The pair's CPU wait since w, percent of the wall time: this rank's, and
 * on the controller the larger of its own and the partner's (sent after the
 * measurement, off the timed path, on the control tag); -1 unknown. */
static double pair_wait_pct(const struct meas *m, const struct wait_mark *w, int controller)
{
    double now = run_delay_ns(), wall = (double)(p2pb_now_ns() - w->wall_ns);
    double mine = now >= 0 && w->delay_ns >= 0 && wall > 0 ? 100 * (now - w->delay_ns) / wall : -1;
    if (!controller) {
        P2PB_MPI_CHECK(MPI_Send(&mine, 1, MPI_DOUBLE, m->peer, TAG_CTL, m->comm));
        return mine;
    }
    double theirs = -1;
    P2PB_MPI_CHECK(MPI_Recv(&theirs, 1, MPI_DOUBLE, m->peer, TAG_CTL, m->comm, MPI_STATUS_IGNORE));
    return mine < 0 || theirs < 0 ? -1 : fmin(100, fmax(mine, theirs));
}

void p2pb_survey_pair(MPI_Comm comm, const struct p2pb_survey_cfg *cfg, struct p2pb_survey_bufs *b,
                      int me, int peer, struct p2pb_survey_row out[2])
{
    const int lo = me < peer ? me : peer, hi = me < peer ? peer : me;
    struct meas m = {.comm = comm, .cfg = cfg, .b = b, .peer = peer};
    out[0].valid = out[1].valid = 0;
    struct p2pb_kernel_ctx *c = &m.kc; /* the kernels' inputs; the rest zero */
    c->comm = comm;
    c->rank = me;
    c->peer = peer;
    c->left = c->right = -1;
    c->dtype = MPI_BYTE;
    c->sbuf = b->sbuf;
    c->rbuf = b->rbuf;
    c->bytes = cfg->lat_bytes;
    c->count = (int)cfg->lat_bytes;
    c->numa_node = -1; /* first touch: the survey's buffers are its own */
    c->tcp_if = "";

    m.count = (int)cfg->lat_bytes;
    struct wait_mark w;
    wait_begin(&w);
    long k = latency(&m, me == lo);
    double wait = pair_wait_pct(&m, &w, me == lo);
    if (me == lo) {
        fill_row(&out[0], &m, P2PB_SURVEY_LATENCY, lo, hi, -1, (size_t)k);
        out[0].cpu_wait_pct = wait;
    }

    m.kc.priv = b->stream_priv;
    for (int from = lo; from >= 0; from = from == lo ? hi : -1) {
        m.n = 0;
        m.capped = 0;
        m.kc.direction = from == hi; /* direction 1: the higher rank sends */
        wait_begin(&w);
        stream(&m, me == from);
        wait = pair_wait_pct(&m, &w, me == from);
        if (me == from) {
            fill_row(&out[1], &m, P2PB_SURVEY_BANDWIDTH, lo, hi, from, 1);
            out[1].cpu_wait_pct = wait;
        }
    }
}
