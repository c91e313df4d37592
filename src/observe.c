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
