/* SPDX-License-Identifier: MIT */
/*
 * optengine.c - a command line against an option table: getopt_long's
 * arrays from the table, each value converted and range-checked by its
 * entry's kind and stored in its field, repeats refused, defaults, and the
 * option lines of --help and the man page. See optengine.h.
 */
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "optengine.h"
#include "roff.h"
#include "text.h"

/* getopt_long's value of an option without a short letter: this + index. */
#define LONG_ONLY 256

/* ---- Converters of one value ---- */

/* How a message quotes a value from the command line: at most 60 bytes
 * (then "..."), control characters and bytes that are not UTF-8 as '?'
 * (text.h), so that the option's name and the message's end survive. */
struct shown {
    char s[72];
};

static struct shown shown(const char *arg)
{
    struct shown v;
    p2pb_text_shown(v.s, sizeof v.s, arg, 60);
    return v;
}

enum p2pb_status p2pb_opt_count(const struct p2pb_optdef *d, const char *arg, size_t *v, char *err,
                                size_t errlen)
{
    char *end;
    errno = 0;
    if (!arg || !isdigit((unsigned char)arg[0]))
        return p2pb_fail(P2PB_EUSAGE, err, errlen,
                         "invalid value '%s' for --%s (expected an integer)", shown(arg).s,
                         d->name);
    unsigned long long x = strtoull(arg, &end, 10);
    if (*end)
        return p2pb_fail(P2PB_EUSAGE, err, errlen,
                         "invalid value '%s' for --%s (expected an integer)", shown(arg).s,
                         d->name);
    if (errno == ERANGE || (double)x < d->min || (double)x > d->max)
        return p2pb_fail(P2PB_ERANGE, err, errlen,
                         "value '%s' for --%s is out of range (%.0f..%.0f)", shown(arg).s, d->name,
                         d->min, d->max);
    *v = (size_t)x;
    return P2PB_OK;
}

enum p2pb_status p2pb_opt_real(const struct p2pb_optdef *d, const char *arg, double *x, char *err,
                               size_t errlen)
{
    char *end;
    errno = 0;
    double v = strtod(arg, &end);
    if (end == arg || *end || v != v)
        return p2pb_fail(P2PB_EUSAGE, err, errlen,
                         "invalid value '%s' for --%s (expected a number)", shown(arg).s, d->name);
    /* a subnormal or underflowed value (1e-308, 1e-400) is no magnitude the
     * option can mean: "too small", not "out of range (0..100)", which 0 is in */
    if ((errno == ERANGE && fabs(v) <= 1.0) || (v != 0 && !isnormal(v)))
        return p2pb_fail(P2PB_ERANGE, err, errlen,
                         "value '%s' for --%s is too small (below %g, the smallest normal "
                         "double; the range is %g..%g)",
                         shown(arg).s, d->name, DBL_MIN, d->min, d->max);
    if (errno == ERANGE || v < d->min || v > d->max)
        return p2pb_fail(P2PB_ERANGE, err, errlen, "value '%s' for --%s is out of range (%g..%g)",
                         shown(arg).s, d->name, d->min, d->max);
    *x = v;
    return P2PB_OK;
}

static enum p2pb_status convert_size(const struct p2pb_optdef *d, const char *arg, size_t *v,
                                     char *err, size_t errlen)
{
    char why[200];
    enum p2pb_status st = p2pb_parse_size(arg, v, why, sizeof why);
    if (st != P2PB_OK)
        return p2pb_fail(st, err, errlen, "--%s: %s", d->name, why);
    if (*v < (size_t)d->min)
        return p2pb_fail(P2PB_ERANGE, err, errlen, "--%s %zu: must be at least %zu byte%s", d->name,
                         *v, (size_t)d->min, d->min == 1 ? "" : "s");
    if (d->max > 0 && (double)*v > d->max)
        return p2pb_fail(P2PB_ERANGE, err, errlen, "--%s %zu: must be at most %.0f bytes", d->name,
                         *v, d->max);
    return st;
}

/* Index of arg in d->choices; fails naming the choices ("one, all"). */
static enum p2pb_status convert_enum(const struct p2pb_optdef *d, const char *arg, size_t *v,
                                     char *err, size_t errlen)
{
    char names[256] = "";
    for (size_t i = 0; d->choices[i]; i++) {
        if (strcmp(arg, d->choices[i]) == 0) {
            *v = i;
            return P2PB_OK;
        }
        size_t len = strlen(names);
        snprintf(names + len, sizeof names - len, "%s%s", i ? ", " : "", d->choices[i]);
    }
    return p2pb_fail(P2PB_EUSAGE, err, errlen, "invalid value '%s' for --%s (%s)", shown(arg).s,
                     d->name, names);
}

/* ---- Fields ---- */

static void *field_of(const struct p2pb_optparser *p, const struct p2pb_optdef *d)
{
    return d->dst > 0 && d->dst < P2PB_OPT_NBASES && p->base[d->dst]
               ? (char *)p->base[d->dst] + d->off
               : NULL;
}

/* Store v (a count, a size, an index: exact) in d's field. */
static void store_count(const struct p2pb_optparser *p, const struct p2pb_optdef *d, size_t v)
{
    void *f = field_of(p, d);
    if (!f)
        return;
    switch (d->ctype) {
    case P2PB_CT_SIZE: *(size_t *)f = v; break;
    case P2PB_CT_LONG: *(long *)f = (long)v; break;
    case P2PB_CT_INT: *(int *)f = (int)v; break;
    case P2PB_CT_DOUBLE: *(double *)f = (double)v; break;
    case P2PB_CT_STR:
    case P2PB_CT_NONE: break;
    }
}

/* Store x (a real, or a default, which may be -1) in d's field. */
static void store_number(const struct p2pb_optparser *p, const struct p2pb_optdef *d, double x)
{
    void *f = field_of(p, d);
    if (!f)
        return;
    switch (d->ctype) {
    case P2PB_CT_SIZE: *(size_t *)f = (size_t)x; break;
    case P2PB_CT_LONG: *(long *)f = (long)x; break;
    case P2PB_CT_INT: *(int *)f = (int)x; break;
    case P2PB_CT_DOUBLE: *(double *)f = x; break;
    case P2PB_CT_STR:
    case P2PB_CT_NONE: break;
    }
}

void p2pb_opt_defaults(const struct p2pb_optparser *p)
{
    for (size_t i = 0; i < p->n; i++)
        if (p->table[i].ctype != P2PB_CT_STR)
            store_number(p, &p->table[i], p->table[i].def);
}

/* Convert arg by d's kind and store it in d's field. */
static enum p2pb_status convert_and_store(struct p2pb_optparser *p, const struct p2pb_optdef *d,
                                          const char *arg)
{
    enum p2pb_status st = P2PB_OK;
    size_t v = 1;
    double x = 0;
    switch (d->kind) {
    case P2PB_OPT_FLAG: break;
    case P2PB_OPT_COUNT: st = p2pb_opt_count(d, arg, &v, p->err, p->errlen); break;
    case P2PB_OPT_SECONDS:
    case P2PB_OPT_FRACTION:
        st = p2pb_opt_real(d, arg, &x, p->err, p->errlen);
        if (st == P2PB_OK)
            store_number(p, d, x);
        return st;
    case P2PB_OPT_SIZE: st = convert_size(d, arg, &v, p->err, p->errlen); break;
    case P2PB_OPT_ENUM: st = convert_enum(d, arg, &v, p->err, p->errlen); break;
    case P2PB_OPT_SIZE_LIST: return P2PB_OK; /* every SIZE_LIST entry has an apply step */
    case P2PB_OPT_STRING:
        if (!arg[0]) /* a name, a path: never empty */
            return p2pb_fail(P2PB_EUSAGE, p->err, p->errlen, "empty value for --%s", d->name);
        if (d->check && d->check(arg))
            return p2pb_fail(P2PB_EUSAGE, p->err, p->errlen, "invalid value '%s' for --%s: %s",
                             shown(arg).s, d->name, d->check(arg));
        if (d->ctype == P2PB_CT_STR && field_of(p, d))
            *(const char **)field_of(p, d) = arg;
        return P2PB_OK;
    }
    if (st == P2PB_OK)
        store_count(p, d, v);
    return st;
}

/* ---- The parse ---- */

/* An option given a second time: refused naming it (and both values),
 * unless its entry says its values add up (d->many). One rule for every
 * option: a second value never silently replaces the first. */
static enum p2pb_status take(struct p2pb_optparser *p, size_t id, const char *arg)
{
    const struct p2pb_optdef *d = &p->table[id];
    if (p->accepts) {
        enum p2pb_status st = p->accepts(p, id);
        if (st != P2PB_OK)
            return st;
    }
    if (p->given[id] && !d->many) {
        if (!arg)
            return p2pb_fail(P2PB_EUSAGE, p->err, p->errlen, "--%s given twice: give it once",
                             d->name);
        return p2pb_fail(P2PB_EUSAGE, p->err, p->errlen,
                         "--%s given twice ('%.40s', then '%.40s'): give it once", d->name,
                         shown(p->first[id]).s, shown(arg).s);
    }
    if (!p->given[id])
        p->first[id] = arg;
    p->given[id] = 1;
    p->stopped = d->stop;
    return d->apply ? d->apply(p, arg) : convert_and_store(p, d, arg);
}

/* getopt_long's arrays from the table: longs (n + 1 entries) and the short
 * option string ("-" first when operands go to on_operand in order, then
 * ":": a missing value returns ':'). */
static void getopt_tables(const struct p2pb_optparser *p, struct option *longs, char *shorts)
{
    char *s = shorts;
    if (p->on_operand)
        *s++ = '-';
    *s++ = ':';
    for (size_t i = 0; i < p->n; i++) {
        const struct p2pb_optdef *d = &p->table[i];
        int has_arg = d->kind == P2PB_OPT_FLAG ? no_argument : required_argument;
        longs[i] =
            (struct option){d->name, has_arg, NULL, d->letter ? d->letter : LONG_ONLY + (int)i};
        if (d->letter) {
            *s++ = d->letter;
            if (has_arg == required_argument)
                *s++ = ':';
        }
    }
    *s = '\0';
    memset(&longs[p->n], 0, sizeof longs[p->n]);
}

/* Table index of getopt_long's value c; n if none. */
static size_t option_id(const struct p2pb_optparser *p, int c)
{
    if (c >= LONG_ONLY)
        return (size_t)(c - LONG_ONLY) < p->n ? (size_t)(c - LONG_ONLY) : p->n;
    for (size_t i = 0; i < p->n; i++)
        if (p->table[i].letter && p->table[i].letter == c)
            return i;
    return p->n;
}

/* Entries whose long name starts with the n bytes of name: how many, and the
 * first two names in buf ("--fail-on-regression, --fail-on-slow"). */
static size_t prefix_matches(const struct p2pb_optparser *p, const char *name, size_t n, char *buf,
                             size_t len)
{
    size_t k = 0, used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < p->n; i++)
        if (strncmp(p->table[i].name, name, n) == 0 && k++ < 2 && used < len)
            used += (size_t)snprintf(buf + used, len - used, "%s--%s", k > 1 ? ", " : "",
                                     p->table[i].name);
    return k;
}

/* A missing value (c == ':'), a value given to an option that takes none, an
 * ambiguous abbreviation, or an unknown option. */
static enum p2pb_status getopt_error(const struct p2pb_optparser *p, int c, char **argv)
{
    const char *word = argv[optind - 1], *hint = p->hint ? p->hint : "";
    if (c == ':')
        return p2pb_fail(P2PB_EUSAGE, p->err, p->errlen, "option '%s' needs a value",
                         shown(word).s);
    if (strncmp(word, "--", 2) == 0) {
        size_t n = strcspn(word + 2, "=");
        char names[96];
        if (optopt) /* getopt knew the option: it was given "=VALUE" */
            return p2pb_fail(P2PB_EUSAGE, p->err, p->errlen, "option '--%.*s' takes no value%s",
                             (int)(n < 40 ? n : 40), shown(word + 2).s, hint);
        if (prefix_matches(p, word + 2, n, names, sizeof names) > 1)
            return p2pb_fail(P2PB_EUSAGE, p->err, p->errlen, "option '%s' is ambiguous (%s%s)%s",
                             shown(word).s, names,
                             prefix_matches(p, word + 2, n, names, sizeof names) > 2 ? ", ..." : "",
                             hint);
    }
    if (optopt && optopt < LONG_ONLY)
        return p2pb_fail(P2PB_EUSAGE, p->err, p->errlen, "unknown option '-%c'%s", optopt, hint);
    return p2pb_fail(P2PB_EUSAGE, p->err, p->errlen, "unknown option '%s'%s", shown(word).s, hint);
}

enum p2pb_status p2pb_opt_parse(struct p2pb_optparser *p, int argc, char **argv)
{
    struct option longs[P2PB_OPT_MAX + 1];
    char shorts[2 * P2PB_OPT_MAX + 3];
    if (p->n > P2PB_OPT_MAX)
        return p2pb_fail(P2PB_ERANGE, p->err, p->errlen, "option table too large");
    getopt_tables(p, longs, shorts);
    optind = 0; /* reset getopt (GNU: 0 also reinitialises) */
    opterr = 0;
    enum p2pb_status st = P2PB_OK;
    int c;
    while (st == P2PB_OK && !p->stopped &&
           (c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
        size_t id = option_id(p, c);
        if (c == 1 && p->on_operand)
            st = p->on_operand(p, optarg);
        else if (c == ':' || c == '?' || id >= p->n)
            st = getopt_error(p, c, argv);
        else
            st = take(p, id, optarg);
    }
    p->next = optind;
    return st;
}

/* ---- Help ---- */

void p2pb_opt_help(const struct p2pb_optdef *d, char *buf, size_t len)
{
    const char *mark = d->def_text ? strstr(d->help, "{def}") : NULL;
    if (!mark)
        snprintf(buf, len, "%s", d->help);
    else
        snprintf(buf, len, "%.*s%s%s", (int)(mark - d->help), d->help, d->def_text,
                 mark + strlen("{def}"));
}

void p2pb_help_wrap(FILE *f, const char *text, size_t indent)
{
    size_t col = indent;
    int first = 1; /* no word yet on this line */
    for (const char *p = text;;) {
        p += strspn(p, " \n");
        size_t w = strcspn(p, " \n");
        if (!w)
            break;
        if (!first && col + 1 + w > P2PB_HELP_WIDTH) {
            fprintf(f, "\n%*s", (int)indent, "");
            col = indent;
            first = 1;
        }
        fprintf(f, "%s%.*s", first ? "" : " ", (int)w, p);
        col += w + !first;
        first = 0;
        p += w;
    }
    fputc('\n', f);
}

void p2pb_opt_print_line(FILE *f, const struct p2pb_optdef *d)
{
    char left[64], help[512];
    const char *sep = d->metavar ? " " : "", *meta = d->metavar ? d->metavar : "";
    if (d->letter)
        snprintf(left, sizeof left, "-%c, --%s%s%s", d->letter, d->name, sep, meta);
    else
        snprintf(left, sizeof left, "    --%s%s%s", d->name, sep, meta);
    p2pb_opt_help(d, help, sizeof help);
    /* as getopt_long tools print it: names from column 3, the text from column
     * P2PB_HELP_COLUMN + 1 (on a line of its own below names that reach it) */
    int wide = strlen(left) + 3 > P2PB_HELP_COLUMN;
    fprintf(f, "  %-*s%s", P2PB_HELP_COLUMN - 2, left, wide ? "\n" : "");
    if (wide)
        fprintf(f, "%*s", P2PB_HELP_COLUMN, "");
    p2pb_help_wrap(f, help, P2PB_HELP_COLUMN);
}

void p2pb_opt_print_man(FILE *f, const struct p2pb_optdef *d)
{
    char help[512];
    p2pb_opt_help(d, help, sizeof help);
    p2pb_roff_option(f, d->letter, d->name, d->metavar, help);
}

const char *p2pb_opt_names(const struct p2pb_optdef *d, char *buf, size_t len)
{
    if (d->letter)
        snprintf(buf, len, "-%c/--%s", d->letter, d->name);
    else
        snprintf(buf, len, "--%s", d->name);
    return buf;
}
