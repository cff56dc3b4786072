/* SPDX-License-Identifier: MIT */
/*
 * kernel.h - the kernel contract.
 *
 * A kernel is one `const struct p2pb_kernel` in its own file under
 * benchmarks/, listed in the one table in benchmarks/registry.c. The harness
 * (src/bench/harness.c) alone reads clocks, synchronizes, repeats, agrees on
 * iteration counts, reduces across ranks and computes statistics; a kernel
 * only moves bytes.
 *
 * Adding a kernel: one file in benchmarks/ (the build picks up every .c file
 * there), one line in benchmarks/registry.c, one row in docs/kernels.md, one
 * line in tests (the byte accounting table in tests/bench/bytecount.c for
 * IMB's four; tests/benchmarks/ for the others). docs/kernels.md, section
 * "Adding a kernel", walks through it.
 */
#ifndef P2PBENCH_KERNEL_H
#define P2PBENCH_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include <mpi.h>

#include "p2pbench/option.h"
#include "p2pbench/result.h"
#include "p2pbench/status.h"

/* Which ranks take part in a kernel. */
enum p2pb_participation {
    P2PB_PART_PAIR,  /* ranks 0 and 1 work; others wait in the harness's barrier */
    P2PB_PART_ALL,   /* every rank takes part (e.g. a periodic chain) */
    P2PB_PART_PAIRS, /* disjoint pairs (0,1), (2,3), ...; an odd last rank waits */
    P2PB_PART_SELF   /* every rank works alone, no messages (memcpy reference) */
};

/* How per-rank sample durations become one sample value. */
enum p2pb_rank_reduce {
    P2PB_REDUCE_MAX, /* maximum over active ranks (default; IMB's t_max) */
    P2PB_REDUCE_ROOT /* the time of rank 0, the initiator (PingPong); with
                      * P2PB_KF_PER_GROUP: of each group's lowest rank */
};

/*
 * Capability flags of a descriptor (struct p2pb_kernel.flags). The harness
 * and the suite (src/bench/suite.c) branch on these, never on a kernel's name.
 *
 * P2PB_KF_DIRECTIONS  run the kernel once per direction: direction 0 = the
 *                     lower rank of each pair sends, direction 1 = the higher
 *                     rank sends (ctx->direction). Rows are labelled in
 *                     struct p2pb_result.variant ("0->1", "1->0"), and the
 *                     rows of direction 1 carry the ratio of their MB/s to
 *                     direction 0's at the same size (result.h, asymmetry).
 * P2PB_KF_PER_GROUP   the harness keeps one time per group of ranks as well
 *                     as the overall one and emits one row per group plus an
 *                     "aggregate" row (when there is more than one group).
 *                     Groups: PAIRS -> each pair (2g, 2g+1); SELF -> each
 *                     active rank; PAIR / ALL -> one group.
 * P2PB_KF_EVERY_RANK  P2PB_PART_SELF kernels: every rank works, whatever
 *                     --memcpy-ranks says (the noise probe).
 * P2PB_KF_NO_MPI      the timed iteration moves no MPI message (raw TCP,
 *                     noise): an MPI eager limit does not apply to its rows.
 * P2PB_KF_ONEWAY      one-way time (with P2PB_KF_DIRECTIONS, 2 ranks): the
 *                     harness reads the sender's clock before run_iter and
 *                     the receiver's after it, then calls finish_iter (the
 *                     untimed acknowledgement); a sample is the mean of the
 *                     receiver's end minus the sender's start on rank 0's
 *                     clock, through the clock model of src/bench/clock.h.
 */
#define P2PB_KF_DIRECTIONS 0x1u
#define P2PB_KF_PER_GROUP 0x2u
#define P2PB_KF_EVERY_RANK 0x4u
#define P2PB_KF_NO_MPI 0x8u
#define P2PB_KF_ONEWAY 0x10u
/* P2PB_KF_RMA         one-sided (MPI RMA) kernel: reads ctx->rma_sync and
 *                     ctx->rma_window (--rma-sync, --rma-window; benchmarks/rma.c) */
#define P2PB_KF_RMA 0x100u

/* --rma-sync: how an RMA kernel completes its puts / gets (benchmarks/rma.c). */
enum p2pb_rma_sync {
    P2PB_RMA_FLUSH, /* MPI_Win_lock once per size, MPI_Win_flush per iteration */
    P2PB_RMA_LOCK,  /* MPI_Win_lock / MPI_Win_unlock per iteration */
    P2PB_RMA_FENCE, /* MPI_Win_fence per iteration (both ranks) */
    P2PB_RMA_PSCW   /* MPI_Win_post / start / complete / wait per iteration */
};

/* --rma-window: how an RMA kernel makes its window (benchmarks/rma.c). */
enum p2pb_rma_window {
    P2PB_RMA_CREATE,   /* MPI_Win_create on the harness's buffer */
    P2PB_RMA_ALLOCATE, /* MPI_Win_allocate: memory of MPI's */
    P2PB_RMA_DYNAMIC   /* MPI_Win_create_dynamic + MPI_Win_attach of the harness's
                        * buffer, its address sent to the peer */
};

/* Names of enum p2pb_rma_sync / p2pb_rma_window values, by value, NULL-
 * terminated: the choices of --rma-sync / --rma-window (benchmarks/rma.c). */
extern const char *const p2pb_rma_sync_names[];
extern const char *const p2pb_rma_window_names[];

/*
 * Why this MPI library cannot run the one-sided kernels with synchronisation
 * `sync` (enum p2pb_rma_sync) and window `window` (enum p2pb_rma_window), or
 * NULL when it can. Reads MPI_Get_library_version (allowed before MPI_Init;
 * no communication). Open MPI 4.x: passive target (flush, lock) on dynamic
 * windows fails (MPI_ERR_RMA_RANGE from osc/rdma once windows were made and
 * freed at the same addresses; osc/ucx cannot map the shared segment).
 */
const char *p2pb_rma_refusal(int sync, int window);
#define P2PB_KF_OVERLAP 0x20u

/* The phases of a P2PB_KF_OVERLAP kernel (ctx->phase), in the order run. */
enum p2pb_overlap_phase {
    P2PB_OVL_PURE = 0,    /* post, wait: t_pure */
    P2PB_OVL_CPU = 1,     /* compute alone: t_cpu */
    P2PB_OVL_OVERLAP = 2, /* post, compute, wait: t_ovrl */
    P2PB_OVL_NPHASES = 3
};
/*
 * P2PB_KF_LARGE_COUNT for X > INT_MAX bytes the kernel sends X MPI_BYTEs
 *                     with MPI-4's large-count calls (MPI_Send_c, ...) when
 *                     the library has them (P2PB_HAVE_MPI4); the harness
 *                     then sets ctx->large_count, else the kernel uses
 *                     ctx->dtype / ctx->count (1 KiB blocks). The row says
 *                     which (struct p2pb_result.count_path).
 * P2PB_KF_BOUND_BUFFERS the kernel binds sbuf / rbuf to requests in setup
 *                     (persistent, partitioned): the harness keeps one
 *                     buffer set (--off-cache does not cycle them).
 * P2PB_KF_PARTITIONED X is split into ctx->partitions equal parts
 *                     (--partitions): a size that is not a multiple of it
 *                     gives a row with status "skipped" and a note.
 */
#define P2PB_KF_LARGE_COUNT 0x200u
#define P2PB_KF_BOUND_BUFFERS 0x400u
#define P2PB_KF_PARTITIONED 0x800u

/* 1 when the MPI library implements MPI 4.0 (partitioned communication,
 * the large-count calls MPI_Send_c etc.), else 0. */
#if defined(MPI_VERSION) && MPI_VERSION >= 4
#define P2PB_HAVE_MPI4 1
#else
#define P2PB_HAVE_MPI4 0
#endif

/*
 * What the bytes counted per iteration scale with (struct p2pb_bytes_rule).
 * X = message size (ctx->bytes), W = window (ctx->window), B = memcpy copy
 * buffer (ctx->copy_bytes); all in bytes except W (messages).
 */
enum p2pb_bytes_unit {
    P2PB_BYTES_X,          /* count * X                                     */
    P2PB_BYTES_WINDOW_X,   /* count * W * X: a window of W messages of X    */
    P2PB_BYTES_COPY_BUFFER /* count * B, whatever X: the bytes are fixed;
                            * rows carry them in p2pb_result.fixed_bytes   */
};

/*
 * Bytes counted per iteration for throughput, one number per kernel times
 * what it scales with: `.bytes = {2, P2PB_BYTES_X}` is 2 X (Sendrecv).
 * MB/s = bytes / t(usec), 1 MB = 10^6 B. The definitions of each kernel:
 * docs/kernels.md.
 */
struct p2pb_bytes_rule {
    double count;
    enum p2pb_bytes_unit unit;
};

/*
 * What the messages counted per iteration scale with (struct p2pb_msgs_rule;
 * W = ctx->window).
 */
enum p2pb_msgs_unit {
    P2PB_MSGS_ONE,   /* count messages                     */
    P2PB_MSGS_WINDOW /* count * W: windows of W messages   */
};

/*
 * Messages counted per iteration for the message rate, next to the bytes
 * rule: `.msgs = {2, P2PB_MSGS_WINDOW}` is 2 W (Biband). msgs/s = messages /
 * t(usec) x 10^6. A kernel sets it only when every counted message carries
 * X bytes (bytes counted = messages x X), so msgs/s x X / 10^6 = MB/s by
 * definition; count 0 (the default) = no message rate (no msgs/s column).
 * The acknowledgements and handshakes of a kernel are not counted, as in
 * its bytes rule.
 */
struct p2pb_msgs_rule {
    double count;
    enum p2pb_msgs_unit unit;
};

/*
 * sbuf_regions / rbuf_regions value meaning "one region per message of the
 * window": the buffer holds W = ctx->window regions of X bytes.
 */
#define P2PB_WINDOW_REGIONS (-1)

/*
 * Number of X-byte regions a buffer holds for a descriptor's sbuf_regions /
 * rbuf_regions value `spec` and window W: spec when spec >= 1,
 * W when spec == P2PB_WINDOW_REGIONS, else 1.
 */
size_t p2pb_kernel_regions(int spec, size_t window);

/*
 * Per-rank state the harness hands to a kernel. The harness owns every field
 * except `priv`, which setup() may set and teardown() must release.
 */
struct p2pb_kernel_ctx {
    MPI_Comm comm;       /* benchmark communicator (MPI_ERRORS_RETURN) */
    int rank, nranks;    /* in comm */
    int active;          /* 1 if this rank takes part in the kernel */
    int peer;            /* pairwise kernels: the partner rank, else -1 */
    int left, right;     /* chain kernels: (rank-1+n)%n and (rank+1)%n */
    size_t bytes;        /* message size X in bytes */
    MPI_Datatype dtype;  /* element type: MPI_BYTE, or a contiguous block */
    int count;           /* elements of dtype per message: count * extent == bytes
                          * (0 and not read when large_count is 1) */
    size_t window;       /* window W of non-blocking sends (bandwidth kernels;
                          * --window, default 64, 1..65536) */
    int direction;       /* P2PB_KF_DIRECTIONS kernels: 0 = lower rank of the
                          * pair sends, 1 = higher rank sends; else 0 */
    int group;           /* index of this rank's group (P2PB_KF_PER_GROUP):
                          * PAIRS rank/2, SELF rank; -1 if inactive */
    size_t copy_bytes;   /* memcpy reference: bytes copied per iteration
                          * (--memcpy-buffer, default 16 MiB) */
    unsigned char *sbuf; /* send buffer, sbuf_regions * bytes (page aligned) */
    unsigned char *rbuf; /* receive buffer, rbuf_regions * bytes (page aligned) */
    uint64_t iter;       /* iteration index, used by --check patterns */
    void *priv;          /* kernel-private state */
    int prepost;         /* msgrate: 1 = post the receives before the partner
                          * sends (--msgrate-prepost on, default), 0 = off */
    size_t pollute;      /* msgrate: bytes of a buffer touched between
                          * iterations, untimed (--cache-pollute; 0 = off) */
    int numa_node;       /* --numa-node: NUMA node (OS index) the buffers are
                          * bound to; -1 = first touch after the CPU binding */
    const char *tcp_if;  /* --tcp-if: interface of the TCP kernels; "" (or
                          * NULL) = the one MPI uses (src/common/netif.h) */
    /* Binds [addr, addr + bytes) to c->numa_node (nothing when it is -1) as
     * the harness does for sbuf / rbuf; a kernel that allocates buffers of
     * its own calls it, passing its ctx, before first touch. Returns 0, or
     * -1 with errno set (the run record shows where buffers really are).
     * Never NULL. */
    int (*membind)(const struct p2pb_kernel_ctx *c, void *addr, size_t bytes);
    int rma_sync;           /* P2PB_KF_RMA kernels: enum p2pb_rma_sync (--rma-sync) */
    int rma_window;         /* P2PB_KF_RMA kernels: enum p2pb_rma_window (--rma-window) */
    int phase;              /* P2PB_KF_OVERLAP kernels: enum p2pb_overlap_phase;
                             * else 0 */
    uint64_t compute_iters; /* P2PB_KF_OVERLAP, phases 1 and 2: steps of
                             * compute per iteration on this rank; else 0 */
    int large_count;   /* P2PB_KF_LARGE_COUNT kernels: 1 when X > INT_MAX and
                        * the library has the large-count calls: send X
                        * MPI_BYTEs with MPI_Send_c etc.; else 0 */
    size_t partitions; /* P2PB_KF_PARTITIONED kernels: parts per message
                        * (--partitions, default 8, 1..65536); X is a
                        * multiple of it; else 0 */
};

/*
 * The values of the kernel-specific options, each declared by the kernel
 * that reads it (struct p2pb_kernel.optdefs) with its default there; the
 * run's policy holds one (src/bench/harness.h) and the harness hands the
 * values to each kernel's ctx. Units as the options state them.
 */
struct p2pb_kernel_settings {
    size_t copy_bytes;      /* --memcpy-buffer: bytes per memcpy iteration (memcpy.c) */
    int self_all;           /* --memcpy-ranks: 1 = every rank copies, 0 = rank 0 only */
    int msgrate_prepost;    /* --msgrate-prepost: 1 = receives pre-posted (msgrate.c) */
    size_t cache_pollute;   /* --cache-pollute: bytes touched between iterations, 0 = off */
    int rma_sync;           /* --rma-sync: enum p2pb_rma_sync (rma.c) */
    int rma_window;         /* --rma-window: enum p2pb_rma_window */
    double overlap_compute; /* --overlap-compute: compute / pure transfer median (overlap.c) */
    size_t partitions;      /* --partitions: parts per message (pingpong_partitioned.c) */
    const char *tcp_if_arg; /* --tcp-if as given (tcp.c); NULL = not given */
};

/* The field m of struct p2pb_kernel_settings: designated initialisers of a
 * kernel's option entries (option.h). */
#define P2PB_KSET_FIELD(m) P2PB_OPT_FIELD(P2PB_OPT_DST_KERNEL, struct p2pb_kernel_settings, m)

/*
 * A kernel descriptor. Fields:
 *  name          CLI / JSON identifier, lower case, stable ("pingpong")
 *  display_name  table label ("PingPong")
 *  summary       one line for --list
 *  min_ranks     fewest ranks the kernel can run with (>= 1)
 *  max_ranks     most ranks that take part; 0 = any. Extra ranks wait.
 *  participation which ranks work (see enum p2pb_participation)
 *  time_scale    measured time per iteration -> reported time t
 *                (PingPong 0.5: half the round trip; IMB definition)
 *  bytes         bytes counted per iteration for throughput (struct
 *                p2pb_bytes_rule; MB/s = bytes / t(usec), 1 MB = 10^6 B):
 *                  {1, P2PB_BYTES_X}            PingPong, PingPing (IMB)
 *                  {2, P2PB_BYTES_X}            Sendrecv (IMB)
 *                  {4, P2PB_BYTES_X}            Exchange (IMB)
 *                  {1, P2PB_BYTES_WINDOW_X}     Uniband, Multi-Uniband
 *                  {2, P2PB_BYTES_WINDOW_X}     Biband
 *                  {1, P2PB_BYTES_COPY_BUFFER}  Memcpy
 *  rank_reduce   how per-rank times become one (see enum p2pb_rank_reduce)
 *  imb_layout    columns of the IMB-compatible table
 *  sbuf_regions, rbuf_regions
 *                how many X-byte regions the send / receive buffers hold
 *  setup         optional; called once per size before warm-up
 *  run_iter      required: exactly one iteration; no timing, no barrier,
 *                no allocation, no printing. Returns P2PB_OK or P2PB_EMPI.
 *  verify        optional; after one run_iter on patterned buffers (see
 *                p2pb_pattern_*), check rbuf. Returns P2PB_OK or
 *                P2PB_EVERIFY and writes the first bad offset in *bad_offset.
 *  teardown      optional; called once per size
 *  unavailable_reason  NULL if the kernel can run; else why not (still listed)
 *
 * Fields added for kernels beyond IMB's four (all optional, zero = off):
 *  flags         P2PB_KF_* capabilities (directions, per-group rows)
 *  default_sizes, ndefault_sizes
 *                sizes (bytes) to run when the user gave none (--sizes /
 *                --msglog); NULL = the global default (0, 2^0 .. 2^22)
 *  min_bytes     smallest X the kernel can run; a smaller size gives a row
 *                with status "skipped" and a note (memcpy: chunk size 0)
 *  prepare_check optional; before each --check iteration, after the harness
 *                has patterned sbuf and cleared rbuf: a kernel that moves
 *                data between buffers of its own (priv) patterns them here
 *                (off the timed path; may not communicate)
 *  bound_paths   how many paths carry the bytes counted at once, each at
 *                most the rate of one path (a copy of X bytes by one rank,
 *                one direction of a link): the row's bound is bound_paths x
 *                that rate (docs/kernels.md, "Bounds"). PingPong, PingPing,
 *                Uniband, One-way 1; Sendrecv, Exchange, Biband 2 (each rank
 *                receives at once); 0: no bound (memcpy, TCP, noise)
 *  msgs          messages counted per iteration (struct p2pb_msgs_rule;
 *                msgs/s = messages / t): {1, P2PB_MSGS_WINDOW} Uniband,
 *                Multi-Uniband; {2, P2PB_MSGS_WINDOW} Biband, Msgrate;
 *                {1, P2PB_MSGS_ONE} Multi-PingPong; zero: none
 *  between_iter  optional; called before every run_iter (so between any
 *                two iterations, and before the first of a timed batch),
 *                never timed: the harness reads the clock around it and
 *                takes its duration out of the sample (one clock read per
 *                iteration stays in it). May communicate with the partner
 *                (a handshake); may not allocate. Not with P2PB_KF_ONEWAY.
 *                Returns P2PB_OK or P2PB_EMPI. (msgrate: cache pollution,
 *                pre-posted receives)
 *  finish_iter   optional; P2PB_KF_ONEWAY kernels: the rest of an
 *                iteration after the timed part run_iter (the receiver's
 *                acknowledgement); the harness calls it after every run_iter
 *                and never times it. Returns P2PB_OK or P2PB_EMPI.
 *  noise_stats   optional; after the samples (off the timed path; may not
 *                communicate), on every active rank: this rank's detour
 *                statistics since setup (struct p2pb_noise, result.h). The
 *                harness puts them into the rank's row and the worst rank's
 *                into the aggregate row (src/bench/noise_rows.c).
 *  compute       P2PB_KF_OVERLAP kernels: `steps` steps of a compute loop
 *                that the compiler cannot remove (its result is written to
 *                memory), no MPI, no allocation; a step's time must not
 *                depend on the message size. The harness times it to
 *                calibrate ctx->compute_iters; run_iter calls it.
 *  overhead_vs   optional; the name of the kernel whose t at the same size
 *                this kernel's rows are divided by, when that kernel ran
 *                earlier in the same launch: the row's overhead
 *                (struct p2pb_result.overhead; partitioned-pingpong:
 *                "pingpong")
 *  optdefs       optional; the kernel-specific options the kernel reads,
 *  n_optdefs     n_optdefs entries (option.h), as fio's engines declare
 *                theirs: names, kind, range, default, help, and a field of
 *                struct p2pb_kernel_settings (P2PB_KSET_FIELD). p2pbench's
 *                option table is its own entries followed by every
 *                registered kernel's (an option two kernels share, e.g.
 *                --tcp-if, is one array both point to, listed once). It
 *                warns about such an option when no kernel that runs
 *                declares it, and names the kernels that do
 *                (p2pb_kernel_reads). --window is p2pbench's own: every
 *                P2PB_BYTES_WINDOW_X kernel reads it.
 */
struct p2pb_kernel {
    const char *name;
    const char *display_name;
    const char *summary;
    int min_ranks;
    int max_ranks;
    enum p2pb_participation participation;
    double time_scale;
    struct p2pb_bytes_rule bytes;
    enum p2pb_rank_reduce rank_reduce;
    enum p2pb_imb_layout imb_layout;
    int sbuf_regions;
    int rbuf_regions;
    enum p2pb_status (*setup)(struct p2pb_kernel_ctx *ctx);
    enum p2pb_status (*run_iter)(struct p2pb_kernel_ctx *ctx);
    enum p2pb_status (*verify)(const struct p2pb_kernel_ctx *ctx, size_t *bad_offset);
    void (*teardown)(struct p2pb_kernel_ctx *ctx);
    const char *unavailable_reason;
    unsigned flags;
    const size_t *default_sizes;
    size_t ndefault_sizes;
    size_t min_bytes;
    void (*prepare_check)(struct p2pb_kernel_ctx *ctx);
    void (*noise_stats)(const struct p2pb_kernel_ctx *ctx, struct p2pb_noise *out);
    enum p2pb_status (*finish_iter)(struct p2pb_kernel_ctx *ctx);
    double bound_paths;
    struct p2pb_msgs_rule msgs;
    enum p2pb_status (*between_iter)(struct p2pb_kernel_ctx *ctx);
    void (*compute)(uint64_t steps);
    const char *overhead_vs;
    const struct p2pb_optdef *optdefs;
    size_t n_optdefs;
};

/*
 * Bytes counted per iteration of kernel k (its k->bytes rule) at message size
 * x bytes, window `window` messages and memcpy copy buffer copy_bytes bytes:
 * count * x, count * window * x or count * copy_bytes. Plain values, no ctx:
 * callers without a run (skipped rows) use it too. benchmarks/contract.c.
 */
double p2pb_kernel_bytes(const struct p2pb_kernel *k, size_t x, size_t window, size_t copy_bytes);

/*
 * The same per X, as result rows store it (struct p2pb_result.bytes_factor;
 * MB/s = bytes_factor * X / t(usec)): count, count * window, or for fixed
 * bytes count * copy_bytes / x, and 0 when x == 0.
 */
double p2pb_kernel_bytes_factor(const struct p2pb_kernel *k, size_t x, size_t window,
                                size_t copy_bytes);

/*
 * 1 if kernel k's bytes per iteration do not scale with X (unit
 * P2PB_BYTES_COPY_BUFFER: memcpy); its rows then carry them in
 * struct p2pb_result.fixed_bytes. Else 0.
 */
int p2pb_kernel_fixed_bytes(const struct p2pb_kernel *k);

/*
 * 1 when kernel k declares the kernel-specific option `opt` (its long name
 * without "--") in k->optdefs, else 0. benchmarks/contract.c.
 */
int p2pb_kernel_reads(const struct p2pb_kernel *k, const char *opt);

/*
 * Messages counted per iteration of kernel k (its k->msgs rule) with a
 * window of `window` messages: count or count * window; 0 when the kernel
 * counts none. benchmarks/contract.c.
 */
double p2pb_kernel_msgs(const struct p2pb_kernel *k, size_t window);

/* The table of kernels (benchmarks/registry.c), in default run order. */
extern const struct p2pb_kernel *const p2pb_kernels[];
extern const size_t p2pb_nkernels;

/* Find a kernel by name (case-insensitive, '-' and '_' alike). NULL if unknown. */
const struct p2pb_kernel *p2pb_kernel_find(const char *name);

/* True if the kernel runs by default (no kernel named on the command line). */
int p2pb_kernel_is_default(const struct p2pb_kernel *k);

/*
 * --check payload pattern: the byte at offset `off` of a message that rank
 * `sender` sends in iteration `iter`. Depends on all three, so a message from
 * the wrong rank, the wrong iteration or a shifted position is detected.
 */
unsigned char p2pb_pattern_byte(int sender, uint64_t iter, size_t off);

/* Fill buf[0..bytes-1] with the pattern of (sender, iter). */
void p2pb_pattern_fill(unsigned char *buf, size_t bytes, int sender, uint64_t iter);

/*
 * Check buf[0..bytes-1] against the pattern of (sender, iter).
 * Returns P2PB_OK or P2PB_EVERIFY with the first bad offset in *bad_offset.
 */
enum p2pb_status p2pb_pattern_check(const unsigned char *buf, size_t bytes, int sender,
                                    uint64_t iter, size_t *bad_offset);

/*
 * Report a failed MPI call of a kernel on stderr: the call, file, line and
 * MPI's own error string (MPI_Error_string), prefixed by the rank.
 * Returns P2PB_EMPI, so a kernel can `return p2pb_mpi_error(...)`. The
 * harness then aborts the job (a peer would otherwise wait forever).
 */
enum p2pb_status p2pb_mpi_error(const char *call, const char *file, int line, int code);

/* Run an MPI call inside a kernel; on error report it and return P2PB_EMPI. */
#define P2PB_KCALL(call)                                                 \
    do {                                                                 \
        int p2pb_krc_ = (call);                                          \
        if (p2pb_krc_ != MPI_SUCCESS)                                    \
            return p2pb_mpi_error(#call, __FILE__, __LINE__, p2pb_krc_); \
    } while (0)

#endif /* P2PBENCH_KERNEL_H */
