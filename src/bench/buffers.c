/* SPDX-License-Identifier: MIT */
/*
 * buffers.c - step 1 of one (kernel, size) (docs/methodology.md): the
 * message datatype, the buffer sets and the kernel's setup; and their release
 * in one place, p2pb_buffers_close.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS (glibc, musl, the BSDs) */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "measure.h"
#include "host/hostinfo.h"

/* At most 1 Mi buffer sets for --off-cache: 64 MiB of 32-byte messages. */
#define P2PB_MAX_SETS ((size_t)1 << 20)

enum p2pb_status p2pb_make_msg_type(size_t bytes, MPI_Datatype *dtype, int *count, char *err,
                                    size_t errlen)
{
    if (bytes <= (size_t)INT_MAX) {
        *dtype = MPI_BYTE;
        *count = (int)bytes;
        return P2PB_OK;
    }
    if (bytes % 1024 != 0 || bytes / 1024 > (size_t)INT_MAX) {
        return p2pb_fail(P2PB_ERANGE, err, errlen,
                         "message size %zu is above 2^31-1 bytes and not a multiple of 1 KiB",
                         bytes);
    }
    MPI_Datatype t;
    if (MPI_Type_contiguous(1024, MPI_BYTE, &t) != MPI_SUCCESS ||
        MPI_Type_commit(&t) != MPI_SUCCESS) {
        return p2pb_fail(P2PB_EMPI, err, errlen,
                         "cannot build an MPI datatype for message size %zu", bytes);
    }
    *dtype = t;
    *count = (int)(bytes / 1024);
    return P2PB_OK;
}

void p2pb_free_msg_type(MPI_Datatype *dtype)
{
    if (*dtype != MPI_BYTE && *dtype != MPI_DATATYPE_NULL)
        MPI_Type_free(dtype);
    *dtype = MPI_BYTE;
}

/* Byte shift of round `round`'s buffers past a page boundary with
 * --shift-buffers: (round mod 64) x 64 (cache lines), else 0. */
static size_t round_shift(const struct p2pb_measure *r)
{
    return r->pol->shift_buffers ? (r->round % 64) * 64 : 0;
}

/*
 * The run's message memory, one per process: a send and a receive mapping
 * that only grow. Every (kernel, size, round) takes its buffers from them, so
 * a page is faulted in once per run, not once per round: on a VM a fault can
 * cost 10 usec per 4 KiB page (11 ms for 4 MiB, measured on an AMD EPYC
 * host), and a fresh buffer then times its first iterations at up to 30x the
 * steady time (docs/methodology.md, "Buffers"). IMB's buffers grow the same
 * way. Released by p2pb_buffers_release.
 */
struct arena_side {
    void *map;  /* anonymous mapping, or NULL */
    size_t len; /* its length in bytes (page multiple) */
};
static struct arena_side arena_send, arena_recv;

/* At least `len` bytes of side a: the mapping kept when it is large enough,
 * else a new one (the old one unmapped), bound to NUMA node `node`
 * (--numa-node; -1: none) and zeroed by this rank (first touch puts the
 * pages on its NUMA node). Returns the mapping, or NULL when out of memory
 * (a is then empty). */
static unsigned char *arena_take(struct arena_side *a, size_t len, int node)
{
    if (a->map && a->len >= len)
        return a->map;
    if (a->map)
        munmap(a->map, a->len);
    a->map = NULL;
    a->len = 0;
    long pg = sysconf(_SC_PAGESIZE);
    size_t page = pg > 0 ? (size_t)pg : 4096;
    if (len > SIZE_MAX - page)
        return NULL;
    len = (len + page - 1) / page * page;
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    (void)p2pb_hostinfo_membind(node, p, len); /* failure shows in the run record */
    memset(p, 0, len); /* first touch: pages land on this rank's NUMA node */
    a->map = p;
    a->len = len;
    return p;
}

void p2pb_buffers_release(void)
{
    struct arena_side *sides[] = {&arena_send, &arena_recv};
    for (size_t i = 0; i < 2; i++) {
        if (sides[i]->map)
            munmap(sides[i]->map, sides[i]->len);
        sides[i]->map = NULL;
        sides[i]->len = 0;
    }
}

const char *p2pb_policy_state(const struct p2pb_policy *pol)
{
    if (pol->warmup == 0)
        return "unwarmed";
    return pol->off_cache ? "cold" : "steady";
}

size_t p2pb_off_cache_bytes(const struct p2pb_policy *pol)
{
    if (!pol->off_cache)
        return 0;
    if (pol->cache_bytes)
        return pol->cache_bytes;
    if (pol->llc_bytes == 0 || pol->llc_bytes > P2PB_OFF_CACHE_MAX)
        return P2PB_OFF_CACHE_MAX;
    return pol->llc_bytes;
}

/* --off-cache as IMB's -off_cache: consecutive messages start at least one
 * cache line apart past the previous one's end (stride: the set rounded up
 * to P2PB_CACHE_LINE, plus one line), through enough positions to span
 * twice the cache size C (p2pb_off_cache_bytes), but no more positions than
 * IMB's repetitions at that size (IMB cycles min(n_sample, 2 C / stride)
 * positions, all of them used by its warm-up before they are timed);
 * without --off-cache 1 set. */
static size_t off_cache_sets(const struct p2pb_policy *pol, size_t bytes, size_t *stride)
{
    size_t cache = p2pb_off_cache_bytes(pol);
    if (!cache)
        return 1;
    *stride = (*stride / P2PB_CACHE_LINE + (*stride % P2PB_CACHE_LINE != 0) + 1) * P2PB_CACHE_LINE;
    size_t nsets = (2 * cache + *stride - 1) / *stride, reps = p2pb_imb_repetitions(bytes);
    if (nsets > reps)
        nsets = reps;
    if (nsets < 1)
        nsets = 1;
    return nsets > P2PB_MAX_SETS ? P2PB_MAX_SETS : nsets;
}

/* One set of kernel k at size `bytes` (window W): its send and receive
 * regions, the bytes of each side (with --off-cache IMB's stride, one cache
 * line past the set) and how many sets. Returns 0, or -1 when a side does
 * not fit in size_t. */
static int plan_one(const struct p2pb_kernel *k, size_t bytes, size_t window,
                    const struct p2pb_policy *pol, struct p2pb_buffers *b)
{
    const size_t unit = bytes ? bytes : 1;
    b->sregions = p2pb_kernel_regions(k->sbuf_regions, window);
    b->rregions = p2pb_kernel_regions(k->rbuf_regions, window);
    if (b->sregions > SIZE_MAX / 4 / unit || b->rregions > SIZE_MAX / 4 / unit)
        return -1;
    b->sstride = unit * b->sregions;
    b->rstride = unit * b->rregions;
    size_t ns = off_cache_sets(pol, bytes, &b->sstride);
    size_t nr = off_cache_sets(pol, bytes, &b->rstride);
    b->nsets = ns > nr ? ns : nr;
    if (k->flags & P2PB_KF_BOUND_BUFFERS) /* requests bound to one set in setup */
        b->nsets = 1;
    return 0;
}

/* Regions and strides of one set, and how many sets. P2PB_ERANGE when a set
 * does not fit in size_t (same verdict on every rank). */
static enum p2pb_status plan_sets(struct p2pb_measure *r, char *err, size_t errlen)
{
    if (plan_one(r->k, r->c.bytes, r->c.window, r->pol, &r->buf) != 0)
        return p2pb_fail(P2PB_ERANGE, err, errlen,
                         "buffers for kernel %s, size %zu bytes overflow size_t", r->k->name,
                         r->c.bytes);
    return P2PB_OK;
}

/* The bytes of side `stride` x nsets plus the largest --shift-buffers
 * shift, or 0 when that overflows. */
static size_t side_need(size_t stride, size_t nsets, int shift)
{
    size_t slack = shift ? 64 * 64 : 0;
    if (stride > (SIZE_MAX - slack) / nsets)
        return 0;
    return stride * nsets + slack;
}

void p2pb_buffers_reserve(const struct p2pb_kernel *const *kernels, size_t nkernels,
                          const size_t *sizes, size_t nsizes, const struct p2pb_policy *pol)
{
    size_t sneed = 0, rneed = 0;
    for (size_t i = 0; i < nkernels; i++)
        for (size_t j = 0; j < nsizes; j++) {
            struct p2pb_buffers b;
            if (plan_one(kernels[i], sizes[j], pol->window, pol, &b) != 0)
                continue; /* refused when its size runs, with a message */
            size_t sn = side_need(b.sstride, b.nsets, pol->shift_buffers);
            size_t rn = side_need(b.rstride, b.nsets, pol->shift_buffers);
            sneed = sn > sneed ? sn : sneed;
            rneed = rn > rneed ? rn : rneed;
        }
    /* out of memory here: the size that needs it reports it when it runs */
    if (sneed && !arena_take(&arena_send, sneed, pol->numa_node))
        return;
    if (rneed)
        (void)arena_take(&arena_recv, rneed, pol->numa_node);
}

/* The sets on the active ranks; P2PB_ENOMEM (agreed) if any rank failed. */
static enum p2pb_status allocate_sets(struct p2pb_measure *r, char *err, size_t errlen)
{
    struct p2pb_buffers *b = &r->buf;
    int bad = 0, anybad = 0;
    if (r->c.active) {
        size_t shift = round_shift(r);
        if (b->sstride > (SIZE_MAX - shift) / b->nsets ||
            b->rstride > (SIZE_MAX - shift) / b->nsets)
            bad = 1;
        else {
            int node = r->pol->numa_node;
            unsigned char *s = arena_take(&arena_send, b->sstride * b->nsets + shift, node);
            unsigned char *q = arena_take(&arena_recv, b->rstride * b->nsets + shift, node);
            b->sbase = s ? s + shift : NULL;
            b->rbase = q ? q + shift : NULL;
            bad = !s || !q;
        }
    }
    P2PB_MPI_CHECK(MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, r->c.comm));
    if (anybad)
        return p2pb_fail(
            P2PB_ENOMEM, err, errlen,
            "cannot allocate buffers for kernel %s, size %zu bytes (%zu bytes per rank)",
            r->k->name, r->c.bytes, (b->sstride + b->rstride) * b->nsets);
    return P2PB_OK;
}

/* The kernel's setup on the active ranks; its status agreed as the maximum
 * over ranks. */
static enum p2pb_status setup_kernel(struct p2pb_measure *r, char *err, size_t errlen)
{
    struct p2pb_kernel_ctx *c = &r->c;
    int code = 0, anycode = 0;
    c->sbuf = r->buf.sbase;
    c->rbuf = r->buf.rbase;
    r->buf.setup_called = c->active;
    enum p2pb_status st;
    if (c->active && r->k->setup && (st = r->k->setup(c)) != P2PB_OK)
        code = (int)st;
    P2PB_MPI_CHECK(MPI_Allreduce(&code, &anycode, 1, MPI_INT, MPI_MAX, c->comm));
    if (anycode)
        return p2pb_fail((enum p2pb_status)anycode, err, errlen,
                         "setup of kernel %s failed at size %zu bytes: %s", r->k->name, c->bytes,
                         p2pb_status_str((enum p2pb_status)anycode));
    return P2PB_OK;
}

enum p2pb_status p2pb_buffers_open(struct p2pb_measure *r, char *err, size_t errlen)
{
    enum p2pb_status st = P2PB_OK;
    if (r->c.large_count) { /* X MPI_BYTEs through the large-count calls */
        r->c.dtype = MPI_BYTE;
        r->c.count = 0; /* not read: the kernel passes ctx->bytes as an MPI_Count */
    } else
        st = p2pb_make_msg_type(r->c.bytes, &r->c.dtype, &r->c.count, err, errlen);
    if (st == P2PB_OK) /* same verdict on every rank: depends only on bytes */
        st = plan_sets(r, err, errlen);
    if (st == P2PB_OK)
        st = allocate_sets(r, err, errlen);
    if (st == P2PB_OK)
        st = setup_kernel(r, err, errlen);
    return st;
}

void p2pb_buffers_close(struct p2pb_measure *r)
{
    struct p2pb_buffers *b = &r->buf;
    if (b->setup_called && r->k->teardown)
        r->k->teardown(&r->c);
    b->setup_called = 0;
    b->sbase = b->rbase = NULL; /* the memory stays in the arena */
    p2pb_free_msg_type(&r->c.dtype);
}
