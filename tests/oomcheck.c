/*
 * oomcheck: every allocation failure is survived.  Linked with
 * -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc, so that the project's
 * own allocations (not those inside yajl, libyaml or OpenSSL) go through
 * the wrappers below, which fail the Nth one.  For each tool file given,
 * N runs 1, 2, 3... until loading, hashing and reading the tool table
 * succeed: every shorter run must fail with ERR_NOMEM (and nothing else),
 * and AddressSanitizer's leak check at exit proves nothing leaked.  The
 * files after --sim also make the tasks of several arms and play a
 * scripted episode of each through the simulator; those after --serve
 * play a scripted MCP session of `replay serve` (serve/mcp.h) and write
 * its episode, and a run that succeeds must have answered every message
 * as the run without a failure did (an allocation failure is never
 * turned into another answer; one while a call is answered ends the
 * episode there, which is the server saying "out of memory").
 *
 *   oomcheck FILE... [--sim FILE...] [--serve FILE...]
 *
 * Closes with "oom: N passed, M failed" (N: failure points survived).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canon.h"
#include "doc.h"
#include "mcp.h"
#include "sim.h"
#include "task.h"
#include "tools.h"
#include "vbuild.h"

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t size);

/* The test's own state: which allocation fails (0: none), and how many
 * were made. */
static unsigned long fail_at, count;

/* OOM_TRACE=N prints the stack of the Nth allocation when it fails (with
 * AddressSanitizer), to find the caller that did not report it. */
void __sanitizer_print_stack_trace(void) __attribute__((weak));

static int should_fail(void)
{
    if (!fail_at || ++count != fail_at)
        return 0;
    const char *trace = getenv("OOM_TRACE");
    if (trace && strtoul(trace, NULL, 10) == fail_at &&
        __sanitizer_print_stack_trace)
        __sanitizer_print_stack_trace();
    return 1;
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

static int play(sim *s, const tool *t, const value *args, err *e)
{
    sim_result r = {.answer = BUF_INIT, .arguments = BUF_INIT, .error = -1, .event = -1};
    int rc = sim_call(s, t->name, strlen(t->name), args, NULL, &r, e);
    buf_free(&r.answer);
    buf_free(&r.arguments);
    return rc;
}

/* The task of one arm, and a scripted episode: the target write too
 * early, each step twice, a read of the handed value, an unknown tool. */
static int episode(const toolset *ts, const char *arm_text, err *e)
{
    arm arm;
    task *t = NULL;
    sim *s = NULL;
    buf b = BUF_INIT;
    arena *a = arena_new();
    if (!a)
        return err_set(e, ERR_NOMEM, "out of memory");
    int rc = arm_parse(&arm, arm_text, strlen(arm_text), e);
    if (rc == 0)
        rc = task_make(&t, a, ts, 1, &arm, e);
    if (rc == 0) {
        value *v = task_to_value(a, t, 2);
        rc = v ? canon_write(&b, v, e) : err_set(e, ERR_NOMEM, "nomem");
    }
    if (rc == 0) { /* a buffer of its own, so that it allocates */
        buf direct = BUF_INIT;
        rc = task_write_json(&direct, t, 2, e);
        buf_free(&direct);
    }
    if (rc == 0)
        rc = sim_new(&s, ts, t, e);
    if (rc == 0)
        rc = play(s, t->steps[t->depth - 1].tool, t->steps[t->depth - 1].args,
                  e);
    for (int k = 0; k < (t ? t->depth : 0) && rc == 0; k++)
        for (int twice = 0; twice < 2 && rc == 0; twice++)
            rc = play(s, t->steps[k].tool, t->steps[k].args, e);
    const tool *get = toolset_find(ts, "get_order", 9);
    if (rc == 0 && get && t->handed) {
        value *q = vb_object(a);
        rc = vb_put(a, q, "order_id", t->handed) < 0
                 ? err_set(e, ERR_NOMEM, "nomem")
                 : play(s, get, q, e);
    }
    if (rc == 0) {
        sim_result r = {.answer = BUF_INIT, .arguments = BUF_INIT, .error = -1, .event = -1};
        rc = sim_call(s, "nope", 4, NULL, NULL, &r, e);
        buf_free(&r.answer);
        buf_free(&r.arguments);
    }
    if (rc == 0) {
        sim_verdict v;
        sim_judge(s, &v);
        if (!sim_verdict_value(a, t, &v))
            rc = err_set(e, ERR_NOMEM, "nomem");
    }
    sim_free(s);
    buf_free(&b);
    arena_free(a);
    return rc;
}

static const char *const arms[] = {"base",       "depth:d1",   "depth:d3",
                                   "faults:f2",  "landed:l1",  "baddata:b1",
                                   "baddata:b3", "lagged:g1"};

/* Loads, hashes and reads the tools of a file (then, with sim, plays an
 * episode of each arm); 0, or the err code. */
static int run(const char *path, int with_sim, char *why, size_t size)
{
    doc *d = NULL;
    toolset *ts = NULL;
    err e;
    err_clear(&e);
    int rc = doc_load_file(&d, path, &e);
    if (rc == 0 && toolset_build(&ts, d, &e) < 0)
        rc = -1;
    for (size_t i = 0; with_sim && rc == 0 && i < sizeof arms / sizeof *arms;
         i++)
        rc = episode(ts, arms[i], &e);
    toolset_free(ts);
    doc_free(d);
    if (rc < 0)
        snprintf(why, size, "%s", e.msg);
    return rc < 0 ? (int)e.code : 0;
}

/* The messages of the MCP session: the protocol, calls of every kind,
 * bad messages. */
static const char *const messages[] = {
    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}",
    "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"initialize\",\"params\":"
    "{\"protocolVersion\":\"2025-06-18\",\"_meta\":{\"taskreplay/seed\":7,"
    "\"taskreplay/arm\":\"landed:l1\"}}}",
    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
    "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\"}",
    "{\"jsonrpc\":\"2.0\",\"id\":\"p\",\"method\":\"prompts/get\","
    "\"params\":{\"name\":\"task\"}}",
    "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":"
    "{\"name\":\"search_orders\",\"arguments\":{\"query\":\"harbor granite\"}}}",
    "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":"
    "{\"name\":\"refund_order\",\"arguments\":\"{\\\"order_id\\\":1}\"}}",
    "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":"
    "{\"name\":\"refund_order\",\"arguments\":{\"order_id\":\"Z-0362\","
    "\"amount\":280.41}}}",
    "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":"
    "{\"name\":\"nope\"}}",
    "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"nope\"}",
    "{\"jsonrpc\":\"2.0\",\"id\":9,",
    "[{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"ping\"}]"};

/* What the session answered and wrote, in the run without a failure. */
static buf reference = BUF_INIT;

/* Appends the episode's lines to all with its id (random, its own each
 * run) written "e", so that runs compare: 0, or -1 out of memory. */
static int same_id(buf *all, const buf *lines, const char *id)
{
    size_t n = strlen(id);
    for (size_t i = 0; i < lines->len;) {
        const char *at = NULL;
        for (size_t j = i; !at && n && j + n <= lines->len; j++)
            if (memcmp(lines->data + j, id, n) == 0)
                at = lines->data + j;
        size_t plain = at ? (size_t)(at - (lines->data + i)) : lines->len - i;
        if (buf_append(all, lines->data + i, plain) < 0 ||
            (at && buf_putc(all, 'e') < 0))
            return -1;
        i += plain + (at ? n : 0);
    }
    return 0;
}

/* Loads the tools, makes the MCP server, plays the session and writes its
 * episode; 0, or the err code.  A run that succeeds must give the
 * reference's bytes (set when it is empty). */
static int serve_run(const char *path, char *why, size_t size)
{
    doc *d = NULL;
    toolset *ts = NULL;
    mcp_server *srv = NULL;
    mcp_session *s = NULL;
    buf notes = BUF_INIT, out = BUF_INIT, all = BUF_INIT, sum = BUF_INIT;
    err e;
    err_clear(&e);
    int rc = doc_load_file(&d, path, &e);
    if (rc == 0 && toolset_build(&ts, d, &e) < 0)
        rc = -1;
    mcp_options o = {.ts = ts, .seed = 1, .run = "oom", .tools_name = "t",
                     .version = "0"};
    int nomem = 0;
    if (rc == 0 && (mcp_server_new(&srv, &o, &notes) < 0 ||
                    !(s = mcp_session_new(srv))))
        nomem = 1;
    for (size_t i = 0; !nomem && rc == 0 &&
                       i < sizeof messages / sizeof *messages;
         i++) {
        mcp_info info;
        buf_reset(&out);
        nomem = mcp_handle(s, messages[i], strlen(messages[i]), &out,
                           &info) < 0 ||
                buf_append(&all, out.data, out.len) < 0 ||
                buf_putc(&all, '\n') < 0;
    }
    live_writer w = {BUF_INIT, -1};
    /* a call answered when memory ran out ends the episode there, as it
     * must: that run said "out of memory" (to the client) */
    if (!nomem && rc == 0 && mcp_session_broken(s))
        nomem = 1;
    if (!nomem && rc == 0)
        nomem = mcp_session_transcript(s, "done", &w) < 0 ||
                mcp_session_report(s, 0, &w.b, &sum) < 0 ||
                same_id(&all, &w.b, mcp_session_episode_id(s)) < 0;
    buf_free(&w.b);
    if (nomem)
        rc = err_set(&e, ERR_NOMEM, "out of memory");
    if (rc == 0 && reference.len == 0)
        rc = buf_append(&reference, all.data, all.len) < 0
                 ? err_set(&e, ERR_NOMEM, "out of memory")
                 : 0;
    else if (rc == 0 && (all.len != reference.len ||
                         memcmp(all.data, reference.data, all.len) != 0))
        rc = err_set(&e, ERR_VALUE, "the session answered otherwise");
    mcp_session_free(s);
    mcp_server_free(srv);
    buf_free(&notes);
    buf_free(&out);
    buf_free(&all);
    buf_free(&sum);
    toolset_free(ts);
    doc_free(d);
    if (rc < 0)
        snprintf(why, size, "%s", e.msg);
    return rc < 0 ? (int)e.code : 0;
}

int main(int argc, char **argv)
{
    unsigned long pass = 0, fail = 0;
    int with_sim = 0, serve = 0;
    for (int i = 1; i < argc; i++) {
        char why[600];
        if (strcmp(argv[i], "--sim") == 0) {
            with_sim = 1;
            continue;
        }
        if (strcmp(argv[i], "--serve") == 0) {
            serve = 1;
            continue;
        }
        fail_at = 0;
        buf_free(&reference);
        int want = serve ? serve_run(argv[i], why, sizeof why)
                         : run(argv[i], with_sim, why, sizeof why);
        for (fail_at = 1;; fail_at++) {
            count = 0;
            int got = serve ? serve_run(argv[i], why, sizeof why)
                            : run(argv[i], with_sim, why, sizeof why);
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
    buf_free(&reference);
    printf("oom: %lu passed, %lu failed\n", pass, fail);
    /* before the leak check at exit, which may end the process itself */
    fflush(stdout);
    return fail == 0 ? 0 : 1;
}
