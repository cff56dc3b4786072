/* SPDX-License-Identifier: MIT */
/*
 * html_facts: the table of facts in the summary of the html report, one
 * column per side, from each side's first run record: what measured the
 * runs (p2pbench, or the program of an imported log), the launches and
 * their dates, the MPI library, the host, the placement of the ranks and
 * the placement probe of the first launch, the link profile of the testbed's shaped links and the
 * hypervisor with the signals that disagree with its verdict. A row whose values differ between the
 * sides says so. Every text from a file goes through p2pb_xml_text (svg.c).
 */
#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "html/html.h"
#include "output/output.h"
#include "probe.h"
#include "html/svg.h"
#include "version.h"

const char *p2pb_html_run_str(const void *run, const char *path, char *buf, size_t len)
{
    const cJSON *r = run;
    char key[64];
    buf[0] = '\0';
    while (r && *path) {
        size_t k = strcspn(path, ".");
        snprintf(key, sizeof key, "%.*s", (int)k, path);
        r = strcmp(key, "*") == 0 ? (r->child) : cJSON_GetObjectItemCaseSensitive(r, key);
        path += k + (path[k] == '.');
    }
    if (cJSON_IsString(r))
        snprintf(buf, len, "%s", r->valuestring);
    else if (cJSON_IsNumber(r))
        snprintf(buf, len, "%.17g", r->valuedouble);
    else if (cJSON_IsBool(r))
        snprintf(buf, len, "%s", cJSON_IsTrue(r) ? "true" : "false");
    return buf;
}

/* Append printf text to buf (len bytes), cut at its end. */
__attribute__((format(printf, 3, 4))) static void cat(char *buf, size_t len, const char *fmt, ...)
{
    size_t n = strlen(buf);
    va_list ap;
    va_start(ap, fmt);
    if (n + 1 < len)
        vsnprintf(buf + n, len - n, fmt, ap);
    va_end(ap);
}

/* What measured the run: "p2pbench 0.1.0", or the log's program for an
 * imported log ("imb-2019-update-6, imported log"). */
static void fact_program(const struct p2pb_results_data *f, char *buf, size_t len)
{
    if (f->info.imported)
        snprintf(buf, len, "%s (an imported log; imported by p2pbench-report %s)",
                 f->info.source[0] ? f->info.source : "unknown program", f->info.version);
    else
        snprintf(buf, len, "%s %s", f->info.source[0] ? f->info.source : "p2pbench",
                 f->info.version);
}

/* The iteration policy and the state it measures in: "adaptive, steady",
 * "fixed-imb, cold" (run record "policy": "mode", "state"). */
static void fact_policy(const struct p2pb_results_data *f, char *buf, size_t len)
{
    snprintf(buf, len, "%s%s%s", f->info.policy[0] ? f->info.policy : "not recorded",
             f->info.state[0] ? ", " : "", f->info.state);
}

/* The commit of p2pbench; an imported log has none of its program. */
static void fact_commit(const struct p2pb_results_data *f, char *buf, size_t len)
{
    if (f->info.imported)
        snprintf(buf, len, "not in the log");
    else
        p2pb_html_run_str(f->run, "git_commit", buf, len);
}

/* Placement: bound ranks of the run record's ranks and its warnings
 * (listed in the notes); "not recorded" when it holds neither. */
static void fact_placement(const struct p2pb_results_data *f, char *buf, size_t len)
{
    const cJSON *ranks = cJSON_GetObjectItemCaseSensitive(f->run, "ranks");
    const cJSON *warn = cJSON_GetObjectItemCaseSensitive(f->run, "warnings");
    size_t n = 0, bound = 0, known = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, ranks)
    {
        const cJSON *b = cJSON_GetObjectItemCaseSensitive(r, "bound");
        n++;
        known += cJSON_IsBool(b);
        bound += cJSON_IsTrue(b);
    }
    buf[0] = '\0';
    char t[96];
    if (known) {
        snprintf(t, sizeof t, "%zu of %zu ranks bound to a PU set", bound, n);
        cat(buf, len, "%s", t);
    }
    if (cJSON_IsArray(warn)) {
        int w = cJSON_GetArraySize(warn);
        snprintf(t, sizeof t, "%d placement warning%s%s", w, w == 1 ? "" : "s",
                 w ? " (in the notes)" : "");
        cat(buf, len, "%s%s", buf[0] ? "; " : "", t);
    }
    if (!buf[0])
        snprintf(buf, len, "not recorded");
}

/* The testbed's link profile (P2PB_LINK_PROFILE); none without one. */
static void fact_link(const struct p2pb_results_data *f, char *buf, size_t len)
{
    if (!p2pb_html_run_str(f->run, "link_profile", buf, len)[0])
        snprintf(buf, len, "%s", f->info.imported ? "not recorded" : "none");
}

/* The placement probe of the launch (docs/host-context.md): the one-way
 * cache-line latency of each probed pair; "not run" when the record has
 * none. Groups across launches are in the notes (compare_notes.c). */
static void fact_probe(const struct p2pb_results_data *f, char *buf, size_t len)
{
    struct p2pb_probe p;
    buf[0] = '\0';
    if (!p2pb_probe_from_json(f->run, &p)) {
        snprintf(buf, len, "%s", f->info.imported ? "not recorded" : "not run");
        return;
    }
    if (!p.npairs)
        snprintf(buf, len, "no probed pair shares a host");
    for (size_t i = 0; i < p.npairs; i++) {
        const struct p2pb_probe_pair *q = &p.pairs[i];
        char v[32] = "no value";
        if (q->nbatches)
            p2pb_fmt_sig(v, sizeof v, q->one_way_ns);
        cat(buf, len, "%sranks %d-%d: %s%s", i ? "; " : "", q->ranks[0], q->ranks[1], v,
            q->nbatches ? " ns one-way" : "");
        if (q->cpus[0] >= 0 && q->cpus[1] >= 0)
            cat(buf, len, " (CPUs %d, %d)", q->cpus[0], q->cpus[1]);
    }
}

/* The hypervisor verdict of one host record (its layers when they nest:
 * "uml on kvm"), the signal it came from and what disagrees with it
 * (docs/host-context.md), and a container. */
static void host_hypervisor(const cJSON *host, char *buf, size_t len)
{
    const cJSON *hv = cJSON_GetObjectItemCaseSensitive(host, "hypervisor");
    const char *v = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(hv, "verdict_derived"));
    const char *lay = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(hv, "verdict_layers"));
    const char *basis = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(hv, "verdict_basis"));
    buf[0] = '\0';
    if (!v)
        return;
    cat(buf, len, "%s", lay && strcmp(v, "none") != 0 ? lay : v);
    /* "signals disagree" is no signal: the list below says which */
    if (basis && strcmp(v, "none") != 0 && strcmp(basis, "signals disagree") != 0) {
        const cJSON *sig = cJSON_GetObjectItemCaseSensitive(hv, "signals");
        const char *val = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(sig, basis));
        cat(buf, len, " (from %s", basis);
        if (val)
            cat(buf, len, " '%s'", val);
        cat(buf, len, ")");
    }
    const cJSON *dis = cJSON_GetObjectItemCaseSensitive(hv, "disagreeing_signals"), *d;
    int k = 0;
    cJSON_ArrayForEach(d, dis)
    {
        if (cJSON_IsString(d))
            cat(buf, len, "%s%s", k++ ? ", " : "; the signals disagree: ", d->valuestring);
    }
    if (!k && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(hv, "signals_disagree")))
        cat(buf, len, "; the signals disagree");
    const char *c = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(hv, "container"), "container_derived"));
    if (c && strcmp(c, "none") != 0)
        cat(buf, len, "; in a container (%s)", c);
}

/* The driver of the NIC MPI used on one host ("veth", "virtio_net",
 * "uml-vector"), with its interface. */
static void host_nic(const cJSON *host, char *buf, size_t len)
{
    const cJSON *nic =
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(host, "knobs"), "nic");
    const char *drv = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(nic, "driver"));
    const char *ifn = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(nic, "interface"));
    buf[0] = '\0';
    if (drv || ifn)
        snprintf(buf, len, "%s%s%s%s", drv ? drv : "driver not recorded", ifn ? " (" : "",
                 ifn ? ifn : "", ifn ? ")" : "");
}

/* one(host) for every host of the run record: once when every host gives
 * the same text, else "h1: ...; h2: ..." (a guest beside a native host). */
static void per_host(const struct p2pb_results_data *f,
                     void (*one)(const cJSON *host, char *buf, size_t len), char *buf, size_t len)
{
    const cJSON *hosts = cJSON_GetObjectItemCaseSensitive(f->run, "hosts"), *h;
    char t[2][512];
    int same = 1, n = 0;
    buf[0] = '\0';
    cJSON_ArrayForEach(h, hosts)
    {
        one(h, t[n ? 1 : 0], sizeof t[0]);
        if (n++ && strcmp(t[0], t[1]) != 0)
            same = 0;
    }
    if (!n)
        return;
    if (same) {
        one(hosts->child, buf, len);
        return;
    }
    cJSON_ArrayForEach(h, hosts)
    {
        one(h, t[1], sizeof t[1]);
        cat(buf, len, "%s%s: %s", h == hosts->child ? "" : "; ", h->string ? h->string : "?",
            t[1][0] ? t[1] : "not recorded");
    }
}

static void fact_hypervisor(const struct p2pb_results_data *f, char *buf, size_t len)
{
    per_host(f, host_hypervisor, buf, len);
}

static void fact_nic(const struct p2pb_results_data *f, char *buf, size_t len)
{
    per_host(f, host_nic, buf, len);
}

/* The facts of the summary: a name and the run-record path of its value,
 * or a function that words it. */
static const struct fact {
    const char *name;
    const char *path;
    void (*word)(const struct p2pb_results_data *f, char *buf, size_t len);
} facts[] = {
    {"measured by", NULL, fact_program},
    {"git commit", NULL, fact_commit},
    {"MPI library", "mpi_library", NULL},
    {"ranks", "nranks", NULL},
    {"placement", NULL, fact_placement},
    {"placement probe (first launch)", NULL, fact_probe},
    {"policy", NULL, fact_policy},
    {"host of rank 0", "ranks.*.host", NULL},
    {"OS", "hosts.*.os", NULL},
    {"Linux kernel", "hosts.*.kernel_release", NULL},
    {"CPU", "hosts.*.cpu_model", NULL},
    {"hypervisor", NULL, fact_hypervisor},
    {"clock source", "hosts.*.clocksource", NULL},
    {"NIC driver", NULL, fact_nic},
    {"link profile", NULL, fact_link},
    {"eager limit marked [bytes]", "eager_limit_marked", NULL},
};

static const char *const months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                     "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

/*
 * A start time as "YYYY-MM-DD hh:mm:ss" into buf: ISO 8601 UTC (p2pbench)
 * gets " UTC"; the date an IMB log printed ("Thu Oct  1 16:20:15 2020", C's
 * asctime layout, the local time of the machine, zone unknown) gets " (as
 * logged, zone unknown)". Another text is kept as it is, "(as logged)".
 */
void p2pb_html_start_time(const char *t, char *buf, size_t len)
{
    int y, mo, d, h, mi, s, n = 0;
    char wd[4], mon[4];
    if (sscanf(t, "%4d-%2d-%2dT%2d:%2d:%2dZ%n", &y, &mo, &d, &h, &mi, &s, &n) == 6 && !t[n]) {
        snprintf(buf, len, "%04d-%02d-%02d %02d:%02d:%02d UTC", y, mo, d, h, mi, s);
        return;
    }
    n = 0;
    if (sscanf(t, "%3s %3s %d %d:%d:%d %d%n", wd, mon, &d, &h, &mi, &s, &y, &n) == 7 && !t[n])
        for (mo = 0; mo < 12; mo++)
            if (strcmp(mon, months[mo]) == 0 && d >= 1 && d <= 31 && h < 24 && mi < 60 && s < 61) {
                snprintf(buf, len, "%04d-%02d-%02d %02d:%02d:%02d (as logged, zone unknown)", y,
                         mo + 1, d, h, mi, s);
                return;
            }
    snprintf(buf, len, "%s (as logged)", t);
}

/* The launches row: count, incomplete, the first and last start time. */
static void launches_cell(FILE *o, const struct p2pb_side *s)
{
    char first[96] = "", last[96] = "", t[96];
    for (size_t f = 0; f < s->nfiles; f++) {
        if (!s->files[f].info.start_utc[0])
            continue;
        p2pb_html_start_time(s->files[f].info.start_utc, t, sizeof t);
        if (!first[0] || strcmp(t, first) < 0)
            snprintf(first, sizeof first, "%s", t);
        if (!last[0] || strcmp(t, last) > 0)
            snprintf(last, sizeof last, "%s", t);
    }
    fprintf(o, "<td>%zu", s->nfiles);
    if (s->nincomplete)
        fprintf(o, " (%zu incomplete)", s->nincomplete);
    if (first[0]) {
        fputs("<br><span class=\"n\">", o);
        p2pb_xml_text(o, first);
        if (strcmp(first, last)) {
            fputs(" .. ", o);
            p2pb_xml_text(o, last);
        }
        fputs("</span>", o);
    }
    fputs("</td>", o);
}

/* The files row: the first three paths, and how many more. */
static void files_cell(FILE *o, const struct p2pb_side *s)
{
    fputs("<td>", o);
    for (size_t f = 0; f < s->nfiles && f < 3; f++) {
        fputs(f ? "<br>" : "", o);
        p2pb_xml_text(o, s->files[f].path);
    }
    if (s->nfiles > 3)
        fprintf(o, "<br><span class=\"n\">... and %zu more</span>", s->nfiles - 3);
    fputs("</td>", o);
}

void p2pb_html_facts_table(FILE *o, const struct html_doc *d)
{
    fputs("<table class=\"facts\"><tr><th></th>", o);
    for (size_t s = 0; s < d->nsides; s++) {
        fputs("<th>", o);
        p2pb_xml_text(o, d->sides[s].name);
        fputs("</th>", o);
    }
    fputs("</tr>\n<tr><th>launches</th>", o);
    for (size_t s = 0; s < d->nsides; s++)
        launches_cell(o, &d->sides[s]);
    fputs("</tr>\n<tr><th>files</th>", o);
    for (size_t s = 0; s < d->nsides; s++)
        files_cell(o, &d->sides[s]);
    fputs("</tr>\n", o);
    for (size_t i = 0; i < sizeof facts / sizeof facts[0]; i++) {
        char v[2][512];
        for (size_t s = 0; s < d->nsides && s < 2; s++) { /* at most two sides */
            const struct p2pb_results_data *f = d->sides[s].nfiles ? &d->sides[s].files[0] : NULL;
            v[s][0] = '\0';
            if (f && facts[i].word)
                facts[i].word(f, v[s], sizeof v[s]);
            else if (f)
                p2pb_html_run_str(f->run, facts[i].path, v[s], sizeof v[s]);
        }
        int differs = d->nsides == 2 && strcmp(v[0], v[1]) != 0;
        fprintf(o, "<tr%s><th>%s</th>", differs ? " class=\"differs\"" : "", facts[i].name);
        for (size_t s = 0; s < d->nsides; s++) {
            fputs("<td>", o);
            p2pb_xml_text(o, v[s][0] ? v[s] : "-");
            fputs("</td>", o);
        }
        fputs("</tr>\n", o);
    }
    fputs("</table>\n", o);
}
