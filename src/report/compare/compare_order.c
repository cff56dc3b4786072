/* SPDX-License-Identifier: MIT */
/*
 * compare_order: what the campaign positions of the launches say
 * (docs/report.md, "Launch order"). scripts/campaign.sh runs one launch of
 * each side per round and p2pbench records the round and the position in it
 * (1 or 2) in the run record; p2pb_side_load reads them. Two checks:
 *  - order and side confounded: one side ran first in most rounds, so that
 *    any effect of the position (the previous launch's teardown, caches)
 *    shows as a difference between the sides;
 *  - a position effect per row: a sign test of "the launch that ran second
 *    was worse" over the rounds (Conover, "Practical Nonparametric
 *    Statistics", 3rd ed., 1999, sec. 3.4: exact binomial with p = 1/2).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"

/* The launch of side b that shares a round (seed and round number) with
 * launch i of side a and ran in the other position, or -1. */
static long round_mate(const struct p2pb_side *a, size_t i, const struct p2pb_side *b)
{
    const struct p2pb_launch_pos *pa = &a->pos[i];
    for (size_t j = 0; pa->known && j < b->nfiles; j++) {
        const struct p2pb_launch_pos *pb = &b->pos[j];
        if (pb->known && pb->seed == pa->seed && pb->round == pa->round &&
            pb->position != pa->position)
            return (long)j;
    }
    return -1;
}

void p2pb_order_check(const struct p2pb_side *a, const struct p2pb_side *b, struct p2pb_order *o)
{
    memset(o, 0, sizeof *o);
    for (size_t i = 0; i < a->nfiles; i++)
        o->known_a += (size_t)a->pos[i].known;
    for (size_t j = 0; j < b->nfiles; j++)
        o->known_b += (size_t)b->pos[j].known;
    double first_seed = NAN;
    for (size_t i = 0; i < a->nfiles; i++) {
        if (round_mate(a, i, b) < 0)
            continue;
        o->rounds++;
        o->a_first += a->pos[i].position == 1;
        if (isnan(first_seed))
            first_seed = a->pos[i].seed;
        else if (first_seed != a->pos[i].seed)
            o->nseeds = 2; /* "more than one" is all the printing needs */
    }
    if (o->rounds && !o->nseeds)
        o->nseeds = 1;
    o->seed = first_seed;
    size_t most = o->a_first > o->rounds - o->a_first ? o->a_first : o->rounds - o->a_first;
    o->confounded = o->rounds >= 2 && 4 * most > 3 * o->rounds;
}

/* Exact two-sided sign test: k of n in one direction, P(X <= min(k, n - k))
 * doubled, X ~ Binomial(n, 1/2); 1 when n is 0. */
static double sign_test_p(size_t k, size_t n)
{
    size_t m = k < n - k ? k : n - k;
    double tail = 0.0;
    for (size_t i = 0; i <= m && n; i++)
        tail += exp(lgamma((double)n + 1) - lgamma((double)i + 1) - lgamma((double)(n - i) + 1) -
                    (double)n * log(2.0));
    return n ? fmin(1.0, 2.0 * tail) : 1.0;
}

/* Rounds of row r: pairs[2i], pairs[2i + 1] = files of side A and B of
 * round i (npairs of them). */
static void row_position(struct p2pb_cmp_row *r, enum p2pb_metric m, const struct p2pb_side *a,
                         const struct p2pb_side *b, const size_t *pairs, size_t npairs)
{
    r->pos_n = r->pos_worse = 0;
    for (size_t i = 0; i < npairs; i++) {
        size_t fa = pairs[2 * i], fb = pairs[2 * i + 1];
        double va = p2pb_file_value(&a->files[fa], r->kernel, r->variant, r->bytes, m);
        double vb = p2pb_file_value(&b->files[fb], r->kernel, r->variant, r->bytes, m);
        if (!isfinite(va) || !isfinite(vb) || va == vb)
            continue;
        int a_first = a->pos[fa].position == 1;
        double first = a_first ? va : vb, second = a_first ? vb : va;
        r->pos_n++;
        r->pos_worse += m == P2PB_METRIC_LATENCY ? second > first : second < first;
    }
    r->pos_p = r->pos_n ? sign_test_p(r->pos_worse, r->pos_n) : NAN;
    r->pos_p_adj = NAN;
}

/* The rounds of a and b (see row_position) into *pairs (malloc'ed). */
static enum p2pb_status find_rounds(const struct p2pb_side *a, const struct p2pb_side *b,
                                    size_t **pairs, size_t *npairs)
{
    *npairs = 0;
    *pairs = malloc(2 * (a->nfiles + 1) * sizeof **pairs);
    if (!*pairs)
        return P2PB_ENOMEM;
    for (size_t i = 0; i < a->nfiles; i++) {
        long j = round_mate(a, i, b);
        if (j >= 0) {
            (*pairs)[2 * *npairs] = i;
            (*pairs)[2 * *npairs + 1] = (size_t)j;
            (*npairs)++;
        }
    }
    return P2PB_OK;
}

enum p2pb_status p2pb_compare_position(const struct p2pb_side *a, const struct p2pb_side *b,
                                       int holm, struct p2pb_cmp_table *t)
{
    size_t *pairs = NULL, npairs = 0, k = 0;
    double *p = malloc((t->nrows + 1) * sizeof *p);
    enum p2pb_status st = p ? find_rounds(a, b, &pairs, &npairs) : P2PB_ENOMEM;
    t->pos_flagged = 0;
    if (st != P2PB_OK)
        goto out;
    for (size_t i = 0; i < t->nrows; i++) {
        row_position(&t->rows[i], t->metric, a, b, pairs, npairs);
        if (t->rows[i].pos_n)
            p[k++] = t->rows[i].pos_p;
    }
    st = holm ? p2pb_p_adjust_holm(p, k, p) : p2pb_p_adjust_bh(p, k, p);
    for (size_t i = 0, j = 0; st == P2PB_OK && i < t->nrows; i++)
        if (t->rows[i].pos_n) {
            t->rows[i].pos_p_adj = p[j++];
            t->pos_flagged += t->rows[i].pos_p_adj < 0.05;
        }
out:
    free(p);
    free(pairs);
    return st;
}
