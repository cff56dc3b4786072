/* SPDX-License-Identifier: MIT */
/* Results file: write, read back, truncated files, schema versions. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "../lib/check.h"
#include "rows.h"

static char dir[] = "/tmp/p2pb_test_io_XXXXXX";

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

static void roundtrip(void)
{
    char path[256], err[512];
    snprintf(path, sizeof path, "%s/run.jsonl", dir);
    struct p2pb_results_file *f;
    CHECK(p2pb_results_open(path, &f, err, sizeof err) == P2PB_OK);
    cJSON *run = cJSON_CreateObject();
    cJSON_AddStringToObject(run, "type", "run");
    cJSON_AddStringToObject(run, "schema", P2PB_SCHEMA);
    cJSON_AddStringToObject(run, "label", "domU");
    cJSON_AddNumberToObject(run, "nranks", 3);
    CHECK(p2pb_results_write_json(f, run, err, sizeof err) == P2PB_OK);
    cJSON_Delete(run);
    struct p2pb_result rows[7];
    size_t n = test_rows(rows);
    for (size_t i = 0; i < n; i++)
        CHECK(p2pb_results_write_result(f, &rows[i], err, sizeof err) == P2PB_OK);
    CHECK(p2pb_results_close(f, "complete", 1.5, err, sizeof err) == P2PB_OK);

    struct p2pb_results_data d;
    CHECK(p2pb_results_read(path, &d, err, sizeof err) == P2PB_OK);
    CHECK(d.nrows == n && d.complete && !d.truncated_line);
    CHECK(strcmp(d.info.label, "domU") == 0 && d.info.nranks == 3);
    for (size_t i = 0; i < n && i < d.nrows; i++) {
        const struct p2pb_result *a = &rows[i], *b = &d.rows[i];
        CHECK(strcmp(a->kernel, b->kernel) == 0 && a->bytes == b->bytes);
        CHECK(a->status == b->status && a->active_ranks == b->active_ranks);
        if (a->status == P2PB_ROW_OK) {
            CHECK_NEAR(a->t.median, b->t.median, 0);
            if (a->t.ci_valid)
                CHECK_NEAR(a->t.ci95_high, b->t.ci95_high, 0);
            CHECK_NEAR(a->mbytes_per_sec, b->mbytes_per_sec, 0);
            CHECK_NEAR(a->t_max_usec, b->t_max_usec, 0);
            CHECK(a->samples == b->samples && a->iterations_per_sample == b->iterations_per_sample);
            CHECK(a->t.ci_valid == b->t.ci_valid);
        } else
            CHECK(strcmp(a->note, b->note) == 0);
    }
    p2pb_results_data_free(&d);

    /* Killed mid-write: the last line is cut; finished rows still read. */
    FILE *fp = fopen(path, "r");
    char *all = calloc(1, 1 << 16);
    size_t len = fread(all, 1, (1 << 16) - 1, fp);
    fclose(fp);
    char *end_rec = strstr(all, "{\"type\":\"end\"");
    CHECK(end_rec != NULL);
    if (end_rec) {
        end_rec[0] = '\0';
        char *last_nl = strrchr(all, '\n');
        *last_nl = '\0';
        char *cut = strrchr(all, '\n') + 1 + 30; /* 30 bytes into the last row */
        *cut = '\0';
        write_text(path, all);
        CHECK(p2pb_results_read(path, &d, err, sizeof err) == P2PB_OK);
        CHECK(d.nrows == n - 1 && !d.complete && d.truncated_line && d.end_status[0] == '\0');
        p2pb_results_data_free(&d);
    }
    (void)len;
    free(all);
}

static void bad_files(void)
{
    char path[256], err[512];
    struct p2pb_results_data d;
    snprintf(path, sizeof path, "%s/bad.jsonl", dir);

    write_text(path, "{\"type\":\"run\",\"schema\":\"p2pbench/2\"}\n");
    CHECK(p2pb_results_read(path, &d, err, sizeof err) == P2PB_EFORMAT);
    CHECK_STR_CONTAINS(err, "unsupported schema 'p2pbench/2'");

    write_text(path, "{\"type\":\"run\",\"schema\":\"p2pbench/1x\"}\n");
    CHECK(p2pb_results_read(path, &d, err, sizeof err) == P2PB_EFORMAT);
    CHECK_STR_CONTAINS(err, "unsupported schema 'p2pbench/1x'");
    write_text(path, "{\"type\":\"run\",\"schema\":\"p2pbench/1.3\"}\n");
    CHECK(p2pb_results_read(path, &d, err, sizeof err) == P2PB_OK); /* a minor version */
    p2pb_results_data_free(&d);

    write_text(path,
               "{\"type\":\"run\",\"schema\":\"p2pbench/1\"}\nnot json\n{\"type\":\"end\"}\n");
    CHECK(p2pb_results_read(path, &d, err, sizeof err) == P2PB_EFORMAT);
    CHECK_STR_CONTAINS(err, "bad.jsonl:2:");

    write_text(path, "{\"type\":\"result\",\"kernel\":\"pingpong\",\"bytes\":1}\n");
    CHECK(p2pb_results_read(path, &d, err, sizeof err) == P2PB_EFORMAT);
    CHECK_STR_CONTAINS(err, "no run record");

    write_text(path, "");
    CHECK(p2pb_results_read(path, &d, err, sizeof err) == P2PB_EFORMAT);

    /* blank lines are skipped, also before the run record */
    write_text(path, "\n{\"type\":\"run\",\"schema\":\"p2pbench/1\"}\n\n"
                     "{\"type\":\"end\",\"status\":\"complete\"}\n");
    CHECK(p2pb_results_read(path, &d, err, sizeof err) == P2PB_OK);
    CHECK(d.complete && d.nrows == 0);
    p2pb_results_data_free(&d);

    /* integers out of range are format errors, not undefined casts */
    static const char *const bad_rows[] = {
        "{\"type\":\"result\",\"kernel\":\"pingpong\",\"bytes\":1e300,\"status\":\"skipped\"}",
        "{\"type\":\"result\",\"kernel\":\"pingpong\",\"bytes\":-1,\"status\":\"skipped\"}",
        "{\"type\":\"result\",\"kernel\":\"pingpong\",\"bytes\":8,\"nranks\":-3,\"status\":"
        "\"skipped\"}",
        "{\"type\":\"result\",\"kernel\":\"pingpong\",\"bytes\":8,\"samples\":2.5,\"status\":"
        "\"skipped\"}",
        "{\"type\":\"result\",\"kernel\":\"pingpong\",\"bytes\":8,\"status\":\"ok\",\"t_usec\":{"
        "\"min\":-1,\"median\":2,\"max\":3}}",
    };
    for (size_t i = 0; i < sizeof bad_rows / sizeof bad_rows[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, "{\"type\":\"run\",\"schema\":\"p2pbench/1\"}\n%s\n",
                 bad_rows[i]);
        write_text(path, text);
        CHECK(p2pb_results_read(path, &d, err, sizeof err) == P2PB_EFORMAT);
        CHECK_STR_CONTAINS(err, "bad.jsonl:2:");
    }

    /* inconsistent rows are refused naming file, line and field (issue 20,
     * item 17), never read with a default or a NaN in place of the value */
    static const struct {
        const char *row, *msg;
    } wrong[] = {
        {"{\"type\":\"result\",\"kernel\":\"pingpong\",\"bytes\":8,\"status\":3}",
         "bad.jsonl:2: field \"status\" is not a string"},
        {"{\"type\":\"result\",\"kernel\":\"pingpong\",\"bytes\":8,\"t_usec\":{\"min\":1,"
         "\"median\":2,\"max\":3}}",
         "bad.jsonl:2: field \"status\" is missing"},
        {"{\"type\":\"result\",\"kernel\":\"pingpong\",\"bytes\":8,\"status\":null,"
         "\"t_usec\":{\"min\":1,\"median\":2,\"max\":3}}",
         "bad.jsonl:2: field \"status\" is not a string"},
        {"{\"type\":\"result\",\"kernel\":\"pingpong\",\"bytes\":8,\"status\":\"ok\",\"t_usec\":{"
         "\"min\":1,\"median\":1e999,\"max\":3}}",
         "bad.jsonl:2: field \"t_usec.median\" is not a finite number"},
        {"{\"type\":\"result\",\"kernel\":\"pingpong\",\"bytes\":8,\"status\":\"ok\",\"t_usec\":{}"
         "}",
         "bad.jsonl:2: field \"t_usec.min\" is missing or null in a row with status ok"},
        {"{\"type\":\"result\",\"kernel\":\"pingpong\",\"bytes\":8,\"status\":\"ok\",\"t_usec\":{"
         "\"min\":1,\"median\":null,\"max\":3}}",
         "bad.jsonl:2: field \"t_usec.median\" is missing or null in a row with status ok"},
        {"{\"type\":\"result\",\"kernel\":\"pingpong\",\"bytes\":8,\"status\":\"ok\",\"t_usec\":{"
         "\"min\":1,\"median\":\"2\",\"max\":3}}",
         "bad.jsonl:2: field \"t_usec.median\" is not a finite number"},
        {"{\"type\":\"result\",\"kernel\":\"pingpong\",\"bytes\":8,\"status\":\"ok\",\"t_usec\":{"
         "\"min\":1,\"median\":2,\"max\":3},\"mbytes_per_sec\":\"fast\"}",
         "bad.jsonl:2: field \"mbytes_per_sec\" is not a finite number"},
        {"{\"type\":\"result\",\"kernel\":\"pingpong\",\"bytes\":8,\"status\":\"ok\",\"t_usec\":{"
         "\"min\":1,\"median\":2,\"max\":-1e999}}",
         "bad.jsonl:2: field \"t_usec.max\" is not a finite number"},
    };
    for (size_t i = 0; i < sizeof wrong / sizeof wrong[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, "{\"type\":\"run\",\"schema\":\"p2pbench/1\"}\n%s\n",
                 wrong[i].row);
        write_text(path, text);
        err[0] = '\0';
        CHECK(p2pb_results_read(path, &d, err, sizeof err) == P2PB_EFORMAT);
        CHECK_STR_CONTAINS(err, wrong[i].msg);
    }
    /* null where the writer writes null for "not known" still reads */
    write_text(path, "{\"type\":\"run\",\"schema\":\"p2pbench/1\"}\n"
                     "{\"type\":\"result\",\"kernel\":\"pingpong\",\"bytes\":8,\"status\":\"ok\","
                     "\"t_usec\":{\"min\":1,\"median\":2,\"max\":3,\"stddev\":null,"
                     "\"ci95_low\":null,\"ci95_high\":null},\"mbytes_per_sec\":4}\n");
    CHECK(p2pb_results_read(path, &d, err, sizeof err) == P2PB_OK);
    CHECK(d.nrows == 1 && d.rows[0].t.median == 2 && !d.rows[0].t.ci_valid &&
          isnan(d.rows[0].t.stddev));
    p2pb_results_data_free(&d);

    CHECK(p2pb_results_read("/nonexistent/x.jsonl", &d, err, sizeof err) == P2PB_EIO);
    CHECK_STR_CONTAINS(err, "/nonexistent/x.jsonl");

    struct p2pb_results_file *f;
    CHECK(p2pb_results_open("/nonexistent/dir/x.jsonl", &f, err, sizeof err) == P2PB_EIO);
    CHECK_STR_CONTAINS(err, "cannot write results file '/nonexistent/dir/x.jsonl'");
}

/* The whole content of path into buf (len bytes); "" when unreadable. */
static const char *slurp(const char *path, char *buf, size_t len)
{
    buf[0] = '\0';
    FILE *fp = fopen(path, "r");
    if (fp) {
        size_t n = fread(buf, 1, len - 1, fp);
        buf[n] = '\0';
        fclose(fp);
    }
    return buf;
}

/* Opening never destroys: a file is replaced only at the first line, a
 * discarded open leaves it (or removes the file it created), the exclusive
 * open never touches a file that exists, nothing is written through a link
 * to a regular file, and a file deleted during the run is refused (issue 20,
 * items 12, 13, 17). */
static void open_semantics(void)
{
    char path[256], link[300], err[512], buf[256];
    struct p2pb_results_file *f;
    snprintf(path, sizeof path, "%s/prev.jsonl", dir);
    write_text(path, "previous\n");
    CHECK(p2pb_results_open(path, &f, err, sizeof err) == P2PB_OK);
    p2pb_results_discard(f);
    CHECK(strcmp(slurp(path, buf, sizeof buf), "previous\n") == 0);
    CHECK(p2pb_results_open(path, &f, err, sizeof err) == P2PB_OK);
    CHECK(p2pb_results_append_now(f, "{\"type\":\"end\"}\n", 15) == 0); /* nothing begun */
    CHECK(strcmp(slurp(path, buf, sizeof buf), "previous\n") == 0);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "type", "run");
    CHECK(p2pb_results_write_json(f, o, err, sizeof err) == P2PB_OK);
    CHECK(p2pb_results_close(f, "complete", 1.0, err, sizeof err) == P2PB_OK);
    CHECK(
        strcmp(slurp(path, buf, sizeof buf),
               "{\"type\":\"run\"}\n{\"type\":\"end\",\"status\":\"complete\",\"wall_sec\":1}\n") ==
        0);

    /* a file the open created and nothing was written to: removed */
    snprintf(path, sizeof path, "%s/fresh.jsonl", dir);
    CHECK(p2pb_results_open(path, &f, err, sizeof err) == P2PB_OK);
    p2pb_results_discard(f);
    CHECK(access(path, F_OK) != 0);

    /* exclusive: a name that exists (a file, a link) is taken, untouched */
    int taken = 0;
    snprintf(path, sizeof path, "%s/prev.jsonl", dir);
    write_text(path, "previous\n");
    CHECK(p2pb_results_open_new(path, &taken, &f, err, sizeof err) == P2PB_EIO && taken == 1);
    CHECK(strcmp(slurp(path, buf, sizeof buf), "previous\n") == 0);
    snprintf(link, sizeof link, "%s/dangling.jsonl", dir);
    CHECK(symlink("nowhere.jsonl", link) == 0);
    CHECK(p2pb_results_open_new(link, &taken, &f, err, sizeof err) == P2PB_EIO && taken == 1);
    snprintf(path, sizeof path, "%s/new.jsonl", dir);
    CHECK(p2pb_results_open_new(path, &taken, &f, err, sizeof err) == P2PB_OK && taken == 0);
    p2pb_results_discard(f);

    /* links: to a regular file or to nothing refused, to a device written */
    CHECK(p2pb_results_open(link, &f, err, sizeof err) == P2PB_EIO);
    CHECK_STR_CONTAINS(err, "is a symbolic link");
    snprintf(path, sizeof path, "%s/nowhere.jsonl", dir);
    CHECK(access(path, F_OK) != 0);
    snprintf(link, sizeof link, "%s/tofile.jsonl", dir);
    CHECK(symlink("prev.jsonl", link) == 0);
    CHECK(p2pb_results_open(link, &f, err, sizeof err) == P2PB_EIO);
    snprintf(path, sizeof path, "%s/prev.jsonl", dir);
    CHECK(strcmp(slurp(path, buf, sizeof buf), "previous\n") == 0);
    snprintf(link, sizeof link, "%s/null.jsonl", dir);
    CHECK(symlink("/dev/null", link) == 0);
    CHECK(p2pb_results_open(link, &f, err, sizeof err) == P2PB_OK);
    CHECK(p2pb_results_write_json(f, o, err, sizeof err) == P2PB_OK);
    CHECK(p2pb_results_close(f, NULL, 0, err, sizeof err) == P2PB_OK);

    /* deleted during the run: the next line and the close say so */
    snprintf(path, sizeof path, "%s/gone.jsonl", dir);
    CHECK(p2pb_results_open(path, &f, err, sizeof err) == P2PB_OK);
    CHECK(p2pb_results_write_json(f, o, err, sizeof err) == P2PB_OK);
    CHECK(p2pb_results_unlinked(f) == 0);
    CHECK(unlink(path) == 0);
    CHECK(p2pb_results_unlinked(f) == 1);
    CHECK(p2pb_results_write_json(f, o, err, sizeof err) == P2PB_EIO);
    CHECK_STR_CONTAINS(err, "gone.jsonl' was deleted during the run; its rows are lost");
    CHECK(p2pb_results_failed(f));
    CHECK(p2pb_results_close(f, "complete", 1.0, err, sizeof err) == P2PB_EIO);
    CHECK(p2pb_results_open(path, &f, err, sizeof err) == P2PB_OK);
    CHECK(unlink(path) == 0);
    CHECK(p2pb_results_close(f, NULL, 0, err, sizeof err) == P2PB_EIO);
    CHECK_STR_CONTAINS(err, "was deleted during the run");
    cJSON_Delete(o);
}

/* A line longer than the reader's bound (16 MiB) is refused, not read into
 * memory without end (/dev/zero); an end status of 16 characters reads back
 * whole. */
static void bounds(void)
{
    char path[256], err[512];
    struct p2pb_results_data d;
    snprintf(path, sizeof path, "%s/long.jsonl", dir);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f)
        return;
    fputs("{\"type\":\"run\",\"schema\":\"p2pbench/1\"}\n", f);
    for (size_t i = 0; i < ((size_t)16 << 20) + 10; i++)
        fputc('x', f);
    fclose(f);
    CHECK(p2pb_results_read(path, &d, err, sizeof err) == P2PB_EFORMAT);
    CHECK_STR_CONTAINS(err, "long.jsonl:2: line longer than 16777216 bytes");
    if (access("/dev/zero", R_OK) == 0) {
        CHECK(p2pb_results_read("/dev/zero", &d, err, sizeof err) == P2PB_EFORMAT);
        CHECK_STR_CONTAINS(err, "/dev/zero:1: line longer than");
    }
    write_text(path, "{\"type\":\"run\",\"schema\":\"p2pbench/1\"}\n"
                     "{\"type\":\"end\",\"status\":\"nothing-measured\"}\n");
    CHECK(p2pb_results_read(path, &d, err, sizeof err) == P2PB_OK);
    CHECK_STR_CONTAINS(d.end_status, "nothing-measured");
    CHECK(!d.complete);
    p2pb_results_data_free(&d);
}

/* A file above the size limit is refused naming the file and the limit: a
 * regular file before it is read, /dev/zero once the limit is passed. */
static void size_limit(void)
{
    char path[256], err[512];
    struct p2pb_results_data d;
    snprintf(path, sizeof path, "%s/big.jsonl", dir);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f)
        return;
    fputs("{\"type\":\"run\",\"schema\":\"p2pbench/1\"}\n", f); /* 37 bytes */
    for (int i = 0; i < 100; i++)
        fputs("{\"type\":\"comment\"}\n", f); /* 19 bytes each */
    CHECK(ftell(f) == 37 + 1900);
    fclose(f);
    CHECK(p2pb_results_read_max(path, 1936, &d, err, sizeof err) == P2PB_EFORMAT);
    CHECK_STR_CONTAINS(err, "big.jsonl: larger than the limit of 1936 bytes");
    CHECK(d.nrows == 0 && d.run == NULL);
    CHECK(p2pb_results_read_max(path, 1937, &d, err, sizeof err) == P2PB_OK);
    p2pb_results_data_free(&d);
    if (access("/dev/zero", R_OK) == 0) {
        CHECK(p2pb_results_read_max("/dev/zero", 1 << 20, &d, err, sizeof err) == P2PB_EFORMAT);
        CHECK_STR_CONTAINS(err, "/dev/zero: larger than the limit of 1048576 bytes (1 MiB");
    }
}

/* Rows are indexed by (kernel, variant, bytes): the first of each key is
 * found, the repeats counted (5 rows, 2 of them repeats). */
static void index_and_repeats(void)
{
    char path[256], err[512];
    struct p2pb_results_data d;
    snprintf(path, sizeof path, "%s/rep.jsonl", dir);
    const char *row = "{\"type\":\"result\",\"kernel\":\"%s\",\"variant\":\"%s\",\"bytes\":%d,"
                      "\"status\":\"skipped\",\"note\":\"%d\"}\n";
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f)
        return;
    fputs("{\"type\":\"run\",\"schema\":\"p2pbench/1\"}\n", f);
    fprintf(f, row, "pingpong", "", 8, 1);
    fprintf(f, row, "pingpong", "0->1", 8, 2);
    fprintf(f, row, "pingpong", "", 8, 3);
    fprintf(f, row, "pingping", "", 8, 4);
    fprintf(f, row, "pingpong", "0->1", 8, 5);
    fclose(f);
    CHECK(p2pb_results_read(path, &d, err, sizeof err) == P2PB_OK);
    CHECK(d.nrows == 5 && d.nrepeated == 2);
    const struct p2pb_result *r = p2pb_results_find(&d, "pingpong", "", 8);
    CHECK(r && strcmp(r->note, "1") == 0);
    r = p2pb_results_find(&d, "pingpong", "0->1", 8);
    CHECK(r && strcmp(r->note, "2") == 0);
    r = p2pb_results_find(&d, "pingping", "", 8);
    CHECK(r && strcmp(r->note, "4") == 0);
    CHECK(p2pb_results_find(&d, "pingpong", "", 16) == NULL);
    CHECK(p2pb_results_find(&d, "pingpong", "1->0", 8) == NULL);
    p2pb_results_data_free(&d);
}

/* Out of memory is said as such, never as a bad line: a 12 MB string in a
 * line read under an address-space limit that leaves room for the line's
 * buffer but not for cJSON's copy of the string. Not under AddressSanitizer
 * (its shadow memory needs the address space). */
static void out_of_memory(void)
{
#if defined(__SANITIZE_ADDRESS__)
    printf("skip: out_of_memory under AddressSanitizer\n");
#else
    char path[256], err[512];
    struct p2pb_results_data d;
    snprintf(path, sizeof path, "%s/oom.jsonl", dir);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f)
        return;
    fputs("{\"type\":\"run\",\"schema\":\"p2pbench/1\"}\n{\"type\":\"x\",\"pad\":\"", f);
    for (size_t i = 0; i < (size_t)12 << 20; i++)
        fputc('x', f);
    fputs("\"}\n", f);
    fclose(f);
    long pages = 0, page = sysconf(_SC_PAGESIZE);
    FILE *st = fopen("/proc/self/statm", "r");
    if (!st || fscanf(st, "%ld", &pages) != 1 || page <= 0) {
        printf("skip: out_of_memory without /proc/self/statm\n");
        if (st)
            fclose(st);
        return;
    }
    fclose(st);
    struct rlimit old, lim;
    CHECK(getrlimit(RLIMIT_AS, &old) == 0);
    lim = old;
    lim.rlim_cur = (rlim_t)pages * (rlim_t)page + ((rlim_t)22 << 20); /* line 16 MiB + 6 */
    CHECK(setrlimit(RLIMIT_AS, &lim) == 0);
    enum p2pb_status rc = p2pb_results_read(path, &d, err, sizeof err);
    CHECK(setrlimit(RLIMIT_AS, &old) == 0);
    CHECK(rc == P2PB_ENOMEM);
    if (rc != P2PB_ENOMEM)
        printf("status %d: %s\n", (int)rc, rc == P2PB_OK ? "read" : err);
    CHECK_STR_CONTAINS(err, "oom.jsonl:2: out of memory");
#endif
}

int main(void)
{
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    out_of_memory(); /* first: before other tests leave freed memory in the heap */
    roundtrip();
    bad_files();
    bounds();
    size_limit();
    index_and_repeats();
    open_semantics();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "cleanup of %s failed\n", dir);
    return CHECK_DONE();
}
