/*
 * keymap: a hash map from byte strings to size_t that owns copies of its
 * keys and supports removal, for tables whose entries come and go (the
 * episodes open while a night is replayed): its memory follows the entries
 * present, not the entries ever put.  Linear probing, XXH3, removal by
 * backward shift (no tombstones).  Keys that come from input are hashed
 * with a secret seed (set seed before the first put), so that no crafted
 * set of keys can make the probes long; the map's order is never shown.
 */
#ifndef TR_KEYMAP_H
#define TR_KEYMAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct keymap_slot {
    char *key; /* NULL: empty */
    size_t len;
    uint64_t hash;
    size_t val;
} keymap_slot;

typedef struct keymap {
    keymap_slot *slots;
    size_t cap, n;
    uint64_t seed; /* of the hash; 0 unless set before the first put */
} keymap;

#define KEYMAP_INIT {NULL, 0, 0, 0}

/* A secret seed from the system's randomness, for a map of keys that come
 * from input (before its first put; what getentropy cannot give leaves
 * the seed as it was). */
void keymap_secret(keymap *m);

/* The value of key in *val: 1 found, 0 absent. */
int keymap_get(const keymap *m, const char *key, size_t len, size_t *val);

/* Sets key to val (copying the key when new).  0, or -1 out of memory. */
int keymap_put(keymap *m, const char *key, size_t len, size_t val);

/* Removes key; 1 when it was there, 0 when not. */
int keymap_remove(keymap *m, const char *key, size_t len);

void keymap_free(keymap *m);

#endif
