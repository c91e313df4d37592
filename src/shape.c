/* shape: see shape.h. */
#include "shape.h"

#include <string.h>

#include "buf.h"
#include "err.h"
#include "schema.h"

#define SHAPE_LEVELS 8 /* allOf within allOf, as deep as drawing goes */

static void add(shape *sh, const value *root, const value *s, unsigned level)
{
    err e;
    if (!s || s->kind != V_OBJECT || sh->n >= SHAPE_MAX ||
        level > SHAPE_LEVELS)
        return;
    sh->parts[sh->n++] = s;
    const value *all = schema_kw(s, "allOf");
    if (!all || all->kind != V_ARRAY)
        return;
    for (size_t i = 0; i < all->u.arr.len; i++)
        add(sh, root, schema_deref(root, all->u.arr.items[i], &e), level + 1);
}

void shape_add(shape *sh, const value *root, const value *s)
{
    add(sh, root, s, 0);
}

int shape_objectish(const value *s)
{
    const value *t = schema_kw(s, "type");
    return schema_kw(s, "properties") != NULL ||
           (t && t->kind == V_STRING && t->u.str.len == 6 &&
            memcmp(t->u.str.ptr, "object", 6) == 0);
}

int shape_of(shape *sh, const value *root, const value *schema,
             const value *drawn)
{
    err e;
    sh->n = 0;
    for (unsigned level = 0; level <= SHAPE_LEVELS; level++) {
        const value *s = schema ? schema_deref(root, schema, &e) : NULL;
        if (!s || s->kind != V_OBJECT)
            return 0;
        const value *all = schema_kw(s, "allOf");
        if (all && all->kind == V_ARRAY && all->u.arr.len) {
            shape_add(sh, root, s); /* drawing merges these and no more */
            return 0;
        }
        const value *alt = schema_kw(s, "oneOf");
        if (!alt)
            alt = schema_kw(s, "anyOf");
        if (!alt || alt->kind != V_ARRAY || !alt->u.arr.len) {
            shape_add(sh, root, s);
            return 0;
        }
        /* the branch drawn: the first that the drawn value conforms to */
        const value *branch = NULL;
        for (size_t i = 0; drawn && i < alt->u.arr.len && !branch; i++) {
            int r = schema_check(root, alt->u.arr.items[i], drawn, NULL, NULL);
            if (r < 0)
                return -1;
            if (r == 0 || r == 2) /* undecided: as it always was */
                branch = alt->u.arr.items[i];
        }
        if (shape_objectish(s)) {
            /* properties beside the branches: the branch adds to them */
            shape_add(sh, root, s);
            if (branch)
                shape_add(sh, root, schema_deref(root, branch, &e));
            return 0;
        }
        if (!branch)
            return 0;
        schema = branch; /* a bare oneOf: the branch is the schema */
    }
    return 0;
}

/* The properties of part p of sh, or NULL. */
static const value *props_of(const shape *sh, size_t p)
{
    const value *props = schema_kw(sh->parts[p], "properties");
    return props && props->kind == V_OBJECT ? props : NULL;
}

size_t shape_field(const shape *sh, const char *name, size_t len,
                   const value **defs, size_t cap)
{
    size_t n = 0;
    for (size_t p = 0; p < sh->n && n < cap; p++) {
        const value *props = props_of(sh, p);
        const value *d = props ? value_get(props, name, len) : NULL;
        if (d)
            defs[n++] = d;
    }
    return n;
}

const value_member *shape_next(const shape *sh, size_t *at)
{
    /* *at counts members over the parts in order */
    size_t skip = *at;
    for (size_t p = 0; p < sh->n; p++) {
        const value *props = props_of(sh, p);
        size_t len = props ? props->u.obj.len : 0;
        if (skip >= len) {
            skip -= len;
            continue;
        }
        for (size_t i = skip; i < len; i++) {
            const value_member *m = &props->u.obj.items[i];
            (*at)++;
            if (m->key->kind != V_STRING)
                continue;
            int seen = 0; /* an earlier part describes it: said there */
            for (size_t q = 0; q < p && !seen; q++)
                seen = props_of(sh, q) &&
                       value_get(props_of(sh, q), m->key->u.str.ptr,
                                 m->key->u.str.len) != NULL;
            if (!seen)
                return m;
        }
        skip = 0;
    }
    return NULL;
}
