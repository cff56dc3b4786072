/* SPDX-License-Identifier: MIT */
/*
 * options.h - command line of p2pbench: one option table (struct
 * p2pb_optdef of the option engine, src/common/optengine.h; the table in
 * src/bench/options.c) from which the getopt_long arrays, the
 * --help text and every default come; validation across options. Message
 * sizes are parsed by src/common/sizes.c (sizes.h, included here).
 * Parsing is pure (no MPI): preflight.c parses on every rank, rank 0's verdict is
 * broadcast so every rank exits with the same message and code.
 */
#ifndef P2PBENCH_OPTIONS_H
#define P2PBENCH_OPTIONS_H

#include <stddef.h>

#include "harness.h"
#include "p2pbench/kernel.h"
#include "output/output.h"
#include "p2pbench/status.h"
#include "optengine.h" /* struct p2pb_optdef: the option engine */
#include "sizes.h"     /* p2pb_parse_size, size lists */

#define P2PB_MAX_SIZES 4096
#define P2PB_MAX_KERNELS 64

struct p2pb_options {
    const struct p2pb_kernel *kernels[P2PB_MAX_KERNELS];
    size_t nkernels;
    size_t sizes[P2PB_MAX_SIZES]; /* message sizes in bytes, ascending, no duplicates */
    size_t nsizes;
    int sizes_given; /* 1 if --sizes / --msglog was given; else sizes
                      * holds the global default and kernels with
                      * their own default_sizes use those */
    const struct p2pb_reporter *reporter;
    char output[1024];  /* results file path; "" = none (--no-results) */
    int output_default; /* 1 if output was not given (default name) */
    char label[64];
    struct p2pb_policy policy;
    int progress;      /* --progress: P2PB_PROGRESS_AUTO, _ALWAYS, _NEVER (ticker.c) */
    int tcp_if_unused; /* 1: --tcp-if given, but no kernel of the run reads it: a warning,
                        * and the name is neither checked on the host nor used */
    char unused[1024]; /* options given that none of the kernels run uses, one
                        * warning line each for rank 0 to print; "" = none */
    int no_probe;      /* --no-probe: no placement probe at start (src/bench/probe.c) */
    int do_list, do_info, do_help, do_version;
    /* The link survey (src/bench/survey.c, docs/survey.md): "survey" named
     * as the kernel. Sizes: -s LAT,BW or --survey-sizes (bytes). */
    int survey;         /* 1: run the survey instead of kernels */
    int survey_mode;    /* --survey-mode: 0 alone (one pair at a time), 1 contention,
                         * 2 auto (alone up to P2PB_SURVEY_AUTO_ALONE_MAX ranks) */
    int survey_order;   /* --survey-order: 0 schedule, 1 random */
    size_t survey_seed; /* --survey-seed: seed of the random order; 0 = from the clock */
    int survey_per;     /* --survey-per: 0 auto, 1 host, 2 rank */
    double survey_time; /* --survey-time: budget per (pair, metric, direction), seconds */
    double survey_cap;  /* --survey-cap: most time per (pair, metric, direction), seconds */
    size_t survey_lat;  /* latency message size, bytes */
    size_t survey_bw;   /* bandwidth message size, bytes */
};

/*
 * Default sizes: --msglog's default "0:22" from the option table, i.e. 0 and
 * 2^0 .. 2^22 (24 sizes). sizes must hold P2PB_MAX_SIZES entries.
 */
void p2pb_default_sizes(size_t *sizes, size_t *n);

/*
 * Fill every field of pol with the option table's defaults (p2pbench's
 * entries in src/bench/options.c, the kernels' in their files): the policy
 * of a run given no option. Fields without
 * an option: mode = P2PB_POLICY_ADAPTIVE, llc_bytes = 0 and tcp_if = ""
 * (preflight.c sets them).
 * Some defaults are "decide later" values, as the table says: samples 0
 * (unused in adaptive mode), batch 0 (chosen from the timer), warmup -1
 * (the harness's rule), timeout 0 (none). Cannot fail.
 */
void p2pb_policy_init(struct p2pb_policy *pol);

/*
 * Parse argv into o, starting from the table's defaults (p2pb_policy_init
 * for o->policy). Never prints, never exits. Returns P2PB_OK or
 * P2PB_EUSAGE / P2PB_ERANGE (P2PB_ENOMEM if a copy fails) with a one-line
 * message in err naming the bad option or value. Kernels may be given as
 * positional arguments or with -k.
 */
enum p2pb_status p2pb_options_parse(int argc, char **argv, struct p2pb_options *o, char *err,
                                    size_t errlen);

/* The structs that hold the options' fields: the indexes of the option
 * engine's bases (struct p2pb_optdef.dst, optengine.h). The table's
 * defaults: def and def_text agree except for --warmup (def -1 means the
 * harness's rule, def_text "10" states it) and the entries whose default
 * is made elsewhere (--output's name by preflight.c, --msglog's sizes by
 * p2pb_default_sizes from def_text). */
enum p2pb_optdst {
    P2PB_DST_NONE,    /* no field: only "given" is recorded, or apply stores */
    P2PB_DST_OPTIONS, /* struct p2pb_options */
    P2PB_DST_POLICY,  /* struct p2pb_policy (p2pb_options.policy) */
    P2PB_DST_KERNEL = P2PB_OPT_DST_KERNEL /* struct p2pb_kernel_settings (policy.ks),
                                          * the kernels' own entries */
};

/* The option table, *n entries (n may be NULL), in --help order:
 * p2pbench's own, then the kernels' (struct p2pb_kernel.optdefs). */
const struct p2pb_optdef *p2pb_option_table(size_t *n);

/* Print --help to f. */
void p2pb_options_usage(FILE *f);

/* Print the man page p2pbench(1) to f (roff, man(7)): the options from the
 * table, the kernels from the registry (src/bench/manpage.c). */
void p2pb_options_man(FILE *f);

#endif /* P2PBENCH_OPTIONS_H */
