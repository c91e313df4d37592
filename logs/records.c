/* records: see records.h. */
#include "records.h"

#include <errno.h>
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

int lr_read_json(logr *r, int fd, const char *const *streamed,
                 lr_record_fn fn, void *ctx, err *e)
{
    buf b = BUF_INIT;
    char chunk[65536];
    size_t start = 0; /* of the line being looked for */
    size_t seen = 0;  /* b.data[start, seen) holds no newline */
    int eof = 0, rc = 0, jsonl = -1, bom_looked = 0;
    struct first_line fl = {0};
    unsigned long lineno = 0;
    arena *a = arena_new();
    if (!a)
        return err_set(e, ERR_NOMEM, "out of memory");
    arena_limit(a, LOG_RECORD_MAX); /* a line's tree, as a record's */
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
        value *v = NULL;
        err le;
        arena_reset(a);
        int parsed = json_load(&v, a, line, len, &le) == 0;
        lineno++;
        start = next;
        char place[32];
        snprintf(place, sizeof place, "line %lu", lineno);
        if (!parsed && le.code == ERR_NOMEM && !arena_over(a)) {
            rc = err_set(e, ERR_NOMEM, "out of memory");
            break;
        }
        char why[600] = "";
        if (!parsed && le.code == ERR_NOMEM)
            snprintf(why, sizeof why,
                     "a line whose value tree is larger than the limit of "
                     "%u MiB a record; it is skipped",
                     LOG_RECORD_MAX >> 20);
        else if (!parsed)
            snprintf(why, sizeof why, "not JSON: %s; the line is skipped",
                     le.msg);
        rc = fn(ctx, place, NULL, (size_t)-1, parsed ? v : NULL,
                parsed ? NULL : why, e);
        if (rc)
            break;
    }
    arena_free(a);
    if (jsonl == 0 && rc == 0) {
        /* from the start: everything read so far is the document's */
        rc = read_document(r, fd, &b, streamed, fn, ctx, e);
    }
    buf_free(&b);
    return rc;
}
