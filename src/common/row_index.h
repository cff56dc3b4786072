/* SPDX-License-Identifier: MIT */
/*
 * row_index.h - a hash index of rows by a key of two strings and a number
 * (kernel, variant, bytes; or kernel, variant, rank count): finding a key is
 * O(1) on average, so readers and table builders stay linear in rows.
 * The index stores row positions only; the caller keeps the rows and says,
 * through a callback, whether the row at a position has the key sought.
 */
#ifndef P2PBENCH_ROW_INDEX_H
#define P2PBENCH_ROW_INDEX_H

#include <stddef.h>
#include <stdint.h>

/* One slot: the key's hash and row position + 1 (0: empty). */
struct p2pb_row_slot {
    uint64_t hash;
    size_t pos1;
};

/* Open addressing with linear probing; cap is 0 or a power of two kept at
 * least twice n. Zero-initialised it is an empty index. */
struct p2pb_row_index {
    struct p2pb_row_slot *slot;
    size_t cap, n;
};

/* FNV-1a (Fowler-Noll-Vo, 64-bit) over a, a '\0', b, a '\0' and the 8 bytes
 * of num. a and b are NUL-terminated. */
uint64_t p2pb_row_key_hash(const char *a, const char *b, uint64_t num);

/* Whether the row at position pos has the key sought (ctx: the caller's). */
typedef int (*p2pb_row_eq)(const void *ctx, size_t pos);

/* Position of the first inserted row with hash h for which eq(ctx, pos)
 * holds, or -1. */
long p2pb_row_index_find(const struct p2pb_row_index *x, uint64_t h, p2pb_row_eq eq,
                         const void *ctx);

/* Insert position pos under hash h (the caller checked it is new). Returns 0,
 * or -1 when out of memory (the index is unchanged). */
int p2pb_row_index_insert(struct p2pb_row_index *x, uint64_t h, size_t pos);

/* Free the slots; x is an empty index again. */
void p2pb_row_index_free(struct p2pb_row_index *x);

#endif /* P2PBENCH_ROW_INDEX_H */
