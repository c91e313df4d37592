/* episode: see episode.h. */
#include "episode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classes.h"
#include "dbread.h"
#include "utf8.h"

void episode_free(episode_view *v)
{
    free(v->run);
    free(v->episode);
    free(v->arm);
    free(v->task);
    free(v->request);
    free(v->status);
    free(v->final);
    free(v->cls_tool);
    free(v->cls_error);
    free(v->cls_dial);
    free(v->source_file);
    for (size_t i = 0; v->calls && i < v->ncalls; i++) {
        ep_call *c = &v->calls[i];
        free(c->tool);
        free(c->kind);
        free(c->arguments);
        free(c->arguments_raw);
        free(c->rule);
        free(c->answer);
        free(c->logged);
        free(c->error);
        free(c->effect);
        free(c->dial);
    }
    free(v->calls);
    for (size_t i = 0; v->events && i < v->nevents; i++) {
        free(v->events[i].dial);
        free(v->events[i].outcome);
    }
    free(v->events);
    memset(v, 0, sizeof *v);
}

static long int_or(sqlite3_stmt *s, int i, long none)
{
    return sqlite3_column_type(s, i) == SQLITE_NULL
               ? none
               : (long)sqlite3_column_int64(s, i);
}

/* No episode of that name, or several: the runs that have one. */
static int not_one(sqlite3 *db, const char *name, const char *run, err *e)
{
    sqlite3_stmt *s;
    if (rd_prepare(db, "SELECT r.run FROM episode_rows e JOIN runs r "
                       "ON r.run_id = e.run_id WHERE e.episode = ? "
                       "ORDER BY r.run LIMIT 11",
                   name, &s, e) < 0)
        return -1;
    buf asked = BUF_INIT, runs = BUF_INIT;
    size_t n = 0;
    int rc;
    utf8_shown(&asked, name, strlen(name), 100);
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        const char *r = (const char *)sqlite3_column_text(s, 0);
        if (n < 10) {
            buf_puts(&runs, n ? ", " : "");
            utf8_shown(&runs, r, strlen(r), 60);
        } else {
            buf_puts(&runs, ", ...");
        }
        n++;
    }
    sqlite3_finalize(s);
    if (rc != SQLITE_DONE)
        rd_failed(db, e);
    else if (asked.failed || runs.failed)
        err_set(e, ERR_NOMEM, "out of memory");
    else if (n == 0)
        err_set(e, ERR_VALUE, "no episode is named \"%s\"; card --list "
                              "lists the runs, and sqlite3 DB \"SELECT "
                              "episode FROM episodes WHERE run = 'RUN'\" "
                              "a run's episodes",
                asked.data);
    else if (run) {
        buf r = BUF_INIT;
        utf8_shown(&r, run, strlen(run), 100);
        err_set(e, ERR_VALUE, "run \"%s\" has no episode \"%s\"; the runs "
                              "that have one: %s",
                r.failed ? "" : r.data, asked.data, runs.data);
        buf_free(&r);
    } else
        err_set(e, ERR_VALUE, "%zu runs have an episode \"%s\" (%s): name "
                              "the run too, card --episode \"%s\" RUN",
                n, asked.data, runs.data, asked.data);
    buf_free(&asked);
    buf_free(&runs);
    return -1;
}

static int load_head(episode_view *v, sqlite3 *db, const char *name,
                     const char *run, sqlite3_int64 *id, err *e)
{
    /* with its run, by the index (run_id, episode); without, every
     * episode of that name, counted (count(*) OVER () before LIMIT) */
    static const char sql[] =
        "SELECT e.episode_id, r.run, e.episode, e.seed, e.arm, "
        "coalesce(e.task_id, e.task_name), t.request, t.depth, e.reached, "
        "e.pass, e.side_effects, e.duplicate_writes, e.errors, e.unfinished, "
        "e.success, e.status, e.final, e.reward, NULL, NULL, NULL, "
        "NULL, NULL, NULL, e.source_file, e.source_line, "
        "count(*) OVER () "
        "FROM episode_rows e JOIN runs r ON r.run_id = e.run_id "
        "LEFT JOIN task_rows t ON t.task_id = e.task_id "
        "WHERE e.episode = ?1 %s ORDER BY e.episode_id LIMIT 1";
    char text[sizeof sql + 32];
    snprintf(text, sizeof text, sql, run ? "AND r.run = ?2" : "");
    sqlite3_stmt *s;
    if (rd_prepare(db, text, name, &s, e) < 0)
        return -1;
    if (run)
        sqlite3_bind_text(s, 2, run, -1, SQLITE_STATIC);
    int rc = sqlite3_step(s);
    if (rc != SQLITE_ROW || sqlite3_column_int64(s, 26) != 1) {
        sqlite3_finalize(s);
        return rc == SQLITE_ROW || rc == SQLITE_DONE ? not_one(db, name, run, e)
                                                     : rd_failed(db, e);
    }
    int nomem = 0;
    *id = sqlite3_column_int64(s, 0);
    v->run = rd_text(s, 1);
    v->episode = rd_text(s, 2);
    v->observed = sqlite3_column_type(s, 3) == SQLITE_NULL;
    v->seed = int_or(s, 3, -1);
    v->arm = rd_text_or_null(s, 4, &nomem);
    v->task = rd_text_or_null(s, 5, &nomem);
    v->request = rd_text_or_null(s, 6, &nomem);
    v->depth = int_or(s, 7, -1);
    v->reached = (int)int_or(s, 8, -1);
    v->pass = (int)int_or(s, 9, -1);
    v->side_effects = int_or(s, 10, -1);
    v->duplicate_writes = int_or(s, 11, -1);
    v->errors = int_or(s, 12, -1);
    v->unfinished = (int)int_or(s, 13, 0);
    v->success = (int)int_or(s, 14, -1);
    v->status = rd_text_or_null(s, 15, &nomem);
    v->final = rd_text_or_null(s, 16, &nomem);
    v->has_reward = sqlite3_column_type(s, 17) != SQLITE_NULL;
    v->reward = sqlite3_column_double(s, 17);
    v->source_file = rd_text(s, 24);
    v->source_line = int_or(s, 25, 0);
    sqlite3_finalize(s);
    if (nomem || !v->run || !v->episode || !v->source_file)
        return err_set(e, ERR_NOMEM, "out of memory");
    return 0;
}

/* Its class, from episode_outcomes by the episode's key (a join to the
 * view would make the view whole first). */
static int load_class(episode_view *v, sqlite3 *db, sqlite3_int64 id, err *e)
{
    sqlite3_stmt *s;
    if (rd_prepare(db, "SELECT class, seq, step, tool, error, dial FROM "
                       "episode_outcomes WHERE episode_id = ?",
                   NULL, &s, e) < 0)
        return -1;
    sqlite3_bind_int64(s, 1, id);
    int rc = sqlite3_step(s), nomem = 0;
    if (rc == SQLITE_ROW) {
        v->cls = card_class_named((const char *)sqlite3_column_text(s, 0));
        v->cls_seq = int_or(s, 1, -1);
        v->cls_step = int_or(s, 2, -1);
        v->cls_tool = rd_text_or_null(s, 3, &nomem);
        v->cls_error = rd_text_or_null(s, 4, &nomem);
        v->cls_dial = rd_text_or_null(s, 5, &nomem);
    }
    return rd_finish(db, s, rc, nomem, e);
}

static int load_calls(episode_view *v, sqlite3 *db, sqlite3_int64 id, err *e)
{
    sqlite3_stmt *s;
    if (rd_prepare(db, "SELECT seq, step, tool, kind, arguments, "
                       "arguments_raw, arguments_valid, arguments_rule, "
                       "answer, logged_answer, diverged, error, effect, dial, "
                       "duration FROM call_rows WHERE episode_id = ? "
                       "ORDER BY seq",
                   NULL, &s, e) < 0)
        return -1;
    sqlite3_bind_int64(s, 1, id);
    size_t cap = 0;
    int rc, nomem = 0;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        if (v->ncalls == cap) {
            cap = cap ? 2 * cap : 16;
            ep_call *more = realloc(v->calls, cap * sizeof *more);
            if (!more) {
                nomem = 1;
                break;
            }
            v->calls = more;
        }
        ep_call *c = &v->calls[v->ncalls++];
        memset(c, 0, sizeof *c);
        c->seq = int_or(s, 0, 0);
        c->step = int_or(s, 1, -1);
        c->tool = rd_text(s, 2);
        c->kind = rd_text_or_null(s, 3, &nomem);
        c->arguments = rd_text_or_null(s, 4, &nomem);
        c->arguments_raw = rd_text_or_null(s, 5, &nomem);
        c->arguments_valid = (int)int_or(s, 6, -1);
        c->rule = rd_text_or_null(s, 7, &nomem);
        c->answer = rd_text_or_null(s, 8, &nomem);
        c->logged = rd_text_or_null(s, 9, &nomem);
        c->diverged = (int)int_or(s, 10, -1);
        c->error = rd_text_or_null(s, 11, &nomem);
        c->effect = rd_text_or_null(s, 12, &nomem);
        c->dial = rd_text_or_null(s, 13, &nomem);
        c->duration = sqlite3_column_type(s, 14) == SQLITE_NULL
                          ? -1
                          : sqlite3_column_double(s, 14);
        if (!c->tool)
            nomem = 1;
        if (nomem)
            break;
    }
    return rd_finish(db, s, rc, nomem, e);
}

static int load_events(episode_view *v, sqlite3 *db, sqlite3_int64 id,
                       err *e)
{
    sqlite3_stmt *s;
    if (rd_prepare(db, "SELECT event, dial, step, seq, outcome FROM "
                       "outcome_rows WHERE episode_id = ? ORDER BY event",
                   NULL, &s, e) < 0)
        return -1;
    sqlite3_bind_int64(s, 1, id);
    int rc, nomem = 0;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        ep_event *more = realloc(v->events, (v->nevents + 1) * sizeof *more);
        if (!more) {
            nomem = 1;
            break;
        }
        v->events = more;
        ep_event *o = &v->events[v->nevents++];
        o->event = int_or(s, 0, 0);
        o->dial = rd_text(s, 1);
        o->step = int_or(s, 2, 0);
        o->seq = int_or(s, 3, -1);
        o->outcome = rd_text(s, 4);
        if (!o->dial || !o->outcome) {
            nomem = 1;
            break;
        }
    }
    return rd_finish(db, s, rc, nomem, e);
}

int episode_load(episode_view *v, sqlite3 *db, const char *name,
                 const char *run, err *e)
{
    memset(v, 0, sizeof *v);
    sqlite3_int64 id = 0;
    if (load_head(v, db, name, run, &id, e) < 0 ||
        load_class(v, db, id, e) < 0 || load_calls(v, db, id, e) < 0 ||
        load_events(v, db, id, e) < 0)
        return -1;
    return 0;
}

void episode_headline(buf *out, const episode_view *v)
{
    if (!v->cls) {
        buf_puts(out, "Its class is not one this card knows.");
        return;
    }
    if (strcmp(v->cls, "passed") == 0) {
        buf_puts(out, v->observed ? "Passed: the harness said success."
                                  : "Passed.");
        return;
    }
    buf_printf(out, "%s: %s, %s",
               strcmp(v->cls, "unjudged") == 0 ? "Not judged" : "Failed",
               v->cls, card_class_meaning(v->cls));
    int open = 0;
    if (v->cls_dial) {
        buf_printf(out, " (dial %s", v->cls_dial);
        open = 1;
    }
    if (v->cls_seq >= 0) {
        buf_printf(out, "%scall %ld", open ? "; " : " (", v->cls_seq);
        open = 1;
    }
    if (v->cls_step >= 0) {
        buf_printf(out, "%sstep %ld", open ? ", " : " (", v->cls_step);
        open = 1;
    }
    if (v->cls_tool) {
        buf_printf(out, "%s%s", open ? ", " : " (", v->cls_tool);
        open = 1;
    }
    if (v->cls_error) {
        buf_printf(out, "%serror %s", open ? ", " : " (", v->cls_error);
        open = 1;
    }
    buf_puts(out, open ? ")." : ".");
}
