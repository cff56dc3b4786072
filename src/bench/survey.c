/* SPDX-License-Identifier: MIT */
/*
 * survey.c - the link survey's steps (survey.h, docs/survey.md): prepare
 * (hosts, surveyed ranks, round order), the run record's "survey" object,
 * the rounds of the schedule (src/common/schedule.h) with rank 0 writing
 * each round's rows as it ends, then the suspects retested alone.
 */
#include "survey.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "host/hostinfo.h"
#include "mpi_util.h"
#include "outlier.h"
#include "schedule.h"

/* Suspects retested alone: at most max(MIN_SUSPECTS, surveyed ranks). */
#define MIN_SUSPECTS 8
/* How often a waiting rank looks whether the pair it waits for is done, ns. */
#define IDLE_POLL_NS 100000L

static const char *const per_names[] = {"auto", "host", "rank"};

struct p2pb_survey {
    char (*hosts)[64]; /* [nranks] host of each rank */
    int *members;      /* [nmembers] surveyed ranks, ascending */
    int nmembers, nhosts;
    int me;          /* this rank's index in members, -1 if it only waits */
    int per_host;    /* 1: one rank per host; 0: every rank */
    int contention;  /* 1: a round's pairs at once; 0: one pair at a time */
    uint64_t seed;   /* random order's seed; 0: schedule order */
    int rounds;      /* p2pb_schedule_rounds(nmembers) */
    int *order;      /* [rounds] schedule round run at position i */
    int (*pairs)[2]; /* [nmembers / 2 + 1] one round's pairs, member indices */
    struct p2pb_survey_cfg cfg;
};

/* State of the rounds and retests on one rank. */
struct walk {
    struct p2pb_run *run;
    struct p2pb_survey *s;
    struct p2pb_survey_bufs bufs;
    struct p2pb_survey_row mine[2];  /* this rank's rows of the current pair / round */
    struct p2pb_survey_row *all;     /* rank 0: [nranks][2] one round's rows */
    struct p2pb_survey_tracker *trk; /* rank 0 */
    enum p2pb_status st;
    size_t written;
};

static uint64_t xorshift(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

struct host_idx {
    const char *host;
    int rank;
};

static int cmp_host(const void *a, const void *b)
{
    const struct host_idx *x = a, *y = b;
    int c = strcmp(x->host, y->host);
    return c ? c : (x->rank > y->rank) - (x->rank < y->rank);
}

/* Count hosts; mark the lowest rank of each in lead[]. Returns the count,
 * -1 when out of memory. */
static int find_leaders(const struct p2pb_survey *s, int n, unsigned char *lead)
{
    struct host_idx *v = malloc((size_t)n * sizeof *v);
    if (!v)
        return -1;
    for (int i = 0; i < n; i++)
        v[i] = (struct host_idx){s->hosts[i], i};
    qsort(v, (size_t)n, sizeof *v, cmp_host);
    int nh = 0;
    for (int i = 0; i < n; i++)
        if (i == 0 || strcmp(v[i].host, v[i - 1].host) != 0) {
            lead[v[i].rank] = 1;
            nh++;
        }
    free(v);
    return nh;
}

/* The surveyed ranks and this rank's index among them. 0, or -1 (memory). */
static int choose_members(struct p2pb_survey *s, const struct p2pb_run *run)
{
    int n = run->nranks;
    unsigned char *lead = calloc((size_t)n, 1);
    s->members = malloc((size_t)n * sizeof *s->members);
    s->nhosts = lead ? find_leaders(s, n, lead) : -1;
    if (!s->members || s->nhosts < 0) {
        free(lead);
        return -1;
    }
    int per = run->opt->survey_per;
    s->per_host = per == 1 || (per == 0 && s->nhosts >= 2);
    s->me = -1;
    for (int r = 0; r < n; r++)
        if (!s->per_host || lead[r]) {
            if (r == run->rank)
                s->me = s->nmembers;
            s->members[s->nmembers++] = r;
        }
    free(lead);
    int mode = run->opt->survey_mode;
    s->contention = mode == 1 || (mode == 2 && s->nmembers > P2PB_SURVEY_AUTO_ALONE_MAX);
    return 0;
}

/* Seed (random order) and the order of the rounds: identity or a
 * Fisher-Yates shuffle driven by xorshift64 from the seed. 0 or -1. */
static int choose_order(struct p2pb_survey *s, const struct p2pb_run *run)
{
    uint64_t seed = run->opt->survey_seed;
    if (run->opt->survey_order == 1 && seed == 0 && run->rank == 0)
        seed = (p2pb_now_ns() ^ ((uint64_t)getpid() << 20)) % 4294967295u + 1;
    P2PB_MPI_CHECK(MPI_Bcast(&seed, 1, MPI_UINT64_T, 0, run->comm));
    s->seed = run->opt->survey_order == 1 ? seed : 0;
    s->rounds = p2pb_schedule_rounds(s->nmembers);
    s->order = malloc(((size_t)s->rounds + 1) * sizeof *s->order);
    s->pairs = malloc(((size_t)s->nmembers / 2 + 1) * sizeof *s->pairs);
    if (!s->order || !s->pairs)
        return -1;
    for (int i = 0; i < s->rounds; i++)
        s->order[i] = i;
    uint64_t x = s->seed * 0x9e3779b97f4a7c15ull + 1;
    for (int i = s->rounds - 1; s->seed && i > 0; i--) {
        int j = (int)(xorshift(&x) % (uint64_t)(i + 1));
        int t = s->order[i];
        s->order[i] = s->order[j];
        s->order[j] = t;
    }
    return 0;
}

static void fill_cfg(struct p2pb_survey *s, const struct p2pb_run *run)
{
    const struct p2pb_options *o = run->opt;
    s->cfg = (struct p2pb_survey_cfg){.lat_bytes = o->survey_lat,
                                      .bw_bytes = o->survey_bw,
                                      .window = o->policy.window,
                                      .min_samples = o->policy.min_samples,
                                      .max_samples = o->policy.max_samples,
                                      .budget_s = o->survey_time,
                                      .cap_s = o->survey_cap,
                                      .ci_target = o->policy.ci_target,
                                      .nranks = run->nranks};
    /* --timeout restarts per pair: its three measurements must fit */
    if (o->policy.timeout > 0 && s->cfg.cap_s > o->policy.timeout / 4)
        s->cfg.cap_s = o->policy.timeout / 4;
    if (o->policy.timeout > 0 && s->cfg.budget_s > o->policy.timeout / 6)
        s->cfg.budget_s = o->policy.timeout / 6;
}

enum p2pb_status p2pb_survey_prepare(struct p2pb_run *run)
{
    struct p2pb_survey *s = calloc(1, sizeof *s);
    char me[64] = "";
    int oom = !s, any = 0;
    if (s) {
        run->survey = s;
        s->hosts = calloc((size_t)run->nranks, sizeof *s->hosts);
        oom = !s->hosts;
    }
    p2pb_hostinfo_hostname(me, sizeof me);
    P2PB_MPI_CHECK(MPI_Allreduce(&oom, &any, 1, MPI_INT, MPI_MAX, run->comm));
    if (any)
        return p2pb_fail(P2PB_ENOMEM, run->err, sizeof run->err, "out of memory for the survey");
    P2PB_MPI_CHECK(
        MPI_Allgather(me, sizeof me, MPI_CHAR, s->hosts, sizeof me, MPI_CHAR, run->comm));
    oom = choose_members(s, run) != 0;
    oom |= choose_order(s, run) != 0;
    fill_cfg(s, run);
    P2PB_MPI_CHECK(MPI_Allreduce(&oom, &any, 1, MPI_INT, MPI_MAX, run->comm));
    if (any)
        return p2pb_fail(P2PB_ENOMEM, run->err, sizeof run->err, "out of memory for the survey");
    return P2PB_OK;
}

void p2pb_survey_free(struct p2pb_run *run)
{
    struct p2pb_survey *s = run->survey;
    if (!s)
        return;
    free(s->hosts);
    free(s->members);
    free(s->order);
    free(s->pairs);
    free(s);
    run->survey = NULL;
}

void p2pb_survey_describe(cJSON *rec, const struct p2pb_run *run)
{
    const struct p2pb_survey *s = run->survey;
    const struct p2pb_options *o = run->opt;
    cJSON *j = cJSON_AddObjectToObject(rec, "survey");
    cJSON_AddStringToObject(j, "per", s->per_host ? "host" : "rank");
    cJSON_AddStringToObject(j, "per_requested", per_names[o->survey_per]);
    cJSON_AddStringToObject(j, "mode", s->contention ? "contention" : "alone");
    cJSON_AddStringToObject(j, "mode_requested",
                            o->survey_mode == 2   ? "auto"
                            : o->survey_mode == 1 ? "contention"
                                                  : "alone");
    cJSON_AddStringToObject(j, "order", s->seed ? "random" : "schedule");
    if (s->seed)
        cJSON_AddNumberToObject(j, "seed", (double)s->seed);
    else
        cJSON_AddNullToObject(j, "seed");
    cJSON_AddStringToObject(j, "schedule", "round-robin, circle method");
    cJSON_AddNumberToObject(j, "latency_bytes", (double)s->cfg.lat_bytes);
    cJSON_AddNumberToObject(j, "bandwidth_bytes", (double)s->cfg.bw_bytes);
    cJSON_AddNumberToObject(j, "window", (double)s->cfg.window);
    cJSON_AddNumberToObject(j, "time_per_measurement_sec", s->cfg.budget_s);
    cJSON_AddNumberToObject(j, "cap_per_measurement_sec", s->cfg.cap_s);
    cJSON_AddNumberToObject(j, "hosts", s->nhosts);
    cJSON_AddNumberToObject(j, "ranks_surveyed", s->nmembers);
    cJSON_AddNumberToObject(j, "rounds", s->rounds);
    cJSON_AddNumberToObject(j, "pairs", (double)s->nmembers * (s->nmembers - 1) / 2);
}

/* ---- The rounds ---- */

/* Wait for every rank without spinning: a waiting rank must not take the
 * CPU of a measuring pair on a shared host (MPI_Ibarrier, then MPI_Test
 * every IDLE_POLL_NS). */
static void idle_wait(MPI_Comm comm)
{
    MPI_Request req;
    int done = 0;
    P2PB_MPI_CHECK(MPI_Ibarrier(comm, &req));
    for (;;) {
        P2PB_MPI_CHECK(MPI_Test(&req, &done, MPI_STATUS_IGNORE));
        if (done)
            return;
        struct timespec ts = {0, IDLE_POLL_NS};
        nanosleep(&ts, NULL);
    }
}

/* Rank 0: one row to the results file (P2PB_EIO once a write failed). */
static void write_row(struct walk *w, const struct p2pb_survey_row *row)
{
    struct p2pb_run *run = w->run;
    if (!run->rf || w->st != P2PB_OK)
        return;
    cJSON *o = p2pb_survey_row_json(row, (const char(*)[64])w->s->hosts);
    if (!o) {
        w->st = p2pb_fail(P2PB_ENOMEM, run->err, sizeof run->err, "out of memory");
    } else {
        w->st = p2pb_results_write_json(run->rf, o, run->err, sizeof run->err);
        cJSON_Delete(o);
    }
    if (w->st != P2PB_OK)
        fprintf(stderr, "p2pbench: error: %s\n", run->err);
    w->written++;
}

/* Members a and b (indices) measure their pair; the others do nothing. */
static void measure_pair(struct walk *w, int a, int b, int round, int contention)
{
    const struct p2pb_survey *s = w->s;
    if (s->me != a && s->me != b)
        return;
    int peer = s->members[s->me == a ? b : a];
    p2pb_survey_pair(w->run->comm, &s->cfg, &w->bufs, w->run->rank, peer, w->mine);
    for (int i = 0; i < 2; i++) {
        w->mine[i].round = round;
        w->mine[i].contention = contention;
    }
}

/* Rank 0: the worse of two MB/s (NAN when a row is missing). */
static double slower(const struct p2pb_survey_row *x, const struct p2pb_survey_row *y)
{
    if (!x->valid || !y->valid)
        return NAN;
    return x->r.mbytes_per_sec < y->r.mbytes_per_sec ? x->r.mbytes_per_sec : y->r.mbytes_per_sec;
}

/* Rank 0: how a rank is named on stdout: its host (per host), else
 * host(rank), in buf (80 bytes). */
static const char *who(const struct p2pb_survey *s, int rank, char *buf)
{
    if (s->per_host)
        snprintf(buf, 80, "%s", s->hosts[rank]);
    else
        snprintf(buf, 80, "%s(%d)", s->hosts[rank], rank);
    return buf;
}

/* Rank 0: the gathered rows of one round, pair by pair, to the file and
 * the tracker; one line on stdout. */
static void emit_round(struct walk *w, int pos, int round, size_t npairs)
{
    const struct p2pb_survey *s = w->s;
    double worst_lat = 0, worst_bw = INFINITY;
    int wl = -1, wb = -1, capped = 0;
    for (size_t k = 0; k < npairs; k++) {
        int lo = s->members[s->pairs[k][0]], hi = s->members[s->pairs[k][1]];
        struct p2pb_survey_row *lr = &w->all[2 * lo], *a = &w->all[2 * lo + 1],
                               *b = &w->all[2 * hi + 1];
        for (struct p2pb_survey_row *r = lr; r; r = r == lr ? a : r == a ? b : NULL)
            if (r->valid) {
                write_row(w, r);
                capped += r->capped;
            }
        double lat = lr->valid ? lr->r.t.median : NAN, bw = slower(a, b);
        p2pb_survey_tracker_add(w->trk, lo, hi, round, lat, bw);
        if (lat > worst_lat)
            worst_lat = lat, wl = (int)k;
        if (bw < worst_bw)
            worst_bw = bw, wb = (int)k;
    }
    printf("round %4d/%d (schedule round %d): %zu pair%s", pos + 1, s->rounds, round, npairs,
           npairs == 1 ? "" : "s");
    if (wl >= 0 && wb >= 0) {
        char a[80], b[80], c[80], d[80];
        printf(", slowest %.2f usec %s-%s, lowest %.1f MB/s %s-%s", worst_lat,
               who(s, s->members[s->pairs[wl][0]], a), who(s, s->members[s->pairs[wl][1]], b),
               worst_bw, who(s, s->members[s->pairs[wb][0]], c),
               who(s, s->members[s->pairs[wb][1]], d));
    }
    if (capped)
        printf("; %d row%s capped at %g s", capped, capped == 1 ? "" : "s", s->cfg.cap_s);
    printf("\n");
    fflush(stdout);
}

/* One round on every rank: its pairs one at a time (alone) or at once
 * (contention), the rows gathered to rank 0 and written there. */
static void run_round(struct walk *w, int pos)
{
    struct p2pb_survey *s = w->s;
    struct p2pb_run *run = w->run;
    int round = s->order[pos], contention = s->contention;
    size_t npairs = p2pb_schedule_round_pairs(s->nmembers, round, s->pairs);
    memset(w->mine, 0, sizeof w->mine);
    for (size_t k = 0; k < npairs; k++) {
        if (!contention || k == 0)
            p2pb_watchdog_step(P2PB_WAIT_SIZE);
        if (!contention) {
            measure_pair(w, s->pairs[k][0], s->pairs[k][1], round, 0);
            idle_wait(run->comm);
        } else if (s->me == s->pairs[k][0] || s->me == s->pairs[k][1]) {
            measure_pair(w, s->pairs[k][0], s->pairs[k][1], round, 1);
        }
    }
    if (contention)
        idle_wait(run->comm);
    P2PB_MPI_CHECK(MPI_Gather(w->mine, (int)sizeof w->mine, MPI_BYTE, w->all, (int)sizeof w->mine,
                              MPI_BYTE, 0, run->comm));
    if (run->rank == 0)
        emit_round(w, pos, round, npairs);
}

/* ---- The retests ---- */

/* Rank 0: the rows of a retested pair (lo's two, hi's bandwidth row) from
 * their ranks, each marked with whether it stayed beyond the bound. */
static void collect_retest(struct walk *w, int lo, int hi, double lat_above, double bw_below)
{
    struct p2pb_survey_row rows[3];
    MPI_Comm comm = w->run->comm;
    if (lo == 0)
        memcpy(rows, w->mine, 2 * sizeof *rows);
    else
        P2PB_MPI_CHECK(
            MPI_Recv(rows, (int)(2 * sizeof *rows), MPI_BYTE, lo, 0, comm, MPI_STATUS_IGNORE));
    P2PB_MPI_CHECK(MPI_Recv(&rows[2], (int)sizeof *rows, MPI_BYTE, hi, 0, comm, MPI_STATUS_IGNORE));
    for (int i = 0; i < 3; i++) {
        struct p2pb_survey_row *r = &rows[i];
        r->retest = 1;
        r->stayed_slow = r->metric == P2PB_SURVEY_LATENCY
                             ? (isfinite(lat_above) && r->r.t.median > lat_above)
                             : (isfinite(bw_below) && r->r.mbytes_per_sec < bw_below);
        strncat(r->r.variant, " retest", sizeof r->r.variant - strlen(r->r.variant) - 1);
        write_row(w, r);
    }
    const struct p2pb_survey *s = w->s;
    char a[80], b[80];
    int slow = rows[0].stayed_slow || rows[1].stayed_slow || rows[2].stayed_slow;
    int capped = rows[0].capped + rows[1].capped + rows[2].capped;
    printf("retest %s-%s alone: %.2f usec, %.1f / %.1f MB/s: %s (%s %.0f%% of the first pass's "
           "median pair%s)",
           who(s, lo, a), who(s, hi, b), rows[0].r.t.median, rows[1].r.mbytes_per_sec,
           rows[2].r.mbytes_per_sec, slow ? "stayed slow" : "recovered",
           slow ? "more than" : "within", 100 * P2PB_OUTLIER_MIN_OFF,
           slow ? "" : "; p2pbench-report survey judges against the typical pair");
    if (capped)
        printf("; %d of 3 rows capped at %g s", capped, s->cfg.cap_s);
    double wait = fmax(rows[0].cpu_wait_pct, fmax(rows[1].cpu_wait_pct, rows[2].cpu_wait_pct));
    if (wait >= P2PB_SURVEY_STARVED_PCT) /* against the typical pair: p2pbench-report survey */
        printf("; a rank waited for a CPU %.0f%% of the time", wait);
    printf("\n");
    fflush(stdout);
}

/* Every rank: rank 0 picks the suspects and broadcasts them; each is
 * measured again with every other rank waiting. */
static void retest(struct walk *w)
{
    struct p2pb_survey *s = w->s;
    struct p2pb_run *run = w->run;
    size_t cap = s->nmembers > MIN_SUSPECTS ? (size_t)s->nmembers : MIN_SUSPECTS;
    int(*sp)[2] = calloc(cap, sizeof *sp);
    int *rounds = calloc(cap, sizeof *rounds);
    double bounds[2] = {NAN, NAN};
    int n = 0;
    if (run->rank == 0 && sp && rounds)
        n = (int)p2pb_survey_suspects(w->trk, sp, rounds, cap, &bounds[0], &bounds[1]);
    P2PB_MPI_CHECK(MPI_Bcast(&n, 1, MPI_INT, 0, run->comm));
    if (n > 0 && (!sp || !rounds))
        MPI_Abort(run->comm, 1); /* cannot happen on rank 0; elsewhere: no room to follow */
    if (n > 0) {
        P2PB_MPI_CHECK(MPI_Bcast(sp, 2 * n, MPI_INT, 0, run->comm));
        P2PB_MPI_CHECK(MPI_Bcast(rounds, n, MPI_INT, 0, run->comm));
    }
    if (run->rank == 0)
        printf("suspects: %d pair%s (latency above %.2f usec or bandwidth below %.1f MB/s)\n", n,
               n == 1 ? "" : "s", bounds[0], bounds[1]);
    for (int i = 0; i < n; i++) {
        int lo = sp[i][0], hi = sp[i][1];
        p2pb_watchdog_step(P2PB_WAIT_SIZE);
        memset(w->mine, 0, sizeof w->mine);
        if (run->rank == lo || run->rank == hi) {
            p2pb_survey_pair(run->comm, &s->cfg, &w->bufs, run->rank, run->rank == lo ? hi : lo,
                             w->mine);
            w->mine[0].round = w->mine[1].round = rounds[i];
        }
        idle_wait(run->comm); /* rank 0 must not poll while the pair measures */
        if (run->rank == lo && lo != 0)
            P2PB_MPI_CHECK(MPI_Send(w->mine, (int)sizeof w->mine, MPI_BYTE, 0, 0, run->comm));
        if (run->rank == hi)
            P2PB_MPI_CHECK(
                MPI_Send(&w->mine[1], (int)sizeof w->mine[1], MPI_BYTE, 0, 0, run->comm));
        if (run->rank == 0)
            collect_retest(w, lo, hi, bounds[0], bounds[1]);
    }
    free(sp);
    free(rounds);
}

/* ---- The run ---- */

/* Rank 0: what is surveyed, in one header. */
static void print_header(const struct walk *w)
{
    const struct p2pb_survey *s = w->s;
    printf("# Survey: %d rank%s surveyed (%s) on %d host%s; %d rounds of %d pair%s; pairs %s; "
           "order %s",
           s->nmembers, s->nmembers == 1 ? "" : "s", s->per_host ? "one per host" : "every rank",
           s->nhosts, s->nhosts == 1 ? "" : "s", s->rounds, s->nmembers / 2,
           s->nmembers / 2 == 1 ? "" : "s",
           s->contention ? "of a round at once (contention)" : "one at a time",
           s->seed ? "random" : "schedule");
    if (s->seed)
        printf(" (seed %llu)", (unsigned long long)s->seed);
    printf("\n# latency: PingPong of %zu bytes, t[usec] = half round trip; bandwidth: %zu x %zu "
           "bytes one way, MB/s (1 MB = 10^6 bytes); %g s per pair, metric and direction, at "
           "most %g s (capped; a slow link's stream samples shrink to fit)\n",
           s->cfg.lat_bytes, s->cfg.window, s->cfg.bw_bytes, s->cfg.budget_s, s->cfg.cap_s);
    fflush(stdout);
}

/* Buffers (surveyed ranks), rank 0's gather rows and tracker; P2PB_ENOMEM
 * on every rank when one rank lacks memory. */
static enum p2pb_status walk_alloc(struct walk *w)
{
    struct p2pb_run *run = w->run;
    int oom = 0, any = 0;
    if (w->s->me >= 0)
        oom = p2pb_survey_bufs_alloc(&w->bufs, &w->s->cfg) != P2PB_OK;
    if (run->rank == 0) {
        size_t k = w->s->nmembers > MIN_SUSPECTS ? (size_t)w->s->nmembers : MIN_SUSPECTS;
        w->all = calloc(2 * (size_t)run->nranks, sizeof *w->all);
        w->trk = p2pb_survey_tracker_new(k, w->s->seed + 1);
        oom |= !w->all || !w->trk;
    }
    P2PB_MPI_CHECK(MPI_Allreduce(&oom, &any, 1, MPI_INT, MPI_MAX, run->comm));
    if (any && run->rank == 0)
        fprintf(stderr,
                "p2pbench: error: out of memory for the survey's buffers (%zu x %zu "
                "bytes per rank)\n",
                w->s->cfg.window, w->s->cfg.bw_bytes);
    return any ? P2PB_ENOMEM : P2PB_OK;
}

static void walk_free(struct walk *w)
{
    p2pb_survey_bufs_free(&w->bufs);
    free(w->all);
    p2pb_survey_tracker_free(w->trk);
}

enum p2pb_status p2pb_survey_run(struct p2pb_run *run)
{
    struct walk w = {.run = run, .s = run->survey};
    if (w.s->nmembers < 2) {
        if (run->rank == 0)
            fprintf(
                stderr, "p2pbench: error: nothing to survey: %d rank%s on %d host%s%s\n",
                run->nranks, run->nranks == 1 ? "" : "s", w.s->nhosts, w.s->nhosts == 1 ? "" : "s",
                w.s->per_host ? " (one rank per host; --survey-per rank surveys every rank)" : "");
        return P2PB_ESKIP;
    }
    w.st = walk_alloc(&w);
    if (w.st == P2PB_OK && run->rank == 0)
        print_header(&w);
    for (int pos = 0; pos < w.s->rounds && w.st == P2PB_OK; pos++) {
        run_round(&w, pos);
        int st = (int)w.st; /* a write error on rank 0 stops every rank */
        P2PB_MPI_CHECK(MPI_Bcast(&st, 1, MPI_INT, 0, run->comm));
        w.st = (enum p2pb_status)st;
    }
    if (w.st == P2PB_OK)
        retest(&w);
    int st = (int)w.st;
    P2PB_MPI_CHECK(MPI_Bcast(&st, 1, MPI_INT, 0, run->comm));
    if (run->rank == 0 && st == P2PB_OK) {
        const char *f = run->rf ? p2pb_results_path(run->rf) : "FILE";
        printf("# %zu rows; verdicts: p2pbench-report survey %s; heatmaps: p2pbench-report html "
               "%s -o survey.html\n",
               w.written, f, f);
    }
    walk_free(&w);
    return (enum p2pb_status)st;
}
