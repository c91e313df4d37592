/*
 * path: where a value sits inside a document, for error messages.
 *
 * Walkers keep a chain of path_seg on their own stack, leaf to root, and
 * format it only when something goes wrong:  $.paths./orders.get[0]
 * A key is written after a dot when it is plain, else as ["..."] with JSON
 * escapes (a key holding '.', '[', ']', '"', '\' or a control character).
 */
#ifndef TR_PATH_H
#define TR_PATH_H

#include <stddef.h>

typedef struct path_seg {
    const struct path_seg *up; /* NULL at the root's child */
    const char *key;           /* NULL: an array index */
    size_t keylen;
    size_t index;
} path_seg;

/* Writes "$" and the segments from the root down to leaf into out. */
void path_format(const path_seg *leaf, char *out, size_t size);

#endif
