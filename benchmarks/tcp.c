/* SPDX-License-Identifier: MIT */
/*
 * tcp.c - the TCP connection of the raw-transport kernels (tcp.h).
 */
#define _DEFAULT_SOURCE 1 /* MSG_NOSIGNAL, TCP_NODELAY */

#include "tcp.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "netif.h"

/* --tcp-if's value: an interface name, 1..15 bytes (IFNAMSIZ - 1) of
 * letters, digits and "-_.@:"; whether it exists is checked on every rank
 * (src/bench/preflight.c). NULL when good, else why not. */
static const char *tcp_if_check(const char *arg)
{
    size_t n = strlen(arg);
    int ok = n > 0 && n < 16;
    for (size_t i = 0; ok && i < n; i++)
        ok = isalnum((unsigned char)arg[i]) || strchr("-_.@:", arg[i]) != NULL;
    return ok ? NULL : "not an interface name (1 to 15 letters, digits or -_.@:)";
}

const struct p2pb_optdef p2pb_tcp_options[P2PB_TCP_NOPTIONS] = {
    P2PB_OPT(0, "tcp-if", 0, P2PB_OPT_STRING, "NAME", .def_text = "the interface MPI uses",
             P2PB_KSET_FIELD(tcp_if_arg), .check = tcp_if_check,
             .help = "tcp-pingpong, tcp-uniband: network interface to use (default: {def})"),
};

enum { TAG_OFFER = 121, TAG_VERDICT = 122 };

/* What the listening rank tells its peer, and what the peer answers. */
struct tcp_offer {
    int ok;        /* 1: listening at addr:port */
    int port;      /* host order */
    char addr[64]; /* dotted IPv4 */
    char ifname[64];
};

static void say(const struct p2pb_kernel_ctx *c, const char *what, const char *detail)
{
    fprintf(stderr, "p2pbench: rank %d: tcp: %s: %s\n", c->rank, what, detail);
}

/* Listen on the interface MPI uses (or --tcp-if), port chosen by the kernel.
 * Fills o; returns the socket or -1 (reason on stderr). */
static int listen_socket(const struct p2pb_kernel_ctx *c, struct tcp_offer *o)
{
    struct p2pb_netif nif;
    char err[200];
    memset(o, 0, sizeof *o);
    if (p2pb_netif_pick(c->tcp_if, "/proc", &nif, err, sizeof err) != 0)
        return say(c, "no interface", err), -1;
    struct sockaddr_in sa = {.sin_family = AF_INET};
    socklen_t len = sizeof sa;
    int one = 1, fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0 || inet_pton(AF_INET, nif.addr, &sa.sin_addr) != 1 ||
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0 ||
        bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(fd, 1) != 0 ||
        getsockname(fd, (struct sockaddr *)&sa, &len) != 0) {
        snprintf(err, sizeof err, "%s (%s): %s", nif.addr, nif.name, strerror(errno));
        say(c, "cannot listen", err);
        if (fd >= 0)
            close(fd);
        return -1;
    }
    o->ok = 1;
    o->port = ntohs(sa.sin_port);
    snprintf(o->addr, sizeof o->addr, "%s", nif.addr);
    snprintf(o->ifname, sizeof o->ifname, "%s", nif.name);
    return fd;
}

/* Wait until fd is ready for events, at most sec seconds. 1 ready, 0 not. */
static int wait_ready(int fd, short events, int sec)
{
    struct pollfd p = {.fd = fd, .events = events};
    int rc;
    do
        rc = poll(&p, 1, sec * 1000);
    while (rc < 0 && errno == EINTR);
    return rc > 0;
}

/* Connect to o's address within P2PB_TCP_CONNECT_SEC. Socket or -1. */
static int connect_socket(const struct p2pb_kernel_ctx *c, const struct tcp_offer *o)
{
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)o->port)};
    int fd = socket(AF_INET, SOCK_STREAM, 0), e = 0;
    socklen_t elen = sizeof e;
    if (fd < 0 || inet_pton(AF_INET, o->addr, &sa.sin_addr) != 1)
        e = errno ? errno : EINVAL;
    else if (fcntl(fd, F_SETFL, O_NONBLOCK) != 0)
        e = errno;
    else if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0 && errno != EINPROGRESS)
        e = errno;
    else if (!wait_ready(fd, POLLOUT, P2PB_TCP_CONNECT_SEC))
        e = ETIMEDOUT;
    else if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &elen) == 0 && e == 0 &&
             fcntl(fd, F_SETFL, 0) != 0)
        e = errno;
    if (e) {
        char d[200];
        snprintf(d, sizeof d, "%s:%d (%s): %s", o->addr, o->port, o->ifname, strerror(e));
        say(c, "cannot connect", d);
        if (fd >= 0)
            close(fd);
        return -1;
    }
    return fd;
}

/* Accept the peer's connection (it has connected already). Socket or -1. */
static int accept_socket(const struct p2pb_kernel_ctx *c, int lfd)
{
    if (!wait_ready(lfd, POLLIN, P2PB_TCP_CONNECT_SEC)) {
        say(c, "accept", "no connection within the time limit");
        return -1;
    }
    int fd = accept(lfd, NULL, NULL);
    if (fd < 0)
        say(c, "accept", strerror(errno));
    return fd;
}

/* The pair's handshake: offer through MPI, connect, verdict back.
 * Returns the connected socket or -1; *mpi_bad on an MPI failure. */
static int handshake(struct p2pb_kernel_ctx *c, int *mpi_bad)
{
    struct tcp_offer mine = {0}, theirs = {0};
    int listener = c->rank < c->peer, lfd = -1, fd = -1, ok = 0;
    if (listener)
        lfd = listen_socket(c, &mine);
    *mpi_bad = MPI_Sendrecv(&mine, (int)sizeof mine, MPI_BYTE, c->peer, TAG_OFFER, &theirs,
                            (int)sizeof theirs, MPI_BYTE, c->peer, TAG_OFFER, c->comm,
                            MPI_STATUS_IGNORE) != MPI_SUCCESS;
    if (!*mpi_bad && !listener) {
        fd = theirs.ok ? connect_socket(c, &theirs) : -1;
        ok = fd >= 0;
        *mpi_bad = MPI_Send(&ok, 1, MPI_INT, c->peer, TAG_VERDICT, c->comm) != MPI_SUCCESS;
    } else if (!*mpi_bad) {
        *mpi_bad = MPI_Recv(&ok, 1, MPI_INT, c->peer, TAG_VERDICT, c->comm, MPI_STATUS_IGNORE) !=
                   MPI_SUCCESS;
        fd = !*mpi_bad && ok && lfd >= 0 ? accept_socket(c, lfd) : -1;
    }
    if (lfd >= 0)
        close(lfd);
    return fd;
}

enum p2pb_status p2pb_tcp_setup(struct p2pb_kernel_ctx *c)
{
    struct p2pb_tcp_state *s = calloc(1, sizeof *s);
    if (!s)
        return P2PB_ENOMEM;
    int mpi_bad = 0, one = 1;
    s->fd = handshake(c, &mpi_bad);
    c->priv = s;
    if (s->fd >= 0 && setsockopt(s->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) != 0)
        say(c, "TCP_NODELAY", strerror(errno)); /* recorded, not fatal */
    if (mpi_bad || s->fd < 0) {
        p2pb_tcp_teardown(c);
        return mpi_bad ? P2PB_EMPI : P2PB_EIO;
    }
    return P2PB_OK;
}

void p2pb_tcp_teardown(struct p2pb_kernel_ctx *c)
{
    struct p2pb_tcp_state *s = c->priv;
    if (s && s->fd >= 0)
        close(s->fd);
    free(s);
    c->priv = NULL;
}

enum p2pb_status p2pb_tcp_send_all(const struct p2pb_kernel_ctx *c, const void *buf, size_t n)
{
    const struct p2pb_tcp_state *s = c->priv;
    const unsigned char *p = buf;
    while (n > 0) {
        ssize_t w = send(s->fd, p, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return say(c, "send", w < 0 ? strerror(errno) : "nothing written"), P2PB_EIO;
        p += w;
        n -= (size_t)w;
    }
    return P2PB_OK;
}

enum p2pb_status p2pb_tcp_recv_all(const struct p2pb_kernel_ctx *c, void *buf, size_t n)
{
    const struct p2pb_tcp_state *s = c->priv;
    unsigned char *p = buf;
    while (n > 0) {
        ssize_t r = recv(s->fd, p, n, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return say(c, "recv", r < 0 ? strerror(errno) : "the peer closed the connection"),
                   P2PB_EIO;
        p += r;
        n -= (size_t)r;
    }
    return P2PB_OK;
}
