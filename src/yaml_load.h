/*
 * yaml_load: YAML bytes to a value tree, as PyYAML's yaml.safe_load() reads
 * them (YAML 1.1 resolution): booleans (yes/no/on/off/true/false in three
 * spellings), nulls (~, null, empty), integers (sign, 0b, leading-0 octal,
 * 0x, underscores, sexagesimal), floats (a dot is required; .inf, .nan),
 * timestamps (kept as V_TIMESTAMP with Python's isoformat() text), merge
 * keys, anchors and aliases (shared, never copied), and the standard
 * explicit tags (!!str, !!int, !!float, !!bool, !!null, !!timestamp,
 * !!binary, !!set, !!omap, !!pairs, !!seq, !!map); any other tag refuses.
 * Keys that Python would hold equal (1, 1.0, true) are folded into one:
 * the first key's spelling, the last value.
 * Limits: VALUE_MAX_DEPTH nesting, DOC_MAX_EXPANDED values after alias
 * expansion (checked without expanding), and DOC_MAX_EXPANDED pairs
 * copied by merge keys in the whole document (a merge of merges of
 * merges grows tenfold a line; each copy is counted before it is made).
 * On refusal, e holds line, column and the path of the place.
 */
#ifndef TR_YAML_LOAD_H
#define TR_YAML_LOAD_H

#include <stddef.h>

#include "arena.h"
#include "err.h"
#include "value.h"

int yaml_load(value **out, arena *a, const char *bytes, size_t len, err *e);

#endif
