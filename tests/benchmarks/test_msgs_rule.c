/* SPDX-License-Identifier: MIT */
/*
 * The message-rate formula and the msgs rule of the descriptors (no MPI
 * calls): p2pb_msgs_per_sec against values worked by hand; the messages
 * counted per iteration of each kernel against docs/kernels.md; and, for
 * every kernel of the registry that counts messages, bytes counted =
 * messages x X, so that msgs/s x X / 10^6 = MB/s exactly (up to rounding).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "p2pbench/kernel.h"
#include "p2pbench/result.h"

static int failures, checks;

#define CHECK(c)                                                         \
    do {                                                                 \
        checks++;                                                        \
        if (!(c)) {                                                      \
            printf("%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #c); \
            failures++;                                                  \
        }                                                                \
    } while (0)
#define CHECK_NEAR(a, b, tol) CHECK(fabs((double)(a) - (double)(b)) <= (tol))

/* Messages per iteration from docs/kernels.md, at window w; -1: none. */
static double defined_msgs(const char *name, size_t w)
{
    static const struct {
        const char *name;
        double per_window, fixed;
    } def[] = {{"uniband", 1, 0},
               {"multi-uniband", 1, 0},
               {"biband", 2, 0},
               {"msgrate", 2, 0},
               {"multi-pingpong", 0, 1}};
    for (size_t i = 0; i < sizeof def / sizeof def[0]; i++)
        if (strcmp(def[i].name, name) == 0)
            return def[i].per_window * (double)w + def[i].fixed;
    return -1;
}

int main(void)
{
    /* by hand: 128 messages in 16 usec = 8 per usec = 8e6 /s */
    CHECK_NEAR(p2pb_msgs_per_sec(128, 16.0), 8e6, 1e-6);
    CHECK_NEAR(p2pb_msgs_per_sec(1, 0.5), 2e6, 1e-9);
    CHECK(p2pb_msgs_per_sec(64, 0.0) == 0.0);
    CHECK(p2pb_msgs_per_sec(0, 5.0) == 0.0);
    CHECK(p2pb_msgs_per_sec(64, NAN) == 0.0);
    /* size 0: msgs/s defined, MB/s 0 */
    CHECK(p2pb_msgs_per_sec(128, 10.0) > 0 && p2pb_mbytes_per_sec(128, 0, 10.0) == 0.0);
    /* msgs/s x X / 10^6 = MB/s: 128 msgs of 1000 B in 16 usec = 8e6 msgs/s, 8000 MB/s */
    CHECK_NEAR(p2pb_msgs_per_sec(128, 16.0) * 1000 / 1e6, p2pb_mbytes_per_sec(128, 1000, 16.0),
               1e-9);

    static const size_t xs[] = {1, 8, 1000, 65537, (size_t)1 << 22};
    static const size_t ws[] = {1, 5, 64, 65536};
    int counting = 0;
    for (size_t i = 0; i < p2pb_nkernels; i++) {
        const struct p2pb_kernel *k = p2pb_kernels[i];
        for (size_t wi = 0; wi < sizeof ws / sizeof ws[0]; wi++) {
            double m = p2pb_kernel_msgs(k, ws[wi]), want = defined_msgs(k->name, ws[wi]);
            if (want < 0) { /* a kernel without a message rate: none counted */
                if (m != 0)
                    printf("kernel %s counts %g messages, docs/kernels.md none\n", k->name, m);
                CHECK(m == 0);
                continue;
            }
            if (m != want)
                printf("kernel %s W=%zu: %g messages, docs/kernels.md %g\n", k->name, ws[wi], m,
                       want);
            CHECK(m == want);
            counting += wi == 0;
            for (size_t xi = 0; xi < sizeof xs / sizeof xs[0]; xi++) {
                size_t x = xs[xi];
                double bytes = p2pb_kernel_bytes(k, x, ws[wi], 16u << 20);
                CHECK(bytes == m * (double)x); /* bytes counted = messages x X */
                double t = 3.7;                /* usec */
                double bf = p2pb_kernel_bytes_factor(k, x, ws[wi], 16u << 20);
                double mbs = p2pb_mbytes_per_sec(bf, x, t);
                CHECK_NEAR(p2pb_msgs_per_sec(m, t) * (double)x / 1e6, mbs, 1e-12 * mbs);
            }
        }
    }
    CHECK(counting == 5); /* uniband, biband, multi-pingpong, multi-uniband, msgrate */
    printf("%s: %d checks, %d failures\n", failures ? "FAIL" : "PASS", checks, failures);
    return failures ? 1 : 0;
}
