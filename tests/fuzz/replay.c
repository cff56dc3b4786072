/* SPDX-License-Identifier: MIT */
/*
 * main() for a fuzz target outside libFuzzer: every file named, and every
 * regular file of every directory named, is handed to LLVMFuzzerTestOneInput
 * once (the regression corpus tests/data/fuzz/ and the seed corpus). A crash
 * or a sanitizer report fails the run; the last line counts the inputs.
 *   replay_TARGET PATH...
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

/* One input file through the target. Returns 0, or -1 when it cannot be read. */
static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0, got;
    uint8_t chunk[65536];
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (len + got > cap) {
            cap = 2 * (len + got);
            uint8_t *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(f);
                return -1;
            }
            buf = nb;
        }
        memcpy(buf + len, chunk, got);
        len += got;
    }
    fclose(f);
    LLVMFuzzerTestOneInput(buf ? buf : chunk, len);
    free(buf);
    return 0;
}

int main(int argc, char **argv)
{
    size_t n = 0;
    int bad = 0;
    for (int i = 1; i < argc; i++) {
        struct stat sb;
        if (stat(argv[i], &sb) != 0) {
            fprintf(stderr, "replay: cannot read %s\n", argv[i]);
            bad = 1;
            continue;
        }
        if (!S_ISDIR(sb.st_mode)) {
            bad |= run_file(argv[i]) != 0;
            n++;
            continue;
        }
        DIR *d = opendir(argv[i]);
        struct dirent *e;
        while (d && (e = readdir(d)) != NULL) {
            char p[4096];
            snprintf(p, sizeof p, "%s/%s", argv[i], e->d_name);
            if (e->d_name[0] == '.' || stat(p, &sb) != 0 || !S_ISREG(sb.st_mode))
                continue;
            if (run_file(p) != 0) {
                fprintf(stderr, "replay: cannot read %s\n", p);
                bad = 1;
            }
            n++;
        }
        if (d)
            closedir(d);
    }
    printf("replayed %zu inputs%s\n", n, bad ? " (some could not be read)" : "");
    return bad;
}
