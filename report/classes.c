/* classes: see classes.h; sql/schema.sql gives the rules of the view. */
#include "classes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbread.h"

const char *const card_class_names[CARD_CLASSES] = {
    "passed",      "diverged",     "fooled",
    "duplicated",  "duplicate_write", "side_effect",
    "gave_up",     "stalled",      "unfinished",
    "invalid_arguments", "unknown_tool", "stopped_after_error",
    "not_reached", "failed",       "unjudged"};

static const char *const meanings[CARD_CLASSES] = {
    "passed (observed: the harness said success)",
    "a logged answer differs from the simulator's",
    "a write used bad data's wrong value",
    "a write repeated after a landed timeout or a lagging read",
    "the expected write made twice",
    "a write the task did not ask for",
    "no retry after a planned fault, timeout or rate limit",
    "given bad data, it never wrote",
    "no end line: the log stops inside the episode",
    "its last call broke the tool's input schema",
    "its last call named a tool the file has not",
    "its last call answered another error",
    "it stopped, with no error, before a write step",
    "the harness said failure",
    "the harness gave no verdict"};

static int class_index(const char *name)
{
    for (int i = 0; name && i < CARD_CLASSES; i++)
        if (strcmp(name, card_class_names[i]) == 0)
            return i;
    return -1;
}

const char *card_class_meaning(const char *name)
{
    int i = class_index(name);
    return i < 0 ? NULL : meanings[i];
}

const char *card_class_named(const char *name)
{
    int i = class_index(name);
    return i < 0 ? NULL : card_class_names[i];
}

/* ------------------------------------------------------------- per run */

void card_classes_free(card_class *v, size_t n)
{
    for (size_t i = 0; v && i < n; i++) {
        free(v[i].example);
        for (size_t j = 0; j < v[i].narms; j++)
            free(v[i].arms[j].arm);
        free(v[i].arms);
    }
    free(v);
}

static int by_arm(const void *x, const void *y)
{
    const card_class_arm *a = x, *b = y;
    return rd_arm_cmp(a->arm, b->arm);
}

int card_classes_load(card_class **out, size_t *n, sqlite3 *db,
                      const char *run, err *e)
{
    *out = NULL;
    *n = 0;
    card_class *v = calloc(CARD_CLASSES, sizeof *v);
    if (!v)
        return err_set(e, ERR_NOMEM, "out of memory");
    sqlite3_stmt *s;
    /* per class and arm; a class's first episode is the one of least
     * episode_id (SQLite: with one min(), the bare column episode is of
     * its row) */
    if (rd_prepare(db, "SELECT class, arm, count(*), min(episode_id), "
                       "episode FROM episode_outcomes WHERE run = ? "
                       "GROUP BY class, arm",
                   run, &s, e) < 0) {
        free(v);
        return -1;
    }
    sqlite3_int64 first[CARD_CLASSES];
    int rc, nomem = 0;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        int k = class_index((const char *)sqlite3_column_text(s, 0));
        if (k < 0) /* not a class of this card's: the view was altered */
            continue;
        card_class *c = &v[k];
        long count = (long)sqlite3_column_int64(s, 2);
        sqlite3_int64 id = sqlite3_column_int64(s, 3);
        if (c->episodes == 0 || id < first[k]) {
            char *ex = rd_text(s, 4);
            if (!ex) {
                nomem = 1;
                break;
            }
            free(c->example);
            c->example = ex;
            first[k] = id;
        }
        c->episodes += count;
        if (sqlite3_column_type(s, 1) == SQLITE_NULL)
            continue;
        card_class_arm *more =
            realloc(c->arms, (c->narms + 1) * sizeof *more);
        if (!more) {
            nomem = 1;
            break;
        }
        c->arms = more;
        c->arms[c->narms].episodes = count;
        if (!(c->arms[c->narms].arm = rd_text(s, 1))) {
            nomem = 1;
            break;
        }
        c->narms++;
    }
    sqlite3_finalize(s);
    if (nomem || rc != SQLITE_DONE) {
        card_classes_free(v, CARD_CLASSES);
        return nomem ? err_set(e, ERR_NOMEM, "out of memory")
                     : rd_failed(db, e);
    }
    /* the classes that hold, in order */
    size_t m = 0;
    for (int k = 0; k < CARD_CLASSES; k++) {
        if (v[k].episodes == 0)
            continue;
        v[k].name = card_class_names[k];
        if (v[k].narms) /* qsort's array may not be NULL, even empty */
            qsort(v[k].arms, v[k].narms, sizeof *v[k].arms, by_arm);
        v[m++] = v[k];
    }
    for (size_t k = m; k < CARD_CLASSES; k++)
        memset(&v[k], 0, sizeof v[k]);
    *out = v;
    *n = m;
    return 0;
}

void card_class_arms_text(buf *b, const card_class *c, size_t run_arms)
{
    int alike = c->narms > 1 && c->narms == run_arms;
    for (size_t i = 1; alike && i < c->narms; i++)
        alike = c->arms[i].episodes == c->arms[0].episodes;
    if (alike) {
        buf_printf(b, "every arm, %ld each", c->arms[0].episodes);
        return;
    }
    for (size_t i = 0; i < c->narms; i++)
        buf_printf(b, "%s%s %ld", i ? ", " : "", c->arms[i].arm,
                   c->arms[i].episodes);
}

/* ------------------------------------------------------------- flipped */

const char *card_flip_side(char room[CARD_FLIP_SIDE], const card_flip *f,
                           int k)
{
    snprintf(room, CARD_FLIP_SIDE, "%ld/%ld %s", f->c[k], f->n[k],
             f->cls[k] ? f->cls[k] : "-");
    return room;
}

/* A run's task, with its trial shown. */
typedef struct task_row {
    int observed;
    char *task, *arm, *episode;
    long n, c;
    const char *cls;
} task_row;

static void task_rows_free(task_row *t, size_t n)
{
    for (size_t i = 0; t && i < n; i++) {
        free(t[i].task);
        free(t[i].arm);
        free(t[i].episode);
    }
    free(t);
}

/* The run's tasks, simulated then observed, each by task (as the trials
 * view groups them); an observed task counts its judged trials only. */
static int load_tasks(sqlite3 *db, const char *run, task_row **out,
                      size_t *n, err *e)
{
    static const char sql[] =
        "SELECT t.observed, t.task, t.arm, t.n, t.c, o.class, o.episode "
        "FROM (SELECT e.seed IS NULL AS observed, "
        "             coalesce(e.task_id, e.task_name) AS task, "
        "             min(e.arm) AS arm, count(*) AS n, "
        "             coalesce(sum(CASE WHEN e.seed IS NULL THEN e.success "
        "                      ELSE e.pass END), 0) AS c, "
        "             coalesce(min(CASE WHEN (CASE WHEN e.seed IS NULL "
        "                      THEN e.success ELSE e.pass END) = 0 "
        "                      THEN e.episode_id END), "
        "                      min(e.episode_id)) AS shown "
        "      FROM episode_rows e JOIN runs r ON r.run_id = e.run_id "
        "      WHERE r.run = ? "
        "        AND coalesce(e.task_id, e.task_name) IS NOT NULL "
        "        AND (e.seed IS NOT NULL OR e.success IS NOT NULL) "
        "      GROUP BY observed, task) t "
        "JOIN episode_outcomes o ON o.episode_id = t.shown "
        "ORDER BY t.observed, t.task";
    sqlite3_stmt *s;
    *out = NULL;
    *n = 0;
    if (rd_prepare(db, sql, run, &s, e) < 0)
        return -1;
    size_t cap = 0;
    int rc, nomem = 0;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        if (rd_grow(out, &cap, *n, sizeof **out) < 0) {
            nomem = 1;
            break;
        }
        task_row *t = &(*out)[(*n)++];
        memset(t, 0, sizeof *t);
        t->observed = sqlite3_column_int(s, 0);
        t->task = rd_text(s, 1);
        t->arm = rd_text_or_null(s, 2, &nomem);
        t->n = (long)sqlite3_column_int64(s, 3);
        t->c = (long)sqlite3_column_int64(s, 4);
        t->cls = card_class_named((const char *)sqlite3_column_text(s, 5));
        t->episode = rd_text(s, 6);
        if (!t->task || !t->episode || nomem) {
            nomem = 1;
            break;
        }
    }
    return rd_finish(db, s, rc, nomem, e);
}

static int task_cmp(const task_row *x, const task_row *y)
{
    return rd_task_cmp(x->observed, x->task, y->observed, y->task);
}

/* |A's rate - B's rate|, exactly comparable: as a fraction c/n. */
static double change(const card_flip *f)
{
    double d = (double)f->c[0] / (double)f->n[0] -
               (double)f->c[1] / (double)f->n[1];
    return d < 0 ? -d : d;
}

static int better_in_a(const card_flip *f)
{
    return f->c[0] * f->n[1] > f->c[1] * f->n[0];
}

static int by_change(const void *x, const void *y)
{
    const card_flip *a = x, *b = y;
    double da = change(a), db = change(b);
    if (da != db)
        return da > db ? -1 : 1;
    if (better_in_a(a) != better_in_a(b))
        return better_in_a(b) - better_in_a(a);
    if ((a->arm == NULL) != (b->arm == NULL))
        return a->arm == NULL ? 1 : -1;
    return strcmp(a->task, b->task);
}

void card_flips_free(card_flips *f)
{
    for (size_t i = 0; f->v && i < f->n; i++) {
        free(f->v[i].task);
        free(f->v[i].arm);
        free(f->v[i].episode[0]);
        free(f->v[i].episode[1]);
    }
    free(f->v);
    memset(f, 0, sizeof *f);
}

/* Moves what a flip keeps out of the task rows. */
static void take(card_flip *f, task_row *ta, task_row *tb)
{
    f->task = ta->task;
    f->arm = ta->arm;
    ta->task = ta->arm = NULL;
    task_row *t[2] = {ta, tb};
    for (int k = 0; k < 2; k++) {
        f->n[k] = t[k]->n;
        f->c[k] = t[k]->c;
        f->cls[k] = t[k]->cls;
        f->episode[k] = t[k]->episode;
        t[k]->episode = NULL;
    }
}

int card_flips_load(card_flips *f, sqlite3 *db, const char *a,
                    const char *b, err *e)
{
    task_row *ta = NULL, *tb = NULL;
    size_t na = 0, nb = 0;
    memset(f, 0, sizeof *f);
    int rc = -1;
    if (load_tasks(db, a, &ta, &na, e) < 0 ||
        load_tasks(db, b, &tb, &nb, e) < 0)
        goto done;
    /* both lists are sorted: match them in one pass */
    size_t cap = 0;
    for (size_t i = 0, j = 0; i < na; i++) {
        while (j < nb && task_cmp(&tb[j], &ta[i]) < 0)
            j++;
        if (j == nb || task_cmp(&tb[j], &ta[i]) != 0)
            continue;
        f->shared++;
        if (ta[i].c * tb[j].n == tb[j].c * ta[i].n) /* the same rate */
            continue;
        if (f->n == cap) {
            cap = cap ? 2 * cap : 16;
            card_flip *more = realloc(f->v, cap * sizeof *more);
            if (!more) {
                err_set(e, ERR_NOMEM, "out of memory");
                goto done;
            }
            f->v = more;
        }
        card_flip *x = &f->v[f->n++];
        take(x, &ta[i], &tb[j]);
        if (better_in_a(x))
            f->better_a++;
        else
            f->better_b++;
    }
    if (f->n)
        qsort(f->v, f->n, sizeof *f->v, by_change);
    rc = 0;
done:
    if (rc < 0)
        card_flips_free(f);
    task_rows_free(ta, na);
    task_rows_free(tb, nb);
    return rc;
}
