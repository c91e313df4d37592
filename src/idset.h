/*
 * idset: a set of 64-bit ids (keyed hashes of names), eight bytes an
 * entry, for remembering what a night has seen when keeping the names
 * themselves would cost too much.  Open addressing with linear probing;
 * the ids are the caller's hashes, so the caller keys them with a secret
 * seed when they come from input.  Nothing is ever removed.
 */
#ifndef TR_IDSET_H
#define TR_IDSET_H

#include <stddef.h>
#include <stdint.h>

typedef struct idset {
    uint64_t *slots; /* 0: empty (an id of 0 is kept as 1) */
    size_t cap, n;
} idset;

#define IDSET_INIT {NULL, 0, 0}

/* Adds id: 1 when it is new, 0 when it was there, -1 out of memory. */
int idset_add(idset *s, uint64_t id);

void idset_free(idset *s);

#endif
