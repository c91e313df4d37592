/* db: see db.h; the schema is sql/schema.sql. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "db.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "buf.h"
#include "idset.h"
#include "keymap.h"
#include "utf8.h"

extern const char schema_sql[]; /* made from sql/schema.sql */

enum stmt {
    S_TOOL_FILE,
    S_FILE_ID,
    S_RUN_FILE,
    S_RUN,
    S_TASK,
    S_EPISODE_FIND,
    S_DELETE_CALLS,
    S_DELETE_OUTCOMES,
    S_DELETE_EPISODE,
    S_EPISODE,
    S_OUTCOME,
    S_PROBLEM,
    S_DELETE_PROBLEMS,
    S_DELETE_RUN_PROBLEMS,
    S_BEGIN,
    S_COMMIT,
    NSTMT
};

static const char *const stmt_sql[NSTMT] = {
    [S_TOOL_FILE] = "INSERT OR IGNORE INTO tool_files (file_sha256, "
                    "contract_sha256, format, path, tools, refused, contract) "
                    "VALUES (?,?,?,?,?,?,?)",
    [S_FILE_ID] = "SELECT file_id FROM tool_files WHERE file_sha256 = ?",
    [S_RUN_FILE] = "SELECT file_sha256, run_id FROM runs WHERE run = ?",
    [S_RUN] = "INSERT INTO runs (run, model, meta, file_sha256, tools_path, "
              "generator_version, generator_fingerprint, replayed_at, "
              "tools_found) VALUES (?,?,?,?,?,?,?,?,?) "
              "ON CONFLICT(run) DO UPDATE SET "
              "model = excluded.model, meta = excluded.meta, "
              "tools_path = excluded.tools_path, "
              "tools_found = excluded.tools_found, "
              "generator_version = excluded.generator_version, "
              "generator_fingerprint = excluded.generator_fingerprint "
              "RETURNING run_id",
    [S_TASK] = "INSERT OR IGNORE INTO task_rows (task_id, file_id, seed, arm, "
               "depth, generator, request, steps, events, baddata) "
               "VALUES (?,?,?,?,?,?,?,?,?,?)",
    [S_EPISODE_FIND] = "SELECT e.episode_id, e.content_xxh3, e.source_file, "
                       "e.source_line FROM episode_rows e JOIN runs r "
                       "ON r.run_id = e.run_id "
                       "WHERE r.run = ? AND e.episode = ?",
    [S_DELETE_CALLS] = "DELETE FROM call_rows WHERE episode_id = ?",
    [S_DELETE_OUTCOMES] = "DELETE FROM outcome_rows WHERE episode_id = ?",
    [S_DELETE_EPISODE] = "DELETE FROM episode_rows WHERE episode_id = ?",
    [S_EPISODE] = "INSERT INTO episode_rows (run_id, episode, seed, arm, knob, "
                  "level, task_id, task_name, calls, reached, pass, "
                  "side_effects, duplicate_writes, errors, err_not_found, "
                  "err_invalid_arguments, err_not_ready, err_unavailable, "
                  "err_timeout, err_rate_limited, unfinished, diverged, "
                  "success, reward, status, final, content_xxh3, "
                  "source_file, source_line, input_tokens, output_tokens, "
                  "cost, duration) VALUES "
                  "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,"
                  "?,?,?,?)",
    [S_OUTCOME] = "INSERT INTO outcome_rows (episode_id, event, dial, step, "
                  "seq, outcome) VALUES (?,?,?,?,?,?)",
    [S_DELETE_PROBLEMS] = "DELETE FROM problems WHERE source_file = ?",
    [S_DELETE_RUN_PROBLEMS] = "DELETE FROM problems WHERE run = ?1 AND "
                              "substr(message, 1, length(?2)) = ?2",
    [S_PROBLEM] = "INSERT OR REPLACE INTO problems (source_file, source_line, "
                  "run, episode, message, line, place) "
                  "VALUES (?,?,?,?,?,?,?)",
    [S_BEGIN] = "BEGIN IMMEDIATE",
    [S_COMMIT] = "COMMIT",
};

/* An episode's calls go in with one statement per CALLS_AT_ONCE of them:
 * a statement's start and end cost SQLite as much as a row. */
#define CALLS_AT_ONCE 8
#define CALL_COLUMNS 19
#define EPISODE_COLUMNS 33
#define OUTCOME_COLUMNS 6

/* What a parameter of the statements run for every episode, call and
 * outcome holds, when it is NULL or an integer: binding it again what it
 * holds is left out.  A bind costs SQLite about as much as the row's
 * other work per column, and many are the same from row to row (NULLs,
 * flags, the episode's key).  These statements' bindings are never
 * cleared: every parameter is bound before each step. */
enum { HELD_OTHER, HELD_NULL, HELD_INT, HELD_NAME };
typedef struct held {
    int64_t n;
    const char *name;
    int kind;
} held;

struct db {
    sqlite3 *h;
    char *path;
    int uri; /* opened by db_open_merge: ATTACH takes URIs */
    /* merging: the folders of the shard being merged and of this
     * database, resolved, for tr_rekey (NULL: keys are kept as they are) */
    char *rekey_from, *rekey_to;
    int migrated; /* the version it had, when db_open migrated it */
    /* loading into a new database: the two lookup indexes are left out
     * until db_load_end (or until a lookup by name needs them) */
    int bare;
    unsigned page_size; /* as the database has it */
    idset tasks; /* tasks written by this connection (keyed hashes) */
    uint64_t secret;
    keymap runs, files; /* names looked up, with their integer keys */
    sqlite3_stmt *st[NSTMT];
    sqlite3_stmt *calls[CALLS_AT_ONCE]; /* [k - 1] inserts k rows */
    held calls_held[CALLS_AT_ONCE][CALLS_AT_ONCE * CALL_COLUMNS];
    held episode_held[EPISODE_COLUMNS], outcome_held[OUTCOME_COLUMNS];
    struct {
        void (*notify)(void *ctx, uint64_t bytes);
        void *ctx;
    } hook;
};

static int fail(db *d, err *e, const char *doing)
{
    return err_set(e, ERR_IO, "%s: cannot %s: %s", d->path, doing,
                   d->h ? sqlite3_errmsg(d->h) : "out of memory");
}

static int exec(db *d, const char *sql, err *e, const char *doing)
{
    char *msg = NULL;
    if (sqlite3_exec(d->h, sql, NULL, NULL, &msg) != SQLITE_OK) {
        err_set(e, ERR_IO, "%s: cannot %s: %s", d->path, doing,
                msg ? msg : sqlite3_errmsg(d->h));
        sqlite3_free(msg);
        return -1;
    }
    return 0;
}

/* The page size of a new database.  A night is loaded in key order, rows
 * appended at the end of each table: with pages four times the default,
 * SQLite looks up, logs and copies a quarter as many pages, each with its
 * own system calls, and the file is no larger (docs/speed.md has the
 * figures). */
#define PAGE_SIZE_TEXT "16384"

/* The log is copied into the database at about this size, when nothing
 * else copies it (db_wal_notify). */
#define AUTO_CHECKPOINT_BYTES (64u << 20)

/* Reads the page size the database has into d->page_size. */
static int read_page_size(db *d, err *e)
{
    sqlite3_stmt *s = NULL;
    int rc = sqlite3_prepare_v2(d->h, "PRAGMA page_size", -1, &s, NULL);
    if (rc == SQLITE_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
        int n = sqlite3_column_int(s, 0);
        d->page_size = n >= 512 ? (unsigned)n : 4096;
        rc = SQLITE_OK;
    }
    sqlite3_finalize(s);
    return rc == SQLITE_OK ? 0 : fail(d, e, "read its page size");
}

static int auto_frames(const db *d)
{
    return (int)(AUTO_CHECKPOINT_BYTES / d->page_size);
}

int db_schema_version(sqlite3 *h, const char *schema)
{
    char sql[128];
    sqlite3_stmt *s = NULL;
    int version = 0;
    snprintf(sql, sizeof sql, "SELECT value FROM %s.meta WHERE key = "
                              "'schema_version'",
             schema);
    if (sqlite3_prepare_v2(h, sql, -1, &s, NULL) == SQLITE_OK &&
        sqlite3_step(s) == SQLITE_ROW)
        version = sqlite3_column_int(s, 0);
    sqlite3_finalize(s);
    return version;
}

/* The version an existing database holds (0: a new database); a file
 * with tables but no version is refused. */
static int schema_version(db *d, int *version, err *e)
{
    sqlite3_stmt *s = NULL;
    *version = db_schema_version(d->h, "main");
    if (*version)
        return 0;
    if (sqlite3_prepare_v2(d->h, "SELECT count(*) FROM sqlite_master", -1,
                           &s, NULL) != SQLITE_OK ||
        sqlite3_step(s) != SQLITE_ROW) {
        sqlite3_finalize(s);
        return fail(d, e, "read it (is it an SQLite database?)");
    }
    int n = sqlite3_column_int(s, 0);
    sqlite3_finalize(s);
    if (n)
        return err_set(e, ERR_IO, "%s: holds tables but no taskreplay "
                                  "schema version; replay into a new file "
                                  "with --db",
                       d->path);
    return 0;
}

/* The statements that insert 1 to CALLS_AT_ONCE calls: this, then k - 1
 * more rows of CALL_COLUMNS parameters.  OR ROLLBACK: a statement of
 * several rows that may stop half-way with ABORT (SQLite's default) needs
 * a statement journal, a temporary file that takes the whole of every
 * page the statement touches; that was nearly nine bytes in ten of all
 * the bytes a replay wrote.  A failed insert ends the night either way
 * (the writer stops, and its open transaction is rolled back). */
static const char call_sql[] =
    "INSERT OR ROLLBACK INTO call_rows (episode_id, seq, step, tool, kind, "
    "arguments, arguments_raw, arguments_valid, arguments_rule, answer, "
    "error, effect, dial, diverged, logged_answer, answer_valid, "
    "source_file, source_line, duration) "
    "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";

static int prepare_calls(db *d, err *e)
{
    static const char row[] = ",(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
    char sql[sizeof call_sql + CALLS_AT_ONCE * sizeof row];
    for (int k = 1; k <= CALLS_AT_ONCE; k++) {
        size_t n = sizeof call_sql - 1;
        memcpy(sql, call_sql, n);
        for (int r = 1; r < k; r++, n += sizeof row - 1)
            memcpy(sql + n, row, sizeof row - 1);
        sql[n] = '\0';
        if (sqlite3_prepare_v3(d->h, sql, -1, SQLITE_PREPARE_PERSISTENT,
                               &d->calls[k - 1], NULL) != SQLITE_OK)
            return fail(d, e, "prepare its statements");
    }
    return 0;
}

static char *file_uri(const char *path, const char *query);

/* Runs sql in a transaction of its own; -1 (rolled back) with e set. */
static int exec_txn(db *d, const char *sql, err *e, const char *doing)
{
    if (exec(d, "BEGIN IMMEDIATE", e, doing) < 0)
        return -1;
    if (exec(d, sql, e, doing) < 0 || exec(d, "COMMIT", e, doing) < 0) {
        sqlite3_exec(d->h, "ROLLBACK", NULL, NULL, NULL);
        return -1;
    }
    return 0;
}

#define TEXT_OF(x) #x
#define VERSION_TEXT(x) TEXT_OF(x)
static const char set_version[] =
    "INSERT OR REPLACE INTO meta VALUES ('schema_version', '" VERSION_TEXT(
        DB_SCHEMA_VERSION) "');";

static int create(db *d, err *e)
{
    buf b = BUF_INIT;
    buf_puts(&b, schema_sql);
    buf_puts(&b, set_version);
    int rc = b.failed ? err_set(e, ERR_NOMEM, "out of memory")
                      : exec_txn(d, b.data, e, "create the schema");
    buf_free(&b);
    return rc;
}

/* Version 1 to 2, in one transaction: the tables of version 1 are
 * renamed, the schema of version 2 made, the rows copied over in their
 * order (so that keys follow it), and the old tables dropped.  Calls keep
 * the diverged that version 1 gave them (0 there may mean that no answer
 * was logged); arguments that were not JSON were not kept by version 1. */
static const char migrate_1[] =
    "DROP VIEW IF EXISTS run_summary; DROP VIEW IF EXISTS arm_summary;"
    "DROP VIEW IF EXISTS dial_summary; DROP INDEX IF EXISTS episodes_by_arm;"
    "ALTER TABLE tool_files RENAME TO v1_tool_files;"
    "ALTER TABLE runs RENAME TO v1_runs;"
    "ALTER TABLE tasks RENAME TO v1_tasks;"
    "ALTER TABLE episodes RENAME TO v1_episodes;"
    "ALTER TABLE calls RENAME TO v1_calls;"
    "ALTER TABLE dial_outcomes RENAME TO v1_dial_outcomes;";

static const char migrate_1_rows[] =
    "INSERT INTO tool_files (file_sha256, contract_sha256, format, path, "
    "tools, refused, contract) SELECT file_sha256, contract_sha256, format, "
    "path, tools, refused, contract FROM v1_tool_files ORDER BY rowid;"
    "INSERT INTO runs (run, model, meta, file_sha256, tools_path, "
    "generator_version, generator_fingerprint, replayed_at) SELECT run, "
    "model, meta, file_sha256, tools_path, generator_version, "
    "generator_fingerprint, replayed_at FROM v1_runs ORDER BY rowid;"
    "INSERT INTO task_rows (task_id, file_id, seed, arm, depth, generator, "
    "request, steps, events, baddata) SELECT t.task_id, f.file_id, t.seed, "
    "t.arm, t.depth, json_extract(t.task, '$.generator'), t.request, "
    "json_extract(t.task, '$.steps'), json_extract(t.task, '$.events'), "
    "json_extract(t.task, '$.baddata') FROM v1_tasks t "
    "JOIN tool_files f ON f.file_sha256 = t.file_sha256 ORDER BY t.rowid;"
    "INSERT INTO episode_rows (run_id, episode, seed, arm, knob, level, "
    "task_id, calls, reached, pass, side_effects, duplicate_writes, errors, "
    "err_not_found, err_invalid_arguments, err_not_ready, err_unavailable, "
    "err_timeout, err_rate_limited, unfinished, diverged, status, final, "
    "content_xxh3, source_file, source_line) SELECT r.run_id, e.episode, "
    "e.seed, e.arm, e.knob, e.level, e.task_id, e.calls, e.reached, e.pass, "
    "e.side_effects, e.duplicate_writes, e.errors, e.err_not_found, "
    "e.err_invalid_arguments, e.err_not_ready, e.err_unavailable, "
    "e.err_timeout, e.err_rate_limited, e.unfinished, e.diverged, e.status, "
    "e.final, e.content_xxh3, e.source_file, e.source_line "
    "FROM v1_episodes e JOIN runs r ON r.run = e.run ORDER BY e.rowid;"
    "INSERT INTO call_rows (episode_id, seq, step, tool, kind, arguments, "
    "answer, error, effect, dial, diverged, logged_answer, source_file, "
    "source_line) SELECT n.episode_id, c.seq, c.step, c.tool, c.kind, "
    "c.arguments, c.answer, c.error, c.effect, c.dial, c.diverged, "
    "c.logged_answer, nullif(c.source_file, n.source_file), "
    "c.source_line FROM v1_calls c JOIN runs r ON r.run = c.run "
    "JOIN episode_rows n ON n.run_id = r.run_id AND n.episode = c.episode "
    "ORDER BY n.episode_id, c.seq;"
    "INSERT INTO outcome_rows (episode_id, event, dial, step, seq, outcome) "
    "SELECT n.episode_id, o.event, o.dial, o.step, o.seq, o.outcome "
    "FROM v1_dial_outcomes o JOIN runs r ON r.run = o.run "
    "JOIN episode_rows n ON n.run_id = r.run_id AND n.episode = o.episode "
    "ORDER BY n.episode_id, o.event;"
    "DROP TABLE v1_dial_outcomes; DROP TABLE v1_calls; DROP TABLE v1_episodes;"
    "DROP TABLE v1_tasks; DROP TABLE v1_runs; DROP TABLE v1_tool_files;";

/* Version 2 to 3: run_summary gives NULL, not 0, for what was not
 * measured (made again from the schema), and an episode none of whose
 * calls was compared has diverged NULL, as version 3 writes it. */
static const char migrate_2[] = "DROP VIEW IF EXISTS run_summary;";
static const char migrate_2_rows[] =
    "UPDATE episode_rows SET diverged = NULL WHERE seed IS NOT NULL AND "
    "diverged IS NOT NULL AND NOT EXISTS (SELECT 1 FROM call_rows c WHERE "
    "c.episode_id = episode_rows.episode_id AND c.diverged IS NOT NULL);";

/* Version 3 to 4: runs gains tools_found.  The table is made again from
 * the schema, not altered: ALTER TABLE ADD COLUMN would leave its CREATE
 * text other than the schema's, and a merge takes only a database whose
 * schema text is the built-in one (check_shard).  Its rows wait in a
 * temporary table, and go back with their keys; the views that name runs
 * find the new table by its name, and run_summary is made again with the
 * new column.  A run of version 3 has tools_found NULL: where its file
 * was found was not kept. */
static const char migrate_3[] =
    "DROP VIEW IF EXISTS run_summary;"
    "CREATE TEMP TABLE v3_runs AS SELECT run_id, run, model, meta, "
    "file_sha256, tools_path, generator_version, generator_fingerprint, "
    "replayed_at FROM runs;"
    "DROP TABLE runs;";
static const char migrate_3_rows[] =
    "INSERT INTO runs (run_id, run, model, meta, file_sha256, tools_path, "
    "generator_version, generator_fingerprint, replayed_at) SELECT run_id, "
    "run, model, meta, file_sha256, tools_path, generator_version, "
    "generator_fingerprint, replayed_at FROM temp.v3_runs ORDER BY run_id;"
    "DROP TABLE temp.v3_runs;";

/* Version 4 to 5: problems gains place (a log's own problems are
 * recorded too), made again from the schema for the reason above; its
 * rows, whose layout every version before shared, wait in a temporary
 * table. */
static const char migrate_4[] =
    "CREATE TEMP TABLE v4_problems AS SELECT source_file, source_line, run, "
    "episode, message, line FROM problems ORDER BY rowid;"
    "DROP TABLE problems;";
static const char migrate_4_rows[] =
    "INSERT INTO problems (source_file, source_line, run, episode, message, "
    "line) SELECT source_file, source_line, run, episode, message, line "
    "FROM temp.v4_problems ORDER BY rowid;"
    "DROP TABLE temp.v4_problems;";

/* Version 5 to 6: episodes gain input_tokens, output_tokens, cost and
 * duration, calls duration (what a log says the episode used), NULL in
 * every row of version 5.  Both tables are made again from the schema,
 * for the reason above, their rows waiting in temporary tables with their
 * keys; the views episodes and calls are made again with the new
 * columns, and the others find the new tables by name.  Version 1's
 * tables are made anew by migrate_1, in this layout already. */
static const char migrate_5[] =
    "DROP VIEW IF EXISTS episodes; DROP VIEW IF EXISTS calls;"
    "CREATE TEMP TABLE v5_episode_rows AS SELECT * FROM episode_rows;"
    "CREATE TEMP TABLE v5_call_rows AS SELECT * FROM call_rows;"
    "DROP TABLE call_rows; DROP TABLE episode_rows;";
static const char migrate_5_rows[] =
    "INSERT INTO episode_rows (episode_id, run_id, episode, seed, arm, knob, "
    "level, task_id, task_name, calls, reached, pass, side_effects, "
    "duplicate_writes, errors, err_not_found, err_invalid_arguments, "
    "err_not_ready, err_unavailable, err_timeout, err_rate_limited, "
    "unfinished, diverged, success, reward, status, final, content_xxh3, "
    "source_file, source_line) SELECT episode_id, run_id, episode, seed, "
    "arm, knob, level, task_id, task_name, calls, reached, pass, "
    "side_effects, duplicate_writes, errors, err_not_found, "
    "err_invalid_arguments, err_not_ready, err_unavailable, err_timeout, "
    "err_rate_limited, unfinished, diverged, success, reward, status, final, "
    "content_xxh3, source_file, source_line FROM temp.v5_episode_rows "
    "ORDER BY episode_id;"
    "INSERT INTO call_rows (episode_id, seq, step, tool, kind, arguments, "
    "arguments_raw, arguments_valid, arguments_rule, answer, error, effect, "
    "dial, diverged, logged_answer, answer_valid, source_file, source_line) "
    "SELECT episode_id, seq, step, tool, kind, arguments, arguments_raw, "
    "arguments_valid, arguments_rule, answer, error, effect, dial, diverged, "
    "logged_answer, answer_valid, source_file, source_line "
    "FROM temp.v5_call_rows ORDER BY episode_id, seq;"
    "DROP TABLE temp.v5_call_rows; DROP TABLE temp.v5_episode_rows;";

/* Version 6 to 7: the view episode_outcomes, which the schema makes;
 * no table changes. */

/* Version 7 to 8: the summary views grouped by run name, so that a filter
 * on it reaches the tables (the schema makes them again); no table
 * changes.  Every older version had them grouped by run_id. */
static const char migrate_7[] =
    "DROP VIEW IF EXISTS run_summary; DROP VIEW IF EXISTS arm_summary; "
    "DROP VIEW IF EXISTS dial_summary; DROP VIEW IF EXISTS trials;";

/* Version 8 to 9: the view run_interval, which the schema makes; no
 * table changes. */

static int migrate(db *d, int from, err *e)
{
    if (from < 1 || from > 8)
        return err_set(e, ERR_IO, "%s: has schema version %d, which this "
                                  "replay cannot migrate; replay the night "
                                  "into a new file with --db",
                       d->path, from);
    buf b = BUF_INIT;
    if (from == 1) { /* makes the current tables, runs among them */
        buf_puts(&b, migrate_1);
        buf_puts(&b, schema_sql);
        buf_puts(&b, migrate_1_rows);
    }
    if (from <= 2)
        buf_puts(&b, migrate_2);
    if (from >= 2 && from <= 3)
        buf_puts(&b, migrate_3);
    if (from <= 4)
        buf_puts(&b, migrate_4);
    if (from >= 2 && from <= 5)
        buf_puts(&b, migrate_5);
    buf_puts(&b, migrate_7);
    buf_puts(&b, schema_sql);
    if (from >= 2 && from <= 5) /* first: version 2's fix is made to these
                                   rows */
        buf_puts(&b, migrate_5_rows);
    if (from <= 2)
        buf_puts(&b, migrate_2_rows);
    if (from >= 2 && from <= 3)
        buf_puts(&b, migrate_3_rows);
    if (from <= 4)
        buf_puts(&b, migrate_4_rows);
    buf_puts(&b, set_version);
    char doing[64];
    snprintf(doing, sizeof doing, "migrate it from schema version %d", from);
    int rc = b.failed ? err_set(e, ERR_NOMEM, "out of memory")
                      : exec_txn(d, b.data, e, doing);
    buf_free(&b);
    return rc;
}

/* Makes what the schema has and the database lacks: the lookup indexes
 * that a load killed before its end left out. */
static int complete(db *d, err *e)
{
    sqlite3_stmt *s = NULL;
    int have = 0;
    if (sqlite3_prepare_v2(d->h, "SELECT count(*) FROM sqlite_master WHERE "
                                 "name IN ('episode_rows_by_name', "
                                 "'task_rows_by_id')",
                           -1, &s, NULL) == SQLITE_OK &&
        sqlite3_step(s) == SQLITE_ROW)
        have = sqlite3_column_int(s, 0);
    sqlite3_finalize(s);
    if (have == 2)
        return 0;
    return exec_txn(d, schema_sql, e, "make its indexes");
}

/* db_open, and with uri set db_open_merge: the connection then reads
 * filenames as URIs (path is given as one), so that db_merge can attach
 * a shard read-only. */
static void rekey_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv);

static int open_db(db **out, const char *path, int uri, err *e)
{
    db *d = calloc(1, sizeof *d);
    char *name = uri ? file_uri(path, NULL) : NULL;
    if (!d || !(d->path = strdup(path)) || (uri && !name)) {
        if (d)
            free(d->path);
        free(d);
        free(name);
        return err_set(e, ERR_NOMEM, "out of memory opening %s", path);
    }
    d->uri = uri;
    *out = NULL;
    int version = 0;
    /* No count of SQLite's memory (it takes a global mutex per
     * allocation); only takes effect before SQLite's first use. */
    sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    /* NOMUTEX: one thread at a time uses a connection (db.h) */
    int rc = sqlite3_open_v2(uri ? name : path, &d->h,
                             SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
                                 SQLITE_OPEN_NOMUTEX |
                                 (uri ? SQLITE_OPEN_URI : 0),
                             NULL);
    free(name);
    if (rc != SQLITE_OK) {
        fail(d, e, "open it");
        goto bad;
    }
    sqlite3_busy_timeout(d->h, 10000);
    /* merging: a shard's problem keys made this database's (rekey_fn) */
    if (uri && sqlite3_create_function(d->h, "tr_rekey", 1,
                                       SQLITE_UTF8, d,
                                       rekey_fn, NULL, NULL) != SQLITE_OK) {
        fail(d, e, "set it up");
        goto bad;
    }
    /* The page size takes effect only in a new database, and only before
     * WAL is turned on (which writes the header); one made before keeps
     * its own. */
    if (exec(d, "PRAGMA page_size = " PAGE_SIZE_TEXT, e, "set it up") < 0 ||
        exec(d, "PRAGMA journal_mode = WAL", e, "turn on WAL") < 0 ||
        exec(d, "PRAGMA synchronous = NORMAL", e, "set it up") < 0 ||
        exec(d, "PRAGMA cache_size = -4096", e, "set it up") < 0 ||
        read_page_size(d, e) < 0 ||
        schema_version(d, &version, e) < 0)
        goto bad;
    sqlite3_wal_autocheckpoint(d->h, auto_frames(d));
    if (version > DB_SCHEMA_VERSION) {
        err_set(e, ERR_IO, "%s: has schema version %d, newer than this "
                           "replay writes (%d); use a newer replay or "
                           "another --db",
                path, version, DB_SCHEMA_VERSION);
        goto bad;
    }
    if (version == 0 && create(d, e) < 0)
        goto bad;
    if (version > 0 && version < DB_SCHEMA_VERSION) {
        if (migrate(d, version, e) < 0)
            goto bad;
        d->migrated = version;
    }
    if (version == DB_SCHEMA_VERSION && complete(d, e) < 0)
        goto bad;
    d->secret = (uint64_t)(uintptr_t)d ^ 0x9e3779b97f4a7c15u;
    d->runs.seed = d->files.seed = d->secret; /* names come from input */
    for (int i = 0; i < NSTMT; i++)
        if (sqlite3_prepare_v3(d->h, stmt_sql[i], -1, SQLITE_PREPARE_PERSISTENT,
                               &d->st[i], NULL) != SQLITE_OK) {
            fail(d, e, "prepare its statements");
            goto bad;
        }
    if (prepare_calls(d, e) < 0)
        goto bad;
    *out = d;
    return 0;
bad:
    db_close(d, NULL);
    return -1;
}

int db_open(db **out, const char *path, err *e)
{
    return open_db(out, path, 0, e);
}

int db_migrated(const db *d)
{
    return d->migrated;
}

/* Copies the log into the database before the last close.  SQLite's own
 * close does it too, but says nothing when it fails: on a full disk the
 * database file then lacks what the log holds (alone, it reads as
 * malformed), and the log is all there is.  Done here, a failure is seen.
 * A reader elsewhere may hold part of the log back (SQLITE_BUSY): that
 * part is copied when the last connection closes, and nothing is lost.
 * 0, or -1 with e set. */
static int copy_log_in(db *d, err *e)
{
    int rc = sqlite3_wal_checkpoint_v2(d->h, NULL, SQLITE_CHECKPOINT_PASSIVE,
                                       NULL, NULL);
    if (rc == SQLITE_OK || rc == SQLITE_BUSY || rc == SQLITE_LOCKED)
        return 0;
    return err_set(e, ERR_IO, "%s: cannot copy its log into it: %s (is the "
                              "disk full?); what was written is whole in "
                              "%s-wal: keep the two files together, make "
                              "room, and run the same command again",
                   d->path, sqlite3_errmsg(d->h), d->path);
}

int db_close(db *d, err *e)
{
    if (!d)
        return 0;
    for (int i = 0; i < NSTMT; i++)
        sqlite3_finalize(d->st[i]);
    for (int k = 0; k < CALLS_AT_ONCE; k++)
        sqlite3_finalize(d->calls[k]);
    keymap_free(&d->runs);
    keymap_free(&d->files);
    idset_free(&d->tasks);
    int copied = !e || !d->h ? 0 : copy_log_in(d, e);
    int rc = sqlite3_close(d->h);
    if (rc != SQLITE_OK && e && copied == 0)
        err_set(e, ERR_IO, "%s: cannot close it: %s", d->path,
                sqlite3_errstr(rc));
    free(d->path);
    free(d->rekey_from);
    free(d->rekey_to);
    free(d);
    return rc == SQLITE_OK && copied == 0 ? 0 : -1;
}

static int on_commit(void *arg, sqlite3 *h, const char *schema, int frames)
{
    (void)h;
    (void)schema;
    const db *d = arg;
    d->hook.notify(d->hook.ctx, (uint64_t)frames * d->page_size);
    return SQLITE_OK;
}

int db_wal_notify(db *d, void (*notify)(void *ctx, uint64_t bytes),
                  void *ctx)
{
    if (!notify) {
        sqlite3_wal_autocheckpoint(d->h, auto_frames(d));
        return 0;
    }
    d->hook.notify = notify;
    d->hook.ctx = ctx;
    sqlite3_wal_hook(d->h, on_commit, d); /* no autocheckpoint now */
    return 0;
}

int db_checkpoint_open(db **out, const char *path, err *e)
{
    db *d = calloc(1, sizeof *d);
    *out = d;
    if (!d || !(d->path = strdup(path)))
        return err_set(e, ERR_NOMEM, "out of memory opening %s", path);
    if (sqlite3_open_v2(path, &d->h, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX,
                        NULL) != SQLITE_OK)
        return fail(d, e, "open it");
    return exec(d, "PRAGMA synchronous = NORMAL", e, "set it up");
}

int db_checkpoint(db *d, int wait, err *e)
{
    int rc = sqlite3_wal_checkpoint_v2(d->h, NULL,
                                       wait ? SQLITE_CHECKPOINT_RESTART
                                            : SQLITE_CHECKPOINT_PASSIVE,
                                       NULL, NULL);
    if (rc != SQLITE_OK && rc != SQLITE_BUSY)
        return fail(d, e, "copy its log into it (is the disk full?)");
    return 0;
}

/* Binds text (NULL as NULL). */
static void text(sqlite3_stmt *s, int i, const char *t)
{
    if (t)
        sqlite3_bind_text(s, i, t, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(s, i);
}

/* Binds parameter i of s, whose parameters h holds, to n; left out
 * when it holds n already. */
static void held_int(sqlite3_stmt *s, held *h, int i, int64_t n)
{
    held *p = &h[i - 1];
    if (p->kind == HELD_INT && p->n == n)
        return;
    sqlite3_bind_int64(s, i, n);
    p->kind = HELD_INT;
    p->n = n;
}

static void held_null(sqlite3_stmt *s, held *h, int i)
{
    held *p = &h[i - 1];
    if (p->kind == HELD_NULL)
        return;
    sqlite3_bind_null(s, i);
    p->kind = HELD_NULL;
}

/* n, or NULL when n < 0. */
static void held_maybe_int(sqlite3_stmt *s, held *h, int i, long long n)
{
    if (n < 0)
        held_null(s, h, i);
    else
        held_int(s, h, i, n);
}

/* x, or NULL when x is NAN (not known). */
static void held_real(sqlite3_stmt *s, held *h, int i, double x)
{
    if (isnan(x)) {
        held_null(s, h, i);
        return;
    }
    sqlite3_bind_double(s, i, x);
    h[i - 1].kind = HELD_OTHER;
}

/* Text of len bytes (NULL as NULL): always bound, its bytes being the
 * caller's of the moment. */
static void held_text_len(sqlite3_stmt *s, held *h, int i, const char *t,
                          size_t len)
{
    if (!t) {
        held_null(s, h, i);
        return;
    }
    sqlite3_bind_text(s, i, t, (int)len, SQLITE_STATIC);
    h[i - 1].kind = HELD_OTHER;
}

static void held_text(sqlite3_stmt *s, held *h, int i, const char *t)
{
    held_text_len(s, h, i, t, t ? strlen(t) : 0);
}

/* A name from the program's fixed tables (db.h says which fields hold
 * one), or NULL: its bytes never change, so the same pointer is the same
 * text. */
static void held_name(sqlite3_stmt *s, held *h, int i, const char *name)
{
    held *p = &h[i - 1];
    if (!name) {
        held_null(s, h, i);
        return;
    }
    if (p->kind == HELD_NAME && p->name == name)
        return;
    sqlite3_bind_text(s, i, name, -1, SQLITE_STATIC);
    p->kind = HELD_NAME;
    p->name = name;
}

/* Steps a statement whose bindings are held (see held) to its end and
 * resets it, leaving its bindings. */
static int run_held(db *d, sqlite3_stmt *s, err *e, const char *doing)
{
    int rc = sqlite3_step(s);
    sqlite3_reset(s);
    if (rc != SQLITE_DONE)
        return fail(d, e, doing);
    return 0;
}

/* Steps a statement to its end and resets it. */
static int run(db *d, enum stmt which, err *e, const char *doing)
{
    sqlite3_stmt *s = d->st[which];
    int rc = sqlite3_step(s);
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW)
        return fail(d, e, doing);
    return 0;
}

int db_begin(db *d, err *e)
{
    return run(d, S_BEGIN, e, "begin a transaction");
}

int db_commit(db *d, err *e)
{
    return run(d, S_COMMIT, e, "commit (is the disk full?)");
}

int db_put_tool_file(db *d, const toolset *ts, const char *path, err *e)
{
    sqlite3_stmt *s = d->st[S_TOOL_FILE];
    text(s, 1, ts->doc->file_sha256);
    text(s, 2, ts->doc->contract_sha256);
    text(s, 3, tool_format_name(ts->format));
    text(s, 4, path);
    sqlite3_bind_int64(s, 5, (sqlite3_int64)ts->ntools);
    sqlite3_bind_int64(s, 6, (sqlite3_int64)ts->nrefused);
    sqlite3_bind_text(s, 7, ts->doc->canonical.data,
                      (int)ts->doc->canonical.len, SQLITE_STATIC);
    return run(d, S_TOOL_FILE, e, "record a tool file");
}

int db_put_run(db *d, const db_run *r, err *e)
{
    sqlite3_stmt *s = d->st[S_RUN_FILE];
    text(s, 1, r->run);
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) {
        const char *was = (const char *)sqlite3_column_text(s, 0);
        if (strcmp(was, r->file_sha256) != 0) {
            err_set(e, ERR_VALUE, "run \"%.100s\" is already recorded with "
                                  "another tool file (%.12s..., now "
                                  "%.12s...); give this run another name",
                    r->run, was, r->file_sha256);
            sqlite3_reset(s);
            return 1;
        }
    }
    sqlite3_reset(s);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return fail(d, e, "read the runs");
    s = d->st[S_RUN];
    text(s, 1, r->run);
    text(s, 2, r->model);
    text(s, 3, r->meta_json);
    text(s, 4, r->file_sha256);
    text(s, 5, r->tools_path);
    sqlite3_bind_int(s, 6, r->generator_version);
    text(s, 7, r->generator_fingerprint);
    text(s, 8, r->replayed_at);
    text(s, 9, r->tools_found);
    rc = sqlite3_step(s);
    int64_t id = rc == SQLITE_ROW ? sqlite3_column_int64(s, 0) : 0;
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    if (rc != SQLITE_ROW)
        return fail(d, e, "record a run");
    if (keymap_put(&d->runs, r->run, strlen(r->run), (size_t)id) < 0)
        return err_set(e, ERR_NOMEM, "out of memory");
    return 0;
}

/* The key of a recorded run or tool file (by the statement `which`,
 * taking its name): 1 and *id, 0 when none is recorded, -1 on error. */
static int lookup(db *d, keymap *k, enum stmt which, const char *name,
                  int64_t *id, err *e)
{
    size_t known;
    if (keymap_get(k, name, strlen(name), &known)) {
        *id = (int64_t)known;
        return 1;
    }
    sqlite3_stmt *s = d->st[which];
    text(s, 1, name);
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW)
        *id = sqlite3_column_int64(s, which == S_RUN_FILE ? 1 : 0);
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return fail(d, e, "read its keys");
    if (rc == SQLITE_DONE)
        return 0;
    if (keymap_put(k, name, strlen(name), (size_t)*id) < 0)
        return err_set(e, ERR_NOMEM, "out of memory");
    return 1;
}

/* The span of the member `key` of a canonical JSON object (no spaces),
 * in *v and *n; 0 when it has none. */
static int member_span(const char *json, size_t len, const char *key,
                       const char **v, size_t *n)
{
    size_t klen = strlen(key);
    int depth = 0;
    for (size_t i = 0; i < len; i++) {
        char c = json[i];
        if (c == '"') {
            size_t start = i++;
            while (i < len && json[i] != '"')
                i += json[i] == '\\' ? 2 : 1;
            if (depth == 1 && i + 1 < len && json[i + 1] == ':' &&
                i - start - 1 == klen && memcmp(json + start + 1, key, klen) == 0) {
                size_t at = i + 2, j = at;
                int inner = 0;
                for (; j < len; j++) {
                    char x = json[j];
                    if (x == '"') {
                        for (j++; j < len && json[j] != '"';)
                            j += json[j] == '\\' ? 2 : 1;
                    } else if (x == '{' || x == '[') {
                        inner++;
                    } else if (x == '}' || x == ']') {
                        if (inner-- == 0)
                            break;
                    } else if (x == ',' && inner == 0) {
                        break;
                    }
                }
                *v = json + at;
                *n = j - at;
                return 1;
            }
        } else if (c == '{' || c == '[') {
            depth++;
        } else if (c == '}' || c == ']') {
            depth--;
        }
    }
    return 0;
}

int db_task_is_new(db *d, const char *task_id, err *e)
{
    uint64_t key = XXH3_64bits_withSeed(task_id, strlen(task_id), d->secret);
    int fresh = idset_add(&d->tasks, key);
    return fresh < 0 ? err_set(e, ERR_NOMEM, "out of memory") : fresh;
}

int db_put_task(db *d, const char *task_id, const char *file_sha256,
                uint64_t seed, const char *arm, int depth, int generator,
                const char *request, const char *task_json, err *e)
{
    const char *steps, *events, *bad;
    size_t nsteps, nevents, nbad;
    size_t len = strlen(task_json);
    if (!member_span(task_json, len, "steps", &steps, &nsteps) ||
        !member_span(task_json, len, "events", &events, &nevents))
        return err_set(e, ERR_IO, "%s: task %s has no steps", d->path,
                       task_id);
    if (!member_span(task_json, len, "baddata", &bad, &nbad)) {
        bad = NULL;
        nbad = 0;
    }
    return db_put_task_parts(d, task_id, file_sha256, seed, arm, depth,
                             generator, request, steps, nsteps, events,
                             nevents, bad, nbad, e);
}

int db_put_task_parts(db *d, const char *task_id, const char *file_sha256,
                      uint64_t seed, const char *arm, int depth,
                      int generator, const char *request, const char *steps,
                      size_t nsteps, const char *events, size_t nevents,
                      const char *bad, size_t nbad, err *e)
{
    int64_t file_id = 0;
    int found = lookup(d, &d->files, S_FILE_ID, file_sha256, &file_id, e);
    if (found <= 0)
        return found < 0 ? -1
                         : err_set(e, ERR_IO, "%s: a task of a tool file "
                                              "that is not recorded",
                                   d->path);
    sqlite3_stmt *s = d->st[S_TASK];
    text(s, 1, task_id);
    sqlite3_bind_int64(s, 2, file_id);
    sqlite3_bind_int64(s, 3, (sqlite3_int64)seed);
    text(s, 4, arm);
    sqlite3_bind_int(s, 5, depth);
    sqlite3_bind_int(s, 6, generator);
    text(s, 7, request);
    sqlite3_bind_text(s, 8, steps, (int)nsteps, SQLITE_STATIC);
    sqlite3_bind_text(s, 9, events, (int)nevents, SQLITE_STATIC);
    if (bad)
        sqlite3_bind_text(s, 10, bad, (int)nbad, SQLITE_STATIC);
    else
        sqlite3_bind_null(s, 10);
    return run(d, S_TASK, e, "record a task");
}

/* Leaves loading into a new database: makes the lookup indexes. */
static int dress(db *d, err *e)
{
    if (!d->bare)
        return 0;
    d->bare = 0;
    return exec(d, schema_sql, e, "make its indexes");
}

int db_load_begin(db *d, err *e)
{
    if (d->bare)
        return 0;
    sqlite3_stmt *s = NULL;
    int empty = 0;
    if (sqlite3_prepare_v2(d->h, "SELECT NOT EXISTS (SELECT 1 FROM "
                                 "episode_rows) AND NOT EXISTS (SELECT 1 "
                                 "FROM task_rows)",
                           -1, &s, NULL) == SQLITE_OK &&
        sqlite3_step(s) == SQLITE_ROW)
        empty = sqlite3_column_int(s, 0);
    sqlite3_finalize(s);
    if (!empty)
        return 0;
    if (exec_txn(d, "DROP INDEX IF EXISTS episode_rows_by_name; "
                    "DROP INDEX IF EXISTS task_rows_by_id;",
                 e, "set it up for loading") < 0)
        return -1;
    d->bare = 1;
    return 0;
}

int db_load_end(db *d, err *e)
{
    if (!d->bare)
        return 0;
    d->bare = 0;
    return exec_txn(d, schema_sql, e, "make its indexes");
}

/* Looks a recorded episode up: 1 with the statement on its row (read it,
 * then row_done), 0 when there is none, -1 on error. */
static int episode_row(db *d, const char *run_name, const char *episode,
                       err *e)
{
    if (dress(d, e) < 0)
        return -1;
    sqlite3_stmt *s = d->st[S_EPISODE_FIND];
    text(s, 1, run_name);
    text(s, 2, episode);
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW)
        return 1;
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    return rc == SQLITE_DONE ? 0 : fail(d, e, "read the episodes");
}

static void row_done(db *d)
{
    sqlite3_reset(d->st[S_EPISODE_FIND]);
    sqlite3_clear_bindings(d->st[S_EPISODE_FIND]);
}

int db_episode_hash(db *d, const char *run_name, const char *episode,
                    char hash[17], err *e)
{
    int found = episode_row(d, run_name, episode, e);
    if (found == 1) {
        snprintf(hash, 17, "%s",
                 (const char *)sqlite3_column_text(d->st[S_EPISODE_FIND], 1));
        row_done(d);
    }
    return found;
}

int db_episode_source(db *d, const char *run_name, const char *episode,
                      char *where, size_t size, err *e)
{
    sqlite3_stmt *s = d->st[S_EPISODE_FIND];
    int found = episode_row(d, run_name, episode, e);
    if (found == 1) {
        snprintf(where, size, "%s:%lld", (const char *)sqlite3_column_text(s, 2),
                 (long long)sqlite3_column_int64(s, 3));
        row_done(d);
    }
    return found;
}

static int delete_by_id(db *d, int64_t id, err *e)
{
    static const enum stmt order[] = {S_DELETE_CALLS, S_DELETE_OUTCOMES,
                                      S_DELETE_EPISODE};
    for (int i = 0; i < 3; i++) {
        sqlite3_bind_int64(d->st[order[i]], 1, id);
        if (run(d, order[i], e, "replace an episode") < 0)
            return -1;
    }
    return 0;
}

int db_delete_episode(db *d, const char *run_name, const char *episode,
                      err *e)
{
    int found = episode_row(d, run_name, episode, e);
    if (found <= 0)
        return found;
    int64_t id = sqlite3_column_int64(d->st[S_EPISODE_FIND], 0);
    row_done(d);
    return delete_by_id(d, id, e);
}

/* Binds a figure of an episode: NULL when it was observed. */
static void figure(sqlite3_stmt *s, held *h, int i, const db_episode *ep,
                   unsigned long long n)
{
    if (ep->observed)
        held_null(s, h, i);
    else
        held_int(s, h, i, (int64_t)n);
}

int db_put_episode(db *d, const db_episode *ep, const db_call *calls,
                   size_t ncalls, const db_outcome *outcomes,
                   size_t noutcomes, char was[17], err *e)
{
    if (!d->bare) { /* most episodes are new; a lookup is one probe */
        int found = db_episode_hash(d, ep->run, ep->episode, was, e);
        if (found)
            return found;
    }
    int64_t run_id = 0;
    int known = lookup(d, &d->runs, S_RUN_FILE, ep->run, &run_id, e);
    if (known <= 0)
        return known < 0 ? -1
                         : err_set(e, ERR_IO, "%s: an episode of run \"%s\", "
                                              "which is not recorded",
                                   d->path, ep->run);
    sqlite3_stmt *s = d->st[S_EPISODE];
    held *h = d->episode_held;
    int i = 1;
    held_int(s, h, i++, run_id);
    held_text(s, h, i++, ep->episode);
    if (ep->observed) {
        for (int k = 0; k < 4; k++)
            held_null(s, h, i++);
    } else {
        held_int(s, h, i++, (int64_t)ep->seed);
        held_text(s, h, i++, ep->arm);
        held_name(s, h, i++, ep->knob);
        held_int(s, h, i++, ep->level);
    }
    held_text(s, h, i++, ep->task_id);
    held_text(s, h, i++, ep->task_name);
    held_int(s, h, i++, (int64_t)ep->calls);
    figure(s, h, i++, ep, ep->reached);
    figure(s, h, i++, ep, ep->pass);
    figure(s, h, i++, ep, ep->side_effects);
    figure(s, h, i++, ep, ep->duplicate_writes);
    figure(s, h, i++, ep, ep->errors);
    for (int c = 0; c < 6; c++)
        figure(s, h, i++, ep, ep->err_by_code[c]);
    held_int(s, h, i++, ep->unfinished);
    if (ep->diverged < 0)
        held_null(s, h, i++);
    else
        figure(s, h, i++, ep, (unsigned long long)ep->diverged);
    held_maybe_int(s, h, i++, ep->success);
    held_real(s, h, i++, ep->has_reward ? ep->reward : NAN);
    held_text(s, h, i++, ep->status);
    held_text(s, h, i++, ep->final);
    held_text(s, h, i++, ep->content_xxh3);
    held_text(s, h, i++, ep->source_file);
    held_int(s, h, i++, (int64_t)ep->source_line);
    held_maybe_int(s, h, i++, ep->input_tokens);
    held_maybe_int(s, h, i++, ep->output_tokens);
    held_real(s, h, i++, ep->cost);
    held_real(s, h, i++, ep->duration);
    if (run_held(d, s, e, "record an episode") < 0)
        return -1;
    int64_t id = sqlite3_last_insert_rowid(d->h);
    for (size_t c = 0; c < ncalls; c += CALLS_AT_ONCE) {
        size_t rows = ncalls - c < CALLS_AT_ONCE ? ncalls - c : CALLS_AT_ONCE;
        s = d->calls[rows - 1];
        h = d->calls_held[rows - 1];
        for (size_t r = 0; r < rows; r++) { /* every parameter is bound */
            const db_call *k = &calls[c + r];
            int i0 = (int)r * CALL_COLUMNS;
            held_int(s, h, i0 + 1, id);
            held_int(s, h, i0 + 2, k->seq);
            held_maybe_int(s, h, i0 + 3, k->step ? k->step : -1);
            held_text_len(s, h, i0 + 4, k->tool, k->tool_len);
            held_name(s, h, i0 + 5, k->kind);
            held_text(s, h, i0 + 6, k->arguments);
            held_text_len(s, h, i0 + 7, k->arguments_raw,
                          k->arguments_raw_len);
            held_maybe_int(s, h, i0 + 8, k->arguments_valid);
            held_text(s, h, i0 + 9, k->arguments_rule);
            held_text(s, h, i0 + 10, k->answer);
            held_name(s, h, i0 + 11, k->error);
            held_name(s, h, i0 + 12, k->effect);
            held_name(s, h, i0 + 13, k->dial);
            held_maybe_int(s, h, i0 + 14, k->diverged);
            held_text(s, h, i0 + 15, k->logged_answer);
            held_maybe_int(s, h, i0 + 16, k->answer_valid);
            held_text(s, h, i0 + 17,
                      k->source_file == ep->source_file ||
                              strcmp(k->source_file, ep->source_file) == 0
                          ? NULL
                          : k->source_file);
            held_int(s, h, i0 + 18, (int64_t)k->source_line);
            held_real(s, h, i0 + 19, k->duration);
        }
        if (run_held(d, s, e, "record a call") < 0)
            return -1;
    }
    s = d->st[S_OUTCOME];
    h = d->outcome_held;
    for (size_t o = 0; o < noutcomes; o++) {
        held_int(s, h, 1, id);
        held_int(s, h, 2, outcomes[o].event);
        held_name(s, h, 3, outcomes[o].dial);
        held_int(s, h, 4, outcomes[o].step);
        held_maybe_int(s, h, 5,
                       outcomes[o].seq ? (long long)outcomes[o].seq : -1);
        held_name(s, h, 6, outcomes[o].outcome);
        if (run_held(d, s, e, "record a dial outcome") < 0)
            return -1;
    }
    return 0;
}

int db_delete_problems(db *d, const char *file, err *e)
{
    text(d->st[S_DELETE_PROBLEMS], 1, file);
    return run(d, S_DELETE_PROBLEMS, e, "replace a file's problems");
}

int db_delete_run_problems(db *d, const char *run_name, const char *prefix,
                           err *e)
{
    text(d->st[S_DELETE_RUN_PROBLEMS], 1, run_name);
    text(d->st[S_DELETE_RUN_PROBLEMS], 2, prefix);
    return run(d, S_DELETE_RUN_PROBLEMS, e, "replace a run's refusals");
}

int db_put_problem(db *d, const db_problem *p, err *e)
{
    sqlite3_stmt *s = d->st[S_PROBLEM];
    text(s, 1, p->source_file);
    sqlite3_bind_int64(s, 2, p->log_problem
                                 ? -(sqlite3_int64)p->log_problem
                                 : (sqlite3_int64)p->source_line);
    text(s, 3, p->run);
    text(s, 4, p->episode);
    text(s, 5, p->message);
    size_t n = p->line_len;
    if (n > DB_PROBLEM_LINE) { /* cut before a UTF-8 sequence */
        n = DB_PROBLEM_LINE;
        while (n > 0 && ((unsigned char)p->line[n] & 0xC0) == 0x80)
            n--;
    }
    sqlite3_bind_text(s, 6, p->line ? p->line : "", (int)n, SQLITE_STATIC);
    text(s, 7, p->place);
    return run(d, S_PROBLEM, e, "record a problem");
}

/* --------------------------------------------------------------- merge */

/* A merge trusts nothing of a shard but its rows: a shard is a file from
 * elsewhere, and SQLite copies whatever a file holds.  A trigger in it
 * would run on every later replay into the merged database (one that
 * sets pass to 1 on insert turns 0/96 into 96/96); a view changed would
 * change every card.  So a shard is opened read-only, never created, and
 * merged only when its schema objects (sqlite_master's type, name,
 * tbl_name and sql: the text of each CREATE) are those of a database
 * made from the built-in schema, no more and no fewer, and its meta table
 * records this schema version. */

int db_open_merge(db **out, const char *path, err *e)
{
    return open_db(out, path, 1, e);
}

/* path as an SQLite URI filename, with "?query" when query is given:
 * every byte but letters, digits, "-._~" and "/" percent-encoded, so that
 * no "?", "#" or "%" of a name is read as part of the URI. */
static char *file_uri(const char *path, const char *query)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t n = strlen(path);
    char *uri = malloc(sizeof "file://" + 3 * n + 1 +
                       (query ? strlen(query) : 0));
    if (!uri)
        return NULL;
    char *p = uri;
    memcpy(p, "file:", 5);
    p += 5;
    if (path[0] == '/') { /* an empty authority: "//x" is no host */
        memcpy(p, "//", 2);
        p += 2;
    }
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)path[i];
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
            (c >= '0' && c <= '9') || strchr("-._~/", c)) {
            *p++ = (char)c;
        } else {
            *p++ = '%';
            *p++ = hex[c >> 4];
            *p++ = hex[c & 15];
        }
    }
    if (query) {
        *p++ = '?';
        strcpy(p, query);
    } else {
        *p = '\0';
    }
    return uri;
}

/* One row of sqlite_master. */
typedef struct schema_obj {
    char *type, *name, *tbl, *sql; /* sql NULL: an automatic index */
} schema_obj;

typedef struct schema_objs {
    schema_obj *v;
    size_t n;
} schema_objs;

static void objs_free(schema_objs *o)
{
    for (size_t i = 0; i < o->n; i++) {
        free(o->v[i].type);
        free(o->v[i].name);
        free(o->v[i].tbl);
        free(o->v[i].sql);
    }
    free(o->v);
    o->v = NULL;
    o->n = 0;
}

static char *dup_col(sqlite3_stmt *s, int i, int *oom)
{
    const unsigned char *t = sqlite3_column_text(s, i);
    if (!t)
        return NULL;
    char *c = strdup((const char *)t);
    if (!c)
        *oom = 1;
    return c;
}

/* The schema objects of database `schema` of h; an SQLite result code
 * (SQLITE_NOMEM when a copy failed). */
static int objs_read(sqlite3 *h, const char *schema, schema_objs *o)
{
    char sql[128];
    sqlite3_stmt *s = NULL;
    o->v = NULL;
    o->n = 0;
    snprintf(sql, sizeof sql, "SELECT type, name, tbl_name, sql FROM "
                              "%s.sqlite_master ORDER BY type, name",
             schema);
    int rc = sqlite3_prepare_v2(h, sql, -1, &s, NULL), oom = 0;
    while (rc == SQLITE_OK && !oom && (rc = sqlite3_step(s)) == SQLITE_ROW) {
        schema_obj *more = realloc(o->v, (o->n + 1) * sizeof *more);
        if (!more) {
            oom = 1;
            break;
        }
        o->v = more;
        schema_obj *x = &o->v[o->n++];
        x->type = dup_col(s, 0, &oom);
        x->name = dup_col(s, 1, &oom);
        x->tbl = dup_col(s, 2, &oom);
        x->sql = dup_col(s, 3, &oom);
        rc = SQLITE_OK;
    }
    sqlite3_finalize(s);
    if (oom)
        return SQLITE_NOMEM;
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* The schema objects of a database made from the built-in schema. */
static int builtin_objs(schema_objs *o, err *e)
{
    sqlite3 *h = NULL;
    int rc = sqlite3_open_v2(":memory:", &h,
                             SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(h, schema_sql, NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = objs_read(h, "main", o);
    if (rc != SQLITE_OK)
        err_set(e, ERR_IO, "cannot make the built-in schema: %s",
                h ? sqlite3_errmsg(h) : sqlite3_errstr(rc));
    sqlite3_close(h);
    return rc == SQLITE_OK ? 0 : -1;
}

static int same_text(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

/* The next significant character of SQL text at *p: comments and white
 * space are skipped, and stand for one space (' ') when they separate two
 * word characters; inside a quoted literal every character counts.  0 at
 * the end. */
static int sql_next(const char **p, char *quote, int *word_before)
{
    int gap = 0;
    for (;;) {
        const char *c = *p;
        if (*quote) {
            if (!*c)
                return 0;
            if (*c == *quote)
                *quote = 0;
            *p = c + 1;
            return (unsigned char)*c;
        }
        if (*c == '-' && c[1] == '-') {
            while (**p && **p != '\n')
                (*p)++;
            gap = 1;
        } else if (*c == '/' && c[1] == '*') {
            const char *end = strstr(c + 2, "*/");
            *p = end ? end + 2 : c + strlen(c);
            gap = 1;
        } else if (*c && strchr(" \t\r\n\f", *c)) {
            (*p)++;
            gap = 1;
        } else {
            int word = *c && (isalnum((unsigned char)*c) || *c == '_');
            if (gap && word && *word_before) {
                *word_before = 0; /* the space, then this character */
                return ' ';
            }
            if (!*c)
                return 0;
            if (*c == '\'' || *c == '"' || *c == '`' || *c == '[')
                *quote = *c == '[' ? ']' : *c;
            *word_before = word;
            *p = c + 1;
            return (unsigned char)*c;
        }
    }
}

/* Whether two CREATE statements are the same but for comments and white
 * space (a comment edited in sql/schema.sql changes no database). */
static int same_sql(const char *a, const char *b)
{
    if (!a || !b)
        return a == b;
    char qa = 0, qb = 0;
    int wa = 0, wb = 0;
    for (;;) {
        int x = sql_next(&a, &qa, &wa), y = sql_next(&b, &qb, &wb);
        if (x != y)
            return 0;
        if (x == 0)
            return 1;
    }
}

/* The object of o with x's type and name, or NULL. */
static const schema_obj *objs_find(const schema_objs *o, const schema_obj *x)
{
    for (size_t i = 0; i < o->n; i++)
        if (same_text(o->v[i].type, x->type) &&
            same_text(o->v[i].name, x->name))
            return &o->v[i];
    return NULL;
}

/* Appends text from a shard to a message: escaped (utf8_shown), cut. */
static void put_shown(buf *b, const char *s, size_t max)
{
    if (s)
        utf8_shown(b, s, strlen(s), max);
}

/* What differs, the first found, as `it has a trigger "x" that replay
 * does not make`; nothing when nothing does. */
static void objs_diff(const schema_objs *theirs, const schema_objs *ours,
                      buf *why)
{
    enum { SAME, EXTRA, CHANGED, MISSING } how = SAME;
    const schema_obj *x = NULL;
    for (size_t i = 0; how == SAME && i < theirs->n; i++) {
        const schema_obj *y = objs_find(ours, &theirs->v[i]);
        x = &theirs->v[i];
        if (!y)
            how = EXTRA;
        else if (!same_text(x->tbl, y->tbl) || !same_sql(x->sql, y->sql))
            how = CHANGED;
    }
    for (size_t i = 0; how == SAME && i < ours->n; i++)
        if (!objs_find(theirs, &ours->v[i])) {
            x = &ours->v[i];
            how = MISSING;
        }
    if (how == SAME)
        return;
    if (how == EXTRA)
        buf_puts(why, x->type && strchr("aeiou", x->type[0]) ? "it has an "
                                                             : "it has a ");
    else
        buf_puts(why, how == CHANGED ? "its " : "it has no ");
    put_shown(why, x->type, 20);
    buf_puts(why, " \"");
    put_shown(why, x->name, 80);
    buf_puts(why, how == EXTRA     ? "\" that replay does not make"
                  : how == CHANGED ? "\" is not the one replay makes"
                                   : "\", which replay makes");
}

/* Checks that database `schema` of h (read from the file shard) is a
 * results database of this version, exactly (see the top of this part);
 * -1 with e set when it is not, or cannot be read. */
/* Whether the shard's pages are whole: PRAGMA quick_check, which reads
 * every page of every b-tree.  It does not test that each index holds
 * exactly its table's rows (integrity_check does, at twice the cost), and
 * need not: a merge reads none of a shard's indexes (every shard table
 * it reads is NOT INDEXED) and rebuilds those of a shard it copies whole
 * (db_copy_from), so an index that lies, such as a unique index of
 * episodes pointed at an empty b-tree, never reaches the merged
 * database.  It reads the whole shard, so it is made once, by
 * db_check_shard, before anything is written.  The first thing found is
 * said, in one line. */
static int check_whole(sqlite3 *h, const char *schema, const char *shard,
                       err *e)
{
    char sql[96];
    snprintf(sql, sizeof sql, "PRAGMA \"%s\".quick_check(1)", schema);
    sqlite3_stmt *s = NULL;
    int rc = sqlite3_prepare_v2(h, sql, -1, &s, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(s);
    const char *said = rc == SQLITE_ROW
                           ? (const char *)sqlite3_column_text(s, 0)
                           : NULL;
    int ok = said && strcmp(said, "ok") == 0;
    if (rc != SQLITE_ROW) {
        /* a page SQLite cannot even read: damaged too */
        int corrupt = rc == SQLITE_CORRUPT || rc == SQLITE_NOTADB;
        err_set(e, corrupt ? ERR_VALUE : ERR_IO,
                corrupt ? "%s: damaged: %s; replay its shard again"
                        : "%s: cannot read it: %s",
                shard, rc == SQLITE_NOMEM ? "out of memory"
                                          : sqlite3_errmsg(h));
    } else if (!ok) {
        /* "*** in database main ***" heads the report, on a line of its
         * own: what was found follows it */
        const char *nl = strstr(said, "***\n");
        if (strncmp(said, "*** ", 4) == 0 && nl)
            said = nl + 4;
        buf shown = BUF_INIT;
        put_shown(&shown, said, 200);
        err_set(e, ERR_VALUE, "%s: damaged: SQLite's check says \"%s\"; "
                              "replay its shard again",
                shard, shown.failed || !shown.data ? "?" : shown.data);
        buf_free(&shown);
    }
    sqlite3_finalize(s);
    return ok ? 0 : -1;
}

static int check_shard(sqlite3 *h, const char *schema, const char *shard,
                       err *e)
{
    schema_objs ours = {0}, theirs = {0};
    buf why = BUF_INIT;
    int unreadable = 0;
    int rc = objs_read(h, schema, &theirs);
    if (rc != SQLITE_OK) {
        err_set(e, ERR_IO, "%s: cannot read it: %s", shard,
                rc == SQLITE_NOMEM ? "out of memory" : sqlite3_errmsg(h));
        objs_free(&theirs);
        return -1;
    }
    if (builtin_objs(&ours, e) < 0) {
        objs_free(&theirs);
        return -1;
    }
    /* the version first, when the meta table is the one replay makes: a
     * database of another version says so, rather than what changed */
    schema_obj meta = {"table", "meta", NULL, NULL};
    const schema_obj *m = objs_find(&theirs, &meta),
                     *m0 = objs_find(&ours, &meta);
    if (m && m0 && same_text(m->tbl, m0->tbl) && same_text(m->sql, m0->sql)) {
        char sql[128], want[16];
        sqlite3_stmt *s = NULL;
        snprintf(sql, sizeof sql, "SELECT value FROM %s.meta NOT INDEXED "
                                  "WHERE key = 'schema_version'",
                 schema);
        snprintf(want, sizeof want, "%d", DB_SCHEMA_VERSION);
        int step = sqlite3_prepare_v2(h, sql, -1, &s, NULL);
        if (step == SQLITE_OK)
            step = sqlite3_step(s);
        const char *v = step == SQLITE_ROW
                            ? (const char *)sqlite3_column_text(s, 0)
                            : NULL;
        if (step != SQLITE_ROW && step != SQLITE_DONE) {
            err_set(e, ERR_IO, "%s: cannot read it: %s", shard,
                    sqlite3_errmsg(h));
            unreadable = 1;
        } else if (!v) {
            buf_puts(&why, "it records no schema version");
        } else if (strcmp(v, want) != 0) {
            buf_puts(&why, "it has schema version ");
            put_shown(&why, v, 20);
            buf_printf(&why, ", and this replay writes %s", want);
        }
        sqlite3_finalize(s);
    }
    if (!unreadable && why.len == 0)
        objs_diff(&theirs, &ours, &why);
    if (!unreadable && why.len)
        err_set(e, ERR_VALUE, "%s: not a results database of this version: "
                              "%s; merge only databases that replay wrote",
                shard, why.failed ? "out of memory" : why.data);
    int ok = !unreadable && why.len == 0;
    buf_free(&why);
    objs_free(&theirs);
    objs_free(&ours);
    return ok ? 0 : -1;
}

int db_check_shard(const char *shard, err *e)
{
    sqlite3 *h = NULL;
    int rc = sqlite3_open_v2(shard, &h, SQLITE_OPEN_READONLY, NULL);
    if (rc != SQLITE_OK) {
        int why = h ? sqlite3_system_errno(h) : 0;
        err_set(e, ERR_IO, "%s: cannot open it: %s", shard,
                why ? strerror(why)
                    : h ? sqlite3_errmsg(h) : "out of memory");
        sqlite3_close(h);
        return -1;
    }
    rc = check_shard(h, "main", shard, e);
    if (rc == 0) /* once, up front: it reads every page */
        rc = check_whole(h, "main", shard, e);
    sqlite3_close(h);
    return rc;
}

static long long count_of(db *d, const char *sql);

unsigned long db_count_episodes(db *d)
{
    long long n = count_of(d, "SELECT count(*) FROM episode_rows");
    return n < 0 ? 0 : (unsigned long)n;
}

int db_is_empty(db *d)
{
    sqlite3_stmt *s;
    int empty = 0;
    if (sqlite3_prepare_v2(d->h, "SELECT NOT EXISTS (SELECT 1 FROM "
                                 "episode_rows) "
                                 "AND NOT EXISTS (SELECT 1 FROM runs) AND NOT "
                                 "EXISTS (SELECT 1 FROM problems)",
                           -1, &s, NULL) == SQLITE_OK &&
        sqlite3_step(s) == SQLITE_ROW)
        empty = sqlite3_column_int(s, 0);
    sqlite3_finalize(s);
    return empty;
}

/* A problem's file is keyed from its database's folder when it lies
 * under it (replay/night.c, file_key), else by its absolute path.  A
 * shard's keys are its own folder's; merged, they become this database's,
 * so that a merge gives the keys one process writing here gives:
 * tr_rekey(key) is key read from rekey_from, written for rekey_to. */
static void rekey_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    const db *d = sqlite3_user_data(ctx);
    const char *key = (const char *)sqlite3_value_text(argv[0]);
    if (!key || !d->rekey_from || !d->rekey_to ||
        strcmp(key, "<stdin>") == 0 ||
        strcmp(d->rekey_from, d->rekey_to) == 0) {
        sqlite3_result_value(ctx, argv[0]);
        return;
    }
    buf path = BUF_INIT;
    if (key[0] != '/') /* from the shard's folder */
        buf_printf(&path, "%s%s", d->rekey_from,
                   d->rekey_from[strlen(d->rekey_from) - 1] == '/' ? "" : "/");
    buf_puts(&path, key);
    if (path.failed) {
        buf_free(&path);
        sqlite3_result_error_nomem(ctx);
        return;
    }
    const char *to = d->rekey_to;
    size_t n = strlen(to);
    if (n && to[n - 1] == '/')
        n--; /* "/" */
    const char *p = path.data;
    if (strncmp(p, to, n) == 0 && p[n] == '/')
        p += n + 1; /* under this database's folder */
    sqlite3_result_text(ctx, p, -1, SQLITE_TRANSIENT);
    buf_free(&path);
}

/* The resolved folder of the file at path (which exists), or NULL. */
static char *folder_of(const char *path)
{
    char real[PATH_MAX];
    if (!realpath(path, real))
        return NULL;
    char *slash = strrchr(real, '/');
    if (slash)
        *(slash == real ? slash + 1 : slash) = '\0'; /* "/" stays */
    return strdup(real);
}

/* Sets the folders tr_rekey reads keys from and writes them for: the
 * shard's and this database's.  Either unknown: keys are kept. */
static void rekey_between(db *d, const char *shard)
{
    free(d->rekey_from);
    free(d->rekey_to);
    d->rekey_from = folder_of(shard);
    d->rekey_to = folder_of(d->path);
}

/* Builds every index of the main database again from its table's rows,
 * one by one as the schema lists them (a bare REINDEX would also sort
 * the WITHOUT ROWID tables again, which are their own keys and have no
 * index of their own).  -1 with e set. */
static int reindex_all(db *d, err *e)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(d->h, "SELECT name FROM main.sqlite_master "
                                 "WHERE type = 'index' ORDER BY name",
                           -1, &s, NULL) != SQLITE_OK)
        return fail(d, e, "merge");
    buf sql = BUF_INIT;
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        char *one = sqlite3_mprintf("REINDEX main.\"%w\";",
                                    (const char *)sqlite3_column_text(s, 0));
        if (!one) {
            sql.failed = 1;
            break;
        }
        buf_puts(&sql, one);
        sqlite3_free(one);
    }
    sqlite3_finalize(s);
    int ok = rc == SQLITE_DONE && !sql.failed;
    if (!ok)
        err_set(e, sql.failed ? ERR_NOMEM : ERR_IO, "%s: cannot merge: %s",
                d->path, sql.failed ? "out of memory" : sqlite3_errmsg(d->h));
    if (ok && sql.len && exec(d, sql.data, e, "merge") < 0)
        ok = 0;
    buf_free(&sql);
    return ok ? 0 : -1;
}

int db_copy_from(db *d, const char *shard, err *e)
{
    sqlite3 *src = NULL;
    if (sqlite3_open_v2(shard, &src, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        err_set(e, ERR_IO, "%s: cannot read it: %s", shard,
                src ? sqlite3_errmsg(src) : "out of memory");
        sqlite3_close(src);
        return -1;
    }
    if (check_shard(src, "main", shard, e) < 0) { /* again, as it is now */
        sqlite3_close(src);
        return -1;
    }
    /* page by page, in one step: the fastest copy SQLite has */
    sqlite3_backup *b = sqlite3_backup_init(d->h, "main", src, "main");
    int rc = b ? sqlite3_backup_step(b, -1) : SQLITE_ERROR;
    if (b)
        sqlite3_backup_finish(b);
    if (rc != SQLITE_DONE) {
        err_set(e, ERR_IO, "%s: cannot copy %s into it: %s", d->path, shard,
                sqlite3_errmsg(d->h));
        sqlite3_close(src);
        return -1;
    }
    sqlite3_close(src);
    /* the copy has the shard's pages, and their size; its indexes are
     * made again from its rows, which is all a shard is trusted for */
    if (read_page_size(d, e) < 0 || reindex_all(d, e) < 0)
        return -1;
    sqlite3_wal_autocheckpoint(d->h, auto_frames(d));
    /* and its problems' keys, made from its own folder */
    rekey_between(d, shard);
    return exec(d, "UPDATE main.problems SET source_file = "
                   "tr_rekey(source_file) WHERE source_file IS NOT "
                   "tr_rekey(source_file)",
                e, "merge");
}

int db_build_begin(db *d, err *e)
{
    if (exec(d, "PRAGMA journal_mode = OFF", e, "set it up") < 0)
        return -1;
    return exec(d, "PRAGMA synchronous = OFF", e, "set it up");
}

int db_build_end(db *d, err *e)
{
    if (exec(d, "PRAGMA journal_mode = WAL", e, "turn on WAL") < 0)
        return -1;
    return exec(d, "PRAGMA synchronous = NORMAL", e, "set it up");
}

/* One statement on the open connection; -1 with e set. */
static int merge_exec(db *d, const char *sql, err *e)
{
    return exec(d, sql, e, "merge");
}

static long long count_of(db *d, const char *sql)
{
    sqlite3_stmt *s;
    long long n = -1;
    if (sqlite3_prepare_v2(d->h, sql, -1, &s, NULL) == SQLITE_OK &&
        sqlite3_step(s) == SQLITE_ROW)
        n = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    return n;
}

int db_merge(db *d, const char *shard, db_merge_counts *c, err *e)
{
    memset(c, 0, sizeof *c);
    sqlite3_stmt *s;
    if (!d->uri) /* attached read-only only through a URI */
        return err_set(e, ERR_USAGE, "%s: db_merge needs db_open_merge",
                       d->path);
    char *uri = file_uri(shard, "mode=ro");
    if (!uri)
        return err_set(e, ERR_NOMEM, "out of memory");
    if (sqlite3_prepare_v2(d->h, "ATTACH DATABASE ? AS shard", -1, &s,
                           NULL) != SQLITE_OK) {
        free(uri);
        return fail(d, e, "attach a shard");
    }
    sqlite3_bind_text(s, 1, uri, -1, SQLITE_STATIC);
    int rc = sqlite3_step(s);
    sqlite3_finalize(s);
    free(uri);
    if (rc != SQLITE_DONE)
        return err_set(e, ERR_IO, "%s: cannot read it: %s", shard,
                       sqlite3_errmsg(d->h));
    /* a cache that holds the lookup indexes every shard's rows go into
     * (those of a million episodes), rather than read them again from
     * the file for each row; 64 MiB at most, taken as pages are used */
    sqlite3_exec(d->h, "PRAGMA main.cache_size = -65536", NULL, NULL, NULL);
    int ok = 0;
    if (check_shard(d->h, "shard", shard, e) < 0) {
        /* e says why */
    } else if (count_of(d, "SELECT count(*) FROM shard.runs r NOT INDEXED "
                           "JOIN main.runs m ON m.run = r.run WHERE "
                           "r.file_sha256 <> m.file_sha256") != 0) {
        err_set(e, ERR_VALUE, "%s: a run of it is recorded in %s with "
                              "another tool file; merge refused",
                shard, d->path);
    } else {
        ok = 1;
    }
    /* what the shard brings: new episodes, changed ones, unchanged ones.
     * Keys are the database's: the shard's episodes go in after the last
     * one, in their order (their ids moved by that offset), tool files,
     * runs and tasks are matched by name. */
    /* after it, the episodes picked that are here already are those the
     * shard replaces */
    static const char same_kept[] = "DELETE FROM temp.pick WHERE same";
    static const char *const steps[] = {
        "BEGIN IMMEDIATE",
        "INSERT OR IGNORE INTO main.tool_files (file_sha256, contract_sha256, "
        "format, path, tools, refused, contract) SELECT file_sha256, "
        "contract_sha256, format, path, tools, refused, contract "
        "FROM shard.tool_files NOT INDEXED ORDER BY file_id",
        "INSERT INTO main.runs (run, model, meta, file_sha256, tools_path, "
        "generator_version, generator_fingerprint, replayed_at, tools_found) "
        "SELECT run, model, meta, file_sha256, tools_path, generator_version, "
        "generator_fingerprint, replayed_at, tools_found FROM shard.runs "
        "NOT INDEXED WHERE true "
        "ORDER BY run_id ON CONFLICT(run) DO UPDATE SET "
        "replayed_at = min(replayed_at, excluded.replayed_at)",
        "INSERT OR IGNORE INTO main.task_rows (task_id, file_id, seed, arm, "
        "depth, generator, request, steps, events, baddata) SELECT t.task_id, "
        "m.file_id, t.seed, t.arm, t.depth, t.generator, t.request, t.steps, "
        "t.events, t.baddata FROM shard.task_rows t NOT INDEXED "
        "JOIN shard.tool_files f NOT INDEXED ON f.file_id = t.file_id "
        "JOIN main.tool_files m ON m.file_sha256 = f.file_sha256 "
        "ORDER BY t.task_key",
        /* each shard episode: its run's key here, and the episode here of
         * the same name, if any */
        "CREATE TEMP TABLE pick (sid INTEGER PRIMARY KEY, run_id INTEGER, "
        "mid INTEGER, same INTEGER)",
        "INSERT INTO temp.pick SELECT s.episode_id, mr.run_id, m.episode_id, "
        "m.content_xxh3 IS s.content_xxh3 "
        "FROM shard.episode_rows s NOT INDEXED "
        "JOIN shard.runs sr NOT INDEXED ON sr.run_id = s.run_id "
        "JOIN main.runs mr ON mr.run = sr.run "
        "LEFT JOIN main.episode_rows m ON m.run_id = mr.run_id "
        "AND m.episode = s.episode",
        same_kept,
        "DELETE FROM main.call_rows WHERE episode_id IN "
        "(SELECT mid FROM temp.pick WHERE mid IS NOT NULL)",
        "DELETE FROM main.outcome_rows WHERE episode_id IN "
        "(SELECT mid FROM temp.pick WHERE mid IS NOT NULL)",
        "DELETE FROM main.episode_rows WHERE episode_id IN "
        "(SELECT mid FROM temp.pick WHERE mid IS NOT NULL)",
        "CREATE TEMP TABLE shift AS SELECT coalesce(max(episode_id), 0) "
        "AS by FROM main.episode_rows",
        "INSERT INTO main.episode_rows SELECT s.episode_id + (SELECT by FROM "
        "temp.shift), p.run_id, s.episode, s.seed, s.arm, s.knob, s.level, "
        "s.task_id, s.task_name, s.calls, s.reached, s.pass, s.side_effects, "
        "s.duplicate_writes, s.errors, s.err_not_found, "
        "s.err_invalid_arguments, s.err_not_ready, s.err_unavailable, "
        "s.err_timeout, s.err_rate_limited, s.unfinished, s.diverged, "
        "s.success, s.reward, s.status, s.final, s.content_xxh3, "
        "s.source_file, s.source_line, s.input_tokens, s.output_tokens, "
        "s.cost, s.duration FROM shard.episode_rows s NOT INDEXED "
        "JOIN temp.pick p ON p.sid = s.episode_id ORDER BY s.episode_id",
        "INSERT INTO main.call_rows SELECT c.episode_id + (SELECT by FROM "
        "temp.shift), c.seq, c.step, c.tool, c.kind, c.arguments, "
        "c.arguments_raw, c.arguments_valid, c.arguments_rule, c.answer, "
        "c.error, c.effect, c.dial, c.diverged, c.logged_answer, "
        "c.answer_valid, c.source_file, c.source_line, c.duration "
        "FROM shard.call_rows c NOT INDEXED "
        "WHERE c.episode_id IN (SELECT sid FROM temp.pick) "
        "ORDER BY c.episode_id, c.seq",
        "INSERT INTO main.outcome_rows SELECT o.episode_id + (SELECT by FROM "
        "temp.shift), o.event, o.dial, o.step, o.seq, o.outcome "
        "FROM shard.outcome_rows o NOT INDEXED "
        "WHERE o.episode_id IN (SELECT sid FROM temp.pick) "
        "ORDER BY o.episode_id, o.event",
        "INSERT OR IGNORE INTO main.problems SELECT tr_rekey(source_file), "
        "source_line, run, episode, message, line, place FROM "
        "shard.problems NOT INDEXED",
    };
    rekey_between(d, shard);
    size_t nsteps = sizeof steps / sizeof steps[0];
    long long before = ok ? count_of(d, "SELECT count(*) FROM "
                                        "main.episode_rows")
                          : 0;
    for (size_t i = 0; ok && i < nsteps; i++) {
        if (merge_exec(d, steps[i], e) < 0) {
            ok = 0;
            exec(d, "ROLLBACK", e, "roll back");
        }
        if (ok && steps[i] == same_kept)
            c->replaced = (unsigned long)count_of(d, "SELECT count(*) FROM "
                                                     "temp.pick WHERE mid IS "
                                                     "NOT NULL");
    }
    if (ok) {
        long long after = count_of(d, "SELECT count(*) FROM main.episode_rows");
        long long theirs = count_of(d, "SELECT count(*) FROM "
                                       "shard.episode_rows NOT INDEXED");
        c->episodes = (unsigned long)theirs;
        c->added = (unsigned long)(after - before);
        c->unchanged = (unsigned long)theirs - c->added - c->replaced;
        if (merge_exec(d, "DROP TABLE temp.pick", e) < 0 ||
            merge_exec(d, "DROP TABLE temp.shift", e) < 0 ||
            merge_exec(d, "COMMIT", e) < 0) {
            exec(d, "ROLLBACK", e, "roll back");
            ok = 0;
        }
    }
    sqlite3_exec(d->h, "DROP TABLE IF EXISTS temp.pick", NULL, NULL, NULL);
    sqlite3_exec(d->h, "DROP TABLE IF EXISTS temp.shift", NULL, NULL, NULL);
    sqlite3_exec(d->h, "DETACH DATABASE shard", NULL, NULL, NULL);
    return ok ? 0 : -1;
}
