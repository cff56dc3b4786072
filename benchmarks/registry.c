/* SPDX-License-Identifier: MIT */
/*
 * The one table of kernels, in default run order. A kernel is listed here
 * explicitly (no constructor self-registration: a static library drops it).
 */
#include <ctype.h>
#include <stddef.h>
#include <strings.h>

#include "p2pbench/kernel.h"

extern const struct p2pb_kernel p2pb_kernel_pingpong;
extern const struct p2pb_kernel p2pb_kernel_pingping;
extern const struct p2pb_kernel p2pb_kernel_sendrecv;
extern const struct p2pb_kernel p2pb_kernel_exchange;
extern const struct p2pb_kernel p2pb_kernel_uniband;
extern const struct p2pb_kernel p2pb_kernel_oneway;
extern const struct p2pb_kernel p2pb_kernel_biband;
extern const struct p2pb_kernel p2pb_kernel_multi_pingpong;
extern const struct p2pb_kernel p2pb_kernel_multi_uniband;
extern const struct p2pb_kernel p2pb_kernel_memcpy;
extern const struct p2pb_kernel p2pb_kernel_tcp_pingpong;
extern const struct p2pb_kernel p2pb_kernel_tcp_uniband;
extern const struct p2pb_kernel p2pb_kernel_noise;
extern const struct p2pb_kernel p2pb_kernel_msgrate;
extern const struct p2pb_kernel p2pb_kernel_put_latency;
extern const struct p2pb_kernel p2pb_kernel_get_latency;
extern const struct p2pb_kernel p2pb_kernel_put_bw;
extern const struct p2pb_kernel p2pb_kernel_get_bw;
extern const struct p2pb_kernel p2pb_kernel_put_bibw;
extern const struct p2pb_kernel p2pb_kernel_get_bibw;
extern const struct p2pb_kernel p2pb_kernel_overlap;
extern const struct p2pb_kernel p2pb_kernel_persistent_pingpong;
extern const struct p2pb_kernel p2pb_kernel_partitioned_pingpong;

/* One kernel per line. */
/* clang-format off */
const struct p2pb_kernel *const p2pb_kernels[] = {
    &p2pb_kernel_pingpong,
    &p2pb_kernel_pingping,
    &p2pb_kernel_sendrecv,
    &p2pb_kernel_exchange,
    &p2pb_kernel_uniband,
    &p2pb_kernel_oneway,
    &p2pb_kernel_biband,
    &p2pb_kernel_multi_pingpong,
    &p2pb_kernel_multi_uniband,
    &p2pb_kernel_memcpy,
    &p2pb_kernel_tcp_pingpong,
    &p2pb_kernel_tcp_uniband,
    &p2pb_kernel_noise,
    &p2pb_kernel_msgrate,
    &p2pb_kernel_put_latency,
    &p2pb_kernel_get_latency,
    &p2pb_kernel_put_bw,
    &p2pb_kernel_get_bw,
    &p2pb_kernel_put_bibw,
    &p2pb_kernel_get_bibw,
    &p2pb_kernel_overlap,
    &p2pb_kernel_persistent_pingpong,
    &p2pb_kernel_partitioned_pingpong,
};
/* clang-format on */
const size_t p2pb_nkernels = sizeof p2pb_kernels / sizeof p2pb_kernels[0];

/* Kernels run when none is named: the four IMB point-to-point kernels. */
static const char *const default_kernels[] = {"pingpong", "pingping", "sendrecv", "exchange"};

/* 1 when a and b are equal ignoring case and with '-' and '_' the same
 * character (put-latency names put_latency, multi_pingpong multi-pingpong). */
static int name_eq(const char *a, const char *b)
{
    for (;; a++, b++) {
        int x = *a == '_' ? '-' : tolower((unsigned char)*a);
        int y = *b == '_' ? '-' : tolower((unsigned char)*b);
        if (x != y)
            return 0;
        if (!x)
            return 1;
    }
}

const struct p2pb_kernel *p2pb_kernel_find(const char *name)
{
    for (size_t i = 0; i < p2pb_nkernels; i++)
        if (name_eq(p2pb_kernels[i]->name, name))
            return p2pb_kernels[i];
    return NULL;
}

int p2pb_kernel_is_default(const struct p2pb_kernel *k)
{
    for (size_t i = 0; i < sizeof default_kernels / sizeof default_kernels[0]; i++)
        if (strcasecmp(default_kernels[i], k->name) == 0)
            return 1;
    return 0;
}
