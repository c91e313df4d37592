/* arena: see arena.h.  Chunks grow geometrically; a request larger than a
 * chunk gets a chunk of its own. */
#include "arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct chunk {
    struct chunk *next;
    size_t size, used; /* the head's used: size - room.left */
    _Alignas(16) unsigned char data[];
};

struct arena {
    struct arena_room room; /* first (arena.h): the head's free bytes */
    struct chunk *head; /* where allocations are made; older chunks after */
    size_t next_size;
    size_t held;  /* bytes of the chunks held */
    size_t limit; /* of held; 0: none */
    int over;     /* an allocation was refused for the limit */
};

arena *arena_new(void)
{
    arena *a = calloc(1, sizeof *a);
    if (a)
        a->next_size = 4096;
    return a;
}

/* Makes a new head chunk with room for size bytes (a multiple of 16) and
 * takes them from it; NULL when out of memory. */
void *arena_alloc_more(arena *a, size_t size)
{
    size_t want = a->next_size;
    if (want < size)
        want = size;
    if (a->limit && (size > a->limit || a->held > a->limit - size)) {
        a->over = 1;
        return NULL;
    }
    if (a->limit && want > a->limit - a->held)
        want = a->limit - a->held; /* at least size */
    if (want > SIZE_MAX - sizeof(struct chunk))
        return NULL;
    struct chunk *c = malloc(sizeof *c + want);
    if (!c)
        return NULL;
    a->held += want;
    if (a->head)
        a->head->used = a->head->size - a->room.left;
    c->size = want;
    c->used = size;
    c->next = a->head;
    a->head = c;
    a->room.next = c->data + size;
    a->room.left = want - size;
    if (a->next_size < (size_t)1 << 24)
        a->next_size *= 2;
    return c->data;
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

void arena_limit(arena *a, size_t max)
{
    a->limit = max;
    a->over = 0;
}

int arena_over(const arena *a)
{
    return a->over;
}

size_t arena_used(const arena *a)
{
    size_t used = 0;
    for (const struct chunk *c = a->head; c; c = c->next)
        used += c == a->head ? c->size - a->room.left : c->used;
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
        a->held = 0;
        a->room.next = NULL;
        a->room.left = 0;
        a->next_size = 4096;
    }
}

void arena_reset(arena *a)
{
    a->over = 0;
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
    a->room.next = keep->data;
    a->room.left = keep->size;
    a->held = keep->size;
}
