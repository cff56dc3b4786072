/* SPDX-License-Identifier: MIT */
/*
 * hcheck.h - a tiny CHECK macro for the host context tests (not assert: it
 * survives NDEBUG). A failed check prints file:line and the expression and
 * counts; HCHECK_DONE() prints the tally and gives the exit code.
 */
#ifndef P2PBENCH_TEST_HCHECK_H
#define P2PBENCH_TEST_HCHECK_H

#include <stdio.h>
#include <string.h>

static int hcheck_passed_, hcheck_failed_;

#define CHECK(expr)                                                                                \
    do {                                                                                           \
        if (expr)                                                                                  \
            hcheck_passed_++;                                                                      \
        else {                                                                                     \
            hcheck_failed_++;                                                                      \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #expr);               \
        }                                                                                          \
    } while (0)

/* Two strings equal (NULL never equals), printing both on failure. */
#define CHECK_STREQ(a, b)                                                                          \
    do {                                                                                           \
        const char *ca_ = (a), *cb_ = (b);                                                         \
        if (ca_ && cb_ && strcmp(ca_, cb_) == 0)                                                   \
            hcheck_passed_++;                                                                      \
        else {                                                                                     \
            hcheck_failed_++;                                                                      \
            fprintf(stderr, "%s:%d: CHECK_STREQ failed: %s = '%s', expected '%s'\n", __FILE__,     \
                    __LINE__, #a, ca_ ? ca_ : "(null)", cb_ ? cb_ : "(null)");                     \
        }                                                                                          \
    } while (0)

#define HCHECK_DONE()                                                                              \
    (printf("%d passed, %d failed\n", hcheck_passed_, hcheck_failed_), hcheck_failed_ ? 1 : 0)

#endif /* P2PBENCH_TEST_HCHECK_H */
