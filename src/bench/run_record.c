/* SPDX-License-Identifier: MIT */
/*
 * run_record.c - the run record of p2pbench (first line of the results file,
 * "type":"run") and the host context it shares with --info: every rank's
 * placement and every host's facts gathered to rank 0, the MPI library and
 * its settings, the timer, the policy, the kernels and sizes.
 * Fields: docs/host-context.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "survey.h"

#include "text.h"
#include "host/hostdetect.h"
#include "host/hostinfo.h"
#include "host/mpit.h"
#include "mpi_util.h"
#include "version.h"

extern char **environ;

/* Append word to p shell-quoted; returns the new end. */
static char *quote_word(char *p, const char *word)
{
    static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                               "_./,:=+@%-";
    int quote = word[0] == '\0' || strspn(word, safe) != strlen(word);
    if (!quote) {
        strcpy(p, word);
        return p + strlen(word);
    }
    *p++ = '\'';
    for (const char *c = word; *c; c++) {
        if (*c == '\'') {
            memcpy(p, "'\\''", 4);
            p += 4;
        } else
            *p++ = *c;
    }
    *p++ = '\'';
    return p;
}

char *p2pb_run_command_line(int argc, char **argv)
{
    size_t len = 1;
    for (int i = 0; i < argc; i++)
        len += strlen(argv[i]) * 4 + 3;
    char *s = malloc(len), *p = s;
    if (!s)
        return NULL;
    for (int i = 0; i < argc; i++) {
        if (i)
            *p++ = ' ';
        p = quote_word(p, argv[i]);
    }
    *p = '\0';
    p2pb_text_sanitize(s);
    return s;
}

/* Gather a JSON object from every rank to rank 0 as an array (rank order);
 * NULL on the other ranks. Collective. */
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

/* The first part of MPI_Get_library_version's string (up to a newline or
 * comma) into out (len bytes), whitespace runs (MPICH has a tab) as one space. */
static void mpi_library_first(const char *lib, char *out, size_t len)
{
    size_t o = 0;
    size_t n = strcspn(lib, "\n,");
    for (size_t i = 0; i < n && o + 1 < len; i++) {
        char ch = lib[i];
        int ws = ch == ' ' || ch == '\t' || ch == '\r';
        if (ws && (o == 0 || out[o - 1] == ' '))
            continue;
        out[o++] = ws ? ' ' : ch;
    }
    while (o > 0 && out[o - 1] == ' ')
        o--;
    out[o] = '\0';
}

void p2pb_run_gather_context(struct p2pb_run *run)
{
    /* Host context: every rank's placement, every host's facts. */
    cJSON *rank_me = p2pb_hostinfo_rank_json(run->rank, run->opt->policy.numa_node);
    cJSON_AddItemToObject(rank_me, "transport", p2pb_mpit_transport_json());
    cJSON *host_me = p2pb_hostinfo_host_json(run->opt->policy.tcp_if);
    run->ranks = gather_json(run->comm, rank_me);
    run->host_arr = gather_json(run->comm, host_me);
    cJSON_Delete(rank_me);
    cJSON_Delete(host_me);

    int liblen = 0;
    run->mpi_lib[0] = '\0';
    MPI_Get_library_version(run->mpi_lib, &liblen);
    mpi_library_first(run->mpi_lib, run->mpi_first, sizeof run->mpi_first);
}

/* 1 if the environment entry e (NAME=value) is the launcher's own per-launch
 * plumbing (job ids, URIs, session dirs), not a setting. */
static int launch_internal(const char *e)
{
    static const char *const prefixes[] = {"OMPI_MCA_orte_",
                                           "OMPI_MCA_ess",
                                           "OMPI_MCA_pmix",
                                           "OMPI_MCA_initial_wdir",
                                           "OMPI_MCA_shmem_RUNTIME_QUERY_hint",
                                           "OMPI_MCA_mca_base_component_show_load_errors",
                                           NULL};
    int internal = 0;
    for (size_t li = 0; prefixes[li]; li++)
        internal |= strncmp(e, prefixes[li], strlen(prefixes[li])) == 0;
    return internal;
}

/* Add the environment entry e (NAME=value) to menv, sanitized, unless the
 * name is 128 bytes or longer or already present. */
static void add_env_entry(cJSON *menv, const char *e)
{
    const char *eq = strchr(e, '=');
    if (!eq || eq - e >= 128)
        return;
    char name[128], val[256];
    snprintf(name, sizeof name, "%.*s", (int)(eq - e), e);
    snprintf(val, sizeof val, "%s", eq + 1);
    p2pb_text_sanitize(name);
    p2pb_text_sanitize(val);
    if (!cJSON_GetObjectItemCaseSensitive(menv, name))
        cJSON_AddStringToObject(menv, name, val);
}

/* The MPI library's settings from rank 0's environment (mpirun --mca X Y
 * arrives as OMPI_MCA_X): a transport choice is a confounder in a comparison. */
static void add_mpi_env(cJSON *dst)
{
    static const char *const prefixes[] = {"OMPI_MCA_", "MPIR_CVAR_", "MPICH_", "UCX_", "FI_",
                                           "I_MPI_",    "PSM2_",      "HCOLL_", NULL};
    cJSON *menv = cJSON_AddObjectToObject(dst, "mpi_env");
    for (char **e = environ; e && *e; e++)
        for (size_t pi = 0; prefixes[pi]; pi++) {
            if (strncmp(*e, prefixes[pi], strlen(prefixes[pi])) != 0)
                continue;
            if (!launch_internal(*e))
                add_env_entry(menv, *e);
            break;
        }
}

/* Placement warnings of the run: hostdetect's, plus one per rank whose
 * buffers could not be bound to the --numa-node node. Printed to stderr. */
static cJSON *placement_warnings(const cJSON *ranks, const cJSON *hosts)
{
    cJSON *warn = p2pb_placement_warnings(ranks, hosts);
    const cJSON *w;
    const cJSON *r;
    cJSON_ArrayForEach(w, warn) fprintf(stderr, "p2pbench: warning: %s\n", w->valuestring);
    cJSON_ArrayForEach(r, ranks)
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
    return warn;
}

/*
 * Host context of the run on rank 0: adds "mpi_env", "ranks" (takes
 * ownership of run->ranks), "hosts" (deduplicated), "warnings" (placement,
 * printed to stderr once) and "eager_limit_marked" to dst; returns the eager
 * limit to mark in tables (bytes, -1 unknown) for the transport in use:
 * shared memory when all ranks share one host.
 */
static long add_host_context(cJSON *dst, struct p2pb_run *run)
{
    cJSON *hosts = dedup_hosts(run->host_arr);
    cJSON *warn = placement_warnings(run->ranks, hosts);
    const cJSON *t =
        cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(run->ranks, 0), "transport");
    long eager = p2pb_mpit_pick_eager_limit(cJSON_GetObjectItemCaseSensitive(t, "eager_limits"),
                                            cJSON_GetArraySize(hosts) == 1, run->mpi_lib);
    add_mpi_env(dst);
    cJSON_AddItemToObject(dst, "ranks", run->ranks);
    run->ranks = NULL;
    cJSON_AddItemToObject(dst, "hosts", hosts);
    cJSON_AddItemToObject(dst, "warnings", warn);
    if (eager >= 0)
        cJSON_AddNumberToObject(dst, "eager_limit_marked", (double)eager);
    else
        cJSON_AddNullToObject(dst, "eager_limit_marked");
    return eager;
}

/* Free the gathered records (what add_host_context did not take). */
static void free_context(struct p2pb_run *run)
{
    cJSON_Delete(run->ranks);
    cJSON_Delete(run->host_arr);
    run->ranks = NULL;
    run->host_arr = NULL;
}

void p2pb_run_print_info(struct p2pb_run *run)
{
    if (run->rank == 0) {
        cJSON *info = cJSON_CreateObject();
        cJSON_AddStringToObject(info, "mpi_library", run->mpi_first);
        cJSON_AddStringToObject(info, "mpi_library_full", run->mpi_lib);
        add_host_context(info, run);
        char *s = cJSON_Print(info);
        printf("%s\n", s ? s : "{}");
        cJSON_free(s);
        cJSON_Delete(info);
    }
    free_context(run);
}

/* The facts the reporters print in their header. */
static void fill_run_info(struct p2pb_run *run)
{
    static const char *const mode_names[] = {"adaptive", "fixed", "fixed-imb"};
    struct p2pb_run_info *ri = &run->ri;
    memset(ri, 0, sizeof *ri);
    snprintf(ri->version, sizeof ri->version, "%s", P2PB_VERSION);
    snprintf(ri->git_commit, sizeof ri->git_commit, "%s", P2PB_GIT_COMMIT);
    snprintf(ri->label, sizeof ri->label, "%s", run->opt->label);
    snprintf(ri->start_utc, sizeof ri->start_utc, "%s", run->start_utc);
    snprintf(ri->mpi_library, sizeof ri->mpi_library, "%s", run->mpi_first);
    p2pb_hostinfo_hostname(ri->host, sizeof ri->host);
    ri->nranks = run->nranks;
    snprintf(ri->policy, sizeof ri->policy, "%s", mode_names[run->opt->policy.mode]);
    snprintf(ri->source, sizeof ri->source, "p2pbench");
    ri->check = run->opt->policy.check;
    snprintf(ri->state, sizeof ri->state, "%s", p2pb_policy_state(&run->opt->policy));
    ri->off_cache_bytes = p2pb_off_cache_bytes(&run->opt->policy);
    ri->bounds = 1; /* every row gets its bound where one is known (bounds.c) */
}

/* "type", "schema", version, command line, label, start time, MPI library
 * and standard, nranks and the link profile ($P2PB_LINK_PROFILE) into run. */
static void add_run_head(cJSON *rec, const struct p2pb_run *run)
{
    cJSON_AddStringToObject(rec, "type", "run");
    cJSON_AddStringToObject(rec, "schema", P2PB_SCHEMA);
    cJSON_AddStringToObject(rec, "source", "p2pbench");
    cJSON_AddStringToObject(rec, "version", P2PB_VERSION);
    cJSON_AddStringToObject(rec, "git_commit", P2PB_GIT_COMMIT);
    cJSON_AddStringToObject(rec, "command_line", run->cmdline ? run->cmdline : "");
    cJSON_AddStringToObject(rec, "label", run->opt->label);
    cJSON_AddStringToObject(rec, "start_utc", run->start_utc);
    cJSON_AddStringToObject(rec, "mpi_library", run->mpi_first);
    cJSON_AddStringToObject(rec, "mpi_library_full", run->mpi_lib);
    int mv, msv;
    MPI_Get_version(&mv, &msv);
    char mstd[16];
    snprintf(mstd, sizeof mstd, "%d.%d", mv, msv);
    cJSON_AddStringToObject(rec, "mpi_standard", mstd);
    cJSON_AddNumberToObject(rec, "nranks", run->nranks);
    const char *link = getenv("P2PB_LINK_PROFILE");
    if (link && *link) {
        char lp[128];
        snprintf(lp, sizeof lp, "%s", link);
        p2pb_text_sanitize(lp);
        cJSON_AddStringToObject(rec, "link_profile", lp);
    }
}

/* "campaign": the launch's place in a scripts/campaign.sh campaign, from
 * $P2PB_CAMPAIGN_{SEED,ROUND,POSITION,INDEX} (integers) and _SIDE (A or B);
 * left out unless all five are valid (docs/output-format.md). */
static void add_campaign(cJSON *rec)
{
    static const char *const keys[] = {"seed", "round", "position", "index"};
    static const char *const vars[] = {"P2PB_CAMPAIGN_SEED", "P2PB_CAMPAIGN_ROUND",
                                       "P2PB_CAMPAIGN_POSITION", "P2PB_CAMPAIGN_INDEX"};
    const char *side = getenv("P2PB_CAMPAIGN_SIDE");
    double v[4];
    for (int i = 0; i < 4; i++) {
        const char *s = getenv(vars[i]);
        char *end = NULL;
        if (!s || !*s || (v[i] = strtod(s, &end)) < 0 || v[i] > 4294967295.0 || *end ||
            v[i] != (double)(long long)v[i])
            return;
    }
    if (!side || (strcmp(side, "A") != 0 && strcmp(side, "B") != 0))
        return;
    cJSON *c = cJSON_AddObjectToObject(rec, "campaign");
    for (int i = 0; i < 4; i++)
        cJSON_AddNumberToObject(c, keys[i], v[i]);
    cJSON_AddStringToObject(c, "side", side);
}

/* "timer": source, overhead and resolution (ns). */
static void add_timer(cJSON *rec, const struct p2pb_timer_info *ti)
{
    cJSON *tj = cJSON_AddObjectToObject(rec, "timer");
    cJSON_AddStringToObject(tj, "source", ti->source);
    cJSON_AddNumberToObject(tj, "overhead_ns", ti->overhead_ns);
    cJSON_AddNumberToObject(tj, "resolution_ns", ti->resolution_ns);
}

/* "policy": the sampling policy (mode as in run->ri), buffers, sync. */
static void add_policy(cJSON *rec, const struct p2pb_run *run)
{
    const struct p2pb_policy *p = &run->opt->policy;
    cJSON *pj = cJSON_AddObjectToObject(rec, "policy");
    cJSON_AddStringToObject(pj, "mode", run->ri.policy);
    if (p->mode == P2PB_POLICY_ADAPTIVE) { /* the fixed policies do not use these */
        cJSON_AddNumberToObject(pj, "min_samples", (double)p->min_samples);
        cJSON_AddNumberToObject(pj, "max_samples", (double)p->max_samples);
        cJSON_AddNumberToObject(pj, "ci_target", p->ci_target);
        cJSON_AddNumberToObject(pj, "time_per_size_sec", p->time_per_size);
    }
    if (p->mode == P2PB_POLICY_FIXED)
        cJSON_AddNumberToObject(pj, "samples", (double)p->samples);
    cJSON_AddNumberToObject(pj, "rounds", (double)p->rounds);
    cJSON_AddNumberToObject(pj, "seed", (double)p->seed);
    cJSON_AddBoolToObject(pj, "shift_buffers", p->shift_buffers);
    cJSON_AddNumberToObject(pj, "batch", (double)p->batch);
    cJSON_AddNumberToObject(pj, "warmup", (double)p->warmup);
    cJSON_AddNumberToObject(pj, "timeout_sec", p->timeout);
    cJSON_AddBoolToObject(pj, "check", p->check);
    cJSON_AddBoolToObject(pj, "off_cache", p->off_cache);
    cJSON_AddNumberToObject(pj, "llc_bytes", (double)p->llc_bytes);
    /* the state every size is timed in (docs/methodology.md, "Buffers") */
    cJSON_AddStringToObject(pj, "state", p2pb_policy_state(p));
    /* where the rows' bounds come from (docs/kernels.md, "Bounds") */
    if (p->bound_mbps > 0)
        cJSON_AddNumberToObject(pj, "bound_mbytes_per_sec", p->bound_mbps);
    else
        cJSON_AddStringToObject(pj, "bound", "measured");
    if (p->off_cache)
        cJSON_AddNumberToObject(pj, "off_cache_bytes", (double)p2pb_off_cache_bytes(p));
    cJSON *wj = cJSON_AddObjectToObject(pj, "warmup_rule");
    cJSON_AddNumberToObject(wj, "settle_tolerance", P2PB_SETTLE_TOL);
    cJSON_AddNumberToObject(wj, "settle_batches", P2PB_SETTLE_BATCHES);
    cJSON_AddNumberToObject(wj, "max_sec_per_round", P2PB_WARMUP_MAX_SEC);
    cJSON_AddNumberToObject(pj, "window", (double)p->window);
    cJSON_AddNumberToObject(pj, "partitions", (double)p->ks.partitions);
    cJSON_AddNumberToObject(pj, "memcpy_buffer", (double)p->ks.copy_bytes);
    cJSON_AddStringToObject(pj, "memcpy_ranks", p->ks.self_all ? "all" : "one");
    cJSON_AddStringToObject(pj, "msgrate_prepost", p->ks.msgrate_prepost ? "on" : "off");
    cJSON_AddNumberToObject(pj, "cache_pollute", (double)p->ks.cache_pollute);
    cJSON_AddNumberToObject(pj, "overlap_compute", p->ks.overlap_compute);
    cJSON_AddStringToObject(pj, "sync", "MPI_Barrier before each sample");
    cJSON_AddStringToObject(pj, "rank_reduce", "max over active ranks (PingPong: rank 0)");
    /* the one-sided kernels' synchronisation and window (--rma-sync, --rma-window) */
    cJSON_AddStringToObject(pj, "rma_sync", p2pb_rma_sync_names[p->ks.rma_sync]);
    cJSON_AddStringToObject(pj, "rma_window", p2pb_rma_window_names[p->ks.rma_window]);
}

/* "kernels" (names) and "sizes" (bytes) as given on the command line. */
static void add_selection(cJSON *rec, const struct p2pb_options *opt)
{
    cJSON *kj = cJSON_AddArrayToObject(rec, "kernels");
    for (size_t i = 0; i < opt->nkernels; i++)
        cJSON_AddItemToArray(kj, cJSON_CreateString(opt->kernels[i]->name));
    cJSON *sj = cJSON_AddArrayToObject(rec, "sizes");
    for (size_t i = 0; i < opt->nsizes; i++)
        cJSON_AddItemToArray(sj, cJSON_CreateNumber((double)opt->sizes[i]));
}

/* Rank 0: build the run record, write it to the results file (if any) and
 * hand the file to the --timeout handler. Returns P2PB_OK, or the write's
 * status with the message printed. */
/* "load": the ranks on rank 0's host and its load as the launch starts
 * (hostload.h; the kernels' own readings go to the end record). */
static void add_load(cJSON *rec, const struct p2pb_run *run)
{
    struct p2pb_hostload l;
    p2pb_hostload_read(run->load.procfs ? run->load.procfs : "/proc", &l);
    cJSON *o = cJSON_AddObjectToObject(rec, "load");
    if (!o)
        return;
    cJSON_AddNumberToObject(o, "local_ranks", run->local_ranks);
    cJSON *j = p2pb_hostload_json(&l);
    if (j)
        cJSON_AddItemToObject(o, "at_start", j);
}

static enum p2pb_status write_run_record(struct p2pb_run *run)
{
    enum p2pb_status st = P2PB_OK;
    cJSON *rec = cJSON_CreateObject();
    add_run_head(rec, run);
    add_campaign(rec);
    run->eager_limit = add_host_context(rec, run);
    add_timer(rec, &run->ti);
    add_load(rec, run);
    add_policy(rec, run);
    add_selection(rec, run->opt);
    cJSON *probe = p2pb_probe_json(&run->probe); /* NULL: --no-probe, survey */
    if (probe)
        cJSON_AddItemToObject(rec, "placement_probe", probe);
    if (run->survey)
        p2pb_survey_describe(rec, run); /* "survey": per host or rank, mode, order, seed */
    p2pb_watchdog_results(run->rf);     /* a timeout now ends the file with an end record */
    if (run->rf)
        st = p2pb_results_write_json(run->rf, rec, run->err, sizeof run->err);
    if (st != P2PB_OK)
        fprintf(stderr, "p2pbench: error: %s\n", run->err);
    cJSON_Delete(rec);
    return st;
}

/* --seed 0 (not given): rank 0's clock and process id, below 2^53 so the
 * run record holds it exactly; the same seed on every rank. Collective. */
static void choose_seed(struct p2pb_run *run)
{
    struct p2pb_policy *p = &run->opt->policy;
    unsigned long long seed = p->seed;
    if (seed == 0 && run->rank == 0)
        seed = ((p2pb_now_ns() ^ ((unsigned long long)getpid() << 32)) & ((1ULL << 53) - 1)) | 1;
    P2PB_MPI_CHECK(MPI_Bcast(&seed, 1, MPI_UNSIGNED_LONG_LONG, 0, run->comm));
    p->seed = (size_t)seed;
}

enum p2pb_status p2pb_run_record(struct p2pb_run *run)
{
    choose_seed(run);
    p2pb_timer_measure(&run->ti);
    P2PB_MPI_CHECK(MPI_Bcast(&run->ti.overhead_ns, 1, MPI_DOUBLE, 0, run->comm));
    P2PB_MPI_CHECK(MPI_Bcast(&run->ti.resolution_ns, 1, MPI_DOUBLE, 0, run->comm));
    fill_run_info(run);

    int failed = 0;
    run->eager_limit = -1;
    if (run->rank == 0)
        failed = write_run_record(run) != P2PB_OK;
    free_context(run);
    P2PB_MPI_CHECK(MPI_Bcast(&failed, 1, MPI_INT, 0, run->comm));
    return failed ? P2PB_EIO : P2PB_OK;
}
