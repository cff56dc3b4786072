/* SPDX-License-Identifier: MIT */
/* Size lists and option validation (no MPI is initialized: parsing is pure). */
#include <stdint.h>

#include "../lib/check.h"
#include "harness.h"
#include "options.h"

static size_t sz[P2PB_MAX_SIZES];
static char err[512];

static int list_is(const char *spec, const size_t *want, size_t nwant)
{
    size_t n = 0;
    if (p2pb_parse_size_list(spec, sz, P2PB_MAX_SIZES, &n, err, sizeof err) != P2PB_OK) {
        fprintf(stderr, "parse '%s' failed: %s\n", spec, err);
        return 0;
    }
    if (n != nwant)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (sz[i] != want[i])
            return 0;
    return 1;
}

static void sizes(void)
{
    size_t v;
    CHECK(p2pb_parse_size("0", &v, err, sizeof err) == P2PB_OK && v == 0);
    CHECK(p2pb_parse_size("1K", &v, err, sizeof err) == P2PB_OK && v == 1024);
    CHECK(p2pb_parse_size("64k", &v, err, sizeof err) == P2PB_OK && v == 65536);
    CHECK(p2pb_parse_size("4M", &v, err, sizeof err) == P2PB_OK && v == 4194304);
    CHECK(p2pb_parse_size("2GiB", &v, err, sizeof err) == P2PB_OK && v == 2147483648u);
    CHECK(p2pb_parse_size("3B", &v, err, sizeof err) == P2PB_OK && v == 3);
    CHECK(p2pb_parse_size("1X", &v, err, sizeof err) == P2PB_EUSAGE);
    CHECK_STR_CONTAINS(err, "'1X'");
    CHECK(p2pb_parse_size("-1", &v, err, sizeof err) == P2PB_EUSAGE);
    CHECK(p2pb_parse_size("", &v, err, sizeof err) == P2PB_EUSAGE);
    CHECK(p2pb_parse_size("1K1", &v, err, sizeof err) == P2PB_EUSAGE);
    CHECK(p2pb_parse_size("99999999999999999999", &v, err, sizeof err) == P2PB_ERANGE);
    CHECK(p2pb_parse_size("18014398509481984K", &v, err, sizeof err) == P2PB_ERANGE);

    const size_t a[] = {0, 8, 1024, 65536, 1048576};
    CHECK(list_is("0,8,1K,64K,1M", a, 5));
    const size_t b[] = {1024,  2048,   4096,   8192,   16384,  32768,
                        65536, 131072, 262144, 524288, 1048576};
    CHECK(list_is("1K..1M", b, 11));
    const size_t c[] = {1024, 4096, 16384, 65536, 262144, 1048576};
    CHECK(list_is("1K..1M*4", c, 6));
    const size_t d[] = {100, 400, 700, 1000};
    CHECK(list_is("100..1000+300", d, 4));
    const size_t e[] = {0, 1, 2, 4, 8};
    CHECK(list_is("0..8", e, 5));
    const size_t f[] = {8, 0, 3}; /* order kept, duplicates removed */
    CHECK(list_is("8,0,8,3", f, 3));

    size_t n;
    CHECK(p2pb_parse_size_list("1K,abc", sz, P2PB_MAX_SIZES, &n, err, sizeof err) == P2PB_EUSAGE);
    CHECK_STR_CONTAINS(err, "'abc'");
    CHECK(p2pb_parse_size_list("8..4", sz, P2PB_MAX_SIZES, &n, err, sizeof err) == P2PB_EUSAGE);
    CHECK(p2pb_parse_size_list("1..8*1", sz, P2PB_MAX_SIZES, &n, err, sizeof err) == P2PB_EUSAGE);
    CHECK(p2pb_parse_size_list("1,", sz, P2PB_MAX_SIZES, &n, err, sizeof err) == P2PB_EUSAGE);
    CHECK(p2pb_parse_size_list("", sz, P2PB_MAX_SIZES, &n, err, sizeof err) == P2PB_EUSAGE);
    CHECK(p2pb_parse_size_list("1..100000+1", sz, P2PB_MAX_SIZES, &n, err, sizeof err) ==
          P2PB_ERANGE);

    /* IMB -msglog: 0 and 2^A .. 2^B */
    CHECK(p2pb_parse_msglog("0:22", sz, P2PB_MAX_SIZES, &n, err, sizeof err) == P2PB_OK && n == 24);
    CHECK(sz[0] == 0 && sz[1] == 1 && sz[23] == 4194304);
    CHECK(p2pb_parse_msglog("3", sz, P2PB_MAX_SIZES, &n, err, sizeof err) == P2PB_OK && n == 5);
    CHECK(p2pb_parse_msglog("4:10", sz, P2PB_MAX_SIZES, &n, err, sizeof err) == P2PB_OK && n == 8);
    CHECK(sz[1] == 16 && sz[7] == 1024);
    CHECK(p2pb_parse_msglog("5:2", sz, P2PB_MAX_SIZES, &n, err, sizeof err) == P2PB_ERANGE);
    CHECK(p2pb_parse_msglog("a:b", sz, P2PB_MAX_SIZES, &n, err, sizeof err) == P2PB_EUSAGE);
    CHECK(p2pb_parse_msglog("0:63", sz, P2PB_MAX_SIZES, &n, err, sizeof err) == P2PB_ERANGE);

    size_t def[64];
    p2pb_default_sizes(def, &n);
    CHECK(n == 24 && def[0] == 0 && def[1] == 1 && def[23] == 4194304);
}

static enum p2pb_status parse(struct p2pb_options *o, const char *a1, const char *a2,
                              const char *a3)
{
    char *argv[5] = {"p2pbench", (char *)a1, (char *)a2, (char *)a3, NULL};
    int argc = 1 + (a1 != NULL) + (a2 != NULL) + (a3 != NULL);
    return p2pb_options_parse(argc, argv, o, err, sizeof err);
}

static void options(void)
{
    static struct p2pb_options o;
    CHECK(parse(&o, NULL, NULL, NULL) == P2PB_OK);
    CHECK(o.nkernels == 4 && o.nsizes == 24);
    CHECK(o.policy.mode == P2PB_POLICY_ADAPTIVE && o.output_default);
    CHECK(parse(&o, "sendrecv", "-s", "0,1K") == P2PB_OK);
    CHECK(o.nkernels == 1 && o.nsizes == 2 && o.sizes[1] == 1024);
    CHECK(parse(&o, "-k", "PingPong,exchange", NULL) == P2PB_OK && o.nkernels == 2);

    CHECK(parse(&o, "pingpog", NULL, NULL) == P2PB_EUSAGE);
    CHECK_STR_CONTAINS(err, "unknown kernel 'pingpog'");
    CHECK(parse(&o, "--bogus", NULL, NULL) == P2PB_EUSAGE);
    CHECK_STR_CONTAINS(err, "unknown option '--bogus'");
    CHECK(parse(&o, "-s", "1K,abc", NULL) == P2PB_EUSAGE);
    CHECK_STR_CONTAINS(err, "invalid message size 'abc'");
    CHECK(parse(&o, "--samples", "0", NULL) == P2PB_ERANGE);
    CHECK_STR_CONTAINS(err, "'0' for --samples");
    CHECK(parse(&o, "--samples", "12x", NULL) == P2PB_EUSAGE);
    CHECK(parse(&o, "--format", "xml", NULL) == P2PB_EUSAGE);
    CHECK_STR_CONTAINS(err, "unknown format 'xml'");
    CHECK(parse(&o, "--ci-target", "nan", NULL) != P2PB_OK);
    CHECK(parse(&o, "--timeout", "-1", NULL) == P2PB_ERANGE);
    CHECK(parse(&o, "--samples", "5", "--fixed-imb") == P2PB_EUSAGE);
    CHECK(parse(&o, "--min-samples", "50", "--max-samples=10") == P2PB_EUSAGE);
    CHECK(parse(&o, "-s", "2147483649", NULL) == P2PB_ERANGE);
    CHECK_STR_CONTAINS(err, "2147483649");
    CHECK(parse(&o, "-s", "3G", NULL) == P2PB_OK); /* multiple of 1 KiB: sent as 1 KiB blocks */
    CHECK(parse(&o, "-s", "1K", "-m") == P2PB_EUSAGE);
    CHECK(parse(&o, "--samples", "7", NULL) == P2PB_OK && o.policy.mode == P2PB_POLICY_FIXED &&
          o.policy.samples == 7);
    CHECK(parse(&o, "--fixed-imb", "-f", "imb") == P2PB_OK &&
          o.policy.mode == P2PB_POLICY_FIXED_IMB && o.reporter == &p2pb_reporter_imb);
    CHECK(parse(&o, "--no-results", NULL, NULL) == P2PB_OK && o.output[0] == '\0' &&
          !o.output_default);
    CHECK(parse(&o, "-o", "x.jsonl", "--label=domU") == P2PB_OK &&
          strcmp(o.output, "x.jsonl") == 0 && strcmp(o.label, "domU") == 0);
}

static void imb_policy(void)
{
    /* IMB: 1000 up to 32 KiB, then 40 MiB / X */
    CHECK(p2pb_imb_repetitions(0) == 1000);
    CHECK(p2pb_imb_repetitions(32768) == 1000);
    CHECK(p2pb_imb_repetitions(65536) == 640);
    CHECK(p2pb_imb_repetitions(1048576) == 40);
    CHECK(p2pb_imb_repetitions(4194304) == 10);
    CHECK(p2pb_imb_repetitions((size_t)1 << 30) == 1);

    struct p2pb_timer_info ti = {"test", 30.0, 1.0};
    /* target = max(20 x 30 ns, 10 x 1 ns) = 600 ns */
    CHECK(p2pb_choose_batch(1000.0, &ti) == 1);
    CHECK(p2pb_choose_batch(100.0, &ti) == 6);
    CHECK(p2pb_choose_batch(70.0, &ti) == 9); /* 600 / 70 = 8.57 -> 9 */
    ti.resolution_ns = 1000.0;                /* coarse clock: 10 us */
    CHECK(p2pb_choose_batch(1000.0, &ti) == 10);
}

int main(void)
{
    sizes();
    options();
    imb_policy();
    return CHECK_DONE();
}
