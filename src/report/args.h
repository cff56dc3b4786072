/* SPDX-License-Identifier: MIT */
/*
 * args.h - the command line of p2pbench-report: one table of options
 * (args.c) that drives both the parsing and the "Options:" part of the usage
 * text, and the commands (cmd_*.c) that main.c looks up by name.
 *
 * Errors follow status.h: a p2pb_status and a message in a caller-owned
 * buffer, without the "p2pbench-report: " that main.c puts in front of it.
 * A usage error (P2PB_EUSAGE) ends its message with P2PB_TRY_HELP.
 */
#ifndef P2PBENCH_REPORT_ARGS_H
#define P2PBENCH_REPORT_ARGS_H

#include <stddef.h>
#include <stdio.h>

#include "load.h"
#include "optengine.h"

/* Second line of the message of a usage error. */
#define P2PB_TRY_HELP "\nTry 'p2pbench-report --help'."

/* Messages of the loaders, of import and of plot are cut at this many bytes
 * (with the terminating NUL); a usage error never is. */
#define P2PB_CMD_ERRLEN 1024

/* errlen, at most P2PB_CMD_ERRLEN. */
static inline size_t p2pb_cmd_errlen(size_t errlen)
{
    return errlen < P2PB_CMD_ERRLEN ? errlen : P2PB_CMD_ERRLEN;
}

/* The options of p2pbench-report: indexes of p2pb_report_options. */
enum p2pb_ropt {
    RO_FORMAT,
    RO_METRIC,
    RO_VS,
    RO_THRESHOLD,
    RO_HOLM,
    RO_FAIL,
    RO_ALLOW_INCOMPLETE,
    RO_OUTPUT,
    RO_FORCE,
    RO_KERNEL,
    RO_GNUPLOT,
    RO_GNUPLOT_TIMEOUT,
    RO_MAX_FILE_SIZE,
    RO_HEATMAP,
    RO_FAIL_ON_SLOW,
    RO_FAIL_ON_OUTSIDE,
    RO_MAD_K,
    RO_MIN_OFF,
    RO_TITLE,
    RO_HELP,
    RO_VERSION,
    RO_COUNT
};

/* The option table (args.c), RO_COUNT entries: names, kinds, ranges,
 * defaults and help of every option; each stores into struct p2pb_args
 * (the engine's base 1). */
extern const struct p2pb_optdef p2pb_report_options[RO_COUNT];

/* What the command line asks for besides the command itself. */
enum p2pb_args_action {
    P2PB_ARGS_RUN,    /* run the command */
    P2PB_ARGS_HELP,   /* -h, --help: print the usage text, exit 0 */
    P2PB_ARGS_VERSION /* -V, --version: print the version, exit 0 */
};

/* The options and files of one command line (p2pb_args_init, then
 * p2pb_args_parse; p2pb_args_free in any case). */
struct p2pb_args {
    const char *format;     /* -f FMT as given, NULL: text (p2pb_args_format) */
    int metric;             /* -m: an enum p2pb_metric, -1 when not given */
    double threshold;       /* -t PCT as a fraction (5% = 0.05, the default) */
    int holm;               /* --holm, or --fail-on-regression */
    int fail;               /* --fail-on-regression */
    int allow_incomplete;   /* --allow-incomplete: the gate passes incomplete files */
    const char *output;     /* -o PATH, NULL when not given */
    const char *kernel;     /* -k NAME, NULL when not given */
    const char *gnuplot;    /* --gnuplot PATH, NULL when not given */
    const char *title;      /* html --title TEXT, NULL when not given */
    int force;              /* import --force: replace existing results files */
    size_t max_file_bytes;  /* --max-file-size MIB in bytes (default 256 MiB) */
    const char *heatmap;    /* survey --heatmap FILE, NULL when not given */
    int fail_on_slow;       /* survey --fail-on-slow */
    int fail_on_outside;    /* baseline check --fail-on-outside */
    const char *verb;       /* baseline: "build" or "check" (main.c), else NULL */
    double mad_k;           /* survey --mad-k: scaled MADs of the rule (outlier.h) */
    double min_off;         /* survey --min-off: least fraction off the median */
    double gnuplot_timeout; /* plot, survey --gnuplot-timeout: seconds gnuplot may take */
    char **files[2];        /* side A (before --vs) and side B (after it), */
    size_t nfiles[2];       /* nfiles[s] strdup'ed paths each, in order */
    int side;               /* side the next file goes to: 1 after --vs */
    int expand_dirs;        /* 1: a directory stands for its *.jsonl files */
    enum p2pb_args_action action;
};

/* An accepted --format value of a command: its name and its format. */
struct p2pb_fmt_name {
    const char *name;
    enum p2pb_outfmt fmt;
};

/* Empty arguments: every option at its table default (threshold 0.05,
 * files up to 256 MiB, ...). expand_dirs as above. */
void p2pb_args_init(struct p2pb_args *a, int expand_dirs);

/*
 * One command (git's builtins' way): its name, what runs it, whether a
 * directory argument stands for its *.jsonl files, its lines of the usage
 * text (the synopsis after the name, then the description; lines separated
 * by '\n'), verbs (NULL, or the words one of which must follow the name,
 * "baseline build", taken before the options so that no verb is read as a
 * directory) and the options it takes (p2pb_ropt indexes, noptions of
 * them; --help, --version and --max-file-size besides). Each cmd_*.c
 * defines its own.
 */
struct p2pb_report_cmd {
    const char *name;
    enum p2pb_status (*run)(struct p2pb_args *a, char *err, size_t errlen);
    int expand_dirs;
    const char *synopsis;
    const char *help;
    const char *const *verbs;
    const unsigned char *options;
    size_t noptions;
};

/* The commands (cmd_*.c), in the order of the usage text. */
extern const struct p2pb_report_cmd p2pb_cmd_show_def, p2pb_cmd_compare_def, p2pb_cmd_import_def,
    p2pb_cmd_plot_def, p2pb_cmd_html_def, p2pb_cmd_survey_def, p2pb_cmd_baseline_def;

/*
 * Parse argv[1..argc-1] (argv[0] is the command name) for command cmd into
 * a, which must come from p2pb_args_init: options in any order, files in
 * order, "--vs" switching to side B, every word after "--" a file. Stops
 * at -h or -V (a->action says which). Returns P2PB_OK, P2PB_EUSAGE (unknown option, an option the
 * command does not take, a missing or bad value, an option given twice,
 * --vs with no file after it; the message ends with P2PB_TRY_HELP) or
 * P2PB_ENOMEM.
 */
enum p2pb_status p2pb_args_parse(int argc, char **argv, const struct p2pb_report_cmd *cmd,
                                 struct p2pb_args *a, char *err, size_t errlen);

/*
 * The format of -f: text when not given, else the entry of names[0..n-1]
 * with that name. Returns P2PB_OK or P2PB_EUSAGE, whose message lists the
 * names in table order.
 */
enum p2pb_status p2pb_args_format(const struct p2pb_args *a, const struct p2pb_fmt_name *names,
                                  size_t n, enum p2pb_outfmt *out, char *err, size_t errlen);

/*
 * One launch counts once (compare, plot): the same file (by device and inode)
 * given twice, on one side or on both, would fake replicates or draw one run
 * as two sides. Returns P2PB_OK (also when there is no memory for the check,
 * or for a path that cannot be stat'ed: its loader reports it) or P2PB_EUSAGE
 * naming both paths.
 */
enum p2pb_status p2pb_args_distinct_files(const struct p2pb_args *a, char *err, size_t errlen);

/* Free the file lists of a. */
void p2pb_args_free(struct p2pb_args *a);

/* The "Options:" lines of the usage text to o: every option (cmd NULL) or
 * those command cmd takes. */
void p2pb_args_print_options(FILE *o, const struct p2pb_report_cmd *cmd);

/* The same options as man(7) tagged paragraphs (roff.h), for
 * p2pbench-report(1) (p2pbench-report --help-man). */
void p2pb_args_print_man(FILE *o);

/*
 * The commands, run by main.c once the options are parsed. Each returns
 * P2PB_OK or a failure with its message in err (a message may be empty when
 * the command printed it itself); main.c maps the status to the exit code.
 */
enum p2pb_status p2pb_cmd_show(struct p2pb_args *a, char *err, size_t errlen);
enum p2pb_status p2pb_cmd_compare(struct p2pb_args *a, char *err, size_t errlen);
enum p2pb_status p2pb_cmd_import(struct p2pb_args *a, char *err, size_t errlen);
enum p2pb_status p2pb_cmd_plot(struct p2pb_args *a, char *err, size_t errlen);
enum p2pb_status p2pb_cmd_html(struct p2pb_args *a, char *err, size_t errlen);
/* survey: slow nodes and links of a `p2pbench survey` file (cmd_survey.c). */
enum p2pb_status p2pb_cmd_survey(struct p2pb_args *a, char *err, size_t errlen);
enum p2pb_status p2pb_cmd_baseline(struct p2pb_args *a, char *err, size_t errlen);

#endif /* P2PBENCH_REPORT_ARGS_H */
