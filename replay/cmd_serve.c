/* replay serve: the simulator as an MCP server (docs/serve.md), a thin
 * command over serve/: it reads the command line and the tool file,
 * makes the server (mcp.h) and the sink of finished sessions (sink.h),
 * and runs one transport: standard input and output, one process one
 * session and one episode (transport_stdio.h), or with --http each
 * Streamable HTTP session one (transport_http.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmds.h"
#include "config.h"
#include "live.h"
#include "mcp.h"
#include "sink.h"
#include "task.h"
#include "transport_http.h"
#include "transport_stdio.h"

/* Reads a number from 1 to max, digits only: 0, or -1 when text is not
 * one. */
static int count_of(const char *text, unsigned long max, unsigned long *out)
{
    char *end;
    errno = 0;
    unsigned long n = strtoul(text, &end, 10);
    if (*text < '0' || *text > '9' || *end || errno || n == 0 || n > max)
        return -1;
    *out = n;
    return 0;
}

static const char serve_usage[] =
    "serve FILE [--seed N] [--arm ARM] [--run R] [--model M] "
    "[--transcript OUT.jsonl] [--report OUT.jsonl] [--http [HOST:]PORT "
    "[--idle SECONDS] [--sessions N] [--connections N] [--timeout SECONDS]]";

int cmd_serve(int argc, char **argv)
{
    const char *path = NULL, *seed_text = "1", *arm_text = "base",
               *run = "serve", *model = NULL, *transcript = NULL,
               *report = NULL, *listen = NULL, *idle_text = "600",
               *sessions_text = "1000", *connections_text = "256",
               *timeout_text = "30";
    for (int i = 0; i < argc; i++) {
        const char *o = argv[i];
        int has = i + 1 < argc;
        if (strcmp(o, "--seed") == 0 && has)
            seed_text = argv[++i];
        else if (strcmp(o, "--arm") == 0 && has)
            arm_text = argv[++i];
        else if (strcmp(o, "--run") == 0 && has)
            run = argv[++i];
        else if (strcmp(o, "--model") == 0 && has)
            model = argv[++i];
        else if (strcmp(o, "--transcript") == 0 && has)
            transcript = argv[++i];
        else if (strcmp(o, "--report") == 0 && has)
            report = argv[++i];
        else if (strcmp(o, "--http") == 0 && has)
            listen = argv[++i];
        else if (strcmp(o, "--idle") == 0 && has)
            idle_text = argv[++i];
        else if (strcmp(o, "--sessions") == 0 && has)
            sessions_text = argv[++i];
        else if (strcmp(o, "--connections") == 0 && has)
            connections_text = argv[++i];
        else if (strcmp(o, "--timeout") == 0 && has)
            timeout_text = argv[++i];
        else if (o[0] == '-')
            return usage_error("serve: unknown option '%s' (usage: %s)", o,
                               serve_usage);
        else if (path)
            return usage_error("serve: one FILE at a time");
        else
            path = o;
    }
    if (!path)
        return usage_error("serve: no FILE given (usage: %s)", serve_usage);
    if (strcmp(path, "-") == 0)
        return usage_error("serve: the tool file cannot be standard input");
    if (transcript && strcmp(transcript, "-") == 0)
        return usage_error("serve: the transcript cannot be standard output, "
                           "which carries the protocol");
    if (report && strcmp(report, "-") == 0 && !listen)
        return usage_error("serve: the report cannot be standard output "
                           "over stdio, which carries the protocol");
    unsigned long idle, sessions, connections, timeout;
    if (count_of(idle_text, 86400, &idle) < 0)
        return usage_error("serve: --idle takes seconds from 1 to 86400, "
                           "not '%s'",
                           idle_text);
    if (count_of(sessions_text, 100000, &sessions) < 0)
        return usage_error("serve: --sessions takes a number from 1 to "
                           "100000, not '%s'",
                           sessions_text);
    if (count_of(connections_text, 10000, &connections) < 0)
        return usage_error("serve: --connections takes a number from 1 to "
                           "10000, not '%s'",
                           connections_text);
    if (count_of(timeout_text, 3600, &timeout) < 0)
        return usage_error("serve: --timeout takes seconds from 1 to 3600, "
                           "not '%s'",
                           timeout_text);
    mcp_options mo = {.run = run, .model = model, .version = PACKAGE_VERSION};
    err e;
    err_clear(&e);
    arm arm;
    size_t narms;
    if (parse_arms(arm_text, &arm, 1, &narms) != 0)
        return EXIT_USAGE;
    mo.arm = arm;
    uint64_t seed;
    if (task_seed_parse(seed_text, &seed) < 0)
        return usage_error("serve: --seed takes a number from 0 to 2^63 - 1, "
                           "not '%s'",
                           seed_text);
    mo.seed = seed;

    doc *d = NULL;
    toolset *ts = NULL;
    if (load_tools(path, &d, &ts) < 0)
        return EXIT_REFUSED;
    for (size_t i = 0; i < ts->nrefused; i++)
        say("replay serve: %s: tool '%s' left out: %s", path,
            ts->refused[i].name, ts->refused[i].reason);
    mo.ts = ts;
    char *rel = transcript ? live_relative_to(path, transcript) : NULL;
    mo.tools_name = rel ? rel : path;
    mcp_server *srv = NULL;
    buf notes = BUF_INIT;
    serve_sink k;
    int status = EXIT_REFUSED, sink_open = 0;
    if (mcp_server_new(&srv, &mo, &notes) < 0) {
        say("replay serve: out of memory");
        goto out;
    }
    for (char *p = notes.data, *nl; p && (nl = strchr(p, '\n')); p = nl + 1) {
        *nl = '\0';
        say("replay serve: %s: %s", path, p);
    }
    /* the default task must exist: a file no task can be made of is
     * refused now, not at each session */
    {
        arena *a = arena_new();
        task *t = NULL;
        if (!a || task_make(&t, a, ts, mo.seed, &arm, &e) < 0) {
            say("replay serve: %s: %s", path, a ? e.msg : "out of memory");
            arena_free(a);
            goto out;
        }
        arena_free(a);
    }
    if (serve_sink_open(&k, say, run, transcript, report) < 0)
        goto out;
    sink_open = 1;
    if (listen) {
        serve_http_opts ho = {listen, (unsigned)idle, (unsigned)timeout,
                              sessions, connections};
        int rc = serve_http(srv, &k, &ho);
        status = rc == 0                     ? 0
                 : rc == SERVE_CANNOT_LISTEN ? EXIT_CANNOT
                 : rc == SERVE_BAD_ADDRESS
                     ? usage_error("serve: --http takes [HOST:]PORT (8080 "
                                   "for 127.0.0.1:8080, [::1]:8080, 0 for "
                                   "any free port), not '%s'",
                                   listen)
                     : EXIT_REFUSED;
    } else {
        status = serve_stdio(srv, &k) < 0 ? EXIT_REFUSED : 0;
    }
    if (k.failed && status == 0)
        status = EXIT_REFUSED;
out:
    if (sink_open && serve_sink_close(&k) < 0 && status == 0)
        status = EXIT_REFUSED;
    mcp_server_free(srv);
    buf_free(&notes);
    free(rel);
    toolset_free(ts);
    doc_free(d);
    return status;
}
