/* SPDX-License-Identifier: MIT */
/*
 * fuzz.h - what the fuzz targets share. Each target file defines
 * LLVMFuzzerTestOneInput (libFuzzer's entry point: one input of size bytes,
 * returns 0); built with -fsanitize=fuzzer in the fuzz preset, and with
 * replay.c's main() in every build, where it runs the regression corpus
 * (tests/data/fuzz/) and the seed corpus as a unit test.
 */
#ifndef P2PBENCH_FUZZ_H
#define P2PBENCH_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * Write data[0..size-1] to the file name (e.g. "in.txt") in a private
 * directory made on the first call (mkdtemp under TMPDIR or /tmp, removed at
 * exit). Returns the file's path (static storage), or NULL when it cannot be
 * written. *dir receives the directory.
 */
const char *p2pb_fuzz_file(const char *name, const uint8_t *data, size_t size, const char **dir);

#endif /* P2PBENCH_FUZZ_H */
