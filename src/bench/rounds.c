/* SPDX-License-Identifier: MIT */
/*
 * rounds.c - the arithmetic of rounds (docs/methodology.md, "Rounds"): the
 * t quantile, the interval of a launch's median from its round medians, the
 * seeded shuffle of the size order. Pure functions: no MPI, no I/O.
 */
#include <math.h>

#include "harness.h"

/* t(0.975, df) for df = 1 .. 30 (any table of Student's t, e.g.
 * Abramowitz & Stegun table 26.10). */
static const double t975_table[30] = {
    12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
    2.2010,  2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860,
    2.0796,  2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423};

double p2pb_t975(size_t df)
{
    if (df < 1)
        return NAN;
    if (df <= 30)
        return t975_table[df - 1];
    const double z = 1.959964, n = (double)df;
    return z + (z * z * z + z) / (4 * n) + (5 * pow(z, 5) + 16 * z * z * z + 3 * z) / (96 * n * n);
}

int p2pb_round_interval(double median, int os_valid, double os_lo, double os_hi, const double *m,
                        size_t R, double *lo, double *hi)
{
    if (R < 2 || !(median > 0))
        return 0;
    double mean = 0, ss = 0;
    for (size_t i = 0; i < R; i++) {
        if (!(m[i] > 0))
            return 0;
        mean += log(m[i]) / (double)R;
    }
    for (size_t i = 0; i < R; i++)
        ss += (log(m[i]) - mean) * (log(m[i]) - mean);
    double h = p2pb_t975(R - 1) * sqrt(ss / (double)(R - 1)) * sqrt(1.0 + 1.0 / (double)R);
    *lo = median * exp(-h);
    *hi = median * exp(h);
    if (os_valid && os_lo < *lo)
        *lo = os_lo;
    if (os_valid && os_hi > *hi)
        *hi = os_hi;
    return 1;
}

/* splitmix64 (Steele, Lea & Flood, OOPSLA 2014): next value of *state. */
static unsigned long long splitmix64(unsigned long long *state)
{
    unsigned long long z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void p2pb_shuffle(size_t *idx, size_t n, unsigned long long *state)
{
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)(splitmix64(state) % i); /* bias below 2^-40 for i < 2^24 */
        size_t tmp = idx[i - 1];
        idx[i - 1] = idx[j];
        idx[j] = tmp;
    }
}
