/* SPDX-License-Identifier: MIT */
/*
 * p2pbench: thin main. Every step is a call into preflight.c, probe.c,
 * run_record.c or suite.c (bench.h): parse and check the options on every
 * rank, agree on rank 0's verdict so every rank exits with the same message
 * and code, run the placement probe, write the run record, run the kernels
 * over their sizes, close the results file.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "host/hostinfo.h"
#include "mpi_util.h"
#include "survey.h"
#include "version.h"

/* MPI init and the run's communicator (errors returned, not fatal).
 * Returns 0, or 1 with the message printed when MPI_Init fails.
 * MPI_T (host/mpit.c reads the eager limits through it) is opened first: with
 * Open MPI 4.1, MPI_T_init_thread after MPI_Init opens the components a
 * second time (0.21 s per launch measured here, as long as MPI_Init
 * itself); before MPI_Init, MPI_Init reuses them (0.01 s). MPI-3.1 sec.
 * 14.3.4 allows MPI_T_init_thread before MPI_Init. */
static int init(struct p2pb_run *run, int *argc, char ***argv)
{
    int provided;
    run->mpit_open = MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) == MPI_SUCCESS;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS) {
        fprintf(stderr, "p2pbench: error: MPI_Init failed\n");
        return 1;
    }
    run->t_wall0_ns = p2pb_now_ns();
    P2PB_MPI_CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &run->comm));
    P2PB_MPI_CHECK(MPI_Comm_set_errhandler(run->comm, MPI_ERRORS_RETURN));
    MPI_Comm_rank(run->comm, &run->rank);
    MPI_Comm_size(run->comm, &run->nranks);
    run->eager_limit = -1;
    return 0;
}

/* Free what the run holds, finalize MPI (under --timeout) and return code. */
static int finish(struct p2pb_run *run, int code)
{
    p2pb_watchdog_fini();
    p2pb_survey_free(run);
    p2pb_buffers_release();
    cJSON_Delete(run->load.kernels);
    MPI_Comm_free(&run->comm);
    free(run->cmdline);
    p2pb_hostinfo_fini();
    if (run->mpit_open)
        MPI_T_finalize();
    MPI_Finalize();
    p2pb_watchdog_stop();
    return code;
}

/* --list: every kernel with its table name, ranks, default and definition. */
static void print_list(void)
{
    printf("%-20s %-20s %-6s %-8s %s\n", "kernel", "table", "ranks", "default", "definition");
    for (size_t i = 0; i < p2pb_nkernels; i++) {
        const struct p2pb_kernel *k = p2pb_kernels[i];
        char ranks[16];
        if (k->max_ranks > 0 && k->max_ranks == k->min_ranks)
            snprintf(ranks, sizeof ranks, "%d", k->min_ranks);
        else if (k->max_ranks > 0)
            snprintf(ranks, sizeof ranks, "%d-%d", k->min_ranks, k->max_ranks);
        else
            snprintf(ranks, sizeof ranks, ">=%d", k->min_ranks);
        printf("%-20s %-20s %-6s %-8s %s%s%s%s\n", k->name, k->display_name, ranks,
               p2pb_kernel_is_default(k) ? "yes" : "no", k->summary,
               k->unavailable_reason ? " [unavailable: " : "",
               k->unavailable_reason ? k->unavailable_reason : "",
               k->unavailable_reason ? "]" : "");
    }
}

/* --help, --version or --list on rank 0; returns 1 if one was asked for. */
static int print_requested(const struct p2pb_run *run)
{
    const struct p2pb_options *opt = run->opt;
    if (!opt->do_help && !opt->do_version && !opt->do_list)
        return 0;
    if (run->rank == 0) {
        if (opt->do_help)
            p2pb_options_usage(stdout);
        else if (opt->do_version)
            printf("p2pbench %s (git %s)\n", P2PB_VERSION, P2PB_GIT_COMMIT);
        else
            print_list();
        fflush(stdout);
    }
    return 1;
}

/* The end record's "reason" for a run that ended with st
 * (docs/output-format.md, section 3). */
static const char *end_reason(enum p2pb_status st)
{
    switch (st) {
    case P2PB_EVERIFY: return "payload_check";
    case P2PB_EIO: return "write_error";
    case P2PB_EMPI: return "mpi_error";
    case P2PB_ENOMEM: return "out_of_memory";
    case P2PB_ERANGE: return "size_out_of_range";
    default: return "error";
    }
}

/* The closing line: where the results are, and whether the run failed
 * (file_failed: a write failed; 2: the file was deleted during the run; 3:
 * the first line failed and the previous file was kept). */
static void closing_line(const struct p2pb_run *run, const char *path, enum p2pb_status st,
                         int file_failed, double wall)
{
    FILE *note = run->opt->reporter == &p2pb_reporter_text ? stdout : stderr;
    fprintf(note, "%s", note == stdout ? "\n# " : "p2pbench: ");
    if (file_failed == 2)
        fprintf(note, "run FAILED: results file %s was deleted during the run; its rows are lost",
                path);
    else if (file_failed == 3)
        fprintf(note,
                "run FAILED: results file %s could not be written; the previous file of that "
                "name is kept as it was",
                path);
    else if (file_failed)
        fprintf(note,
                "run FAILED: results file %s could not be written; it holds only the "
                "rows before the failure",
                path);
    else if (st == P2PB_ESKIP)
        fprintf(note, "nothing measured: results file: %s holds only skipped rows", path);
    else if (st != P2PB_OK)
        fprintf(note, "run ABORTED (%s): results file: %s holds the rows before it",
                p2pb_status_str(st), path);
    else
        fprintf(note, "results file: %s", path);
    fprintf(note, " (run time %.1f s)\n", wall);
    fflush(note);
}

/* Rank 0: close the results file with its end record (complete, or aborted
 * with reason, kernel, size and ranks) and print the closing line naming it.
 * Returns st, or P2PB_EIO when the file could not be written or closed. */
static enum p2pb_status close_results(struct p2pb_run *run, enum p2pb_status st)
{
    double wall = (double)(p2pb_now_ns() - run->t_wall0_ns) * 1e-9;
    if (!run->rf)
        return st;
    p2pb_watchdog_results(NULL);
    char path[1024];
    snprintf(path, sizeof path, "%s", p2pb_results_path(run->rf));
    int failed = p2pb_results_failed(run->rf);
    int deleted = p2pb_results_unlinked(run->rf), kept = p2pb_results_kept(run->rf);
    struct p2pb_end_record e = {.status = st == P2PB_OK      ? "complete"
                                          : st == P2PB_ESKIP ? "nothing-measured"
                                                             : "aborted",
                                .wall_sec = wall,
                                .load = run->load.kernels};
    int writer = 0;
    if (st != P2PB_OK && st != P2PB_ESKIP) {
        e.reason = end_reason(st);
        e.kernel = p2pb_watchdog_kernel(&e.bytes);
        e.nranks = st == P2PB_EIO ? 1 : p2pb_watchdog_blamed(&e.ranks);
        if (st == P2PB_EIO)
            e.ranks = &writer;
    }
    if (p2pb_results_close_end(run->rf, &e, run->err, sizeof run->err) != P2PB_OK) {
        if (!failed) /* a write that failed before was reported then */
            fprintf(stderr, "p2pbench: error: %s\n", run->err);
        failed = 1;
    }
    run->rf = NULL;
    if (failed && st == P2PB_OK)
        st = P2PB_EIO;
    closing_line(run, path, st, deleted ? 2 : kept ? 3 : failed, wall);
    return st;
}

/* Every kernel of the run unavailable in this MPI library (kernel.h,
 * unavailable_reason): rank 0 says why, one line each, and lets the results
 * file go without a word written (a previous file of that name stays as it
 * was). Returns 1 then, else 0. */
static int none_available(struct p2pb_run *run)
{
    const struct p2pb_options *o = run->opt;
    for (size_t i = 0; i < o->nkernels; i++)
        if (!o->kernels[i]->unavailable_reason)
            return 0;
    if (run->rank == 0) {
        for (size_t i = 0; i < o->nkernels; i++)
            fprintf(stderr, "p2pbench: skipping %s: %s\n", o->kernels[i]->name,
                    o->kernels[i]->unavailable_reason);
        fprintf(stderr, "p2pbench: error: nothing to measure: no kernel named can run with this "
                        "MPI library; no results file written\n");
        p2pb_results_discard(run->rf);
        run->rf = NULL;
    }
    return 1;
}

int main(int argc, char **argv)
{
    static struct p2pb_options opt;
    static struct p2pb_run run;
    run.opt = &opt;
    if (argc == 2 && strcmp(argv[1], "--help-man") == 0) { /* build time, no MPI: p2pbench.1 */
        p2pb_options_man(stdout);
        return fflush(stdout) == 0 ? 0 : 1;
    }
    if (init(&run, &argc, &argv) != 0)
        return 1;
    p2pb_preflight_launcher(&run);

    /* every check, the host's included, before the results file is opened */
    enum p2pb_status st = p2pb_preflight_parse(&run, argc, argv);
    if (st == P2PB_OK)
        st = p2pb_preflight_memory(&run);
    st = p2pb_preflight_numa(&run, st);
    st = p2pb_preflight_tcp_if(&run, st);
    st = p2pb_preflight_open_results(&run, st);
    st = p2pb_preflight_agree(&run, st);
    if (st != P2PB_OK)
        return p2pb_preflight_refuse(&run, st, finish);
    if (print_requested(&run))
        return finish(&run, 0);

    p2pb_watchdog_init(run.comm, opt.policy.timeout, run.t_wall0_ns);
    p2pb_watchdog_step(P2PB_WAIT_CONTEXT);
    p2pb_run_gather_context(&run);
    if (opt.do_info) {
        p2pb_run_print_info(&run);
        return finish(&run, 0);
    }
    if (opt.survey && p2pb_survey_prepare(&run) != P2PB_OK) { /* hosts, surveyed ranks */
        if (run.rank == 0) { /* nothing written yet: a previous file stays as it was */
            fprintf(stderr, "p2pbench: error: %s\n", run.err);
            p2pb_results_discard(run.rf);
            run.rf = NULL;
        }
        return finish(&run, 1);
    }
    if (!opt.survey && none_available(&run)) /* nothing written: a previous file stays */
        return finish(&run, 1);
    p2pb_probe_run(&run); /* before the kernels, off every timed path */
    if (p2pb_run_record(&run) != P2PB_OK) {
        if (run.rank == 0)
            close_results(&run, P2PB_EIO);
        return finish(&run, 1);
    }

    st = p2pb_suite_run(&run);
    p2pb_watchdog_step(P2PB_WAIT_CLOSE);
    if (run.rank == 0)
        st = close_results(&run, st);
    int code = (int)st;
    P2PB_MPI_CHECK(MPI_Bcast(&code, 1, MPI_INT, 0, run.comm));
    return finish(&run, code == P2PB_OK ? 0 : 1);
}
