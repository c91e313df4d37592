/* arena: see arena.h.  Chunks grow geometrically; a request larger than a
 * chunk gets a chunk of its own. */
#include "arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct chunk {
    struct chunk *next;
    size_t size, used;
    _Alignas(16) unsigned char data[];
};

struct arena {
    struct chunk *head; /* where allocations are made; older chunks after */
    size_t next_size;
};

arena *arena_new(void)
{
    arena *a = calloc(1, sizeof *a);
    if (a)
        a->next_size = 4096;
    return a;
}

/* Makes a new head chunk with room for size bytes and takes them from it;
 * NULL when out of memory.  Kept out of line, so that the common case in
 * arena_alloc() stays a few instructions. */
static __attribute__((noinline)) void *alloc_in_new_chunk(arena *a,
                                                          size_t size)
{
    size_t want = a->next_size;
    if (want < size)
        want = size;
    if (want > SIZE_MAX - sizeof(struct chunk))
        return NULL;
    struct chunk *c = malloc(sizeof *c + want);
    if (!c)
        return NULL;
    c->size = want;
    c->used = size;
    c->next = a->head;
    a->head = c;
    if (a->next_size < (size_t)1 << 24)
        a->next_size *= 2;
    return c->data;
}

void *arena_alloc(arena *a, size_t size)
{
    if (size > SIZE_MAX - 15)
        return NULL;
    size = size ? (size + 15) & ~(size_t)15 : 16;
    struct chunk *c = a->head;
    if (c && c->size - c->used >= size) {
        void *p = c->data + c->used;
        c->used += size;
        return p;
    }
    return alloc_in_new_chunk(a, size);
}

char *arena_memdup(arena *a, const void *data, size_t len)
{
    if (len == SIZE_MAX)
        return NULL;
    char *p = arena_alloc(a, len + 1);
    if (!p)
        return NULL;
    if (len)
        memcpy(p, data, len);
    p[len] = '\0';
    return p;
}

size_t arena_used(const arena *a)
{
    size_t used = 0;
    for (const struct chunk *c = a->head; c; c = c->next)
        used += c->used;
    return used;
}

void arena_free(arena *a)
{
    if (!a)
        return;
    struct chunk *c = a->head;
    while (c) {
        struct chunk *next = c->next;
        free(c);
        c = next;
    }
    free(a);
}

void arena_recycle(arena *a, size_t max)
{
    arena_reset(a);
    if (a->head && a->head->size > max) {
        free(a->head);
        a->head = NULL;
        a->next_size = 4096;
    }
}

void arena_reset(arena *a)
{
    struct chunk *keep = a->head;
    if (!keep)
        return;
    struct chunk *c = keep->next;
    while (c) {
        struct chunk *next = c->next;
        free(c);
        c = next;
    }
    keep->next = NULL;
    keep->used = 0;
}
