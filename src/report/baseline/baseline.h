/* SPDX-License-Identifier: MIT */
/*
 * baseline.h - baselines per host class ("is this host normal?"):
 * `p2pbench-report baseline build` turns launches from many hosts into one
 * envelope per row and host class, `baseline check` judges new launches
 * against them (docs/report.md, "Baselines"). Pure except the file I/O
 * named below; errors as status.h (a status and one line in err).
 */
#ifndef P2PBENCH_BASELINE_H
#define P2PBENCH_BASELINE_H

#include <stddef.h>

#include "load.h"

/* Family level of a check: a launch of the baseline's own distribution is
 * called outside in at most 1 - this of checks, over all its rows together
 * (Bonferroni over the k values judged). */
#define P2PB_BASELINE_LEVEL 0.99

/* Fewest launches of a class that give an envelope (t with n - 1 >= 2). */
#define P2PB_BASELINE_MIN_LAUNCHES 3

/*
 * The host class of a launch, from its run record. Text fields hold
 * "unknown" when the record lacks them (an imported log).
 *  cpu_model    the distinct hosts[].cpu_model of the ranks' hosts, sorted,
 *               joined by " + "
 *  hypervisor   the distinct hosts[].hypervisor.verdict_derived, likewise
 *  mpi_library  the run record's mpi_library (first line of
 *               MPI_Get_library_version)
 *  link_profile the run record's link_profile up to its first '+': the
 *               testbed's "+slow-host:..." items are faults injected on
 *               purpose, which a check is there to find, not a class
 *  nhosts       distinct hosts of the ranks (1: all ranks on one host); 0
 *               unknown
 */
struct p2pb_host_class {
    char cpu_model[256];
    char hypervisor[128];
    char mpi_library[256];
    char link_profile[128];
    int nhosts;
};

/* The host class of d (sanitised text). */
void p2pb_host_class_of(const struct p2pb_results_data *d, struct p2pb_host_class *c);

/* 1 when a and b are the same class. */
int p2pb_host_class_equal(const struct p2pb_host_class *a, const struct p2pb_host_class *b);

/* "cpu AMD EPYC, hypervisor kvm, MPI Open MPI v4.1.4, link native, 2 hosts"
 * into buf (len bytes). Returns buf. */
const char *p2pb_host_class_text(const struct p2pb_host_class *c, char *buf, size_t len);

/* The distinct hosts of d's ranks, sorted, comma-joined ("h1,h3"), or the
 * run's host of rank 0 when the record has no ranks; sanitised. Returns buf. */
const char *p2pb_run_hosts(const struct p2pb_results_data *d, char *buf, size_t len);

/*
 * The envelope of one row and metric of a class: the launch values x_1..x_n
 * (latency: t_usec.median, usec; throughput: mbytes_per_sec, MB/s) as the
 * mean and sample standard deviation of ln x_i, and their median.
 */
struct p2pb_envelope {
    char kernel[32], variant[32];
    size_t bytes;
    enum p2pb_metric metric;
    size_t n;
    double median, mean_log, sd_log;
};

/* One class of a baseline: launches built from, their hosts, envelopes. */
struct p2pb_baseline_class {
    struct p2pb_host_class cls;
    size_t launches;
    char hosts[512]; /* the hosts that took part, comma-joined (sanitised) */
    struct p2pb_envelope *rows;
    size_t nrows;
};

struct p2pb_baseline {
    struct p2pb_baseline_class *classes;
    size_t nclasses;
};

/*
 * Group the complete launches files[0..n-1] by host class and make the
 * envelopes of every row and metric with at least P2PB_BASELINE_MIN_LAUNCHES
 * positive values. Incomplete files are left out with a warning on warn.
 * Returns P2PB_OK, P2PB_ENOMEM, or P2PB_EUSAGE when no class has enough
 * launches (err says how many each had).
 */
enum p2pb_status p2pb_baseline_build(const struct p2pb_results_data *files, size_t n, FILE *warn,
                                     struct p2pb_baseline *b, char *err, size_t errlen);

/* Write b as JSON to out (a temporary file beside it, renamed when
 * complete). Returns P2PB_OK, P2PB_EIO or P2PB_ENOMEM. */
enum p2pb_status p2pb_baseline_write(const struct p2pb_baseline *b, const char *out, char *err,
                                     size_t errlen);

/* Read a file p2pb_baseline_write made, refusing one above max_bytes (0: no
 * limit). Returns P2PB_OK, P2PB_EIO, P2PB_ENOMEM or P2PB_EFORMAT (not a
 * baseline, or a bad entry: err names the file and what). */
enum p2pb_status p2pb_baseline_read(const char *path, size_t max_bytes, struct p2pb_baseline *b,
                                    char *err, size_t errlen);

/* The class of b equal to c, or NULL. */
const struct p2pb_baseline_class *p2pb_baseline_find(const struct p2pb_baseline *b,
                                                     const struct p2pb_host_class *c);

/*
 * The envelope's bounds (the metric's unit) for a check that judges k values
 * at once: the prediction interval for one new launch on the log scale,
 * exp(mean_log -/+ h), h = t(1 - (1 - P2PB_BASELINE_LEVEL) / (2k), n - 1)
 * x sd_log x sqrt(1 + 1/n) (Hahn & Meeker, "Statistical Intervals", 1991,
 * sec. 4.4; Bonferroni over the k values), widened to at least
 * median / (1 + floor) .. median x (1 + floor) (floor = -t, 5%: a class of
 * near-identical launches would otherwise call a 1% difference outside).
 */
void p2pb_envelope_bounds(const struct p2pb_envelope *e, size_t k, double floor, double *lo,
                          double *hi);

void p2pb_baseline_free(struct p2pb_baseline *b);

#endif
