/*
 * policy: the scripted agents' policies (careful, blind_retrier,
 * trusts_first_read, believes_lagged_read, sloppy_arguments,
 * gives_up_on_error; policy.c defines each in words), with no input or
 * output, for tests/agents (through `replay sim`) and tests/nightgen (in
 * process).
 *
 * What the module promises:
 *  - a policy is a function of the task, the last answer and its own
 *    state: the same task and answers give the same calls;
 *  - it reads the task as `replay tasks` prints it (task_to_value's form,
 *    its members in any order) and the tool table as `replay tools --json`
 *    prints it or as a toolset holds it: the two give the same policy;
 *  - it reads answers in the tool file's idiom (OpenAI, MCP, OpenAPI);
 *  - it allocates only in the arena it is given and keeps pointers into
 *    the task, the tool table and the answers: all must outlive the
 *    episode;
 *  - every function fails only out of memory (NULL or -1), except the
 *    readers, which say why in *why (NULL: out of memory).
 */
#ifndef TR_POLICY_H
#define TR_POLICY_H

#include <stddef.h>

#include "arena.h"
#include "tools.h"
#include "value.h"

/* A driver stops a policy that makes more calls than this (a bug). */
#define POLICY_MAX_CALLS 200

/* The arms of the test matrix, in order: base, depth:d1..d3, faults,
 * timeouts, ratelimits (levels 0, 1, 2, 4), landed:l0,l1, baddata:b0..b3,
 * lagged:g0,g1. */
#define POLICY_NARMS 24
extern const char *const policy_arms[POLICY_NARMS];

typedef struct policy policy;             /* one of the policies */
typedef struct policy_tools policy_tools; /* a tool table, as they read it */
typedef struct policy_task policy_task;   /* a task, as they read it */
typedef struct policy_state policy_state; /* a policy's state in an episode */

/* The policies, in the order above. */
size_t policy_count(void);
const policy *policy_at(size_t i);
/* The policy named so, or NULL. */
const policy *policy_named(const char *name);
const char *policy_name(const policy *p);

/* The tool table of `replay tools --json` (its "format" and "tools"). */
policy_tools *policy_tools_from_json(arena *a, const value *table,
                                     const char **why);
/* The same from the toolset, which must outlive it; NULL out of memory. */
policy_tools *policy_tools_from_toolset(arena *a, const toolset *ts);

/* A task with its check read (a read, not step 1's tool, that takes the
 * argument the writes are keyed by and needs no other). */
policy_task *policy_task_read(arena *a, const value *task,
                              const policy_tools *tt, const char **why);

/* What an answer is, in the tool table's idiom: every error is treated
 * alike but a timeout, known by its message ("no answer in time..."). */
enum policy_reply {
    POLICY_NONE,    /* no call made yet */
    POLICY_OK,      /* an answer that is not an error */
    POLICY_ERROR,   /* an error other than a timeout */
    POLICY_TIMEOUT  /* a timeout: whether the call went through is unknown */
};
enum policy_reply policy_classify(const policy_tools *tt, const value *answer);

/* A policy's state at the start of an episode. */
policy_state *policy_begin(arena *a);

typedef struct policy_call {
    const char *tool;
    value *args; /* an object */
} policy_call;

/* The next call of policy p in *next and 1, or 0 when it stops; -1 out
 * of memory.  kind and answer are the last call's answer (POLICY_NONE
 * and NULL before the first call). */
int policy_next(const policy *p, const policy_task *t, enum policy_reply kind,
                const value *answer, policy_state *s, arena *a,
                policy_call *next);

#endif
