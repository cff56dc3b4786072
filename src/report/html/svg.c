/* SPDX-License-Identifier: MIT */
/*
 * svg: the inline SVG and escaped text of the html report (svg.h).
 */
#include "html/svg.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

/* Escape one sanitised chunk. */
static void escape(FILE *o, const char *s)
{
    for (; *s; s++)
        switch (*s) {
        case '&': fputs("&amp;", o); break;
        case '<': fputs("&lt;", o); break;
        case '>': fputs("&gt;", o); break;
        case '"': fputs("&quot;", o); break;
        case '\'': fputs("&#39;", o); break;
        default: fputc(*s, o);
        }
}

void p2pb_xml_text(FILE *o, const char *s)
{
    char buf[512];
    size_t n = strlen(s);
    char *copy = n < sizeof buf ? buf : malloc(n + 1);
    if (!copy) { /* no memory: printable ASCII only, the rest as '?' */
        for (; *s; s++) {
            char c[2] = {(*s >= 0x20 && *s < 0x7f) ? *s : '?', 0};
            escape(o, c);
        }
        return;
    }
    memcpy(copy, s, n + 1);
    p2pb_text_sanitize(copy);
    escape(o, copy);
    if (copy != buf)
        free(copy);
}

void p2pb_xml_printf(FILE *o, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    p2pb_xml_text(o, buf);
}

double p2pb_svg_px(const struct p2pb_svg_axes *a, double v)
{
    return a->left + a->width * (log2(v) - a->xlo) / (a->xhi - a->xlo);
}

double p2pb_svg_py(const struct p2pb_svg_axes *a, double v)
{
    return a->top + a->height * (a->yhi - log10(v)) / (a->yhi - a->ylo);
}

void p2pb_svg_open(FILE *o, int w, int h, const char *label)
{
    fprintf(o, "<svg viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"",
            w, h, w, h);
    p2pb_xml_text(o, label);
    fputs("\">\n", o);
}

void p2pb_svg_close(FILE *o)
{
    fputs("</svg>\n", o);
}

void p2pb_svg_text(FILE *o, double x, double y, const char *anchor, const char *cls, const char *s)
{
    fprintf(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"", x, y, anchor);
    if (cls)
        fprintf(o, " class=\"%s\"", cls);
    fputc('>', o);
    p2pb_xml_text(o, s);
    fputs("</text>\n", o);
}

void p2pb_svg_line(FILE *o, double x1, double y1, double x2, double y2, const char *cls)
{
    fprintf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"%s\"/>\n", x1, y1, x2,
            y2, cls);
}

void p2pb_svg_poly(FILE *o, const double *x, const double *y, size_t n, int closed,
                   const char *style)
{
    fprintf(o, "<%s points=\"", closed ? "polygon" : "polyline");
    for (size_t i = 0; i < n; i++)
        fprintf(o, "%s%.1f,%.1f", i ? " " : "", x[i], y[i]);
    fprintf(o, "\" style=\"%s\"/>\n", style);
}

void p2pb_svg_rect(FILE *o, double x, double y, double w, double h, const char *style,
                   const char *title)
{
    fprintf(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" style=\"%s\"", x, y, w,
            h, style);
    if (!title) {
        fputs("/>\n", o);
        return;
    }
    fputs("><title>", o);
    p2pb_xml_text(o, title);
    fputs("</title></rect>\n", o);
}

void p2pb_svg_marker(FILE *o, double x, double y, int shape, const char *colour)
{
    const double r = 3.5;
    switch (shape % 4) {
    case 0: fprintf(o, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\"", x, y, r); break;
    case 1:
        fprintf(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"", x - r, y - r,
                2 * r, 2 * r);
        break;
    case 2:
        fprintf(o, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\"", x, y - r - 1, x - r - 1,
                y + r, x + r + 1, y + r);
        break;
    default:
        fprintf(o, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f\"", x, y - r - 1,
                x + r + 1, y, x, y + r + 1, x - r - 1, y);
    }
    fprintf(o, " style=\"fill:%s;stroke:#000;stroke-width:0.6\"/>\n", colour);
}
