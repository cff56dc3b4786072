/* SPDX-License-Identifier: MIT */
/*
 * compare_notes: what a comparison used and what to distrust in it, printed
 * above the tables (text, markdown) or as the "warnings" array (json):
 * incomplete or aborted launch files, the launch order of a campaign and
 * its two checks (compare_order.c), the placement warnings of the run
 * records, the groups of a side's placement probe values, rows above their
 * bound and the link profile of the testbed's shaped links.
 * docs/report.md, "What compare used".
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"
#include "p2pbench/stats.h"
#include "probe.h"
#include "compare/compare.h"
#include "text.h"

/* Where a note goes: a text stream (prefix pfx; in markdown a blank line
 * before each) or a json array of strings. */
struct note_sink {
    FILE *o;
    const char *pfx;
    int md;
    cJSON *arr;
};

static void note(struct note_sink *k, const char *kind, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (k->arr && !kind[0])
        return; /* json has the facts as fields; its "warnings" are warnings only */
    if (k->arr) {
        cJSON_AddItemToArray(k->arr, cJSON_CreateString(buf));
        return;
    }
    fprintf(k->o, "%s%s%s", k->md ? "\n" : "", k->pfx, kind);
    if (k->md) /* side names, file names, kernel names from the files: no markup */
        p2pb_md_field(k->o, buf);
    else
        fputs(buf, k->o);
    fputc('\n', k->o);
}

/* One note per incomplete file of side s (tag "A" or "B"). */
static void incomplete_notes(struct note_sink *k, const char *tag, const struct p2pb_side *s)
{
    char why[128];
    for (size_t i = 0; i < s->nfiles; i++)
        if (!s->files[i].complete)
            note(k, "warning: ",
                 "incomplete launch on side %s (%s), its rows used as far as they go: %s: %s", tag,
                 s->name, s->files[i].path, p2pb_incomplete_note(&s->files[i], why, sizeof why));
}

/* Launches of side s whose run record's array "warnings" holds text w. */
static size_t launches_warned(const struct p2pb_side *s, const char *w)
{
    size_t n = 0;
    for (size_t f = 0; f < s->nfiles; f++) {
        const cJSON *e, *arr = cJSON_GetObjectItemCaseSensitive(s->files[f].run, "warnings");
        cJSON_ArrayForEach(e, arr)
        {
            if (cJSON_IsString(e) && strcmp(e->valuestring, w) == 0) {
                n++;
                break;
            }
        }
    }
    return n;
}

/* 1 when the text of warning e of file f of side s was seen before it: in
 * an earlier file, or earlier in file f. */
static int warned_before(const struct p2pb_side *s, size_t f, const cJSON *e)
{
    for (size_t g = 0; g <= f; g++) {
        const cJSON *x, *arr = cJSON_GetObjectItemCaseSensitive(s->files[g].run, "warnings");
        cJSON_ArrayForEach(x, arr)
        {
            if (x == e)
                return 0;
            if (cJSON_IsString(x) && strcmp(x->valuestring, e->valuestring) == 0)
                return 1;
        }
    }
    return 0;
}

/* One warning per distinct placement warning of side s (the run records'
 * "warnings": overlapping PUs, more ranks than PUs, ranks not bound), with
 * the launches that had it; the first 4, then how many more. */
static void placement_notes(struct note_sink *k, const char *tag, const struct p2pb_side *s)
{
    size_t shown = 0, more = 0;
    for (size_t f = 0; f < s->nfiles; f++) {
        const cJSON *e, *arr = cJSON_GetObjectItemCaseSensitive(s->files[f].run, "warnings");
        cJSON_ArrayForEach(e, arr)
        {
            if (!cJSON_IsString(e))
                continue;
            if (warned_before(s, f, e))
                continue;
            if (shown == 4) {
                more++;
                continue;
            }
            shown++;
            char w[512]; /* text from a file: no control characters */
            snprintf(w, sizeof w, "%s", e->valuestring);
            p2pb_text_sanitize(w);
            note(k, "warning: ", "placement on side %s (%s), in %zu of %zu launches: %s", tag,
                 s->name, launches_warned(s, e->valuestring), s->nfiles, w);
        }
    }
    if (more)
        note(k, "warning: ", "placement on side %s (%s): %zu more distinct warnings", tag, s->name,
             more);
}

/* The latency row of ranks 0-1 that a placement group's note quotes: the
 * smallest size of the first kernel with one (p2pb_probe_row_pair) in the
 * first file of s that has such a row with a number; NULL when none. */
static const struct p2pb_result *quoted_row(const struct p2pb_side *s)
{
    const struct p2pb_result *best = NULL;
    for (size_t f = 0; f < s->nfiles && !best; f++)
        for (size_t i = 0; i < s->files[f].nrows; i++) {
            const struct p2pb_result *r = &s->files[f].rows[i];
            int a, b;
            if (r->status != P2PB_ROW_OK || !p2pb_probe_row_pair(r, &a, &b) || a != 0)
                continue;
            if (!best || (strcmp(r->kernel, best->kernel) == 0 && r->bytes < best->bytes))
                best = r;
        }
    return best;
}

/* Group g of side s: its launches, the range of their probe values v (ns)
 * and the median of their t at row q, appended to buf. */
static void group_words(const struct p2pb_side *s, const double *v, const int *grp, int g,
                        const struct p2pb_result *q, char *buf, size_t len)
{
    double lo = INFINITY, hi = 0, *t = malloc(s->nfiles * sizeof *t);
    size_t n = 0, nt = 0;
    for (size_t f = 0; f < s->nfiles; f++) {
        if (grp[f] != g)
            continue;
        n++;
        lo = v[f] < lo ? v[f] : lo;
        hi = v[f] > hi ? v[f] : hi;
        double x =
            q ? p2pb_file_value(&s->files[f], q->kernel, q->variant, q->bytes, P2PB_METRIC_LATENCY)
              : NAN;
        if (t && isfinite(x))
            t[nt++] = x;
    }
    char a[32], b[32], m[32], tq[96] = "";
    p2pb_fmt_sig(a, sizeof a, lo);
    p2pb_fmt_sig(b, sizeof b, hi);
    if (nt) {
        p2pb_fmt_sig(m, sizeof m, p2pb_median_finite(t, nt));
        snprintf(tq, sizeof tq, ", %s %zu bytes median t %s usec", q->display_name, q->bytes, m);
    }
    size_t used = strlen(buf);
    if (used < len)
        snprintf(buf + used, len - used, "%s%zu launch%s at %s%s%s ns%s", used ? "; " : "", n,
                 n == 1 ? "" : "es", a, strcmp(a, b) ? "-" : "", strcmp(a, b) ? b : "", tq);
    free(t);
}

/* The launches of side s grouped by the placement probe's floor of ranks
 * 0-1 (p2pb_probe_floor01_ns, p2pb_probe_groups): a warning when they fall into two or more
 * groups, the likely cause of a bimodal side (docs/report.md, "Placement
 * groups"). Launches without a value are left out. */
static void probe_notes(struct note_sink *k, const char *tag, const struct p2pb_side *s)
{
    double *v = malloc((s->nfiles + 1) * sizeof *v);
    int *grp = malloc((s->nfiles + 1) * sizeof *grp);
    size_t ng = 0, valued = 0;
    for (size_t f = 0; v && grp && f < s->nfiles; f++) {
        struct p2pb_probe p;
        p2pb_probe_from_json(s->files[f].run, &p);
        v[f] = p2pb_probe_floor01_ns(&p);
        valued += isfinite(v[f]) != 0;
    }
    if (v && grp && valued >= 2 && p2pb_probe_groups(v, s->nfiles, grp, &ng) == P2PB_OK &&
        ng >= 2) {
        char list[768] = "";
        const struct p2pb_result *q = quoted_row(s);
        for (size_t g = 0; g < ng; g++)
            group_words(s, v, grp, (int)g, q, list, sizeof list);
        note(k, "warning: ",
             "placement on side %s (%s): its launches fall into %zu groups by the placement "
             "probe of ranks 0-1 (cache-line one-way latency between their CPUs, fastest "
             "batch; a gap of more than %gx between sorted values): %s; the likely cause of a "
             "bimodal side "
             "(docs/host-context.md, \"Placement probe\")",
             tag, s->name, ng, P2PB_PROBE_GAP, list);
    }
    free(v);
    free(grp);
}

/* 1 when no probe group of grp[0 .. n-1] holds launches of both sides (the
 * first na are side A's) and each side has a launch in some group. */
static int sides_apart(const int *grp, size_t na, size_t n, size_t ng)
{
    int any_a = 0, any_b = 0;
    for (size_t g = 0; g < ng; g++) {
        int in_a = 0, in_b = 0;
        for (size_t f = 0; f < n; f++)
            if (grp[f] == (int)g)
                *(f < na ? &in_a : &in_b) = 1;
        if (in_a && in_b)
            return 0;
        any_a |= in_a;
        any_b |= in_b;
    }
    return any_a && any_b;
}

/* The placement probe across the sides: the launches of both pooled and
 * grouped (p2pb_probe_groups); a warning when the two sides fall into
 * different groups, i.e. their ranks 0-1 sat on CPUs that are that much
 * nearer or farther apart. A context difference the run records' keys do
 * not show (context_diff.c skips the per-launch probe). */
static void probe_between(struct note_sink *k, const struct p2pb_side *a, const struct p2pb_side *b)
{
    size_t n = a->nfiles + b->nfiles, ng = 0;
    double *v = malloc((n + 1) * sizeof *v);
    int *grp = malloc((n + 1) * sizeof *grp);
    for (size_t f = 0; v && grp && f < n; f++) {
        struct p2pb_probe p;
        p2pb_probe_from_json(f < a->nfiles ? a->files[f].run : b->files[f - a->nfiles].run, &p);
        v[f] = p2pb_probe_floor01_ns(&p);
    }
    if (v && grp && p2pb_probe_groups(v, n, grp, &ng) == P2PB_OK && ng >= 2 &&
        sides_apart(grp, a->nfiles, n, ng)) {
        char ma[32], mb[32];
        p2pb_fmt_sig(ma, sizeof ma, p2pb_median_finite(v, a->nfiles));
        p2pb_fmt_sig(mb, sizeof mb, p2pb_median_finite(v + a->nfiles, b->nfiles));
        note(k, "warning: ",
             "placement differs between the sides: the placement probe of ranks 0-1 (cache-line "
             "one-way latency between their CPUs, fastest batch; median of the launches) is %s ns "
             "on side A (%s) and %s ns on side B (%s), more than %gx apart: a latency difference "
             "may be where the ranks sat, not what was compared (docs/host-context.md, "
             "\"Placement probe\")",
             ma, a->name, mb, b->name, P2PB_PROBE_GAP);
    }
    free(v);
    free(grp);
}

/* The link profile of side s (P2PB_LINK_PROFILE of the testbed's shaped
 * links): the distinct values into buf and the launches with one. */
static size_t link_profiles(const struct p2pb_side *s, char *buf, size_t len)
{
    size_t n = 0, used = 0;
    buf[0] = '\0';
    for (size_t f = 0; f < s->nfiles; f++) {
        const char *v =
            cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(s->files[f].run, "link_profile"));
        if (!v || !v[0])
            continue;
        n++;
        int seen = 0;
        for (size_t g = 0; g < f && !seen; g++) {
            const char *w = cJSON_GetStringValue(
                cJSON_GetObjectItemCaseSensitive(s->files[g].run, "link_profile"));
            seen = w && strcmp(v, w) == 0;
        }
        if (!seen && used < len)
            used += (size_t)snprintf(buf + used, len - used, "%s'%s'", used ? ", " : "", v);
    }
    p2pb_text_sanitize(buf); /* text from a file: no control characters */
    return n;
}

/* The link profiles of the sides, when a launch has one: the links were
 * shaped (delay, rate, loss) while it ran. */
static void link_notes(struct note_sink *k, const struct p2pb_side *a, const struct p2pb_side *b)
{
    char va[256], vb[256], sa[320], sb[320];
    size_t na = link_profiles(a, va, sizeof va), nb = link_profiles(b, vb, sizeof vb);
    if (!na && !nb)
        return;
    snprintf(sa, sizeof sa, "none");
    snprintf(sb, sizeof sb, "none");
    if (na)
        snprintf(sa, sizeof sa, "%s in %zu of %zu launches", va, na, a->nfiles);
    if (nb)
        snprintf(sb, sizeof sb, "%s in %zu of %zu launches", vb, nb, b->nfiles);
    if (b->nfiles)
        note(k, "", "link profile (the testbed's shaped links): %s: %s; %s: %s", a->name, sa,
             b->name, sb);
    else
        note(k, "", "link profile (the testbed's shaped links): %s: %s", a->name, sa);
}

/* The launch order, and the confounding check (struct p2pb_order). */
static void order_notes(struct note_sink *k, const struct p2pb_order *o, const struct p2pb_side *a,
                        const struct p2pb_side *b)
{
    size_t all = a->nfiles + b->nfiles, known = o->known_a + o->known_b;
    if (!known)
        return;
    char seed[48] = "several campaigns";
    if (o->nseeds == 1)
        snprintf(seed, sizeof seed, "campaign seed %.0f", o->seed);
    note(k, "", "launch order: %zu round%s with both sides (%s): %s first in %zu, %s first in %zu",
         o->rounds, o->rounds == 1 ? "" : "s", seed, a->name, o->a_first, b->name,
         o->rounds - o->a_first);
    if (known < all)
        note(k, "warning: ", "%zu of %zu launches record no campaign position", all - known, all);
    if (o->confounded) {
        int a_more = 2 * o->a_first > o->rounds;
        note(k, "warning: ",
             "launch order and side are confounded: %s ran first in %zu of %zu rounds, so an "
             "effect of the position in a round shows as a difference between the sides; "
             "scripts/campaign.sh balances the order",
             a_more ? a->name : b->name, a_more ? o->a_first : o->rounds - o->a_first, o->rounds);
    }
}

static const char *metric_word(enum p2pb_metric m)
{
    return m == P2PB_METRIC_LATENCY ? "latency" : "throughput";
}

/* The rows of t whose position test is below 0.05 (at most 4 named). */
static void position_notes(struct note_sink *k, const struct p2pb_cmp_table *t, int holm)
{
    if (!t->pos_flagged)
        return;
    char list[512] = "", sz[16];
    size_t len = 0, named = 0;
    for (size_t i = 0; i < t->nrows && named < 4; i++) {
        const struct p2pb_cmp_row *r = &t->rows[i];
        if (!(r->pos_p_adj < 0.05))
            continue;
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s%s%s %s (%zu of %zu)",
                                named ? ", " : "", r->display_name, r->variant[0] ? " " : "",
                                r->variant, p2pb_fmt_size(sz, sizeof sz, r->bytes), r->pos_worse,
                                r->pos_n);
        named++;
        if (len >= sizeof list)
            break;
    }
    note(k, "warning: ",
         "%s: the value depends on the position in the round: at %zu row%s the launch that ran "
         "second was worse in most rounds (sign test, p_adj < 0.05, %s): %s%s",
         metric_word(t->metric), t->pos_flagged, t->pos_flagged == 1 ? "" : "s",
         holm ? "Holm" : "Benjamini-Hochberg", list, t->pos_flagged > named ? ", ..." : "");
}

/* The rows of side s above 105% of their bound (docs/kernels.md, "Bounds"):
 * a warning naming how many and the first, a likely measurement error. */
static void bound_notes(struct note_sink *k, const char *tag, const struct p2pb_side *s)
{
    size_t n = 0;
    const struct p2pb_result *first = NULL;
    const char *where = "";
    for (size_t f = 0; f < s->nfiles; f++)
        for (size_t i = 0; i < s->files[f].nrows; i++) {
            const struct p2pb_result *r = &s->files[f].rows[i];
            if (!r->bound.valid || !r->bound.exceeds)
                continue;
            if (!n++) {
                first = r;
                where = s->files[f].path;
            }
        }
    if (!n)
        return;
    char sz[16], path[sizeof s->files[0].path];
    snprintf(path, sizeof path, "%s", where);
    p2pb_text_sanitize(path);
    note(k, "warning: ",
         "exceeds bound on side %s (%s): %zu row%s above 105%% of the most the hardware allows, "
         "the first %s%s%s %s at %.0f%% (%s): a likely measurement error, not a result",
         tag, s->name, n, n == 1 ? "" : "s", first->display_name, first->variant[0] ? " " : "",
         first->variant, p2pb_fmt_size(sz, sizeof sz, first->bytes), first->bound.percent, path);
}

static void all_notes(struct note_sink *k, const struct p2pb_cmp_print *opt,
                      const struct p2pb_side *a, const struct p2pb_side *b,
                      const struct p2pb_cmp_table *lat, const struct p2pb_cmp_table *thr)
{
    incomplete_notes(k, "A", a);
    incomplete_notes(k, "B", b);
    placement_notes(k, "A", a);
    placement_notes(k, "B", b);
    probe_notes(k, "A", a);
    probe_notes(k, "B", b);
    probe_between(k, a, b);
    bound_notes(k, "A", a);
    bound_notes(k, "B", b);
    link_notes(k, a, b);
    if (opt->order)
        order_notes(k, opt->order, a, b);
    position_notes(k, lat, opt->holm);
    position_notes(k, thr, opt->holm);
}

void p2pb_compare_notes_text(FILE *o, int md, const struct p2pb_cmp_print *opt,
                             const struct p2pb_side *a, const struct p2pb_side *b,
                             const struct p2pb_cmp_table *lat, const struct p2pb_cmp_table *thr)
{
    struct note_sink k = {.o = o, .pfx = md ? "" : "# ", .md = md};
    all_notes(&k, opt, a, b, lat, thr);
}

void p2pb_compare_notes_json(void *root, const struct p2pb_cmp_print *opt,
                             const struct p2pb_side *a, const struct p2pb_side *b,
                             const struct p2pb_cmp_table *lat, const struct p2pb_cmp_table *thr)
{
    cJSON *incomplete = cJSON_AddArrayToObject(root, "incomplete");
    const struct p2pb_side *const sides[2] = {a, b};
    char why[128];
    for (int s = 0; s < 2; s++)
        for (size_t i = 0; i < sides[s]->nfiles; i++) {
            const struct p2pb_results_data *d = &sides[s]->files[i];
            if (d->complete)
                continue;
            cJSON *f = cJSON_CreateObject();
            cJSON_AddStringToObject(f, "side", s ? "b" : "a");
            cJSON_AddStringToObject(f, "path", d->path);
            cJSON_AddStringToObject(f, "why", p2pb_incomplete_note(d, why, sizeof why));
            cJSON_AddItemToArray(incomplete, f);
        }
    const struct p2pb_order *o = opt->order;
    if (o && o->known_a + o->known_b) {
        cJSON *j = cJSON_AddObjectToObject(root, "launch_order");
        cJSON_AddNumberToObject(j, "rounds", (double)o->rounds);
        cJSON_AddNumberToObject(j, "a_first", (double)o->a_first);
        cJSON_AddNumberToObject(j, "b_first", (double)(o->rounds - o->a_first));
        cJSON_AddNumberToObject(j, "with_position_a", (double)o->known_a);
        cJSON_AddNumberToObject(j, "with_position_b", (double)o->known_b);
        if (o->nseeds == 1)
            cJSON_AddNumberToObject(j, "seed", o->seed);
        cJSON_AddBoolToObject(j, "confounded", o->confounded);
    }
    struct note_sink k = {.arr = cJSON_AddArrayToObject(root, "warnings")};
    all_notes(&k, opt, a, b, lat, thr);
}
