/*
 * logvalue: what the log readers read out of, and make into, values the
 * same way: a value at a dotted path, the text of a chat message's
 * content, and an OpenAI tool made of a name, a description and a
 * parameters schema (the form a run's tool file is written in, lines.h).
 * Pure functions of their arguments; nothing is kept.
 */
#ifndef TR_LOGVALUE_H
#define TR_LOGVALUE_H

#include <stdint.h>

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

/* The "value" of the item of list (OTLP's attributes, Jaeger's tags:
 * {"key", "value"} objects) whose "key" is key, the first such; NULL
 * when there is none, or list is no array. */
const value *lr_keyed(const value *list, const char *key);

/* An OTLP attribute of a string value, {"key": key, "value":
 * {"stringValue": text}} (text copied), made in a; NULL out of memory
 * (or when text is NULL). */
value *lr_string_attr(arena *a, const char *key, const value *text);

/* An episode's name made of a log's own ids (an id, or a task and its
 * trial: their texts, a string's or an integer's digits, joined by sep
 * when b is given): as they are when they come to at most LR_NAME_MAX
 * bytes and hold no NUL byte; else their first bytes (cut before a UTF-8
 * sequence, never inside one), "~" and 16 hex digits of the SHA-256 of
 * the whole, so that two ids that differ anywhere give two names.  0, or
 * -1 out of memory. */
#define LR_NAME_MAX 200
int lr_name(char out[LR_NAME_MAX + 1], const value *a, const char *sep,
            const value *b);

/* Appends the text of a message's content: a string as it is; a list of
 * parts, the text of each text part ("text" member), joined by "\n".
 * 0 when there is any text, 1 when there is none, -1 out of memory. */
int lr_content_text(buf *out, const value *content);

/* Adds a figure (value_count's, value_amount's: a log's figure of
 * another shape is no figure, and is left unknown) to a sum that starts
 * unknown (NAN, or -1 for a count): an unknown sum plus a figure is the
 * figure.  A count that would pass what an SQLite integer holds stays at
 * its largest, and so does an amount that would pass what a double holds
 * (DBL_MAX): a sum is always a figure the transcript reader takes. */
void lr_add_amount(double *sum, double x);
void lr_add_count(int64_t *sum, int64_t n);

#endif
