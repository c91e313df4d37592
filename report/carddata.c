/* carddata: see carddata.h; docs/card.md lists the queries. */
#include "carddata.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arm.h"
#include "canon.h"
#include "db.h"
#include "doc.h"
#include "nearest.h"
#include "tools.h"

const char *const card_codes[CARD_CODES] = {
    "not_found",   "invalid_arguments", "not_ready",
    "unavailable", "timeout",           "rate_limited"};
const char *const card_outcomes[10] = {
    "retried", "gave_up", "checked", "duplicated", "left",
    "caught",  "fooled",  "stalled", "trusted",    "not_reached"};
static const char *const dial_order[] = {"faults",  "timeouts", "ratelimits",
                                         "landed",  "baddata",  "lagged"};

int card_db_open(sqlite3 **out, const char *path, err *e)
{
    *out = NULL;
    if (sqlite3_open_v2(path, out, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        err_set(e, ERR_IO, "%s: cannot open it: %s", path,
                *out ? sqlite3_errmsg(*out) : "out of memory");
        sqlite3_close(*out);
        *out = NULL;
        return -1;
    }
    int version = db_schema_version(*out, "main");
    if (version != DB_SCHEMA_VERSION) {
        err_set(e, ERR_IO, "%s: is not a results database replay wrote "
                           "(schema version %d)%s",
                path, DB_SCHEMA_VERSION,
                version > DB_SCHEMA_VERSION ? "; it is newer: use a newer card"
                                            : "");
        sqlite3_close(*out);
        *out = NULL;
        return -1;
    }
    return 0;
}

static char *col_text(sqlite3_stmt *s, int i)
{
    const unsigned char *t = sqlite3_column_text(s, i);
    return strdup(t ? (const char *)t : "");
}

static int prepare(sqlite3 *db, const char *sql, const char *run,
                   sqlite3_stmt **s, err *e)
{
    if (sqlite3_prepare_v2(db, sql, -1, s, NULL) != SQLITE_OK)
        return err_set(e, ERR_IO, "cannot read the database: %s",
                       sqlite3_errmsg(db));
    if (run)
        sqlite3_bind_text(*s, 1, run, -1, SQLITE_STATIC);
    return 0;
}


/* "no run is named X; did you mean Y? The runs: A, B, C" */
static int no_such_run(sqlite3 *db, const char *run, err *e)
{
    sqlite3_stmt *s;
    if (prepare(db, "SELECT run FROM runs ORDER BY run", NULL, &s, e) < 0)
        return -1;
    char list[400] = "", nearest[300] = "";
    size_t best = (size_t)-1, n = 0, used = 0;
    while (sqlite3_step(s) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(s, 0);
        size_t d = edit_distance(run, strlen(run), name, strlen(name));
        if (d < best) {
            best = d;
            snprintf(nearest, sizeof nearest, "%s", name);
        }
        if (used < sizeof list - 1)
            used += (size_t)snprintf(list + used, sizeof list - used, "%s%s",
                                     n ? ", " : "", name);
        n++;
    }
    sqlite3_finalize(s);
    if (n == 0)
        return err_set(e, ERR_VALUE, "no run is named \"%s\": the database "
                                     "holds no run yet",
                       run);
    return err_set(e, ERR_VALUE, "no run is named \"%s\"; did you mean %s? "
                                 "The runs: %s",
                   run, nearest, list);
}

static int arm_rank(const char *id)
{
    arm a;
    err e;
    if (arm_parse(&a, id, strlen(id), &e) < 0)
        return 1000;
    return (int)a.knob * 16 + a.level;
}

static int by_arm(const void *x, const void *y)
{
    const card_arm *a = x, *b = y;
    return arm_rank(a->arm) - arm_rank(b->arm);
}

int card_load(card *c, sqlite3 *db, const char *run, err *e)
{
    sqlite3_stmt *s = NULL;
    memset(c, 0, sizeof *c);
    if (prepare(db,
                "SELECT run, model, tools_path, file_sha256, contract_sha256, "
                "generator_version, generator_fingerprint, replayed_at, "
                "episodes, reached, pass, side_effects, duplicate_writes, "
                "errors, unfinished, diverged_episodes, problems "
                "FROM run_summary WHERE run = ?",
                run, &s, e) < 0)
        return -1;
    if (sqlite3_step(s) != SQLITE_ROW) {
        sqlite3_finalize(s);
        return no_such_run(db, run, e);
    }
    c->run = col_text(s, 0);
    c->model = col_text(s, 1);
    c->tools_path = col_text(s, 2);
    c->file_sha256 = col_text(s, 3);
    c->contract_sha256 = col_text(s, 4);
    c->generator_version = sqlite3_column_int(s, 5);
    c->fingerprint = col_text(s, 6);
    c->replayed_at = col_text(s, 7);
    long *figures[] = {&c->episodes,   &c->reached,    &c->pass,
                       &c->side_effects, &c->duplicates, &c->errors,
                       &c->unfinished, &c->diverged_episodes, &c->problems};
    for (int i = 0; i < 9; i++)
        *figures[i] = (long)sqlite3_column_int64(s, 8 + i);
    sqlite3_finalize(s);

    if (prepare(db,
                "SELECT coalesce(sum(err_not_found), 0), "
                "coalesce(sum(err_invalid_arguments), 0), "
                "coalesce(sum(err_not_ready), 0), "
                "coalesce(sum(err_unavailable), 0), "
                "coalesce(sum(err_timeout), 0), "
                "coalesce(sum(err_rate_limited), 0) "
                "FROM episodes WHERE run = ?",
                run, &s, e) < 0)
        return -1;
    if (sqlite3_step(s) == SQLITE_ROW)
        for (int i = 0; i < CARD_CODES; i++)
            c->by_code[i] = (long)sqlite3_column_int64(s, i);
    sqlite3_finalize(s);

    if (prepare(db, "SELECT count(*) FROM calls WHERE run = ? AND diverged = 1",
                run, &s, e) < 0)
        return -1;
    if (sqlite3_step(s) == SQLITE_ROW)
        c->diverged_calls = (long)sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);

    if (prepare(db,
                "SELECT arm, episodes, reached, pass, side_effects, "
                "duplicate_writes, errors FROM arm_summary WHERE run = ?",
                run, &s, e) < 0)
        return -1;
    while (sqlite3_step(s) == SQLITE_ROW) {
        card_arm *more = realloc(c->arms, (c->narms + 1) * sizeof *more);
        if (!more) {
            sqlite3_finalize(s);
            return err_set(e, ERR_NOMEM, "out of memory");
        }
        c->arms = more;
        card_arm *a = &c->arms[c->narms++];
        a->arm = col_text(s, 0);
        a->episodes = (long)sqlite3_column_int64(s, 1);
        a->reached = (long)sqlite3_column_int64(s, 2);
        a->pass = (long)sqlite3_column_int64(s, 3);
        a->side_effects = (long)sqlite3_column_int64(s, 4);
        a->duplicates = (long)sqlite3_column_int64(s, 5);
        a->errors = (long)sqlite3_column_int64(s, 6);
    }
    sqlite3_finalize(s);
    if (c->narms > 1)
        qsort(c->arms, c->narms, sizeof *c->arms, by_arm);

    if (prepare(db, "SELECT dial, outcome, events FROM dial_summary "
                    "WHERE run = ?",
                run, &s, e) < 0)
        return -1;
    c->dials = calloc(6, sizeof *c->dials);
    if (!c->dials) {
        sqlite3_finalize(s);
        return err_set(e, ERR_NOMEM, "out of memory");
    }
    while (sqlite3_step(s) == SQLITE_ROW) {
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
    /* keep the dials that had events, in their order */
    for (int d = 0; d < 6; d++)
        if (c->dials[d].events) {
            c->dials[c->ndials] = c->dials[d];
            c->dials[c->ndials++].dial = strdup(dial_order[d]);
        }

    if (prepare(db, "SELECT source_file, source_line, message FROM problems "
                    "WHERE run = ? ORDER BY source_file, source_line LIMIT 5",
                run, &s, e) < 0)
        return -1;
    while (sqlite3_step(s) == SQLITE_ROW && c->nfirst < 5) {
        card_problem *p = &c->first_problems[c->nfirst++];
        p->file = col_text(s, 0);
        p->line = (long)sqlite3_column_int64(s, 1);
        p->message = col_text(s, 2);
    }
    sqlite3_finalize(s);
    return 0;
}

char *card_latest(sqlite3 *db, err *e)
{
    sqlite3_stmt *s;
    if (prepare(db, "SELECT run FROM runs ORDER BY replayed_at DESC, "
                    "rowid DESC LIMIT 1",
                NULL, &s, e) < 0)
        return NULL;
    char *run = sqlite3_step(s) == SQLITE_ROW ? col_text(s, 0) : NULL;
    sqlite3_finalize(s);
    return run;
}

void card_free(card *c)
{
    free(c->run);
    free(c->model);
    free(c->tools_path);
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
    }
    memset(c, 0, sizeof *c);
}

/* ------------------------------------------------------------ compare */

enum compare_case card_compare_case(const card *a, const card *b)
{
    if (strcmp(a->contract_sha256, b->contract_sha256) != 0)
        return COMPARE_CONTRACTS;
    if (strcmp(a->file_sha256, b->file_sha256) != 0)
        return COMPARE_REFORMATTED;
    if (a->generator_version != b->generator_version ||
        strcmp(a->fingerprint, b->fingerprint) != 0)
        return COMPARE_GENERATORS;
    return COMPARE_SAME;
}

/* The tool table of a stored contract. */
static int contract_tools(sqlite3 *db, const char *file_sha256, doc **d,
                          toolset **ts, err *e)
{
    sqlite3_stmt *s;
    if (prepare(db, "SELECT contract FROM tool_files WHERE file_sha256 = ?",
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
        err_set(e, ERR_IO, "the database has no contract for %.12s...",
                file_sha256);
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
