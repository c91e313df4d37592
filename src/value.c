/* value: see value.h. */
#include "value.h"

#include <string.h>

value *value_new(arena *a, value_kind kind, uint32_t line, uint32_t col)
{
    value *v = arena_alloc(a, sizeof *v);
    if (!v)
        return NULL;
    memset(v, 0, sizeof *v);
    v->kind = (uint8_t)kind;
    v->line = line;
    v->col = col;
    return v;
}

value *value_new_text(arena *a, value_kind kind, const char *ptr, size_t len,
                      uint32_t line, uint32_t col)
{
    value *v = value_new(a, kind, line, col);
    if (!v)
        return NULL;
    char *copy = arena_memdup(a, ptr, len);
    if (!copy)
        return NULL;
    v->u.str.ptr = copy;
    v->u.str.len = len;
    return v;
}

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

const value *value_get(const value *o, const char *ptr, size_t len)
{
    if (!o || o->kind != V_OBJECT)
        return NULL;
    for (size_t i = 0; i < o->u.obj.len; i++) {
        const value *k = o->u.obj.items[i].key;
        if (k->kind == V_STRING && k->u.str.len == len &&
            memcmp(k->u.str.ptr, ptr, len) == 0)
            return o->u.obj.items[i].val;
    }
    return NULL;
}

const value *value_getz(const value *o, const char *key)
{
    return value_get(o, key, strlen(key));
}
