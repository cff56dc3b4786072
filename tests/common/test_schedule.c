/* SPDX-License-Identifier: MIT */
/*
 * test_schedule.c - the survey's round-robin schedule (src/common/schedule.c)
 * checked exhaustively for every n from 2 to 1024, and for the larger n listed in big_n[] (odd and
 * even, up to 16384 = 2^14), each: rounds(n) = n - 1 (even) or n (odd); every round a perfect
 * matching (partner(partner(x)) = x, no rank paired with itself) with exactly n % 2 ranks resting;
 * every pair met exactly once (a bitset of n(n-1)/2 bits); round_of agrees with the rounds;
 * round_pairs lists n / 2 ascending pairs. Every other n up to 16384 is checked in part, O(n) each
 * (all n exhaustively would be sum n^2 = 1.5e12 steps): three rounds are perfect matchings with
 * n % 2 resting, and three ranks (0, n - 1 and one more) meet each other rank in a different round,
 * the one round_of names, resting in the remaining one for odd n. A single n can be given on the
 * command line (exhaustive).
 */
#include <stdint.h>
#include <stdlib.h>

#include "../lib/check.h"
#include "schedule.h"

/* Index of pair x < y in a triangle of n ranks. */
static size_t tri(size_t n, size_t x, size_t y)
{
    return x * n - x * (x + 1) / 2 + (y - x - 1);
}

/* Every check for one n; returns the number of failed checks (also CHECKed,
 * once per kind, so a broken schedule does not print millions of lines). */
static int check_n(int n, uint64_t *bits)
{
    int rounds = p2pb_schedule_rounds(n), bad_match = 0, bad_rest = 0, bad_twice = 0, bad_round = 0;
    size_t npairs = (size_t)n * (size_t)(n - 1) / 2, seen = 0;
    for (size_t w = 0; w < (npairs + 63) / 64; w++)
        bits[w] = 0;
    CHECK(rounds == (n % 2 == 0 ? n - 1 : n));
    for (int r = 0; r < rounds; r++) {
        int rest = 0;
        for (int x = 0; x < n; x++) {
            int y = p2pb_schedule_partner(n, r, x);
            if (y < 0) {
                rest++;
                continue;
            }
            bad_match += y == x || y >= n || p2pb_schedule_partner(n, r, y) != x;
            if (y < x || y >= n)
                continue;
            size_t i = tri((size_t)n, (size_t)x, (size_t)y);
            bad_twice += (bits[i / 64] >> (i % 64)) & 1u;
            bits[i / 64] |= (uint64_t)1 << (i % 64);
            seen++;
            bad_round +=
                p2pb_schedule_round_of(n, x, y) != r || p2pb_schedule_round_of(n, y, x) != r;
        }
        bad_rest += rest != n % 2;
    }
    CHECK(bad_match == 0);
    CHECK(bad_rest == 0);
    CHECK(bad_twice == 0);
    CHECK(bad_round == 0);
    CHECK(seen == npairs); /* with no pair twice: every pair once */
    if (bad_match || bad_rest || bad_twice || bad_round || seen != npairs)
        fprintf(stderr, "schedule of n = %d is wrong\n", n);
    return bad_match + bad_rest + bad_twice + bad_round + (seen != npairs);
}

/* Part of check_n in O(n) (see the header); seen must hold rounds(n) bytes. */
static int check_n_part(int n, unsigned char *seen)
{
    int rounds = p2pb_schedule_rounds(n), bad = rounds != (n % 2 == 0 ? n - 1 : n);
    const int some_r[3] = {0, rounds - 1, (int)((7919u * (unsigned)n) % (unsigned)rounds)};
    for (int i = 0; i < 3 && !bad; i++) {
        int rest = 0;
        for (int x = 0; x < n; x++) {
            int y = p2pb_schedule_partner(n, some_r[i], x);
            rest += y < 0;
            bad += y >= 0 && (y == x || y >= n || p2pb_schedule_partner(n, some_r[i], y) != x);
        }
        bad += rest != n % 2;
    }
    const int some_x[3] = {0, n - 1, (int)((104729u * (unsigned)n) % (unsigned)n)};
    for (int i = 0; i < 3 && !bad; i++) {
        int x = some_x[i], met = 0;
        for (int r = 0; r < rounds; r++)
            seen[r] = 0;
        for (int y = 0; y < n; y++) {
            if (y == x)
                continue;
            int r = p2pb_schedule_round_of(n, x, y);
            bad += r < 0 || r >= rounds || (r >= 0 && r < rounds && seen[r]++) ||
                   p2pb_schedule_partner(n, r, x) != y;
            met++;
        }
        for (int r = 0; r < rounds; r++) /* the round not met: x rests there */
            bad += !seen[r] && p2pb_schedule_partner(n, r, x) != -1;
        bad += met != n - 1;
    }
    CHECK(bad == 0);
    if (bad)
        fprintf(stderr, "schedule of n = %d is wrong (partial check)\n", n);
    return bad;
}

/* round_pairs of a few rounds against partner. */
static void check_round_pairs(int n)
{
    int(*pairs)[2] = malloc((size_t)(n / 2 + 1) * sizeof *pairs);
    if (!pairs)
        return;
    for (int r = 0; r < p2pb_schedule_rounds(n); r += 1 + n / 7) {
        size_t k = p2pb_schedule_round_pairs(n, r, pairs);
        int ok = k == (size_t)(n / 2);
        for (size_t i = 0; i < k && ok; i++)
            ok = pairs[i][0] < pairs[i][1] && (i == 0 || pairs[i - 1][0] < pairs[i][0]) &&
                 p2pb_schedule_partner(n, r, pairs[i][0]) == pairs[i][1];
        CHECK(ok);
    }
    free(pairs);
}

int main(int argc, char **argv)
{
    static const int big_n[] = {1025, 2047, 2048, 4095, 4096, 8192, 16384};
    const int nmax = 16384;
    uint64_t *bits = malloc(((size_t)nmax * (nmax - 1) / 2 + 63) / 64 * sizeof *bits);
    if (!bits)
        return 1;
    /* out of range */
    CHECK(p2pb_schedule_rounds(0) == 0 && p2pb_schedule_rounds(1) == 0);
    CHECK(p2pb_schedule_partner(4, 3, 0) == -1 && p2pb_schedule_partner(4, 0, 4) == -1);
    CHECK(p2pb_schedule_round_of(4, 1, 1) == -1);
    /* by hand: n = 4: round 0 {0,3} {1,2}; round 1 {1,3} {0,2}; round 2 {2,3} {0,1} */
    CHECK(p2pb_schedule_partner(4, 0, 0) == 3 && p2pb_schedule_partner(4, 0, 1) == 2);
    CHECK(p2pb_schedule_partner(4, 1, 0) == 2 && p2pb_schedule_partner(4, 2, 0) == 1);
    /* n = 3: round r, rank r rests */
    CHECK(p2pb_schedule_partner(3, 1, 1) == -1 && p2pb_schedule_partner(3, 1, 0) == 2);
    if (argc > 1) {
        int n = atoi(argv[1]);
        if (n >= 2 && n <= nmax)
            check_n(n, bits);
    } else {
        for (int n = 2; n <= 1024; n++)
            check_n(n, bits);
        for (size_t i = 0; i < sizeof big_n / sizeof big_n[0]; i++)
            check_n(big_n[i], bits);
        unsigned char *seen = malloc((size_t)nmax + 1);
        int bad = !seen;
        for (int n = 1025; n <= nmax && seen && bad < 5; n++)
            bad += check_n_part(n, seen) != 0;
        CHECK(bad == 0);
        free(seen);
        for (int n = 2; n <= 40; n++)
            check_round_pairs(n);
        check_round_pairs(16384);
    }
    free(bits);
    return CHECK_DONE();
}
