/* transport_http: MCP's Streamable HTTP transport (`replay serve
 * --http`, docs/serve.md), on libmicrohttpd: one endpoint, /mcp, each
 * session one episode, written to the sink when it ends (DELETE, idle
 * too long, or the server stopping).  What a client can hold is bounded,
 * and how, is said at the top of transport_http.c. */
#ifndef TR_TRANSPORT_HTTP_H
#define TR_TRANSPORT_HTTP_H

#include <stddef.h>

#include "mcp.h"
#include "sink.h"

/* What `replay serve --http` is given. */
typedef struct serve_http_opts {
    const char *listen;  /* "HOST:PORT" */
    unsigned idle;       /* seconds a session may be silent */
    unsigned timeout;    /* seconds a request may take to arrive whole */
    size_t sessions;     /* sessions open at once, at most */
    size_t connections;  /* connections served at once, at most */
} serve_http_opts;

/* serve_http's outcomes besides 0 (stopped by a signal). */
#define SERVE_FAILED (-1)      /* it could not start (said) */
#define SERVE_CANNOT_LISTEN (-2) /* the address cannot be listened on
                                    (said) */
#define SERVE_BAD_ADDRESS (-3) /* o->listen is no [HOST:]PORT (not said:
                                  the command's usage says so) */

/* Serves srv over Streamable HTTP until SIGTERM, SIGINT or SIGHUP,
 * writing finished sessions to k: a session idle for o->idle seconds
 * ends unfinished; at most o->sessions are open at once; past
 * o->connections connections, a request gets 503; a connection whose
 * request has not arrived whole (headers and body) o->timeout seconds
 * after its last answer (or its start) is closed.  0, or one of the
 * outcomes above. */
int serve_http(const mcp_server *srv, serve_sink *k,
               const serve_http_opts *o);

#endif
