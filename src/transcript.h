/*
 * transcript: one line of a transcript (docs/transcript.md) read into a
 * record: run, episode, call or end.  A line that cannot be used gets one
 * sentence saying what is wrong (ERR_VALUE, or ERR_NOMEM):
 *   not JSON: ...                     the line does not parse
 *   a transcript line must be a JSON object, not an array
 *   no "type": a line's type is run, episode, call or end
 *   unknown type "x": a line's type is run, episode, call or end
 *   no "run" (a string) on this episode line
 *   "run" is given more than once on this line; give it once (...)
 *   "seed" must be a non-negative integer, not a string
 *   no "arm" ...; give both seed and arm, or neither (observed)
 *   "success" must be true or false, not a string
 *   "reward" must be a number, not a string
 *   "input_tokens" must be a whole number from 0 up, not a string
 *   "duration" must be a number of seconds, 0 or more, not a string
 *   unknown arm "depht:d3"; did you mean depth:d3?
 *   a call needs a tool name: ...      (see call.h)
 */
#ifndef TR_TRANSCRIPT_H
#define TR_TRANSCRIPT_H

#include <stdint.h>

#include "arena.h"
#include "arm.h"
#include "call.h"
#include "err.h"
#include "value.h"

/* The longest transcript line replay reads, and the longest message
 * replay sim and replay serve take (docs/transcript.md, "Streaming"). */
#define TRANSCRIPT_LINE_LIMIT (4u << 20)

enum tline_type { TL_RUN, TL_EPISODE, TL_CALL, TL_END };

typedef struct tline {
    enum tline_type type;
    const value *root;
    const char *run; /* NULL when the line has none (see default_run) */
    const char *episode;
    /* run */
    const char *tools, *tools_sha256, *model;
    const value *meta;
    /* episode */
    int observed; /* no seed and no arm: run against something else */
    uint64_t seed;
    arm arm;
    const value *task;
    const char *task_name; /* the harness's name of the task, or NULL */
    /* call */
    call_view call;
    const value *call_value;
    const value *answer; /* NULL when the line has none */
    /* the answer as the line writes it, answer_len bytes; 0 when not
     * known (json_load_member) */
    const char *answer_text;
    size_t answer_len;
    /* call and end: the seconds it took; NAN when not given */
    double duration;
    /* end */
    const char *status, *final;
    int success;    /* -1: not given */
    int has_reward;
    double reward;
    /* the tokens the model used in the episode (-1: not given), and what
     * the episode cost (NAN: not given) */
    int64_t input_tokens, output_tokens;
    double cost;
} tline;

/* Reads a line (len bytes, no newline).  default_run, when not NULL, is
 * the run of lines that name none. */
int tline_parse(tline *out, arena *a, const char *text, size_t len,
                const char *default_run, err *e);

/* tline_parse's second half, for a line whose value tree is known
 * already: root is what json_load_member(text, "answer") reads (the
 * members in their order, line and column apart), and answer_at and
 * answer_len what it says of the answer's place in text (answer_len 0:
 * not known).  The same record, or the same refusal, as tline_parse of
 * text; what it makes is in a, and out points into root and text. */
int tline_read(tline *out, arena *a, const value *root, const char *text,
               size_t answer_at, size_t answer_len, const char *default_run,
               err *e);

/* What an episode line makes of its "seed" and "arm" members (NULL:
 * absent), for a writer of episode lines that must not write one the
 * engine refuses (the log readers): 0 neither (an observed episode), 1
 * both, to be replayed; -1 when an episode line holding them would be
 * refused, with the engine's reason (ERR_VALUE). */
int tline_seed_arm(const value *seed, const value *arm, err *e);

/* The same of its "task_name": 0, or -1 with the engine's reason. */
int tline_task_name(const value *name, err *e);

/* The run and episode a line names, read from its first len bytes only
 * (a line too long to be read whole: its start is all there is): the
 * members of its object as far as they are whole there, their values
 * read when they are strings and skipped by their nesting otherwise (the
 * walk tline_route makes), as every line replay sim and replay serve
 * write begins ({"type":..,"run":..,"episode":..}).  *run and *episode
 * are NULL when not among them (or holding a NUL); the names are in a.
 * 0, or -1 out of memory (ERR_NOMEM in e). */
int tline_names(arena *a, const char *text, size_t len, const char **run,
                const char **episode, err *e);

/* The type, run and episode of a line found without reading it whole,
 * for a reader that only needs to know whose line it is (replay's shards
 * pass over the lines of other shards' episodes so).  1 when the members
 * of the line's top-level object, up to the last of "type" (episode,
 * call or end), "run" and "episode", give each of these once, as a
 * string of printable ASCII without escapes, and no key among them holds
 * an escape; values before them are skipped by their nesting, and
 * nothing after them is looked at.  tline_parse then reads these very
 * names, or refuses the line (it refuses one that gives any of the three
 * twice).  0 otherwise (a run line, a name that needs decoding, anything
 * not plainly an object): the line must be read whole to know.  The
 * names point into text and are not NUL-terminated. */
int tline_route(const char *text, size_t len, enum tline_type *type,
                const char **run, size_t *run_len, const char **episode,
                size_t *episode_len);

/* "run", "episode", "call", "end" */
const char *tline_type_name(enum tline_type t);

#endif
