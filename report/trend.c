/* trend: see trend.h. */
#include "trend.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dbread.h"
#include "rates.h"

void trend_break_words(buf *b, int breaks)
{
    static const struct {
        int bit;
        const char *words;
    } why[] = {{TREND_CONTRACT, "another tool contract"},
               {TREND_FILE, "the tool file's bytes changed (the same "
                            "contract)"},
               {TREND_GENERATOR, "another generator"},
               {TREND_MEASURE, "another measure"}};
    const char *sep = "";
    for (int k = 0; k < 4; k++)
        if (breaks & why[k].bit) {
            buf_printf(b, "%s%s", sep, why[k].words);
            sep = ", ";
        }
}

static void night_free(trend_night *n)
{
    free(n->run);
    free(n->model);
    free(n->replayed_at);
    free(n->file_sha256);
    free(n->contract_sha256);
    free(n->fingerprint);
}

void trend_free(trend *t)
{
    for (size_t i = 0; t->v && i < t->n; i++)
        night_free(&t->v[i]);
    for (size_t i = 0; t->f && i < t->nf; i++) {
        free(t->f[i].task);
        free(t->f[i].arm);
    }
    free(t->v);
    free(t->f);
    memset(t, 0, sizeof *t);
}

static int load_nights(trend *t, sqlite3 *db, const char *pattern,
                       const char *model, err *e)
{
    sqlite3_stmt *s;
    if (rd_prepare(db, "SELECT run, coalesce(model, ''), replayed_at, "
                    "file_sha256, contract_sha256, generator_version, "
                    "generator_fingerprint, simulated, coalesce(pass, 0), "
                    "judged, successes FROM run_summary "
                    "WHERE (?1 IS NULL OR run GLOB ?1) "
                    "AND (?2 IS NULL OR model = ?2) "
                    "ORDER BY replayed_at, run",
                pattern, &s, e) < 0)
        return -1;
    if (model && sqlite3_bind_text(s, 2, model, -1, SQLITE_STATIC) != SQLITE_OK) {
        sqlite3_finalize(s);
        return rd_failed(db, e);
    }
    size_t cap = 0;
    int rc, nomem = 0;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        if (rd_grow(&t->v, &cap, t->n, sizeof *t->v) < 0) {
            nomem = 1;
            break;
        }
        trend_night *n = &t->v[t->n++];
        memset(n, 0, sizeof *n);
        n->run = rd_text(s, 0);
        n->model = rd_text(s, 1);
        n->replayed_at = rd_text(s, 2);
        n->file_sha256 = rd_text(s, 3);
        n->contract_sha256 = rd_text(s, 4);
        n->generator_version = sqlite3_column_int(s, 5);
        n->fingerprint = rd_text(s, 6);
        long simulated = (long)sqlite3_column_int64(s, 7);
        long judged = (long)sqlite3_column_int64(s, 9);
        if (simulated) {
            n->measure = "pass";
            n->x = (long)sqlite3_column_int64(s, 8);
            n->n = simulated;
        } else if (judged) {
            n->measure = "success";
            n->x = (long)sqlite3_column_int64(s, 10);
            n->n = judged;
        }
        if (!n->run || !n->model || !n->replayed_at || !n->file_sha256 ||
            !n->contract_sha256 || !n->fingerprint) {
            nomem = 1;
            break;
        }
    }
    if (rd_finish(db, s, rc, nomem, e) < 0)
        return -1;
    /* each run's interval, as its card gives it (clustered by task where
     * trials repeat) */
    for (size_t i = 0; i < t->n; i++) {
        trend_night *n = &t->v[i];
        card_rate r[2];
        if (!n->measure)
            continue;
        if (card_rates_load(db, n->run, r, e) < 0)
            return -1;
        n->ci = r[strcmp(n->measure, "pass") == 0 ? 0 : 1].ci;
    }
    return 0;
}

/* Where each series starts: a simulated task is the file's bytes drawn by
 * the generator, so for runs of simulated episodes both count; an
 * observed task is the harness's, so only the contract does; and where
 * the figure measures something else (pass, the harness's success). */
static void mark_breaks(trend *t)
{
    for (size_t i = 1; i < t->n; i++) {
        const trend_night *a = &t->v[i - 1];
        trend_night *b = &t->v[i];
        int drawn = a->measure && b->measure &&
                    strcmp(a->measure, "pass") == 0 &&
                    strcmp(b->measure, "pass") == 0;
        if (strcmp(a->contract_sha256, b->contract_sha256) != 0)
            b->breaks |= TREND_CONTRACT;
        else if (drawn && strcmp(a->file_sha256, b->file_sha256) != 0)
            b->breaks |= TREND_FILE;
        if (drawn && (a->generator_version != b->generator_version ||
                      strcmp(a->fingerprint, b->fingerprint) != 0))
            b->breaks |= TREND_GENERATOR;
        if (!a->measure != !b->measure ||
            (a->measure && strcmp(a->measure, b->measure) != 0))
            b->breaks |= TREND_MEASURE;
        if (b->breaks)
            t->series = i;
    }
}

static int outcome_cmp(const void *x, const void *y)
{
    const trend_outcome *a = x, *b = y;
    if (a->series != b->series)
        return a->series < b->series ? -1 : 1;
    int c = rd_task_cmp(a->observed, a->task, b->observed, b->task);
    if (c)
        return c;
    return a->night < b->night ? -1 : a->night > b->night;
}

int trend_same_task(const trend_outcome *a, const trend_outcome *b)
{
    return a->series == b->series &&
           rd_task_cmp(a->observed, a->task, b->observed, b->task) == 0;
}

static int failing_cmp(const void *x, const void *y)
{
    const trend_failing *a = x, *b = y;
    if (a->since != b->since)
        return a->since < b->since ? -1 : 1;
    return rd_task_cmp(a->arm == NULL, a->task, b->arm == NULL, b->task);
}

void trend_outcomes_free(trend_outcome *o, size_t n)
{
    for (size_t i = 0; o && i < n; i++) {
        free(o[i].task);
        free(o[i].arm);
    }
    free(o);
}

static int load_outcomes(const trend *t, sqlite3 *db, size_t from,
                         trend_outcome **out, size_t *n, err *e)
{
    size_t cap = 0, series = 0;
    for (size_t i = 0; i < t->n; i++) {
        if (t->v[i].breaks)
            series = i;
        if (i < from)
            continue;
        sqlite3_stmt *s;
        if (rd_prepare(db, "SELECT kind = 'observed', task, arm, trials, "
                        "coalesce(passes, 0), judged, "
                        "coalesce(successes, 0) FROM trials WHERE run = ? "
                        "ORDER BY kind = 'observed', task",
                    t->v[i].run, &s, e) < 0)
            return -1;
        int rc, nomem = 0;
        while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
            int observed = sqlite3_column_int(s, 0);
            long trials = (long)sqlite3_column_int64(s, observed ? 5 : 3);
            if (trials == 0)
                continue; /* not judged that night */
            if (rd_grow(out, &cap, *n, sizeof **out) < 0) {
                nomem = 1;
                break;
            }
            trend_outcome *o = &(*out)[(*n)++];
            o->observed = observed;
            o->night = i;
            o->series = series;
            o->trials = trials;
            o->passed = (long)sqlite3_column_int64(s, observed ? 6 : 4);
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

int trend_outcomes(const trend *t, sqlite3 *db, size_t from,
                   trend_outcome **out, size_t *n, err *e)
{
    *out = NULL;
    *n = 0;
    if (load_outcomes(t, db, from, out, n, e) < 0) {
        trend_outcomes_free(*out, *n);
        *out = NULL;
        *n = 0;
        return -1;
    }
    if (*n)
        qsort(*out, *n, sizeof **out, outcome_cmp);
    return 0;
}

/* Each task failing in its latest night of the last series (o: its
 * outcomes, sorted), with the night its failing began. */
static int find_failing(trend *t, trend_outcome *o, size_t n, err *e)
{
    size_t cap = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i, last_pass = SIZE_MAX;
        for (; j < n && trend_same_task(&o[j], &o[i]); j++)
            if (o[j].passed == o[j].trials)
                last_pass = j;
        if (o[j - 1].passed < o[j - 1].trials) { /* failing, latest */
            size_t from = last_pass == SIZE_MAX ? i : last_pass + 1;
            if (rd_grow(&t->f, &cap, t->nf, sizeof *t->f) < 0)
                return err_set(e, ERR_NOMEM, "out of memory");
            trend_failing *f = &t->f[t->nf++];
            f->task = o[i].task;
            f->arm = o[i].arm;
            o[i].task = o[i].arm = NULL; /* moved */
            f->since = o[from].night;
            f->nights = (long)(j - from);
            f->passed_before = last_pass != SIZE_MAX;
        }
        i = j;
    }
    if (t->nf)
        qsort(t->f, t->nf, sizeof *t->f, failing_cmp);
    return 0;
}

int trend_load(trend *t, sqlite3 *db, const char *pattern, const char *model,
               err *e)
{
    trend_outcome *o = NULL;
    size_t n = 0;
    memset(t, 0, sizeof *t);
    int rc = -1;
    if (load_nights(t, db, pattern, model, e) < 0)
        goto done;
    mark_breaks(t);
    if (trend_outcomes(t, db, t->series, &o, &n, e) < 0 ||
        find_failing(t, o, n, e) < 0)
        goto done;
    rc = 0;
done:
    trend_outcomes_free(o, n);
    if (rc < 0)
        trend_free(t);
    return rc;
}
