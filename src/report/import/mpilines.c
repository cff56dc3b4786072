/* SPDX-License-Identifier: MIT */
/*
 * mpilines.c - lines of the MPI stack inside a benchmark's table (issue 35):
 * warnings and errors that UCX, libfabric, PMIx, Open MPI (its help banners
 * between lines of dashes, its "[host:pid]" lines, "*** An error occurred"),
 * Intel MPI, MPICH's Hydra and Slurm write to the same output as the
 * benchmark, between two rows or instead of the rest of a table. They are
 * recognised by their form (the prefix or banner each library prints), not
 * by their text, so that a table goes on after them; a table that stops at
 * them before its last size is said to end early (import.h,
 * p2pb_imp_mpi_block, p2pb_imp_mpi_note). Written from the forms as they
 * appear in published logs; no code of those libraries.
 */
#include <ctype.h>
#include <string.h>

#include "import.h"
#include "output/output.h"

/* 1 when s (blanks skipped) is a line of at least 20 c and nothing else:
 * Open MPI's help banner ('-') or Hydra's ('='). */
static int rule_of(const char *s, char c)
{
    size_t n = strspn(s, (char[]){c, '\0'});
    return n >= 20 && !*p2pb_imp_skip_ws(s + n);
}

/* 1 when s starts "[NAME:DIGITS" (a host and a pid, Open MPI's and UCX's
 * prefix: "[host01:12345] ", "[host01:12345:0:12345] "). */
static int host_pid_prefix(const char *s)
{
    if (*s++ != '[')
        return 0;
    size_t name = strcspn(s, ":] \t");
    if (!name || s[name] != ':')
        return 0;
    s += name + 1;
    size_t d = strspn(s, "0123456789");
    return d > 0 && (s[d] == ']' || s[d] == ':');
}

/* "UCX" then blanks then a level word ("UCX  WARN", "UCX ERROR"). */
static int ucx_level(const char *s)
{
    static const char *const levels[] = {"WARN", "ERROR", "FATAL", "INFO", "DIAG", "DEBUG"};
    for (const char *p = strstr(s, "UCX"); p; p = strstr(p + 3, "UCX")) {
        const char *w = p2pb_imp_skip_ws(p + 3);
        for (size_t i = 0; w != p + 3 && i < sizeof levels / sizeof levels[0]; i++)
            if (strncmp(w, levels[i], strlen(levels[i])) == 0)
                return 1;
    }
    return 0;
}

/* Substrings that only the MPI stack's own messages hold, and whose. */
static const struct {
    const char *text, *lib;
    int at_start; /* 1: only at the start of the line */
} marks[] = {
    {"libfabric:", "libfabric", 1},
    {"PMIX ERROR", "PMIx", 0},
    {"PMIx_", "PMIx", 0},
    {"*** An error occurred in", "Open MPI", 1},
    {"*** reported by process", "Open MPI", 1},
    {"*** on communicator", "Open MPI", 1},
    {"*** MPI_ERRORS_ARE_FATAL", "Open MPI", 1},
    {"***    and potentially your MPI job", "Open MPI", 1},
    {"more process has sent help message", "Open MPI", 0},
    {"more processes have sent help message", "Open MPI", 0},
    {"Set MCA parameter \"orte_base_help_aggregate\"", "Open MPI", 0},
    {"mpirun noticed that process", "Open MPI", 1},
    {"Primary job  terminated normally", "Open MPI", 1},
    {"MPI startup():", "Intel MPI", 0},
    {"Abort(", "Intel MPI", 1},
    {"[proxy:", "MPICH", 1},
    {"Fatal error in PMPI_", "MPICH", 1},
    {"Fatal error in MPI_", "MPICH", 1},
    {"BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES", "MPICH", 0},
    {"srun: error:", "Slurm", 1},
    {"srun: Job step aborted", "Slurm", 1},
    {"slurmstepd: error:", "Slurm", 1},
};

const char *p2pb_imp_mpi_line(const char *line)
{
    const char *s = p2pb_imp_skip_ws(line);
    if (ucx_level(s) || (host_pid_prefix(s) && (strstr(s, " ucp_") || strstr(s, " uct_"))))
        return "UCX";
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++) {
        const char *at = strstr(s, marks[i].text);
        if (at && (!marks[i].at_start || at == s))
            return marks[i].lib;
    }
    if (host_pid_prefix(s)) /* "[host01:12345] ..." of ORTE/OPAL, pmix's own */
        return strstr(s, "pmix") || strstr(s, "PMIX") ? "PMIx" : "Open MPI";
    if (rule_of(s, '-'))
        return "Open MPI";
    if (rule_of(s, '='))
        return "MPICH";
    return NULL;
}

/* Most lines of one help banner between its two rules. */
#define BANNER_MAX 60

/* The line after the help banner that opens with the rule at line j (its
 * closing rule included), or j + 1 when no closing rule follows within
 * BANNER_MAX lines. */
static size_t banner_end(const struct p2pb_imp_log *lg, size_t j)
{
    const char *open = p2pb_imp_skip_ws(lg->lines[j]);
    char c = *open;
    for (size_t k = j + 1; k < lg->nlines && k <= j + BANNER_MAX; k++)
        if (rule_of(p2pb_imp_skip_ws(lg->lines[k]), c))
            return k + 1;
    return j + 1;
}

/* Note lib in m's list of libraries ("UCX, Open MPI"), once. */
static void add_lib(struct p2pb_imp_mpi *m, const char *lib)
{
    size_t n = strlen(m->libs);
    const char *p = strstr(m->libs, lib);
    if (p && (p[strlen(lib)] == ',' || p[strlen(lib)] == '\0'))
        return;
    snprintf(m->libs + n, sizeof m->libs - n, "%s%s", n ? ", " : "", lib);
}

size_t p2pb_imp_mpi_block(const struct p2pb_imp_log *lg, size_t j, struct p2pb_imp_mpi *m)
{
    size_t k = j, end = j, lines = 0;
    memset(m, 0, sizeof *m);
    while (k < lg->nlines) {
        const char *s = p2pb_imp_skip_ws(lg->lines[k]);
        if (!*s) { /* a blank line belongs to the block only with MPI lines after it */
            k++;
            continue;
        }
        const char *lib = p2pb_imp_mpi_line(s);
        if (!lib)
            break;
        size_t next = (rule_of(s, '-') || rule_of(s, '=')) ? banner_end(lg, k) : k + 1;
        add_lib(m, lib);
        lines += next - end; /* the blank lines before it too */
        end = k = next;
    }
    m->lines = lines;
    return end;
}

void p2pb_imp_mpi_take(struct p2pb_imp_mpi *m, const struct p2pb_imp_mpi *blk, size_t j, int inside)
{
    if (!inside) {
        m->ended = j + 1;
        snprintf(m->end_libs, sizeof m->end_libs, "%s", blk->libs);
        return;
    }
    if (m->nblocks < P2PB_IMP_MPI_AT)
        m->at[m->nblocks] = j + 1;
    m->nblocks++;
    m->lines += blk->lines;
    for (const char *p = blk->libs; *p;) { /* "UCX, Open MPI": each once */
        size_t n = strcspn(p, ",");
        char lib[32];
        snprintf(lib, sizeof lib, "%.*s", (int)(n < 31 ? n : 31), p);
        add_lib(m, lib);
        p += n;
        p += strspn(p, ", ");
    }
}

int p2pb_imp_mpi_note(struct p2pb_imp_log *lg, struct p2pb_imp_group *g,
                      const struct p2pb_imp_table *t, long maxbytes)
{
    const struct p2pb_imp_mpi *m = &t->mpi;
    size_t last = t->nrows ? t->rows[t->nrows - 1].bytes : 0;
    int early = m->ended && t->nrows && maxbytes > 0 && last < (size_t)maxbytes;
    if (!t->nrows || (!m->lines && !early))
        return 0;
    char inside[300] = "", end[300] = "", at[96] = "", sz[32];
    for (size_t i = 0; i < m->nblocks && i < P2PB_IMP_MPI_AT; i++)
        snprintf(at + strlen(at), sizeof at - strlen(at), "%s%zu", i ? ", " : "", m->at[i]);
    if (m->nblocks > P2PB_IMP_MPI_AT)
        snprintf(at + strlen(at), sizeof at - strlen(at), ", ...");
    if (m->lines)
        snprintf(inside, sizeof inside,
                 "%zu non-table line%s at line%s %s, from the MPI library (%s), skipped", m->lines,
                 m->lines == 1 ? "" : "s", m->nblocks == 1 ? "" : "s", at, m->libs);
    if (early)
        snprintf(end, sizeof end,
                 "%stable ends early at %s: the MPI library's lines at line %zu (%s) stop it "
                 "before %ld bytes: cut short, the rows before kept",
                 m->lines ? "; " : "", p2pb_fmt_size(sz, sizeof sz, last), m->ended, m->end_libs,
                 maxbytes);
    p2pb_imp_note(lg, g, "warning: %s table (line %ld): %s%s", t->display, t->line, inside, end);
    return early;
}
