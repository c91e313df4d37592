/* gate: see gate.h. */
#include "gate.h"

#include <stdlib.h>
#include <string.h>

#include "dbread.h"

/* A run's task as the measure sees it: n trials measured, c of them
 * passed (or judged a success). */
typedef struct gate_task {
    int observed;
    char *task;
    long n, c;
} gate_task;

static void tasks_free(gate_task *t, size_t n)
{
    for (size_t i = 0; t && i < n; i++)
        free(t[i].task);
    free(t);
}

/* The run's tasks that the measure measured, in trials' order. */
static int load(sqlite3 *db, const char *run, int success, gate_task **out,
                size_t *n, err *e)
{
    sqlite3_stmt *s;
    *out = NULL;
    *n = 0;
    if (rd_prepare(db, "SELECT kind = 'observed', task, trials, "
                    "coalesce(passes, 0), judged, coalesce(successes, 0) "
                    "FROM trials WHERE run = ? "
                    "ORDER BY kind = 'observed', task",
                run, &s, e) < 0)
        return -1;
    size_t cap = 0;
    int rc, nomem = 0;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        int observed = sqlite3_column_int(s, 0);
        long n_ = (long)sqlite3_column_int64(s, success ? 4 : 2);
        long c_ = (long)sqlite3_column_int64(s, success ? 5 : 3);
        if ((!success && observed) || n_ == 0)
            continue; /* not measured */
        if (rd_grow(out, &cap, *n, sizeof **out) < 0) {
            nomem = 1;
            break;
        }
        gate_task *t = &(*out)[(*n)++];
        t->observed = observed;
        t->n = n_;
        t->c = c_;
        if (!(t->task = rd_text(s, 1))) {
            nomem = 1;
            break;
        }
    }
    return rd_finish(db, s, rc, nomem, e);
}

static int task_cmp(const gate_task *x, const gate_task *y)
{
    return rd_task_cmp(x->observed, x->task, y->observed, y->task);
}

void gate_free(gate *g)
{
    for (int i = 0; i < GATE_MISSING_SHOWN; i++)
        free(g->missing_names[i]);
    memset(g, 0, sizeof *g);
}

int gate_judge(gate *g, sqlite3 *db, const char *base, const char *new_run,
               const char *measure, double max_drop, int missing_fail,
               err *e)
{
    gate_task *tb = NULL, *tn = NULL;
    size_t nb = 0, nn = 0;
    double *d = NULL;
    int success = strcmp(measure, "success") == 0;
    memset(g, 0, sizeof *g);
    g->measure = success ? "success" : "pass";
    g->max_drop = max_drop;
    g->missing_fail = missing_fail;
    g->one_trial = 1;
    int rc = -1;
    if (load(db, base, success, &tb, &nb, e) < 0 ||
        load(db, new_run, success, &tn, &nn, e) < 0)
        goto done;
    if (!(d = malloc((nb ? nb : 1) * sizeof *d))) {
        err_set(e, ERR_NOMEM, "out of memory");
        goto done;
    }
    /* both lists are sorted: pair them in one pass */
    long x = 0, y = 0; /* one trial a side: BASE only passed, NEW only */
    size_t j = 0;
    for (size_t i = 0; i < nb; i++) {
        while (j < nn && task_cmp(&tn[j], &tb[i]) < 0) {
            g->new_only++;
            j++;
        }
        const gate_task *b = &tb[i];
        const gate_task *n = j < nn && task_cmp(&tn[j], b) == 0 ? &tn[j++]
                                                                : NULL;
        long nn_ = 1, nc = 0; /* a missing task: one trial, failed */
        if (!n) {
            if (g->missing < GATE_MISSING_SHOWN &&
                !(g->missing_names[g->missing] = strdup(b->task))) {
                err_set(e, ERR_NOMEM, "out of memory");
                goto done;
            }
            g->missing++;
            if (!missing_fail)
                continue;
        } else {
            nn_ = n->n;
            nc = n->c;
        }
        if (b->n != 1 || nn_ != 1)
            g->one_trial = 0;
        x += b->c == 1 && nc == 0;
        y += b->c == 0 && nc == 1;
        d[g->tasks++] = (double)b->c / (double)b->n - (double)nc / (double)nn_;
    }
    g->new_only += (long)(nn - j);
    /* none of BASE's tasks in NEW: other tasks, not a run cut short */
    if (g->missing == (long)nb)
        g->tasks = 0;
    if (g->tasks == 0 || (!g->one_trial && g->tasks < 2)) {
        g->outcome = GATE_UNJUDGED;
    } else {
        if (g->one_trial)
            g->ci = tango((unsigned long)x, (unsigned long)y,
                          (unsigned long)g->tasks, &g->drop);
        else
            g->ci = mean_interval(d, (unsigned long)g->tasks, &g->drop);
        g->outcome = g->ci.lo > max_drop ? GATE_REGRESSED : GATE_PASSED;
    }
    rc = 0;
done:
    if (rc < 0)
        gate_free(g);
    tasks_free(tb, nb);
    tasks_free(tn, nn);
    free(d);
    return rc;
}

void gate_text(buf *out, const gate *g, const char *base, const char *new_run)
{
    const char *what = strcmp(g->measure, "pass") == 0
                           ? "pass rate"
                           : "the harness's success rate";
    if (g->outcome == GATE_UNJUDGED) {
        if (g->tasks == 0)
            buf_printf(out, "not judged: %s has no task of %s with a "
                            "measured %s, so there is nothing to pair (runs "
                            "of other tasks, not a run cut short).",
                       new_run, base, g->measure);
        else
            buf_printf(out, "not judged: one task of several trials gives "
                            "no interval to judge %s by.",
                       new_run);
        return;
    }
    if (g->outcome == GATE_REGRESSED)
        buf_printf(out, "failed: %s fell behind %s by %.1f percentage points "
                        "of %s (95%% CI %+.1f to %+.1f), more than the %.1f "
                        "allowed",
                   new_run, base, 100 * g->drop, what, 100 * g->ci.lo,
                   100 * g->ci.hi, 100 * g->max_drop);
    else
        buf_printf(out, "passed: %s is not shown behind %s by more than "
                        "%.1f percentage points of %s: %s - %s = %+.1f "
                        "(95%% CI %+.1f to %+.1f)",
                   new_run, base, 100 * g->max_drop, what, base, new_run,
                   100 * g->drop, 100 * g->ci.lo, 100 * g->ci.hi);
    buf_printf(out, ", on %ld task%s", g->tasks, g->tasks == 1 ? "" : "s");
    if (g->missing && g->missing_fail)
        buf_printf(out, " (%ld of them missing from %s, counted as failed)",
                   g->missing, new_run);
    else if (g->missing)
        buf_printf(out, " (%ld more of %s's missing from %s, left out)",
                   g->missing, base, new_run);
    buf_putc(out, '.');
}
