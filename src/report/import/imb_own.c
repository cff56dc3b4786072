/* SPDX-License-Identifier: MIT */
/*
 * p2pbench's own --format imb output read back as its kernels (the layout
 * and its names: docs/kernels.md, "IMB layout"). A section's name is one
 * word: IMB's name, or a kernel's display name with the suffixes _winW
 * (window W instead of IMB's 64), _reverse (the higher rank of each pair
 * sends: variant "1->0", "3->2", "aggregate hi->lo") and _aggregate (the
 * sum over pairs or ranks). -multi tables list their groups' ranks in the
 * header and print one row per group and size (Group column).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import.h"

#define OWN_STR2(x) #x
#define OWN_STR(x) OWN_STR2(x)

/* A whole decimal number at s, n characters (no sign, no blanks), in lo..hi:
 * 1 and *v; else 0. */
static int whole_in(const char *s, size_t n, long lo, long hi, long *v)
{
    char buf[24], *end;
    if (n == 0 || n >= sizeof buf)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return 0;
    memcpy(buf, s, n);
    buf[n] = '\0';
    errno = 0;
    long x = strtol(buf, &end, 10);
    if (errno || *end || x < lo || x > hi)
        return 0;
    *v = x;
    return 1;
}

/* One suffix w (wl characters, after '_') of a section's name into o; 0 with
 * the reason in o->bad when it is not one p2pbench prints. */
static int own_suffix(struct p2pb_imp_own *o, const char *w, size_t wl)
{
    long win;
    if (wl == 7 && strncmp(w, "reverse", 7) == 0 && !o->reverse)
        o->reverse = 1;
    else if (wl == 9 && strncmp(w, "aggregate", 9) == 0 && !o->aggregate)
        o->aggregate = 1;
    else if (wl >= 3 && strncmp(w, "win", 3) == 0 && !o->window &&
             whole_in(w + 3, wl - 3, 1, P2PB_IMP_MAX_WINDOW, &win))
        o->window = (int)win;
    else if (wl >= 3 && strncmp(w, "win", 3) == 0 && !o->window)
        snprintf(o->bad, sizeof o->bad, "window '%.*s' is not a whole number 1..%d",
                 (int)(wl - 3 < 24 ? wl - 3 : 24), w + 3, P2PB_IMP_MAX_WINDOW);
    else
        snprintf(o->bad, sizeof o->bad, "suffix '_%.*s' %s", (int)(wl < 24 ? wl : 24), w,
                 (wl >= 3 && strncmp(w, "win", 3) == 0) || (wl == 7 && o->reverse) ||
                         (wl == 9 && o->aggregate)
                     ? "given twice"
                     : "unknown (_winW, _reverse, _aggregate)");
    return !o->bad[0];
}

void p2pb_imp_own_section(struct p2pb_imp_scan *sc, const char *name, size_t len, char *base,
                          size_t baselen, size_t line_no)
{
    struct p2pb_imp_own *o = &sc->own_tab;
    o->reverse = o->aggregate = o->window = o->ngroups = 0;
    o->bad[0] = '\0';
    size_t b = 0;
    while (b < len && name[b] != '_')
        b++;
    snprintf(base, baselen, "%.*s", (int)b, name);
    while (b < len) {
        const char *w = name + b + 1; /* a suffix after '_' */
        size_t wl = 0;
        while (b + 1 + wl < len && w[wl] != '_')
            wl++;
        if (!own_suffix(o, w, wl)) {
            char why[sizeof o->bad];
            snprintf(why, sizeof why, "line %zu: section \"%.*s\": %.140s", line_no,
                     (int)(len < 64 ? len : 64), name, o->bad);
            snprintf(o->bad, sizeof o->bad, "%s", why);
            return;
        }
        b += 1 + wl;
    }
}

/* The ranks after "# Group G:" (s): one or two whole numbers 0..INT_MAX-1
 * into r[0], r[1] (-1: none); 0 when anything else is there. */
static int own_ranks(const char *s, int r[2])
{
    r[0] = r[1] = -1;
    int n = 0;
    for (;;) {
        s = p2pb_imp_skip_ws(s);
        size_t l = strcspn(s, " \t\r");
        long v;
        if (l == 0)
            return n > 0;
        if (n == 2 || !whole_in(s, l, 0, INT_MAX - 1L, &v))
            return 0;
        r[n++] = (int)v;
        s += l;
    }
}

/* "# p2pbench: sync=S win=W [window=N] (...)" of a one-sided section into o
 * (S and W words of letters, N a whole number 1..P2PB_IMP_MAX_WINDOW). */
static void own_rma_line(struct p2pb_imp_own *o, const char *s)
{
    char sync[16], win[16];
    int n = 0, end = 0;
    if (sscanf(s, "# p2pbench: sync=%15[a-z] win=%15[a-z]%n", sync, win, &end) != 2)
        return;
    long w = 0;
    const char *p = s + end;
    if (strncmp(p, " window=", 8) == 0) {
        size_t l = strspn(p + 8, "0123456789");
        if (!whole_in(p + 8, l, 1, P2PB_IMP_MAX_WINDOW, &w))
            return;
    }
    n = snprintf(o->rma, sizeof o->rma, "sync=%s win=%s", sync, win);
    if (n < 0 || (size_t)n >= sizeof o->rma)
        o->rma[0] = '\0';
    snprintf(o->rma_sync, sizeof o->rma_sync, "%s", sync);
    snprintf(o->rma_win, sizeof o->rma_win, "%s", win);
    o->rma_window = (int)w;
}

void p2pb_imp_own_rma(struct p2pb_imp_scan *sc, struct p2pb_imp_table *t)
{
    const struct p2pb_imp_own *o = &sc->own_tab;
    if (!o->rma[0])
        return;
    snprintf(t->variant, sizeof t->variant, "%s", o->rma);
    p2pb_imp_rma_policy(sc->g, o->rma_win, o->rma_sync);
    if (sc->rma_mode != P2PB_IMP_AGGREGATE || !p2pb_kernel_has(t->kernel, P2PB_FACT_WINDOW))
        return;
    double w = o->rma_window > 0 ? o->rma_window : 64;
    t->t_scale = w;
    t->bytes_factor *= w;
    if (t->logged_bf > 0)
        t->logged_bf *= w;
}

void p2pb_imp_own_comment(struct p2pb_imp_scan *sc, const char *s, size_t line_no)
{
    struct p2pb_imp_own *o = &sc->own_tab;
    if (strncmp(s, "# p2pbench: sync=", 17) == 0) {
        own_rma_line(o, s);
        return;
    }
    if (strncmp(s, "# Group", 7) != 0 || (s[7] != ' ' && s[7] != '\t') || o->bad[0])
        return;
    const char *p = p2pb_imp_skip_ws(s + 7);
    size_t l = strcspn(p, ":");
    long g = -1;
    int r[2];
    const char *why = NULL;
    if (!p[l] || !whole_in(p, l, 0, INT_MAX - 1L, &g))
        why = "the group is not a whole number 0..2147483646";
    else if (g != o->ngroups)
        why = "the groups are not numbered 0, 1, 2, ... in order";
    else if (g >= P2PB_IMP_OWN_GROUPS)
        why = "more groups than the importer keeps (" OWN_STR(P2PB_IMP_OWN_GROUPS) ")";
    else if (!own_ranks(p + l + 1, r))
        why = "the ranks are not one or two whole numbers 0..2147483646";
    if (why) {
        char shown[64];
        snprintf(shown, sizeof shown, "%s", s);
        p2pb_imp_rtrim(shown);
        snprintf(o->bad, sizeof o->bad, "line %zu: \"%s\": %s", line_no, shown, why);
        return;
    }
    o->rank[g][0] = r[0];
    o->rank[g][1] = r[1];
    o->ngroups++;
}

void p2pb_imp_own_table(const struct p2pb_imp_scan *sc, struct p2pb_imp_table *t, int group,
                        int rate_only)
{
    const struct p2pb_imp_own *o = &sc->own_tab;
    const char *k = t->kernel, *v = "";
    /* the kernel's facts: one pair's two directions (uniband, tcp-uniband),
     * directed pairs (multi-uniband), ranks alone (memcpy) */
    int dirs = p2pb_kernel_has(k, P2PB_FACT_DIRECTIONS);
    int groups = p2pb_kernel_has(k, P2PB_FACT_PER_GROUP);
    if (sc->section_variant[0]) /* before 0.2: "Benchmarking Uniband 0->1" */
        v = sc->section_variant;
    else if (group) /* each row its group's variant (p2pb_imp_own_row) */
        v = o->reverse ? "(groups reverse)" : "(groups)";
    else if (o->aggregate && dirs && groups)
        v = o->reverse ? "aggregate hi->lo" : "aggregate lo->hi";
    else if (o->aggregate)
        v = "aggregate";
    else if (dirs)
        v = o->reverse ? "1->0" : "0->1";
    else if (p2pb_kernel_has(k, P2PB_FACT_SELF))
        v = "rank 0";
    snprintf(t->variant, sizeof t->variant, "%s", v);
    if (rate_only) {
        /* messages per iteration: the window W, both directions for Biband
         * (the bytes rule's count) */
        const struct p2pb_kernel_facts *f = p2pb_kernel_facts(k);
        double w = o->window > 0 ? o->window : 64;
        t->bytes_factor = (f ? f->bytes_count : 1) * w;
        t->infer_factor = 0;
        return;
    }
    /* P pairs (aggregates) or a fixed buffer (memcpy): the bytes per iteration
     * are not a fixed multiple of X known here (taken from the rows) */
    t->infer_factor = o->aggregate || sc->section_variant[0] || groups ||
                      p2pb_kernel_has(k, P2PB_FACT_WINDOW) ||
                      p2pb_kernel_has(k, P2PB_FACT_FIXED_BYTES);
    t->rate_is_sum = o->aggregate;
}

int p2pb_imp_own_row(const struct p2pb_imp_scan *sc, const struct p2pb_imp_table *t,
                     struct p2pb_imp_row *r, char *why, size_t whylen)
{
    const struct p2pb_imp_own *o = &sc->own_tab;
    if (r->t_derived == 2 && !t->infer_factor) {
        /* Msg/sec = messages per iteration / t: t of one iteration */
        r->t *= t->bytes_factor;
        r->t_derived = 0;
    }
    int g;
    if (sscanf(r->variant, "group %d", &g) != 1)
        return 1; /* no Group column */
    if (g < 0 || g >= o->ngroups) {
        snprintf(why, whylen, "Group %d is not one of the %d group%s the header lists", g,
                 o->ngroups, o->ngroups == 1 ? "" : "s");
        return 0;
    }
    int a = o->rank[g][0], b = o->rank[g][1];
    if (p2pb_kernel_has(t->kernel, P2PB_FACT_SELF))
        snprintf(r->variant, sizeof r->variant, "rank %d", a);
    else if (p2pb_kernel_has(t->kernel, P2PB_FACT_DIRECTIONS))
        snprintf(r->variant, sizeof r->variant, "%d->%d", o->reverse ? b : a, o->reverse ? a : b);
    else
        snprintf(r->variant, sizeof r->variant, "pair %d-%d", a, b);
    return 1;
}
