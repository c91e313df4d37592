/* schema: see schema.h.
 *
 * Layout: $ref resolution (JSON Pointer over the value tree, read without
 * copying the fragment), then the checker: one recursive walk that follows
 * the instance and the schema together, writing the first failure it meets
 * as one sentence.  Format checks and exact number comparisons sit between
 * the two as plain helpers.
 */
#include "schema.h"
#include "utf8.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canon.h"
#include "pynum.h"
#include "regex.h"

/* A walk deeper than this is a schema that recurses without consuming the
 * instance (an instance is at most VALUE_MAX_DEPTH deep, and each level
 * may add a few combinator frames). */
#define CHECK_MAX_FRAMES (4 * VALUE_MAX_DEPTH)

/* Combinators over recursive schemas can make the walk exponential in the
 * schema's size; past this many schema visits the check gives up and
 * says it could not decide, rather than run away. */
#define CHECK_MAX_VISITS 200000u

/* Longest pattern quoted whole in a "could not be checked" sentence. */
#define PATTERN_SHOWN_MAX 100

/* Longest escaped $ref token decoded for an indexed object's lookup. */
#define REF_TOKEN_MAX 512

/* Longest $ref text quoted whole in an error message. */
#define REF_SHOWN_MAX 200

/* ------------------------------------------------------------ small text */

static int is_digit(int c) { return c >= '0' && c <= '9'; }
static int is_alpha(int c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}
static int is_alnum(int c) { return is_alpha(c) || is_digit(c); }

/* The text a key stands for once written as JSON (see canon.h): YAML keys
 * need not be strings, and pointers and property names address them by
 * that text.  tmp holds PYFLOAT_REPR_MAX bytes.  0 when the key has none. */
static int key_text(const value *k, char *tmp, const char **ptr, size_t *len)
{
    switch ((value_kind)k->kind) {
    case V_STRING:
    case V_INT:
    case V_TIMESTAMP:
        *ptr = k->u.str.ptr;
        *len = k->u.str.len;
        return 1;
    case V_BOOL:
        *ptr = k->u.b ? "true" : "false";
        *len = strlen(*ptr);
        return 1;
    case V_NULL:
        *ptr = "null";
        *len = 4;
        return 1;
    case V_FLOAT:
        if (!isfinite(k->u.d))
            return 0;
        *len = pyfloat_repr(k->u.d, tmp);
        *ptr = tmp;
        return 1;
    default:
        return 0;
    }
}

/* Member of object o whose key's text is (ptr, len). */
static const value *member_by_text(const value *o, const char *ptr, size_t len)
{
    if (!o || o->kind != V_OBJECT)
        return NULL;
    if (o->flags & VF_INDEXED) /* every key a string: a binary search */
        return value_get(o, ptr, len);
    for (size_t i = 0; i < o->u.obj.len; i++) {
        const value *key = o->u.obj.items[i].key;
        if (key->kind == V_STRING) { /* the common case, without a copy */
            if (key->u.str.len == len &&
                memcmp(key->u.str.ptr, ptr, len) == 0)
                return o->u.obj.items[i].val;
            continue;
        }
        char tmp[PYFLOAT_REPR_MAX];
        const char *k;
        size_t n;
        if (key_text(key, tmp, &k, &n) && n == len &&
            memcmp(k, ptr, len) == 0)
            return o->u.obj.items[i].val;
    }
    return NULL;
}

/* Whether the n bytes at k spell the literal word (n its length). */
#define KEY_IS(k, word) (memcmp((k), (word), sizeof(word) - 1) == 0)

/* The keyword a key of n bytes names, or SK_COUNT when none. */
static enum schema_keyword keyword_of(const char *k, size_t n)
{
    switch (n) {
    case 4:
        return KEY_IS(k, "type")   ? SK_TYPE
               : KEY_IS(k, "enum") ? SK_ENUM
               : KEY_IS(k, "$ref") ? SK_REF
                                   : SK_COUNT;
    case 5:
        return KEY_IS(k, "items")   ? SK_ITEMS
               : KEY_IS(k, "const") ? SK_CONST
               : KEY_IS(k, "allOf") ? SK_ALL_OF
               : KEY_IS(k, "anyOf") ? SK_ANY_OF
               : KEY_IS(k, "oneOf") ? SK_ONE_OF
                                    : SK_COUNT;
    case 6:
        return KEY_IS(k, "format") ? SK_FORMAT : SK_COUNT;
    case 7:
        return KEY_IS(k, "pattern")   ? SK_PATTERN
               : KEY_IS(k, "minimum") ? SK_MINIMUM
               : KEY_IS(k, "maximum") ? SK_MAXIMUM
                                      : SK_COUNT;
    case 8:
        return KEY_IS(k, "required")   ? SK_REQUIRED
               : KEY_IS(k, "nullable") ? SK_NULLABLE
               : KEY_IS(k, "minItems") ? SK_MIN_ITEMS
               : KEY_IS(k, "maxItems") ? SK_MAX_ITEMS
                                       : SK_COUNT;
    case 9:
        return KEY_IS(k, "minLength")   ? SK_MIN_LENGTH
               : KEY_IS(k, "maxLength") ? SK_MAX_LENGTH
                                        : SK_COUNT;
    case 10:
        return KEY_IS(k, "properties")   ? SK_PROPERTIES
               : KEY_IS(k, "multipleOf") ? SK_MULTIPLE_OF
                                         : SK_COUNT;
    case 11:
        return KEY_IS(k, "uniqueItems")   ? SK_UNIQUE_ITEMS
               : KEY_IS(k, "prefixItems") ? SK_PREFIX_ITEMS
                                          : SK_COUNT;
    case 13:
        return KEY_IS(k, "minProperties")   ? SK_MIN_PROPERTIES
               : KEY_IS(k, "maxProperties") ? SK_MAX_PROPERTIES
                                            : SK_COUNT;
    case 15:
        return KEY_IS(k, "additionalItems") ? SK_ADDITIONAL_ITEMS : SK_COUNT;
    case 16:
        return KEY_IS(k, "exclusiveMinimum")   ? SK_EXCLUSIVE_MINIMUM
               : KEY_IS(k, "exclusiveMaximum") ? SK_EXCLUSIVE_MAXIMUM
                                               : SK_COUNT;
    case 17:
        return KEY_IS(k, "patternProperties") ? SK_PATTERN_PROPERTIES
                                              : SK_COUNT;
    case 20:
        return KEY_IS(k, "additionalProperties") ? SK_ADDITIONAL_PROPERTIES
                                                 : SK_COUNT;
    default:
        return SK_COUNT;
    }
}

_Static_assert(SK_COUNT <= 32, "schema_keywords.present has a bit each");

void schema_keywords_read(schema_keywords *out, const value *schema)
{
    uint32_t present = 0;
    if (schema && schema->kind == V_OBJECT) {
        const value_member *m = schema->u.obj.items;
        for (size_t i = 0, n = schema->u.obj.len; i < n; i++) {
            const value *k = m[i].key;
            if (k->kind != V_STRING)
                continue;
            enum schema_keyword id = keyword_of(k->u.str.ptr, k->u.str.len);
            /* The first member of a name, as value_get finds it. */
            if (id != SK_COUNT && !(present >> id & 1)) {
                present |= (uint32_t)1 << id;
                out->kw[id] = m[i].val;
            }
        }
    }
    out->present = present;
}

/* ------------------------------------------------------------------ $ref */

enum ref_status {
    REF_OK,
    REF_NOTHING,     /* the pointer names nothing in the document */
    REF_OUTSIDE,     /* not a fragment of this document */
    REF_NOT_POINTER, /* a fragment, but not a JSON Pointer ("#anchor") */
    REF_LOOP         /* the chain comes back to where it has been */
};

/* The $ref string of a schema object, or NULL: a $ref that is not a
 * string is no reference (it may be a property called "$ref" elsewhere). */
static const value *ref_of(const value *s)
{
    if (!s || s->kind != V_OBJECT)
        return NULL;
    const value *r = value_getz(s, "$ref");
    return r && r->kind == V_STRING ? r : NULL;
}

/* A reader over a URI fragment that yields JSON Pointer reference-token
 * bytes: the fragment is percent-decoded first (so %2F separates tokens,
 * and %7E0 is "~0"), then ~0 and ~1 are undone, as RFC 6901 section 6
 * orders it.  Reading in place spares a copy of the fragment. */
typedef struct frag {
    const char *p, *end;
    int at_end; /* the last token has been read to its end */
} frag;

enum { TOK_END = -1, TOK_BAD = -2 };

/* Next percent-decoded byte; TOK_END at the end of the text, TOK_BAD at a
 * malformed escape. */
static int frag_byte(frag *f)
{
    if (f->p == f->end)
        return TOK_END;
    unsigned char c = (unsigned char)*f->p++;
    if (c != '%')
        return c;
    if (f->end - f->p < 2 || hex_digit_value((unsigned char)f->p[0]) < 0 ||
        hex_digit_value((unsigned char)f->p[1]) < 0)
        return TOK_BAD;
    int v = hex_digit_value((unsigned char)f->p[0]) * 16 +
            hex_digit_value((unsigned char)f->p[1]);
    f->p += 2;
    return v;
}

/* Next byte of the current token; TOK_END at a '/' (consumed) or at the
 * end of the text (at_end set), TOK_BAD at a malformed escape. */
static int tok_byte(frag *f)
{
    int b = frag_byte(f);
    if (b == TOK_END) {
        f->at_end = 1;
        return TOK_END;
    }
    if (b == '/')
        return TOK_END;
    if (b == '~') {
        b = frag_byte(f);
        if (b == '0')
            return '~';
        if (b == '1')
            return '/';
        return TOK_BAD;
    }
    return b;
}

/* Steps from node along the token at *f; NULL when it names nothing.  On
 * success *f has moved past the token. */
static const value *pointer_step(const value *node, frag *f)
{
    if (node->kind == V_OBJECT) {
        /* A token without escapes is its own bytes: compare it whole. */
        const char *end = memchr(f->p, '/', (size_t)(f->end - f->p));
        size_t n = (size_t)((end ? end : f->end) - f->p);
        if (!memchr(f->p, '%', n) && !memchr(f->p, '~', n)) {
            const value *v = member_by_text(node, f->p, n);
            if (v) {
                f->p += n;
                if (end)
                    f->p++;
                else
                    f->at_end = 1;
            }
            return v;
        }
        if (node->flags & VF_INDEXED) {
            /* decoded first, so that the index finds it */
            char key[REF_TOKEN_MAX];
            size_t kn = 0;
            frag t = *f;
            int b;
            while ((b = tok_byte(&t)) >= 0 && kn < sizeof key)
                key[kn++] = (char)b;
            if (b == TOK_END) {
                const value *v = value_get(node, key, kn);
                if (v)
                    *f = t;
                return v;
            }
            if (b == TOK_BAD)
                return NULL;
            /* longer than the buffer: compared member by member below */
        }
        for (size_t i = 0; i < node->u.obj.len; i++) {
            char tmp[PYFLOAT_REPR_MAX];
            const char *k;
            size_t n, j;
            if (!key_text(node->u.obj.items[i].key, tmp, &k, &n))
                continue;
            frag t = *f;
            for (j = 0; j < n; j++)
                if (tok_byte(&t) != (unsigned char)k[j])
                    break;
            if (j == n && tok_byte(&t) == TOK_END) {
                *f = t;
                return node->u.obj.items[i].val;
            }
        }
        return NULL;
    }
    if (node->kind == V_ARRAY) {
        /* An index is "0" or digits without a leading zero. */
        size_t index = 0, digits = 0;
        int b, leading_zero = 0;
        while ((b = tok_byte(f)) >= 0) {
            if (!is_digit(b) || leading_zero)
                return NULL;
            if (digits == 0 && b == '0')
                leading_zero = 1;
            if (index > (SIZE_MAX - 9) / 10)
                return NULL;
            index = index * 10 + (size_t)(b - '0');
            digits++;
        }
        if (b == TOK_BAD || digits == 0 || index >= node->u.arr.len)
            return NULL;
        return node->u.arr.items[index];
    }
    return NULL;
}

/* The node a local $ref (r, a V_STRING) names inside root. */
static const value *pointer_get(const value *root, const value *r,
                                enum ref_status *st)
{
    const char *s = r->u.str.ptr;
    size_t len = r->u.str.len;
    if (len == 0 || s[0] != '#') {
        *st = REF_OUTSIDE;
        return NULL;
    }
    frag f = {s + 1, s + len, 0};
    int first = frag_byte(&f);
    if (first == TOK_END) {
        if (!root)
            *st = REF_NOTHING;
        return root;
    }
    if (first != '/') {
        *st = first == TOK_BAD ? REF_NOTHING : REF_NOT_POINTER;
        return NULL;
    }
    const value *node = root;
    while (node && !f.at_end)
        node = pointer_step(node, &f);
    if (!node)
        *st = REF_NOTHING;
    return node;
}

/* Follows schema's $ref chain.  Loops are found with Brent's algorithm,
 * which needs no memory: each step depends only on the node it starts
 * from, so a chain that never ends must cycle.  On failure *bad is the
 * $ref string at fault. */
static const value *deref(const value *root, const value *schema,
                          const value **bad, enum ref_status *st)
{
    const value *hare = schema, *tortoise = schema;
    size_t power = 1, steps = 0;
    *st = REF_OK;
    for (;;) {
        const value *r = ref_of(hare);
        if (!r)
            return hare;
        const value *next = pointer_get(root, r, st);
        if (!next) {
            *bad = r;
            return NULL;
        }
        hare = next;
        steps++;
        if (hare == tortoise) {
            *st = REF_LOOP;
            *bad = ref_of(hare);
            return NULL;
        }
        if (steps == power) {
            tortoise = hare;
            power *= 2;
            steps = 0;
        }
    }
}

/* Appends the $ref text quoted as JSON, cut short (at a character
 * boundary) when long, so that the message stays one readable line. */
static int put_ref(buf *out, const value *r)
{
    size_t len = r->u.str.len;
    int cut = 0;
    if (len > REF_SHOWN_MAX) {
        len = REF_SHOWN_MAX;
        while (len > 0 && ((unsigned char)r->u.str.ptr[len] & 0xC0) == 0x80)
            len--;
        cut = 1;
    }
    if (canon_write_string(out, r->u.str.ptr, len) < 0)
        return -1;
    if (cut) {
        out->len--; /* reopen the closing quote */
        if (buf_puts(out, "...\"") < 0)
            return -1;
    }
    return 0;
}

const value *schema_deref_step(const value *root, const value *schema)
{
    const value *r = ref_of(schema);
    enum ref_status st;
    return r ? pointer_get(root, r, &st) : schema;
}

const value *schema_deref(const value *root, const value *schema, err *e)
{
    if (!schema) {
        err_set(e, ERR_USAGE, "no schema to follow");
        return NULL;
    }
    const value *bad = NULL;
    enum ref_status st;
    const value *s = deref(root, schema, &bad, &st);
    if (s)
        return s;
    buf shown = BUF_INIT;
    if (put_ref(&shown, bad) < 0) {
        buf_free(&shown);
        err_set(e, ERR_NOMEM, "out of memory following a $ref");
        return NULL;
    }
    switch (st) {
    case REF_OUTSIDE:
        err_set(e, ERR_VALUE,
                "$ref %s points outside the file; only local refs (#/...) "
                "are followed", shown.data);
        break;
    case REF_NOT_POINTER:
        err_set(e, ERR_VALUE,
                "$ref %s is not a JSON Pointer; only refs of the form #/... "
                "are followed", shown.data);
        break;
    case REF_LOOP:
        err_set(e, ERR_VALUE, "$ref %s loops back to itself", shown.data);
        break;
    default:
        err_set(e, ERR_VALUE, "$ref %s names nothing in the file",
                shown.data);
        break;
    }
    err_at(e, bad->line, bad->col);
    buf_free(&shown);
    return NULL;
}

/* --------------------------------------------------------------- numbers */

static int is_number(const value *v)
{
    return v->kind == V_INT || v->kind == V_FLOAT;
}

static int is_text(const value *v)
{
    return v->kind == V_STRING || v->kind == V_TIMESTAMP;
}

/* Sign and digits of an integer text; "-0" counts as 0. */
static void int_parts(const char *t, size_t n, int *neg, const char **d,
                      size_t *nd)
{
    *neg = n > 0 && t[0] == '-';
    *d = t + *neg;
    *nd = n - (size_t)*neg;
    if (*nd == 1 && (*d)[0] == '0')
        *neg = 0;
}

/* Orders two integer texts without leading zeros. */
static int int_cmp(const char *a, size_t an, const char *b, size_t bn)
{
    int na, nb;
    const char *da, *db;
    size_t la, lb;
    int_parts(a, an, &na, &da, &la);
    int_parts(b, bn, &nb, &db, &lb);
    if (na != nb)
        return na ? -1 : 1;
    int mag = la != lb ? (la < lb ? -1 : 1) : memcmp(da, db, la);
    mag = mag < 0 ? -1 : mag > 0;
    return na ? -mag : mag;
}

/* Orders an integer of any size against a double, exactly: the double's
 * floor is an integer that "%.0f" prints exactly (C library printf is
 * exact for integral doubles; pynum relies on the same), so the integers
 * compare as texts and the fraction breaks a tie.  -1 on NaN. */
static int int_cmp_double(const char *t, size_t n, double d, int *out)
{
    if (isnan(d))
        return -1;
    if (isinf(d)) {
        *out = d > 0 ? -1 : 1;
        return 0;
    }
    /* An integer of up to 15 digits is a double exactly: compare so. */
    int neg;
    const char *digits;
    size_t nd;
    int_parts(t, n, &neg, &digits, &nd);
    if (nd <= 15) {
        int64_t i = 0;
        for (size_t k = 0; k < nd; k++)
            i = i * 10 + (digits[k] - '0');
        double x = (double)(neg ? -i : i);
        *out = x < d ? -1 : x > d;
        return 0;
    }
    double f = floor(d);
    char tmp[400]; /* DBL_MAX has 309 digits */
    int k = snprintf(tmp, sizeof tmp, "%.0f", f);
    if (k < 0 || (size_t)k >= sizeof tmp)
        return -1;
    int c = int_cmp(t, n, tmp, (size_t)k);
    if (c == 0 && d > f)
        c = -1;
    *out = c;
    return 0;
}

/* Orders two numbers by value (1 equals 1.0; 2**64 + 1 is above the
 * double 2**64).  Returns -1 when they do not compare (NaN). */
static int num_cmp(const value *a, const value *b, int *out)
{
    if (a->kind == V_INT && b->kind == V_INT) {
        *out = int_cmp(a->u.str.ptr, a->u.str.len, b->u.str.ptr,
                       b->u.str.len);
        return 0;
    }
    if (a->kind == V_INT) {
        return int_cmp_double(a->u.str.ptr, a->u.str.len, b->u.d, out);
    }
    if (b->kind == V_INT) {
        if (int_cmp_double(b->u.str.ptr, b->u.str.len, a->u.d, out) < 0)
            return -1;
        *out = -*out;
        return 0;
    }
    if (isnan(a->u.d) || isnan(b->u.d))
        return -1;
    *out = a->u.d < b->u.d ? -1 : a->u.d > b->u.d;
    return 0;
}

/* A number as a double.  Integers of up to 40 digits convert with
 * correct rounding; longer ones keep their first 20 digits and scale, off
 * by at most an ulp or so, which only multipleOf with a fractional divisor
 * can notice. */
static double num_double(const value *v)
{
    if (v->kind == V_FLOAT)
        return v->u.d;
    char tmp[64];
    int neg;
    const char *d;
    size_t nd;
    int_parts(v->u.str.ptr, v->u.str.len, &neg, &d, &nd);
    if (nd <= 15) { /* exact as a double, as strtod would give it */
        int64_t i = 0;
        for (size_t k = 0; k < nd; k++)
            i = i * 10 + (d[k] - '0');
        return (double)(neg ? -i : i);
    }
    if (nd <= 40)
        snprintf(tmp, sizeof tmp, "%s%.*s", neg ? "-" : "", (int)nd, d);
    else
        snprintf(tmp, sizeof tmp, "%s%.20se%zu", neg ? "-" : "", d, nd - 20);
    return strtod(tmp, NULL);
}

/* Whether v is a multiple of m (m > 0).  Two integers with a divisor up
 * to UINT64_MAX/10 are decided exactly, by long division of v's digits.
 * Otherwise in doubles: q = v/m must lie within 4 * DBL_EPSILON * |q|
 * (about 9e-16 relative) of an integer.  v and m are decimals rounded once
 * each and the division rounds once more, so q is off by at most about
 * 1.5 * DBL_EPSILON relative: 0.3 is a multiple of 0.1 (q is
 * 2.9999999999999996), while 1000000000.5 is not a multiple of 1, which a
 * looser relative tolerance such as 1e-9 would accept.  Once |q| passes
 * 2**52 every double is an integer and anything passes.  Returns 1, 0, or
 * -1 when it cannot be decided (m not a positive finite number, q not
 * finite): the keyword is then not checked. */
static int is_multiple(const value *v, const value *m)
{
    if (v->kind == V_INT && m->kind == V_INT && m->u.str.ptr[0] != '-' &&
        m->u.str.len <= 19) {
        uint64_t div = 0;
        for (size_t i = 0; i < m->u.str.len; i++)
            div = div * 10 + (uint64_t)(m->u.str.ptr[i] - '0');
        if (div == 0)
            return -1;
        if (div <= UINT64_MAX / 10) {
            int neg;
            const char *d;
            size_t nd;
            uint64_t r = 0;
            int_parts(v->u.str.ptr, v->u.str.len, &neg, &d, &nd);
            for (size_t i = 0; i < nd; i++)
                r = (r * 10 + (uint64_t)(d[i] - '0')) % div;
            return r == 0;
        }
    }
    double dv = num_double(v), dm = num_double(m);
    if (!(dm > 0) || !isfinite(dm) || !isfinite(dv))
        return -1;
    double q = dv / dm;
    if (!isfinite(q))
        return -1;
    return fabs(q - round(q)) <= 4 * DBL_EPSILON * fabs(q);
}

/* ---------------------------------------------------------- JSON equality */

/* Equality as JSON Schema's enum, const and uniqueItems mean it: numbers
 * by value (1 equals 1.0), booleans apart from numbers, objects whatever
 * their member order.  A YAML timestamp equals the string it becomes. */
int schema_equal(const value *a, const value *b)
{
    if (is_number(a) && is_number(b)) {
        int c;
        return num_cmp(a, b, &c) == 0 && c == 0;
    }
    if (is_text(a) && is_text(b))
        return a->u.str.len == b->u.str.len &&
               memcmp(a->u.str.ptr, b->u.str.ptr, a->u.str.len) == 0;
    if (a->kind != b->kind)
        return 0;
    switch ((value_kind)a->kind) {
    case V_NULL:
        return 1;
    case V_BOOL:
        return !a->u.b == !b->u.b;
    case V_ARRAY:
        if (a->u.arr.len != b->u.arr.len)
            return 0;
        for (size_t i = 0; i < a->u.arr.len; i++)
            if (!schema_equal(a->u.arr.items[i], b->u.arr.items[i]))
                return 0;
        return 1;
    case V_OBJECT:
        if (a->u.obj.len != b->u.obj.len)
            return 0;
        for (size_t i = 0; i < a->u.obj.len; i++) {
            char tmp[PYFLOAT_REPR_MAX];
            const char *k;
            size_t n;
            if (!key_text(a->u.obj.items[i].key, tmp, &k, &n))
                return 0;
            const value *other = member_by_text(b, k, n);
            if (!other || !schema_equal(a->u.obj.items[i].val, other))
                return 0;
        }
        return 1;
    default:
        return 0;
    }
}

/* Appends v as canonical JSON for a message; what JSON cannot carry is
 * written the way Python's json module reads it (NaN, Infinity). */
static int put_json(buf *out, const value *v)
{
    char tmp[PYFLOAT_REPR_MAX];
    switch ((value_kind)v->kind) {
    case V_INT:
        return buf_append(out, v->u.str.ptr, v->u.str.len);
    case V_FLOAT:
        if (isnan(v->u.d))
            return buf_puts(out, "NaN");
        if (isinf(v->u.d))
            return buf_puts(out, v->u.d > 0 ? "Infinity" : "-Infinity");
        return buf_append(out, tmp, pyfloat_repr(v->u.d, tmp));
    case V_STRING:
    case V_TIMESTAMP:
        return canon_write_string(out, v->u.str.ptr, v->u.str.len);
    default: {
        /* canon_write writes a whole document, so it gets a buffer of
         * its own. */
        err e;
        buf doc = BUF_INIT;
        err_clear(&e);
        int rc;
        if (canon_write(&doc, v, &e) == 0)
            rc = buf_append(out, doc.data, doc.len);
        else if (e.code == ERR_NOMEM)
            rc = -1;
        else
            rc = buf_puts(out, "(a value JSON cannot carry)");
        buf_free(&doc);
        return rc;
    }
    }
}

/* A count keyword (minLength, maxItems...): a non-negative integer,
 * written as an int or an integral float.  Huge counts saturate. */
static int count_of(const value *v, size_t *out)
{
    if (!v)
        return 0;
    if (v->kind == V_INT) {
        if (v->u.str.ptr[0] == '-')
            return 0;
        size_t n = 0;
        for (size_t i = 0; i < v->u.str.len; i++) {
            size_t d = (size_t)(v->u.str.ptr[i] - '0');
            n = n > (SIZE_MAX - d) / 10 ? SIZE_MAX : n * 10 + d;
        }
        *out = n;
        return 1;
    }
    if (v->kind == V_FLOAT && isfinite(v->u.d) && v->u.d >= 0 &&
        v->u.d == floor(v->u.d)) {
        *out = v->u.d >= (double)SIZE_MAX ? SIZE_MAX : (size_t)v->u.d;
        return 1;
    }
    return 0;
}

/* Appends a count keyword's value as an integer ("6", also for 6.0). */
static int put_count(buf *out, const value *v)
{
    if (v->kind == V_INT)
        return buf_append(out, v->u.str.ptr, v->u.str.len);
    return buf_printf(out, "%.0f", v->u.d);
}

static int count_is_one(const value *v)
{
    size_t n;
    return count_of(v, &n) && n == 1;
}

/* --------------------------------------------------------------- formats */

/* n digits at s as a number; 0 when one is not a digit. */
static int digits_at(const char *s, size_t n, unsigned *out)
{
    unsigned v = 0;
    for (size_t i = 0; i < n; i++) {
        if (!is_digit((unsigned char)s[i]))
            return 0;
        v = v * 10 + (unsigned)(s[i] - '0');
    }
    *out = v;
    return 1;
}

static unsigned days_in_month(unsigned y, unsigned m)
{
    static const unsigned char days[] = {31, 28, 31, 30, 31, 30,
                                         31, 31, 30, 31, 30, 31};
    if (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
        return 29;
    return days[m - 1];
}

/* RFC 3339 full-date: YYYY-MM-DD with a day the month has. */
static int is_date(const char *s, size_t n)
{
    unsigned y, m, d;
    return n == 10 && s[4] == '-' && s[7] == '-' && digits_at(s, 4, &y) &&
           digits_at(s + 5, 2, &m) && digits_at(s + 8, 2, &d) && m >= 1 &&
           m <= 12 && d >= 1 && d <= days_in_month(y, m);
}

/* RFC 3339 full-time: HH:MM:SS, an optional fraction, then Z or +HH:MM /
 * -HH:MM.  A leap second (:60) is accepted only where one can fall: at
 * 23:59 UTC once the offset is taken away. */
static int is_time(const char *s, size_t n)
{
    unsigned h, m, sec, oh = 0, om = 0;
    if (n < 9 || s[2] != ':' || s[5] != ':' || !digits_at(s, 2, &h) ||
        !digits_at(s + 3, 2, &m) || !digits_at(s + 6, 2, &sec) || h > 23 ||
        m > 59 || sec > 60)
        return 0;
    size_t i = 8;
    if (s[i] == '.') {
        size_t start = ++i;
        while (i < n && is_digit((unsigned char)s[i]))
            i++;
        if (i == start)
            return 0;
    }
    if (i >= n)
        return 0;
    int sign = 0;
    if (s[i] == 'Z' || s[i] == 'z') {
        if (i + 1 != n)
            return 0;
    } else if (s[i] == '+' || s[i] == '-') {
        sign = s[i] == '+' ? 1 : -1;
        if (n - i != 6 || s[i + 3] != ':' || !digits_at(s + i + 1, 2, &oh) ||
            !digits_at(s + i + 4, 2, &om) || oh > 23 || om > 59)
            return 0;
    } else {
        return 0;
    }
    if (sec == 60) {
        long utc = (long)(h * 60 + m) - sign * (long)(oh * 60 + om);
        utc = ((utc % 1440) + 1440) % 1440;
        if (utc != 23 * 60 + 59)
            return 0;
    }
    return 1;
}

/* RFC 3339 date-time: full-date "T" full-time ("t" too, as RFC 3339
 * allows; a space does not pass). */
static int is_date_time(const char *s, size_t n)
{
    return n > 11 && (s[10] == 'T' || s[10] == 't') && is_date(s, 10) &&
           is_time(s + 11, n - 11);
}

/* Labels of 1 to 63 letters, digits and hyphens, not starting or ending
 * with a hyphen, separated by single dots; 253 bytes at most.  A trailing
 * dot does not pass. */
static int is_hostname(const char *s, size_t n)
{
    if (n == 0 || n > 253)
        return 0;
    size_t label = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '.') {
            if (label == 0 || s[i - 1] == '-')
                return 0;
            label = 0;
            continue;
        }
        if (!is_alnum(c) && c != '-')
            return 0;
        if (label == 0 && c == '-')
            return 0;
        if (++label > 63)
            return 0;
    }
    return label > 0 && s[n - 1] != '-';
}

/* local@domain: a dot-atom local part (RFC 5322 atext, single dots, at
 * most 64 bytes) and a hostname with at least one dot. */
static int is_email(const char *s, size_t n)
{
    const char *at = memchr(s, '@', n);
    if (!at)
        return 0;
    size_t local = (size_t)(at - s);
    if (local == 0 || local > 64 || s[0] == '.' || s[local - 1] == '.')
        return 0;
    for (size_t i = 0; i < local; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '.') {
            if (s[i + 1] == '.')
                return 0;
            continue;
        }
        if (!is_alnum(c) && (c == 0 || !strchr("!#$%&'*+/=?^_`{|}~-", c)))
            return 0;
    }
    const char *dom = at + 1;
    size_t dn = n - local - 1;
    return memchr(dom, '.', dn) != NULL && is_hostname(dom, dn);
}

/* A scheme ([A-Za-z][A-Za-z0-9+.-]*), a colon, then printable ASCII
 * without spaces or the characters RFC 3986 never allows raw ("<>\^`{|}),
 * with every % starting a two-digit hex escape. */
static int is_uri(const char *s, size_t n)
{
    if (n == 0 || !is_alpha((unsigned char)s[0]))
        return 0;
    size_t i = 1;
    while (i < n && (is_alnum((unsigned char)s[i]) || s[i] == '+' ||
                     s[i] == '.' || s[i] == '-'))
        i++;
    if (i == n || s[i] != ':')
        return 0;
    for (i++; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c <= 0x20 || c >= 0x7F || strchr("\"<>\\^`{|}", c))
            return 0;
        if (c == '%') {
            if (n - i < 3 || hex_digit_value((unsigned char)s[i + 1]) < 0 ||
                hex_digit_value((unsigned char)s[i + 2]) < 0)
                return 0;
            i += 2;
        }
    }
    return 1;
}

/* 8-4-4-4-12 hex digits, either case. */
static int is_uuid(const char *s, size_t n)
{
    if (n != 36)
        return 0;
    for (size_t i = 0; i < n; i++) {
        if (i == 8 || i == 13 || i == 18 || i == 23) {
            if (s[i] != '-')
                return 0;
        } else if (hex_digit_value((unsigned char)s[i]) < 0) {
            return 0;
        }
    }
    return 1;
}

/* Four decimal parts 0-255 without leading zeros. */
static int is_ipv4(const char *s, size_t n)
{
    size_t i = 0;
    for (int part = 0; part < 4; part++) {
        if (part > 0) {
            if (i >= n || s[i] != '.')
                return 0;
            i++;
        }
        size_t start = i;
        unsigned v = 0;
        while (i < n && is_digit((unsigned char)s[i]) && i - start < 3)
            v = v * 10 + (unsigned)(s[i++] - '0');
        if (i == start || (i - start > 1 && s[start] == '0') || v > 255)
            return 0;
    }
    return i == n;
}

/* Eight groups of 1-4 hex digits, or fewer with one "::" standing for
 * the rest; the last two groups may be written as an IPv4 address.  Zone
 * ids (%eth0) do not pass. */
static int is_ipv6(const char *s, size_t n)
{
    size_t i = 0, groups = 0;
    int compressed = 0;
    if (n >= 2 && s[0] == ':' && s[1] == ':') {
        compressed = 1;
        i = 2;
        if (i == n)
            return 1;
    } else if (n == 0 || s[0] == ':') {
        return 0;
    }
    for (;;) {
        size_t j = i;
        while (j < n && s[j] != ':')
            j++;
        if (memchr(s + i, '.', j - i)) {
            if (j != n || !is_ipv4(s + i, j - i))
                return 0;
            groups += 2;
            break;
        }
        if (j == i || j - i > 4)
            return 0;
        for (size_t k = i; k < j; k++)
            if (hex_digit_value((unsigned char)s[k]) < 0)
                return 0;
        groups++;
        if (groups > 8)
            return 0;
        if (j == n)
            break;
        if (j + 1 < n && s[j + 1] == ':') {
            if (compressed)
                return 0;
            compressed = 1;
            i = j + 2;
            if (i == n)
                break;
        } else {
            i = j + 1;
            if (i == n)
                return 0;
        }
    }
    return compressed ? groups <= 7 : groups == 8;
}

typedef struct format_rule {
    const char *name;
    int (*valid)(const char *s, size_t n);
    const char *what; /* "must be ..." */
} format_rule;

static const format_rule formats[] = {
    {"date-time", is_date_time,
     "a valid date-time (RFC 3339, like 2026-10-26T09:00:00Z)"},
    {"date", is_date, "a valid date (like 2026-10-26)"},
    {"time", is_time, "a valid time (like 09:00:00Z)"},
    {"email", is_email, "a valid email"},
    {"uri", is_uri, "a valid uri"},
    {"uuid", is_uuid, "a valid uuid"},
    {"hostname", is_hostname, "a valid hostname"},
    {"ipv4", is_ipv4, "a valid ipv4 address"},
    {"ipv6", is_ipv6, "a valid ipv6 address"},
};

/* ------------------------------------------------------------ the check */

typedef struct check_ctx {
    const value *root;
    const patterns *patterns; /* compiled patterns of root's document */
    const char *name;   /* what to call the instance itself */
    size_t name_len;
    int name_extends;   /* name is word "x": members become word "x.m" */
    size_t name_inner;  /* length of x */
    buf *msg;           /* NULL: only the verdict is wanted, no sentence */
    const struct step *at; /* the member or item the walk is in */
    size_t steps;       /* members and items from the instance to at */
    size_t visits;
    size_t pattern_work; /* what the pattern searches may still spend */
    int gave_up;         /* an enum gave_up: why the check cannot decide */
    const value *gave_up_pattern; /* GAVE_UP_PATTERN: the pattern */
    buf *out;            /* the caller's msg, NULL when it wants none */
    buf where;           /* the place the check gave up at, when out */
} check_ctx;

/* Why a check could not decide.  The first reason met is the one said. */
enum gave_up {
    GAVE_UP_NOT,
    GAVE_UP_VISITS,  /* past CHECK_MAX_VISITS */
    GAVE_UP_FRAMES,  /* past CHECK_MAX_FRAMES */
    GAVE_UP_PATTERN  /* a pattern search past its budget of work */
};

/* One step of the walk, kept on the C stack so that a schema re-entered
 * for the same instance (a loop that consumes nothing) can be seen. */
typedef struct frame {
    const struct frame *up;
    const value *schema; /* after $ref */
    const value *instance;
    unsigned depth;
} frame;

/* A member or item the walk went into, kept on the C stack: the path of
 * a place is written from these only when a rule is broken there. */
typedef struct step {
    const struct step *up;
    const char *key; /* the member's key; NULL for an item */
    size_t len;      /* of the key */
    size_t index;    /* of the item */
} step;

static int check(check_ctx *cx, const frame *up, const value *schema,
                 const value *inst);

/* Appends the path from the first step to s: address.city, tags[2]. */
static int put_path(buf *out, const step *s)
{
    if (s->up && put_path(out, s->up) < 0)
        return -1;
    if (!s->key)
        return buf_printf(out, "[%zu]", s->index);
    if (s->up && buf_putc(out, '.') < 0)
        return -1;
    return buf_append(out, s->key, s->len);
}

/* Appends the name of the place with the path to it. */
static int put_place_path(const check_ctx *cx, buf *out, const buf *path)
{
    if (cx->name_extends) {
        /* word "x" -> word "x.path": drop the closing quote, go on. */
        if (buf_append(out, cx->name, cx->name_len - 1) < 0)
            return -1;
        if (cx->name_inner > 0 && path->data[0] != '[' &&
            buf_putc(out, '.') < 0)
            return -1;
        size_t mark = out->len;
        if (canon_write_string(out, path->data, path->len) < 0)
            return -1;
        memmove(out->data + mark, out->data + mark + 1, out->len - mark);
        out->len--;
        return 0;
    }
    if (buf_puts(out, "argument ") < 0)
        return -1;
    return canon_write_string(out, path->data, path->len);
}

/* Appends the name of the place the walk is at. */
static int put_place(check_ctx *cx, buf *out)
{
    if (cx->steps == 0)
        return buf_append(out, cx->name, cx->name_len);
    buf path = BUF_INIT;
    int rc = put_path(&path, cx->at) < 0 ? -1 : put_place_path(cx, out, &path);
    buf_free(&path);
    return rc;
}

/* The check cannot decide, for why (an enum gave_up): from here on every
 * visit conforms at once, so the walk unwinds quickly, and
 * schema_check_with answers 2 with the first reason and its place.
 * Returns 0 (go on as if it conformed), or -1 out of memory. */
static int give_up(check_ctx *cx, int why, const value *pattern)
{
    if (cx->gave_up)
        return 0;
    cx->gave_up = why;
    cx->gave_up_pattern = pattern;
    /* A pattern is said with the value it was matched against; the other
     * limits are the whole check's, said of the whole instance. */
    if (!cx->out)
        return 0;
    if (why == GAVE_UP_PATTERN)
        return put_place(cx, &cx->where);
    return buf_append(&cx->where, cx->name, cx->name_len);
}

/* Replaces msg with the place followed by the printf-style rest; returns
 * 1 (the instance does not conform), or -1 out of memory. */
static int fail(check_ctx *cx, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int fail(check_ctx *cx, const char *fmt, ...)
{
    buf *m = cx->gave_up ? NULL : cx->msg; /* the reason is said instead */
    if (!m) /* the verdict alone: nothing to write */
        return 1;
    buf_reset(m);
    if (put_place(cx, m) < 0)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || buf_reserve(m, (size_t)n) < 0)
        return -1;
    va_start(ap, fmt);
    vsnprintf(m->data + m->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    m->len += (size_t)n;
    return 1;
}

/* Steps into member (k, n), or item i when k is NULL, and back out. */
static void step_in(check_ctx *cx, step *s, const char *k, size_t n,
                    size_t i)
{
    s->up = cx->at;
    s->key = k;
    s->len = n;
    s->index = i;
    cx->at = s;
    cx->steps++;
}

static void step_out(check_ctx *cx, const step *s)
{
    cx->at = s->up;
    cx->steps--;
}

/* The word for an object's members in messages: the instance handed in
 * under a plain name is the arguments; anything below it has fields. */
static const char *members_word(const check_ctx *cx)
{
    return cx->steps == 0 && !cx->name_extends ? "arguments" : "fields";
}

/* Checks inst against schema as the value of member (k, n), or of item i
 * when k is NULL. */
static int check_below(check_ctx *cx, const frame *me, const value *schema,
                       const value *inst, const char *k, size_t n, size_t i)
{
    step here;
    step_in(cx, &here, k, n, i);
    int rc = check(cx, me, schema, inst);
    step_out(cx, &here);
    return rc;
}

/* A subschema with its $refs followed; NULL when absent or unresolvable
 * (which the tool model refuses before any check runs). */
static const value *sub_deref(const check_ctx *cx, const value *s)
{
    const value *bad;
    enum ref_status st;
    return s ? deref(cx->root, s, &bad, &st) : NULL;
}

/* ---- type */

enum json_type {
    T_STRING, T_NUMBER, T_INTEGER, T_BOOLEAN, T_OBJECT, T_ARRAY, T_NULL,
    TYPE_COUNT
};
static const char *const type_phrases[TYPE_COUNT] = {
    "a string", "a number", "an integer", "a boolean", "an object",
    "an array", "null"};

/* The json_type a type name names, -1 when none. */
static int type_index(const value *t)
{
    if (t->kind != V_STRING)
        return -1;
    const char *k = t->u.str.ptr;
    switch (t->u.str.len) {
    case 4:
        return KEY_IS(k, "null") ? T_NULL : -1;
    case 5:
        return KEY_IS(k, "array") ? T_ARRAY : -1;
    case 6:
        return KEY_IS(k, "string")   ? T_STRING
               : KEY_IS(k, "number") ? T_NUMBER
               : KEY_IS(k, "object") ? T_OBJECT
                                     : -1;
    case 7:
        return KEY_IS(k, "integer")   ? T_INTEGER
               : KEY_IS(k, "boolean") ? T_BOOLEAN
                                      : -1;
    default:
        return -1;
    }
}

static int type_matches(int type, const value *v)
{
    switch ((enum json_type)type) {
    case T_STRING: return is_text(v);
    case T_NUMBER: return is_number(v);
    case T_INTEGER:
        return v->kind == V_INT ||
               (v->kind == V_FLOAT && isfinite(v->u.d) &&
                v->u.d == floor(v->u.d));
    case T_BOOLEAN: return v->kind == V_BOOL;
    case T_OBJECT: return v->kind == V_OBJECT;
    case T_ARRAY: return v->kind == V_ARRAY;
    default: return v->kind == V_NULL;
    }
}

static const char *kind_phrase(const value *v)
{
    switch ((value_kind)v->kind) {
    case V_STRING:
    case V_TIMESTAMP: return "a string";
    case V_INT: return "an integer";
    case V_FLOAT: return "a number";
    case V_BOOL: return "a boolean";
    case V_OBJECT: return "an object";
    case V_ARRAY: return "an array";
    case V_NULL: return "null";
    default: return "a value JSON cannot carry";
    }
}

/* type: a name or a list of names.  A name outside JSON Schema's seven
 * (Swagger's "file", say) makes the keyword unchecked. */
static int check_type(check_ctx *cx, const schema_keywords *K,
                      const value *inst)
{
    const value *t = schema_keyword(K, SK_TYPE);
    if (!t)
        return 0;
    const value *const *list = (const value *const *)&t;
    size_t n = 1;
    if (t->kind == V_ARRAY) {
        list = (const value *const *)t->u.arr.items;
        n = t->u.arr.len;
    }
    if (n == 0)
        return 0;
    int matched = 0;
    for (size_t i = 0; i < n; i++) {
        int ti = type_index(list[i]);
        if (ti < 0)
            return 0;
        matched |= type_matches(ti, inst);
    }
    if (matched)
        return 0;
    if (!cx->msg)
        return 1;
    buf want = BUF_INIT;
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        const char *sep = i == 0 ? "" : i + 1 == n ? " or " : ", ";
        int ti = type_index(list[i]); /* known above to be one of seven */
        rc = buf_printf(&want, "%s%s", sep,
                        type_phrases[ti < 0 ? T_NULL : ti]);
    }
    if (rc == 0)
        rc = fail(cx, " must be %s, not %s", want.data, kind_phrase(inst));
    buf_free(&want);
    return rc;
}

/* ---- const and enum */

#define ENUM_SHOWN_MAX 10

static int check_enum(check_ctx *cx, const schema_keywords *K,
                      const value *inst)
{
    const value *c = schema_keyword(K, SK_CONST);
    buf shown = BUF_INIT;
    int rc = 0;
    if (c && !schema_equal(c, inst)) {
        if (!cx->msg)
            return 1;
        rc = put_json(&shown, c) < 0 ? -1
                                     : fail(cx, " must be %s", shown.data);
        buf_free(&shown);
        return rc;
    }
    const value *e = schema_keyword(K, SK_ENUM);
    if (!e || e->kind != V_ARRAY || e->u.arr.len == 0)
        return 0;
    for (size_t i = 0; i < e->u.arr.len; i++)
        if (schema_equal(e->u.arr.items[i], inst))
            return 0;
    if (!cx->msg)
        return 1;
    size_t n = e->u.arr.len;
    for (size_t i = 0; i < n && i < ENUM_SHOWN_MAX && rc == 0; i++)
        rc = (i > 0 && buf_puts(&shown, ", ") < 0) ||
                     put_json(&shown, e->u.arr.items[i]) < 0
                 ? -1
                 : 0;
    if (rc == 0 && n > ENUM_SHOWN_MAX)
        rc = buf_puts(&shown, ", ...");
    if (rc == 0)
        rc = n == 1 ? fail(cx, " must be %s", shown.data)
                    : fail(cx, " must be one of %s", shown.data);
    buf_free(&shown);
    return rc;
}

/* ---- strings */

/* Fails with "must be at least/most N character(s) long" etc.: the
 * keyword's own number, and its noun singular when it is 1. */
static int fail_count(check_ctx *cx, const char *lead, const value *kw,
                      const char *one, const char *many, const char *tail)
{
    if (!cx->msg)
        return 1;
    buf num = BUF_INIT;
    int rc = put_count(&num, kw) < 0
                 ? -1
                 : fail(cx, " %s %s %s%s", lead, num.data,
                        count_is_one(kw) ? one : many, tail);
    buf_free(&num);
    return rc;
}

static int check_string(check_ctx *cx, const schema_keywords *K,
                        const value *inst)
{
    const char *str = inst->u.str.ptr;
    size_t len = inst->u.str.len, limit;
    const value *kw = schema_keyword(K, SK_MIN_LENGTH);
    if (count_of(kw, &limit) && utf8_count(str, len) < limit)
        return fail_count(cx, "must be at least", kw, "character",
                          "characters", " long");
    kw = schema_keyword(K, SK_MAX_LENGTH);
    if (count_of(kw, &limit) && utf8_count(str, len) > limit)
        return fail_count(cx, "must be at most", kw, "character",
                          "characters", " long");
    kw = schema_keyword(K, SK_PATTERN);
    if (kw && kw->kind == V_STRING) {
        regex *owned;
        int nomem;
        const regex *re = patterns_regex(cx->patterns, kw, &owned, &nomem);
        if (nomem)
            return -1;
        if (re) {
            int found = regex_search_within(re, str, len, &cx->pattern_work);
            regex_free(owned);
            if (found == REGEX_GAVE_UP)
                return give_up(cx, GAVE_UP_PATTERN, kw);
            if (found < 0)
                return -1; /* out of memory */
            if (!found)
                return fail(cx, " must match the pattern %.*s",
                            (int)kw->u.str.len, kw->u.str.ptr);
        }
    }
    kw = schema_keyword(K, SK_FORMAT);
    if (kw && kw->kind == V_STRING) {
        for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
            if (strlen(formats[i].name) == kw->u.str.len &&
                memcmp(formats[i].name, kw->u.str.ptr, kw->u.str.len) == 0)
                return formats[i].valid(str, len)
                           ? 0
                           : fail(cx, " must be %s", formats[i].what);
    }
    return 0;
}

/* ---- numbers */

static const value *number_kw(const value *v)
{
    return v && is_number(v) ? v : NULL;
}

/* Fails with " must be <rule> <limit>". */
static int fail_limit(check_ctx *cx, const char *rule, const value *limit)
{
    if (!cx->msg)
        return 1;
    buf num = BUF_INIT;
    int rc = put_json(&num, limit) < 0
                 ? -1
                 : fail(cx, " must be %s %s", rule, num.data);
    buf_free(&num);
    return rc;
}

/* Whether inst is below (sign -1) or above (sign 1) limit, or on it when
 * strict is 0; NaN compares with nothing, so it fails no bound. */
static int past(const value *inst, const value *limit, int sign, int strict)
{
    int c;
    if (num_cmp(inst, limit, &c) < 0)
        return 0;
    return strict ? c * sign >= 0 : c * sign > 0;
}

static int check_number(check_ctx *cx, const schema_keywords *K,
                        const value *inst)
{
    const value *min = number_kw(schema_keyword(K, SK_MINIMUM));
    const value *max = number_kw(schema_keyword(K, SK_MAXIMUM));
    const value *xmin = schema_keyword(K, SK_EXCLUSIVE_MINIMUM);
    const value *xmax = schema_keyword(K, SK_EXCLUSIVE_MAXIMUM);
    /* Draft 4 writes exclusiveMinimum: true beside minimum; later drafts
     * give the bound itself.  Both forms may appear; each is checked. */
    int xmin_flag = xmin && xmin->kind == V_BOOL && xmin->u.b;
    int xmax_flag = xmax && xmax->kind == V_BOOL && xmax->u.b;
    if (min && past(inst, min, -1, xmin_flag))
        return fail_limit(cx, xmin_flag ? "greater than" : "at least", min);
    if (xmin && is_number(xmin) && past(inst, xmin, -1, 1))
        return fail_limit(cx, "greater than", xmin);
    if (max && past(inst, max, 1, xmax_flag))
        return fail_limit(cx, xmax_flag ? "less than" : "at most", max);
    if (xmax && is_number(xmax) && past(inst, xmax, 1, 1))
        return fail_limit(cx, "less than", xmax);
    const value *m = number_kw(schema_keyword(K, SK_MULTIPLE_OF));
    if (m && is_multiple(inst, m) == 0)
        return fail_limit(cx, "a multiple of", m);
    return 0;
}

/* ---- arrays */

static int is_schema(const value *v)
{
    return v && (v->kind == V_OBJECT || v->kind == V_BOOL);
}

static int check_array(check_ctx *cx, const frame *me,
                       const schema_keywords *K, const value *inst)
{
    size_t n = inst->u.arr.len, limit;
    const value *kw = schema_keyword(K, SK_MIN_ITEMS);
    if (count_of(kw, &limit) && n < limit)
        return fail_count(cx, "must have at least", kw, "item", "items", "");
    kw = schema_keyword(K, SK_MAX_ITEMS);
    if (count_of(kw, &limit) && n > limit)
        return fail_count(cx, "must have at most", kw, "item", "items", "");
    kw = schema_keyword(K, SK_UNIQUE_ITEMS);
    if (kw && kw->kind == V_BOOL && kw->u.b)
        for (size_t i = 0; i < n; i++)
            for (size_t j = i + 1; j < n; j++)
                if (schema_equal(inst->u.arr.items[i], inst->u.arr.items[j]))
                    return fail(cx, " must have unique items, but [%zu] and "
                                "[%zu] are equal", i, j);
    /* Positional schemas: 2020-12's prefixItems (then items for the
     * rest), or draft 4's items array (then additionalItems). */
    const value *prefix = schema_keyword(K, SK_PREFIX_ITEMS);
    const value *items = schema_keyword(K, SK_ITEMS);
    const value *rest = items;
    if (!prefix || prefix->kind != V_ARRAY) {
        prefix = items && items->kind == V_ARRAY ? items : NULL;
        rest = prefix ? schema_keyword(K, SK_ADDITIONAL_ITEMS) : items;
    }
    for (size_t i = 0; i < n; i++) {
        const value *sub = prefix && i < prefix->u.arr.len
                               ? prefix->u.arr.items[i]
                               : rest;
        if (!is_schema(sub))
            continue;
        int rc = check_below(cx, me, sub, inst->u.arr.items[i], NULL, 0, i);
        if (rc)
            return rc;
    }
    return 0;
}

/* ---- objects */

/* Whether the pattern (a V_STRING) matches the key text: 1, 0, or -1 when
 * it decides nothing: the pattern is outside the regex subset, or the
 * search passed its budget (the check then gives up: give_up). */
static int pattern_matches(check_ctx *cx, const value *pattern,
                           const char *k, size_t n)
{
    if (pattern->kind != V_STRING)
        return -1;
    regex *owned;
    int nomem;
    const regex *re = patterns_regex(cx->patterns, pattern, &owned, &nomem);
    if (!re)
        return -1;
    int found = regex_search_within(re, k, n, &cx->pattern_work);
    regex_free(owned);
    if (found == REGEX_GAVE_UP) {
        /* out of memory here only loses the place in the sentence */
        (void)give_up(cx, GAVE_UP_PATTERN, pattern);
        return -1;
    }
    return found;
}

/* Whether properties or patternProperties name the member (a pattern
 * that cannot be compiled is given the benefit of the doubt). */
static int declared(check_ctx *cx, const value *props,
                    const value *pattern_props, const char *k, size_t n)
{
    if (member_by_text(props, k, n))
        return 1;
    if (pattern_props && pattern_props->kind == V_OBJECT)
        for (size_t i = 0; i < pattern_props->u.obj.len; i++)
            if (pattern_matches(cx, pattern_props->u.obj.items[i].key, k,
                                n) != 0)
                return 1;
    return 0;
}

#define ALLOWED_SHOWN_MAX 50

/* "argument "colour" is not allowed here; the allowed arguments are ..." */
static int fail_not_allowed(check_ctx *cx, const value *props,
                            const value *pattern_props, const char *k,
                            size_t n)
{
    if (!cx->msg)
        return 1;
    const char *word = members_word(cx);
    buf list = BUF_INIT;
    int rc = 0;
    size_t shown = 0;
    if (props && props->kind == V_OBJECT)
        for (size_t i = 0; i < props->u.obj.len && rc == 0; i++) {
            char tmp[PYFLOAT_REPR_MAX];
            const char *name;
            size_t len;
            if (!key_text(props->u.obj.items[i].key, tmp, &name, &len))
                continue;
            if (shown == ALLOWED_SHOWN_MAX) {
                rc = buf_puts(&list, ", ...");
                break;
            }
            rc = (shown++ && buf_puts(&list, ", ") < 0) ||
                         canon_write_string(&list, name, len) < 0
                     ? -1
                     : 0;
        }
    if (pattern_props && pattern_props->kind == V_OBJECT)
        for (size_t i = 0; i < pattern_props->u.obj.len && rc == 0; i++) {
            const value *p = pattern_props->u.obj.items[i].key;
            if (p->kind != V_STRING)
                continue;
            rc = buf_puts(&list, shown++ ? ", or names matching "
                                         : "names matching ") < 0 ||
                         buf_append(&list, p->u.str.ptr, p->u.str.len) < 0
                     ? -1
                     : 0;
        }
    if (rc) {
        buf_free(&list);
        return -1;
    }
    step here;
    step_in(cx, &here, k, n, 0);
    if (shown == 0)
        rc = fail(cx, " is not allowed here; no %s are allowed", word);
    else
        rc = fail(cx, " is not allowed here; the allowed %s are %s", word,
                  list.data);
    step_out(cx, &here);
    buf_free(&list);
    return rc;
}

/* A member of an instance object, by the text of its key. */
typedef struct member_ref {
    const char *k;
    size_t n;
    const value *val;
} member_ref;

static int member_cmp(const void *a, const void *b)
{
    const member_ref *x = a, *y = b;
    int c = memcmp(x->k, y->k, x->n < y->n ? x->n : y->n);
    if (c)
        return c;
    return x->n < y->n ? -1 : x->n > y->n;
}

/* Objects of at most this many members are sorted on the stack, by
 * insertion (most arguments are a handful). */
#define SMALL_OBJECT 8

/* The members of inst that have a key text, into *out (small, or an array
 * made here for the caller to free unless it is small), sorted by that
 * text as canonical JSON writes them (canon.h; byte order is code point
 * order).  The check meets members in that order, so what it meets first
 * (the sentence said, or whether a limit is passed before a rule broken)
 * does not depend on the order they were sent in: a call written to a
 * transcript, canonical, is answered as it was live.  *reprs holds the
 * text of float keys (YAML), NULL when there are none.  0, or -1 out of
 * memory. */
static int members_sorted(const value *inst, member_ref *small,
                          member_ref **out, char (**reprs)[PYFLOAT_REPR_MAX],
                          size_t *count)
{
    size_t len = inst->u.obj.len, n = 0;
    int floats = 0;
    for (size_t i = 0; i < len; i++)
        floats |= inst->u.obj.items[i].key->kind == V_FLOAT;
    member_ref *m = len <= SMALL_OBJECT ? small : malloc(len * sizeof *m);
    *reprs = floats ? malloc(len * sizeof **reprs) : NULL;
    if (!m || (floats && !*reprs)) {
        if (m != small)
            free(m);
        free(*reprs);
        *reprs = NULL;
        return -1;
    }
    for (size_t i = 0; i < len; i++)
        if (key_text(inst->u.obj.items[i].key, floats ? (*reprs)[i] : NULL,
                     &m[n].k, &m[n].n))
            m[n++].val = inst->u.obj.items[i].val;
    if (n > SMALL_OBJECT) {
        qsort(m, n, sizeof *m, member_cmp);
    } else {
        for (size_t i = 1; i < n; i++) {
            member_ref x = m[i];
            size_t j = i;
            for (; j > 0 && member_cmp(&m[j - 1], &x) > 0; j--)
                m[j] = m[j - 1];
            m[j] = x;
        }
    }
    *out = m;
    *count = n;
    return 0;
}

static int check_members(check_ctx *cx, const frame *me,
                         const schema_keywords *K, const value *inst,
                         const member_ref *m, size_t nm)
{
    const value *props = schema_keyword(K, SK_PROPERTIES);
    const value *pattern_props = schema_keyword(K, SK_PATTERN_PROPERTIES);
    const value *extra =
        sub_deref(cx, schema_keyword(K, SK_ADDITIONAL_PROPERTIES));
    if (props && props->kind != V_OBJECT)
        props = NULL;
    if (pattern_props && pattern_props->kind != V_OBJECT)
        pattern_props = NULL;

    /* Members the schema does not allow come first: a misspelt name is
     * best answered with the names that are allowed. */
    if (extra && extra->kind == V_BOOL && !extra->u.b)
        for (size_t i = 0; i < nm; i++)
            if (!declared(cx, props, pattern_props, m[i].k, m[i].n))
                return fail_not_allowed(cx, props, pattern_props, m[i].k,
                                        m[i].n);

    const value *req = schema_keyword(K, SK_REQUIRED);
    if (req && req->kind == V_ARRAY)
        for (size_t i = 0; i < req->u.arr.len; i++) {
            const value *r = req->u.arr.items[i];
            if (r->kind != V_STRING ||
                member_by_text(inst, r->u.str.ptr, r->u.str.len))
                continue;
            step here;
            step_in(cx, &here, r->u.str.ptr, r->u.str.len, 0);
            int rc = fail(cx, " is required");
            step_out(cx, &here);
            return rc;
        }

    size_t limit;
    const value *kw = schema_keyword(K, SK_MIN_PROPERTIES);
    if (count_of(kw, &limit) && inst->u.obj.len < limit)
        return fail_count(cx, "must have at least", kw, "property",
                          "properties", "");
    kw = schema_keyword(K, SK_MAX_PROPERTIES);
    if (count_of(kw, &limit) && inst->u.obj.len > limit)
        return fail_count(cx, "must have at most", kw, "property",
                          "properties", "");

    for (size_t i = 0; i < nm; i++) {
        const value *member = m[i].val;
        const char *k = m[i].k;
        size_t n = m[i].n;
        int rc, named = 0;
        const value *sub = member_by_text(props, k, n);
        if (sub) {
            named = 1;
            if ((rc = check_below(cx, me, sub, member, k, n, 0)) != 0)
                return rc;
        }
        if (pattern_props)
            for (size_t j = 0; j < pattern_props->u.obj.len; j++) {
                int found = pattern_matches(
                    cx, pattern_props->u.obj.items[j].key, k, n);
                if (found == 0)
                    continue;
                named = 1;
                if (found < 0)
                    continue;
                rc = check_below(cx, me, pattern_props->u.obj.items[j].val,
                                 member, k, n, 0);
                if (rc)
                    return rc;
            }
        if (!named && is_schema(extra) &&
            (rc = check_below(cx, me, extra, member, k, n, 0)) != 0)
            return rc;
    }
    return 0;
}

static int check_object(check_ctx *cx, const frame *me,
                        const schema_keywords *K, const value *inst)
{
    member_ref small[SMALL_OBJECT], *m;
    char(*reprs)[PYFLOAT_REPR_MAX];
    size_t nm;
    if (members_sorted(inst, small, &m, &reprs, &nm) < 0)
        return -1;
    int rc = check_members(cx, me, K, inst, m, nm);
    if (m != small)
        free(m);
    free(reprs);
    return rc;
}

/* ---- combinators */

static int check_combinators(check_ctx *cx, const frame *me,
                             const schema_keywords *K, const value *inst)
{
    const value *all = schema_keyword(K, SK_ALL_OF);
    if (all && all->kind == V_ARRAY)
        for (size_t i = 0; i < all->u.arr.len; i++) {
            int rc = check(cx, me, all->u.arr.items[i], inst);
            if (rc)
                return rc;
        }
    /* A branch of anyOf or oneOf is asked for its verdict alone: what
     * breaks it is never said (the sentence is about the whole). */
    buf *msg = cx->msg;
    const value *any = schema_keyword(K, SK_ANY_OF);
    if (any && any->kind == V_ARRAY && any->u.arr.len > 0) {
        int matched = 0;
        cx->msg = NULL;
        for (size_t i = 0; i < any->u.arr.len && !matched; i++) {
            int rc = check(cx, me, any->u.arr.items[i], inst);
            if (rc < 0) {
                cx->msg = msg;
                return -1;
            }
            matched = rc == 0;
        }
        cx->msg = msg;
        if (!matched)
            return fail(cx, " matches none of the schemas anyOf allows");
    }
    const value *one = schema_keyword(K, SK_ONE_OF);
    if (one && one->kind == V_ARRAY && one->u.arr.len > 0) {
        size_t matches = 0;
        cx->msg = NULL;
        for (size_t i = 0; i < one->u.arr.len; i++) {
            int rc = check(cx, me, one->u.arr.items[i], inst);
            if (rc < 0) {
                cx->msg = msg;
                return -1;
            }
            matches += rc == 0;
        }
        cx->msg = msg;
        if (matches == 0)
            return fail(cx, " matches none of the schemas oneOf allows");
        if (matches > 1)
            return fail(cx, " matches %zu of the schemas oneOf allows; it "
                        "must match exactly one", matches);
    }
    return 0;
}

static int check(check_ctx *cx, const frame *up, const value *schema,
                 const value *inst)
{
    if (cx->gave_up)
        return 0;
    unsigned depth = up ? up->depth + 1 : 0;
    if (++cx->visits > CHECK_MAX_VISITS)
        return give_up(cx, GAVE_UP_VISITS, NULL);
    if (depth >= CHECK_MAX_FRAMES)
        return give_up(cx, GAVE_UP_FRAMES, NULL);
    if (!schema)
        return 0;
    /* The keywords of the schema, or of its $ref's target (a schema with
     * a $ref is its target). */
    schema_keywords keys, *K = &keys;
    const value *s = schema;
    schema_keywords_read(K, s);
    const value *ref = schema_keyword(K, SK_REF);
    if (ref && ref->kind == V_STRING) {
        s = sub_deref(cx, schema);
        if (!s)
            return 0;
        schema_keywords_read(K, s);
    }
    /* The same schema again for the same instance: a loop through
     * combinators that would never end.  It adds nothing the outer visit
     * does not check, so it passes. */
    for (const frame *f = up; f && f->instance == inst; f = f->up)
        if (f->schema == s)
            return 0;
    if (s->kind == V_BOOL)
        return s->u.b ? 0 : fail(cx, " is not allowed here");
    if (s->kind != V_OBJECT)
        return 0;
    const value *nullable = schema_keyword(K, SK_NULLABLE);
    if (inst->kind == V_NULL && nullable && nullable->kind == V_BOOL &&
        nullable->u.b)
        return 0;
    frame me = {up, s, inst, depth};
    int rc = check_type(cx, K, inst);
    if (rc == 0)
        rc = check_enum(cx, K, inst);
    if (rc == 0) {
        if (is_text(inst))
            rc = check_string(cx, K, inst);
        else if (is_number(inst))
            rc = check_number(cx, K, inst);
        else if (inst->kind == V_ARRAY)
            rc = check_array(cx, &me, K, inst);
        else if (inst->kind == V_OBJECT)
            rc = check_object(cx, &me, K, inst);
    }
    if (rc == 0)
        rc = check_combinators(cx, &me, K, inst);
    return rc;
}

/* Writes into msg the sentence of why cx could not decide (schema.h). */
static int gave_up_sentence(const check_ctx *cx, buf *msg)
{
    buf_reset(msg);
    buf_append(msg, cx->where.data ? cx->where.data : "", cx->where.len);
    switch ((enum gave_up)cx->gave_up) {
    case GAVE_UP_PATTERN: {
        const value *p = cx->gave_up_pattern;
        int cut = p->u.str.len > PATTERN_SHOWN_MAX;
        buf_printf(msg, " could not be checked against the pattern %.*s%s: "
                        "the match takes more work than the check allows; "
                        "send a shorter value",
                   cut ? PATTERN_SHOWN_MAX : (int)p->u.str.len, p->u.str.ptr,
                   cut ? "..." : "");
        break;
    }
    case GAVE_UP_FRAMES:
        buf_printf(msg, " could not be checked: the schema goes more than "
                        "%d levels deep for it; send a value that nests "
                        "less", CHECK_MAX_FRAMES);
        break;
    default:
        buf_printf(msg, " could not be checked: the check stops after "
                        "%u steps through the schema, and this value needs "
                        "more; send one that nests less",
                   CHECK_MAX_VISITS);
        break;
    }
    return msg->failed ? -1 : 0;
}

int schema_check(const value *root, const value *schema,
                 const value *instance, const char *name, buf *msg)
{
    return schema_check_with(root, NULL, schema, instance, name, msg);
}

int schema_check_with(const value *root, const patterns *pt,
                      const value *schema, const value *instance,
                      const char *name, buf *msg)
{
    check_ctx cx;
    memset(&cx, 0, sizeof cx);
    cx.root = root;
    cx.patterns = pt;
    cx.name = name && *name ? name : "the value";
    cx.name_len = strlen(cx.name);
    /* word "x": a name that quotes a place extends into its members. */
    const char *q = strchr(cx.name, '"');
    cx.name_extends = q && q > cx.name && q[-1] == ' ' &&
                      q < cx.name + cx.name_len - 1 &&
                      cx.name[cx.name_len - 1] == '"';
    cx.name_inner = cx.name_extends
                        ? (size_t)(cx.name + cx.name_len - 1 - (q + 1))
                        : 0;
    cx.msg = msg;
    cx.out = msg;
    cx.pattern_work = REGEX_SEARCH_WORK;
    cx.where = (buf)BUF_INIT;
    if (msg)
        buf_reset(msg);
    int rc = schema && instance ? check(&cx, NULL, schema, instance) : 0;
    if (rc >= 0 && cx.gave_up) {
        /* Whatever the walk said after it gave up (a oneOf counting a
         * branch that was never checked) decides nothing. */
        rc = 2;
        if (msg && gave_up_sentence(&cx, msg) < 0)
            rc = -1;
    }
    if (rc == 0 && msg)
        buf_reset(msg);
    buf_free(&cx.where);
    return rc;
}
