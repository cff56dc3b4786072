/* SPDX-License-Identifier: MIT */
/*
 * plot: latency and throughput against size through gnuplot (plot.c), one
 * line per label of the files, or per side with --vs.
 */
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "plot/plot.h"

/* The lines of a plot. With --vs the two sides own their files; else the
 * sides are groups of the files of all (shallow copies, owned by all). */
struct plot_sides {
    struct p2pb_side *sides; /* up to as many as there are files */
    size_t n;
    struct p2pb_side all;
    int own; /* 1: sides own their files (--vs) */
};

static void plot_sides_free(struct plot_sides *ps)
{
    for (size_t s = 0; s < ps->n; s++) {
        if (ps->own)
            p2pb_side_free(&ps->sides[s]);
        else
            free(ps->sides[s].files);
    }
    p2pb_side_free(&ps->all);
    free(ps->sides);
}

/* The options of plot. */
static enum p2pb_status check_args(const struct p2pb_args *a, char *err, size_t errlen)
{
    if (!a->output)
        return p2pb_fail(P2PB_EUSAGE, err, errlen,
                         "plot needs -o FILE.png or FILE.svg" P2PB_TRY_HELP);
    if (a->nfiles[0] == 0)
        return p2pb_fail(P2PB_EUSAGE, err, errlen,
                         "plot needs at least one results file" P2PB_TRY_HELP);
    return p2pb_args_distinct_files(a, err, errlen);
}

/* --vs: side A and side B, as compare names them. */
static enum p2pb_status load_two(const struct p2pb_args *a, struct plot_sides *ps, char *err,
                                 size_t errlen)
{
    ps->own = 1;
    ps->n = 2; /* p2pb_side_load leaves a side that failed ready to be freed */
    enum p2pb_status st = p2pb_side_load(a->files[0], a->nfiles[0], &ps->sides[0], "A", stderr,
                                         a->max_file_bytes, err, p2pb_cmd_errlen(errlen));
    if (st == P2PB_OK)
        st = p2pb_side_load(a->files[1], a->nfiles[1], &ps->sides[1], "B", stderr,
                            a->max_file_bytes, err, p2pb_cmd_errlen(errlen));
    for (size_t i = 0; st == P2PB_OK && i < 2; i++)
        p2pb_side_count_once(&ps->sides[i], stderr); /* copies of one launch count once */
    return st;
}

/* The name of an unlabelled file's line: its base name without ".jsonl"
 * ("runs//a-01.jsonl" is "a-01"), cut to len - 1 bytes. */
static void short_name(const char *path, char *buf, size_t len)
{
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/')
        n--;
    size_t b = n;
    while (b > 0 && path[b - 1] != '/')
        b--;
    if (n - b > 6 && strncmp(path + n - 6, ".jsonl", 6) == 0)
        n -= 6;
    snprintf(buf, len, "%.*s", (int)(n - b), path + b);
}

/* Group the files by label: one line per label (or per unlabelled file).
 * Without memory, P2PB_ENOMEM with no message, as before. */
static enum p2pb_status load_by_label(const struct p2pb_args *a, struct plot_sides *ps, char *err,
                                      size_t errlen)
{
    struct p2pb_side *all = &ps->all;
    enum p2pb_status st = p2pb_side_load(a->files[0], a->nfiles[0], all, "", stderr,
                                         a->max_file_bytes, err, p2pb_cmd_errlen(errlen));
    for (size_t f = 0; st == P2PB_OK && f < all->nfiles; f++) {
        const char *l = all->files[f].info.label;
        size_t s = 0;
        while (s < ps->n && !(l[0] && strcmp(ps->sides[s].name, l) == 0))
            s++;
        if (s == ps->n) {
            ps->sides[s].files = calloc(all->nfiles, sizeof *ps->sides[s].files);
            if (!ps->sides[s].files)
                return P2PB_ENOMEM;
            if (l[0])
                snprintf(ps->sides[s].name, sizeof ps->sides[s].name, "%.63s", l);
            else
                short_name(all->files[f].path, ps->sides[s].name, sizeof ps->sides[s].name);
            ps->n++;
        }
        ps->sides[s].files[ps->sides[s].nfiles++] = all->files[f];
    }
    return st;
}

enum p2pb_status p2pb_cmd_plot(struct p2pb_args *a, char *err, size_t errlen)
{
    enum p2pb_status st = check_args(a, err, errlen);
    if (st != P2PB_OK)
        return st;
    struct plot_sides ps = {0};
    ps.sides = calloc(a->nfiles[0] + a->nfiles[1], sizeof *ps.sides);
    if (!ps.sides)
        return P2PB_ENOMEM; /* no message, as before */
    st = a->nfiles[1] ? load_two(a, &ps, err, errlen) : load_by_label(a, &ps, err, errlen);
    if (st == P2PB_OK)
        st = p2pb_plot(ps.sides, ps.n, a->output, a->kernel, a->gnuplot, a->gnuplot_timeout, err,
                       p2pb_cmd_errlen(errlen));
    plot_sides_free(&ps);
    return st;
}

static const unsigned char plot_options[] = {RO_VS, RO_OUTPUT, RO_KERNEL, RO_GNUPLOT,
                                             RO_GNUPLOT_TIMEOUT};

const struct p2pb_report_cmd p2pb_cmd_plot_def = {
    .name = "plot",
    .run = p2pb_cmd_plot,
    .expand_dirs = 1,
    .synopsis = "RUN... [--vs RUN...] -o FILE.png|FILE.svg [-k KERNEL] [--gnuplot PATH]\n"
                "[--gnuplot-timeout SEC]",
    .help = "latency and throughput against size (log-log) via gnuplot; one line per\n"
            "label (or per side with --vs) and variant, the CI or launch range as a band",
    .verbs = NULL,
    .options = plot_options,
    .noptions = sizeof plot_options,
};
