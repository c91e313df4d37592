/*
 * jstream: a JSON document read piece by piece, so that a log of many
 * records (an Inspect log's "samples", a JSON array of trajectories, an
 * OTLP document's "resourceSpans") costs the memory of its largest piece,
 * never of the whole document.
 *
 * The document's top level is an object or an array:
 *  - an array: each item is handed over whole, with its index;
 *  - an object: each member is handed over whole, with its key; but a
 *    member whose key is one of `streamed` and whose value is an array
 *    is handed over item by item (key and index), never whole; when
 *    streamed is NULL, the object is handed over whole (key NULL).
 * A piece is a value tree (value.h) in an arena that the callback may
 * keep no pointer into: it is reset after each piece.  Strings are
 * checked UTF-8, integers keep their digits, floats their double; a key
 * given twice in one object keeps the last value, at the first key's
 * place, as json_load does.  NaN, Infinity and -Infinity (which Python's
 * json module writes) are floats, as json_load reads them; glued to
 * other bytes ("-NaN", "NaN1") they are refused, as Python refuses them.
 * A piece whose tree passes piece_max bytes costs that
 * piece alone: what it held is let go, the rest of it is read without
 * being kept, and it is handed over as NULL, at its place (its key and
 * index); the pieces after it are read.
 *
 * Promises: one piece in memory at a time (besides the parser's own
 * small state and the bytes fed to it); no global state.
 */
#ifndef TR_JSTREAM_H
#define TR_JSTREAM_H

#include <stddef.h>

#include "arena.h"
#include "err.h"
#include "value.h"

/* key: the top-level member's key (NULL for a top-level array's item);
 * index: the item's index in the streamed array, or (size_t)-1 for a
 * member handed over whole; v NULL for a piece past piece_max.  0 to go on, -1 to stop (e set by the
 * callback; jstream_feed returns it). */
typedef int (*jstream_fn)(void *ctx, const char *key, size_t index,
                          const value *v, err *e);

typedef struct jstream jstream;

/* streamed: NULL-terminated keys whose arrays are streamed (may be NULL).
 * NULL out of memory. */
jstream *jstream_new(const char *const *streamed, size_t piece_max,
                     jstream_fn fn, void *ctx);

/* Feeds the next bytes.  0; -1 with e set: a syntax error (with its byte
 * offset in the message), a piece past its limit, the callback's error,
 * or out of memory. */
int jstream_feed(jstream *s, const char *bytes, size_t len, err *e);

/* The input is over: a document cut short is a syntax error. */
int jstream_finish(jstream *s, err *e);

/* What the top level is: '{', '[', or 0 when not begun (or a scalar). */
int jstream_top(const jstream *s);

void jstream_free(jstream *s);

#endif
