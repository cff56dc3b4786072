/* SPDX-License-Identifier: MIT */
/*
 * Size lists and option validation (no MPI is initialized: parsing is pure);
 * the option table against itself, --help and README.md's "### Options"
 * table (argv[1]: the path of README.md).
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/check.h"
#include "harness.h"
#include "optengine.h"
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
    CHECK(p2pb_parse_size("8b", &v, err, sizeof err) == P2PB_EUSAGE); /* bits? as 1Kb */
    CHECK_STR_CONTAINS(err, "ambiguous message size '8b': write 8 or 8B (bytes)");
    CHECK(p2pb_parse_size("1T", &v, err, sizeof err) == P2PB_OK && v == 1099511627776ull);
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

    p2pb_default_sizes(sz, &n);
    CHECK(n == 24 && sz[0] == 0 && sz[1] == 1 && sz[23] == 4194304);
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
    /* '-' and '_' alike: put-latency is put_latency, multi_pingpong multi-pingpong */
    CHECK(parse(&o, "put-latency,multi_pingpong", NULL, NULL) == P2PB_OK && o.nkernels == 2);
    CHECK(strcmp(o.kernels[0]->name, "put_latency") == 0);
    CHECK(strcmp(o.kernels[1]->name, "multi-pingpong") == 0);

    CHECK(parse(&o, "pingpog", NULL, NULL) == P2PB_EUSAGE);
    CHECK_STR_CONTAINS(err, "unknown kernel 'pingpog'");
    CHECK(parse(&o, "--bogus", NULL, NULL) == P2PB_EUSAGE);
    CHECK_STR_CONTAINS(err, "unknown option '--bogus'");
    CHECK(parse(&o, "-s", "2T", NULL) == P2PB_ERANGE); /* 2^41 = 2^31 KiB: a count too large */
    CHECK_STR_CONTAINS(err, "message size 2199023255552 is above 2^31-1 KiB");
    CHECK(parse(&o, "-s", "1K,abc", NULL) == P2PB_EUSAGE);
    CHECK_STR_CONTAINS(err, "--sizes: invalid message size 'abc'");
    CHECK(parse(&o, "--samples", "0", NULL) == P2PB_ERANGE);
    CHECK_STR_CONTAINS(err, "'0' for --samples");
    CHECK(parse(&o, "--samples", "12x", NULL) == P2PB_EUSAGE);
    /* a subnormal or underflowing real is "too small", not "out of range (0..100)" */
    CHECK(parse(&o, "overlap", "--overlap-compute", "1e-308") == P2PB_ERANGE);
    CHECK_STR_CONTAINS(err,
                       "value '1e-308' for --overlap-compute is too small (below 2.22507e-308");
    CHECK(parse(&o, "overlap", "--overlap-compute", "1e-400") == P2PB_ERANGE);
    CHECK_STR_CONTAINS(err, "'1e-400' for --overlap-compute is too small");
    CHECK(parse(&o, "overlap", "--overlap-compute", "1e-300") == P2PB_OK);
    CHECK(parse(&o, "--format", "xml", NULL) == P2PB_EUSAGE);
    CHECK_STR_CONTAINS(err, "unknown format 'xml'");
    /* the option engine's words (issue 21's attack): a value given to a flag, an
     * ambiguous abbreviation, a size beyond the field stored exactly or refused, a
     * long value cut so that the option's name survives, a newline made '?' */
    CHECK(parse(&o, "--help=1", NULL, NULL) == P2PB_EUSAGE);
    CHECK_STR_CONTAINS(err, "option '--help' takes no value");
    CHECK(parse(&o, "--check=yes", NULL, NULL) == P2PB_EUSAGE);
    CHECK_STR_CONTAINS(err, "option '--check' takes no value");
    CHECK(parse(&o, "--ti", "1", NULL) == P2PB_EUSAGE);
    CHECK_STR_CONTAINS(err, "option '--ti' is ambiguous (--time-per-size, --timeout)");
    CHECK(parse(&o, "memcpy", "--memcpy-buffer", "18446744073709551615") == P2PB_ERANGE);
    CHECK_STR_CONTAINS(err, "--memcpy-buffer 18446744073709551615: must be at most");
    CHECK(parse(&o, "memcpy", "--memcpy-buffer", "1099511627775") == P2PB_OK &&
          o.policy.ks.copy_bytes == 1099511627775u);
    {
        char big[300];
        memset(big, 'x', sizeof big - 1);
        big[sizeof big - 1] = '\0';
        CHECK(parse(&o, "--samples", big, NULL) == P2PB_EUSAGE);
        CHECK_STR_CONTAINS(err, "xxx...' for --samples (expected an integer)");
        CHECK(strlen(err) < 200);
    }
    CHECK(parse(&o, "--rounds", "1\n2", NULL) == P2PB_EUSAGE);
    CHECK_STR_CONTAINS(err, "invalid value '1?2' for --rounds");
    CHECK(parse(&o, "--ci-target", "nan", NULL) != P2PB_OK);
    CHECK(parse(&o, "--timeout", "-1", NULL) == P2PB_ERANGE);
    CHECK(parse(&o, "--samples", "5", "--fixed-imb") == P2PB_EUSAGE);
    CHECK(parse(&o, "--min-samples", "50", "--max-samples=10") == P2PB_EUSAGE);
    CHECK(parse(&o, "-s", "2147483649", NULL) == P2PB_ERANGE);
    CHECK_STR_CONTAINS(err, "2147483649");
    CHECK(parse(&o, "-s", "3G", NULL) == P2PB_OK); /* multiple of 1 KiB: sent as 1 KiB blocks */
    /* 1MB: 10^6 bytes (this tool's MB) or 2^20? 1Kb: bits? refused; KiB, MiB taken */
    CHECK(parse(&o, "-s", "1MB", NULL) == P2PB_EUSAGE);
    CHECK_STR_CONTAINS(err, "ambiguous message size '1MB': write 1M (2^20 bytes) or 1MiB");
    CHECK(parse(&o, "-s", "8,1Kb", NULL) == P2PB_EUSAGE);
    CHECK(parse(&o, "-s", "1KiB,2MiB,8B", NULL) == P2PB_OK && o.nsizes == 3 && o.sizes[0] == 8 &&
          o.sizes[1] == 1024 && o.sizes[2] == (size_t)2 << 20);
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

/* Conflicting options: refused, the message names both (issue #13). */
static void conflicts(void)
{
    static struct p2pb_options o;
    static const struct {
        const char *a1, *a2, *a3, *msg;
    } t[] = {
        {"--no-results", "-o", "x.jsonl", "--output and --no-results exclude each other"},
        {"--fixed-imb", "--batch", "7", "--fixed-imb and --batch exclude each other"},
        {"--fixed-imb", "--max-samples", "3", "--fixed-imb and --max-samples exclude each other"},
        {"--fixed-imb", "--min-samples", "3", "--fixed-imb and --min-samples exclude each other"},
        {"--fixed-imb", "--samples", "3", "--fixed-imb and --samples exclude each other"},
        {"--fixed-imb", "--ci-target", "0.1", "--fixed-imb and --ci-target exclude each other"},
        {"--fixed-imb", "--time-per-size", "1", "--fixed-imb and --time-per-size exclude each"},
        {"--samples=5", "--max-samples", "3", "--samples and --max-samples exclude each other"},
        {"--samples=5", "--min-samples", "3", "--samples and --min-samples exclude each other"},
        {"--samples=5", "--ci-target", "0.1", "--samples and --ci-target exclude each other"},
        {"-s", "0", "-s8", "--sizes given twice ('0', then '8'): give it once"},
        {"-m", "3", "-m4", "--msglog given twice ('3', then '4'): give it once"},
        {"-s", "0", "-m4", "--sizes and --msglog exclude each other"},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        err[0] = '\0';
        CHECK(parse(&o, t[i].a1, t[i].a2, t[i].a3) == P2PB_EUSAGE);
        CHECK_STR_CONTAINS(err, t[i].msg);
    }
    /* --cache-size is read only with --off-cache; from 1 KiB to 1 TiB */
    err[0] = '\0';
    CHECK(parse(&o, "--cache-size", "8M", NULL) == P2PB_EUSAGE);
    CHECK_STR_CONTAINS(err, "--cache-size 8388608 is read only with --off-cache");
    CHECK(parse(&o, "--off-cache", "--cache-size", "8M") == P2PB_OK &&
          o.policy.cache_bytes == (size_t)8 << 20 && o.policy.off_cache == 1);
    CHECK(parse(&o, "--off-cache", "--cache-size", "512") == P2PB_ERANGE);
    CHECK(parse(&o, "--off-cache", "--cache-size", "2T") == P2PB_ERANGE);
    CHECK_STR_CONTAINS(err, "--cache-size 2199023255552: must be at most");
    /* honoured together: IMB's repetitions split over the rounds; warm-up given */
    CHECK(parse(&o, "--fixed-imb", "--rounds", "2") == P2PB_OK && o.policy.rounds == 2 &&
          o.policy.mode == P2PB_POLICY_FIXED_IMB);
    CHECK(parse(&o, "--fixed-imb", "--warmup", "3") == P2PB_OK && o.policy.warmup == 3);
    CHECK(parse(&o, "--samples", "4", "--batch=2") == P2PB_OK && o.policy.batch == 2);
}

/* One rule for a repeated option (issue 20, item 17): refused naming it and
 * both values; only -k adds up. --tcp-if that no kernel reads is marked
 * unused (warned, never checked on the host). */
static void repeats(void)
{
    static struct p2pb_options o;
    static const struct {
        const char *a1, *a2, *a3, *msg;
    } t[] = {
        {"--label=a", "-l", "b", "--label given twice ('a', then 'b'): give it once"},
        {"-ox.jsonl", "-o", "y.jsonl", "--output given twice ('x.jsonl', then 'y.jsonl')"},
        {"--samples=3", "--samples", "4", "--samples given twice ('3', then '4')"},
        {"-fcsv", "--format", "imb", "--format given twice ('csv', then 'imb')"},
        {"--timeout=5", "--timeout", "9", "--timeout given twice ('5', then '9')"},
        {"--check", "--check", NULL, "--check given twice: give it once"},
        {"--no-results", "--no-results", NULL, "--no-results given twice: give it once"},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        err[0] = '\0';
        CHECK(parse(&o, t[i].a1, t[i].a2, t[i].a3) == P2PB_EUSAGE);
        CHECK_STR_CONTAINS(err, t[i].msg);
    }
    CHECK(parse(&o, "-k", "pingpong", "-kpingping") == P2PB_OK && o.nkernels == 2);
    CHECK(parse(&o, "pingpong", "--tcp-if", "nosuch0") == P2PB_OK && o.tcp_if_unused == 1);
    CHECK_STR_CONTAINS(o.unused, "--tcp-if has no effect");
    CHECK(parse(&o, "tcp-pingpong", "--tcp-if", "nosuch0") == P2PB_OK && o.tcp_if_unused == 0);
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

/* CHECK(ok), saying why on failure. */
static void expect(int ok, const char *fmt, ...)
{
    if (!ok) {
        va_list ap;
        va_start(ap, fmt);
        fputs("test_options: ", stderr);
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
        va_end(ap);
    }
    CHECK(ok);
}

static const struct p2pb_optdef *find_option(const char *name)
{
    size_t n;
    const struct p2pb_optdef *t = p2pb_option_table(&n);
    for (size_t i = 0; i < n; i++)
        if (strcmp(t[i].name, name) == 0)
            return &t[i];
    return NULL;
}

/* Every entry is complete for its kind; names and letters are unique. */
static void table_shape(void)
{
    size_t n;
    const struct p2pb_optdef *t = p2pb_option_table(&n);
    for (size_t i = 0; i < n; i++) {
        const struct p2pb_optdef *d = &t[i];
        expect((d->kind == P2PB_OPT_FLAG) == (d->metavar == NULL), "--%s: metavar", d->name);
        expect(d->kind != P2PB_OPT_STRING || d->apply || d->ctype == P2PB_CT_STR,
               "--%s: STRING needs apply or a text field", d->name);
        expect(d->kind != P2PB_OPT_ENUM || d->apply || d->choices, "--%s: choices", d->name);
        expect(d->kind != P2PB_OPT_SIZE_LIST || d->apply, "--%s: list parser", d->name);
        expect(!strstr(d->help, "{def}") || d->def_text, "--%s: {def} without default", d->name);
        for (size_t j = 0; j < i; j++) {
            expect(strcmp(t[i].name, t[j].name) != 0, "--%s twice", d->name);
            expect(!d->letter || d->letter != t[j].letter, "-%c twice", d->letter);
        }
    }
}

/* Every option a kernel declares (struct p2pb_kernel.optdefs) is in the
 * option table once, after p2pbench's own, with the kernel's entry (an
 * option two kernels declare is the same entry: the same field, kind and
 * default); none was left out for want of room; the declared ones warn on
 * other kernels and not on it. */
static void declared_options(void)
{
    static struct p2pb_options o;
    size_t n, distinct = 0;
    const struct p2pb_optdef *t = p2pb_option_table(&n);
    for (size_t k = 0; k < p2pb_nkernels; k++) {
        const struct p2pb_kernel *kn = p2pb_kernels[k];
        for (size_t j = 0; j < kn->n_optdefs; j++) {
            const struct p2pb_optdef *d = &kn->optdefs[j], *e = find_option(d->name);
            expect(e != NULL, "%s declares --%s, not in the table", kn->name, d->name);
            if (!e)
                continue;
            expect(e->dst == P2PB_DST_KERNEL && e->dst == d->dst && e->off == d->off &&
                       e->kind == d->kind && e->def == d->def,
                   "%s: --%s differs from the entry another kernel declared", kn->name, d->name);
            expect(p2pb_kernel_reads(kn, d->name), "%s: '%s' not read back", kn->name, d->name);
        }
    }
    size_t first = n; /* the kernels' entries: the table's last, together */
    for (size_t i = 0; i < n; i++)
        if (t[i].dst == P2PB_DST_KERNEL) {
            first = first < i ? first : i;
            distinct++;
        }
    expect(first + distinct == n, "the kernels' options are not the table's last entries");
    size_t want = 0;
    for (size_t k = 0; k < p2pb_nkernels; k++)
        for (size_t j = 0; j < p2pb_kernels[k]->n_optdefs; j++) {
            int seen = 0;
            for (size_t k2 = 0; k2 <= k && !seen; k2++)
                for (size_t j2 = 0; j2 < p2pb_kernels[k2]->n_optdefs && !seen; j2++)
                    seen = (k2 < k || j2 < j) && strcmp(p2pb_kernels[k2]->optdefs[j2].name,
                                                        p2pb_kernels[k]->optdefs[j].name) == 0;
            want += !seen;
        }
    expect(distinct == want && n < P2PB_OPT_MAX, "table: %zu kernel options, want %zu", distinct,
           want);
    CHECK(want == 9); /* memcpy 2, msgrate 2, rma 2, overlap, partitions, tcp-if */
    CHECK(!p2pb_kernel_reads(p2pb_kernel_find("msgrate"), "cache"));
    CHECK(p2pb_kernel_reads(p2pb_kernel_find("msgrate"), "cache-pollute"));
    CHECK(parse(&o, "pingpong", "--cache-pollute", "1M") == P2PB_OK);
    CHECK_STR_CONTAINS(o.unused,
                       "--cache-pollute has no effect on what runs (it is read by: msgrate)");
    CHECK(parse(&o, "msgrate", "--cache-pollute", "1M") == P2PB_OK && o.unused[0] == '\0');
    CHECK(parse(&o, "pingpong", "--rma-sync", "fence") == P2PB_OK);
    CHECK_STR_CONTAINS(o.unused, "(it is read by: put_latency, get_latency, put_bw, get_bw,");
}

/* Defaults: p2pb_policy_init is what a bare command line gets, and giving
 * an option its documented default text changes nothing. */
static void table_defaults(void)
{
    static struct p2pb_options dflt, given;
    struct p2pb_policy pol;
    p2pb_policy_init(&pol);
    CHECK(parse(&dflt, NULL, NULL, NULL) == P2PB_OK);
    CHECK(memcmp(&pol, &dflt.policy, sizeof pol) == 0);
    CHECK(pol.mode == P2PB_POLICY_ADAPTIVE);
    size_t n;
    const struct p2pb_optdef *t = p2pb_option_table(&n);
    for (size_t i = 0; i < n; i++) {
        const struct p2pb_optdef *d = &t[i];
        /* --warmup: def -1 stands for the harness's rule that def_text states;
         * --output: the default name is made by preflight.c */
        if (!d->def_text || d->kind == P2PB_OPT_STRING || strcmp(d->name, "warmup") == 0)
            continue;
        char arg[256];
        snprintf(arg, sizeof arg, "--%s=%s", d->name, d->def_text);
        int ok = parse(&given, arg, NULL, NULL) == P2PB_OK;
        if (ok && d->kind == P2PB_OPT_SIZE_LIST)
            ok = given.nsizes == dflt.nsizes &&
                 memcmp(given.sizes, dflt.sizes, dflt.nsizes * sizeof dflt.sizes[0]) == 0;
        else if (ok) {
            memset(given.unused, 0, sizeof given.unused); /* "has no effect" on pingpong... */
            ok = memcmp(&given, &dflt, sizeof given) == 0;
        }
        expect(ok, "%s differs from the default (%s)", arg, err);
    }
}

/* The layout of one --help line (issue 34): at most P2PB_HELP_WIDTH columns;
 * in the options sections an option's text after P2PB_HELP_COLUMN columns
 * (its names alone on a line when they reach there), and its wrapped lines
 * indented by as many spaces, as getopt_long tools print theirs. */
static void help_line_layout(const char *line, size_t len, int in_options)
{
    const size_t col = P2PB_HELP_COLUMN;
    expect(len <= P2PB_HELP_WIDTH, "--help line of %zu columns: %.*s", len, (int)len, line);
    if (!in_options || len == 0)
        return;
    size_t lead = strspn(line, " ");
    if ((lead == 2 && line[2] == '-') || (lead == 6 && line[6] == '-')) {
        size_t gap = lead;
        while (gap + 1 < len && !(line[gap] == ' ' && line[gap + 1] == ' '))
            gap++;
        expect(gap + 1 >= len || (gap < col && line[col - 1] == ' ' && line[col] != ' '),
               "option's text not after column %zu: %.*s", col, (int)len, line);
    } else
        expect(lead == col, "wrapped line not indented by %zu: %.*s", col, (int)len, line);
}

/* --help: one entry per option, every default filled in, lines laid out as
 * help_line_layout says. */
static void table_help(void)
{
    char *text = NULL;
    size_t len = 0, n;
    FILE *f = open_memstream(&text, &len);
    CHECK(f != NULL);
    if (!f)
        return;
    p2pb_options_usage(f);
    fclose(f);
    const struct p2pb_optdef *t = p2pb_option_table(&n);
    CHECK(strstr(text, "{def}") == NULL);
    int in_options = 0;
    for (const char *l = text; *l;) {
        size_t k = strcspn(l, "\n");
        if (k == 0)
            in_options = 0;
        help_line_layout(l, k, in_options);
        in_options |= strncmp(l, "Options:", 8) == 0 || strncmp(l, "Kernel options", 14) == 0;
        l += k + (l[k] == '\n');
    }
    /* the wrapped text read as one: newline and indent are a space */
    for (char *r = text, *w = text; (*w = *r) != '\0'; w++)
        if (*r++ == '\n') {
            *w = ' ';
            r += strspn(r, " ");
        }
    for (size_t i = 0; i < n; i++) {
        char want[64];
        snprintf(want, sizeof want, "--%s", t[i].name);
        expect(strstr(text, want) != NULL, "--help lacks %s", want);
        if (strstr(t[i].help, "{def}"))
            expect(strstr(text, t[i].def_text) != NULL, "--help lacks %s's default", want);
    }
    free(text);
}

/* ---- README.md's "### Options" table ---- */

#define ROW_MAX 8

/* One row of the table: the options of its first column, the defaults its
 * second column states. */
struct readme_row {
    char names[ROW_MAX][32]; /* long names without "--" */
    char letters[ROW_MAX];   /* short letter of names[i], 0 = none */
    size_t nnames;
    char values[ROW_MAX][128]; /* defaults stated as values, in order */
    size_t nvalues;
    int mentions_default; /* "default" appears (a value or prose) */
};

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t len = 0, cap = 0, got;
    do {
        if (len + 4096 + 1 > cap) {
            cap = 2 * cap + 4096 + 1;
            char *nb = realloc(buf, cap);
            if (!nb)
                break;
            buf = nb;
        }
        got = fread(buf + len, 1, cap - len - 1, f);
        len += got;
    } while (got > 0);
    fclose(f);
    if (buf)
        buf[len] = '\0';
    return buf;
}

/* The options named in a first column: "-k, --kernels LIST",
 * "`-h/--help`", "`--min-samples N`, `--max-samples N`". */
static void row_names(const char *col, const char *end, struct readme_row *r)
{
    for (const char *p = col; p + 2 < end && r->nnames < ROW_MAX; p++) {
        if (p[0] != '-' || p[1] != '-' || (p > col && p[-1] == '-'))
            continue;
        size_t k = 0;
        const char *q = p + 2;
        while (q < end && (islower((unsigned char)*q) || *q == '-') && k + 1 < sizeof r->names[0])
            r->names[r->nnames][k++] = *q++;
        r->names[r->nnames][k] = '\0';
        char letter = 0;
        if (p - col >= 4 && p[-2] == ',' && p[-1] == ' ' && p[-4] == '-')
            letter = p[-3];
        else if (p - col >= 3 && p[-1] == '/' && p[-3] == '-')
            letter = p[-2];
        r->letters[r->nnames++] = letter;
        p = q - 1;
    }
}

/* Copy one stated value at p (`code` or a bare token) into out; returns the
 * end of it, or p if there is none. */
static const char *row_value(const char *p, const char *end, char *out, size_t outlen)
{
    size_t k = 0;
    const char *q = p;
    if (*q == '`') {
        for (q++; q < end && *q != '`' && k + 1 < outlen; q++)
            out[k++] = *q;
        q += q < end;
    } else {
        for (; q < end && (isalnum((unsigned char)*q) || strchr(".:+_-", *q)) && k + 1 < outlen;
             q++)
            out[k++] = *q;
    }
    out[k] = '\0';
    return k ? q : p;
}

static void row_add_value(struct readme_row *r, const char *v)
{
    if (r->nvalues < ROW_MAX)
        snprintf(r->values[r->nvalues++], sizeof r->values[0], "%s", v);
}

/* The defaults a second column states: "default V", "default is V",
 * "default V and W", "`V` (default)"; "default:" and "... (default)" after
 * a word are prose. */
static void row_defaults(const char *col, const char *end, struct readme_row *r)
{
    const char *p = col;
    char v[128];
    while ((p = strstr(p, "default")) != NULL && p < end) {
        r->mentions_default = 1;
        const char *q = p + strlen("default");
        if (*q == ')' && p - col >= 3 && p[-1] == '(' && p[-2] == ' ' && p[-3] == '`') {
            const char *open = p - 4;
            while (open > col && *open != '`')
                open--;
            if (row_value(open, p - 2, v, sizeof v) != open)
                row_add_value(r, v);
        } else if (*q == ' ') {
            q++;
            if (strncmp(q, "is ", 3) == 0)
                q += 3;
            for (const char *e; (e = row_value(q, end, v, sizeof v)) != q; q = e + 5) {
                row_add_value(r, v);
                if (strncmp(e, " and ", 5) != 0)
                    break;
            }
        }
        p += strlen("default");
    }
}

/* Split a table line "| first | second |" (\| is a pipe inside a cell). */
static int parse_row(const char *line, const char *eol, struct readme_row *r)
{
    memset(r, 0, sizeof *r);
    if (line[0] != '|')
        return 0;
    const char *bar = line + 1;
    while (bar < eol && !(*bar == '|' && bar[-1] != '\\'))
        bar++;
    if (bar >= eol)
        return 0;
    row_names(line + 1, bar, r);
    row_defaults(bar + 1, eol, r);
    return 1;
}

/* The default README states for an option: the table's def_text; for
 * --kernels the registry's default kernels (benchmarks/registry.c). */
static void table_default(const struct p2pb_optdef *d, char *out, size_t outlen)
{
    out[0] = '\0';
    if (strcmp(d->name, "kernels") != 0) {
        snprintf(out, outlen, "%s", d->def_text ? d->def_text : "(none)");
        return;
    }
    for (size_t i = 0; i < p2pb_nkernels; i++) {
        if (!p2pb_kernel_is_default(p2pb_kernels[i]))
            continue;
        size_t len = strlen(out);
        snprintf(out + len, outlen - len, "%s%s", len ? " " : "", p2pb_kernels[i]->name);
    }
}

/* One README row against the table; counts each option seen in seen[]. */
static void check_row(const struct readme_row *r, const struct p2pb_optdef *t, size_t *seen)
{
    expect(r->nvalues == 0 || r->nvalues == r->nnames,
           "README row of --%s: %zu defaults for %zu options", r->names[0], r->nvalues, r->nnames);
    for (size_t i = 0; i < r->nnames; i++) {
        const struct p2pb_optdef *d = find_option(r->names[i]);
        expect(d != NULL, "README names --%s, the option table does not", r->names[i]);
        if (!d)
            continue;
        seen[d - t]++;
        expect(r->letters[i] == d->letter, "README: --%s has short option '%c', the table '%c'",
               d->name, r->letters[i] ? r->letters[i] : ' ', d->letter ? d->letter : ' ');
        expect(!d->def_text || r->mentions_default, "README: no default for --%s (table: %s)",
               d->name, d->def_text);
        if (r->nvalues != r->nnames)
            continue;
        char want[256];
        table_default(d, want, sizeof want);
        expect(strcmp(r->values[i], want) == 0, "README: --%s default '%s', the table '%s'",
               d->name, r->values[i], want);
    }
}

static void readme(const char *path)
{
    char *text = path ? read_file(path) : NULL;
    expect(text != NULL, "cannot read README.md (pass its path as the first argument)");
    const char *sec = text ? strstr(text, "\n### Options\n") : NULL;
    expect(sec != NULL, "README.md has no \"### Options\" section");
    size_t n, seen[64] = {0}, rows = 0;
    const struct p2pb_optdef *t = p2pb_option_table(&n);
    CHECK(n <= sizeof seen / sizeof seen[0]);
    const char *line = sec ? strchr(sec + 1, '\n') + 1 : NULL;
    for (int in_table = 0; line && *line; line = strchr(line, '\n') + 1) {
        const char *eol = strchr(line, '\n');
        if (!eol)
            eol = line + strlen(line);
        if (*line != '|' && in_table)
            break;
        in_table |= *line == '|';
        struct readme_row r;
        if (strncmp(line, "|---", 4) != 0 && strncmp(line, "| option |", 10) != 0 &&
            parse_row(line, eol, &r)) {
            check_row(&r, t, seen);
            rows++;
        }
        if (!*eol)
            break;
    }
    CHECK(rows > 0);
    for (size_t i = 0; i < n; i++)
        expect(seen[i] == 1, "README's options table names --%s %zu times", t[i].name, seen[i]);
    free(text);
}

int main(int argc, char **argv)
{
    sizes();
    options();
    conflicts();
    repeats();
    imb_policy();
    table_shape();
    declared_options();
    table_defaults();
    table_help();
    readme(argc > 1 ? argv[1] : NULL);
    return CHECK_DONE();
}
