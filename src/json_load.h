/*
 * json_load: JSON bytes to a value tree, with the semantics of Python's
 * json.loads(bytes):
 *  - the encoding is read from the first bytes (UTF-8 with or without BOM,
 *    UTF-16 LE/BE, UTF-32 LE/BE, as json.detect_encoding does) and decoded
 *    with 'surrogatepass': a lone surrogate survives into its string, which
 *    is then flagged VF_UNENCODABLE; invalid code units refuse the input;
 *  - NaN, Infinity and -Infinity are read as floats;
 *  - duplicate keys: the last value wins, at the first key's place (the
 *    object is flagged VF_REPEATED);
 *  - raw control characters in strings, and anything after the value but
 *    whitespace, refuse the input;
 *  - integers keep their digits ("-0" becomes "0"); floats are read with
 *    correct rounding (overflow gives an infinity, as Python's float());
 *    integers longer than PYINT_MAX_DIGITS digits refuse the input;
 *  - nesting deeper than VALUE_MAX_DEPTH refuses the input.
 * Plain JSON is read by a loop of its own; anything else, and every
 * refusal, by way of yajl's event API.  On refusal, e holds the line and
 * column (in characters, 1-based) and the path of the place.
 */
#ifndef TR_JSON_LOAD_H
#define TR_JSON_LOAD_H

#include <stddef.h>

#include "arena.h"
#include "err.h"
#include "value.h"

int json_load(value **out, arena *a, const char *bytes, size_t len, err *e);

/* json_load, which also says where the value of the member `key` of the
 * text's top-level object is written in bytes: from *at, *span bytes (of
 * the last such member, when the key is given more than once; keys are
 * compared as read, escapes decoded).  *span is 0 when that is not known:
 * no such member, or a text read otherwise than the common way (not
 * UTF-8, or anything the general path reads). */
int json_load_member(value **out, arena *a, const char *bytes, size_t len,
                     const char *key, size_t *at, size_t *span, err *e);

/* json_load, but a string that is the value of a member named key and
 * holds an escape may be kept as written (its body between the quotes,
 * checked as json_load checks it), flagged VF_ESCAPED, for a reader that
 * needs few of them decoded: json_unescaped decodes one.  Any other
 * string, and every string of a text the fast path does not read, is
 * decoded as ever. */
int json_load_lazy(value **out, arena *a, const char *bytes, size_t len,
                   const char *key, err *e);

/* The string v decoded, in a (NULL out of memory), when it is flagged
 * VF_ESCAPED; else v.  What json_load reads the same string as. */
value *json_unescaped(arena *a, const value *v);

/* json_load without its fast path: the same tree or the same refusal,
 * always by way of yajl.  For the tests that hold the two to each other. */
int json_load_general(value **out, arena *a, const char *bytes, size_t len,
                      err *e);

#endif
