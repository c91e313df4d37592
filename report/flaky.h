/*
 * flaky: tasks whose outcome will not hold still.  Within a run, a task
 * some of whose trials passed and others failed (for observed episodes,
 * the harness's success over its judged trials); across the nights of
 * one series (trend.h: the same contract, and for simulated runs the same
 * file and generator), a task whose outcome (passed: every trial the
 * night judged passed) changed direction twice or more in the order
 * replayed (passed, failed, passed...): once is a change, not a flake.
 * Reads run_summary and trials; prints nothing.
 */
#ifndef TR_FLAKY_H
#define TR_FLAKY_H

#include <stddef.h>

#include <sqlite3.h>

#include "err.h"
#include "trend.h"

/* A task of one run, some trials passed and some failed. */
typedef struct flaky_trials {
    size_t night; /* the run (an index of the trend's nights) */
    char *task, *arm; /* arm NULL: observed */
    long passed, trials;
} flaky_trials;

/* A task whose outcome changed twice or more across a series' nights. */
typedef struct flaky_nights {
    char *task, *arm;
    size_t first, last; /* the series' nights it ran in: first and last */
    long nights, passed; /* nights it ran, nights it passed */
    long changes;        /* times its outcome changed */
    char *outcomes;      /* "+-+": its nights in order, + passed */
} flaky_nights;

typedef struct flaky {
    trend t;              /* the runs (their failing tasks too) */
    flaky_trials *within; /* by run, then task */
    size_t nwithin;
    long tasks_with_trials; /* tasks of several trials, over the runs */
    flaky_nights *across; /* the most changes first, then by task */
    size_t nacross;
} flaky;

/* The flaky tasks of the runs matching pattern and model (as
 * trend_load).  0, or -1 with e set. */
int flaky_load(flaky *f, sqlite3 *db, const char *pattern, const char *model,
               err *e);
void flaky_free(flaky *f);

#endif
