/* transport_http: `replay serve --http`, MCP's Streamable HTTP transport
 * on libmicrohttpd (transport_http.h, docs/serve.md).
 *
 * One endpoint, /mcp.  POST carries one JSON-RPC message: a request is
 * answered with its response as application/json, a notification or a
 * response with 202 and no body.  The initialize request, sent without a
 * session, makes one: its response carries the Mcp-Session-Id header,
 * every later message must carry it (400 without it, 404 for a session
 * that is not, or no longer, there).  The query string of the initialize
 * request (?seed=N&arm=ARM) chooses the session's task.  DELETE with the
 * session's id ends it: its episode is written.  GET answers 405: the
 * server sends no message of its own, so it offers no event stream.
 *
 * What a client can hold is bounded.  A request's headers are read and
 * checked (path, method, origin, types, query, session) before any of its
 * body is kept: a request refused by them has its body read and dropped,
 * then its answer; a body is kept only for an initialize or a live
 * session, at most 4 MiB each and HTTP_BODIES_MAX bytes for all at once.
 * Past --connections connections at once, a connection's requests get
 * 503 (and libmicrohttpd closes the ones past a margin more at once,
 * unanswered).  A request must arrive whole within --timeout seconds of
 * its connection's previous answer (or start): the main thread closes the
 * socket of one that does not, slow sender or stalled.
 *
 * Threads: libmicrohttpd answers each connection on a thread of its own;
 * the session table has a lock, each session another, taken for each
 * message, so that one session's calls are answered one at a time, in the
 * order they arrive; the connection list and the count of body bytes kept
 * have a lock of their own.  The main thread waits for SIGTERM or SIGINT
 * (blocked in every thread) and, each second, ends the sessions idle for
 * longer than allowed, as unfinished episodes, and closes the
 * connections past their time. */
#define _DEFAULT_SOURCE /* getentropy */
#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "transcript.h"
#include "transport_http.h"
#include "utf8.h"

#define SESSION_ID_LEN 32 /* hex digits */
/* Request bodies kept at once, at most, for all connections. */
#define HTTP_BODIES_MAX (128u << 20)
/* A request's headers (its request line included), at most: past them,
 * 431.  libmicrohttpd's own buffer for them is HTTP_HEADER_ROOM: headers
 * past that are refused by it, with a 431 of its own making. */
#define HTTP_HEADERS_MAX (32u << 10)
#define HTTP_HEADER_ROOM (256u << 10)
/* Connections libmicrohttpd accepts past --connections, to answer 503 */
#define HTTP_CONNECTIONS_MARGIN 16

struct hsession {
    char id[SESSION_ID_LEN + 1];
    mcp_session *m;
    pthread_mutex_t lock; /* held while a message is handled */
    time_t last;          /* when its last message ended */
    unsigned refs;        /* requests holding it (under the table lock) */
    int gone;             /* out of the table: freed when refs is 0 */
};

/* A connection, from its start to its close (libmicrohttpd's socket
 * context). */
struct conn {
    int fd;
    time_t since; /* its start, or its last answer's end */
    int over;     /* started past --connections: its requests get 503 */
    int cut;      /* closed for taking too long */
    struct conn *prev, *next;
};

struct server {
    const mcp_server *srv;
    serve_sink *sink;
    pthread_mutex_t lock; /* the table */
    struct hsession **table;
    size_t n, cap, max; /* sessions listed; at most max */
    char host[300]; /* what Origin may name besides localhost */
    int loopback;   /* listening on a loopback address: Host is checked */
    pthread_mutex_t conns_lock; /* the connections, and kept */
    struct conn *conns;
    size_t nconns, max_conns;
    size_t kept; /* body bytes kept, all requests */
    unsigned timeout;
};

/* A request's state across libmicrohttpd's calls of the handler. */
struct request {
    buf body;
    size_t full;     /* bytes sent, kept or not */
    size_t reserved; /* of sv->kept, for this body */
    int keep;        /* its body is kept (not read and dropped) */
    /* refused on its headers: answered once its body is read */
    unsigned status;
    int code;
    char why[600];
    const char *allow; /* the Allow header of a 405 */
};

/* Whether "host[:port]" (len bytes at p) names this machine's loopback,
 * or the host the server listens on. */
static int host_allowed(const struct server *sv, const char *p, size_t len)
{
    const char *close = memchr(p, ']', len);
    const char *colon = close ? memchr(close, ':', len - (size_t)(close - p))
                              : memchr(p, ':', len);
    size_t host = colon ? (size_t)(colon - p) : len;
    static const char *const loopback[] = {"localhost", "127.0.0.1",
                                           "[::1]"};
    for (size_t i = 0; i < 3; i++)
        if (host == strlen(loopback[i]) &&
            strncasecmp(p, loopback[i], host) == 0)
            return 1;
    if (host >= 2 && p[0] == '[' && p[host - 1] == ']') {
        p++;
        host -= 2;
    }
    return host == strlen(sv->host) && strncasecmp(p, sv->host, host) == 0;
}

/* scheme://host[:port]: the host must be allowed (host_allowed). */
static int origin_allowed(const struct server *sv, const char *origin)
{
    const char *p = strstr(origin, "://");
    if (!p)
        return 0;
    p += 3;
    return host_allowed(sv, p, strcspn(p, "/"));
}

static enum MHD_Result reply_closing(struct MHD_Connection *c,
                                     unsigned status, const buf *body,
                                     const char *session, int close)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(
        body ? body->len : 0, body && body->len ? body->data : (void *)"",
        MHD_RESPMEM_MUST_COPY);
    if (!r)
        return MHD_NO;
    if (body && body->len)
        MHD_add_response_header(r, "Content-Type", "application/json");
    if (session)
        MHD_add_response_header(r, "Mcp-Session-Id", session);
    if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
        MHD_add_response_header(r, "Allow", "POST, DELETE");
    if (close) /* libmicrohttpd closes the connection once it is sent */
        MHD_add_response_header(r, "Connection", "close");
    enum MHD_Result rc = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return rc;
}

static enum MHD_Result reply(struct MHD_Connection *c, unsigned status,
                             const buf *body, const char *session)
{
    return reply_closing(c, status, body, session, 0);
}

/* An HTTP error with a JSON-RPC error body (id null). */
static enum MHD_Result refuse(struct MHD_Connection *c, unsigned status,
                              int code, const char *message)
{
    buf b = BUF_INIT;
    enum MHD_Result rc =
        mcp_refuse(&b, code, message) == 0
            ? reply_closing(c, status, &b, NULL,
                            status == MHD_HTTP_SERVICE_UNAVAILABLE)
            : MHD_NO;
    buf_free(&b);
    return rc;
}

/* The session of that id, held (refs), or NULL. */
static struct hsession *acquire(struct server *sv, const char *id)
{
    struct hsession *hs = NULL;
    pthread_mutex_lock(&sv->lock);
    for (size_t i = 0; i < sv->n && !hs; i++)
        if (strcmp(sv->table[i]->id, id) == 0)
            hs = sv->table[i];
    if (hs)
        hs->refs++;
    pthread_mutex_unlock(&sv->lock);
    return hs;
}

static void hsession_free(struct hsession *hs)
{
    mcp_session_free(hs->m);
    pthread_mutex_destroy(&hs->lock);
    free(hs);
}

/* Takes hs out of the table (called with the table locked). */
static void unlist(struct server *sv, struct hsession *hs)
{
    for (size_t i = 0; i < sv->n; i++)
        if (sv->table[i] == hs) {
            sv->table[i] = sv->table[--sv->n];
            break;
        }
    hs->gone = 1;
}

static void release(struct server *sv, struct hsession *hs)
{
    pthread_mutex_lock(&sv->lock);
    int last = --hs->refs == 0 && hs->gone;
    hs->last = time(NULL);
    pthread_mutex_unlock(&sv->lock);
    if (last)
        hsession_free(hs);
}

/* A new session, listed and held; NULL out of memory. */
static struct hsession *enlist(struct server *sv, mcp_session *m)
{
    struct hsession *hs = calloc(1, sizeof *hs);
    unsigned char raw[SESSION_ID_LEN / 2];
    if (!hs || getentropy(raw, sizeof raw) < 0 ||
        pthread_mutex_init(&hs->lock, NULL) != 0) {
        free(hs);
        return NULL;
    }
    for (size_t i = 0; i < sizeof raw; i++)
        snprintf(hs->id + 2 * i, 3, "%02x", raw[i]);
    hs->m = m;
    hs->refs = 1;
    hs->last = time(NULL);
    pthread_mutex_lock(&sv->lock);
    if (sv->n == sv->cap) {
        size_t cap = sv->cap ? 2 * sv->cap : 64;
        struct hsession **more = realloc(sv->table, cap * sizeof *more);
        if (!more) {
            pthread_mutex_unlock(&sv->lock);
            pthread_mutex_destroy(&hs->lock);
            free(hs);
            return NULL;
        }
        sv->table = more;
        sv->cap = cap;
    }
    sv->table[sv->n++] = hs;
    pthread_mutex_unlock(&sv->lock);
    return hs;
}

/* Text from a client, for a message: escaped (utf8_shown), and cut. */
static void shown(char *out, size_t size, const char *s)
{
    buf b = BUF_INIT;
    utf8_shown(&b, s ? s : "", s ? strlen(s) : 0, 80);
    snprintf(out, size, "%s", b.data && !b.failed ? b.data : "");
    buf_free(&b);
}

/* A POST whose body is whole: one message. */
static enum MHD_Result post(struct server *sv, struct MHD_Connection *c,
                            struct request *rq, const char *session)
{
    const char *msg = rq->body.data ? rq->body.data : "";
    size_t len = rq->body.len;
    buf out = BUF_INIT;
    mcp_info info;
    enum MHD_Result rc;
    if (!session) {
        if (!mcp_is_initialize(msg, len))
            return refuse(c, MHD_HTTP_BAD_REQUEST, MCP_INVALID_REQUEST,
                          "Bad Request: no Mcp-Session-Id header; a session "
                          "begins with initialize");
        pthread_mutex_lock(&sv->lock);
        int full = sv->n >= sv->max;
        pthread_mutex_unlock(&sv->lock);
        if (full) {
            char text[200];
            snprintf(text, sizeof text,
                     "Service Unavailable: %zu sessions are open, the most "
                     "this server takes (--sessions); end one, or wait",
                     sv->max);
            return refuse(c, MHD_HTTP_SERVICE_UNAVAILABLE,
                          MCP_INVALID_REQUEST, text);
        }
        mcp_session *m = mcp_session_new(sv->srv);
        if (!m)
            return MHD_NO;
        err e;
        err_clear(&e);
        const char *seed = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND,
                                                       "seed"),
                   *arm = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND,
                                                      "arm");
        /* each value on its own, so that the message names the bad one */
        int bad_seed = mcp_session_choose(m, seed, NULL, &e) < 0;
        if (bad_seed || mcp_session_choose(m, NULL, arm, &e) < 0) {
            mcp_session_free(m);
            char text[700], value[100];
            shown(value, sizeof value, bad_seed ? seed : arm);
            snprintf(text, sizeof text, "Invalid params: ?%s=%s: %s",
                     bad_seed ? "seed" : "arm", value, e.msg);
            return refuse(c, MHD_HTTP_BAD_REQUEST, MCP_INVALID_PARAMS, text);
        }
        if (mcp_handle(m, msg, len, &out, &info) < 0) {
            mcp_session_free(m);
            buf_free(&out);
            return MHD_NO;
        }
        struct hsession *hs = NULL;
        if (mcp_session_started(m) && !(hs = enlist(sv, m))) {
            mcp_session_free(m);
            buf_free(&out);
            return MHD_NO;
        }
        rc = reply(c, info.error ? MHD_HTTP_BAD_REQUEST : MHD_HTTP_OK, &out,
                   hs ? hs->id : NULL);
        if (hs)
            release(sv, hs);
        else
            mcp_session_free(m);
        buf_free(&out);
        return rc;
    }
    struct hsession *hs = acquire(sv, session);
    if (!hs)
        return refuse(c, MHD_HTTP_NOT_FOUND, MCP_INVALID_REQUEST,
                      "Not Found: no session of that Mcp-Session-Id: it "
                      "ended, or never began; initialize a new one");
    pthread_mutex_lock(&hs->lock);
    int handled = hs->gone ? 1 : mcp_handle(hs->m, msg, len, &out, &info);
    pthread_mutex_unlock(&hs->lock);
    if (handled == 1)
        rc = refuse(c, MHD_HTTP_NOT_FOUND, MCP_INVALID_REQUEST,
                    "Not Found: the session has ended");
    else if (handled < 0)
        rc = MHD_NO;
    else if (!info.request)
        rc = reply(c, MHD_HTTP_ACCEPTED, NULL, NULL);
    else
        rc = reply(c,
                   info.error == MCP_PARSE_ERROR ||
                           info.error == MCP_INVALID_REQUEST
                       ? MHD_HTTP_BAD_REQUEST
                       : MHD_HTTP_OK,
                   &out, NULL);
    release(sv, hs);
    buf_free(&out);
    return rc;
}

/* Sets rq's refusal, answered once its body is read: status, JSON-RPC code
 * and message. */
static void refuse_later(struct request *rq, unsigned status, int code,
                         const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void refuse_later(struct request *rq, unsigned status, int code,
                         const char *fmt, ...)
{
    rq->status = status;
    rq->code = code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(rq->why, sizeof rq->why, fmt, ap);
    va_end(ap);
}

/* Takes n more bytes of the bodies' budget for rq: 0, or -1 when it is
 * spent. */
static int reserve(struct server *sv, struct request *rq, size_t n)
{
    pthread_mutex_lock(&sv->conns_lock);
    int ok = n <= HTTP_BODIES_MAX - sv->kept;
    if (ok) {
        sv->kept += n;
        rq->reserved += n;
    }
    pthread_mutex_unlock(&sv->conns_lock);
    return ok ? 0 : -1;
}

/* Drops what rq keeps of its body, and gives its room back. */
static void drop_body(struct server *sv, struct request *rq)
{
    buf_free(&rq->body);
    rq->keep = 0;
    pthread_mutex_lock(&sv->conns_lock);
    sv->kept -= rq->reserved;
    pthread_mutex_unlock(&sv->conns_lock);
    rq->reserved = 0;
}

static void refuse_busy(struct request *rq)
{
    refuse_later(rq, MHD_HTTP_SERVICE_UNAVAILABLE, MCP_INVALID_REQUEST,
                 "Service Unavailable: the server holds %u MiB of request "
                 "bodies, the most it keeps at once; retry in a moment",
                 HTTP_BODIES_MAX >> 20);
}

/* The query string's keys: seed and arm, each at most once. */
struct query {
    unsigned seeds, arms;
    char bad[400];
};

static enum MHD_Result query_key(void *cls, enum MHD_ValueKind kind,
                                 const char *key, const char *value)
{
    struct query *q = cls;
    (void)kind;
    int ours = strcmp(key, "seed") == 0 || strcmp(key, "arm") == 0;
    if (ours && !value && !q->bad[0]) {
        snprintf(q->bad, sizeof q->bad, "?%s has no value: give ?%s=VALUE",
                 key, key);
    } else if (strcmp(key, "seed") == 0) {
        q->seeds++;
    } else if (strcmp(key, "arm") == 0) {
        q->arms++;
    } else if (!q->bad[0]) {
        char k[100], v[100];
        shown(k, sizeof k, key);
        shown(v, sizeof v, value);
        snprintf(q->bad, sizeof q->bad,
                 "unknown query key \"%s\" (in ?%s%s%s); the keys are seed "
                 "and arm",
                 k, k, value ? "=" : "", v);
    }
    return MHD_YES;
}

/* Whether an Accept header takes application/json: a media range of
 * application/json, of any application type, or of anything, with a q
 * above 0. */
static int accepts_json(const char *accept)
{
    for (const char *p = accept; *p;) {
        size_t n = strcspn(p, ",");
        const char *end = p + n, *semi = memchr(p, ';', n);
        const char *type_end = semi ? semi : end;
        while (p < type_end && (*p == ' ' || *p == '\t'))
            p++;
        size_t tl = (size_t)(type_end - p);
        while (tl && (p[tl - 1] == ' ' || p[tl - 1] == '\t'))
            tl--;
        static const char *const ok[] = {"application/json",
                                         "application/*", "*/*"};
        int match = 0;
        for (size_t i = 0; i < 3; i++)
            match |= tl == strlen(ok[i]) && strncasecmp(p, ok[i], tl) == 0;
        /* q=0 (0, 0.0, 0.000) refuses the range: RFC 9110, 12.4.2 */
        for (const char *q = semi; match && q && q < end;) {
            q++;
            while (q < end && (*q == ' ' || *q == '\t'))
                q++;
            if (end - q >= 2 && (q[0] == 'q' || q[0] == 'Q') && q[1] == '=') {
                const char *d = q + 2;
                int zero = d < end && *d == '0';
                for (d++; zero && d < end && *d != ';' && *d != ' ' &&
                          *d != '\t';
                     d++)
                    zero = *d == '.' || *d == '0';
                if (zero)
                    match = 0;
            }
            q = memchr(q, ';', (size_t)(end - q));
        }
        if (match)
            return 1;
        p = *end ? end + 1 : end;
    }
    return 0;
}

/* The connection's record, or NULL when it has none. */
static struct conn *conn_of(struct MHD_Connection *c)
{
    const union MHD_ConnectionInfo *i =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return i ? i->socket_context : NULL;
}

/* What a request's headers say, before any of its body is read: rq's
 * refusal, or that its body is kept (a POST that may be answered). */
static void check_headers(struct server *sv, struct MHD_Connection *c,
                          const char *url, const char *method,
                          struct request *rq)
{
    struct conn *cn = conn_of(c);
    if (cn && cn->over)
        return refuse_later(rq, MHD_HTTP_SERVICE_UNAVAILABLE,
                            MCP_INVALID_REQUEST,
                            "Service Unavailable: %zu connections are open, "
                            "the most this server serves (--connections); "
                            "retry in a moment",
                            sv->max_conns);
    const union MHD_ConnectionInfo *hi =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    if (hi && hi->header_size > HTTP_HEADERS_MAX)
        return refuse_later(rq, MHD_HTTP_REQUEST_HEADER_FIELDS_TOO_LARGE,
                            MCP_INVALID_REQUEST,
                            "Request Header Fields Too Large: %zu bytes of "
                            "headers, more than the %u KiB this server "
                            "reads",
                            hi->header_size, HTTP_HEADERS_MAX >> 10);
    if (strcmp(url, "/mcp") != 0)
        return refuse_later(rq, MHD_HTTP_NOT_FOUND, MCP_INVALID_REQUEST,
                            "Not Found: the MCP endpoint is /mcp");
    /* DNS rebinding: a page elsewhere names this server by a host of its
     * own; its Origin, and the Host it sends, are not this machine's */
    const char *origin =
        MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Origin");
    const char *host = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Host");
    if (origin && !origin_allowed(sv, origin))
        return refuse_later(rq, MHD_HTTP_FORBIDDEN, MCP_INVALID_REQUEST,
                            "Forbidden: the Origin is not this machine's");
    if (host && sv->loopback && !host_allowed(sv, host, strlen(host)))
        return refuse_later(rq, MHD_HTTP_FORBIDDEN, MCP_INVALID_REQUEST,
                            "Forbidden: the Host is not this machine's");
    const char *pv =
        MHD_lookup_connection_value(c, MHD_HEADER_KIND, "MCP-Protocol-Version");
    /* 2025-03-26 is taken too: what this server sends is the same in it */
    if (pv && strcmp(pv, "2025-11-25") != 0 && strcmp(pv, "2025-06-18") != 0 &&
        strcmp(pv, "2025-03-26") != 0)
        return refuse_later(rq, MHD_HTTP_BAD_REQUEST, MCP_INVALID_REQUEST,
                            "Bad Request: unsupported MCP-Protocol-Version; "
                            "this server speaks 2025-11-25 and 2025-06-18");
    struct query q = {0, 0, ""};
    MHD_get_connection_values(c, MHD_GET_ARGUMENT_KIND, query_key, &q);
    if (q.bad[0])
        return refuse_later(rq, MHD_HTTP_BAD_REQUEST, MCP_INVALID_PARAMS,
                            "Invalid params: %s", q.bad);
    if (q.seeds > 1 || q.arms > 1)
        return refuse_later(rq, MHD_HTTP_BAD_REQUEST, MCP_INVALID_PARAMS,
                            "Invalid params: the query gives \"%s\" %u "
                            "times; give it once",
                            q.seeds > 1 ? "seed" : "arm",
                            q.seeds > 1 ? q.seeds : q.arms);
    if (strcmp(method, MHD_HTTP_METHOD_DELETE) == 0)
        return; /* its body, if any, is read and dropped */
    if (strcmp(method, MHD_HTTP_METHOD_POST) != 0)
        return refuse_later(rq, MHD_HTTP_METHOD_NOT_ALLOWED, 0, "-");
    const char *type =
        MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Type");
    if (!type || strncasecmp(type, "application/json", 16) != 0 ||
        (type[16] && type[16] != ';' && type[16] != ' '))
        return refuse_later(rq, MHD_HTTP_UNSUPPORTED_MEDIA_TYPE,
                            MCP_INVALID_REQUEST,
                            "Unsupported Media Type: a message is "
                            "application/json");
    const char *accept =
        MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Accept");
    if (accept && !accepts_json(accept))
        return refuse_later(rq, MHD_HTTP_NOT_ACCEPTABLE, MCP_INVALID_REQUEST,
                            "Not Acceptable: responses are application/json");
    const char *session =
        MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Mcp-Session-Id");
    if (session) {
        struct hsession *hs = acquire(sv, session);
        if (!hs)
            return refuse_later(rq, MHD_HTTP_NOT_FOUND, MCP_INVALID_REQUEST,
                                "Not Found: no session of that "
                                "Mcp-Session-Id: it ended, or never began; "
                                "initialize a new one");
        release(sv, hs);
    }
    /* a message too long is read and dropped, and refused (413) */
    const char *length =
        MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Length");
    unsigned long long declared = 0;
    if (length) {
        char *end;
        errno = 0;
        declared = strtoull(length, &end, 10);
        if (*end || errno)
            declared = 0; /* libmicrohttpd refused it already */
    }
    if (declared > TRANSCRIPT_LINE_LIMIT)
        return;
    if (declared && reserve(sv, rq, (size_t)declared) < 0)
        return refuse_busy(rq);
    rq->keep = 1;
}

/* DELETE: the client ends its session. */
static enum MHD_Result delete(struct server *sv, struct MHD_Connection *c,
                              const char *session)
{
    if (!session)
        return refuse(c, MHD_HTTP_BAD_REQUEST, MCP_INVALID_REQUEST,
                      "Bad Request: no Mcp-Session-Id header");
    struct hsession *hs = acquire(sv, session);
    if (!hs)
        return refuse(c, MHD_HTTP_NOT_FOUND, MCP_INVALID_REQUEST,
                      "Not Found: no session of that Mcp-Session-Id");
    pthread_mutex_lock(&hs->lock);
    pthread_mutex_lock(&sv->lock);
    int mine = !hs->gone;
    if (mine)
        unlist(sv, hs);
    pthread_mutex_unlock(&sv->lock);
    int written = mine ? serve_write(sv->sink, hs->m, "done", NULL) : 0;
    pthread_mutex_unlock(&hs->lock);
    release(sv, hs);
    if (written < 0)
        return refuse(c, MHD_HTTP_INTERNAL_SERVER_ERROR, MCP_INTERNAL_ERROR,
                      "Internal Server Error: the session has ended, but its "
                      "episode could not be written (the server says why on "
                      "its standard error)");
    return reply(c, MHD_HTTP_OK, NULL, NULL);
}

static enum MHD_Result handler(void *cls, struct MHD_Connection *c,
                               const char *url, const char *method,
                               const char *version, const char *upload,
                               size_t *upload_size, void **state)
{
    struct server *sv = cls;
    (void)version;
    struct request *rq = *state;
    if (!rq) { /* the headers: checked before any of the body is read */
        if (!(rq = calloc(1, sizeof *rq)))
            return MHD_NO;
        *state = rq;
        check_headers(sv, c, url, method, rq);
        return MHD_YES;
    }
    if (*upload_size) {
        size_t n = *upload_size;
        *upload_size = 0;
        if (rq->keep && rq->full + n > TRANSCRIPT_LINE_LIMIT)
            drop_body(sv, rq); /* too long: read on, refused at its end */
        if (rq->keep && rq->body.len + n > rq->reserved &&
            reserve(sv, rq, rq->body.len + n - rq->reserved) < 0) {
            drop_body(sv, rq);
            refuse_busy(rq);
        }
        if (rq->keep && buf_append(&rq->body, upload, n) < 0)
            return MHD_NO;
        rq->full += n;
        return MHD_YES;
    }
    /* the whole request is in: answered */
    if (rq->status == MHD_HTTP_METHOD_NOT_ALLOWED)
        return reply(c, MHD_HTTP_METHOD_NOT_ALLOWED, NULL, NULL);
    if (rq->status)
        return refuse(c, rq->status, rq->code, rq->why);
    const char *session =
        MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Mcp-Session-Id");
    if (strcmp(method, MHD_HTTP_METHOD_DELETE) == 0)
        return delete(sv, c, session);
    if (rq->full > TRANSCRIPT_LINE_LIMIT) {
        char msg[160];
        snprintf(msg, sizeof msg,
                 "Invalid Request: a message of %zu bytes is longer than the "
                 "limit of %u MiB",
                 rq->full, TRANSCRIPT_LINE_LIMIT >> 20);
        return refuse(c, MHD_HTTP_CONTENT_TOO_LARGE, MCP_INVALID_REQUEST,
                      msg);
    }
    return post(sv, c, rq, session);
}

static void completed(void *cls, struct MHD_Connection *c, void **state,
                      enum MHD_RequestTerminationCode why)
{
    struct server *sv = cls;
    (void)why;
    struct request *rq = *state;
    if (rq) {
        drop_body(sv, rq);
        free(rq);
        *state = NULL;
    }
    /* the connection's next request has its own time */
    struct conn *cn = conn_of(c);
    if (cn) {
        pthread_mutex_lock(&sv->conns_lock);
        cn->since = time(NULL);
        pthread_mutex_unlock(&sv->conns_lock);
    }
}

/* A connection begins or ends: it is listed, so that one past its time
 * can be closed, and counted. */
static void notify_connection(void *cls, struct MHD_Connection *c,
                              void **socket_context,
                              enum MHD_ConnectionNotificationCode toe)
{
    struct server *sv = cls;
    if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
        struct conn *cn = calloc(1, sizeof *cn);
        const union MHD_ConnectionInfo *fi =
            MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
        *socket_context = cn;
        if (!cn)
            return; /* untimed: libmicrohttpd's idle timeout still holds */
        cn->fd = fi ? fi->connect_fd : -1;
        cn->since = time(NULL);
        pthread_mutex_lock(&sv->conns_lock);
        cn->over = sv->nconns >= sv->max_conns;
        cn->next = sv->conns;
        if (sv->conns)
            sv->conns->prev = cn;
        sv->conns = cn;
        sv->nconns++;
        pthread_mutex_unlock(&sv->conns_lock);
        return;
    }
    struct conn *cn = *socket_context;
    if (!cn)
        return;
    /* before libmicrohttpd closes the socket: after this, its number is
     * never shut down by cut_slow, whatever it is given to next */
    pthread_mutex_lock(&sv->conns_lock);
    if (cn->prev)
        cn->prev->next = cn->next;
    else
        sv->conns = cn->next;
    if (cn->next)
        cn->next->prev = cn->prev;
    sv->nconns--;
    pthread_mutex_unlock(&sv->conns_lock);
    free(cn);
    *socket_context = NULL;
}

/* Closes the connections whose request has not arrived whole (or whose
 * answer has not been taken) within the timeout: shutting the socket down
 * ends libmicrohttpd's wait on it, and it closes the connection. */
static void cut_slow(struct server *sv)
{
    time_t now = time(NULL);
    pthread_mutex_lock(&sv->conns_lock);
    for (struct conn *cn = sv->conns; cn; cn = cn->next)
        if (!cn->cut && cn->fd >= 0 && now - cn->since > (time_t)sv->timeout) {
            shutdown(cn->fd, SHUT_RDWR);
            cn->cut = 1;
        }
    pthread_mutex_unlock(&sv->conns_lock);
}

/* Ends the sessions idle for more than idle seconds (all of them when
 * idle is 0, at the end), writing each with status (NULL: unfinished). */
static void sweep(struct server *sv, unsigned idle, const char *status,
                  const char *why)
{
    time_t now = time(NULL);
    for (;;) {
        struct hsession *hs = NULL;
        pthread_mutex_lock(&sv->lock);
        for (size_t i = 0; i < sv->n && !hs; i++)
            if (sv->table[i]->refs == 0 &&
                (idle == 0 || now - sv->table[i]->last > (time_t)idle))
                hs = sv->table[i];
        if (hs)
            unlist(sv, hs);
        pthread_mutex_unlock(&sv->lock);
        if (!hs)
            return;
        serve_write(sv->sink, hs->m, status, why);
        hsession_free(hs);
    }
}

/* Reads "HOST:PORT" ("[::1]:8080" for IPv6; "PORT" or ":PORT" for
 * 127.0.0.1) into an address. */
static int listen_address(const char *text, struct sockaddr_storage *ss,
                          char *host, size_t host_size)
{
    const char *colon = strrchr(text, ':');
    if (!colon && *text >= '0' && *text <= '9') {
        char with[40];
        if (strlen(text) > 5)
            return -1;
        snprintf(with, sizeof with, "127.0.0.1:%s", text);
        return listen_address(with, ss, host, host_size);
    }
    if (colon == text && colon[1]) {
        char with[40];
        if (strlen(text) > 6)
            return -1;
        snprintf(with, sizeof with, "127.0.0.1%s", text);
        return listen_address(with, ss, host, host_size);
    }
    if (!colon || !colon[1])
        return -1;
    size_t hl = (size_t)(colon - text);
    const char *h = text;
    if (*h == '[' && hl >= 2 && h[hl - 1] == ']') {
        h++;
        hl -= 2;
    }
    if (hl + 1 > host_size)
        return -1;
    memcpy(host, h, hl);
    host[hl] = '\0';
    char *end;
    errno = 0;
    unsigned long port = strtoul(colon + 1, &end, 10);
    if (*end || errno || port > 65535 || colon[1] < '0' || colon[1] > '9')
        return -1;
    struct addrinfo hints = {.ai_family = AF_UNSPEC,
                             .ai_socktype = SOCK_STREAM,
                             .ai_flags = AI_PASSIVE},
                    *res = NULL;
    if (getaddrinfo(host, NULL, &hints, &res) != 0 || !res)
        return -1;
    memset(ss, 0, sizeof *ss);
    memcpy(ss, res->ai_addr, res->ai_addrlen);
    freeaddrinfo(res);
    if (ss->ss_family == AF_INET)
        ((struct sockaddr_in *)ss)->sin_port = htons((uint16_t)port);
    else
        ((struct sockaddr_in6 *)ss)->sin6_port = htons((uint16_t)port);
    return 0;
}

int serve_http(const mcp_server *srv, serve_sink *k,
               const serve_http_opts *o)
{
    const char *listen = o->listen;
    struct server sv = {.srv = srv,
                        .sink = k,
                        .max = o->sessions,
                        .max_conns = o->connections,
                        .timeout = o->timeout};
    struct sockaddr_storage ss;
    if (listen_address(listen, &ss, sv.host, sizeof sv.host) < 0)
        return SERVE_BAD_ADDRESS;
    sv.loopback =
        ss.ss_family == AF_INET
            ? (ntohl(((struct sockaddr_in *)&ss)->sin_addr.s_addr) >> 24) == 127
            : IN6_IS_ADDR_LOOPBACK(&((struct sockaddr_in6 *)&ss)->sin6_addr);
    if (pthread_mutex_init(&sv.lock, NULL) != 0) {
        k->say("replay serve: cannot make a lock");
        return SERVE_FAILED;
    }
    if (pthread_mutex_init(&sv.conns_lock, NULL) != 0) {
        k->say("replay serve: cannot make a lock");
        pthread_mutex_destroy(&sv.lock);
        return SERVE_FAILED;
    }
    /* signals go to the main thread alone, which waits for them */
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    signal(SIGPIPE, SIG_IGN);
    /* poll(), not select(): no limit on the descriptors' numbers */
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD |
                     MHD_USE_THREAD_PER_CONNECTION | MHD_USE_POLL |
                     (ss.ss_family == AF_INET6 ? MHD_USE_IPv6 : 0);
    struct MHD_Daemon *d = MHD_start_daemon(
        flags, 0, NULL, NULL, handler, &sv, MHD_OPTION_SOCK_ADDR,
        (struct sockaddr *)&ss, MHD_OPTION_NOTIFY_COMPLETED, completed, &sv,
        MHD_OPTION_NOTIFY_CONNECTION, notify_connection, &sv,
        MHD_OPTION_CONNECTION_TIMEOUT, o->timeout,
        MHD_OPTION_CONNECTION_LIMIT,
        (unsigned)(o->connections + HTTP_CONNECTIONS_MARGIN),
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)HTTP_HEADER_ROOM,
        MHD_OPTION_END);
    if (!d) {
        k->say("replay serve: cannot listen on %s: %s", listen,
            errno ? strerror(errno) : "the address is taken or not this "
                                      "machine's");
        pthread_mutex_destroy(&sv.conns_lock);
        pthread_mutex_destroy(&sv.lock);
        return SERVE_CANNOT_LISTEN;
    }
    const union MHD_DaemonInfo *info =
        MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    unsigned port = info ? info->port : 0;
    int v6 = ss.ss_family == AF_INET6;
    char where[320];
    snprintf(where, sizeof where, "%s%s%s", v6 ? "[" : "", sv.host,
             v6 ? "]" : "");
    k->say("replay serve: listening on http://%s:%u/mcp", where, port);
    int sig = 0;
    while (!sig) {
        struct timespec tick = {1, 0};
        int got = sigtimedwait(&stop, NULL, &tick);
        if (got > 0) {
            sig = got;
        } else {
            sweep(&sv, o->idle, NULL, "idle too long: the client left");
            cut_slow(&sv);
        }
    }
    MHD_stop_daemon(d); /* every request answered, every thread gone */
    sweep(&sv, 0, "stopped", NULL);
    k->say("replay serve: stopped by %s", sig == SIGINT   ? "SIGINT"
                                       : sig == SIGHUP ? "SIGHUP"
                                                       : "SIGTERM");
    free(sv.table);
    pthread_mutex_destroy(&sv.conns_lock);
    pthread_mutex_destroy(&sv.lock);
    return 0;
}
