/* SPDX-License-Identifier: MIT */
#include "sizes.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "text.h"

enum p2pb_status p2pb_parse_size(const char *text, size_t *out, char *err, size_t errlen)
{
    if (!text || !*text || !isdigit((unsigned char)text[0]))
        return p2pb_fail(P2PB_EUSAGE, err, errlen,
                         "invalid message size '%s' (expected e.g. 0, 8, 1K, 4M)",
                         text ? text : "");
    errno = 0;
    char *end;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno == ERANGE)
        return p2pb_fail(P2PB_ERANGE, err, errlen, "message size '%s' is too large", text);
    unsigned shift = 0;
    if (*end) {
        switch (toupper((unsigned char)*end)) {
        case 'B': shift = 0; break;
        case 'K': shift = 10; break;
        case 'M': shift = 20; break;
        case 'G': shift = 30; break;
        case 'T': shift = 40; break;
        default:
            return p2pb_fail(P2PB_EUSAGE, err, errlen,
                             "invalid message size '%s' (suffixes: B=1, K=2^10, M=2^20, G=2^30, "
                             "T=2^40 bytes)",
                             text);
        }
        const char *rest = end + 1;
        if (*end == 'b' && *rest == '\0') /* "8b": bytes or bits? as "1Kb" */
            return p2pb_fail(P2PB_EUSAGE, err, errlen,
                             "ambiguous message size '%s': write %.*s or %.*sB (bytes); "
                             "a small b is a bit",
                             text, (int)(end - text), text, (int)(end - text), text);
        if (shift && strcasecmp(rest, "B") == 0) /* "1MB", "1Kb": 10^6 bytes? bits? */
            return p2pb_fail(P2PB_EUSAGE, err, errlen,
                             "ambiguous message size '%s': write %.*s%c (2^%u bytes) or %.*s%ciB; "
                             "this tool's MB is 10^6 bytes, a small b a bit",
                             text, (int)(end - text), text, toupper((unsigned char)*end), shift,
                             (int)(end - text), text, toupper((unsigned char)*end));
        if (shift && (strcasecmp(rest, "iB") == 0 || *rest == '\0'))
            ;
        else if (!shift && *rest == '\0')
            ;
        else
            return p2pb_fail(P2PB_EUSAGE, err, errlen,
                             "invalid message size '%s' (suffixes: B=1, K=2^10, M=2^20, G=2^30, "
                             "T=2^40 bytes)",
                             text);
    }
    if (shift && v > (SIZE_MAX >> shift))
        return p2pb_fail(P2PB_ERANGE, err, errlen, "message size '%s' is too large", text);
    if ((unsigned long long)(size_t)v != v)
        return p2pb_fail(P2PB_ERANGE, err, errlen, "message size '%s' is too large", text);
    *out = (size_t)v << shift;
    return P2PB_OK;
}

static enum p2pb_status push_size(size_t v, size_t *sizes, size_t cap, size_t *n, char *err,
                                  size_t errlen)
{
    for (size_t i = 0; i < *n; i++)
        if (sizes[i] == v)
            return P2PB_OK;
    if (*n >= cap)
        return p2pb_fail(P2PB_ERANGE, err, errlen, "too many message sizes (at most %zu)", cap);
    sizes[(*n)++] = v;
    return P2PB_OK;
}

static enum p2pb_status parse_range(char *elem, size_t *sizes, size_t cap, size_t *n, char *err,
                                    size_t errlen)
{
    char *dots = strstr(elem, "..");
    *dots = '\0';
    char *hi_txt = dots + 2;
    char *step_txt = NULL;
    int geometric = 1;
    char *op = strpbrk(hi_txt, "*+");
    if (op) {
        geometric = (*op == '*');
        *op = '\0';
        step_txt = op + 1;
    }
    size_t lo, hi, step = 2;
    enum p2pb_status st;
    char sub[256];
    if ((st = p2pb_parse_size(elem, &lo, sub, sizeof sub)) != P2PB_OK ||
        (st = p2pb_parse_size(hi_txt, &hi, sub, sizeof sub)) != P2PB_OK)
        return p2pb_fail(st, err, errlen, "invalid size range '%s..%s': %s", elem, hi_txt, sub);
    if (step_txt && (st = p2pb_parse_size(step_txt, &step, sub, sizeof sub)) != P2PB_OK)
        return p2pb_fail(st, err, errlen, "invalid step '%s' in size range: %s", step_txt, sub);
    if (lo > hi)
        return p2pb_fail(P2PB_EUSAGE, err, errlen, "invalid size range '%s..%s': start above end",
                         elem, hi_txt);
    if (geometric && step < 2)
        return p2pb_fail(P2PB_EUSAGE, err, errlen,
                         "invalid step factor '%s' (need an integer >= 2)",
                         step_txt ? step_txt : "");
    if (!geometric && step < 1)
        return p2pb_fail(P2PB_EUSAGE, err, errlen, "invalid step '%s' (need an integer >= 1)",
                         step_txt);
    if (geometric && lo == 0) {
        if ((st = push_size(0, sizes, cap, n, err, errlen)) != P2PB_OK)
            return st;
        lo = 1;
        if (lo > hi)
            return P2PB_OK;
    }
    size_t v = lo;
    for (;;) {
        if ((st = push_size(v, sizes, cap, n, err, errlen)) != P2PB_OK)
            return st;
        size_t next;
        if (geometric) {
            if (v > hi / step)
                break;
            next = v * step;
        } else {
            if (v > hi - step)
                break;
            next = v + step;
        }
        if (next > hi)
            break;
        v = next;
    }
    return P2PB_OK;
}

enum p2pb_status p2pb_parse_size_list(const char *spec, size_t *sizes, size_t cap, size_t *n,
                                      char *err, size_t errlen)
{
    *n = 0;
    if (!spec || !*spec)
        return p2pb_fail(P2PB_EUSAGE, err, errlen, "empty message size list");
    char *copy = strdup(spec);
    if (!copy)
        return p2pb_fail(P2PB_ENOMEM, err, errlen, "out of memory");
    enum p2pb_status st = P2PB_OK;
    char *save = NULL;
    int elems = 0;
    for (char *e = strtok_r(copy, ",", &save); e; e = strtok_r(NULL, ",", &save)) {
        elems++;
        if (strstr(e, ".."))
            st = parse_range(e, sizes, cap, n, err, errlen);
        else {
            size_t v;
            st = p2pb_parse_size(e, &v, err, errlen);
            if (st == P2PB_OK)
                st = push_size(v, sizes, cap, n, err, errlen);
        }
        if (st != P2PB_OK)
            break;
    }
    if (st == P2PB_OK && (elems == 0 || p2pb_text_list_has_empty(spec)))
        st = p2pb_fail(P2PB_EUSAGE, err, errlen, "invalid message size list '%s' (empty element)",
                       spec);
    free(copy);
    return st;
}

enum p2pb_status p2pb_parse_msglog(const char *spec, size_t *sizes, size_t cap, size_t *n,
                                   char *err, size_t errlen)
{
    long a = 0, b;
    char *end;
    *n = 0;
    const char *colon = strchr(spec, ':');
    errno = 0;
    if (colon) {
        a = strtol(spec, &end, 10);
        if (end != colon || colon == spec)
            return p2pb_fail(P2PB_EUSAGE, err, errlen,
                             "invalid --msglog '%s' (expected A:B, e.g. 0:22)", spec);
        b = strtol(colon + 1, &end, 10);
        if (*end || end == colon + 1)
            return p2pb_fail(P2PB_EUSAGE, err, errlen,
                             "invalid --msglog '%s' (expected A:B, e.g. 0:22)", spec);
    } else {
        b = strtol(spec, &end, 10);
        if (*end || end == spec)
            return p2pb_fail(P2PB_EUSAGE, err, errlen,
                             "invalid --msglog '%s' (expected A:B, e.g. 0:22)", spec);
    }
    if (errno || a < 0 || b < a || b > 62)
        return p2pb_fail(P2PB_ERANGE, err, errlen, "invalid --msglog '%s' (need 0 <= A <= B <= 62)",
                         spec);
    enum p2pb_status st = push_size(0, sizes, cap, n, err, errlen);
    for (long e = a; st == P2PB_OK && e <= b; e++)
        st = push_size((size_t)1 << e, sizes, cap, n, err, errlen);
    return st;
}

enum p2pb_status p2pb_parse_size_pair(const char *spec, size_t *lat, size_t *bw, char *err,
                                      size_t errlen)
{
    size_t v[2];
    const char *comma = strchr(spec, ',');
    char first[64];
    if (!comma || (size_t)(comma - spec) >= sizeof first || strchr(comma + 1, ','))
        return p2pb_fail(P2PB_EUSAGE, err, errlen,
                         "invalid survey sizes '%s' (expected LAT,BW, e.g. 8,1M)", spec);
    snprintf(first, sizeof first, "%.*s", (int)(comma - spec), spec);
    enum p2pb_status st = p2pb_parse_size(first, &v[0], err, errlen);
    if (st == P2PB_OK)
        st = p2pb_parse_size(comma + 1, &v[1], err, errlen);
    if (st == P2PB_OK && (v[1] == 0 || v[1] > (size_t)INT_MAX))
        return p2pb_fail(P2PB_ERANGE, err, errlen,
                         "survey bandwidth size '%s' out of range (1 .. 2^31-1 bytes)", comma + 1);
    if (st == P2PB_OK && v[0] > (size_t)INT_MAX)
        return p2pb_fail(P2PB_ERANGE, err, errlen,
                         "survey latency size '%s' out of range (0 .. 2^31-1 bytes)", first);
    if (st == P2PB_OK) {
        *lat = v[0];
        *bw = v[1];
    }
    return st;
}
