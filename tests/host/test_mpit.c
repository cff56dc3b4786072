/* SPDX-License-Identifier: MIT */
/*
 * MPI test: transport limits through MPI_T control variables. On Open MPI
 * the defaults of this machine's build must be read (btl_vader_eager_limit
 * 4096, btl_tcp_eager_limit 65536, unless overridden through OMPI_MCA_*);
 * on any library the reading must finish its MPI_T session and leave MPI
 * usable, and be repeatable. Run with 1 or 2 ranks.
 */
#include <cjson/cJSON.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/check.h"
#include "host/mpit.h"

static double lim(const cJSON *t, const char *name)
{
    const cJSON *v =
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(t, "eager_limits"), name);
    return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len;
    MPI_Get_library_version(lib, &len);

    cJSON *t = p2pb_mpit_transport_json();
    const char *mt = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(t, "mpi_t"));
    CHECK(mt && strcmp(mt, "ok") == 0);
    if (rank == 0) {
        char *s = cJSON_PrintUnformatted(t);
        printf("%.60s: %s\n", lib, s ? s : "?");
        cJSON_free(s);
    }
    const cJSON *limits = cJSON_GetObjectItemCaseSensitive(t, "eager_limits");
    if (strstr(lib, "Open MPI")) {
        if (!getenv("OMPI_MCA_btl_vader_eager_limit"))
            CHECK(lim(t, "btl_vader_eager_limit") == 4096);
        if (!getenv("OMPI_MCA_btl_tcp_eager_limit"))
            CHECK(lim(t, "btl_tcp_eager_limit") == 65536);
        CHECK(p2pb_mpit_pick_eager_limit(limits, 1, lib) == (long)lim(t, "btl_vader_eager_limit"));
        CHECK(p2pb_mpit_pick_eager_limit(limits, 0, lib) == (long)lim(t, "btl_tcp_eager_limit"));
    } else {
        /* every name found must be a limit name; values are raw (MPICH: -1
         * = chosen by the device at run time) */
        const cJSON *e;
        cJSON_ArrayForEach(e, limits)
        {
            CHECK(p2pb_mpit_is_limit_name(e->string));
            CHECK(cJSON_IsNumber(e));
        }
    }
    /* a second call gives the same answer (kept from the first session) */
    cJSON *t2 = p2pb_mpit_transport_json();
    CHECK(cJSON_Compare(t, t2, 1));
    cJSON_Delete(t);
    cJSON_Delete(t2);

    /* MPI still works after MPI_T_finalize */
    int one = 1, sum = 0, size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(sum == size);
    int rc = CHECK_DONE();
    MPI_Finalize();
    return rc;
}
