/*
 * db: the results database (sql/schema.sql, built into the program), as
 * the replayer writes it.
 *
 *  - db_open creates the schema or checks the version of an existing one
 *    (a newer schema is refused in one line; versions 1 to 8 are migrated,
 *    in one transaction, and db_migrated says so), and turns on WAL, so
 *    that readers never block the writer and a killed writer leaves the
 *    last committed transaction intact.
 *  - Writes go through prepared statements, inside transactions the caller
 *    opens and commits (db_begin, db_commit): what is not committed when
 *    the process dies is not there.
 *  - An episode is written whole, with its calls and dial outcomes, or
 *    not at all when it is recorded already (db_delete_episode, then).
 *  - A db is used by one thread at a time (it may be handed from one
 *    thread to another); SQLite's own locks on it are off.
 * Errors: ERR_IO with SQLite's message and the database's path.
 */
#ifndef TR_DB_H
#define TR_DB_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "tools.h"

#define DB_SCHEMA_VERSION 9

typedef struct db db;
struct sqlite3;

/* The schema version that the database `schema` ("main", or the name it
 * is attached under) of connection h records in its meta table; 0 when it
 * records none (not a results database, or a new file). */
int db_schema_version(struct sqlite3 *h, const char *schema);

typedef struct db_run {
    const char *run, *model, *meta_json, *file_sha256, *tools_path;
    const char *tools_found; /* where the tool file was read from, when
                                not where tools_path says; NULL: there */
    int generator_version;
    const char *generator_fingerprint, *replayed_at;
} db_run;

/* The fields said to hold a name (knob, a call's kind, error, effect and
 * dial, an outcome's dial and outcome) point to text that never changes
 * while the program runs: the names of the program's fixed tables
 * (knob_name, effect_name...) or literals; db_put_episode takes the same
 * pointer for the same text. */
typedef struct db_episode {
    const char *run, *episode;
    int observed; /* no task: seed, arm and every figure below are NULL */
    uint64_t seed;
    const char *arm, *knob; /* knob: a name */
    int level;
    const char *task_id;   /* NULL: none */
    const char *task_name; /* the harness's, or NULL */
    unsigned calls, reached, pass, side_effects, duplicate_writes, errors;
    unsigned err_by_code[6]; /* enum sim_error order */
    int unfinished;
    int diverged;   /* calls whose logged answer differs from the replayed
                       one; -1 (NULL) when no call had an answer logged:
                       nothing was compared, so no count can be given */
    int success;    /* -1: not given (NULL) */
    int has_reward; /* 0: reward NULL */
    double reward;
    const char *status, *final, *content_xxh3, *source_file;
    unsigned long source_line;
    int64_t input_tokens, output_tokens; /* -1: not logged (NULL) */
    double cost, duration;               /* NAN: not logged (NULL) */
} db_episode;

/* A call; the ints that may be NULL are -1 for NULL. */
typedef struct db_call {
    unsigned seq;
    int step; /* 0: none (NULL) */
    const char *tool;
    size_t tool_len;
    const char *kind;          /* a name; NULL for an unknown tool */
    const char *arguments;     /* canonical JSON, or NULL */
    const char *arguments_raw; /* the text sent, when not JSON, or NULL */
    size_t arguments_raw_len;
    int arguments_valid;          /* -1: unknown tool */
    const char *arguments_rule;   /* the rule broken, or NULL */
    const char *answer;        /* NULL: observed */
    const char *error;         /* a name; NULL: none */
    const char *effect;        /* a name; NULL: observed */
    const char *dial;          /* a name; NULL: none */
    int diverged;              /* -1: no answer logged */
    const char *logged_answer; /* NULL unless diverged (or observed) */
    int answer_valid;          /* -1: no answer logged, or no schema */
    const char *source_file;   /* recorded when not the episode's */
    unsigned long source_line;
    double duration;           /* seconds, as logged; NAN: not (NULL) */
} db_call;

typedef struct db_outcome {
    int event, step;
    const char *dial; /* a name */
    unsigned seq; /* 0: never fired (NULL) */
    const char *outcome; /* a name */
} db_outcome;

#define DB_PROBLEM_LINE 4096 /* bytes of a problem's line kept */

typedef struct db_problem {
    const char *source_file; /* the file's key: the same for every
                                spelling of its path (the caller's) */
    unsigned long source_line;
    /* a log's own problem (not of a line): its number among the file's
     * (1, 2...), recorded as source_line -N, and where in the log it is;
     * 0 and NULL for a line's */
    unsigned long log_problem;
    const char *place;
    const char *run, *episode; /* may be NULL */
    const char *message;
    const char *line;
    size_t line_len;
    const char *shown_file;  /* the path as the user named it, for what is
                                said; NULL: source_file.  Not recorded. */
} db_problem;

/* Opens (creating it when needed) the database at path. */
int db_open(db **out, const char *path, err *e);
/* The schema version the database had when db_open migrated it; 0 when
 * it did not. */
int db_migrated(const db *d);

/* Closes it; 0, or -1 when the last changes could not be written.  With
 * e, the write-ahead log is first copied into the database file, and a
 * failure there (a full disk) is an error that says the results are whole
 * in the log, PATH-wal; without e, a failure goes unsaid, as SQLite's own
 * close leaves it (for closes on a path that fails already). */
int db_close(db *d, err *e);

/* After each commit, notify(ctx, bytes) is told how many bytes of pages
 * the write-ahead log holds, and the log is no longer copied into the
 * database at 64 MiB: the caller checkpoints (NULL notify: back to
 * automatic checkpoints). */
int db_wal_notify(db *d, void (*notify)(void *ctx, uint64_t bytes),
                  void *ctx);

/* A second connection to the database at path, for db_checkpoint only
 * (closed with db_close); -1 with e set. */
int db_checkpoint_open(db **out, const char *path, err *e);

/* Copies the write-ahead log into the database: as far as it can without
 * waiting (wait 0), or all of it, waiting for the writer's transaction to
 * end (wait 1). */
int db_checkpoint(db *d, int wait, err *e);

int db_begin(db *d, err *e);
int db_commit(db *d, err *e);

/* Records a tool file (once per file hash). */
int db_put_tool_file(db *d, const toolset *ts, const char *path, err *e);

/* Records a run (a run recorded already gets this one's model, meta,
 * tools_path, tools_found and generator).  A run already recorded with
 * another tool file (file hash) is refused: 1, with the sentence in e;
 * else 0, or -1 on error. */
int db_put_run(db *d, const db_run *r, err *e);

/* Whether this connection has not yet been given the task of that id:
 * 1 (and from now on it has), 0, or -1 out of memory.  Ask before making
 * a task's JSON for db_put_task: most episodes share a task recorded
 * already. */
int db_task_is_new(db *d, const char *task_id, err *e);

/* Records a task of a tool file recorded before, from its canonical JSON
 * (as task_write_json writes it); a task recorded already stays as it
 * is. */
int db_put_task(db *d, const char *task_id, const char *file_sha256,
                uint64_t seed, const char *arm, int depth, int generator,
                const char *request, const char *task_json, err *e);

/* db_put_task from the values of the task's members "steps", "events"
 * and "baddata" (bad NULL: it has none), as task_write_parts writes
 * them. */
int db_put_task_parts(db *d, const char *task_id, const char *file_sha256,
                      uint64_t seed, const char *arm, int depth,
                      int generator, const char *request, const char *steps,
                      size_t nsteps, const char *events, size_t nevents,
                      const char *bad, size_t nbad, err *e);

/* Around a load of episodes.  Into a database that holds no episode and
 * no task yet, the lookup indexes are left out until db_load_end makes
 * them (once, sorted: cheaper than row by row), or until a lookup by
 * name needs them.  A load killed before its end leaves them out: the
 * next db_open makes them. */
int db_load_begin(db *d, err *e);
int db_load_end(db *d, err *e);

/* The content hash of an episode already recorded: 1 and hash filled,
 * 0 when there is none, -1 on error. */
int db_episode_hash(db *d, const char *run, const char *episode,
                    char hash[17], err *e);

/* Where the recorded episode's line is, "FILE:LINE", in where: 1 found,
 * 0 none, -1 on a database error. */
int db_episode_source(db *d, const char *run, const char *episode,
                      char *where, size_t size, err *e);

/* Writes an episode whole, unless one of its run and name is recorded
 * already: then 1, with that one's content hash in was, and nothing is
 * written (delete it first to replace it).  0 written, -1 on error.
 * Between db_load_begin and db_load_end on a new database nothing is
 * recorded before the load, so it is not looked up: the caller gives no
 * episode twice (the night refuses a second one). */
int db_put_episode(db *d, const db_episode *ep, const db_call *calls,
                   size_t ncalls, const db_outcome *outcomes,
                   size_t noutcomes, char was[17], err *e);

/* Deletes an episode, its calls and its dial outcomes. */
int db_delete_episode(db *d, const char *run, const char *episode, err *e);

/* Records a problem line (once per file and line). */
int db_put_problem(db *d, const db_problem *p, err *e);

/* Deletes the problems recorded for the lines of file.  0, or -1. */
int db_delete_problems(db *d, const char *file, err *e);

/* Deletes the problems recorded for run whose message begins with
 * prefix (the caller's words for a refusal of the run, which a later
 * replay of the run makes untrue), whatever file they came from.  0, or
 * -1. */
int db_delete_run_problems(db *d, const char *run, const char *prefix,
                           err *e);

typedef struct db_merge_counts {
    unsigned long episodes;  /* the shard's episodes */
    unsigned long added;     /* new to the database */
    unsigned long replaced;  /* there with other content: replaced */
    unsigned long unchanged; /* there with the same content: kept */
} db_merge_counts;

/* A shard is trusted for its rows only.  db_check_shard checks the
 * database at shard, opened read-only (a missing file is an error, never
 * created): its schema objects (sqlite_master's type, name, tbl_name and
 * sql) must be those of a database made from the built-in schema, no
 * more, no fewer, none changed (no trigger, table, index or view added,
 * none altered), and its meta table must record this schema version.
 * Anything else is refused in one sentence that says what differs
 * (ERR_VALUE: `SHARD: not a results database of this version: it has a
 * trigger "x" that replay does not make; ...`); ERR_IO when it cannot be
 * opened or read.  Its pages must then pass SQLite's quick_check
 * (ERR_VALUE: `SHARD: damaged: SQLite's check says "..."`; db.c says why
 * that is enough).  It may run in several threads at once, a connection
 * each.  db_copy_from and db_merge check the schema again, on the
 * connection they copy from. */
int db_check_shard(const char *shard, err *e);

/* db_open, for the database merged into: db_merge needs it (it attaches
 * shards read-only, which SQLite does only through URI filenames). */
int db_open_merge(db **out, const char *path, err *e);

/* Merges the database at shard (written by replay --shard, or any results
 * database; checked as db_check_shard does, and attached read-only) into
 * d, opened by db_open_merge, in one transaction: tool files, runs (a run
 * d holds keeps its row, tools_path and tools_found included, with the
 * earlier replay time of the two), tasks and problems once each; an
 * episode that d holds with the same content is kept, with other content
 * replaced by the shard's (its calls and dial outcomes with it), a new one
 * added.  A run the two record with different tool files refuses the
 * merge (ERR_VALUE); nothing is written then. */
int db_merge(db *d, const char *shard, db_merge_counts *c, err *e);

/* The episodes the database holds. */
unsigned long db_count_episodes(db *d);

/* Whether the database holds no run, episode or problem yet. */
int db_is_empty(db *d);

/* Makes d a page-for-page copy of the database at shard (opened
 * read-only, and checked as db_check_shard does): the first shard merged
 * into an empty database. */
int db_copy_from(db *d, const char *shard, err *e);

/* For a database file no one else uses yet, whose caller throws it away
 * on any failure and renames it into place when whole: db_build_begin
 * turns off SQLite's journal and syncs (every page then written once, not
 * twice); db_build_end turns the write-ahead log back on, as db_open
 * leaves every results database. */
int db_build_begin(db *d, err *e);
int db_build_end(db *d, err *e);

#endif
