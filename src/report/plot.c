/* SPDX-License-Identifier: MIT */
/*
 * plot: latency and throughput against message size (log-log) through
 * gnuplot. gnuplot is fork/exec'd (no shell); the script, with the data
 * inline, goes to its stdin. The output file name is written into the script
 * as a gnuplot string with quotes and backslashes escaped.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report.h"

/* Write s as a single-quoted gnuplot string ('' stands for '). Newlines,
 * which gnuplot cannot take inside a string, become spaces. */
static void gp_quote(FILE *o, const char *s)
{
    fputc('\'', o);
    for (; *s; s++) {
        if (*s == '\'')
            fputs("''", o);
        else if (*s == '\n' || *s == '\r')
            fputc(' ', o);
        else
            fputc(*s, o);
    }
    fputc('\'', o);
}

static int ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

/* One launch: its within-launch 95% CI of the median as the band of size
 * bytes of kernel (the first row of that size, as compare uses it; found
 * through the file's index); *lo and *hi stay as they are when the row has no CI. */
static void one_launch_band(const struct p2pb_side *s, enum p2pb_metric m, const char *kernel,
                            size_t bytes, double *lo, double *hi)
{
    for (size_t f = 0; f < s->nfiles; f++) {
        const struct p2pb_result *x = p2pb_results_find(&s->files[f], kernel, "", bytes);
        if (!x || !x->t.ci_valid || x->status != P2PB_ROW_OK)
            continue;
        if (m == P2PB_METRIC_LATENCY) {
            *lo = x->t.ci95_low;
            *hi = x->t.ci95_high;
        } else if (x->t.ci95_high > 0 && x->t.ci95_low > 0) {
            *lo = x->bytes_factor * (double)x->bytes / x->t.ci95_high;
            *hi = x->bytes_factor * (double)x->bytes / x->t.ci95_low;
        }
    }
}

/* Inline data block of one side and metric: bytes median low high, one line
 * per size of its first kernel table (sizes 0 are left out: log axis). */
static void write_block(FILE *o, const struct p2pb_side *s, enum p2pb_metric m, const char *kernel,
                        size_t idx)
{
    struct p2pb_side empty = {0};
    struct p2pb_cmp_table t;
    fprintf(o, "$d%zu_%d << EOD\n", idx, (int)m);
    if (p2pb_compare_build(s, &empty, m, 0, 0.05, &t) == P2PB_OK) {
        for (size_t i = 0; i < t.nrows; i++) {
            const struct p2pb_cmp_row *r = &t.rows[i];
            if (strcmp(r->kernel, kernel) || r->variant[0] || r->bytes == 0 || !(r->med_a > 0))
                continue;
            double lo = r->min_a, hi = r->max_a;
            if (r->na == 1)
                one_launch_band(s, m, kernel, r->bytes, &lo, &hi);
            fprintf(o, "%zu %.9g %.9g %.9g\n", r->bytes, r->med_a, lo, hi);
        }
        p2pb_compare_free(&t);
    }
    fprintf(o, "EOD\n");
}

static void write_script(FILE *o, struct p2pb_side *sides, size_t nsides, const char *out, int svg,
                         const char *kernel, const char *display)
{
    fprintf(o, "set terminal %s size 1200,500\n", svg ? "svg" : "pngcairo");
    fputs("set output ", o);
    gp_quote(o, out);
    fputc('\n', o);
    for (size_t s = 0; s < nsides; s++) {
        write_block(o, &sides[s], P2PB_METRIC_LATENCY, kernel, s);
        write_block(o, &sides[s], P2PB_METRIC_THROUGHPUT, kernel, s);
    }
    fputs("set multiplot layout 1,2\n"
          "set logscale xy\nset grid\nset key top left\n"
          "set xlabel 'message size [bytes]'\n",
          o);
    for (int m = 0; m < 2; m++) {
        fprintf(o, "set title ");
        char title[128];
        snprintf(title, sizeof title, "%s %s", display,
                 m == 0 ? "latency (median, band: CI or launch range)"
                        : "throughput (band: CI or launch range)");
        gp_quote(o, title);
        fprintf(o, "\nset ylabel '%s'\nplot ", m == 0 ? "t [usec]" : "MB/s (10^6 B/s)");
        for (size_t s = 0; s < nsides; s++) {
            fprintf(o,
                    "%s$d%zu_%d using 1:3:4 with filledcurves fs transparent solid 0.25 "
                    "lc %zu notitle, $d%zu_%d using 1:2 with linespoints lc %zu title ",
                    s ? ", " : "", s, m, s + 1, s, m, s + 1);
            gp_quote(o, sides[s].name);
        }
        fputc('\n', o);
    }
    fputs("unset multiplot\nset output\n", o);
}

/* The output name: .png or .svg (*svg set), no line break. */
static enum p2pb_status check_name(const char *out, int *svg, char *err, size_t errlen)
{
    *svg = ends_with(out, ".svg");
    if (!*svg && !ends_with(out, ".png"))
        return p2pb_fail(P2PB_EUSAGE, err, errlen, "plot output '%s' must end in .png or .svg",
                         out);
    if (strpbrk(out, "\n\r"))
        return p2pb_fail(P2PB_EUSAGE, err, errlen,
                         "plot output name contains a line break (gnuplot cannot write it)");
    return P2PB_OK;
}

/* gnuplot falls back to stdout when it cannot open the file: check first
 * that out can be written (a file made for the check is removed). */
static enum p2pb_status check_writable(const char *out, char *err, size_t errlen)
{
    struct stat ost;
    int existed = stat(out, &ost) == 0;
    FILE *probe = fopen(out, "ab");
    if (!probe)
        return p2pb_fail(P2PB_EIO, err, errlen, "cannot write plot '%s': %s", out, strerror(errno));
    fclose(probe);
    if (!existed)
        remove(out);
    return P2PB_OK;
}

/* The first row of the kernel asked for, or the first row of the first file
 * when kernel is NULL; NULL when no file has the kernel. */
static const struct p2pb_result *find_kernel(const struct p2pb_side *sides, size_t nsides,
                                             const char *kernel)
{
    if (!kernel)
        return &sides[0].files[0].rows[0];
    for (size_t s = 0; s < nsides; s++)
        for (size_t f = 0; f < sides[s].nfiles; f++)
            for (size_t i = 0; i < sides[s].files[f].nrows; i++)
                if (strcmp(sides[s].files[f].rows[i].kernel, kernel) == 0)
                    return &sides[s].files[f].rows[i];
    return NULL;
}

/* Measured rows of kernel above 0 bytes: log-log axes have no place for 0. */
static size_t count_points(const struct p2pb_side *sides, size_t nsides, const char *kernel)
{
    size_t points = 0;
    for (size_t s = 0; s < nsides; s++)
        for (size_t f = 0; f < sides[s].nfiles; f++)
            for (size_t i = 0; i < sides[s].files[f].nrows; i++) {
                const struct p2pb_result *r = &sides[s].files[f].rows[i];
                points +=
                    r->bytes > 0 && r->status == P2PB_ROW_OK && strcmp(r->kernel, kernel) == 0;
            }
    return points;
}

/* What the gnuplot script draws. */
struct plot_job {
    struct p2pb_side *sides;
    size_t nsides;
    const char *out;
    int svg;
    const struct p2pb_result *first; /* a row of the kernel drawn */
};

/* Child side of the fork: the pipe's read end as stdin, exec prog. */
__attribute__((noreturn)) static void exec_gnuplot(const char *prog, int pfd[2])
{
    dup2(pfd[0], STDIN_FILENO);
    close(pfd[0]);
    close(pfd[1]);
    char *const argv[] = {(char *)prog, NULL};
    execvp(prog, argv);
    fprintf(stderr, "p2pbench-report: cannot run '%s': %s\n", prog, strerror(errno));
    _exit(127);
}

/* Write the script into the pipe's write end fd (closed on return); a
 * gnuplot that exits early must not kill us with SIGPIPE. */
static void send_script(int fd, const struct plot_job *job)
{
    void (*old)(int) = signal(SIGPIPE, SIG_IGN);
    FILE *o = fdopen(fd, "w");
    if (!o) {
        close(fd);
    } else {
        write_script(o, job->sides, job->nsides, job->out, job->svg, job->first->kernel,
                     job->first->display_name);
        fclose(o);
    }
    signal(SIGPIPE, old);
}

/* Run prog with the script of job on its stdin and wait for it. Returns
 * P2PB_OK, or P2PB_EIO when the pipe or fork fails or gnuplot fails. */
static enum p2pb_status run_gnuplot(const char *prog, const struct plot_job *job, char *err,
                                    size_t errlen)
{
    int pfd[2];
    if (pipe(pfd) != 0)
        return p2pb_fail(P2PB_EIO, err, errlen, "pipe: %s", strerror(errno));
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(pfd[0]);
        close(pfd[1]);
        return p2pb_fail(P2PB_EIO, err, errlen, "fork: %s", strerror(errno));
    }
    if (pid == 0)
        exec_gnuplot(prog, pfd);
    close(pfd[0]);
    send_script(pfd[1], job);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return p2pb_fail(P2PB_EIO, err, errlen, "gnuplot ('%s') failed (exit %d) writing '%s'",
                         prog, WIFEXITED(status) ? WEXITSTATUS(status) : -1, job->out);
    return P2PB_OK;
}

enum p2pb_status p2pb_plot(struct p2pb_side *sides, size_t nsides, const char *out,
                           const char *kernel, const char *gnuplot, char *err, size_t errlen)
{
    struct plot_job job = {.sides = sides, .nsides = nsides, .out = out};
    enum p2pb_status st = check_name(out, &job.svg, err, errlen);
    if (st != P2PB_OK)
        return st;
    if (!nsides || !sides[0].nfiles || !sides[0].files[0].nrows)
        return p2pb_fail(P2PB_EFORMAT, err, errlen, "nothing to plot");
    st = check_writable(out, err, errlen);
    if (st != P2PB_OK)
        return st;
    job.first = find_kernel(sides, nsides, kernel);
    if (!job.first)
        return p2pb_fail(P2PB_EFORMAT, err, errlen, "kernel '%s' is not in the files to plot",
                         kernel);
    if (!count_points(sides, nsides, job.first->kernel))
        return p2pb_fail(P2PB_EFORMAT, err, errlen,
                         "nothing to plot: kernel %s has no measured size above 0 bytes (the "
                         "axes are logarithmic)",
                         job.first->kernel);
    return run_gnuplot(gnuplot ? gnuplot : "gnuplot", &job, err, errlen);
}
