/*
 * nearest: the edit distance between two short strings, for "did you
 * mean ...?" messages (a mistyped arm id, an unknown run name).  Strings
 * are compared byte by byte; past 255 bytes the second one is cut.
 */
#ifndef TR_NEAREST_H
#define TR_NEAREST_H

#include <stddef.h>

/* Levenshtein distance: insertions, deletions, substitutions, each 1. */
size_t edit_distance(const char *a, size_t la, const char *b, size_t lb);

#endif
