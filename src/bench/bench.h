/* SPDX-License-Identifier: MIT */
/*
 * bench.h - internal: the steps of one p2pbench run and the state they share.
 *
 * main.c calls them in this order, on every rank:
 *   preflight.c   parse the options, check memory, --numa-node and --tcp-if,
 *                 open the results file, agree on rank 0's verdict;
 *   run_record.c  gather the host context;
 *   probe.c       the placement probe (cache-line latency of rank pairs);
 *   run_record.c  write the run record;
 *   suite.c       run kernels x directions x sizes, print and record rows;
 *   main.c        close the results file and print the closing line.
 * Every step is collective on run->comm unless it says "rank 0".
 */
#ifndef P2PBENCH_BENCH_H
#define P2PBENCH_BENCH_H

#include "hostload.h"
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>
#include <mpi.h>

#include "harness.h"
#include "options.h"
#include "p2pbench/result.h"
#include "p2pbench/status.h"
#include "probe.h"

/* Length of the one-line error messages of a run (bytes, with the NUL). */
#define P2PB_BENCH_ERRLEN 512

/* What the steps of one run share. Zero-initialized; main.c sets comm, rank,
 * nranks and t_wall0_ns right after MPI init, the steps fill the rest. */
struct p2pb_run {
    MPI_Comm comm; /* duplicate of MPI_COMM_WORLD, errors returned */
    int rank;
    int nranks;
    uint64_t t_wall0_ns; /* p2pb_now_ns() right after MPI init, for the run time */
    int mpit_open;       /* MPI_T_init_thread succeeded before MPI_Init (main.c) */
    char *cmdline;       /* the command line as typed, shell-quoted (malloc'd; may be NULL) */
    struct p2pb_options *opt;
    int measuring;                /* options parsed and no --help/--version/--list/--info */
    int local_ranks;              /* ranks of the run on this host (shared-memory node) */
    char start_utc[32];           /* ISO 8601 UTC, e.g. 2026-11-29T18:07:19Z */
    struct p2pb_results_file *rf; /* rank 0: open results file; NULL if none */
    cJSON *ranks;                 /* rank 0: every rank's placement record, rank order */
    cJSON *host_arr;              /* rank 0: every rank's host record, rank order */
    char mpi_lib[MPI_MAX_LIBRARY_VERSION_STRING]; /* MPI_Get_library_version */
    char mpi_first[256];                          /* its first part, whitespace runs as one space */
    struct p2pb_timer_info ti;     /* timer facts, rank 0's overhead and resolution */
    struct p2pb_run_info ri;       /* facts the reporters print in their header */
    long eager_limit;              /* rank 0: bytes to mark in tables; -1 unknown */
    struct p2pb_survey *survey;    /* `p2pbench survey`: its state (survey.h); else NULL */
    struct p2pb_probe probe;       /* rank 0: the placement probe (probe.c); valid 0 if not run */
    struct p2pb_hostload_log load; /* rank 0: the host's load per kernel (hostload.h) */
    char err[P2PB_BENCH_ERRLEN];   /* message of the last failed step */
};

/* --- preflight.c: everything before measuring --- */

/*
 * A 1-rank job whose launcher started more processes (PMI_SIZE,
 * OMPI_COMM_WORLD_SIZE or PMIX_SIZE > 1): warn on stderr that p2pbench and
 * the launcher likely come from different MPI libraries. Local, never fails.
 */
void p2pb_preflight_launcher(const struct p2pb_run *run);

/*
 * Keep the command line as typed, parse the options into run->opt (every
 * rank), set run->measuring, run->local_ranks, run->start_utc and (when
 * measuring) the last-level cache size of the policy. Collective.
 * Returns P2PB_OK, or P2PB_EUSAGE / P2PB_ERANGE with the message in run->err.
 */
enum p2pb_status p2pb_preflight_parse(struct p2pb_run *run, int argc, char **argv);

/*
 * Rank 0, when measuring: the buffers of the largest message on every rank of
 * this host (regions x bytes x local ranks, plus 2 x LLC per rank with
 * --off-cache), and the memcpy kernel's source and destination, must fit in
 * 90% of the host's memory. Returns P2PB_OK or P2PB_ENOMEM with the message
 * in run->err. Does nothing on other ranks.
 */
enum p2pb_status p2pb_preflight_memory(struct p2pb_run *run);

/*
 * --numa-node (run->opt->policy.numa_node) must name a NUMA node on every
 * rank's host. st is the verdict so far; returns it, or P2PB_ERANGE (rank 0,
 * message in run->err) when some host lacks the node. Collective.
 */
enum p2pb_status p2pb_preflight_numa(struct p2pb_run *run, enum p2pb_status st);

/*
 * --tcp-if NAME, when a kernel of the run reads it (a TCP kernel), must name
 * an interface with an IPv4 address on ranks 0 and 1 (the ranks of the TCP
 * kernels); a --tcp-if no kernel reads is only warned about (find_unused in
 * options_parse.c) and not checked. st is the verdict so far; returns it,
 * or P2PB_EUSAGE (rank 0, message in run->err naming NAME). On P2PB_OK the
 * name is stored in run->opt->policy.tcp_if ("" when --tcp-if was not given
 * or no kernel reads it), the interface of the TCP kernels, the bound and the
 * host record (p2pb_netif_pick, src/common/netif.h). Collective.
 */
enum p2pb_status p2pb_preflight_tcp_if(struct p2pb_run *run, enum p2pb_status st);

/*
 * Rank 0, when measuring, st is P2PB_OK (every other check passed) and a
 * results file is wanted: open it into run->rf. -o FILE: created, or the
 * file there opened and locked, its contents replaced only at the run
 * record (p2pb_results_open); without -o a new file is created exclusively,
 * p2pbench-<UTC time>-<host>-<pid>.jsonl, or with -2, -3, ... appended
 * when that name is taken (p2pb_results_open_new). Returns st, or the
 * status of the open (message in run->err).
 */
enum p2pb_status p2pb_preflight_open_results(struct p2pb_run *run, enum p2pb_status st);

/*
 * Broadcast rank 0's verdict st (and message in run->err) so that every rank
 * exits with the same code; rank 0 alone prints the "p2pbench: error: ..."
 * line (one line per run, not one per rank); when the run goes ahead, rank 0
 * prints the warnings of options nothing run reads (run->opt->unused).
 * Returns rank 0's status. Collective.
 */
enum p2pb_status p2pb_preflight_agree(struct p2pb_run *run, enum p2pb_status st);

/*
 * End a run refused by p2pb_preflight_agree (st != P2PB_OK, the same on every
 * rank): frees and finalizes as finish does (done, called with the exit code)
 * and returns the exit code (p2pb_status_exit_code). Under Open MPI with more
 * than one rank, rank 0 instead ends the job with MPI_Abort(code) while the
 * other ranks wait in a barrier: mpirun's exit status is the code, and it
 * prints its 8-line abort notice instead of its two notices of non-zero exits
 * (12 lines; Open MPI 4.1.4). No rank waits longer than mpirun takes to end
 * the job. MPICH's mpiexec says nothing of a plain non-zero exit, so with
 * other libraries every rank finalizes and returns the code.
 */
int p2pb_preflight_refuse(struct p2pb_run *run, enum p2pb_status st,
                          int (*done)(struct p2pb_run *, int));

/* --- run_record.c: the run record and the host context --- */

/*
 * The command line as one shell-quoted string (words outside a safe set in
 * single quotes), non-UTF-8 and control bytes replaced by '?'. Returns a
 * malloc'd string, or NULL when out of memory.
 */
char *p2pb_run_command_line(int argc, char **argv);

/*
 * Gather every rank's placement and host records to rank 0 (run->ranks,
 * run->host_arr) and read the MPI library's version (run->mpi_lib,
 * run->mpi_first). Collective.
 */
void p2pb_run_gather_context(struct p2pb_run *run);

/*
 * --info, rank 0: print the MPI library and the host context as JSON to
 * stdout (placement warnings to stderr). Frees the gathered records.
 */
void p2pb_run_print_info(struct p2pb_run *run);

/*
 * Measure the timer (rank 0's values broadcast), fill run->ri, and on rank 0
 * build the run record (host context, MPI library, timer, policy, kernels,
 * sizes), print its placement warnings to stderr, write it to the results
 * file and set run->eager_limit. Frees the gathered records. Collective.
 * Returns P2PB_OK, or P2PB_EIO on every rank when rank 0 could not write the
 * record (the message printed there).
 */
enum p2pb_status p2pb_run_record(struct p2pb_run *run);

/* --- probe.c: the placement probe --- */

/*
 * Unless --no-probe or `survey`: for the pairs (0,1), (2,3), ... (at most
 * P2PB_PROBE_MAX_PAIRS) whose ranks share a host, one at a time, the one-way
 * latency of a cache line between their CPUs through an MPI-3 shared-memory
 * window (src/common/probe.h has the method). Each pair is bounded by
 * P2PB_PROBE_CAP_MS on its initiator (3 x on its partner). Rank 0 gets the
 * result in run->probe (valid = 1; pairs may be 0). Needs run->ranks
 * (p2pb_run_gather_context) for the host names. Collective; an MPI error
 * aborts the job (P2PB_MPI_CHECK).
 */
void p2pb_probe_run(struct p2pb_run *run);

/* --- suite.c: the measurements --- */

/*
 * Run every selected kernel over its sizes (and both directions for
 * P2PB_KF_DIRECTIONS kernels), one row per size or per group, skipped rows
 * for kernels or sizes that cannot run; asymmetry of the second direction
 * against the first. Rank 0 writes each row to the results file and prints it
 * through the reporter (rows of a multi-row kernel grouped by variant), then
 * ends the tables. Collective; every rank returns the same status: P2PB_OK,
 * the harness's failure, P2PB_ENOMEM (row buffers) or P2PB_EIO (a write
 * failed on rank 0). Messages are printed on rank 0.
 */
enum p2pb_status p2pb_suite_run(struct p2pb_run *run);

/* --- overhead.c: a kernel's overhead against its reference kernel (overhead_vs) --- */

/* One kept row of a baseline kernel: its t.median in usec. */
struct p2pb_overhead_ref {
    char kernel[32], variant[32];
    size_t bytes;
    double t_median;
};

/* The kept rows of the launch so far (n of cap); zero-initialised = empty. */
struct p2pb_overhead_refs {
    struct p2pb_overhead_ref *rows;
    size_t n, cap;
};

/* Keep the ok rows (n of them) of a kernel some kernel names as its
 * baseline (kernel.h); out of memory keeps fewer (no error). */
void p2pb_overhead_keep(struct p2pb_overhead_refs *b, const struct p2pb_result *rows, size_t n);

/* Rows (n) of kernel k with a baseline: each ok row's overhead = its
 * t.median / the kept baseline row's of the same size and variant (the
 * latest one), overhead_vs = the baseline's name; rows without one stay
 * as they are. Formula: docs/kernels.md, "Partitioned-PingPong". */
void p2pb_overhead_apply(const struct p2pb_overhead_refs *b, const struct p2pb_kernel *k,
                         struct p2pb_result *rows, size_t n);

/* Free what b holds; b is empty again. */
void p2pb_overhead_free(struct p2pb_overhead_refs *b);

#endif /* P2PBENCH_BENCH_H */
