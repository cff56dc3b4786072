/* SPDX-License-Identifier: MIT */
/*
 * survey_heatmap.c - the survey's two heatmaps (latency, bandwidth) side by
 * side through gnuplot: nodes on both axes (row 0 at the top), a colour
 * scale with its unit (logarithmic when the values span more than a factor
 * of 10), slow links circled in their two cells, slow nodes crossed on the
 * diagonal and "(slow)" after their names. gnuplot is fork/exec'd without
 * a shell and reads the script, data inline, on its stdin (as plot.c does).
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "input.h"
#include "plot/plot.h"
#include "survey/survey.h"

/* At most this many tic labels per axis; above it every k-th node is named. */
#define MAX_TICS 64
/* Up to this many nodes every measured cell is a box (missing cells stay
 * blank); above it the matrix is drawn as one image. */
#define MAX_CELLS_NODES 256

/* The tics of one axis: node names, "(slow)" after the nodes the panel's
 * metric (verdict bit b) found slow. */
static void write_tics(FILE *o, const char *axis, const struct p2pb_survey_matrix *m,
                       const struct p2pb_survey_verdict *v, unsigned b)
{
    size_t step = m->n > MAX_TICS ? (m->n + MAX_TICS - 1) / MAX_TICS : 1;
    fprintf(o, "set %s (", axis);
    for (size_t i = 0; i < m->n; i += step) {
        char name[P2PB_SURVEY_LABEL + 8];
        snprintf(name, sizeof name, "%s%s", m->labels[i], v->slow_node[i] & b ? " (slow)" : "");
        fprintf(o, "%s", i ? ", " : "");
        p2pb_gnuplot_quote(o, name);
        fprintf(o, " %zu", i);
    }
    fprintf(o, ")%s\n", axis[0] == 'x' ? " rotate by 90 right" : "");
}

/* A logarithmic colour scale when the finite positive values span more
 * than 10x, else a linear one over at least 1.5x from the best value (the
 * smallest time, the largest MB/s; bw: higher is better), so that healthy
 * pairs a few percent apart look alike and a pair 50% off stands out. */
static void colour_scale(FILE *o, const double *x, size_t n, int bw)
{
    double lo = INFINITY, hi = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(x[i]) && x[i] > 0) {
            lo = x[i] < lo ? x[i] : lo;
            hi = x[i] > hi ? x[i] : hi;
        }
    if (!(hi > 0) || hi > 10 * lo)
        fprintf(o, "set logscale cb; set cbrange [*:*]\n");
    else if (bw)
        fprintf(o, "unset logscale cb; set cbrange [%.6g:%.6g]\n", lo < hi / 1.5 ? lo : hi / 1.5,
                hi);
    else
        fprintf(o, "unset logscale cb; set cbrange [%.6g:%.6g]\n", lo,
                hi > 1.5 * lo ? hi : 1.5 * lo);
}

/* One panel: the matrix as an image, then the marks. */
static void write_panel(FILE *o, const struct p2pb_survey_matrix *m,
                        const struct p2pb_survey_verdict *v, int bw)
{
    const double *x = bw ? m->bw : m->lat;
    fprintf(o, "set title '%s'\n",
            bw ? "Bandwidth, one way, row to column"
               : "Latency (PingPong, median, half round trip)");
    fprintf(o, "set cblabel '%s'\n", bw ? "MB/s (1 MB = 10^6 bytes)" : "t [usec]");
    fprintf(o, "set palette defined %s\n",
            bw ? "(0 '#800026', 1 '#fd8d3c', 2 '#ffffcc')"
               : "(0 '#ffffcc', 1 '#fd8d3c', 2 '#800026')");
    colour_scale(o, x, m->n * m->n, bw);
    int cells = m->n <= MAX_CELLS_NODES; /* one box per measured cell, else an image */
    /* only what this panel's metric found slow (as the html heatmaps) */
    unsigned b = bw ? P2PB_SLOW_BANDWIDTH : P2PB_SLOW_LATENCY;
    write_tics(o, "xtics", m, v, b);
    write_tics(o, "ytics", m, v, b);
    size_t nlinks = 0, nnodes = 0;
    for (size_t i = 0; i < m->n * m->n; i++)
        nlinks += (v->slow_link[i] & b) != 0;
    for (size_t i = 0; i < m->n; i++)
        nnodes += (v->slow_node[i] & b) != 0;
    fprintf(o, "plot '-' %s notitle",
            cells ? "using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder lc palette"
                  : "matrix with image");
    if (nlinks)
        fprintf(o, ", '-' with points pt 6 ps 2.5 lw 3 lc rgb '#00b0f0' title 'slow link'");
    if (nnodes)
        fprintf(o, ", '-' with points pt 2 ps 2.5 lw 2 lc rgb '#0050c0' title 'slow node'");
    fputc('\n', o);
    for (size_t i = 0; i < m->n; i++)
        for (size_t j = 0; j < m->n; j++) {
            double y = x[i * m->n + j];
            if (cells && isfinite(y))
                fprintf(o, "%zu %zu %.6g\n", j, i, y);
            else if (!cells && isfinite(y))
                fprintf(o, "%.6g%c", y, j + 1 < m->n ? ' ' : '\n');
            else if (!cells)
                fprintf(o, "?%c", j + 1 < m->n ? ' ' : '\n');
        }
    fprintf(o, "e\n");
    if (nlinks) {
        for (size_t i = 0; i < m->n; i++)
            for (size_t j = 0; j < m->n; j++)
                if (v->slow_link[i * m->n + j] & b)
                    fprintf(o, "%zu %zu\n", j, i);
        fprintf(o, "e\n");
    }
    if (nnodes) {
        for (size_t i = 0; i < m->n; i++)
            if (v->slow_node[i] & b)
                fprintf(o, "%zu %zu\n", i, i);
        fprintf(o, "e\n");
    }
}

static void write_script(FILE *o, const struct p2pb_survey_matrix *m,
                         const struct p2pb_survey_verdict *v, const char *out, int svg)
{
    int side = (int)(m->n * 14 + 300);
    side = side < 480 ? 480 : side > 2400 ? 2400 : side;
    fprintf(o, "set terminal %s size %d,%d font ',9'\nset output ", svg ? "svg" : "pngcairo",
            2 * side + 160, side + 120);
    p2pb_gnuplot_quote(o, out);
    char title[512]; /* per and mode come from the file: quoted, never raw */
    snprintf(title, sizeof title,
             "p2pbench survey: %zu nodes (per %s), pairs %s; %zu slow node%s, %zu slow link%s",
             m->n, m->per[0] ? m->per : "?", m->mode[0] ? m->mode : "?", v->nslow_nodes,
             v->nslow_nodes == 1 ? "" : "s", v->nslow_links, v->nslow_links == 1 ? "" : "s");
    fputs("\nset multiplot layout 1,2 title ", o);
    p2pb_gnuplot_quote(o, title);
    fputc('\n', o);
    fprintf(o,
            "set xrange [-0.5:%zu.5]\nset yrange [%zu.5:-0.5]\nset size ratio -1\n"
            "set key below\nset tics scale 0\nset datafile missing '?'\n",
            m->n - 1, m->n - 1);
    write_panel(o, m, v, 0);
    write_panel(o, m, v, 1);
    fprintf(o, "unset multiplot\n");
}

/* What the heatmap script needs (p2pb_gnuplot_run's ctx). */
struct heatmap_job {
    const struct p2pb_survey_matrix *m;
    const struct p2pb_survey_verdict *v;
    const char *out;
    int svg;
};

static void heatmap_script(FILE *o, const void *ctx)
{
    const struct heatmap_job *j = ctx;
    write_script(o, j->m, j->v, j->out, j->svg);
}

enum p2pb_status p2pb_survey_heatmap(const struct p2pb_survey_matrix *m,
                                     const struct p2pb_survey_verdict *v, const char *out,
                                     const char *prog, double timeout_s, char *err, size_t errlen)
{
    size_t l = strlen(out);
    int svg = l > 4 && strcmp(out + l - 4, ".svg") == 0;
    if (!svg && !(l > 4 && strcmp(out + l - 4, ".png") == 0))
        return p2pb_fail(P2PB_EUSAGE, err, errlen, "heatmap '%s' must end in .png or .svg", out);
    if (strpbrk(out, "\n\r"))
        return p2pb_fail(P2PB_EUSAGE, err, errlen, "heatmap name contains a line break");
    /* gnuplot writes a temporary file beside out, renamed over it only when
     * gnuplot exited 0 with an image: a failed run leaves no file and never
     * a stale or empty one (as plot) */
    char tmp[4096];
    enum p2pb_status st = P2PB_OK;
    int fd = p2pb_tmp_beside(out, "heatmap ", tmp, sizeof tmp, &st, err, errlen);
    if (fd < 0)
        return st;
    close(fd); /* gnuplot writes it by name */
    struct heatmap_job job = {m, v, tmp, svg};
    st = p2pb_gnuplot_run(prog ? prog : "gnuplot", timeout_s, heatmap_script, &job, tmp, out, err,
                          errlen);
    if (st == P2PB_OK && p2pb_tmp_commit(tmp, out) != 0)
        st =
            p2pb_fail(P2PB_EIO, err, errlen, "cannot write heatmap '%s': %s", out, strerror(errno));
    if (st != P2PB_OK)
        p2pb_tmp_drop(tmp);
    return st;
}
