/* SPDX-License-Identifier: MIT */
/*
 * schedule.h - the survey's round-robin schedule: every pair of n ranks
 * exactly once, in rounds of disjoint pairs (a 1-factorization of the
 * complete graph K_n; odd n: of K_{n+1} with a phantom rank, whose partner
 * rests in that round). Pure functions: no MPI, no I/O, no memory.
 *
 * Circle method (Kirkman 1847; e.g. "round-robin tournament", Harary,
 * Graph Theory, 1969, ch. 9): let m = n for even n, n + 1 for odd n, and
 * q = m - 1 (odd). In round r (0 <= r < q) rank m-1 meets rank r, and every
 * other rank x meets (2r - x) mod q. The pairs {x, 2r - x} of a round are
 * disjoint (the map is an involution whose one fixed point is x = r, since q
 * is odd), and the pair {x, y} (x, y < q) meets in the one round with
 * 2r = x + y (mod q). docs/survey.md, "Schedule".
 */
#ifndef P2PBENCH_SCHEDULE_H
#define P2PBENCH_SCHEDULE_H

#include <stddef.h>

/* Largest n the schedule accepts (partner arithmetic stays in int). */
#define P2PB_SCHEDULE_MAX_RANKS (1 << 28)

/*
 * Rounds of the schedule of n ranks: n - 1 for even n, n for odd n (each
 * rank rests once), 0 for n < 2 or n > P2PB_SCHEDULE_MAX_RANKS.
 */
int p2pb_schedule_rounds(int n);

/*
 * Partner of rank x (0 <= x < n) in round r (0 <= r < rounds(n)); -1 when x
 * rests in that round (odd n), or an argument is out of range.
 */
int p2pb_schedule_partner(int n, int r, int x);

/*
 * The pairs of round r, each as {lo, hi} with lo < hi, in ascending lo:
 * pairs[k][0], pairs[k][1] for k < returned count (n / 2, 0 on bad
 * arguments). pairs must hold n / 2 entries. O(n).
 */
size_t p2pb_schedule_round_pairs(int n, int r, int (*pairs)[2]);

/*
 * The round in which ranks x and y (x != y, both < n) meet; -1 on bad
 * arguments. O(1).
 */
int p2pb_schedule_round_of(int n, int x, int y);

#endif /* P2PBENCH_SCHEDULE_H */
