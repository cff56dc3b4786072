/* SPDX-License-Identifier: MIT */
/*
 * svg.h - a small writer of inline SVG (and escaped HTML text) for the html
 * report: text escaped for XML, lines, polylines, bands, markers, and log
 * axes that map data to pixels. No state besides the stream; no library.
 */
#ifndef P2PBENCH_REPORT_SVG_H
#define P2PBENCH_REPORT_SVG_H

#include <stddef.h>
#include <stdio.h>

/*
 * s as HTML/XML text: control characters and bytes that are not UTF-8
 * become '?' (src/common/text.c), then & < > " ' become entities. Safe in
 * element content and in quoted attribute values.
 */
void p2pb_xml_text(FILE *o, const char *s);

/* printf, then the result through p2pb_xml_text. */
void p2pb_xml_printf(FILE *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * A plot area with log axes: x log base 2 from 2^xlo to 2^xhi (message size
 * in bytes), y log base 10 from 10^ylo to 10^yhi; (left, top) is the
 * top-left corner of the area in px, width and height in px.
 */
struct p2pb_svg_axes {
    double left, top, width, height; /* px */
    double xlo, xhi;                 /* exponents of 2 */
    double ylo, yhi;                 /* exponents of 10 */
};

/* Pixel x of data value v > 0 (bytes), and pixel y of v > 0. */
double p2pb_svg_px(const struct p2pb_svg_axes *a, double v);
double p2pb_svg_py(const struct p2pb_svg_axes *a, double v);

/* <svg> with a viewBox of w x h px, role img and the (escaped) label; and its end. */
void p2pb_svg_open(FILE *o, int w, int h, const char *label);
void p2pb_svg_close(FILE *o);

/* A text at (x, y): anchor "start", "middle" or "end"; cls a CSS class or NULL. */
void p2pb_svg_text(FILE *o, double x, double y, const char *anchor, const char *cls, const char *s);

/* A line from (x1, y1) to (x2, y2) with the CSS class cls. */
void p2pb_svg_line(FILE *o, double x1, double y1, double x2, double y2, const char *cls);

/*
 * n points (x[i], y[i]) in px as a polyline (closed 0) or a filled polygon
 * (closed 1), with the inline style (e.g. "stroke:#1f5fa8;stroke-dasharray:6 3").
 */
void p2pb_svg_poly(FILE *o, const double *x, const double *y, size_t n, int closed,
                   const char *style);

/* A rectangle, top-left (x, y), w x h px, with the inline style (e.g.
 * "fill:#fd8d3c"); title, when not NULL, is its tooltip (escaped). */
void p2pb_svg_rect(FILE *o, double x, double y, double w, double h, const char *style,
                   const char *title);

/* Marker at (x, y): shape 0 circle, 1 square, 2 triangle, 3 diamond; fill colour. */
void p2pb_svg_marker(FILE *o, double x, double y, int shape, const char *colour);

#endif /* P2PBENCH_REPORT_SVG_H */
