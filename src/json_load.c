/*
 * json_load: see json_load.h.
 *
 * Two paths read the text.  The fast path (its own section below) reads
 * plain JSON, which is most of what comes in, in one pass of its own;
 * whatever it does not handle, errors included, goes to the general
 * path, which the rest of this comment describes and which alone words
 * the refusals.  Both build the same tree; the tests hold them to it.
 *
 * yajl parses, but it does not read JSON quite as Python does, so the
 * text goes through two steps before it, which make up for the difference:
 *  1. decode: the encoding is detected as json.detect_encoding() does and
 *     the text checked (UTF-8) or made UTF-8 (UTF-16, UTF-32), with lone
 *     surrogates kept as their 3-byte forms (utf8.h).  yajl's own UTF-8
 *     check is weaker than Python's (it takes overlong forms), so it is
 *     switched off;
 *  2. prescan: one pass over the text, knowing which bytes are inside
 *     strings, finds what yajl gets wrong:
 *      - NaN, Infinity and -Infinity, which yajl refuses: each one standing
 *        alone as a token is rewritten into a number of the same length
 *        ("0e0", "1e+00000", "-1e+00000") and its offset remembered, so
 *        that the number callback turns it back into a float;
 *      - strings that may hold a lone surrogate: yajl turns an escaped
 *        lone high surrogate into '?' and pairs a high one with any \u
 *        escape after it, so these strings are decoded here instead;
 *      - a vertical tab or form feed between tokens, which yajl takes as
 *        whitespace and Python does not: yajl is only given the text
 *        before it;
 *  3. parse: yajl's callbacks build the tree with a stack of open
 *     containers.  yajl says where a token ends but not where it starts;
 *     since only whitespace, ',' and ':' come between the end of one
 *     token and the start of the next, the start is found by skipping
 *     those from where the previous token ended.  A cursor moving forward
 *     turns those offsets into lines and columns.
 */
#include "json_load.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yajl/yajl_parse.h>

#include "buf.h"
#include "path.h"
#include "pynum.h"
#include "strmap.h"
#include "utf8.h"
#include "wordscan.h"

/* What the parser expects next; says what went wrong when it fails. */
enum expect {
    EXP_VALUE,      /* at the start, after ':', after ',' in an array */
    EXP_FIRST_ITEM, /* after '[' */
    EXP_FIRST_KEY,  /* after '{' */
    EXP_KEY,        /* after ',' in an object */
    EXP_COLON,      /* after a key */
    EXP_ITEM_END,   /* after an element */
    EXP_MEMBER_END, /* after a member */
    EXP_NOTHING     /* after the value of the document */
};

/* Objects with this many members or fewer find duplicate keys by a linear
 * scan; bigger ones get an index so that loading stays linear. */
#define LINEAR_KEYS 8

/* The first blocks of the loader's stacks live in the loader itself, so
 * that a small text needs no allocation for them. */
#define FIRST_FRAMES 8
#define FIRST_ITEMS 32
#define FIRST_MEMBERS 32

/* An open array or object. */
struct frame {
    value *node;
    size_t base;            /* its first slot in items or members */
    size_t member;          /* objects: the member the next value goes to */
    strmap index;           /* objects past LINEAR_KEYS members: key ->
                               member number */
    path_seg seg;           /* the child being read, for error paths */
};

/* A NaN or infinity literal rewritten as a number at byte offset `at`. */
struct special {
    size_t at;
    double d;
};

struct loader {
    arena *a;
    err *e;
    yajl_handle h;
    const unsigned char *text; /* UTF-8, after any byte order mark */
    size_t len;
    size_t next;    /* where the search for the next token starts */
    int finishing;  /* inside yajl_complete_parse() */
    enum expect expect;
    value *root;

    /* Cursor: line and column of byte offset cur. */
    size_t cur;
    uint32_t line, col;

    struct frame *frames;
    size_t depth, frames_cap;
    value **items; /* elements of the open arrays */
    size_t nitems, items_cap;
    value_member *members; /* members of the open objects */
    size_t nmembers, members_cap;

    /* Found by the prescan, in text order; the parse walks them along. */
    struct special *specials;
    size_t nspecials, specials_cap, next_special;
    size_t *unpaired; /* starts of strings that may hold a lone surrogate */
    size_t nunpaired, unpaired_cap, next_unpaired;
    size_t bad_space; /* first \v or \f between tokens; len when none */

    buf own;     /* the text, when it is not the caller's bytes */
    size_t borrowed; /* 1 + the offset of text in the caller's bytes, or 0 */

    /* json_load_member: the member of the top-level object watched for,
     * and where the fast path found the value of its last one in text
     * (watch_at: where the value of the latest top-level member starts;
     * watching: that member is the watched one). */
    const char *watch;
    size_t watch_len, watch_at, found_at, found_len;
    int watching, found;
    /* json_load_lazy: the member whose strings are kept as written
     * (lazy_next: the value read next is one) */
    const char *lazy;
    size_t lazy_len;
    int lazy_next;
    buf scratch; /* a number or string being converted */
    const char *decimal_point; /* the C library's, for strtod; NULL until
                                  a float needs it */

    /* The stacks' first blocks (see FIRST_FRAMES); not zeroed. */
    struct frame first_frames[FIRST_FRAMES];
    value *first_items[FIRST_ITEMS];
    value_member first_members[FIRST_MEMBERS];
};

/* ------------------------------------------------------------ helpers */

/* The array p of *cap elements of `size` bytes, with room for element n:
 * p itself, or p moved to a bigger block; NULL when memory runs out (p is
 * then unchanged). */
static void *reserve(void *p, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return p;
    size_t want = *cap ? *cap * 2 : 16;
    if (want > SIZE_MAX / size)
        return NULL;
    void *q = realloc(p, want * size);
    if (q)
        *cap = want;
    return q;
}

/* reserve() for a stack whose first block is `first`, inside the loader:
 * that block is copied out, never reallocated. */
static void *stack_reserve(void *p, size_t *cap, size_t n, size_t size,
                           void *first)
{
    if (n < *cap || p != first)
        return reserve(p, cap, n, size);
    void *q = malloc(*cap * 2 * size);
    if (!q)
        return NULL;
    memcpy(q, p, *cap * size);
    *cap *= 2;
    return q;
}

static int is_space(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static size_t skip_space(const struct loader *L, size_t i)
{
    while (i < L->len && is_space(L->text[i]))
        i++;
    return i;
}

/* Line and column of byte offset at, counted from the cursor, which then
 * moves there.  Columns count characters: every byte but UTF-8
 * continuation bytes. */
static void locate(struct loader *L, size_t at, uint32_t *line,
                   uint32_t *col)
{
    if (at > L->len)
        at = L->len;
    if (at < L->cur) {
        L->cur = 0;
        L->line = L->col = 1;
    }
    const unsigned char *p = L->text;
    uint32_t ln = L->line, c = L->col;
    for (size_t i = L->cur; i < at; i++) {
        if (p[i] == '\n') {
            ln++;
            c = 1;
        } else {
            c += (p[i] & 0xC0) != 0x80;
        }
    }
    L->cur = at;
    L->line = *line = ln;
    L->col = *col = c;
}

/* Links the open frames into a path: every frame's child, except that of
 * the innermost one unless the place is inside that child. */
static void set_path(struct loader *L, int in_child)
{
    path_seg *leaf = NULL;
    for (size_t k = 0; k < L->depth; k++) {
        struct frame *f = &L->frames[k];
        if (k + 1 == L->depth) {
            if (!in_child)
                break;
            if (f->node->kind == V_ARRAY)
                f->seg.index = L->nitems - f->base;
        }
        f->seg.up = leaf;
        leaf = &f->seg;
    }
    path_format(leaf, L->e->path, sizeof L->e->path);
}

static int fail_at(struct loader *L, enum err_code code, size_t at,
                   int in_child, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Refuses the input with a message about byte offset at; returns 0 so that
 * callbacks can `return fail_at(...)` and stop yajl. */
static int fail_at(struct loader *L, enum err_code code, size_t at,
                   int in_child, const char *fmt, ...)
{
    char msg[sizeof L->e->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    err_set(L->e, code, "%s", msg);
    uint32_t line, col;
    locate(L, at, &line, &col);
    err_at(L->e, line, col);
    set_path(L, in_child);
    return 0;
}

static int nomem(struct loader *L)
{
    err_set(L->e, ERR_NOMEM, "out of memory reading JSON");
    return 0;
}

/* The C library's decimal point, which strtod reads, asked once per text
 * that has a float. */
static const char *decimal_point(struct loader *L)
{
    if (!L->decimal_point) {
        L->decimal_point = localeconv()->decimal_point;
        if (!L->decimal_point || !*L->decimal_point)
            L->decimal_point = ".";
    }
    return L->decimal_point;
}

/* --------------------------------------------------------- duplicates */

static int same_key(const value *a, const value *b)
{
    size_t n = a->u.str.len;
    return n == b->u.str.len &&
           (n == 0 || (a->u.str.ptr[0] == b->u.str.ptr[0] &&
                       memcmp(a->u.str.ptr, b->u.str.ptr, n) == 0));
}

/* Sets f->member to the member of key k in the open object f, adding one
 * when the key is new: a repeated key keeps its first place and takes the
 * last value, as a Python dict does, and the object is flagged
 * VF_REPEATED.  Keys compare as bytes, which is how Python compares them,
 * lone surrogates included: they are decoded to one 3-byte form each,
 * never to '?'. */
static int find_member(struct loader *L, struct frame *f, value *k)
{
    size_t n = L->nmembers - f->base;
    const value_member *m = L->members + f->base;
    if (n <= LINEAR_KEYS) {
        for (size_t i = 0; i < n; i++) {
            if (same_key(m[i].key, k)) {
                f->member = i;
                f->node->flags |= VF_REPEATED;
                return 0;
            }
        }
    } else {
        if (!f->index.cap) /* past the linear scan: index what is there */
            for (size_t i = 0; i < n; i++) {
                size_t at = i;
                if (strmap_get_or_put(&f->index, m[i].key->u.str.ptr,
                                      m[i].key->u.str.len, &at) < 0)
                    return -1;
            }
        size_t at = n;
        int r = strmap_get_or_put(&f->index, k->u.str.ptr, k->u.str.len, &at);
        if (r < 0)
            return -1;
        if (r == 1) {
            f->member = at;
            f->node->flags |= VF_REPEATED;
            return 0;
        }
    }
    if (L->nmembers == L->members_cap) {
        value_member *grown = stack_reserve(L->members, &L->members_cap,
                                            L->nmembers, sizeof *grown,
                                            L->first_members);
        if (!grown)
            return -1;
        L->members = grown;
    }
    L->members[L->nmembers].key = k;
    L->members[L->nmembers].val = NULL;
    L->nmembers++;
    f->member = n;
    return 0;
}

/* --------------------------------------------------------- containers */

/* Opens the array or object v (NULL when it could not be made): 0, or -1
 * out of memory. */
static int push_frame(struct loader *L, value *v)
{
    struct frame *frames = stack_reserve(L->frames, &L->frames_cap, L->depth,
                                         sizeof *frames, L->first_frames);
    if (frames) /* moved or not, it is the frames' block now */
        L->frames = frames;
    if (!v || !frames)
        return -1;
    struct frame *f = &L->frames[L->depth++];
    memset(f, 0, sizeof *f);
    f->node = v;
    f->base = v->kind == V_ARRAY ? L->nitems : L->nmembers;
    return 0;
}

/* Closes the innermost container: its elements or members move into the
 * arena.  0, or -1 out of memory. */
static int pop_frame(struct loader *L)
{
    struct frame *f = &L->frames[L->depth - 1];
    value *v = f->node;
    if (v->kind == V_ARRAY) {
        size_t n = L->nitems - f->base;
        if (n) {
            value **items = arena_alloc(L->a, n * sizeof *items);
            if (!items)
                return -1;
            memcpy(items, L->items + f->base, n * sizeof *items);
            v->u.arr.items = items;
            v->u.arr.len = n;
        }
        L->nitems = f->base;
    } else {
        size_t n = L->nmembers - f->base;
        if (n) {
            value_member *m = arena_alloc(L->a, n * sizeof *m);
            if (!m)
                return -1;
            memcpy(m, L->members + f->base, n * sizeof *m);
            v->u.obj.items = m;
            v->u.obj.len = n;
        }
        L->nmembers = f->base;
        strmap_free(&f->index);
    }
    L->depth--;
    return 0;
}

/* Appends v to the elements of the open arrays: 0, or -1 out of memory. */
static int push_item(struct loader *L, value *v)
{
    if (L->nitems == L->items_cap) {
        value **items = stack_reserve(L->items, &L->items_cap, L->nitems,
                                      sizeof *items, L->first_items);
        if (!items)
            return -1;
        L->items = items;
    }
    L->items[L->nitems++] = v;
    return 0;
}

/* ------------------------------------------------------------- values */

/* The offset where the token of the current callback starts. */
static size_t token_start(const struct loader *L)
{
    size_t i = L->next;
    while (i < L->len && (is_space(L->text[i]) || L->text[i] == ',' ||
                          L->text[i] == ':'))
        i++;
    return i;
}

/* A new value is starting: in an array, it is the next element. */
static void begin_value(struct loader *L)
{
    if (L->depth) {
        struct frame *f = &L->frames[L->depth - 1];
        if (f->node->kind == V_ARRAY)
            f->seg.index = L->nitems - f->base;
    }
}

static value *new_node(struct loader *L, value_kind kind, size_t at)
{
    uint32_t line, col;
    locate(L, at, &line, &col);
    return value_new(L->a, kind, line, col);
}

/* Puts a finished value in its place. */
static int add(struct loader *L, value *v)
{
    if (!v)
        return nomem(L);
    if (!L->depth) {
        L->root = v;
        L->expect = EXP_NOTHING;
        return 1;
    }
    struct frame *f = &L->frames[L->depth - 1];
    if (f->node->kind == V_ARRAY) {
        if (push_item(L, v) < 0)
            return nomem(L);
        L->expect = EXP_ITEM_END;
    } else {
        L->members[f->base + f->member].val = v;
        L->expect = EXP_MEMBER_END;
    }
    return 1;
}

static int on_null(void *ctx)
{
    struct loader *L = ctx;
    size_t at = token_start(L);
    L->next = at + 4;
    begin_value(L);
    return add(L, new_node(L, V_NULL, at));
}

static int on_boolean(void *ctx, int b)
{
    struct loader *L = ctx;
    size_t at = token_start(L);
    L->next = at + (b ? 4 : 5);
    begin_value(L);
    value *v = new_node(L, V_BOOL, at);
    if (v)
        v->u.b = b != 0;
    return add(L, v);
}

/* Reads a float the way Python's float() does.  yajl hands over JSON
 * number syntax only, so strtod cannot see hex, "inf" or "nan" here; the
 * check keeps it that way.  strtod reads the current locale's decimal
 * point: the programs never set a locale, but a caller that did must not
 * get "1.5" read as 1. */
static int read_float(struct loader *L, const char *s, size_t n, size_t at,
                      double *d)
{
    buf_reset(&L->scratch);
    const char *point = decimal_point(L);
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\0' || !strchr("0123456789+-.eE", s[i]))
            return fail_at(L, ERR_SYNTAX, at, 1,
                           "invalid JSON: malformed number");
        int ok = s[i] == '.' ? buf_puts(&L->scratch, point)
                             : buf_putc(&L->scratch, s[i]);
        if (ok < 0)
            return nomem(L);
    }
    char *end;
    *d = strtod(L->scratch.data, &end);
    if (end != L->scratch.data + L->scratch.len)
        return fail_at(L, ERR_SYNTAX, at, 1,
                       "invalid JSON: malformed number");
    return 1;
}

static int on_number(void *ctx, const char *s, size_t n)
{
    struct loader *L = ctx;
    size_t at = token_start(L);
    L->next = at + n;
    begin_value(L);
    while (L->next_special < L->nspecials &&
           L->specials[L->next_special].at < at)
        L->next_special++;
    if (L->next_special < L->nspecials &&
        L->specials[L->next_special].at == at) {
        value *v = new_node(L, V_FLOAT, at);
        if (v)
            v->u.d = L->specials[L->next_special++].d;
        return add(L, v);
    }
    if (!memchr(s, '.', n) && !memchr(s, 'e', n) && !memchr(s, 'E', n)) {
        size_t digits = n - (s[0] == '-');
        if (digits > PYINT_MAX_DIGITS)
            return fail_at(L, ERR_LIMIT, at, 1,
                           "an integer of %zu digits is longer than "
                           "Python reads (%d digits); write it as a string",
                           digits, PYINT_MAX_DIGITS);
        if (n == 2 && s[0] == '-' && s[1] == '0') {
            s = "0";
            n = 1;
        }
        uint32_t line, col;
        locate(L, at, &line, &col);
        return add(L, value_new_text(L->a, V_INT, s, n, line, col));
    }
    double d = 0;
    if (!read_float(L, s, n, at, &d))
        return 0;
    value *v = new_node(L, V_FLOAT, at);
    if (v)
        v->u.d = d;
    return add(L, v);
}

static unsigned long hex4(const unsigned char *p)
{
    unsigned long v = 0;
    for (int i = 0; i < 4; i++) {
        unsigned char c = p[i];
        v = v * 16 + (c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
    }
    return v;
}

/* The byte a two-byte escape's letter stands for (\" \\ \/ \b \f \n \r
 * \t), 0 for any other letter (\u, or a malformed escape). */
static const char simple_escape[256] = {
    ['"'] = '"', ['\\'] = '\\', ['/'] = '/', ['b'] = '\b',
    ['f'] = '\f', ['n'] = '\n', ['r'] = '\r', ['t'] = '\t'};

/* Decodes the body of a string that yajl has lexed (so its escapes are
 * well formed) into out, as Python's scanner does: \uD800-\uDBFF pairs
 * with a \uDC00-\uDFFF right after it, any other surrogate stays alone.
 * *lone tells whether one did, escaped or raw. */
static int unescape(buf *out, const unsigned char *p, size_t n, int *lone)
{
    buf_reset(out);
    *lone = 0;
    size_t i = 0, start = 0;
    while (i < n) {
        if (p[i] == 0xED && i + 1 < n && p[i + 1] >= 0xA0) {
            *lone = 1;
            i += 3;
            continue;
        }
        if (p[i] != '\\') {
            i++;
            continue;
        }
        if (buf_append(out, p + start, i - start) < 0)
            return -1;
        if (p[i + 1] != 'u') {
            if (buf_putc(out, simple_escape[p[i + 1]]) < 0)
                return -1;
            i += 2;
        } else {
            unsigned long cp = hex4(p + i + 2);
            i += 6;
            if (cp >= 0xD800 && cp <= 0xDBFF && i + 6 <= n &&
                p[i] == '\\' && p[i + 1] == 'u') {
                unsigned long low = hex4(p + i + 2);
                if (low >= 0xDC00 && low <= 0xDFFF) {
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                    i += 6;
                }
            }
            if (cp >= 0xD800 && cp <= 0xDFFF)
                *lone = 1;
            if (utf8_put(out, cp) < 0)
                return -1;
        }
        start = i;
    }
    return buf_append(out, p + start, n - start);
}

/* A V_STRING for a string token from at to L->next: yajl's decoding, or
 * ours when the prescan saw a surrogate in it. */
static value *string_node(struct loader *L, const unsigned char *s, size_t n,
                          size_t at)
{
    uint32_t line, col;
    locate(L, at, &line, &col);
    while (L->next_unpaired < L->nunpaired &&
           L->unpaired[L->next_unpaired] < at)
        L->next_unpaired++;
    if (L->next_unpaired < L->nunpaired &&
        L->unpaired[L->next_unpaired] == at) {
        L->next_unpaired++;
        int lone;
        if (unescape(&L->scratch, L->text + at + 1, L->next - at - 2,
                     &lone) < 0)
            return NULL;
        value *v = value_new_text(L->a, V_STRING, L->scratch.data,
                                  L->scratch.len, line, col);
        if (v && lone)
            v->flags |= VF_UNENCODABLE;
        return v;
    }
    return value_new_text(L->a, V_STRING, (const char *)s, n, line, col);
}

/* yajl calls back for a string when it has read its closing quote, so the
 * string ends where yajl stands; never while finishing, where only a
 * number can still be pending. */
static int on_string(void *ctx, const unsigned char *s, size_t n)
{
    struct loader *L = ctx;
    size_t at = token_start(L);
    L->next = yajl_get_bytes_consumed(L->h);
    begin_value(L);
    return add(L, string_node(L, s, n, at));
}

static int on_key(void *ctx, const unsigned char *s, size_t n)
{
    struct loader *L = ctx;
    size_t at = token_start(L);
    L->next = yajl_get_bytes_consumed(L->h);
    value *k = string_node(L, s, n, at);
    struct frame *f = &L->frames[L->depth - 1];
    if (!k || find_member(L, f, k) < 0)
        return nomem(L);
    f->seg.key = k->u.str.ptr;
    f->seg.keylen = k->u.str.len;
    L->expect = EXP_COLON;
    return 1;
}

static int open_container(struct loader *L, value_kind kind)
{
    size_t at = token_start(L);
    L->next = at + 1;
    begin_value(L);
    if (L->depth >= VALUE_MAX_DEPTH)
        return fail_at(L, ERR_LIMIT, at, 1,
                       "nesting deeper than %d levels; this is the limit",
                       VALUE_MAX_DEPTH);
    if (push_frame(L, new_node(L, kind, at)) < 0)
        return nomem(L);
    L->expect = kind == V_ARRAY ? EXP_FIRST_ITEM : EXP_FIRST_KEY;
    return 1;
}

static int close_container(struct loader *L)
{
    size_t at = token_start(L);
    L->next = at + 1;
    value *v = L->frames[L->depth - 1].node;
    if (pop_frame(L) < 0)
        return nomem(L);
    return add(L, v);
}

static int on_start_map(void *ctx)
{
    return open_container(ctx, V_OBJECT);
}

static int on_start_array(void *ctx)
{
    return open_container(ctx, V_ARRAY);
}

static int on_end(void *ctx)
{
    return close_container(ctx);
}

/* ------------------------------------------------------------ prescan */

enum { OUT_STRING = 1, OUT_WORD, OUT_BAD_SPACE };

/* Bytes that need a look outside strings. */
static const unsigned char outside_class[256] = {
    ['"'] = OUT_STRING, ['N'] = OUT_WORD, ['I'] = OUT_WORD, ['-'] = OUT_WORD,
    ['\v'] = OUT_BAD_SPACE, ['\f'] = OUT_BAD_SPACE};

/* Bytes that need a look inside strings (0xED may start a surrogate). */
static const unsigned char inside_class[256] = {
    ['"'] = 1, ['\\'] = 1, [0xED] = 1};

static const struct {
    const char *word, *number;
    size_t len;
} words[] = {{"NaN", "0e0", 3},
             {"Infinity", "1e+00000", 8},
             {"-Infinity", "-1e+00000", 9}};

static int ends_token(unsigned char c)
{
    return is_space(c) || c == ',' || c == ']' || c == '}';
}

/* Notes a NaN/Infinity/-Infinity at i if one stands there as a token of
 * its own: after a byte that ends the token before (or at the start) and
 * before one that ends it.  Then the number written in its place is a
 * token of its own too, in the same place of the grammar, so yajl accepts
 * the text exactly when Python does: "1NaN", "NaN1", "-NaN" and
 * "Infinity0" stay as they are and stay refused. */
static int note_word(struct loader *L, size_t i)
{
    if (i > 0 && !is_space(L->text[i - 1]) && L->text[i - 1] != '[' &&
        L->text[i - 1] != ':' && L->text[i - 1] != ',')
        return 0;
    for (size_t w = 0; w < sizeof words / sizeof words[0]; w++) {
        size_t n = words[w].len;
        if (L->len - i < n || memcmp(L->text + i, words[w].word, n) != 0)
            continue;
        if (i + n < L->len && !ends_token(L->text[i + n]))
            return 0;
        struct special *sp = reserve(L->specials, &L->specials_cap,
                                     L->nspecials, sizeof *sp);
        if (!sp)
            return -1;
        L->specials = sp;
        double d = w == 0 ? NAN : w == 1 ? INFINITY : -INFINITY;
        L->specials[L->nspecials].at = i;
        L->specials[L->nspecials].d = d;
        L->nspecials++;
        return 0;
    }
    return 0;
}

/* Skips the string starting at i (its opening quote) and returns the
 * offset after it.  Notes it when it may hold a lone surrogate: an escape
 * \uD800-\uDFFF, or (when the text has any) a raw one. */
static size_t skip_string(struct loader *L, size_t i, int raw_surrogates,
                          int *nomem_hit)
{
    const unsigned char *p = L->text;
    size_t n = L->len, start = i;
    int maybe = 0;
    for (i++; i < n; i++) {
        while (i < n && !inside_class[p[i]])
            i++;
        if (i >= n)
            break;
        if (p[i] == '"') {
            i++;
            break;
        }
        if (p[i] == '\\') {
            if (i + 3 < n && p[i + 1] == 'u' && (p[i + 2] | 0x20) == 'd' &&
                strchr("89abcdefABCDEF", p[i + 3]) && p[i + 3])
                maybe = 1;
            i++; /* the escaped byte, so that \" does not end the string */
        } else if (raw_surrogates && i + 1 < n && p[i + 1] >= 0xA0) {
            maybe = 1; /* 0xED then A0..BF: a surrogate */
        }
    }
    if (maybe) {
        size_t *u = reserve(L->unpaired, &L->unpaired_cap, L->nunpaired,
                            sizeof *u);
        if (!u) {
            *nomem_hit = 1;
        } else {
            L->unpaired = u;
            L->unpaired[L->nunpaired++] = start;
        }
    }
    return i;
}

/* The prescan (see the top of the file).  It follows strings as yajl
 * does, so the two agree on what is inside a string up to the first
 * error yajl finds; what the prescan notes after that does not matter. */
static int prescan(struct loader *L, int raw_surrogates)
{
    const unsigned char *p = L->text;
    size_t n = L->len, i = 0;
    int nomem_hit = 0;
    L->bad_space = n;
    while (i < n && !nomem_hit) {
        switch (outside_class[p[i]]) {
        case OUT_STRING:
            i = skip_string(L, i, raw_surrogates, &nomem_hit);
            continue;
        case OUT_WORD:
            if (note_word(L, i) < 0)
                nomem_hit = 1;
            break;
        case OUT_BAD_SPACE:
            /* yajl will stop here: nothing after matters. */
            L->bad_space = i;
            return 0;
        }
        i++;
    }
    return nomem_hit ? -1 : 0;
}

/* Writes the numbers in place of the NaN and Infinity literals, in a copy
 * of the text when it is still the caller's. */
static int rewrite_words(struct loader *L)
{
    if (!L->nspecials)
        return 0;
    if (L->text != (const unsigned char *)L->own.data) {
        if (buf_append(&L->own, L->text, L->len) < 0)
            return -1;
        L->text = (const unsigned char *)L->own.data;
    }
    for (size_t k = 0; k < L->nspecials; k++) {
        const struct special *s = &L->specials[k];
        size_t w = isnan(s->d) ? 0 : s->d > 0 ? 1 : 2;
        memcpy(L->own.data + s->at, words[w].number, words[w].len);
    }
    return 0;
}

/* ------------------------------------------------------------- decode */

/* Refuses text that does not decode; L->text and L->len hold what decoded
 * before the bad part, whose end is the place. */
static int refuse_encoding(struct loader *L, const char *encoding,
                           const utf8_report *r)
{
    uint32_t line, col;
    locate(L, L->len, &line, &col);
    err_set(L->e, ERR_SYNTAX,
            "invalid JSON: the text is not valid %s (%s); save it as UTF-8",
            encoding, r->why);
    err_at(L->e, line, col);
    L->e->path[0] = '\0';
    return -1;
}

/* Sets L->text to the text as UTF-8, refusing what Python's decoder
 * refuses; *raw_surrogates tells whether lone surrogates are in it. */
static int decode(struct loader *L, const unsigned char *bytes, size_t len,
                  int *raw_surrogates)
{
    utf8_encoding enc;
    size_t bom = utf8_detect_json(bytes, len, &enc);
    utf8_report r;
    bytes += bom;
    len -= bom;
    if (enc == UTF8_ENC_UTF8) {
        if (utf8_check(bytes, len, UTF8_SURROGATEPASS, &r) != UTF8_OK) {
            /* Lines and columns of the valid text before the bad byte. */
            L->text = bytes;
            L->len = r.bad_at;
            return refuse_encoding(L, "UTF-8", &r);
        }
        L->text = bytes;
        L->len = len;
        L->borrowed = 1 + bom;
    } else {
        int rc = utf8_transcode(&L->own, bytes, len, enc, &r);
        L->text = (const unsigned char *)(L->own.data ? L->own.data : "");
        L->len = L->own.len;
        if (rc == UTF8_NOMEM) {
            nomem(L);
            return -1;
        }
        if (rc != UTF8_OK)
            return refuse_encoding(L,
                                   enc == UTF8_ENC_UTF16LE ||
                                           enc == UTF8_ENC_UTF16BE
                                       ? "UTF-16"
                                       : "UTF-32",
                                   &r);
    }
    *raw_surrogates = r.surrogates > 0;
    return 0;
}

/* -------------------------------------------------------------- parse */

static const char *expected(enum expect ex)
{
    switch (ex) {
    case EXP_VALUE: return "expected a value";
    case EXP_FIRST_ITEM: return "expected a value or ']'";
    case EXP_FIRST_KEY: return "expected a key in double quotes or '}'";
    case EXP_KEY: return "expected a key in double quotes after ','";
    case EXP_COLON: return "expected ':' after a key";
    case EXP_ITEM_END: return "expected ',' or ']' after an element";
    case EXP_MEMBER_END: return "expected ',' or '}' after a member";
    case EXP_NOTHING:
        return "unexpected text after the value; only whitespace may "
               "follow it";
    }
    return "unexpected text";
}

/* Whether an error met in state ex lies inside the innermost container's
 * current child (rather than between its children). */
static int in_child(enum expect ex)
{
    return ex == EXP_VALUE || ex == EXP_FIRST_ITEM || ex == EXP_COLON;
}

/* Where yajl's error lies: at the start of the token, on the byte where
 * yajl stopped inside a string, or on the backslash of the escape it
 * stopped in. */
enum { AT_TOKEN, AT_BYTE, AT_ESCAPE };

/* yajl's lexical errors, by the start of their text, in our words. */
static const struct {
    const char *yajl, *ours;
    int place;
} lexical[] = {
    {"invalid character inside string",
     "a control character in a string; write it as an escape (\\n, \\t, "
     "\\u001f...)",
     AT_BYTE},
    {"inside a string, '\\' occurs before",
     "invalid escape in a string; a '\\' may only come before one of "
     "\" \\ / b f n r t u",
     AT_ESCAPE},
    {"invalid (non-hex) character occurs after",
     "\\u in a string must be followed by four hex digits", AT_ESCAPE},
    {"invalid bytes in UTF8", "invalid UTF-8 in a string", AT_BYTE},
    {"malformed number, a digit is required after the exponent",
     "malformed number: a digit must follow the exponent", AT_TOKEN},
    {"malformed number, a digit is required after the decimal",
     "malformed number: a digit must follow the decimal point", AT_TOKEN},
    {"malformed number, a digit is required after the minus",
     "malformed number: a digit must follow the minus sign", AT_TOKEN},
    {"probable comment", "comments are not allowed in JSON", AT_TOKEN},
    {"invalid string in json text",
     "expected a value (a word here must be true, false or null)", AT_TOKEN},
    {"probable hex number", "hexadecimal numbers are not JSON", AT_TOKEN},
};

/* Where yajl stopped: the first token after the last one read, past a
 * ',' or ':' that yajl took (without a callback) before it stopped, and
 * what the parser expects there. */
static size_t stop_place(struct loader *L, enum expect *ex)
{
    *ex = L->expect;
    size_t at = skip_space(L, L->next);
    if (at < L->len && ((L->text[at] == ',' && *ex == EXP_ITEM_END) ||
                        (L->text[at] == ',' && *ex == EXP_MEMBER_END) ||
                        (L->text[at] == ':' && *ex == EXP_COLON))) {
        *ex = *ex == EXP_MEMBER_END ? EXP_KEY : EXP_VALUE;
        at = skip_space(L, at + 1);
    }
    return at;
}

/* Turns yajl's error into one line of our own, at the place it is. */
static int refuse_parse(struct loader *L)
{
    unsigned char *text = yajl_get_error(L->h, 0, L->text, L->len);
    const char *what = text ? (const char *)text : "";
    size_t consumed = yajl_get_bytes_consumed(L->h);
    enum expect ex;
    size_t at = stop_place(L, &ex);

    char msg[400];
    const char *lex = strstr(what, "lexical error: ");
    const char *ours = NULL;
    if (lex) {
        lex += strlen("lexical error: ");
        for (size_t k = 0; k < sizeof lexical / sizeof lexical[0]; k++) {
            if (strncmp(lex, lexical[k].yajl, strlen(lexical[k].yajl)))
                continue;
            ours = lexical[k].ours;
            if (lexical[k].place != AT_TOKEN && !L->finishing &&
                consumed > at && consumed < L->len) {
                size_t start = at;
                at = consumed;
                while (lexical[k].place == AT_ESCAPE && at > start &&
                       L->text[at] != '\\')
                    at--;
            }
            break;
        }
        if (!ours && strncmp(lex, "invalid char", 12) != 0) {
            size_t n = strcspn(lex, "\n");
            snprintf(msg, sizeof msg, "%.*s", (int)n, lex);
            ours = msg;
        }
    }
    if (!ours)
        ours = expected(ex);
    if (at >= L->len && ex == EXP_VALUE && L->depth == 0)
        fail_at(L, ERR_SYNTAX, at, 0, "invalid JSON: the text is empty");
    else if (at >= L->len)
        fail_at(L, ERR_SYNTAX, at, in_child(ex),
                "invalid JSON: the text ends early; %s", ours);
    else
        fail_at(L, ERR_SYNTAX, at, in_child(ex), "invalid JSON: %s", ours);
    if (text)
        yajl_free_error(L->h, text);
    return -1;
}

static const yajl_callbacks callbacks = {
    on_null, on_boolean, NULL, NULL, on_number, on_string,
    on_start_map, on_key, on_end, on_start_array, on_end};

static int parse(struct loader *L)
{
    L->h = yajl_alloc(&callbacks, NULL, L);
    if (!L->h) {
        nomem(L);
        return -1;
    }
    /* One value, nothing after it but whitespace, no comments; UTF-8 was
     * checked already, and better. */
    yajl_config(L->h, yajl_allow_comments, 0);
    yajl_config(L->h, yajl_allow_trailing_garbage, 0);
    yajl_config(L->h, yajl_allow_multiple_values, 0);
    yajl_config(L->h, yajl_allow_partial_values, 0);
    yajl_config(L->h, yajl_dont_validate_strings, 1);

    /* One chunk: yajl's offsets are then offsets into the text. */
    yajl_status st = yajl_parse(L->h, L->text, L->bad_space);
    if (st == yajl_status_ok && L->bad_space < L->len) {
        enum expect ex;
        stop_place(L, &ex);
        fail_at(L, ERR_SYNTAX, L->bad_space, in_child(ex),
                "invalid JSON: a %s between tokens; only spaces, tabs and "
                "line breaks may stand there",
                L->text[L->bad_space] == '\v' ? "vertical tab"
                                               : "form feed");
        return -1;
    }
    if (st == yajl_status_ok) {
        L->finishing = 1;
        st = yajl_complete_parse(L->h);
    }
    if (st == yajl_status_client_canceled)
        return -1; /* a callback said why */
    if (st != yajl_status_ok)
        return refuse_parse(L);
    /* yajl misses trailing text that is an unfinished token (an open
     * string, "tru"): it waits for the rest, then ends content. */
    size_t after = skip_space(L, L->next);
    if (after < L->len) {
        fail_at(L, ERR_SYNTAX, after, 0, "invalid JSON: %s",
                expected(EXP_NOTHING));
        return -1;
    }
    return 0;
}

/* ---------------------------------------------------------- fast path */

/*
 * Most texts need nothing that the prescan and yajl's error reports are
 * there for: no NaN or infinity, no surrogate, no error.  The fast path
 * reads such a text in one pass and builds the very tree the general path
 * builds (the same nodes, lines, columns and folding of duplicate keys).
 * At the first thing it does not handle (NaN or an infinity, a \u escape
 * of a surrogate, a control character in a string, any syntax error, the
 * depth limit, an integer too long for Python) it gives up, and the text
 * is read again from its start by the general path, which also says what
 * is wrong and where.  Texts holding raw surrogates never take it.
 */

enum { FAST_DONE = 0, FAST_NOMEM = -1, FAST_GIVE_UP = -2 };

/* Where the fast path stands.  Columns need no cursor of their own: a
 * newline only occurs between tokens, and UTF-8 continuation bytes only
 * inside strings, so the column of offset i is 1 + the bytes since the
 * line's start that are not continuation bytes. */
struct fast {
    const unsigned char *p;
    size_t n, i;
    size_t line_start; /* offset just after the last newline before i */
    size_t cont;       /* continuation bytes from line_start to i */
    uint32_t line;
};

static uint32_t fast_col(const struct fast *F, size_t at)
{
    return (uint32_t)(at - F->line_start - F->cont + 1);
}

static void fast_space_run(struct fast *F)
{
    const unsigned char *p = F->p;
    size_t i = F->i, n = F->n;
    while (i < n) {
        unsigned char c = p[i];
        if (c == ' ' || c == '\t' || c == '\r') {
            i++;
        } else if (c == '\n') {
            i++;
            F->line++;
            F->line_start = i;
            F->cont = 0;
        } else {
            break;
        }
    }
    F->i = i;
}

/* Skips whitespace; most texts have little, so the common case (none)
 * is one test. */
static inline void fast_space(struct fast *F)
{
    if (F->i < F->n && F->p[F->i] > ' ')
        return;
    fast_space_run(F);
}

/* The bytes of x a string's body stops at (see string_stop): those it
 * must decode (wordscan.h), and any byte of UTF-8 past ASCII, as their top
 * bits. */
static uint64_t word_stops(uint64_t x)
{
    return wordscan_escapes(x) | (x & WORDSCAN_HIGHS);
}

/* The offset from i of the first byte a string's body stops at, 8 bytes
 * at a time while 8 are left; then n - i, or fewer than 8 bytes on. */
static size_t skip_plain(const unsigned char *p, size_t i, size_t n)
{
    size_t start = i;
    while (n - i >= 8) {
        uint64_t x;
        memcpy(&x, p + i, 8);
        uint64_t stops = word_stops(x);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        if (stops)
            return i + (size_t)(__builtin_ctzll(stops) / 8) - start;
#else
        if (stops)
            break;
#endif
        i += 8;
    }
    return i - start;
}

/* Bytes a string's body stops at: 1 for its end, an escape and control
 * characters, 2 for non-ASCII bytes (counted for columns). */
static const unsigned char string_stop[256] = {
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
};

/* Decodes the escape at p (its backslash; n bytes left) as yajl decodes
 * it into out (at most 3 bytes: a surrogate is never decoded here) and
 * sets *used to its length.  Returns how many bytes out holds, or 0 for
 * what the general path must see: a malformed escape, or a surrogate. */
static size_t fast_escape(const unsigned char *p, size_t n, size_t *used,
                          char out[3])
{
    if (n < 2)
        return 0;
    if (p[1] != 'u') {
        if (!simple_escape[p[1]])
            return 0;
        *used = 2;
        out[0] = simple_escape[p[1]];
        return 1;
    }
    if (n < 6)
        return 0;
    unsigned long cp = 0;
    for (int k = 2; k < 6; k++) {
        int h = hex_digit_value(p[k]);
        if (h < 0)
            return 0;
        cp = cp * 16 + (unsigned long)h;
    }
    if (cp >= 0xD800 && cp <= 0xDFFF)
        return 0;
    *used = 6;
    if (cp < 0x80) { /* as utf8_put writes it */
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    out[0] = (char)(0xE0 | (cp >> 12));
    out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[2] = (char)(0x80 | (cp & 0x3F));
    return 3;
}

/* Writes into dst the n bytes at src, a string's body as written and
 * checked by the fast path, with its escapes decoded; returns how many
 * bytes it wrote (never more than n). */
static size_t decode_escaped(char *dst, const unsigned char *src, size_t n)
{
    size_t r = 0, w = 0;
    while (r < n) {
        const unsigned char *bs = memchr(src + r, '\\', n - r);
        size_t run = bs ? (size_t)(bs - (src + r)) : n - r;
        memcpy(dst + w, src + r, run);
        r += run;
        w += run;
        if (!bs)
            break;
        char one = simple_escape[src[r + 1]];
        if (one) {
            dst[w++] = one;
            r += 2;
            continue;
        }
        char out[3];
        size_t used = 0;
        size_t k = fast_escape(src + r, n - r, &used, out);
        memcpy(dst + w, out, k);
        w += k;
        r += used;
    }
    return w;
}

/* Whether the escape at p[i] (its backslash) is one the fast path reads,
 * and its length in *used. */
static int escape_ok(const unsigned char *p, size_t i, size_t n,
                     size_t *used)
{
    if (i + 1 < n && simple_escape[p[i + 1]]) {
        *used = 2;
        return 1;
    }
    char decoded[3];
    return fast_escape(p + i, n - i, used, decoded) != 0;
}

/* Finds the end of the string body that starts at p[i], checking it as
 * fast_string does (escapes it reads, no control character): *end is the
 * offset of its closing quote, *cont the UTF-8 continuation bytes before
 * it, *escaped whether it holds an escape.  0, or FAST_GIVE_UP.  Sixteen
 * bytes at a time where SSE2 is, looking only at the quotes, backslashes
 * and control characters among them. */
static int string_end(const unsigned char *p, size_t i, size_t n,
                      size_t *end, size_t *cont, int *escaped)
{
    size_t skip = i; /* the bytes before it are read (escapes' own) */
    size_t count = 0;
    int esc = 0;
#ifdef __SSE2__
    const __m128i quote = _mm_set1_epi8('"'), bs = _mm_set1_epi8('\\'),
                  low = _mm_set1_epi8(0x1F), top = _mm_set1_epi8((char)0xC0),
                  follow = _mm_set1_epi8((char)0x80);
    for (; n - i >= 16; i += 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
        unsigned stops = (unsigned)_mm_movemask_epi8(_mm_or_si128(
            _mm_or_si128(_mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, bs)),
            _mm_cmpeq_epi8(_mm_min_epu8(x, low), x)));
        unsigned conts = (unsigned)_mm_movemask_epi8(
            _mm_cmpeq_epi8(_mm_and_si128(x, top), follow));
        for (; stops; stops &= stops - 1) {
            size_t at = i + (size_t)__builtin_ctz(stops);
            if (at < skip)
                continue; /* inside an escape */
            unsigned char c = p[at];
            if (c == '"') {
                unsigned before = (1u << (at - i)) - 1;
                *end = at;
                *cont = count + (conts & before ? (size_t)__builtin_popcount(
                                                      conts & before)
                                                : 0);
                *escaped = esc;
                return 0;
            }
            size_t used;
            if (c != '\\' || !escape_ok(p, at, n, &used))
                return FAST_GIVE_UP; /* a control character, a bad escape */
            esc = 1;
            skip = at + used;
        }
        if (conts) /* UTF-8 past ASCII: rare in most logs */
            count += (size_t)__builtin_popcount(conts);
    }
#endif
    for (i = i > skip ? i : skip; i < n;) {
        i += skip_plain(p, i, n);
        if (i >= n)
            break;
        unsigned char c = p[i];
        if (!string_stop[c]) { /* fewer than 8 bytes were left */
            i++;
            continue;
        }
        if (c == '"') {
            *end = i;
            *cont = count;
            *escaped = esc;
            return 0;
        }
        if (c == '\\') {
            size_t used;
            if (!escape_ok(p, i, n, &used))
                return FAST_GIVE_UP;
            esc = 1;
            i += used;
            continue;
        }
        if (c < 0x20)
            return FAST_GIVE_UP;
        count += (c & 0xC0) == 0x80;
        i++;
    }
    return FAST_GIVE_UP;
}

/* Reads the string whose opening quote is at F->i into a new V_STRING,
 * its body checked as it is read: most strings (keys, names, ids) end
 * at their first stop, past a plain run read 8 bytes at a time, and are
 * copied as they are; any other is read to its end by string_end, then
 * copied with its escapes decoded, or, when kept is set and it holds
 * one (json_load_lazy), copied as written and flagged VF_ESCAPED. */
static int fast_string(struct loader *L, struct fast *F, value **out,
                       int kept)
{
    const unsigned char *p = F->p;
    size_t n = F->n, start = F->i + 1, end = start + skip_plain(p, start, n);
    size_t cont = 0;
    uint32_t line = F->line, col = fast_col(F, F->i);
    int escaped = 0;
    if ((end >= n || p[end] != '"') &&
        string_end(p, end, n, &end, &cont, &escaped))
        return FAST_GIVE_UP;
    F->i = end + 1;
    F->cont += cont;
    size_t len = end - start;
    if (!escaped || kept) {
        *out = value_new_text(L->a, V_STRING, (const char *)p + start, len,
                              line, col);
        if (*out && escaped)
            (*out)->flags |= VF_ESCAPED;
        return *out ? FAST_DONE : FAST_NOMEM;
    }
    value *v = value_init(arena_alloc(L->a, sizeof(value) + len + 1),
                          V_STRING, line, col);
    if (!v)
        return FAST_NOMEM;
    char *text = (char *)(v + 1);
    size_t w = decode_escaped(text, p + start, len);
    text[w] = '\0';
    v->u.str.ptr = text;
    v->u.str.len = w;
    *out = v;
    return FAST_DONE;
}

static int is_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

/* Reads the number at F->i, as on_number() does. */
static int fast_number(struct loader *L, struct fast *F, value **out)
{
    const unsigned char *p = F->p;
    size_t n = F->n, at = F->i, i = at;
    int is_float = 0;
    if (p[i] == '-')
        i++;
    if (i < n && p[i] == '0')
        i++;
    else if (i < n && p[i] >= '1' && p[i] <= '9')
        while (i < n && is_digit(p[i]))
            i++;
    else
        return FAST_GIVE_UP;
    if (i < n && p[i] == '.') {
        if (++i >= n || !is_digit(p[i]))
            return FAST_GIVE_UP;
        while (i < n && is_digit(p[i]))
            i++;
        is_float = 1;
    }
    if (i < n && (p[i] == 'e' || p[i] == 'E')) {
        if (++i < n && (p[i] == '+' || p[i] == '-'))
            i++;
        if (i >= n || !is_digit(p[i]))
            return FAST_GIVE_UP;
        while (i < n && is_digit(p[i]))
            i++;
        is_float = 1;
    }
    const char *s = (const char *)p + at;
    size_t len = i - at;
    uint32_t line = F->line, col = fast_col(F, at);
    F->i = i;
    if (!is_float) {
        if (len - (s[0] == '-') > PYINT_MAX_DIGITS)
            return FAST_GIVE_UP;
        if (len == 2 && s[0] == '-' && s[1] == '0') {
            s = "0";
            len = 1;
        }
        *out = value_new_text(L->a, V_INT, s, len, line, col);
        return *out ? FAST_DONE : FAST_NOMEM;
    }
    /* As read_float(): strtod with the C library's decimal point; in a
     * small array of its own when it fits (nearly always), else in the
     * loader's scratch. */
    const char *point = decimal_point(L);
    size_t plen = strlen(point);
    char small[64], *text = small;
    size_t tlen = 0;
    if (len + plen < sizeof small) {
        for (size_t k = 0; k < len; k++) {
            if (s[k] == '.') {
                memcpy(small + tlen, point, plen);
                tlen += plen;
            } else {
                small[tlen++] = s[k];
            }
        }
        small[tlen] = '\0';
    } else {
        buf_reset(&L->scratch);
        for (size_t k = 0; k < len; k++)
            if ((s[k] == '.' ? buf_puts(&L->scratch, point)
                             : buf_putc(&L->scratch, s[k])) < 0)
                return FAST_NOMEM;
        text = L->scratch.data;
        tlen = L->scratch.len;
    }
    char *end;
    double d = strtod(text, &end);
    if (end != text + tlen)
        return FAST_GIVE_UP;
    *out = value_new(L->a, V_FLOAT, line, col);
    if (!*out)
        return FAST_NOMEM;
    (*out)->u.d = d;
    return FAST_DONE;
}

/* Reads a key, its colon and the space after it, for the innermost open
 * object. */
static int fast_key(struct loader *L, struct fast *F)
{
    if (F->i >= F->n || F->p[F->i] != '"')
        return FAST_GIVE_UP;
    value *k;
    int rc = fast_string(L, F, &k, 0);
    if (rc != FAST_DONE)
        return rc;
    if (find_member(L, &L->frames[L->depth - 1], k) < 0)
        return FAST_NOMEM;
    fast_space(F);
    if (F->i >= F->n || F->p[F->i] != ':')
        return FAST_GIVE_UP;
    F->i++;
    fast_space(F);
    if (L->watch && L->depth == 1) {
        L->watching = k->u.str.len == L->watch_len &&
                      memcmp(k->u.str.ptr, L->watch, L->watch_len) == 0;
        L->watch_at = F->i;
    }
    L->lazy_next = L->lazy && k->u.str.len == L->lazy_len &&
                   memcmp(k->u.str.ptr, L->lazy, L->lazy_len) == 0;
    return FAST_DONE;
}

/* Reads the value at F->i: a scalar or an empty container into *out, or
 * opens a container (then *out stays NULL and its first member or
 * element comes next). */
static int fast_value(struct loader *L, struct fast *F, value **out)
{
    const unsigned char *p = F->p;
    size_t i = F->i, n = F->n;
    if (i >= n)
        return FAST_GIVE_UP;
    if (L->lazy_next && p[i] != '"')
        L->lazy_next = 0; /* a value that is no string */
    uint32_t line = F->line, col = fast_col(F, i);
    switch (p[i]) {
    case '"':
        if (L->lazy_next) {
            L->lazy_next = 0;
            return fast_string(L, F, out, 1);
        }
        return fast_string(L, F, out, 0);
    case '-': case '0': case '1': case '2': case '3': case '4':
    case '5': case '6': case '7': case '8': case '9':
        return fast_number(L, F, out);
    case 't':
    case 'f':
        if (n - i >= 4 && memcmp(p + i, "true", 4) == 0)
            F->i += 4;
        else if (n - i >= 5 && memcmp(p + i, "false", 5) == 0)
            F->i += 5;
        else
            return FAST_GIVE_UP;
        *out = value_new(L->a, V_BOOL, line, col);
        if (!*out)
            return FAST_NOMEM;
        (*out)->u.b = p[i] == 't';
        return FAST_DONE;
    case 'n':
        if (n - i < 4 || memcmp(p + i, "null", 4) != 0)
            return FAST_GIVE_UP;
        F->i += 4;
        *out = value_new(L->a, V_NULL, line, col);
        return *out ? FAST_DONE : FAST_NOMEM;
    case '[':
    case '{': {
        if (L->depth >= VALUE_MAX_DEPTH)
            return FAST_GIVE_UP;
        value_kind kind = p[i] == '[' ? V_ARRAY : V_OBJECT;
        value *v = value_new(L->a, kind, line, col);
        F->i++;
        fast_space(F);
        if (F->i < n && p[F->i] == (kind == V_ARRAY ? ']' : '}')) {
            F->i++;
            *out = v;
            return v ? FAST_DONE : FAST_NOMEM;
        }
        if (push_frame(L, v) < 0)
            return FAST_NOMEM;
        return kind == V_OBJECT ? fast_key(L, F) : FAST_DONE;
    }
    default:
        return FAST_GIVE_UP;
    }
}

/* The fast path (see above): FAST_DONE with L->root set, FAST_NOMEM, or
 * FAST_GIVE_UP. */
static int fast_parse(struct loader *L)
{
    struct fast F = {L->text, L->len, 0, 0, 0, 1};
    fast_space(&F);
    for (;;) {
        value *v = NULL;
        int rc = fast_value(L, &F, &v);
        if (rc != FAST_DONE)
            return rc;
        /* Puts the finished value v in its place, then closes every
         * container it finishes. */
        while (v) {
            size_t end = F.i;
            fast_space(&F);
            if (!L->depth) {
                if (F.i != F.n)
                    return FAST_GIVE_UP;
                L->root = v;
                return FAST_DONE;
            }
            struct frame *f = &L->frames[L->depth - 1];
            int array = f->node->kind == V_ARRAY;
            if (array) {
                if (push_item(L, v) < 0)
                    return FAST_NOMEM;
            } else {
                L->members[f->base + f->member].val = v;
                if (L->watching && L->depth == 1) {
                    L->found = 1;
                    L->found_at = L->watch_at;
                    L->found_len = end - L->watch_at;
                }
            }
            if (F.i >= F.n)
                return FAST_GIVE_UP;
            unsigned char c = F.p[F.i++];
            if (c == ',') {
                fast_space(&F);
                if (!array && (rc = fast_key(L, &F)) != FAST_DONE)
                    return rc;
                v = NULL; /* the next element or member's value */
            } else if (c == (array ? ']' : '}')) {
                v = f->node;
                if (pop_frame(L) < 0)
                    return FAST_NOMEM;
            } else {
                return FAST_GIVE_UP;
            }
        }
    }
}

/* Forgets what the fast path built, for the general path to start over
 * (the nodes stay in the arena, unused). */
static void fast_undo(struct loader *L)
{
    for (size_t k = 0; k < L->depth; k++)
        strmap_free(&L->frames[k].index);
    L->depth = 0;
    L->nitems = 0;
    L->nmembers = 0;
    L->root = NULL;
}

/* ------------------------------------------------------------- entry */

static void loader_free(struct loader *L)
{
    if (L->h)
        yajl_free(L->h);
    for (size_t k = 0; k < L->depth; k++)
        strmap_free(&L->frames[k].index);
    if (L->frames != L->first_frames)
        free(L->frames);
    if (L->items != L->first_items)
        free(L->items);
    if (L->members != L->first_members)
        free(L->members);
    free(L->specials);
    free(L->unpaired);
    buf_free(&L->own);
    buf_free(&L->scratch);
}

/* Loads the text, by the fast path first when fast is set; with key, says
 * where the value of that member is (json_load_member). */
static int load(value **out, arena *a, const char *bytes, size_t len, err *e,
                int fast, const char *key, size_t *at, size_t *span,
                const char *lazy)
{
    struct loader L;
    memset(&L, 0, offsetof(struct loader, first_frames));
    L.frames = L.first_frames;
    L.frames_cap = FIRST_FRAMES;
    L.items = L.first_items;
    L.items_cap = FIRST_ITEMS;
    L.members = L.first_members;
    L.members_cap = FIRST_MEMBERS;
    L.a = a;
    L.e = e;
    L.line = L.col = 1;
    L.expect = EXP_VALUE;
    if (!bytes)
        bytes = "";
    if (key) {
        L.watch = key;
        L.watch_len = strlen(key);
        *at = *span = 0;
    }
    if (lazy) {
        L.lazy = lazy;
        L.lazy_len = strlen(lazy);
    }

    int raw_surrogates = 0;
    int rc = decode(&L, (const unsigned char *)bytes, len, &raw_surrogates);
    if (rc == 0 && fast && !raw_surrogates) {
        int f = fast_parse(&L);
        if (f == FAST_DONE) {
            *out = L.root;
            if (key && L.found && L.borrowed) {
                *at = L.borrowed - 1 + L.found_at;
                *span = L.found_len;
            }
            loader_free(&L);
            return 0;
        }
        if (f == FAST_NOMEM) {
            nomem(&L);
            loader_free(&L);
            return -1;
        }
        fast_undo(&L);
    }
    if (rc == 0 && (prescan(&L, raw_surrogates) < 0 || rewrite_words(&L) < 0)) {
        nomem(&L);
        rc = -1;
    }
    if (rc == 0)
        rc = parse(&L);
    if (rc == 0)
        *out = L.root;
    loader_free(&L);
    return rc;
}

int json_load(value **out, arena *a, const char *bytes, size_t len, err *e)
{
    return load(out, a, bytes, len, e, 1, NULL, NULL, NULL, NULL);
}

int json_load_member(value **out, arena *a, const char *bytes, size_t len,
                     const char *key, size_t *at, size_t *span, err *e)
{
    return load(out, a, bytes, len, e, 1, key, at, span, NULL);
}

int json_load_general(value **out, arena *a, const char *bytes, size_t len,
                      err *e)
{
    return load(out, a, bytes, len, e, 0, NULL, NULL, NULL, NULL);
}

int json_load_lazy(value **out, arena *a, const char *bytes, size_t len,
                   const char *key, err *e)
{
    return load(out, a, bytes, len, e, 1, NULL, NULL, NULL, key);
}

value *json_unescaped(arena *a, const value *v)
{
    if (!(v->flags & VF_ESCAPED))
        return (value *)v;
    size_t len = v->u.str.len;
    value *d = value_init(arena_alloc(a, sizeof(value) + len + 1), V_STRING,
                          v->line, v->col);
    if (!d)
        return NULL;
    char *text = (char *)(d + 1);
    size_t w = decode_escaped(text, (const unsigned char *)v->u.str.ptr, len);
    text[w] = '\0';
    d->u.str.ptr = text;
    d->u.str.len = w;
    return d;
}
