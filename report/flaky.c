/* flaky: see flaky.h. */
#include "flaky.h"

#include <stdlib.h>
#include <string.h>

#include "dbread.h"

/* A task's outcome in one night. */
typedef struct night_outcome {
    int observed;
    char *task, *arm;
    size_t night, series;
    int passed;
} night_outcome;

static int outcome_cmp(const void *x, const void *y)
{
    const night_outcome *a = x, *b = y;
    if (a->series != b->series)
        return a->series < b->series ? -1 : 1;
    int c = rd_task_cmp(a->observed, a->task, b->observed, b->task);
    if (c)
        return c;
    return a->night < b->night ? -1 : a->night > b->night;
}

static int across_cmp(const void *x, const void *y)
{
    const flaky_nights *a = x, *b = y;
    if (a->changes != b->changes)
        return a->changes > b->changes ? -1 : 1;
    return rd_task_cmp(a->arm == NULL, a->task, b->arm == NULL, b->task);
}

void flaky_free(flaky *f)
{
    for (size_t i = 0; f->within && i < f->nwithin; i++) {
        free(f->within[i].task);
        free(f->within[i].arm);
    }
    for (size_t i = 0; f->across && i < f->nacross; i++) {
        free(f->across[i].task);
        free(f->across[i].arm);
        free(f->across[i].outcomes);
    }
    free(f->within);
    free(f->across);
    trend_free(&f->t);
    memset(f, 0, sizeof *f);
}

/* Each night's tasks: those of trials that disagree, and every task's
 * outcome (with the series its night is in). */
static int load(flaky *f, sqlite3 *db, night_outcome **out, size_t *n,
                err *e)
{
    size_t cap = 0, wcap = 0, series = 0;
    for (size_t i = 0; i < f->t.n; i++) {
        if (f->t.v[i].breaks)
            series = i;
        sqlite3_stmt *s;
        if (rd_prepare(db, "SELECT kind = 'observed', task, arm, trials, "
                        "coalesce(passes, 0), judged, "
                        "coalesce(successes, 0) FROM trials WHERE run = ? "
                        "ORDER BY kind = 'observed', task",
                    f->t.v[i].run, &s, e) < 0)
            return -1;
        int rc, nomem = 0;
        while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
            int observed = sqlite3_column_int(s, 0);
            long trials = (long)sqlite3_column_int64(s, observed ? 5 : 3);
            long passed = (long)sqlite3_column_int64(s, observed ? 6 : 4);
            if (trials == 0)
                continue;
            f->tasks_with_trials += trials > 1;
            if (passed > 0 && passed < trials) {
                if (rd_grow(&f->within, &wcap, f->nwithin,
                            sizeof *f->within) < 0) {
                    nomem = 1;
                    break;
                }
                flaky_trials *w = &f->within[f->nwithin++];
                w->night = i;
                w->passed = passed;
                w->trials = trials;
                w->task = rd_text(s, 1);
                w->arm = rd_text_or_null(s, 2, &nomem);
                if (!w->task || nomem) {
                    nomem = 1;
                    break;
                }
            }
            if (rd_grow(out, &cap, *n, sizeof **out) < 0) {
                nomem = 1;
                break;
            }
            night_outcome *o = &(*out)[(*n)++];
            o->observed = observed;
            o->night = i;
            o->series = series;
            o->passed = passed == trials;
            o->task = rd_text(s, 1);
            o->arm = rd_text_or_null(s, 2, &nomem);
            if (!o->task || nomem) {
                nomem = 1;
                break;
            }
        }
        if (rd_finish(db, s, rc, nomem, e) < 0)
            return -1;
    }
    return 0;
}

static int find_across(flaky *f, night_outcome *o, size_t n, err *e)
{
    size_t cap = 0;
    if (n)
        qsort(o, n, sizeof *o, outcome_cmp);
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        long changes = 0, passed = o[i].passed;
        for (; j < n && o[j].series == o[i].series &&
               rd_task_cmp(o[j].observed, o[j].task, o[i].observed,
                           o[i].task) == 0;
             j++) {
            changes += o[j].passed != o[j - 1].passed;
            passed += o[j].passed;
        }
        if (changes >= 2) {
            if (rd_grow(&f->across, &cap, f->nacross, sizeof *f->across) < 0)
                return err_set(e, ERR_NOMEM, "out of memory");
            flaky_nights *x = &f->across[f->nacross++];
            memset(x, 0, sizeof *x);
            x->first = o[i].night;
            x->last = o[j - 1].night;
            x->nights = (long)(j - i);
            x->passed = passed;
            x->changes = changes;
            x->task = o[i].task;
            x->arm = o[i].arm;
            o[i].task = o[i].arm = NULL; /* moved */
            if (!(x->outcomes = malloc(j - i + 1)))
                return err_set(e, ERR_NOMEM, "out of memory");
            for (size_t k = i; k < j; k++)
                x->outcomes[k - i] = o[k].passed ? '+' : '-';
            x->outcomes[j - i] = '\0';
        }
        i = j;
    }
    if (f->nacross)
        qsort(f->across, f->nacross, sizeof *f->across, across_cmp);
    return 0;
}

int flaky_load(flaky *f, sqlite3 *db, const char *pattern, const char *model,
               err *e)
{
    night_outcome *o = NULL;
    size_t n = 0;
    memset(f, 0, sizeof *f);
    int rc = -1;
    if (trend_load(&f->t, db, pattern, model, e) < 0 ||
        load(f, db, &o, &n, e) < 0 || find_across(f, o, n, e) < 0)
        goto done;
    rc = 0;
done:
    for (size_t i = 0; i < n; i++) {
        free(o[i].task);
        free(o[i].arm);
    }
    free(o);
    if (rc < 0)
        flaky_free(f);
    return rc;
}
