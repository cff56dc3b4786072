/* SPDX-License-Identifier: MIT */
/*
 * The IMB layout of the kernels beyond IMB's four (docs/kernels.md, "IMB
 * layout"), from hand-made rows through the imb reporter: table names,
 * Uniband/Biband's Mbytes/sec and Msg/sec (Msg/sec = messages of an
 * iteration / t_max, worked out by hand below), -multi 1 tables with their
 * groups, size by size, and a table whose first size was skipped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/check.h"
#include "output/output.h"
#include "render.h"

static struct p2pb_result row(const char *k, const char *disp, const char *v, size_t bytes,
                              int active, double bf, double tmax, double mbps)
{
    struct p2pb_result r;
    memset(&r, 0, sizeof r);
    snprintf(r.kernel, sizeof r.kernel, "%s", k);
    snprintf(r.display_name, sizeof r.display_name, "%s", disp);
    snprintf(r.variant, sizeof r.variant, "%s", v);
    r.bytes = bytes;
    r.nranks = 4;
    r.active_ranks = active;
    r.bytes_factor = bf;
    r.samples = 10;
    r.iterations_per_sample = 10;
    r.t_min_usec = r.t_max_usec = r.t_avg_usec = tmax;
    r.mbytes_per_sec_imb = mbps;
    r.status = P2PB_ROW_OK;
    return r;
}

/* The imb reporter's text for rows[n]; caller frees. */
static char *imb_text(const struct p2pb_result *rows, size_t n)
{
    size_t len = 0;
    return render_rows(&p2pb_reporter_imb, NULL, -1, rows, n, &len);
}

static void window_kernels(void)
{
    /* Uniband W = 64, t_max 12.8 usec: 64 x 1024 B / 12.8 = 5120 MB/s, 64 / 12.8 usec = 5e6 msg/s;
     * Biband W = 16 (32 messages both ways), t_max 10: 3276.8 MB/s, 3.2e6 msg/s */
    struct p2pb_result r[] = {
        row("uniband", "Uniband", "0->1", 1024, 2, 64, 12.8, 5120),
        row("uniband", "Uniband", "1->0", 1024, 2, 64, 25.6, 2560),
        row("biband", "Biband", "", 1024, 2, 32, 10, 3276.8),
    };
    char *t = imb_text(r, 3);
    CHECK_STR_CONTAINS(t, "# Benchmarking Uniband\n# #processes = 2\n"
                          "# ( 2 additional processes waiting in MPI_Barrier)\n");
    CHECK_STR_CONTAINS(t, "       #bytes #repetitions   Mbytes/sec      Msg/sec\n"
                          "         1024          100      5120.00      5000000\n");
    CHECK_STR_CONTAINS(t, "# Benchmarking Uniband_reverse\n");
    CHECK_STR_CONTAINS(t, "         1024          100      2560.00      2500000\n");
    CHECK_STR_CONTAINS(t, "# Benchmarking Biband_win16\n");
    CHECK_STR_CONTAINS(t, "         1024          100      3276.80      3200000\n");
    CHECK(strstr(t, "Uniband 0->1") == NULL);
    free(t);
}

static void multi_tables(void)
{
    /* rows arrive pair by pair, as p2pbench and `show` hand them over */
    struct p2pb_result r[] = {
        row("multi-pingpong", "Multi-PingPong", "pair 0-1", 0, 4, 1, 1.5, 0),
        row("multi-pingpong", "Multi-PingPong", "pair 0-1", 8, 4, 1, 2, 4),
        row("multi-pingpong", "Multi-PingPong", "pair 2-3", 0, 4, 1, 1.25, 0),
        row("multi-pingpong", "Multi-PingPong", "pair 2-3", 8, 4, 1, 4, 2),
        row("multi-pingpong", "Multi-PingPong", "aggregate", 8, 4, 2, 4, 6),
        row("memcpy", "Memcpy", "rank 0", 64, 2, 16384, 100, 10485.76),
        row("memcpy", "Memcpy", "rank 1", 64, 2, 16384, 200, 5242.88),
    };
    char *t = imb_text(r, 7);
    CHECK_STR_CONTAINS(t, "#----------------------------------------------------------------\n"
                          "# Benchmarking Multi-PingPong\n"
                          "# ( 2 groups of 2 processes each running simultaneous )\n"
                          "# Group  0:     0    1\n# \n# Group  1:     2    3\n# \n"
                          "#----------------------------------------------------------------\n"
                          "        Group       #bytes #repetitions      t[usec]   Mbytes/sec\n"
                          "\n"
                          "            0            0          100         1.50         0.00\n"
                          "            1            0          100         1.25         0.00\n"
                          "\n"
                          "            0            8          100         2.00         4.00\n"
                          "            1            8          100         4.00         2.00\n");
    CHECK_STR_CONTAINS(t, "# Benchmarking Multi-PingPong_aggregate\n# #processes = 4\n");
    CHECK_STR_CONTAINS(t, "            8          100         4.00         6.00\n");
    CHECK_STR_CONTAINS(t, "# Benchmarking Multi-Memcpy\n"
                          "# ( 2 groups of 1 processes each running simultaneous )\n"
                          "# Group  0:     0\n# \n# Group  1:     1\n# \n"
                          "# ( 2 additional processes waiting in MPI_Barrier)\n");
    CHECK_STR_CONTAINS(t, "            1           64          100       200.00      5242.88\n");
    CHECK(strstr(t, "pair 0-1") == NULL);
    free(t);
}

static void skipped_first(void)
{
    struct p2pb_result r[2] = {
        row("tcp-pingpong", "TCP-PingPong", "", 0, 2, 1, 0, 0),
        row("tcp-pingpong", "TCP-PingPong", "", 64, 2, 1, 5, 12.8),
    };
    r[0].status = P2PB_ROW_SKIPPED;
    r[0].active_ranks = 0;
    snprintf(r[0].note, sizeof r[0].note, "size 0 B is below the minimum");
    char *t = imb_text(r, 2);
    CHECK_STR_CONTAINS(t, "# skipped: size 0 B is below the minimum\n\n");
    CHECK_STR_CONTAINS(t, "# Benchmarking TCP-PingPong\n# #processes = 2\n"
                          "# ( 2 additional processes waiting in MPI_Barrier)\n"
                          "#---------------------------------------------------\n"
                          "       #bytes #repetitions      t[usec]   Mbytes/sec\n"
                          "           64          100         5.00        12.80\n");
    free(t);
}

int main(void)
{
    window_kernels();
    multi_tables();
    skipped_first();
    return CHECK_DONE();
}
