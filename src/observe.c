/* observe: see observe.h. */
#include "observe.h"

#include <stdio.h>
#include <string.h>

#include "canon.h"
#include "json_load.h"
#include "schema.h"

static int nomem(err *e)
{
    return err_set(e, ERR_NOMEM, "out of memory");
}

int observe_args(const toolset *ts, const tool *t, const value *args,
                 const char *bad_args, buf *canon, buf *rule, err *e)
{
    value empty = {.kind = V_OBJECT};
    err ce;
    buf_reset(canon);
    buf_reset(rule);
    if (!args)
        args = &empty;
    if (bad_args) {
        buf_printf(rule, "the arguments are not valid JSON: %s", bad_args);
        return rule->failed ? nomem(e) : 0;
    }
    if (canon_write(canon, args, &ce) < 0) {
        buf_reset(canon);
        if (ce.code == ERR_NOMEM)
            return nomem(e);
        if (args->kind == V_OBJECT) { /* NaN, an infinity, a lone surrogate */
            if (strncmp(ce.path, "$.", 2) == 0)
                buf_printf(rule, "argument \"%.200s\": %.300s", ce.path + 2,
                           ce.msg);
            else
                buf_printf(rule, "the arguments: %.300s", ce.msg);
            return rule->failed ? nomem(e) : 0;
        }
    }
    if (args->kind != V_OBJECT) {
        buf_printf(rule, "the arguments must be an object, not %s",
                   value_kind_phrase((value_kind)args->kind));
        return rule->failed ? nomem(e) : 0;
    }
    int bad = schema_check_with(ts->doc->root, ts->patterns, t->input_schema,
                                args, "the arguments", rule);
    if (bad < 0)
        return nomem(e);
    return bad == 2 ? 2 : !bad;
}

/* JSON text's value, parsed into a; NULL when it is not JSON. */
static const value *parsed(const value *text, arena *a, int *oom)
{
    value *v = NULL;
    err e;
    if (json_load(&v, a, text->u.str.ptr, text->u.str.len, &e) < 0) {
        *oom |= e.code == ERR_NOMEM;
        return NULL;
    }
    return v;
}

const value *observe_unwrap(const value *answer, arena *a, int *oom)
{
    if (answer->kind == V_STRING)
        return parsed(answer, a, oom);
    if (answer->kind != V_OBJECT)
        return answer;
    const value *err_flag = value_getz(answer, "isError");
    const value *sc = value_getz(answer, "structuredContent");
    const value *content = value_getz(answer, "content");
    if (!sc && (!content || content->kind != V_ARRAY))
        return answer; /* an object of the tool's own */
    if (err_flag && err_flag->kind == V_BOOL && err_flag->u.b)
        return NULL;
    if (sc)
        return sc;
    if (content->u.arr.len != 1)
        return NULL;
    const value *block = content->u.arr.items[0];
    const value *type = value_getz(block, "type");
    const value *text = value_getz(block, "text");
    if (!type || type->kind != V_STRING || strcmp(type->u.str.ptr, "text") ||
        !text || text->kind != V_STRING)
        return NULL;
    return parsed(text, a, oom);
}

/* Whether s (len bytes) is a code as logs give one: a name of letters,
 * digits and "_.:-", 1 to 64 of them. */
static int code_like(const char *s, size_t len)
{
    if (len == 0 || len > 64)
        return 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
              (ch >= '0' && ch <= '9') || ch == '_' || ch == '.' ||
              ch == ':' || ch == '-'))
            return 0;
    }
    return 1;
}

/* Text an error answer of the "Error: ..." kind would be: a string, or an
 * MCP result's one text block; NULL otherwise. */
static const value *answer_text(const value *answer)
{
    if (answer->kind == V_STRING)
        return answer;
    const value *content = value_getz(answer, "content");
    if (answer->kind != V_OBJECT || !content || content->kind != V_ARRAY ||
        content->u.arr.len != 1)
        return NULL;
    const value *text = value_getz(content->u.arr.items[0], "text");
    return text && text->kind == V_STRING ? text : NULL;
}

int observe_error(const value *answer, arena *a, char *code, size_t size,
                  int *oom)
{
    if (!answer || size == 0)
        return 0;
    const value *flag = answer->kind == V_OBJECT
                            ? value_getz(answer, "isError") : NULL;
    if (flag && flag->kind == V_BOOL && flag->u.b) {
        snprintf(code, size, "is_error");
        return 1;
    }
    const value *text = answer_text(answer);
    if (text) {
        const char *p = text->u.str.ptr, *end = p + text->u.str.len;
        while (p < end && (*p == ' ' || *p == '\n' || *p == '\t' ||
                           *p == '\r'))
            p++;
        if ((size_t)(end - p) >= 6 && memcmp(p, "Error:", 6) == 0) {
            snprintf(code, size, "error_text");
            return 1;
        }
    }
    const value *v = observe_unwrap(answer, a, oom);
    if (!v || v->kind != V_OBJECT)
        return 0;
    const value *error = value_getz(v, "error");
    if (error && error->kind == V_OBJECT) {
        static const char *const keys[] = {"code", "type"};
        for (int k = 0; k < 2; k++) {
            const value *c = value_getz(error, keys[k]);
            if (c && (c->kind == V_STRING || c->kind == V_INT) &&
                code_like(c->u.str.ptr, c->u.str.len)) {
                snprintf(code, size, "%.*s", (int)c->u.str.len, c->u.str.ptr);
                return 1;
            }
        }
        snprintf(code, size, "error");
        return 1;
    }
    if (error && error->kind == V_STRING && error->u.str.len) {
        snprintf(code, size, "error");
        return 1;
    }
    const value *status = value_getz(v, "status");
    if (status && status->kind == V_INT && status->u.str.len == 3 &&
        (status->u.str.ptr[0] == '4' || status->u.str.ptr[0] == '5') &&
        (value_getz(v, "title") || value_getz(v, "type") ||
         value_getz(v, "detail"))) {
        snprintf(code, size, "http_%.3s", status->u.str.ptr);
        return 1;
    }
    return 0;
}

int observe_answer(const toolset *ts, const tool *t, const value *answer,
                   arena *a, buf *rule, err *e)
{
    int oom = 0;
    buf_reset(rule);
    if (!t->output_schema)
        return 2;
    const value *v = observe_unwrap(answer, a, &oom);
    if (oom)
        return nomem(e);
    if (!v)
        return 2;
    int bad = schema_check_with(ts->doc->root, ts->patterns, t->output_schema,
                                v, "the answer", rule);
    if (bad < 0)
        return nomem(e);
    return bad == 2 ? 3 : !bad;
}
