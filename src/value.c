/* value: see value.h. */
#include "value.h"

#include <stdint.h>
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

/* memcpy for the short texts most nodes hold: up to 16 bytes as two
 * fixed-size copies that may overlap, which compile to a few moves. */
static void copy_text(char *dst, const char *src, size_t len)
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

value *value_new_text(arena *a, value_kind kind, const char *ptr, size_t len,
                      uint32_t line, uint32_t col)
{
    /* The node and its bytes in one block: the bytes right after it. */
    if (len > SIZE_MAX - sizeof(value) - 1)
        return NULL;
    value *v = arena_alloc(a, sizeof *v + len + 1);
    if (!v)
        return NULL;
    memset(v, 0, sizeof *v);
    v->kind = (uint8_t)kind;
    v->line = line;
    v->col = col;
    char *copy = (char *)(v + 1);
    copy_text(copy, ptr, len);
    copy[len] = '\0';
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
    const value_member *m = o->u.obj.items;
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
