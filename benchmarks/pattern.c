/* SPDX-License-Identifier: MIT */
#include "p2pbench/kernel.h"

/* A cheap integer mix (the finalizer of splitmix64) of sender, iteration and
 * 8-byte block index; the byte within the block selects one of its bytes, so
 * every position, sender and iteration gives a different sequence. */
static inline uint64_t mix(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 31;
    return x;
}

static inline uint64_t block_word(int sender, uint64_t iter, size_t block)
{
    return mix(((uint64_t)(uint32_t)sender << 40) ^ (iter * 0x9e3779b97f4a7c15ull) ^
               (uint64_t)block);
}

unsigned char p2pb_pattern_byte(int sender, uint64_t iter, size_t off)
{
    return (unsigned char)(block_word(sender, iter, off / 8) >> (8 * (off % 8)));
}

void p2pb_pattern_fill(unsigned char *buf, size_t bytes, int sender, uint64_t iter)
{
    size_t off = 0;
    while (off < bytes) {
        uint64_t w = block_word(sender, iter, off / 8);
        for (unsigned b = 0; b < 8 && off < bytes; b++, off++)
            buf[off] = (unsigned char)(w >> (8 * b));
    }
}

enum p2pb_status p2pb_pattern_check(const unsigned char *buf, size_t bytes, int sender,
                                    uint64_t iter, size_t *bad_offset)
{
    size_t off = 0;
    while (off < bytes) {
        uint64_t w = block_word(sender, iter, off / 8);
        for (unsigned b = 0; b < 8 && off < bytes; b++, off++)
            if (buf[off] != (unsigned char)(w >> (8 * b))) {
                if (bad_offset)
                    *bad_offset = off;
                return P2PB_EVERIFY;
            }
    }
    return P2PB_OK;
}
