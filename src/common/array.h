/* SPDX-License-Identifier: MIT */
/*
 * array.h - growing a heap array by doubling, the one way every reader and
 * table builder of both programs does it.
 */
#ifndef P2PBENCH_ARRAY_H
#define P2PBENCH_ARRAY_H

#include <stddef.h>

/*
 * Make room for element n of the array *array (elements of elem bytes, *cap
 * of them allocated): when n >= *cap, realloc to twice *cap (64 the first
 * time) and update *array and *cap. array is the address of the array
 * pointer (e.g. &rows). Returns 0, or -1 when out of memory or the size would
 * overflow (*array and *cap unchanged).
 */
int p2pb_array_grow(void *array, size_t *cap, size_t n, size_t elem);

#endif /* P2PBENCH_ARRAY_H */
