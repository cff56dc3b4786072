/* SPDX-License-Identifier: MIT */
/*
 * The row index (src/common/row_index.c): FNV-1a against values computed by
 * hand, every key found after growth, keys that share a hash told apart by
 * the caller's callback, absent keys not found.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../lib/check.h"
#include "row_index.h"

enum { NKEYS = 20000 };

/* Key i: kernel "k<i/100>", variant "v<i%7>", number i. */
struct key {
    char a[16], b[16];
    uint64_t num;
};
static struct key keys[NKEYS];

struct sought {
    const char *a, *b;
    uint64_t num;
};

static int has_key(const void *ctx, size_t pos)
{
    const struct sought *q = ctx;
    return keys[pos].num == q->num && strcmp(keys[pos].a, q->a) == 0 &&
           strcmp(keys[pos].b, q->b) == 0;
}

static void hash_values(void)
{
    /* FNV-1a 64: offset 14695981039346656037, prime 1099511628211; "" and ""
     * then 8 zero bytes: the offset times prime^2 (the two NULs), then 8 rounds
     * of (h ^ 0) * prime: offset * prime^10 mod 2^64 */
    uint64_t h = 14695981039346656037ull;
    for (int i = 0; i < 10; i++)
        h *= 1099511628211ull;
    CHECK(p2pb_row_key_hash("", "", 0) == h);
    /* the separator keeps ("ab", "") apart from ("a", "b") */
    CHECK(p2pb_row_key_hash("ab", "", 1) != p2pb_row_key_hash("a", "b", 1));
    CHECK(p2pb_row_key_hash("a", "b", 1) != p2pb_row_key_hash("a", "b", 2));
}

static void find_after_growth(void)
{
    struct p2pb_row_index x = {0};
    struct sought q = {"k0", "v0", 0};
    CHECK(p2pb_row_index_find(&x, 1, has_key, &q) == -1); /* empty */
    for (size_t i = 0; i < NKEYS; i++) {
        snprintf(keys[i].a, sizeof keys[i].a, "k%zu", i / 100);
        snprintf(keys[i].b, sizeof keys[i].b, "v%zu", i % 7);
        keys[i].num = i;
        CHECK(p2pb_row_index_insert(&x, p2pb_row_key_hash(keys[i].a, keys[i].b, i), i) == 0);
    }
    CHECK(x.n == NKEYS && x.cap >= 2 * NKEYS && (x.cap & (x.cap - 1)) == 0);
    size_t found = 0;
    for (size_t i = 0; i < NKEYS; i++) {
        struct sought k = {keys[i].a, keys[i].b, i};
        found += p2pb_row_index_find(&x, p2pb_row_key_hash(k.a, k.b, i), has_key, &k) == (long)i;
    }
    CHECK(found == NKEYS);
    struct sought absent = {"k0", "v1", 0}; /* key 0 has variant v0 */
    CHECK(p2pb_row_index_find(&x, p2pb_row_key_hash(absent.a, absent.b, 0), has_key, &absent) ==
          -1);
    p2pb_row_index_free(&x);
    CHECK(x.slot == NULL && x.cap == 0 && x.n == 0);
}

/* 300 positions under one hash (one long probe chain; keys[] from
 * find_after_growth): the callback tells them apart. */
static void same_hash(void)
{
    struct p2pb_row_index x = {0};
    for (size_t i = 0; i < 300; i++)
        CHECK(p2pb_row_index_insert(&x, 42, i) == 0);
    size_t found = 0;
    for (size_t i = 0; i < 300; i++) {
        struct sought k = {keys[i].a, keys[i].b, i};
        found += p2pb_row_index_find(&x, 42, has_key, &k) == (long)i;
    }
    CHECK(found == 300);
    struct sought k = {keys[300].a, keys[300].b, 300};
    CHECK(p2pb_row_index_find(&x, 42, has_key, &k) == -1);
    p2pb_row_index_free(&x);
}

int main(void)
{
    hash_values();
    find_after_growth();
    same_hash();
    return CHECK_DONE();
}
