/*
 * canon: the canonical JSON text of a value tree, byte for byte what
 *   json.dumps(doc, sort_keys=True, separators=(",", ":"),
 *              ensure_ascii=False, allow_nan=False).encode("utf-8")
 * writes for the Python object the tree stands for, after a YAML date or
 * datetime became its isoformat() text and every key its JSON text (200 ->
 * "200", true -> "true", null -> "null", 1.5 -> "1.5").
 * Refused (ERR_VALUE, with the place and path): NaN and infinities, binary
 * data, sets, strings holding a lone surrogate, two keys of one object that
 * become the same text.  Output past DOC_MAX_EXPANDED values is refused
 * (ERR_LIMIT).
 */
#ifndef TR_CANON_H
#define TR_CANON_H

#include "buf.h"
#include "err.h"
#include "value.h"

int canon_write(buf *out, const value *v, err *e);

/* The same text, appended to what out holds (kept as it was on failure). */
int canon_append(buf *out, const value *v, err *e);

/* The same text, appended, but for what canonical JSON refuses and a JSON
 * reader still reads back as the same value: NaN, an infinity (written
 * NaN, Infinity, -Infinity, as json.dumps writes them when allowed to)
 * and a string holding a lone surrogate (each surrogate written as its
 * escape, \ud800 for U+D800).  Python's json.loads and json_load read
 * the text back as the tree written.  Still refused: binary data, sets,
 * two keys that become one (none of which JSON input holds), and the
 * limits.  For a record of what someone else sent (a transcript's call
 * line), which must be one line of our own writing. */
int canon_append_loose(buf *out, const value *v, err *e);

/* The length of the text canon_append_loose writes for v, without
 * writing it: 0 with *len set, or -1 (e set) for a tree it refuses.  It
 * does not look for two keys that become one (which a tree read from
 * JSON, its keys strings given once, cannot hold), and where it refuses
 * v it may name another place in it than canon_append_loose would.  For
 * what is counted as its JSON text without being kept as that. */
int canon_loose_length(const value *v, size_t *len, err *e);

/* Appends s as a JSON string (quotes, escapes of json.dumps). */
int canon_write_string(buf *out, const char *s, size_t len);

#endif
