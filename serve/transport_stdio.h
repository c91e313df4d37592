/* transport_stdio: MCP over standard input and output (`replay serve`
 * without --http, docs/serve.md): one process is one session and one
 * episode.  Messages are JSON-RPC lines on standard input, answers lines
 * on standard output; a line past TRANSCRIPT_LINE_LIMIT is refused
 * (-32600) without being kept.  The session ends when the input ends
 * (inside a message: unfinished), when standard output is closed (the
 * client left: unfinished), or at SIGTERM, SIGINT or SIGHUP ("stopped"),
 * and is then written to the sink.
 *
 * Global state: the signal that asks the session to stop, set by its
 * handler (installed by serve_stdio). */
#ifndef TR_TRANSPORT_STDIO_H
#define TR_TRANSPORT_STDIO_H

#include "mcp.h"
#include "sink.h"

/* Serves one session of srv, written to k.  0, or -1 when memory ran out
 * (said). */
int serve_stdio(const mcp_server *srv, serve_sink *k);

#endif
