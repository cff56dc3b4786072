/* SPDX-License-Identifier: MIT */
/*
 * plot_run: the gnuplot process of a plot. gnuplot is fork/exec'd (no
 * shell) with the script on its stdin and its stderr in a temporary file,
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
#include <unistd.h>

#include "plot.h"
#include "text.h"

/* Exit status of the child when exec fails; its stderr then holds strerror. */
enum { EXEC_FAILED = 127 };

/* Child side of the fork: the pipe's read end as stdin, errfd as stderr,
 * exec prog. */
__attribute__((noreturn)) static void exec_gnuplot(const char *prog, int pfd[2], int errfd)
{
    dup2(pfd[0], STDIN_FILENO);
    dup2(errfd, STDERR_FILENO);
    close(pfd[0]);
    close(pfd[1]);
    char *const argv[] = {(char *)prog, NULL};
    execvp(prog, argv);
    fprintf(stderr, "%s\n", strerror(errno));
    _exit(EXEC_FAILED);
}

/* Write the script into the pipe's write end fd (closed on return); a
 * gnuplot that exits early must not kill us with SIGPIPE. */
static void send_script(int fd, p2pb_gnuplot_script_fn script, const void *ctx)
{
    void (*old)(int) = signal(SIGPIPE, SIG_IGN);
    FILE *o = fdopen(fd, "w");
    if (!o) {
        close(fd);
    } else {
        script(o, ctx);
        fclose(o);
    }
    signal(SIGPIPE, old);
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

enum p2pb_status p2pb_gnuplot_run(const char *prog, p2pb_gnuplot_script_fn script, const void *ctx,
                                  const char *image, const char *name, char *err, size_t errlen)
{
    int pfd[2];
    FILE *e = tmpfile();
    if (!e)
        return p2pb_fail(P2PB_EIO, err, errlen, "temporary file: %s", strerror(errno));
    if (pipe(pfd) != 0) {
        fclose(e);
        return p2pb_fail(P2PB_EIO, err, errlen, "pipe: %s", strerror(errno));
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(pfd[0]);
        close(pfd[1]);
        fclose(e);
        return p2pb_fail(P2PB_EIO, err, errlen, "fork: %s", strerror(errno));
    }
    if (pid == 0)
        exec_gnuplot(prog, pfd, fileno(e));
    close(pfd[0]);
    send_script(pfd[1], script, ctx);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    enum p2pb_status st = judge(prog, status, e, image, name, err, errlen);
    fclose(e);
    return st;
}

/* p2pb_plot_script as a p2pb_gnuplot_script_fn. */
static void plot_script(FILE *o, const void *job)
{
    p2pb_plot_script(o, job);
}

enum p2pb_status p2pb_plot_run(const char *prog, const struct plot_job *job, char *err,
                               size_t errlen)
{
    return p2pb_gnuplot_run(prog, plot_script, job, job->tmp, job->out, err, errlen);
}
