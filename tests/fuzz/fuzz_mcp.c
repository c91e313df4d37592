/*
 * fuzz_mcp: the input bytes as what a client sends `replay serve`, one
 * message a line, into two sessions at once: one on the shop's OpenAI
 * tools, one on its OpenAPI document (whose schemas hold $refs), both
 * read once from samples/tools.  After the last line, each session's
 * episode is written as replay serve writes it (its transcript lines and
 * its report).  Checks that nothing crashes, leaks or reads out of
 * bounds, that every response and every line written is one JSON object
 * a reader takes, and that a request always gets a response: abort()
 * when not.  No allocation fails here for want of memory (libFuzzer and
 * AddressSanitizer stop the run on a real out-of-memory, they never return
 * NULL), so "out of memory" from the server is a bug: a message it took
 * for one once ended the session (an id of "\ud800").
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "doc.h"
#include "json_load.h"
#include "mcp.h"
#include "tools.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#ifndef FUZZ_TOOLS_DIR
#define FUZZ_TOOLS_DIR "samples/tools"
#endif

static const char *const files[] = {FUZZ_TOOLS_DIR "/shop.json",
                                    FUZZ_TOOLS_DIR "/shop-openapi.yaml"};
#define NFILES (sizeof files / sizeof files[0])

/* The servers, made at the first input and kept (the harness's only
 * state, never changed after). */
static struct {
    doc *d;
    toolset *ts;
    mcp_server *srv;
} servers[NFILES];

static void make_servers(void)
{
    for (size_t i = 0; i < NFILES; i++) {
        err e;
        err_clear(&e);
        buf notes = BUF_INIT;
        arm base = {0};
        mcp_options o = {.seed = 7, .arm = base, .run = "fuzz",
                         .tools_name = "shop", .version = "0"};
        if (doc_load_file(&servers[i].d, files[i], &e) < 0 ||
            toolset_build(&servers[i].ts, servers[i].d, &e) < 0)
            abort(); /* the samples are tool files */
        o.ts = servers[i].ts;
        if (mcp_server_new(&servers[i].srv, &o, &notes) < 0)
            abort();
        buf_free(&notes);
    }
}

/* Every line of text (len bytes) must be a JSON object. */
static void check_lines(const char *text, size_t len)
{
    arena *a = arena_new();
    if (!a)
        abort();
    for (size_t at = 0; at < len;) {
        const char *nl = memchr(text + at, '\n', len - at);
        size_t n = nl ? (size_t)(nl - (text + at)) : len - at;
        value *v = NULL;
        err e;
        arena_reset(a);
        if (json_load(&v, a, text + at, n, &e) < 0)
            abort();
        if (v->kind != V_OBJECT)
            abort();
        at += n + 1;
    }
    arena_free(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!servers[0].srv)
        make_servers();
    mcp_session *s[NFILES];
    for (size_t i = 0; i < NFILES; i++)
        if (!(s[i] = mcp_session_new(servers[i].srv)))
            abort();
    const char *text = (const char *)data;
    buf out = BUF_INIT;
    for (size_t at = 0; at < size;) {
        const char *nl = memchr(text + at, '\n', size - at);
        size_t n = nl ? (size_t)(nl - (text + at)) : size - at;
        for (size_t i = 0; i < NFILES; i++) {
            mcp_info info;
            buf_reset(&out);
            if (mcp_handle(s[i], text + at, n, &out, &info) < 0)
                abort(); /* "out of memory", and it is not */
            if (info.request != (out.len > 0))
                abort(); /* a request unanswered, or an answer to none */
            check_lines(out.data, out.len);
        }
        at += n + 1;
    }
    for (size_t i = 0; i < NFILES; i++) {
        if (mcp_session_started(s[i])) {
            live_writer t = {BUF_INIT, -1};
            buf r = BUF_INIT, sum = BUF_INIT;
            if (mcp_session_transcript(s[i], "done", &t) < 0 ||
                mcp_session_report(s[i], 0, &r, &sum) < 0)
                abort();
            check_lines(t.b.data, t.b.len);
            check_lines(r.data, r.len);
            buf_free(&t.b);
            buf_free(&r);
            buf_free(&sum);
        }
        mcp_session_free(s[i]);
    }
    buf_free(&out);
    return 0;
}
