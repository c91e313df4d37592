/*
 * fuzz_logs.h: the body of the three log readers' harnesses (fuzz_inspect,
 * fuzz_otlp, fuzz_messages): the input bytes as a log of FUZZ_FORMAT,
 * read by replay/logs.c from a memory file (memfd: the Inspect reader
 * opens it by its /proc path, as a file named on the command line).
 * Every line a reader makes must be a transcript line that
 * src/transcript.c reads (a run, episode, call or end line: never a line
 * the engine would call a problem of its shape), and every problem one
 * line with no newline.  The first byte chooses the tool file: odd, the
 * shop's (--tools); even, the log's own, written into a folder made once
 * and emptied after each input.  Checks that nothing crashes, leaks or
 * reads out of bounds; no state is kept between inputs but that folder.
 */
#define _GNU_SOURCE /* memfd_create */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "logs.h"
#include "transcript.h"

#ifndef FUZZ_TOOLS_DIR
#error "FUZZ_TOOLS_DIR: the samples/tools folder"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int check_line(void *ctx, const char *file, const char *dir,
                      unsigned long line, const char *text, size_t len,
                      err *e)
{
    (void)ctx;
    (void)file;
    (void)dir;
    (void)line;
    arena *a = arena_new();
    tline tl;
    err le;
    if (!a)
        return err_set(e, ERR_NOMEM, "out of memory");
    int rc = tline_parse(&tl, a, text, len, NULL, &le);
    if (rc < 0 && le.code != ERR_NOMEM && le.code != ERR_LIMIT) {
        /* a seed or an arm as the log gave it may be refused: its value,
         * not the line's shape */
        if (!strstr(le.msg, "seed") && !strstr(le.msg, "arm") &&
            !strstr(le.msg, "task_name")) {
            fprintf(stderr, "not a transcript line (%s): %.*s\n", le.msg,
                    (int)len, text);
            abort();
        }
    }
    arena_free(a);
    return 0;
}

static void check_problem(void *ctx, const char *text)
{
    (void)ctx;
    if (strchr(text, '\n')) {
        fprintf(stderr, "a problem of two lines: %s\n", text);
        abort();
    }
}

/* The folder the logs' tool files go to, made once. */
static const char *tools_folder(void)
{
    static char dir[64];
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/fuzz-logs-XXXXXX");
        if (!mkdtemp(dir))
            abort();
    }
    return dir;
}

static void empty_folder(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    char path[512];
    while (d && (de = readdir(d)))
        if (de->d_name[0] != '.') {
            snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
            unlink(path);
        }
    if (d)
        closedir(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int fd = memfd_create("log", 0);
    if (fd < 0)
        abort();
    if (size && write(fd, data, size) != (ssize_t)size)
        abort();
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    log_opts o;
    memset(&o, 0, sizeof o);
    o.rel_dir = tools_folder();
    if (size && (data[0] & 1))
        o.tools = FUZZ_TOOLS_DIR "/shop.json";
    log_sink sink = {check_line, check_problem, NULL};
    logr *r = logr_new(&o, &sink);
    err e;
    err_clear(&e);
    if (r)
        logr_read(r, path, "fuzz", FUZZ_FORMAT, &e);
    logr_free(r);
    close(fd);
    empty_folder(o.rel_dir);
    return 0;
}
