/* SPDX-License-Identifier: MIT */
/*
 * optengine.h - the one option engine of both programs: an option is an
 * entry of a table (struct p2pb_optdef) that says its names, the kind of its
 * value, its range, its default and the field that holds it; the engine
 * builds getopt_long's arrays from a table, converts and range-checks each
 * value by its kind, stores it in its field, refuses an option given twice,
 * stores the defaults and prints the option lines of --help and the man
 * page. What a program adds is its table and the steps across options.
 * The entries themselves (struct p2pb_optdef) are public, in
 * include/p2pbench/option.h: the kernels declare theirs there too.
 *   p2pbench:        src/bench/options.c (one table), options_parse.c
 *   p2pbench-report: src/report/args.c (the options), each cmd_*.c the
 *                    list of options its command takes
 * Errors follow status.h: a p2pb_status and a one-line message in a
 * caller-owned buffer, naming the option and the bad value.
 */
#ifndef P2PBENCH_OPTENGINE_H
#define P2PBENCH_OPTENGINE_H

#include <stddef.h>
#include <stdio.h>

#include "p2pbench/option.h"
#include "p2pbench/status.h"
#include "sizes.h"

/* Most entries a table may have. */
#define P2PB_OPT_MAX 64
/* Most structs that hold options' fields (struct p2pb_optdef.dst < this;
 * P2PB_OPT_DST_KERNEL, option.h, is the last). */
#define P2PB_OPT_NBASES 4

/*
 * One parse of argv against a table. The caller fills table, n, base[],
 * user, hint (and on_operand, accepts when needed), then calls
 * p2pb_opt_parse. base[d->dst] is the struct an entry's field is in
 * (base[0] unused). Operands: with on_operand, each is handed to it in
 * order as it comes (getopt's "-" mode); without, getopt moves them to the
 * end, from argv[p->next] on.
 */
struct p2pb_optparser {
    const struct p2pb_optdef *table;
    size_t n;                    /* entries, at most P2PB_OPT_MAX */
    void *base[P2PB_OPT_NBASES]; /* structs holding the fields */
    void *user;                  /* the program's state, for apply steps */
    const char *hint;            /* ends an unknown-option message, e.g. " (see
                                  * p2pbench --help)" */
    enum p2pb_status (*on_operand)(struct p2pb_optparser *p, const char *arg);
    /* NULL, or P2PB_OK when the entry id may be used here, else a failure
     * with its message (an option of another command) */
    enum p2pb_status (*accepts)(struct p2pb_optparser *p, size_t id);
    unsigned char given[P2PB_OPT_MAX]; /* 1 once the option was on the command line */
    const char *first[P2PB_OPT_MAX];   /* its (first) value then; NULL for a flag */
    int stopped;                       /* 1: an entry with stop ended the parse */
    int next;                          /* after p2pb_opt_parse: the first operand left */
    char *err;
    size_t errlen;
};

/* Store every entry's def in its field (entries with dst 0 have none).
 * Cannot fail. */
void p2pb_opt_defaults(const struct p2pb_optparser *p);

/*
 * Parse argv[1..argc-1]: each option converted by its entry's kind and
 * stored (or handed to its apply step), operands as described above.
 * Returns P2PB_OK, or P2PB_EUSAGE (unknown option, missing or bad value, an
 * option given twice), P2PB_ERANGE (a value out of its range) or what an
 * apply step or on_operand returned, with the message in p->err.
 * Not reentrant (getopt_long's state).
 */
enum p2pb_status p2pb_opt_parse(struct p2pb_optparser *p, int argc, char **argv);

/* The converters of the kinds, for apply steps that convert then store in
 * their own way: arg as d's kind into *v (COUNT, SIZE, ENUM: an index) or
 * *x (SECONDS, FRACTION), range-checked. P2PB_OK, P2PB_EUSAGE (not a value
 * of that kind) or P2PB_ERANGE, with a message naming --name and arg. */
enum p2pb_status p2pb_opt_count(const struct p2pb_optdef *d, const char *arg, size_t *v, char *err,
                                size_t errlen);
enum p2pb_status p2pb_opt_real(const struct p2pb_optdef *d, const char *arg, double *x, char *err,
                               size_t errlen);

/* d's help text with "{def}" replaced by d->def_text, into buf (len bytes,
 * cut to fit, always terminated). */
void p2pb_opt_help(const struct p2pb_optdef *d, char *buf, size_t len);

/* --help's layout: lines of at most P2PB_HELP_WIDTH columns; an option's text
 * starts after P2PB_HELP_COLUMN columns (its names before it). */
#define P2PB_HELP_WIDTH 80
#define P2PB_HELP_COLUMN 31

/* text (one paragraph, words split at spaces and newlines) to f from a cursor in column
 * indent, wrapped before P2PB_HELP_WIDTH with every next line indented by
 * indent spaces; ends with a newline. A word wider than the room left stays whole. */
void p2pb_help_wrap(FILE *f, const char *text, size_t indent);

/* One --help entry of d: "  -f, --format FMT             text", the text wrapped
 * at P2PB_HELP_WIDTH and aligned at P2PB_HELP_COLUMN (no letter: six spaces before
 * --name; names reaching the column: the text starts on the next line), to f. */
void p2pb_opt_print_line(FILE *f, const struct p2pb_optdef *d);

/* The same as a man(7) tagged paragraph (roff.h) to f. */
void p2pb_opt_print_man(FILE *f, const struct p2pb_optdef *d);

/* "-f/--format" or "--vs": how messages name d, into buf (len bytes). */
const char *p2pb_opt_names(const struct p2pb_optdef *d, char *buf, size_t len);

#endif /* P2PBENCH_OPTENGINE_H */
