/* dialects: see dialects.h. */
#include "dialects.h"

#include <ctype.h>
#include <string.h>

#include "json_load.h"
#include "vbuild.h"

/* The member of object o named key (len bytes), or NULL. */
static value *member(value *o, const char *key, size_t len)
{
    for (size_t i = 0; i < o->u.obj.len; i++) {
        const value *k = o->u.obj.items[i].key;
        if (k->kind == V_STRING && k->u.str.len == len &&
            memcmp(k->u.str.ptr, key, len) == 0)
            return o->u.obj.items[i].val;
    }
    return NULL;
}

/* A dotted part that is an index: its number, or -1. */
static long index_of(const char *p, size_t len)
{
    if (len == 0 || len > 9)
        return -1;
    long n = 0;
    for (size_t i = 0; i < len; i++) {
        if (!isdigit((unsigned char)p[i]))
            return -1;
        n = n * 10 + (p[i] - '0');
    }
    return n;
}

/* The place part (len bytes) names under node (an object, or an array
 * when part is an index), made when missing: an object, or an array
 * when next is an index.  *stop is set when the place holds a value of
 * another kind, or the index is past the limit (the attribute is left
 * out); NULL then, or out of memory. */
static value *step(arena *a, value *node, const char *part, size_t len,
                   int last, int next_index, value *leaf, int *stop)
{
    long ix = index_of(part, len);
    if ((ix >= 0) != (node->kind == V_ARRAY) || ix > DIALECT_INDEX_MAX) {
        *stop = 1;
        return NULL;
    }
    value *have;
    if (ix >= 0) {
        while (node->u.arr.len <= (size_t)ix)
            if (vb_push(a, node, value_new(a, V_NULL, 0, 0)) < 0)
                return NULL;
        have = node->u.arr.items[ix];
    } else {
        have = member(node, part, len);
    }
    if (have && have->kind != V_NULL) {
        /* the first attribute of a place stands; a container stays one */
        if (last || (have->kind != V_ARRAY && have->kind != V_OBJECT) ||
            (have->kind == V_ARRAY) != next_index) {
            *stop = 1;
            return NULL;
        }
        return have;
    }
    value *made = last ? leaf : next_index ? vb_array(a) : vb_object(a);
    if (!made)
        return NULL;
    if (ix >= 0)
        node->u.arr.items[ix] = made;
    else if (vb_putv(a, node, vb_strn(a, part, len), made) < 0)
        return NULL;
    return made;
}

value *dialect_indexed(arena *a, const value *attrs, const char *prefix,
                       dialect_decode decode, void *ctx)
{
    size_t plen = strlen(prefix);
    value *root = NULL;
    for (size_t i = 0; attrs && attrs->kind == V_ARRAY &&
                       i < attrs->u.arr.len;
         i++) {
        const value *kv = attrs->u.arr.items[i];
        const value *k = value_getz(kv, "key");
        if (!k || k->kind != V_STRING || k->u.str.len <= plen ||
            memcmp(k->u.str.ptr, prefix, plen) != 0)
            continue;
        const char *p = k->u.str.ptr + plen;
        const char *end = k->u.str.ptr + k->u.str.len;
        if (!root && !(root = vb_array(a)))
            return NULL;
        value *node = root;
        int stop = 0;
        while (node && !stop) {
            const char *dot = memchr(p, '.', (size_t)(end - p));
            const char *stop_at = dot ? dot : end;
            int next_index = 0;
            if (dot) {
                const char *nd = memchr(dot + 1, '.', (size_t)(end - dot - 1));
                next_index = index_of(dot + 1, (size_t)((nd ? nd : end) -
                                                        dot - 1)) >= 0;
            }
            value *leaf = NULL;
            if (!dot && !(leaf = decode(ctx, k->u.str.ptr,
                                        value_getz(kv, "value"))))
                return NULL;
            node = step(a, node, p, (size_t)(stop_at - p), !dot, next_index,
                        leaf, &stop);
            if (!node && !stop)
                return NULL; /* out of memory */
            if (!dot)
                break;
            p = dot + 1;
        }
    }
    return root;
}

/* An object's member, or NULL (a loaded or a built tree alike). */
static const value *get(const value *o, const char *key)
{
    return o && o->kind == V_OBJECT ? value_getz(o, key) : NULL;
}

/* Member key of from, put into to when there. */
static int keep(arena *a, value *to, const value *from, const char *key)
{
    const value *v = get(from, key);
    return v ? vb_put(a, to, key, (value *)v) : 0;
}

value *dialect_openinference_messages(arena *a, const value *list)
{
    value *out = vb_array(a);
    for (size_t i = 0; out && list && list->kind == V_ARRAY &&
                       i < list->u.arr.len;
         i++) {
        const value *msg = get(list->u.arr.items[i], "message");
        value *m = vb_object(a);
        if (!m || keep(a, m, msg, "role") < 0 ||
            keep(a, m, msg, "content") < 0 ||
            keep(a, m, msg, "tool_call_id") < 0)
            return NULL;
        const value *tcs = get(msg, "tool_calls");
        if (tcs && tcs->kind == V_ARRAY) {
            value *calls = vb_array(a);
            for (size_t k = 0; calls && k < tcs->u.arr.len; k++) {
                const value *tc = get(tcs->u.arr.items[k], "tool_call");
                const value *fn = get(tc, "function");
                value *c = vb_object(a);
                if (!c || keep(a, c, tc, "id") < 0 ||
                    keep(a, c, fn, "name") < 0 ||
                    keep(a, c, fn, "arguments") < 0 ||
                    vb_push(a, calls, c) < 0)
                    return NULL;
            }
            if (vb_put(a, m, "tool_calls", calls) < 0)
                return NULL;
        }
        if (vb_push(a, out, m) < 0)
            return NULL;
    }
    return out;
}

/* JSON text as the value it reads as; another value as it is; NULL for
 * text that is no JSON. */
static const value *parsed(arena *a, const value *v)
{
    if (!v || v->kind != V_STRING)
        return v;
    value *out = NULL;
    err e;
    return json_load(&out, a, v->u.str.ptr, v->u.str.len, &e) == 0 ? out
                                                                    : NULL;
}

/* {"name", "description", "parameters"} of a tool whose parameters are
 * params (NULL: none). */
static value *tool(arena *a, const value *from, const value *params)
{
    value *t = vb_object(a);
    if (!t || keep(a, t, from, "name") < 0 ||
        keep(a, t, from, "description") < 0 ||
        (params && vb_put(a, t, "parameters", (value *)params) < 0))
        return NULL;
    return t;
}

value *dialect_functions(arena *a, const value *list)
{
    value *out = vb_array(a);
    for (size_t i = 0; out && list && list->kind == V_ARRAY &&
                       i < list->u.arr.len;
         i++) {
        const value *f = list->u.arr.items[i];
        if (!get(f, "name"))
            continue;
        value *t = tool(a, f, parsed(a, get(f, "parameters")));
        if (!t || vb_push(a, out, t) < 0)
            return NULL;
    }
    return out;
}

value *dialect_openinference_tools(arena *a, const value *list)
{
    value *out = vb_array(a);
    for (size_t i = 0; out && list && list->kind == V_ARRAY &&
                       i < list->u.arr.len;
         i++) {
        /* {"type": "function", "function": {...}}, or the function */
        const value *s = parsed(a, get(get(list->u.arr.items[i], "tool"),
                                       "json_schema"));
        const value *f = get(s, "function") ? get(s, "function") : s;
        if (!get(f, "name"))
            continue;
        value *t = tool(a, f, get(f, "parameters"));
        if (!t || vb_push(a, out, t) < 0)
            return NULL;
    }
    return out;
}

/* Google's schema as JSON Schema: its types in small letters ("OBJECT"
 * is "object"), its snake-case keys in camel case (any_of, min_items,
 * max_length...), property_ordering left out; the rest as it is. */
static value *json_schema(arena *a, const value *v, int depth)
{
    static const char *const keys[][2] = {
        {"any_of", "anyOf"},           {"min_items", "minItems"},
        {"max_items", "maxItems"},     {"min_length", "minLength"},
        {"max_length", "maxLength"},   {"min_properties", "minProperties"},
        {"max_properties", "maxProperties"}};
    if (!v || depth > 64)
        return v ? value_new(a, V_NULL, 0, 0) : NULL;
    if (v->kind == V_ARRAY) {
        value *out = vb_array(a);
        for (size_t i = 0; out && i < v->u.arr.len; i++)
            if (vb_push(a, out, json_schema(a, v->u.arr.items[i],
                                            depth + 1)) < 0)
                return NULL;
        return out;
    }
    if (v->kind != V_OBJECT)
        return (value *)v;
    value *out = vb_object(a);
    for (size_t i = 0; out && i < v->u.obj.len; i++) {
        const value *k = v->u.obj.items[i].key;
        const value *val = v->u.obj.items[i].val;
        const char *name = k->u.str.ptr;
        if (k->kind != V_STRING || strcmp(name, "property_ordering") == 0)
            continue;
        for (size_t j = 0; j < sizeof keys / sizeof *keys; j++)
            if (strcmp(name, keys[j][0]) == 0)
                name = keys[j][1];
        value *nv;
        if (strcmp(name, "type") == 0 && val->kind == V_STRING) {
            char low[16];
            size_t n = val->u.str.len < sizeof low ? val->u.str.len : 0;
            for (size_t j = 0; j < n; j++)
                low[j] = (char)tolower((unsigned char)val->u.str.ptr[j]);
            nv = n ? vb_strn(a, low, n) : (value *)val;
        } else if (strcmp(name, "properties") == 0 && val->kind == V_OBJECT) {
            nv = vb_object(a); /* names are not keywords: each a schema */
            for (size_t j = 0; nv && j < val->u.obj.len; j++)
                if (vb_putv(a, nv, (value *)val->u.obj.items[j].key,
                            json_schema(a, val->u.obj.items[j].val,
                                        depth + 1)) < 0)
                    return NULL;
        } else {
            nv = json_schema(a, val, depth + 1);
        }
        if (vb_put(a, out, name, nv) < 0)
            return NULL;
    }
    return out;
}

value *dialect_adk_tools(arena *a, const value *request)
{
    const value *tools = get(get(parsed(a, request), "config"), "tools");
    value *out = vb_array(a);
    for (size_t i = 0; out && tools && tools->kind == V_ARRAY &&
                       i < tools->u.arr.len;
         i++) {
        const value *decls = get(tools->u.arr.items[i],
                                 "function_declarations");
        for (size_t k = 0; decls && decls->kind == V_ARRAY &&
                           k < decls->u.arr.len;
             k++) {
            const value *d = decls->u.arr.items[k];
            if (!get(d, "name"))
                continue;
            /* a schema given as JSON Schema already is taken as it is */
            const value *p = get(d, "parameters_json_schema");
            value *t = tool(a, d, p ? p : json_schema(a, get(d, "parameters"),
                                                      0));
            if (!t || vb_push(a, out, t) < 0)
                return NULL;
        }
    }
    return out;
}
