/* SPDX-License-Identifier: MIT */
/* A hash index of rows by key (row_index.h). */
#include "row_index.h"

#include <stdlib.h>
#include <string.h>

uint64_t p2pb_row_key_hash(const char *a, const char *b, uint64_t num)
{
    uint64_t h = 14695981039346656037ull; /* FNV-1a offset basis and prime */
    const uint64_t prime = 1099511628211ull;
    for (const unsigned char *p = (const unsigned char *)a; *p; p++)
        h = (h ^ *p) * prime;
    h *= prime; /* the '\0' after a */
    for (const unsigned char *p = (const unsigned char *)b; *p; p++)
        h = (h ^ *p) * prime;
    h *= prime;
    for (int i = 0; i < 8; i++)
        h = (h ^ ((num >> (8 * i)) & 0xff)) * prime;
    return h;
}

long p2pb_row_index_find(const struct p2pb_row_index *x, uint64_t h, p2pb_row_eq eq,
                         const void *ctx)
{
    if (!x->cap)
        return -1;
    for (size_t i = (size_t)h & (x->cap - 1);; i = (i + 1) & (x->cap - 1)) {
        const struct p2pb_row_slot *s = &x->slot[i];
        if (!s->pos1)
            return -1;
        if (s->hash == h && eq(ctx, s->pos1 - 1))
            return (long)(s->pos1 - 1);
    }
}

/* Put slot s into table t of cap slots (cap a power of two, a free slot left). */
static void place(struct p2pb_row_slot *t, size_t cap, struct p2pb_row_slot s)
{
    size_t i = (size_t)s.hash & (cap - 1);
    while (t[i].pos1)
        i = (i + 1) & (cap - 1);
    t[i] = s;
}

int p2pb_row_index_insert(struct p2pb_row_index *x, uint64_t h, size_t pos)
{
    if (2 * (x->n + 1) > x->cap) {
        size_t cap = x->cap ? 2 * x->cap : 64;
        if (cap > ((size_t)-1) / 2 / sizeof *x->slot)
            return -1;
        struct p2pb_row_slot *t = calloc(cap, sizeof *t);
        if (!t)
            return -1;
        for (size_t i = 0; i < x->cap; i++)
            if (x->slot[i].pos1)
                place(t, cap, x->slot[i]);
        free(x->slot);
        x->slot = t;
        x->cap = cap;
    }
    place(x->slot, x->cap, (struct p2pb_row_slot){h, pos + 1});
    x->n++;
    return 0;
}

void p2pb_row_index_free(struct p2pb_row_index *x)
{
    free(x->slot);
    memset(x, 0, sizeof *x);
}
