/* SPDX-License-Identifier: MIT */
/*
 * p2pbench-report: show, compare, import, plot, html. No MPI.
 * A table of commands; each command is in its own file (cmd_*.c) with the
 * list of options it takes; the options are one table in args.c. Exit
 * status: see exit_code below.
 */
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "optengine.h"
#include "roff.h"
#include "text.h"
#include "version.h"

static const struct p2pb_report_cmd *const cmds[] = {
    &p2pb_cmd_show_def, &p2pb_cmd_compare_def, &p2pb_cmd_import_def,   &p2pb_cmd_plot_def,
    &p2pb_cmd_html_def, &p2pb_cmd_survey_def,  &p2pb_cmd_baseline_def,
};

enum { NCMDS = sizeof cmds / sizeof cmds[0] };

static const char usage_head[] =
    "Usage: p2pbench-report COMMAND [OPTION]... FILE...\n"
    "Reads p2pbench results files (JSON Lines) and IMB/PMB/OSU text logs. No MPI.\n"
    "\n"
    "Commands:\n";

static const char usage_tail[] =
    "\n"
    "Each option may be given once (a second one is a usage error).\n"
    "Units: bytes; usec; MB/s with 1 MB = 10^6 bytes.\n"
    "Exit status: 0 success, 1 failure or regression found, 2 usage error.\n";

/* text, its lines after the first indented by indent spaces, and a newline. */
static void print_lines(FILE *o, const char *text, int indent)
{
    for (const char *nl; (nl = strchr(text, '\n')) != NULL; text = nl + 1)
        fprintf(o, "%.*s\n%*s", (int)(nl - text), text, indent, "");
    fprintf(o, "%s\n", text);
}

/* Command c's synopsis and description. */
static void print_command(FILE *o, const struct p2pb_report_cmd *c)
{
    fprintf(o, "  %s ", c->name);
    print_lines(o, c->synopsis, 3 + (int)strlen(c->name));
    fputs("        ", o);
    p2pb_help_wrap(o, c->help, 8); /* its line breaks are spaces: wrapped at 80 */
}

/* The usage text: commands from cmds, options from the table of args.c;
 * with c, that command and the options it takes (p2pbench-report c --help). */
static void print_usage(FILE *o, const struct p2pb_report_cmd *c)
{
    if (c) {
        fputs("Usage: p2pbench-report COMMAND [OPTION]... FILE...\n\nCommand:\n", o);
        print_command(o, c);
    } else {
        fputs(usage_head, o);
        for (size_t i = 0; i < NCMDS; i++)
            print_command(o, cmds[i]);
    }
    fputs("\nOptions:\n", o);
    p2pb_args_print_options(o, c);
    fputs(usage_tail, o);
}

/* p2pbench-report(1) in roff: the commands from cmds, the options from the
 * table of args.c (the hidden --help-man, run at build time). */
static void print_man(FILE *o)
{
    p2pb_roff_title(o, "p2pbench-report", P2PB_VERSION);
    p2pb_roff_section(o, "NAME");
    fputs("p2pbench\\-report \\- show, compare, import, plot and render (html) p2pbench results "
          "files; judge link surveys\n",
          o);
    p2pb_roff_section(o, "SYNOPSIS");
    fputs("\\fBp2pbench\\-report\\fR \\fICOMMAND\\fR [\\fIOPTION\\fR]... \\fIFILE\\fR...\n", o);
    p2pb_roff_section(o, "DESCRIPTION");
    p2pb_roff_para(o, "p2pbench-report reads p2pbench results files (JSON Lines) and IMB/PMB/OSU "
                      "text logs; it needs no MPI. Its commands:");
    for (size_t i = 0; i < NCMDS; i++) {
        fputs(".TP\n\\fB", o);
        p2pb_roff_text(o, cmds[i]->name);
        fputs("\\fR ", o);
        p2pb_roff_para(o, cmds[i]->synopsis);
        fputs(".br\n", o);
        p2pb_roff_para(o, cmds[i]->help);
    }
    p2pb_roff_section(o, "OPTIONS");
    p2pb_args_print_man(o);
    p2pb_roff_section(o, "NOTES");
    p2pb_roff_para(o, usage_tail + 1);
    p2pb_roff_section(o, "SEE ALSO");
    fputs("\\fBp2pbench\\fR(1), \\fBgnuplot\\fR(1); /usr/share/doc/p2pbench/docs/report.md\n", o);
}

static void print_version(void)
{
    printf("p2pbench-report %s (%s)\n", P2PB_VERSION, P2PB_GIT_COMMIT);
}

/* "show, compare, import, plot, html" into buf (len bytes). */
static const char *command_names(char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < NCMDS && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", cmds[i]->name);
    return buf;
}

/* Parse the options of command c (argv[0] is its name), then run it, or
 * print the help or the version when asked for. */
static enum p2pb_status run_command(const struct p2pb_report_cmd *c, int argc, char **argv,
                                    char *err, size_t errlen)
{
    struct p2pb_args a;
    const char *verb = NULL;
    if (c->verbs && argc > 1 && argv[1][0] != '-') {
        for (size_t i = 0; c->verbs[i]; i++)
            if (strcmp(argv[1], c->verbs[i]) == 0)
                verb = c->verbs[i];
        char shown[72];
        if (!verb)
            return p2pb_fail(P2PB_EUSAGE, err, errlen,
                             "%s: unknown '%s' (build or check)" P2PB_TRY_HELP, c->name,
                             p2pb_text_shown(shown, sizeof shown, argv[1], 60));
        argc--, argv++; /* the verb stands for the command's name */
    } else if (c->verbs && (argc < 2 || (strcmp(argv[1], "-h") && strcmp(argv[1], "--help") &&
                                         strcmp(argv[1], "-V") && strcmp(argv[1], "--version")))) {
        return p2pb_fail(P2PB_EUSAGE, err, errlen, "%s needs build or check" P2PB_TRY_HELP,
                         c->name);
    }
    p2pb_args_init(&a, c->expand_dirs);
    a.verb = verb;
    enum p2pb_status st = p2pb_args_parse(argc, argv, c, &a, err, errlen);
    if (st == P2PB_OK && a.action == P2PB_ARGS_HELP)
        print_usage(stdout, c);
    else if (st == P2PB_OK && a.action == P2PB_ARGS_VERSION)
        print_version();
    else if (st == P2PB_OK)
        st = c->run(&a, err, errlen);
    p2pb_args_free(&a);
    return st;
}

/* Look the command up in cmds and run it; -h and -V work without one. */
static enum p2pb_status dispatch(int argc, char **argv, char *err, size_t errlen)
{
    char names[96];
    if (argc < 2)
        return p2pb_fail(P2PB_EUSAGE, err, errlen, "missing command (%s)" P2PB_TRY_HELP,
                         command_names(names, sizeof names));
    if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
        print_usage(stdout, NULL);
        return P2PB_OK;
    }
    if (strcmp(argv[1], "--help-man") == 0) { /* not in --help: the build makes the page */
        print_man(stdout);
        return P2PB_OK;
    }
    if (strcmp(argv[1], "-V") == 0 || strcmp(argv[1], "--version") == 0) {
        print_version();
        return P2PB_OK;
    }
    for (size_t i = 0; i < NCMDS; i++)
        if (strcmp(argv[1], cmds[i]->name) == 0)
            return run_command(cmds[i], argc - 1, argv + 1, err, errlen);
    char shown[72];
    return p2pb_fail(P2PB_EUSAGE, err, errlen, "unknown command '%s' (%s)" P2PB_TRY_HELP,
                     p2pb_text_shown(shown, sizeof shown, argv[1], 60),
                     command_names(names, sizeof names));
}

/*
 * The one place that turns a status into the exit status (as the usage text
 * says): 0 success; 2 a usage error (P2PB_EUSAGE: the command line, a plot
 * name that is not .png or .svg, a --fail-on-regression gate that cannot
 * fail); 1 anything else: a file that cannot be read, imported or plotted
 * (P2PB_EIO, P2PB_EFORMAT, P2PB_ERANGE), no memory, a regression or an
 * incomplete file found by the gate (P2PB_EVERIFY).
 */
static int exit_code(enum p2pb_status st)
{
    if (st == P2PB_OK)
        return 0;
    return st == P2PB_EUSAGE ? 2 : 1;
}

/* The one error line (and the lines it deliberately holds, e.g. gnuplot's
 * first error): each line sanitised, since messages quote file names and
 * file contents (text.c). */
static void print_error(char *err)
{
    for (char *line = err, *nl; line; line = nl) {
        nl = strchr(line, '\n');
        if (nl)
            *nl++ = '\0';
        p2pb_text_sanitize(line);
        fprintf(stderr, "%s%s\n", line == err ? "p2pbench-report: " : "", line);
    }
}

int main(int argc, char **argv)
{
    /* room for any one argument (Linux takes up to 128 KiB each) in a
     * usage error, so that no message is cut */
    static char err[(128 + 16) * 1024];
    enum p2pb_status st = dispatch(argc, argv, err, sizeof err);
    if (st != P2PB_OK && err[0])
        print_error(err);
    return exit_code(st);
}
