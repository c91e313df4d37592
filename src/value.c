/* value: see value.h. */
#include "value.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

const char *value_kind_name(value_kind kind)
{
    switch (kind) {
    case V_NULL: return "null";
    case V_BOOL: return "boolean";
    case V_INT: return "integer";
    case V_FLOAT: return "number";
    case V_STRING: return "string";
    case V_ARRAY: return "array";
    case V_OBJECT: return "object";
    case V_TIMESTAMP: return "timestamp";
    case V_BAD: return "unrepresentable value";
    }
    return "value";
}

const char *value_kind_phrase(value_kind kind)
{
    switch (kind) {
    case V_NULL: return "null";
    case V_INT: return "an integer";
    case V_ARRAY: return "an array";
    case V_OBJECT: return "an object";
    case V_BAD: return "an unrepresentable value";
    default: break;
    }
    static const char *const with_a[] = {
        [V_BOOL] = "a boolean", [V_FLOAT] = "a number",
        [V_STRING] = "a string", [V_TIMESTAMP] = "a timestamp"};
    return with_a[kind];
}

/* The order of an indexed object: its members' positions, sorted by key,
 * right after its members in the same block. */
static const uint32_t *index_order(const value *o)
{
    return (const uint32_t *)(o->u.obj.items + o->u.obj.len);
}

/* Byte order, then length: the order value_index sorts keys in. */
static int key_cmp(const char *a, size_t an, const char *b, size_t bn)
{
    int c = memcmp(a, b, an < bn ? an : bn);
    if (c)
        return c;
    return an < bn ? -1 : an > bn;
}

const value *value_get(const value *o, const char *ptr, size_t len)
{
    if (!o || o->kind != V_OBJECT)
        return NULL;
    const value_member *m = o->u.obj.items;
    if (o->flags & VF_INDEXED) {
        const uint32_t *order = index_order(o);
        size_t lo = 0, hi = o->u.obj.len;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            const value *k = m[order[mid]].key;
            int c = key_cmp(k->u.str.ptr, k->u.str.len, ptr, len);
            if (c == 0)
                return m[order[mid]].val;
            if (c < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        return NULL;
    }
    for (size_t i = 0, n = o->u.obj.len; i < n; i++) {
        const value *k = m[i].key;
        /* Length, then first byte, then the rest: most keys differ early. */
        if (k->kind != V_STRING || k->u.str.len != len)
            continue;
        if (len == 0 || (k->u.str.ptr[0] == ptr[0] &&
                         memcmp(k->u.str.ptr + 1, ptr + 1, len - 1) == 0))
            return m[i].val;
    }
    return NULL;
}

/* A key and its member's position, while sorting. */
struct keyed {
    const char *ptr;
    size_t len;
    uint32_t at;
};

static int keyed_cmp(const void *a, const void *b)
{
    const struct keyed *x = a, *y = b;
    return key_cmp(x->ptr, x->len, y->ptr, y->len);
}

static int index_object(value *o, arena *a)
{
    size_t n = o->u.obj.len;
    if (n < VALUE_INDEX_MIN || n > UINT32_MAX || (o->flags & VF_INDEXED))
        return 0;
    for (size_t i = 0; i < n; i++)
        if (o->u.obj.items[i].key->kind != V_STRING)
            return 0;
    struct keyed *keys = malloc(n * sizeof *keys);
    value_member *block =
        arena_alloc(a, n * sizeof *block + n * sizeof(uint32_t));
    if (!keys || !block) {
        free(keys);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        const value *k = o->u.obj.items[i].key;
        keys[i] = (struct keyed){k->u.str.ptr, k->u.str.len, (uint32_t)i};
    }
    qsort(keys, n, sizeof *keys, keyed_cmp);
    memcpy(block, o->u.obj.items, n * sizeof *block);
    uint32_t *order = (uint32_t *)(block + n);
    for (size_t i = 0; i < n; i++)
        order[i] = keys[i].at;
    free(keys);
    o->u.obj.items = block;
    o->flags |= VF_INDEXED;
    return 0;
}

static int index_walk(value *v, arena *a, unsigned depth)
{
    if (depth > VALUE_MAX_DEPTH + 1) /* loaders refuse deeper trees */
        return 0;
    if (v->kind == V_ARRAY) {
        for (size_t i = 0; i < v->u.arr.len; i++)
            if (index_walk(v->u.arr.items[i], a, depth + 1) < 0)
                return -1;
    } else if (v->kind == V_OBJECT) {
        if (index_object(v, a) < 0)
            return -1;
        for (size_t i = 0; i < v->u.obj.len; i++)
            if (index_walk(v->u.obj.items[i].val, a, depth + 1) < 0)
                return -1;
    }
    return 0;
}

int value_index(value *root, arena *a)
{
    return root ? index_walk(root, a, 0) : 0;
}

value_figure value_count(const value *v, int64_t *out)
{
    if (!v || v->kind == V_NULL)
        return VFIG_NONE;
    if (v->kind == V_FLOAT) {
        if (v->u.d < 0)
            return VFIG_NEGATIVE;
        if (v->u.d != floor(v->u.d))
            return VFIG_FRACTION;
        if (v->u.d > 9007199254740992.0)
            return VFIG_FLOAT_BIG;
        *out = (int64_t)v->u.d;
        return VFIG_OK;
    }
    if (v->kind != V_INT)
        return VFIG_KIND;
    if (v->u.str.ptr[0] == '-')
        return VFIG_NEGATIVE;
    errno = 0;
    char *end;
    unsigned long long n = strtoull(v->u.str.ptr, &end, 10);
    if (errno || *end || n > INT64_MAX)
        return VFIG_HUGE;
    *out = (int64_t)n;
    return VFIG_OK;
}

value_figure value_reward(const value *v, double *out)
{
    if (!v || v->kind == V_NULL)
        return VFIG_NONE;
    if (v->kind != V_INT && v->kind != V_FLOAT)
        return VFIG_KIND;
    double d = v->kind == V_FLOAT ? v->u.d : strtod(v->u.str.ptr, NULL);
    if (!isfinite(d))
        return VFIG_HUGE;
    *out = d == 0 ? 0 : d;
    return VFIG_OK;
}

value_figure value_amount(const value *v, double *out)
{
    double d = 0;
    value_figure f = value_reward(v, &d);
    if (f != VFIG_OK)
        return f;
    if (d < 0)
        return VFIG_NEGATIVE;
    *out = d;
    return VFIG_OK;
}
