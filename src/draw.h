/*
 * draw: the keyed draw, and values drawn from a JSON Schema with it.
 *
 * Every random choice the simulator makes is a hash: XXH3-64 over a byte
 * layout of what the choice is about (docs/draws.md):
 *
 *   "taskreplay/draw/1" 0x00
 *   file SHA-256, 64 lower-case hex characters   0x00
 *   seed, 8 bytes, little-endian
 *   tool name                                    0x00
 *   canonical JSON of the call's arguments       0x00
 *   path of the value drawn ("$.id", "$.lines[2].sku")
 *
 * The hash seeds a splitmix64 stream, so one value can make many choices.
 * Nothing depends on a call's position in an episode: the same call gets
 * the same answer.  Changing this layout, or any rule below, changes what
 * the generator produces: bump DRAW_VERSION.
 *
 * Values drawn from a schema conform to it (type and type lists, enum,
 * const, format, minLength/maxLength, pattern, minimum/maximum and their
 * exclusive forms, multipleOf, minItems/maxItems, items, properties and
 * required, allOf/anyOf/oneOf, $ref).  Strings look like what they name:
 * an id like an id ("A-3317" when the bounds say six characters), an email
 * like an email.  Dates come from a fixed clock, DRAW_CLOCK.
 */
#ifndef TR_DRAW_H
#define TR_DRAW_H

#include <stddef.h>
#include <stdint.h>
#define XXH_STATIC_LINKING_ONLY /* XXH3_state_t lives in draw_key */
#include <xxhash.h>

#include "arena.h"
#include "err.h"
#include "patterns.h"
#include "value.h"

#define DRAW_VERSION 1

/* One answer (one draw_value) draws at most this many values and this
 * many bytes of text; a schema that needs more is refused, as one that
 * no value satisfies.  A value that large would not fit in a transcript
 * line anyway (4 MiB). */
#define DRAW_MAX_VALUES 100000
#define DRAW_MAX_BYTES (4u << 20)
#define DRAW_CLOCK "2026-10-26T09:00:00Z"

/* The part of the layout up to the path, hashed once per call. */
typedef struct draw_key {
    XXH3_state_t state;
} draw_key;

/* A stream of draws for one value path. */
typedef struct draw_stream {
    uint64_t s;
} draw_stream;

/* Hashes the fixed part of the layout.  args_canonical is the canonical
 * JSON of the call's arguments (canon_write). */
void draw_key_init(draw_key *k, const char *file_sha256, uint64_t seed,
                   const char *tool, const char *args_canonical,
                   size_t args_len);

/* The stream for the value at path. */
draw_stream draw_at(const draw_key *k, const char *path, size_t len);

uint64_t draw_next(draw_stream *s);

/* A number in [0, n), n > 0. */
uint64_t draw_below(draw_stream *s, uint64_t n);

/* Draws a value conforming to schema (looked up in root for $refs) at
 * path.  Returns 0, or -1 with e set (out of memory, or a schema no value
 * can satisfy within the budget above, said in one line).  A branch of
 * anyOf/oneOf that cannot be drawn gives way to the next. */
int draw_value(value **out, arena *a, const value *root, const value *schema,
               const draw_key *k, const char *path, err *e);

/* draw_value, with the compiled patterns of root's document (the
 * toolset's: patterns.h), so that no pattern is compiled again; pt NULL
 * is draw_value.  The same value either way. */
int draw_value_with(value **out, arena *a, const value *root,
                    const patterns *pt, const value *schema,
                    const draw_key *k, const char *path, err *e);

#endif
