/*
 * observe: what can be checked of a call without a task.  An observed
 * episode (an agent that worked against something other than the
 * simulator) gets these checks and nothing that needs a task; the
 * simulator makes the first of them before it answers.
 *
 *  - observe_args: a call's arguments against its tool's input schema.
 *    The arguments' canonical JSON goes to canon whenever it can be
 *    written (emptied otherwise), and the rule broken, when one is, to
 *    rule: one sentence, the simulator's invalid_arguments message
 *    ("argument \"amount\" must be at least 0", "the arguments are not
 *    valid JSON: ...", "the arguments must be an object, not a list").
 *    Some arguments cannot be checked within the schema check's limits
 *    (schema.h): neither valid nor not, they get a verdict of their own
 *    and the sentence that says so ("the arguments could not be checked:
 *    ...").
 *  - observe_answer: an answer a harness logged, read as harnesses log
 *    it (a value; JSON text, as OpenAI and Anthropic tool results are; an
 *    MCP tools/call result, by its structuredContent or else the JSON of
 *    its one text block), against the tool's output schema.
 *  - observe_error: whether a logged answer is an error, in the idioms
 *    harnesses log one, and its code: the OpenAI idiom's error object
 *    ({"error": {"code" or "type", "message"}}, the readers of logs/
 *    write every error so), an MCP result flagged isError ("is_error"),
 *    HTTP problem details ({"status": 400 to 599 with "title", "type" or
 *    "detail"}: "http_STATUS"), and text that begins "Error:" as
 *    tau-bench writes it ("error_text"); JSON text and an MCP result's
 *    one text block are read for what they hold.
 * They keep nothing: the caller's buffers and arena hold what they make.
 */
#ifndef TR_OBSERVE_H
#define TR_OBSERVE_H

#include "arena.h"
#include "buf.h"
#include "err.h"
#include "tools.h"
#include "value.h"

/* args NULL: no arguments ({}); bad_args: the reason the arguments' JSON
 * text did not parse (call.h), or NULL.  1 valid, 0 not (rule set), 2
 * could not be checked (rule set: why), -1 out of memory (e set). */
int observe_args(const toolset *ts, const tool *t, const value *args,
                 const char *bad_args, buf *canon, buf *rule, err *e);

/* The value a logged answer stands for (see the top), parsed into a when
 * it is JSON text; NULL when it stands for none: an MCP error result,
 * text that is not JSON.  *oom is set when memory ran out. */
const value *observe_unwrap(const value *answer, arena *a, int *oom);

/* 1 when the logged answer conforms to t's output schema, 0 when it does
 * not (rule set), 2 when there is nothing to check (no output schema, no
 * value behind the answer), 3 when it could not be checked (rule set:
 * why), -1 out of memory (e set). */
int observe_answer(const toolset *ts, const tool *t, const value *answer,
                   arena *a, buf *rule, err *e);

/* 1 when answer is an error (code gets its code, at most size - 1
 * bytes: the logged code or type when it is a name of letters, digits and
 * "_.:-" of at most 64, else the idiom's: "error", "is_error",
 * "http_404", "error_text"), 0 when not; *oom is set when memory ran
 * out. */
int observe_error(const value *answer, arena *a, char *code, size_t size,
                  int *oom);

#endif
