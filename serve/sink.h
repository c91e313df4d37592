/* sink: where `replay serve`'s finished sessions go, whatever their
 * transport (transport_stdio.h, transport_http.h).  A session that ends
 * is written whole: its episode appended to the transcript (under a lock
 * on the file, so that servers sharing a transcript never interleave
 * their episodes; its id, chosen when the session began, is its own, see
 * live_episode_id), its report lines to the report, and one line on
 * stderr.  Safe to call from many threads.
 *
 * The server's modules speak through the sink's say alone: one line on
 * stderr, given by the command that runs the server, so that the server
 * prints nothing the command has not chosen how to print. */
#ifndef TR_SINK_H
#define TR_SINK_H

#include <pthread.h>
#include <stdio.h>

#include "mcp.h"

/* Says one line (a printf format, no newline) where the server's lines
 * go; safe from any thread. */
typedef void (*serve_say_fn)(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

typedef struct serve_sink {
    serve_say_fn say;
    const char *run;        /* the run the episodes are written in */
    const char *transcript; /* the transcript's path, or NULL */
    const char *report_path;
    FILE *report; /* or NULL */
    pthread_mutex_t lock;
    int failed; /* a write failed: the exit status says so */
} serve_sink;

/* Opens the report (when report_path is not NULL): 0, or -1 said. */
int serve_sink_open(serve_sink *k, serve_say_fn say, const char *run,
                    const char *transcript, const char *report_path);

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

#endif
