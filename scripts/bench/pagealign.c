/* SPDX-License-Identifier: MIT */
/*
 * pagealign.c - a preload for sweep-vs-peer.sh -a: every malloc of 2 KiB or
 * more returns a page-aligned block, so that IMB-MPI1's message buffers sit
 * at offset 0 of a page on both ranks, as p2pbench places its own. Without
 * it glibc puts buffers below its mmap threshold at heap offsets that differ
 * between the two ranks (docs/performance.md, issue 19). Test tool only:
 * glibc's __libc_malloc and __libc_memalign; free and realloc stay glibc's.
 *   cc -O2 -shared -fPIC -o pagealign.so pagealign.c
 */
#include <stddef.h>

extern void *__libc_malloc(size_t bytes);
extern void *__libc_memalign(size_t alignment, size_t bytes);

void *malloc(size_t bytes)
{
    return bytes >= 2048 ? __libc_memalign(4096, bytes) : __libc_malloc(bytes);
}
