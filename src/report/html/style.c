/* SPDX-License-Identifier: MIT */
/*
 * style: what the charts (html_chart.c) and tables (html_table.c) of the
 * html report share: the colour, dash and marker of a (side, variant), the
 * variants of a kernel, and the disturbed / shifted marks with their words.
 * Reads the html_doc that html.c built; calls nothing of html.c.
 */
#include <string.h>

#include "html/html.h"

/* Okabe & Ito (2008), "Color Universal Design": told apart by colour-blind readers. */
static const char *const colours[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                      "#E69F00", "#56B4E9", "#000000"};
static const char *const dashes[] = {"none", "7 4", "2 3", "10 3 2 3", "4 4", "1 2"};

const char *p2pb_html_colour(size_t i)
{
    return colours[i % (sizeof colours / sizeof colours[0])];
}

const char *p2pb_html_dash(size_t i)
{
    return dashes[i % (sizeof dashes / sizeof dashes[0])];
}

struct html_style p2pb_html_style(const struct html_doc *d, size_t side, size_t variant)
{
    if (d->nsides == 1)
        return (struct html_style){variant, variant, 0};
    return (struct html_style){side, side, variant};
}

size_t p2pb_html_variants(const struct html_doc *d, const char *kernel, const char **v, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < d->lat.nrows && n < cap; i++) {
        const struct p2pb_cmp_row *r = &d->lat.rows[i];
        if (strcmp(r->kernel, kernel))
            continue;
        size_t j = 0;
        while (j < n && strcmp(v[j], r->variant))
            j++;
        if (j == n)
            v[n++] = r->variant;
    }
    return n;
}

size_t p2pb_html_marks(const struct html_doc *d, const char *kernel, size_t dist[2],
                       size_t shift[2])
{
    dist[0] = dist[1] = shift[0] = shift[1] = 0;
    for (size_t i = 0; i < d->lat.nrows; i++) {
        const struct p2pb_cmp_row *r = &d->lat.rows[i];
        if (kernel && strcmp(r->kernel, kernel))
            continue;
        dist[0] += r->dist_a;
        dist[1] += r->dist_b;
        shift[0] += r->shift_a;
        shift[1] += r->shift_b;
    }
    return dist[0] + dist[1] + shift[0] + shift[1];
}

const char p2pb_html_marks_words[] =
    "disturbed: measured while the host was disturbed (steal, time off the CPU, migrations; "
    "docs/host-context.md; 'd' in show); shifted: its level changed while measured (the "
    "first and last third of its samples differ; 's' in show)";
