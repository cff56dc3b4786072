/* SPDX-License-Identifier: MIT */
/* Transport limits through MPI_T control variables. See mpit.h. */
#include "host/mpit.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int has_ci(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++) {
        size_t i = 0;
        while (i < n && hay[i] &&
               tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
            i++;
        if (i == n)
            return 1;
    }
    return 0;
}

static int ends_ci(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && has_ci(s + a - b, suffix);
}

int p2pb_mpit_is_limit_name(const char *name)
{
    return ends_ci(name, "eager_limit") || has_ci(name, "rndv") || has_ci(name, "rendezvous") ||
           has_ci(name, "eager_max");
}

/* Read one integer cvar; 0 on success. */
static int read_cvar(int idx, MPI_Datatype dt, double *out)
{
    MPI_T_cvar_handle h;
    int count = 0;
    if (MPI_T_cvar_handle_alloc(idx, NULL, &h, &count) != MPI_SUCCESS)
        return -1;
    int rc = -1;
    if (count == 1) {
        union {
            int i;
            unsigned u;
            long l;
            unsigned long ul;
            long long ll;
            unsigned long long ull;
            MPI_Count c;
            MPI_Aint a;
            char pad[64];
        } v;
        memset(&v, 0, sizeof v);
        if (MPI_T_cvar_read(h, &v) == MPI_SUCCESS) {
            rc = 0;
            if (dt == MPI_INT)
                *out = v.i;
            else if (dt == MPI_UNSIGNED)
                *out = v.u;
            else if (dt == MPI_LONG)
                *out = (double)v.l;
            else if (dt == MPI_UNSIGNED_LONG)
                *out = (double)v.ul;
            else if (dt == MPI_LONG_LONG)
                *out = (double)v.ll;
            else if (dt == MPI_UNSIGNED_LONG_LONG)
                *out = (double)v.ull;
            else if (dt == MPI_COUNT)
                *out = (double)v.c;
            else if (dt == MPI_AINT)
                *out = (double)v.a;
            else
                rc = -1;
        }
    }
    MPI_T_cvar_handle_free(&h);
    return rc;
}

/* The first answer, kept: MPICH 4.0.2 crashes in MPI_T_cvar_get_num when a
 * process starts a second MPI_T session after MPI_T_finalize. */
static cJSON *cached;

void *p2pb_mpit_transport_json(void)
{
    if (cached)
        return cJSON_Duplicate(cached, 1);
    cJSON *o = cJSON_CreateObject();
    cJSON *lim = cJSON_AddObjectToObject(o, "eager_limits");
    int provided;
    if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS) {
        cJSON_AddStringToObject(o, "mpi_t", "MPI_T_init_thread failed");
        return o;
    }
    int n = 0;
    MPI_T_cvar_get_num(&n);
    for (int i = 0; i < n; i++) {
        char name[256], desc[8];
        int nlen = sizeof name, dlen = sizeof desc, verb, bind, scope;
        MPI_Datatype dt;
        MPI_T_enum en;
        if (MPI_T_cvar_get_info(i, name, &nlen, &verb, &dt, &en, desc, &dlen, &bind, &scope) !=
            MPI_SUCCESS)
            continue;
        if (bind != MPI_T_BIND_NO_OBJECT || !p2pb_mpit_is_limit_name(name))
            continue;
        double v;
        if (read_cvar(i, dt, &v) == 0)
            cJSON_AddNumberToObject(lim, name, v);
    }
    MPI_T_finalize();
    cJSON_AddStringToObject(o, "mpi_t", "ok");
    cached = cJSON_Duplicate(o, 1);
    return o;
}

/* 1 if a cvar belongs to an MPICH device other than the one in use:
 * MPICH lists every device's variables whatever its build. */
static int other_device(const char *name, const char *lib)
{
    if (!lib)
        return 0;
    int ch3 = has_ci(lib, "ch3"), ch4 = has_ci(lib, "ch4");
    if (ch4 && (has_ci(name, "_CH3_") || has_ci(name, "NEMESIS")))
        return 1;
    if (ch3 && has_ci(name, "_CH4_"))
        return 1;
    return 0;
}

long p2pb_mpit_pick_eager_limit(const void *eager_limits, int shm, const char *mpi_library)
{
    static const char *const shm_words[] = {"vader", "btl_sm_", "_sm_", "shm", "posix", NULL};
    static const char *const net_words[] = {"tcp",     "ofi", "ucx",    "uct", "openib",
                                            "portals", "psm", "netmod", NULL};
    static const char *const all_words[] = {"vader",   "btl_sm_", "_sm_",   "shm",  "posix",
                                            "tcp",     "ofi",     "ucx",    "uct",  "openib",
                                            "portals", "psm",     "netmod", "self", NULL};
    const cJSON *lim = eager_limits;
    const char *const *words = shm ? shm_words : net_words;
    for (size_t w = 0;; w++) {
        const char *key = words[w]; /* NULL: the transport-neutral fallback */
        double best = -1;
        const cJSON *e;
        cJSON_ArrayForEach(e, lim)
        {
            const char *nm = e->string;
            if (!cJSON_IsNumber(e) || e->valuedouble <= 0 || !nm ||
                has_ci(nm, "rndv_eager_limit") || other_device(nm, mpi_library) ||
                has_ci(nm, "self") || !(ends_ci(nm, "eager_limit") || has_ci(nm, "eager_max")))
                continue;
            if (key) {
                if (!has_ci(nm, key))
                    continue;
            } else {
                int named = 0;
                for (size_t k = 0; all_words[k]; k++)
                    named |= has_ci(nm, all_words[k]);
                if (named)
                    continue;
            }
            if (best < 0 || e->valuedouble < best)
                best = e->valuedouble;
        }
        if (best > 0)
            return (long)best;
        if (!key) /* one host but no shared-memory transport loaded (e.g. --mca btl
                     tcp,self): the network transport carries the messages */
            return shm ? p2pb_mpit_pick_eager_limit(eager_limits, 0, mpi_library) : -1;
    }
}
