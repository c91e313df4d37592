/* patterns: see patterns.h.  An open-addressing table keyed by the node's
 * address, sized once (at most half full), so that a lookup is a hash
 * and a probe or two. */
#include "patterns.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct slot {
    const value *node; /* NULL: empty */
    regex *re;         /* NULL: refused */
};

struct patterns {
    struct slot *slots;
    size_t mask; /* slots - 1, a power of two minus one */
};

static int is_key(const value *k, const char *name, size_t len)
{
    return k->kind == V_STRING && k->u.str.len == len &&
           memcmp(k->u.str.ptr, name, len) == 0;
}

/* Calls fn on every pattern node under v (see patterns_build). */
static int each_pattern(const value *v, int (*fn)(void *, const value *),
                        void *ctx)
{
    if (v->kind == V_ARRAY) {
        for (size_t i = 0; i < v->u.arr.len; i++)
            if (each_pattern(v->u.arr.items[i], fn, ctx) < 0)
                return -1;
    } else if (v->kind == V_OBJECT) {
        for (size_t i = 0; i < v->u.obj.len; i++) {
            const value_member *m = &v->u.obj.items[i];
            if (is_key(m->key, "pattern", 7) && m->val->kind == V_STRING &&
                fn(ctx, m->val) < 0)
                return -1;
            if (is_key(m->key, "patternProperties", 17) &&
                m->val->kind == V_OBJECT)
                for (size_t j = 0; j < m->val->u.obj.len; j++)
                    if (m->val->u.obj.items[j].key->kind == V_STRING &&
                        fn(ctx, m->val->u.obj.items[j].key) < 0)
                        return -1;
            if (each_pattern(m->val, fn, ctx) < 0)
                return -1;
        }
    }
    return 0;
}

static int count_one(void *ctx, const value *node)
{
    (void)node;
    (*(size_t *)ctx)++;
    return 0;
}

static size_t hash_of(const value *node)
{
    uint64_t h = (uint64_t)(uintptr_t)node;
    h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
    h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
    return (size_t)(h ^ (h >> 31));
}

static struct slot *find(const patterns *p, const value *node)
{
    size_t i = hash_of(node) & p->mask;
    while (p->slots[i].node && p->slots[i].node != node)
        i = (i + 1) & p->mask;
    return &p->slots[i];
}

static int add_one(void *ctx, const value *node)
{
    patterns *p = ctx;
    struct slot *s = find(p, node);
    if (s->node) /* the same node twice: no */
        return 0;
    char why[160];
    regex *re = regex_compile(node->u.str.ptr, node->u.str.len, why,
                              sizeof why);
    if (!re && strcmp(why, REGEX_NOMEM) == 0)
        return -1;
    s->node = node;
    s->re = re;
    return 0;
}

int patterns_build(patterns **out, const value *root)
{
    *out = NULL;
    size_t n = 0;
    if (root)
        each_pattern(root, count_one, &n);
    size_t size = 4;
    while (size < 2 * n)
        size *= 2;
    patterns *p = calloc(1, sizeof *p);
    if (!p || !(p->slots = calloc(size, sizeof *p->slots))) {
        free(p);
        return -1;
    }
    p->mask = size - 1;
    if (root && each_pattern(root, add_one, p) < 0) {
        patterns_free(p);
        return -1;
    }
    *out = p;
    return 0;
}

const regex *patterns_regex(const patterns *p, const value *node,
                            regex **owned, int *nomem)
{
    *owned = NULL;
    *nomem = 0;
    if (p) {
        const struct slot *s = find(p, node);
        if (s->node)
            return s->re;
    }
    char why[160];
    *owned = regex_compile(node->u.str.ptr, node->u.str.len, why,
                           sizeof why);
    *nomem = !*owned && strcmp(why, REGEX_NOMEM) == 0;
    return *owned;
}

void patterns_free(patterns *p)
{
    if (!p)
        return;
    for (size_t i = 0; i <= p->mask; i++)
        regex_free(p->slots[i].re);
    free(p->slots);
    free(p);
}
