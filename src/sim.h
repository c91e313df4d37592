/*
 * sim: one episode of the simulator (SPEC 3.3-3.8): a task, the calls in
 * order, and for each the answer the agent receives, with what it did
 * (its effect), the error code, the step it matched and the dial event it
 * fired.  sim_judge gives the episode's verdicts and dial outcomes; it is
 * the one place they are computed, for `replay sim` and the replayer.
 *
 * The rules (docs/simulator.md), in the order a call meets them: an
 * unknown tool answers not_found; arguments that break the input schema,
 * or that the schema check cannot decide on within its limits (schema.h),
 * invalid_arguments; a write matching step k before step k-1 is done,
 * not_ready; then a planned dial event on the call (unavailable, timeout,
 * rate_limited: nothing lands); then the call is accepted.  A read
 * answers its draw (saying what it was asked on baddata and lagged arms),
 * overlaid with the accepted writes its checkable arguments name, then the
 * handed value when it matches step 1.  A write lands in the store: the
 * expected write of a step moves its record, the same step made again is a
 * side effect and a duplicate write, any other write a side effect.
 */
#ifndef TR_SIM_H
#define TR_SIM_H

#include <stddef.h>

#include "answer.h"
#include "buf.h"
#include "err.h"
#include "task.h"
#include "tools.h"
#include "value.h"

enum effect {
    EFFECT_READ,
    EFFECT_EXPECTED_WRITE,
    EFFECT_SIDE_EFFECT,
    EFFECT_DUPLICATE_WRITE, /* a side effect too */
    EFFECT_REFUSED          /* answered an error; nothing landed */
};

enum outcome {
    OUTCOME_NOT_REACHED,
    OUTCOME_RETRIED,    /* faults, timeouts, ratelimits */
    OUTCOME_GAVE_UP,
    OUTCOME_CHECKED,    /* landed */
    OUTCOME_DUPLICATED, /* landed, lagged */
    OUTCOME_LEFT,       /* landed */
    OUTCOME_CAUGHT,     /* baddata */
    OUTCOME_FOOLED,
    OUTCOME_STALLED,
    OUTCOME_TRUSTED     /* lagged */
};

/* "read", "expected_write", "side_effect", "duplicate_write", "refused" */
const char *effect_name(enum effect e);
/* "not_reached", "retried", ... */
const char *outcome_name(enum outcome o);

typedef struct sim sim;

typedef struct sim_result {
    buf answer;       /* the answer, one line of JSON (no newline) */
    buf arguments;    /* the call's arguments as canonical JSON; empty when
                         they could not be read or written */
    const tool *tool; /* NULL for an unknown tool */
    enum effect effect;
    int error; /* an enum sim_error, or -1 */
    int step;  /* the step the call matched (1-based), or 0 */
    int event; /* the task event the call fired, or -1 */
} sim_result;

typedef struct sim_verdict {
    int reached; /* every write step done */
    int pass;    /* reached, no side effect, no duplicate write */
    unsigned calls, side_effects, duplicates;
    unsigned errors[SIM_RATE_LIMITED + 1]; /* by enum sim_error */
    int nevents;
    struct {
        unsigned call; /* 1-based call that fired it; 0: never fired */
        enum outcome outcome;
    } events[TASK_MAX_EVENTS];
} sim_verdict;

/* A new episode of task t on the tools ts (both outlive it). */
int sim_new(sim **out, const toolset *ts, const task *t, err *e);

/* Answers one call: tool name (len bytes) and its arguments (an object;
 * NULL for none).  bad_args, when not NULL, says why the arguments could
 * not be read (not JSON): the call then answers invalid_arguments with it.
 * r->answer is reset and filled.  0, or -1 out of memory. */
int sim_call(sim *s, const char *name, size_t len, const value *args,
             const char *bad_args, sim_result *r, err *e);

/* The verdicts and dial outcomes of the episode so far. */
void sim_judge(const sim *s, sim_verdict *v);

/* The verdict as JSON: {"reached", "pass", "calls", "side_effects",
 * "duplicate_writes", "errors": {code: count}, "dials": [{"dial", "step",
 * "call", "outcome"}]}; NULL out of memory. */
value *sim_verdict_value(arena *a, const task *t, const sim_verdict *v);

void sim_free(sim *s);

/* Starts a new episode of task t on the tools ts in s, as sim_free and
 * sim_new would, but keeping s's memory for it (a little: what a large
 * episode took is given back), for an engine that plays many episodes. */
void sim_reuse(sim *s, const toolset *ts, const task *t);

/* Whether the lagged dial can be seen on task t: some read of the file
 * that can name t's target write (its required arguments all among the
 * write's, with the same values) answers differently once the write's
 * arguments are laid over its answer, so a read that lags says something
 * other than the read after it.  1 yes, 0 no (the read shares only what it
 * was asked with the write, as on shop-mcp.json), -1 out of memory. */
int sim_lag_visible(const toolset *ts, const task *t, err *e);

#endif
