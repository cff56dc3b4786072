/* SPDX-License-Identifier: MIT */
/*
 * manpage.c - p2pbench(1), printed by the hidden `p2pbench --help-man`
 * (no MPI) at build time: the options come from the option table
 * (options.c), the kernels from the registry (benchmarks/registry.c), so the
 * page says what --help and --list say. The prose around them is here.
 */
#include <stdio.h>

#include "options.h"
#include "roff.h"
#include "version.h"

static const char description1[] =
    "p2pbench runs MPI point-to-point kernels (PingPong, PingPing, Sendrecv, Exchange with the "
    "definitions of the Pallas/Intel MPI Benchmarks, and bandwidth, multi-pair and memcpy "
    "kernels) over a list of message sizes. For each size it prints the median time with its "
    "95% prediction interval (where the median of another launch would fall, from the rounds' "
    "medians; with one round the confidence interval of the median), p99, minimum, sample count "
    "and throughput, and writes a JSON Lines "
    "results file holding every statistic together with the host context: MPI library, each "
    "rank's host and CPU binding, OS, CPU and topology, timer and sampling policy.";

static const char description2[] =
    "It is started by the MPI launcher. Every rank checks the options; a bad option is reported "
    "by every rank with the same one-line message and the same exit status. Options that would "
    "override or ignore each other are refused naming both; each option may be given once (a "
    "second one is refused naming both values), except -k, which adds kernels each time. "
    "p2pbench-report(1) shows, compares, "
    "imports, plots and renders (html) the results files and judges surveys.";

static const char survey_text[] =
    "Every pair of hosts (or ranks) in the N-1 rounds of a round-robin schedule: latency by "
    "PingPong and bandwidth by a windowed one-way stream each way, suspects retested alone; "
    "p2pbench-report survey names slow nodes and slow links (docs/survey.md). Runs instead of "
    "kernels; its options are the --survey-* ones.";

static const char units[] =
    "Message size in bytes (K = 2^10, M = 2^20, G = 2^30 in size arguments); times t in usec; "
    "throughput in MB/s with 1 MB = 10^6 bytes.";

static const char exit_status[] =
    "0 success; 1 failure (payload check, I/O, memory, MPI error, timeout, nothing measured); "
    "2 usage error.";

static const char examples[] = ".nf\n"
                               "mpirun \\-np 2 p2pbench\n"
                               "mpirun \\-np 2 p2pbench pingpong \\-s 0,1K,1M \\-o run.jsonl\n"
                               "mpirun \\-np 2 p2pbench \\-\\-fixed\\-imb \\-f imb\n"
                               "p2pbench\\-report show run.jsonl\n"
                               ".fi";

static const char files[] =
    ".TP\n/usr/share/p2pbench/scripts\n"
    "campaign.sh (interleaved launches of two configurations for p2pbench\\-report compare), "
    "gate.sh (the interleaved CI gate of two builds), batch/ (a Slurm sbatch script, a PBS "
    "script, local\\-slurm.sh: a private Slurm of one node or of network\\-namespace nodes to "
    "try them) and testbed/ (hosts in network namespaces with shaped links).\n"
    ".TP\n/usr/share/doc/p2pbench\n"
    "README.md and docs/: kernels, methodology, output format, host context, report, survey, "
    "testbed, performance; results.schema.json.";

/* "2", "2-8" or ">=2": the ranks a kernel runs on (as --list says). */
static void ranks_text(const struct p2pb_kernel *k, char *buf, size_t len)
{
    if (k->max_ranks > 0 && k->max_ranks == k->min_ranks)
        snprintf(buf, len, "%d", k->min_ranks);
    else if (k->max_ranks > 0)
        snprintf(buf, len, "%d to %d", k->min_ranks, k->max_ranks);
    else
        snprintf(buf, len, "%d or more", k->min_ranks);
}

static void print_options(FILE *f)
{
    size_t n;
    const struct p2pb_optdef *t = p2pb_option_table(&n);
    for (size_t i = 0; i < n; i++)
        p2pb_opt_print_man(f, &t[i]);
}

static void print_kernels(FILE *f)
{
    fputs("Run by default: the kernels marked default. See also p2pbench \\-\\-list.\n", f);
    for (size_t i = 0; i < p2pb_nkernels; i++) {
        const struct p2pb_kernel *k = p2pb_kernels[i];
        char ranks[32];
        ranks_text(k, ranks, sizeof ranks);
        fputs(".TP\n\\fB", f);
        p2pb_roff_text(f, k->name);
        fputs("\\fR", f);
        fprintf(f, " (%s ranks%s)\n", ranks, p2pb_kernel_is_default(k) ? ", default" : "");
        p2pb_roff_para(f, k->summary);
        if (k->unavailable_reason) {
            fputs("Unavailable in this build: ", f);
            p2pb_roff_para(f, k->unavailable_reason);
        }
    }
}

void p2pb_options_man(FILE *f)
{
    p2pb_roff_title(f, "p2pbench", P2PB_VERSION);
    p2pb_roff_section(f, "NAME");
    fputs("p2pbench \\- MPI point\\-to\\-point benchmarks with per\\-size statistics and host "
          "context\n",
          f);
    p2pb_roff_section(f, "SYNOPSIS");
    fputs("\\fBmpirun \\-np\\fR \\fIN\\fR \\fBp2pbench\\fR [\\fIOPTION\\fR]... "
          "[\\fIKERNEL\\fR]...\n.br\n"
          "\\fBmpirun \\-np\\fR \\fIN\\fR \\fBp2pbench survey\\fR [\\fB\\-s\\fR "
          "\\fILAT,BW\\fR] [\\fIOPTION\\fR]...\n",
          f);
    p2pb_roff_section(f, "DESCRIPTION");
    p2pb_roff_para(f, description1);
    fputs(".PP\n", f);
    p2pb_roff_para(f, description2);
    p2pb_roff_section(f, "OPTIONS");
    print_options(f);
    p2pb_roff_section(f, "KERNELS");
    print_kernels(f);
    fputs(".TP\n\\fBsurvey\\fR (>=2 ranks, alone)\n", f);
    p2pb_roff_para(f, survey_text);
    p2pb_roff_section(f, "UNITS");
    p2pb_roff_para(f, units);
    p2pb_roff_section(f, "EXIT STATUS");
    p2pb_roff_para(f, exit_status);
    p2pb_roff_section(f, "EXAMPLES");
    fprintf(f, "%s\n", examples);
    p2pb_roff_section(f, "FILES");
    fprintf(f, "%s\n", files);
    p2pb_roff_section(f, "SEE ALSO");
    fputs("\\fBp2pbench\\-report\\fR(1), \\fBmpirun\\fR(1)\n", f);
}
