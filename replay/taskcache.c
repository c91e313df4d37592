/* taskcache: see taskcache.h. */
#include "taskcache.h"

#include <stdlib.h>

#include "arena.h"
#include "buf.h"
#include "generator.h"

struct task_loan {
    const toolset *ts;
    uint64_t seed;
    arm arm;
    arena *a; /* the task and its JSON */
    task *t;
    const char *json;
    unsigned held;
    uint64_t used; /* the clock of its last get */
};

struct taskcache {
    task_loan *v; /* a few hundred: looked through in order */
    size_t n, max;
    uint64_t clock;
};

taskcache *taskcache_new(size_t max)
{
    taskcache *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->max = max ? max : 256;
    if (!(c->v = calloc(c->max, sizeof *c->v))) {
        free(c);
        return NULL;
    }
    return c;
}

/* A slot for a new key: a free one, or the least recently used that
 * nobody holds (its task freed); NULL when every slot is held. */
static task_loan *slot(taskcache *c)
{
    if (c->n < c->max)
        return &c->v[c->n++];
    task_loan *old = NULL;
    for (size_t i = 0; i < c->n; i++)
        if (!c->v[i].held && (!old || c->v[i].used < old->used))
            old = &c->v[i];
    if (old) {
        arena_free(old->a);
        old->a = NULL;
        old->t = NULL;
    }
    return old;
}

/* Makes the task of l's key into l (an arena of its own, with its JSON),
 * and lends it. */
static int make_into(task_loan *l, const task **t, const char **json,
                     task_loan **loan, err *e)
{
    arena *ar = arena_new();
    task *made = NULL;
    buf b = BUF_INIT;
    const char *text = NULL;
    if (!ar) {
        err_set(e, ERR_NOMEM, "out of memory");
    } else if (task_make(&made, ar, l->ts, l->seed, &l->arm, e) == 0 &&
               task_write_json(&b, made, GENERATOR_VERSION, e) == 0 &&
               !(text = arena_memdup(ar, b.data, b.len))) {
        err_set(e, ERR_NOMEM, "out of memory");
    }
    buf_free(&b);
    if (!text) {
        arena_free(ar);
        return -1;
    }
    l->a = ar;
    l->t = made;
    l->json = text;
    l->held = 1;
    *t = made;
    *json = text;
    *loan = l;
    return 0;
}

int taskcache_get(taskcache *c, const toolset *ts, uint64_t seed,
                  const arm *a, const task **t, const char **json,
                  task_loan **loan, err *e)
{
    *loan = NULL;
    c->clock++;
    for (size_t i = 0; i < c->n; i++) {
        task_loan *l = &c->v[i];
        if (l->ts != ts || l->seed != seed || l->arm.knob != a->knob ||
            l->arm.level != a->level)
            continue;
        l->used = c->clock;
        if (!l->a) /* asked for the second time: worth keeping now */
            return make_into(l, t, json, loan, e);
        l->held++;
        *t = l->t;
        *json = l->json;
        *loan = l;
        return 0;
    }
    /* The first time: the key is remembered, the caller makes the task
     * itself (most tasks of most nights are asked for once). */
    task_loan *l = slot(c);
    if (l)
        *l = (task_loan){ts, seed, *a, NULL, NULL, NULL, 0, c->clock};
    return 1;
}

void taskcache_release(task_loan *loan)
{
    if (loan)
        loan->held--;
}

void taskcache_free(taskcache *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->n; i++)
        arena_free(c->v[i].a);
    free(c->v);
    free(c);
}
