/* SPDX-License-Identifier: MIT */
/* schedule.c - the circle method; see schedule.h for the formulas. */
#include "schedule.h"

int p2pb_schedule_rounds(int n)
{
    if (n < 2 || n > P2PB_SCHEDULE_MAX_RANKS)
        return 0;
    return n % 2 == 0 ? n - 1 : n;
}

/* q = m - 1: the odd modulus of the circle (m = n rounded up to even). */
static int circle(int n)
{
    return n % 2 == 0 ? n - 1 : n;
}

int p2pb_schedule_partner(int n, int r, int x)
{
    int rounds = p2pb_schedule_rounds(n);
    if (rounds == 0 || r < 0 || r >= rounds || x < 0 || x >= n)
        return -1;
    int q = circle(n);
    if (x == q) /* the fixed rank m - 1 of even n */
        return r;
    if (x == r) /* meets rank m - 1: a real rank (even n) or the phantom (odd n) */
        return n % 2 == 0 ? q : -1;
    long long p = (2LL * r - x) % q;
    return (int)(p < 0 ? p + q : p);
}

size_t p2pb_schedule_round_pairs(int n, int r, int (*pairs)[2])
{
    size_t k = 0;
    if (p2pb_schedule_rounds(n) == 0 || r < 0 || r >= p2pb_schedule_rounds(n))
        return 0;
    for (int x = 0; x < n; x++) {
        int y = p2pb_schedule_partner(n, r, x);
        if (y > x) {
            pairs[k][0] = x;
            pairs[k][1] = y;
            k++;
        }
    }
    return k;
}

int p2pb_schedule_round_of(int n, int x, int y)
{
    if (p2pb_schedule_rounds(n) == 0 || x < 0 || y < 0 || x >= n || y >= n || x == y)
        return -1;
    int q = circle(n);
    if (x == q || y == q) /* rank m - 1 meets r in round r */
        return x == q ? y : x;
    /* 2r = x + y (mod q), q odd: r = (x + y) * (q + 1) / 2 mod q */
    long long r = ((long long)x + y) % q * ((q + 1) / 2) % q;
    return (int)r;
}
