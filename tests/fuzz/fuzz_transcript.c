/*
 * fuzz_transcript: the input bytes as a transcript (JSONL) replayed by the
 * night engine (replay/night.c, with its database thread replay/writer.c)
 * into an in-memory SQLite database.  Lines are cut at '\n' and handed to
 * night_line as replay/cmd_replay.c hands them (a line past its 4 MiB
 * limit goes to night_long_line with its first 4096 bytes), each in a
 * buffer of its exact length so that a read past a line is caught; then
 * night_finish and night_free.  Tool paths are relative to
 * FUZZ_NIGHT_DIR (samples/night), so the samples' "../tools/shop.json"
 * resolves, and the folder above it (samples) is the one tool files may
 * be read from (TASKREPLAY_TOOLS_DIR, for the engines that confine run
 * lines' tool paths).  Checks that nothing crashes, leaks or reads out of
 * bounds, and that a line tline_route finds the type, run and episode
 * of (as replay's shards route it) is read by tline_parse with those
 * very names, or refused: else it aborts.
 * Problems and notes go to /dev/null.
 *
 * night_open computes the generator's fingerprint, the same every time
 * and two thirds of an empty night's time: linked with
 * -Wl,--wrap=generator_fingerprint, the harness computes it once.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "generator.h"
#include "night.h"
#include "transcript.h"

#ifndef FUZZ_NIGHT_DIR
#error "FUZZ_NIGHT_DIR: the samples/night folder, where tool paths start"
#endif

#define LINE_LIMIT (4u << 20) /* cmd_replay.c's limit of one line */
#define LONG_START 4096       /* the bytes of a long line it keeps */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int __real_generator_fingerprint(char hex[SHA256_HEX_LEN + 1], err *e);
int __wrap_generator_fingerprint(char hex[SHA256_HEX_LEN + 1], err *e);

int __wrap_generator_fingerprint(char hex[SHA256_HEX_LEN + 1], err *e)
{
    static char once[SHA256_HEX_LEN + 1];
    if (!once[0] && __real_generator_fingerprint(once, e) < 0)
        return -1;
    memcpy(hex, once, sizeof once);
    return 0;
}

/* Aborts when text routes (tline_route) otherwise than tline_parse
 * reads it. */
static void route_as_read(const char *text, size_t len)
{
    enum tline_type t;
    const char *r, *ep;
    size_t rl, el;
    if (!tline_route(text, len, &t, &r, &rl, &ep, &el))
        return;
    arena *a = arena_new();
    tline tl;
    err e;
    err_clear(&e);
    if (a && tline_parse(&tl, a, text, len, NULL, &e) == 0 &&
        (tl.type != t || strlen(tl.run) != rl || memcmp(tl.run, r, rl) ||
         !tl.episode || strlen(tl.episode) != el ||
         memcmp(tl.episode, ep, el)))
        abort();
    arena_free(a);
}

/* Once: /dev/null for the diagnostics, and samples/ trusted. */
static FILE *set_up(void)
{
    static FILE *null_file;
    if (!null_file) {
        null_file = fopen("/dev/null", "w");
        setenv("TASKREPLAY_TOOLS_DIR", FUZZ_NIGHT_DIR "/..", 1);
    }
    return null_file;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    night_opts o = {.db_path = ":memory:", .diag = set_up()};
    night *n = NULL;
    err e;
    err_clear(&e);
    if (!o.diag)
        abort(); /* /dev/null cannot be opened: nothing else is worth it */
    if (night_open(&n, &o, &e) < 0) {
        night_free(n);
        return 0;
    }
    const char *file = "fuzz.jsonl";
    unsigned long line = 0;
    size_t at = 0;
    int rc = 0;
    while (at < size && rc == 0) {
        const char *nl = memchr(text + at, '\n', size - at);
        size_t len = nl ? (size_t)(nl - (text + at)) : size - at;
        size_t keep = len > LINE_LIMIT ? LONG_START : len;
        char *copy = malloc(keep ? keep : 1);
        if (!copy)
            break;
        memcpy(copy, text + at, keep);
        line++;
        if (len <= LINE_LIMIT)
            route_as_read(copy, len);
        rc = len > LINE_LIMIT
                 ? night_long_line(n, file, line, copy, keep, len, &e)
                 : night_line(n, file, FUZZ_NIGHT_DIR, line, copy, len, &e);
        free(copy);
        at += len + (nl != NULL);
    }
    /* as cmd_replay.c: no finish after a database failure */
    if (rc >= 0)
        night_finish(n, rc == 0, &e);
    night_get_counts(n);
    night_free(n);
    return 0;
}
