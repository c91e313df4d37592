/*
 * writer: the results database's own thread.  The night engine hands it
 * finished episodes, problem lines and run declarations, in input order;
 * it writes them in that order, in transactions of `batch` episodes (a
 * problem counts as one), while the engine goes on answering the next
 * calls.
 *
 *  - After writer_start, only the writer's thread uses the db, until
 *    writer_finish or writer_free has joined it.
 *  - At most `depth` jobs wait at once: handing over more blocks, so memory
 *    stays bounded whatever the input's size.
 *  - Notes that belong to the database's content ("changed since it was
 *    recorded: replaced", the problems said on diag) are printed by the
 *    writer, so they come out in input order.
 *  - The first database error stops it: every later call returns -1 with
 *    that error, and what was not committed is rolled back.
 *  - When the input has ended well (writer_finish), it commits the last
 *    batch and, loading into a new database, makes the lookup indexes
 *    (db_load_end) before it stops, while the copier still copies the
 *    log: the two overlap.
 */
#ifndef TR_WRITER_H
#define TR_WRITER_H

#include <stdint.h>
#include <stdio.h>

#include "db.h"
#include "err.h"
#include "task.h"
#include "tools.h"

typedef struct writer writer;

/* The writer's link in its queue; zeroed by whoever fills a job. */
typedef struct writer_job {
    struct writer_job *next;
    int kind;
} writer_job;

/* An episode, ready to be written.  The writer owns it until it gives it
 * back: release(owner) is then called on the engine's thread, from a
 * later writer_put_* or from writer_finish or writer_free. */
typedef struct writer_episode {
    writer_job job;
    db_episode row;          /* row.content_xxh3 decides skip or replace */
    const db_call *calls;
    size_t ncalls;
    db_outcome outcomes[TASK_MAX_EVENTS];
    size_t noutcomes;
    /* its task, recorded once per task id */
    const char *file_sha256, *request;
    int depth;
    const char *task_json;   /* the task, canonical JSON; NULL: the writer
                                writes the parts a row keeps from task
                                (task_write_parts), on its own thread, off
                                the engine's */
    const task *task;        /* unchanged until the episode is released */
    unsigned long lines;     /* its lines: counted used, or unchanged */
    void (*release)(void *owner);
    void *owner;
} writer_episode;

/* What the writer did, for the summary. */
typedef struct writer_counts {
    unsigned long used, unchanged;       /* lines of the episodes */
    unsigned long episodes, skipped, replaced, unfinished, calls;
    double cpu_write, cpu_copy; /* CPU seconds of the two threads, once
                                   each has ended (writer_finish) */
} writer_counts;

/* Starts the thread on d, the database at path (d stays the caller's, to
 * close after writer_finish or writer_free), and a second one that copies
 * the write-ahead log into the database on its own connection.  batch:
 * episodes per transaction; depth: jobs that may wait; say: problems
 * printed on diag one by one before the rest are only counted. */
int writer_start(writer **out, db *d, const char *path, FILE *diag,
                 unsigned batch, unsigned depth, unsigned long say, err *e);

/* Hands an episode over (it is the writer's even when this fails; it is
 * released then). */
int writer_put_episode(writer *w, writer_episode *ep, err *e);

/* Records a problem line (copied): under p->source_file, said on diag
 * with p->shown_file when it is set. */
int writer_put_problem(writer *w, const db_problem *p, err *e);

/* The same, for an episode line of an episode seen before: the message
 * gets "; the first is at FILE:LINE" when the database holds it. */
int writer_put_problem_first(writer *w, const db_problem *p, err *e);

/* A file begins: the problems recorded for it by an earlier replay are
 * deleted (in input order, so its new ones stay). */
int writer_clear_problems(writer *w, const char *file, err *e);

/* A run is replayed: the problems recorded for it whose message begins
 * with prefix (what an earlier replay said when it refused the run) are
 * deleted, in input order, whatever file they came from. */
int writer_forget_problems(writer *w, const char *run, const char *prefix,
                           err *e);

/* Records a problem line without saying it. */
int writer_put_problem_quiet(writer *w, const db_problem *p, err *e);

/* A progress line may stand on diag: every line said ends it first. */
void writer_clear_lines(writer *w);

/* Says "replay: FILE: msg" on diag, in input order; records nothing. */
int writer_note(writer *w, const char *file, const char *msg, err *e);

/* Records a tool file and a run, and waits for the answer: 0 recorded,
 * 1 refused (the run is recorded with another tool file, or its meta
 * cannot be written: the sentence in e), -1 on a database error. */
int writer_put_run(writer *w, const toolset *ts, const char *path,
               const db_run *r, err *e);

/* Writes what waits, commits, and ends the thread. */
int writer_finish(writer *w, err *e);

/* The counts so far (exact once finished). */
void writer_get_counts(writer *w, writer_counts *c);

/* Ends the thread if it runs, dropping what waits and rolling back what
 * is not committed. */
void writer_free(writer *w);

#endif
