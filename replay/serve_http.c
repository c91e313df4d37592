/* serve_http: `replay serve --http`, MCP's Streamable HTTP transport on
 * libmicrohttpd (docs/serve.md).
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
 * Threads: libmicrohttpd answers each connection on a thread of its own;
 * the session table has a lock, each session another, taken for each
 * message, so that one session's calls are answered one at a time, in the
 * order they arrive.  The main thread waits for SIGTERM or SIGINT (blocked
 * in every thread) and, each second, ends the sessions idle for longer
 * than allowed, as unfinished episodes. */
#define _DEFAULT_SOURCE /* getentropy */
#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "cmds.h"
#include "serve.h"

#define SESSION_ID_LEN 32 /* hex digits */

struct hsession {
    char id[SESSION_ID_LEN + 1];
    mcp_session *m;
    pthread_mutex_t lock; /* held while a message is handled */
    time_t last;          /* when its last message ended */
    unsigned refs;        /* requests holding it (under the table lock) */
    int gone;             /* out of the table: freed when refs is 0 */
};

struct server {
    const mcp_server *srv;
    serve_sink *sink;
    pthread_mutex_t lock; /* the table */
    struct hsession **table;
    size_t n, cap, max; /* sessions listed; at most max */
    char host[300]; /* what Origin may name besides localhost */
    int loopback;   /* listening on a loopback address: Host is checked */
};

/* A request's state across libmicrohttpd's calls of the handler. */
struct request {
    buf body;
    size_t full; /* bytes sent, kept or not */
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

static enum MHD_Result reply(struct MHD_Connection *c, unsigned status,
                             const buf *body, const char *session)
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
    enum MHD_Result rc = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return rc;
}

/* An HTTP error with a JSON-RPC error body (id null). */
static enum MHD_Result refuse(struct MHD_Connection *c, unsigned status,
                              int code, const char *message)
{
    buf b = BUF_INIT;
    enum MHD_Result rc = mcp_refuse(&b, code, message) == 0
                             ? reply(c, status, &b, NULL)
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

/* A POST whose body is whole: one message. */
static enum MHD_Result post(struct server *sv, struct MHD_Connection *c,
                            struct request *rq, const char *session)
{
    if (rq->full > TRANSCRIPT_LINE_LIMIT) {
        char msg[160];
        snprintf(msg, sizeof msg,
                 "Invalid Request: a message of %zu bytes is longer than the "
                 "limit of %u MiB",
                 rq->full, TRANSCRIPT_LINE_LIMIT >> 20);
        return refuse(c, MHD_HTTP_CONTENT_TOO_LARGE, MCP_INVALID_REQUEST,
                      msg);
    }
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
        if (mcp_session_choose(m, seed, arm, &e) < 0) {
            mcp_session_free(m);
            char text[600];
            snprintf(text, sizeof text, "Invalid params: ?seed=&arm=: %s",
                     e.msg);
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
    if (mine)
        serve_write(sv->sink, hs->m, "done", NULL);
    pthread_mutex_unlock(&hs->lock);
    release(sv, hs);
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
    if (!rq) {
        if (!(rq = calloc(1, sizeof *rq)))
            return MHD_NO;
        *state = rq;
        return MHD_YES; /* the body, if any, comes in the next calls */
    }
    int is_post = strcmp(method, MHD_HTTP_METHOD_POST) == 0;
    if (is_post && *upload_size) {
        size_t n = *upload_size;
        if (rq->full + n <= TRANSCRIPT_LINE_LIMIT &&
            buf_append(&rq->body, upload, n) < 0)
            return MHD_NO;
        rq->full += n;
        *upload_size = 0;
        return MHD_YES;
    }
    if (strcmp(url, "/mcp") != 0)
        return refuse(c, MHD_HTTP_NOT_FOUND, MCP_INVALID_REQUEST,
                      "Not Found: the MCP endpoint is /mcp");
    /* DNS rebinding: a page elsewhere names this server by a host of its
     * own; its Origin, and the Host it sends, are not this machine's */
    const char *origin =
        MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Origin");
    const char *host = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Host");
    if ((origin && !origin_allowed(sv, origin)) ||
        (host && sv->loopback && !host_allowed(sv, host, strlen(host))))
        return refuse(c, MHD_HTTP_FORBIDDEN, MCP_INVALID_REQUEST,
                      origin && !origin_allowed(sv, origin)
                          ? "Forbidden: the Origin is not this machine's"
                          : "Forbidden: the Host is not this machine's");
    const char *session =
        MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Mcp-Session-Id");
    const char *pv =
        MHD_lookup_connection_value(c, MHD_HEADER_KIND, "MCP-Protocol-Version");
    /* 2025-03-26 is taken too: what this server sends is the same in it */
    if (pv && strcmp(pv, "2025-11-25") != 0 && strcmp(pv, "2025-06-18") != 0 &&
        strcmp(pv, "2025-03-26") != 0)
        return refuse(c, MHD_HTTP_BAD_REQUEST, MCP_INVALID_REQUEST,
                      "Bad Request: unsupported MCP-Protocol-Version; this "
                      "server speaks 2025-11-25 and 2025-06-18");
    if (strcmp(method, MHD_HTTP_METHOD_DELETE) == 0)
        return delete(sv, c, session);
    if (!is_post)
        return reply(c, MHD_HTTP_METHOD_NOT_ALLOWED, NULL, NULL);
    const char *type =
        MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Type");
    if (!type || strncasecmp(type, "application/json", 16) != 0 ||
        (type[16] && type[16] != ';' && type[16] != ' '))
        return refuse(c, MHD_HTTP_UNSUPPORTED_MEDIA_TYPE, MCP_INVALID_REQUEST,
                      "Unsupported Media Type: a message is "
                      "application/json");
    const char *accept =
        MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Accept");
    if (accept && !strstr(accept, "application/json") &&
        !strstr(accept, "*/*") && !strstr(accept, "application/*"))
        return refuse(c, MHD_HTTP_NOT_ACCEPTABLE, MCP_INVALID_REQUEST,
                      "Not Acceptable: responses are application/json");
    return post(sv, c, rq, session);
}

static void completed(void *cls, struct MHD_Connection *c, void **state,
                      enum MHD_RequestTerminationCode why)
{
    (void)cls;
    (void)c;
    (void)why;
    struct request *rq = *state;
    if (rq) {
        buf_free(&rq->body);
        free(rq);
        *state = NULL;
    }
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

int serve_http(const mcp_server *srv, serve_sink *k, const char *listen,
               unsigned idle, size_t max_sessions)
{
    struct server sv = {.srv = srv, .sink = k, .max = max_sessions};
    struct sockaddr_storage ss;
    if (listen_address(listen, &ss, sv.host, sizeof sv.host) < 0)
        return usage_error("serve: --http takes [HOST:]PORT (8080 for "
                           "127.0.0.1:8080, [::1]:8080, 0 for any free port), "
                           "not '%s'",
                           listen);
    sv.loopback =
        ss.ss_family == AF_INET
            ? (ntohl(((struct sockaddr_in *)&ss)->sin_addr.s_addr) >> 24) == 127
            : IN6_IS_ADDR_LOOPBACK(&((struct sockaddr_in6 *)&ss)->sin6_addr);
    if (pthread_mutex_init(&sv.lock, NULL) != 0) {
        say("replay serve: cannot make a lock");
        return EXIT_REFUSED;
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
        (struct sockaddr *)&ss, MHD_OPTION_NOTIFY_COMPLETED, completed, NULL,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)120, MHD_OPTION_END);
    if (!d) {
        say("replay serve: cannot listen on %s: %s", listen,
            errno ? strerror(errno) : "the address is taken or not this "
                                      "machine's");
        pthread_mutex_destroy(&sv.lock);
        return EXIT_CANNOT;
    }
    const union MHD_DaemonInfo *info =
        MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    unsigned port = info ? info->port : 0;
    int v6 = ss.ss_family == AF_INET6;
    char shown[320];
    snprintf(shown, sizeof shown, "%s%s%s", v6 ? "[" : "", sv.host,
             v6 ? "]" : "");
    say("replay serve: listening on http://%s:%u/mcp", shown, port);
    int sig = 0;
    while (!sig) {
        struct timespec tick = {1, 0};
        int got = sigtimedwait(&stop, NULL, &tick);
        if (got > 0)
            sig = got;
        else
            sweep(&sv, idle, NULL, "idle too long: the client left");
    }
    MHD_stop_daemon(d); /* every request answered, every thread gone */
    sweep(&sv, 0, "stopped", NULL);
    say("replay serve: stopped by %s", sig == SIGINT   ? "SIGINT"
                                       : sig == SIGHUP ? "SIGHUP"
                                                       : "SIGTERM");
    free(sv.table);
    pthread_mutex_destroy(&sv.lock);
    return 0;
}
