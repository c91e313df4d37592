/*
 * arena: a bump allocator for data that lives and dies together (the value
 * tree of one document).  Allocations are 16-byte aligned and never freed
 * one by one; arena_free() releases them all.  Every allocation returns
 * NULL when memory runs out.
 */
#ifndef TR_ARENA_H
#define TR_ARENA_H

#include <stddef.h>

typedef struct arena arena;

arena *arena_new(void);
void *arena_alloc(arena *a, size_t size);
/* A copy of len bytes, NUL-terminated after them. */
char *arena_memdup(arena *a, const void *data, size_t len);
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
