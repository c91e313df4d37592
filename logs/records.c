/* records: see records.h. */
#include "records.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "detect.h"
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
    const char *packed =
        log_packed((const unsigned char *)(b->data ? b->data : ""), b->len);
    if (packed) /* not JSON at all: what it is, and what to do */
        return lr_problem(r, NULL, NULL,
                          "it is compressed with %s and give the file it "
                          "holds",
                          packed);
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

/* ------------------------------------------ the lines, read by a thread */

/* What the lines' thread hands over, in the input's order: lines (each
 * its tree, or why it is not one), then what ends the batch: nothing
 * (more batches come), that the input is one document (the bytes read
 * so far are left in the buffer), its end, or an error. */
enum item_kind { IT_LINES, IT_DOCUMENT, IT_END, IT_ERROR };

#define ITEM_LINES 32            /* lines a batch holds at most ... */
#define ITEM_BYTES (1u << 20)    /* ... and bytes of them, past which it
                                    is handed over */
#define SMALL_FILE (1u << 20)    /* a regular file of at most this size is
                                    read without the thread */

struct line_read {
    arena *a;                    /* its tree (NULL until first used) */
    value *v;                    /* NULL: not a record, why says so */
    char why[600];
    unsigned long lineno;
};

struct item {
    enum item_kind kind;
    size_t n;                    /* lines */
    size_t bytes;                /* of their text */
    struct line_read lines[ITEM_LINES];
    err e;                       /* IT_ERROR */
};

/* JSON Lines are read and parsed by a thread of their own, a batch of
 * lines ahead of the reader: while fn takes the lines of one item, the
 * thread reads and parses the next lines into the other.  A batch saves
 * the two threads meeting at every line (lines of a few hundred bytes
 * cost more to hand over than to parse); one is handed over when full,
 * and before a read that may wait (a pipe), so that lines never wait on
 * the input behind them. */
struct lines {
    int fd;
    logr *r;
    const char *lazy;
    buf b;                 /* the input read and not yet handed over */
    struct item items[2];
    int ready[2];          /* items[i] is the reader's to take */
    int fill[2];           /* items[i] is being filled (the thread's own) */
    int stop;              /* the reader wants no more */
    int waits;             /* the input may keep a read waiting (a pipe,
                              a terminal): looked at with poll first */
    int here;              /* no thread: each batch is taken as it is
                              handed over (a small file) */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    /* the reader's side (take) */
    lr_record_fn fn;
    void *ctx;
    err *e;
    int rc;                /* fn's, or -1 */
    int done;              /* the last batch was taken */
    int document;          /* ... and it said the input is a document */
};

/* The reader takes a batch: fn gets its lines, in their order. */
static void take(struct lines *L, struct item *it)
{
    for (size_t i = 0; i < it->n && L->rc == 0; i++) {
        const struct line_read *l = &it->lines[i];
        char place[32];
        snprintf(place, sizeof place, "line %lu", l->lineno);
        L->rc = L->fn(L->ctx, place, NULL, (size_t)-1, l->v,
                      l->v ? NULL : l->why, L->e);
    }
    if (L->rc == 0 && it->kind == IT_ERROR) {
        *L->e = it->e;
        L->rc = -1;
    }
    L->document = L->rc == 0 && it->kind == IT_DOCUMENT;
    L->done = it->kind != IT_LINES;
}

/* Waits for item i to be the thread's to fill; 0, or -1 when the reader
 * stopped. */
static int item_free(struct lines *L, int i)
{
    pthread_mutex_lock(&L->mu);
    while (L->ready[i] && !L->stop)
        pthread_cond_wait(&L->cv, &L->mu);
    int stop = L->stop;
    pthread_mutex_unlock(&L->mu);
    return stop ? -1 : 0;
}

static void item_give(struct lines *L, int i)
{
    if (L->here) {
        take(L, &L->items[i]);
        L->stop = L->rc != 0 || L->done;
        return;
    }
    pthread_mutex_lock(&L->mu);
    L->ready[i] = 1;
    pthread_cond_broadcast(&L->cv);
    pthread_mutex_unlock(&L->mu);
}

static int stopped(struct lines *L)
{
    pthread_mutex_lock(&L->mu);
    int stop = L->stop;
    pthread_mutex_unlock(&L->mu);
    return stop;
}

/* read(2) of the input, which gives up (-1, EINTR) once the reader has
 * stopped: an input that may keep a read waiting is polled a tenth of a
 * second at a time, so that a reader that wants no more (--strict)
 * never waits on a pipe that stays open. */
static ssize_t read_some(struct lines *L, char *chunk, size_t size)
{
    while (L->waits) {
        if (stopped(L)) {
            errno = EINTR;
            return -1;
        }
        struct pollfd p = {.fd = L->fd, .events = POLLIN};
        int n = poll(&p, 1, 100);
        if (n > 0 || (n < 0 && errno != EINTR))
            break;
    }
    return read(L->fd, chunk, size);
}

/* The batch being filled: *turn's item, waited for when it has no line
 * yet; NULL when the reader stopped. */
static struct item *filling(struct lines *L, int turn)
{
    struct item *it = &L->items[turn];
    if (!L->fill[turn]) {
        if (item_free(L, turn) < 0)
            return NULL;
        it->kind = IT_LINES;
        it->n = it->bytes = 0;
        L->fill[turn] = 1;
    }
    return it;
}

/* Hands the batch of *turn over (ending with kind), and turns to the
 * other; -1 when the reader stopped. */
static int hand_over(struct lines *L, int *turn, enum item_kind kind)
{
    struct item *it = filling(L, *turn);
    if (!it)
        return -1;
    it->kind = kind;
    L->fill[*turn] = 0;
    item_give(L, *turn);
    *turn ^= 1;
    return 0;
}

/* The next line of the batch (NULL out of memory, or the reader
 * stopped: *stop). */
static struct line_read *next_line(struct lines *L, int turn, int *stop)
{
    struct item *it = filling(L, turn);
    *stop = !it;
    if (!it)
        return NULL;
    struct line_read *l = &it->lines[it->n];
    if (!l->a) {
        if (!(l->a = arena_new()))
            return NULL;
        arena_limit(l->a, LOG_RECORD_MAX); /* a line's tree */
    }
    l->v = NULL;
    l->why[0] = '\0';
    return l;
}

/* The line at text (len bytes) into l: its tree, or why not; -1 out of
 * memory. */
static int parse_line(struct lines *L, struct line_read *l, const char *text,
                      size_t len)
{
    err le;
    arena_recycle(l->a, 1u << 20); /* a big line's room is given back */
    int parsed = (L->lazy ? json_load_lazy(&l->v, l->a, text, len, L->lazy,
                                           &le)
                          : json_load(&l->v, l->a, text, len, &le)) == 0;
    if (parsed)
        return 0;
    l->v = NULL;
    if (le.code == ERR_NOMEM && !arena_over(l->a))
        return -1;
    if (le.code == ERR_NOMEM)
        snprintf(l->why, sizeof l->why,
                 "a line whose value tree is larger than the limit of "
                 "%u MiB a record; it is skipped",
                 LOG_RECORD_MAX >> 20);
    else
        snprintf(l->why, sizeof l->why, "not JSON: %s; the line is skipped",
                 le.msg);
    return 0;
}

/* The line just filled (len bytes of text) is in the batch, which is
 * handed over once full; -1 when the reader stopped. */
static int line_done(struct lines *L, int *turn, size_t len)
{
    struct item *it = &L->items[*turn];
    it->bytes += len;
    if (++it->n < ITEM_LINES && it->bytes < ITEM_BYTES)
        return 0;
    return hand_over(L, turn, IT_LINES);
}

/* Ends the input with an error in the batch being filled. */
static void fail_lines(struct lines *L, int *turn, enum err_code code,
                       const char *msg)
{
    struct item *it = filling(L, *turn);
    if (!it)
        return;
    err_set(&it->e, code, "%s", msg);
    hand_over(L, turn, IT_ERROR);
}

/* The lines' thread: the input's lines, in batches into items[0] and
 * items[1] in turn, until its end, an error, the first line saying it
 * is a document, or the reader stopping. */
static void *read_lines(void *arg)
{
    struct lines *L = arg;
    buf *b = &L->b;
    char chunk[65536];
    size_t start = 0; /* of the line being looked for */
    size_t seen = 0;  /* b->data[start, seen) holds no newline */
    int eof = 0, jsonl = -1, bom_looked = 0, turn = 0, stop = 0;
    struct first_line fl = {0};
    unsigned long lineno = 0;
    for (;;) {
        if (seen < start)
            seen = start;
        char *nl = b->len > seen ? memchr(b->data + seen, '\n',
                                          b->len - seen)
                                 : NULL;
        seen = nl ? (size_t)(nl - b->data) : b->len;
        if (jsonl == -1) {
            if (fl.at < start)
                fl = (struct first_line){.at = start};
            jsonl = first_line_says(&fl, b->data ? b->data : "", seen,
                                    nl || eof);
            /* a first line past a record's limit, its object still
             * open: a document on one line */
            if (jsonl == -1 && !nl && b->len - start > LOG_RECORD_MAX)
                jsonl = 0;
            if (jsonl == 0) {
                hand_over(L, &turn, IT_DOCUMENT);
                return NULL;
            }
        }
        if (!nl && !eof) {
            /* lines read so far go to the reader before a read that may
             * wait */
            if (L->waits && L->fill[turn] && L->items[turn].n &&
                hand_over(L, &turn, IT_LINES) < 0)
                return NULL;
            if (jsonl == 1 && b->len - start > LOG_RECORD_MAX) {
                /* a line past the limit: skipped to its newline */
                lineno++;
                ssize_t n;
                while ((n = read_some(L, chunk, sizeof chunk)) > 0 &&
                       !memchr(chunk, '\n', (size_t)n))
                    ;
                b->len = 0;
                start = seen = 0;
                if (n > 0) {
                    char *p = memchr(chunk, '\n', (size_t)n);
                    buf_append(b, p + 1, (size_t)(chunk + n - p - 1));
                } else {
                    eof = 1;
                }
                struct line_read *l = next_line(L, turn, &stop);
                if (!l) {
                    if (!stop)
                        fail_lines(L, &turn, ERR_NOMEM, "out of memory");
                    return NULL;
                }
                l->lineno = lineno;
                snprintf(l->why, sizeof l->why,
                         "a line longer than the limit of %u MiB a record; "
                         "it is skipped",
                         LOG_RECORD_MAX >> 20);
                if (line_done(L, &turn, 0) < 0)
                    return NULL;
                continue;
            }
            if (start > 0 && jsonl == 1) {
                memmove(b->data, b->data + start, b->len - start);
                b->len -= start;
                seen -= start;
                start = 0;
            }
            ssize_t n = read_some(L, chunk, sizeof chunk);
            if (n < 0 && stopped(L))
                return NULL;
            if (n < 0) {
                char msg[sizeof ((err *)0)->msg];
                snprintf(msg, sizeof msg, "cannot read %s: %s",
                         lr_file(L->r), strerror(errno));
                fail_lines(L, &turn, ERR_IO, msg);
                return NULL;
            }
            if (n > 0 && buf_append(b, chunk, (size_t)n) < 0) {
                fail_lines(L, &turn, ERR_NOMEM, "out of memory");
                return NULL;
            }
            if (n == 0)
                eof = 1;
            if (!bom_looked) {
                /* a UTF-8 byte order mark: not the input's text */
                bom_looked = 1;
                if (b->len >= 3 && memcmp(b->data, "\xef\xbb\xbf", 3) == 0) {
                    memmove(b->data, b->data + 3, b->len - 3);
                    b->len -= 3;
                }
            }
            continue;
        }
        size_t len = nl ? (size_t)(nl - (b->data + start)) : b->len - start;
        if (!nl && len == 0)
            break; /* the end */
        const char *line = b->data + start;
        size_t next = start + len + (nl ? 1 : 0);
        lineno++;
        start = next;
        if (strspn(line, " \t\r") >= len) /* a blank line */
            continue;
        struct line_read *l = next_line(L, turn, &stop);
        if (!l || parse_line(L, l, line, len) < 0) {
            if (!stop)
                fail_lines(L, &turn, ERR_NOMEM, "out of memory");
            return NULL;
        }
        l->lineno = lineno;
        if (line_done(L, &turn, len) < 0)
            return NULL;
    }
    hand_over(L, &turn, IT_END);
    return NULL;
}

static void *lines_thread(void *arg)
{
#ifdef __linux__
    prctl(PR_SET_NAME, "replay-lines", 0, 0, 0); /* for top -H and perf */
#endif
    return read_lines(arg);
}

int lr_read_json(logr *r, int fd, const char *const *streamed,
                 lr_record_fn fn, void *ctx, err *e)
{
    return lr_read_json_lazy(r, fd, streamed, NULL, fn, ctx, e);
}

int lr_read_json_lazy(logr *r, int fd, const char *const *streamed,
                      const char *lazy, lr_record_fn fn, void *ctx, err *e)
{
    struct lines L;
    memset(&L, 0, sizeof L);
    L.fd = fd;
    L.r = r;
    L.lazy = lazy;
    L.fn = fn;
    L.ctx = ctx;
    L.e = e;
    struct stat st;
    L.waits = fstat(fd, &st) != 0 || !S_ISREG(st.st_mode);
    /* a small file costs less to read here than to hand over from a
     * thread (a log of a few records, a fuzzer's input); its lines are
     * read the same way, only never waited for */
    L.here = !L.waits && st.st_size <= (off_t)SMALL_FILE;
    pthread_t thread;
    int threaded = 0;
    if (pthread_mutex_init(&L.mu, NULL) != 0) {
        L.rc = err_set(e, ERR_NOMEM, "cannot make a mutex");
    } else if (pthread_cond_init(&L.cv, NULL) != 0) {
        pthread_mutex_destroy(&L.mu);
        L.rc = err_set(e, ERR_NOMEM, "cannot make a condition variable");
    } else if (L.here) {
        read_lines(&L);
        pthread_cond_destroy(&L.cv);
        pthread_mutex_destroy(&L.mu);
    } else {
        threaded = pthread_create(&thread, NULL, lines_thread, &L) == 0;
        if (!threaded) {
            pthread_cond_destroy(&L.cv);
            pthread_mutex_destroy(&L.mu);
            L.rc = err_set(e, ERR_NOMEM, "cannot start a thread to read %s",
                           lr_file(r));
        }
    }
    for (int turn = 0; threaded && L.rc == 0 && !L.done; turn ^= 1) {
        pthread_mutex_lock(&L.mu);
        while (!L.ready[turn])
            pthread_cond_wait(&L.cv, &L.mu);
        pthread_mutex_unlock(&L.mu);
        take(&L, &L.items[turn]);
        pthread_mutex_lock(&L.mu);
        L.ready[turn] = 0;
        pthread_cond_broadcast(&L.cv);
        pthread_mutex_unlock(&L.mu);
    }
    if (threaded) {
        pthread_mutex_lock(&L.mu);
        L.stop = 1; /* a thread waiting for room gives up */
        pthread_cond_broadcast(&L.cv);
        pthread_mutex_unlock(&L.mu);
        pthread_join(thread, NULL);
        pthread_cond_destroy(&L.cv);
        pthread_mutex_destroy(&L.mu);
    }
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < ITEM_LINES; i++)
            arena_free(L.items[k].lines[i].a);
    int rc = L.rc;
    if (L.document && rc == 0) {
        /* from the start: everything read so far is the document's */
        rc = read_document(r, fd, &L.b, streamed, fn, ctx, e);
    }
    buf_free(&L.b);
    return rc;
}
