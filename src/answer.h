/*
 * answer: what a tool answers, by the rules of SPEC 3.3 and 3.4 that need
 * neither the task nor the store:
 *  - a read (or a call the task expects) answers a value drawn from the
 *    tool's output schema, or {"ok": true, "id": "<drawn id>"} when it has
 *    none; the draw is keyed by the call's content, never its position;
 *  - an accepted write answers with what it was sent: each argument in the
 *    output schema's field of its name when the value fits that field
 *    (drawn as usual when not), or beside "ok" and "id" when the tool has
 *    no output schema (an argument named "id" is the answer's id);
 *  - an error comes in the tool file's idiom, with its code and status.
 * The task's handed values and the store are laid over these answers by
 * the simulator.
 */
#ifndef TR_ANSWER_H
#define TR_ANSWER_H

#include <stdint.h>

#include "arena.h"
#include "buf.h"
#include "err.h"
#include "tools.h"
#include "value.h"

enum sim_error {
    SIM_NOT_FOUND,         /* 404: an unknown tool */
    SIM_INVALID_ARGUMENTS, /* 422: arguments that break the input schema */
    SIM_NOT_READY,         /* 409: a step before the step it needs */
    SIM_UNAVAILABLE,       /* 503: a planned fault */
    SIM_TIMEOUT,           /* 504: a planned timeout */
    SIM_RATE_LIMITED       /* 429: a planned rate limit */
};

/* "not_found", "invalid_arguments", ... */
const char *sim_error_code(enum sim_error code);
/* 404, 422, ... */
int sim_error_status(enum sim_error code);

/* Appends the error to out as JSON, in the idiom of the format:
 *   OpenAI   {"error":{"code":"...","message":"..."}}
 *   MCP      {"content":[{"type":"text","text":"..."}],"isError":true}
 *   OpenAPI  {"detail":"...","status":404}
 * A rate limit carries "retry_after":1 beside the message (OpenAI and
 * OpenAPI).  Keys are written sorted, as everywhere.  0, or -1 out of
 * memory. */
int answer_error(buf *out, enum tool_format format, enum sim_error code,
                 const char *message);

/* The drawn answer of tool t to arguments args (an object), for the file
 * whose doc ts holds and the seed. */
int answer_draw(value **out, arena *a, const toolset *ts, const tool *t,
                const value *args, uint64_t seed, err *e);

/* The same, given the canonical JSON of the arguments (len bytes), when
 * the caller has it already. */
int answer_draw_canonical(value **out, arena *a, const toolset *ts,
                          const tool *t, const char *args_json, size_t len,
                          uint64_t seed, err *e);

/* The answer with the arguments placed by the write rule (also what a read
 * on a bad-data arm answers).  answer is the drawn answer; the result
 * shares its unchanged parts. */
int answer_place_args(value **out, arena *a, const toolset *ts,
                      const tool *t, const value *answer, const value *args,
                      err *e);

#endif
