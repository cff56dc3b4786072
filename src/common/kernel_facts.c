/* SPDX-License-Identifier: MIT */
/*
 * kernel_facts.c - the one MPI-free table of kernel facts (kernel_facts.h).
 * A new kernel is one row here beside its file in benchmarks/; the test
 * tests/report/test_kernel_facts.c fails until the row agrees with the
 * descriptor.
 */
#include <string.h>

#include "kernel_facts.h"

#define W P2PB_FACT_WINDOW
#define FIXED P2PB_FACT_FIXED_BYTES
#define GROUP P2PB_FACT_PER_GROUP
#define SELF P2PB_FACT_SELF
#define DIRS P2PB_FACT_DIRECTIONS
#define DEF P2PB_FACT_DEFAULT

/* clang-format off */
static const struct p2pb_kernel_facts facts[] = {
    /* name                   display                 t    bytes ranks flags        OSU program        rate own IMB-EXT */
    {"pingpong",             "PingPong",             0.5, 1, 2, DEF,          "osu_latency",     0, 0, NULL},
    {"pingping",             "PingPing",             1.0, 1, 2, DEF,          NULL,              0, 0, NULL},
    {"sendrecv",             "Sendrecv",             1.0, 2, 0, DEF,          NULL,              0, 0, NULL},
    {"exchange",             "Exchange",             1.0, 4, 0, DEF,          NULL,              0, 0, NULL},
    {"uniband",              "Uniband",              1.0, 1, 2, W | DIRS,     "osu_bw",          1, 0, NULL},
    {"oneway",               "One-way",              1.0, 1, 2, DIRS,         NULL,              0, 0, NULL},
    {"biband",               "Biband",               1.0, 2, 2, W,            "osu_bibw",        1, 0, NULL},
    {"multi-pingpong",       "Multi-PingPong",       0.5, 1, 0, GROUP,        "osu_multi_lat",   0, 0, NULL},
    {"multi-uniband",        "Multi-Uniband",        1.0, 1, 0, W | GROUP | DIRS, "osu_mbw_mr",      1, 0, NULL},
    {"memcpy",               "Memcpy",               1.0, 1, 0, FIXED | GROUP | SELF, "osu_bw",  1, 1, NULL},
    {"tcp-pingpong",         "TCP-PingPong",         0.5, 1, 2, 0,            NULL,              0, 0, NULL},
    {"tcp-uniband",          "TCP-Uniband",          1.0, 1, 2, W | DIRS,     "osu_bw",          1, 1, NULL},
    {"noise",                "Noise",                1.0, 0, 0, GROUP | SELF, NULL,              0, 0, NULL},
    {"msgrate",              "Msgrate",              1.0, 2, 0, W | GROUP,    NULL,              0, 0, NULL},
    {"put_latency",          "Put-Latency",          1.0, 1, 2, 0,            "osu_put_latency", 0, 0, "Unidir_Put"},
    {"get_latency",          "Get-Latency",          1.0, 1, 2, 0,            "osu_get_latency", 0, 0, "Unidir_Get"},
    {"put_bw",               "Put-BW",               1.0, 1, 2, W,            "osu_put_bw",      1, 0, "Unidir_Put"},
    {"get_bw",               "Get-BW",               1.0, 1, 2, W,            "osu_get_bw",      1, 0, "Unidir_Get"},
    {"put_bibw",             "Put-BiBW",             1.0, 2, 2, W,            "osu_put_bibw",    1, 0, "Bidir_Put"},
    /* OSU has no osu_get_bibw */
    {"get_bibw",             "Get-BiBW",             1.0, 2, 2, W,            "osu_bibw",        1, 1, "Bidir_Get"},
    {"overlap",              "Overlap",              1.0, 2, 2, 0,            NULL,              0, 0, NULL},
    {"persistent-pingpong",  "Persistent-PingPong",  0.5, 1, 2, 0,            NULL,              0, 0, NULL},
    {"partitioned-pingpong", "Partitioned-PingPong", 0.5, 1, 2, 0,            NULL,              0, 0, NULL},
};
/* clang-format on */

const struct p2pb_kernel_facts *p2pb_kernel_facts(const char *name)
{
    for (size_t i = 0; name && i < sizeof facts / sizeof facts[0]; i++)
        if (strcmp(facts[i].name, name) == 0)
            return &facts[i];
    return NULL;
}

int p2pb_kernel_has(const char *name, unsigned flags)
{
    const struct p2pb_kernel_facts *f = p2pb_kernel_facts(name);
    return f && (f->flags & flags) == flags;
}

double p2pb_kernel_time_scale(const char *name)
{
    const struct p2pb_kernel_facts *f = p2pb_kernel_facts(name);
    return f ? f->time_scale : 1.0;
}

const struct p2pb_kernel_facts *p2pb_kernel_facts_table(size_t *n)
{
    *n = sizeof facts / sizeof facts[0];
    return facts;
}
