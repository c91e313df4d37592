/* records: see records.h. */
#include "records.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "json_load.h"
#include "jstream.h"

struct pieces {
    logr *r;
    lr_record_fn fn;
    void *ctx;
    int rc;
};

static int on_piece(void *ctx, const char *key, size_t index,
                    const value *v, err *e)
{
    struct pieces *p = ctx;
    char why[160];
    snprintf(why, sizeof why, "a record whose value tree is larger than "
                              "the limit of %u MiB a record; it is skipped",
             LOG_RECORD_MAX >> 20);
    p->rc = p->fn(p->ctx, NULL, key, index, v, v ? NULL : why, e);
    return p->rc ? -1 : 0;
}

/* The rest of the input as one document, its first len bytes in b. */
static int read_document(logr *r, int fd, buf *b,
                         const char *const *streamed, lr_record_fn fn,
                         void *ctx, err *e)
{
    struct pieces p = {r, fn, ctx, 0};
    jstream *s = jstream_new(streamed, LOG_RECORD_MAX, on_piece, &p);
    if (!s)
        return err_set(e, ERR_NOMEM, "out of memory");
    int rc = jstream_feed(s, b->data, b->len, e);
    char chunk[65536];
    ssize_t n;
    while (rc == 0 && (n = read(fd, chunk, sizeof chunk)) > 0)
        rc = jstream_feed(s, chunk, (size_t)n, e);
    if (rc == 0 && n < 0)
        rc = err_set(e, ERR_IO, "cannot read %s: %s", lr_file(r),
                     strerror(errno));
    else if (rc == 0)
        rc = jstream_finish(s, e);
    jstream_free(s);
    if (rc < 0 && p.rc) /* the record's own outcome */
        return p.rc;
    if (rc < 0 && e->code != ERR_NOMEM && e->code != ERR_IO) {
        /* the document breaks off, or a piece is too large: what came
         * before it was read */
        char why[600];
        snprintf(why, sizeof why, "%s", e->msg);
        err_clear(e);
        return lr_problem(r, NULL, NULL,
                          "%s; the records before it were read, the rest "
                          "is not", why);
    }
    return rc;
}

/* What the first line that is not blank says of the input, read as its
 * bytes arrive: one JSON object and nothing more on it (JSON Lines), or
 * the start of a document.  Only the structure is followed (strings,
 * their escapes, brackets), never the whole line parsed, so that a line
 * of any length is placed in one pass: whether the object is valid JSON
 * is for its own reading, as a record. */
struct first_line {
    size_t at; /* the next byte of the buffer to look at */
    int begun; /* its first byte that is not blank was seen */
    int depth, in_string, escaped, closed;
};

/* Looks at p[fl->at, end), where end is the line's end when ended (its
 * newline, or the input's end), else as far as it has come: 1 JSON
 * Lines, 0 a document, -1 not known yet (or, when ended, a blank line:
 * the next line says). */
static int first_line_says(struct first_line *fl, const char *p,
                           size_t end, int ended)
{
    for (; fl->at < end; fl->at++) {
        char c = p[fl->at];
        int blank = c == ' ' || c == '\t' || c == '\r';
        if (!fl->begun || fl->closed) {
            if (blank)
                continue;
            if (fl->closed || c != '{')
                return 0; /* not an object, or more after it */
            fl->begun = 1;
            fl->depth = 1;
        } else if (fl->in_string) {
            if (fl->escaped)
                fl->escaped = 0;
            else if (c == '\\')
                fl->escaped = 1;
            else if (c == '"')
                fl->in_string = 0;
        } else if (c == '"') {
            fl->in_string = 1;
        } else if (c == '{' || c == '[') {
            fl->depth++;
        } else if ((c == '}' || c == ']') && --fl->depth == 0) {
            fl->closed = 1;
        }
    }
    if (!ended || !fl->begun)
        return -1;
    return fl->closed; /* a line that ends inside its object: a document */
}

/* ------------------------------------------- lines parsed a line ahead */

/* A line of JSON Lines, copied, and what json_load made of it. */
struct job {
    buf text;
    arena *a;
    value *v;
    int parsed;
    err le;
    unsigned long lineno;
};

/* The lines of JSON Lines are parsed by a thread of their own, a line
 * ahead: while the reader takes line k, line k + 1 is parsed.  Two jobs
 * take turns; the thread has at most one, and the reader takes each
 * line's outcome in the order of the lines.  Without the thread (it
 * could not be made), each line is parsed when it is taken. */
struct ahead {
    const char *lazy;
    struct job jobs[2];
    pthread_t thread;
    int threaded;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    struct job *todo; /* given to the thread, not yet parsed */
    int quit;
};

static void parse_job(struct job *j, const char *lazy)
{
    j->v = NULL;
    arena_reset(j->a);
    j->parsed = (lazy ? json_load_lazy(&j->v, j->a, j->text.data, j->text.len,
                                       lazy, &j->le)
                      : json_load(&j->v, j->a, j->text.data, j->text.len,
                                  &j->le)) == 0;
}

static void *parser(void *arg)
{
    struct ahead *h = arg;
    pthread_mutex_lock(&h->mu);
    for (;;) {
        while (!h->todo && !h->quit)
            pthread_cond_wait(&h->cv, &h->mu);
        if (!h->todo)
            break;
        struct job *j = h->todo;
        pthread_mutex_unlock(&h->mu);
        parse_job(j, h->lazy);
        pthread_mutex_lock(&h->mu);
        h->todo = NULL;
        pthread_cond_broadcast(&h->cv);
    }
    pthread_mutex_unlock(&h->mu);
    return NULL;
}

/* 0, or -1 out of memory. */
static int ahead_start(struct ahead *h, const char *lazy)
{
    memset(h, 0, sizeof *h);
    h->lazy = lazy;
    for (int i = 0; i < 2; i++) {
        if (!(h->jobs[i].a = arena_new()))
            return -1;
        arena_limit(h->jobs[i].a, LOG_RECORD_MAX); /* a line's tree */
    }
    if (pthread_mutex_init(&h->mu, NULL) != 0)
        return 0;
    if (pthread_cond_init(&h->cv, NULL) != 0) {
        pthread_mutex_destroy(&h->mu);
        return 0;
    }
    h->threaded = pthread_create(&h->thread, NULL, parser, h) == 0;
    if (!h->threaded) {
        pthread_cond_destroy(&h->cv);
        pthread_mutex_destroy(&h->mu);
    }
    return 0;
}

/* Waits until the thread has no job. */
static void ahead_wait(struct ahead *h)
{
    if (!h->threaded)
        return;
    pthread_mutex_lock(&h->mu);
    while (h->todo)
        pthread_cond_wait(&h->cv, &h->mu);
    pthread_mutex_unlock(&h->mu);
}

/* Gives job j (its text set) to be parsed; parses it at once without
 * the thread. */
static void ahead_give(struct ahead *h, struct job *j)
{
    if (!h->threaded) {
        parse_job(j, h->lazy);
        return;
    }
    pthread_mutex_lock(&h->mu);
    h->todo = j;
    pthread_cond_broadcast(&h->cv);
    pthread_mutex_unlock(&h->mu);
}

static void ahead_stop(struct ahead *h)
{
    if (h->threaded) {
        pthread_mutex_lock(&h->mu);
        h->quit = 1;
        pthread_cond_broadcast(&h->cv);
        pthread_mutex_unlock(&h->mu);
        pthread_join(h->thread, NULL);
        pthread_cond_destroy(&h->cv);
        pthread_mutex_destroy(&h->mu);
    }
    for (int i = 0; i < 2; i++) {
        arena_free(h->jobs[i].a);
        buf_free(&h->jobs[i].text);
    }
}

/* Hands the parsed job j over to fn, as a record or a bad one; 0, 1 stop,
 * -1 (e set). */
static int job_taken(const struct job *j, lr_record_fn fn, void *ctx, err *e)
{
    char place[32];
    snprintf(place, sizeof place, "line %lu", j->lineno);
    if (!j->parsed && j->le.code == ERR_NOMEM && !arena_over(j->a))
        return err_set(e, ERR_NOMEM, "out of memory");
    char why[600] = "";
    if (!j->parsed && j->le.code == ERR_NOMEM)
        snprintf(why, sizeof why,
                 "a line whose value tree is larger than the limit of "
                 "%u MiB a record; it is skipped",
                 LOG_RECORD_MAX >> 20);
    else if (!j->parsed)
        snprintf(why, sizeof why, "not JSON: %s; the line is skipped",
                 j->le.msg);
    return fn(ctx, place, NULL, (size_t)-1, j->parsed ? j->v : NULL,
              j->parsed ? NULL : why, e);
}

int lr_read_json(logr *r, int fd, const char *const *streamed,
                 lr_record_fn fn, void *ctx, err *e)
{
    return lr_read_json_lazy(r, fd, streamed, NULL, fn, ctx, e);
}

int lr_read_json_lazy(logr *r, int fd, const char *const *streamed,
                      const char *lazy, lr_record_fn fn, void *ctx, err *e)
{
    buf b = BUF_INIT;
    char chunk[65536];
    size_t start = 0; /* of the line being looked for */
    size_t seen = 0;  /* b.data[start, seen) holds no newline */
    int eof = 0, rc = 0, jsonl = -1, bom_looked = 0;
    struct first_line fl = {0};
    unsigned long lineno = 0;
    struct ahead h;
    if (ahead_start(&h, lazy) < 0) {
        ahead_stop(&h);
        return err_set(e, ERR_NOMEM, "out of memory");
    }
    struct job *pending = NULL; /* given to be parsed, not yet taken */
    for (;;) {
        if (seen < start)
            seen = start;
        char *nl = b.len > seen ? memchr(b.data + seen, '\n', b.len - seen)
                                : NULL;
        seen = nl ? (size_t)(nl - b.data) : b.len;
        if (jsonl == -1) {
            if (fl.at < start)
                fl = (struct first_line){.at = start};
            jsonl = first_line_says(&fl, b.data ? b.data : "", seen,
                                    nl || eof);
            /* a first line past a record's limit, its object still
             * open: a document on one line */
            if (jsonl == -1 && !nl && b.len - start > LOG_RECORD_MAX)
                jsonl = 0;
            if (jsonl == 0)
                break;
        }
        if (!nl && !eof) {
            if (jsonl == 1 && b.len - start > LOG_RECORD_MAX) {
                /* a line past the limit: skipped to its newline */
                lineno++;
                char why[160];
                snprintf(why, sizeof why, "a line longer than the limit of "
                                          "%u MiB a record; it is skipped",
                         LOG_RECORD_MAX >> 20);
                ssize_t n;
                while ((n = read(fd, chunk, sizeof chunk)) > 0 &&
                       !memchr(chunk, '\n', (size_t)n))
                    ;
                b.len = 0;
                start = seen = 0;
                if (n > 0) {
                    char *p = memchr(chunk, '\n', (size_t)n);
                    buf_append(&b, p + 1, (size_t)(chunk + n - p - 1));
                } else {
                    eof = 1;
                }
                char place[32];
                snprintf(place, sizeof place, "line %lu", lineno);
                if (pending) { /* the line before it first */
                    ahead_wait(&h);
                    rc = job_taken(pending, fn, ctx, e);
                    pending = NULL;
                    if (rc)
                        break;
                }
                if ((rc = fn(ctx, place, NULL, (size_t)-1, NULL, why, e)))
                    break;
                continue;
            }
            if (start > 0 && jsonl == 1) {
                memmove(b.data, b.data + start, b.len - start);
                b.len -= start;
                seen -= start;
                start = 0;
            }
            ssize_t n = read(fd, chunk, sizeof chunk);
            if (n < 0) {
                rc = err_set(e, ERR_IO, "cannot read %s: %s", lr_file(r),
                             strerror(errno));
                break;
            }
            if (n == 0)
                eof = 1;
            else if (buf_append(&b, chunk, (size_t)n) < 0) {
                rc = err_set(e, ERR_NOMEM, "out of memory");
                break;
            }
            if (!bom_looked) {
                /* a UTF-8 byte order mark: not the input's text */
                bom_looked = 1;
                if (b.len >= 3 && memcmp(b.data, "\xef\xbb\xbf", 3) == 0) {
                    memmove(b.data, b.data + 3, b.len - 3);
                    b.len -= 3;
                }
            }
            continue;
        }
        size_t len = nl ? (size_t)(nl - (b.data + start)) : b.len - start;
        if (!nl && len == 0)
            break; /* the end */
        const char *line = b.data + start;
        size_t next = start + len + (nl ? 1 : 0);
        if (strspn(line, " \t\r") >= len) { /* a blank line */
            lineno++;
            start = next;
            continue;
        }
        lineno++;
        start = next;
        /* this line to the thread, the one before it to fn meanwhile */
        struct job *j = pending == &h.jobs[0] ? &h.jobs[1] : &h.jobs[0];
        buf_reset(&j->text);
        if (buf_append(&j->text, line, len) < 0) {
            rc = err_set(e, ERR_NOMEM, "out of memory");
            break;
        }
        j->lineno = lineno;
        ahead_wait(&h);
        ahead_give(&h, j);
        struct job *taken = pending;
        pending = j;
        if (taken && (rc = job_taken(taken, fn, ctx, e)))
            break;
    }
    if (pending) { /* the last line, or one given before a stop */
        ahead_wait(&h);
        if (rc == 0)
            rc = job_taken(pending, fn, ctx, e);
    }
    ahead_stop(&h);
    if (jsonl == 0 && rc == 0) {
        /* from the start: everything read so far is the document's */
        rc = read_document(r, fd, &b, streamed, fn, ctx, e);
    }
    buf_free(&b);
    return rc;
}
