/*
 * task: what an episode asks of the agent (SPEC 3.6), made from the tool
 * file (through its file hash), a seed and an arm, by keyed draws only.
 *
 * A task is a chain of steps whose last step is the target write:
 *  - depth 1: the target write alone, every argument stated;
 *  - depth D >= 2: step 1 is a read (the read the request names); its
 *    answer, to the call with the task's arguments, holds the handed value
 *    in a named string field; steps 2..D are distinct writes that all take
 *    that value as one argument (the handed argument, a free string whose
 *    name ends in "id" when the tools allow), besides their stated ones.
 * The chain, its arguments and the handed value depend on (file, seed,
 * depth) only, so the arms of one seed share their chain.  The planned
 * dial events depend on the arm (docs/simulator.md has every rule).
 * A depth the tools cannot build is refused in one line that names the
 * longest chain they can.
 */
#ifndef TR_TASK_H
#define TR_TASK_H

#include <stdint.h>

#include "arena.h"
#include "arm.h"
#include "buf.h"
#include "err.h"
#include "tools.h"
#include "value.h"

#define TASK_MAX_DEPTH 8
#define TASK_DEFAULT_DEPTH 2
#define TASK_MAX_EVENTS 4
#define TASK_ID_LEN 18 /* "t-" and 16 hex digits */
#define TASK_SEED_MAX 9223372036854775807ull /* 2^63 - 1: seeds are kept
                                                as SQLite integers */

/* A planned dial event: the nth call matching step `step` that is valid
 * and ready answers the dial (faults, timeouts, ratelimits, landed,
 * baddata); for lagged, the first read after the target write that would
 * show it. */
typedef struct task_event {
    enum knob dial;
    int step; /* 1-based */
    int nth;
} task_event;

typedef struct task_step {
    const tool *tool;
    value *args; /* every argument the step names, handed ones included */
    int takes_handed;
} task_step;

typedef struct task {
    char id[TASK_ID_LEN + 1];
    arm arm;
    uint64_t seed;
    char file_sha256[65];
    int depth;
    task_step steps[TASK_MAX_DEPTH];
    /* depth >= 2: step 1's answer field hand_field holds handed, which
     * steps 2..depth take as their argument hand_arg */
    const char *hand_field, *hand_arg;
    value *handed;
    /* hand_field is also the name of an argument of step 1's tool (no
     * other field could hand the value): on baddata and lagged arms the
     * read's answer then says the handed value there, not what it was
     * asked.  The task's JSON says "field_named_as_argument": true. */
    int hand_field_is_arg;
    /* baddata above level 0: the wrong value the named read answers
     * first, and (b1) the other arguments that answer is for */
    value *wrong;
    value *wrong_args;
    task_event events[TASK_MAX_EVENTS];
    int nevents;
    const char *request;
} task;

/* Reads a seed written in decimal, from 0 to TASK_SEED_MAX, digits only
 * (no sign, no space): 0, or -1 when text is not one. */
int task_seed_parse(const char *text, uint64_t *out);

/* Makes the task of (ts's file, seed, arm) in arena a.  Fails with
 * ERR_VALUE when the tools cannot build the arm's depth:
 *   depth 4 cannot be built from these tools: the longest chain is 3
 *   steps (search_orders, refund_order, notify_customer)
 * and ERR_NOMEM. */
int task_make(task **out, arena *a, const toolset *ts, uint64_t seed,
              const arm *arm, err *e);

/* The longest chain the tools can build (0 when there is no write), and
 * that chain's tools, comma-separated, in text (size bytes). */
int task_longest(const toolset *ts, char *text, size_t size);

/* 0 when the tools can build a chain of depth steps; else -1 with the
 * refusal task_make gives (ERR_VALUE). */
int task_check_depth(const toolset *ts, int depth, err *e);

/* The depth of an arm's tasks. */
int task_depth(const arm *a);

/* The task as a JSON value (docs/simulator.md), as `replay tasks` prints it
 * and a transcript's episode line may carry it. */
value *task_to_value(arena *a, const task *t, int generator_version);

/* Appends the canonical JSON text of task_to_value's value (canon.h),
 * written straight from the task: no tree is built, no key sorted.  -1
 * with e set (ERR_NOMEM, or what canon_append says of a drawn value). */
int task_write_json(buf *out, const task *t, int generator_version, err *e);

/* Where task_write_parts put each part: offsets into the buffer and
 * lengths (nbaddata 0: the task has no bad data). */
typedef struct task_parts {
    size_t steps, nsteps, events, nevents, baddata, nbaddata;
} task_parts;

/* Appends the values of the members "events", "steps" and "baddata" (when
 * the task has one) of task_write_json's text, each the very bytes it
 * writes there, and says where in *p: what a database row of the task
 * keeps, without the rest of the text.  -1 with e set as there. */
int task_write_parts(buf *out, const task *t, task_parts *p, err *e);

/* Reads a task as task_to_value writes it (a transcript's episode line
 * may carry one, to be used instead of making it), for the file ts, with
 * the seed and arm of the episode.  The task keeps pointers into v, which
 * must outlive it.  ERR_VALUE with one line when it does not hold
 * together (a tool the file does not have, a step without arguments...). */
int task_from_value(task **out, arena *a, const toolset *ts, const value *v,
                    uint64_t seed, const arm *arm, err *e);

#endif
