/* SPDX-License-Identifier: MIT */
/*
 * Text as benchmark logs write it: whitespace, tokens, plain decimal numbers
 * and message sizes (src/report/import/import.h).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "import.h"

int p2pb_imp_ci_contains(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++)
        if (strncasecmp(hay, needle, n) == 0)
            return 1;
    return 0;
}

const char *p2pb_imp_skip_ws(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

/* Split s (copied into buf) into at most max whitespace-separated tokens. */
size_t p2pb_imp_tokenize(const char *s, char *buf, size_t buflen, char **tok, size_t max)
{
    snprintf(buf, buflen, "%s", s);
    size_t n = 0;
    char *save = NULL;
    for (char *p = strtok_r(buf, " \t\r", &save); p && n < max; p = strtok_r(NULL, " \t\r", &save))
        tok[n++] = p;
    return n;
}

/* A finite decimal number occupying the whole token. */
int p2pb_imp_parse_num(const char *s, double *v)
{
    char *end;
    errno = 0;
    double x = strtod(s, &end);
    if (end == s || *end || errno || !isfinite(x))
        return 0;
    /* strtod accepts hex and "inf"; data are plain decimals */
    for (const char *p = s; *p; p++)
        if (!(isdigit((unsigned char)*p) || *p == '.' || *p == '-' || *p == '+' || *p == 'e' ||
              *p == 'E'))
            return 0;
    *v = x;
    return 1;
}

/* Message size: digits with an optional K, M or G suffix (powers of 1024). */
int p2pb_imp_parse_size(const char *s, size_t *out)
{
    char *end;
    if (!isdigit((unsigned char)s[0]))
        return 0;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno)
        return 0;
    unsigned long long mul = 1;
    if (*end == 'K' || *end == 'k')
        mul = 1024ULL, end++;
    else if (*end == 'M' || *end == 'm')
        mul = 1024ULL * 1024, end++;
    else if (*end == 'G' || *end == 'g')
        mul = 1024ULL * 1024 * 1024, end++;
    if ((*end == 'B' || *end == 'b') && mul > 1)
        end++;
    if (*end || v > (unsigned long long)(SIZE_MAX / mul) || v > (1ULL << 50))
        return 0;
    *out = (size_t)(v * mul);
    return 1;
}

size_t p2pb_imp_rtrim(char *s)
{
    size_t l = strlen(s);
    while (l && isspace((unsigned char)s[l - 1]))
        s[--l] = '\0';
    return l;
}
