/* SPDX-License-Identifier: MIT */
/*
 * Memcpy: the local memory-copy rate, the upper bound for shared-memory
 * transfers, and a way to see whether a host's memory system differs (the
 * seed case: bare metal vs PVHVM vs PV guests). No MPI messages.
 * The "message size" X is the chunk size. One iteration copies a buffer of
 * B bytes (--memcpy-buffer, default 16 MiB) to a second buffer with memcpy()
 * in consecutive chunks of X bytes (the last chunk is shorter when X does not
 * divide B). t = one iteration; bytes counted B; MB/s = B / t.
 * Runs on rank 0 only, or with --memcpy-ranks all on every rank at once
 * (rows per rank and an aggregate: t = max, MB/s = sum). Default chunk sizes
 * 4 B .. 128 KiB (powers of 2); a chunk size of 0 is skipped with a note.
 */
#include <stdlib.h>
#include <string.h>

#include "p2pbench/kernel.h"

struct memcpy_state {
    unsigned char *src, *dst;
};

static enum p2pb_status memcpy_setup(struct p2pb_kernel_ctx *c)
{
    struct memcpy_state *m = calloc(1, sizeof *m);
    if (!m)
        return P2PB_ENOMEM;
    void *s = NULL, *d = NULL;
    if (posix_memalign(&s, 4096, c->copy_bytes) != 0 ||
        posix_memalign(&d, 4096, c->copy_bytes) != 0) {
        free(s);
        free(m);
        return P2PB_ENOMEM;
    }
    m->src = s;
    m->dst = d;
    /* --numa-node as for the harness's buffers, else first touch on this
     * rank's NUMA node; distinct contents */
    (void)c->membind(c, m->src, c->copy_bytes);
    (void)c->membind(c, m->dst, c->copy_bytes);
    memset(m->src, 0xa5, c->copy_bytes);
    memset(m->dst, 0, c->copy_bytes);
    c->priv = m;
    return P2PB_OK;
}

static void memcpy_teardown(struct p2pb_kernel_ctx *c)
{
    struct memcpy_state *m = c->priv;
    if (m) {
        free(m->src);
        free(m->dst);
        free(m);
    }
    c->priv = NULL;
}

static enum p2pb_status memcpy_iter(struct p2pb_kernel_ctx *c)
{
    const struct memcpy_state *m = c->priv;
    const size_t total = c->copy_bytes, chunk = c->bytes;
    for (size_t off = 0; off < total; off += chunk) {
        size_t n = total - off < chunk ? total - off : chunk;
        memcpy(m->dst + off, m->src + off, n);
    }
    return P2PB_OK;
}

/* Before a --check iteration: pattern the source, clear the destination. */
static void memcpy_prepare_check(struct p2pb_kernel_ctx *c)
{
    struct memcpy_state *m = c->priv;
    p2pb_pattern_fill(m->src, c->copy_bytes, c->rank, c->iter);
    memset(m->dst, 0x5a, c->copy_bytes);
}

static enum p2pb_status memcpy_verify(const struct p2pb_kernel_ctx *c, size_t *bad)
{
    const struct memcpy_state *m = c->priv;
    return p2pb_pattern_check(m->dst, c->copy_bytes, c->rank, c->iter, bad);
}

/* 4 B .. 128 KiB, as the seed table (cases/seed-memcpy-baremetal-pvhvm-pv.txt) */
static const size_t memcpy_sizes[] = {4,    8,    16,   32,   64,    128,   256,   512,
                                      1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072};

static const char *const memcpy_ranks_names[] = {"one", "all", NULL};

/* memcpy's options (option.h). --memcpy-buffer's default, 16 MiB: the
 * buffer of the seed memcpy table. */
enum { O_MEMCPY_BUFFER, O_MEMCPY_RANKS, O_MEMCPY_N };
static const struct p2pb_optdef memcpy_options[O_MEMCPY_N] = {
    P2PB_OPT(O_MEMCPY_BUFFER, "memcpy-buffer", 0, P2PB_OPT_SIZE, "SIZE", .min = 1,
             .max = (double)((size_t)1 << 40), .def_text = "16M", .def = 16.0 * 1024 * 1024,
             P2PB_KSET_FIELD(copy_bytes),
             .help = "memcpy kernel: bytes copied per iteration (default {def})"),
    P2PB_OPT(O_MEMCPY_RANKS, "memcpy-ranks", 0, P2PB_OPT_ENUM, "one|all", .def_text = "one",
             .def = 0, P2PB_KSET_FIELD(self_all), .choices = memcpy_ranks_names,
             .help = "memcpy kernel: copy on rank 0 only (default) or on every rank at once"),
};

const struct p2pb_kernel p2pb_kernel_memcpy = {
    .name = "memcpy",
    .display_name = "Memcpy",
    .summary = "copy a 16 MiB buffer (--memcpy-buffer) in chunks of X bytes; MB/s = buffer / t",
    .min_ranks = 1,
    .max_ranks = 0,
    .participation = P2PB_PART_SELF,
    .time_scale = 1.0,
    .bytes = {1, P2PB_BYTES_COPY_BUFFER},
    .rank_reduce = P2PB_REDUCE_MAX,
    .imb_layout = P2PB_IMB_T,
    .sbuf_regions = 1,
    .rbuf_regions = 1,
    .setup = memcpy_setup,
    .run_iter = memcpy_iter,
    .verify = memcpy_verify,
    .teardown = memcpy_teardown,
    .flags = P2PB_KF_PER_GROUP,
    .optdefs = memcpy_options,
    .n_optdefs = sizeof memcpy_options / sizeof memcpy_options[0],
    .default_sizes = memcpy_sizes,
    .ndefault_sizes = sizeof memcpy_sizes / sizeof memcpy_sizes[0],
    .min_bytes = 1,
    .prepare_check = memcpy_prepare_check,
};
