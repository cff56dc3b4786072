/* SPDX-License-Identifier: MIT */
/* The input of a fuzz target as a file in a private directory (fuzz.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"

static char dir_path[256];

/* At exit: the directory and whatever the targets wrote into it. */
static void remove_dir(void)
{
    char cmd[300];
    if (!dir_path[0])
        return;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir_path);
    if (system(cmd) != 0)
        fprintf(stderr, "fuzz: could not remove %s\n", dir_path);
}

const char *p2pb_fuzz_file(const char *name, const uint8_t *data, size_t size, const char **dir)
{
    static char path[512];
    if (!dir_path[0]) {
        const char *tmp = getenv("TMPDIR");
        snprintf(dir_path, sizeof dir_path, "%s/p2pb_fuzz_XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
        if (!mkdtemp(dir_path)) {
            dir_path[0] = '\0';
            return NULL;
        }
        atexit(remove_dir);
    }
    snprintf(path, sizeof path, "%s/%s", dir_path, name);
    FILE *f = fopen(path, "wb");
    if (!f)
        return NULL;
    size_t w = size ? fwrite(data, 1, size, f) : 0;
    if (fclose(f) != 0 || w != size)
        return NULL;
    *dir = dir_path;
    return path;
}
