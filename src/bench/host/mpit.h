/* SPDX-License-Identifier: MIT */
/*
 * mpit.h - transport limits read through the MPI tool interface (MPI_T
 * control variables). Needs MPI initialized; starts and ends its own MPI_T
 * session (MPI_T_init_thread .. MPI_T_finalize), so nothing is left open at
 * MPI_Finalize.
 */
#ifndef P2PBENCH_MPIT_H
#define P2PBENCH_MPIT_H

/*
 * 1 if a control variable name is an eager / rendezvous limit: it ends in
 * "eager_limit" or contains "rndv", "rendezvous" or "eager_max"
 * (case-insensitive). Open MPI: btl_vader_eager_limit, btl_tcp_eager_limit,
 * btl_*_rndv_eager_limit; MPICH: MPIR_CVAR_CH3_EAGER_MAX_MSG_SIZE,
 * MPIR_CVAR_CH4_..._EAGER_MAX_MSG_SIZE.
 */
int p2pb_mpit_is_limit_name(const char *name);

/*
 * {"eager_limits":{name:bytes,...}, "mpi_t":"ok"|reason} for every integer
 * control variable without an object binding whose name passes
 * p2pb_mpit_is_limit_name. Values in bytes as the library reports them.
 * Never fails: without MPI_T, "eager_limits" is empty and "mpi_t" says why.
 * Values are raw: MPICH reports -1 for "decided by the device at run time".
 * The first call's answer is kept and returned again by later calls (one
 * MPI_T session per process: MPICH 4.0.2 crashes on a second one).
 */
void *p2pb_mpit_transport_json(void);

/*
 * The eager limit (bytes) to mark in tables for a transport, from the
 * "eager_limits" object of p2pb_mpit_transport_json: shared memory
 * (shm = 1: vader, sm, shm, posix names) or network (shm = 0: tcp, then ofi,
 * ucx, openib, ...). The smallest positive value of the first keyword that
 * matches; "rndv_eager_limit" (a fragment size, not the switch point) and
 * "self" are never used; names naming no transport (MPICH's CH3 limit) are
 * the fallback. Values <= 0 are ignored. mpi_library (MPI_Get_library_version
 * text, or NULL) drops MPICH variables of another device ("_CH3_"/"NEMESIS"
 * under ch4, "_CH4_" under ch3). Returns -1 if none is known.
 */
long p2pb_mpit_pick_eager_limit(const void *eager_limits, int shm, const char *mpi_library);

#endif /* P2PBENCH_MPIT_H */
