/* SPDX-License-Identifier: MIT */
/*
 * The one map from benchmark names in logs to kernels (import.h, struct
 * p2pb_imp_kind). Entries marked native name a p2pbench kernel and agree
 * with its descriptor in kernels/ (tests/report/test_import_kinds.c); the
 * report program cannot link those descriptors (they need MPI), hence this
 * table. A new IMB benchmark or OSU program is one line here.
 */
#include <string.h>
#include <strings.h>

#include "import.h"

/* clang-format off */
const struct p2pb_imp_kind p2pb_imp_imb_kinds[] = {
    /* match     kernel      display     bytes/X native rate */
    {"PingPong", "pingpong", "PingPong", 1, 1, 0},
    {"PingPing", "pingping", "PingPing", 1, 1, 0},
    {"Sendrecv", "sendrecv", "Sendrecv", 2, 1, 0},
    {"Exchange", "exchange", "Exchange", 4, 1, 0},
};
/* clang-format on */
const size_t p2pb_imp_n_imb_kinds = sizeof p2pb_imp_imb_kinds / sizeof p2pb_imp_imb_kinds[0];

/* "Bi-Directional Bandwidth" before "Bandwidth": the first title found wins. */
/* clang-format off */
const struct p2pb_imp_kind p2pb_imp_osu_kinds[] = {
    /* title                      kernel        display            bytes/X native rate */
    {"Bi-Directional Bandwidth", "osu_bibw",    "OSU BiBandwidth", 1, 0, 1},
    {"Bandwidth",                "osu_bw",      "OSU Bandwidth",   1, 0, 1},
    {"Latency",                  "osu_latency", "OSU Latency",     1, 0, 0},
};
/* clang-format on */
const size_t p2pb_imp_n_osu_kinds = sizeof p2pb_imp_osu_kinds / sizeof p2pb_imp_osu_kinds[0];

/* Seed memcpy tables: a fixed buffer per loop, so bytes_factor is not used
 * (columns.c computes the rate from the buffer). */
const struct p2pb_imp_kind p2pb_imp_seed_memcpy = {"memcpy", "memcpy", "memcpy", 1, 1, 0};

const struct p2pb_imp_kind *p2pb_imp_imb_kind(const char *name)
{
    const char *n = name;
    if (strncasecmp(n, "Multi-", 6) == 0)
        n += 6;
    for (size_t i = 0; i < p2pb_imp_n_imb_kinds; i++)
        if (strcasecmp(n, p2pb_imp_imb_kinds[i].match) == 0)
            return &p2pb_imp_imb_kinds[i];
    return NULL;
}

const struct p2pb_imp_kind *p2pb_imp_imb_kind_in_line(const char *s)
{
    for (size_t i = 0; i < p2pb_imp_n_imb_kinds; i++)
        if (p2pb_imp_ci_contains(s, p2pb_imp_imb_kinds[i].match))
            return &p2pb_imp_imb_kinds[i];
    return NULL;
}

double p2pb_imp_imb_bytes_factor(const char *kernel)
{
    double bf = 1.0;
    for (size_t i = 0; i < p2pb_imp_n_imb_kinds; i++)
        if (strcmp(p2pb_imp_imb_kinds[i].kernel, kernel) == 0)
            bf = p2pb_imp_imb_kinds[i].bytes_factor;
    return bf;
}

const struct p2pb_imp_kind *p2pb_imp_osu_kind_in_title(const char *s)
{
    for (size_t i = 0; i < p2pb_imp_n_osu_kinds; i++)
        if (strstr(s, p2pb_imp_osu_kinds[i].match))
            return &p2pb_imp_osu_kinds[i];
    return NULL;
}

const struct p2pb_imp_kind *p2pb_imp_osu_kind(const char *kernel)
{
    const struct p2pb_imp_kind *k = NULL;
    for (size_t i = 0; i < p2pb_imp_n_osu_kinds; i++)
        if (strcmp(p2pb_imp_osu_kinds[i].kernel, kernel) == 0)
            k = &p2pb_imp_osu_kinds[i];
    return k;
}
