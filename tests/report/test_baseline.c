/* SPDX-License-Identifier: MIT */
/*
 * test_baseline.c - the envelope of a baseline (src/report/baseline/baseline.c): its
 * bounds against values worked out by hand from the t table (Student's t,
 * 0.995 quantile at 9 degrees of freedom = 3.2498), the Bonferroni step to
 * k values, the floor of -t, and the file written and read back.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/check.h"
#include "baseline/baseline.h"

int main(void)
{
    /* 10 launches: m = ln 100, s = 0.02 (set directly) */
    struct p2pb_envelope e = {.kernel = "pingpong",
                              .bytes = 1048576,
                              .metric = P2PB_METRIC_THROUGHPUT,
                              .n = 10,
                              .median = 100,
                              .mean_log = log(100),
                              .sd_log = 0.02};
    double lo, hi, h = 3.2498 * 0.02 * sqrt(1.1);
    p2pb_envelope_bounds(&e, 1, 0.0, &lo, &hi);
    CHECK_NEAR(hi, 100 * exp(h), 0.01); /* 107.06 */
    CHECK_NEAR(lo, 100 * exp(-h), 0.01);
    /* k = 5 values judged at once: t(1 - 0.01 / 10, 9) = t(0.999, 9) = 4.2968 */
    p2pb_envelope_bounds(&e, 5, 0.0, &lo, &hi);
    CHECK_NEAR(hi, 100 * exp(4.2968 * 0.02 * sqrt(1.1)), 0.01);
    /* the floor: s = 0 gives median / 1.05 .. median x 1.05 */
    e.sd_log = 0;
    p2pb_envelope_bounds(&e, 1, 0.05, &lo, &hi);
    CHECK_NEAR(lo, 100 / 1.05, 1e-9);
    CHECK_NEAR(hi, 105, 1e-9);

    /* write and read back */
    struct p2pb_baseline b = {0}, r = {0};
    struct p2pb_baseline_class c = {.launches = 10, .rows = &e, .nrows = 1};
    snprintf(c.cls.cpu_model, sizeof c.cls.cpu_model, "AMD EPYC");
    snprintf(c.cls.hypervisor, sizeof c.cls.hypervisor, "kvm");
    snprintf(c.cls.mpi_library, sizeof c.cls.mpi_library, "MPICH Version: 4.0.2");
    snprintf(c.cls.link_profile, sizeof c.cls.link_profile, "native");
    snprintf(c.hosts, sizeof c.hosts, "n1,n2");
    c.cls.nhosts = 2;
    e.sd_log = 0.02;
    b.classes = &c;
    b.nclasses = 1;
    char err[512] = "", path[] = "test_baseline.json";
    CHECK(p2pb_baseline_write(&b, path, err, sizeof err) == P2PB_OK);
    CHECK(p2pb_baseline_read(path, 0, &r, err, sizeof err) == P2PB_OK);
    CHECK(r.nclasses == 1 && r.classes[0].nrows == 1 && r.classes[0].launches == 10);
    CHECK(p2pb_baseline_find(&r, &c.cls) == &r.classes[0]);
    CHECK(strcmp(r.classes[0].hosts, "n1,n2") == 0);
    const struct p2pb_envelope *g = &r.classes[0].rows[0];
    CHECK(g->n == 10 && g->bytes == 1048576 && g->metric == P2PB_METRIC_THROUGHPUT);
    CHECK_NEAR(g->sd_log, 0.02, 1e-12);
    CHECK_NEAR(g->mean_log, log(100), 1e-12);
    struct p2pb_host_class other = c.cls;
    other.nhosts = 1; /* one host: another class */
    CHECK(p2pb_baseline_find(&r, &other) == NULL);
    p2pb_baseline_free(&r);
    remove(path);
    return CHECK_DONE();
}
