/*
 * strmap: an open-addressing hash map from byte strings to size_t, for the
 * loaders' bookkeeping (YAML anchors, folding duplicate keys).  Keys are
 * not copied: they must outlive the map.  Hashing is XXH3.
 */
#ifndef TR_STRMAP_H
#define TR_STRMAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct strmap_slot {
    const char *key;
    size_t len;
    uint64_t hash;
    size_t val;
} strmap_slot;

typedef struct strmap {
    strmap_slot *slots;
    size_t cap, n;
} strmap;

#define STRMAP_INIT {NULL, 0, 0}

/* Looks key up; when absent, inserts it with *val.  Returns 1 when it was
 * there (and sets *val to its value), 0 when inserted, -1 out of memory. */
int strmap_get_or_put(strmap *m, const char *key, size_t len, size_t *val);

/* Sets the value of a key that is there (after strmap_get_or_put). */
void strmap_set(strmap *m, const char *key, size_t len, size_t val);

void strmap_free(strmap *m);

#endif
