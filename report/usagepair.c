/* usagepair: see usagepair.h. */
#include "usagepair.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbread.h"

const char *const usage_measures[USAGE_MEASURES] = {"tokens", "seconds"};

const char *usage_value(char room[USAGE_VALUE], int m, double v, int sign)
{
    int places = m == USAGE_SECONDS ? 2 : 0;
    if (!isfinite(v) || fabs(v) >= 1e30) { /* no log holds such a figure */
        snprintf(room, USAGE_VALUE, sign && v > 0 ? "+%.3g" : "%.3g", v);
        return room;
    }
    snprintf(room, USAGE_VALUE, sign ? "%+.*f" : "%.*f", places, v);
    /* "-0", "+0.00": a sign on nothing */
    if (strspn(room + (room[0] == '+' || room[0] == '-'), "0.") ==
        strlen(room + (room[0] == '+' || room[0] == '-')))
        snprintf(room, USAGE_VALUE, "%.*f", places, 0.0);
    return room;
}

/* A run's task: how many of its episodes give each measure, and their
 * mean. */
typedef struct use_row {
    int observed;
    char *task, *arm;
    long n[USAGE_MEASURES];
    double mean[USAGE_MEASURES];
} use_row;

static void use_rows_free(use_row *t, size_t n)
{
    for (size_t i = 0; t && i < n; i++) {
        free(t[i].task);
        free(t[i].arm);
    }
    free(t);
}

/* The run's tasks that give either measure, simulated then observed,
 * each by task (the trials view's grouping). */
static int load_use(sqlite3 *db, const char *run, use_row **out, size_t *n,
                    err *e)
{
    static const char sql[] =
        "SELECT e.seed IS NULL AS observed, "
        "       coalesce(e.task_id, e.task_name) AS task, min(e.arm), "
        "       count(coalesce(e.input_tokens, e.output_tokens)), "
        "       avg(CASE WHEN coalesce(e.input_tokens, e.output_tokens) "
        "                IS NOT NULL THEN coalesce(e.input_tokens, 0) + "
        "                coalesce(e.output_tokens, 0) END), "
        "       count(e.duration), avg(e.duration) "
        "FROM episode_rows e JOIN runs r ON r.run_id = e.run_id "
        "WHERE r.run = ? AND coalesce(e.task_id, e.task_name) IS NOT NULL "
        "GROUP BY observed, task "
        "HAVING count(coalesce(e.input_tokens, e.output_tokens)) + "
        "       count(e.duration) > 0 "
        "ORDER BY observed, task";
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
        use_row *t = &(*out)[(*n)++];
        memset(t, 0, sizeof *t);
        t->observed = sqlite3_column_int(s, 0);
        t->task = rd_text(s, 1);
        t->arm = rd_text_or_null(s, 2, &nomem);
        for (int m = 0; m < USAGE_MEASURES; m++) {
            t->n[m] = (long)sqlite3_column_int64(s, 3 + 2 * m);
            t->mean[m] = sqlite3_column_double(s, 4 + 2 * m);
        }
        if (!t->task || nomem) {
            nomem = 1;
            break;
        }
    }
    return rd_finish(db, s, rc, nomem, e);
}

static int use_cmp(const use_row *x, const use_row *y)
{
    return rd_task_cmp(x->observed, x->task, y->observed, y->task);
}

static int by_change(const void *x, const void *y)
{
    const usage_task *a = x, *b = y;
    double da = fabs(a->mean[0] - a->mean[1]);
    double db = fabs(b->mean[0] - b->mean[1]);
    if (da != db)
        return da > db ? -1 : 1;
    if ((a->arm == NULL) != (b->arm == NULL))
        return a->arm == NULL ? 1 : -1;
    return strcmp(a->task, b->task);
}

static void paired_free(usage_paired *p)
{
    for (long i = 0; p->v && i < p->tasks; i++) {
        free(p->v[i].task);
        free(p->v[i].arm);
    }
    free(p->v);
    memset(p, 0, sizeof *p);
}

void usage_pairs_free(usage_pairs *p)
{
    for (int m = 0; m < USAGE_MEASURES; m++)
        paired_free(&p->m[m]);
}

int usage_pairs_any(const usage_pairs *p)
{
    for (int m = 0; m < USAGE_MEASURES; m++)
        if (p->m[m].tasks)
            return 1;
    return 0;
}

/* Copies the task's name and arm into x. */
static int take(usage_task *x, const use_row *ta, const use_row *tb, int m)
{
    x->task = strdup(ta->task);
    x->arm = ta->arm ? strdup(ta->arm) : NULL;
    x->n[0] = ta->n[m];
    x->n[1] = tb->n[m];
    x->mean[0] = ta->mean[m];
    x->mean[1] = tb->mean[m];
    return x->task && (x->arm || !ta->arm) ? 0 : -1;
}

/* Measure m of the shared tasks (pair[i]: b's row of a's row i, or -1). */
static int measure(usage_paired *p, const use_row *ta, size_t na,
                   const use_row *tb, const long *pair, int m, err *e)
{
    size_t cap = 0;
    for (size_t i = 0; i < na; i++)
        cap += pair[i] >= 0 && ta[i].n[m] > 0 && tb[pair[i]].n[m] > 0;
    if (cap == 0)
        return 0;
    double *d = malloc(cap * sizeof *d);
    p->v = calloc(cap, sizeof *p->v);
    if (!d || !p->v) {
        free(d);
        return err_set(e, ERR_NOMEM, "out of memory");
    }
    double sum[2] = {0, 0};
    for (size_t i = 0; i < na; i++) {
        if (pair[i] < 0 || ta[i].n[m] == 0 || tb[pair[i]].n[m] == 0)
            continue;
        usage_task *x = &p->v[p->tasks++];
        if (take(x, &ta[i], &tb[pair[i]], m) < 0) {
            free(d);
            return err_set(e, ERR_NOMEM, "out of memory");
        }
        sum[0] += x->mean[0];
        sum[1] += x->mean[1];
        d[p->tasks - 1] = x->mean[0] - x->mean[1];
    }
    p->mean[0] = sum[0] / (double)p->tasks;
    p->mean[1] = sum[1] / (double)p->tasks;
    p->ci = mean_interval(d, (unsigned long)p->tasks, &p->diff);
    p->has_ci = p->tasks >= 2;
    free(d);
    qsort(p->v, (size_t)p->tasks, sizeof *p->v, by_change);
    return 0;
}

int usage_pairs_load(usage_pairs *p, sqlite3 *db, const char *a,
                     const char *b, err *e)
{
    use_row *ta = NULL, *tb = NULL;
    size_t na = 0, nb = 0;
    long *pair = NULL;
    memset(p, 0, sizeof *p);
    int rc = -1;
    if (load_use(db, a, &ta, &na, e) < 0 || load_use(db, b, &tb, &nb, e) < 0)
        goto done;
    pair = malloc((na ? na : 1) * sizeof *pair);
    if (!pair) {
        err_set(e, ERR_NOMEM, "out of memory");
        goto done;
    }
    /* both lists are sorted: match them in one pass */
    for (size_t i = 0, j = 0; i < na; i++) {
        while (j < nb && use_cmp(&tb[j], &ta[i]) < 0)
            j++;
        pair[i] = j < nb && use_cmp(&tb[j], &ta[i]) == 0 ? (long)j : -1;
    }
    for (int m = 0; m < USAGE_MEASURES; m++)
        if (measure(&p->m[m], ta, na, tb, pair, m, e) < 0)
            goto done;
    rc = 0;
done:
    if (rc < 0)
        usage_pairs_free(p);
    use_rows_free(ta, na);
    use_rows_free(tb, nb);
    free(pair);
    return rc;
}
