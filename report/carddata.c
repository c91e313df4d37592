/* carddata: see carddata.h; docs/card.md lists the queries. */
#include "carddata.h"

#include <stdio.h>
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>

#include "buf.h"

#include "canon.h"
#include "db.h"
#include "dbread.h"
#include "doc.h"
#include "nearest.h"
#include "tools.h"
#include "utf8.h"

const char *const card_codes[CARD_CODES] = {
    "not_found",   "invalid_arguments", "not_ready",
    "unavailable", "timeout",           "rate_limited"};
const char *const card_outcomes[10] = {
    "retried", "gave_up", "checked", "duplicated", "left",
    "caught",  "fooled",  "stalled", "trusted",    "not_reached"};
static const char *const dial_order[] = {"faults",  "timeouts", "ratelimits",
                                         "landed",  "baddata",  "lagged"};

/* Whether the file at path starts as an SQLite database in WAL mode
 * (its header's read and write versions are 2). */
static int wal_mode(const char *path)
{
    unsigned char h[20];
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(h, 1, sizeof h, f) : 0;
    if (f)
        fclose(f);
    return n == sizeof h && memcmp(h, "SQLite format 3", 16) == 0 &&
           h[18] == 2 && h[19] == 2;
}

/* The read of path failed: SQLite's reason, and what a database in WAL
 * mode needs when that is why. */
static int cannot_read(sqlite3 *h, const char *path, err *e)
{
    int code = sqlite3_errcode(h);
    return err_set(e, ERR_IO, "%s: cannot read it: %s%s", path,
                   sqlite3_errmsg(h),
                   (code == SQLITE_READONLY || code == SQLITE_CANTOPEN) &&
                           wal_mode(path)
                       ? " (a database in WAL mode needs its folder "
                         "writable, or its -wal and -shm files present)"
                       : "");
}

/* The schema version that path records: 0 when it has no meta table or
 * no version in it; -1 with e set when it cannot be read. */
static int read_version(sqlite3 *h, const char *path, int *version, err *e)
{
    sqlite3_stmt *s = NULL;
    *version = 0;
    /* reading the schema is the first read: any reason the file cannot
     * be read shows here */
    if (sqlite3_prepare_v2(h, "SELECT count(*) FROM sqlite_master WHERE "
                              "type = 'table' AND name = 'meta'",
                           -1, &s, NULL) != SQLITE_OK ||
        sqlite3_step(s) != SQLITE_ROW) {
        cannot_read(h, path, e);
        sqlite3_finalize(s);
        return -1;
    }
    int has_meta = sqlite3_column_int(s, 0);
    sqlite3_finalize(s);
    if (!has_meta)
        return 0;
    if (sqlite3_prepare_v2(h, "SELECT value FROM meta WHERE key = "
                              "'schema_version'",
                           -1, &s, NULL) != SQLITE_OK) {
        cannot_read(h, path, e);
        sqlite3_finalize(s);
        return -1;
    }
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW)
        *version = sqlite3_column_int(s, 0);
    sqlite3_finalize(s);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return cannot_read(h, path, e);
    return 0;
}

int card_db_open(sqlite3 **out, const char *path, int *migrated, err *e)
{
    *out = NULL;
    int ignored = 0;
    if (!migrated)
        migrated = &ignored;
    *migrated = 0;
    int version = 0;
    struct stat st;
    if (stat(path, &st) < 0 && errno == ENOENT) {
        /* what a newcomer meets first: say where a database comes from */
        return err_set(e, ERR_IO, "%s: no such file: replay a night into it "
                                  "first (replay --db %s NIGHT), or name "
                                  "another with --db",
                       path, path);
    }
    if (sqlite3_open_v2(path, out, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        err_set(e, ERR_IO, "%s: cannot open it: %s", path,
                *out ? sqlite3_errmsg(*out) : "out of memory");
    } else if (read_version(*out, path, &version, e) < 0) {
        /* e says why */
    } else if (version > 0 && version < DB_SCHEMA_VERSION) {
        /* an older results database: migrated (by db_open), then read */
        sqlite3_close(*out);
        *out = NULL;
        db *d = NULL;
        if (db_open(&d, path, e) < 0)
            return -1;
        *migrated = db_migrated(d);
        if (db_close(d, e) < 0)
            return -1;
        return card_db_open(out, path, NULL, e);
    } else if (version != DB_SCHEMA_VERSION) {
        err_set(e, ERR_IO, "%s: is not a results database replay wrote "
                           "(schema version %d)%s",
                path, DB_SCHEMA_VERSION,
                version > DB_SCHEMA_VERSION ? "; it is newer: use a newer card"
                                            : "");
    } else {
        return 0;
    }
    sqlite3_close(*out);
    *out = NULL;
    return -1;
}



static int no_such_run(sqlite3 *db, const char *run, err *e);

int card_run_named(sqlite3 *db, const char *name, char **full, err *e)
{
    sqlite3_stmt *s;
    *full = NULL;
    /* the exact name first, then the names it begins */
    if (rd_prepare(db, "SELECT run, run = ?1 FROM runs WHERE run = ?1 "
                    "OR substr(run, 1, length(?1)) = ?1 "
                    "ORDER BY run = ?1 DESC, run LIMIT 11",
                name, &s, e) < 0)
        return -1;
    buf list = BUF_INIT;
    int rc, n = 0, nomem = 0;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        if (sqlite3_column_int(s, 1) || n == 0) {
            free(*full);
            if (!(*full = rd_text(s, 0)))
                nomem = 1;
            if (sqlite3_column_int(s, 1)) { /* the very name */
                n = 1;
                break;
            }
        }
        const char *run = (const char *)sqlite3_column_text(s, 0);
        if (n < 10) {
            buf_puts(&list, n ? ", " : "");
            utf8_shown(&list, run, strlen(run), 100);
        }
        n++;
    }
    if (rd_finish(db, s, rc, nomem || list.failed, e) < 0) {
        free(*full);
        *full = NULL;
        buf_free(&list);
        return -1;
    }
    if (n == 1) {
        buf_free(&list);
        return 0;
    }
    free(*full);
    *full = NULL;
    if (n == 0) {
        buf_free(&list);
        return no_such_run(db, name, e);
    }
    buf asked = BUF_INIT;
    utf8_shown(&asked, name, strlen(name), 100);
    err_set(e, ERR_VALUE, "\"%s\" begins the names of %s runs: %s%s; name "
                          "one whole",
            asked.failed ? "" : asked.data, n > 10 ? "more than 10" : "several",
            list.data, n > 10 ? ", ..." : "");
    buf_free(&asked);
    buf_free(&list);
    return -1;
}

/* "no run is named X; did you mean Y? The runs: A, B, C"; every name
 * shown escaped (utf8_shown), as the cards show them, and cut so that
 * the sentence fits an err. */
static int no_such_run(sqlite3 *db, const char *run, err *e)
{
    sqlite3_stmt *s;
    if (rd_prepare(db, "SELECT run FROM runs ORDER BY run", NULL, &s, e) < 0)
        return -1;
    buf asked = BUF_INIT, list = BUF_INIT, nearest = BUF_INIT;
    size_t best = (size_t)-1, n = 0;
    int rc;
    buf_puts(&asked, "\"");
    utf8_shown(&asked, run, strlen(run), 100);
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(s, 0);
        size_t len = (size_t)sqlite3_column_bytes(s, 0);
        size_t d = edit_distance(run, strlen(run), name, len);
        if (d < best) {
            best = d;
            buf_reset(&nearest);
            utf8_shown(&nearest, name, len, 100);
        }
        if (list.len < 240) {
            buf_puts(&list, n ? ", " : "The runs: ");
            utf8_shown(&list, name, len, 240 - list.len);
        }
        n++;
    }
    if (rc != SQLITE_DONE)
        rd_failed(db, e);
    else if (asked.failed || list.failed || nearest.failed)
        err_set(e, ERR_NOMEM, "out of memory");
    else if (n == 0)
        err_set(e, ERR_VALUE, "no run is named %s\": the database holds "
                              "no run yet",
                asked.data);
    else
        err_set(e, ERR_VALUE, "no run is named %s\"; did you mean %s? %s",
                asked.data, nearest.data ? nearest.data : "", list.data);
    sqlite3_finalize(s);
    buf_free(&asked);
    buf_free(&list);
    buf_free(&nearest);
    return -1;
}

static int by_arm(const void *x, const void *y)
{
    const card_arm *a = x, *b = y;
    return rd_arm_rank(a->arm) - rd_arm_rank(b->arm);
}

static void tools_free(card_tool *t, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(t[i].tool);
        free(t[i].kind);
        free(t[i].rule);
    }
    free(t);
}

/* Appends a zeroed tool to *v; NULL out of memory. */
static card_tool *more_tool(card_tool **v, size_t *n)
{
    card_tool *more = realloc(*v, (*n + 1) * sizeof *more);
    if (!more)
        return NULL;
    *v = more;
    memset(&more[*n], 0, sizeof *more);
    return &more[(*n)++];
}

int card_passk_shown(long k, long largest)
{
    return k <= 4 || k == largest || (k & (k - 1)) == 0;
}

static int contract_tools(sqlite3 *db, const char *file_sha256, doc **d,
                          toolset **ts, err *e);

/* What said each observed tool's kind, from the run's stored contract. */
static int kinds_from(card *c, sqlite3 *db, err *e)
{
    doc *d = NULL;
    toolset *ts = NULL;
    int rc = contract_tools(db, c->file_sha256, &d, &ts, e);
    for (size_t i = 0; rc == 0 && i < c->ntools; i++) {
        card_tool *t = &c->tools[i];
        const tool *u = toolset_find(ts, t->tool, strlen(t->tool));
        if (!u)
            continue;
        t->kind_from = u->kind_source == KIND_FROM_NAME   ? "name"
                       : u->kind_source == KIND_FROM_HINT ? "hint"
                                                          : "method";
    }
    toolset_free(ts);
    doc_free(d);
    return rc;
}

int card_usage_any(const card_usage *u)
{
    return u->tokened || u->costed || u->timed || u->timed_calls;
}

/* What the episodes and calls used, as logged: the queries docs/card.md
 * gives. */
/* The value at nearest rank ceil(p n) of column col of the run's
 * episodes (where it is not NULL); n of them. */
static int nearest_rank(sqlite3 *db, const char *col, const char *run,
                        long n, int pct, double *out, err *e)
{
    *out = 0;
    if (n <= 0)
        return 0;
    char sql[256];
    snprintf(sql, sizeof sql, "SELECT %s AS v FROM episodes WHERE run = ? "
                              "AND v IS NOT NULL ORDER BY v LIMIT 1 OFFSET ?",
             col);
    sqlite3_stmt *s;
    if (rd_prepare(db, sql, run, &s, e) < 0)
        return -1;
    sqlite3_bind_int64(s, 2, (sqlite3_int64)((pct * n + 99) / 100 - 1));
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW)
        *out = sqlite3_column_double(s, 0);
    sqlite3_finalize(s);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : rd_failed(db, e);
}

/* The simulated episodes' calls against their tasks' steps. */
static int load_efficiency(card *c, sqlite3 *db, const char *run, err *e)
{
    card_efficiency *f = &c->efficiency;
    sqlite3_stmt *s;
    if (rd_prepare(db,
                   "SELECT coalesce(sum(e.calls), 0), coalesce(sum(t.depth), 0) "
                   "FROM episodes e JOIN task_rows t ON t.task_id = e.task_id "
                   "WHERE e.run = ?1 AND e.seed IS NOT NULL",
                   run, &s, e) < 0)
        return -1;
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) {
        f->calls = (long)sqlite3_column_int64(s, 0);
        f->steps = (long)sqlite3_column_int64(s, 1);
    }
    sqlite3_finalize(s);
    if (rc != SQLITE_ROW)
        return rd_failed(db, e);
    if (rd_prepare(db,
                   "SELECT count(*) FILTER (WHERE c.kind = 'read' AND "
                   "  c.error IS NULL AND EXISTS (SELECT 1 FROM call_rows p "
                   "  WHERE p.episode_id = c.episode_id AND p.seq < c.seq "
                   "  AND p.tool = c.tool AND p.arguments = c.arguments "
                   "  AND p.error IS NULL)), "
                   "count(*) FILTER (WHERE EXISTS (SELECT 1 FROM call_rows p "
                   "  WHERE p.episode_id = c.episode_id AND p.seq = c.seq - 1 "
                   "  AND p.error IS NOT NULL AND p.tool = c.tool "
                   "  AND p.arguments IS c.arguments)), "
                   "count(*) FILTER (WHERE c.dial IN ('faults', 'timeouts', "
                   "  'ratelimits')) "
                   "FROM calls c WHERE c.run = ?1 AND c.answer IS NOT NULL",
                   run, &s, e) < 0)
        return -1;
    rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) {
        f->repeated_reads = (long)sqlite3_column_int64(s, 0);
        f->retries = (long)sqlite3_column_int64(s, 1);
        f->planned_errors = (long)sqlite3_column_int64(s, 2);
    }
    sqlite3_finalize(s);
    return rc == SQLITE_ROW ? 0 : rd_failed(db, e);
}

static int load_usage(card *c, sqlite3 *db, const char *run, err *e)
{
    sqlite3_stmt *s = NULL;
    card_usage *u = &c->usage;
    int rc;
    if (rd_prepare(db, "SELECT count(coalesce(input_tokens, output_tokens)), "
                    "total(input_tokens), total(output_tokens), "
                    "count(cost), total(cost), count(duration), "
                    "coalesce(avg(duration), 0) "
                    "FROM episodes WHERE run = ?",
                run, &s, e) < 0)
        return -1;
    if ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        u->tokened = (long)sqlite3_column_int64(s, 0);
        u->input_tokens = sqlite3_column_double(s, 1);
        u->output_tokens = sqlite3_column_double(s, 2);
        u->costed = (long)sqlite3_column_int64(s, 3);
        u->cost = sqlite3_column_double(s, 4);
        u->timed = (long)sqlite3_column_int64(s, 5);
        u->mean_seconds = sqlite3_column_double(s, 6);
    }
    sqlite3_finalize(s);
    if (rc != SQLITE_ROW)
        return rd_failed(db, e);
    if (rd_prepare(db, "SELECT count(duration), coalesce(avg(duration), 0) "
                    "FROM calls WHERE run = ?",
                run, &s, e) < 0)
        return -1;
    if ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        u->timed_calls = (long)sqlite3_column_int64(s, 0);
        u->mean_call_seconds = sqlite3_column_double(s, 1);
    }
    sqlite3_finalize(s);
    if (rc != SQLITE_ROW)
        return rd_failed(db, e);
    static const char tokens[] =
        "CASE WHEN coalesce(input_tokens, output_tokens) IS NOT NULL THEN "
        "coalesce(input_tokens, 0) + coalesce(output_tokens, 0) END";
    if (nearest_rank(db, "duration", run, u->timed, 50, &u->median_seconds,
                     e) < 0 ||
        nearest_rank(db, "duration", run, u->timed, 95, &u->p95_seconds,
                     e) < 0 ||
        nearest_rank(db, tokens, run, u->tokened, 50, &u->median_tokens,
                     e) < 0 ||
        nearest_rank(db, tokens, run, u->tokened, 95, &u->p95_tokens, e) < 0)
        return -1;
    return 0;
}

/* The figures of one kind of episode and of observed calls, and pass^k:
 * the queries docs/card.md gives. */
static int load_observed(card *c, sqlite3 *db, const char *run, err *e)
{
    sqlite3_stmt *s = NULL;
    int rc;
    if (rd_prepare(db, "SELECT seed IS NULL, count(*), count(success), "
                    "coalesce(sum(success), 0), count(reward), avg(reward), "
                    "sum(unfinished) "
                    "FROM episodes WHERE run = ? GROUP BY seed IS NULL",
                run, &s, e) < 0)
        return -1;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        int k = sqlite3_column_int(s, 0) ? 1 : 0;
        *(k ? &c->observed : &c->simulated) = (long)sqlite3_column_int64(s, 1);
        c->harness[k].judged = (long)sqlite3_column_int64(s, 2);
        c->harness[k].successes = (long)sqlite3_column_int64(s, 3);
        c->harness[k].rewarded = (long)sqlite3_column_int64(s, 4);
        c->harness[k].mean_reward = sqlite3_column_double(s, 5);
        c->harness[k].unfinished = (long)sqlite3_column_int64(s, 6);
    }
    sqlite3_finalize(s);
    if (rc != SQLITE_DONE)
        return rd_failed(db, e);

    /* a tool file of no tool: calls have no schema, not unknown tools */
    if (rd_prepare(db, "SELECT tools = 0 AND refused = 0 FROM tool_files "
                    "WHERE file_sha256 = ?",
                c->file_sha256, &s, e) < 0)
        return -1;
    if ((rc = sqlite3_step(s)) == SQLITE_ROW)
        c->no_schema = sqlite3_column_int(s, 0);
    sqlite3_finalize(s);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return rd_failed(db, e);

    if (c->observed) {
        /* per tool: calls, invalid arguments, answers off the schema */
        if (rd_prepare(db, "SELECT c.tool, c.kind, count(*), "
                        "count(c.arguments_valid), "
                        "count(*) FILTER (WHERE c.arguments_valid = 0), "
                        "count(c.answer_valid), "
                        "count(*) FILTER (WHERE c.answer_valid = 0), "
                        "count(c.error) "
                        "FROM calls c JOIN episodes e "
                        "ON e.episode_id = c.episode_id "
                        "WHERE e.run = ? AND e.seed IS NULL "
                        "GROUP BY c.tool, c.kind "
                        "ORDER BY c.kind IS NULL, "
                        "CASE WHEN c.kind IS NULL THEN -count(*) END, c.tool",
                    run, &s, e) < 0)
            return -1;
        while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
            int known = c->no_schema ||
                        sqlite3_column_type(s, 1) != SQLITE_NULL;
            card_tool *t = known ? more_tool(&c->tools, &c->ntools)
                                 : more_tool(&c->unknown, &c->nunknown);
            if (!t) {
                sqlite3_finalize(s);
                return err_set(e, ERR_NOMEM, "out of memory");
            }
            t->tool = rd_text(s, 0);
            t->kind = sqlite3_column_type(s, 1) != SQLITE_NULL
                          ? rd_text(s, 1)
                          : NULL;
            t->kind_ok = t->kind && (strcmp(t->kind, "read") == 0 ||
                                     strcmp(t->kind, "write") == 0);
            t->calls = (long)sqlite3_column_int64(s, 2);
            t->args_checked = (long)sqlite3_column_int64(s, 3);
            t->invalid = (long)sqlite3_column_int64(s, 4);
            t->answers_checked = (long)sqlite3_column_int64(s, 5);
            t->off_schema = (long)sqlite3_column_int64(s, 6);
            t->errors = (long)sqlite3_column_int64(s, 7);
            c->observed_calls += t->calls;
            c->observed_errors += t->errors;
        }
        sqlite3_finalize(s);
        if (rc != SQLITE_DONE)
            return rd_failed(db, e);
        if (c->ntools && kinds_from(c, db, e) < 0)
            return -1;
        /* each tool's commonest rule broken (ties: the first by text) */
        if (rd_prepare(db, "SELECT c.tool, c.arguments_rule, count(*) AS n "
                        "FROM calls c JOIN episodes e "
                        "ON e.episode_id = c.episode_id "
                        "WHERE e.run = ? AND e.seed IS NULL "
                        "AND c.arguments_valid = 0 "
                        "GROUP BY c.tool, c.arguments_rule "
                        "ORDER BY c.tool, n DESC, c.arguments_rule",
                    run, &s, e) < 0)
            return -1;
        while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
            const char *tool = (const char *)sqlite3_column_text(s, 0);
            for (size_t i = 0; tool && i < c->ntools; i++)
                if (!c->tools[i].rule && strcmp(c->tools[i].tool, tool) == 0) {
                    c->tools[i].rule = rd_text(s, 1);
                    c->tools[i].rule_calls = (long)sqlite3_column_int64(s, 2);
                }
        }
        sqlite3_finalize(s);
        if (rc != SQLITE_DONE)
            return rd_failed(db, e);
    }

    /* the view pass_hat_k's formula fed from the run's trials alone (the
     * view computes every run's before a filter applies): example 11 of
     * sql/examples.sql */
    if (rd_prepare(db, "WITH RECURSIVE t(kind, n, c) AS ("
                    "  SELECT kind, CASE kind WHEN 'simulated' THEN trials "
                    "  ELSE judged END, CASE kind WHEN 'simulated' THEN passes "
                    "  ELSE coalesce(successes, 0) END "
                    "  FROM trials WHERE run = ?), "
                    "p(kind, n, c, k, r) AS ("
                    "  SELECT kind, n, c, 1, 1.0 * c / n FROM t WHERE n >= 1 "
                    "  UNION ALL "
                    "  SELECT kind, n, c, k + 1, r * (c - k) / (n - k) FROM p "
                    "  WHERE k < n) "
                    "SELECT kind = 'observed', k, avg(r), count(*), "
                    "sum(r * r), sum(n) FROM p "
                    "GROUP BY kind, k ORDER BY kind DESC, k",
                run, &s, e) < 0)
        return -1;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        int k = sqlite3_column_int(s, 0) ? 1 : 0;
        card_passk *more = realloc(c->passk[k],
                                   (c->npassk[k] + 1) * sizeof *more);
        if (!more) {
            sqlite3_finalize(s);
            return err_set(e, ERR_NOMEM, "out of memory");
        }
        c->passk[k] = more;
        card_passk *pk = &more[c->npassk[k]++];
        pk->k = (long)sqlite3_column_int64(s, 1);
        pk->tasks = (long)sqlite3_column_int64(s, 3);
        pk->rate = sqlite3_column_double(s, 2);
        pk->ci = mean_rate_interval(pk->rate, sqlite3_column_double(s, 4),
                                    (unsigned long)pk->tasks,
                                    sqlite3_column_double(s, 5), NULL);
    }
    sqlite3_finalize(s);
    if (rc != SQLITE_DONE)
        return rd_failed(db, e);
    if (card_rates_load(db, run, c->rate, e) < 0)
        return -1;
    /* flaky tasks: of several trials, some passed and some failed */
    if (rd_prepare(db, "SELECT count(*) FILTER (WHERE CASE kind "
                    "WHEN 'simulated' THEN passes > 0 AND passes < trials "
                    "ELSE successes > 0 AND successes < judged END), "
                    "count(*) FILTER (WHERE CASE kind WHEN 'simulated' "
                    "THEN trials > 1 ELSE judged > 1 END) "
                    "FROM trials WHERE run = ?",
                run, &s, e) < 0)
        return -1;
    if ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        c->flaky_tasks = (long)sqlite3_column_int64(s, 0);
        c->trial_tasks = (long)sqlite3_column_int64(s, 1);
    }
    if (rd_finish(db, s, rc, 0, e) < 0)
        return -1;
    /* the rows come by k: the last is the largest; keep the k shown */
    for (int k = 0; k < 2; k++) {
        size_t kept = 0;
        if (c->npassk[k])
            c->passk_largest[k] = c->passk[k][c->npassk[k] - 1].k;
        for (size_t i = 0; i < c->npassk[k]; i++)
            if (card_passk_shown(c->passk[k][i].k, c->passk_largest[k]))
                c->passk[k][kept++] = c->passk[k][i];
        c->npassk[k] = kept;
    }
    return 0;
}

int card_load(card *c, sqlite3 *db, const char *run, err *e)
{
    sqlite3_stmt *s = NULL;
    memset(c, 0, sizeof *c);
    if (rd_prepare(db,
                "SELECT run, model, tools_path, file_sha256, contract_sha256, "
                "generator_version, generator_fingerprint, replayed_at, "
                "episodes, reached, pass, side_effects, duplicate_writes, "
                "errors, unfinished, diverged_episodes, problems, "
                "compared_episodes, tools_found "
                "FROM run_summary WHERE run = ?",
                run, &s, e) < 0)
        return -1;
    int rc = sqlite3_step(s);
    if (rc != SQLITE_ROW) {
        sqlite3_finalize(s);
        return rc == SQLITE_DONE ? no_such_run(db, run, e)
                                 : rd_failed(db, e);
    }
    c->run = rd_text(s, 0);
    c->model = rd_text(s, 1);
    c->tools_path = rd_text(s, 2);
    c->file_sha256 = rd_text(s, 3);
    c->contract_sha256 = rd_text(s, 4);
    c->generator_version = sqlite3_column_int(s, 5);
    c->fingerprint = rd_text(s, 6);
    c->replayed_at = rd_text(s, 7);
    long *figures[] = {&c->episodes,   &c->reached,    &c->pass,
                       &c->side_effects, &c->duplicates, &c->errors,
                       &c->unfinished, &c->diverged_episodes, &c->problems};
    for (int i = 0; i < 9; i++)
        *figures[i] = (long)sqlite3_column_int64(s, 8 + i);
    /* diverged is NULL on every observed episode: these are simulated */
    c->compared_episodes = (long)sqlite3_column_int64(s, 17);
    int found_lost = sqlite3_column_type(s, 18) != SQLITE_NULL &&
                     !(c->tools_found = rd_text(s, 18));
    sqlite3_finalize(s);
    if (!c->run || !c->model || !c->tools_path || !c->file_sha256 ||
        !c->contract_sha256 || !c->fingerprint || !c->replayed_at ||
        found_lost)
        return err_set(e, ERR_NOMEM, "out of memory");

    if (rd_prepare(db,
                "SELECT coalesce(sum(err_not_found), 0), "
                "coalesce(sum(err_invalid_arguments), 0), "
                "coalesce(sum(err_not_ready), 0), "
                "coalesce(sum(err_unavailable), 0), "
                "coalesce(sum(err_timeout), 0), "
                "coalesce(sum(err_rate_limited), 0) "
                "FROM episodes WHERE run = ?",
                run, &s, e) < 0)
        return -1;
    if ((rc = sqlite3_step(s)) == SQLITE_ROW)
        for (int i = 0; i < CARD_CODES; i++)
            c->by_code[i] = (long)sqlite3_column_int64(s, i);
    sqlite3_finalize(s);
    if (rc != SQLITE_ROW)
        return rd_failed(db, e);

    if (rd_prepare(db, "SELECT count(*) FILTER (WHERE diverged = 1), "
                    "count(diverged), count(*) FILTER (WHERE diverged IS "
                    "NULL AND answer IS NOT NULL) FROM calls WHERE run = ?",
                run, &s, e) < 0)
        return -1;
    if ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        c->diverged_calls = (long)sqlite3_column_int64(s, 0);
        c->compared_calls = (long)sqlite3_column_int64(s, 1);
        c->unlogged_calls = (long)sqlite3_column_int64(s, 2);
    }
    sqlite3_finalize(s);
    if (rc != SQLITE_ROW)
        return rd_failed(db, e);

    if (load_observed(c, db, run, e) < 0 || load_usage(c, db, run, e) < 0 ||
        load_efficiency(c, db, run, e) < 0)
        return -1;

    if (rd_prepare(db,
                "SELECT arm, episodes, reached, pass, side_effects, "
                "duplicate_writes, errors FROM arm_summary WHERE run = ?",
                run, &s, e) < 0)
        return -1;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        card_arm *more = realloc(c->arms, (c->narms + 1) * sizeof *more);
        if (!more) {
            sqlite3_finalize(s);
            return err_set(e, ERR_NOMEM, "out of memory");
        }
        c->arms = more;
        card_arm *a = &c->arms[c->narms++];
        a->arm = rd_text(s, 0);
        a->episodes = (long)sqlite3_column_int64(s, 1);
        a->reached = (long)sqlite3_column_int64(s, 2);
        a->pass = (long)sqlite3_column_int64(s, 3);
        a->side_effects = (long)sqlite3_column_int64(s, 4);
        a->duplicates = (long)sqlite3_column_int64(s, 5);
        a->errors = (long)sqlite3_column_int64(s, 6);
    }
    sqlite3_finalize(s);
    if (rc != SQLITE_DONE)
        return rd_failed(db, e);
    if (c->narms > 1)
        qsort(c->arms, c->narms, sizeof *c->arms, by_arm);

    if (rd_prepare(db, "SELECT dial, outcome, events FROM dial_summary "
                    "WHERE run = ?",
                run, &s, e) < 0)
        return -1;
    c->dials = calloc(6, sizeof *c->dials);
    if (!c->dials) {
        sqlite3_finalize(s);
        return err_set(e, ERR_NOMEM, "out of memory");
    }
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        const char *dial = (const char *)sqlite3_column_text(s, 0);
        const char *outcome = (const char *)sqlite3_column_text(s, 1);
        long n = (long)sqlite3_column_int64(s, 2);
        for (int d = 0; d < 6; d++) {
            if (strcmp(dial, dial_order[d]) != 0)
                continue;
            for (int o = 0; o < 10; o++)
                if (strcmp(outcome, card_outcomes[o]) == 0)
                    c->dials[d].outcomes[o] += n;
            c->dials[d].events += n;
            if (strcmp(outcome, "not_reached") != 0)
                c->dials[d].fired += n;
        }
    }
    sqlite3_finalize(s);
    if (rc != SQLITE_DONE)
        return rd_failed(db, e);
    /* keep the dials that had events, in their order */
    for (int d = 0; d < 6; d++)
        if (c->dials[d].events) {
            c->dials[c->ndials] = c->dials[d];
            c->dials[c->ndials++].dial = strdup(dial_order[d]);
        }

    if (card_classes_load(&c->classes, &c->nclasses, db, c->run, e) < 0)
        return -1;
    if (card_problems_no_run(db, &c->problems_no_run, e) < 0)
        return -1;
    /* in each file, its log's own problems first, in the order found */
    if (rd_prepare(db, "SELECT source_file, source_line, message, place FROM "
                    "problems WHERE run = ? ORDER BY source_file, "
                    "source_line >= 0, abs(source_line) LIMIT 5",
                run, &s, e) < 0)
        return -1;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW && c->nfirst < 5) {
        card_problem *p = &c->first_problems[c->nfirst++];
        p->file = rd_text(s, 0);
        p->line = (long)sqlite3_column_int64(s, 1);
        p->message = rd_text(s, 2);
        p->place = sqlite3_column_type(s, 3) == SQLITE_NULL ? NULL
                                                             : rd_text(s, 3);
        if (!p->file || !p->message ||
            (sqlite3_column_type(s, 3) != SQLITE_NULL && !p->place)) {
            sqlite3_finalize(s);
            return err_set(e, ERR_NOMEM, "out of memory reading the run's "
                                         "problems");
        }
    }
    sqlite3_finalize(s);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW)
        return rd_failed(db, e);
    return 0;
}

void card_problem_where(buf *out, const card_problem *p)
{
    if (!p->place)
        buf_printf(out, "%s:%ld", p->file, p->line);
    else
        buf_printf(out, "%s%s%s", p->file, p->place[0] ? ": " : "",
                   p->place);
}

int card_problems_no_run(sqlite3 *db, long *n, err *e)
{
    sqlite3_stmt *s;
    *n = 0;
    if (rd_prepare(db, "SELECT count(*) FROM problems WHERE run IS NULL", NULL,
                &s, e) < 0)
        return -1;
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW)
        *n = (long)sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    return rc == SQLITE_ROW ? 0 : rd_failed(db, e);
}

char *card_latest(sqlite3 *db, err *e)
{
    sqlite3_stmt *s;
    if (rd_prepare(db, "SELECT run FROM runs ORDER BY replayed_at DESC, "
                    "rowid DESC LIMIT 1",
                NULL, &s, e) < 0)
        return NULL;
    int rc = sqlite3_step(s);
    char *run = rc == SQLITE_ROW ? rd_text(s, 0) : NULL;
    sqlite3_finalize(s);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        rd_failed(db, e);
    return run;
}

void card_free(card *c)
{
    free(c->run);
    free(c->model);
    free(c->tools_path);
    free(c->tools_found);
    free(c->file_sha256);
    free(c->contract_sha256);
    free(c->fingerprint);
    free(c->replayed_at);
    for (size_t i = 0; i < c->narms; i++)
        free(c->arms[i].arm);
    free(c->arms);
    for (size_t i = 0; i < c->ndials; i++)
        free(c->dials[i].dial);
    free(c->dials);
    for (size_t i = 0; i < c->nfirst; i++) {
        free(c->first_problems[i].file);
        free(c->first_problems[i].message);
        free(c->first_problems[i].place);
    }
    tools_free(c->tools, c->ntools);
    tools_free(c->unknown, c->nunknown);
    free(c->passk[0]);
    free(c->passk[1]);
    card_classes_free(c->classes, c->nclasses);
    memset(c, 0, sizeof *c);
}

/* ------------------------------------------------------------ compare */

/* Whether both runs hold observed episodes only. */
static int observed_only(const card *a, const card *b)
{
    return !a->simulated && !b->simulated;
}

enum compare_case card_compare_case(const card *a, const card *b)
{
    int observed = observed_only(a, b);
    if (observed && (a->no_schema || b->no_schema))
        return COMPARE_SAME; /* no contract to hold them to */
    if (strcmp(a->contract_sha256, b->contract_sha256) != 0)
        return COMPARE_CONTRACTS;
    if (strcmp(a->file_sha256, b->file_sha256) != 0)
        return observed ? COMPARE_SAME : COMPARE_REFORMATTED;
    /* observed episodes were not made by the generator: only the
     * simulator's need the same one */
    if ((a->simulated || b->simulated) &&
        (a->generator_version != b->generator_version ||
         strcmp(a->fingerprint, b->fingerprint) != 0))
        return COMPARE_GENERATORS;
    return COMPARE_SAME;
}

/* The tool table of a stored contract. */
static int contract_tools(sqlite3 *db, const char *file_sha256, doc **d,
                          toolset **ts, err *e)
{
    sqlite3_stmt *s;
    if (rd_prepare(db, "SELECT contract FROM tool_files WHERE file_sha256 = ?",
                file_sha256, &s, e) < 0)
        return -1;
    int rc = -1;
    if (sqlite3_step(s) == SQLITE_ROW) {
        const char *text = (const char *)sqlite3_column_text(s, 0);
        int len = sqlite3_column_bytes(s, 0);
        rc = doc_parse(d, text, (size_t)len, e);
        if (rc == 0)
            rc = toolset_build(ts, *d, e);
    } else {
        buf hash = BUF_INIT;
        utf8_shown(&hash, file_sha256, strlen(file_sha256), 12);
        err_set(e, ERR_IO, "the database has no contract for %s%s",
                hash.data ? hash.data : "",
                strlen(file_sha256) > 12 ? "" : "...");
        buf_free(&hash);
    }
    sqlite3_finalize(s);
    return rc;
}

/* What a tool is, for comparing two contracts: its kind, description and
 * schemas, as canonical JSON. */
static char *tool_text(const tool *t)
{
    buf b = BUF_INIT;
    err e;
    buf one = BUF_INIT;
    buf_printf(&b, "%d\n%s\n", (int)t->kind, t->description);
    const value *parts[] = {t->input_schema, t->output_schema};
    for (int i = 0; i < 2; i++) {
        if (parts[i] && canon_write(&one, parts[i], &e) == 0)
            buf_append(&b, one.data, one.len);
        buf_putc(&b, '\n');
    }
    buf_free(&one);
    if (b.failed) {
        buf_free(&b);
        return NULL;
    }
    return b.data;
}

static int push_name(char ***list, size_t *n, const char *name)
{
    char **more = realloc(*list, (*n + 1) * sizeof *more);
    if (!more)
        return -1;
    *list = more;
    return (more[(*n)++] = strdup(name)) ? 0 : -1;
}

int card_contract_diff(contract_diff *d, sqlite3 *db, const card *a,
                       const card *b, err *e)
{
    doc *da = NULL, *db_ = NULL;
    toolset *ta = NULL, *tb = NULL;
    memset(d, 0, sizeof *d);
    int rc = contract_tools(db, a->file_sha256, &da, &ta, e);
    if (rc == 0)
        rc = contract_tools(db, b->file_sha256, &db_, &tb, e);
    for (size_t i = 0; rc == 0 && i < ta->ntools; i++) {
        const tool *t = &ta->tools[i];
        const tool *u = toolset_find(tb, t->name, strlen(t->name));
        if (!u) {
            rc = push_name(&d->removed, &d->nremoved, t->name);
            continue;
        }
        char *x = tool_text(t), *y = tool_text(u);
        if (!x || !y)
            rc = -1;
        else if (strcmp(x, y) != 0)
            rc = push_name(&d->changed, &d->nchanged, t->name);
        free(x);
        free(y);
    }
    for (size_t i = 0; rc == 0 && i < tb->ntools; i++)
        if (!toolset_find(ta, tb->tools[i].name, strlen(tb->tools[i].name)))
            rc = push_name(&d->added, &d->nadded, tb->tools[i].name);
    if (rc < 0 && e->code == ERR_NONE)
        err_set(e, ERR_NOMEM, "out of memory");
    toolset_free(ta);
    toolset_free(tb);
    doc_free(da);
    doc_free(db_);
    return rc;
}

void contract_diff_free(contract_diff *d)
{
    char **lists[] = {d->added, d->removed, d->changed};
    size_t ns[] = {d->nadded, d->nremoved, d->nchanged};
    for (int l = 0; l < 3; l++) {
        for (size_t i = 0; i < ns[l]; i++)
            free(lists[l][i]);
        free(lists[l]);
    }
    memset(d, 0, sizeof *d);
}

/* Each row's difference and interval. */
static void rows_figures(card_row *rows, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        card_row *r = &rows[i];
        r->measured = r->na > 0 && r->nb > 0;
        if (!r->measured) /* a rate of nothing is no figure */
            continue;
        r->ci = newcombe((unsigned long)r->xa, (unsigned long)r->na,
                         (unsigned long)r->xb, (unsigned long)r->nb, &r->diff);
        r->excludes_zero = r->ci.lo > 0 || r->ci.hi < 0;
    }
}

card_row *card_compare_rows(const card *a, const card *b, size_t *n)
{
    *n = 0;
    card_row *rows = calloc(a->narms + b->narms + 1, sizeof *rows);
    if (!rows)
        return NULL;
    rows[(*n)++] = (card_row){.arm = "all", .xa = a->pass,
                              .na = a->simulated, .xb = b->pass,
                              .nb = b->simulated};
    for (size_t i = 0; i < a->narms; i++) {
        card_row r = {.arm = a->arms[i].arm, .xa = a->arms[i].pass,
                      .na = a->arms[i].episodes};
        for (size_t j = 0; j < b->narms; j++)
            if (strcmp(b->arms[j].arm, r.arm) == 0) {
                r.xb = b->arms[j].pass;
                r.nb = b->arms[j].episodes;
            }
        rows[(*n)++] = r;
    }
    for (size_t j = 0; j < b->narms; j++) {
        int seen = 0;
        for (size_t i = 0; i < a->narms; i++)
            seen |= strcmp(a->arms[i].arm, b->arms[j].arm) == 0;
        if (!seen)
            rows[(*n)++] = (card_row){.arm = b->arms[j].arm,
                                      .xb = b->arms[j].pass,
                                      .nb = b->arms[j].episodes};
    }
    rows_figures(rows, *n);
    return rows;
}

int card_compare(card_compared *x, sqlite3 *db, const card *a, const card *b,
                 int across, err *e)
{
    memset(x, 0, sizeof *x);
    x->a = a;
    x->b = b;
    x->k = card_compare_case(a, b);
    x->flips_shown = CARD_FLIPS_SHOWN;
    x->usage_shown = USAGE_TASKS_SHOWN;
    x->contract = CONTRACT_CHECKED;
    if (x->k == COMPARE_SAME && observed_only(a, b)) {
        if (a->no_schema || b->no_schema)
            x->contract = CONTRACT_UNCHECKED;
        else if (strcmp(a->file_sha256, b->file_sha256) != 0)
            x->contract = CONTRACT_LAYOUT;
    }
    if (x->k == COMPARE_CONTRACTS && across && observed_only(a, b)) {
        x->k = COMPARE_SAME;
        x->contract = CONTRACT_ACROSS;
    }
    if ((x->k == COMPARE_CONTRACTS || x->contract == CONTRACT_ACROSS) &&
        card_contract_diff(&x->d, db, a, b, e) < 0)
        return -1;
    if (x->k == COMPARE_SAME) {
        if (card_compare_paired(db, a, b, &x->paired, &x->npaired, e) < 0)
            return -1;
        if ((a->simulated || b->simulated) &&
            !(x->rows = card_compare_rows(a, b, &x->nrows)))
            return err_set(e, ERR_NOMEM, "out of memory");
        if (card_flips_load(&x->flips, db, a->run, b->run, e) < 0 ||
            usage_pairs_load(&x->usage, db, a->run, b->run, e) < 0)
            return -1;
    }
    card_compare_verdict(x);
    return 0;
}

void card_compared_free(card_compared *x)
{
    free(x->rows);
    card_paired_free(x->paired, x->npaired);
    contract_diff_free(&x->d);
    card_flips_free(&x->flips);
    usage_pairs_free(&x->usage);
    memset(x, 0, sizeof *x);
}

void card_pairing_text(buf *out, const card_compared *x, int sentence)
{
    const card *a = x->a, *b = x->b;
    size_t from = out->len;
    switch (x->contract) {
    case CONTRACT_CHECKED:
        buf_puts(out, observed_only(a, b) ? "same tool file"
                                          : "same tool file and generator");
        break;
    case CONTRACT_LAYOUT:
        buf_puts(out, "same tool contract; the tool files differ in layout "
                      "only");
        break;
    case CONTRACT_UNCHECKED:
        buf_printf(out, "no contract could be checked: %s recorded no tool "
                        "definitions",
                   a->no_schema && b->no_schema ? "neither run's log"
                   : a->no_schema               ? "A's log"
                                                : "B's log");
        break;
    case CONTRACT_ACROSS:
        buf_printf(out, "different tool contracts, compared anyway "
                        "(--across-contracts): %zu tool%s added, %zu "
                        "removed, %zu changed",
                   x->d.nadded, x->d.nadded == 1 ? "" : "s", x->d.nremoved,
                   x->d.nchanged);
        break;
    }
    if (x->flips.shared == 0)
        buf_puts(out, ", but no task is in both runs: nothing to pair");
    else if (observed_only(a, b))
        buf_puts(out, "; observed episodes, paired by the harness's names "
                      "of their tasks");
    else
        buf_puts(out, ": the same tasks, side by side");
    if (sentence && out->data && out->len > from) {
        out->data[from] = (char)toupper((unsigned char)out->data[from]);
        buf_putc(out, '.');
    }
}

const char card_no_run_query[] = "SELECT * FROM problems WHERE run IS NULL";

double card_pct(long x, long n)
{
    return n ? 100.0 * (double)x / (double)n : 0.0;
}

int card_list(card_listing *l, sqlite3 *db, err *e)
{
    sqlite3_stmt *s;
    memset(l, 0, sizeof *l);
    if (rd_prepare(db, "SELECT run, coalesce(model, ''), episodes, "
                    "CASE WHEN simulated > 0 THEN pass ELSE -1 END, "
                    "replayed_at, CASE WHEN judged > 0 THEN successes "
                    "ELSE -1 END FROM run_summary ORDER BY replayed_at, run",
                NULL, &s, e) < 0)
        return -1;
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        card_listed *more = realloc(l->runs, (l->n + 1) * sizeof *more);
        if (!more) {
            sqlite3_finalize(s);
            return err_set(e, ERR_NOMEM, "out of memory");
        }
        l->runs = more;
        card_listed *r = &l->runs[l->n++];
        r->run = rd_text(s, 0);
        r->model = rd_text(s, 1);
        r->episodes = (long)sqlite3_column_int64(s, 2);
        r->pass = (long)sqlite3_column_int64(s, 3);
        r->replayed_at = rd_text(s, 4);
        r->success = (long)sqlite3_column_int64(s, 5);
        if (!r->run || !r->model || !r->replayed_at) {
            sqlite3_finalize(s);
            return err_set(e, ERR_NOMEM, "out of memory");
        }
    }
    sqlite3_finalize(s);
    if (rc != SQLITE_DONE)
        return rd_failed(db, e);
    return card_problems_no_run(db, &l->no_run, e);
}

void card_listing_free(card_listing *l)
{
    for (size_t i = 0; i < l->n; i++) {
        free(l->runs[i].run);
        free(l->runs[i].model);
        free(l->runs[i].replayed_at);
    }
    free(l->runs);
    memset(l, 0, sizeof *l);
}

void card_outcomes_text(buf *b, const card_dial *d)
{
    int n = 0;
    for (int o = 0; o < 10; o++)
        if (d->outcomes[o])
            buf_printf(b, "%s%s %ld", n++ ? ", " : "", card_outcomes[o],
                       d->outcomes[o]);
}

const char card_same_tools[] = "the tools are the same; the files differ "
                               "elsewhere (a refused tool, info, servers...)";

void card_refusal(buf *out, const card *a, const card *b, enum compare_case k)
{
    if (k == COMPARE_REFORMATTED)
        buf_printf(out, "%s and %s share one tool contract, but the file was "
                        "reformatted, and tasks are drawn from the file's "
                        "bytes, so their tasks differ, and no figure of one "
                        "is set beside the other's.",
                   a->run, b->run);
    else if (k == COMPARE_CONTRACTS && observed_only(a, b))
        buf_printf(out, "%s and %s are runs on different tool contracts, so "
                        "a difference between them may be the tools', and "
                        "no figure of one is set beside the other's "
                        "(--across-contracts compares them anyway).",
                   a->run, b->run);
    else if (k == COMPARE_CONTRACTS)
        buf_printf(out, "%s and %s are runs on different tool contracts, so "
                        "their tasks differ, and no figure of one is set "
                        "beside the other's.",
                   a->run, b->run);
    else
        buf_printf(out, "%s and %s were made with different generators "
                        "(version %d and %d), so their tasks and answers may "
                        "differ, and no figure of one is set beside the "
                        "other's.",
                   a->run, b->run, a->generator_version,
                   b->generator_version);
}

/* ------------------------------------------------------------- paired */

/* A run's task, from the trials view. */
typedef struct trial_row {
    char *task, *arm; /* arm NULL: observed */
    int observed;
    long trials, passes, judged, successes;
    int first_pass, first_success; /* -1: NULL */
} trial_row;

static void trial_rows_free(trial_row *t, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(t[i].task);
        free(t[i].arm);
    }
    free(t);
}

/* The run's tasks, simulated then observed, each by task: the order of
 * trial_cmp, which the merge needs. */
static int load_trials(sqlite3 *db, const char *run, trial_row **out,
                       size_t *n, err *e)
{
    sqlite3_stmt *s;
    *out = NULL;
    *n = 0;
    if (rd_prepare(db, "SELECT kind = 'observed', task, arm, trials, "
                    "coalesce(passes, 0), judged, coalesce(successes, 0), "
                    "coalesce(first_pass, -1), coalesce(first_success, -1) "
                    "FROM trials WHERE run = ? "
                    "ORDER BY kind = 'observed', task",
                run, &s, e) < 0)
        return -1;
    int rc;
    size_t cap = 0;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        if (rd_grow(out, &cap, *n, sizeof **out) < 0) {
            sqlite3_finalize(s);
            return err_set(e, ERR_NOMEM, "out of memory");
        }
        trial_row *t = &(*out)[(*n)++];
        t->observed = sqlite3_column_int(s, 0);
        t->task = rd_text(s, 1);
        t->arm = sqlite3_column_type(s, 2) == SQLITE_NULL ? NULL
                                                          : rd_text(s, 2);
        t->trials = (long)sqlite3_column_int64(s, 3);
        t->passes = (long)sqlite3_column_int64(s, 4);
        t->judged = (long)sqlite3_column_int64(s, 5);
        t->successes = (long)sqlite3_column_int64(s, 6);
        t->first_pass = sqlite3_column_int(s, 7);
        t->first_success = sqlite3_column_int(s, 8);
    }
    sqlite3_finalize(s);
    return rc == SQLITE_DONE ? 0 : rd_failed(db, e);
}

static int trial_cmp(const trial_row *x, const trial_row *y)
{
    return rd_task_cmp(x->observed, x->task, y->observed, y->task);
}

/* Whether a task counts for a measure (and arm: NULL, all). */
static int counts(const trial_row *t, int success, const char *arm)
{
    if (success)
        return t->judged > 0;
    return !t->observed && (!arm || strcmp(t->arm, arm) == 0);
}

/* One row: measure and arm, over the matched tasks (pair[i] is b's row
 * of a's row i, pair_b[j] a's row of b's row j, or -1). */
static int paired_row(card_paired *r, const trial_row *ta, size_t na,
                      const trial_row *tb, size_t nb, const long *pair,
                      const long *pair_b, int success,
                      const char *arm, err *e)
{
    memset(r, 0, sizeof *r);
    r->measure = success ? "success" : "pass";
    r->arm = strdup(arm ? arm : "all");
    double *d = malloc((na ? na : 1) * sizeof *d);
    if (!r->arm || !d) {
        free(d);
        return err_set(e, ERR_NOMEM, "out of memory");
    }
    r->one_trial = 1;
    card_pairs *q = &r->pairs;
    for (size_t i = 0; i < na; i++) {
        if (!counts(&ta[i], success, arm))
            continue;
        const trial_row *b = pair[i] >= 0 ? &tb[pair[i]] : NULL;
        if (!b || !counts(b, success, arm)) {
            r->only_a++;
            continue;
        }
        long n1 = success ? ta[i].judged : ta[i].trials;
        long c1 = success ? ta[i].successes : ta[i].passes;
        long n2 = success ? b->judged : b->trials;
        long c2 = success ? b->successes : b->passes;
        d[r->shared++] = (double)c1 / (double)n1 - (double)c2 / (double)n2;
        if (n1 != 1 || n2 != 1)
            r->one_trial = 0;
        int f1 = success ? ta[i].first_success : ta[i].first_pass;
        int f2 = success ? b->first_success : b->first_pass;
        if (f1 < 0 || f2 < 0) /* a first trial the harness did not judge */
            continue;
        q->n++;
        if (f1 && f2)
            q->both++;
        else if (f1)
            q->a_only++;
        else if (f2)
            q->b_only++;
        else
            q->neither++;
    }
    for (size_t j = 0; j < nb; j++)
        if (counts(&tb[j], success, arm) &&
            (pair_b[j] < 0 || !counts(&ta[pair_b[j]], success, arm)))
            r->only_b++;
    if (r->shared == 0)
        r->one_trial = 0;
    q->ci = tango((unsigned long)q->a_only, (unsigned long)q->b_only,
                  (unsigned long)q->n, &q->diff);
    q->p = mcnemar_exact((unsigned long)q->a_only, (unsigned long)q->b_only);
    if (r->one_trial) {
        r->diff = q->diff;
        r->ci = q->ci;
    } else {
        r->ci = mean_interval(d, (unsigned long)r->shared, &r->diff);
    }
    free(d);
    return 0;
}

static int by_arm_name(const void *x, const void *y)
{
    return rd_arm_cmp(*(const char *const *)x, *(const char *const *)y);
}

void card_paired_free(card_paired *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(p[i].arm);
    free(p);
}

int card_compare_paired(sqlite3 *db, const card *a, const card *b,
                        card_paired **out, size_t *n, err *e)
{
    trial_row *ta = NULL, *tb = NULL;
    size_t na = 0, nb = 0, narms = 0;
    long *pair = NULL;
    long *pair_b = NULL;
    const char **arms = NULL;
    *out = NULL;
    *n = 0;
    int rc = -1;
    if (load_trials(db, a->run, &ta, &na, e) < 0 ||
        load_trials(db, b->run, &tb, &nb, e) < 0)
        goto done;
    pair = malloc((na ? na : 1) * sizeof *pair);
    pair_b = malloc((nb ? nb : 1) * sizeof *pair_b);
    arms = malloc((na ? na : 1) * sizeof *arms);
    if (!pair || !pair_b || !arms) {
        err_set(e, ERR_NOMEM, "out of memory");
        goto done;
    }
    /* both lists are sorted: match them in one pass */
    for (size_t j = 0; j < nb; j++)
        pair_b[j] = -1;
    for (size_t i = 0, j = 0; i < na; i++) {
        while (j < nb && trial_cmp(&tb[j], &ta[i]) < 0)
            j++;
        pair[i] = j < nb && trial_cmp(&tb[j], &ta[i]) == 0 ? (long)j : -1;
        if (pair[i] >= 0)
            pair_b[j] = (long)i;
    }
    /* the arms of the shared simulated tasks, in the cards' order */
    for (size_t i = 0; i < na; i++) {
        if (ta[i].observed || pair[i] < 0)
            continue;
        int seen = 0;
        for (size_t k = 0; k < narms && !seen; k++)
            seen = strcmp(arms[k], ta[i].arm) == 0;
        if (!seen)
            arms[narms++] = ta[i].arm;
    }
    qsort(arms, narms, sizeof *arms, by_arm_name);
    long sim_a = 0, sim_b = 0, judged_a = 0, judged_b = 0;
    for (size_t i = 0; i < na; i++) {
        sim_a += !ta[i].observed;
        judged_a += ta[i].judged > 0;
    }
    for (size_t j = 0; j < nb; j++) {
        sim_b += !tb[j].observed;
        judged_b += tb[j].judged > 0;
    }
    size_t cap = 1 + narms + 1;
    card_paired *rows = calloc(cap, sizeof *rows);
    if (!rows) {
        err_set(e, ERR_NOMEM, "out of memory");
        goto done;
    }
    *out = rows;
    if (sim_a && sim_b) {
        if (paired_row(&rows[(*n)++], ta, na, tb, nb, pair, pair_b, 0,
                       NULL, e) < 0)
            goto done;
        for (size_t k = 0; k < narms; k++)
            if (paired_row(&rows[(*n)++], ta, na, tb, nb, pair, pair_b, 0,
                           arms[k], e) < 0)
                goto done;
    }
    if (judged_a && judged_b &&
        paired_row(&rows[(*n)++], ta, na, tb, nb, pair, pair_b, 1, NULL,
                   e) < 0)
        goto done;
    rc = 0;
done:
    if (rc < 0) {
        card_paired_free(*out, *n);
        *out = NULL;
        *n = 0;
    }
    trial_rows_free(ta, na);
    trial_rows_free(tb, nb);
    free(pair);
    free(pair_b);
    free(arms);
    return rc;
}

/* ----------------------------------------------------------- headlines */

static const char *plural(long n)
{
    return n == 1 ? "" : "s";
}

void card_p_text(buf *out, double p)
{
    buf_printf(out, p >= 0.001 ? "%.3g" : "%.1e", p);
}

void card_headline_figure(const card *c, card_figure *f)
{
    memset(f, 0, sizeof *f);
    const card_rate *r;
    if (c->simulated) {
        f->measure = "pass";
        r = &c->rate[0];
    } else if (c->observed && c->harness[1].judged) {
        f->measure = "success";
        r = &c->rate[1];
    } else {
        return;
    }
    f->x = r->x;
    f->n = r->n;
    f->ci = r->ci;
}

/* "x of n episodes (p%, 95% CI lo-hi%)" */
static void rate_words(buf *out, const card_rate *r, const char *kind)
{
    buf_printf(out, "%ld of %ld %sepisode%s (%.1f%%, ", r->x, r->n, kind,
               plural(r->n), card_pct(r->x, r->n));
    card_rate_ci_text(out, r);
    buf_putc(out, ')');
}

/* The observed episodes' figure and what went wrong in them; first:
 * these words begin the sentence (a capital letter). */
static void observed_words(buf *out, const card *c, int first)
{
    const card_harness *h = &c->harness[1];
    long invalid = 0, checked = 0, unknown = 0;
    for (size_t i = 0; i < c->ntools; i++) {
        invalid += c->tools[i].invalid;
        checked += c->tools[i].args_checked;
    }
    for (size_t i = 0; i < c->nunknown; i++)
        unknown += c->unknown[i].calls;
    if (h->judged) {
        buf_puts(out, first ? "The harness's success: "
                            : "the harness's success: ");
        rate_words(out, &c->rate[1], "observed ");
    } else {
        buf_printf(out, "%ld observed episode%s, none judged by the harness",
                   c->observed, plural(c->observed));
    }
    if (c->observed_errors)
        buf_printf(out, "; %ld of %ld call%s answered an error",
                   c->observed_errors, c->observed_calls,
                   plural(c->observed_calls));
    if (invalid)
        buf_printf(out, "; %ld call%s broke %s tool's input schema", invalid,
                   plural(invalid), invalid == 1 ? "its" : "their");
    else if (checked)
        buf_puts(out, "; every call checked kept to its tool's input "
                      "schema");
    if (unknown)
        buf_printf(out, "; %ld call%s to tools the file does not have",
                   unknown, plural(unknown));
    if (c->no_schema)
        buf_puts(out, "; no schema to check the calls against");
    if (h->unfinished)
        buf_printf(out, "; %ld episode%s unfinished", h->unfinished,
                   plural(h->unfinished));
}

void card_headline(buf *out, const card *c)
{
    if (!c->simulated && !c->observed) {
        buf_puts(out, "No episodes: nothing was measured.");
        return;
    }
    if (!c->simulated) {
        observed_words(out, c, 1);
        buf_puts(out, ".");
        return;
    }
    buf_puts(out, "Passed ");
    rate_words(out, &c->rate[0], "");
    if (c->side_effects == 0)
        buf_puts(out, "; no side effect");
    else if (c->duplicates == 0)
        buf_printf(out, "; %ld side effect%s, none a duplicate write",
                   c->side_effects, plural(c->side_effects));
    else
        buf_printf(out, "; %ld side effect%s, %ld of them %s",
                   c->side_effects, plural(c->side_effects), c->duplicates,
                   c->duplicates == 1 ? "a duplicate write"
                                      : "duplicate writes");
    if (c->compared_episodes == 0)
        buf_puts(out, "; diverged not measured (no call had an answer "
                      "logged)");
    else if (c->diverged_episodes == 0)
        buf_puts(out, "; no episode diverged");
    else
        buf_printf(out, "; %ld of the %ld episodes compared diverged",
                   c->diverged_episodes, c->compared_episodes);
    if (c->harness[0].unfinished)
        buf_printf(out, "; %ld episode%s unfinished", c->harness[0].unfinished,
                   plural(c->harness[0].unfinished));
    if (c->observed) {
        buf_puts(out, ". Observed: ");
        observed_words(out, c, 0);
    }
    buf_putc(out, '.');
}

void card_compare_verdict(card_compared *x)
{
    card_verdict *v = &x->verdict;
    memset(v, 0, sizeof *v);
    if (x->k != COMPARE_SAME) {
        v->basis = VERDICT_REFUSED;
        return;
    }
    v->basis = VERDICT_NOTHING;
    /* paired first, the simulator's pass before the harness's success */
    for (int success = 0; success < 2 && v->basis == VERDICT_NOTHING;
         success++)
        for (size_t i = 0; i < x->npaired; i++) {
            const card_paired *p = &x->paired[i];
            if (strcmp(p->measure, success ? "success" : "pass") != 0 ||
                strcmp(p->arm, "all") != 0 || p->shared == 0)
                continue;
            v->basis = VERDICT_PAIRED;
            v->measure = p->measure;
            v->diff = p->diff;
            v->ci = p->ci;
            v->tasks = p->shared;
            v->one_trial = p->one_trial;
            v->pairs = p->pairs.n;
            v->p = p->pairs.p;
            break;
        }
    /* card_compare_rows puts "all" first */
    if (v->basis == VERDICT_NOTHING && x->nrows && x->rows[0].measured) {
        v->basis = VERDICT_UNPAIRED;
        v->measure = "pass";
        v->diff = x->rows[0].diff;
        v->ci = x->rows[0].ci;
        v->tasks = x->rows[0].na < x->rows[0].nb ? x->rows[0].na
                                                  : x->rows[0].nb;
    }
    if (v->basis != VERDICT_NOTHING) {
        v->excludes_zero = v->ci.lo > 0 || v->ci.hi < 0;
        v->thin = !v->excludes_zero &&
                  (v->tasks < CARD_THIN_TASKS ||
                   v->ci.hi - v->ci.lo > CARD_THIN_WIDTH);
    }
}

/* -v, never -0 (which prints as "-0.0") */
static double negated(double v)
{
    return v == 0 ? 0.0 : -v;
}

void card_verdict_text(buf *out, const card_compared *x)
{
    const card_verdict *v = &x->verdict;
    const char *a = x->a->run, *b = x->b->run;
    if (v->basis == VERDICT_REFUSED) {
        card_refusal(out, x->a, x->b, x->k);
        return;
    }
    if (x->contract == CONTRACT_ACROSS)
        buf_puts(out, "Compared across different tool contracts, so the "
                      "tools may explain any difference. ");
    if (v->basis == VERDICT_NOTHING) {
        buf_printf(out, "Nothing to compare: no task is in both %s and %s, "
                        "and no pass rate was measured in both.",
                   a, b);
        return;
    }
    const char *what = strcmp(v->measure, "pass") == 0
                           ? "pass rate"
                           : "the harness's success rate";
    /* said from the side that is ahead: its lead, and the interval of
     * its lead */
    int b_ahead = v->diff < 0;
    double lead = b_ahead ? -v->diff : v->diff;
    double lo = b_ahead ? negated(v->ci.hi) : v->ci.lo;
    double hi = b_ahead ? negated(v->ci.lo) : v->ci.hi;
    const char *first = b_ahead ? b : a, *second = b_ahead ? a : b;
    if (v->thin) {
        buf_printf(out, "Too little data to tell %s from %s: ", a, b);
        if (v->basis == VERDICT_PAIRED)
            buf_printf(out, "%ld shared task%s", v->tasks, plural(v->tasks));
        else
            buf_printf(out, "%ld episode%s in the smaller run", v->tasks,
                       plural(v->tasks));
        buf_printf(out, " leave%s the 95%% CI of the difference in %s at "
                        "%+.1f to %+.1f percentage points",
                   v->tasks == 1 ? "s" : "", what, 100 * v->ci.lo,
                   100 * v->ci.hi);
        if (v->diff != 0)
            buf_printf(out, " (%s ahead by %.1f)", first, 100 * lead);
        buf_puts(out, v->basis == VERDICT_UNPAIRED
                          ? ", unpaired: the runs share no task."
                          : ".");
        return;
    }
    if (v->diff == 0)
        buf_printf(out, "No difference: %s and %s are level on %s (95%% CI "
                        "of the difference %+.1f to %+.1f percentage points)",
                   a, b, what, 100 * v->ci.lo, 100 * v->ci.hi);
    else if (v->excludes_zero)
        buf_printf(out, "%s is ahead of %s by %.1f percentage points of %s "
                        "(95%% CI %+.1f to %+.1f)",
                   first, second, 100 * lead, what, 100 * lo, 100 * hi);
    else
        buf_printf(out, "No clear difference: %s is ahead of %s by %.1f "
                        "percentage points of %s, but the 95%% CI (%+.1f to "
                        "%+.1f) holds zero",
                   first, second, 100 * lead, what, 100 * lo, 100 * hi);
    if (v->basis == VERDICT_UNPAIRED) {
        buf_puts(out, ", unpaired: the runs share no task.");
        return;
    }
    buf_printf(out, ", paired on %ld shared task%s", v->tasks,
               plural(v->tasks));
    if (v->pairs) {
        /* McNemar's test at the 5% level */
        buf_printf(out, "; McNemar's test%s finds %s (p = ",
                   v->one_trial ? "" : " on each task's first trial",
                   v->p < 0.05 ? "a difference" : "no difference");
        card_p_text(out, v->p);
        buf_putc(out, ')');
    }
    buf_putc(out, '.');
}
