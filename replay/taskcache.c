/* taskcache: see taskcache.h. */
#include "taskcache.h"

#include <stdint.h>
#include <stdlib.h>

#include "arena.h"
#include "buf.h"
#include "generator_version.h"

struct task_loan {
    const toolset *ts;
    uint64_t seed;
    arm arm;
    arena *a; /* the task and its JSON */
    task *t;
    const char *json;
    unsigned held;
    size_t next;   /* the next slot of its bucket, or NONE */
    size_t older, newer; /* the slots in order of use, or NONE */
};

#define NONE ((size_t)-1)

struct taskcache {
    task_loan *v; /* slots: at most max */
    size_t n, max;
    size_t *buckets; /* first slot of each bucket's chain, or NONE */
    size_t nbuckets; /* a power of two, at least max */
    size_t oldest, newest; /* the slots used least and most recently */
};

taskcache *taskcache_new(size_t max)
{
    taskcache *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->max = max ? max : 256;
    c->nbuckets = 1;
    while (c->nbuckets < c->max)
        c->nbuckets *= 2;
    c->oldest = c->newest = NONE;
    if (!(c->v = calloc(c->max, sizeof *c->v)) ||
        !(c->buckets = malloc(c->nbuckets * sizeof *c->buckets))) {
        free(c->v);
        free(c);
        return NULL;
    }
    for (size_t i = 0; i < c->nbuckets; i++)
        c->buckets[i] = NONE;
    return c;
}

/* The bucket of a key.  The seeds come from the input, but a bucket that
 * fills holds at most max keys: no worse than looking through them all. */
static size_t bucket_of(const taskcache *c, const toolset *ts, uint64_t seed,
                        const arm *a)
{
    uint64_t h = seed ^ (uint64_t)(uintptr_t)ts * 0x9E3779B97F4A7C15ull ^
                 ((uint64_t)a->knob << 32 | (uint32_t)a->level) *
                     0xC2B2AE3D27D4EB4Full;
    h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
    h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
    h ^= h >> 31;
    return (size_t)(h & (c->nbuckets - 1));
}

/* Takes slot i out of the order of use. */
static void unlink_use(taskcache *c, size_t i)
{
    task_loan *l = &c->v[i];
    if (l->older != NONE)
        c->v[l->older].newer = l->newer;
    else
        c->oldest = l->newer;
    if (l->newer != NONE)
        c->v[l->newer].older = l->older;
    else
        c->newest = l->older;
    l->older = l->newer = NONE;
}

/* Puts slot i last in the order of use (the most recently asked for). */
static void touch(taskcache *c, size_t i)
{
    task_loan *l = &c->v[i];
    if (c->newest == i)
        return;
    if (l->older != NONE || l->newer != NONE || c->oldest == i)
        unlink_use(c, i);
    l->older = c->newest;
    l->newer = NONE;
    if (c->newest != NONE)
        c->v[c->newest].newer = i;
    else
        c->oldest = i;
    c->newest = i;
}

/* Takes slot i out of its bucket. */
static void unlink_bucket(taskcache *c, size_t i)
{
    task_loan *l = &c->v[i];
    size_t *at = &c->buckets[bucket_of(c, l->ts, l->seed, &l->arm)];
    while (*at != i)
        at = &c->v[*at].next;
    *at = l->next;
    l->next = NONE;
}

/* A slot for a new key: a free one, or the least recently used that
 * nobody holds (its task freed, its key forgotten); NONE when every slot
 * is held. */
static size_t slot(taskcache *c)
{
    if (c->n < c->max) {
        size_t i = c->n++;
        c->v[i].older = c->v[i].newer = c->v[i].next = NONE;
        return i;
    }
    size_t old = c->oldest;
    while (old != NONE && c->v[old].held)
        old = c->v[old].newer;
    if (old != NONE) {
        task_loan *l = &c->v[old];
        arena_free(l->a);
        l->a = NULL;
        l->t = NULL;
        unlink_bucket(c, old);
        unlink_use(c, old);
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
    size_t b = bucket_of(c, ts, seed, a);
    for (size_t i = c->buckets[b]; i != NONE; i = c->v[i].next) {
        task_loan *l = &c->v[i];
        if (l->ts != ts || l->seed != seed || l->arm.knob != a->knob ||
            l->arm.level != a->level)
            continue;
        touch(c, i);
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
    size_t i = slot(c);
    if (i != NONE) {
        task_loan *l = &c->v[i];
        *l = (task_loan){ts, seed, *a, NULL, NULL, NULL, 0, NONE, NONE, NONE};
        l->next = c->buckets[b];
        c->buckets[b] = i;
        touch(c, i);
    }
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
    free(c->buckets);
    free(c);
}
