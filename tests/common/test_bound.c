/* SPDX-License-Identifier: MIT */
/*
 * test_bound.c - the bound beside a row (src/common/bound.c): rates as the
 * command line gives them, the judgement against 105%, the JSON object and
 * its reader, and the text table's %bound column and note.
 */
#include <stdlib.h>

#include <cjson/cJSON.h>

#include "../lib/check.h"
#include "bound.h"

static void test_rates(void)
{
    double v = 0;
    char err[200];
    CHECK(p2pb_parse_rate("100mbit", &v, err, sizeof err) == P2PB_OK);
    CHECK_NEAR(v, 12.5, 1e-12); /* 10^8 bit/s / 8 = 12.5 x 10^6 B/s */
    CHECK(p2pb_parse_rate("10Gbit", &v, err, sizeof err) == P2PB_OK);
    CHECK_NEAR(v, 1250, 1e-9);
    CHECK(p2pb_parse_rate("800kbit", &v, err, sizeof err) == P2PB_OK);
    CHECK_NEAR(v, 0.1, 1e-12);
    CHECK(p2pb_parse_rate("12.5MB/s", &v, err, sizeof err) == P2PB_OK);
    CHECK_NEAR(v, 12.5, 1e-12);
    CHECK(p2pb_parse_rate("2.5GB/s", &v, err, sizeof err) == P2PB_OK);
    CHECK_NEAR(v, 2500, 1e-9);
    CHECK(p2pb_parse_rate("1kbit", &v, err, sizeof err) == P2PB_OK); /* the limits */
    CHECK_NEAR(v, 1.25e-4, 1e-18);
    CHECK(p2pb_parse_rate("10tbit", &v, err, sizeof err) == P2PB_OK);
    CHECK_NEAR(v, 1.25e6, 1e-6);
    CHECK(p2pb_parse_rate(".5gbit", &v, err, sizeof err) == P2PB_OK);
    CHECK_NEAR(v, 62.5, 1e-12);
    static const char *const bad[] = {"",         "100",       "mbit",       "-1mbit",
                                      "100 mbit", "100mbps",   "nanmbit",    "100MiB/s",
                                      "0x10gbit", "1e-30kbit", "1e-320kbit", "1e400mbit",
                                      "infgbit",  ".mbit",     "1.2.3mbit",  "+1mbit"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK(p2pb_parse_rate(bad[i], &v, err, sizeof err) == P2PB_EUSAGE);
        CHECK_STR_CONTAINS(err, "invalid rate");
        CHECK_STR_CONTAINS(err, "decimal number");
    }
    static const char *const out[] = {"0mbit", "0.9kbit", "0.00001mbit", "10.1tbit", "2000GB/s"};
    for (size_t i = 0; i < sizeof out / sizeof out[0]; i++) {
        CHECK(p2pb_parse_rate(out[i], &v, err, sizeof err) == P2PB_EUSAGE);
        CHECK_STR_CONTAINS(err, i < 3 ? "too small" : "too large");
        CHECK_STR_CONTAINS(err, "1 kbit/s .. 10 Tbit/s");
    }
}

static void test_ib(void)
{
    CHECK_NEAR(p2pb_ib_rate_mbps("100 Gb/sec (4X EDR)\n"), 12500, 1e-9);
    CHECK_NEAR(p2pb_ib_rate_mbps("56 Gb/sec (4X FDR)"), 7000, 1e-9);
    CHECK_NEAR(p2pb_ib_rate_mbps("2.5 Gb/sec (1X SDR)"), 312.5, 1e-9);
    CHECK(p2pb_ib_rate_mbps("") == 0);
    CHECK(p2pb_ib_rate_mbps("fast") == 0);
    CHECK(p2pb_ib_rate_mbps("100 Mb/sec") == 0);
    CHECK(p2pb_ib_rate_mbps(NULL) == 0);
}

static void test_judge(void)
{
    struct p2pb_bound b;
    p2pb_bound_judge(&b, 12.5, P2PB_BOUND_GIVEN, 11.0);
    CHECK(b.valid && b.source == P2PB_BOUND_GIVEN && !b.exceeds);
    CHECK_NEAR(b.percent, 88.0, 1e-9);
    p2pb_bound_judge(&b, 12.5, P2PB_BOUND_LINK, 13.125); /* exactly 105%: not above */
    CHECK(!b.exceeds);
    p2pb_bound_judge(&b, 12.5, P2PB_BOUND_LINK, 13.126);
    CHECK(b.exceeds);
    p2pb_bound_judge(&b, 0, P2PB_BOUND_COPY, 5);
    CHECK(!b.valid && !b.exceeds);
    CHECK(p2pb_bound_source_parse("copy") == P2PB_BOUND_COPY);
    CHECK(p2pb_bound_source_parse("wire") == -1);
    CHECK_STR_CONTAINS(p2pb_bound_source_str(P2PB_BOUND_LINK), "link");
}

static void test_json(void)
{
    struct p2pb_bound b, back;
    char err[300];
    p2pb_bound_judge(&b, 1000, P2PB_BOUND_COPY, 1100);
    cJSON *o = cJSON_CreateObject();
    p2pb_bound_to_json(&b, o);
    CHECK(p2pb_bound_from_json(o, &back, err, sizeof err) == P2PB_OK);
    CHECK(back.valid && back.source == P2PB_BOUND_COPY && back.exceeds);
    CHECK_NEAR(back.mbps, 1000, 1e-9);
    CHECK_NEAR(back.percent, 110, 1e-9);
    cJSON_Delete(o);
    /* no object: no bound; a broken one: refused, named */
    o = cJSON_Parse("{}");
    CHECK(p2pb_bound_from_json(o, &back, err, sizeof err) == P2PB_OK && !back.valid);
    cJSON_Delete(o);
    static const char *const broken[] = {
        "{\"bound\":{\"mbytes_per_sec\":0,\"source\":\"copy\",\"percent\":1,\"exceeds\":false}}",
        "{\"bound\":{\"mbytes_per_sec\":5,\"source\":\"wire\",\"percent\":1,\"exceeds\":false}}",
        "{\"bound\":{\"mbytes_per_sec\":5,\"source\":\"link\",\"percent\":-1,\"exceeds\":false}}",
        "{\"bound\":{\"mbytes_per_sec\":5,\"source\":\"link\",\"percent\":1}}", "{\"bound\":[1]}"};
    for (size_t i = 0; i < sizeof broken / sizeof broken[0]; i++) {
        o = cJSON_Parse(broken[i]);
        CHECK(o && p2pb_bound_from_json(o, &back, err, sizeof err) == P2PB_EFORMAT);
        CHECK_STR_CONTAINS(err, "\"bound\"");
        cJSON_Delete(o);
    }
}

int main(void)
{
    test_rates();
    test_ib();
    test_judge();
    test_json();
    return CHECK_DONE();
}
