/* SPDX-License-Identifier: MIT */
/*
 * netif.h - which network interface "the one MPI uses" is, for the host
 * knobs (NIC interrupt coalescing) and the raw TCP kernels (tcp-pingpong,
 * tcp-uniband). MPI does not say which interface it picked; the rule below
 * follows what the launcher was told (docs/host-context.md, "Interface").
 */
#ifndef P2PBENCH_NETIF_H
#define P2PBENCH_NETIF_H

#include <stddef.h>

/* The chosen interface: its name, its first IPv4 address as text and the
 * rule that chose it. */
struct p2pb_netif {
    char name[64];  /* "eth0"; "" when none was found */
    char addr[64];  /* dotted IPv4 address, "" when the interface has none */
    char basis[64]; /* "--tcp-if", "btl_tcp_if_include", "host name",
                     * "default route", "first up interface", "loopback" */
};

/*
 * Choose the interface, first rule that gives one:
 *  1. want, when neither NULL nor "": that interface (--tcp-if NAME; the
 *     caller passes the run's --tcp-if, "" when none applies);
 *  2. $OMPI_MCA_btl_tcp_if_include: its first entry, a name or an IPv4
 *     CIDR (the interface holding an address in it);
 *  3. the non-loopback interface holding an IPv4 address the host name
 *     resolves to (getaddrinfo);
 *  4. the interface of the IPv4 default route (procfs/net/route);
 *  5. the first interface that is up, not loopback, with an IPv4 address;
 *  6. the loopback interface.
 * procfs: "/proc" or a fixture root. Returns 0, or -1 (with a one-line
 * reason in err, errlen bytes) when want names no interface with an IPv4
 * address or nothing at all is found.
 */
int p2pb_netif_pick(const char *want, const char *procfs, struct p2pb_netif *out, char *err,
                    size_t errlen);

/*
 * IPv4 address of interface name as text into addr (len bytes).
 * Returns 0, or -1 when the interface does not exist or has no IPv4 address.
 */
int p2pb_netif_addr(const char *name, char *addr, size_t len);

#endif /* P2PBENCH_NETIF_H */
