/*
 * canon: see canon.h.
 *
 * One recursive walk.  Objects are written by first turning every key into
 * its text, then sorting the members by that text (byte order of UTF-8 is
 * code point order, which is how Python sorts str), so that two keys that
 * became the same text sit side by side and are caught there.
 */
#include "canon.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "path.h"
#include "pynum.h"
#include "wordscan.h"

struct walk {
    buf *out;
    err *e;
    size_t written; /* values written so far, for DOC_MAX_EXPANDED */
    int loose;      /* canon_append_loose: NaN, infinities and lone
                       surrogates written, not refused */
};

static int fail_at(struct walk *w, const value *v, const path_seg *where,
                   enum err_code code, const char *msg)
{
    err_set(w->e, code, "%s", msg);
    err_at(w->e, v->line, v->col);
    path_format(where, w->e->path, sizeof w->e->path);
    return -1;
}

static int nomem(struct walk *w)
{
    return err_set(w->e, ERR_NOMEM, "out of memory writing the document");
}

/* The bytes json.dumps writes escaped: the controls, '"' and '\\'. */
static const unsigned char needs_escape[256] = {
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0x00 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0x10 */
    0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 0x20: '"' */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 0x30 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 0x40 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, /* 0x50: '\\' */
    /* 0x60 and above: none */
};

/* The first byte from p on that needs an escape, or end. */
static const unsigned char *plain_run(const unsigned char *p,
                                      const unsigned char *end)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    while (end - p >= 8) {
        uint64_t x;
        memcpy(&x, p, 8);
        uint64_t stops = wordscan_escapes(x);
        if (stops)
            return p + __builtin_ctzll(stops) / 8;
        p += 8;
    }
#endif
    while (p != end && !needs_escape[*p])
        p++;
    return p;
}

/* Appends the bytes from p to end as the inside of a JSON string: runs of
 * bytes as they are, the others escaped as json.dumps escapes them. */
static int put_escaped(buf *out, const unsigned char *p,
                       const unsigned char *end)
{
    static const char hex[] = "0123456789abcdef";
    for (;;) {
        /* A run of bytes written as they are, then one escaped. */
        const unsigned char *run = p;
        p = plain_run(p, end);
        if (buf_append(out, run, (size_t)(p - run)) < 0)
            return -1;
        if (p == end)
            return 0;
        unsigned char c = *p++;
        char esc[7] = {'\\', 0, 0, 0, 0, 0, 0};
        size_t n = 2;
        switch (c) {
        case '"': esc[1] = '"'; break;
        case '\\': esc[1] = '\\'; break;
        case '\n': esc[1] = 'n'; break;
        case '\r': esc[1] = 'r'; break;
        case '\t': esc[1] = 't'; break;
        case '\b': esc[1] = 'b'; break;
        case '\f': esc[1] = 'f'; break;
        default:
            memcpy(esc + 1, "u00", 3);
            esc[4] = hex[c >> 4];
            esc[5] = hex[c & 15];
            n = 6;
        }
        if (buf_append(out, esc, n) < 0)
            return -1;
    }
}

int canon_write_string(buf *out, const char *s, size_t len)
{
    if (len > SIZE_MAX - 3 || buf_reserve(out, len + 2) < 0)
        return -1;
    const unsigned char *p = (const unsigned char *)s, *end = p + len;
    const unsigned char *first = plain_run(p, end);
    if (first == end) { /* most strings: nothing to escape, room made */
        char *d = out->data + out->len;
        d[0] = '"';
        if (len)
            memcpy(d + 1, s, len);
        d[len + 1] = '"';
        d[len + 2] = '\0';
        out->len += len + 2;
        return 0;
    }
    if (buf_putc(out, '"') < 0 || put_escaped(out, p, end) < 0)
        return -1;
    return buf_putc(out, '"') < 0 ? -1 : 0;
}

/* A string that may hold lone surrogates (kept as ED A0..BF xx, which no
 * UTF-8 character begins with) as a JSON string: each surrogate as its
 * escape (\ud800 for U+D800), the rest as canon_write_string writes it. */
static int put_loose_string(buf *out, const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + len;
    if (buf_putc(out, '"') < 0)
        return -1;
    for (const unsigned char *q = p; q < end; q++) {
        if (q[0] != 0xED || end - q < 3 || q[1] < 0xA0)
            continue;
        unsigned cp = 0xD000u | ((q[1] & 0x3Fu) << 6) | (q[2] & 0x3Fu);
        if (put_escaped(out, p, q) < 0 || buf_printf(out, "\\u%04x", cp) < 0)
            return -1;
        p = q + 3;
        q += 2;
    }
    if (put_escaped(out, p, end) < 0)
        return -1;
    return buf_putc(out, '"') < 0 ? -1 : 0;
}

/* The first lone surrogate of a VF_UNENCODABLE string (kept as ED A0..BF xx). */
static unsigned lone_surrogate(const char *s, size_t len)
{
    for (size_t i = 0; i + 2 < len; i++) {
        unsigned char a = (unsigned char)s[i], b = (unsigned char)s[i + 1];
        if (a == 0xED && b >= 0xA0)
            return 0xD000u | ((b & 0x3Fu) << 6) |
                   ((unsigned char)s[i + 2] & 0x3Fu);
    }
    return 0xD800;
}

static int refuse_surrogate(struct walk *w, const value *v,
                            const path_seg *where)
{
    char msg[160];
    snprintf(msg, sizeof msg,
             "a string holds a lone surrogate (\\u%04x), which UTF-8 cannot "
             "carry; write the character whole or remove it",
             lone_surrogate(v->u.str.ptr, v->u.str.len));
    return fail_at(w, v, where, ERR_VALUE, msg);
}

/* What Python's json.dumps writes for a NaN or an infinity when it is
 * allowed to (and json.loads reads back). */
static const char *nonfinite_text(double d)
{
    return isnan(d) ? "NaN" : d > 0 ? "Infinity" : "-Infinity";
}

static int refuse_float(struct walk *w, const value *v, const path_seg *where)
{
    return fail_at(w, v, where, ERR_VALUE,
                   isnan(v->u.d)
                       ? "NaN is not a JSON number; quote it or remove it"
                       : "an infinite number is not a JSON number; quote it "
                         "or write a finite one");
}

/* A key as text: the string itself, or the JSON text of a scalar. */
struct keytext {
    const char *ptr;
    size_t len;
    const value_member *m;
};

static int key_text(struct walk *w, struct keytext *k, const value_member *m,
                    char repr[PYFLOAT_REPR_MAX], const path_seg *where)
{
    const value *key = m->key;
    k->m = m;
    switch ((value_kind)key->kind) {
    case V_STRING:
        if ((key->flags & VF_UNENCODABLE) && !w->loose)
            return refuse_surrogate(w, key, where);
        /* fall through */
    case V_INT:
    case V_TIMESTAMP:
        k->ptr = key->u.str.ptr;
        k->len = key->u.str.len;
        return 0;
    case V_NULL:
        k->ptr = "null";
        k->len = 4;
        return 0;
    case V_BOOL:
        k->ptr = key->u.b ? "true" : "false";
        k->len = key->u.b ? 4 : 5;
        return 0;
    case V_FLOAT:
        if (!isfinite(key->u.d) && !w->loose)
            return refuse_float(w, key, where);
        if (!isfinite(key->u.d)) {
            k->ptr = nonfinite_text(key->u.d);
            k->len = strlen(k->ptr);
            return 0;
        }
        k->len = pyfloat_repr(key->u.d, repr);
        k->ptr = repr;
        return 0;
    case V_BAD:
        return fail_at(w, key, where, ERR_VALUE, key->u.str.ptr);
    case V_ARRAY:
    case V_OBJECT:
        break;
    }
    return fail_at(w, key, where, ERR_VALUE,
                   "a key is a list or a mapping, which JSON cannot carry; "
                   "use a string key");
}

static int keytext_cmp(const void *a, const void *b)
{
    const struct keytext *x = a, *y = b;
    size_t n = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->ptr, y->ptr, n);
    if (c)
        return c;
    if (x->len != y->len)
        return x->len < y->len ? -1 : 1;
    /* Equal texts: keep document order, so messages name the first one. */
    return x->m < y->m ? -1 : x->m > y->m;
}

/* Objects of at most this many members keep their keys on the stack and
 * sort them by insertion, which for so few costs less than qsort's calls
 * through a pointer.  (Kept small: every level of nesting, up to
 * VALUE_MAX_DEPTH, has its own.)  keytext_cmp is a total order, so both
 * sorts give the same order. */
#define SMALL_OBJECT 8

static void keys_sort(struct keytext *keys, size_t n)
{
    if (n > SMALL_OBJECT) {
        qsort(keys, n, sizeof *keys, keytext_cmp);
        return;
    }
    for (size_t i = 1; i < n; i++) {
        struct keytext k = keys[i];
        size_t j = i;
        for (; j > 0 && keytext_cmp(&keys[j - 1], &k) > 0; j--)
            keys[j] = keys[j - 1];
        keys[j] = k;
    }
}

/* How a key was written, for the "two keys become one" message. */
static void describe_key(const value *k, const struct keytext *t, char *out,
                         size_t size)
{
    int n = (int)(t->len > 60 ? 60 : t->len);
    switch ((value_kind)k->kind) {
    case V_STRING:
        snprintf(out, size, "the string \"%.*s\"", n, t->ptr);
        break;
    case V_NULL:
        snprintf(out, size, "null");
        break;
    case V_BOOL:
        snprintf(out, size, "the boolean %.*s", n, t->ptr);
        break;
    case V_TIMESTAMP:
        snprintf(out, size, "the %s %.*s",
                 k->flags & VF_DATE ? "date" : "datetime", n, t->ptr);
        break;
    default:
        snprintf(out, size, "the %s %.*s",
                 k->kind == V_INT ? "integer" : "number", n, t->ptr);
    }
}

/* One more value visited at depth: -1 (the limit said) past the
 * document's limits. */
static int past_limits(struct walk *w, const value *v, const path_seg *where,
                       unsigned depth)
{
    if (++w->written > DOC_MAX_EXPANDED)
        return fail_at(w, v, where, ERR_LIMIT,
                       "the document holds more than 4000000 values once "
                       "its aliases are expanded; this is the limit");
    if (depth > VALUE_MAX_DEPTH)
        return fail_at(w, v, where, ERR_LIMIT,
                       "nesting deeper than 256 levels; this is the limit");
    return 0;
}

static int write_value(struct walk *w, const value *v, const path_seg *where,
                       unsigned depth);

static int write_object(struct walk *w, const value *v, const path_seg *where,
                        unsigned depth)
{
    size_t n = v->u.obj.len;
    if (n == 0)
        return buf_append(w->out, "{}", 2) < 0 ? nomem(w) : 0;
    /* Most objects are small: their keys stay on the stack.  Float keys
     * are rare: room for their text is made only when there is one. */
    struct keytext small[SMALL_OBJECT];
    struct keytext *keys = n <= SMALL_OBJECT ? small : malloc(n * sizeof *keys);
    int floats = 0;
    for (size_t i = 0; i < n; i++)
        floats |= v->u.obj.items[i].key->kind == V_FLOAT;
    char(*reprs)[PYFLOAT_REPR_MAX] = floats ? malloc(n * sizeof *reprs) : NULL;
    if (!keys || (floats && !reprs)) {
        if (keys != small)
            free(keys);
        free(reprs);
        return nomem(w);
    }
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        path_seg seg = {where, NULL, 0, i};
        const value *key = v->u.obj.items[i].key;
        if (key->kind == V_STRING) {
            seg.key = key->u.str.ptr;
            seg.keylen = key->u.str.len;
        }
        rc = key_text(w, &keys[i], &v->u.obj.items[i],
                      reprs ? reprs[i] : NULL,
                      key->kind == V_STRING ? &seg : where);
    }
    if (rc == 0)
        keys_sort(keys, n);
    for (size_t i = 1; i < n && rc == 0; i++) {
        if (keys[i].len != keys[i - 1].len ||
            memcmp(keys[i].ptr, keys[i - 1].ptr, keys[i].len) != 0)
            continue;
        char a[96], b[96], msg[400];
        describe_key(keys[i - 1].m->key, &keys[i - 1], a, sizeof a);
        describe_key(keys[i].m->key, &keys[i], b, sizeof b);
        snprintf(msg, sizeof msg,
                 "two keys become one: %s and %s are both written \"%.*s\"; "
                 "rename or remove one",
                 a, b, (int)(keys[i].len > 60 ? 60 : keys[i].len),
                 keys[i].ptr);
        rc = fail_at(w, keys[i].m->key, where, ERR_VALUE, msg);
    }
    if (rc == 0 && buf_putc(w->out, '{') < 0)
        rc = nomem(w);
    for (size_t i = 0; i < n && rc == 0; i++) {
        path_seg seg = {where, keys[i].ptr, keys[i].len, 0};
        int loose_key = w->loose && keys[i].m->key->kind == V_STRING &&
                        (keys[i].m->key->flags & VF_UNENCODABLE);
        if ((i && buf_putc(w->out, ',') < 0) ||
            (loose_key
                 ? put_loose_string(w->out, keys[i].ptr, keys[i].len)
                 : canon_write_string(w->out, keys[i].ptr, keys[i].len)) <
                0 ||
            buf_putc(w->out, ':') < 0) {
            rc = nomem(w);
            break;
        }
        rc = write_value(w, keys[i].m->val, &seg, depth + 1);
    }
    if (rc == 0 && buf_putc(w->out, '}') < 0)
        rc = nomem(w);
    if (keys != small)
        free(keys);
    free(reprs);
    return rc;
}

static int write_value(struct walk *w, const value *v, const path_seg *where,
                       unsigned depth)
{
    if (past_limits(w, v, where, depth) < 0)
        return -1;
    char tmp[PYFLOAT_REPR_MAX];
    int rc = 0;
    switch ((value_kind)v->kind) {
    case V_NULL:
        rc = buf_append(w->out, "null", 4);
        break;
    case V_BOOL:
        rc = v->u.b ? buf_append(w->out, "true", 4)
                    : buf_append(w->out, "false", 5);
        break;
    case V_INT:
        rc = buf_append(w->out, v->u.str.ptr, v->u.str.len);
        break;
    case V_FLOAT:
        if (!isfinite(v->u.d) && !w->loose)
            return refuse_float(w, v, where);
        rc = isfinite(v->u.d)
                 ? buf_append(w->out, tmp, pyfloat_repr(v->u.d, tmp))
                 : buf_puts(w->out, nonfinite_text(v->u.d));
        break;
    case V_STRING:
        if ((v->flags & VF_UNENCODABLE) && !w->loose)
            return refuse_surrogate(w, v, where);
        if (v->flags & VF_UNENCODABLE) {
            rc = put_loose_string(w->out, v->u.str.ptr, v->u.str.len);
            break;
        }
        /* fall through */
    case V_TIMESTAMP:
        rc = canon_write_string(w->out, v->u.str.ptr, v->u.str.len);
        break;
    case V_ARRAY:
        rc = buf_putc(w->out, '[');
        for (size_t i = 0; i < v->u.arr.len && rc == 0; i++) {
            path_seg seg = {where, NULL, 0, i};
            if (i && buf_putc(w->out, ',') < 0)
                return nomem(w);
            if (write_value(w, v->u.arr.items[i], &seg, depth + 1) < 0)
                return -1;
        }
        if (rc == 0)
            rc = buf_putc(w->out, ']');
        break;
    case V_OBJECT:
        return write_object(w, v, where, depth);
    case V_BAD:
        return fail_at(w, v, where, ERR_VALUE, v->u.str.ptr);
    }
    return rc < 0 ? nomem(w) : 0;
}

/* ------------------------------------------------- lengths, unwritten */

/* What an escape adds to the byte it stands for: \" \\ \n \r \t \b \f
 * one byte, \u00XX five; 0 for the bytes written as they are. */
static const unsigned char escape_extra[256] = {
    5, 5, 5, 5, 5, 5, 5, 5, 1, 1, 1, 5, 1, 1, 5, 5, /* 0x00: \b \t \n \f \r */
    5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, /* 0x10 */
    0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 0x20: '"' */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 0x30 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 0x40 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, /* 0x50: '\\' */
    /* 0x60 and above: none */
};

/* The length of the inside of a JSON string holding the bytes from p to
 * end, as put_escaped writes them: eight bytes at a time where none
 * needs an escape, else byte by byte. */
static size_t escaped_length(const unsigned char *p, const unsigned char *end)
{
    size_t n = (size_t)(end - p);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    while (end - p >= 8) {
        uint64_t x;
        memcpy(&x, p, 8);
        if (wordscan_escapes(x))
            for (int i = 0; i < 8; i++)
                n += escape_extra[p[i]];
        p += 8;
    }
#endif
    for (; p < end; p++)
        n += escape_extra[*p];
    return n;
}

/* The length of a string as written, quotes included: put_loose_string's
 * when loose (each surrogate's escape is six bytes for its three). */
static size_t string_length(const char *s, size_t len, int loose)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + len;
    if (!loose)
        return 2 + escaped_length(p, end);
    size_t n = 2;
    for (const unsigned char *q = p; q < end; q++) {
        if (q[0] != 0xED || end - q < 3 || q[1] < 0xA0)
            continue;
        n += escaped_length(p, q) + 6;
        p = q + 3;
        q += 2;
    }
    return n + escaped_length(p, end);
}

/* The length of what write_value writes for v (w->loose), added to
 * *len; w->out is not used. */
static int length_of(struct walk *w, const value *v, const path_seg *where,
                     unsigned depth, size_t *len)
{
    if (past_limits(w, v, where, depth) < 0)
        return -1;
    char tmp[PYFLOAT_REPR_MAX];
    switch ((value_kind)v->kind) {
    case V_NULL:
        *len += 4;
        return 0;
    case V_BOOL:
        *len += v->u.b ? 4 : 5;
        return 0;
    case V_INT:
        *len += v->u.str.len;
        return 0;
    case V_FLOAT:
        if (!isfinite(v->u.d) && !w->loose)
            return refuse_float(w, v, where);
        *len += isfinite(v->u.d) ? pyfloat_repr(v->u.d, tmp)
                                 : strlen(nonfinite_text(v->u.d));
        return 0;
    case V_STRING:
        if ((v->flags & VF_UNENCODABLE) && !w->loose)
            return refuse_surrogate(w, v, where);
        *len += string_length(v->u.str.ptr, v->u.str.len,
                              (v->flags & VF_UNENCODABLE) != 0);
        return 0;
    case V_TIMESTAMP:
        *len += string_length(v->u.str.ptr, v->u.str.len, 0);
        return 0;
    case V_ARRAY:
        *len += 2 + (v->u.arr.len ? v->u.arr.len - 1 : 0);
        for (size_t i = 0; i < v->u.arr.len; i++) {
            path_seg seg = {where, NULL, 0, i};
            if (length_of(w, v->u.arr.items[i], &seg, depth + 1, len) < 0)
                return -1;
        }
        return 0;
    case V_OBJECT: {
        size_t n = v->u.obj.len;
        /* braces, commas, a colon a member */
        *len += 2 + (n ? n - 1 : 0) + n;
        for (size_t i = 0; i < n; i++) {
            const value_member *m = &v->u.obj.items[i];
            struct keytext k;
            char repr[PYFLOAT_REPR_MAX];
            path_seg seg = {where, NULL, 0, i};
            if (m->key->kind == V_STRING &&
                (w->loose || !(m->key->flags & VF_UNENCODABLE))) {
                /* key_text's answer, without the call */
                k.ptr = m->key->u.str.ptr;
                k.len = m->key->u.str.len;
            } else if (key_text(w, &k, m, repr, where) < 0) {
                return -1;
            }
            *len += string_length(k.ptr, k.len,
                                  w->loose && m->key->kind == V_STRING &&
                                      (m->key->flags & VF_UNENCODABLE));
            seg.index = 0;
            seg.key = k.ptr;
            seg.keylen = k.len;
            if (length_of(w, m->val, &seg, depth + 1, len) < 0)
                return -1;
        }
        return 0;
    }
    case V_BAD:
        return fail_at(w, v, where, ERR_VALUE, v->u.str.ptr);
    }
    return 0;
}

int canon_loose_length(const value *v, size_t *len, err *e)
{
    struct walk w = {NULL, e, 0, 1};
    *len = 0;
    return length_of(&w, v, NULL, 0, len);
}

static int append(buf *out, const value *v, int loose, err *e)
{
    struct walk w = {out, e, 0, loose};
    size_t at = out->len;
    if (write_value(&w, v, NULL, 0) < 0) {
        out->len = at;
        if (out->data)
            out->data[at] = '\0';
        return -1;
    }
    return 0;
}

int canon_append(buf *out, const value *v, err *e)
{
    return append(out, v, 0, e);
}

int canon_append_loose(buf *out, const value *v, err *e)
{
    return append(out, v, 1, e);
}

int canon_write(buf *out, const value *v, err *e)
{
    buf_reset(out);
    return canon_append(out, v, e);
}
