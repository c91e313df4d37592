/* replay serve: the simulator as an MCP server (docs/serve.md).  Over
 * standard input and output (the default) one process is one session and
 * one episode; with --http, each Streamable HTTP session is one
 * (serve_http).  The one piece of global state is the signal that asks
 * the stdio session to stop, set by its handler. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmds.h"
#include "config.h"
#include "live.h"
#include "mcp.h"
#include "serve.h"
#include "task.h"

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
    stop_signal = sig;
}

/* Writes all len bytes to fd 1: 0, or -1 (the client is gone). */
static int put_out(const char *p, size_t len)
{
    while (len) {
        ssize_t n = write(STDOUT_FILENO, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

/* Whether the len bytes at p are all blanks (a line that is no message). */
static int blank(const char *p, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r')
            return 0;
    return 1;
}

/* Answers one message (a line without its newline; full is its whole
 * length, past the limit when too long): 0, -1 out of memory, -2 when
 * standard output is closed. */
static int one_message(mcp_session *s, const char *line, size_t len,
                       size_t full, buf *out)
{
    mcp_info info;
    buf_reset(out);
    int rc;
    if (full > TRANSCRIPT_LINE_LIMIT) {
        char msg[160];
        snprintf(msg, sizeof msg,
                 "Invalid Request: a message of %zu bytes is longer than the "
                 "limit of %u MiB",
                 full, TRANSCRIPT_LINE_LIMIT >> 20);
        say("replay serve: <stdin>: %s", msg + 17);
        rc = mcp_refuse(out, MCP_INVALID_REQUEST, msg);
    } else {
        rc = mcp_handle(s, line, len, out, &info);
    }
    if (rc < 0)
        return -1;
    if (!out->len)
        return 0;
    if (buf_putc(out, '\n') < 0)
        return -1;
    return put_out(out->data, out->len) < 0 ? -2 : 0;
}

/* One session over standard input and output, until the input ends or a
 * signal stops it; the session is written to k.  The exit status. */
static int serve_stdio(const mcp_server *srv, serve_sink *k)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal; /* no SA_RESTART: read returns EINTR */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);

    mcp_session *s = mcp_session_new(srv);
    if (!s) {
        say("replay serve: out of memory");
        return EXIT_REFUSED;
    }
    buf line = BUF_INIT, out = BUF_INIT;
    size_t full = 0; /* the line's length so far, kept or not */
    char chunk[65536];
    const char *status = "done", *why = NULL;
    int exit_status = 0;
    for (;;) {
        if (stop_signal) {
            status = "stopped";
            break;
        }
        ssize_t n = read(STDIN_FILENO, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            say("replay serve: cannot read standard input: %s",
                strerror(errno));
            status = NULL;
            why = "standard input failed";
            break;
        }
        if (n == 0) {
            if (!blank(line.data, line.len)) {
                status = NULL; /* the input ended inside a message */
                why = "the client left in the middle of a message";
            }
            break;
        }
        int rc = 0;
        for (ssize_t i = 0; i < n && rc == 0;) {
            char *nl = memchr(chunk + i, '\n', (size_t)(n - i));
            size_t part = nl ? (size_t)(nl - (chunk + i)) : (size_t)(n - i);
            if (full + part <= TRANSCRIPT_LINE_LIMIT &&
                buf_append(&line, chunk + i, part) < 0)
                rc = -1;
            full += part;
            i += (ssize_t)part + (nl ? 1 : 0);
            if (!nl || rc < 0)
                continue;
            size_t len = line.len;
            while (len && line.data[len - 1] == '\r')
                len--;
            if (full > TRANSCRIPT_LINE_LIMIT || !blank(line.data, len))
                rc = one_message(s, line.data ? line.data : "", len, full,
                                 &out);
            buf_reset(&line);
            full = 0;
        }
        if (rc == -2) {
            status = NULL;
            why = "standard output is closed: the client left";
            break;
        }
        if (rc < 0) {
            say("replay serve: out of memory");
            status = NULL;
            why = "out of memory";
            exit_status = EXIT_REFUSED;
            break;
        }
    }
    serve_write(k, s, status, why);
    mcp_session_free(s);
    buf_free(&line);
    buf_free(&out);
    return exit_status;
}

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
    if (serve_sink_open(&k, run, transcript, report) < 0)
        goto out;
    sink_open = 1;
    if (listen) {
        serve_http_opts ho = {listen, (unsigned)idle, (unsigned)timeout,
                              sessions, connections};
        status = serve_http(srv, &k, &ho);
    }
    else
        status = serve_stdio(srv, &k);
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
