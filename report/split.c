/* split: see split.h; docs/card.md, "Runs narrowed to some trials". */
#include "split.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "carddata.h"
#include "dbread.h"
#include "shown.h"

/* The tables the narrowed runs are copies of (problems too, made apart:
 * its key would refuse a problem of two narrowings of one run). */
static const char *const shadowed[] = {"runs", "episode_rows", "call_rows",
                                       "outcome_rows"};

/* Where name's trials begin ("@" at *at), and the trials A to B: 1 when
 * it names them, 0 when not. */
static int parse(const char *name, size_t *at, long *from, long *to)
{
    const char *p = strrchr(name, '@');
    if (!p || p == name || !p[1])
        return 0;
    char *end;
    if (p[1] < '0' || p[1] > '9')
        return 0;
    long a = strtol(p + 1, &end, 10), b = a;
    if (*end == '-') {
        if (end[1] < '0' || end[1] > '9')
            return 0;
        b = strtol(end + 1, &end, 10);
    }
    if (*end || a < 1 || b < a || b > 1000000)
        return 0;
    *at = (size_t)(p - name);
    *from = a;
    *to = b;
    return 1;
}

int split_named(const char *name)
{
    size_t at;
    long a, b;
    return parse(name, &at, &a, &b);
}

/* Runs sql on db: 0, or -1 with e set (ERR_IO, SQLite's reason). */
static int run_sql(sqlite3 *db, const char *sql, err *e)
{
    char *msg = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) == SQLITE_OK)
        return 0;
    err_set(e, ERR_IO, "cannot narrow the runs: %s",
            shown_safe(msg ? msg : sqlite3_errmsg(db)));
    sqlite3_free(msg);
    return -1;
}

/* The first column of sql's first row (run bound to its parameter, when
 * not NULL), into *v (0 when there is no row): 0, or -1 with e set. */
static int first_value(sqlite3 *db, const char *sql, const char *run,
                       long long *v, err *e)
{
    sqlite3_stmt *s;
    if (rd_prepare(db, sql, run, &s, e) < 0)
        return -1;
    int rc = sqlite3_step(s);
    *v = rc == SQLITE_ROW ? sqlite3_column_int64(s, 0) : 0;
    return rd_finish(db, s, rc, 0, e);
}

/* Whether name asks for a narrowed run: it ends in "@N" or "@A-B", and no
 * run of the database has it for its whole name. */
static int narrowing(sqlite3 *db, const char *name, int *yes, err *e)
{
    long long whole = 0;
    *yes = 0;
    if (!split_named(name))
        return 0;
    if (first_value(db, "SELECT count(*) FROM main.runs WHERE run = ?", name,
                    &whole, e) < 0)
        return -1;
    *yes = whole == 0;
    return 0;
}

/* The TEMP tables and views: the database's own definitions, made in
 * TEMP (views read TEMP's tables first, being TEMP's). */
static int make_shadows(sqlite3 *db, err *e)
{
    buf sql = BUF_INIT;
    for (size_t i = 0; i < sizeof shadowed / sizeof *shadowed; i++)
        buf_printf(&sql, "SELECT 'CREATE TEMP TABLE' || substr(sql, 13) "
                         "FROM main.sqlite_master WHERE type = 'table' "
                         "AND name = '%s' UNION ALL ",
                   shadowed[i]);
    buf_puts(&sql, "SELECT 'CREATE TEMP TABLE problems AS SELECT * FROM "
                   "main.problems WHERE run IS NULL' UNION ALL "
                   "SELECT 'CREATE INDEX temp.' || name || ' ON ' || "
                   "tbl_name || substr(sql, instr(sql, '(')) "
                   "FROM main.sqlite_master WHERE type = 'index' AND "
                   "sql IS NOT NULL AND tbl_name IN ('runs', "
                   "'episode_rows', 'call_rows', 'outcome_rows') "
                   "UNION ALL "
                   "SELECT 'CREATE TEMP VIEW' || substr(sql, 12) "
                   "FROM main.sqlite_master WHERE type = 'view'");
    if (sql.failed) {
        buf_free(&sql);
        return err_set(e, ERR_NOMEM, "out of memory");
    }
    sqlite3_stmt *s;
    int rc = rd_prepare(db, sql.data, NULL, &s, e);
    buf_free(&sql);
    if (rc < 0)
        return -1;
    /* the statements first, then made: a statement that makes a table
     * would change the schema under the one that reads it */
    char **made = NULL;
    size_t n = 0, cap = 0;
    int nomem = 0;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        if (rd_grow(&made, &cap, n, sizeof *made) < 0 ||
            !(made[n] = rd_text(s, 0))) {
            nomem = 1;
            break;
        }
        n++;
    }
    rc = rd_finish(db, s, rc, nomem, e);
    for (size_t i = 0; i < n; i++) {
        if (rc == 0)
            rc = run_sql(db, made[i], e);
        free(made[i]);
    }
    free(made);
    return rc;
}

/* Copies run (its name in the database) into the TEMP tables as `as`,
 * its episodes those of trials from to to (0: every one), their ids moved
 * up by shift and its run id run_id (0: as they are). */
static int copy_run(sqlite3 *db, const char *run, const char *as, long from,
                    long to, long long shift, long long run_id, err *e)
{
    static const char *const steps[] = {
        "INSERT INTO temp.runs SELECT CASE WHEN ?5 = 0 THEN run_id "
        "ELSE ?5 END, ?2, model, meta, file_sha256, "
        "tools_path, generator_version, generator_fingerprint, "
        "replayed_at, tools_found FROM main.runs WHERE run = ?1",
        "CREATE TEMP TABLE chosen AS SELECT episode_id FROM ("
        "  SELECT e.episode_id, row_number() OVER (PARTITION BY "
        "  coalesce(e.task_id, e.task_name, e.episode_id) "
        "  ORDER BY e.episode_id) AS trial "
        "  FROM main.episode_rows e JOIN main.runs r ON r.run_id = e.run_id "
        "  WHERE r.run = ?1) WHERE ?3 = 0 OR trial BETWEEN ?3 AND ?4",
        "INSERT INTO temp.episode_rows SELECT * FROM main.episode_rows "
        "WHERE episode_id IN (SELECT episode_id FROM temp.chosen)",
        "UPDATE temp.episode_rows SET episode_id = episode_id + ?6, "
        "run_id = CASE WHEN ?5 = 0 THEN run_id ELSE ?5 END "
        "WHERE episode_id IN (SELECT episode_id FROM temp.chosen)",
        "INSERT INTO temp.call_rows SELECT * FROM main.call_rows "
        "WHERE episode_id IN (SELECT episode_id FROM temp.chosen)",
        "UPDATE temp.call_rows SET episode_id = episode_id + ?6 "
        "WHERE episode_id IN (SELECT episode_id FROM temp.chosen)",
        "INSERT INTO temp.outcome_rows SELECT * FROM main.outcome_rows "
        "WHERE episode_id IN (SELECT episode_id FROM temp.chosen)",
        "UPDATE temp.outcome_rows SET episode_id = episode_id + ?6 "
        "WHERE episode_id IN (SELECT episode_id FROM temp.chosen)",
        /* a narrowed run's problems are its whole run's: they are of
         * lines, not of trials */
        "INSERT INTO temp.problems (source_file, source_line, run, "
        "episode, message, line, place) SELECT source_file, source_line, "
        "?2, episode, message, line, place FROM main.problems "
        "WHERE run = ?1",
    };
    for (size_t i = 0; i < sizeof steps / sizeof *steps; i++) {
        sqlite3_stmt *s;
        if (rd_prepare(db, steps[i], run, &s, e) < 0)
            return -1;
        int n = sqlite3_bind_parameter_count(s);
        if ((n >= 2 && sqlite3_bind_text(s, 2, as, -1, SQLITE_STATIC)) ||
            (n >= 3 && sqlite3_bind_int64(s, 3, from)) ||
            (n >= 4 && sqlite3_bind_int64(s, 4, to)) ||
            (n >= 5 && sqlite3_bind_int64(s, 5, run_id)) ||
            (n >= 6 && sqlite3_bind_int64(s, 6, shift))) {
            sqlite3_finalize(s);
            return rd_failed(db, e);
        }
        int rc = sqlite3_step(s);
        if (rd_finish(db, s, rc, 0, e) < 0)
            return -1;
    }
    return run_sql(db, "DROP TABLE temp.chosen", e);
}

int split_prepare(sqlite3 *db, const char *const *names, int n,
                  char **named, err *e)
{
    int any = 0, *narrow = calloc((size_t)n + 1, sizeof *narrow);
    if (!narrow)
        return err_set(e, ERR_NOMEM, "out of memory");
    for (int i = 0; i < n; i++) {
        if (narrowing(db, names[i], &narrow[i], e) < 0) {
            free(narrow);
            return -1;
        }
        any |= narrow[i];
    }
    if (!any) {
        free(narrow);
        return 0;
    }
    for (int i = 0; i < n; i++)
        named[i] = NULL;
    /* each name's run in the database, before anything is shadowed */
    char **full = calloc((size_t)n, sizeof *full);
    long *from = calloc((size_t)n, sizeof *from),
         *to = calloc((size_t)n, sizeof *to);
    int rc = 0;
    if (!full || !from || !to)
        rc = err_set(e, ERR_NOMEM, "out of memory");
    for (int i = 0; rc == 0 && i < n; i++) {
        size_t at;
        if (narrow[i] && parse(names[i], &at, &from[i], &to[i])) {
            char *base = strndup(names[i], at);
            if (!base)
                rc = err_set(e, ERR_NOMEM, "out of memory");
            else
                rc = card_run_named(db, base, &full[i], e);
            free(base);
            long long most = 0;
            if (rc == 0 &&
                (rc = first_value(db, "SELECT coalesce(max(n), 0) FROM ("
                                      "SELECT count(*) AS n FROM "
                                      "main.episode_rows e JOIN main.runs r "
                                      "ON r.run_id = e.run_id WHERE r.run = ? "
                                      "GROUP BY coalesce(e.task_id, "
                                      "e.task_name, e.episode_id))",
                                  full[i], &most, e)) == 0 &&
                from[i] > most)
                rc = err_set(e, ERR_VALUE,
                             "%s: %s has at most %lld trial%s of a task",
                             shown_tx(names[i]), shown_tx(full[i]), most,
                             most == 1 ? "" : "s");
            /* named by the whole run's name, and the trials as said */
            buf as = BUF_INIT;
            if (rc == 0) {
                buf_printf(&as, "%s@%ld", full[i], from[i]);
                if (to[i] > from[i])
                    buf_printf(&as, "-%ld", to[i]);
                if (as.failed)
                    rc = err_set(e, ERR_NOMEM, "out of memory");
                else
                    named[i] = as.data;
            }
            if (rc < 0)
                buf_free(&as);
        } else {
            from[i] = to[i] = 0;
            rc = card_run_named(db, names[i], &full[i], e);
            if (rc == 0 && !(named[i] = strdup(full[i])))
                rc = err_set(e, ERR_NOMEM, "out of memory");
        }
    }
    /* narrowed copies' episode and run ids, past every id there is */
    long long stride = 0, top = 0;
    if (rc == 0)
        rc = first_value(db, "SELECT coalesce(max(episode_id), 0) + 1 "
                             "FROM main.episode_rows", NULL, &stride, e);
    if (rc == 0)
        rc = first_value(db, "SELECT coalesce(max(run_id), 0) + 1 "
                             "FROM main.runs", NULL, &top, e);
    if (rc == 0)
        rc = make_shadows(db, e);
    /* a run named twice (whole, or narrowed alike) is copied once */
    for (int i = 0; rc == 0 && i < n; i++) {
        int seen = 0;
        const char *as = named[i];
        for (int j = 0; j < i; j++)
            seen |= strcmp(named[j], as) == 0;
        if (!seen)
            rc = copy_run(db, full[i], as, from[i], to[i],
                          from[i] ? stride * (i + 1) : 0,
                          from[i] ? top + i : 0, e);
    }
    for (int i = 0; full && i < n; i++)
        free(full[i]);
    free(full);
    free(from);
    free(to);
    free(narrow);
    if (rc < 0) {
        for (int i = 0; i < n; i++) {
            free(named[i]);
            named[i] = NULL;
        }
        return -1;
    }
    return 1;
}
