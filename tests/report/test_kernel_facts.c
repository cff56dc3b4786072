/* SPDX-License-Identifier: MIT */
/*
 * The MPI-free table of kernel facts (src/common/kernel_facts.c) against
 * p2pbench's kernel descriptors (benchmarks/registry.c): every descriptor has a
 * row, every row a descriptor, and name, display name, time scale, bytes
 * rule, rank count and the flags agree. The OSU program names are those
 * output/osu.c prints and the importer reads (their own test: the OSU
 * round trip). The descriptors are plain data: no MPI call is made.
 */
#include <stdio.h>
#include <string.h>

#include "../lib/check.h"
#include "kernel_facts.h"
#include "p2pbench/kernel.h"

/* CHECK(ok), naming the kernel and the fact on failure. */
static void agree(int ok, const char *kernel, const char *what)
{
    if (!ok)
        fprintf(stderr, "test_kernel_facts: %s: %s differs from its descriptor\n", kernel, what);
    CHECK(ok);
}

static unsigned descriptor_flags(const struct p2pb_kernel *k)
{
    unsigned f = 0;
    f |= k->bytes.unit == P2PB_BYTES_WINDOW_X ? P2PB_FACT_WINDOW : 0;
    f |= k->bytes.unit == P2PB_BYTES_COPY_BUFFER ? P2PB_FACT_FIXED_BYTES : 0;
    f |= k->flags & P2PB_KF_PER_GROUP ? P2PB_FACT_PER_GROUP : 0;
    f |= k->participation == P2PB_PART_SELF ? P2PB_FACT_SELF : 0;
    f |= k->flags & P2PB_KF_DIRECTIONS ? P2PB_FACT_DIRECTIONS : 0;
    f |= p2pb_kernel_is_default(k) ? P2PB_FACT_DEFAULT : 0;
    return f;
}

static void against_descriptors(void)
{
    for (size_t i = 0; i < p2pb_nkernels; i++) {
        const struct p2pb_kernel *k = p2pb_kernels[i];
        const struct p2pb_kernel_facts *f = p2pb_kernel_facts(k->name);
        agree(f != NULL, k->name, "a row of facts");
        if (!f)
            continue;
        agree(strcmp(f->display, k->display_name) == 0, k->name, "display name");
        agree(f->time_scale == k->time_scale, k->name, "time_scale");
        agree(f->bytes_count == k->bytes.count, k->name, "bytes rule count");
        agree(f->max_ranks == k->max_ranks, k->name, "max_ranks");
        agree(f->flags == descriptor_flags(k), k->name, "flags");
        agree(!f->osu_own || f->osu_program, k->name, "osu_own without a program");
        agree((f->imb_ext != NULL) == ((k->flags & P2PB_KF_RMA) != 0), k->name,
              "an IMB-EXT name exactly for the one-sided kernels");
    }
    size_t n;
    const struct p2pb_kernel_facts *t = p2pb_kernel_facts_table(&n);
    CHECK(n == p2pb_nkernels);
    for (size_t i = 0; i < n; i++) {
        const struct p2pb_kernel *k = p2pb_kernel_find(t[i].name);
        agree(k && strcmp(k->name, t[i].name) == 0, t[i].name, "a descriptor");
    }
}

static void lookups(void)
{
    CHECK(p2pb_kernel_facts("osu_latency") == NULL);
    CHECK(p2pb_kernel_facts(NULL) == NULL);
    CHECK(p2pb_kernel_time_scale("pingpong") == 0.5);
    CHECK(p2pb_kernel_time_scale("osu_latency") == 1.0);
    CHECK(p2pb_kernel_has("biband", P2PB_FACT_WINDOW));
    CHECK(p2pb_kernel_has("memcpy", P2PB_FACT_FIXED_BYTES | P2PB_FACT_SELF));
    CHECK(!p2pb_kernel_has("pingpong", P2PB_FACT_WINDOW));
    CHECK(!p2pb_kernel_has("no-such-kernel", 0));
}

int main(void)
{
    against_descriptors();
    lookups();
    return CHECK_DONE();
}
