/*
 * value: the document tree every loader builds and every later stage reads.
 *
 * Promises:
 *  - objects keep their members in the order they were first written, with
 *    one member per key (loaders fold duplicate keys, last value wins);
 *  - strings carry their length, so a NUL inside survives; their bytes are
 *    UTF-8, except that a lone surrogate is kept as its 3-byte form and the
 *    string is flagged VF_UNENCODABLE (it cannot be written as UTF-8);
 *  - integers keep their value as normalized decimal text (any size, "-0"
 *    is "0"), floats their double, and the two stay distinct (1 vs 1.0);
 *  - every node knows its line and column in the source (1-based, 0 when
 *    unknown) for error messages.
 * Keys are values too: JSON keys are always strings, YAML keys need not be
 * (the canonical writer turns them into text, see canon.h).
 * Trees live in an arena and are freed with it; a YAML tree may share a
 * node between several parents (aliases), so it is a DAG, never a cycle.
 * A tool file's tree is indexed once loaded (value_index): a large object
 * is then looked up by key in log time, not by a scan, so that following
 * the $refs into a $defs of 100,000 entries costs what it costs in a small
 * one.
 */
#ifndef TR_VALUE_H
#define TR_VALUE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "arena.h"

/* Documented limits (docs/guide.md, "Limits"). */
#define VALUE_MAX_DEPTH 256             /* nesting of arrays and objects */
#define DOC_MAX_BYTES (64u << 20)        /* size of a tool file */
#define DOC_MAX_EXPANDED 4000000u        /* values after alias expansion */

typedef enum value_kind {
    V_NULL,
    V_BOOL,
    V_INT,       /* u.str: decimal text, "-" then digits, no leading zero */
    V_FLOAT,     /* u.d; may be NaN or infinite (refused when written) */
    V_STRING,    /* u.str */
    V_ARRAY,     /* u.arr */
    V_OBJECT,    /* u.obj */
    V_TIMESTAMP, /* YAML date or datetime; u.str: Python isoformat() text */
    V_BAD        /* a value JSON cannot carry (binary, set); u.str: what */
} value_kind;

enum value_flags {
    VF_UNENCODABLE = 1, /* V_STRING holding a lone surrogate */
    VF_DATE = 2,        /* V_TIMESTAMP: a date, no time */
    VF_AWARE = 4,       /* V_TIMESTAMP: a datetime with a UTC offset */
    VF_INDEXED = 8,     /* V_OBJECT: value_index sorted its members (see
                           there); only value_index sets it */
    VF_REPEATED = 16,   /* V_OBJECT: json_load read a key of it more than
                           once (the last value kept, at the first place) */
    VF_ESCAPED = 32     /* V_STRING: its text as JSON wrote it, escapes
                           and all (json_load_lazy; json_unescaped) */
};

typedef struct value value;
typedef struct value_member value_member;

struct value {
    uint8_t kind;
    uint8_t flags;
    uint32_t line, col;
    union {
        int b;
        double d;
        struct {
            const char *ptr;
            size_t len;
        } str;
        struct {
            value **items;
            size_t len;
        } arr;
        struct {
            value_member *items;
            size_t len;
        } obj;
    } u;
};

struct value_member {
    value *key;
    value *val;
};

/* v (NULL stays NULL) made a node of the given kind, zeroed. */
static inline value *value_init(value *v, value_kind kind, uint32_t line,
                                uint32_t col)
{
    if (!v)
        return NULL;
    memset(v, 0, sizeof *v);
    v->kind = (uint8_t)kind;
    v->line = line;
    v->col = col;
    return v;
}

/* A new node of the given kind, zeroed, in arena a; NULL when out of memory.
 * Inline (as value_new_text), being made for every node of every
 * document. */
static inline value *value_new(arena *a, value_kind kind, uint32_t line,
                               uint32_t col)
{
    return value_init(arena_alloc(a, sizeof(value)), kind, line, col);
}

/* memcpy for the short texts most nodes hold: up to 16 bytes as two
 * fixed-size copies that may overlap, which compile to a few moves. */
static inline void value_copy_text(char *dst, const char *src, size_t len)
{
    if (len >= 8 && len <= 16) {
        memcpy(dst, src, 8);
        memcpy(dst + len - 8, src + len - 8, 8);
    } else if (len >= 4 && len < 8) {
        memcpy(dst, src, 4);
        memcpy(dst + len - 4, src + len - 4, 4);
    } else if (len > 0 && len < 4) {
        dst[0] = src[0];
        dst[len / 2] = src[len / 2];
        dst[len - 1] = src[len - 1];
    } else if (len > 16) {
        memcpy(dst, src, len);
    }
}

/* A new V_STRING, V_INT, V_TIMESTAMP or V_BAD node holding a copy of the
 * bytes; NULL when out of memory. */
static inline value *value_new_text(arena *a, value_kind kind,
                                    const char *ptr, size_t len,
                                    uint32_t line, uint32_t col)
{
    /* The node and its bytes in one block: the bytes right after it. */
    if (len > SIZE_MAX - sizeof(value) - 1)
        return NULL;
    value *v = value_init(arena_alloc(a, sizeof(value) + len + 1), kind,
                          line, col);
    if (!v)
        return NULL;
    char *copy = (char *)(v + 1);
    value_copy_text(copy, ptr, len);
    copy[len] = '\0';
    v->u.str.ptr = copy;
    v->u.str.len = len;
    return v;
}

/* The name of a kind, for messages ("string", "object"...). */
const char *value_kind_name(value_kind kind);

/* The same with its article, for sentences: "an array", "a string",
 * "null". */
const char *value_kind_phrase(value_kind kind);

/* What value_count and value_amount make of a figure a transcript or a
 * log gives (tokens; seconds, dollars): one reading, for the transcript's
 * lines and the logs' readers alike. */
typedef enum value_figure {
    VFIG_OK,
    VFIG_NONE,       /* absent (NULL) or null */
    VFIG_KIND,       /* not a number */
    VFIG_NEGATIVE,
    VFIG_FRACTION,   /* a count with a fraction */
    VFIG_FLOAT_BIG,  /* a count written as a float past 2^53 (not exact) */
    VFIG_HUGE        /* a count past 2^63 - 1; an amount not finite */
} value_figure;

/* A count: an integer from 0 to 2^63 - 1, or a float of a whole value
 * up to 2^53 (1200.0, as some writers give one). */
value_figure value_count(const value *v, int64_t *out);

/* An amount: a finite number, 0 or more (-0 is 0). */
value_figure value_amount(const value *v, double *out);

/* A reward: a finite number of either sign (-0 is 0).  VFIG_HUGE for a
 * number that is not finite as a double (1e400, 400 digits). */
value_figure value_reward(const value *v, double *out);

/* Member of object o whose key is the string (ptr, len); NULL when none. */
const value *value_get(const value *o, const char *ptr, size_t len);

/* Objects of at least this many members, every key a string, are indexed
 * by value_index. */
#define VALUE_INDEX_MIN 32

/* Indexes every object under root (shared nodes once or more) that has
 * VALUE_INDEX_MIN members or more, all keyed by strings: its members are
 * copied, in their order, into a block of a that also holds their order
 * by key (byte order, then length), and it is flagged VF_INDEXED.  The
 * tree reads as it did; value_get, value_getz and the schema module look
 * such an object up by binary search.  An indexed object must not get
 * members added or removed (a copy may: vb_clone makes plain objects).
 * 0, or -1 out of memory (the tree is whole, some objects not indexed). */
int value_index(value *root, arena *a);

/* Convenience: value_get with a NUL-terminated key.  Inline, loop and
 * all, so that the length of a literal key is known when compiling and
 * its comparison made of a few moves. */
static inline const value *value_getz(const value *o, const char *key)
{
    size_t len = strlen(key);
    if (!o || o->kind != V_OBJECT)
        return NULL;
    if (o->flags & VF_INDEXED)
        return value_get(o, key, len);
    const value_member *m = o->u.obj.items;
    for (size_t i = 0, n = o->u.obj.len; i < n; i++) {
        const value *k = m[i].key;
        if (k->kind == V_STRING && k->u.str.len == len &&
            memcmp(k->u.str.ptr, key, len) == 0)
            return m[i].val;
    }
    return NULL;
}

#endif
