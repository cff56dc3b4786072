/* SPDX-License-Identifier: MIT */
/*
 * The importer's map from benchmark names in logs to kernels
 * (src/report/import/kinds.c) against p2pbench's kernel descriptors
 * (benchmarks/registry.c): every entry marked native names a kernel with the
 * same name, display name and bytes counted per X; no other entry names a
 * p2pbench kernel. The largest window of a _winW suffix is --window's. The descriptors are plain
 * data: no MPI call is made, so the test runs without a launcher.
 */
#include <stdio.h>
#include <string.h>

#include "../lib/check.h"
#include "import/import.h"
#include "options.h"
#include "p2pbench/kernel.h"

/*
 * The descriptor's bytes per iteration as a multiple of X: returns 1 and sets
 * *per_x when it is a fixed multiple; 0 when the bytes do not scale with X
 * alone (a run-time window: uniband, biband; a fixed buffer: memcpy). The one
 * place that reads the descriptor's bytes rule (include/p2pbench/kernel.h).
 */
static int bytes_per_x(const struct p2pb_kernel *k, double *per_x)
{
    if (k->bytes.unit != P2PB_BYTES_X)
        return 0;
    *per_x = k->bytes.count;
    return 1;
}

/* The descriptor named exactly name, or NULL. */
static const struct p2pb_kernel *kernel_named(const char *name)
{
    const struct p2pb_kernel *k = p2pb_kernel_find(name);
    return k && strcmp(k->name, name) == 0 ? k : NULL;
}

static void check_display(const struct p2pb_imp_kind *e, const struct p2pb_kernel *k)
{
    int same = strcmp(k->display_name, e->display) == 0;
    if (!same)
        fprintf(stderr, "%s: importer display \"%s\", descriptor \"%s\"\n", e->kernel, e->display,
                k->display_name);
    CHECK(same);
}

/* One entry; *compared counts the bytes factors compared. */
static void check_entry(const struct p2pb_imp_kind *e, size_t *compared)
{
    const struct p2pb_kernel *k = kernel_named(e->kernel);
    if (e->native == 2 && !k)
        return; /* a one-sided kernel of issue 23 that this build lacks */
    if (!e->native) {
        if (p2pb_kernel_find(e->kernel))
            fprintf(stderr, "%s: names a p2pbench kernel but is not marked native\n", e->kernel);
        CHECK(p2pb_kernel_find(e->kernel) == NULL);
        return;
    }
    if (!k)
        fprintf(stderr, "%s: marked native but no kernel of that name\n", e->kernel);
    CHECK(k != NULL);
    if (!k)
        return;
    check_display(e, k);
    double per_x;
    if (bytes_per_x(k, &per_x)) {
        if (per_x != e->bytes_factor)
            fprintf(stderr, "%s: importer counts %g x X bytes, descriptor %g x X\n", e->kernel,
                    e->bytes_factor, per_x);
        CHECK(per_x == e->bytes_factor);
        (*compared)++;
    }
}

/* The largest _winW the importer reads is the largest --window p2pbench
 * takes (its option table, src/bench/options.c). */
static void check_max_window(void)
{
    size_t n;
    const struct p2pb_optdef *d = p2pb_option_table(&n);
    int seen = 0;
    for (size_t i = 0; i < n; i++)
        if (strcmp(d[i].name, "window") == 0) {
            seen = 1;
            if (d[i].max != P2PB_IMP_MAX_WINDOW)
                fprintf(stderr, "--window max %g, importer's P2PB_IMP_MAX_WINDOW %d\n", d[i].max,
                        P2PB_IMP_MAX_WINDOW);
            CHECK(d[i].max == P2PB_IMP_MAX_WINDOW);
        }
    CHECK(seen);
}

int main(void)
{
    check_max_window();
    size_t compared = 0;
    CHECK(p2pb_imp_n_imb_kinds >= 4);
    for (size_t i = 0; i < p2pb_imp_n_imb_kinds; i++)
        check_entry(&p2pb_imp_imb_kinds[i], &compared);
    for (size_t i = 0; i < p2pb_imp_n_osu_kinds; i++)
        check_entry(&p2pb_imp_osu_kinds[i], &compared);
    for (size_t i = 0; i < p2pb_imp_n_own_kinds; i++)
        check_entry(&p2pb_imp_own_kinds[i], &compared);
    check_entry(&p2pb_imp_seed_memcpy, &compared);
    /* the one-sided kinds (rma.c): six kernels, each found by its name */
    CHECK(p2pb_imp_n_osu_rma_kinds == 6);
    for (size_t i = 0; i < p2pb_imp_n_osu_rma_kinds; i++) {
        check_entry(&p2pb_imp_osu_rma_kinds[i], &compared);
        CHECK(p2pb_imp_osu_rma_kinds[i].native == 2);
        CHECK(p2pb_imp_native_kind(p2pb_imp_osu_rma_kinds[i].kernel) != NULL);
    }
    /* IMB: the MODE decides; Bidir_* NON-AGGREGATE and no MODE line are not imported */
    CHECK(strcmp(p2pb_imp_imb_rma_kind("Unidir_put", P2PB_IMP_NON_AGGREGATE)->kernel,
                 "put_latency") == 0);
    CHECK(strcmp(p2pb_imp_imb_rma_kind("Unidir_Put", P2PB_IMP_AGGREGATE)->kernel, "put_bw") == 0);
    CHECK(strcmp(p2pb_imp_imb_rma_kind("Unidir_Get", P2PB_IMP_NON_AGGREGATE)->kernel,
                 "get_latency") == 0);
    CHECK(strcmp(p2pb_imp_imb_rma_kind("UNIDIR_GET", P2PB_IMP_AGGREGATE)->kernel, "get_bw") == 0);
    CHECK(strcmp(p2pb_imp_imb_rma_kind("Bidir_put", P2PB_IMP_AGGREGATE)->kernel, "put_bibw") == 0);
    CHECK(strcmp(p2pb_imp_imb_rma_kind("Bidir_Get", P2PB_IMP_AGGREGATE)->kernel, "get_bibw") == 0);
    CHECK(p2pb_imp_imb_rma_kind("Bidir_Put", P2PB_IMP_NON_AGGREGATE) == NULL);
    CHECK(p2pb_imp_imb_rma_kind("Unidir_Put", P2PB_IMP_MODE_NONE) == NULL);
    CHECK(p2pb_imp_imb_rma_kind("PingPong", P2PB_IMP_AGGREGATE) == NULL);
    CHECK(p2pb_imp_rma_mode("#    MODE: NON-AGGREGATE ") == P2PB_IMP_NON_AGGREGATE);
    CHECK(p2pb_imp_rma_mode("#    MODE: AGGREGATE ") == P2PB_IMP_AGGREGATE);
    CHECK(p2pb_imp_rma_mode("#    MODE: other") == P2PB_IMP_MODE_NONE);
    /* OSU's lines: the MPI call names -> policy words */
    char w[16] = "", y[16] = "";
    CHECK(p2pb_imp_rma_line("# Window creation: MPI_Win_create_dynamic", w, y, sizeof w));
    CHECK(strcmp(w, "dynamic") == 0);
    CHECK(p2pb_imp_rma_line("# Synchronization: MPI_Win_post/start/complete/wait", w, y, sizeof w));
    CHECK(strcmp(y, "pscw") == 0);
    CHECK(p2pb_imp_rma_line("# Synchronization: MPI_Win_lock_all/unlock_all", w, y, sizeof w));
    CHECK(strcmp(y, "lock_all") == 0);
    CHECK(p2pb_imp_rma_line("# Synchronization: MPI_Win_flush_local", w, y, sizeof w));
    CHECK(strcmp(y, "flush_local") == 0);
    CHECK(p2pb_imp_rma_line("# Synchronization: MPI_Win_something", w, y, sizeof w));
    CHECK(strcmp(y, "") == 0); /* not known: not recorded */
    CHECK(!p2pb_imp_rma_line("# Size  Latency (us)", w, y, sizeof w));
    /* PingPong, PingPing, Sendrecv, Exchange at least */
    CHECK(compared >= 4);
    printf("%zu bytes factors compared\n", compared);
    return CHECK_DONE();
}
