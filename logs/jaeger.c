/* jaeger: see jaeger.h. */
#include "jaeger.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logvalue.h"
#include "vbuild.h"

int jaeger_is_trace(const value *v)
{
    return v && v->kind == V_OBJECT && value_getz(v, "spans") &&
           (value_getz(v, "processes") || value_getz(v, "traceID"));
}

/* A hex id left-padded with zeros to n digits; as it is when it is not
 * hex of at most n digits (the otlp reader refuses it, and says so). */
static value *padded(arena *a, const value *id, size_t n)
{
    if (!id || id->kind != V_STRING || id->u.str.len > n ||
        id->u.str.len == 0 ||
        strspn(id->u.str.ptr, "0123456789abcdefABCDEF") != id->u.str.len)
        return id ? vb_clone(a, id) : vb_str(a, "");
    char text[33];
    size_t pad = n - id->u.str.len;
    memset(text, '0', pad);
    memcpy(text + pad, id->u.str.ptr, id->u.str.len);
    text[n] = '\0';
    return vb_str(a, text);
}

/* A count of microseconds (a number, or its digits as text) plus more, in
 * nanoseconds, as OTLP's text; the value as it was when it is no count. */
static value *nanos(arena *a, const value *us, const value *more)
{
    if (!us || (us->kind != V_INT && us->kind != V_STRING))
        return us ? vb_clone(a, us) : vb_str(a, "0");
    const char *p = us->u.str.ptr;
    if (!*p || strspn(p, "0123456789") != us->u.str.len ||
        us->u.str.len > 18)
        return vb_clone(a, us);
    uint64_t t = strtoull(p, NULL, 10), d = 0;
    if (more && more->kind == V_INT && more->u.str.len < 19 &&
        more->u.str.ptr[0] != '-')
        d = strtoull(more->u.str.ptr, NULL, 10);
    char text[32];
    if (t + d > UINT64_MAX / 1000) /* past OTLP's range: refused there */
        snprintf(text, sizeof text, "%llu%03u", (unsigned long long)(t + d),
                 0u);
    else
        snprintf(text, sizeof text, "%llu",
                 (unsigned long long)((t + d) * 1000));
    return vb_str(a, text);
}

/* A tag's value as OTLP's AnyValue, by its type. */
static value *any_of(arena *a, const value *kv)
{
    const value *type = value_getz(kv, "type");
    const value *v = value_getz(kv, "value");
    const char *t = type && type->kind == V_STRING ? type->u.str.ptr : "";
    const char *as = "stringValue";
    if (strcmp(t, "bool") == 0)
        as = "boolValue";
    else if (strcmp(t, "int64") == 0)
        as = "intValue";
    else if (strcmp(t, "float64") == 0)
        as = "doubleValue";
    else if (strcmp(t, "binary") == 0)
        as = "bytesValue";
    value *any = vb_object(a);
    if (!v || !any)
        return any;
    value *val = vb_clone(a, v);
    if (strcmp(as, "boolValue") == 0 && v->kind == V_STRING)
        val = vb_bool(a, strcmp(v->u.str.ptr, "true") == 0);
    if (!val || vb_put(a, any, as, val) < 0)
        return NULL;
    return any;
}

/* Tags (or a log's fields) as OTLP's attributes, but skip (NULL: none). */
static value *attributes(arena *a, const value *tags, const char *skip)
{
    value *out = vb_array(a);
    for (size_t i = 0; out && tags && tags->kind == V_ARRAY &&
                       i < tags->u.arr.len;
         i++) {
        const value *kv = tags->u.arr.items[i];
        const value *key = value_getz(kv, "key");
        if (!key || key->kind != V_STRING ||
            (skip && strcmp(key->u.str.ptr, skip) == 0))
            continue;
        value *attr = vb_object(a);
        if (!attr || vb_put(a, attr, "key", vb_clone(a, key)) < 0 ||
            vb_put(a, attr, "value", any_of(a, kv)) < 0 ||
            vb_push(a, out, attr) < 0)
            return NULL;
    }
    return out;
}

static value *span_of(arena *a, const value *js)
{
    value *s = vb_object(a);
    const value *refs = value_getz(js, "references");
    const value *parent = NULL;
    for (size_t i = 0; refs && refs->kind == V_ARRAY && i < refs->u.arr.len;
         i++) {
        const value *type = value_getz(refs->u.arr.items[i], "refType");
        if (!parent || (type && type->kind == V_STRING &&
                        strcmp(type->u.str.ptr, "CHILD_OF") == 0))
            parent = value_getz(refs->u.arr.items[i], "spanID");
    }
    if (!parent) /* the form Jaeger keeps in its storage */
        parent = value_getz(js, "parentSpanID");
    const value *name = value_getz(js, "operationName");
    const value *start = value_getz(js, "startTime");
    const value *tags = value_getz(js, "tags");
    int rc = vb_put(a, s, "traceId", padded(a, value_getz(js, "traceID"), 32));
    rc |= vb_put(a, s, "spanId", padded(a, value_getz(js, "spanID"), 16));
    if (parent)
        rc |= vb_put(a, s, "parentSpanId", padded(a, parent, 16));
    if (name)
        rc |= vb_put(a, s, "name", vb_clone(a, name));
    rc |= vb_put(a, s, "startTimeUnixNano", nanos(a, start, NULL));
    rc |= vb_put(a, s, "endTimeUnixNano",
                 nanos(a, start, value_getz(js, "duration")));
    rc |= vb_put(a, s, "attributes", attributes(a, tags, NULL));
    const value *code = lr_keyed(tags, "otel.status_code");
    const value *error = lr_keyed(tags, "error");
    if ((code && code->kind == V_STRING &&
         strcmp(code->u.str.ptr, "ERROR") == 0) ||
        (error && ((error->kind == V_BOOL && error->u.b) ||
                   (error->kind == V_STRING &&
                    strcmp(error->u.str.ptr, "true") == 0)))) {
        value *status = vb_object(a);
        const value *why = lr_keyed(tags, "otel.status_description");
        rc |= vb_put(a, status, "code", vb_int(a, 2));
        if (why && why->kind == V_STRING)
            rc |= vb_put(a, status, "message", vb_clone(a, why));
        rc |= vb_put(a, s, "status", status);
    }
    const value *logs = value_getz(js, "logs");
    value *events = vb_array(a);
    for (size_t i = 0; logs && logs->kind == V_ARRAY && i < logs->u.arr.len;
         i++) {
        const value *fields = value_getz(logs->u.arr.items[i], "fields");
        const value *ev = lr_keyed(fields, "event");
        value *e = vb_object(a);
        rc |= vb_put(a, e, "name", ev && ev->kind == V_STRING
                                       ? vb_clone(a, ev)
                                       : vb_str(a, "log"));
        rc |= vb_put(a, e, "timeUnixNano",
                     nanos(a, value_getz(logs->u.arr.items[i], "timestamp"),
                           NULL));
        rc |= vb_put(a, e, "attributes", attributes(a, fields, "event"));
        rc |= vb_push(a, events, e);
    }
    rc |= vb_put(a, s, "events", events);
    return rc ? NULL : s;
}

int jaeger_each(arena *a, const value *trace,
                int (*fn)(void *ctx, const value *rs, size_t k), void *ctx)
{
    const value *spans = value_getz(trace, "spans");
    const value *processes = value_getz(trace, "processes");
    for (size_t i = 0; spans && spans->kind == V_ARRAY && i < spans->u.arr.len;
         i++) {
        arena_reset(a); /* one span's ResourceSpans at a time */
        const value *js = spans->u.arr.items[i];
        const value *pid = value_getz(js, "processID");
        const value *proc = value_getz(js, "process"); /* storage's form */
        if (pid && pid->kind == V_STRING && processes &&
            processes->kind == V_OBJECT)
            proc = value_get(processes, pid->u.str.ptr, pid->u.str.len);
        const value *service = value_getz(proc, "serviceName");
        value *attrs = attributes(a, value_getz(proc, "tags"), NULL);
        value *rs = vb_object(a), *res = vb_object(a), *scope = vb_object(a),
              *scopes = vb_array(a), *list = vb_array(a);
        if (!attrs || !rs || !res || !scope || !scopes || !list)
            return JAEGER_NOMEM;
        if (service && service->kind == V_STRING &&
            vb_push(a, attrs, lr_string_attr(a, "service.name", service)) < 0)
            return JAEGER_NOMEM;
        value *span = span_of(a, js);
        if (!span || vb_push(a, list, span) < 0 ||
            vb_put(a, scope, "spans", list) < 0 ||
            vb_push(a, scopes, scope) < 0 ||
            vb_put(a, res, "attributes", attrs) < 0 ||
            vb_put(a, rs, "resource", res) < 0 ||
            vb_put(a, rs, "scopeSpans", scopes) < 0)
            return JAEGER_NOMEM;
        int rc = fn(ctx, rs, i);
        if (rc)
            return rc;
    }
    return 0;
}
