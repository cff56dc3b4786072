/* SPDX-License-Identifier: MIT */
/*
 * tcp.h - internal to benchmarks/: one plain TCP connection between the two
 * ranks of a pair, for the raw-transport kernels tcp-pingpong and
 * tcp-uniband (docs/kernels.md). The lower rank listens on the IPv4 address
 * of the interface MPI uses (or --tcp-if; src/common/netif.h), the address
 * and port go to the peer through MPI, the peer connects. Not a public header.
 */
#ifndef P2PBENCH_KERNELS_TCP_H
#define P2PBENCH_KERNELS_TCP_H

#include "p2pbench/kernel.h"

/* The TCP kernels' option, --tcp-if (option.h): one array both point to. */
#define P2PB_TCP_NOPTIONS 1
extern const struct p2pb_optdef p2pb_tcp_options[P2PB_TCP_NOPTIONS];

/* Seconds the connecting rank waits for connect() before giving up. */
#define P2PB_TCP_CONNECT_SEC 10

/* ctx->priv of the TCP kernels: the connected socket. */
struct p2pb_tcp_state {
    int fd;
};

/*
 * Connect ctx->rank and ctx->peer (both call it; collective over the pair):
 * TCP_NODELAY on, socket buffers left to the kernel's autotuning. On failure
 * a one-line reason naming the rank, the address and the system error goes
 * to stderr. Returns P2PB_OK, P2PB_EIO (no interface, socket, connect or
 * accept failed, on both ranks), P2PB_ENOMEM or P2PB_EMPI.
 */
enum p2pb_status p2pb_tcp_setup(struct p2pb_kernel_ctx *ctx);

/* Close the socket and free ctx->priv. */
void p2pb_tcp_teardown(struct p2pb_kernel_ctx *ctx);

/* Write all n bytes of buf to the connection (MSG_NOSIGNAL; retried on
 * EINTR and short writes). Returns P2PB_OK, or P2PB_EIO with a one-line
 * reason on stderr (the peer closed, reset, ...). */
enum p2pb_status p2pb_tcp_send_all(const struct p2pb_kernel_ctx *ctx, const void *buf, size_t n);

/* Read exactly n bytes into buf. Returns P2PB_OK, or P2PB_EIO with a
 * one-line reason on stderr (end of stream before n bytes, reset, ...). */
enum p2pb_status p2pb_tcp_recv_all(const struct p2pb_kernel_ctx *ctx, void *buf, size_t n);

#endif /* P2PBENCH_KERNELS_TCP_H */
