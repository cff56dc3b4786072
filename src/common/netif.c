/* SPDX-License-Identifier: MIT */
/*
 * netif.c - the interface MPI uses, by the rules in netif.h.
 */
#define _DEFAULT_SOURCE 1 /* getifaddrs, struct ifreq flags (BSD / Linux) */

#include "netif.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "p2pbench/status.h"

/* Which IPv4 interface entry a search wants. */
struct netif_query {
    const char *name;            /* exact interface name, or NULL */
    struct in_addr net;          /* with mask: an address inside net/mask */
    uint32_t mask;               /* host order; 0 = no subnet test */
    const struct in_addr *exact; /* an exact address, or NULL */
    int first_up;                /* any up, non-loopback interface */
};

static int entry_matches(const struct ifaddrs *a, const struct netif_query *q)
{
    if (!a->ifa_addr || a->ifa_addr->sa_family != AF_INET)
        return 0;
    struct in_addr in = ((const struct sockaddr_in *)(const void *)a->ifa_addr)->sin_addr;
    if (q->name)
        return strcmp(a->ifa_name, q->name) == 0;
    if (q->exact)
        return in.s_addr == q->exact->s_addr && !(a->ifa_flags & IFF_LOOPBACK);
    if (q->mask)
        return (ntohl(in.s_addr) & q->mask) == (ntohl(q->net.s_addr) & q->mask);
    if (q->first_up)
        return (a->ifa_flags & IFF_UP) && !(a->ifa_flags & IFF_LOOPBACK);
    return (a->ifa_flags & IFF_LOOPBACK) != 0;
}

/* First IPv4 entry matching q into out (name, address). Returns 0 or -1. */
static int find_entry(const struct netif_query *q, struct p2pb_netif *out)
{
    struct ifaddrs *list = NULL;
    if (getifaddrs(&list) != 0)
        return -1;
    int rc = -1;
    for (const struct ifaddrs *a = list; a && rc != 0; a = a->ifa_next)
        if (entry_matches(a, q)) {
            struct in_addr in = ((const struct sockaddr_in *)(const void *)a->ifa_addr)->sin_addr;
            snprintf(out->name, sizeof out->name, "%s", a->ifa_name);
            inet_ntop(AF_INET, &in, out->addr, sizeof out->addr);
            rc = 0;
        }
    freeifaddrs(list);
    return rc;
}

int p2pb_netif_addr(const char *name, char *addr, size_t len)
{
    struct netif_query q = {.name = name};
    struct p2pb_netif n;
    if (!name || !name[0] || find_entry(&q, &n) != 0)
        return -1;
    snprintf(addr, len, "%s", n.addr);
    return 0;
}

/* Rule 2: the first entry of Open MPI's btl_tcp_if_include, a name or a CIDR. */
static int from_mca(struct p2pb_netif *out)
{
    const char *v = getenv("OMPI_MCA_btl_tcp_if_include");
    char first[128];
    if (!v || !v[0])
        return -1;
    snprintf(first, sizeof first, "%.*s", (int)strcspn(v, ","), v);
    struct netif_query q = {.name = first};
    char *slash = strchr(first, '/');
    if (slash) {
        *slash = '\0';
        int bits = atoi(slash + 1);
        if (bits < 1 || bits > 32 || inet_pton(AF_INET, first, &q.net) != 1)
            return -1;
        q.name = NULL;
        q.mask = bits == 32 ? 0xffffffffu : ~(0xffffffffu >> bits);
    }
    return find_entry(&q, out);
}

/* Rule 3: an address the host name resolves to, held by a non-loopback
 * interface. */
static int from_hostname(struct p2pb_netif *out)
{
    char host[256];
    struct addrinfo hints = {.ai_family = AF_INET, .ai_socktype = SOCK_STREAM}, *res = NULL;
    if (gethostname(host, sizeof host) != 0 || getaddrinfo(host, NULL, &hints, &res) != 0)
        return -1;
    int rc = -1;
    for (const struct addrinfo *r = res; r && rc != 0; r = r->ai_next) {
        struct in_addr in = ((const struct sockaddr_in *)(const void *)r->ai_addr)->sin_addr;
        struct netif_query q = {.exact = &in};
        rc = find_entry(&q, out);
    }
    freeaddrinfo(res);
    return rc;
}

/* Rule 4: the interface of the default route in procfs/net/route. */
static int from_route(const char *procfs, struct p2pb_netif *out)
{
    char path[600], line[512], ifname[64] = "";
    snprintf(path, sizeof path, "%s/net/route", procfs);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    while (!ifname[0] && fgets(line, sizeof line, f)) {
        char name[64];
        unsigned long dest;
        if (sscanf(line, "%63s %lx", name, &dest) == 2 && dest == 0)
            snprintf(ifname, sizeof ifname, "%s", name);
    }
    fclose(f);
    struct netif_query q = {.name = ifname};
    return ifname[0] ? find_entry(&q, out) : -1;
}

/* Rules 2-6 of netif.h in order: rule i (0-based) into out; returns 0 when
 * it gives an interface, else -1. */
static int auto_rule(int i, const char *procfs, struct p2pb_netif *out)
{
    struct netif_query up = {.first_up = 1}, lo = {0};
    switch (i) {
    case 0: return from_mca(out);
    case 1: return from_hostname(out);
    case 2: return from_route(procfs, out);
    case 3: return find_entry(&up, out);
    case 4: return find_entry(&lo, out);
    default: return -1;
    }
}

static const char *const rule_names[] = {"btl_tcp_if_include", "host name", "default route",
                                         "first up interface", "loopback"};

int p2pb_netif_pick(const char *want, const char *procfs, struct p2pb_netif *out, char *err,
                    size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (want && want[0]) {
        struct netif_query q = {.name = want};
        if (find_entry(&q, out) != 0) {
            p2pb_fail(P2PB_EUSAGE, err, errlen,
                      "invalid value '%s' for --tcp-if: no such interface with an IPv4 address "
                      "on this host",
                      want);
            return -1;
        }
        snprintf(out->basis, sizeof out->basis, "--tcp-if");
        return 0;
    }
    for (int i = 0; i < 5; i++)
        if (auto_rule(i, procfs ? procfs : "/proc", out) == 0) {
            snprintf(out->basis, sizeof out->basis, "%s", rule_names[i]);
            return 0;
        }
    memset(out, 0, sizeof *out);
    p2pb_fail(P2PB_EIO, err, errlen, "no network interface with an IPv4 address found");
    return -1;
}
