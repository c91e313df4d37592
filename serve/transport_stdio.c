/* transport_stdio: see transport_stdio.h. */
#include "transport_stdio.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "transcript.h"

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
static int one_message(serve_sink *k, mcp_session *s, const char *line,
                       size_t len, size_t full, buf *out)
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
        k->say("replay serve: <stdin>: %s", msg + 17);
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

int serve_stdio(const mcp_server *srv, serve_sink *k)
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
        k->say("replay serve: out of memory");
        return -1;
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
            k->say("replay serve: cannot read standard input: %s",
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
                rc = one_message(k, s, line.data ? line.data : "", len,
                                 full, &out);
            buf_reset(&line);
            full = 0;
        }
        if (rc == -2) {
            status = NULL;
            why = "standard output is closed: the client left";
            break;
        }
        if (rc < 0) {
            k->say("replay serve: out of memory");
            status = NULL;
            why = "out of memory";
            exit_status = -1;
            break;
        }
    }
    serve_write(k, s, status, why);
    mcp_session_free(s);
    buf_free(&line);
    buf_free(&out);
    return exit_status;
}
