/* chain: see chain.h; the rules are written out in docs/simulator.md. */
#include "chain.h"

#include <string.h>

#include "arena.h"
#include "err.h"
#include "schema.h"

/* Whether an argument takes any free string: its type admits a string,
 * and no enum or const narrows it. */
static int free_string(const toolset *ts, const tool_arg *a)
{
    err e;
    const value *s = schema_deref(ts->doc->root, a->schema, &e);
    if (!s || s->kind != V_OBJECT || schema_kw(s, "enum") ||
        schema_kw(s, "const"))
        return 0;
    const char *p = a->type;
    size_t n = strlen("string");
    for (;;) {
        if (strncmp(p, "string", n) == 0 && (p[n] == '\0' || p[n] == '|'))
            return 1;
        p = strchr(p, '|');
        if (!p)
            return 0;
        p++;
    }
}

static const tool_arg *arg_named(const tool *t, const char *name)
{
    for (size_t i = 0; i < t->nargs; i++)
        if (strcmp(t->args[i].name, name) == 0)
            return &t->args[i];
    return NULL;
}

/* Whether the output-schema property m takes free strings. */
static int free_string_field(const toolset *ts, const value_member *m)
{
    tool_arg a = {0};
    if (m->key->kind != V_STRING)
        return 0;
    err e;
    const value *s = schema_deref(ts->doc->root, m->val, &e);
    const value *type = s && s->kind == V_OBJECT ? schema_kw(s, "type") : NULL;
    if (!type)
        return 0;
    if (type->kind == V_STRING) {
        a.type = type->u.str.ptr;
    } else if (type->kind == V_ARRAY) {
        for (size_t i = 0; i < type->u.arr.len; i++)
            if (type->u.arr.items[i]->kind == V_STRING &&
                strcmp(type->u.arr.items[i]->u.str.ptr, "string") == 0)
                a.type = "string";
    }
    if (!a.type)
        return 0;
    a.schema = m->val;
    return free_string(ts, &a);
}

/* The members of t's answers and their free-string ones, into ct. */
static int tool_facts(toolset *ts, const tool *t, chain_tool *ct)
{
    ct->out.n = 0;
    ct->free_fields = NULL;
    ct->nfree_fields = 0;
    if (!t->output_schema) /* no drawn value: no check, nothing to fail */
        return 0;
    shape_of(&ct->out, ts->doc->root, t->output_schema, NULL);
    size_t n = 0;
    for (size_t at = 0; shape_next(&ct->out, &at);)
        n++;
    if (!n)
        return 0;
    const value_member **f = arena_alloc(ts->arena, n * sizeof *f);
    if (!f)
        return -1;
    size_t at = 0;
    for (const value_member *m; (m = shape_next(&ct->out, &at));)
        if (free_string_field(ts, m))
            f[ct->nfree_fields++] = m;
    ct->free_fields = f;
    return 0;
}

/* Whether read r can hand a value: it has no output schema (the answer's
 * "id" holds it) or a free string field. */
static int can_hand(const tool *r, const chain_tool *ct)
{
    return !r->output_schema || ct->nfree_fields > 0;
}

/* The links of handed name h into l. */
static void links_of(const toolset *ts, const chain_tool *facts,
                     const char *h, chain_links *l)
{
    memset(l, 0, sizeof *l);
    l->name = h;
    for (size_t i = 0; i < ts->ntools; i++) {
        const tool *t = &ts->tools[i];
        const tool_arg *a = arg_named(t, h);
        if (t->kind == TOOL_WRITE && a && free_string(ts, a)) {
            if (l->nwrites < CHAIN_MAX_WRITES)
                l->writes[l->nwrites] = t;
            l->nwrites++;
        } else if (t->kind == TOOL_READ && !a && can_hand(t, &facts[i]) &&
                   l->nreads < CHAIN_MAX_READS) {
            l->reads[l->nreads++] = t;
            l->reads_with_args |= t->nargs > 0;
        }
    }
}

/* Whether argument j of write i is a handed name (see chain.h). */
static int handed_name(const toolset *ts, size_t i, size_t j)
{
    const tool *t = &ts->tools[i];
    const char *h = t->args[j].name;
    for (size_t k = 0; k < i; k++)
        if (ts->tools[k].kind == TOOL_WRITE && arg_named(&ts->tools[k], h))
            return 0;
    for (size_t k = 0; k < j; k++)
        if (strcmp(t->args[k].name, h) == 0)
            return 0;
    return free_string(ts, &t->args[j]);
}

int chain_analyse(toolset *ts)
{
    ts->chains = NULL;
    struct chains *c = arena_alloc(ts->arena, sizeof *c);
    chain_tool *facts =
        arena_alloc(ts->arena, (ts->ntools ? ts->ntools : 1) * sizeof *facts);
    if (!c || !facts)
        return -1;
    for (size_t i = 0; i < ts->ntools; i++)
        if (tool_facts(ts, &ts->tools[i], &facts[i]) < 0)
            return -1;
    size_t n = 0;
    for (size_t i = 0; i < ts->ntools; i++)
        for (size_t j = 0; ts->tools[i].kind == TOOL_WRITE &&
                           j < ts->tools[i].nargs;
             j++)
            n += (size_t)handed_name(ts, i, j);
    chain_links *names =
        arena_alloc(ts->arena, (n ? n : 1) * sizeof *names);
    if (!names)
        return -1;
    size_t k = 0;
    for (size_t i = 0; i < ts->ntools; i++)
        for (size_t j = 0; ts->tools[i].kind == TOOL_WRITE &&
                           j < ts->tools[i].nargs;
             j++)
            if (handed_name(ts, i, j))
                links_of(ts, facts, ts->tools[i].args[j].name, &names[k++]);
    c->tools = facts;
    c->names = names;
    c->nnames = n;
    ts->chains = c;
    return 0;
}

const chain_tool *chain_tool_of(const toolset *ts, const tool *t)
{
    return &ts->chains->tools[t - ts->tools];
}
