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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import.h"

void p2pb_imp_own_section(struct p2pb_imp_scan *sc, const char *name, size_t len, char *base,
                          size_t baselen)
{
    struct p2pb_imp_own *o = &sc->own_tab;
    o->reverse = o->aggregate = o->window = o->ngroups = 0;
    size_t b = 0;
    while (b < len && name[b] != '_')
        b++;
    snprintf(base, baselen, "%.*s", (int)b, name);
    while (b < len) {
        const char *w = name + b + 1; /* a suffix after '_' */
        size_t wl = 0;
        while (b + 1 + wl < len && w[wl] != '_')
            wl++;
        if (wl == 7 && strncmp(w, "reverse", 7) == 0)
            o->reverse = 1;
        else if (wl == 9 && strncmp(w, "aggregate", 9) == 0)
            o->aggregate = 1;
        else if (wl > 3 && strncmp(w, "win", 3) == 0)
            o->window = atoi(w + 3);
        b += 1 + wl;
    }
}

void p2pb_imp_own_comment(struct p2pb_imp_scan *sc, const char *s)
{
    struct p2pb_imp_own *o = &sc->own_tab;
    int g, n = 0, r0 = -1, r1 = -1;
    if (sscanf(s, "# Group %d:%n", &g, &n) != 1 || n == 0 || g != o->ngroups ||
        g >= P2PB_IMP_OWN_GROUPS)
        return;
    if (sscanf(s + n, "%d %d", &r0, &r1) < 1)
        return;
    o->rank[g][0] = r0;
    o->rank[g][1] = r1;
    o->ngroups++;
}

void p2pb_imp_own_table(const struct p2pb_imp_scan *sc, struct p2pb_imp_table *t, int group,
                        int rate_only)
{
    const struct p2pb_imp_own *o = &sc->own_tab;
    const char *k = t->kernel, *v = "";
    int uni = strcmp(k, "uniband") == 0 || strcmp(k, "tcp-uniband") == 0;
    if (sc->section_variant[0]) /* before 0.2: "Benchmarking Uniband 0->1" */
        v = sc->section_variant;
    else if (group) /* each row its group's variant (p2pb_imp_own_row) */
        v = o->reverse ? "(groups reverse)" : "(groups)";
    else if (o->aggregate && strcmp(k, "multi-uniband") == 0)
        v = o->reverse ? "aggregate hi->lo" : "aggregate lo->hi";
    else if (o->aggregate)
        v = "aggregate";
    else if (uni)
        v = o->reverse ? "1->0" : "0->1";
    else if (strcmp(k, "memcpy") == 0)
        v = "rank 0";
    snprintf(t->variant, sizeof t->variant, "%s", v);
    if (rate_only) {
        /* messages per iteration: the window W, both directions for Biband */
        double w = o->window > 0 ? o->window : 64;
        t->bytes_factor = strcmp(k, "biband") == 0 ? 2 * w : w;
        t->infer_factor = 0;
        return;
    }
    /* P pairs (aggregates) or a fixed buffer (memcpy): the bytes per iteration
     * are not a fixed multiple of X known here (taken from the rows) */
    t->infer_factor = o->aggregate || sc->section_variant[0] || uni || strcmp(k, "biband") == 0 ||
                      strncmp(k, "multi-", 6) == 0 || strcmp(k, "memcpy") == 0;
}

void p2pb_imp_own_row(const struct p2pb_imp_scan *sc, const struct p2pb_imp_table *t,
                      struct p2pb_imp_row *r)
{
    const struct p2pb_imp_own *o = &sc->own_tab;
    if (r->t_derived == 2 && !t->infer_factor) {
        /* Msg/sec = messages per iteration / t: t of one iteration */
        r->t *= t->bytes_factor;
        r->t_derived = 0;
    }
    int g;
    if (sscanf(r->variant, "group %d", &g) != 1 || g < 0 || g >= o->ngroups)
        return;
    int a = o->rank[g][0], b = o->rank[g][1];
    if (strcmp(t->kernel, "memcpy") == 0)
        snprintf(r->variant, sizeof r->variant, "rank %d", a);
    else if (strcmp(t->kernel, "multi-uniband") == 0)
        snprintf(r->variant, sizeof r->variant, "%d->%d", o->reverse ? b : a, o->reverse ? a : b);
    else
        snprintf(r->variant, sizeof r->variant, "pair %d-%d", a, b);
}
