/* SPDX-License-Identifier: MIT */
/*
 * kernel_facts.h - what the writers, the importer and the report program
 * need to know of a kernel, by its name, without its descriptor: the
 * descriptors (benchmarks/, include/p2pbench/kernel.h) call MPI, and
 * p2pbench-report links no MPI. One MPI-free table, one row per kernel;
 * tests/report/test_kernel_facts.c holds every row against the descriptor
 * of the same name (and every descriptor has a row). Outside this table and
 * the kernels' folder, no code compares a kernel's name.
 */
#ifndef P2PB_KERNEL_FACTS_H
#define P2PB_KERNEL_FACTS_H

#include <stddef.h>

/* flags of struct p2pb_kernel_facts */
#define P2PB_FACT_WINDOW 0x1u      /* bytes rule count x W x X: a window of W messages */
#define P2PB_FACT_FIXED_BYTES 0x2u /* bytes rule count x copy buffer (memcpy) */
#define P2PB_FACT_PER_GROUP 0x4u   /* rows per group (pair or rank) and an aggregate */
#define P2PB_FACT_SELF 0x8u        /* every rank works alone: groups of one rank */
#define P2PB_FACT_DIRECTIONS 0x10u /* run once per direction: rows "0->1", "1->0" */
#define P2PB_FACT_DEFAULT 0x20u    /* in the run without kernels named */

/*
 * One kernel's facts. The first five mirror its descriptor (struct
 * p2pb_kernel): name, display_name, time_scale, bytes.count and max_ranks,
 * and flags its bytes unit, P2PB_KF_PER_GROUP, P2PB_PART_SELF,
 * P2PB_KF_DIRECTIONS and the default kernel list (benchmarks/registry.c).
 */
struct p2pb_kernel_facts {
    const char *name;    /* --list name, "pingpong" */
    const char *display; /* table label, "PingPong" */
    double time_scale;   /* reported t = time per iteration x this (PingPong 0.5) */
    double bytes_count;  /* bytes per iteration = bytes_count x X (x W, or x the
                          * copy buffer, with the flags); MB/s = bytes / t */
    int max_ranks;       /* most ranks that take part, 0 = any */
    unsigned flags;      /* P2PB_FACT_* */
    /* -f osu: the OSU program whose output the kernel's table takes
     * ("osu_latency"), osu_rate 1 when its column is MB/s (0: latency in
     * usec), osu_own 1 when OSU has no program measuring this kernel (the
     * layout is borrowed; output/osu.c says so in the header). NULL program:
     * none (the kernel prints as a time in osu_latency's columns). */
    const char *osu_program;
    int osu_rate;
    int osu_own;
    /* -f imb: the IMB-EXT benchmark whose table a one-sided kernel takes
     * ("Unidir_Put"; AGGREGATE mode for a window kernel, else NON-AGGREGATE;
     * bytes_count origins share an iteration's bytes); NULL: none */
    const char *imb_ext;
};

/* The facts of kernel `name`, or NULL when no kernel has that name (an
 * imported benchmark: "osu_latency", a kernel of a later version). */
const struct p2pb_kernel_facts *p2pb_kernel_facts(const char *name);

/* 1 when kernel `name` has every flag of `flags`; 0 when not, or unknown. */
int p2pb_kernel_has(const char *name, unsigned flags);

/* The reported t per measured time of kernel `name` (its time_scale); 1.0
 * for a name without facts. */
double p2pb_kernel_time_scale(const char *name);

/* The table, *n rows (for the test that holds it against the descriptors). */
const struct p2pb_kernel_facts *p2pb_kernel_facts_table(size_t *n);

#endif
