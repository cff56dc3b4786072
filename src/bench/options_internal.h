/* SPDX-License-Identifier: MIT */
/*
 * options_internal.h - shared by options.c (the option table, defaults,
 * --help, the entries' special steps) and options_parse.c (the generic
 * parser and the checks across options). Not for other files: they use
 * options.h.
 */
#ifndef P2PBENCH_OPTIONS_INTERNAL_H
#define P2PBENCH_OPTIONS_INTERNAL_H

#include <stddef.h>

#include "options.h"

/* Index of each of p2pbench's own entries of the table, in --help order. */
enum opt_id {
    O_KERNELS,
    O_SIZES,
    O_MSGLOG,
    O_FORMAT,
    O_OUTPUT,
    O_NO_RESULTS,
    O_LABEL,
    O_CHECK,
    O_OFF_CACHE,
    O_CACHE_SIZE,
    O_FIXED_IMB,
    O_SAMPLES,
    O_MIN_SAMPLES,
    O_MAX_SAMPLES,
    O_BATCH,
    O_WARMUP,
    O_TIME_PER_SIZE,
    O_CI_TARGET,
    O_ROUNDS,
    O_SEED,
    O_SHIFT_BUFFERS,
    O_TIMEOUT,
    O_WINDOW,
    O_NUMA_NODE,
    O_PROGRESS,
    O_BOUND,
    O_SURVEY_SIZES,
    O_SURVEY_MODE,
    O_SURVEY_ORDER,
    O_SURVEY_SEED,
    O_SURVEY_PER,
    O_SURVEY_TIME,
    O_SURVEY_CAP,
    O_NO_PROBE,
    O_LIST,
    O_INFO,
    O_HELP,
    O_VERSION,
    O_CORE /* p2pbench's own entries; the kernels' have the ids after */
};

/* State of one parse: the engine's (given[], first[], err) and p2pbench's. */
struct p2pb_optparse {
    struct p2pb_optparser eng; /* eng.user points back here */
    struct p2pb_options *o;
    int kernels_given; /* kernels named on the command line */
    char *err;         /* = eng.err */
    size_t errlen;
};

/* Entry id of the whole table (p2pb_option_table): p2pbench's own are
 * enum opt_id, the kernels' are O_CORE and above. */
#define OPTDEF(id) (&p2pb_option_table(NULL)[(id)])

/* Every field of o (and o->policy) at its table default. */
void p2pb_options_init(struct p2pb_options *o);

/* An engine over the table with o and o->policy as its bases (and no
 * state else), e.g. for p2pb_opt_defaults. */
void p2pb_options_engine(struct p2pb_optparser *p, struct p2pb_options *o);

/* Add the comma-separated kernel names of list to o (positional kernels and
 * -k). Returns P2PB_OK, or P2PB_EUSAGE naming an unknown kernel. */
enum p2pb_status p2pb_opt_add_kernels(struct p2pb_options *o, const char *list, char *err,
                                      size_t errlen);

/* --survey-sizes LAT,BW into o->survey_lat / survey_bw (sizes.c,
 * p2pb_parse_size_pair). Returns P2PB_OK or P2PB_EUSAGE with a message. */
enum p2pb_status p2pb_opt_survey_sizes(struct p2pb_optparser *p, const char *arg);

#endif
