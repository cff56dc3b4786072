/* SPDX-License-Identifier: MIT */
/*
 * option.h - one command-line option as a table entry (struct p2pb_optdef):
 * its names, the kind of its value, range, default, help and the field that
 * holds it. p2pbench's and p2pbench-report's tables are made of these, and
 * each kernel declares its own options with them (struct
 * p2pb_kernel.optdefs, kernel.h), as fio's I/O engines declare theirs. The
 * engine that parses a table is src/common/optengine.h.
 */
#ifndef P2PBENCH_OPTION_H
#define P2PBENCH_OPTION_H

#include <stddef.h>

#include "p2pbench/status.h"

struct p2pb_optparser; /* src/common/optengine.h */

/* The base (struct p2pb_optdef.dst) of a kernel's options: their fields are
 * members of struct p2pb_kernel_settings (kernel.h). */
#define P2PB_OPT_DST_KERNEL 3

/* Kind of an option's value: decides getopt's has_arg, the conversion and
 * the range check. */
enum p2pb_optkind {
    P2PB_OPT_FLAG,      /* no value; stores 1 */
    P2PB_OPT_COUNT,     /* decimal integer in [min, max] */
    P2PB_OPT_SECONDS,   /* number of seconds (strtod forms) in [min, max] */
    P2PB_OPT_FRACTION,  /* number (strtod forms) in [min, max] */
    P2PB_OPT_SIZE,      /* one size in bytes (p2pb_parse_size), in [min, max] (max 0: none) */
    P2PB_OPT_SIZE_LIST, /* message sizes: the entry's apply step parses them */
    P2PB_OPT_ENUM,      /* one of choices[] (exact match); stores the index */
    P2PB_OPT_STRING     /* text, not empty: stored as given (ctype STR) or by the apply
                         * step (which then checks it) */
};

/* C type of an option's field (P2PB_OPT_CTYPE(field) sets it from the
 * field's type, so that the two cannot disagree). */
enum p2pb_ctype {
    P2PB_CT_NONE,
    P2PB_CT_SIZE,
    P2PB_CT_LONG,
    P2PB_CT_INT,
    P2PB_CT_DOUBLE,
    P2PB_CT_STR /* const char *: the argument itself (argv outlives the parse) */
};

/* clang-format off */
#define P2PB_OPT_CTYPE(x) \
    _Generic((x), size_t: P2PB_CT_SIZE, long: P2PB_CT_LONG, int: P2PB_CT_INT, \
             double: P2PB_CT_DOUBLE, const char *: P2PB_CT_STR)
/* clang-format on */

/* The field m of struct type T, held in base dst of the parser: designated
 * initialisers of struct p2pb_optdef. */
#define P2PB_OPT_FIELD(dst_index, T, m) \
    .dst = (dst_index), .ctype = P2PB_OPT_CTYPE(((T *)0)->m), .off = offsetof(T, m)

/* One table entry: id (its index), long name, short letter (0: none),
 * kind, metavar (NULL: none), then designated fields (range, default,
 * field, apply, help). */
#define P2PB_OPT(id, long_name, short_letter, arg_kind, meta, ...) \
    [id] = {.name = (long_name),                                   \
            .letter = (short_letter),                              \
            .kind = (arg_kind),                                    \
            .metavar = (meta),                                     \
            __VA_ARGS__}

/*
 * One option. Defaults: def is stored in the field before parsing
 * (integers exact, they are below 2^53); def_text is the default as the
 * help ("{def}" in help is replaced by it) and the docs state it, NULL when
 * the default is prose or none. The two agree unless the table's comment
 * says why not (a sentinel such as -1 for "the harness's rule", or a unit:
 * MiB given, bytes stored).
 */
struct p2pb_optdef {
    const char *name;           /* long name, without "--" */
    char letter;                /* short option, 0 = none */
    enum p2pb_optkind kind;     /* of its value */
    const char *metavar;        /* value's name in --help; NULL for flags */
    double min, max;            /* range: COUNT, SECONDS, FRACTION, SIZE */
    const char *def_text;       /* default as documented; NULL = none / prose */
    double def;                 /* stored default (in the field's unit) */
    int dst;                    /* struct of the field: index of the parser's base, 0 = none */
    enum p2pb_ctype ctype;      /* type of the field */
    size_t off;                 /* offsetof the field in that struct */
    const char *const *choices; /* ENUM: names, NULL-terminated */
    /* 1: may be given more than once, each value goes to apply (the kernels);
     * 0 (every other option): a second one is refused, naming both values */
    int many;
    /* 1: parsing ends once this option is taken (--help, --version) */
    int stop;
    /* STRING entries stored as given (ctype STR): NULL, or the test of a
     * value, returning NULL when it is good, else why not (a phrase, e.g.
     * "not an interface name (1 to 15 letters, digits or -_.@:)"); the
     * engine then refuses it, naming the option. */
    const char *(*check)(const char *arg);
    /* Special step that replaces the generic store; returns P2PB_OK or
     * fails with a message in p->err. */
    enum p2pb_status (*apply)(struct p2pb_optparser *p, const char *arg);
    const char *help; /* --help text */
};

#endif /* P2PBENCH_OPTION_H */
