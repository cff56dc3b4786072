/* SPDX-License-Identifier: MIT */
/*
 * html_chart: the two charts of one kernel in the html report, latency and
 * throughput against message size on log axes (x: powers of 2, 1K / 1M;
 * y: powers of 10), drawn by our own SVG writer (svg.c). Per line (side,
 * variant): the band, then the median line with markers. Band and line are
 * those of compare's table (compare.c): the median of the launches' values
 * and their range min..max; a side with one launch shows its 95% CI of the
 * median instead. The eager limit of each side's run record is a dashed
 * vertical line, its label above the plot area (never on a line or a tick
 * label). A point whose launches were disturbed or shifted while measured
 * carries a ring graded by how many and how much: its arc is the share of
 * the side's launches at that size, its weight the time they lost. 0 bytes
 * has no place on a log axis and is left out (the table has it).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "html/html.h"
#include "output/output.h"
#include "html/svg.h"
#include "plot/plot.h"

enum { CHART_W = 540, CHART_H = 320, MAX_VARIANTS = 64 };

/* Plot area inside the chart, px; the top grows by EAGER_ROW per eager
 * limit label, which sits above the area. */
static const double AREA_L = 66, AREA_T = 32, AREA_R = 14, AREA_B = 46, EAGER_ROW = 14;

/* Grades of the time a point's marked launches lost (median over them of
 * the larger of steal_pct and cpu_lost_pct, percent): below LOST_MID thin,
 * below LOST_HIGH medium, else thick (stroke widths in px). */
static const double LOST_MID = 5, LOST_HIGH = 25;
static const double RING_W[3] = {1.2, 2.4, 3.8};

/* One point of a line: size, median, band low and high; of its n launches
 * k were disturbed or shifted while measured (p2pb_disturbed, shift.flagged),
 * and those lost lost (median) and lost_max (most) percent of their time. */
struct pt {
    double x, med, lo, hi;
    size_t k, n;
    double lost, lost_max;
};

/* The time a row lost, percent: steal or off the CPU, the larger. */
static double lost_pct(const struct p2pb_result *x)
{
    if (!x->disturbance.valid)
        return 0;
    return x->disturbance.steal_pct > x->disturbance.cpu_lost_pct ? x->disturbance.steal_pct
                                                                  : x->disturbance.cpu_lost_pct;
}

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The marks of point p of (kernel, variant, p->x bytes) on side s: the
 * launches with the row (its first row per file, as compare), those marked,
 * and the time the marked ones lost. */
static void point_marks(const struct p2pb_side *s, const char *kernel, const char *variant,
                        struct pt *p)
{
    double *lost = malloc((s->nfiles + 1) * sizeof *lost);
    p->k = p->n = 0;
    p->lost = p->lost_max = 0;
    for (size_t f = 0; f < s->nfiles; f++) {
        const struct p2pb_result *x =
            p2pb_results_find(&s->files[f], kernel, variant, (size_t)p->x);
        if (!x || x->status != P2PB_ROW_OK)
            continue;
        p->n++;
        if (!p2pb_disturbed(&x->disturbance) && !x->shift.flagged)
            continue;
        if (lost)
            lost[p->k] = lost_pct(x);
        p->k++;
    }
    if (lost && p->k) {
        qsort(lost, p->k, sizeof *lost, cmp_dbl);
        p->lost = p2pb_quantile_sorted(lost, p->k, 0.5);
        p->lost_max = lost[p->k - 1];
    }
    free(lost);
}

/* The points of (side, variant) of kernel in table t, sizes above 0 bytes
 * with a median; pts holds t->nrows. Returns the count. */
static size_t line_points(const struct html_doc *d, const struct p2pb_cmp_table *t, size_t side,
                          const char *kernel, const char *variant, struct pt *pts)
{
    size_t n = 0;
    for (size_t i = 0; i < t->nrows; i++) {
        const struct p2pb_cmp_row *r = &t->rows[i];
        if (strcmp(r->kernel, kernel) || strcmp(r->variant, variant) || r->bytes == 0)
            continue;
        size_t launches = side ? r->nb : r->na;
        double med = side ? r->med_b : r->med_a;
        if (!launches || !(med > 0) || !isfinite(med))
            continue;
        struct pt p = {(double)r->bytes,
                       med,
                       side ? r->min_b : r->min_a,
                       side ? r->max_b : r->max_a,
                       0,
                       0,
                       0,
                       0};
        if (side ? r->dist_b + r->shift_b : r->dist_a + r->shift_a)
            point_marks(&d->sides[side], kernel, variant, &p);
        if (launches == 1)
            p2pb_one_launch_band(&d->sides[side], t->metric, kernel, variant, r->bytes, &p.lo,
                                 &p.hi);
        if (!(p.lo > 0) || !(p.hi > 0) || !isfinite(p.lo) || !isfinite(p.hi))
            /* a band that a log axis cannot show */
            p.lo = p.hi = med;
        pts[n++] = p;
    }
    return n;
}

/* Widen [*lo, *hi] (data values > 0) by the points; a value that is not
 * finite and positive has no place on a log axis and is passed over. */
static void extend(double *lo, double *hi, double v)
{
    if (!(v > 0) || !isfinite(v))
        return;
    if (!(*lo > 0) || v < *lo)
        *lo = v;
    if (v > *hi)
        *hi = v;
}

/* At most this many labelled ticks per axis (the grid loops count them). */
enum { X_TICKS = 10, Y_TICKS = 12 };

/* The axes of a chart from the data range (finite values > 0, extend):
 * x in whole powers of 2 from 2^0 (1 byte: a size is at least that), y in
 * whole powers of 10, each at least one step wide. */
static struct p2pb_svg_axes make_axes(double xmin, double xmax, double ymin, double ymax)
{
    struct p2pb_svg_axes a = {AREA_L,
                              AREA_T,
                              CHART_W - AREA_L - AREA_R,
                              CHART_H - AREA_T - AREA_B,
                              floor(log2(xmin)),
                              ceil(log2(xmax)),
                              floor(log10(ymin)),
                              ceil(log10(ymax))};
    if (a.xlo < 0)
        a.xlo = 0;
    if (a.xhi <= a.xlo) { /* one size: a step either side, never below 1 byte */
        a.xlo = a.xlo >= 1 ? a.xlo - 1 : 0;
        a.xhi = a.xlo + 2;
    }
    if (a.yhi <= a.ylo)
        a.yhi = a.ylo + 1;
    return a;
}

/* Grid and tick labels: x at powers of 2 (at most X_TICKS + 1 labels), y
 * at powers of 10 (every k-th decade, at most Y_TICKS + 1 labels) and,
 * over at most two decades, 2 and 5 between them. Both loops count whole
 * steps over the axes of make_axes (exponents within a double's range). */
static void draw_grid(FILE *o, const struct p2pb_svg_axes *a)
{
    int xspan = (int)(a->xhi - a->xlo), yspan = (int)(a->yhi - a->ylo);
    int xstep = xspan > X_TICKS ? (xspan + X_TICKS - 1) / X_TICKS : 1;
    int ystep = yspan > Y_TICKS ? (yspan + Y_TICKS - 1) / Y_TICKS : 1;
    char buf[32];
    double bottom = a->top + a->height, right = a->left + a->width;
    for (int i = 0; i <= xspan; i += xstep) {
        int e = (int)a->xlo + i;
        double x = p2pb_svg_px(a, ldexp(1.0, e));
        p2pb_svg_line(o, x, a->top, x, bottom, "grid");
        if (e >= 0 && e < 64) /* a size in bytes: 2^e fits a size_t */
            p2pb_svg_text(o, x, bottom + 16, "middle", "tick",
                          p2pb_fmt_size(buf, sizeof buf, (size_t)1 << e));
    }
    int fine = yspan <= 2;
    for (int i = 0; i <= yspan; i += ystep) {
        int e = (int)a->ylo + i;
        for (int m = 1; m <= (i < yspan && fine ? 5 : 1); m += (m == 1 ? 1 : 3)) {
            double v = m * pow(10.0, e), y = p2pb_svg_py(a, v);
            p2pb_svg_line(o, a->left, y, right, y, m == 1 ? "grid" : "grid minor");
            snprintf(buf, sizeof buf, "%.7g", v);
            p2pb_svg_text(o, a->left - 6, y + 4, "end", "tick", buf);
        }
    }
    fprintf(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" class=\"frame\"/>\n",
            a->left, a->top, a->width, a->height);
}

/* 1 when side s's eager limit is drawn on x exponents xlo..xhi: known, in
 * range, and not the same as side 0's. */
static int eager_drawn(const struct html_doc *d, size_t s, double xlo, double xhi)
{
    double e = d->eager[s];
    return e > 0 && log2(e) >= xlo && log2(e) <= xhi && !(s && e == d->eager[0]);
}

/* The eager limit of each side, a dashed vertical line through the plot
 * area with its size written above the area, one row per label from the
 * area's top upwards (make room: EAGER_ROW px per label): off the lines,
 * the markers and rings (8 px) and the tick labels. Near the right edge the
 * text ends at the line instead of starting there. */
static void draw_eager(FILE *o, const struct html_doc *d, const struct p2pb_svg_axes *a)
{
    size_t row = 0;
    for (size_t s = 0; s < d->nsides; s++) {
        if (!eager_drawn(d, s, a->xlo, a->xhi))
            continue;
        double e = d->eager[s], x = p2pb_svg_px(a, e);
        char label[96], sz[32];
        int both = d->nsides == 2 && d->eager[1 - s] != e;
        snprintf(label, sizeof label, "eager limit %s%s%s", p2pb_fmt_size(sz, sizeof sz, (size_t)e),
                 both ? " " : "", both ? d->sides[s].name : "");
        p2pb_svg_line(o, x, a->top, x, a->top + a->height, "eager");
        double width = 6.2 * (double)strlen(label); /* 11 px text, generous */
        int left = x + 3 + width > CHART_W - 2;
        p2pb_svg_text(o, left ? x - 3 : x + 3, a->top - 13 - 13 * (double)row,
                      left ? "end" : "start", "eagerlabel", label);
        row++;
    }
}

/* The ring of a point whose launches were disturbed or shifted: a light
 * full circle, and on it a dark arc from 12 o'clock, clockwise, over the
 * share k/n of the launches; its width grades the time they lost (RING_W).
 * The tooltip (who: side and variant; NULL: a legend sample, no tooltip)
 * says the numbers; data-share and data-lost hold them. */
static void ring(FILE *o, double x, double y, const struct pt *p, const char *who)
{
    const double r = 8, turn = 6.283185307179586; /* 2 pi */
    double share = p->n ? (double)p->k / (double)p->n : 1;
    int grade = p->lost >= LOST_HIGH ? 2 : p->lost >= LOST_MID ? 1 : 0;
    char sz[32];
    fprintf(o, "<g class=\"dmark%s\" data-share=\"%zu/%zu\" data-lost=\"%.1f\">",
            who ? "" : " sample", p->k, p->n, p->lost);
    if (who) {
        fputs("<title>", o);
        p2pb_xml_printf(o,
                        "%s %s: %zu of %zu launches disturbed or shifted; time they lost (steal "
                        "or off the CPU): median %.1f%%, most %.1f%%",
                        who, p2pb_fmt_size(sz, sizeof sz, (size_t)p->x), p->k, p->n, p->lost,
                        p->lost_max);
        fputs("</title>", o);
    }
    fprintf(o,
            "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.0f\" style=\"fill:none;stroke:#aaa;"
            "stroke-width:1\"/>",
            x, y, r);
    if (share >= 1)
        fprintf(o, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.0f\"", x, y, r);
    else
        fprintf(o, "<path d=\"M%.1f,%.1f A%.0f,%.0f 0 %d 1 %.2f,%.2f\"", x, y - r, r, r,
                share > 0.5, x + r * sin(turn * share), y - r * cos(turn * share));
    fprintf(o, " style=\"fill:none;stroke:#000;stroke-width:%.1f\"/></g>\n", RING_W[grade]);
}

/* Band and median line of one series (named who in the rings' tooltips). */
static void draw_series(FILE *o, const struct p2pb_svg_axes *a, const struct pt *p, size_t n,
                        struct html_style st, const char *who)
{
    double *x = malloc(2 * n * sizeof *x), *y = malloc(2 * n * sizeof *y);
    char style[160];
    if (x && y && n) {
        for (size_t i = 0; i < n; i++) {
            x[i] = x[2 * n - 1 - i] = p2pb_svg_px(a, p[i].x);
            y[i] = p2pb_svg_py(a, p[i].hi);
            y[2 * n - 1 - i] = p2pb_svg_py(a, p[i].lo);
        }
        snprintf(style, sizeof style, "fill:%s;fill-opacity:0.18;stroke:none",
                 p2pb_html_colour(st.colour));
        p2pb_svg_poly(o, x, y, 2 * n, 1, style);
        for (size_t i = 0; i < n; i++)
            y[i] = p2pb_svg_py(a, p[i].med);
        snprintf(style, sizeof style, "fill:none;stroke:%s;stroke-width:1.8;stroke-dasharray:%s",
                 p2pb_html_colour(st.colour), p2pb_html_dash(st.dash));
        p2pb_svg_poly(o, x, y, n, 0, style);
        for (size_t i = 0; i < n; i++)
            p2pb_svg_marker(o, x[i], y[i], (int)st.shape, p2pb_html_colour(st.colour));
        for (size_t i = 0; i < n; i++)
            if (p[i].k)
                ring(o, x[i], y[i], &p[i], who);
    }
    free(x);
    free(y);
}

/* The series of kernel in table t: each (side, variant) line, its points. */
struct series {
    struct pt *pts;
    size_t n;
    struct html_style st;
    char who[96]; /* side name and variant */
};

/* Collect the series; returns how many were filled (ser has nsides * nv). */
static size_t collect(const struct html_doc *d, const struct p2pb_cmp_table *t, const char *kernel,
                      const char **v, size_t nv, struct series *ser)
{
    size_t k = 0;
    for (size_t s = 0; s < d->nsides; s++)
        for (size_t j = 0; j < nv; j++) {
            ser[k].pts = calloc(t->nrows ? t->nrows : 1, sizeof *ser[k].pts);
            ser[k].n = ser[k].pts ? line_points(d, t, s, kernel, v[j], ser[k].pts) : 0;
            ser[k].st = p2pb_html_style(d, s, j);
            snprintf(ser[k].who, sizeof ser[k].who, "%s%s%s", d->sides[s].name, v[j][0] ? " " : "",
                     v[j]);
            k++;
        }
    return k;
}

/* One chart: metric of table t for kernel. */
static void chart(FILE *o, const struct html_doc *d, const struct p2pb_cmp_table *t,
                  const char *kernel, const char *display, const char **v, size_t nv)
{
    struct series *ser = calloc(d->nsides * nv + 1, sizeof *ser);
    if (!ser)
        return;
    size_t ns = collect(d, t, kernel, v, nv, ser);
    double xl = NAN, xh = 0, yl = NAN, yh = 0;
    for (size_t k = 0; k < ns; k++)
        for (size_t i = 0; i < ser[k].n; i++) {
            extend(&xl, &xh, ser[k].pts[i].x);
            extend(&yl, &yh, ser[k].pts[i].lo);
            extend(&yl, &yh, ser[k].pts[i].hi);
            extend(&yl, &yh, ser[k].pts[i].med);
        }
    int lat = t->metric == P2PB_METRIC_LATENCY;
    char title[96];
    snprintf(title, sizeof title, "%s %s", display, lat ? "latency" : "throughput");
    fputs("<figure class=\"chart\">\n", o);
    p2pb_svg_open(o, CHART_W, CHART_H, title);
    p2pb_svg_text(o, CHART_W / 2.0, 18, "middle", "ctitle", title);
    if (xh > 0 && yh > 0) {
        struct p2pb_svg_axes a = make_axes(xl, xh, yl, yh);
        for (size_t s = 0; s < d->nsides; s++) /* room for the eager limits' labels */
            if (eager_drawn(d, s, a.xlo, a.xhi)) {
                a.top += EAGER_ROW;
                a.height -= EAGER_ROW;
            }
        draw_grid(o, &a);
        draw_eager(o, d, &a);
        for (size_t k = 0; k < ns; k++)
            draw_series(o, &a, ser[k].pts, ser[k].n, ser[k].st, ser[k].who);
        p2pb_svg_text(o, a.left + a.width / 2, CHART_H - 8, "middle", "alabel",
                      "message size [bytes]");
        fprintf(o,
                "<text transform=\"translate(16,%.1f) rotate(-90)\" text-anchor=\"middle\" "
                "class=\"alabel\">%s</text>\n",
                a.top + a.height / 2, lat ? "t [usec]" : "MB/s (1 MB = 10^6 B)");
    } else {
        p2pb_svg_text(o, CHART_W / 2.0, CHART_H / 2.0, "middle", "alabel",
                      "no size above 0 bytes with a value (log axes)");
    }
    p2pb_svg_close(o);
    fputs("</figure>\n", o);
    for (size_t k = 0; k < ns; k++)
        free(ser[k].pts);
    free(ser);
}

/* A legend sample: the line in its dash with its marker. */
static void legend_sample(FILE *o, struct html_style st)
{
    fputs("<svg viewBox=\"0 0 44 14\" width=\"44\" height=\"14\" aria-hidden=\"true\">", o);
    fprintf(o,
            "<rect x=\"0\" y=\"2\" width=\"44\" height=\"10\" style=\"fill:%s;fill-opacity:0.18\"/>"
            "<line x1=\"2\" y1=\"7\" x2=\"42\" y2=\"7\" style=\"stroke:%s;stroke-width:1.8;"
            "stroke-dasharray:%s\"/>",
            p2pb_html_colour(st.colour), p2pb_html_colour(st.colour), p2pb_html_dash(st.dash));
    p2pb_svg_marker(o, 22, 7, (int)st.shape, p2pb_html_colour(st.colour));
    fputs("</svg>", o);
}

/* The legend of the rings: three samples and what arc and weight mean. */
static void ring_legend(FILE *o)
{
    static const struct pt sample[3] = {
        {1024, 0, 0, 0, 1, 4, 2, 2}, {1024, 0, 0, 0, 3, 4, 10, 10}, {1024, 0, 0, 0, 4, 4, 40, 40}};
    fputs("<p class=\"n rings\">", o);
    for (size_t i = 0; i < 3; i++) {
        fputs("<svg viewBox=\"0 0 22 22\" width=\"22\" height=\"22\" aria-hidden=\"true\">", o);
        ring(o, 11, 11, &sample[i], NULL);
        fputs("</svg> ", o);
    }
    fprintf(o,
            "Ring: some of the side's launches at this size were disturbed or shifted while "
            "measured. Its dark arc, clockwise from the top, is their share of the launches (a "
            "quarter: 1 of 4; a full ring: all of them); its weight is the time they lost "
            "(median over them of steal or time off the CPU): thin below %.0f%%, medium "
            "%.0f-%.0f%%, thick %.0f%% or more. A point stands on the median of the launches: a "
            "short thin arc cannot have moved it much. The tooltip gives the numbers; the "
            "tables give k/n per row (",
            LOST_MID, LOST_MID, LOST_HIGH, LOST_HIGH);
    p2pb_xml_text(o, p2pb_html_marks_words);
    fputs(").</p>\n", o);
}

/* The legend of the kernel's lines: side name, launches, variant; and of
 * the ring when a point is marked. */
static void legend(FILE *o, const struct html_doc *d, const char **v, size_t nv, int marked)
{
    fputs("<ul class=\"legend\">\n", o);
    for (size_t s = 0; s < d->nsides; s++)
        for (size_t j = 0; j < nv; j++) {
            fputs("<li>", o);
            legend_sample(o, p2pb_html_style(d, s, j));
            fputc(' ', o);
            p2pb_xml_text(o, d->sides[s].name);
            if (v[j][0]) {
                fputc(' ', o);
                p2pb_xml_text(o, v[j]);
            }
            fprintf(o, " <span class=\"n\">(%zu launch%s)</span>", d->sides[s].nfiles,
                    d->sides[s].nfiles == 1 ? "" : "es");
            fputs("</li>\n", o);
        }
    fputs("</ul>\n<p class=\"n\">Line: median of the launches' values (one launch: its median); "
          "band: their range min..max (one launch: the 95% CI of its median). Dashed "
          "vertical line: the eager limit recorded in the run (its size written above the "
          "chart). 0 bytes is not drawn (log axes); the tables have it.</p>\n",
          o);
    if (marked)
        ring_legend(o);
}

void p2pb_html_charts(FILE *o, const struct html_doc *d, const char *kernel)
{
    const char *v[MAX_VARIANTS];
    size_t nv = p2pb_html_variants(d, kernel, v, MAX_VARIANTS);
    const char *display = kernel;
    for (size_t i = 0; i < d->lat.nrows; i++)
        if (strcmp(d->lat.rows[i].kernel, kernel) == 0) {
            display = d->lat.rows[i].display_name;
            break;
        }
    fputs("<div class=\"charts\">\n", o);
    chart(o, d, &d->lat, kernel, display, v, nv);
    chart(o, d, &d->thr, kernel, display, v, nv);
    fputs("</div>\n", o);
    size_t dist[2], shift[2];
    legend(o, d, v, nv, p2pb_html_marks(d, kernel, dist, shift) > 0);
}
