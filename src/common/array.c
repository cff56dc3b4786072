/* SPDX-License-Identifier: MIT */
#include "array.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int p2pb_array_grow(void *array, size_t *cap, size_t n, size_t elem)
{
    if (n < *cap)
        return 0;
    size_t nc = *cap ? 2 * *cap : 64;
    if (nc <= n)
        nc = n + 1;
    if (elem == 0 || nc > SIZE_MAX / elem)
        return -1;
    void *old;
    memcpy(&old, array, sizeof old);
    void *nv = realloc(old, nc * elem);
    if (!nv)
        return -1;
    memcpy(array, &nv, sizeof nv);
    *cap = nc;
    return 0;
}
