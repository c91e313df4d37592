/* otlp: see otlp.h. */
#include "otlp.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "canon.h"
#include "dialects.h"
#include "jaeger.h"
#include "json_load.h"
#include "keymap.h"
#include "otlplogs.h"
#include "pynum.h"
#include "utf8.h"
#include "vbuild.h"

/* A trace kept open: its spans' records, packed (below), one after the
 * other. */
struct trace {
    char id[33];
    size_t file;    /* the file its last span was read from (lr_file_no) */
    buf spans;
    unsigned long nspans;
    size_t counted; /* what its records count against OTLP_KEPT_MAX */
    int rooted;     /* a span of it without a parent is read: exported once
                       it ended, after the spans under it, as a rule */
};

/* The history of a chat span (gen_ai.input.messages: the conversation
 * sent to the model) is, as a rule, the previous chat span's and the
 * messages since.  The last one read of a few traces is kept, with the
 * span whose record holds its tool calls and answers (the first ones of
 * its lists), so that the next one of that trace is read from where it
 * ends: only the new messages are parsed, and its record holds their
 * calls and answers and refers to that span's for the rest ("h": its
 * seq, and how many calls and answers are the history's), which a trace
 * being written puts back in front (write_trace).  What that gives is
 * what reading the whole text gives (the same calls, answers and
 * places), by construction: a text that does not start with the kept
 * one, with a comma after it, is read whole; and a history is kept only
 * once its span is in its trace. */
struct history {
    char trace[33];     /* "" while unused */
    buf text;           /* the history: a list of messages */
    int written;        /* text is as JSON wrote it, escapes and all */
    unsigned long seq;  /* the span whose record holds its calls ... */
    size_t calls, answers; /* ... first in its lists, so many */
    size_t ix;          /* the calls counted in it (call_record's x) */
    unsigned long used; /* when it was last read */
};

/* What reading a JSON text whole takes of an arena, at most, a byte of
 * it: a node of 48 bytes for "0," and the pointer to it, its calls and
 * answers copied once more, and room to spare (read_span). */
#define HISTORY_GROWTH 128u

/* The attribute keys a span record reads (span_attr_keys, below) by
 * their length: those of length n are order[from[n]..from[n + 1]). */
#define SA_KEY_MAX 40
#define SA_KEYS_ROOM 64
struct attr_index {
    unsigned char from[SA_KEY_MAX + 2];
    unsigned char order[SA_KEYS_ROOM];
};

struct oread {
    logr *r;
    struct attr_index keys;
    log_counts *c;
    arena *a;            /* scratch: one span's record */
    keymap ids;          /* trace id -> index in open[] */
    struct trace **open; /* first seen first; NULL once written */
    size_t head, n, cap; /* none open before head; n slots used */
    size_t live;         /* traces open (slots not NULL) */
    size_t kept;         /* bytes of records kept, as counted */
    size_t rooted;       /* open traces whose root span is read ... */
    size_t rooted_from;  /* ... none of them in a slot before this */
    unsigned long seq;   /* spans seen, in order */
    lr_calls calls;
    const char *place;   /* of the record being read */
    const struct span *spans; /* of the trace being written */
    arena *wa;           /* a trace's records, read back to be written */
    const char *key;     /* the attribute whose value is being read */
    buf pk;              /* the span being read, packed */
    const char *list_key; /* where a document keeps its ResourceSpans:
                             "resourceSpans", or Tempo's "batches" */
    const otlplogs_at *event; /* the log record being read as a span
                                 (otlplogs.h), or NULL */
    const char *jaeger;  /* the path of the Jaeger trace being read, or
                            NULL */
    arena *ja;           /* a Jaeger trace made OTLP's (jaeger.h) */
    char bad[320];       /* the first value of a wrong shape in the span
                            being read ("" when none): it refuses the
                            span */
    struct span *sp;     /* its spans */
    size_t spcap;
    const char *tid;     /* the trace of the span being read */
    struct history hist[OTLP_HISTORIES]; /* the last chat histories read */
    unsigned long hist_clock;
    struct history hist_read; /* the span's history, kept once the span
                                 is in its trace (trace "": none) */
    buf hist_tail;       /* a history's new messages, as a list */
    int hist_off;        /* read each history whole (a record near its
                            limit is read again so) */
    size_t hist_hit;     /* the length of the history of the span being
                            read, when one of its trace was kept (0:
                            none) */
};

static int nomem(err *e)
{
    return err_set(e, ERR_NOMEM, "out of memory");
}

/* ------------------------------------------------------ OTLP values */

/* Whether the n bytes at p are an integer as proto3's JSON writes one
 * (digits, no leading zero, "-" before a negative one) within
 * [-(2^(bits-1)), 2^(bits-1) - 1], or [0, 2^64 - 1] for bits 0 (an
 * unsigned 64-bit count, such as nanoseconds). */
static int int_text(const char *p, size_t n, int bits)
{
    int neg = n && p[0] == '-';
    if (neg && bits == 0)
        return 0;
    p += neg;
    n -= (size_t)neg;
    if (n == 0 || n > 20 || strspn(p, "0123456789") < n ||
        (n > 1 && p[0] == '0'))
        return 0;
    const char *max = bits == 0 ? "18446744073709551615"
                      : neg     ? "9223372036854775808"
                                : "9223372036854775807";
    size_t mn = strlen(max);
    return n < mn || (n == mn && memcmp(p, max, n) <= 0);
}

/* Notes the first value of a wrong shape in the span being read: its
 * attribute (m->key, when one is read), its field, its text (an integer
 * or a string: the first 40 bytes) and what it should be. */
static void bad_value(struct oread *m, const char *field, const value *v,
                      const char *what)
{
    if (m->bad[0])
        return;
    int len = (int)(v->u.str.len < 40 ? v->u.str.len : 40);
    snprintf(m->bad, sizeof m->bad, "%s%s%s%s \"%.*s%s\" is not %s",
             m->key ? "attribute \"" : "", m->key ? m->key : "",
             m->key ? "\": " : "", field, len, v->u.str.ptr,
             v->u.str.len > 40 ? "..." : "", what);
}

/* Whether t is a double as text in proto3's JSON mapping: a JSON number,
 * or NaN, Infinity, -Infinity; *x its value. */
static int double_text(const char *t, double *x)
{
    if (strcmp(t, "NaN") == 0 || strcmp(t, "Infinity") == 0 ||
        strcmp(t, "-Infinity") == 0) {
        *x = t[0] == 'N' ? NAN : t[0] == '-' ? -INFINITY : INFINITY;
        return 1;
    }
    const char *p = t + (*t == '-');
    if (*p < '0' || *p > '9' || (*p == '0' && p[1] >= '0' && p[1] <= '9'))
        return 0;
    while (*p >= '0' && *p <= '9')
        p++;
    if (*p == '.') {
        if (p[1] < '0' || p[1] > '9')
            return 0;
        for (p++; *p >= '0' && *p <= '9'; p++)
            ;
    }
    if (*p == 'e' || *p == 'E') {
        p += 1 + (p[1] == '+' || p[1] == '-');
        if (*p < '0' || *p > '9')
            return 0;
        while (*p >= '0' && *p <= '9')
            p++;
    }
    if (*p)
        return 0;
    *x = strtod(t, NULL);
    return 1;
}

/* An AnyValue as a value tree (NULL out of memory; an unknown or empty
 * AnyValue is null).  A scalar is the log's own node (nothing changes
 * it, and the record it goes into is packed before the log's line is
 * let go); anything else is made, or copied, in m->a.  An intValue that
 * is no int64 (leading zeros, a sign alone, out of range) is noted
 * (bad_value) and read as null. */
static value *any_value(struct oread *m, const value *av, int depth)
{
    arena *a = m->a;
    if (!av || av->kind != V_OBJECT || depth > 64)
        return value_new(a, V_NULL, 0, 0);
    const value *v;
    if ((v = value_getz(av, "stringValue")) && v->kind == V_STRING)
        return json_unescaped(a, v); /* read as written (otlp_read) */
    if ((v = value_getz(av, "boolValue")) && v->kind == V_BOOL)
        return (value *)v;
    if ((v = value_getz(av, "intValue"))) {
        /* int64 is text in OTLP JSON (proto3's mapping), a number from
         * some writers */
        if ((v->kind == V_INT || v->kind == V_STRING) &&
            int_text(v->u.str.ptr, v->u.str.len, 64)) {
            if (v->kind == V_INT)
                return (value *)v;
            return value_new_text(a, V_INT, v->u.str.ptr, v->u.str.len, 0,
                                  0);
        }
        if (v->kind == V_INT || v->kind == V_STRING) {
            bad_value(m, "intValue", v,
                      "an int64 as OTLP writes one (no leading zero, no "
                      "sign alone, from -2^63 to 2^63-1)");
            return value_new(a, V_NULL, 0, 0);
        }
        return vb_clone(a, v);
    }
    if ((v = value_getz(av, "doubleValue"))) {
        /* a number, or (proto3's JSON mapping allows it) text: a number's,
         * or NaN, Infinity, -Infinity */
        double x = 0;
        if (v->kind == V_INT ||
            (v->kind == V_STRING && double_text(v->u.str.ptr, &x))) {
            value *d = value_new(a, V_FLOAT, 0, 0);
            if (d)
                d->u.d = v->kind == V_INT ? strtod(v->u.str.ptr, NULL) : x;
            return d;
        }
        if (v->kind == V_STRING) {
            bad_value(m, "doubleValue", v,
                      "a double as OTLP writes one (a number, or text of "
                      "one, or NaN, Infinity, -Infinity)");
            return value_new(a, V_NULL, 0, 0);
        }
        return v->kind == V_FLOAT ? (value *)v : vb_clone(a, v);
    }
    if ((v = value_getz(av, "bytesValue")) && v->kind == V_STRING)
        return (value *)v;
    if ((v = value_getz(av, "arrayValue"))) {
        const value *items = value_getz(v, "values");
        value *out = vb_array(a);
        for (size_t i = 0; out && items && items->kind == V_ARRAY &&
                           i < items->u.arr.len;
             i++)
            if (vb_push(a, out, any_value(m, items->u.arr.items[i],
                                          depth + 1)) < 0)
                return NULL;
        return out;
    }
    if ((v = value_getz(av, "kvlistValue"))) {
        const value *items = value_getz(v, "values");
        value *out = vb_object(a);
        for (size_t i = 0; out && items && items->kind == V_ARRAY &&
                           i < items->u.arr.len;
             i++) {
            const value *kv = items->u.arr.items[i];
            const value *k = value_getz(kv, "key");
            if (!k || k->kind != V_STRING)
                continue;
            if (vb_put(a, out, k->u.str.ptr,
                       any_value(m, value_getz(kv, "value"), depth + 1)) < 0)
                return NULL;
        }
        return out;
    }
    return value_new(a, V_NULL, 0, 0);
}

/* The AnyValue of attribute key in a list of KeyValues, or NULL. */
static const value *attr(const value *attrs, const char *key)
{
    size_t len = strlen(key);
    for (size_t i = 0; attrs && attrs->kind == V_ARRAY &&
                       i < attrs->u.arr.len;
         i++) {
        const value *k = value_getz(attrs->u.arr.items[i], "key");
        if (k && k->kind == V_STRING && k->u.str.len == len &&
            memcmp(k->u.str.ptr, key, len) == 0)
            return value_getz(attrs->u.arr.items[i], "value");
    }
    return NULL;
}

/* The attribute's value as a tree, or NULL when absent (or no memory). */
static value *attr_value(struct oread *m, const value *attrs,
                         const char *key)
{
    const value *av = attr(attrs, key);
    m->key = key;
    return av ? any_value(m, av, 0) : NULL;
}

/* The n/2 bytes base64 text (n/2 of 8 or 16 bytes: 12 or 24 characters
 * with their padding) stands for, as n hex digits into out: 0, or -1 when
 * it is no such text.  Tempo's API writes ids so (protobuf's JSON). */
static int base64_id(const char *p, size_t len, size_t n, char *out)
{
    static const char set[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t bytes = n / 2, want = (bytes + 2) / 3 * 4;
    if (len != want)
        return -1;
    unsigned char raw[24];
    size_t got = 0;
    unsigned acc = 0;
    int bits = 0;
    for (size_t i = 0; i < len; i++) {
        if (p[i] == '=') {
            if (strspn(p + i, "=") != len - i)
                return -1;
            break;
        }
        const char *at = memchr(set, p[i], 64);
        if (!at || p[i] == '\0')
            return -1;
        acc = (acc << 6) | (unsigned)(at - set);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            if (got == sizeof raw)
                return -1;
            raw[got++] = (unsigned char)(acc >> bits);
        }
    }
    if (got != bytes)
        return -1;
    for (size_t i = 0; i < bytes; i++)
        snprintf(out + 2 * i, 3, "%02x", raw[i]);
    return 0;
}

/* A hex id of n digits (or its bytes in base64), lower-cased into out; 0,
 * or -1 when it is not one (empty: *empty set). */
static int hex_id(const value *v, size_t n, char *out, int *empty)
{
    *empty = !v || (v->kind == V_STRING && v->u.str.len == 0);
    if (*empty)
        return -1;
    if (v->kind == V_STRING && v->u.str.len != n)
        return base64_id(v->u.str.ptr, v->u.str.len, n, out);
    if (v->kind != V_STRING || v->u.str.len != n)
        return -1;
    for (size_t i = 0; i < n; i++) {
        char c = v->u.str.ptr[i];
        if (c >= 'A' && c <= 'F')
            c = (char)(c - 'A' + 'a');
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
            return -1;
        out[i] = c;
    }
    out[n] = '\0';
    return 0;
}

/* A time in nanoseconds (field: its member's name): text or a number;
 * 0 when the span has none.  One that is no fixed64 as OTLP's JSON
 * writes it is noted (bad_value). */
static value *nanos(struct oread *m, const value *v, const char *field)
{
    if (v && (v->kind == V_INT || v->kind == V_STRING) &&
        int_text(v->u.str.ptr, v->u.str.len, 0))
        return value_new_text(m->a, V_INT, v->u.str.ptr, v->u.str.len, 0, 0);
    if (v && (v->kind == V_INT || v->kind == V_STRING)) {
        const char *key = m->key;
        m->key = NULL;
        bad_value(m, field, v,
                  "a time in nanoseconds as OTLP writes one (digits, no "
                  "leading zero, at most 2^64-1)");
        m->key = key;
    } else if (v && v->kind != V_NULL && !m->bad[0]) {
        snprintf(m->bad, sizeof m->bad,
                 "%s is not a time in nanoseconds (digits, as text or a "
                 "number)", field);
    }
    return vb_int(m->a, 0);
}

/* A JSON value held as text (the conventions allow both), parsed; the
 * value itself when it is no string. */
static const value *maybe_json(arena *a, const value *v)
{
    if (!v || v->kind != V_STRING)
        return v;
    value *out = NULL;
    err e;
    if (json_load(&out, a, v->u.str.ptr, v->u.str.len, &e) == 0)
        return out;
    return NULL;
}

/* ------------------------------------------ what a span record keeps */

/* A copy of v, or null when there is no v. */
static value *copy_or_null(arena *a, const value *v)
{
    return v ? vb_clone(a, v) : value_new(a, V_NULL, 0, 0);
}

/* A tool call of a chat span's messages, as a record keeps it: id,
 * name and arguments as the log gives them, "w" when the log withheld
 * its arguments (an OpenAI function call, which always has them, written
 * without: an instrumentation that records content only when told), its
 * place in the conversation ("x": the conversation's tool calls counted
 * from its start, the same in every chat span that repeats it), and "h"
 * when it was read from the history (the messages sent to the model: a
 * call made before this span). */
static value *call_record(arena *a, const value *id, const value *name,
                          const value *args, int withheld, size_t *ix,
                          int history)
{
    value *c = vb_object(a);
    if (vb_put(a, c, "id", copy_or_null(a, id)) < 0 ||
        vb_put(a, c, "name", copy_or_null(a, name)) < 0 ||
        (args && vb_put(a, c, "arguments", vb_clone(a, args)) < 0) ||
        (withheld && vb_put(a, c, "w", vb_bool(a, 1)) < 0) ||
        vb_put(a, c, "x", vb_int(a, (long long)(*ix)++)) < 0 ||
        (history && vb_put(a, c, "h", vb_bool(a, 1)) < 0))
        return NULL;
    return c;
}

/* Adds the tool calls of a message list (the conventions' parts, or the
 * older OpenAI-like tool_calls) to calls (history: the list is messages
 * sent to the model), counted on from *ix, and the answers to answers. */
static int scan_messages(arena *a, const value *msgs, value *calls,
                         value *answers, int history, size_t *ix)
{
    if (msgs && msgs->kind == V_OBJECT)
        msgs = value_getz(msgs, "messages") ? value_getz(msgs, "messages")
                                            : msgs;
    size_t n = msgs && msgs->kind == V_ARRAY ? msgs->u.arr.len : 1;
    for (size_t i = 0; msgs && i < n; i++) {
        const value *m = msgs->kind == V_ARRAY ? msgs->u.arr.items[i] : msgs;
        const value *parts = value_getz(m, "parts");
        for (size_t k = 0; parts && parts->kind == V_ARRAY &&
                           k < parts->u.arr.len;
             k++) {
            const value *p = parts->u.arr.items[k];
            const value *t = value_getz(p, "type");
            if (!t || t->kind != V_STRING)
                continue;
            if (strcmp(t->u.str.ptr, "tool_call") == 0) {
                value *c = call_record(a, value_getz(p, "id"),
                                       value_getz(p, "name"),
                                       value_getz(p, "arguments"), 0, ix,
                                       history);
                if (!c || vb_push(a, calls, c) < 0)
                    return -1;
            } else if (strcmp(t->u.str.ptr, "tool_call_response") == 0) {
                value *c = vb_object(a);
                const value *resp = value_getz(p, "response");
                if (!resp)
                    resp = value_getz(p, "result");
                if (vb_put(a, c, "id", copy_or_null(a, value_getz(p, "id"))) < 0 ||
                    (resp && vb_put(a, c, "response", vb_clone(a, resp)) < 0) ||
                    vb_push(a, answers, c) < 0)
                    return -1;
            }
        }
        /* older form: {"tool_calls": [{"id", "function": {...}}]} and
         * {"role": "tool", "id"|"tool_call_id", "content"} */
        const value *inner = value_getz(m, "message");
        const value *tc = value_getz(inner ? inner : m, "tool_calls");
        for (size_t k = 0; tc && tc->kind == V_ARRAY && k < tc->u.arr.len;
             k++) {
            const value *x = tc->u.arr.items[k];
            const value *f = value_getz(x, "function");
            const value *name = value_getz(f ? f : x, "name");
            const value *args = value_getz(f ? f : x, "arguments");
            value *c = call_record(a, value_getz(x, "id"), name, args,
                                   f && !args, ix,
                                   history);
            if (!c || vb_push(a, calls, c) < 0)
                return -1;
        }
        const value *role = value_getz(m, "role");
        const value *id = value_getz(m, "tool_call_id");
        if (!id)
            id = value_getz(m, "id");
        if (role && role->kind == V_STRING &&
            strcmp(role->u.str.ptr, "tool") == 0 && id && !parts) {
            value *c = vb_object(a);
            const value *content = value_getz(m, "content");
            if (vb_put(a, c, "id", vb_clone(a, id)) < 0 ||
                (content &&
                 vb_put(a, c, "response", vb_clone(a, content)) < 0) ||
                vb_push(a, answers, c) < 0)
                return -1;
        }
    }
    return 0;
}

static int history_scan(struct oread *m, const value *av, value *calls,
                        value *answers, size_t *ix, value **refer);

/* An attribute's AnyValue as a tree, for dialect_indexed. */
static value *decode_attr(void *ctx, const char *key, const value *any)
{
    struct oread *m = ctx;
    m->key = key;
    return any_value(m, any, 0);
}

/* The messages sent to the model (history) or its answer, as OpenLLMetry
 * (gen_ai.prompt.N.*, gen_ai.completion.N.*) or OpenInference
 * (llm.input_messages.N.message.*, llm.output_messages...) flatten them;
 * NULL when the span has none. */
static const value *flattened(struct oread *m, const value *attrs,
                              int history)
{
    value *list = dialect_indexed(m->a, attrs,
                                  history ? "gen_ai.prompt."
                                          : "gen_ai.completion.",
                                  decode_attr, m);
    if (list)
        return list;
    list = dialect_indexed(m->a, attrs,
                           history ? "llm.input_messages."
                                   : "llm.output_messages.",
                           decode_attr, m);
    return list ? dialect_openinference_messages(m->a, list) : NULL;
}

/* The attributes a record reads, each the first of its key in a list
 * (as attr finds it): found in one pass over the list. */
enum span_attr {
    SA_OP, SA_ERROR_TYPE, SA_TOOL_NAME, SA_CALL_ID, SA_ARGUMENTS, SA_RESULT,
    SA_RESPONSE_MODEL, SA_REQUEST_MODEL, SA_DEFINITIONS, SA_OUTPUT, SA_INPUT,
    SA_SEED, SA_ARM, SA_TASK_NAME, SA_SUCCESS, SA_REWARD, SA_SERVICE,
    /* what other instrumentations write where the conventions have no
     * word (docs/logs.md): OpenInference, OpenLLMetry (Traceloop), Google
     * ADK */
    SA_OI_KIND, SA_TL_KIND, SA_OI_TOOL, SA_TL_NAME, SA_OI_CALL_ID,
    SA_ADK_ARGS, SA_OI_INPUT, SA_TL_INPUT, SA_ADK_RESULT, SA_OI_OUTPUT,
    SA_TL_OUTPUT, SA_OI_MODEL,
    /* tokens: the conventions' names, their older ones (and
     * OpenLLMetry's), OpenInference's */
    SA_USE_IN, SA_USE_OUT, SA_USE_PROMPT, SA_USE_COMPLETION, SA_OI_PROMPT,
    SA_OI_COMPLETION,
    /* OpenLLMetry's kind of a model's span; ADK's request sent */
    SA_TL_REQUEST_TYPE, SA_ADK_REQUEST,
    SA_COUNT
};

#define KEY(text) {text, sizeof text - 1}
static const struct {
    const char *text;
    size_t len;
} span_attr_keys[SA_COUNT] = {
    KEY("gen_ai.operation.name"), KEY("error.type"),
    KEY("gen_ai.tool.name"), KEY("gen_ai.tool.call.id"),
    KEY("gen_ai.tool.call.arguments"), KEY("gen_ai.tool.call.result"),
    KEY("gen_ai.response.model"), KEY("gen_ai.request.model"),
    KEY("gen_ai.tool.definitions"), KEY("gen_ai.output.messages"),
    KEY("gen_ai.input.messages"), KEY("tasks.seed"), KEY("tasks.arm"),
    KEY("tasks.task_name"), KEY("tasks.success"), KEY("tasks.reward"),
    KEY("service.name"), KEY("openinference.span.kind"),
    KEY("traceloop.span.kind"), KEY("tool.name"),
    KEY("traceloop.entity.name"), KEY("tool_call.id"),
    KEY("gcp.vertex.agent.tool_call_args"), KEY("input.value"),
    KEY("traceloop.entity.input"), KEY("gcp.vertex.agent.tool_response"),
    KEY("output.value"), KEY("traceloop.entity.output"),
    KEY("llm.model_name"), KEY("gen_ai.usage.input_tokens"),
    KEY("gen_ai.usage.output_tokens"), KEY("gen_ai.usage.prompt_tokens"),
    KEY("gen_ai.usage.completion_tokens"), KEY("llm.token_count.prompt"),
    KEY("llm.token_count.completion"), KEY("llm.request.type"),
    KEY("gcp.vertex.agent.llm_request")};
#undef KEY

_Static_assert(SA_COUNT <= SA_KEYS_ROOM, "struct attr_index holds them");

static void attr_index_make(struct attr_index *x)
{
    size_t at = 0;
    for (size_t n = 0; n <= SA_KEY_MAX; n++) {
        x->from[n] = (unsigned char)at;
        for (size_t k = 0; k < SA_COUNT; k++)
            if (span_attr_keys[k].len == n)
                x->order[at++] = (unsigned char)k;
    }
    x->from[SA_KEY_MAX + 1] = (unsigned char)at;
}

/* got[k]: the AnyValue of key k's first attribute in attrs (NULL when
 * there is none, or it has no "value"). */
static void find_attrs(const struct attr_index *x, const value *attrs,
                       const value *got[SA_COUNT])
{
    unsigned char seen[SA_COUNT] = {0};
    for (size_t k = 0; k < SA_COUNT; k++)
        got[k] = NULL;
    for (size_t i = 0; attrs && attrs->kind == V_ARRAY &&
                       i < attrs->u.arr.len;
         i++) {
        const value *key = value_getz(attrs->u.arr.items[i], "key");
        if (!key || key->kind != V_STRING || key->u.str.len > SA_KEY_MAX)
            continue;
        size_t n = key->u.str.len;
        for (size_t j = x->from[n]; j < x->from[n + 1]; j++) {
            size_t k = x->order[j];
            if (!seen[k] && memcmp(key->u.str.ptr, span_attr_keys[k].text,
                                   n) == 0) {
                seen[k] = 1;
                got[k] = value_getz(attrs->u.arr.items[i], "value");
                break;
            }
        }
    }
}

/* An attribute found (find_attrs: got[k]) as a tree, or NULL. */
static value *found_value(struct oread *m, const value *av,
                          enum span_attr k)
{
    m->key = span_attr_keys[k].text;
    return av ? any_value(m, av, 0) : NULL;
}

static const char *found_text(struct oread *m, const value *av,
                              enum span_attr k)
{
    value *v = found_value(m, av, k);
    return v && v->kind == V_STRING ? v->u.str.ptr : NULL;
}

/* The members of a record, in canon's order of their keys: the record
 * is made in that order, as it is packed. */
enum rec_member {
    R_A, R_D, R_E, R_EM, R_ERR, R_EV, R_H, R_I, R_K, R_M, R_N, R_O, R_P, R_Q,
    R_R, R_S, R_SV, R_T, R_TC, R_TR, R_U, R_COUNT
};


/* An object of the members set among n (keys[i]: vals[i], NULL: none),
 * in their order; NULL out of memory.  The keys are nodes of a table
 * that is only read (value_member's key is not const). */
static value *members(arena *a, const value *keys, value **vals, size_t n)
{
    value *o = value_new(a, V_OBJECT, 0, 0);
    value_member *m = o ? arena_alloc(a, (n + 1) * sizeof *m) : NULL;
    if (!m)
        return NULL;
    o->u.obj.items = m;
    for (size_t i = 0; i < n; i++)
        if (vals[i])
            m[o->u.obj.len++] = (value_member){(value *)&keys[i], vals[i]};
    return o;
}

#define KEY_NODE(text)                                                       \
    {.kind = V_STRING, .u.str = {text, sizeof text - 1}}

static const value rec_key_nodes[R_COUNT] = {
    KEY_NODE("a"), KEY_NODE("d"),  KEY_NODE("e"),  KEY_NODE("em"),
    KEY_NODE("err"), KEY_NODE("ev"), KEY_NODE("h"), KEY_NODE("i"),
    KEY_NODE("k"),
    KEY_NODE("m"),
    KEY_NODE("n"), KEY_NODE("o"),  KEY_NODE("p"),  KEY_NODE("q"),
    KEY_NODE("r"), KEY_NODE("s"),  KEY_NODE("sv"), KEY_NODE("t"),
    KEY_NODE("tc"), KEY_NODE("tr"), KEY_NODE("u")};

static const value usage_key_nodes[2] = {KEY_NODE("i"), KEY_NODE("o")};

static const value task_key_nodes[5] = {
    KEY_NODE("arm"), KEY_NODE("reward"), KEY_NODE("seed"),
    KEY_NODE("success"), KEY_NODE("task_name")};
#undef KEY_NODE

/* The members of a span that are read, found in one pass over it (each
 * key is there once: the loaders keep the last of a key given twice). */
struct span_members {
    const value *trace, *id, *parent, *name, *start, *end, *attrs, *status,
        *events;
};

static void span_members(const value *span, struct span_members *f)
{
    memset(f, 0, sizeof *f);
    for (size_t i = 0; span && span->kind == V_OBJECT && i < span->u.obj.len;
         i++) {
        const value *k = span->u.obj.items[i].key;
        const value *v = span->u.obj.items[i].val;
        const char *t = k->u.str.ptr;
        if (k->kind != V_STRING)
            continue;
#define IS(text)                                                             \
    (k->u.str.len == sizeof text - 1 && memcmp(t, text, sizeof text - 1) == 0)
        if (IS("traceId"))
            f->trace = v;
        else if (IS("spanId"))
            f->id = v;
        else if (IS("parentSpanId"))
            f->parent = v;
        else if (IS("name"))
            f->name = v;
        else if (IS("startTimeUnixNano"))
            f->start = v;
        else if (IS("endTimeUnixNano"))
            f->end = v;
        else if (IS("attributes"))
            f->attrs = v;
        else if (IS("status"))
            f->status = v;
        else if (IS("events"))
            f->events = v;
#undef IS
    }
}

/* The record of a span: what a trace needs of it when it is written,
 * and its members in rv.  res: the resource's attributes found
 * (find_attrs). */
static value *span_record(struct oread *m, const struct span_members *span,
                          const value *const res[SA_COUNT], const char *sid,
                          const char *pid, int *genai, value *rv[R_COUNT])
{
    arena *a = m->a;
    const value *got[SA_COUNT];
    find_attrs(&m->keys, span->attrs, got);
    for (size_t i = 0; i < R_COUNT; i++)
        rv[i] = NULL;
    int bad = 0;
    /* a member that must be there: NULL only out of memory */
#define MUST(slot, v) (bad |= !(rv[slot] = (v)))
    MUST(R_S, vb_str(a, sid));
    MUST(R_P, vb_str(a, pid));
    MUST(R_T, nanos(m, span->start, "startTimeUnixNano"));
    MUST(R_E, nanos(m, span->end, "endTimeUnixNano"));
    MUST(R_Q, vb_int(a, (long long)m->seq));
    /* a log record's event (otlplogs.h): its name, to say where it is */
    if (m->event && span->name && span->name->kind == V_STRING)
        MUST(R_EV, vb_strn(a, span->name->u.str.ptr, span->name->u.str.len));
    const char *op = found_text(m, got[SA_OP], SA_OP);
    const value *name = span->name;
    const char *nm = name && name->kind == V_STRING ? name->u.str.ptr : "";
    if (!op) {
        /* the kinds other instrumentations give a span */
        const char *oi = found_text(m, got[SA_OI_KIND], SA_OI_KIND);
        const char *tl = found_text(m, got[SA_TL_KIND], SA_TL_KIND);
        if ((oi && strcmp(oi, "TOOL") == 0) || (tl && strcmp(tl, "tool") == 0))
            op = "execute_tool";
        else if ((oi && strcmp(oi, "AGENT") == 0) ||
                 (tl && strcmp(tl, "agent") == 0))
            op = "invoke_agent";
        else if (oi && strcmp(oi, "LLM") == 0)
            op = "chat";
        else if ((tl = found_text(m, got[SA_TL_REQUEST_TYPE],
                                  SA_TL_REQUEST_TYPE)))
            /* OpenLLMetry's openai.chat, anthropic.chat...; and its
             * openai.embeddings, whose tokens are no turn's */
            op = strcmp(tl, "embedding") == 0 ? "embeddings" : "chat";
    }
    if (!op) {
        /* the conventions' span names, for writers that set no
         * operation (and ADK's call_llm, and its agent_run of old) */
        if (strncmp(nm, "execute_tool", 12) == 0)
            op = "execute_tool";
        else if (strncmp(nm, "invoke_agent", 12) == 0 ||
                 strncmp(nm, "agent_run", 9) == 0)
            op = "invoke_agent";
        else if (strncmp(nm, "chat ", 5) == 0 || strcmp(nm, "chat") == 0 ||
                 strcmp(nm, "call_llm") == 0)
            op = "chat";
    }
    *genai = op != NULL;
    const char *kind = !op                                   ? ""
                       : strcmp(op, "execute_tool") == 0     ? "tool"
                       : strcmp(op, "invoke_agent") == 0     ? "agent"
                       : strcmp(op, "create_agent") == 0     ? "other"
                       : strcmp(op, "embeddings") == 0       ? "other"
                                                             : "chat";
    /* ADK's span of parallel calls, each of which has a span of its own
     * besides: "(merged tools)" is no tool, and the span no call */
    const char *tool = found_text(m, got[SA_TOOL_NAME], SA_TOOL_NAME);
    if (strcmp(kind, "tool") == 0 && tool &&
        strcmp(tool, "(merged tools)") == 0)
        kind = "other";
    MUST(R_O, vb_str(a, kind));
    const char *service = found_text(m, res[SA_SERVICE], SA_SERVICE);
    if (service)
        MUST(R_SV, vb_str(a, service));
    /* the harness's words about the episode, on any span (else the
     * resource's), as an object of the keys in their order */
    static const enum span_attr task_attrs[] = {SA_ARM, SA_REWARD, SA_SEED,
                                                SA_SUCCESS, SA_TASK_NAME};
    value *tv[5];
    int any = 0;
    for (size_t i = 0; i < 5; i++) {
        tv[i] = found_value(m, got[task_attrs[i]], task_attrs[i]);
        if (!tv[i])
            tv[i] = found_value(m, res[task_attrs[i]], task_attrs[i]);
        any |= tv[i] != NULL;
    }
    if (any)
        MUST(R_K, members(a, task_key_nodes, tv, 5));
    const value *status = span->status;
    const value *code = value_getz(status, "code");
    /* STATUS_CODE_ERROR is 2; some writers give the enum's name */
    int error = (code && code->kind == V_INT &&
                 strcmp(code->u.str.ptr, "2") == 0) ||
                (code && code->kind == V_STRING &&
                 strcmp(code->u.str.ptr, "STATUS_CODE_ERROR") == 0);
    if (error) {
        const value *msg = value_getz(status, "message");
        const char *type = found_text(m, got[SA_ERROR_TYPE],
                                      SA_ERROR_TYPE);
        MUST(R_ERR, vb_str(a, type ? type : "error"));
        MUST(R_EM, msg && msg->kind == V_STRING ? vb_clone(a, msg)
                                                : vb_str(a, ""));
    }
    if (strcmp(kind, "tool") == 0) {
        /* the conventions' keys first, then the others' */
        static const enum span_attr names[] = {SA_TOOL_NAME, SA_OI_TOOL,
                                               SA_TL_NAME},
                                    ids[] = {SA_CALL_ID, SA_OI_CALL_ID},
                                    args[] = {SA_ARGUMENTS, SA_ADK_ARGS,
                                              SA_OI_INPUT, SA_TL_INPUT},
                                    results[] = {SA_RESULT, SA_ADK_RESULT,
                                                 SA_OI_OUTPUT, SA_TL_OUTPUT};
        for (size_t i = 0; i < 3 && !rv[R_N]; i++)
            rv[R_N] = found_value(m, got[names[i]], names[i]);
        for (size_t i = 0; i < 2 && !rv[R_I]; i++)
            rv[R_I] = found_value(m, got[ids[i]], ids[i]);
        for (size_t i = 0; i < 4 && !rv[R_A]; i++) {
            rv[R_A] = found_value(m, got[args[i]], args[i]);
            /* OpenLLMetry keeps a function's {"args", "kwargs"}: the
             * keyword arguments are the call's, when it was given no
             * positional one (else the two are, as logged: no name is
             * known for a positional argument) */
            const value *in = args[i] == SA_TL_INPUT && rv[R_A]
                                  ? maybe_json(a, rv[R_A])
                                  : NULL;
            const value *kw = value_getz(in, "kwargs");
            const value *pos = value_getz(in, "args");
            if (kw && kw->kind == V_OBJECT &&
                !(pos && pos->kind == V_ARRAY && pos->u.arr.len))
                rv[R_A] = (value *)kw;
            else if (kw && in->kind == V_OBJECT)
                rv[R_A] = (value *)in;
        }
        for (size_t i = 0; i < 4 && !rv[R_R]; i++)
            rv[R_R] = found_value(m, got[results[i]], results[i]);
        if (!rv[R_N] && strncmp(nm, "execute_tool ", 13) == 0)
            rv[R_N] = vb_str(a, nm + 13); /* ADK names the tool there */
    }
    if (strcmp(kind, "chat") == 0 || strcmp(kind, "agent") == 0) {
        const char *model =
            found_text(m, got[SA_RESPONSE_MODEL], SA_RESPONSE_MODEL);
        if (!model)
            model = found_text(m, got[SA_REQUEST_MODEL], SA_REQUEST_MODEL);
        if (!model)
            model = found_text(m, got[SA_OI_MODEL], SA_OI_MODEL);
        if (model)
            MUST(R_M, vb_str(a, model));
        /* the tokens the span says the model used: {"i": in, "o": out} */
        static const enum span_attr ins[] = {SA_USE_IN, SA_USE_PROMPT,
                                             SA_OI_PROMPT},
                                    outs[] = {SA_USE_OUT, SA_USE_COMPLETION,
                                              SA_OI_COMPLETION};
        value *uv[2] = {NULL, NULL};
        for (size_t i = 0; i < 3; i++) {
            int64_t count;
            if (!uv[0] && value_count(found_value(m, got[ins[i]], ins[i]),
                                      &count) == VFIG_OK)
                bad |= !(uv[0] = vb_int(a, count));
            if (!uv[1] && value_count(found_value(m, got[outs[i]], outs[i]),
                                      &count) == VFIG_OK)
                bad |= !(uv[1] = vb_int(a, count));
        }
        if (uv[0] || uv[1])
            MUST(R_U, members(a, usage_key_nodes, uv, 2));
        const value *d = maybe_json(
            a, found_value(m, got[SA_DEFINITIONS], SA_DEFINITIONS));
        /* else the tools as OpenLLMetry, OpenInference or ADK give them */
        if (!d || d->kind != V_ARRAY) {
            value *list = dialect_indexed(a, span->attrs,
                                          "llm.request.functions.",
                                          decode_attr, m);
            if (list)
                d = dialect_functions(a, list);
            else if ((list = dialect_indexed(a, span->attrs, "llm.tools.",
                                             decode_attr, m)))
                d = dialect_openinference_tools(a, list);
            else if (got[SA_ADK_REQUEST])
                d = dialect_adk_tools(a, found_value(m, got[SA_ADK_REQUEST],
                                                     SA_ADK_REQUEST));
            if (d && d->kind == V_ARRAY && d->u.arr.len == 0)
                d = NULL;
        }
        if (d && d->kind == V_ARRAY)
            rv[R_D] = (value *)d;
        value *calls = vb_array(a), *answers = vb_array(a);
        if (!calls || !answers)
            return NULL;
        /* in the conversation's order: the messages sent to the model
         * (the history: its calls were made before this span), then the
         * older events, then what the model answered */
        size_t ix = 0;
        int read = history_scan(m, got[SA_INPUT], calls, answers, &ix,
                                &rv[R_H]);
        if (read < 0)
            return NULL;
        const value *msgs = NULL;
        /* OpenLLMetry's and OpenInference's, an attribute a field */
        if (!read && (msgs = flattened(m, span->attrs, 1)) &&
            scan_messages(a, msgs, calls, answers, 1, &ix) < 0)
            return NULL;
        /* the older events on the span */
        const value *events = span->events;
        for (size_t i = 0; events && events->kind == V_ARRAY &&
                           i < events->u.arr.len;
             i++) {
            const value *ev = events->u.arr.items[i];
            const value *en = value_getz(ev, "name");
            if (!en || en->kind != V_STRING ||
                strncmp(en->u.str.ptr, "gen_ai.", 7) != 0)
                continue;
            const value *eattrs = value_getz(ev, "attributes");
            value *body = NULL;
            const value *content = attr_value(m, eattrs,
                                              "gen_ai.event.content");
            if (!content)
                content = attr_value(m, eattrs, "body");
            if (content) {
                body = (value *)maybe_json(a, content);
            } else {
                /* the body's members as the event's attributes */
                body = vb_object(a);
                for (size_t k = 0; eattrs && eattrs->kind == V_ARRAY &&
                                   k < eattrs->u.arr.len;
                     k++) {
                    const value *kv = eattrs->u.arr.items[k];
                    const value *key = value_getz(kv, "key");
                    if (!key || key->kind != V_STRING)
                        continue;
                    m->key = key->u.str.ptr;
                    value *raw = any_value(m, value_getz(kv, "value"), 0);
                    const value *parsed = maybe_json(a, raw);
                    bad |= vb_put(a, body, key->u.str.ptr,
                                  parsed ? (value *)parsed : raw);
                }
            }
            if (!body)
                continue;
            if (strcmp(en->u.str.ptr, "gen_ai.tool.message") == 0 &&
                body->kind == V_OBJECT && !value_getz(body, "role")) {
                /* a copy: the body read from JSON text is a loaded tree,
                 * whose members vb_put cannot add to */
                body = vb_copy_object(a, body);
                bad |= vb_put(a, body, "role", vb_str(a, "tool"));
            }
            /* gen_ai.choice is the model's answer; the other message
             * events are what was sent to it */
            if (scan_messages(a, body, calls, answers,
                              strcmp(en->u.str.ptr, "gen_ai.choice") != 0,
                              &ix) < 0)
                return NULL;
        }
        msgs = maybe_json(a, found_value(m, got[SA_OUTPUT], SA_OUTPUT));
        if (!msgs)
            msgs = flattened(m, span->attrs, 0);
        if (msgs && scan_messages(a, msgs, calls, answers, 0, &ix) < 0)
            return NULL;
        if (calls->u.arr.len)
            rv[R_TC] = calls;
        if (answers->u.arr.len)
            rv[R_TR] = answers;
    }
#undef MUST
    value *rec = bad ? NULL : members(a, rec_key_nodes, rv, R_COUNT);
    return rec;
}

/* ------------------------------------------------ records, packed */

/* A span record is kept until its trace is written, and it counts
 * against OTLP_KEPT_MAX as its JSON text (canon_append_loose's, and a
 * newline: a line of the records' JSON Lines).  It is kept packed: tag
 * bytes, lengths and the bytes of its texts as they are, so that
 * keeping it and reading it back cost a copy, not a JSON writer and a
 * parser; it reads back as the tree that parser would read the JSON
 * text as (canon.h, json_load.h): the members of objects in canon's
 * order, "-0" as 0, a NaN as NAN, a string holding a surrogate flagged
 * as holding one (and two escaped halves of a pair joined), and an
 * integer or a string that the text would not read back as at all
 * refuses its span (read_span). */

enum { P_NULL, P_FALSE, P_TRUE, P_INT, P_FLOAT, P_STRING, P_FLAGGED,
       P_ARRAY, P_OBJECT };

static int put_size(buf *b, size_t n)
{
    unsigned char v[10];
    size_t k = 0;
    do {
        v[k++] = (unsigned char)((n & 0x7f) | (n > 0x7f ? 0x80 : 0));
        n >>= 7;
    } while (n);
    return buf_append(b, v, k);
}

/* A text and a NUL after it (so that it is read back where it is). */
static int put_text(buf *b, int tag, const char *p, size_t len)
{
    if (len > SIZE_MAX - 16 || buf_reserve(b, len + 12) < 0)
        return -1;
    unsigned char *d = (unsigned char *)b->data + b->len, *start = d;
    *d++ = (unsigned char)tag;
    size_t n = len;
    do {
        *d++ = (unsigned char)((n & 0x7f) | (n > 0x7f ? 0x80 : 0));
        n >>= 7;
    } while (n);
    memcpy(d, p, len);
    d[len] = '\0';
    b->len += (size_t)(d - start) + len + 1;
    return 0;
}

/* Whether the 3 bytes at p are a surrogate (ED A0..BF xx), and which. */
static unsigned surrogate_at(const unsigned char *p, const unsigned char *end)
{
    if (end - p < 3 || p[0] != 0xED || p[1] < 0xA0)
        return 0;
    return 0xD000u | ((p[1] & 0x3Fu) << 6) | (p[2] & 0x3Fu);
}

/* A string as its JSON text reads back: 0, 1 unreadable, -1. */
static int pack_string(buf *b, const value *v)
{
    const unsigned char *p = (const unsigned char *)v->u.str.ptr;
    const unsigned char *end = p + v->u.str.len;
    utf8_report rep;
    if (!(v->flags & VF_UNENCODABLE)) {
        /* written as it is: read back as it is, with its surrogates
         * (kept apart) marked; ASCII, as most is, needs no more look */
        const unsigned char *q = p;
        uint64_t w;
        while (end - q >= 8 && (memcpy(&w, q, 8), !(w & 0x8080808080808080u)))
            q += 8;
        while (q < end && *q < 0x80)
            q++;
        rep.surrogates = 0;
        if (q < end && utf8_check(q, (size_t)(end - q), UTF8_SURROGATEPASS,
                                  &rep) != UTF8_OK)
            return 1;
        return put_text(b, rep.surrogates ? P_FLAGGED : P_STRING,
                        v->u.str.ptr, v->u.str.len);
    }
    /* its surrogates written as escapes: a high one right before a low
     * one is read back as the character of the pair */
    buf t = BUF_INIT;
    int lone = 0;
    for (const unsigned char *q = p; q < end;) {
        unsigned hi = surrogate_at(q, end), lo = 0;
        if (hi >= 0xD800 && hi <= 0xDBFF)
            lo = surrogate_at(q + 3, end);
        if (lo >= 0xDC00 && lo <= 0xDFFF) {
            unsigned cp = 0x10000u + ((hi - 0xD800u) << 10) + (lo - 0xDC00u);
            unsigned char u[4] = {(unsigned char)(0xF0 | (cp >> 18)),
                                  (unsigned char)(0x80 | ((cp >> 12) & 0x3F)),
                                  (unsigned char)(0x80 | ((cp >> 6) & 0x3F)),
                                  (unsigned char)(0x80 | (cp & 0x3F))};
            buf_append(&t, u, 4);
            q += 6;
            continue;
        }
        lone |= hi != 0;
        buf_append(&t, q, hi ? 3 : 1);
        q += hi ? 3 : 1;
    }
    int rc = t.failed ? -1
                      : put_text(b, lone ? P_FLAGGED : P_STRING,
                                 t.data ? t.data : "", t.len);
    buf_free(&t);
    return rc;
}

static int key_order(const void *x, const void *y)
{
    const value *a = (*(const value_member *const *)x)->key;
    const value *b = (*(const value_member *const *)y)->key;
    size_t n = a->u.str.len < b->u.str.len ? a->u.str.len : b->u.str.len;
    int c = memcmp(a->u.str.ptr, b->u.str.ptr, n);
    if (c)
        return c;
    return a->u.str.len < b->u.str.len ? -1 : a->u.str.len > b->u.str.len;
}

/* Packs v; 0, 1 when its text would not read back, -1 out of memory.
 * Keys are strings, as every record's are (vb_put's, JSON's). */
static int pack(buf *b, const value *v)
{
    unsigned char tag;
    switch ((value_kind)v->kind) {
    case V_NULL:
        tag = P_NULL;
        return buf_append(b, &tag, 1);
    case V_BOOL:
        tag = v->u.b ? P_TRUE : P_FALSE;
        return buf_append(b, &tag, 1);
    case V_INT: {
        const char *d = v->u.str.ptr;
        size_t n = v->u.str.len, k = n && d[0] == '-';
        if (n == 2 && k && d[1] == '0')
            return put_text(b, P_INT, "0", 1); /* JSON's -0 is 0 */
        if (n == k || n - k > PYINT_MAX_DIGITS || (n - k > 1 && d[k] == '0'))
            return 1;
        for (size_t i = k; i < n; i++)
            if (d[i] < '0' || d[i] > '9')
                return 1;
        return put_text(b, P_INT, d, n);
    }
    case V_FLOAT: {
        double x = isnan(v->u.d) ? NAN : v->u.d;
        tag = P_FLOAT;
        return buf_append(b, &tag, 1) < 0 ? -1
                                          : buf_append(b, &x, sizeof x);
    }
    case V_STRING:
        return pack_string(b, v);
    case V_ARRAY:
        tag = P_ARRAY;
        if (buf_append(b, &tag, 1) < 0 || put_size(b, v->u.arr.len) < 0)
            return -1;
        for (size_t i = 0; i < v->u.arr.len; i++) {
            int rc = pack(b, v->u.arr.items[i]);
            if (rc)
                return rc;
        }
        return 0;
    case V_OBJECT: {
        size_t n = v->u.obj.len;
        const value_member *small[16];
        const value_member **order =
            n <= 16 ? small : malloc(n * sizeof *order);
        if (!order)
            return -1;
        int rc = 0;
        for (size_t i = 0; i < n; i++) {
            order[i] = &v->u.obj.items[i];
            if (order[i]->key->kind != V_STRING)
                rc = -1;
        }
        if (rc == 0 && n > 16) {
            qsort(order, n, sizeof *order, key_order);
        } else if (rc == 0) {
            /* few members, often in order already: by insertion */
            for (size_t i = 1; i < n; i++) {
                const value_member *k = order[i];
                size_t j = i;
                for (; j > 0 && key_order(&order[j - 1], &k) > 0; j--)
                    order[j] = order[j - 1];
                order[j] = k;
            }
        }
        /* two members of one key: canon refuses them, as it would */
        for (size_t i = 1; i < n && rc == 0; i++)
            if (key_order(&order[i - 1], &order[i]) == 0)
                rc = -1;
        tag = P_OBJECT;
        if (rc == 0 && (buf_append(b, &tag, 1) < 0 || put_size(b, n) < 0))
            rc = -1;
        for (size_t i = 0; i < n && rc == 0; i++)
            if ((rc = pack_string(b, order[i]->key)) == 0)
                rc = pack(b, order[i]->val);
        if (order != small)
            free(order);
        return rc;
    }
    default: /* not in a record */
        return -1;
    }
}

/* Reads a size; 0, or -1 past end. */
static int get_size(const unsigned char **p, const unsigned char *end,
                    size_t *n)
{
    *n = 0;
    for (unsigned shift = 0; *p < end && shift < 64; shift += 7) {
        unsigned char c = *(*p)++;
        *n |= (size_t)(c & 0x7f) << shift;
        if (!(c & 0x80))
            return 0;
    }
    return -1;
}

/* Reads back a packed value into a (its texts where they are in the
 * packed bytes); NULL out of memory. */
static value *unpack(arena *a, const unsigned char **p,
                     const unsigned char *end)
{
    if (*p >= end)
        return NULL;
    int tag = *(*p)++;
    size_t n;
    value *v;
    switch (tag) {
    case P_NULL:
        return value_new(a, V_NULL, 0, 0);
    case P_FALSE:
    case P_TRUE:
        if ((v = value_new(a, V_BOOL, 0, 0)))
            v->u.b = tag == P_TRUE;
        return v;
    case P_FLOAT:
        if (end - *p < (ptrdiff_t)sizeof(double) ||
            !(v = value_new(a, V_FLOAT, 0, 0)))
            return NULL;
        memcpy(&v->u.d, *p, sizeof(double));
        *p += sizeof(double);
        return v;
    case P_INT:
    case P_STRING:
    case P_FLAGGED:
        if (get_size(p, end, &n) < 0 || (size_t)(end - *p) <= n ||
            !(v = value_new(a, tag == P_INT ? V_INT : V_STRING, 0, 0)))
            return NULL;
        v->flags = tag == P_FLAGGED ? VF_UNENCODABLE : 0;
        v->u.str.ptr = (const char *)*p;
        v->u.str.len = n;
        *p += n + 1;
        return v;
    case P_ARRAY:
        if (get_size(p, end, &n) < 0 || n > (size_t)(end - *p) ||
            !(v = value_new(a, V_ARRAY, 0, 0)) ||
            !(v->u.arr.items = arena_alloc(a, (n + 1) * sizeof(value *))))
            return NULL;
        for (size_t i = 0; i < n; i++)
            if (!(v->u.arr.items[i] = unpack(a, p, end)))
                return NULL;
        v->u.arr.len = n;
        return v;
    case P_OBJECT:
        if (get_size(p, end, &n) < 0 || n > (size_t)(end - *p) ||
            !(v = value_new(a, V_OBJECT, 0, 0)) ||
            !(v->u.obj.items = arena_alloc(a, (n + 1) * sizeof(value_member))))
            return NULL;
        for (size_t i = 0; i < n; i++)
            if (!(v->u.obj.items[i].key = unpack(a, p, end)) ||
                !(v->u.obj.items[i].val = unpack(a, p, end)))
                return NULL;
        v->u.obj.len = n;
        return v;
    default:
        return NULL;
    }
}

/* --------------------------------------- histories read once (above) */

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* The kept history of trace tid, or NULL. */
static struct history *history_of(struct oread *m, const char *tid)
{
    for (size_t i = 0; i < OTLP_HISTORIES; i++)
        if (memcmp(m->hist[i].trace, tid, 33) == 0)
            return &m->hist[i];
    return NULL;
}

/* Reads the history text hv on from h, the one kept of its trace: the
 * calls and answers of the messages after h's into calls and answers,
 * counted on from h's (h's own are the record's its span refers to).  1
 * when read so, 0 when hv does not go on from h (or the new messages do
 * not read as such): it is then read whole, which tells. */
static int history_on(struct oread *m, const struct history *h,
                      const value *hv, value *calls, value *answers,
                      size_t *ix)
{
    arena *a = m->a;
    const char *prev = h->text.data, *cur = hv->u.str.ptr;
    size_t close = h->text.len, clen = hv->u.str.len;
    /* texts as written or both decoded: where they are the same bytes
     * they say the same (escapes are never split: a ']' or ',' is no
     * part of one) */
    int written = (hv->flags & VF_ESCAPED) != 0;
    if (h->written != written)
        return 0;
    while (close && is_space(prev[close - 1]))
        close--;
    if (!close || prev[close - 1] != ']')
        return 0;
    close--; /* prev[0..close): the list without its end */
    if (clen <= close || memcmp(cur, prev, close) != 0)
        return 0;
    size_t k = close;
    while (k < clen && is_space(cur[k]))
        k++;
    if (k >= clen || cur[k] != ',')
        return 0;
    /* the messages after the comma, as a list of their own: a text that
     * reads so reads whole as the kept list and them (the kept one held
     * a message, so its comma stands between two) */
    buf_reset(&m->hist_tail);
    if (buf_putc(&m->hist_tail, '[') < 0 ||
        buf_append(&m->hist_tail, cur + k + 1, clen - k - 1) < 0)
        return -1;
    if (written) { /* the new messages decoded */
        value raw = *hv;
        raw.u.str.ptr = m->hist_tail.data + 1;
        raw.u.str.len = m->hist_tail.len - 1;
        value *d = json_unescaped(a, &raw);
        if (!d)
            return -1;
        m->hist_tail.len = 1;
        if (buf_append(&m->hist_tail, d->u.str.ptr, d->u.str.len) < 0)
            return -1;
    }
    value *tail = NULL;
    err e;
    if (json_load(&tail, a, m->hist_tail.data, m->hist_tail.len, &e) != 0 ||
        tail->kind != V_ARRAY || tail->u.arr.len == 0)
        return 0;
    *ix = h->ix;
    if (scan_messages(a, tail, calls, answers, 1, ix) < 0)
        return -1;
    return 1;
}

/* Notes the history text hv of the span being read, with its calls and
 * answers (so many, the first ones of the span's lists), to be kept once
 * the span is in its trace (history_kept); -1 out of memory. */
static int history_read(struct oread *m, const value *hv, size_t calls,
                        size_t answers, size_t ix)
{
    struct history *h = &m->hist_read;
    buf_reset(&h->text);
    if (buf_append(&h->text, hv->u.str.ptr, hv->u.str.len) < 0)
        return -1;
    memcpy(h->trace, m->tid, 33);
    h->written = (hv->flags & VF_ESCAPED) != 0;
    h->seq = m->seq;
    h->calls = calls;
    h->answers = answers;
    h->ix = ix;
    return 0;
}

/* The span read is in its trace: its history noted, if any, is kept in
 * its trace's place, or that of the one read longest ago. */
static void history_kept(struct oread *m)
{
    if (!m->hist_read.trace[0])
        return;
    struct history *h = history_of(m, m->hist_read.trace);
    if (!h) {
        h = &m->hist[0];
        for (size_t i = 1; i < OTLP_HISTORIES; i++)
            if (m->hist[i].used < h->used)
                h = &m->hist[i];
    }
    struct history t = *h;
    *h = m->hist_read;
    h->used = ++m->hist_clock;
    m->hist_read = t; /* its text's room, for the next */
    m->hist_read.trace[0] = '\0';
}

/* Reads the calls and answers of a chat span's history hv (its
 * gen_ai.input.messages) into calls and answers, counted from *ix: on
 * from the one kept of its trace when hv goes on from it, else whole.
 * 1 when hv is read, 0 when there is none (or it is no JSON), -1 out of
 * memory. */
static int history_scan(struct oread *m, const value *av, value *calls,
                        value *answers, size_t *ix, value **refer)
{
    arena *a = m->a;
    m->hist_read.trace[0] = '\0';
    *refer = NULL;
    if (!av)
        return 0;
    /* a text as written is compared so, and decoded when it is read
     * whole */
    const value *hv = value_getz(av, "stringValue");
    if (!hv || hv->kind != V_STRING || !(hv->flags & VF_ESCAPED))
        hv = found_value(m, av, SA_INPUT);
    if (!hv)
        return -1;
    int keep = hv->kind == V_STRING && m->tid && !m->hist_off &&
               hv->u.str.len <= OTLP_HISTORY_MAX;
    const struct history *h = keep ? history_of(m, m->tid) : NULL;
    if (h)
        m->hist_hit = hv->u.str.len;
    int rc = h ? history_on(m, h, hv, calls, answers, ix) : 0;
    if (rc < 0)
        return -1;
    size_t before_calls = 0, before_answers = 0;
    if (rc == 1) { /* the kept one's calls and answers: where they are */
        static const value keys[3] = {
            {.kind = V_STRING, .u.str = {"a", 1}},
            {.kind = V_STRING, .u.str = {"c", 1}},
            {.kind = V_STRING, .u.str = {"q", 1}}};
        value *v[3] = {vb_int(a, (long long)h->answers),
                       vb_int(a, (long long)h->calls),
                       vb_int(a, (long long)h->seq)};
        if (!v[0] || !v[1] || !v[2] || !(*refer = members(a, keys, v, 3)))
            return -1;
        before_calls = h->calls;
        before_answers = h->answers;
    }
    if (rc == 0) {
        const value *msgs = maybe_json(a, json_unescaped(a, hv));
        if (!msgs)
            return 0;
        if (scan_messages(a, msgs, calls, answers, 1, ix) < 0)
            return -1;
        /* a list of at least one message is kept to be read on from */
        keep = keep && msgs->kind == V_ARRAY && msgs->u.arr.len > 0;
    }
    if (keep && history_read(m, hv, before_calls + calls->u.arr.len,
                             before_answers + answers->u.arr.len, *ix) < 0)
        return -1;
    return 1;
}

/* A record: its members packed by their place in rec_key_nodes, whose
 * order is canon's, as its text has them: a count, then each member's place
 * and value.  Read back, the members are what json_load reads of the
 * text, each where its key says (the object around them is not made). */
static int pack_record(buf *b, value *const rv[R_COUNT])
{
    unsigned char n = 0;
    for (size_t i = 0; i < R_COUNT; i++)
        n += rv[i] != NULL;
    if (buf_append(b, &n, 1) < 0)
        return -1;
    for (size_t i = 0; i < R_COUNT; i++) {
        if (!rv[i])
            continue;
        unsigned char at = (unsigned char)i;
        if (buf_append(b, &at, 1) < 0)
            return -1;
        int rc = pack(b, rv[i]);
        if (rc)
            return rc;
    }
    return 0;
}

/* Reads a record's members into f (NULL: none); -1 out of memory. */
static int unpack_record(arena *a, const unsigned char **p,
                         const unsigned char *end, const value *f[R_COUNT])
{
    for (size_t i = 0; i < R_COUNT; i++)
        f[i] = NULL;
    if (*p >= end)
        return -1;
    size_t n = *(*p)++;
    for (size_t i = 0; i < n; i++) {
        if (*p >= end || **p >= R_COUNT)
            return -1;
        size_t at = *(*p)++;
        if (!(f[at] = unpack(a, p, end)))
            return -1;
    }
    return 0;
}

/* -------------------------------------------------- writing a trace */

struct span {
    const value *f[R_COUNT]; /* its record's members (NULL: none) */
    const char *id, *parent;
    unsigned long long start, end, seq;
    const char *kind;
    size_t episode; /* index of its episode's head span, or -1 */
    size_t agent;   /* of its nearest invoke_agent span (itself
                       included), or -1: whose conversation it is */
    int dup;        /* delivered again: a later delivery of a span id */
};

/* A trace's ids and what they map to: a short list while it is short,
 * a keymap past IDS_LIST; an id given again maps to the last value, as
 * keymap_put makes it. */
#define IDS_LIST 8
struct ids {
    size_t n;
    struct {
        const char *key;
        size_t len, val;
    } list[IDS_LIST];
    keymap map; /* every id, once more than IDS_LIST were put */
};

static int ids_put(struct ids *m, const char *key, size_t len, size_t val)
{
    if (m->n < IDS_LIST) {
        m->list[m->n].key = key;
        m->list[m->n].len = len;
        m->list[m->n++].val = val;
        return 0;
    }
    for (size_t i = 0; m->n == IDS_LIST && i < IDS_LIST; i++)
        if (keymap_put(&m->map, m->list[i].key, m->list[i].len,
                       m->list[i].val) < 0)
            return -1;
    m->n++;
    return keymap_put(&m->map, key, len, val);
}

static int ids_get(const struct ids *m, const char *key, size_t len,
                   size_t *val)
{
    if (m->n > IDS_LIST)
        return keymap_get(&m->map, key, len, val);
    for (size_t i = m->n; i-- > 0;)
        if (m->list[i].len == len && memcmp(m->list[i].key, key, len) == 0) {
            *val = m->list[i].val;
            return 1;
        }
    return 0;
}

static void ids_free(struct ids *m)
{
    keymap_free(&m->map);
}

static unsigned long long num(const value *v)
{
    return v && v->kind == V_INT ? strtoull(v->u.str.ptr, NULL, 10) : 0;
}

static const char *text(const value *v)
{
    return v && v->kind == V_STRING ? v->u.str.ptr : NULL;
}

/* A call to write, with the time it is ordered by: the call of span
 * (part 0), or the part-th of the tool calls its messages show. */
struct pending {
    unsigned long long at, seq;
    const value *call, *id, *answer;
    size_t span, part;
    double duration; /* an execute_tool span's; NAN: a chat span's call */
};

/* The seconds from start to end (nanoseconds since the epoch), or NAN
 * when either is not given or the end is before the start. */
static double seconds(unsigned long long start, unsigned long long end)
{
    return start && end >= start ? (double)(end - start) / 1e9 : NAN;
}

/* What an episode used (docs/logs.md): the tokens of its chat spans;
 * when none of them says any, of its agent spans that no agent span
 * saying tokens is above (so that an agent's total is not counted with
 * its sub-agents'); its time, the head span's (a whole trace: from its
 * first start to its last end).  0, or -1 out of memory. */
static int episode_usage(struct oread *m, const struct span *sp, size_t n,
                         size_t head, lr_usage *u)
{
    lr_usage_init(u);
    unsigned long long first = 0, last = 0;
    for (int agents = 0; agents < 2 && u->input_tokens < 0 &&
                         u->output_tokens < 0;
         agents++) {
        struct ids top = {.map.seed = m->ids.seed}; /* agents saying any */
        for (size_t i = 0; agents && i < n; i++)
            if (sp[i].episode == head && sp[i].f[R_U] &&
                strcmp(sp[i].kind, "agent") == 0 &&
                ids_put(&top, sp[i].id, strlen(sp[i].id), i) < 0) {
                ids_free(&top);
                return -1;
            }
        for (size_t i = 0; i < n; i++) {
            size_t at;
            if (sp[i].episode != head || !sp[i].f[R_U] ||
                strcmp(sp[i].kind, agents ? "agent" : "chat") != 0 ||
                (agents && sp[i].parent &&
                 ids_get(&top, sp[i].parent, strlen(sp[i].parent), &at)))
                continue;
            int64_t c;
            if (value_count(value_getz(sp[i].f[R_U], "i"), &c) == VFIG_OK)
                lr_add_count(&u->input_tokens, c);
            if (value_count(value_getz(sp[i].f[R_U], "o"), &c) == VFIG_OK)
                lr_add_count(&u->output_tokens, c);
        }
        ids_free(&top);
    }
    for (size_t i = 0; i < n; i++) {
        if (sp[i].episode != head)
            continue;
        if (sp[i].start && (!first || sp[i].start < first))
            first = sp[i].start;
        if (sp[i].end > last)
            last = sp[i].end;
    }
    u->duration = head < n ? seconds(sp[head].start, sp[head].end)
                           : seconds(first, last);
    return 0;
}

/* Where a call is, for a problem: its span, and which of its calls. */
static void call_text(const struct span *sp, size_t span, size_t part,
                      char *out, size_t size)
{
    char who[96];
    const value *ev = sp[span].f[R_EV];
    if (ev && ev->kind == V_STRING) /* a log record's (otlplogs.h) */
        snprintf(who, sizeof who, "span %s's event %.48s (a log record)",
                 sp[span].parent, ev->u.str.ptr);
    else
        snprintf(who, sizeof who, "span %s", sp[span].id);
    if (part == 0)
        snprintf(out, size, "%s", who);
    else
        snprintf(out, size, "%s: its tool call %zu", who, part - 1);
}

/* lr_place_fn of m->calls, while a trace is written. */
static void call_place(void *ctx, const lr_call_item *it, char *out,
                       size_t size)
{
    const struct oread *m = ctx;
    call_text(m->spans, it->at[0], it->at[1], out, size);
}

static int by_time(const void *x, const void *y)
{
    const struct pending *a = x, *b = y;
    if (a->at != b->at)
        return a->at < b->at ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static int by_start(const void *x, const void *y)
{
    const struct span *a = x, *b = y;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static const value *task_field(const struct span *sp, size_t n,
                               size_t head, const char *key)
{
    const value *v = head < n ? value_getz(sp[head].f[R_K], key) : NULL;
    for (size_t i = 0; !v && i < n; i++)
        if (sp[i].episode == head)
            v = value_getz(sp[i].f[R_K], key);
    return v;
}

/* Writes the episode whose head span is head (or the whole trace when
 * head is n): 0, 1 stop, -1. */
static int write_episode(struct oread *m, arena *a, struct trace *t,
                         struct span *sp, size_t n, size_t head, int whole,
                         err *e)
{
    logr *r = m->r;
    char episode[80];
    if (head == n)
        snprintf(episode, sizeof episode, "%s", t->id);
    else
        snprintf(episode, sizeof episode, "%s:%s", t->id, sp[head].id);
    /* run, model and tools: from the episode's spans */
    const char *service = NULL, *model = NULL;
    value *tools = NULL;
    struct ids names = {.map.seed = m->ids.seed}; /* of tools */
    struct pending *calls = NULL;
    size_t ncalls = 0, withheld = 0;
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        if (sp[i].episode != head)
            continue;
        if (!service)
            service = text(sp[i].f[R_SV]);
        if (!model)
            model = text(sp[i].f[R_M]);
        const value *defs = sp[i].f[R_D];
        for (size_t k = 0; defs && k < defs->u.arr.len; k++) {
            const value *d = defs->u.arr.items[k];
            const value *f = value_getz(d, "function");
            const value *nm = value_getz(f ? f : d, "name");
            if (!nm || nm->kind != V_STRING)
                continue;
            size_t at;
            if (ids_get(&names, nm->u.str.ptr, nm->u.str.len, &at))
                continue; /* the first definition of a name stands */
            const value *params = value_getz(f ? f : d, "parameters");
            if (!params)
                params = value_getz(d, "input_schema");
            value *tool = lr_openai_tool(
                a, nm, value_getz(f ? f : d, "description"), params);
            if ((!tools && !(tools = vb_array(a))) || !tool ||
                vb_push(a, tools, tool) < 0 ||
                ids_put(&names, nm->u.str.ptr, nm->u.str.len, 0) < 0) {
                rc = nomem(e);
                break;
            }
        }
    }
    ids_free(&names);
    if (rc)
        return rc;
    lrun *run;
    rc = lr_run(r, service ? service : "otel", model, NULL, tools, NULL,
                &run, e);
    if (rc)
        return rc;
    char trace_at[96]; /* where the episode's own problems are */
    snprintf(trace_at, sizeof trace_at, "trace %s", t->id);
    rc = lr_episode(r, run, episode,
                    task_field(sp, n, head, "seed"),
                    task_field(sp, n, head, "arm"),
                    task_field(sp, n, head, "task_name"), trace_at, NULL, e);
    if (rc)
        return rc;
    /* the calls: execute_tool spans, then the calls only chat spans show */
    size_t cap = 0;
    struct ids span_ids = {.map.seed = m->ids.seed},
               answers = {.map.seed = m->ids.seed},
               chat_ids = {.map.seed = m->ids.seed},
               chat_places = {.map.seed = m->ids.seed},
               /* tool name -> execute_tool spans of it without a call
                * id that no call a chat span shows is yet taken for */
               no_id = {.map.seed = m->ids.seed};
    for (int pass = 0; pass < 3 && rc == 0; pass++) {
        for (size_t i = 0; i < n && rc == 0; i++) {
            if (sp[i].episode != head)
                continue;
            const value *const *f = sp[i].f;
            if (pass == 0 && strcmp(sp[i].kind, "tool") == 0) {
                const value *id = f[R_I], *nm = f[R_N];
                size_t have = 0;
                if (id && id->kind == V_STRING) {
                    if (ids_put(&span_ids, id->u.str.ptr, id->u.str.len,
                                i) < 0)
                        rc = nomem(e);
                } else if (nm && nm->kind == V_STRING) {
                    ids_get(&no_id, nm->u.str.ptr, nm->u.str.len, &have);
                    if (ids_put(&no_id, nm->u.str.ptr, nm->u.str.len,
                                have + 1) < 0)
                        rc = nomem(e);
                }
                continue;
            }
            if (pass == 1) {
                const value *tr = f[R_TR];
                for (size_t k = 0; tr && k < tr->u.arr.len && rc == 0; k++) {
                    const value *id = value_getz(tr->u.arr.items[k], "id");
                    if (id && id->kind == V_STRING &&
                        ids_put(&answers, id->u.str.ptr, id->u.str.len,
                                (size_t)(uintptr_t)tr->u.arr.items[k]) < 0)
                        rc = nomem(e);
                }
                continue;
            }
            if (pass != 2)
                continue;
            /* pass 2: every call, with its time */
            const value *list = NULL;
            size_t count = 0;
            if (strcmp(sp[i].kind, "tool") == 0) {
                count = 1;
            } else if ((list = f[R_TC])) {
                count = list->u.arr.len;
            }
            for (size_t k = 0; k < count && rc == 0; k++) {
                if (ncalls == cap) {
                    cap = cap ? 2 * cap : 16;
                    struct pending *more = realloc(calls, cap * sizeof *more);
                    if (!more) {
                        rc = nomem(e);
                        break;
                    }
                    calls = more;
                }
                struct pending *p = &calls[ncalls];
                memset(p, 0, sizeof *p);
                p->seq = sp[i].seq * 1024 + k;
                const value *name, *args, *id;
                p->duration = NAN;
                if (!list) {
                    p->at = sp[i].start;
                    p->duration = seconds(sp[i].start, sp[i].end);
                    name = f[R_N];
                    args = f[R_A];
                    id = f[R_I];
                    p->span = i;
                    const value *res = f[R_R];
                    const value *errc = f[R_ERR];
                    if (errc) {
                        value *inner = vb_object(a), *outer = vb_object(a);
                        const value *em = f[R_EM];
                        if (vb_put(a, inner, "code", vb_clone(a, errc)) < 0 ||
                            vb_put(a, inner, "message",
                                   vb_clone(a, em && em->kind == V_STRING &&
                                                       em->u.str.len
                                                   ? em
                                                   : res && res->kind ==
                                                                V_STRING
                                                         ? res
                                                         : em)) < 0 ||
                            vb_put(a, outer, "error", inner) < 0) {
                            rc = nomem(e);
                            break;
                        }
                        p->answer = outer;
                    } else {
                        p->answer = res;
                    }
                } else {
                    const value *c = list->u.arr.items[k];
                    id = value_getz(c, "id");
                    size_t at;
                    /* a call that an execute_tool span shows is that
                     * span's */
                    if (id && id->kind == V_STRING &&
                        ids_get(&span_ids, id->u.str.ptr, id->u.str.len, &at))
                        continue;
                    /* a call that chat spans repeat (each sends the whole
                     * conversation so far) is one call: known by its id,
                     * else by its place in the conversation; the first
                     * span that shows it places it in time */
                    struct ids *seen = &chat_ids;
                    const char *key;
                    size_t klen;
                    if (id && id->kind == V_STRING) {
                        key = id->u.str.ptr;
                        klen = id->u.str.len;
                    } else {
                        char *place = arena_alloc(a, 48);
                        if (!place) {
                            rc = nomem(e);
                            break;
                        }
                        /* the place in its own agent's conversation:
                         * a sub-agent's conversation has places of its
                         * own */
                        klen = (size_t)snprintf(
                            place, 48, "%zx:%llu", sp[i].agent,
                            num(value_getz(c, "x")));
                        key = place;
                        seen = &chat_places;
                    }
                    if (ids_get(seen, key, klen, &at))
                        continue;
                    if (ids_put(seen, key, klen, 0) < 0) {
                        rc = nomem(e);
                        break;
                    }
                    /* an execute_tool span of its tool that says no call
                     * id is this call (OpenLLMetry's never do; the
                     * conventions recommend one, no more): the span's,
                     * one span a call, in order */
                    const value *nm = value_getz(c, "name");
                    if (nm && nm->kind == V_STRING &&
                        ids_get(&no_id, nm->u.str.ptr, nm->u.str.len,
                                &at) &&
                        at > 0) {
                        if (ids_put(&no_id, nm->u.str.ptr, nm->u.str.len,
                                    at - 1) < 0) {
                            rc = nomem(e);
                            break;
                        }
                        continue;
                    }
                    /* one the history shows was made before its span */
                    p->at = value_getz(c, "h") ? sp[i].start : sp[i].end;
                    name = value_getz(c, "name");
                    args = value_getz(c, "arguments");
                    withheld += !args && value_getz(c, "w");
                    p->span = i;
                    p->part = k + 1;
                    if (id && id->kind == V_STRING &&
                        ids_get(&answers, id->u.str.ptr, id->u.str.len, &at)) {
                        const value *ans = (const value *)(uintptr_t)at;
                        p->answer = value_getz(ans, "response");
                    }
                }
                if (!name || name->kind != V_STRING) {
                    char place[160];
                    call_text(sp, p->span, p->part, place, sizeof place);
                    rc = lr_problem(r, place, NULL,
                                    "a tool call with no tool name in "
                                    "trace %s: it is skipped",
                                    t->id);
                    continue;
                }
                value *call = vb_object(a);
                if (vb_put(a, call, "name", vb_clone(a, name)) < 0 ||
                    (args && args->kind != V_NULL &&
                     vb_put(a, call, "arguments", vb_clone(a, args)) < 0)) {
                    rc = nomem(e);
                    break;
                }
                p->call = call;
                p->id = id && id->kind == V_STRING ? id : NULL;
                ncalls++;
            }
        }
    }
    ids_free(&span_ids);
    ids_free(&answers);
    ids_free(&chat_ids);
    ids_free(&chat_places);
    ids_free(&no_id);
    if (ncalls)
        qsort(calls, ncalls, sizeof *calls, by_time);
    lrc_reset(&m->calls);
    for (size_t i = 0; i < ncalls && rc == 0; i++) {
        /* ids were checked above: a second call of one id is still a call
         * (two spans of one id: both ran), so the id is not given here */
        if (lrc_add(&m->calls, calls[i].call, NULL, calls[i].span,
                    calls[i].part) < 0) {
            rc = nomem(e);
            break;
        }
        m->calls.items[m->calls.n - 1].duration = calls[i].duration;
        if (calls[i].answer)
            m->calls.items[m->calls.n - 1].answer = calls[i].answer;
        else
            m->calls.items[m->calls.n - 1].id = calls[i].id;
    }
    free(calls);
    if (rc == 0 && withheld)
        rc = lr_problem(r, trace_at, NULL,
                        "%zu tool call%s without %s arguments in the log "
                        "(the OpenAI v2 instrumentation writes them only "
                        "when OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_"
                        "CONTENT is true): recorded with none ({}), which "
                        "its tool's schema may refuse",
                        withheld, withheld == 1 ? "" : "s",
                        withheld == 1 ? "its" : "their");
    m->spans = sp;
    if (rc == 0)
        rc = lrc_emit(r, run, episode, &m->calls, e);
    m->spans = NULL;
    if (rc || !whole)
        return rc;
    /* the end: the head span's status, the harness's verdict */
    const value *sv = task_field(sp, n, head, "success");
    const value *rw = task_field(sp, n, head, "reward");
    double reward = 0;
    value_figure rf = value_reward(rw, &reward);
    int has_reward = rf == VFIG_OK;
    if (rf != VFIG_OK && rf != VFIG_NONE) {
        if ((rc = lr_problem(r, trace_at, NULL,
                             "the episode's tasks.reward is not a %snumber: "
                             "its reward is left unknown",
                             rf == VFIG_HUGE ? "finite " : "")))
            return rc;
    }
    int failed = head < n ? sp[head].f[R_ERR] != NULL : 0;
    lr_usage used;
    if (episode_usage(m, sp, n, head, &used) < 0)
        return nomem(e);
    return lr_end(r, run, episode, failed ? "error" : "done", NULL,
                  sv && sv->kind == V_BOOL ? sv->u.b : -1,
                  has_reward ? &reward : NULL, &used, e);
}

/* The first n items of list (NULL: none), then those of more, as one
 * list in a (NULL: none at all); *bad when list has fewer than n. */
static const value *lists_joined(arena *a, const value *list, size_t n,
                                 const value *more, int *bad)
{
    size_t have = list ? list->u.arr.len : 0, extra = more ? more->u.arr.len
                                                         : 0;
    if (have < n) {
        *bad = 1;
        return NULL;
    }
    if (n + extra == 0)
        return NULL;
    value *out = value_new(a, V_ARRAY, 0, 0);
    if (!out || !(out->u.arr.items = arena_alloc(a, (n + extra + 1) *
                                                        sizeof(value *)))) {
        *bad = -1;
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        out->u.arr.items[i] = list->u.arr.items[i];
    for (size_t i = 0; i < extra; i++)
        out->u.arr.items[n + i] = more->u.arr.items[i];
    out->u.arr.len = n + extra;
    return out;
}

/* Span n's record read on from an earlier one's history ("h": history_on):
 * the calls and answers of that history, which that span's record holds
 * first, put back in front of its own, as reading its history whole
 * gives them.  The earlier span is one of sp[0..n), which are in the
 * order they were read (seq).  0, or -1 with e set. */
static int history_back(arena *a, struct span *sp, size_t n, err *e)
{
    const value *h = sp[n].f[R_H];
    unsigned long long seq = num(value_getz(h, "q"));
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (sp[mid].seq < seq)
            lo = mid + 1;
        else
            hi = mid;
    }
    int bad = 0;
    if (lo < n && sp[lo].seq == seq) {
        const value *const *f = sp[lo].f;
        const value *calls = lists_joined(a, f[R_TC],
                                          num(value_getz(h, "c")),
                                          sp[n].f[R_TC], &bad);
        const value *answers = bad ? NULL
                                   : lists_joined(a, f[R_TR],
                                                  num(value_getz(h, "a")),
                                                  sp[n].f[R_TR], &bad);
        if (bad < 0)
            return nomem(e);
        sp[n].f[R_TC] = calls;
        sp[n].f[R_TR] = answers;
    } else {
        bad = 1;
    }
    if (bad) /* the records are ours: only a fault of the reader's */
        return err_set(e, ERR_VALUE, "the record of span %s refers to a "
                                     "history that its trace does not "
                                     "hold", sp[n].id);
    return 0;
}

/* Writes a trace and forgets it; whole is 0 when it is written before
 * the input's end (its end lines are left out). */
static int write_trace(struct oread *m, struct trace *t, int whole, err *e)
{
    arena *a = m->wa;
    struct ids byid = {0};
    size_t n = 0;
    int rc = 0;
    arena_recycle(a, 1u << 20); /* what a large trace took is given back */
    if (t->nspans > m->spcap) {
        struct span *more = realloc(m->sp, t->nspans * sizeof *more);
        if (!more)
            return nomem(e);
        m->sp = more;
        m->spcap = t->nspans;
    }
    struct span *sp = m->sp;
    const unsigned char *p = (const unsigned char *)t->spans.data;
    const unsigned char *end = p ? p + t->spans.len : p;
    while (rc == 0 && n < t->nspans) {
        if (unpack_record(a, &p, end, sp[n].f) < 0) {
            rc = nomem(e); /* our own packing: only memory can fail */
            break;
        }
        sp[n].id = text(sp[n].f[R_S]);
        sp[n].parent = text(sp[n].f[R_P]);
        sp[n].start = num(sp[n].f[R_T]);
        sp[n].end = num(sp[n].f[R_E]);
        sp[n].seq = num(sp[n].f[R_Q]);
        sp[n].kind = text(sp[n].f[R_O]);
        if (!sp[n].kind)
            sp[n].kind = "";
        sp[n].episode = 0;
        if (sp[n].f[R_H] && (rc = history_back(a, sp, n, e)))
            break;
        n++;
    }
    if (rc == 0 && n)
        qsort(sp, n, sizeof *sp, by_start);
    /* a span delivered more than once (an exporter retries) is read once:
     * its first delivery stands */
    for (size_t i = 0; rc == 0 && i < n; i++) {
        size_t j, len = strlen(sp[i].id);
        sp[i].dup = 0;
        if (!ids_get(&byid, sp[i].id, len, &j)) {
            if (ids_put(&byid, sp[i].id, len, i) < 0)
                rc = nomem(e);
        } else if (sp[i].seq > sp[j].seq) {
            sp[i].dup = 1;
        } else {
            sp[j].dup = 1;
            if (ids_put(&byid, sp[i].id, len, i) < 0)
                rc = nomem(e);
        }
    }
    /* each span's episode: its outermost invoke_agent ancestor (itself
     * included), or with --each-agent its nearest; a trace without one is
     * one episode */
    int agents = 0, nearest = lr_opts(m->r)->each_agent;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        if (sp[i].dup) {
            sp[i].episode = sp[i].agent = (size_t)-1;
            continue;
        }
        size_t at = i, head = (size_t)-1;
        sp[i].agent = (size_t)-1;
        for (size_t steps = 0; steps <= n; steps++) {
            if (strcmp(sp[at].kind, "agent") == 0) {
                head = at;
                if (sp[i].agent == (size_t)-1)
                    sp[i].agent = at;
                if (nearest)
                    break;
            }
            size_t up;
            if (!sp[at].parent[0] ||
                !ids_get(&byid, sp[at].parent, strlen(sp[at].parent), &up))
                break;
            at = up;
        }
        sp[i].episode = head;
        agents |= head != (size_t)-1;
    }
    /* what is said of it is its service's run's, as write_episode names
     * the run */
    const char *service = NULL;
    for (size_t i = 0; !service && i < n; i++)
        service = text(sp[i].f[R_SV]);
    if (rc == 0 && lr_problem_run(m->r, service ? service : "otel") < 0)
        rc = nomem(e);
    /* a tool span, or a chat span that shows calls, outside every agent
     * span of a trace that has some (its parent not in the trace, or no
     * agent above it): it joins the trace's one agent; with several, it
     * is said, never dropped without a word */
    size_t heads = 0, only = (size_t)-1;
    for (size_t i = 0; agents && i < n; i++)
        if (!sp[i].dup && sp[i].episode == i) {
            heads++;
            only = i;
        }
    log_counts *c = m->c;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        if (sp[i].dup) {
            c->skipped++; /* its first delivery is read */
            continue;
        }
        if (!agents)
            sp[i].episode = n;
        int calls = strcmp(sp[i].kind, "tool") == 0 ||
                    (strcmp(sp[i].kind, "chat") == 0 && sp[i].f[R_TC]);
        if (sp[i].episode == (size_t)-1 && calls && heads == 1) {
            sp[i].episode = only;
        } else if (sp[i].episode == (size_t)-1 && calls) {
            c->refused++;
            char place[160], why[96];
            size_t up;
            call_text(sp, i, 0, place, sizeof place);
            if (!sp[i].parent[0])
                snprintf(why, sizeof why, "it has no parent");
            else if (!ids_get(&byid, sp[i].parent, strlen(sp[i].parent),
                              &up))
                snprintf(why, sizeof why, "its parent %s is not in the "
                                          "trace", sp[i].parent);
            else
                snprintf(why, sizeof why, "no agent span is above it");
            rc = lr_problem(m->r, place, NULL,
                            "a %s span outside the agent spans of trace %s "
                            "(%s), which has %zu of them: which episode it "
                            "belongs to is not known; it is skipped",
                            sp[i].kind, t->id, why, heads);
            continue;
        }
        if (sp[i].episode == (size_t)-1 || !sp[i].kind[0])
            c->skipped++; /* no GenAI operation, or outside the agents */
        else
            c->read++;
    }
    for (size_t i = 0; rc == 0 && i <= n; i++) {
        if (i == n ? agents : sp[i].episode != i)
            continue;
        rc = write_episode(m, a, t, sp, n, i, whole, e);
    }
    ids_free(&byid);
    return rc;
}

/* The value of a trace's id in ids once the trace is written before the
 * input's end: a span of it that comes later is said, not taken for a
 * new trace. */
#define WRITTEN_EARLY ((size_t)-1)

/* Frees the open trace in slot; its id is forgotten, or, written early,
 * kept as WRITTEN_EARLY.  -1 out of memory. */
static int drop_trace(struct oread *m, size_t slot, int early)
{
    struct trace *t = m->open[slot];
    int rc = 0;
    if (t->rooted)
        m->rooted--;
    m->live--;
    if (early)
        rc = keymap_put(&m->ids, t->id, 32, WRITTEN_EARLY);
    else
        keymap_remove(&m->ids, t->id, 32);
    m->kept -= t->counted;
    buf_free(&t->spans);
    free(t);
    m->open[slot] = NULL;
    return rc;
}

/* write_trace, on the lines of the file the trace's last span was read
 * from (the file being read, or one before it: lines.h, lr_as_file). */
static int write_held(struct oread *m, struct trace *t, int whole, err *e)
{
    lr_as_file(m->r, t->file);
    int rc = write_trace(m, t, whole, e);
    lr_as_file(m->r, lr_file_no(m->r));
    return rc;
}

/* Makes room before the input's end: writes whole the trace seen first
 * of those whose root span is read (its spans come before it, as a
 * rule); when there is none, the trace seen first, without its end. */
static int close_oldest(struct oread *m, err *e)
{
    while (m->head < m->n && !m->open[m->head])
        m->head++;
    if (m->head == m->n)
        return 0;
    for (size_t i = m->rooted_from > m->head ? m->rooted_from : m->head;
         m->rooted && i < m->n; i++) {
        if (!m->open[i] || !m->open[i]->rooted)
            continue;
        m->rooted_from = i + 1;
        int rc = write_held(m, m->open[i], 1, e);
        if (drop_trace(m, i, 1) < 0 && rc == 0)
            rc = nomem(e);
        return rc;
    }
    struct trace *t = m->open[m->head];
    int rc = lr_problem(m->r, m->place, NULL,
                        "trace %s is written before the input's end, to "
                        "keep at most %u traces or %u MiB of their spans "
                        "open: written without its end, it is replayed as "
                        "unfinished",
                        t->id, OTLP_OPEN_MAX, OTLP_KEPT_MAX >> 20);
    if (rc == 0)
        rc = write_held(m, t, 0, e);
    if (drop_trace(m, m->head, 1) < 0 && rc == 0)
        rc = nomem(e);
    return rc;
}

/* ------------------------------------------------------------ reading */

/* Where a span is in the record: resource r's scope s's span k. */
struct span_at {
    size_t r, s, k;
};

static void span_path(const struct oread *m, const struct span_at *at,
                      char *out, size_t size)
{
    if (m->event) /* a GenAI event of the Logs signal */
        snprintf(out, size,
                 "$.resourceLogs[%zu].scopeLogs[%zu].logRecords[%zu]",
                 m->event->r, m->event->s, m->event->k);
    else if (m->jaeger) /* its span r, made a ResourceSpans of its own */
        snprintf(out, size, "%s.spans[%zu]", m->jaeger, at->r);
    else
        snprintf(out, size, "$.%s[%zu].scopeSpans[%zu].spans[%zu]",
                 m->list_key ? m->list_key : "resourceSpans", at->r, at->s,
                 at->k);
}

/* A span refused: counted, and said at its place; 0, or 1 to stop (as
 * lr_problem). */
static int refuse(struct oread *m, const struct span_at *at,
                  const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int refuse(struct oread *m, const struct span_at *at,
                  const char *fmt, ...)
{
    char path[128], why[800];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    m->c->refused++;
    span_path(m, at, path, sizeof path);
    return lr_problem(m->r, m->place, path, "%s", why);
}

static int read_span(struct oread *m, const value *span,
                     const value *const res[SA_COUNT],
                     const struct span_at *at, err *e)
{
    logr *r = m->r;
    char tid[33], sid[17], pid[17] = "";
    int empty;
    m->c->records++;
    m->seq++;
    /* its problems are those of its service's run (write_episode's) */
    const value *sv = value_getz(res[SA_SERVICE], "stringValue");
    arena_reset(m->a);
    if (sv && sv->kind == V_STRING && !(sv = json_unescaped(m->a, sv)))
        return nomem(e);
    if (lr_problem_run(r, sv && sv->kind == V_STRING ? sv->u.str.ptr
                                                     : "otel") < 0)
        return nomem(e);
    struct span_members f;
    span_members(span, &f);
    if (m->event && (hex_id(f.trace, 32, tid, &empty) < 0 ||
                     hex_id(f.parent, 16, pid, &empty) < 0)) {
        return refuse(m, at,
                      "a GenAI event without the traceId (32 hex digits) "
                      "and spanId (16) of the span it is an event of: "
                      "which episode it belongs to is not known; it is "
                      "skipped");
    }
    if (hex_id(f.trace, 32, tid, &empty) < 0 ||
        hex_id(f.id, 16, sid, &empty) < 0) {
        return refuse(m, at, "a span without a traceId of 32 hex digits and a "
                      "spanId of 16 (OTLP JSON writes ids in hex, not "
                      "base64): it is skipped");
    }
    if (hex_id(f.parent, 16, pid, &empty) < 0 &&
        !empty) {
        return refuse(m, at, "a span whose parentSpanId is not 16 hex digits: "
                      "it is skipped");
    }
    int genai;
    value *rv[R_COUNT];
    value *rec;
    m->tid = tid;
    m->hist_off = 0;
    for (;;) {
        arena_reset(m->a);
        m->bad[0] = '\0';
        m->key = NULL;
        m->hist_hit = 0;
        m->hist_read.trace[0] = '\0';
        rec = span_record(m, &f, res, sid, pid, &genai, rv);
        /* read on from a kept history, the record took less than reading
         * it whole would have (never more than HISTORY_GROWTH times its
         * text): near the limit, it is read whole, which tells whether
         * the span is within it */
        if (!m->hist_hit || m->hist_off ||
            (!arena_over(m->a) &&
             arena_used(m->a) + HISTORY_GROWTH * m->hist_hit <
                 LOG_RECORD_MAX))
            break;
        m->hist_off = 1;
    }
    m->tid = NULL;
    if (arena_over(m->a)) { /* some value could not be read whole */
        return refuse(m, at,
                      "the span's values read as a tree larger than the "
                      "limit of %u MiB a record: the span is skipped",
                      LOG_RECORD_MAX >> 20);
    }
    if (!rec)
        return nomem(e);
    if (m->bad[0]) { /* one value of a wrong shape costs its span */
        return refuse(m, at, "%s: the span is skipped", m->bad);
    }
    size_t text;
    if (canon_loose_length(rec, &text, e) < 0) {
        if (e->code == ERR_NOMEM)
            return -1;
        /* what no transcript line can carry: its span alone is lost */
        char why[sizeof e->msg];
        snprintf(why, sizeof why, "%s", e->msg);
        err_clear(e);
        return refuse(m, at, "%s: the span is skipped", why);
    }
    /* a record that refers to a history's calls and answers counts what
     * putting them back in front takes when its trace is written (a
     * pointer each), so that the bound holds on that too */
    if (rv[R_H])
        text += 64 + 8 * (size_t)(num(value_getz(rv[R_H], "c")) +
                                  num(value_getz(rv[R_H], "a")));
    /* packed before its trace is looked up: a span refused here leaves
     * no trace behind it */
    buf_reset(&m->pk);
    int got = pack_record(&m->pk, rv);
    if (got < 0 || m->pk.failed)
        return nomem(e);
    if (got == 1) {
        return refuse(m, at, "a value of the span is not one that JSON text "
                      "reads back as itself: the span is skipped");
    }
    size_t slot;
    struct trace *t;
    int known = keymap_get(&m->ids, tid, 32, &slot);
    if (known && slot == WRITTEN_EARLY) {
        return refuse(m, at, "a span of trace %s, which was written before "
                      "the input's end to keep at most %u traces or "
                      "%u MiB of their spans open: it comes too late, "
                      "and is skipped",
                      tid, OTLP_OPEN_MAX, OTLP_KEPT_MAX >> 20);
    }
    if (known) {
        t = m->open[slot];
    } else {
        while (m->live >= OTLP_OPEN_MAX ||
               (m->kept > OTLP_KEPT_MAX && m->live)) {
            int rc = close_oldest(m, e);
            if (rc)
                return rc;
        }
        if (m->n >= 64 && m->n - m->live >= m->live) {
            /* the written traces' slots are given back, the open ones
             * kept in the order they were seen */
            size_t k = 0;
            for (size_t i = 0; i < m->n; i++)
                if (m->open[i]) {
                    m->open[k] = m->open[i];
                    if (keymap_put(&m->ids, m->open[k]->id, 32, k) < 0)
                        return nomem(e);
                    k++;
                }
            m->n = k;
            m->head = 0;
            m->rooted_from = 0;
        }
        if (m->n == m->cap) {
            size_t cap = m->cap ? 2 * m->cap : 64;
            struct trace **more = realloc(m->open, cap * sizeof *more);
            if (!more)
                return nomem(e);
            m->open = more;
            m->cap = cap;
        }
        if (!(t = calloc(1, sizeof *t)))
            return nomem(e);
        memcpy(t->id, tid, sizeof tid);
        m->open[m->n] = t;
        if (keymap_put(&m->ids, tid, 32, m->n) < 0) {
            free(t);
            return nomem(e);
        }
        slot = m->n++;
        m->live++;
    }
    if (!pid[0] && !t->rooted) {
        t->rooted = 1;
        m->rooted++;
        if (slot < m->rooted_from)
            m->rooted_from = slot;
    }
    if (buf_append(&t->spans, m->pk.data, m->pk.len) < 0)
        return nomem(e);
    t->file = lr_file_no(m->r);
    history_kept(m);
    m->kept += text + 1;
    t->counted += text + 1;
    t->nspans++;
    /* the bound holds as spans come, inside one trace too: past it, room
     * is made as for a new trace (this one may be the one written) */
    while (m->kept > OTLP_KEPT_MAX && m->live) {
        int rc = close_oldest(m, e);
        if (rc)
            return rc;
    }
    return 0;
}

static int read_resource_spans(struct oread *m, const value *rs,
                               size_t index, err *e)
{
    const value *res[SA_COUNT];
    find_attrs(&m->keys, value_getz(value_getz(rs, "resource"), "attributes"),
               res);
    const value *scopes = value_getz(rs, "scopeSpans");
    if (!scopes) /* the name before OTLP 1.0 */
        scopes = value_getz(rs, "instrumentationLibrarySpans");
    for (size_t i = 0; scopes && scopes->kind == V_ARRAY &&
                       i < scopes->u.arr.len;
         i++) {
        const value *spans = value_getz(scopes->u.arr.items[i], "spans");
        for (size_t k = 0; spans && spans->kind == V_ARRAY &&
                           k < spans->u.arr.len;
             k++) {
            struct span_at at = {index, i, k};
            int rc = read_span(m, spans->u.arr.items[k], res, &at, e);
            if (rc)
                return rc;
        }
    }
    return 0;
}

/* jaeger_each's fn: a span of a Jaeger trace, read as its ResourceSpans
 * (span_path names it by k). */
struct spans_read {
    struct oread *m;
    err *e;
};

static int read_jaeger_span(void *ctx, const value *rs, size_t k)
{
    struct spans_read *sr = ctx;
    return read_resource_spans(sr->m, rs, k, sr->e);
}

/* A Jaeger trace (jaeger.h) at path, read as the ResourceSpans it
 * makes, a span at a time. */
static int read_jaeger(struct oread *m, const value *trace, const char *path,
                       err *e)
{
    struct spans_read sr = {m, e};
    m->jaeger = path;
    int rc = jaeger_each(m->ja, trace, read_jaeger_span, &sr);
    m->jaeger = NULL;
    return rc == JAEGER_NOMEM ? nomem(e) : rc;
}

/* otlplogs_each's fn: a GenAI event, read as a span of the trace it
 * names. */
static int read_event(void *ctx, const value *rs, const otlplogs_at *at)
{
    struct spans_read *er = ctx;
    er->m->event = at;
    int rc = read_resource_spans(er->m, rs, at->r, er->e);
    er->m->event = NULL;
    return rc;
}

/* The GenAI events of a line of the Logs signal, each read as a span of
 * the trace it names (otlplogs.h); its other records are passed over. */
static int read_events(struct oread *m, const value *v, err *e)
{
    struct spans_read er = {m, e};
    int rc = otlplogs_each(m->ja, v, read_event, &er);
    return rc == OTLPLOGS_NOMEM ? nomem(e) : rc;
}

/* What an export holds: OTLP's {"resourceSpans": [...]}, Tempo's
 * {"batches": [...]} (its API's first form) or {"trace": {...}} (its
 * second), Jaeger v2's {"result": {...}} (its API v3), Jaeger's {"data":
 * [trace...]} or a trace of it.  A line of another signal (the Collector
 * writes logs and metrics to the same file when told to) holds no span:
 * it is passed over, and not a problem. */
static int read_export(struct oread *m, const value *v, const char *place,
                       err *e)
{
    const value *inner = value_getz(v, "trace");
    if (!inner || inner->kind != V_OBJECT)
        inner = value_getz(v, "result");
    if (inner && inner->kind == V_OBJECT && !jaeger_is_trace(v))
        v = inner;
    if (!value_getz(v, "resourceSpans") && value_getz(v, "resourceLogs"))
        return read_events(m, v, e);
    if (!value_getz(v, "resourceSpans") && value_getz(v, "resourceMetrics"))
        return 0;
    static const char *const lists[] = {"resourceSpans", "batches"};
    for (size_t k = 0; k < 2; k++) {
        const value *list = value_getz(v, lists[k]);
        if (!list || list->kind != V_ARRAY)
            continue;
        m->list_key = lists[k];
        for (size_t i = 0; i < list->u.arr.len; i++) {
            int rc = read_resource_spans(m, list->u.arr.items[i], i, e);
            if (rc)
                return rc;
        }
        return 0;
    }
    const value *data = value_getz(v, "data");
    if (data && data->kind == V_ARRAY) {
        for (size_t i = 0; i < data->u.arr.len; i++) {
            char path[48];
            snprintf(path, sizeof path, "$.data[%zu]", i);
            int rc = read_jaeger(m, data->u.arr.items[i], path, e);
            if (rc)
                return rc;
        }
        return 0;
    }
    if (jaeger_is_trace(v))
        return read_jaeger(m, v, "$", e);
    return lr_problem(m->r, place, NULL,
                      "not a trace export: no \"resourceSpans\" list (nor "
                      "Tempo's \"batches\", nor Jaeger's \"data\"); "
                      "skipped");
}

static int on_record(void *ctx, const char *place, const char *key,
                     size_t index, const value *v, const char *bad, err *e)
{
    struct oread *m = ctx;
    m->place = place;
    if (!v)
        return lr_problem(m->r, place, NULL, "%s", bad);
    if (key && index != (size_t)-1) { /* an item of a document's list */
        if (strcmp(key, "data") == 0) { /* a Jaeger trace */
            char path[48];
            snprintf(path, sizeof path, "$.data[%zu]", index);
            return read_jaeger(m, v, path, e);
        }
        m->list_key = strcmp(key, "batches") == 0 ? "batches"
                                                   : "resourceSpans";
        return read_resource_spans(m, v, index, e);
    }
    if (key) { /* a member of a document, whole */
        if ((strcmp(key, "trace") == 0 || strcmp(key, "result") == 0) &&
            v->kind == V_OBJECT)
            return read_export(m, v, place, e);
        return 0;
    }
    if (!place && index != (size_t)-1 && jaeger_is_trace(v)) {
        char path[48]; /* an array of Jaeger traces */
        snprintf(path, sizeof path, "$[%zu]", index);
        return read_jaeger(m, v, path, e);
    }
    return read_export(m, v, place, e);
}

/* The reader's state, kept from one file to the next (lr_hold): the
 * traces still open go on in the next file. */
static void oread_free(void *p)
{
    struct oread *m = p;
    if (!m)
        return;
    for (size_t i = m->head; i < m->n; i++)
        if (m->open[i]) {
            buf_free(&m->open[i]->spans);
            free(m->open[i]);
        }
    free(m->open);
    keymap_free(&m->ids);
    lrc_free(&m->calls);
    arena_free(m->a);
    arena_free(m->wa);
    arena_free(m->ja);
    free(m->sp);
    buf_free(&m->pk);
    for (size_t i = 0; i < OTLP_HISTORIES; i++)
        buf_free(&m->hist[i].text);
    buf_free(&m->hist_read.text);
    buf_free(&m->hist_tail);
    free(m);
}

static struct oread *oread_new(logr *r)
{
    struct oread *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->r = r;
    m->c = lr_counts(r);
    attr_index_make(&m->keys);
    m->calls.place = call_place;
    m->calls.place_ctx = m;
    m->a = arena_new();
    m->wa = arena_new();
    m->ja = arena_new();
    if (!m->a || !m->wa || !m->ja) {
        oread_free(m);
        return NULL;
    }
    arena_limit(m->a, LOG_RECORD_MAX); /* one span's record */
    /* trace ids come from input: hashed with a seed of its own, so that
     * no crafted ids can make the table's probes long */
    keymap_secret(&m->ids);
    return m;
}

static int otlp_read(logr *r, const log_input *in, err *e)
{
    struct oread *m = lr_held(r, &otlp_reader);
    if (!m) {
        if (!(m = oread_new(r)))
            return nomem(e);
        lr_hold(r, &otlp_reader, m, oread_free);
    }
    m->place = NULL;
    static const char *const streamed[] = {"resourceSpans", "batches",
                                           "data", NULL};
    /* strings of AnyValues are read as written, and decoded when they
     * are used: a chat span's history is compared to the last one of its
     * trace as written, and only its new messages decoded */
    int rc = lr_read_json_lazy(r, in->fd, streamed, "stringValue",
                               on_record, m, e);
    m->place = NULL;
    if (rc != 0)
        lr_release(r); /* the reading stops: nothing more is written */
    return rc;
}

/* The input's end (the last of the OTLP files read one after the
 * other): every trace still open is written, first seen first, each as
 * its file's. */
static int otlp_finish(logr *r, err *e)
{
    struct oread *m = lr_held(r, &otlp_reader);
    int rc = 0;
    for (size_t i = m ? m->head : 0; m && i < m->n; i++)
        if (m->open[i]) {
            if (rc == 0)
                rc = write_held(m, m->open[i], 1, e);
            drop_trace(m, i, 0);
        }
    return rc;
}

const log_reader otlp_reader = {"otlp", "span", "spans", 1, otlp_read,
                                otlp_finish};
