/* SPDX-License-Identifier: MIT */
/*
 * bound.c - rates on the command line and the judgement of a row against
 * its bound (bound.h).
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bound.h"

/* Units of p2pb_parse_rate and their MB/s per unit. */
static const struct {
    const char *name;
    double mbps;
} rate_units[] = {
    {"kbit", 1e3 / 8e6},  {"mbit", 1e6 / 8e6}, {"gbit", 1e9 / 8e6},
    {"tbit", 1e12 / 8e6}, {"MB/s", 1.0},       {"GB/s", 1e3},
};

/* The rates a path can have, MB/s: 1 kbit/s .. 10 Tbit/s. */
static const double RATE_MIN = 1e3 / 8e6, RATE_MAX = 1e13 / 8e6;

/* Length of the decimal number at s: digits with at most one '.', and a
 * digit among them (no sign, exponent, hex, inf or nan); 0 if none. */
static size_t decimal_len(const char *s)
{
    size_t n = strspn(s, "0123456789"), frac = 0;
    if (s[n] == '.')
        frac = strspn(s + n + 1, "0123456789") + 1;
    return n + frac > (frac ? 1u : 0u) ? n + frac : 0;
}

enum p2pb_status p2pb_parse_rate(const char *text, double *mbps, char *err, size_t errlen)
{
    size_t n = text ? decimal_len(text) : 0;
    const char *unit = text ? text + n : "";
    for (size_t i = 0; n && i < sizeof rate_units / sizeof rate_units[0]; i++) {
        if (strcasecmp(unit, rate_units[i].name) != 0)
            continue;
        double v = strtod(text, NULL) * rate_units[i].mbps;
        if (!(v >= RATE_MIN) || !(v <= RATE_MAX))
            return p2pb_fail(P2PB_EUSAGE, err, errlen,
                             "invalid rate '%.40s': %s (a path's rate is 1 kbit/s .. 10 Tbit/s)",
                             text, v < RATE_MIN ? "too small" : "too large");
        *mbps = v;
        return P2PB_OK;
    }
    return p2pb_fail(P2PB_EUSAGE, err, errlen,
                     "invalid rate '%.40s' (a positive decimal number and a unit: kbit, mbit, "
                     "gbit, tbit, MB/s or GB/s, e.g. 100mbit)",
                     text ? text : "");
}

double p2pb_ib_rate_mbps(const char *text)
{
    char *end = NULL;
    double v = text && isdigit((unsigned char)text[0]) ? strtod(text, &end) : NAN;
    if (!end || !isfinite(v) || !(v > 0) || v > 1e5)
        return 0;
    while (*end == ' ')
        end++;
    return strncmp(end, "Gb/sec", 6) == 0 ? v * 1e9 / 8e6 : 0;
}

static const char *const source_names[] = {"", "copy", "link", "given"};

const char *p2pb_bound_source_str(int source)
{
    return source > 0 && source < 4 ? source_names[source] : "";
}

int p2pb_bound_source_parse(const char *s)
{
    for (int i = 1; i < 4; i++)
        if (s && strcmp(s, source_names[i]) == 0)
            return i;
    return -1;
}

void p2pb_bound_judge(struct p2pb_bound *b, double bound_mbps, int source, double mbytes_per_sec)
{
    memset(b, 0, sizeof *b);
    if (!(bound_mbps > 0) || !isfinite(bound_mbps))
        return;
    b->valid = 1;
    b->mbps = bound_mbps;
    b->source = source;
    b->percent = 100.0 * mbytes_per_sec / bound_mbps;
    b->exceeds = mbytes_per_sec > P2PB_BOUND_TOLERANCE * bound_mbps;
}
