/* SPDX-License-Identifier: MIT */
/*
 * test_text.c - p2pb_text_sanitize (src/common/text.c): what may reach a
 * terminal or a table from a file. Every bad byte becomes one '?', the
 * length never changes, and printable UTF-8 passes untouched. And
 * p2pb_csv_field (src/common/output/csv.c): RFC 4180 quoting, and text a
 * spreadsheet would run as a formula written with a leading '.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/check.h"
#include "output/output.h"
#include "text.h"

/* sanitize a copy of in; it must become want */
static void expect(const char *in, const char *want)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%s", in);
    p2pb_text_sanitize(buf);
    CHECK(strcmp(buf, want) == 0);
    if (strcmp(buf, want) != 0)
        fprintf(stderr, "  sanitised '%s', want '%s'\n", buf, want);
    CHECK(strlen(buf) == strlen(in));
}

/* p2pb_csv_field(in) must write exactly want */
static void expect_csv(const char *in, const char *want)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *o = open_memstream(&buf, &len);
    CHECK(o != NULL);
    if (!o)
        return;
    p2pb_csv_field(o, in);
    fclose(o);
    CHECK(strcmp(buf, want) == 0);
    if (strcmp(buf, want) != 0)
        fprintf(stderr, "  csv field of '%s' is '%s', want '%s'\n", in, buf, want);
    free(buf);
}

static void csv_fields(void)
{
    expect_csv("native", "native");
    expect_csv("", "");
    expect_csv("a,b", "\"a,b\"");
    expect_csv("say \"hi\"", "\"say \"\"hi\"\"\"");
    /* formula starts: quoted, with a leading ' (OWASP CSV injection) */
    expect_csv("=1+2", "\"'=1+2\"");
    expect_csv("+cmd", "\"'+cmd\"");
    expect_csv("-2+3+cmd|' /C calc'!A0", "\"'-2+3+cmd|' /C calc'!A0\"");
    expect_csv("@SUM(A1)", "\"'@SUM(A1)\"");
    expect_csv("\tx", "\"'\tx\"");
    expect_csv("=HYPERLINK(\"x\")", "\"'=HYPERLINK(\"\"x\"\")\"");
    expect_csv("-", "\"'-\"");
    expect_csv("-inf", "\"'-inf\"");
    expect_csv("-1e", "\"'-1e\"");
    /* plain numbers stay numbers */
    expect_csv("-3", "-3");
    expect_csv("+4.5", "+4.5");
    expect_csv("-1.5e-3", "-1.5e-3");
    expect_csv("-.5", "-.5");
    expect_csv("0->1", "0->1"); /* a variant: not at the start */
    expect_csv("a=b", "a=b");
}

int main(void)
{
    csv_fields();
    expect("plain", "plain");
    expect("caf\xc3\xa9 \xe2\x82\xac", "caf\xc3\xa9 \xe2\x82\xac"); /* é and € stay */
    expect("a\033[31mb", "a?[31mb");                                /* ESC */
    expect("x\ny\r", "x?y?");
    expect("del\x7f", "del?");
    expect("nel\xc2\x85", "nel??"); /* U+0085 NEL, a C1 control */
    expect("\xc2\x9b"
           "2J",
           "??2J");                                   /* U+009B CSI */
    expect("rlo\xe2\x80\xae.", "rlo???.");            /* U+202E right-to-left override */
    expect("lri\xe2\x81\xa6.", "lri???.");            /* U+2066 left-to-right isolate */
    expect("rlm\xe2\x80\x8f", "rlm???");              /* U+200F right-to-left mark */
    expect("ls\xe2\x80\xa8", "ls???");                /* U+2028 line separator */
    expect("nb\xc2\xa0sp", "nb\xc2\xa0sp");           /* U+00A0 no-break space stays */
    expect("\xe2\x80\x93 dash", "\xe2\x80\x93 dash"); /* U+2013 en dash stays */
    expect("bad\xff\xc0", "bad??");                   /* not UTF-8 */
    CHECK(!p2pb_text_is_clean("a\xe2\x80\xae"));
    CHECK(p2pb_text_is_clean("caf\xc3\xa9"));
    return CHECK_DONE();
}
