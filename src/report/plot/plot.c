/* SPDX-License-Identifier: MIT */
/*
 * plot: latency and throughput against message size (log-log) through
 * gnuplot. One line per (side, variant) of the kernel drawn, with a legend;
 * the x ticks are powers of 2 written 1K, 1M; every label is printed
 * literally (noenhanced). The eager limit of each side's run record is a
 * dashed vertical line, its label in the top margin above the frame (never
 * on a line or a tick label). The script, with the data inline, goes to
 * gnuplot's stdin (plot_run.c); file names and labels are written into it as
 * gnuplot strings with quotes escaped. gnuplot writes a temporary file next
 * to the output, renamed to it once it holds an image: a failed plot leaves
 * no file.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compare/compare.h"
#include "input.h"
#include "output/output.h"
#include "plot/plot.h"
#include "text.h"

/* One line of a plot: a variant ("" for none) of the kernel drawn, on one side. */
struct plot_line {
    size_t side; /* index into plot_job.sides */
    char variant[32];
};

/* What the gnuplot script draws, and where. */
struct plot_job {
    struct p2pb_side *sides;
    size_t nsides;
    const char *out;                 /* the image file asked for */
    const char *tmp;                 /* the file gnuplot writes (renamed to out) */
    int svg;                         /* 1: svg terminal, 0: pngcairo */
    const struct p2pb_result *first; /* a row of the kernel drawn */
    struct plot_line *lines;         /* nlines distinct (side, variant), first-seen order */
    size_t nlines;
    size_t min_bytes, max_bytes; /* smallest and largest size drawn, bytes > 0 */
};

/* 1 if s ends in suf, letters compared without case (.PNG is .png). */
static int ends_with_nocase(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcasecmp(s + a - b, suf) == 0;
}

/* A row that can be drawn on log-log axes: measured, above 0 bytes. */
static int drawable(const struct p2pb_result *r, const char *kernel)
{
    return r->bytes > 0 && r->status == P2PB_ROW_OK && strcmp(r->kernel, kernel) == 0 &&
           (r->bytes_factor > 0 || r->fixed_bytes > 0); /* the noise probe moves no bytes */
}

void p2pb_one_launch_band(const struct p2pb_side *s, enum p2pb_metric m, const char *kernel,
                          const char *variant, size_t bytes, double *lo, double *hi)
{
    for (size_t f = 0; f < s->nfiles; f++) { /* the first row of the key, as compare */
        const struct p2pb_result *x = p2pb_results_find(&s->files[f], kernel, variant, bytes);
        if (!x || !x->t.ci_valid || p2pb_stats_ci_unbounded(&x->t) || x->status != P2PB_ROW_OK)
            continue;
        if (m == P2PB_METRIC_LATENCY) {
            *lo = x->t.ci95_low;
            *hi = x->t.ci95_high;
        } else if (x->t.ci95_high > 0 && x->t.ci95_low > 0) {
            double moved = x->fixed_bytes > 0 ? x->fixed_bytes : x->bytes_factor * (double)x->bytes;
            *lo = moved / x->t.ci95_high;
            *hi = moved / x->t.ci95_low;
        }
    }
}

/* Inline data block $dL_M of line L and metric M from the side's table t:
 * "bytes median low high", one line per size above 0 bytes. */
static void write_block(FILE *o, const struct p2pb_side *s, const struct p2pb_cmp_table *t,
                        const char *kernel, const struct plot_line *l, size_t idx)
{
    fprintf(o, "$d%zu_%d << EOD\n", idx, (int)t->metric);
    for (size_t i = 0; i < t->nrows; i++) {
        const struct p2pb_cmp_row *r = &t->rows[i];
        if (strcmp(r->kernel, kernel) || strcmp(r->variant, l->variant) || r->bytes == 0 ||
            !(r->med_a > 0))
            continue;
        double lo = r->min_a, hi = r->max_a;
        if (r->na == 1)
            p2pb_one_launch_band(s, t->metric, r->kernel, r->variant, r->bytes, &lo, &hi);
        fprintf(o, "%zu %.9g %.9g %.9g\n", r->bytes, r->med_a, lo, hi);
    }
    fprintf(o, "EOD\n");
}

/* The data blocks of every line: one table per side and metric. */
static void write_blocks(FILE *o, const struct plot_job *job)
{
    struct p2pb_side empty = {0};
    for (size_t s = 0; s < job->nsides; s++)
        for (int m = 0; m < 2; m++) {
            struct p2pb_cmp_table t;
            if (p2pb_compare_build(&job->sides[s], &empty, (enum p2pb_metric)m, 0, 0.05, &t) !=
                P2PB_OK)
                memset(&t, 0, sizeof t);
            t.metric = (enum p2pb_metric)m;
            for (size_t l = 0; l < job->nlines; l++)
                if (job->lines[l].side == s)
                    write_block(o, &job->sides[s], &t, job->first->kernel, &job->lines[l], l);
            p2pb_compare_free(&t);
        }
}

/* x axis: log 2, ticks at powers of 2 written 1, 8, 1K, 1M (at most about
 * 12), the range widened to whole powers of 2 around the sizes drawn, and
 * a little more, so that no tick sits on the border. */
static void write_xaxis(FILE *o, const struct plot_job *job)
{
    int lo = (int)floor(log2((double)job->min_bytes));
    int hi = (int)ceil(log2((double)job->max_bytes));
    if (hi <= lo) {
        lo = lo > 0 ? lo - 1 : 0;
        hi = lo + 2;
    }
    int step = (hi - lo + 11) / 12;
    fprintf(o, "set logscale x 2\nset xrange [%.17g:%.17g]\nset xtics (", ldexp(1.0, lo) / 1.2,
            ldexp(1.0, hi) * 1.2);
    for (int e = lo; e <= hi; e += step) {
        char sz[32];
        fprintf(o, "%s'%s' %.17g", e > lo ? ", " : "", p2pb_fmt_size(sz, sizeof sz, (size_t)1 << e),
                ldexp(1.0, e));
    }
    fputs(")\n", o);
}

/* The eager limit marked in side s's first run record, bytes; -1 unknown. */
static double eager_limit(const struct p2pb_side *s)
{
    const cJSON *e =
        s->nfiles ? cJSON_GetObjectItemCaseSensitive(s->files[0].run, "eager_limit_marked") : NULL;
    return cJSON_IsNumber(e) && e->valuedouble > 0 ? e->valuedouble : -1;
}

/* The eager limits inside the x range (write_xaxis) as dashed vertical
 * lines over the frame's height; each label sits in the top margin, one
 * row per label above the frame and below the title (write_panel moves the
 * title up by as many rows; tmargin grown to fit), starting at the line, or
 * ending there in the right quarter. Side B's is drawn only when it differs
 * from side A's; two labels name their side. Returns the rows. */
static size_t write_eager(FILE *o, const struct plot_job *job)
{
    double e[2] = {-1, -1}, lo = (double)job->min_bytes, hi = (double)job->max_bytes;
    size_t rows = 0;
    for (size_t s = 0; s < job->nsides && s < 2; s++)
        e[s] = eager_limit(&job->sides[s]);
    if (e[1] == e[0])
        e[1] = -1;
    for (size_t s = 0; s < 2; s++) {
        if (!(e[s] >= lo / 1.2 && e[s] <= hi * 1.2))
            continue;
        char sz[32], label[160];
        int named = e[1 - s] > 0 && job->sides[s].name[0];
        snprintf(label, sizeof label, "eager limit %s%s%s",
                 p2pb_fmt_size(sz, sizeof sz, (size_t)e[s]), named ? " " : "",
                 named ? job->sides[s].name : "");
        double at = hi > lo ? (log2(e[s]) - log2(lo)) / (log2(hi) - log2(lo)) : 0;
        fprintf(o,
                "set arrow %zu from %.17g, graph 0 to %.17g, graph 1 nohead dt 2 lw 1.2 "
                "lc rgb '#333333' back\nset label %zu ",
                s + 1, e[s], e[s], s + 1);
        p2pb_gnuplot_quote(o, label);
        fprintf(o, " at %.17g, graph 1 offset character %s, character %.2f %s front\n", e[s],
                at > 0.75 ? "-0.5" : "0.5", 1.0 + 1.2 * (double)rows, at > 0.75 ? "right" : "left");
        rows++;
    }
    if (rows) /* the title, then one row per label, above the frame */
        fprintf(o, "set tmargin %.1f\n", 4.0 + 1.3 * (double)rows);
    return rows;
}

/* Legend of line l: the side's name, its variant, or both. */
static void line_title(const struct plot_job *job, const struct plot_line *l, char *buf, size_t len)
{
    const char *side = job->sides[l->side].name;
    if (!l->variant[0])
        snprintf(buf, len, "%s", side[0] ? side : job->first->display_name);
    else if (job->nsides == 1 || !side[0])
        snprintf(buf, len, "%s", l->variant);
    else
        snprintf(buf, len, "%s %s", side, l->variant);
}

/* One panel: metric m of every line, band then median line per line; the
 * title raised above rows rows of eager-limit labels. */
static void write_panel(FILE *o, const struct plot_job *job, int m, size_t rows)
{
    char title[160];
    snprintf(title, sizeof title, "%s %s", job->first->display_name,
             m == 0 ? "latency (median; band: CI or launch range)"
                    : "throughput (band: CI or launch range)");
    fputs("set title ", o);
    p2pb_gnuplot_quote(o, title);
    fprintf(o, " offset 0, character %.1f", 1.2 * (double)rows);
    fprintf(o, "\nset ylabel '%s'\nplot ", m == 0 ? "t [usec]" : "MB/s (1 MB = 10^6 B)");
    for (size_t l = 0; l < job->nlines; l++) {
        fprintf(o,
                "%s$d%zu_%d using 1:3:4 noautoscale with filledcurves fs transparent solid 0.2 "
                "lc %zu notitle, $d%zu_%d using 1:2 with linespoints lc %zu pt %zu title ",
                l ? ", " : "", l, m, l + 1, l, m, l + 1, l % 13 + 1);
        line_title(job, &job->lines[l], title, sizeof title);
        p2pb_gnuplot_quote(o, title);
    }
    fputc('\n', o);
}

/* Write the whole gnuplot script of job (terminal, data, both panels) to o. */
static void plot_script(FILE *o, const struct plot_job *job)
{
    fprintf(o, "set terminal %s size 1200,500 noenhanced\n", job->svg ? "svg" : "pngcairo");
    fputs("set output ", o);
    p2pb_gnuplot_quote(o, job->tmp);
    fputc('\n', o);
    write_blocks(o, job);
    fputs("set multiplot layout 1,2\n"
          "set logscale y\nset format y '%.10g'\nset grid\nset key top left\n"
          "set xlabel 'message size [bytes]'\n",
          o);
    write_xaxis(o, job);
    size_t rows = write_eager(o, job);
    write_panel(o, job, 0, rows);
    write_panel(o, job, 1, rows);
    fputs("unset multiplot\nset output\n", o);
}

/* The output name: .png or .svg in any case (*svg set), no line break. */
static enum p2pb_status check_name(const char *out, int *svg, char *err, size_t errlen)
{
    *svg = ends_with_nocase(out, ".svg");
    if (!*svg && !ends_with_nocase(out, ".png"))
        return p2pb_fail(P2PB_EUSAGE, err, errlen, "plot output '%s' must end in .png or .svg",
                         out);
    if (strpbrk(out, "\n\r"))
        return p2pb_fail(P2PB_EUSAGE, err, errlen,
                         "plot output name contains a line break (gnuplot cannot write it)");
    return P2PB_OK;
}

/* The first row of the kernel asked for, or the first row of the first file
 * when kernel is NULL; NULL when no file has the kernel. */
static const struct p2pb_result *find_kernel(const struct p2pb_side *sides, size_t nsides,
                                             const char *kernel)
{
    for (size_t s = 0; s < nsides; s++)
        for (size_t f = 0; f < sides[s].nfiles; f++)
            for (size_t i = 0; i < sides[s].files[f].nrows; i++)
                if (!kernel || strcmp(sides[s].files[f].rows[i].kernel, kernel) == 0)
                    return &sides[s].files[f].rows[i];
    return NULL;
}

/* Add (s, variant) of r to the lines unless there; widen the size range. */
static void add_line(struct plot_job *job, size_t s, const struct p2pb_result *r)
{
    if (!job->nlines || r->bytes < job->min_bytes)
        job->min_bytes = r->bytes;
    if (r->bytes > job->max_bytes)
        job->max_bytes = r->bytes;
    for (size_t l = 0; l < job->nlines; l++)
        if (job->lines[l].side == s && strcmp(job->lines[l].variant, r->variant) == 0)
            return;
    job->lines[job->nlines].side = s;
    memcpy(job->lines[job->nlines].variant, r->variant, sizeof r->variant);
    job->nlines++;
}

/* The lines of the kernel drawn: every (side, variant) with a drawable row.
 * Returns P2PB_OK (maybe no line) or P2PB_ENOMEM. */
static enum p2pb_status collect_lines(struct plot_job *job)
{
    size_t rows = 0;
    for (size_t s = 0; s < job->nsides; s++)
        for (size_t f = 0; f < job->sides[s].nfiles; f++)
            rows += job->sides[s].files[f].nrows;
    job->lines = calloc(rows ? rows : 1, sizeof *job->lines);
    if (!job->lines)
        return P2PB_ENOMEM;
    for (size_t s = 0; s < job->nsides; s++)
        for (size_t f = 0; f < job->sides[s].nfiles; f++)
            for (size_t i = 0; i < job->sides[s].files[f].nrows; i++)
                if (drawable(&job->sides[s].files[f].rows[i], job->first->kernel))
                    add_line(job, s, &job->sides[s].files[f].rows[i]);
    return P2PB_OK;
}

/* The job's kernel and lines; P2PB_EFORMAT when there is nothing to draw. */
static enum p2pb_status prepare(struct plot_job *job, const char *kernel, char *err, size_t errlen)
{
    job->first = find_kernel(job->sides, job->nsides, kernel);
    if (!job->first && kernel)
        return p2pb_fail(P2PB_EFORMAT, err, errlen, "kernel '%s' is not in the files to plot",
                         kernel);
    if (!job->first)
        return p2pb_fail(P2PB_EFORMAT, err, errlen, "nothing to plot: the files have no rows");
    enum p2pb_status st = collect_lines(job);
    if (st == P2PB_OK && !job->nlines)
        st = p2pb_fail(P2PB_EFORMAT, err, errlen,
                       "nothing to plot: kernel %s has no measured size above 0 bytes that "
                       "moves bytes (the axes are logarithmic; the noise probe moves none)",
                       job->first->kernel);
    return st;
}

/* Without -k: one line on stderr naming the kernels of the files that were
 * not drawn (sanitised names, at most 8), so that none goes unnoticed. */
static void note_other_kernels(const struct plot_job *job)
{
    char seen[8][32], list[8 * 34] = "";
    size_t n = 0, more = 0, len = 0;
    for (size_t s = 0; s < job->nsides; s++)
        for (size_t f = 0; f < job->sides[s].nfiles; f++)
            for (size_t i = 0; i < job->sides[s].files[f].nrows; i++) {
                const char *k = job->sides[s].files[f].rows[i].kernel;
                size_t j = 0;
                while (j < n && strcmp(seen[j], k) != 0)
                    j++;
                if (j < n || strcmp(k, job->first->kernel) == 0)
                    continue;
                if (n == 8) {
                    more++;
                    continue;
                }
                snprintf(seen[n], sizeof seen[n], "%s", k);
                p2pb_text_sanitize(seen[n]);
                len +=
                    (size_t)snprintf(list + len, sizeof list - len, "%s%s", n ? ", " : "", seen[n]);
                n++;
            }
    if (n)
        fprintf(stderr,
                "p2pbench-report: plot drew kernel %s; the files also hold %s%s (one plot per "
                "kernel: -k NAME)\n",
                job->first->kernel, list, more ? ", ..." : "");
}

/* plot_script as a p2pb_gnuplot_script_fn. */
static void plot_script_fn(FILE *o, const void *job)
{
    plot_script(o, job);
}

/*
 * Run gnuplot prog (killed after timeout_s seconds; <= 0: no limit) with the
 * script of job on its stdin, its stderr captured (never passed through),
 * and check that job->tmp then holds a non-empty image. Returns P2PB_OK, or
 * P2PB_EIO with one line, plus gnuplot's first error line (sanitised) when
 * it printed one.
 */
static enum p2pb_status plot_run(const char *prog, double timeout_s, const struct plot_job *job,
                                 char *err, size_t errlen)
{
    return p2pb_gnuplot_run(prog, timeout_s, plot_script_fn, job, job->tmp, job->out, err, errlen);
}

enum p2pb_status p2pb_plot(struct p2pb_side *sides, size_t nsides, const char *out,
                           const char *kernel, const char *gnuplot, double timeout_s, char *err,
                           size_t errlen)
{
    struct plot_job job = {.sides = sides, .nsides = nsides, .out = out};
    char tmp[4096];
    tmp[0] = '\0';
    enum p2pb_status st = check_name(out, &job.svg, err, errlen);
    if (st == P2PB_OK)
        st = prepare(&job, kernel, err, errlen);
    if (st == P2PB_OK) {
        int fd = p2pb_tmp_beside(out, "plot ", tmp, sizeof tmp, &st, err, errlen);
        if (fd >= 0)
            close(fd); /* gnuplot writes it by name */
        else
            tmp[0] = '\0';
    }
    job.tmp = tmp;
    if (st == P2PB_OK)
        st = plot_run(gnuplot ? gnuplot : "gnuplot", timeout_s, &job, err, errlen);
    if (st == P2PB_OK && p2pb_tmp_commit(tmp, out) != 0)
        st = p2pb_fail(P2PB_EIO, err, errlen, "cannot write plot '%s': %s", out, strerror(errno));
    if (st == P2PB_OK && !kernel)
        note_other_kernels(&job);
    if (st != P2PB_OK)
        p2pb_tmp_drop(tmp);
    free(job.lines);
    return st;
}
