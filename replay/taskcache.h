/*
 * taskcache: the tasks a night makes, kept while episodes share them.
 *
 * A night often has many episodes of one task: repeated trials, or a
 * harness that reuses seeds.  Making a task (drawing its chain, its values
 * and its request) costs far more than answering a call, so the engine
 * asks here first.
 *
 *  - A task is kept per (tool table, seed, arm), with its canonical JSON,
 *    from the second time it is asked for (the first time only its key is
 *    remembered, and the caller makes it: most nights ask for most tasks
 *    once), and lent out: each loan is matched by one taskcache_release.
 *  - At most `max` tasks are kept; past that, the least recently used one
 *    that nobody holds is freed.  Tasks still held are never freed, so the
 *    memory follows max plus the episodes open at once.
 *  - A key is found through a hash table (no scan of the slots); making
 *    room walks the slots in order of use, from the least recent, past
 *    the held ones.
 *  - Only tasks made by task_make are kept; a refused seed is not, and
 *    neither is a task an episode line hands in.
 *  - One thread uses it (the engine's).
 */
#ifndef TR_TASKCACHE_H
#define TR_TASKCACHE_H

#include <stddef.h>
#include <stdint.h>

#include "arm.h"
#include "err.h"
#include "task.h"
#include "tools.h"

typedef struct taskcache taskcache;
typedef struct task_loan task_loan;

/* A cache of at most max tasks (0: 256); NULL out of memory. */
taskcache *taskcache_new(size_t max);

/* The task of (ts, seed, arm): 0 with it in *t, its canonical JSON
 * (GENERATOR_VERSION) in *json and what to give back in *loan; 1 when it
 * is asked for the first time (make it yourself; *loan is NULL); -1 with e
 * set as task_make sets it (a depth the tools cannot build...). */
int taskcache_get(taskcache *c, const toolset *ts, uint64_t seed,
                  const arm *a, const task **t, const char **json,
                  task_loan **loan, err *e);

/* Gives a task back (NULL: nothing). */
void taskcache_release(task_loan *loan);

/* Frees every task; none may be held. */
void taskcache_free(taskcache *c);

#endif
