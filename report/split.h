/*
 * split: runs narrowed to some of their trials, named RUN@A-B (trials A
 * to B of each task) or RUN@N (trial N), so that two epochs, or two
 * halves, of one run are cards and a compare of their own.  A task's
 * trials are counted from 1 in the order the run's episodes were written
 * (an episode of no task is trial 1 of its own); RUN is found as any run
 * name is (card_run_named: whole, or by its beginning), and a run whose
 * whole name is the one given (a run named "x@1") stays itself.
 *
 * split_prepare makes the narrowed runs on the card's connection only, and
 * writes nothing to the database: TEMP copies of the tables that hold
 * runs, episodes, calls, dial outcomes and problems, with the named runs
 * whole and each narrowed run as a run of its own, and TEMP views of the
 * same names and queries as the database's, which SQLite reads before
 * the database's own; the tasks and tool files stay the database's.
 */
#ifndef TR_SPLIT_H
#define TR_SPLIT_H

#include <sqlite3.h>

#include "err.h"

/* Whether name asks for a narrowed run (ends in "@N" or "@A-B"). */
int split_named(const char *name);

/* Makes the narrowed runs among names[0..n) (and keeps the others whole)
 * when any is one: then 1, and named[i] (free() them) is the name each
 * run now stands under, found as card_run_named finds a run: the whole
 * run's name, and for a narrowed one its trials after it ("steady@1-2",
 * "steady@3").  0 when none is narrowed (named untouched, nothing made);
 * -1 with e set: ERR_VALUE when a run is not found (the message lists the
 * runs there are), or a narrowed one asks for trials its run does not
 * have ("steady has at most 3 trials of a task"); ERR_IO when the
 * database cannot be read. */
int split_prepare(sqlite3 *db, const char *const *names, int n,
                  char **named, err *e);

#endif
