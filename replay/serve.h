/* serve: what `replay serve` shares between its transports (stdio and
 * Streamable HTTP): the sink finished sessions are written to.  A session
 * that ends is written whole: its episode appended to the transcript
 * (under a lock on the file, so that servers sharing a transcript never
 * interleave their episodes; its id, chosen when the session began, is
 * its own, see live_episode_id), its report lines to the report, and one
 * line on stderr.  Safe to call from many threads. */
#ifndef TR_SERVE_H
#define TR_SERVE_H

#include <pthread.h>
#include <stdio.h>

#include "live.h"
#include "mcp.h"

typedef struct serve_sink {
    const char *run;        /* the run the episodes are written in */
    const char *transcript; /* the transcript's path, or NULL */
    const char *report_path;
    FILE *report; /* or NULL */
    pthread_mutex_t lock;
    int failed; /* a write failed: the exit status says so */
} serve_sink;

/* Opens the report (when report_path is not NULL): 0, or -1 said. */
int serve_sink_open(serve_sink *k, const char *run, const char *transcript,
                    const char *report_path);

/* Writes session s's episode, when it has one (it was initialized):
 * status is the end line's ("done", "stopped"), or NULL for an episode
 * left unfinished (so is one that ended early: mcp_session_broken, said
 * as why); why, when not NULL, is said with it on stderr.  Failures are
 * said on stderr, and set k->failed.  0, or -1 when the episode or its
 * report could not be written. */
int serve_write(serve_sink *k, const mcp_session *s, const char *status,
                const char *why);

/* Closes the report: 0, or -1 when what was written could not be. */
int serve_sink_close(serve_sink *k);

/* What `replay serve --http` is given. */
typedef struct serve_http_opts {
    const char *listen;  /* "HOST:PORT" */
    unsigned idle;       /* seconds a session may be silent */
    unsigned timeout;    /* seconds a request may take to arrive whole */
    size_t sessions;     /* sessions open at once, at most */
    size_t connections;  /* connections served at once, at most */
} serve_http_opts;

/* Serves srv over Streamable HTTP (docs/serve.md) until SIGTERM or
 * SIGINT, writing finished sessions to k: a session idle for o->idle
 * seconds ends unfinished; at most o->sessions are open at once; past
 * o->connections connections, a request gets 503; a connection whose
 * request has not arrived whole (headers and body) o->timeout seconds
 * after its last answer (or its start) is closed.  The exit status. */
int serve_http(const mcp_server *srv, serve_sink *k,
               const serve_http_opts *o);

#endif
