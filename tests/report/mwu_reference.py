#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Reference values for tests/report/test_compare_mwu.c, by methods apart
from src/report/compare/compare_mwu.c and compare_stats.c (python3 standard library
only; run once, the numbers are written into the test):

- the exact null distribution of U from the addition-only recurrence on the
  largest element of the pooled sample (a b: it exceeds all i a's, i pairs;
  an a: none), N(u; i, j) = N(u - i; i, j - 1) + N(u; i - 1, j), in Python
  integers (exact), checked against math.comb(m + n, m); the p-value and the
  CI index as exact fractions;
- U by comparing every pair;
- the Hodges-Lehmann median and CI ends by sorting all m n differences
  log b_j - log a_i;
- beyond the exact range (min(m,n)^2 max(m,n) > 10^6 launches, as the C code
  decides), the textbook normal approximation: mean m n / 2, variance
  m n / 12 ((N + 1) - sum(t^3 - t) / (N (N - 1))), continuity correction 1/2,
  z_{0.975} and Phi from statistics.NormalDist, k = floor(m n / 2 + 1/2 -
  z sqrt(m n (N + 1) / 12)).

The data: splitmix64 (Steele, Lea & Flood 2014) streams, u = (x >> 11) 2^-53,
launch value 1 + u (A/A: seeds 1 and 2; the 1.5x effect: seed 1 against
1.5 (1 + u) of seed 3); the tie case rounds to 1 + floor(10 u) (seeds 4, 5).
Usage: python3 tests/report/mwu_reference.py [SIZE...]  (about a minute for all)
"""
import itertools
import math
import sys
from fractions import Fraction
from statistics import NormalDist

MASK = (1 << 64) - 1


def stream(seed, n):
    x, out = seed, []
    for _ in range(n):
        x = (x + 0x9E3779B97F4A7C15) & MASK
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        z ^= z >> 31
        out.append((z >> 11) * 2.0**-53)
    return out


def exact_lower(m, n):
    """Running sums of N(u; m, n), u = 0..floor(mn/2), and C(m+n, m): exact integers."""
    half = m * n // 2
    prev = [[1] for _ in range(n + 1)]  # i = 0: U = 0 whatever j
    for i in range(1, m + 1):
        cur = [[1]]  # j = 0
        for j in range(1, n + 1):
            size = min(i * j, half) + 1
            v = prev[j] + [0] * (size - len(prev[j]))  # largest is an a
            w = cur[j - 1]  # largest is a b: shift by i
            for u in range(i, min(size, i + len(w))):
                v[u] += w[u - i]
            cur.append(v)
        prev = cur
    lower = prev[n]
    total = 2 * sum(lower) - (lower[half] if m * n % 2 == 0 else 0)
    assert total == math.comb(m + n, m), "recurrence total"
    return list(itertools.accumulate(lower)), total


def exact_cdf(cum, total, mn, u):
    """P0(U <= u) as a Fraction, u an integer; cum[u] = N(0) + ... + N(u)."""
    if u < 0:
        return Fraction(0)
    if u >= mn:
        return Fraction(1)
    if u <= mn // 2:
        return Fraction(cum[u], total)
    return 1 - exact_cdf(cum, total, mn, mn - u - 1)


def u_stat(a, b):
    twice = 0
    for x in a:
        for y in b:
            twice += 2 if x < y else 1 if x == y else 0
    return twice / 2


def tie_term(a, b):
    counts = {}
    for v in a + b:
        counts[v] = counts.get(v, 0) + 1
    return sum(t**3 - t for t in counts.values())


def reference(a, b, force_exact=False):
    m, n = len(a), len(b)
    mn, big_n = m * n, m + n
    u = u_stat(a, b)
    d = sorted(math.log(y) - math.log(x) for x in a for y in b)
    med = d[mn // 2] if mn % 2 else 0.5 * (d[mn // 2 - 1] + d[mn // 2])
    exact = force_exact or min(m, n) ** 2 * max(m, n) <= 10**6
    sd0 = math.sqrt(mn * (big_n + 1) / 12)
    if exact:
        lower, total = exact_lower(m, n)
        lo = exact_cdf(lower, total, mn, math.ceil(u))
        hi = exact_cdf(lower, total, mn, mn - math.floor(u))
        p = float(min(Fraction(1), 2 * min(lo, hi)))
        k = 0
        while k <= mn // 2 and exact_cdf(lower, total, mn, k) <= Fraction(1, 40):
            k += 1
        level = float(1 - 2 * exact_cdf(lower, total, mn, k - 1)) if k else 0.0
    else:
        var = mn / 12 * ((big_n + 1) - tie_term(a, b) / (big_n * (big_n - 1)))
        dev = abs(u - mn / 2) - 0.5
        p = 1.0 if dev <= 0 or var <= 0 else min(1.0, math.erfc(dev / math.sqrt(2 * var)))
        z = NormalDist().inv_cdf(0.975)
        k = math.floor(mn / 2 + 0.5 - z * sd0)
        level = 1 - 2 * NormalDist().cdf((k - 0.5 - mn / 2) / sd0) if k >= 1 else 0.0
    ok = 1 <= k <= mn + 1 - k
    lo_r = math.exp(d[k - 1]) if ok else 0.0
    hi_r = math.exp(d[mn - k]) if ok else 0.0
    return exact, u, p, k if ok else 0, math.exp(med), lo_r, hi_r, level


def cases(size):
    va = [1 + x for x in stream(1, size)]
    yield "aa", va, [1 + x for x in stream(2, size)]
    yield "x15", va, [1.5 * (1 + x) for x in stream(3, size)]


def main():
    sizes = [int(s) for s in sys.argv[1:]] or [4, 10, 100, 130, 500, 3000]
    for size in sizes:
        for name, a, b in cases(size):
            ex, u, p, k, r, lo, hi, lev = reference(a, b)
            print("    {\"%s\", %d, %d, %.1f, %.17g, %d, %.17g, %.17g, %.17g, %.17g}, /* %s */"
                  % (name, size, ex, u, p, k, r, lo, hi, lev, "exact" if ex else "normal"))
            if not ex and size <= 200:  # the exact values the approximation stands for
                ex, u, p, k, r, lo, hi, lev = reference(a, b, True)
                print("    /* %s %d exact: p %.17g k %d CI %.17g %.17g level %.17g */"
                      % (name, size, p, k, lo, hi, lev))
    # ties, normal approximation: 200 per side, values 1..10
    a = [1 + math.floor(10 * x) for x in stream(4, 200)]
    b = [1 + math.floor(10 * x) for x in stream(5, 200)]
    ex, u, p, k, r, lo, hi, lev = reference(a, b)
    print("    /* ties 200: U %.1f p %.17g tie term %d */" % (u, p, tie_term(a, b)))
    # 100 + 100 exact tail points
    lower, total = exact_lower(100, 100)
    for u in (0, 1000, 3000, 4500, 5000):
        print("    /* P0(U <= %d), 100 + 100: %.17g */"
              % (u, float(exact_cdf(lower, total, 10000, u))))


if __name__ == "__main__":
    main()
