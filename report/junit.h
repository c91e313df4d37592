/*
 * junit: a run's tasks, or a run's tasks against a baseline's, as JUnit
 * XML, the test report GitLab, Jenkins and GitHub's test reporters read:
 * one testsuite, a testcase per task (named by the task, its class name
 * the run and arm), its trials' episodes inside.  Alone, a task fails
 * when one of its trials failed, and the failure names each failed
 * trial's episode and class; against a baseline, it fails only when it
 * did worse than there (or is missing, when missing tasks count as
 * failed), and a task that fails on both sides is skipped, its message
 * saying so.  Names are shown as every card shows them (controls and
 * characters XML cannot hold written as escapes, markup as character
 * references), so any name gives well-formed XML; docs/card.md maps
 * every element, tests/junit.xsd is the schema the tests check it
 * against.  Reads the database; prints nothing.
 */
#ifndef TR_JUNIT_H
#define TR_JUNIT_H

#include <sqlite3.h>

#include "buf.h"
#include "carddata.h"
#include "err.h"

/* The run's report, into out.  0, or -1 with e set. */
int junit_run(buf *out, sqlite3 *db, const card *c, err *e);

/* NEW's report against BASE (the two runs of a comparable x: a is BASE,
 * b NEW).  A task is measured as everywhere: a simulated one by pass, an
 * observed one by the harness's success over its judged trials.  0, or
 * -1 with e set. */
int junit_compare(buf *out, sqlite3 *db, const card_compared *x,
                  int missing_fail, err *e);

#endif
