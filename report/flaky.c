/* flaky: see flaky.h. */
#include "flaky.h"

#include <stdlib.h>
#include <string.h>

#include "dbread.h"

static int within_cmp(const void *x, const void *y)
{
    const flaky_trials *a = x, *b = y;
    if (a->night != b->night)
        return a->night < b->night ? -1 : 1;
    return rd_task_cmp(a->arm == NULL, a->task, b->arm == NULL, b->task);
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

/* The tasks of a night whose trials disagree, by night, then task. */
static int find_within(flaky *f, trend_outcome *o, size_t n, err *e)
{
    size_t cap = 0;
    for (size_t i = 0; i < n; i++) {
        f->tasks_with_trials += o[i].trials > 1;
        if (o[i].passed == 0 || o[i].passed == o[i].trials)
            continue;
        if (rd_grow(&f->within, &cap, f->nwithin, sizeof *f->within) < 0)
            return err_set(e, ERR_NOMEM, "out of memory");
        flaky_trials *w = &f->within[f->nwithin++];
        w->night = o[i].night;
        w->passed = o[i].passed;
        w->trials = o[i].trials;
        w->task = strdup(o[i].task);
        w->arm = o[i].arm ? strdup(o[i].arm) : NULL;
        if (!w->task || (o[i].arm && !w->arm))
            return err_set(e, ERR_NOMEM, "out of memory");
    }
    if (f->nwithin)
        qsort(f->within, f->nwithin, sizeof *f->within, within_cmp);
    return 0;
}

/* The tasks whose outcome changed twice or more in a series (o sorted
 * by series, task, night). */
static int find_across(flaky *f, trend_outcome *o, size_t n, err *e)
{
    size_t cap = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        int was = o[i].passed == o[i].trials;
        long changes = 0, passed = was;
        for (; j < n && trend_same_task(&o[j], &o[i]); j++) {
            int now = o[j].passed == o[j].trials;
            changes += now != was;
            passed += now;
            was = now;
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
                x->outcomes[k - i] = o[k].passed == o[k].trials ? '+' : '-';
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
    trend_outcome *o = NULL;
    size_t n = 0;
    memset(f, 0, sizeof *f);
    int rc = -1;
    if (trend_load(&f->t, db, pattern, model, e) < 0 ||
        trend_outcomes(&f->t, db, 0, &o, &n, e) < 0 ||
        find_within(f, o, n, e) < 0 || find_across(f, o, n, e) < 0)
        goto done;
    rc = 0;
done:
    trend_outcomes_free(o, n);
    if (rc < 0)
        flaky_free(f);
    return rc;
}
