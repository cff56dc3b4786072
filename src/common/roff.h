/* SPDX-License-Identifier: MIT */
/*
 * roff.h - the few man(7) pieces the two programs' man pages are made of
 * (p2pbench --help-man, p2pbench-report --help-man). The pages are printed
 * from the option tables, so they cannot drift from --help.
 */
#ifndef P2PBENCH_ROFF_H
#define P2PBENCH_ROFF_H
#include <stdio.h>

/* Write text to f escaped for roff: '\' as "\e", '-' as "\-", a '.' or '\''
 * that starts a line guarded by "\&"; newlines kept. Never fails (stdio). */
void p2pb_roff_text(FILE *f, const char *text);

/* p2pb_roff_text, then a newline. */
void p2pb_roff_para(FILE *f, const char *text);

/* .TH line: NAME in upper case, section 1, the version as the source. */
void p2pb_roff_title(FILE *f, const char *name, const char *version);

/* ".SH TITLE" (title: upper case, no escapes needed). */
void p2pb_roff_section(FILE *f, const char *title);

/* One option as a tagged paragraph: ".TP", then "-x, --name META" in bold
 * with META in italics (letter 0: no short form; meta NULL: none), then
 * help (escaped) on its own line. */
void p2pb_roff_option(FILE *f, char letter, const char *name, const char *meta, const char *help);

#endif /* P2PBENCH_ROFF_H */
