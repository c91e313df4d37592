/*
 * dbread: how the card modules read the results database: a statement
 * prepared with a run bound to its first parameter, a column's text as a
 * string of one's own, a failed step said in one line, an array of rows
 * that grows as they come, and the orders in which every card lists arms
 * and tasks.
 */
#ifndef TR_DBREAD_H
#define TR_DBREAD_H

#include <sqlite3.h>

#include "err.h"

/* Prepares sql, binding run (when not NULL) to its first parameter (run
 * must outlive the statement).  0, or -1 with e set (ERR_IO). */
int rd_prepare(sqlite3 *db, const char *sql, const char *run,
               sqlite3_stmt **s, err *e);

/* A statement stepped to an error: -1 with e set (ERR_IO). */
int rd_failed(sqlite3 *db, err *e);

/* Finalizes s, stepped to rc: 0 when rc is SQLITE_DONE (or
 * SQLITE_ROW, a step that stopped at its row), else -1 with e set:
 * ERR_NOMEM when nomem (a copy failed), else the database's error. */
int rd_finish(sqlite3 *db, sqlite3_stmt *s, int rc, int nomem, err *e);

/* Column i's text, copied ("" for NULL); NULL out of memory. */
char *rd_text(sqlite3_stmt *s, int i);

/* Column i's text copied, or NULL when the column is NULL; *nomem set
 * when the copy failed. */
char *rd_text_or_null(sqlite3_stmt *s, int i, int *nomem);

/* Room for one more row in *array (of n rows of size bytes, *cap
 * allocated): grown twofold (64 at first) when full.  0, or -1 out of
 * memory (*array untouched). */
int rd_grow(void *array, size_t *cap, size_t n, size_t size);

/* strcmp's sign for two tasks in the trials view's order: simulated
 * before observed, then by name (bytes). */
int rd_task_cmp(int observed_a, const char *a, int observed_b, const char *b);

/* An arm's place in the cards' order: by knob, then level; an id that
 * is not an arm after every arm. */
int rd_arm_rank(const char *id);

/* strcmp's sign for two arm ids in that order (then by name). */
int rd_arm_cmp(const char *a, const char *b);

#endif
