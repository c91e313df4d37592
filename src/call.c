/* call: see call.h. */
#include "call.h"

#include <string.h>

#include "json_load.h"

static const char *const shape_names[] = {"plain", "openai", "anthropic",
                                          "mcp"};

const char *call_shape_name(enum call_shape s)
{
    return shape_names[s];
}

static int is_string(const value *v, const char *s)
{
    return v && v->kind == V_STRING && strcmp(v->u.str.ptr, s) == 0;
}

/* Arguments as given: an object (or any value, which the simulator
 * refuses), JSON text, or nothing. */
static int read_args(call_view *out, arena *a, const value *args, err *e)
{
    out->args = NULL;
    out->bad_args = NULL;
    out->raw_args = NULL;
    out->raw_args_len = 0;
    if (!args || args->kind == V_NULL)
        return 0;
    if (args->kind != V_STRING) {
        out->args = args;
        return 0;
    }
    value *parsed = NULL;
    err pe;
    err_clear(&pe);
    if (json_load(&parsed, a, args->u.str.ptr, args->u.str.len, &pe) < 0) {
        if (pe.code == ERR_NOMEM)
            return err_set(e, ERR_NOMEM, "out of memory reading a call");
        char *why = arena_memdup(a, pe.msg, strlen(pe.msg));
        if (!why)
            return err_set(e, ERR_NOMEM, "out of memory reading a call");
        out->bad_args = why;
        out->raw_args = args->u.str.ptr;
        out->raw_args_len = args->u.str.len;
        return 0;
    }
    out->args = parsed;
    return 0;
}

int call_read(call_view *out, arena *a, const value *v, err *e)
{
    const value *name = NULL, *args = NULL;
    memset(out, 0, sizeof *out);
    if (!v || v->kind != V_OBJECT) {
        return err_set(e, ERR_VALUE, "a call must be a JSON object, not %s",
                       value_kind_phrase(v ? (value_kind)v->kind : V_NULL));
    }
    const value *params = value_getz(v, "params");
    const value *function = value_getz(v, "function");
    if (is_string(value_getz(v, "method"), "tools/call") && params &&
        params->kind == V_OBJECT) {
        out->shape = CALL_MCP;
        name = value_getz(params, "name");
        args = value_getz(params, "arguments");
    } else if (function && function->kind == V_OBJECT) {
        out->shape = CALL_OPENAI;
        name = value_getz(function, "name");
        args = value_getz(function, "arguments");
    } else if (is_string(value_getz(v, "type"), "tool_use")) {
        out->shape = CALL_ANTHROPIC;
        name = value_getz(v, "name");
        args = value_getz(v, "input");
    } else {
        out->shape = CALL_PLAIN;
        name = value_getz(v, "name");
        args = value_getz(v, "arguments");
    }
    if (!name)
        return err_set(e, ERR_VALUE,
                       "a call needs a tool name: {\"name\", \"arguments\"}, "
                       "an OpenAI tool_call, an Anthropic tool_use block or "
                       "an MCP tools/call request");
    if (name->kind != V_STRING)
        return err_set(e, ERR_VALUE, "a call's tool name must be a string, "
                                     "not %s",
                       value_kind_name((value_kind)name->kind));
    out->name = name->u.str.ptr;
    out->name_len = name->u.str.len;
    return read_args(out, a, args, e);
}
