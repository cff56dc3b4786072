/* SPDX-License-Identifier: MIT */
#include "roff.h"

#include <ctype.h>

void p2pb_roff_text(FILE *f, const char *text)
{
    int bol = 1; /* at the beginning of a line */
    for (const char *p = text; *p; p++) {
        if (bol && (*p == '.' || *p == '\''))
            fputs("\\&", f);
        if (*p == '\\')
            fputs("\\e", f);
        else if (*p == '-')
            fputs("\\-", f);
        else
            fputc(*p, f);
        bol = *p == '\n';
    }
}

void p2pb_roff_para(FILE *f, const char *text)
{
    p2pb_roff_text(f, text);
    fputc('\n', f);
}

void p2pb_roff_title(FILE *f, const char *name, const char *version)
{
    fputs(".TH \"", f);
    for (const char *p = name; *p; p++) {
        if (*p == '-')
            fputs("\\-", f);
        else
            fputc(toupper((unsigned char)*p), f);
    }
    fprintf(f, "\" 1 \"\" \"%s %s\" \"User Commands\"\n", name, version);
}

void p2pb_roff_section(FILE *f, const char *title)
{
    fprintf(f, ".SH %s\n", title);
}

void p2pb_roff_option(FILE *f, char letter, const char *name, const char *meta, const char *help)
{
    fputs(".TP\n", f);
    if (letter)
        fprintf(f, "\\fB\\-%c\\fR, ", letter);
    fputs("\\fB\\-\\-", f);
    p2pb_roff_text(f, name);
    fputs("\\fR", f);
    if (meta) {
        fputs(" \\fI", f);
        p2pb_roff_text(f, meta);
        fputs("\\fR", f);
    }
    fputc('\n', f);
    p2pb_roff_para(f, help);
}
