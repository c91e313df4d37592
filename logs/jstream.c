/* jstream: see jstream.h. */
#include "jstream.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include <math.h>
#include <stdint.h>
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
    unsigned long long fed; /* bytes yajl has been given */
    /* Python's NaN, Infinity and -Infinity: see feed_run */
    int in_str, esc;    /* inside a string; its next byte escaped */
    int in_word;        /* the last byte given was part of a word */
    char held[sizeof "-Infinity"]; /* a word that may yet be one of them */
    size_t nheld;       /* 0: none held */
    int stand_in;       /* the next number yajl hands over stands for: */
    double stand_for;   /* this */
    unsigned char classes[256]; /* byte_class of each byte */
};

/* What a byte is outside strings: part of a word (0), the end of one
 * (white space, a bracket, a comma or a colon: 1), a string's quote (2,
 * which ends a word too), or part of a word that may begin one of the
 * words Python writes for floats JSON has none for (3: N, I, -). */
static unsigned char byte_class(unsigned char c)
{
    switch (c) {
    case ' ': case '\t': case '\n': case '\r':
    case ',': case ':': case '[': case ']': case '{': case '}':
        return 1;
    case '"':
        return 2;
    case 'N': case 'I': case '-':
        return 3;
    default:
        return 0;
    }
}

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
    int special = s->stand_in;
    s->stand_in = 0;
    if (s->skipping) /* nothing of it is made */
        return 1;
    if (special) { /* NaN, Infinity or -Infinity, as written */
        value *v = value_new(s->a, V_FLOAT, 0, 0);
        if (v)
            v->u.d = s->stand_for;
        return add(s, v);
    }
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
    for (int c = 0; c < 256; c++)
        s->classes[c] = byte_class((unsigned char)c);
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

/* bytes, len: what yajl was given last; NULL at the end, where yajl
 * was given nothing (its count is of the space it reads there). */
static int parse_failed(jstream *s, yajl_status st, const char *bytes,
                        size_t len, err *e)
{
    if (st == yajl_status_client_canceled || s->failed)
        return -1; /* e says why */
    unsigned char *msg = yajl_get_error(
        s->h, 0, (const unsigned char *)(bytes ? bytes : ""), len);
    unsigned long long at =
        s->fed + (bytes ? yajl_get_bytes_consumed(s->h) : 0);
    /* yajl's message ends in a newline: a problem is one line */
    const char *text = msg ? (const char *)msg : "a syntax error";
    err_set(e, ERR_SYNTAX, "not JSON at byte %llu: %.*s", at,
            (int)strcspn(text, "\r\n"), text);
    if (msg)
        yajl_free_error(s->h, msg);
    s->failed = 1;
    return -1;
}

/* Gives yajl the next n bytes of the document.  0, or -1 with e set. */
static int give(jstream *s, const char *bytes, size_t n, err *e)
{
    if (n == 0)
        return 0;
    yajl_status st = yajl_parse(s->h, (const unsigned char *)bytes, n);
    if (st != yajl_status_ok)
        return parse_failed(s, st, bytes, n, e);
    s->fed += n;
    return 0;
}

/* The three words Python's json module writes for the floats JSON has
 * no word for, and the numbers of the same length given to yajl in their
 * place (so that a syntax error's offset is the document's). */
static const struct {
    const char *word, *as;
    double d;
} specials[] = {{"NaN", "0e0", NAN},
                {"Infinity", "1e+00000", INFINITY},
                {"-Infinity", "-1e+00000", -INFINITY}};

enum { N_SPECIALS = sizeof specials / sizeof specials[0] };

/* Whether the held word, with c after it, may still be one of them. */
static int may_be_special(const jstream *s, char c)
{
    for (size_t k = 0; k < N_SPECIALS; k++)
        if (strlen(specials[k].word) > s->nheld &&
            memcmp(specials[k].word, s->held, s->nheld) == 0 &&
            specials[k].word[s->nheld] == c)
            return 1;
    return 0;
}

/* The held word is over (the byte after it is no part of a word, or the
 * document ends): given to yajl as it is, or as the number that stands
 * for it when it is one of the three whole. */
static int release(jstream *s, int whole, err *e)
{
    size_t n = s->nheld;
    s->nheld = 0;
    for (size_t k = 0; whole && k < N_SPECIALS; k++) {
        if (strlen(specials[k].word) != n ||
            memcmp(specials[k].word, s->held, n) != 0)
            continue;
        s->stand_in = 1;
        s->stand_for = specials[k].d;
        return give(s, specials[k].as, n, e);
    }
    return give(s, s->held, n, e);
}

/* The first byte from i on (len when none) that is a or b. */
static size_t next_of2(const unsigned char *p, size_t i, size_t len,
                       unsigned char a, unsigned char b)
{
#ifdef __SSE2__
    const __m128i va = _mm_set1_epi8((char)a), vb = _mm_set1_epi8((char)b);
    for (; len - i >= 16; i += 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
        unsigned m = (unsigned)_mm_movemask_epi8(
            _mm_or_si128(_mm_cmpeq_epi8(x, va), _mm_cmpeq_epi8(x, vb)));
        if (m)
            return i + (size_t)__builtin_ctz(m);
    }
#endif
    while (i < len && p[i] != a && p[i] != b)
        i++;
    return i;
}

/* The first byte from i on (len when none) that is a quote or may begin
 * one of the words: N, I or -. */
static size_t next_of4(const unsigned char *p, size_t i, size_t len)
{
#ifdef __SSE2__
    const __m128i q = _mm_set1_epi8('"'), n = _mm_set1_epi8('N'),
                  in = _mm_set1_epi8('I'), m = _mm_set1_epi8('-');
    for (; len - i >= 16; i += 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
        unsigned hit = (unsigned)_mm_movemask_epi8(_mm_or_si128(
            _mm_or_si128(_mm_cmpeq_epi8(x, q), _mm_cmpeq_epi8(x, n)),
            _mm_or_si128(_mm_cmpeq_epi8(x, in), _mm_cmpeq_epi8(x, m))));
        if (hit)
            return i + (size_t)__builtin_ctz(hit);
    }
#endif
    while (i < len && p[i] != '"' && p[i] != 'N' && p[i] != 'I' &&
           p[i] != '-')
        i++;
    return i;
}

/* Bytes i to end, one stop at a time (a quote, a backslash in a string,
 * a byte that may begin one of the words); *from: the first byte not
 * yet given or held.  0, or -1 with e set. */
static int scan(jstream *s, const unsigned char *b, size_t i, size_t end,
                size_t *from, err *e)
{
    const unsigned char *cls = s->classes;
    while (i < end) {
        if (s->in_str) { /* to its closing quote, escapes skipped */
            if (s->esc) {
                s->esc = 0;
                i++;
                continue;
            }
            i = next_of2(b, i, end, '"', '\\');
            if (i == end)
                break;
            if (b[i++] == '\\') {
                s->esc = 1;
            } else {
                s->in_str = 0;
                s->in_word = 0;
            }
            continue;
        }
        if (s->nheld) {
            unsigned char k = cls[b[i]];
            if ((k == 0 || k == 3) && may_be_special(s, (char)b[i])) {
                s->held[s->nheld++] = (char)b[i++];
                *from = i;
                continue;
            }
            if (release(s, k == 1 || k == 2, e) < 0)
                return -1;
            *from = i;
        }
        size_t at = next_of4(b, i, end);
        if (at > i) /* what ends before it is the word it is in, or not */
            s->in_word = !cls[b[at - 1]] || cls[b[at - 1]] == 3;
        i = at;
        if (i == end)
            break;
        if (b[i] == '"') {
            s->in_str = 1;
            i++;
            continue;
        }
        if (s->in_word) { /* inside a word: no such word begins here */
            i++;
            continue;
        }
        if (give(s, (const char *)b + *from, i - *from, e) < 0)
            return -1;
        s->held[0] = (char)b[i++];
        s->nheld = 1;
        s->in_word = 1;
        *from = i;
    }
    return 0;
}

/* Whether the 64 bytes at p hold none of N, I and - outside strings:
 * then nothing in them is looked at one by one, and only the state after
 * them is kept.  Which bytes are inside strings: the parity of the quotes
 * up to each byte (a prefix XOR), but for the quotes escaped (after a
 * backslash not itself escaped). */
static int quiet_block(jstream *s, const unsigned char *p)
{
#ifdef __SSE2__
    const __m128i q = _mm_set1_epi8('"'), bs = _mm_set1_epi8('\\'),
                  n = _mm_set1_epi8('N'), in = _mm_set1_epi8('I'),
                  m = _mm_set1_epi8('-');
    uint64_t quotes = 0, backslashes = 0, may = 0;
    for (int k = 0; k < 4; k++) {
        __m128i x =
            _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * k));
        quotes |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, q))
                  << (16 * k);
        backslashes |= (uint64_t)(unsigned)_mm_movemask_epi8(
                           _mm_cmpeq_epi8(x, bs))
                       << (16 * k);
        may |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_or_si128(
                   _mm_or_si128(_mm_cmpeq_epi8(x, n), _mm_cmpeq_epi8(x, in)),
                   _mm_cmpeq_epi8(x, m)))
               << (16 * k);
    }
    /* the bytes escaped: each after a backslash not itself escaped */
    uint64_t escaped = s->esc ? 1 : 0;
    int esc_out = 0; /* the next block's first byte */
    for (uint64_t left = backslashes; left; left &= left - 1) {
        int j = __builtin_ctzll(left);
        if (escaped >> j & 1)
            continue;
        if (j == 63)
            esc_out = 1;
        else
            escaped |= (uint64_t)1 << (j + 1);
    }
    uint64_t inside = quotes & ~escaped;
    for (int k = 1; k < 64; k *= 2)
        inside ^= inside << k;
    if (s->in_str)
        inside = ~inside;
    if ((may | backslashes) & ~inside) /* a backslash outside strings is
                                          yajl's to refuse */
        return 0;
    s->esc = esc_out;
    s->in_str = (int)(inside >> 63);
    unsigned char last = s->classes[p[63]];
    s->in_word = !s->in_str && (last == 0 || last == 3);
    return 1;
#else
    (void)s;
    (void)p;
    return 0;
#endif
}

/*
 * Hands bytes to yajl, which refuses NaN, Infinity and -Infinity; Python
 * writes them (json.dump's default), and a log that holds one would lose
 * every record after it.  Outside strings, the bytes are cut into words
 * (a run of bytes up to a space, a quote or a bracket, comma or colon).
 * A word that begins with N, I or - is held back while it may be one of
 * the three; when it ends, it is given as the number of its length that
 * stands for it (0e0, 1e+00000, -1e+00000), or else as it is.  Every
 * other byte goes through as it is, looked at only to find strings and
 * those words: 64 bytes at a time where the machine can and they hold
 * none of N, I and - outside strings (most of a log), else one stop at
 * a time.  The next number yajl hands over is then the
 * stand-in: every number before it was over at the byte that ended it,
 * which yajl had before the word began.  A word glued to others ("NaN1",
 * "-NaN", "1NaN") is no such word and stays refused, as Python refuses
 * it.
 */
static int feed_run(jstream *s, const char *bytes, size_t len, err *e)
{
    const unsigned char *b = (const unsigned char *)bytes;
    size_t from = 0; /* bytes before it are given or held */
    for (size_t i = 0; i < len;) {
        size_t end = len - i > 64 ? i + 64 : len;
        if (end - i == 64 && !s->nheld && quiet_block(s, b + i)) {
            i = end;
            continue;
        }
        if (scan(s, b, i, end, &from, e) < 0)
            return -1;
        i = end;
    }
    return give(s, bytes + from, len - from, e);
}

int jstream_feed(jstream *s, const char *bytes, size_t len, err *e)
{
    if (s->failed)
        return -1;
    s->e = e;
    return feed_run(s, bytes, len, e);
}

int jstream_finish(jstream *s, err *e)
{
    if (s->failed)
        return -1;
    s->e = e;
    if (s->nheld && release(s, 1, e) < 0)
        return -1;
    yajl_status st = yajl_complete_parse(s->h);
    if (st != yajl_status_ok)
        return parse_failed(s, st, NULL, 0, e);
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
