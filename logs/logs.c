/* logs: see logs.h. */
#include "logs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <yajl/yajl_parse.h>

#include "inspect.h"
#include "messages.h"
#include "otlp.h"

/* The readers, in the order of enum log_format from LOG_INSPECT: a
 * reader's place here is its slot in the counts (lr_begin). */
static const log_reader *const readers[] = {&inspect_reader, &otlp_reader,
                                            &messages_reader};
#define NREADERS (sizeof readers / sizeof *readers)
_Static_assert(NREADERS == LOG_MESSAGES - LOG_INSPECT + 1,
               "one reader for each format of enum log_format");
_Static_assert(NREADERS <= LOG_READERS_MAX, "a slot for each reader");

int log_format_parse(const char *word, enum log_format *f)
{
    if (strcmp(word, "auto") == 0) {
        *f = LOG_AUTO;
        return 0;
    }
    for (size_t i = 0; i < NREADERS; i++)
        if (strcmp(word, readers[i]->name) == 0) {
            *f = (enum log_format)(LOG_INSPECT + (int)i);
            return 0;
        }
    return -1;
}

/* ---------------------------------------------------------- detection */

/* The keys a document's start shows: its top level's (or, for an array,
 * its first item's), and the text of a top-level "type". */
struct scan {
    int depth, top, in_first, done;
    char keys[16][24];
    int nkeys;
    int want_type;
    char type[16];
};

static int sc_key(void *ctx, const unsigned char *k, size_t len)
{
    struct scan *s = ctx;
    int level = s->top == '[' ? 2 : 1;
    s->want_type = 0;
    if (s->depth == level && s->in_first && s->nkeys < 16 && len < 24) {
        memcpy(s->keys[s->nkeys], k, len);
        s->keys[s->nkeys++][len] = '\0';
        s->want_type = len == 4 && memcmp(k, "type", 4) == 0;
    }
    return 1;
}

static int sc_open(void *ctx)
{
    struct scan *s = ctx;
    s->want_type = 0;
    if (s->depth == 0)
        s->in_first = 1;
    s->depth++;
    return 1;
}

static int sc_open_map(void *ctx)
{
    struct scan *s = ctx;
    if (s->depth == 0)
        s->top = '{';
    return sc_open(ctx);
}

static int sc_open_array(void *ctx)
{
    struct scan *s = ctx;
    if (s->depth == 0)
        s->top = '[';
    return sc_open(ctx);
}

static int sc_close(void *ctx)
{
    struct scan *s = ctx;
    s->depth--;
    /* the first item of a top-level array, or the first document of a
     * line-per-document file, is all that is looked at */
    if ((s->top == '[' && s->depth == 1) || s->depth == 0) {
        s->done = 1;
        return 0;
    }
    return 1;
}

static int sc_string(void *ctx, const unsigned char *str, size_t len)
{
    struct scan *s = ctx;
    if (s->want_type && len < sizeof s->type) {
        memcpy(s->type, str, len);
        s->type[len] = '\0';
    }
    s->want_type = 0;
    return 1;
}

static int sc_scalar(void *ctx)
{
    ((struct scan *)ctx)->want_type = 0;
    return 1;
}

static int sc_bool(void *ctx, int b)
{
    (void)b;
    return sc_scalar(ctx);
}

static int sc_number(void *ctx, const char *t, size_t n)
{
    (void)t;
    (void)n;
    return sc_scalar(ctx);
}

static int has_key(const struct scan *s, const char *k)
{
    for (int i = 0; i < s->nkeys; i++)
        if (strcmp(s->keys[i], k) == 0)
            return 1;
    return 0;
}

enum log_format log_detect(const char *path)
{
    static const yajl_callbacks cb = {sc_scalar, sc_bool, NULL, NULL,
                                      sc_number, sc_string, sc_open_map,
                                      sc_key, sc_close, sc_open_array,
                                      sc_close};
    unsigned char head[65536];
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return LOG_UNKNOWN;
    ssize_t n = read(fd, head, sizeof head);
    close(fd);
    if (n <= 0)
        return LOG_UNKNOWN;
    if (n >= 4 && memcmp(head, "PK\003\004", 4) == 0)
        return LOG_INSPECT;
    size_t at = 0;
    if (n >= 3 && memcmp(head, "\xef\xbb\xbf", 3) == 0)
        at = 3;
    while (at < (size_t)n && strchr(" \t\r\n", head[at]))
        at++;
    if (at == (size_t)n || (head[at] != '{' && head[at] != '['))
        return LOG_UNKNOWN;
    struct scan s;
    memset(&s, 0, sizeof s);
    yajl_handle h = yajl_alloc(&cb, NULL, &s);
    if (!h)
        return LOG_UNKNOWN;
    yajl_parse(h, head + at, (size_t)n - at);
    yajl_free(h);
    if (s.top == '{' && has_key(&s, "type") &&
        (strcmp(s.type, "run") == 0 || strcmp(s.type, "episode") == 0 ||
         strcmp(s.type, "call") == 0 || strcmp(s.type, "end") == 0))
        return LOG_TRANSCRIPT;
    if (s.top == '{' &&
        (has_key(&s, "resourceSpans") || has_key(&s, "batches") ||
         /* Jaeger's API and UI: an envelope, or a trace */
         (has_key(&s, "data") &&
          (has_key(&s, "total") || has_key(&s, "errors") ||
           has_key(&s, "limit"))) ||
         (has_key(&s, "traceID") && has_key(&s, "spans"))))
        return LOG_OTLP;
    if (s.top == '{' && (has_key(&s, "samples") ||
                         (has_key(&s, "eval") && (has_key(&s, "version") ||
                                                  has_key(&s, "status")))))
        return LOG_INSPECT;
    if (has_key(&s, "messages") || has_key(&s, "traj") ||
        has_key(&s, "trajectory") ||
        (s.top == '{' && (has_key(&s, "simulations") ||
                          has_key(&s, "simulation_index")))) /* tau2 */
        return LOG_MESSAGES;
    return LOG_UNKNOWN;
}

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), t = strlen(tail);
    return n >= t && strcmp(s + n - t, tail) == 0;
}

int log_name_matches(const char *name, enum log_format f)
{
    switch (f) {
    case LOG_INSPECT:
        return ends_with(name, ".eval") || ends_with(name, ".json");
    case LOG_AUTO:
        return ends_with(name, ".eval") || ends_with(name, ".json") ||
               ends_with(name, ".jsonl");
    default:
        return ends_with(name, ".json") || ends_with(name, ".jsonl");
    }
}

/* ------------------------------------------------------------ reading */

int logr_read(logr *r, const char *path, const char *shown,
              enum log_format f, err *e)
{
    int is_stdin = strcmp(path, "-") == 0;
    if (f == LOG_AUTO) {
        if (is_stdin)
            return err_set(e, ERR_USAGE, "standard input needs its format "
                                         "named: --from inspect, otlp or "
                                         "messages");
        f = log_detect(path);
        if (f == LOG_TRANSCRIPT || f == LOG_UNKNOWN)
            return err_set(e, ERR_USAGE, "not a log of a known format");
    }
    if (f < LOG_INSPECT || f > LOG_MESSAGES)
        return err_set(e, ERR_USAGE, "not a log of a known format");
    int slot = f - LOG_INSPECT;
    const log_reader *rd = readers[slot];
    lr_begin(r, slot, rd->name, rd->unit, rd->units, shown);
    log_input in = {path, shown, -1};
    if (rd->streams) {
        in.fd = is_stdin ? 0 : open(path, O_RDONLY);
        if (in.fd < 0)
            return err_set(e, ERR_IO, "cannot read %s: %s", shown,
                           strerror(errno));
    }
    int rc = rd->read(r, &in, e);
    if (rd->streams && !is_stdin)
        close(in.fd);
    if (rc >= 0 && lr_failed(r, e)) /* a problem could not be kept */
        rc = -1;
    else if (rc == 0 && lr_stopped(r))
        rc = 1;
    return rc;
}
