/* SPDX-License-Identifier: MIT */
/*
 * test_mpilines.c - the MPI stack's lines by their form (src/report/import/
 * mpilines.c): each library's prefixes and banners are recognised and named;
 * table rows, the benchmarks' own lines and other text are not.
 */
#include <string.h>

#include "../lib/check.h"
#include "import/import.h"

int main(void)
{
    static const struct {
        const char *line, *lib;
    } yes[] = {
        {"[1599836659.123456] [host01:12345:0]    ucp_worker.c:1543 UCX  WARN  failed", "UCX"},
        {"[host01:12345:0:12345]    ib_md.c:1161 UCX  ERROR ibv_reg_mr() failed", "UCX"},
        {"libfabric:41748:1724704023::efa:ep_ctrl:rxr_ep_ctrl():1102<warn> Unable", "libfabric"},
        {"[host01:12345] PMIX ERROR: UNREACHABLE in file server/pmix_server.c", "PMIx"},
        {"[host01:01234] pmix_mca_base_component_repository_open: unable to open", "PMIx"},
        {"[host01:12345] *** An error occurred in MPI_Send", "Open MPI"},
        {"*** MPI_ERRORS_ARE_FATAL (processes in this communicator will now abort,", "Open MPI"},
        {"--------------------------------------------------------------------------", "Open MPI"},
        {"[host01:12345] 3 more processes have sent help message help-mpi-btl-openib.txt",
         "Open MPI"},
        {"Primary job  terminated normally, but 1 process returned", "Open MPI"},
        {"[0] MPI startup(): I_MPI_OFA_TRANSLATION_CACHE variable has been removed", "Intel MPI"},
        {"Abort(1) on node 0 (rank 0 in comm 0): Fatal error in PMPI_Send", "Intel MPI"},
        {"[proxy:0:0@host01] HYD_pmcd_pmip_control_cmd_cb: assert failed", "MPICH"},
        {"Fatal error in MPI_Recv: Other MPI error", "MPICH"},
        {"===================================================================================",
         "MPICH"},
        {"srun: error: node12: task 1: Killed", "Slurm"},
        {"slurmstepd: error: *** STEP 1234.0 ON node12 CANCELLED AT 2024-01-01 ***", "Slurm"},
    };
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) {
        const char *got = p2pb_imp_mpi_line(yes[i].line);
        CHECK(got && strcmp(got, yes[i].lib) == 0);
    }
    static const char *const no[] = {
        "            0         1000         1.12         0.00",
        "1048576               950.30",
        "# OSU MPI Bandwidth Test v5.8",
        "#---------------------------------------------------",
        "# Benchmarking PingPong ",
        "Warning: OMB could not identify the local rank of the process.",
        "START OF JOBSPEC",
        "# All processes entering MPI_Finalize",
        "",
        "Bandwidth ---- drops at 256K",
    };
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
        CHECK(p2pb_imp_mpi_line(no[i]) == NULL);
    return CHECK_DONE();
}
