/*
 * oomcheck: every allocation failure is survived.  Linked with
 * -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc, so that the project's
 * own allocations (not those inside yajl, libyaml or OpenSSL) go through
 * the wrappers below, which fail the Nth one.  For each tool file given,
 * N runs 1, 2, 3... until loading, hashing and reading the tool table
 * succeed: every shorter run must fail with ERR_NOMEM (and nothing else),
 * and AddressSanitizer's leak check at exit proves nothing leaked.
 *
 *   oomcheck FILE...
 *
 * Closes with "oom: N passed, M failed" (N: failure points survived).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc.h"
#include "tools.h"

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t size);

/* The test's own state: which allocation fails (0: none), and how many
 * were made. */
static unsigned long fail_at, count;

static int should_fail(void)
{
    return fail_at && ++count == fail_at;
}

void *__wrap_malloc(size_t size)
{
    return should_fail() ? NULL : __real_malloc(size);
}

void *__wrap_calloc(size_t n, size_t size)
{
    return should_fail() ? NULL : __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t size)
{
    return should_fail() ? NULL : __real_realloc(p, size);
}

/* Loads, hashes and reads the tools of a file; 0, or the err code. */
static int run(const char *path, char *why, size_t size)
{
    doc *d = NULL;
    toolset *ts = NULL;
    err e;
    err_clear(&e);
    int rc = doc_load_file(&d, path, &e);
    if (rc == 0 && toolset_build(&ts, d, &e) < 0)
        rc = -1;
    toolset_free(ts);
    doc_free(d);
    if (rc < 0)
        snprintf(why, size, "%s", e.msg);
    return rc < 0 ? (int)e.code : 0;
}

int main(int argc, char **argv)
{
    unsigned long pass = 0, fail = 0;
    for (int i = 1; i < argc; i++) {
        char why[600];
        fail_at = 0;
        int want = run(argv[i], why, sizeof why);
        for (fail_at = 1;; fail_at++) {
            count = 0;
            int got = run(argv[i], why, sizeof why);
            if (count < fail_at) { /* no allocation failed: done */
                if (got != want) {
                    fail++;
                    printf("FAIL %s: %d without a failure, %d before\n",
                           argv[i], got, want);
                }
                break;
            }
            if (got == ERR_NOMEM) {
                pass++;
            } else {
                fail++;
                if (fail <= 20)
                    printf("FAIL %s: allocation %lu failed, and the result "
                           "was code %d (%s) instead of out of memory\n",
                           argv[i], fail_at, got, got ? why : "success");
            }
        }
    }
    fail_at = 0;
    printf("oom: %lu passed, %lu failed\n", pass, fail);
    /* before the leak check at exit, which may end the process itself */
    fflush(stdout);
    return fail == 0 ? 0 : 1;
}
