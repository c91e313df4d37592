/* otlplogs: see otlplogs.h. */
#include "otlplogs.h"

#include <string.h>

#include "buf.h"
#include "json_load.h"
#include "logvalue.h"
#include "sha256.h"
#include "vbuild.h"

#define DETAILS "gen_ai.client.inference.operation.details"

/* The string an AnyValue holds ({"stringValue": ...}), decoded; NULL for
 * another kind. */
static const value *any_string(arena *a, const value *any)
{
    const value *s = value_getz(any, "stringValue");
    return s && s->kind == V_STRING ? json_unescaped(a, s) : NULL;
}

/* The record's event name, decoded, when it is a GenAI event's. */
static const value *event_name(arena *a, const value *rec,
                               const value *attrs)
{
    const value *name = value_getz(rec, "eventName");
    if (name && name->kind == V_STRING && name->u.str.len)
        name = json_unescaped(a, name);
    else
        name = any_string(a, lr_keyed(attrs, "event.name"));
    if (!name || name->kind != V_STRING ||
        strncmp(name->u.str.ptr, "gen_ai.", 7) != 0)
        return NULL;
    return name;
}

/* A string member's text for the span's id ("" for any other value). */
static void put_text(buf *b, const value *v)
{
    if (v && v->kind == V_STRING)
        buf_append(b, v->u.str.ptr, v->u.str.len);
    buf_append(b, "\x1f", 1);
}

/* The items of attrs (a list) pushed onto list; 0, -1 out of memory. */
static int push_all(arena *a, value *list, const value *attrs)
{
    for (size_t i = 0; attrs && attrs->kind == V_ARRAY && i < attrs->u.arr.len;
         i++)
        if (vb_push(a, list, (value *)attrs->u.arr.items[i]) < 0)
            return -1;
    return 0;
}

/* The span of record rec, k-th of its scope, whose event is named name;
 * NULL out of memory. */
static value *event_span(arena *a, const value *rec, const value *attrs,
                         const value *name, size_t k)
{
    const value *trace = value_getz(rec, "traceId");
    const value *span = value_getz(rec, "spanId");
    const value *time = value_getz(rec, "timeUnixNano");
    const value *seen = value_getz(rec, "observedTimeUnixNano");
    if (!time || ((time->kind == V_STRING || time->kind == V_INT) &&
                  strcmp(time->u.str.ptr, "0") == 0))
        time = seen; /* 0: not set */
    /* its own id: the record's span, times, name and place, hashed */
    buf key = BUF_INIT;
    put_text(&key, span);
    put_text(&key, time);
    put_text(&key, seen);
    put_text(&key, name);
    buf_put_uint(&key, k);
    char hex[SHA256_HEX_LEN + 1];
    int bad = key.failed || sha256_hex(hex, key.data, key.len) < 0;
    buf_free(&key);
    if (bad)
        return NULL;
    hex[16] = '\0';
    value *sp = vb_object(a), *sattrs = vb_array(a);
    if (!sp || !sattrs)
        return NULL;
    int details = strcmp(name->u.str.ptr, DETAILS) == 0;
    if (!details || !lr_keyed(attrs, "gen_ai.operation.name")) {
        value *op = lr_string_attr(a, "gen_ai.operation.name",
                                   vb_str(a, "chat"));
        if (!op || vb_push(a, sattrs, op) < 0)
            return NULL;
    }
    if (details && push_all(a, sattrs, attrs) < 0)
        return NULL;
    value *zero = vb_str(a, "0");
    if (!zero ||
        vb_put(a, sp, "traceId", trace ? (value *)trace : vb_str(a, "")) < 0 ||
        vb_put(a, sp, "spanId", vb_str(a, hex)) < 0 ||
        vb_put(a, sp, "parentSpanId", span ? (value *)span : vb_str(a, "")) <
            0 ||
        vb_put(a, sp, "name", (value *)name) < 0 ||
        vb_put(a, sp, "startTimeUnixNano", time ? (value *)time : zero) < 0 ||
        vb_put(a, sp, "endTimeUnixNano", time ? (value *)time : zero) < 0 ||
        vb_put(a, sp, "attributes", sattrs) < 0)
        return NULL;
    if (details)
        return sp;
    /* the record as the span's one event: its attributes, and its body */
    value *ev = vb_object(a), *eattrs = vb_array(a), *events = vb_array(a);
    const value *body = value_getz(rec, "body");
    value *bkv = vb_object(a);
    if (!ev || !eattrs || !events || !bkv || push_all(a, eattrs, attrs) < 0)
        return NULL;
    if (body && (vb_put(a, bkv, "key", vb_str(a, "body")) < 0 ||
                 vb_put(a, bkv, "value", (value *)body) < 0 ||
                 vb_push(a, eattrs, bkv) < 0))
        return NULL;
    if (vb_put(a, ev, "name", (value *)name) < 0 ||
        vb_put(a, ev, "timeUnixNano", time ? (value *)time : zero) < 0 ||
        vb_put(a, ev, "attributes", eattrs) < 0 ||
        vb_push(a, events, ev) < 0 ||
        vb_put(a, sp, "events", events) < 0)
        return NULL;
    return sp;
}

int otlplogs_each(arena *a, const value *export,
                  int (*fn)(void *ctx, const value *rs, const otlplogs_at *at),
                  void *ctx)
{
    const value *rls = value_getz(export, "resourceLogs");
    for (size_t r = 0; rls && rls->kind == V_ARRAY && r < rls->u.arr.len;
         r++) {
        const value *rl = rls->u.arr.items[r];
        const value *scopes = value_getz(rl, "scopeLogs");
        for (size_t s = 0; scopes && scopes->kind == V_ARRAY &&
                           s < scopes->u.arr.len;
             s++) {
            const value *scope = scopes->u.arr.items[s];
            const value *recs = value_getz(scope, "logRecords");
            for (size_t k = 0; recs && recs->kind == V_ARRAY &&
                               k < recs->u.arr.len;
                 k++) {
                const value *rec = recs->u.arr.items[k];
                const value *attrs = value_getz(rec, "attributes");
                arena_reset(a); /* one record's span at a time */
                const value *name = event_name(a, rec, attrs);
                if (!name)
                    continue;
                value *sp = event_span(a, rec, attrs, name, k);
                value *spans = vb_array(a), *ss = vb_object(a),
                      *sslist = vb_array(a), *rs = vb_object(a);
                const value *res = value_getz(rl, "resource");
                const value *sc = value_getz(scope, "scope");
                if (!sp || !spans || !ss || !sslist || !rs ||
                    vb_push(a, spans, sp) < 0 ||
                    (sc && vb_put(a, ss, "scope", (value *)sc) < 0) ||
                    vb_put(a, ss, "spans", spans) < 0 ||
                    vb_push(a, sslist, ss) < 0 ||
                    (res && vb_put(a, rs, "resource", (value *)res) < 0) ||
                    vb_put(a, rs, "scopeSpans", sslist) < 0)
                    return OTLPLOGS_NOMEM;
                otlplogs_at at = {r, s, k};
                int rc = fn(ctx, rs, &at);
                if (rc)
                    return rc;
            }
        }
    }
    return 0;
}
