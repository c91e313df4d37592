/* vbuild: see vbuild.h. */
#include "vbuild.h"

#include <stdio.h>
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
    char text[32];
    int len = snprintf(text, sizeof text, "%lld", n);
    return value_new_text(a, V_INT, text, (size_t)len, 0, 0);
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

int vb_putv(arena *a, value *o, value *key, value *v)
{
    if (!o || !key || !v || o->kind != V_OBJECT || key->kind != V_STRING)
        return -1;
    for (size_t i = 0; i < o->u.obj.len; i++) {
        const value *k = o->u.obj.items[i].key;
        if (k->kind == V_STRING && k->u.str.len == key->u.str.len &&
            memcmp(k->u.str.ptr, key->u.str.ptr, k->u.str.len) == 0) {
            o->u.obj.items[i].val = v;
            return 0;
        }
    }
    value_member *m = grow(a, o->u.obj.items, o->u.obj.len, sizeof *m);
    if (!m)
        return -1;
    m[o->u.obj.len].key = key;
    m[o->u.obj.len].val = v;
    o->u.obj.items = m;
    o->u.obj.len++;
    return 0;
}

int vb_put(arena *a, value *o, const char *key, value *v)
{
    return vb_putv(a, o, vb_str(a, key), v);
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
    c->flags = v->flags;
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
