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
    struct chunk *head;
    size_t next_size;
    size_t used;
};

arena *arena_new(void)
{
    arena *a = calloc(1, sizeof *a);
    if (a)
        a->next_size = 4096;
    return a;
}

void *arena_alloc(arena *a, size_t size)
{
    size = (size + 15) & ~(size_t)15;
    if (size == 0)
        size = 16;
    struct chunk *c = a->head;
    if (!c || c->size - c->used < size) {
        size_t want = a->next_size;
        if (want < size)
            want = size;
        if (want > SIZE_MAX - sizeof *c)
            return NULL;
        c = malloc(sizeof *c + want);
        if (!c)
            return NULL;
        c->size = want;
        c->used = 0;
        c->next = a->head;
        a->head = c;
        if (a->next_size < (size_t)1 << 24)
            a->next_size *= 2;
    }
    void *p = c->data + c->used;
    c->used += size;
    a->used += size;
    return p;
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
    return a->used;
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
    a->used = 0;
}
