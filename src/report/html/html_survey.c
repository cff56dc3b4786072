/* SPDX-License-Identifier: MIT */
/*
 * html_survey: the survey section of the html report (html.h). Per survey
 * file (a results file whose run record has a "survey" object): the
 * verdicts and the slowest pairs, computed by the survey command's own code
 * (survey_load.c, survey_verdict.c, p2pb_survey_slowest), then the latency
 * and bandwidth matrices as inline SVG heatmaps (svg.c), or a per-node
 * table above P2PB_SURVEY_FULL_MAX nodes as `survey` prints.
 *
 * A cell's colour says how much worse than the typical pair (the verdict's
 * exp(mu)) it is, on a sequential scale whose lightness falls with the
 * badness (ColorBrewer YlOrRd, Brewer & Harrower, colorbrewer2.org), so it
 * reads in grey; up to VALUES_MAX nodes the value is printed in the cell,
 * and the verdicts are drawn as shapes, not colours: a slow link is a thick
 * frame, a slow node a dashed outline of its row and column and a cross on
 * the diagonal.
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "html/html.h"
#include "output/output.h"
#include "html/svg.h"

/* Values printed in the cells up to this many nodes. */
enum { VALUES_MAX = 16 };
/* Slow links listed by name; the others are counted. */
enum { LINKS_LISTED = 40 };

/* The colour scale: badness 0 (ratio to the typical pair RATIO_LO or
 * better) to 1 (RATIO_HI times worse or more), on a log scale. */
static const double RATIO_LO = 0.8, RATIO_HI = 4.0;
static const double scale_ticks[] = {0.8, 1.0, 1.25, 1.5, 2.0, 3.0, 4.0};
/* ColorBrewer YlOrRd, 5 classes: light (good) to dark (bad). */
static const unsigned char ramp[][3] = {{0xff, 0xff, 0xb2},
                                        {0xfe, 0xcc, 0x5c},
                                        {0xfd, 0x8d, 0x3c},
                                        {0xf0, 0x3b, 0x20},
                                        {0xbd, 0x00, 0x26}};
enum { NRAMP = sizeof ramp / sizeof ramp[0] };

static int is_survey_file(const struct p2pb_results_data *f)
{
    return cJSON_IsObject(cJSON_GetObjectItemCaseSensitive((const cJSON *)f->run, "survey"));
}

enum p2pb_status p2pb_html_surveys_load(struct html_doc *d, char *err, size_t errlen)
{
    const struct p2pb_outlier_rule rule = {d->opt->mad_k, d->opt->min_off};
    for (size_t s = 0; s < d->nsides; s++)
        for (size_t f = 0; f < d->sides[s].nfiles; f++) {
            const struct p2pb_results_data *file = &d->sides[s].files[f];
            if (!is_survey_file(file) || d->nsurvey_files++ >= HTML_MAX_SURVEYS)
                continue;
            if (!d->surveys && !(d->surveys = calloc(HTML_MAX_SURVEYS, sizeof *d->surveys)))
                return p2pb_fail(P2PB_ENOMEM, err, errlen, "out of memory");
            struct html_survey *h = &d->surveys[d->nsurveys++];
            h->side = s;
            h->path = file->path;
            enum p2pb_status st =
                p2pb_survey_load(file->path, SIZE_MAX, &h->m, err, errlen); /* read before */
            if (st != P2PB_OK)
                return st;
            if (p2pb_survey_verdict(&h->m, &rule, P2PB_SLOW_LATENCY | P2PB_SLOW_BANDWIDTH, &h->v) !=
                P2PB_OK)
                return p2pb_fail(P2PB_ENOMEM, err, errlen, "out of memory");
        }
    return P2PB_OK;
}

void p2pb_html_surveys_free(struct html_doc *d)
{
    for (size_t i = 0; i < d->nsurveys; i++) {
        p2pb_survey_verdict_free(&d->surveys[i].v);
        p2pb_survey_matrix_free(&d->surveys[i].m);
    }
    free(d->surveys);
    d->surveys = NULL;
    d->nsurveys = 0;
}

int p2pb_html_survey_kernel(const struct html_doc *d, const char *kernel)
{
    for (size_t s = 0; s < d->nsides; s++)
        for (size_t f = 0; f < d->sides[s].nfiles; f++) {
            const struct p2pb_results_data *file = &d->sides[s].files[f];
            if (!is_survey_file(file))
                continue;
            for (size_t r = 0; r < file->nrows; r++)
                if (strcmp(file->rows[r].kernel, kernel) == 0)
                    return 1;
        }
    return 0;
}

/* About 3 significant digits: 21293, 153, 20.1, 0.29. */
static const char *num(char *buf, size_t len, double x)
{
    if (!isfinite(x))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, x >= 100 ? "%.0f" : x >= 10 ? "%.1f" : "%.2f", x);
    return buf;
}

/* Badness 0..1 of value x of a metric (bw: MB/s, higher is better) against
 * the typical pair's value. */
static double badness(double x, double typical, int bw)
{
    double r = bw ? typical / x : x / typical;
    double t = log(r / RATIO_LO) / log(RATIO_HI / RATIO_LO);
    return !isfinite(t) ? 1 : t < 0 ? 0 : t > 1 ? 1 : t;
}

/* The fill of badness t ("#rrggbb" into buf[8]); returns 1 when the colour
 * is dark (white text on it): relative luminance below 0.35 (ITU-R BT.709
 * weights on the sRGB values, close enough for a threshold). */
static int ramp_colour(double t, char buf[8])
{
    double p = t * (NRAMP - 1);
    int k = (int)p >= NRAMP - 1 ? NRAMP - 2 : (int)p;
    double f = p - k, c[3];
    for (int i = 0; i < 3; i++)
        c[i] = ramp[k][i] + f * (ramp[k + 1][i] - ramp[k][i]);
    snprintf(buf, 8, "#%02x%02x%02x", (unsigned)(c[0] + 0.5) & 0xffu,
             (unsigned)(c[1] + 0.5) & 0xffu, (unsigned)(c[2] + 0.5) & 0xffu);
    return (0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]) / 255 < 0.35;
}

/* The verdict bit of a metric (bw: bandwidth): a heatmap marks only what
 * its own metric found slow. */
static unsigned bit(int bw)
{
    return bw ? P2PB_SLOW_BANDWIDTH : P2PB_SLOW_LATENCY;
}

/* The geometry of one heatmap, px. */
struct geom {
    size_t n;
    int values;          /* values printed in the cells */
    double cw, ch;       /* cell */
    double left, top;    /* the matrix's top-left corner */
    double scale_x;      /* the colour scale's left edge */
    double height, w, h; /* the scale's height; the whole picture */
    size_t label_chars;  /* labels cut at this many characters */
};

/* The geometry of the heatmap of metric bw: room for the longest label
 * (cut at 22 characters) and " (slow)" when a node is slow by the metric. */
static struct geom make_geom(const struct html_survey *h, int bw)
{
    const struct p2pb_survey_matrix *m = &h->m;
    struct geom g = {.n = m->n, .values = m->n <= VALUES_MAX};
    size_t longest = 4, drawn = 4;
    for (size_t i = 0; i < m->n; i++)
        longest = strlen(m->labels[i]) > longest ? strlen(m->labels[i]) : longest;
    g.label_chars = longest < 22 ? longest : 22;
    for (size_t i = 0; i < m->n; i++) {
        size_t l = strlen(m->labels[i]);
        l = (l < g.label_chars ? l : g.label_chars + 1) + (h->v.slow_node[i] & bit(bw) ? 7 : 0);
        drawn = l > drawn ? l : drawn;
    }
    double label_px = 6.6 * (double)drawn + 8;
    g.cw = g.values ? 40 : 18;
    g.ch = g.values ? 26 : 18;
    g.left = label_px + 22;
    g.top = 30 + label_px;
    g.scale_x = g.left + (double)m->n * g.cw + 26;
    g.height = (double)m->n * g.ch < 170 ? 170 : (double)m->n * g.ch;
    g.w = g.scale_x + 24 + 80;
    g.w = g.w < 440 ? 440 : g.w;
    g.h = g.top + g.height + 30;
    return g;
}

/* Node i's label, cut at g->label_chars, with " (slow)" for a slow node of
 * the metric. */
static const char *label(const struct html_survey *h, const struct geom *g, size_t i, int bw,
                         char *buf, size_t len)
{
    snprintf(buf, len, "%.*s%s%s", (int)g->label_chars, h->m.labels[i],
             strlen(h->m.labels[i]) > g->label_chars ? "~" : "",
             h->v.slow_node[i] & bit(bw) ? " (slow)" : "");
    return buf;
}

/* The node names: rows at the left, columns above (written upwards). */
static void draw_labels(FILE *o, const struct html_survey *h, const struct geom *g, int bw)
{
    char buf[P2PB_SURVEY_LABEL + 16];
    for (size_t i = 0; i < g->n; i++) {
        const char *cls = h->v.slow_node[i] & bit(bw) ? "hl slow" : "hl";
        p2pb_svg_text(o, g->left - 5, g->top + ((double)i + 0.5) * g->ch + 4, "end", cls,
                      label(h, g, i, bw, buf, sizeof buf));
        fprintf(o,
                "<text transform=\"translate(%.1f,%.1f) rotate(-90)\" text-anchor=\"start\" "
                "class=\"%s\">",
                g->left + ((double)i + 0.5) * g->cw + 4, g->top - 5, cls);
        p2pb_xml_text(o, label(h, g, i, bw, buf, sizeof buf));
        fputs("</text>\n", o);
    }
}

/* The tooltip of cell (i, j). */
static void cell_title(const struct html_survey *h, size_t i, size_t j, int bw, double x,
                       double typical, char *buf, size_t len)
{
    const struct p2pb_survey_matrix *m = &h->m;
    char v[32];
    int k = snprintf(buf, len, "%s %s %s: %s %s (x%.2f the typical pair)", m->labels[i],
                     bw ? "->" : "-", m->labels[j], num(v, sizeof v, x), bw ? "MB/s" : "usec",
                     bw ? typical / x : x / typical);
    if (k > 0 && (size_t)k < len && h->v.slow_link[i * m->n + j] & bit(bw))
        k += snprintf(buf + k, len - (size_t)k, "; slow link");
    if (k > 0 && (size_t)k < len && m->retested[i * m->n + j])
        k += snprintf(buf + k, len - (size_t)k, "; retested alone");
    if (k > 0 && (size_t)k < len &&
        m->capped[i * m->n + j] & (bw ? P2PB_SURVEY_CAPPED_BW : P2PB_SURVEY_CAPPED_LAT))
        snprintf(buf + k, len - (size_t)k, "; capped (ended at the survey's time cap)");
}

/* The cells: colour, value (and "r" when retested alone), tooltip. */
static void draw_cells(FILE *o, const struct html_survey *h, const struct geom *g, int bw)
{
    const struct p2pb_survey_matrix *m = &h->m;
    double typical = bw ? h->v.bw_median : h->v.lat_median;
    char style[96], fill[8], title[2 * P2PB_SURVEY_LABEL + 96], v[32];
    for (size_t i = 0; i < g->n; i++)
        for (size_t j = 0; j < g->n; j++) {
            double x0 = g->left + (double)j * g->cw, y0 = g->top + (double)i * g->ch;
            double x = bw ? m->bw[i * m->n + j] : m->lat[i * m->n + j];
            if (i == j || !isfinite(x)) {
                p2pb_svg_rect(o, x0, y0, g->cw, g->ch, "fill:#e4e4e4;stroke:#fff;stroke-width:1",
                              i == j ? NULL : "not measured");
                continue;
            }
            int dark = ramp_colour(badness(x, typical, bw), fill);
            snprintf(style, sizeof style, "fill:%s;stroke:#fff;stroke-width:1", fill);
            cell_title(h, i, j, bw, x, typical, title, sizeof title);
            p2pb_svg_rect(o, x0, y0, g->cw, g->ch, style, title);
            if (!g->values)
                continue;
            snprintf(title, sizeof title, "%s%s", num(v, sizeof v, x),
                     m->retested[i * m->n + j] ? "r" : "");
            p2pb_svg_text(o, x0 + g->cw / 2, y0 + g->ch / 2 + 4, "middle", dark ? "hv dark" : "hv",
                          title);
        }
}

/* A frame inside a cell or band, white under black so that it shows on
 * any fill. dash: NULL or a stroke-dasharray. */
static void frame(FILE *o, double x, double y, double w, double h, double width, const char *dash)
{
    char style[128];
    snprintf(style, sizeof style, "fill:none;stroke:#fff;stroke-width:%.1f", width + 2);
    p2pb_svg_rect(o, x, y, w, h, style, NULL);
    snprintf(style, sizeof style, "fill:none;stroke:#000;stroke-width:%.1f%s%s", width,
             dash ? ";stroke-dasharray:" : "", dash ? dash : "");
    p2pb_svg_rect(o, x, y, w, h, style, NULL);
}

/* A cross in the cell at (x, y), white under black. */
static void cross(FILE *o, double x, double y, double w, double h)
{
    double s = (w < h ? w : h) * 0.3, cx = x + w / 2, cy = y + h / 2;
    for (int k = 0; k < 2; k++) {
        const char *cls = k ? "xmark" : "xmark under";
        p2pb_svg_line(o, cx - s, cy - s, cx + s, cy + s, cls);
        p2pb_svg_line(o, cx - s, cy + s, cx + s, cy - s, cls);
    }
}

/* The verdicts of the metric as shapes: slow links framed, slow nodes' row
 * and column outlined (dashed) and crossed on the diagonal. */
static void draw_marks(FILE *o, const struct html_survey *h, const struct geom *g, int bw)
{
    size_t n = g->n;
    double inset = g->values ? 2.5 : 2;
    for (size_t i = 0; i < n; i++) {
        if (!(h->v.slow_node[i] & bit(bw)))
            continue;
        frame(o, g->left, g->top + (double)i * g->ch, (double)n * g->cw, g->ch, 1.6, "5 3");
        frame(o, g->left + (double)i * g->cw, g->top, g->cw, (double)n * g->ch, 1.6, "5 3");
        cross(o, g->left + (double)i * g->cw, g->top + (double)i * g->ch, g->cw, g->ch);
    }
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            if (i != j && h->v.slow_link[i * n + j] & bit(bw))
                frame(o, g->left + (double)j * g->cw + inset, g->top + (double)i * g->ch + inset,
                      g->cw - 2 * inset, g->ch - 2 * inset, g->values ? 2.5 : 2, NULL);
}

/* The colour scale: a column of steps from the best (bottom) to the worst
 * (top), ticks at scale_ticks with the value and the ratio. */
static void draw_scale(FILE *o, const struct html_survey *h, const struct geom *g, int bw)
{
    enum { STEPS = 40 };
    double typical = bw ? h->v.bw_median : h->v.lat_median, x = g->scale_x;
    char style[64], fill[8], buf[64], v[32];
    p2pb_svg_text(o, x, g->top - 10, "start", "alabel", bw ? "MB/s" : "t [usec]");
    for (int k = 0; k < STEPS; k++) {
        double t = 1 - (k + 0.5) / STEPS;
        ramp_colour(t, fill);
        snprintf(style, sizeof style, "fill:%s;stroke:none", fill);
        p2pb_svg_rect(o, x, g->top + g->height * k / STEPS, 16, g->height / STEPS + 0.5, style,
                      NULL);
    }
    p2pb_svg_rect(o, x, g->top, 16, g->height, "fill:none;stroke:#333;stroke-width:0.8", NULL);
    for (size_t k = 0; k < sizeof scale_ticks / sizeof scale_ticks[0]; k++) {
        double r = scale_ticks[k], val = bw ? typical / r : typical * r;
        double y = g->top + g->height * (1 - badness(val, typical, bw));
        p2pb_svg_line(o, x + 16, y, x + 21, y, "frame");
        if (r == 1)
            snprintf(buf, sizeof buf, "%s typical", num(v, sizeof v, val));
        else
            snprintf(buf, sizeof buf, "%s x%g", num(v, sizeof v, val), r);
        p2pb_svg_text(o, x + 24, y + 4, "start", "tick", buf);
    }
    p2pb_svg_text(o, x, g->top + g->height + 16, "start", "tick", "x: times worse");
}

/* One heatmap: bw 0 latency, 1 bandwidth (row to column). */
static void heatmap(FILE *o, const struct html_survey *h, int bw)
{
    struct geom g = make_geom(h, bw);
    char title[160];
    char sz[32];
    if (bw)
        snprintf(title, sizeof title, "Bandwidth MB/s, row to column (%zu x %s one way)",
                 h->m.window, p2pb_fmt_size(sz, sizeof sz, h->m.bw_bytes));
    else
        snprintf(title, sizeof title, "Latency t [usec], PingPong of %zu bytes, median",
                 h->m.lat_bytes);
    fputs("<figure class=\"chart\">\n", o);
    /* wide enough for the title (at most about 8.5 px per character, bold) */
    double w = fmax(g.w, 8.5 * (double)strlen(title) + 12);
    p2pb_svg_open(o, (int)ceil(w), (int)ceil(g.h), title);
    p2pb_svg_text(o, 4, 18, "start", "ctitle", title);
    if (bw) {
        fprintf(o,
                "<text transform=\"translate(12,%.1f) rotate(-90)\" text-anchor=\"middle\" "
                "class=\"alabel\">from</text>\n",
                g.top + (double)g.n * g.ch / 2);
        p2pb_svg_text(o, g.left - 5, g.top - 5, "end", "alabel", "to:");
    }
    draw_cells(o, h, &g, bw);
    draw_marks(o, h, &g, bw);
    draw_labels(o, h, &g, bw);
    draw_scale(o, h, &g, bw);
    p2pb_svg_close(o);
    fputs("</figure>\n", o);
}

/* The legend of the heatmaps: a sample of each mark and what it means. */
static void legend(FILE *o, const struct html_survey *h)
{
    char fill[8];
    fputs("<ul class=\"legend\">\n<li><svg viewBox=\"0 0 60 16\" width=\"60\" height=\"16\" "
          "aria-hidden=\"true\">",
          o);
    for (int k = 0; k < 6; k++) {
        char style[48];
        ramp_colour(k / 5.0, fill);
        snprintf(style, sizeof style, "fill:%s;stroke:none", fill);
        p2pb_svg_rect(o, 10.0 * k, 2, 10, 12, style, NULL);
    }
    fputs("</svg> lighter: typical or better; darker: worse (up to 4x worse or more)</li>\n"
          "<li><svg viewBox=\"0 0 24 16\" width=\"24\" height=\"16\" aria-hidden=\"true\">",
          o);
    frame(o, 2, 2, 20, 12, 2.5, NULL);
    fputs("</svg> slow link (by the heatmap's metric)</li>\n<li><svg viewBox=\"0 0 24 16\" "
          "width=\"24\" height=\"16\" "
          "aria-hidden=\"true\">",
          o);
    frame(o, 1, 1, 22, 14, 1.6, "5 3");
    cross(o, 1, 1, 22, 14);
    fputs("</svg> slow node: its row and column, (slow) after its name</li>\n", o);
    if (h->m.n <= VALUES_MAX)
        fputs("<li>r: retested alone (the better of its two values)</li>\n", o);
    fputs("</ul>\n<p class=\"n\">Colour: how much worse a pair is than the typical pair (higher "
          "t, lower MB/s), on a log scale; the numbers do not depend on it. Grey cells: the "
          "diagonal (a node with itself) or not measured. Hover over a cell for its pair, value "
          "and marks.</p>\n",
          o);
}

/* After a verdict never retested alone (survey.h). */
#define NOT_RETESTED " &#8212; <b>suspect, not retested</b> (from the first pass alone)"

/* The verdicts: slow nodes, slow links (the first LINKS_LISTED), the rule. */
static void verdict_box(FILE *o, const struct html_survey *h, const struct html_doc *d)
{
    const struct p2pb_survey_matrix *m = &h->m;
    const struct p2pb_survey_verdict *v = &h->v;
    size_t n = m->n, listed = 0;
    fputs("<div class=\"notes\"><h3>Verdicts</h3><ul>\n", o);
    for (size_t i = 0; i < n; i++)
        if (v->slow_node[i]) {
            fputs("<li><b>slow node</b>: ", o);
            p2pb_xml_printf(o,
                            "%s (%s; its links x%.2f latency, x%.3f bandwidth; median over its "
                            "partners %.2f usec, %.1f MB/s)",
                            m->labels[i], p2pb_survey_why(v->slow_node[i]), v->node_lat_f[i],
                            v->node_bw_f[i], v->node_lat[i], v->node_bw[i]);
            fputs(p2pb_survey_node_retested(m, i) ? "</li>\n" : NOT_RETESTED "</li>\n", o);
        }
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            if (v->slow_link[i * n + j] && listed++ < LINKS_LISTED) {
                fputs("<li><b>slow link</b>: ", o);
                p2pb_xml_printf(o, "%s-%s (%s; t %.2f usec, %.1f MB/s)", m->labels[i], m->labels[j],
                                p2pb_survey_why(v->slow_link[i * n + j]), m->lat[i * n + j],
                                p2pb_survey_pair_bw(m, i, j));
                fputs(m->retested[i * n + j] ? "</li>\n" : NOT_RETESTED "</li>\n", o);
            }
    if (listed > LINKS_LISTED)
        fprintf(o, "<li>... and %zu more slow links (p2pbench-report survey FILE -f csv)</li>\n",
                listed - LINKS_LISTED);
    if (v->nstarved_links)
        fprintf(o,
                "<li><b>not judged</b>: %zu link%s beyond the link rule but measured while a "
                "rank of the pair waited for a CPU at least %g points more than the typical "
                "measurement (CPU-starved; p2pbench-report survey FILE lists them)</li>\n",
                v->nstarved_links, v->nstarved_links == 1 ? "" : "s", P2PB_SURVEY_STARVED_PCT);
    if (!v->nslow_nodes && !v->nslow_links)
        fputs("<li>no slow node, no slow link</li>\n", o);
    fprintf(o,
            "<li class=\"n\">slow = beyond the median by more than %g scaled MADs and by at "
            "least %g%%, on the effects of a median polish (docs/survey.md); typical pair "
            "%.2f usec, %.1f MB/s</li>\n</ul></div>\n",
            d->opt->mad_k, d->opt->min_off * 100, v->lat_median, v->bw_median);
}

/* The mark of pair (i, j) in the slowest-pairs table. */
static const char *pair_mark(const struct html_survey *h, size_t i, size_t j)
{
    size_t n = h->m.n;
    if (h->v.slow_link[i * n + j])
        return " <span class=\"flag\">(slow link)</span>";
    if (h->v.slow_node[i] || h->v.slow_node[j])
        return " <span class=\"flag\">(slow node)</span>";
    return "";
}

/* The slowest pairs by latency and by bandwidth, side by side. */
static void slowest_table(FILE *o, const struct html_survey *h)
{
    struct p2pb_survey_slowest w[2];
    p2pb_survey_slowest(&h->m, 0, &w[0]);
    p2pb_survey_slowest(&h->m, 1, &w[1]);
    fputs("<table class=\"facts\"><caption>Slowest pairs</caption>\n<tr><th>latency</th>"
          "<th>t [usec]</th><th>bandwidth (slower direction)</th><th>MB/s</th></tr>\n",
          o);
    char v[32];
    for (size_t k = 0; k < w[0].n || k < w[1].n; k++) {
        fputs("<tr>", o);
        for (int bw = 0; bw < 2; bw++) {
            if (k >= w[bw].n) {
                fputs("<td></td><td></td>", o);
                continue;
            }
            fputs("<td>", o);
            p2pb_xml_printf(o, "%s-%s", h->m.labels[w[bw].i[k]], h->m.labels[w[bw].j[k]]);
            fprintf(o, "%s</td><td class=\"num\">%s</td>", pair_mark(h, w[bw].i[k], w[bw].j[k]),
                    num(v, sizeof v, w[bw].v[k]));
        }
        fputs("</tr>\n", o);
    }
    fputs("</table>\n", o);
}

/* Above P2PB_SURVEY_FULL_MAX nodes: per node its medians over its partners,
 * its factors (the median polish's effects) and its verdict. */
static void node_table(FILE *o, const struct html_survey *h)
{
    const struct p2pb_survey_verdict *v = &h->v;
    char a[32], b[32];
    fprintf(o,
            "<table class=\"cmp\"><caption>%zu nodes: per node, the median over its partners "
            "(the matrices: p2pbench-report survey FILE -f json or csv)</caption>\n<tr><th>node"
            "</th><th>rank</th><th>t [usec]</th><th>latency factor</th><th>MB/s</th><th>bandwidth "
            "factor</th><th>verdict</th></tr>\n",
            h->m.n);
    for (size_t i = 0; i < h->m.n; i++) {
        fputs("<tr><td class=\"name\">", o);
        p2pb_xml_text(o, h->m.labels[i]);
        fprintf(o, "</td><td>%d</td><td>%s</td><td>x%.2f</td><td>%s</td><td>x%.3f</td>",
                h->m.ranks[i], num(a, sizeof a, v->node_lat[i]), v->node_lat_f[i],
                num(b, sizeof b, v->node_bw[i]), v->node_bw_f[i]);
        if (v->slow_node[i])
            fprintf(o, "<td class=\"verdict v-worse\">slow node (%s)</td></tr>\n",
                    p2pb_survey_why(v->slow_node[i]));
        else
            fputs("<td class=\"verdict v-none\">-</td></tr>\n", o);
    }
    fputs("</table>\n", o);
}

/* The heading and what was measured. */
static void survey_head(FILE *o, const struct html_survey *h, const struct html_doc *d)
{
    const struct p2pb_survey_matrix *m = &h->m;
    fputs("<h2>Link survey: ", o);
    p2pb_xml_text(o, h->path);
    if (d->nsides == 2) {
        fputs(" (", o);
        p2pb_xml_text(o, d->sides[h->side].name);
        fputc(')', o);
    }
    fputs("</h2>\n<p class=\"sub1\">", o);
    p2pb_xml_printf(o,
                    "%zu nodes (per %s), pairs measured %s, order %s; latency: PingPong of %zu "
                    "bytes; bandwidth: %zu x %zu bytes one way; MB/s with 1 MB = 10^6 B; %zu slow "
                    "node%s, %zu slow link%s.",
                    m->n, m->per[0] ? m->per : "?", m->mode[0] ? m->mode : "?",
                    m->order[0] ? m->order : "?", m->lat_bytes, m->window, m->bw_bytes,
                    h->v.nslow_nodes, h->v.nslow_nodes == 1 ? "" : "s", h->v.nslow_links,
                    h->v.nslow_links == 1 ? "" : "s");
    if (!m->complete)
        fputs(" <b>Incomplete</b>: no complete end record; verdicts from the rows as far as they "
              "go.",
              o);
    fputs("</p>\n", o);
}

void p2pb_html_survey_section(FILE *o, const struct html_doc *d)
{
    for (size_t k = 0; k < d->nsurveys; k++) {
        const struct html_survey *h = &d->surveys[k];
        fprintf(o, "<section class=\"survey\" id=\"survey-%zu\">\n", k + 1);
        survey_head(o, h, d);
        fputs("<div class=\"top\"><div>\n", o);
        verdict_box(o, h, d);
        fputs("</div><div>\n", o);
        slowest_table(o, h);
        fputs("</div></div>\n", o);
        if (h->m.n <= P2PB_SURVEY_FULL_MAX) {
            fputs("<div class=\"charts\">\n", o);
            heatmap(o, h, 0);
            heatmap(o, h, 1);
            fputs("</div>\n", o);
            legend(o, h);
        } else
            node_table(o, h);
        fputs("</section>\n", o);
    }
    if (d->nsurvey_files > d->nsurveys)
        fprintf(o,
                "<p>%zu more survey files are not drawn here: p2pbench-report survey FILE for "
                "each.</p>\n",
                d->nsurvey_files - d->nsurveys);
}
