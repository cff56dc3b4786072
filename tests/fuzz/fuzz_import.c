/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: the log importer (src/report/import/) on one text log, the
 * whole way to the results files it writes (--force, into a private
 * directory), then each written file read back by the results-file reader,
 * which must accept it (the importer never writes a file its reader refuses).
 */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "import/import.h"

/* Every .jsonl file of dir read back; abort() on one the reader refuses. */
static void read_back(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t l = strlen(e->d_name);
        if (l <= 6 || strcmp(e->d_name + l - 6, ".jsonl") != 0)
            continue;
        char path[1024], err[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct p2pb_results_data r;
        if (p2pb_results_read(path, &r, err, sizeof err) != P2PB_OK) {
            fprintf(stderr, "imported file refused by the reader: %s\n", err);
            abort();
        }
        for (size_t i = 0; i < r.nrows; i++)
            if (r.rows[i].status == P2PB_ROW_OK && !isfinite(r.rows[i].t.median)) {
                fprintf(stderr, "imported ok row without a finite time: %s %zu B\n",
                        r.rows[i].kernel, r.rows[i].bytes);
                abort();
            }
        p2pb_results_data_free(&r);
        remove(path);
    }
    closedir(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *dir = NULL;
    const char *path = p2pb_fuzz_file("log.txt", data, size, &dir);
    if (!path)
        return 0;
    char *paths[1] = {(char *)path};
    char err[1024];
    if (p2pb_import_logs(paths, 1, dir, 1, (size_t)1 << 20, NULL, err, sizeof err) == P2PB_OK)
        read_back(dir);
    return 0;
}
