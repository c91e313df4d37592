/*
 * gate: whether a run NEW fell behind a run BASE, for a CI job to act on.
 * BASE's tasks are paired with NEW's on one measure (a compare verdict's:
 * pass, else the harness's success); a task of BASE that NEW lacks counts
 * as failed in NEW, unless missing tasks are left out.  The drop BASE -
 * NEW gets the interval a compare gives it (Tango's with one trial a task
 * on each side, else the mean of per-task differences clustered by task),
 * and NEW regressed only when the whole interval lies above the drop
 * allowed.  Nothing is judged when NEW has none of BASE's tasks (other
 * tasks, not a run cut short), nor with one task of several trials (no
 * interval): the gate then says so, and never passes.  Reads the trials
 * view; prints nothing.
 */
#ifndef TR_GATE_H
#define TR_GATE_H

#include <sqlite3.h>

#include "buf.h"
#include "err.h"
#include "stats.h"

typedef enum gate_outcome {
    GATE_PASSED = 0,
    GATE_REGRESSED,
    GATE_UNJUDGED
} gate_outcome;

#define GATE_MISSING_SHOWN 10

typedef struct gate {
    const char *measure; /* "pass" or "success" */
    double max_drop;     /* allowed, a fraction (percentage points / 100) */
    int missing_fail;    /* a task NEW lacks counts as failed there */
    long tasks;          /* paired: BASE's measured tasks (with the
                            missing ones when they count) */
    long missing;        /* BASE's measured tasks NEW lacks */
    long new_only;       /* NEW's measured tasks BASE lacks: not judged */
    int one_trial;       /* every pair: one trial on each side */
    double drop;         /* BASE - NEW */
    interval ci;         /* its 95% interval */
    gate_outcome outcome;
    char *missing_names[GATE_MISSING_SHOWN]; /* the first missing tasks,
                                                by name */
} gate;

/* Judges NEW against BASE on measure ("pass" or "success").  0, or -1
 * with e set. */
int gate_judge(gate *g, sqlite3 *db, const char *base, const char *new_run,
               const char *measure, double max_drop, int missing_fail,
               err *e);
void gate_free(gate *g);

/* The gate's verdict as one sentence, names as they are (each format
 * shows it its own way), ending in a period: "failed: new fell behind
 * base by 12.5 percentage points of pass rate (95% CI +4.1 to +20.9),
 * more than the 0.0 allowed, on 96 tasks (2 of them missing from new,
 * counted as failed)." */
void gate_text(buf *out, const gate *g, const char *base, const char *new_run);

#endif
