/*
 * logvalue: what the log readers read out of, and make into, values the
 * same way: a value at a dotted path, the text of a chat message's
 * content, and an OpenAI tool made of a name, a description and a
 * parameters schema (the form a run's tool file is written in, lines.h).
 * Pure functions of their arguments; nothing is kept.
 */
#ifndef TR_LOGVALUE_H
#define TR_LOGVALUE_H

#include "arena.h"
#include "buf.h"
#include "value.h"

/* An OpenAI tool {"type":"function","function":{name, description,
 * parameters}} made in a from a name, a description (may be NULL) and a
 * parameters schema (NULL: an object schema with no properties); NULL
 * out of memory. */
value *lr_openai_tool(arena *a, const value *name, const value *description,
                      const value *parameters);

/* The value at a dotted path ("info.reward", "a.0.b": an index into an
 * array) under v, or NULL. */
const value *lr_path(const value *v, const char *dotted);

/* Appends the text of a message's content: a string as it is; a list of
 * parts, the text of each text part ("text" member), joined by "\n".
 * 0 when there is any text, 1 when there is none, -1 out of memory. */
int lr_content_text(buf *out, const value *content);

#endif
