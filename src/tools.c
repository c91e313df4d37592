/*
 * tools: see tools.h.
 *
 * The walk: recognise the format from the document's shape, hand each
 * candidate tool to the reader of its format, which either adds a tool or
 * a refusal.  All strings and built schemas live in the toolset's arena.
 */
#include "tools.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chain.h"
#include "draw.h"
#include "patterns.h"
#include "regex.h"
#include "schema.h"
#include "strmap.h"

struct builder {
    toolset *ts;
    const value *root;
    strmap names;                /* tool name -> index + 1 in tools */
    size_t tcap, rcap;
    int nomem;
};

static const char *kw_str(const value *o, const char *key)
{
    const value *v = value_getz(o, key);
    return v && v->kind == V_STRING ? v->u.str.ptr : NULL;
}

/* Whether the string v holds a NUL: as a tool's name, it would be cut
 * there (two tools "get_\u0000a" and "get_\u0000b" both "get_"). */
static int holds_nul(const value *v)
{
    return memchr(v->u.str.ptr, 0, v->u.str.len) != NULL;
}

#define NUL_IN_NAME                                                          \
    "its name holds a NUL character, which a name cannot hold (it would "   \
    "be cut there); remove it"

static char *dupf(struct builder *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static char *dupf(struct builder *b, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0)
        n = 0;
    if ((size_t)n >= sizeof tmp)
        n = sizeof tmp - 1;
    char *s = arena_memdup(b->ts->arena, tmp, (size_t)n);
    if (!s)
        b->nomem = 1;
    return s;
}

static void refuse(struct builder *b, const char *name, const value *where,
                   const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void refuse(struct builder *b, const char *name, const value *where,
                   const char *fmt, ...)
{
    toolset *ts = b->ts;
    if (ts->nrefused == b->rcap) {
        size_t cap = b->rcap ? b->rcap * 2 : 8;
        tool_refusal *r = realloc(ts->refused, cap * sizeof *r);
        if (!r) {
            b->nomem = 1;
            return;
        }
        ts->refused = r;
        b->rcap = cap;
    }
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    tool_refusal *r = &ts->refused[ts->nrefused];
    r->name = name ? name : "";
    r->reason = dupf(b, "%s", tmp);
    r->line = where ? where->line : 0;
    r->col = where ? where->col : 0;
    if (r->reason)
        ts->nrefused++;
}

/* schema_deref, remembering when it ran out of memory (which must fail
 * the whole table, not refuse one tool). */
static const value *deref(struct builder *b, const value *schema, err *e)
{
    const value *s = schema_deref(b->root, schema, e);
    if (!s && e->code == ERR_NOMEM)
        b->nomem = 1;
    return s;
}

/* ------------------------------------------------------------ kinds */

int tool_name_reads(const char *name, char *word, size_t size)
{
    static const char *const verbs[] = {
        "get",   "list",   "search",   "find",   "lookup",  "look",
        "fetch", "read",   "query",    "show",   "describe", "count",
        "check", "view",   "retrieve", "browse", "inspect", "status",
        NULL};
    size_t n = 0;
    for (size_t i = 0; name[i] && n + 1 < size; i++) {
        char c = name[i];
        if (c == '_' || c == '-' || c == '.')
            break;
        if (i > 0 && isupper((unsigned char)c) &&
            islower((unsigned char)name[i - 1]))
            break;
        word[n++] = (char)tolower((unsigned char)c);
    }
    word[n] = '\0';
    for (size_t i = 0; verbs[i]; i++)
        if (strcmp(word, verbs[i]) == 0)
            return 1;
    return 0;
}

static void kind_by_name(struct builder *b, tool *t)
{
    char word[64];
    t->kind_source = KIND_FROM_NAME;
    if (tool_name_reads(t->name, word, sizeof word)) {
        t->kind = TOOL_READ;
        t->kind_reason = dupf(b, "name starts with \"%s\"", word);
    } else {
        t->kind = TOOL_WRITE;
        t->kind_reason =
            dupf(b, "name starts with \"%s\", which is not a read verb", word);
    }
}

/* ------------------------------------------------------------ schemas */

/* A set of node addresses, so that a walk through recursive schemas
 * visits each node once. */
struct ptrset {
    const void **slots;
    size_t cap, n;
};

static int ptrset_add(struct ptrset *p, const void *ptr)
{
    if ((p->n + 1) * 2 > p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 64;
        const void **slots = calloc(cap, sizeof *slots);
        if (!slots)
            return -1;
        for (size_t i = 0; i < p->cap; i++) {
            if (!p->slots[i])
                continue;
            size_t j = ((uintptr_t)p->slots[i] >> 4) & (cap - 1);
            while (slots[j])
                j = (j + 1) & (cap - 1);
            slots[j] = p->slots[i];
        }
        free(p->slots);
        p->slots = slots;
        p->cap = cap;
    }
    size_t j = ((uintptr_t)ptr >> 4) & (p->cap - 1);
    while (p->slots[j]) {
        if (p->slots[j] == ptr)
            return 1;
        j = (j + 1) & (p->cap - 1);
    }
    p->slots[j] = ptr;
    p->n++;
    return 0;
}

/* Where the $ref chains of a walk end: each $ref node met (by address)
 * to the node its chain ends at, or CHAIN_OPEN while its chain is being
 * followed. */
struct chainmap {
    const value **keys, **ends;
    size_t cap, n;
    const value **path; /* the chain being followed */
    size_t npath, cappath;
};

static const value chain_open; /* a node no document holds */
#define CHAIN_OPEN (&chain_open)

static size_t chain_slot(const struct chainmap *m, const value *key)
{
    uint64_t h = (uint64_t)(uintptr_t)key;
    h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
    h ^= h >> 31;
    size_t j = (size_t)h & (m->cap - 1);
    while (m->keys[j] && m->keys[j] != key)
        j = (j + 1) & (m->cap - 1);
    return j;
}

/* Sets key's end: 0, or -1 out of memory. */
static int chain_put(struct chainmap *m, const value *key, const value *end)
{
    if ((m->n + 1) * 2 > m->cap) {
        struct chainmap grown = *m;
        grown.cap = m->cap ? m->cap * 2 : 64;
        grown.keys = calloc(grown.cap, sizeof *grown.keys);
        grown.ends = calloc(grown.cap, sizeof *grown.ends);
        if (!grown.keys || !grown.ends) {
            free(grown.keys);
            free(grown.ends);
            return -1;
        }
        for (size_t i = 0; i < m->cap; i++)
            if (m->keys[i]) {
                size_t j = chain_slot(&grown, m->keys[i]);
                grown.keys[j] = m->keys[i];
                grown.ends[j] = m->ends[i];
            }
        free(m->keys);
        free(m->ends);
        *m = grown;
    }
    size_t j = chain_slot(m, key);
    m->n += !m->keys[j];
    m->keys[j] = key;
    m->ends[j] = end;
    return 0;
}

static const value *chain_get(const struct chainmap *m, const value *key)
{
    return m->cap ? m->ends[chain_slot(m, key)] : NULL;
}

static void chain_free(struct chainmap *m)
{
    free(m->keys);
    free(m->ends);
    free(m->path);
}

/* Where s's chain of $refs ends inside root, as schema_deref(root, s)
 * finds it, but one step at a time, and stopping at a node whose end m
 * knows: a walk that meets every $ref of a chain then steps over each
 * once, not the rest of the chain from each (the square of its length,
 * minutes for a chain of 100,000).  NULL with e set when the chain does
 * not end (schema_deref's sentence for s, found again on that path
 * only).  Valid for one root, while the $refs followed keep their text. */
static const value *chain_end(const value *root, const value *s,
                              struct chainmap *m, err *e)
{
    const value *at = s, *end = NULL;
    m->npath = 0;
    for (;;) {
        const value *known = chain_get(m, at);
        if (known == CHAIN_OPEN)
            break; /* a loop: said below */
        if (known) {
            end = known;
            break;
        }
        const value *next = schema_deref_step(root, at);
        if (next == at) {
            end = at; /* not a $ref: the end */
            break;
        }
        if (m->npath == m->cappath) {
            size_t cap = m->cappath ? 2 * m->cappath : 64;
            const value **more = realloc(m->path, cap * sizeof *more);
            if (!more)
                goto nomem;
            m->path = more;
            m->cappath = cap;
        }
        m->path[m->npath++] = at;
        if (chain_put(m, at, CHAIN_OPEN) < 0)
            goto nomem;
        if (!next)
            break; /* names nothing: said below */
        at = next;
    }
    for (size_t i = 0; i < m->npath; i++)
        if (chain_put(m, m->path[i], end) < 0) /* no growth: present */
            goto nomem;
    if (end)
        return end;
    /* Open entries stay: the walk stops at this error. */
    err_clear(e);
    const value *again = schema_deref(root, s, e);
    if (again) /* cannot be: the same steps */
        err_set(e, ERR_VALUE, "a $ref chain does not end");
    return NULL;
nomem:
    err_set(e, ERR_NOMEM, "out of memory following $refs");
    return NULL;
}

/* Every $ref reachable from schema resolves.  seen holds the schemas
 * already walked (by address), so recursive schemas end; chains where
 * the chains met so far end. */
static int refs_resolve(const value *root, const value *s,
                        struct ptrset *seen, struct chainmap *chains,
                        err *e, unsigned depth)
{
    if (!s || (s->kind != V_OBJECT && s->kind != V_ARRAY))
        return 0;
    if (depth > VALUE_MAX_DEPTH)
        return 0;
    int r = ptrset_add(seen, s);
    if (r != 0)
        return r < 0 ? -1 : 0;
    if (s->kind == V_ARRAY) {
        for (size_t i = 0; i < s->u.arr.len; i++)
            if (refs_resolve(root, s->u.arr.items[i], seen, chains, e,
                             depth + 1) < 0)
                return -1;
        return 0;
    }
    const value *ref = value_getz(s, "$ref");
    if (ref && ref->kind == V_STRING) {
        const value *to = chain_end(root, s, chains, e);
        if (!to)
            return -1;
        if (refs_resolve(root, to, seen, chains, e, depth + 1) < 0)
            return -1;
    }
    for (size_t i = 0; i < s->u.obj.len; i++) {
        const value *k = s->u.obj.items[i].key;
        /* "example(s)" and "enum" hold data, not schemas */
        if (k->kind == V_STRING &&
            (strcmp(k->u.str.ptr, "example") == 0 ||
             strcmp(k->u.str.ptr, "examples") == 0 ||
             strcmp(k->u.str.ptr, "enum") == 0 ||
             strcmp(k->u.str.ptr, "const") == 0 ||
             strcmp(k->u.str.ptr, "default") == 0))
            continue;
        if (refs_resolve(root, s->u.obj.items[i].val, seen, chains, e,
                         depth + 1) < 0)
            return -1;
    }
    return 0;
}

/* ------------------------------------------- refs inside a tool's schema */

/* Appends "/" and key k to a JSON Pointer as a URI fragment holds it (~0,
 * ~1, and %25 for the percent sign schema_deref decodes). */
static int pointer_key(buf *out, const char *k, size_t len)
{
    int rc = buf_putc(out, '/');
    for (size_t i = 0; i < len && rc == 0; i++)
        rc = k[i] == '~'   ? buf_puts(out, "~0")
             : k[i] == '/' ? buf_puts(out, "~1")
             : k[i] == '%' ? buf_puts(out, "%25")
                           : buf_putc(out, k[i]);
    return rc;
}

/* Appends the pointer of node inside v to out: 1 found, 0 not (out as it
 * was), -1 out of memory. */
static int pointer_to(const value *v, const value *node, buf *out,
                      unsigned depth)
{
    if (v == node)
        return 1;
    if (!v || depth > VALUE_MAX_DEPTH)
        return 0;
    size_t keep = out->len;
    size_t n = v->kind == V_ARRAY    ? v->u.arr.len
               : v->kind == V_OBJECT ? v->u.obj.len
                                     : 0;
    for (size_t i = 0; i < n; i++) {
        const value *child;
        int rc;
        if (v->kind == V_ARRAY) {
            child = v->u.arr.items[i];
            rc = buf_printf(out, "/%zu", i);
        } else {
            const value *k = v->u.obj.items[i].key;
            child = v->u.obj.items[i].val;
            rc = k->kind == V_STRING ? pointer_key(out, k->u.str.ptr,
                                                   k->u.str.len)
                                     : 0;
        }
        if (rc < 0)
            return -1;
        int r = pointer_to(child, node, out, depth + 1);
        if (r != 0)
            return r;
        out->len = keep;
    }
    return 0;
}

struct rebase {
    struct builder *b;
    const value *top;  /* the tool's schema */
    buf top_ptr;       /* its pointer in the document, found when needed */
    int have_top;
    buf rel;           /* the pointer of the node walked, below top */
    struct ptrset seen;
    struct chainmap chains; /* the chains' ends inside top */
};

/* The walk of rebase_refs: node sits at r->rel below the top; res is the
 * schema resource it is in, at the first res_len bytes of r->rel. */
static int rebase_walk(struct rebase *r, const value *node, const value *res,
                       size_t res_len, unsigned depth)
{
    if (!node || (node->kind != V_OBJECT && node->kind != V_ARRAY) ||
        depth > VALUE_MAX_DEPTH)
        return 0;
    int seen = ptrset_add(&r->seen, node);
    if (seen != 0)
        return seen < 0 ? -1 : 0;
    size_t keep = r->rel.len;
    if (node->kind == V_ARRAY) {
        for (size_t i = 0; i < node->u.arr.len; i++) {
            if (buf_printf(&r->rel, "/%zu", i) < 0 ||
                rebase_walk(r, node->u.arr.items[i], res, res_len,
                            depth + 1) < 0)
                return -1;
            r->rel.len = keep;
        }
        return 0;
    }
    const value *id = value_getz(node, "$id");
    if (depth > 0 && id && id->kind == V_STRING) {
        res = node; /* a resource of its own */
        res_len = r->rel.len;
    }
    value *ref = (value *)value_getz(node, "$ref");
    if (ref && ref->kind == V_STRING && ref->u.str.len > 1 &&
        ref->u.str.ptr[0] == '#' && ref->u.str.ptr[1] == '/' &&
        res != r->b->root) {
        err e;
        err_clear(&e);
        /* Inside the tool's own schema (nearly always), each chain is
         * followed once; a resource of its own ($id) the long way. */
        const value *to = res == r->top ? chain_end(res, node, &r->chains, &e)
                                        : schema_deref(res, node, &e);
        if (!to && e.code == ERR_NOMEM)
            return -1;
        if (to) {
            /* it names something in its resource: written from the
             * document's root, every later lookup finds the same */
            if (!r->have_top) {
                int found = pointer_to(r->b->root, r->top, &r->top_ptr, 0);
                if (found < 0)
                    return -1;
                if (!found)
                    return 0; /* not in the document: left as it is */
                r->have_top = 1;
            }
            buf abs = BUF_INIT;
            int rc = buf_putc(&abs, '#');
            if (rc == 0 && r->top_ptr.len)
                rc = buf_append(&abs, r->top_ptr.data, r->top_ptr.len);
            if (rc == 0 && res_len)
                rc = buf_append(&abs, r->rel.data, res_len);
            if (rc == 0)
                rc = buf_append(&abs, ref->u.str.ptr + 1, ref->u.str.len - 1);
            char *text = rc == 0 ? arena_memdup(r->b->ts->doc->arena,
                                                abs.data, abs.len)
                                 : NULL;
            size_t len = abs.len;
            buf_free(&abs);
            if (!text)
                return -1;
            ref->u.str.ptr = text;
            ref->u.str.len = len;
        }
    }
    for (size_t i = 0; i < node->u.obj.len; i++) {
        const value *k = node->u.obj.items[i].key;
        if (k->kind != V_STRING || strcmp(k->u.str.ptr, "example") == 0 ||
            strcmp(k->u.str.ptr, "examples") == 0 ||
            strcmp(k->u.str.ptr, "enum") == 0 ||
            strcmp(k->u.str.ptr, "const") == 0 ||
            strcmp(k->u.str.ptr, "default") == 0)
            continue; /* data, not schemas */
        if (pointer_key(&r->rel, k->u.str.ptr, k->u.str.len) < 0 ||
            rebase_walk(r, node->u.obj.items[i].val, res, res_len,
                        depth + 1) < 0)
            return -1;
        r->rel.len = keep;
    }
    return 0;
}

/* JSON Schema resolves "#/..." against the schema resource the $ref is
 * in: an MCP or OpenAI tool's schema is one (pydantic and FastMCP write
 * "#/$defs/Item" for the $defs beside the tool's own properties), and so
 * is a schema with "$id" inside it.  A $ref that names something in its
 * resource is rewritten, once, to the same place written from the
 * document's root; one that does not is left to the document, as
 * before.  Marks nomem when memory runs out. */
static void rebase_refs(struct builder *b, const value *schema)
{
    if (!schema || schema->kind != V_OBJECT || schema == b->root)
        return;
    struct rebase r = {b, schema, BUF_INIT, 0, BUF_INIT, {NULL, 0, 0}, {0}};
    if (rebase_walk(&r, schema, schema, 0, 0) < 0)
        b->nomem = 1;
    buf_free(&r.top_ptr);
    buf_free(&r.rel);
    free(r.seen.slots);
    chain_free(&r.chains);
}

static int schema_refs_ok(struct builder *b, const char *name,
                          const value *where, const value *schema,
                          const char *what)
{
    struct ptrset seen = {NULL, 0, 0};
    struct chainmap chains = {0};
    err e;
    err_clear(&e);
    int rc = refs_resolve(b->root, schema, &seen, &chains, &e, 0);
    free(seen.slots);
    chain_free(&chains);
    if (rc < 0) {
        if (e.code == ERR_NONE || e.code == ERR_NOMEM)
            b->nomem = 1;
        else
            refuse(b, name, where, "its %s: %s", what, e.msg);
        return 0;
    }
    return 1;
}

/* A printable type for an argument: "string", "integer|null", "any". */
static const char *type_text(struct builder *b, const value *schema)
{
    err e;
    const value *s = deref(b, schema, &e);
    const value *t = s ? value_getz(s, "type") : NULL;
    if (t && t->kind == V_STRING)
        return t->u.str.ptr;
    if (t && t->kind == V_ARRAY) {
        char tmp[128];
        size_t n = 0;
        tmp[0] = '\0';
        for (size_t i = 0; i < t->u.arr.len && n < sizeof tmp; i++)
            if (t->u.arr.items[i]->kind == V_STRING)
                n += (size_t)snprintf(tmp + n, sizeof tmp - n, "%s%s",
                                      n ? "|" : "",
                                      t->u.arr.items[i]->u.str.ptr);
        return dupf(b, "%s", tmp);
    }
    if (s && (value_getz(s, "properties")))
        return "object";
    if (s && value_getz(s, "enum"))
        return "enum";
    return "any";
}

static int in_required(const value *req, const char *name, size_t len)
{
    if (!req || req->kind != V_ARRAY)
        return 0;
    for (size_t i = 0; i < req->u.arr.len; i++) {
        const value *r = req->u.arr.items[i];
        if (r->kind == V_STRING && r->u.str.len == len &&
            memcmp(r->u.str.ptr, name, len) == 0)
            return 1;
    }
    return 0;
}

/* Notes an argument whose pattern is outside the subset src/regex.h
 * reads: drawn values ignore it, and arguments are not checked against it,
 * which a user should hear about. */
static void note_pattern(struct builder *b, tool *t, const tool_arg *a,
                         size_t cap)
{
    err e;
    const value *s = deref(b, a->schema, &e);
    const value *pat = s ? schema_kw(s, "pattern") : NULL;
    if (!pat || pat->kind != V_STRING || t->nnotes >= cap)
        return;
    char why[200];
    regex *re = regex_compile(pat->u.str.ptr, pat->u.str.len, why, sizeof why);
    if (re || strcmp(why, REGEX_NOMEM) == 0) {
        b->nomem |= !re;
        regex_free(re);
        return;
    }
    const char *n = dupf(b,
                         "argument \"%s\": its pattern is outside the "
                         "supported subset (%s); values are drawn and checked "
                         "without it",
                         a->name, why);
    if (n)
        t->notes[t->nnotes++] = n;
}

/* Fills t->args from an object schema's properties. */
static int args_from_schema(struct builder *b, tool *t, const value *schema)
{
    err e;
    const value *s = deref(b, schema, &e);
    const value *props = s ? value_getz(s, "properties") : NULL;
    const value *req = s ? value_getz(s, "required") : NULL;
    size_t nprops = props && props->kind == V_OBJECT ? props->u.obj.len : 0;
    /* a required name the properties leave out: no draw can give it */
    for (size_t i = 0; req && req->kind == V_ARRAY && i < req->u.arr.len &&
                       !t->unknown_required;
         i++) {
        const value *r = req->u.arr.items[i];
        if (r->kind == V_STRING &&
            !(nprops && value_get(props, r->u.str.ptr, r->u.str.len)))
            t->unknown_required = r->u.str.ptr;
    }
    /* a note per pattern, and one for that name */
    t->notes = arena_alloc(b->ts->arena, (nprops + 1) * sizeof *t->notes);
    t->args = nprops ? arena_alloc(b->ts->arena, nprops * sizeof *t->args)
                     : NULL;
    if (!t->notes || (nprops && !t->args)) {
        b->nomem = 1;
        return -1;
    }
    for (size_t i = 0; i < nprops; i++) {
        const value *k = props->u.obj.items[i].key;
        if (k->kind != V_STRING)
            continue;
        tool_arg *a = &t->args[t->nargs++];
        a->name = k->u.str.ptr;
        a->schema = props->u.obj.items[i].val;
        a->type = type_text(b, a->schema);
        a->required = in_required(req, k->u.str.ptr, k->u.str.len);
        a->in = NULL;
        note_pattern(b, t, a, nprops);
    }
    if (t->unknown_required) {
        const char *n = dupf(b, "its input schema requires \"%s\" and gives "
                                "it no property, so no task calls it",
                             t->unknown_required);
        if (n)
            t->notes[t->nnotes++] = n;
    }
    return 0;
}

/* An object schema: {"type":"object",...}, or no type with properties,
 * or {} (takes anything). */
static const char *not_object_schema(struct builder *b, const value *schema)
{
    err e;
    const value *s = deref(b, schema, &e);
    if (!s || s->kind != V_OBJECT)
        return "is not an object schema";
    const value *t = value_getz(s, "type");
    if (!t)
        return NULL;
    if (t->kind == V_STRING && strcmp(t->u.str.ptr, "object") == 0)
        return NULL;
    return "is not an object schema (its type is not \"object\")";
}

static tool *add_tool(struct builder *b, const char *name, const value *where)
{
    toolset *ts = b->ts;
    size_t val = ts->ntools + 1;
    int r = strmap_get_or_put(&b->names, name, strlen(name), &val);
    if (r < 0) {
        b->nomem = 1;
        return NULL;
    }
    if (r == 1 && val == 0) {
        /* freed by drop_last: take it */
        strmap_set(&b->names, name, strlen(name), ts->ntools + 1);
    } else if (r == 1) {
        const tool *first = &ts->tools[val - 1];
        refuse(b, name, where,
               "duplicate name: a tool named \"%s\" comes first (line %u)",
               name, first->line);
        return NULL;
    }
    if (ts->ntools == b->tcap) {
        size_t cap = b->tcap ? b->tcap * 2 : 16;
        tool *t = realloc(ts->tools, cap * sizeof *t);
        if (!t) {
            b->nomem = 1;
            return NULL;
        }
        ts->tools = t;
        b->tcap = cap;
    }
    tool *t = &ts->tools[ts->ntools++];
    memset(t, 0, sizeof *t);
    t->name = name;
    t->description = "";
    t->line = where->line;
    t->col = where->col;
    return t;
}

/* The name is taken only once the tool is known to be usable, so that a
 * refused tool does not shadow a later one of the same name. */
static void drop_last(struct builder *b)
{
    tool *t = &b->ts->tools[--b->ts->ntools];
    strmap_set(&b->names, t->name, strlen(t->name), 0);
}

/* ------------------------------------------------------------ OpenAI, MCP */

static void read_function_tool(struct builder *b, const value *item,
                               int mcp)
{
    const value *fn = item;
    if (!mcp) {
        const value *inner = value_getz(item, "function");
        if (inner && inner->kind == V_OBJECT)
            fn = inner;
    }
    if (fn->kind != V_OBJECT) {
        refuse(b, NULL, item, "is a %s, not a tool object",
               value_kind_name((value_kind)fn->kind));
        return;
    }
    const char *type = mcp ? NULL : kw_str(item, "type");
    if (type && strcmp(type, "function") != 0) {
        const char *nm = kw_str(item, "name");
        refuse(b, nm, item,
               "is a \"%s\" tool, not a function; only functions can be "
               "called",
               type);
        return;
    }
    const value *nv = value_getz(fn, "name");
    if (!nv || nv->kind != V_STRING || nv->u.str.len == 0) {
        refuse(b, NULL, fn, "has no name");
        return;
    }
    const char *name = nv->u.str.ptr;
    if (holds_nul(nv)) {
        refuse(b, name, fn, NUL_IN_NAME);
        return;
    }
    const char *schema_key = mcp ? "inputSchema" : "parameters";
    const value *params = value_getz(fn, schema_key);
    if (!params && !mcp && value_getz(fn, "input_schema"))
        params = value_getz(fn, schema_key = "input_schema");
    const value *out = mcp ? value_getz(fn, "outputSchema") : NULL;
    rebase_refs(b, params);
    rebase_refs(b, out);
    if (b->nomem)
        return;
    const char *why = params ? not_object_schema(b, params) : NULL;
    if (why) {
        refuse(b, name, fn, "its %s %s", schema_key, why);
        return;
    }
    if (params && !schema_refs_ok(b, name, fn, params, schema_key))
        return;
    if (out && !schema_refs_ok(b, name, fn, out, "outputSchema"))
        return;
    tool *t = add_tool(b, name, fn);
    if (!t)
        return;
    const char *desc = kw_str(fn, "description");
    t->description = desc ? desc : "";
    t->input_schema = params;
    t->output_schema = out;
    const value *ann = mcp ? value_getz(fn, "annotations") : NULL;
    const value *ro = ann ? value_getz(ann, "readOnlyHint") : NULL;
    if (ro && ro->kind == V_BOOL) {
        t->kind = ro->u.b ? TOOL_READ : TOOL_WRITE;
        t->kind_source = KIND_FROM_HINT;
        t->kind_reason = ro->u.b ? "annotations.readOnlyHint is true"
                                 : "annotations.readOnlyHint is false";
    } else {
        kind_by_name(b, t);
    }
    if (params && args_from_schema(b, t, params) < 0)
        drop_last(b);
}

/* ------------------------------------------------------------ OpenAPI */

static const char *const methods[] = {"get",    "put",   "post",
                                      "delete", "options", "head",
                                      "patch",  "trace", NULL};

struct obj_builder {
    value_member *items;
    size_t n, cap;
};

static int ob_add(struct builder *b, struct obj_builder *o, value *k,
                  value *v)
{
    if (o->n == o->cap) {
        size_t cap = o->cap ? o->cap * 2 : 8;
        value_member *m = arena_alloc(b->ts->arena, cap * sizeof *m);
        if (!m) {
            b->nomem = 1;
            return -1;
        }
        if (o->n)
            memcpy(m, o->items, o->n * sizeof *m);
        o->items = m;
        o->cap = cap;
    }
    o->items[o->n].key = k;
    o->items[o->n++].val = v;
    return 0;
}

static value *str_value(struct builder *b, const char *s)
{
    value *v = value_new_text(b->ts->arena, V_STRING, s, strlen(s), 0, 0);
    if (!v)
        b->nomem = 1;
    return v;
}

static int json_media(const char *type)
{
    /* JSON media types, their +json kin, and the wildcards */
    return strcmp(type, "application/json") == 0 ||
           strstr(type, "+json") != NULL || strcmp(type, "*/*") == 0 ||
           strncmp(type, "application/json;", 17) == 0 ||
           strcmp(type, "application/*") == 0;
}

/* The JSON schema of an OpenAPI 3 "content" map, or NULL. */
static const value *content_schema(const value *content)
{
    if (!content || content->kind != V_OBJECT)
        return NULL;
    for (size_t i = 0; i < content->u.obj.len; i++) {
        const value *k = content->u.obj.items[i].key;
        if (k->kind == V_STRING && json_media(k->u.str.ptr)) {
            const value *s = value_getz(content->u.obj.items[i].val, "schema");
            if (s)
                return s;
        }
    }
    return NULL;
}

/* The first 2xx response's JSON schema. */
static const value *output_of(struct builder *b, const value *op, int v2)
{
    const value *resp = value_getz(op, "responses");
    if (!resp || resp->kind != V_OBJECT)
        return NULL;
    for (size_t i = 0; i < resp->u.obj.len; i++) {
        const value *k = resp->u.obj.items[i].key;
        const char *code = k->kind == V_STRING || k->kind == V_INT
                               ? k->u.str.ptr
                               : "";
        if (code[0] != '2')
            continue;
        err e;
        const value *r = deref(b, resp->u.obj.items[i].val, &e);
        if (!r)
            return NULL;
        return v2 ? value_getz(r, "schema")
                  : content_schema(value_getz(r, "content"));
    }
    return NULL;
}

/* A name for an operation without operationId: get_orders_id. */
static const char *derived_name(struct builder *b, const char *method,
                                const char *path)
{
    char tmp[256];
    size_t n = (size_t)snprintf(tmp, sizeof tmp, "%s", method);
    int gap = 1;
    for (size_t i = 0; path[i] && n + 2 < sizeof tmp; i++) {
        unsigned char c = (unsigned char)path[i];
        if (isalnum(c)) {
            if (gap)
                tmp[n++] = '_';
            tmp[n++] = (char)tolower(c);
            gap = 0;
        } else {
            gap = 1;
        }
    }
    tmp[n] = '\0';
    return dupf(b, "%s", tmp);
}

#define MAX_PARAMS 128   /* parameters of one operation */
#define MAX_REQUIRED 256 /* required arguments of one operation */

struct params {
    const value *list[MAX_PARAMS];
    size_t n;
    int overflow;
};

/* Operation parameters override path-level ones of the same name and
 * place. */
static void collect_params(struct builder *b, struct params *p,
                           const value *list)
{
    if (!list || list->kind != V_ARRAY)
        return;
    for (size_t i = 0; i < list->u.arr.len; i++) {
        err e;
        const value *prm = deref(b, list->u.arr.items[i], &e);
        if (!prm || prm->kind != V_OBJECT)
            continue;
        const char *name = kw_str(prm, "name"), *in = kw_str(prm, "in");
        if (!name || !in)
            continue;
        size_t j;
        for (j = 0; j < p->n; j++)
            if (strcmp(kw_str(p->list[j], "name"), name) == 0 &&
                strcmp(kw_str(p->list[j], "in"), in) == 0)
                break;
        if (j < p->n)
            p->list[j] = prm;
        else if (p->n < MAX_PARAMS)
            p->list[p->n++] = prm;
        else
            p->overflow = 1;
    }
}

static void read_operation(struct builder *b, const char *path,
                           const value *item, const char *method,
                           const value *op, int v2)
{
    const char *opid = kw_str(op, "operationId");
    const char *name = opid && opid[0] ? opid : derived_name(b, method, path);
    if (!name)
        return;
    if (opid && holds_nul(value_getz(op, "operationId"))) {
        refuse(b, name, op, NUL_IN_NAME);
        return;
    }
    err e;
    err_clear(&e);

    struct params p = {.n = 0};
    collect_params(b, &p, value_getz(item, "parameters"));
    collect_params(b, &p, value_getz(op, "parameters"));
    if (p.overflow) {
        refuse(b, name, op,
               "has more than %d parameters, the most one tool can have here",
               MAX_PARAMS);
        return;
    }

    struct obj_builder props = {NULL, 0, 0};
    size_t nreq = 0;
    value **reqs = arena_alloc(b->ts->arena, MAX_REQUIRED * sizeof *reqs);
    int too_many = 0;
    if (!reqs) {
        b->nomem = 1;
        return;
    }
    const value *body = NULL;
    for (size_t i = 0; i < p.n; i++) {
        const char *in = kw_str(p.list[i], "in");
        const char *pname = kw_str(p.list[i], "name");
        if (strcmp(in, "body") == 0) {
            body = value_getz(p.list[i], "schema");
            continue;
        }
        if (strcmp(in, "cookie") == 0)
            continue;
        const value *schema = v2 ? p.list[i] : value_getz(p.list[i], "schema");
        if (!schema)
            schema = content_schema(value_getz(p.list[i], "content"));
        if (!schema) {
            value *any = value_new(b->ts->arena, V_OBJECT, 0, 0);
            if (!any) {
                b->nomem = 1;
                return;
            }
            schema = any;
        }
        const value *r = value_getz(p.list[i], "required");
        if (ob_add(b, &props, str_value(b, pname), (value *)schema) < 0)
            return;
        if (r && r->kind == V_BOOL && r->u.b) {
            if (nreq < MAX_REQUIRED)
                reqs[nreq++] = str_value(b, pname);
            else
                too_many = 1;
        }
    }
    if (!v2) {
        const value *rb = value_getz(op, "requestBody");
        if (rb) {
            const value *rbd = deref(b, rb, &e);
            if (!rbd) {
                refuse(b, name, op, "its requestBody: %s", e.msg);
                return;
            }
            body = content_schema(value_getz(rbd, "content"));
        }
    }
    if (body) {
        const value *bs = deref(b, body, &e);
        if (!bs) {
            refuse(b, name, op, "its request body: %s", e.msg);
            return;
        }
        const value *bprops = value_getz(bs, "properties");
        const value *breq = value_getz(bs, "required");
        if (bprops && bprops->kind == V_OBJECT) {
            for (size_t i = 0; i < bprops->u.obj.len; i++) {
                const value *k = bprops->u.obj.items[i].key;
                if (k->kind != V_STRING)
                    continue;
                /* A body property named as a parameter is the same
                 * argument sent twice: the parameter stands for both. */
                int twin = 0;
                for (size_t j = 0; j < props.n && !twin; j++)
                    twin = strcmp(props.items[j].key->u.str.ptr,
                                  k->u.str.ptr) == 0;
                if (twin)
                    continue;
                if (ob_add(b, &props, (value *)k,
                           bprops->u.obj.items[i].val) < 0)
                    return;
                if (in_required(breq, k->u.str.ptr, k->u.str.len)) {
                    if (nreq < MAX_REQUIRED)
                        reqs[nreq++] = (value *)k;
                    else
                        too_many = 1;
                }
            }
        } else {
            /* A body that is not an object: one argument, "body". */
            if (ob_add(b, &props, str_value(b, "body"), (value *)body) < 0)
                return;
            if (nreq < MAX_REQUIRED)
                reqs[nreq++] = str_value(b, "body");
            else
                too_many = 1;
        }
    }

    if (too_many) {
        refuse(b, name, op,
               "has more than %d required arguments, the most one tool can "
               "have here",
               MAX_REQUIRED);
        return;
    }

    /* {"type":"object","properties":{...},"required":[...]} */
    value *schema = value_new(b->ts->arena, V_OBJECT, op->line, op->col);
    value *pv = value_new(b->ts->arena, V_OBJECT, op->line, op->col);
    value *rv = value_new(b->ts->arena, V_ARRAY, op->line, op->col);
    struct obj_builder top = {NULL, 0, 0};
    if (!schema || !pv || !rv || b->nomem) {
        b->nomem = 1;
        return;
    }
    pv->u.obj.items = props.items;
    pv->u.obj.len = props.n;
    rv->u.arr.items = reqs;
    rv->u.arr.len = nreq;
    if (ob_add(b, &top, str_value(b, "type"), str_value(b, "object")) < 0 ||
        ob_add(b, &top, str_value(b, "properties"), pv) < 0 ||
        ob_add(b, &top, str_value(b, "required"), rv) < 0 || b->nomem)
        return;
    schema->u.obj.items = top.items;
    schema->u.obj.len = top.n;

    const value *out = output_of(b, op, v2);
    if (!schema_refs_ok(b, name, op, schema, "parameters") ||
        (out && !schema_refs_ok(b, name, op, out, "response schema")))
        return;
    tool *t = add_tool(b, name, op);
    if (!t)
        return;
    const char *desc = kw_str(op, "description");
    if (!desc)
        desc = kw_str(op, "summary");
    t->description = desc ? desc : "";
    t->input_schema = schema;
    t->output_schema = out;
    t->method = method;
    t->path = path;
    int read = strcmp(method, "get") == 0 || strcmp(method, "head") == 0;
    t->kind = read ? TOOL_READ : TOOL_WRITE;
    char upper[8];
    size_t i;
    for (i = 0; method[i] && i < sizeof upper - 1; i++)
        upper[i] = (char)toupper((unsigned char)method[i]);
    upper[i] = '\0';
    t->kind_reason = dupf(b, "%s operation", upper);
    t->kind_source = KIND_FROM_METHOD;
    if (args_from_schema(b, t, schema) < 0) {
        drop_last(b);
        return;
    }
    for (size_t a = 0; a < t->nargs; a++) {
        t->args[a].in = "body";
        for (size_t j = 0; j < p.n; j++)
            if (strcmp(kw_str(p.list[j], "name"), t->args[a].name) == 0 &&
                strcmp(kw_str(p.list[j], "in"), "body") != 0)
                t->args[a].in = kw_str(p.list[j], "in");
    }
}

static void read_openapi(struct builder *b, int v2)
{
    const value *paths = value_getz(b->root, "paths");
    if (!paths || paths->kind != V_OBJECT)
        return;
    for (size_t i = 0; i < paths->u.obj.len && !b->nomem; i++) {
        const value *k = paths->u.obj.items[i].key;
        if (k->kind != V_STRING)
            continue;
        err e;
        const value *item = deref(b, paths->u.obj.items[i].val, &e);
        if (!item || item->kind != V_OBJECT)
            continue;
        for (size_t m = 0; methods[m]; m++) {
            const value *op = value_getz(item, methods[m]);
            if (op && op->kind == V_OBJECT)
                read_operation(b, k->u.str.ptr, item, methods[m], op, v2);
        }
    }
}

/* ------------------------------------------------------------ formats */

static int is_openai_item(const value *v)
{
    const char *type = v->kind == V_OBJECT ? kw_str(v, "type") : NULL;
    return type && strcmp(type, "function") == 0;
}

static int is_mcp_item(const value *v)
{
    return v->kind == V_OBJECT && value_getz(v, "name") &&
           !value_getz(v, "parameters") && !is_openai_item(v);
}

static void read_list(struct builder *b, const value *list, int mcp)
{
    for (size_t i = 0; i < list->u.arr.len && !b->nomem; i++)
        read_function_tool(b, list->u.arr.items[i], mcp);
}

static int recognise(struct builder *b, err *e)
{
    const value *r = b->root;
    toolset *ts = b->ts;
    if (r->kind == V_OBJECT) {
        if (kw_str(r, "openapi") || kw_str(r, "swagger")) {
            /* 3.1 allows a document of webhooks alone: no tools then */
            ts->format = TOOLS_OPENAPI;
            read_openapi(b, kw_str(r, "swagger") != NULL);
            return 0;
        }
        const value *result = value_getz(r, "result");
        const value *tools = value_getz(result ? result : r, "tools");
        if (tools && tools->kind == V_ARRAY) {
            int openai = tools->u.arr.len && is_openai_item(tools->u.arr.items[0]);
            ts->format = openai ? TOOLS_OPENAI : TOOLS_MCP;
            read_list(b, tools, !openai);
            return 0;
        }
        const value *fns = value_getz(r, "functions");
        if (fns && fns->kind == V_ARRAY) {
            ts->format = TOOLS_OPENAI;
            read_list(b, fns, 0);
            return 0;
        }
        if (value_getz(r, "inputSchema") && value_getz(r, "name")) {
            ts->format = TOOLS_MCP;
            read_function_tool(b, r, 1);
            return 0;
        }
        if (is_openai_item(r)) {
            ts->format = TOOLS_OPENAI;
            read_function_tool(b, r, 0);
            return 0;
        }
    } else if (r->kind == V_ARRAY) {
        if (r->u.arr.len == 0) {
            ts->format = TOOLS_OPENAI;
            return 0;
        }
        const value *first = r->u.arr.items[0];
        if (is_openai_item(first) ||
            (first->kind == V_OBJECT && value_getz(first, "parameters"))) {
            ts->format = TOOLS_OPENAI;
            read_list(b, r, 0);
            return 0;
        }
        if (is_mcp_item(first)) {
            ts->format = TOOLS_MCP;
            read_list(b, r, 1);
            return 0;
        }
    }
    const char *found =
        r->kind == V_OBJECT  ? "an object without \"tools\", \"functions\" "
                               "or \"paths\""
        : r->kind == V_ARRAY ? "an array whose first item is not a tool"
                             : "a single scalar";
    return err_set(e, ERR_VALUE,
                   "not a tool file: expected an OpenAI tools array, an MCP "
                   "tool list or an OpenAPI document, found %s",
                   found);
}

/* A tool whose output schema no answer can be drawn from (it needs
 * itself without end, or more than an answer's budget) is refused here,
 * once, rather than failing every call made to it.  The probe draws with
 * a key of its own, so it says nothing of the answers calls get. */
static void refuse_undrawable(struct builder *b)
{
    toolset *ts = b->ts;
    size_t kept = 0;
    for (size_t i = 0; i < ts->ntools && !b->nomem; i++) {
        tool *t = &ts->tools[i];
        int ok = 1;
        if (t->output_schema) {
            arena *a = arena_new();
            draw_key k;
            value *v;
            err e;
            err_clear(&e);
            draw_key_init(&k, "", 0, t->name, "{}", 2);
            if (!a)
                b->nomem = 1;
            else if (draw_value(&v, a, b->root, t->output_schema, &k, "$",
                                &e) < 0) {
                if (e.code == ERR_NOMEM) {
                    b->nomem = 1;
                } else {
                    size_t before = ts->nrefused;
                    refuse(b, t->name, NULL, "its output schema: %s", e.msg);
                    if (ts->nrefused > before) {
                        ts->refused[before].line = t->line;
                        ts->refused[before].col = t->col;
                    }
                    ok = 0;
                }
            }
            arena_free(a);
        }
        if (ok)
            ts->tools[kept++] = *t;
    }
    if (!b->nomem)
        ts->ntools = kept;
}

int toolset_build(toolset **out, const doc *d, err *e)
{
    *out = NULL;
    toolset *ts = calloc(1, sizeof *ts);
    if (!ts || !(ts->arena = arena_new())) {
        free(ts);
        return err_set(e, ERR_NOMEM, "out of memory");
    }
    ts->doc = d;
    struct builder b = {ts, d->root, STRMAP_INIT, 0, 0, 0};
    int rc = recognise(&b, e);
    if (rc == 0 && !b.nomem)
        refuse_undrawable(&b);
    strmap_free(&b.names);
    if (rc == 0 && !b.nomem && chain_analyse(ts) < 0)
        b.nomem = 1;
    patterns *pt = NULL;
    if (rc == 0 && !b.nomem && patterns_build(&pt, d->root) < 0)
        b.nomem = 1;
    ts->patterns = pt;
    if (rc == 0 && b.nomem)
        rc = err_set(e, ERR_NOMEM, "out of memory reading the tools");
    if (rc < 0) {
        toolset_free(ts);
        return -1;
    }
    *out = ts;
    return 0;
}

void toolset_free(toolset *t)
{
    if (!t)
        return;
    free(t->tools);
    free(t->refused);
    patterns_free((patterns *)t->patterns);
    arena_free(t->arena);
    free(t);
}

const tool *toolset_find(const toolset *t, const char *name, size_t len)
{
    for (size_t i = 0; i < t->ntools; i++)
        if (strlen(t->tools[i].name) == len &&
            memcmp(t->tools[i].name, name, len) == 0)
            return &t->tools[i];
    return NULL;
}

const char *tool_format_name(enum tool_format f)
{
    switch (f) {
    case TOOLS_OPENAI: return "openai";
    case TOOLS_MCP: return "mcp";
    case TOOLS_OPENAPI: return "openapi";
    }
    return "unknown";
}
