/* SPDX-License-Identifier: MIT */
/*
 * test_survey_verdict.c - the survey's verdict rules (src/report/survey/survey_verdict.c,
 * src/common/outlier.c) on synthetic 6-node matrices: healthy links at
 * 20 usec and 1000 MB/s with a few percent of spread; a slow node (every
 * link through it at 100 MB/s), a slow link (one pair at 100 MB/s), both
 * at once, a link slow by latency only, and nothing slow, also when one
 * link is 10% off (below the 20% minimum); a slow link whose kept value was
 * CPU-starved against the typical one is not named but listed apart. The
 * outlier bounds by hand.
 */
#include <math.h>
#include <string.h>

#include "../lib/check.h"
#include "survey/survey.h"

#define N 6

static double lat[N * N], bw[N * N];
static unsigned char retested[N * N];
static char labels[N][P2PB_SURVEY_LABEL];
static int ranks[N];

/* Healthy matrices with a deterministic spread of -3% .. +3%. */
static struct p2pb_survey_matrix healthy(void)
{
    struct p2pb_survey_matrix m = {
        .n = N, .labels = labels, .ranks = ranks, .lat = lat, .bw = bw, .retested = retested};
    for (int i = 0; i < N; i++) {
        snprintf(labels[i], sizeof labels[i], "h%d", i + 1);
        ranks[i] = i;
        for (int j = 0; j < N; j++) {
            double f = 1.0 + 0.01 * (double)(((i * 7 + j * 3) % 7) - 3);
            lat[i * N + j] =
                i == j ? NAN : 20.0 * (i < j ? f : 1.0 + 0.01 * (((j * 7 + i * 3) % 7) - 3));
            bw[i * N + j] = i == j ? NAN : 1000.0 * f;
        }
    }
    return m;
}

static void slow_link_bw(int a, int b, double mbs)
{
    bw[a * N + b] = bw[b * N + a] = mbs;
}

static void slow_node_bw(int h, double mbs)
{
    for (int j = 0; j < N; j++)
        if (j != h)
            slow_link_bw(h, j, mbs);
}

/* The verdict of m: the slow nodes as a bit mask, the slow links listed. */
static void verdict(const struct p2pb_survey_matrix *m, unsigned *nodes, size_t *nlinks,
                    int link[2], unsigned *why)
{
    const struct p2pb_outlier_rule rule = {P2PB_OUTLIER_K, P2PB_OUTLIER_MIN_OFF};
    struct p2pb_survey_verdict v;
    CHECK(p2pb_survey_verdict(m, &rule, P2PB_SLOW_LATENCY | P2PB_SLOW_BANDWIDTH, &v) == P2PB_OK);
    *nodes = 0;
    for (int i = 0; i < N; i++)
        *nodes |= v.slow_node[i] ? 1u << i : 0;
    *nlinks = v.nslow_links;
    link[0] = link[1] = -1;
    *why = 0;
    for (int i = 0; i < N; i++)
        for (int j = i + 1; j < N; j++)
            if (v.slow_link[i * N + j]) {
                link[0] = i, link[1] = j, *why = v.slow_link[i * N + j];
                CHECK(v.slow_link[j * N + i] == v.slow_link[i * N + j]);
            }
    CHECK(v.nslow_nodes == (size_t)__builtin_popcount(*nodes));
    p2pb_survey_verdict_free(&v);
}

static void test_bounds(void)
{
    const double x[] = {1, 2, 3, 4, 100, NAN};
    const struct p2pb_outlier_rule r = {3, 0.2};
    double med, mad, above, below;
    CHECK(p2pb_outlier_bounds(x, 6, &r, &med, &mad, &above, &below) == P2PB_OK);
    /* median 3; |x - 3| = 2 1 0 1 97: MAD 1, scaled 1.4826 */
    CHECK_NEAR(med, 3, 1e-12);
    CHECK_NEAR(mad, 1.4826, 1e-12);
    CHECK_NEAR(above, 3 + 3 * 1.4826, 1e-12);
    CHECK_NEAR(below, 3 - 3 * 1.4826, 1e-12);
    /* all alike: MAD 0, the 20% rule decides */
    const double y[] = {10, 10, 10, 10};
    CHECK(p2pb_outlier_bounds(y, 4, &r, &med, &mad, &above, &below) == P2PB_OK);
    CHECK_NEAR(above, 12, 1e-12);
    CHECK_NEAR(below, 8, 1e-12);
    CHECK(p2pb_outlier_bounds(y, 2, &r, &med, &mad, &above, &below) == P2PB_EUSAGE);
}

/* A link at 100 MB/s whose kept bandwidth (one direction) waited for a CPU
 * 20 points more than the typical measurement (25%): not a slow link, in
 * starved_link (bandwidth); every pair waiting alike (an oversubscribed,
 * quiet machine) or a starved latency only: the link is named. */
static void test_starved(void)
{
    static double lw[N * N], bww[N * N];
    const struct p2pb_outlier_rule rule = {P2PB_OUTLIER_K, P2PB_OUTLIER_MIN_OFF};
    struct p2pb_survey_matrix m = healthy();
    slow_link_bw(2, 4, 100);
    m.lat_wait = lw;
    m.bw_wait = bww;
    for (int i = 0; i < N * N; i++)
        lw[i] = bww[i] = 25;
    bww[4 * N + 2] = 45;
    struct p2pb_survey_verdict v;
    CHECK(p2pb_survey_verdict(&m, &rule, P2PB_SLOW_LATENCY | P2PB_SLOW_BANDWIDTH, &v) == P2PB_OK);
    CHECK(v.nslow_links == 0 && v.nslow_nodes == 0 && v.nstarved_links == 1);
    CHECK(v.starved_link[2 * N + 4] == P2PB_SLOW_BANDWIDTH);
    CHECK(v.starved_link[4 * N + 2] == P2PB_SLOW_BANDWIDTH);
    p2pb_survey_verdict_free(&v);
    bww[4 * N + 2] = 44; /* 19 points above: judged */
    CHECK(p2pb_survey_verdict(&m, &rule, P2PB_SLOW_LATENCY | P2PB_SLOW_BANDWIDTH, &v) == P2PB_OK);
    CHECK(v.nslow_links == 1 && v.slow_link[2 * N + 4] == P2PB_SLOW_BANDWIDTH);
    p2pb_survey_verdict_free(&v);
    bww[4 * N + 2] = 25;
    lw[4 * N + 2] = lw[2 * N + 4] = 90; /* starved latency: bandwidth still judged */
    CHECK(p2pb_survey_verdict(&m, &rule, P2PB_SLOW_LATENCY | P2PB_SLOW_BANDWIDTH, &v) == P2PB_OK);
    CHECK(v.nslow_links == 1 && v.slow_link[2 * N + 4] == P2PB_SLOW_BANDWIDTH);
    CHECK(v.nstarved_links == 0);
    p2pb_survey_verdict_free(&v);
}

int main(void)
{
    unsigned nodes, why;
    size_t nlinks;
    int link[2];
    test_bounds();
    test_starved();

    struct p2pb_survey_matrix m = healthy(); /* nothing slow */
    verdict(&m, &nodes, &nlinks, link, &why);
    CHECK(nodes == 0 && nlinks == 0);

    m = healthy(); /* one link 10% off: below the 20% minimum */
    slow_link_bw(1, 3, 880);
    verdict(&m, &nodes, &nlinks, link, &why);
    CHECK(nodes == 0 && nlinks == 0);

    m = healthy(); /* slow node h3: every link through it */
    slow_node_bw(2, 100);
    verdict(&m, &nodes, &nlinks, link, &why);
    CHECK(nodes == 1u << 2 && nlinks == 0);

    m = healthy(); /* slow link h1-h5 */
    slow_link_bw(0, 4, 100);
    verdict(&m, &nodes, &nlinks, link, &why);
    CHECK(nodes == 0 && nlinks == 1 && link[0] == 0 && link[1] == 4 && why == P2PB_SLOW_BANDWIDTH);

    m = healthy(); /* both: slow node h3 and slow link h1-h5 (one direction only) */
    slow_node_bw(2, 100);
    bw[4 * N + 0] = 150;
    verdict(&m, &nodes, &nlinks, link, &why);
    CHECK(nodes == 1u << 2 && nlinks == 1 && link[0] == 0 && link[1] == 4);

    m = healthy(); /* a slow node on a link that also is slow: still the node only */
    slow_node_bw(5, 50);
    slow_link_bw(5, 1, 10);
    verdict(&m, &nodes, &nlinks, link, &why);
    CHECK(nodes == 1u << 5 && nlinks == 0);

    m = healthy(); /* latency only: h2-h4 at 60 usec */
    lat[1 * N + 3] = lat[3 * N + 1] = 60;
    verdict(&m, &nodes, &nlinks, link, &why);
    CHECK(nodes == 0 && nlinks == 1 && link[0] == 1 && link[1] == 3 && why == P2PB_SLOW_LATENCY);

    /* A CPU-starved run (tests/multihost/survey.sh's plain case beside two
     * spinning processes): healthy pairs at scheduler-quantum levels. The
     * polish made h1-h4 (11.0 MB/s, the typical value) a residual 3x below
     * h1's and h4's other links: not named, it is no slower than the typical
     * pair. The same matrix with h2-h6 at 1 MB/s names that link. */
    static const double starved[N][N] = {
        {NAN, 32.9, 32.9, 11.1, 32.9, 16.5},  {32.9, NAN, 9.4, 9.4, 16.2, 33.0},
        {32.9, 16.5, NAN, 493.9, 16.1, 16.5}, {11.0, 11.0, 507.8, NAN, 13.1, 16.4},
        {32.8, 9.4, 10.9, 10.9, NAN, 13.2},   {16.4, 11.0, 16.5, 32.9, 11.0, NAN}};
    const struct p2pb_outlier_rule half = {P2PB_OUTLIER_K, 0.5};
    for (int slow = 0; slow < 2; slow++) {
        m = healthy();
        memcpy(bw, starved, sizeof bw);
        if (slow)
            slow_link_bw(1, 5, 1);
        struct p2pb_survey_verdict v;
        CHECK(p2pb_survey_verdict(&m, &half, P2PB_SLOW_BANDWIDTH, &v) == P2PB_OK);
        CHECK(v.nslow_nodes == 0 && v.nslow_links == (size_t)slow);
        CHECK(!v.slow_link[0 * N + 3] && !v.slow_link[0 * N + 5]);
        CHECK(v.slow_link[1 * N + 5] == (slow ? P2PB_SLOW_BANDWIDTH : 0));
        p2pb_survey_verdict_free(&v);
    }

    m = healthy(); /* pair bandwidth: the slower direction */
    bw[0 * N + 1] = 10;
    CHECK_NEAR(p2pb_survey_pair_bw(&m, 1, 0), 10, 1e-12);
    bw[0 * N + 1] = NAN;
    CHECK_NEAR(p2pb_survey_pair_bw(&m, 0, 1), bw[1 * N + 0], 1e-12);
    return CHECK_DONE();
}
