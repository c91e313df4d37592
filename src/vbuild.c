/* vbuild: see vbuild.h. */
#include "vbuild.h"

#include <string.h>

value *vb_strn(arena *a, const char *s, size_t len)
{
    return value_new_text(a, V_STRING, s, len, 0, 0);
}

value *vb_str(arena *a, const char *s)
{
    return vb_strn(a, s, strlen(s));
}

value *vb_int(arena *a, long long n)
{
    /* The text printf's %lld gives, written from its last digit. */
    char text[24];
    size_t i = sizeof text;
    unsigned long long u = n < 0 ? 0ull - (unsigned long long)n
                                 : (unsigned long long)n;
    do
        text[--i] = (char)('0' + u % 10);
    while ((u /= 10) != 0);
    if (n < 0)
        text[--i] = '-';
    return value_new_text(a, V_INT, text + i, sizeof text - i, 0, 0);
}

value *vb_bool(arena *a, int b)
{
    value *v = value_new(a, V_BOOL, 0, 0);
    if (v)
        v->u.b = !!b;
    return v;
}

value *vb_object(arena *a)
{
    return value_new(a, V_OBJECT, 0, 0);
}

value *vb_array(arena *a)
{
    return value_new(a, V_ARRAY, 0, 0);
}

/* Room for one more item in an array of len items of size size, which
 * holds a power of two of them (or none). */
static void *grow(arena *a, void *items, size_t len, size_t size)
{
    if (len != 0 && (len & (len - 1)) != 0)
        return items;
    size_t cap = len ? 2 * len : 4;
    if (len != 0 && len < 4)
        return items;
    void *more = arena_alloc(a, cap * size);
    if (more && len)
        memcpy(more, items, len * size);
    return more;
}

/* The member of o keyed by the string (k, n), or NULL. */
static value_member *member_of(value *o, const char *k, size_t n)
{
    value_member *m = o->u.obj.items;
    for (size_t i = 0; i < o->u.obj.len; i++) {
        const value *key = m[i].key;
        if (key->kind == V_STRING && key->u.str.len == n &&
            (n == 0 || (key->u.str.ptr[0] == k[0] &&
                        memcmp(key->u.str.ptr, k, n) == 0)))
            return &m[i];
    }
    return NULL;
}

/* Appends the member (key, v) to object o: 0, or -1 out of memory. */
static int append_member(arena *a, value *o, value *key, value *v)
{
    value_member *m = grow(a, o->u.obj.items, o->u.obj.len, sizeof *m);
    if (!m)
        return -1;
    m[o->u.obj.len].key = key;
    m[o->u.obj.len].val = v;
    o->u.obj.items = m;
    o->u.obj.len++;
    return 0;
}

int vb_putv(arena *a, value *o, value *key, value *v)
{
    if (!o || !key || !v || o->kind != V_OBJECT || key->kind != V_STRING)
        return -1;
    value_member *m = member_of(o, key->u.str.ptr, key->u.str.len);
    if (m) {
        m->val = v;
        return 0;
    }
    return append_member(a, o, key, v);
}

int vb_put(arena *a, value *o, const char *key, value *v)
{
    if (!o || !v || o->kind != V_OBJECT)
        return -1;
    /* The key's node is made only when the member is new. */
    size_t n = strlen(key);
    value_member *m = member_of(o, key, n);
    if (m) {
        m->val = v;
        return 0;
    }
    value *k = vb_strn(a, key, n);
    return k ? append_member(a, o, k, v) : -1;
}

int vb_push(arena *a, value *arr, value *v)
{
    if (!arr || !v || arr->kind != V_ARRAY)
        return -1;
    value **items = grow(a, arr->u.arr.items, arr->u.arr.len, sizeof *items);
    if (!items)
        return -1;
    items[arr->u.arr.len++] = v;
    arr->u.arr.items = items;
    return 0;
}

value *vb_copy_object(arena *a, const value *o)
{
    value *c = vb_object(a);
    if (!c)
        return NULL;
    for (size_t i = 0; i < o->u.obj.len; i++)
        if (vb_putv(a, c, o->u.obj.items[i].key, o->u.obj.items[i].val) < 0)
            return NULL;
    return c;
}

value *vb_clone(arena *a, const value *v)
{
    value *c = value_new(a, (value_kind)v->kind, v->line, v->col);
    if (!c)
        return NULL;
    c->flags = v->flags & ~VF_INDEXED; /* its members get a plain array */
    switch ((value_kind)v->kind) {
    case V_INT:
    case V_STRING:
    case V_TIMESTAMP:
    case V_BAD:
        c->u.str.ptr = arena_memdup(a, v->u.str.ptr, v->u.str.len);
        c->u.str.len = v->u.str.len;
        return c->u.str.ptr ? c : NULL;
    case V_ARRAY:
        c->u.arr.len = v->u.arr.len;
        c->u.arr.items = arena_alloc(a, (v->u.arr.len + 1) * sizeof(value *));
        if (!c->u.arr.items)
            return NULL;
        for (size_t i = 0; i < v->u.arr.len; i++)
            if (!(c->u.arr.items[i] = vb_clone(a, v->u.arr.items[i])))
                return NULL;
        return c;
    case V_OBJECT:
        c->u.obj.len = v->u.obj.len;
        c->u.obj.items =
            arena_alloc(a, (v->u.obj.len + 1) * sizeof(value_member));
        if (!c->u.obj.items)
            return NULL;
        for (size_t i = 0; i < v->u.obj.len; i++) {
            value_member *m = &c->u.obj.items[i];
            if (!(m->key = vb_clone(a, v->u.obj.items[i].key)) ||
                !(m->val = vb_clone(a, v->u.obj.items[i].val)))
                return NULL;
        }
        return c;
    default:
        c->u = v->u;
        return c;
    }
}
