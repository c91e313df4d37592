/*
 * patterns: the regexes of one document's schemas, compiled once.
 *
 * JSON Schema's `pattern` (and the keys of `patternProperties`) are
 * regexes (regex.h).  Drawing a string and checking one would otherwise
 * compile the same pattern again for every value.  A table made once for
 * a tool file (toolset_build keeps one in the toolset) holds every such
 * text of the document, by its node: compiled, or refused (outside the
 * subset; the check and the draw then ignore the pattern, as they would).
 *
 *  - The table holds what it was made from and never changes after:
 *    threads may read it at once.  Its nodes belong to the document,
 *    which must outlive it.
 *  - A node the table does not hold (a schema built elsewhere, or no
 *    table at all) is compiled by patterns_regex for that one use, as
 *    it was before there was a table.
 */
#ifndef TR_PATTERNS_H
#define TR_PATTERNS_H

#include "regex.h"
#include "value.h"

typedef struct patterns patterns;

/* The table of every pattern under root: each string that is the value
 * of a member "pattern", and each key of an object that is the value of
 * a member "patternProperties".  0, or -1 out of memory. */
int patterns_build(patterns **out, const value *root);

/* The regex of the pattern node (a V_STRING), or NULL when the pattern is
 * refused or memory ran out (*nomem then set).  From p when it holds the
 * node (*owned NULL), else compiled here: *owned is then the regex, for
 * the caller to regex_free after its use.  p may be NULL. */
const regex *patterns_regex(const patterns *p, const value *node,
                            regex **owned, int *nomem);

void patterns_free(patterns *p);

#endif
