/* SPDX-License-Identifier: MIT */
/*
 * p2pbench: thin main. Parses options on every rank, lets rank 0 validate
 * what only it can see (output path, memory), broadcasts the verdict so every
 * rank exits with the same message and code, then drives the harness over
 * kernels x sizes and hands finished rows to the reporter and results file.
 */
#include <cjson/cJSON.h>
#include <limits.h>
#include <math.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mpi_util.h"
#include "harness.h"
#include "host/hostdetect.h"
#include "host/hostinfo.h"
#include "host/mpit.h"
#include "options.h"
#include "output/output.h"
#include "p2pbench/result.h"
#include "version.h"

extern char **environ;

#define ERRLEN 512

struct verdict {
    int status; /* enum p2pb_status */
    char msg[ERRLEN];
};

static void utc_now(char *buf, size_t len, const char *fmt)
{
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(buf, len, fmt, &tm);
}

/* The command line as one shell-quoted string (words outside a safe set in
 * single quotes), with non-UTF-8 and control bytes replaced by '?'. */
static char *join_args(int argc, char **argv)
{
    size_t len = 1;
    for (int i = 0; i < argc; i++)
        len += strlen(argv[i]) * 4 + 3;
    char *s = malloc(len), *p = s;
    if (!s)
        return NULL;
    static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                               "_./,:=+@%-";
    for (int i = 0; i < argc; i++) {
        if (i)
            *p++ = ' ';
        int quote = argv[i][0] == '\0' || strspn(argv[i], safe) != strlen(argv[i]);
        if (quote) {
            *p++ = '\'';
            for (const char *c = argv[i]; *c; c++) {
                if (*c == '\'') {
                    memcpy(p, "'\\''", 4);
                    p += 4;
                } else
                    *p++ = *c;
            }
            *p++ = '\'';
        } else {
            strcpy(p, argv[i]);
            p += strlen(argv[i]);
        }
    }
    *p = '\0';
    p2pb_text_sanitize(s);
    return s;
}

static int finish(int code)
{
    p2pb_hostinfo_fini();
    MPI_Finalize();
    return code;
}

/* Gather a JSON object from every rank to rank 0 as an array (rank order). */
static cJSON *gather_json(MPI_Comm comm, cJSON *mine)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    char *text = cJSON_PrintUnformatted(mine);
    int len = text ? (int)strlen(text) + 1 : 1;
    int *lens = NULL, *displs = NULL;
    char *all = NULL;
    if (rank == 0) {
        lens = calloc((size_t)size, sizeof *lens);
        displs = calloc((size_t)size, sizeof *displs);
    }
    P2PB_MPI_CHECK(MPI_Gather(&len, 1, MPI_INT, lens, 1, MPI_INT, 0, comm));
    if (rank == 0) {
        long total = 0;
        for (int i = 0; i < size; i++) {
            displs[i] = (int)total;
            total += lens[i];
        }
        all = malloc((size_t)total);
    }
    P2PB_MPI_CHECK(
        MPI_Gatherv(text ? text : "", len, MPI_CHAR, all, lens, displs, MPI_CHAR, 0, comm));
    cJSON_free(text);
    cJSON *arr = NULL;
    if (rank == 0) {
        arr = cJSON_CreateArray();
        for (int i = 0; i < size; i++) {
            cJSON *o = cJSON_Parse(all + displs[i]);
            cJSON_AddItemToArray(arr, o ? o : cJSON_CreateNull());
        }
        free(all);
        free(lens);
        free(displs);
    }
    return arr;
}

/* Host objects keyed by host name: one entry per distinct host. */
static cJSON *dedup_hosts(cJSON *host_arr)
{
    cJSON *hosts = cJSON_CreateObject();
    cJSON *h;
    cJSON_ArrayForEach(h, host_arr)
    {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(h, "host");
        if (!cJSON_IsString(name) || cJSON_GetObjectItemCaseSensitive(hosts, name->valuestring))
            continue;
        cJSON_AddItemToObject(hosts, name->valuestring, cJSON_Duplicate(h, 1));
    }
    return hosts;
}

/*
 * Host context of the run on rank 0: adds "hosts" (deduplicated), "ranks"
 * (takes ownership of *ranks) and "warnings" (placement, printed to stderr
 * once) to dst; returns the eager limit to mark in tables (bytes, -1 unknown)
 * for the transport in use: shared memory when all ranks share one host.
 */
/* The MPI library's settings from rank 0's environment (mpirun --mca X Y
 * arrives as OMPI_MCA_X): a transport choice is a confounder in a comparison. */
static void add_mpi_env(cJSON *dst)
{
    static const char *const prefixes[] = {"OMPI_MCA_", "MPIR_CVAR_", "MPICH_", "UCX_", "FI_",
                                           "I_MPI_",    "PSM2_",      "HCOLL_", NULL};
    /* the launcher's own per-launch plumbing (job ids, URIs, session dirs) */
    static const char *const launch_internal[] = {"OMPI_MCA_orte_",
                                                  "OMPI_MCA_ess",
                                                  "OMPI_MCA_pmix",
                                                  "OMPI_MCA_initial_wdir",
                                                  "OMPI_MCA_shmem_RUNTIME_QUERY_hint",
                                                  "OMPI_MCA_mca_base_component_show_load_errors",
                                                  NULL};
    cJSON *menv = cJSON_AddObjectToObject(dst, "mpi_env");
    for (char **e = environ; e && *e; e++)
        for (size_t pi = 0; prefixes[pi]; pi++) {
            if (strncmp(*e, prefixes[pi], strlen(prefixes[pi])) != 0)
                continue;
            int internal = 0;
            for (size_t li = 0; launch_internal[li]; li++)
                internal |= strncmp(*e, launch_internal[li], strlen(launch_internal[li])) == 0;
            const char *eq = internal ? NULL : strchr(*e, '=');
            if (eq && eq - *e < 128) {
                char name[128], val[256];
                snprintf(name, sizeof name, "%.*s", (int)(eq - *e), *e);
                snprintf(val, sizeof val, "%s", eq + 1);
                p2pb_text_sanitize(name);
                p2pb_text_sanitize(val);
                if (!cJSON_GetObjectItemCaseSensitive(menv, name))
                    cJSON_AddStringToObject(menv, name, val);
            }
            break;
        }
}

static long add_host_context(cJSON *dst, cJSON **ranks, cJSON *host_arr, const char *mpi_lib)
{
    cJSON *hosts = dedup_hosts(host_arr);
    cJSON *warn = p2pb_placement_warnings(*ranks, hosts);
    const cJSON *w;
    cJSON *r;
    cJSON_ArrayForEach(w, warn) fprintf(stderr, "p2pbench: warning: %s\n", w->valuestring);
    cJSON_ArrayForEach(r, *ranks)
    {
        const cJSON *e = cJSON_GetObjectItemCaseSensitive(r, "buffer_bind_error");
        const cJSON *rk = cJSON_GetObjectItemCaseSensitive(r, "rank");
        if (cJSON_IsString(e) && cJSON_IsNumber(rk)) {
            char buf[256];
            snprintf(buf, sizeof buf, "rank %d: cannot bind buffers to the NUMA node: %s",
                     rk->valueint, e->valuestring);
            fprintf(stderr, "p2pbench: warning: %s\n", buf);
            cJSON_AddItemToArray(warn, cJSON_CreateString(buf));
        }
    }
    fflush(stderr);
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(*ranks, 0), "transport");
    long eager = p2pb_mpit_pick_eager_limit(cJSON_GetObjectItemCaseSensitive(t, "eager_limits"),
                                            cJSON_GetArraySize(hosts) == 1, mpi_lib);
    add_mpi_env(dst);
    cJSON_AddItemToObject(dst, "ranks", *ranks);
    *ranks = NULL;
    cJSON_AddItemToObject(dst, "hosts", hosts);
    cJSON_AddItemToObject(dst, "warnings", warn);
    if (eager >= 0)
        cJSON_AddNumberToObject(dst, "eager_limit_marked", (double)eager);
    else
        cJSON_AddNullToObject(dst, "eager_limit_marked");
    return eager;
}

static void print_list(void)
{
    printf("%-15s %-15s %-6s %-8s %s\n", "kernel", "table", "ranks", "default", "definition");
    for (size_t i = 0; i < p2pb_nkernels; i++) {
        const struct p2pb_kernel *k = p2pb_kernels[i];
        char ranks[16];
        if (k->max_ranks > 0 && k->max_ranks == k->min_ranks)
            snprintf(ranks, sizeof ranks, "%d", k->min_ranks);
        else if (k->max_ranks > 0)
            snprintf(ranks, sizeof ranks, "%d-%d", k->min_ranks, k->max_ranks);
        else
            snprintf(ranks, sizeof ranks, ">=%d", k->min_ranks);
        printf("%-15s %-15s %-6s %-8s %s%s%s\n", k->name, k->display_name, ranks,
               p2pb_kernel_is_default(k) ? "yes" : "no", k->summary,
               k->unavailable_reason ? " [unavailable: " : "",
               k->unavailable_reason ? k->unavailable_reason : "");
        if (k->unavailable_reason)
            printf("]\n");
    }
}

int main(int argc, char **argv)
{
    int provided;
    if (MPI_Init_thread(&argc, &argv, MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS) {
        fprintf(stderr, "p2pbench: error: MPI_Init failed\n");
        return 1;
    }
    uint64_t t_wall0 = p2pb_now_ns();
    MPI_Comm comm;
    P2PB_MPI_CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
    P2PB_MPI_CHECK(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
    int rank, nranks;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &nranks);
    if (nranks == 1) {
        /* A binary started by another MPI library's launcher runs as N separate
         * 1-rank jobs: the launcher's own variables still say N. */
        static const char *const size_vars[] = {"PMI_SIZE", "OMPI_COMM_WORLD_SIZE", "PMIX_SIZE",
                                                NULL};
        for (size_t i = 0; size_vars[i]; i++) {
            const char *v = getenv(size_vars[i]);
            if (v && atoi(v) > 1) {
                fprintf(stderr,
                        "p2pbench: warning: this is a 1-rank MPI job, but the launcher started "
                        "%d processes (%s=%s): is p2pbench built with another MPI library than "
                        "this launcher's?\n",
                        atoi(v), size_vars[i], v);
                break;
            }
        }
    }

    /* getopt_long permutes argv: keep the command line as typed */
    char *cmdline = join_args(argc, argv);
    static struct p2pb_options opt;
    struct verdict v;
    memset(&v, 0, sizeof v);
    v.status = (int)p2pb_options_parse(argc, argv, &opt, v.msg, sizeof v.msg);
    int running =
        v.status == P2PB_OK && !opt.do_help && !opt.do_version && !opt.do_list && !opt.do_info;

    /* Ranks per host, for the memory check. */
    MPI_Comm node;
    int local_ranks = 1;
    P2PB_MPI_CHECK(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node));
    MPI_Comm_size(node, &local_ranks);
    MPI_Comm_free(&node);

    if (running) {
        opt.policy.llc_bytes = p2pb_hostinfo_llc_bytes();
    }
    struct p2pb_results_file *rf = NULL;
    char start_utc[32];
    utc_now(start_utc, sizeof start_utc, "%Y-%m-%dT%H:%M:%SZ");
    if (rank == 0 && running) {
        /* Memory: the largest message's buffers on every rank of this host. */
        size_t maxb = 0;
        for (size_t i = 0; i < opt.nsizes; i++)
            if (opt.sizes[i] > maxb)
                maxb = opt.sizes[i];
        int regions = 0;
        for (size_t i = 0; i < opt.nkernels; i++) {
            size_t r = p2pb_kernel_regions(opt.kernels[i]->sbuf_regions, opt.policy.window) +
                       p2pb_kernel_regions(opt.kernels[i]->rbuf_regions, opt.policy.window);
            if (r > (size_t)regions)
                regions = r > INT_MAX ? INT_MAX : (int)r;
        }
        size_t mem = p2pb_hostinfo_memory_bytes();
        double need = (double)maxb * regions * local_ranks;
        if (opt.policy.off_cache)
            need += 2.0 * (double)opt.policy.llc_bytes * local_ranks;
        /* kernels with fixed bytes per iteration (memcpy) own a source and a
         * destination of that many bytes, on rank 0 or on every rank */
        double copy = 0;
        for (size_t i = 0; i < opt.nkernels; i++)
            if (p2pb_kernel_fixed_bytes(opt.kernels[i])) {
                double cb = (double)(opt.policy.copy_bytes ? opt.policy.copy_bytes
                                                           : P2PB_DEFAULT_COPY_BYTES);
                copy = 2.0 * cb * (opt.policy.self_all ? local_ranks : 1);
            }
        if (mem > 0 && copy > 0.9 * (double)mem) {
            v.status = P2PB_ENOMEM;
            snprintf(v.msg, sizeof v.msg,
                     "--memcpy-buffer %zu needs %.3g GB of copy buffers on this host, more than "
                     "its %.3g GB of memory",
                     opt.policy.copy_bytes, copy / 1e9, (double)mem / 1e9);
        } else if (mem > 0 && need > 0.9 * (double)mem) {
            char sz[32];
            v.status = P2PB_ENOMEM;
            snprintf(v.msg, sizeof v.msg,
                     "message size %zu (%s) needs %.3g GB of buffers on this host (%d ranks x %d "
                     "buffers), more than its %.3g GB of memory",
                     maxb, p2pb_fmt_size(sz, sizeof sz, maxb), need / 1e9, local_ranks, regions,
                     (double)mem / 1e9);
        }
        if (v.status == P2PB_OK && (opt.output_default || opt.output[0])) {
            if (opt.output_default) {
                /* unique per launch: time, host and process id */
                char ts[32], host[64];
                utc_now(ts, sizeof ts, "%Y%m%dT%H%M%SZ");
                p2pb_hostinfo_hostname(host, sizeof host);
                snprintf(opt.output, sizeof opt.output, "p2pbench-%s-%s-%ld.jsonl", ts, host,
                         (long)getpid());
            }
            v.status = (int)p2pb_results_open(opt.output, &rf, v.msg, sizeof v.msg);
        }
    }
    /* --numa-node: the node must exist on every rank's host */
    int numa_bad = opt.numa_node >= 0 && !p2pb_hostinfo_numa_node_exists(opt.numa_node);
    int any_bad = 0;
    P2PB_MPI_CHECK(MPI_Allreduce(&numa_bad, &any_bad, 1, MPI_INT, MPI_MAX, comm));
    if (rank == 0 && v.status == P2PB_OK && any_bad) {
        char nodes[64];
        p2pb_hostinfo_numa_nodes(nodes, sizeof nodes);
        v.status = P2PB_ERANGE;
        snprintf(v.msg, sizeof v.msg,
                 "invalid value '%d' for --numa-node: no such NUMA node on %s "
                 "(this host's nodes: %s)",
                 opt.numa_node, numa_bad ? "this host" : "some host of the run", nodes);
    }
    if (v.status == P2PB_OK)
        p2pb_hostinfo_set_buffer_node(opt.numa_node);
    P2PB_MPI_CHECK(MPI_Bcast(&v, (int)sizeof v, MPI_BYTE, 0, comm));
    if (v.status != P2PB_OK) {
        p2pb_text_sanitize(v.msg); /* one line, whatever the user typed */
        fprintf(stderr, "p2pbench: error: %s\n", v.msg);
        fflush(stderr);
        MPI_Comm_free(&comm);
        return finish(p2pb_status_exit_code((enum p2pb_status)v.status));
    }
    if (opt.do_help || opt.do_version || opt.do_list) {
        if (rank == 0) {
            if (opt.do_help)
                p2pb_options_usage(stdout);
            else if (opt.do_version)
                printf("p2pbench %s (git %s)\n", P2PB_VERSION, P2PB_GIT_COMMIT);
            else
                print_list();
            fflush(stdout);
        }
        MPI_Comm_free(&comm);
        return finish(0);
    }

    /* Host context: every rank's placement, every host's facts. */
    cJSON *rank_me = p2pb_hostinfo_rank_json(rank);
    cJSON_AddItemToObject(rank_me, "transport", p2pb_mpit_transport_json());
    cJSON *host_me = p2pb_hostinfo_host_json();
    cJSON *ranks = gather_json(comm, rank_me);
    cJSON *host_arr = gather_json(comm, host_me);
    cJSON_Delete(rank_me);
    cJSON_Delete(host_me);

    char mpi_lib[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    int liblen = 0;
    MPI_Get_library_version(mpi_lib, &liblen);
    /* First part of the version string, whitespace runs (MPICH has a tab) as one space */
    char mpi_first[256];
    {
        size_t o = 0;
        size_t n = strcspn(mpi_lib, "\n,");
        for (size_t i = 0; i < n && o + 1 < sizeof mpi_first; i++) {
            char ch = mpi_lib[i];
            int ws = ch == ' ' || ch == '\t' || ch == '\r';
            if (ws && (o == 0 || mpi_first[o - 1] == ' '))
                continue;
            mpi_first[o++] = ws ? ' ' : ch;
        }
        while (o > 0 && mpi_first[o - 1] == ' ')
            o--;
        mpi_first[o] = '\0';
    }

    if (opt.do_info) {
        if (rank == 0) {
            cJSON *info = cJSON_CreateObject();
            cJSON_AddStringToObject(info, "mpi_library", mpi_first);
            cJSON_AddStringToObject(info, "mpi_library_full", mpi_lib);
            add_host_context(info, &ranks, host_arr, mpi_lib);
            char *s = cJSON_Print(info);
            printf("%s\n", s ? s : "{}");
            cJSON_free(s);
            cJSON_Delete(info);
        }
        cJSON_Delete(ranks);
        cJSON_Delete(host_arr);
        MPI_Comm_free(&comm);
        return finish(0);
    }

    struct p2pb_timer_info ti;
    p2pb_timer_measure(&ti);
    P2PB_MPI_CHECK(MPI_Bcast(&ti.overhead_ns, 1, MPI_DOUBLE, 0, comm));
    P2PB_MPI_CHECK(MPI_Bcast(&ti.resolution_ns, 1, MPI_DOUBLE, 0, comm));

    struct p2pb_run_info ri;
    memset(&ri, 0, sizeof ri);
    snprintf(ri.version, sizeof ri.version, "%s", P2PB_VERSION);
    snprintf(ri.git_commit, sizeof ri.git_commit, "%s", P2PB_GIT_COMMIT);
    snprintf(ri.label, sizeof ri.label, "%s", opt.label);
    snprintf(ri.start_utc, sizeof ri.start_utc, "%s", start_utc);
    snprintf(ri.mpi_library, sizeof ri.mpi_library, "%s", mpi_first);
    p2pb_hostinfo_hostname(ri.host, sizeof ri.host);
    ri.nranks = nranks;
    static const char *const mode_names[] = {"adaptive", "fixed", "fixed-imb"};
    snprintf(ri.policy, sizeof ri.policy, "%s", mode_names[opt.policy.mode]);
    snprintf(ri.source, sizeof ri.source, "p2pbench");
    ri.check = opt.policy.check;

    char err[ERRLEN] = "";
    int exit_code = 0;
    long eager_limit = -1;
    if (rank == 0) {
        cJSON *run = cJSON_CreateObject();
        cJSON_AddStringToObject(run, "type", "run");
        cJSON_AddStringToObject(run, "schema", P2PB_SCHEMA);
        cJSON_AddStringToObject(run, "source", "p2pbench");
        cJSON_AddStringToObject(run, "version", P2PB_VERSION);
        cJSON_AddStringToObject(run, "git_commit", P2PB_GIT_COMMIT);
        cJSON_AddStringToObject(run, "command_line", cmdline ? cmdline : "");
        cJSON_AddStringToObject(run, "label", opt.label);
        cJSON_AddStringToObject(run, "start_utc", start_utc);
        cJSON_AddStringToObject(run, "mpi_library", mpi_first);
        cJSON_AddStringToObject(run, "mpi_library_full", mpi_lib);
        int mv, msv;
        MPI_Get_version(&mv, &msv);
        char mstd[16];
        snprintf(mstd, sizeof mstd, "%d.%d", mv, msv);
        cJSON_AddStringToObject(run, "mpi_standard", mstd);
        cJSON_AddNumberToObject(run, "nranks", nranks);
        const char *link = getenv("P2PB_LINK_PROFILE");
        if (link && *link) {
            char lp[128];
            snprintf(lp, sizeof lp, "%s", link);
            p2pb_text_sanitize(lp);
            cJSON_AddStringToObject(run, "link_profile", lp);
        }
        eager_limit = add_host_context(run, &ranks, host_arr, mpi_lib);
        cJSON *tj = cJSON_AddObjectToObject(run, "timer");
        cJSON_AddStringToObject(tj, "source", ti.source);
        cJSON_AddNumberToObject(tj, "overhead_ns", ti.overhead_ns);
        cJSON_AddNumberToObject(tj, "resolution_ns", ti.resolution_ns);
        cJSON *pj = cJSON_AddObjectToObject(run, "policy");
        cJSON_AddStringToObject(pj, "mode", ri.policy);
        cJSON_AddNumberToObject(pj, "min_samples", (double)opt.policy.min_samples);
        cJSON_AddNumberToObject(pj, "max_samples", (double)opt.policy.max_samples);
        if (opt.policy.mode == P2PB_POLICY_FIXED)
            cJSON_AddNumberToObject(pj, "samples", (double)opt.policy.samples);
        cJSON_AddNumberToObject(pj, "ci_target", opt.policy.ci_target);
        cJSON_AddNumberToObject(pj, "time_per_size_sec", opt.policy.time_per_size);
        cJSON_AddNumberToObject(pj, "batch", (double)opt.policy.batch);
        cJSON_AddNumberToObject(pj, "warmup", (double)opt.policy.warmup);
        cJSON_AddNumberToObject(pj, "timeout_sec", opt.policy.timeout);
        cJSON_AddBoolToObject(pj, "check", opt.policy.check);
        cJSON_AddBoolToObject(pj, "off_cache", opt.policy.off_cache);
        cJSON_AddNumberToObject(pj, "llc_bytes", (double)opt.policy.llc_bytes);
        cJSON_AddNumberToObject(pj, "window", (double)opt.policy.window);
        cJSON_AddNumberToObject(pj, "memcpy_buffer", (double)opt.policy.copy_bytes);
        cJSON_AddStringToObject(pj, "memcpy_ranks", opt.policy.self_all ? "all" : "one");
        cJSON_AddStringToObject(pj, "sync", "MPI_Barrier before each sample");
        cJSON_AddStringToObject(pj, "rank_reduce", "max over active ranks (PingPong: rank 0)");
        cJSON *kj = cJSON_AddArrayToObject(run, "kernels");
        for (size_t i = 0; i < opt.nkernels; i++)
            cJSON_AddItemToArray(kj, cJSON_CreateString(opt.kernels[i]->name));
        cJSON *sj = cJSON_AddArrayToObject(run, "sizes");
        for (size_t i = 0; i < opt.nsizes; i++)
            cJSON_AddItemToArray(sj, cJSON_CreateNumber((double)opt.sizes[i]));
        if (rf && p2pb_results_write_json(rf, run, err, sizeof err) != P2PB_OK) {
            fprintf(stderr, "p2pbench: error: %s\n", err);
            exit_code = 1;
        }
        cJSON_Delete(run);
        p2pb_harness_set_abort_fd(p2pb_results_fd(rf));
    }
    cJSON_Delete(ranks);
    cJSON_Delete(host_arr);
    P2PB_MPI_CHECK(MPI_Bcast(&exit_code, 1, MPI_INT, 0, comm));
    if (exit_code) {
        MPI_Comm_free(&comm);
        return finish(exit_code);
    }

    struct p2pb_report_ctx rctx;
    memset(&rctx, 0, sizeof rctx);
    rctx.out = stdout;
    rctx.run = &ri;
    rctx.eager_limit = eager_limit;
    if (rank == 0)
        opt.reporter->begin(&rctx);

    enum p2pb_status run_status = P2PB_OK;
    /* Row buffers: one harness call's rows; the first direction's rows (for
     * the asymmetry of the second); rows held back so that a multi-row
     * kernel's rows reach the reporter grouped by variant, one table each. */
    size_t cap = 1, maxsizes = opt.nsizes;
    for (size_t ki = 0; ki < opt.nkernels; ki++) {
        size_t m = p2pb_harness_max_rows(opt.kernels[ki], nranks);
        cap = m > cap ? m : cap;
        m = opt.kernels[ki]->ndefault_sizes;
        maxsizes = m > maxsizes ? m : maxsizes;
    }
    maxsizes = maxsizes < P2PB_MAX_SIZES ? maxsizes : P2PB_MAX_SIZES;
    struct p2pb_result *rows = calloc(cap, sizeof *rows);
    struct p2pb_result *first = calloc(cap * maxsizes, sizeof *first);
    struct p2pb_result *held = calloc(cap * maxsizes, sizeof *held);
    size_t *nheld = calloc(maxsizes, sizeof *nheld);
    int oom = !rows || !first || !held || !nheld, anyoom = 0;
    P2PB_MPI_CHECK(MPI_Allreduce(&oom, &anyoom, 1, MPI_INT, MPI_MAX, comm));
    if (anyoom) {
        if (rank == 0)
            fprintf(stderr, "p2pbench: error: out of memory for result rows\n");
        run_status = P2PB_ENOMEM;
    }
    for (size_t ki = 0; ki < opt.nkernels && run_status == P2PB_OK; ki++) {
        const struct p2pb_kernel *k = opt.kernels[ki];
        const char *skip = NULL;
        char why[160];
        if (k->unavailable_reason)
            skip = k->unavailable_reason;
        else if (nranks < k->min_ranks) {
            snprintf(why, sizeof why, "needs at least %d ranks, have %d", k->min_ranks, nranks);
            skip = why;
        }
        /* the kernel's own default sizes when the user gave none (memcpy) */
        const size_t *sizes = opt.sizes;
        size_t nsizes = opt.nsizes;
        if (!opt.sizes_given && k->default_sizes && k->ndefault_sizes) {
            sizes = k->default_sizes;
            nsizes = k->ndefault_sizes < maxsizes ? k->ndefault_sizes : maxsizes;
        }
        const int ndirs = (k->flags & P2PB_KF_DIRECTIONS) && !skip ? 2 : 1;
        const int hold = p2pb_harness_max_rows(k, nranks) > 1;
        for (int dir = 0; dir < ndirs && run_status == P2PB_OK; dir++) {
            memset(nheld, 0, maxsizes * sizeof *nheld);
            for (size_t si = 0; si < nsizes && run_status == P2PB_OK; si++) {
                size_t nrows = 0;
                struct p2pb_result *r = &rows[0];
                char note[160] = "";
                if (skip)
                    snprintf(note, sizeof note, "%s", skip);
                else if (sizes[si] < k->min_bytes)
                    snprintf(note, sizeof note, "size %zu B is below the minimum of %s, %zu B",
                             sizes[si], k->display_name, k->min_bytes);
                if (note[0]) {
                    memset(r, 0, sizeof *r);
                    snprintf(r->kernel, sizeof r->kernel, "%s", k->name);
                    snprintf(r->display_name, sizeof r->display_name, "%s", k->display_name);
                    r->bytes = sizes[si];
                    r->nranks = nranks;
                    r->active_ranks = 0;
                    r->imb_layout = (int)k->imb_layout;
                    r->bytes_factor =
                        p2pb_kernel_bytes_factor(k, sizes[si], P2PB_DEFAULT_WINDOW, 0);
                    r->time_scale = k->time_scale;
                    r->status = P2PB_ROW_SKIPPED;
                    snprintf(r->note, sizeof r->note, "%s", note);
                    nrows = 1;
                    if (rank == 0 && skip && si == 0) /* a size below a minimum: table only */
                        fprintf(stderr, "p2pbench: skipping %s: %s\n", k->name, note);
                } else {
                    err[0] = '\0';
                    run_status = p2pb_harness_run_rows(comm, k, sizes[si], dir, &opt.policy, &ti,
                                                       rows, cap, &nrows, err, sizeof err);
                    if (run_status != P2PB_OK && rank == 0)
                        fprintf(stderr, "p2pbench: error: %s\n", err);
                    if (nrows == 0) { /* failed before any row was labelled */
                        memset(r, 0, sizeof *r);
                        snprintf(r->kernel, sizeof r->kernel, "%s", k->name);
                        snprintf(r->display_name, sizeof r->display_name, "%s", k->display_name);
                        r->bytes = sizes[si];
                        r->nranks = nranks;
                        nrows = 1;
                    }
                    for (size_t i = 0; i < nrows && run_status != P2PB_OK; i++)
                        if (rows[i].status == P2PB_ROW_OK) {
                            rows[i].status = P2PB_ROW_FAILED;
                            snprintf(rows[i].note, sizeof rows[i].note, "%s",
                                     p2pb_status_str(run_status));
                        }
                }
                /* asymmetry: second direction against the first, row by row */
                for (size_t i = 0; i < nrows && ndirs == 2; i++) {
                    struct p2pb_result *f = &first[si * cap + i];
                    if (dir == 0)
                        *f = rows[i];
                    else if (rows[i].status == P2PB_ROW_OK && f->status == P2PB_ROW_OK) {
                        snprintf(rows[i].asym_ref, sizeof rows[i].asym_ref, "%s", f->variant);
                        rows[i].asymmetry = f->mbytes_per_sec > 0 && rows[i].mbytes_per_sec > 0
                                                ? rows[i].mbytes_per_sec / f->mbytes_per_sec
                                                : NAN;
                    }
                }
                if (rank == 0) {
                    for (size_t i = 0; i < nrows; i++) {
                        if (rf &&
                            p2pb_results_write_result(rf, &rows[i], err, sizeof err) != P2PB_OK) {
                            fprintf(stderr, "p2pbench: error: %s\n", err);
                            if (run_status == P2PB_OK)
                                run_status = P2PB_EIO;
                        }
                        if (hold)
                            held[si * cap + i] = rows[i];
                        else
                            opt.reporter->row(&rctx, &rows[i]);
                    }
                    nheld[si] = hold ? nrows : 0;
                    fflush(stdout);
                }
                /* a write error on rank 0 stops every rank */
                int st = (int)run_status;
                P2PB_MPI_CHECK(MPI_Bcast(&st, 1, MPI_INT, 0, comm));
                run_status = (enum p2pb_status)st;
            }
            /* held rows: one table per variant (group), sizes in order */
            if (rank == 0 && hold) {
                for (size_t i = 0; i < cap; i++)
                    for (size_t si = 0; si < nsizes; si++)
                        if (i < nheld[si])
                            opt.reporter->row(&rctx, &held[si * cap + i]);
                fflush(stdout);
            }
        }
    }
    free(rows);
    free(first);
    free(held);
    free(nheld);

    if (rank == 0) {
        opt.reporter->end(&rctx);
        if (fflush(stdout) != 0 || ferror(stdout)) {
            fprintf(stderr, "p2pbench: error: cannot write the tables to standard output\n");
            if (run_status == P2PB_OK)
                run_status = P2PB_EIO;
        }
        double wall = (double)(p2pb_now_ns() - t_wall0) * 1e-9;
        if (rf) {
            p2pb_harness_set_abort_fd(-1);
            const char *path = p2pb_results_path(rf);
            char pathcopy[1024];
            snprintf(pathcopy, sizeof pathcopy, "%s", path);
            if (p2pb_results_close(rf, run_status == P2PB_OK ? "complete" : "aborted", wall, err,
                                   sizeof err) != P2PB_OK) {
                fprintf(stderr, "p2pbench: error: %s\n", err);
                if (run_status == P2PB_OK)
                    run_status = P2PB_EIO;
            }
            FILE *note = opt.reporter == &p2pb_reporter_text ? stdout : stderr;
            fprintf(note, "%sresults file: %s (run time %.1f s)\n",
                    note == stdout ? "\n# " : "p2pbench: ", pathcopy, wall);
            fflush(note);
        }
    }
    int st = (int)run_status;
    P2PB_MPI_CHECK(MPI_Bcast(&st, 1, MPI_INT, 0, comm));
    MPI_Comm_free(&comm);
    free(cmdline);
    return finish(st == P2PB_OK ? 0 : 1);
}
