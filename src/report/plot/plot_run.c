/* SPDX-License-Identifier: MIT */
/*
 * plot_run: the gnuplot process of a plot. gnuplot is fork/exec'd (no
 * shell) with the script on its stdin (a temporary file: a gnuplot that
 * reads nothing cannot block us) and its stderr in a temporary file; it may
 * run --gnuplot-timeout seconds, then it is killed,
 * so that its warnings never reach the terminal raw; on failure the first
 * error line it printed is shown, sanitised. Success is an exit status of 0
 * and a non-empty image.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "plot/plot.h"
#include "text.h"

/* Exit status of the child when exec fails; its stderr then holds strerror. */
enum { EXEC_FAILED = 127 };

void p2pb_gnuplot_quote(FILE *o, const char *s)
{
    int open = 0; /* inside a single-quoted run */
    fputc('(', o);
    if (!*s)
        fputs("''", o);
    for (const char *c = s; *c; c++) {
        if (*c == '\'') {
            fputs(open ? "'.\"'\"" : c == s ? "\"'\"" : ".\"'\"", o);
            open = 0;
            continue;
        }
        if (!open)
            fputs(c == s ? "'" : ".'", o);
        open = 1;
        fputc(*c == '\n' || *c == '\r' ? ' ' : *c, o);
    }
    fputs(open ? "')" : ")", o);
}

/* Child side of the fork: infd as stdin, errfd as stderr, exec prog. */
__attribute__((noreturn)) static void exec_gnuplot(const char *prog, int infd, int errfd)
{
    setpgid(0, 0); /* its own process group: a timeout stops its children too */
    dup2(infd, STDIN_FILENO);
    dup2(errfd, STDERR_FILENO);
    char *const argv[] = {(char *)prog, NULL};
    execvp(prog, argv);
    fprintf(stderr, "%s\n", strerror(errno));
    _exit(EXEC_FAILED);
}

/* Wait for pid at most timeout_s seconds (<= 0: no limit; polling every
 * 10 ms), then kill it. *status as waitpid's; returns 1 when it had to be
 * killed. */
static int wait_bounded(pid_t pid, double timeout_s, int *status)
{
    struct timespec t0, now, tick = {0, 10 * 1000 * 1000};
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        pid_t r = waitpid(pid, status, timeout_s > 0 ? WNOHANG : 0);
        if (r == pid || (r < 0 && errno != EINTR))
            return 0;
        clock_gettime(CLOCK_MONOTONIC, &now);
        double waited =
            (double)(now.tv_sec - t0.tv_sec) + 1e-9 * (double)(now.tv_nsec - t0.tv_nsec);
        if (r == 0 && waited >= timeout_s) {
            if (kill(-pid, SIGKILL) != 0)
                kill(pid, SIGKILL);
            while (waitpid(pid, status, 0) < 0 && errno == EINTR)
                ;
            return 1;
        }
        if (r == 0)
            nanosleep(&tick, NULL);
    }
}

/* The first line of gnuplot's stderr (file e) that reports an error: one
 * that is not a warning and not blank (gnuplot echoes the failing command
 * and a caret before it, so a line naming "line N:" wins); sanitised, cut
 * to len bytes. "" when there is none. */
static void first_error(FILE *e, char *buf, size_t len)
{
    char line[512], plain[512] = "";
    buf[0] = '\0';
    rewind(e);
    while (!buf[0] && fgets(line, sizeof line, e)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (!line[strspn(line, " \t^")] || strstr(line, "warning:"))
            continue;
        if (strstr(line, ", line ") || strncmp(line, "line ", 5) == 0)
            snprintf(buf, len, "%.*s", (int)len - 1, line);
        else if (!plain[0])
            snprintf(plain, sizeof plain, "%s", line);
    }
    if (!buf[0])
        snprintf(buf, len, "%.*s", (int)len - 1, plain);
    p2pb_text_sanitize(buf);
}

/* The verdict on a finished gnuplot: exit status, then the image. */
static enum p2pb_status judge(const char *prog, int status, FILE *e, const char *image,
                              const char *name, char *err, size_t errlen)
{
    char said[240];
    first_error(e, said, sizeof said);
    struct stat st;
    if (WIFEXITED(status) && WEXITSTATUS(status) == EXEC_FAILED && said[0])
        return p2pb_fail(P2PB_EIO, err, errlen, "cannot run gnuplot '%s': %s", prog, said);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return p2pb_fail(P2PB_EIO, err, errlen, "gnuplot ('%s') failed (%s %d) writing '%s'%s%s",
                         prog, WIFEXITED(status) ? "exit" : "signal",
                         WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), name,
                         said[0] ? "\ngnuplot: " : "", said);
    if (stat(image, &st) != 0 || st.st_size == 0)
        return p2pb_fail(P2PB_EIO, err, errlen,
                         "gnuplot ('%s') exited 0 but wrote no image for '%s'%s%s", prog, name,
                         said[0] ? "\ngnuplot: " : "", said);
    return P2PB_OK;
}

enum p2pb_status p2pb_gnuplot_run(const char *prog, double timeout_s, p2pb_gnuplot_script_fn script,
                                  const void *ctx, const char *image, const char *name, char *err,
                                  size_t errlen)
{
    FILE *e = tmpfile(), *in = tmpfile();
    enum p2pb_status st = P2PB_OK;
    if (!e || !in) {
        st = p2pb_fail(P2PB_EIO, err, errlen, "temporary file: %s", strerror(errno));
        goto out;
    }
    script(in, ctx);
    if (fflush(in) != 0 || ferror(in) || fseek(in, 0, SEEK_SET) != 0) {
        st = p2pb_fail(P2PB_EIO, err, errlen, "temporary file: %s", strerror(errno));
        goto out;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        st = p2pb_fail(P2PB_EIO, err, errlen, "fork: %s", strerror(errno));
        goto out;
    }
    if (pid == 0)
        exec_gnuplot(prog, fileno(in), fileno(e));
    setpgid(pid, pid); /* also here: no race with a timeout that comes first */
    int status = 0;
    if (wait_bounded(pid, timeout_s, &status))
        st = p2pb_fail(P2PB_EIO, err, errlen,
                       "gnuplot ('%s') did not finish within %g s writing '%s'; stopped it "
                       "(--gnuplot-timeout)",
                       prog, timeout_s, name);
    else
        st = judge(prog, status, e, image, name, err, errlen);
out:
    if (e)
        fclose(e);
    if (in)
        fclose(in);
    return st;
}
