/* answer: see answer.h. */
#include "answer.h"

#include <string.h>

#include "canon.h"
#include "draw.h"
#include "schema.h"
#include "shape.h"

static const struct {
    const char *code;
    int status;
} errors[] = {
    [SIM_NOT_FOUND] = {"not_found", 404},
    [SIM_INVALID_ARGUMENTS] = {"invalid_arguments", 422},
    [SIM_NOT_READY] = {"not_ready", 409},
    [SIM_UNAVAILABLE] = {"unavailable", 503},
    [SIM_TIMEOUT] = {"timeout", 504},
    [SIM_RATE_LIMITED] = {"rate_limited", 429},
};

const char *sim_error_code(enum sim_error code)
{
    return errors[code].code;
}

int sim_error_status(enum sim_error code)
{
    return errors[code].status;
}

int answer_error(buf *out, enum tool_format format, enum sim_error code,
                 const char *message)
{
    int retry = code == SIM_RATE_LIMITED;
    int rc = 0;
    switch (format) {
    case TOOLS_OPENAI:
        rc |= buf_printf(out, "{\"error\":{\"code\":\"%s\",\"message\":",
                         errors[code].code);
        rc |= canon_write_string(out, message, strlen(message));
        rc |= buf_puts(out, retry ? ",\"retry_after\":1}}" : "}}");
        break;
    case TOOLS_MCP:
        rc |= buf_puts(out, "{\"content\":[{\"text\":");
        rc |= canon_write_string(out, message, strlen(message));
        rc |= buf_puts(out, ",\"type\":\"text\"}],\"isError\":true}");
        break;
    case TOOLS_OPENAPI:
        rc |= buf_puts(out, "{\"detail\":");
        rc |= canon_write_string(out, message, strlen(message));
        rc |= buf_printf(out, "%s,\"status\":%d}",
                         retry ? ",\"retry_after\":1" : "", errors[code].status);
        break;
    }
    return rc < 0 ? -1 : 0;
}

static value *text(arena *a, const char *s)
{
    return value_new_text(a, V_STRING, s, strlen(s), 0, 0);
}

int answer_draw(value **out, arena *a, const toolset *ts, const tool *t,
                const value *args, uint64_t seed, err *e)
{
    buf canon = BUF_INIT;
    int rc = 0;
    if (args) {
        rc = canon_write(&canon, args, e);
    } else if (buf_puts(&canon, "{}") < 0) {
        rc = err_set(e, ERR_NOMEM, "out of memory drawing an answer");
    }
    if (rc == 0)
        rc = answer_draw_canonical(out, a, ts, t, canon.data, canon.len, seed,
                                   e);
    buf_free(&canon);
    return rc;
}

int answer_draw_canonical(value **out, arena *a, const toolset *ts,
                          const tool *t, const char *args_json, size_t len,
                          uint64_t seed, err *e)
{
    draw_key k;
    draw_key_init(&k, ts->doc->file_sha256, seed, t->name, args_json, len);
    if (t->output_schema)
        return draw_value_with(out, a, ts->doc->root, ts->patterns,
                               t->output_schema, &k, "$", e);

    /* {"ok": true, "id": "A-3317"}: an id of six characters, drawn from
     * {"type":"string","minLength":6,"maxLength":6}, built here once and
     * for all rather than read for each answer. */
    static const value type_key = {.kind = V_STRING, .u.str = {"type", 4}};
    static const value min_key = {.kind = V_STRING,
                                  .u.str = {"minLength", 9}};
    static const value max_key = {.kind = V_STRING,
                                  .u.str = {"maxLength", 9}};
    static const value string = {.kind = V_STRING, .u.str = {"string", 6}};
    static const value six = {.kind = V_INT, .u.str = {"6", 1}};
    static const value_member id_members[] = {
        {(value *)&type_key, (value *)&string},
        {(value *)&min_key, (value *)&six},
        {(value *)&max_key, (value *)&six}};
    static const value id_schema = {
        .kind = V_OBJECT,
        .u.obj = {(value_member *)id_members,
                  sizeof id_members / sizeof id_members[0]}};
    value *id = NULL;
    value *o = value_new(a, V_OBJECT, 0, 0);
    value *ok = value_new(a, V_BOOL, 0, 0);
    value_member *m = arena_alloc(a, 2 * sizeof *m);
    if (!o || !ok || !m)
        return err_set(e, ERR_NOMEM, "out of memory drawing an answer");
    if (draw_value(&id, a, &id_schema, &id_schema, &k, "$.id", e) < 0)
        return -1;
    ok->u.b = 1;
    m[0].key = text(a, "ok");
    m[0].val = ok;
    m[1].key = text(a, "id");
    m[1].val = id;
    if (!m[0].key || !m[1].key)
        return err_set(e, ERR_NOMEM, "out of memory drawing an answer");
    o->u.obj.items = m;
    o->u.obj.len = 2;
    *out = o;
    return 0;
}

/* The member of object o keyed by the string k, as an index, or -1. */
static long member_at(const value_member *m, size_t n, const value *k)
{
    for (size_t i = 0; i < n; i++)
        if (m[i].key->kind == V_STRING && m[i].key->u.str.len == k->u.str.len &&
            memcmp(m[i].key->u.str.ptr, k->u.str.ptr, k->u.str.len) == 0)
            return (long)i;
    return -1;
}

int answer_place_args(value **out, arena *a, const toolset *ts,
                      const tool *t, const value *answer, const value *args,
                      err *e)
{
    *out = (value *)answer;
    if (!args || args->kind != V_OBJECT || answer->kind != V_OBJECT)
        return 0;
    const value *root = ts->doc->root;
    shape sh = {.n = 0};
    if (t->output_schema) {
        /* the members drawing merged: allOf, and the branch it drew */
        if (shape_of(&sh, root, t->output_schema, answer) < 0)
            return err_set(e, ERR_NOMEM, "out of memory placing arguments");
        size_t at = 0;
        if (!shape_next(&sh, &at))
            return 0; /* nowhere to put them: the answer as drawn */
    }
    size_t cap = answer->u.obj.len + args->u.obj.len;
    value_member *m = arena_alloc(a, cap * sizeof *m);
    value *o = value_new(a, V_OBJECT, 0, 0);
    if (!m || !o)
        return err_set(e, ERR_NOMEM, "out of memory placing arguments");
    memcpy(m, answer->u.obj.items, answer->u.obj.len * sizeof *m);
    size_t n = answer->u.obj.len;
    for (size_t i = 0; i < args->u.obj.len; i++) {
        value *k = args->u.obj.items[i].key;
        value *v = args->u.obj.items[i].val;
        if (k->kind != V_STRING)
            continue;
        if (t->output_schema) {
            /* every part that describes the field must take the value */
            const value *defs[SHAPE_MAX];
            size_t nd = shape_field(&sh, k->u.str.ptr, k->u.str.len, defs,
                                    SHAPE_MAX);
            int fits = nd > 0;
            for (size_t d = 0; d < nd && fits; d++) {
                int r = schema_check_with(root, ts->patterns, defs[d], v,
                                          "the value", NULL);
                if (r < 0)
                    return err_set(e, ERR_NOMEM,
                                   "out of memory placing arguments");
                /* undecided (2) fits, as it always did: the answers
                 * of recorded nights do not change */
                fits = r == 0 || r == 2;
            }
            if (!fits)
                continue; /* not described, or does not fit: as drawn */
        }
        long at = member_at(m, n, k);
        if (at >= 0) {
            m[at].val = v;
        } else {
            m[n].key = k;
            m[n++].val = v;
        }
    }
    o->u.obj.items = m;
    o->u.obj.len = n;
    *out = o;
    return 0;
}
