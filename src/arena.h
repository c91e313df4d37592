/*
 * arena: a bump allocator for data that lives and dies together (the value
 * tree of one document).  Allocations are 16-byte aligned and never freed
 * one by one; arena_free() releases them all.  Every allocation returns
 * NULL when memory runs out.
 */
#ifndef TR_ARENA_H
#define TR_ARENA_H

#include <stddef.h>
#include <stdint.h>

typedef struct arena arena;

/* Where the next allocation goes: the start of an arena, so that the
 * common case of arena_alloc (room left) is a few inline instructions. */
struct arena_room {
    unsigned char *next;
    size_t left;
};

arena *arena_new(void);
/* arena_alloc when the room left is too small: a new chunk. */
void *arena_alloc_more(arena *a, size_t size);

static inline void *arena_alloc(arena *a, size_t size)
{
    if (size > SIZE_MAX - 15)
        return NULL;
    size = size ? (size + 15) & ~(size_t)15 : 16;
    struct arena_room *r = (struct arena_room *)a;
    if (r->left >= size) {
        void *p = r->next;
        r->next += size;
        r->left -= size;
        return p;
    }
    return arena_alloc_more(a, size);
}
/* A copy of len bytes, NUL-terminated after them. */
char *arena_memdup(arena *a, const void *data, size_t len);
/* Limits the bytes the arena holds to max (0: no limit): an allocation
 * past it returns NULL, as when memory runs out, and arena_over says
 * which it was, until the next arena_reset.  For a tree read from input,
 * whose size is the input's to choose. */
void arena_limit(arena *a, size_t max);
int arena_over(const arena *a);
/* Bytes handed out so far (for limits and tests). */
size_t arena_used(const arena *a);
/* Forgets every allocation but keeps the largest chunk for the next ones
 * (an arena reused for one line, one call at a time). */
void arena_reset(arena *a);
/* arena_reset for an arena kept to be used again (a pool of them): the
 * chunk is kept only when it holds at most max bytes, so that one big
 * use does not stay in memory; without it the arena is as new. */
void arena_recycle(arena *a, size_t max);

void arena_free(arena *a);

#endif
