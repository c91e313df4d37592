/* jstream: see jstream.h. */
#include "jstream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_parse.h>

#include "vbuild.h"

struct jstream {
    yajl_handle h;
    arena *a;
    const char *const *streamed;
    size_t piece_max;
    jstream_fn fn;
    void *ctx;
    err *e;          /* the feed's, while yajl calls back */
    int failed;      /* e holds why the parse was stopped */
    int top;         /* '{', '[' or 0 */
    unsigned lv;     /* containers open in the document */
    int streaming;   /* inside a streamed member's array */
    size_t index;    /* of the next item handed over */
    char *key;       /* the top-level member being read */
    size_t nbuild;   /* containers open in the piece being built */
    int skipping;    /* the piece passed piece_max: read to its end, and
                        not kept (nbuild still counts its containers) */
    value *stack[VALUE_MAX_DEPTH + 1];
    value *keys[VALUE_MAX_DEPTH + 1];
    unsigned long long fed; /* bytes fed before this call */
};

static int stop(jstream *s, enum err_code code, const char *what)
{
    if (!s->failed) {
        err_set(s->e, code, "%s", what);
        s->failed = 1;
    }
    return 0;
}

static int is_streamed(const jstream *s, const char *key)
{
    for (size_t i = 0; s->streamed && s->streamed[i]; i++)
        if (strcmp(s->streamed[i], key) == 0)
            return 1;
    return 0;
}

static int deliver(jstream *s, const value *v)
{
    size_t index = (size_t)-1;
    if (s->top == '[' || s->streaming)
        index = s->index++;
    int whole = s->top == '{' && !s->streamed;
    int rc = s->fn(s->ctx, s->top == '{' && !whole ? s->key : NULL,
                   whole ? (size_t)-1 : index, v, s->e);
    arena_reset(s->a);
    if (rc < 0) {
        s->failed = 1;
        return 0;
    }
    return 1;
}

/* Whether a value that begins now, at the current level, starts a piece. */
static int piece_starts(const jstream *s)
{
    if (s->lv == 0)
        return !s->streamed; /* a whole object, when nothing is streamed */
    return (s->lv == 1 && !s->streaming) || (s->lv == 2 && s->streaming);
}

/* A piece past piece_max ends: handed over as NULL, at its place. */
static int skipped(jstream *s)
{
    s->skipping = 0;
    arena_reset(s->a);
    return deliver(s, NULL);
}

/* Adds v (NULL: out of memory) where the value being built is. */
static int add(jstream *s, value *v)
{
    if (s->skipping)
        return 1;
    if (!v)
        return stop(s, ERR_NOMEM, "out of memory reading a log");
    if (arena_used(s->a) > s->piece_max && s->lv > 0) {
        /* what it holds is let go; the rest of it is read, not kept */
        if (s->nbuild == 0)
            return piece_starts(s) ? skipped(s) : 1;
        s->skipping = 1;
        arena_reset(s->a);
        return 1;
    }
    if (s->nbuild == 0) {
        if (s->lv == 0)
            return stop(s, ERR_VALUE, "the document is neither an object "
                                      "nor an array");

        return piece_starts(s) ? deliver(s, v) : 1;
    }
    value *c = s->stack[s->nbuild - 1];
    int rc;
    if (c->kind == V_ARRAY) {
        rc = vb_push(s->a, c, v);
    } else {
        rc = vb_putv(s->a, c, s->keys[s->nbuild - 1], v);
        s->keys[s->nbuild - 1] = NULL;
    }
    return rc < 0 ? stop(s, ERR_NOMEM, "out of memory reading a log") : 1;
}

static int on_null(void *ctx)
{
    jstream *s = ctx;
    if (s->skipping) /* nothing of it is made */
        return 1;
    return add(s, value_new(s->a, V_NULL, 0, 0));
}

static int on_bool(void *ctx, int b)
{
    jstream *s = ctx;
    if (s->skipping) /* nothing of it is made */
        return 1;
    return add(s, vb_bool(s->a, b));
}

static int on_number(void *ctx, const char *text, size_t len)
{
    jstream *s = ctx;
    if (s->skipping) /* nothing of it is made */
        return 1;
    if (!memchr(text, '.', len) && !memchr(text, 'e', len) &&
        !memchr(text, 'E', len)) {
        /* "-0" is 0, as Python reads it */
        if (len == 2 && text[0] == '-' && text[1] == '0')
            text++, len--;
        return add(s, value_new_text(s->a, V_INT, text, len, 0, 0));
    }
    char tmp[512];
    if (len >= sizeof tmp)
        return stop(s, ERR_LIMIT, "a number longer than 511 characters");
    memcpy(tmp, text, len);
    tmp[len] = '\0';
    value *v = value_new(s->a, V_FLOAT, 0, 0);
    if (v)
        v->u.d = strtod(tmp, NULL);
    return add(s, v);
}

static int on_string(void *ctx, const unsigned char *str, size_t len)
{
    jstream *s = ctx;
    if (s->skipping) /* nothing of it is made */
        return 1;
    return add(s, vb_strn(s->a, (const char *)str, len));
}

static int open_container(jstream *s, value_kind kind)
{
    if (s->lv >= VALUE_MAX_DEPTH)
        return stop(s, ERR_LIMIT, "nesting deeper than 256 levels");
    if (s->lv == 0) {
        s->top = kind == V_OBJECT ? '{' : '[';
        if (kind != V_OBJECT || s->streamed) {
            s->lv++;
            return 1;
        }
    }
    if (s->skipping) {
        s->nbuild++;
        s->lv++;
        return 1;
    }
    if (s->lv == 1 && s->top == '{' && kind == V_ARRAY && s->key &&
        is_streamed(s, s->key)) {
        s->streaming = 1;
        s->index = 0;
        s->lv++;
        return 1;
    }
    if (s->nbuild == 0 && !piece_starts(s)) {
        s->lv++;
        return 1;
    }
    if (s->nbuild == 0)
        arena_reset(s->a);
    value *c = kind == V_OBJECT ? vb_object(s->a) : vb_array(s->a);
    if (!c)
        return stop(s, ERR_NOMEM, "out of memory reading a log");
    if (s->nbuild > 0) {
        /* placed in its parent now; filled in place as it is read */
        value *p = s->stack[s->nbuild - 1];
        int rc = p->kind == V_ARRAY
                     ? vb_push(s->a, p, c)
                     : vb_putv(s->a, p, s->keys[s->nbuild - 1], c);
        if (rc < 0)
            return stop(s, ERR_NOMEM, "out of memory reading a log");
        s->keys[s->nbuild - 1] = NULL;
    }
    s->stack[s->nbuild] = c;
    s->keys[s->nbuild] = NULL;
    s->nbuild++;
    s->lv++;
    return 1;
}

static int close_container(jstream *s)
{
    s->lv--;
    if (s->nbuild == 0) {
        if (s->lv == 1 && s->streaming)
            s->streaming = 0;
        return 1;
    }
    s->nbuild--;
    if (s->skipping)
        return s->nbuild > 0 ? 1 : skipped(s);
    value *c = s->stack[s->nbuild];
    if (s->nbuild == 0)
        return deliver(s, c);
    return 1;
}

static int on_start_map(void *ctx)
{
    return open_container(ctx, V_OBJECT);
}

static int on_end(void *ctx)
{
    return close_container(ctx);
}

static int on_start_array(void *ctx)
{
    return open_container(ctx, V_ARRAY);
}

static int on_key(void *ctx, const unsigned char *key, size_t len)
{
    jstream *s = ctx;
    if (s->nbuild == 0) {
        if (s->lv != 1)
            return 1;
        char *k = malloc(len + 1);
        if (!k)
            return stop(s, ERR_NOMEM, "out of memory reading a log");
        memcpy(k, key, len);
        k[len] = '\0';
        free(s->key);
        s->key = k;
        return 1;
    }
    if (s->skipping)
        return 1;
    value *k = vb_strn(s->a, (const char *)key, len);
    if (!k)
        return stop(s, ERR_NOMEM, "out of memory reading a log");
    s->keys[s->nbuild - 1] = k;
    return 1;
}

static const yajl_callbacks callbacks = {
    on_null, on_bool, NULL, NULL, on_number, on_string, on_start_map,
    on_key, on_end, on_start_array, on_end};

jstream *jstream_new(const char *const *streamed, size_t piece_max,
                     jstream_fn fn, void *ctx)
{
    jstream *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->streamed = streamed;
    s->piece_max = piece_max;
    s->fn = fn;
    s->ctx = ctx;
    s->a = arena_new();
    s->h = s->a ? yajl_alloc(&callbacks, NULL, s) : NULL;
    if (!s->h) {
        jstream_free(s);
        return NULL;
    }
    return s;
}

static int parse_failed(jstream *s, yajl_status st, const char *bytes,
                        size_t len, err *e)
{
    if (st == yajl_status_client_canceled || s->failed)
        return -1; /* e says why */
    unsigned char *msg = yajl_get_error(s->h, 0, (const unsigned char *)bytes,
                                        len);
    unsigned long long at = s->fed + yajl_get_bytes_consumed(s->h);
    /* yajl's message ends in a newline: a problem is one line */
    const char *text = msg ? (const char *)msg : "a syntax error";
    err_set(e, ERR_SYNTAX, "not JSON at byte %llu: %.*s", at,
            (int)strcspn(text, "\r\n"), text);
    if (msg)
        yajl_free_error(s->h, msg);
    s->failed = 1;
    return -1;
}

int jstream_feed(jstream *s, const char *bytes, size_t len, err *e)
{
    if (s->failed)
        return -1;
    s->e = e;
    yajl_status st = yajl_parse(s->h, (const unsigned char *)bytes, len);
    if (st != yajl_status_ok)
        return parse_failed(s, st, bytes, len, e);
    s->fed += len;
    return 0;
}

int jstream_finish(jstream *s, err *e)
{
    if (s->failed)
        return -1;
    s->e = e;
    yajl_status st = yajl_complete_parse(s->h);
    if (st != yajl_status_ok)
        return parse_failed(s, st, "", 0, e);
    if (s->lv != 0 || s->top == 0) {
        err_set(e, ERR_SYNTAX, "not JSON: the document ends before it is "
                               "whole (byte %llu)", s->fed);
        return -1;
    }
    return 0;
}

int jstream_top(const jstream *s)
{
    return s->top;
}

void jstream_free(jstream *s)
{
    if (!s)
        return;
    if (s->h)
        yajl_free(s->h);
    arena_free(s->a);
    free(s->key);
    free(s);
}
