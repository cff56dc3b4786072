/* SPDX-License-Identifier: MIT */
/*
 * One-sided (RMA) tables of IMB-EXT, IMB-RMA and OSU logs (issue 23): the
 * map from their names to p2pbench's one-sided kernels, and the lines that
 * say how a table was measured (IMB's "MODE: AGGREGATE", OSU's "# Window
 * creation: MPI_Win_allocate" and "# Synchronization: MPI_Win_flush").
 *
 * IMB (IMB-EXT spells Unidir_Put, IMB-RMA Unidir_put): one table per MODE.
 * NON-AGGREGATE synchronises after each transfer (a latency); AGGREGATE
 * issues the transfers of a sample and synchronises once (a bandwidth). IMB
 * defines the throughput of these two-process benchmarks as X / t, one
 * direction, also for Bidir_*. p2pbench's put_bibw and get_bibw and OSU's
 * osu_put_bibw count both directions (2 X per exchange, as osu_bibw): an IMB
 * Bidir_* rate is stored x 2 (bytes_factor 2, logged_bf 1), its t as logged,
 * so that compare sets it beside theirs.
 *
 * Tables of other one-sided benchmarks (IMB Window, Accumulate, Bidir_*
 * NON-AGGREGATE, One_put_all, ...; OSU accumulate, fetch-and-op,
 * compare-and-swap) have no p2pbench kernel and are skipped with the note of
 * imb.c / osu.c. Written from the formats as they appear in published logs
 * and the benchmarks' user guides; no code from IMB or OSU.
 */
#include <string.h>
#include <strings.h>

#include "import.h"
#include "text.h"

/* clang-format off */
/* native 2: a p2pbench kernel of issue 23 (kinds.c, struct p2pb_imp_kind) */
static const struct p2pb_imp_kind rma_put_latency = {"", "put_latency", "Put-Latency", 1, 2, 0, 0};
static const struct p2pb_imp_kind rma_get_latency = {"", "get_latency", "Get-Latency", 1, 2, 0, 0};
static const struct p2pb_imp_kind rma_put_bw      = {"", "put_bw",      "Put-BW",      1, 2, 1, 0};
static const struct p2pb_imp_kind rma_get_bw      = {"", "get_bw",      "Get-BW",      1, 2, 1, 0};
/* IMB Bidir_*: both directions, 2 X / t (IMB logs X / t: logged_bf 1) */
static const struct p2pb_imp_kind rma_put_bibw_x  = {"", "put_bibw",    "Put-BiBW",    2, 2, 0, 0};
static const struct p2pb_imp_kind rma_get_bibw_x  = {"", "get_bibw",    "Get-BiBW",    2, 2, 0, 0};

/* IMB-EXT and IMB-RMA: section name (ignoring case) and MODE -> kind. */
static const struct {
    const char *name;
    int mode; /* enum p2pb_imp_rma_mode */
    const struct p2pb_imp_kind *k;
} imb_rma[] = {
    {"Unidir_Put", P2PB_IMP_NON_AGGREGATE, &rma_put_latency},
    {"Unidir_Put", P2PB_IMP_AGGREGATE,     &rma_put_bw},
    {"Unidir_Get", P2PB_IMP_NON_AGGREGATE, &rma_get_latency},
    {"Unidir_Get", P2PB_IMP_AGGREGATE,     &rma_get_bw},
    {"Bidir_Put",  P2PB_IMP_AGGREGATE,     &rma_put_bibw_x},
    {"Bidir_Get",  P2PB_IMP_AGGREGATE,     &rma_get_bibw_x},
};

/* OSU one-sided programs by "MODEL WORDS" of the title ("# OSU MPI_Put
 * Latency Test v5.7.1": "MPI_Put Latency"), compared whole, ignoring case. */
const struct p2pb_imp_kind p2pb_imp_osu_rma_kinds[] = {
    /* title words                       kernel         display       bytes/X native rate traits */
    {"MPI_Put Latency",                  "put_latency", "Put-Latency", 1, 2, 0, 0},
    {"MPI_Get Latency",                  "get_latency", "Get-Latency", 1, 2, 0, 0},
    {"MPI_Put Bandwidth",                "put_bw",      "Put-BW",      1, 2, 1, 0},
    {"MPI_Get Bandwidth",                "get_bw",      "Get-BW",      1, 2, 1, 0},
    /* both directions, as osu_bibw: 2 X per exchange */
    {"MPI_Put Bi-directional Bandwidth", "put_bibw",    "Put-BiBW",    2, 2, 1, 0},
    {"MPI_Get Bi-directional Bandwidth", "get_bibw",    "Get-BiBW",    2, 2, 1, 0},
};
/* clang-format on */
const size_t p2pb_imp_n_osu_rma_kinds =
    sizeof p2pb_imp_osu_rma_kinds / sizeof p2pb_imp_osu_rma_kinds[0];

int p2pb_imp_imb_rma_name(const char *name)
{
    const char *n = strncasecmp(name, "Multi-", 6) == 0 ? name + 6 : name;
    for (size_t i = 0; i < sizeof imb_rma / sizeof imb_rma[0]; i++)
        if (strcasecmp(n, imb_rma[i].name) == 0)
            return 1;
    return 0;
}

const struct p2pb_imp_kind *p2pb_imp_imb_rma_kind(const char *name, int mode)
{
    const char *n = strncasecmp(name, "Multi-", 6) == 0 ? name + 6 : name;
    for (size_t i = 0; i < sizeof imb_rma / sizeof imb_rma[0]; i++)
        if (strcasecmp(n, imb_rma[i].name) == 0 && imb_rma[i].mode == mode)
            return imb_rma[i].k;
    return NULL;
}

const struct p2pb_imp_kind *p2pb_imp_rma_kind_named(const char *model, const char *words)
{
    char both[160];
    if (strcmp(model, "One") == 0 && strncmp(words, "Sided ", 6) == 0) {
        snprintf(both, sizeof both, "%s", words + 6); /* OSU 3.x: "One Sided MPI_Put latency" */
    } else {
        /* "MPI_Put-CUDA" (a device build): the call before the '-' */
        snprintf(both, sizeof both, "%.*s %s", (int)strcspn(model, "-"), model, words);
    }
    for (size_t i = 0; i < p2pb_imp_n_osu_rma_kinds; i++)
        if (strcasecmp(both, p2pb_imp_osu_rma_kinds[i].match) == 0)
            return &p2pb_imp_osu_rma_kinds[i];
    return NULL;
}

const struct p2pb_imp_kind *p2pb_imp_rma_native(const char *name, int by_display)
{
    for (size_t i = 0; i < p2pb_imp_n_osu_rma_kinds; i++) {
        const struct p2pb_imp_kind *k = &p2pb_imp_osu_rma_kinds[i];
        if (by_display ? strcasecmp(name, k->display) == 0 : strcmp(name, k->kernel) == 0)
            return k;
    }
    return NULL;
}

int p2pb_imp_rma_mode(const char *s)
{
    const char *m = strstr(s, "MODE:");
    if (!m)
        return P2PB_IMP_MODE_NONE;
    m = p2pb_imp_skip_ws(m + 5);
    if (strncasecmp(m, "NON-AGGREGATE", 13) == 0)
        return P2PB_IMP_NON_AGGREGATE;
    if (strncasecmp(m, "AGGREGATE", 9) == 0)
        return P2PB_IMP_AGGREGATE;
    return P2PB_IMP_MODE_NONE;
}

double p2pb_imp_rma_logged_bf(const struct p2pb_imp_kind *k)
{
    return k == &rma_put_bibw_x || k == &rma_get_bibw_x ? 1.0 : 0.0;
}

const char *p2pb_imp_rma_mode_name(int mode)
{
    return mode == P2PB_IMP_AGGREGATE       ? "AGGREGATE"
           : mode == P2PB_IMP_NON_AGGREGATE ? "NON-AGGREGATE"
                                            : "no MODE line";
}

/* The MPI calls of OSU's lines, most specific first, and the policy word. */
static const char *const osu_windows[][2] = {
    {"MPI_Win_create_dynamic", "dynamic"},
    {"MPI_Win_allocate", "allocate"},
    {"MPI_Win_create", "create"},
};
static const char *const osu_syncs[][2] = {
    {"MPI_Win_flush_local", "flush_local"},
    {"MPI_Win_flush", "flush"},
    {"MPI_Win_lock_all", "lock_all"},
    {"MPI_Win_lock", "lock"},
    {"MPI_Win_post", "pscw"},
    {"MPI_Win_start", "pscw"},
    {"MPI_Win_fence", "fence"},
};

/* The word of the first call of map[n] that value names; "" if none. */
static const char *rma_word(const char *value, const char *const (*map)[2], size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strncmp(value, map[i][0], strlen(map[i][0])) == 0)
            return map[i][1];
    return "";
}

int p2pb_imp_rma_line(const char *s, char *window, char *sync, size_t len)
{
    const char *w = strstr(s, "Window creation:");
    const char *y = strstr(s, "Synchronization:");
    if (w)
        snprintf(window, len, "%s",
                 rma_word(p2pb_imp_skip_ws(w + 16), osu_windows,
                          sizeof osu_windows / sizeof osu_windows[0]));
    else if (y)
        snprintf(
            sync, len, "%s",
            rma_word(p2pb_imp_skip_ws(y + 16), osu_syncs, sizeof osu_syncs / sizeof osu_syncs[0]));
    return w || y;
}

/* Set the policy word *slot (len bytes) of the group to v: "mixed" when a
 * table of the log said another. */
static void policy_merge(char *slot, size_t len, const char *v)
{
    if (!v[0])
        return;
    if (!slot[0])
        snprintf(slot, len, "%s", v);
    else if (strcmp(slot, v) != 0)
        snprintf(slot, len, "mixed");
}

void p2pb_imp_rma_policy(struct p2pb_imp_group *g, const char *window, const char *sync)
{
    policy_merge(g->rma_window, sizeof g->rma_window, window);
    policy_merge(g->rma_sync, sizeof g->rma_sync, sync);
}
