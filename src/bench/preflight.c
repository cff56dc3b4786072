/* SPDX-License-Identifier: MIT */
/*
 * preflight.c - everything p2pbench does before it measures: the launcher
 * check, option parsing on every rank, the memory check on rank 0, the
 * --numa-node and --tcp-if checks on every host, then (only when all passed)
 * the results file on rank 0, and one broadcast of rank 0's verdict so every
 * rank exits with the same message and code. The steps are called in order
 * by main.c (see bench.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

#include "text.h"
#include "host/hostdetect.h"
#include "host/hostinfo.h"
#include "mpi_util.h"
#include "netif.h"

/* What rank 0 broadcasts: its status (enum p2pb_status) and message. */
struct verdict {
    int status;
    char msg[P2PB_BENCH_ERRLEN];
};

/* The current UTC time formatted with strftime's fmt into buf (len bytes). */
static void utc_now(char *buf, size_t len, const char *fmt)
{
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(buf, len, fmt, &tm);
}

void p2pb_preflight_launcher(const struct p2pb_run *run)
{
    /* A binary started by another MPI library's launcher runs as N separate
     * 1-rank jobs: the launcher's own variables still say N. */
    static const char *const size_vars[] = {"PMI_SIZE", "OMPI_COMM_WORLD_SIZE", "PMIX_SIZE", NULL};
    if (run->nranks != 1)
        return;
    for (size_t i = 0; size_vars[i]; i++) {
        const char *v = getenv(size_vars[i]);
        if (v && atoi(v) > 1) {
            fprintf(stderr,
                    "p2pbench: warning: this is a 1-rank MPI job, but the launcher started "
                    "%d processes (%s=%s): is p2pbench built with another MPI library than "
                    "this launcher's?\n",
                    atoi(v), size_vars[i], v);
            return;
        }
    }
}

/* Ranks of comm on this host (the shared-memory node). Collective. */
static int ranks_on_this_host(MPI_Comm comm, int rank)
{
    MPI_Comm node;
    int local_ranks = 1;
    P2PB_MPI_CHECK(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node));
    MPI_Comm_size(node, &local_ranks);
    MPI_Comm_free(&node);
    return local_ranks;
}

enum p2pb_status p2pb_preflight_parse(struct p2pb_run *run, int argc, char **argv)
{
    const struct p2pb_options *opt = run->opt;
    /* getopt_long permutes argv: keep the command line as typed */
    run->cmdline = p2pb_run_command_line(argc, argv);
    enum p2pb_status st = p2pb_options_parse(argc, argv, run->opt, run->err, sizeof run->err);
    run->measuring =
        st == P2PB_OK && !opt->do_help && !opt->do_version && !opt->do_list && !opt->do_info;
    run->local_ranks = ranks_on_this_host(run->comm, run->rank);
    if (run->measuring)
        run->opt->policy.llc_bytes = p2pb_hostinfo_llc_bytes();
    utc_now(run->start_utc, sizeof run->start_utc, "%Y-%m-%dT%H:%M:%SZ");
    return st;
}

/* Largest message size of the run (bytes). */
static size_t largest_size(const struct p2pb_options *opt)
{
    size_t maxb = 0;
    for (size_t i = 0; i < opt->nsizes; i++)
        if (opt->sizes[i] > maxb)
            maxb = opt->sizes[i];
    return maxb;
}

/* Most message buffers (send + receive regions) any selected kernel needs. */
static int most_regions(const struct p2pb_options *opt)
{
    int regions = 0;
    for (size_t i = 0; i < opt->nkernels; i++) {
        size_t r = p2pb_kernel_regions(opt->kernels[i]->sbuf_regions, opt->policy.window) +
                   p2pb_kernel_regions(opt->kernels[i]->rbuf_regions, opt->policy.window);
        if (r > (size_t)regions)
            regions = r > INT_MAX ? INT_MAX : (int)r;
    }
    return regions;
}

/* Bytes of copy buffers on this host: kernels with fixed bytes per iteration
 * (memcpy) own a source and a destination of that many bytes, on rank 0 or
 * on every rank. */
static double copy_buffer_bytes(const struct p2pb_options *opt, int local_ranks)
{
    double copy = 0;
    for (size_t i = 0; i < opt->nkernels; i++)
        if (p2pb_kernel_fixed_bytes(opt->kernels[i]))
            copy = 2.0 * (double)opt->policy.ks.copy_bytes *
                   (opt->policy.ks.self_all ? local_ranks : 1);
    return copy;
}

/* Where the budget b comes from, as words: "MemAvailable 20.1 GB", "cgroup
 * /x: memory.max 1.5 GB, 0.4 GB free" or "0.9 x MemTotal 22.7 GB". */
static const char *budget_basis(const struct p2pb_mem_budget *b, char *buf, size_t len)
{
    if (b->cgroup[0] && b->budget == b->cgroup_free)
        snprintf(buf, len, "cgroup %s %.3g GB, %.3g GB of it free", b->cgroup,
                 b->cgroup_max / 1e9, b->cgroup_free / 1e9);
    else if (b->budget == b->available)
        snprintf(buf, len, "MemAvailable %.3g GB", b->available / 1e9);
    else
        snprintf(buf, len, "0.9 x MemTotal %.3g GB", b->total / 1e9);
    p2pb_text_sanitize(buf); /* a cgroup path from /proc */
    return buf;
}

/* Bytes every option's buffers take on this host: message buffers, the
 * off-cache sets, the copy buffers, --cache-pollute's buffer (each rank of
 * a kernel that reads it allocates one). */
struct mem_need {
    double msg, cache, copy, pollute;
};

static struct mem_need memory_need(const struct p2pb_run *run, size_t maxb, int regions)
{
    const struct p2pb_options *opt = run->opt;
    struct mem_need n = {(double)maxb * regions * run->local_ranks, 0, 0, 0};
    if (opt->policy.off_cache) /* 2 C per side, send and receive */
        n.cache = 4.0 * (double)p2pb_off_cache_bytes(&opt->policy) * run->local_ranks;
    n.copy = copy_buffer_bytes(opt, run->local_ranks);
    n.pollute = (double)opt->policy.ks.cache_pollute * run->local_ranks;
    return n;
}

enum p2pb_status p2pb_preflight_memory(struct p2pb_run *run)
{
    const struct p2pb_options *opt = run->opt;
    if (run->rank != 0 || !run->measuring)
        return P2PB_OK;
    size_t maxb = largest_size(opt);
    int regions = most_regions(opt);
    struct mem_need n = memory_need(run, maxb, regions);
    struct p2pb_host_source src;
    struct p2pb_mem_budget b;
    p2pb_host_source_default(&src);
    p2pb_memory_budget(&src, &b);
    double all = n.msg + n.cache + n.copy + n.pollute;
    if (b.budget < 0 || all <= b.budget)
        return P2PB_OK;
    char basis[400], sz[32], what[200];
    /* name the largest part, and the sum when the parts add up to it */
    if (n.pollute >= n.msg && n.pollute >= n.cache && n.pollute >= n.copy)
        snprintf(what, sizeof what, "--cache-pollute %zu needs %.3g GB of buffers (%d ranks x 1 buffer)",
                 opt->policy.ks.cache_pollute, n.pollute / 1e9, run->local_ranks);
    else if (n.cache >= n.msg && n.cache >= n.copy)
        snprintf(what, sizeof what,
                 "--off-cache with a cache of %zu bytes needs %.3g GB of buffers (2 x the cache per "
                 "buffer, %d ranks x 2 buffers; give a smaller --cache-size)",
                 p2pb_off_cache_bytes(&opt->policy), n.cache / 1e9, run->local_ranks);
    else if (n.copy >= n.msg)
        snprintf(what, sizeof what, "--memcpy-buffer %zu needs %.3g GB of copy buffers",
                 opt->policy.ks.copy_bytes, n.copy / 1e9);
    else
        snprintf(what, sizeof what, "message size %zu (%s) needs %.3g GB of buffers (%d ranks x %d buffers)",
                 maxb, p2pb_fmt_size(sz, sizeof sz, maxb), n.msg / 1e9, run->local_ranks, regions);
    return p2pb_fail(P2PB_ENOMEM, run->err, sizeof run->err,
                     "%s on this host; with the run's other buffers %.3g GB, more than the %.3g "
                     "GB it may take (%s)",
                     what, all / 1e9, b.budget / 1e9, budget_basis(&b, basis, sizeof basis));
}

/* Most names tried for the default results file: p2pbench-T-H-P.jsonl,
 * then p2pbench-T-H-P-2.jsonl, ... */
#define P2PB_DEFAULT_NAME_TRIES 100

/* Rank 0: create the default results file, unique per launch (UTC time,
 * host, process id), exclusively: a file of that name (another launch's,
 * or a link) is never opened; the next suffix is tried instead. */
static enum p2pb_status open_default(struct p2pb_run *run)
{
    struct p2pb_options *opt = run->opt;
    char ts[32], host[64];
    utc_now(ts, sizeof ts, "%Y%m%dT%H%M%SZ");
    p2pb_hostinfo_hostname(host, sizeof host);
    enum p2pb_status st = P2PB_EIO;
    int taken = 1;
    for (int i = 1; taken && i <= P2PB_DEFAULT_NAME_TRIES; i++) {
        char suffix[16] = "";
        if (i > 1)
            snprintf(suffix, sizeof suffix, "-%d", i);
        snprintf(opt->output, sizeof opt->output, "p2pbench-%s-%s-%ld%s.jsonl", ts, host,
                 (long)getpid(), suffix);
        st = p2pb_results_open_new(opt->output, &taken, &run->rf, run->err, sizeof run->err);
    }
    return st;
}

enum p2pb_status p2pb_preflight_open_results(struct p2pb_run *run, enum p2pb_status st)
{
    struct p2pb_options *opt = run->opt;
    if (st != P2PB_OK || run->rank != 0 || !run->measuring ||
        (!opt->output_default && !opt->output[0]))
        return st;
    if (opt->output_default)
        return open_default(run);
    if (strcmp(opt->output, "-") != 0)
        return p2pb_results_open(opt->output, &run->rf, run->err, sizeof run->err);
    /* -o -: the results on standard output, everything printed on stderr */
    st = p2pb_results_open_stdout(&run->rf, run->err, sizeof run->err);
    fflush(stdout);
    if (st == P2PB_OK && dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
        return p2pb_fail(P2PB_EIO, run->err, sizeof run->err,
                         "-o -: cannot send the tables to standard error: %s", strerror(errno));
    return st;
}

enum p2pb_status p2pb_preflight_numa(struct p2pb_run *run, enum p2pb_status st)
{
    const struct p2pb_options *opt = run->opt;
    /* --numa-node: the node must exist on every rank's host */
    int node = opt->policy.numa_node;
    int numa_bad = node >= 0 && !p2pb_hostinfo_numa_node_exists(node);
    int any_bad = 0;
    P2PB_MPI_CHECK(MPI_Allreduce(&numa_bad, &any_bad, 1, MPI_INT, MPI_MAX, run->comm));
    if (run->rank == 0 && st == P2PB_OK && any_bad) {
        char nodes[64];
        p2pb_hostinfo_numa_nodes(nodes, sizeof nodes);
        return p2pb_fail(P2PB_ERANGE, run->err, sizeof run->err,
                         "invalid value '%d' for --numa-node: no such NUMA node on %s "
                         "(this host's nodes: %s)",
                         node, numa_bad ? "this host" : "some host of the run", nodes);
    }
    return st;
}

enum p2pb_status p2pb_preflight_tcp_if(struct p2pb_run *run, enum p2pb_status st)
{
    /* a name no kernel of the run reads is not checked (find_unused warns) */
    const char *given = run->opt->policy.ks.tcp_if_arg;
    const char *name = run->opt->tcp_if_unused || !given ? "" : given;
    char addr[64];
    int bad = name[0] && run->rank < 2 && p2pb_netif_addr(name, addr, sizeof addr) != 0;
    int any_bad = 0;
    P2PB_MPI_CHECK(MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, run->comm));
    if (run->rank == 0 && st == P2PB_OK && any_bad)
        return p2pb_fail(P2PB_EUSAGE, run->err, sizeof run->err,
                         "invalid value '%s' for --tcp-if: no interface of that name with an "
                         "IPv4 address on %s",
                         name, bad ? "this host" : "the host of rank 1");
    if (st == P2PB_OK) /* the name the TCP kernels, the bound and the host record use */
        snprintf(run->opt->policy.tcp_if, sizeof run->opt->policy.tcp_if, "%s", name);
    return st;
}

enum p2pb_status p2pb_preflight_agree(struct p2pb_run *run, enum p2pb_status st)
{
    struct verdict v;
    memset(&v, 0, sizeof v);
    v.status = (int)st;
    if (st != P2PB_OK)
        snprintf(v.msg, sizeof v.msg, "%s", run->err);
    P2PB_MPI_CHECK(MPI_Bcast(&v, (int)sizeof v, MPI_BYTE, 0, run->comm));
    if (v.status != P2PB_OK && run->rank == 0) {
        p2pb_text_sanitize(v.msg); /* one line, whatever the user typed */
        fprintf(stderr, "p2pbench: error: %s\n", v.msg);
        fflush(stderr);
    }
    /* options nothing run reads: warned once the run goes ahead, never
     * before an error that refuses it */
    for (const char *w = run->opt->unused;
         v.status == P2PB_OK && run->measuring && run->rank == 0 && *w;) {
        size_t n = strcspn(w, "\n");
        fprintf(stderr, "p2pbench: warning: %.*s\n", (int)n, w);
        w += n + (w[n] == '\n');
    }
    return (enum p2pb_status)v.status;
}

int p2pb_preflight_refuse(struct p2pb_run *run, enum p2pb_status st,
                          int (*done)(struct p2pb_run *, int))
{
    int code = p2pb_status_exit_code(st);
#ifdef OPEN_MPI
    if (run->nranks > 1 && code != 0) {
        /* every rank past its start-up first: an abort before it lost mpirun's
         * notice to "ORTE_ERROR_LOG: Data unpack would read past end of
         * buffer" in 5 of 6 launches here, 0 of 6 with this barrier */
        MPI_Barrier(run->comm);
        if (run->rank == 0) {
            fflush(stdout);
            fflush(stderr);
            MPI_Abort(MPI_COMM_WORLD, code);
        }
        MPI_Barrier(run->comm); /* until mpirun ends the job */
    }
#endif
    return done(run, code);
}
