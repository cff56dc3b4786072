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

/* Index of each entry of the table, in --help order. */
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
    O_MEMCPY_BUFFER,
    O_MEMCPY_RANKS,
    O_PROGRESS,
    O_TCP_IF,
    O_BOUND,
    O_SURVEY_SIZES,
    O_SURVEY_MODE,
    O_SURVEY_ORDER,
    O_SURVEY_SEED,
    O_SURVEY_PER,
    O_SURVEY_TIME,
    O_SURVEY_CAP,
    O_RMA_SYNC,
    O_RMA_WINDOW,
    O_NO_PROBE,
    O_OVERLAP_COMPUTE,
    O_LIST,
    O_INFO,
    O_HELP,
    O_VERSION,
    O_MSGRATE_PREPOST,
    O_CACHE_POLLUTE,
    O_PARTITIONS,
    O_COUNT
};

/* State of one parse: the engine's (given[], first[], err) and p2pbench's. */
struct p2pb_optparse {
    struct p2pb_optparser eng; /* eng.user points back here */
    struct p2pb_options *o;
    int kernels_given; /* kernels named on the command line */
    char *err;         /* = eng.err */
    size_t errlen;
};

/* The option table (options.c), O_COUNT entries. */
extern const struct p2pb_optdef p2pb_opt_table[O_COUNT];

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
