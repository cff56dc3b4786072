/* SPDX-License-Identifier: MIT */
/*
 * The one map from benchmark names in logs to kernels (import.h, struct
 * p2pb_imp_kind). Entries marked native name a p2pbench kernel and agree
 * with its descriptor in benchmarks/ (tests/report/test_import_kinds.c); the
 * report program cannot link those descriptors (they need MPI), hence this
 * table. A new IMB benchmark or OSU program is one line here.
 */
#include <string.h>
#include <strings.h>

#include "import.h"

/* clang-format off */
const struct p2pb_imp_kind p2pb_imp_imb_kinds[] = {
    /* match     kernel      display     bytes/X native rate traits */
    {"PingPong", "pingpong", "PingPong", 1, 1, 0, P2PB_IMP_TWO_RANKS},
    {"PingPing", "pingping", "PingPing", 1, 1, 0, P2PB_IMP_TWO_RANKS},
    {"Sendrecv", "sendrecv", "Sendrecv", 2, 1, 0, P2PB_IMP_SEED_PMB},
    {"Exchange", "exchange", "Exchange", 4, 1, 0, 0},
    /* window of W messages: IMB logs no W, so t = 1/(Msg/sec) and 1 x X */
    {"Uniband",  "uniband",  "Uniband",  1, 1, 0, 0},
    {"Biband",   "biband",   "Biband",   1, 1, 0, 0},
};
/* clang-format on */
const size_t p2pb_imp_n_imb_kinds = sizeof p2pb_imp_imb_kinds / sizeof p2pb_imp_imb_kinds[0];

/* clang-format off */
const struct p2pb_imp_kind p2pb_imp_own_kinds[] = {
    {"Multi-PingPong", "multi-pingpong", "Multi-PingPong", 1, 1, 0, 0},
    {"Multi-Uniband",  "multi-uniband",  "Multi-Uniband",  1, 1, 0, 0},
    {"Memcpy",         "memcpy",         "Memcpy",         1, 1, 0, 0},
    /* memcpy on every rank at once: a -multi table of groups of one rank */
    {"Multi-Memcpy",   "memcpy",         "Memcpy",         1, 1, 0, 0},
    {"TCP-PingPong",   "tcp-pingpong",   "TCP-PingPong",   1, 1, 0, 0},
    {"TCP-Uniband",    "tcp-uniband",    "TCP-Uniband",    1, 1, 0, 0},
};
/* clang-format on */
const size_t p2pb_imp_n_own_kinds = sizeof p2pb_imp_own_kinds / sizeof p2pb_imp_own_kinds[0];

/*
 * OSU point-to-point programs imported, by the words of their title between
 * "OSU MPI" (or "OSU MPI-CUDA", "-ROCM", ...) and "Test", compared whole and
 * ignoring case: "Latency" is osu_latency, never "Broadcast Latency". The
 * bytes per exchange count both directions for bi-directional bandwidth;
 * osu_mbw_mr multiplies by the pairs the log announces (osu.c).
 */
/* clang-format off */
const struct p2pb_imp_kind p2pb_imp_osu_kinds[] = {
    /* title words                          kernel                     display            bytes/X native rate */
    {"Latency",                             "osu_latency",             "OSU Latency",      1, 0, 0, 0},
    {"Bandwidth",                           "osu_bw",                  "OSU Bandwidth",    1, 0, 1, 0},
    {"Bi-Directional Bandwidth",            "osu_bibw",                "OSU BiBandwidth",  2, 0, 1, 0},
    {"Multiple Bandwidth / Message Rate",   "osu_mbw_mr",              "OSU Multi BW/MR",  1, 0, 1, 0},
    {"Multi Latency",                       "osu_multi_lat",           "OSU Multi Latency",1, 0, 0, 0},
    {"Multi-threaded Latency",              "osu_latency_mt",          "OSU Latency MT",   1, 0, 0, 0},
    {"Multi-threaded Bandwidth",            "osu_bw_mt",               "OSU Bandwidth MT", 1, 0, 1, 0},
    {"Multi-process Latency",               "osu_latency_mp",          "OSU Latency MP",   1, 0, 0, 0},
    {"Persistent Latency",                  "osu_latency_persistent",  "OSU Pers Latency", 1, 0, 0, 0},
    {"Persistent Bandwidth",                "osu_bw_persistent",       "OSU Pers BW",      1, 0, 1, 0},
    {"Persistent Bi-Directional Bandwidth", "osu_bibw_persistent",     "OSU Pers BiBW",    2, 0, 1, 0},
    {"Partitioned Latency",                 "osu_partitioned_latency", "OSU Part Latency", 1, 0, 0, 0},
    {"Partitioned Bandwidth",               "osu_partitioned_bw",      "OSU Part BW",      1, 0, 1, 0},
    {"Partitioned Bi-Directional Bandwidth","osu_partitioned_bibw",    "OSU Part BiBW",    2, 0, 1, 0},
};
/* clang-format on */
const size_t p2pb_imp_n_osu_kinds = sizeof p2pb_imp_osu_kinds / sizeof p2pb_imp_osu_kinds[0];

/* Seed memcpy tables: a fixed buffer per loop, so bytes_factor is not used
 * (columns.c computes the rate from the buffer). */
const struct p2pb_imp_kind p2pb_imp_seed_memcpy = {"memcpy", "memcpy", "Memcpy", 1, 1, 0, 0};

const struct p2pb_imp_kind *p2pb_imp_imb_kind(const char *name, int own)
{
    for (size_t i = 0; own && i < p2pb_imp_n_own_kinds; i++)
        if (strcasecmp(name, p2pb_imp_own_kinds[i].match) == 0)
            return &p2pb_imp_own_kinds[i];
    if (own && p2pb_imp_rma_native(name, 1)) /* "Put-Latency": its display name */
        return p2pb_imp_rma_native(name, 1);
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

const struct p2pb_imp_kind *p2pb_imp_osu_kind_named(const char *words)
{
    for (size_t i = 0; i < p2pb_imp_n_osu_kinds; i++)
        if (strcasecmp(words, p2pb_imp_osu_kinds[i].match) == 0)
            return &p2pb_imp_osu_kinds[i];
    return NULL;
}

const struct p2pb_imp_kind *p2pb_imp_native_kind(const char *kernel)
{
    for (size_t i = 0; i < p2pb_imp_n_imb_kinds; i++)
        if (strcmp(p2pb_imp_imb_kinds[i].kernel, kernel) == 0)
            return &p2pb_imp_imb_kinds[i];
    for (size_t i = 0; i < p2pb_imp_n_own_kinds; i++)
        if (strcmp(p2pb_imp_own_kinds[i].kernel, kernel) == 0)
            return &p2pb_imp_own_kinds[i];
    return p2pb_imp_rma_native(kernel, 0);
}
