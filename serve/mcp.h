/* mcp: the Model Context Protocol as `replay serve` speaks it, without any
 * I/O, so that stdio and Streamable HTTP share every rule (docs/serve.md).
 *
 * A server holds what every session shares, made once and never changed
 * (safe to read from many threads): the tool file, its tools in MCP form
 * (tools/list), and the default task's seed and arm.  A session is one
 * episode: JSON-RPC 2.0 messages in, responses out.  `initialize`
 * negotiates the protocol revision (2025-11-25 or 2025-06-18) and makes
 * the session's task; `tools/call` is answered by the simulator exactly
 * as `replay sim` answers the same calls in the same order, wrapped as an
 * MCP tool result (a success: the answer as text and, when it is an
 * object, as structuredContent; an error: isError and its message);
 * `prompts/get` of "task" gives the task's request.  Every call is kept
 * with its answer, so that the transport writes the episode whole when
 * the session ends; a session keeps at most MCP_MAX_CALLS calls and about
 * MCP_MAX_KEPT bytes of them.  A call is recorded only when its transcript
 * line is one replay reads (live_call_fits: checked before the simulator
 * sees it, which then refuses it with -32602 and changes nothing); a call
 * that cannot be recorded once answered (its answer makes the line too
 * long, or memory ran out) ends the episode there: the calls before it
 * are kept, the episode is written unfinished, and later calls get
 * -32600.  A session is used by one thread at a time.
 */
#ifndef TR_MCP_H
#define TR_MCP_H

#include <stddef.h>

#include "arm.h"
#include "buf.h"
#include "err.h"
#include "live.h"
#include "sim.h"
#include "tools.h"

/* JSON-RPC error codes */
#define MCP_PARSE_ERROR (-32700)
#define MCP_INVALID_REQUEST (-32600)
#define MCP_METHOD_NOT_FOUND (-32601)
#define MCP_INVALID_PARAMS (-32602)
#define MCP_INTERNAL_ERROR (-32603)

/* The most calls a session answers: past it, tools/call gets an error
 * (an agent's episode is tens of calls; a client that loops is stopped
 * before it fills the memory). */
#define MCP_MAX_CALLS 10000

/* The most bytes of calls and answers a session keeps: past them,
 * tools/call gets an error too, so that the memory of a server's sessions
 * is bounded (--sessions of them at most).  One call's line is at most 4
 * MiB, so a session holds at most this and one more. */
#define MCP_MAX_KEPT (16u << 20)

typedef struct mcp_server mcp_server;
typedef struct mcp_session mcp_session;

typedef struct mcp_options {
    const toolset *ts;       /* outlives the server */
    unsigned long long seed; /* the task of a session that chooses none */
    arm arm;
    const char *run, *model; /* the transcript's run name and model */
    const char *tools_name;  /* how the run line names the tool file */
    const char *version;     /* serverInfo.version */
} mcp_options;

/* Makes the server: the tools' MCP form among them.  A tool whose schemas
 * cannot be written as JSON is left out; each left out goes to notes as a
 * line ending in a newline.  0, or -1 out of memory. */
int mcp_server_new(mcp_server **out, const mcp_options *o, buf *notes);
void mcp_server_free(mcp_server *srv);

/* A new session of srv; NULL out of memory. */
mcp_session *mcp_session_new(const mcp_server *srv);
void mcp_session_free(mcp_session *s);

/* Chooses the session's seed and arm (either may be NULL: the server's),
 * as text, before initialize: 0, or -1 with a one-line reason in e
 * (ERR_USAGE).  Initialize's _meta may still choose again. */
int mcp_session_choose(mcp_session *s, const char *seed, const char *arm,
                       err *e);

/* What a message was, for the transport (HTTP answers by it). */
typedef struct mcp_info {
    int request;    /* a request (it has an id): a response was written */
    int initialize; /* an initialize request */
    int error;      /* the JSON-RPC error code answered, or 0 */
} mcp_info;

/* Handles one message (len bytes of JSON).  A request gets its response
 * appended to out (JSON, no newline); a notification, or a response sent
 * to us, gets nothing.  Malformed JSON gets a parse error, an array (a
 * batch) an invalid request, with id null.  0, or -1 out of memory. */
int mcp_handle(mcp_session *s, const char *msg, size_t len, buf *out,
               mcp_info *info);

/* Whether the message is an initialize request (the one message a
 * Streamable HTTP client sends without a session). */
int mcp_is_initialize(const char *msg, size_t len);

/* An error response with id null, for a message refused unread (too
 * long): 0, or -1 out of memory. */
int mcp_refuse(buf *out, int code, const char *message);

/* Whether initialize was answered: the session has a task. */
int mcp_session_started(const mcp_session *s);
/* The task's id, or NULL before initialize. */
const char *mcp_session_task_id(const mcp_session *s);
/* The episode's id (live_episode_id, chosen at initialize), or NULL
 * before. */
const char *mcp_session_episode_id(const mcp_session *s);
/* Why the episode ended before the session ("call 3: ..."), or NULL when
 * it did not: it is then written unfinished, whatever ended the session. */
const char *mcp_session_broken(const mcp_session *s);

/* Writes the episode's transcript lines through w, each ending in a
 * newline: the run, the episode, each call with its answer, and the end
 * line with status, when status is not NULL (NULL: an unfinished
 * episode) and the episode did not end early.  0, or -1 with errno set
 * (live_writer_line).  Only for a started session. */
int mcp_session_transcript(const mcp_session *s, const char *status,
                           live_writer *w);

/* The episode's report lines (each call, then the verdict), and the
 * verdict's one-line summary (no newline) in summary; an unfinished
 * episode is never a pass (replay judges it so). */
int mcp_session_report(const mcp_session *s, int unfinished, buf *out,
                       buf *summary);

#endif
