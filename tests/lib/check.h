/* SPDX-License-Identifier: MIT */
/*
 * check.h - a tiny CHECK macro for tests (not assert: it survives NDEBUG).
 * A failed check prints file:line and the expression, counts the failure and
 * goes on; CHECK_DONE() prints "N passed, N failed" and returns the exit code.
 */
#ifndef P2PBENCH_TEST_CHECK_H
#define P2PBENCH_TEST_CHECK_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int check_passed_, check_failed_;

#define CHECK(expr)                                                                  \
    do {                                                                             \
        if (expr)                                                                    \
            check_passed_++;                                                         \
        else {                                                                       \
            check_failed_++;                                                         \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #expr); \
        }                                                                            \
    } while (0)

/* |a - b| <= tol, printing both values on failure. */
#define CHECK_NEAR(a, b, tol)                                                               \
    do {                                                                                    \
        double ca_ = (double)(a), cb_ = (double)(b);                                        \
        if (fabs(ca_ - cb_) <= (tol))                                                       \
            check_passed_++;                                                                \
        else {                                                                              \
            check_failed_++;                                                                \
            fprintf(stderr, "%s:%d: CHECK_NEAR failed: %s = %.12g, %s = %.12g\n", __FILE__, \
                    __LINE__, #a, ca_, #b, cb_);                                            \
        }                                                                                   \
    } while (0)

#define CHECK_STR_CONTAINS(hay, needle)                                                \
    do {                                                                               \
        const char *ch_ = (hay), *cn_ = (needle);                                      \
        if (ch_ && strstr(ch_, cn_))                                                   \
            check_passed_++;                                                           \
        else {                                                                         \
            check_failed_++;                                                           \
            fprintf(stderr, "%s:%d: '%s' does not contain '%s'\n", __FILE__, __LINE__, \
                    ch_ ? ch_ : "(null)", cn_);                                        \
        }                                                                              \
    } while (0)

#define CHECK_DONE() \
    (printf("%d passed, %d failed\n", check_passed_, check_failed_), check_failed_ ? 1 : 0)

#endif /* P2PBENCH_TEST_CHECK_H */
