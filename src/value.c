/* value: see value.h. */
#include "value.h"

#include <stdint.h>
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
