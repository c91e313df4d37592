/* junit: see junit.h. */
#include "junit.h"

#include <stdlib.h>
#include <string.h>

#include "classes.h"
#include "dbread.h"
#include "shown.h"

/* A trial: its episode, class, verdict (1 passed, 0 failed, -1 not
 * judged) and what its class points at. */
typedef struct jtrial {
    char *episode;
    const char *cls; /* NULL: a class this writer does not know */
    int ok;
    int timed;
    double seconds;
    long seq; /* 0: none */
    char *tool, *error;
} jtrial;

/* A task of a run and its trials; task NULL: an episode of no task,
 * which is a testcase of its own. */
typedef struct jtask {
    int observed;
    char *task, *arm;
    jtrial *t;
    size_t n;
    long judged, passed;
} jtask;

typedef struct jrun {
    jtask *v;
    size_t n;
} jrun;

static void jrun_free(jrun *r)
{
    for (size_t i = 0; r->v && i < r->n; i++) {
        jtask *k = &r->v[i];
        for (size_t j = 0; j < k->n; j++) {
            free(k->t[j].episode);
            free(k->t[j].tool);
            free(k->t[j].error);
        }
        free(k->t);
        free(k->task);
        free(k->arm);
    }
    free(r->v);
    memset(r, 0, sizeof *r);
}

static int same_task(const jtask *k, int observed, const char *task)
{
    return k->task && task && k->observed == observed &&
           strcmp(k->task, task) == 0;
}

/* The run's episodes, grouped by task in trials' order (simulated, then
 * observed; by task; episodes of no task last, each alone).  0, or -1
 * with e set and r empty. */
static int jrun_load(jrun *r, sqlite3 *db, const char *run, err *e)
{
    static const char sql[] =
        "SELECT e.seed IS NULL, coalesce(e.task_id, e.task_name), e.arm, "
        "       e.episode, o.class, "
        "       CASE WHEN e.seed IS NULL THEN e.success ELSE e.pass END, "
        "       e.duration, o.seq, o.tool, o.error "
        "FROM episode_outcomes o JOIN episode_rows e "
        "  ON e.episode_id = o.episode_id "
        "WHERE o.run = ? "
        "ORDER BY e.seed IS NULL, coalesce(e.task_id, e.task_name) IS NULL, "
        "         coalesce(e.task_id, e.task_name), e.episode_id";
    sqlite3_stmt *s;
    memset(r, 0, sizeof *r);
    if (rd_prepare(db, sql, run, &s, e) < 0)
        return -1;
    size_t cap = 0;
    int rc, nomem = 0;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        int observed = sqlite3_column_int(s, 0);
        const char *task = (const char *)sqlite3_column_text(s, 1);
        jtask *k = r->n ? &r->v[r->n - 1] : NULL;
        if (!k || !same_task(k, observed, task)) {
            if (rd_grow(&r->v, &cap, r->n, sizeof *r->v) < 0) {
                nomem = 1;
                break;
            }
            k = &r->v[r->n++];
            memset(k, 0, sizeof *k);
            k->observed = observed;
            k->task = rd_text_or_null(s, 1, &nomem);
            k->arm = rd_text_or_null(s, 2, &nomem);
            if (nomem)
                break;
        }
        jtrial *more = realloc(k->t, (k->n + 1) * sizeof *more);
        if (!more) {
            nomem = 1;
            break;
        }
        k->t = more;
        jtrial *t = &k->t[k->n++];
        memset(t, 0, sizeof *t);
        t->episode = rd_text(s, 3);
        t->cls = card_class_named((const char *)sqlite3_column_text(s, 4));
        t->ok = sqlite3_column_type(s, 5) == SQLITE_NULL
                    ? -1
                    : sqlite3_column_int(s, 5) != 0;
        t->timed = sqlite3_column_type(s, 6) != SQLITE_NULL;
        t->seconds = sqlite3_column_double(s, 6);
        t->seq = (long)sqlite3_column_int64(s, 7);
        t->tool = rd_text_or_null(s, 8, &nomem);
        t->error = rd_text_or_null(s, 9, &nomem);
        if (!t->episode || nomem) {
            nomem = 1;
            break;
        }
        k->judged += t->ok >= 0;
        k->passed += t->ok == 1;
    }
    if (rd_finish(db, s, rc, nomem, e) < 0) {
        jrun_free(r);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------ writing */

/* s as XML text or a quoted attribute's value: shown as the pages show
 * it, and the two characters XML 1.0 cannot hold that pages can
 * (U+FFFE, U+FFFF) written as the escapes a card writes. */
static void xml(buf *b, const char *s)
{
    buf h = BUF_INIT;
    shown_html(&h, s ? s : "");
    if (h.failed) {
        b->failed = 1;
        buf_free(&h);
        return;
    }
    const char *p = h.data ? h.data : "";
    for (;;) {
        const char *q = strstr(p, "\xef\xbf");
        while (q && q[2] != '\xbe' && q[2] != '\xbf')
            q = strstr(q + 1, "\xef\xbf");
        if (!q) {
            buf_puts(b, p);
            break;
        }
        buf_append(b, p, (size_t)(q - p));
        buf_puts(b, q[2] == '\xbe' ? "\\u{fffe}" : "\\u{ffff}");
        p = q + 3;
    }
    buf_free(&h);
}

static void attr(buf *b, const char *name, const char *value)
{
    buf_printf(b, " %s=\"", name);
    xml(b, value);
    buf_putc(b, '"');
}

/* A trial as a line: "e1: passed", "e2: side_effect, a write the task
 * did not ask for (call 2, refund_order, error not_found)". */
static void trial_line(buf *b, const char *side, const jtrial *t)
{
    buf line = BUF_INIT;
    if (side)
        buf_printf(&line, "%s ", side);
    buf_puts(&line, t->episode);
    buf_puts(&line, ": ");
    if (t->ok == 1)
        buf_puts(&line, "passed");
    else {
        const char *m = t->cls ? card_class_meaning(t->cls) : NULL;
        buf_puts(&line, t->cls ? t->cls : t->ok < 0 ? "not judged" : "failed");
        if (m)
            buf_printf(&line, ", %s", m);
        if (t->seq) {
            buf_printf(&line, " (call %ld", t->seq);
            if (t->tool)
                buf_printf(&line, ", %s", t->tool);
            if (t->error)
                buf_printf(&line, ", error %s", t->error);
            buf_putc(&line, ')');
        }
    }
    if (line.failed)
        b->failed = 1;
    else
        xml(b, line.data);
    buf_putc(b, '\n');
    buf_free(&line);
}

/* The first failed trial of a task, or NULL. */
static const jtrial *first_failed(const jtask *k)
{
    for (size_t i = 0; k && i < k->n; i++)
        if (k->t[i].ok == 0)
            return &k->t[i];
    return NULL;
}

static int timed(const jtask *k, double *sum)
{
    int any = 0;
    *sum = 0;
    for (size_t i = 0; k && i < k->n; i++)
        if (k->t[i].timed) {
            any = 1;
            *sum += k->t[i].seconds;
        }
    return any;
}

/* What a testcase says: nothing (it passed), a failure or a skip. */
enum verdict { J_PASSED, J_FAILED, J_SKIPPED };

typedef struct jcase {
    const jtask *base, *now; /* now: the run's (NEW's) task; base: BASE's */
    enum verdict v;
    buf message;
    const char *type;
} jcase;

static void case_open(buf *b, const char *run, const jtask *k)
{
    buf cls = BUF_INIT;
    buf_puts(&cls, run);
    if (k->arm)
        buf_printf(&cls, ".%s", k->arm);
    buf_puts(b, "    <testcase");
    attr(b, "name", k->task ? k->task : k->t[0].episode);
    attr(b, "classname", cls.failed ? "" : cls.data);
    b->failed |= cls.failed;
    buf_free(&cls);
    double sum;
    if (timed(k, &sum))
        buf_printf(b, " time=\"%.3f\"", sum);
    buf_puts(b, ">\n");
}

static void case_body(buf *b, const jcase *c, const char *base_run,
                      const char *run)
{
    if (c->v != J_PASSED) {
        buf_printf(b, "      <%s", c->v == J_FAILED ? "failure" : "skipped");
        attr(b, "message", c->message.data ? c->message.data : "");
        if (c->v == J_FAILED)
            attr(b, "type", c->type ? c->type : "failed");
        b->failed |= c->message.failed;
        if (c->v == J_FAILED && c->now) {
            buf_puts(b, ">");
            for (size_t i = 0; i < c->now->n; i++)
                if (c->now->t[i].ok == 0)
                    trial_line(b, NULL, &c->now->t[i]);
            buf_puts(b, "</failure>\n");
        } else {
            buf_puts(b, "/>\n");
        }
    }
    buf_puts(b, "      <system-out>");
    for (size_t i = 0; c->base && i < c->base->n; i++)
        trial_line(b, base_run, &c->base->t[i]);
    for (size_t i = 0; c->now && i < c->now->n; i++)
        trial_line(b, base_run ? run : NULL, &c->now->t[i]);
    buf_puts(b, "</system-out>\n    </testcase>\n");
}

/* "1/3" */
static void rate(buf *b, const jtask *k)
{
    buf_printf(b, "%ld/%ld", k->passed, k->judged);
}

/* A task alone: failed when a trial failed. */
static void judge_alone(jcase *c)
{
    const jtask *k = c->now;
    const jtrial *f = first_failed(k);
    if (k->judged == 0) {
        c->v = J_SKIPPED;
        buf_puts(&c->message, "the harness judged no trial");
    } else if (f) {
        c->v = J_FAILED;
        c->type = f->cls ? f->cls : "failed";
        buf_printf(&c->message, "%ld of %ld trial%s failed; the first: ",
                   k->judged - k->passed, k->judged,
                   k->judged == 1 ? "" : "s");
        buf_printf(&c->message, "%s (%s)", f->episode, c->type);
    } else {
        c->v = J_PASSED;
    }
}

/* NEW's task against BASE's (either may be NULL). */
static void judge_pair(jcase *c, int missing_fail, const char *base_run,
                       const char *run)
{
    const jtask *b = c->base, *n = c->now;
    const jtrial *f = first_failed(n);
    int measured_b = b && b->judged > 0, measured_n = n && n->judged > 0;
    if (!n) {
        c->v = missing_fail ? J_FAILED : J_SKIPPED;
        c->type = "missing";
        buf_printf(&c->message, "missing from %s%s; %s: ", run,
                   missing_fail ? " (counted as failed)" : "", base_run);
        rate(&c->message, b);
        return;
    }
    if (!measured_n) {
        c->v = J_SKIPPED;
        buf_puts(&c->message, "the harness judged no trial");
        return;
    }
    if (!measured_b) {
        c->v = f ? J_SKIPPED : J_PASSED;
        if (f)
            buf_printf(&c->message, "not in %s; here %ld/%ld: %s (%s)",
                       base_run, n->passed, n->judged, f->episode,
                       f->cls ? f->cls : "-");
        return;
    }
    /* rates compared exactly, as fractions */
    long lhs = n->passed * b->judged, rhs = b->passed * n->judged;
    if (lhs < rhs) {
        c->v = J_FAILED;
        c->type = f && f->cls ? f->cls : "regressed";
        buf_puts(&c->message, "regressed: ");
        rate(&c->message, b);
        buf_printf(&c->message, " in %s, ", base_run);
        rate(&c->message, n);
        buf_printf(&c->message, " in %s", run);
        if (f)
            buf_printf(&c->message, "; the first failed trial: %s (%s)",
                       f->episode, f->cls ? f->cls : "-");
    } else if (f) {
        c->v = J_SKIPPED;
        buf_puts(&c->message, lhs == rhs ? "fails as often in " : "improved on ");
        buf_printf(&c->message, "%s (", base_run);
        rate(&c->message, b);
        buf_puts(&c->message, " there, ");
        rate(&c->message, n);
        buf_printf(&c->message, " here): %s (%s)", f->episode,
                   f->cls ? f->cls : "-");
    } else {
        c->v = J_PASSED;
    }
}

typedef struct totals {
    long tests, failures, skipped;
    int timed;
    double seconds;
} totals;

/* Counts c; its time is its testcase's: NEW's trials (BASE's when NEW
 * lacks the task). */
static void count(totals *t, const jcase *c)
{
    double s;
    t->tests++;
    t->failures += c->v == J_FAILED;
    t->skipped += c->v == J_SKIPPED;
    if (timed(c->now ? c->now : c->base, &s)) {
        t->timed = 1;
        t->seconds += s;
    }
}

static void suite_open(buf *b, const char *name, const totals *t,
                       const card *c)
{
    buf_puts(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites");
    attr(b, "name", "taskreplay");
    buf_printf(b, " tests=\"%ld\" failures=\"%ld\" errors=\"0\" "
                  "skipped=\"%ld\"",
               t->tests, t->failures, t->skipped);
    if (t->timed)
        buf_printf(b, " time=\"%.3f\"", t->seconds);
    buf_puts(b, ">\n  <testsuite");
    attr(b, "name", name);
    buf_printf(b, " tests=\"%ld\" failures=\"%ld\" errors=\"0\" "
                  "skipped=\"%ld\"",
               t->tests, t->failures, t->skipped);
    if (t->timed)
        buf_printf(b, " time=\"%.3f\"", t->seconds);
    if (c->replayed_at && c->replayed_at[0])
        attr(b, "timestamp", c->replayed_at);
    buf_puts(b, ">\n    <properties>\n");
    const char *keys[] = {"run", "model", "tools", "file_sha256",
                          "contract_sha256", "generator_fingerprint"};
    const char *values[] = {c->run, c->model, c->tools_path, c->file_sha256,
                            c->contract_sha256, c->fingerprint};
    for (int i = 0; i < 6; i++) {
        if (!values[i] || !values[i][0])
            continue;
        buf_puts(b, "      <property");
        attr(b, "name", keys[i]);
        attr(b, "value", values[i]);
        buf_puts(b, "/>\n");
    }
    buf_puts(b, "    </properties>\n");
}

static void suite_close(buf *b)
{
    buf_puts(b, "  </testsuite>\n</testsuites>\n");
}

int junit_run(buf *out, sqlite3 *db, const card *c, err *e)
{
    jrun r;
    if (jrun_load(&r, db, c->run, e) < 0)
        return -1;
    jcase *cases = calloc(r.n ? r.n : 1, sizeof *cases);
    if (!cases) {
        jrun_free(&r);
        return err_set(e, ERR_NOMEM, "out of memory");
    }
    totals t = {0};
    for (size_t i = 0; i < r.n; i++) {
        cases[i].now = &r.v[i];
        judge_alone(&cases[i]);
        count(&t, &cases[i]);
    }
    suite_open(out, c->run, &t, c);
    for (size_t i = 0; i < r.n; i++) {
        case_open(out, c->run, &r.v[i]);
        case_body(out, &cases[i], NULL, c->run);
        buf_free(&cases[i].message);
    }
    suite_close(out);
    free(cases);
    jrun_free(&r);
    return out->failed ? err_set(e, ERR_NOMEM, "out of memory") : 0;
}

/* trials' order, with the episodes of no task after every task */
static int task_order(const jtask *x, const jtask *y)
{
    if (x->observed != y->observed)
        return x->observed - y->observed;
    if (!x->task || !y->task)
        return x->task ? -1 : y->task ? 1 : 0;
    return rd_task_cmp(x->observed, x->task, y->observed, y->task);
}

int junit_compare(buf *out, sqlite3 *db, const card_compared *x,
                  int missing_fail, err *e)
{
    const char *base_run = x->a->run, *run = x->b->run;
    jrun rb, rn;
    if (jrun_load(&rb, db, base_run, e) < 0)
        return -1;
    if (jrun_load(&rn, db, run, e) < 0) {
        jrun_free(&rb);
        return -1;
    }
    size_t cap = rb.n + rn.n;
    jcase *cases = calloc(cap ? cap : 1, sizeof *cases);
    if (!cases) {
        jrun_free(&rb);
        jrun_free(&rn);
        return err_set(e, ERR_NOMEM, "out of memory");
    }
    /* both lists are sorted: merge them; episodes of no task stand alone
     * (NEW's are judged as tasks of their own, BASE's are not cases) */
    size_t n = 0, i = 0, j = 0;
    totals t = {0};
    while (i < rb.n || j < rn.n) {
        if (i < rb.n && !rb.v[i].task) { /* BASE's episode of no task */
            i++;
            continue;
        }
        jcase *c = &cases[n];
        int cmp = i == rb.n   ? 1
                  : j == rn.n ? -1
                              : task_order(&rb.v[i], &rn.v[j]);
        if (cmp > 0 && !rn.v[j].task) {
            c->now = &rn.v[j++];
            judge_alone(c);
        } else {
            if (cmp <= 0)
                c->base = &rb.v[i++];
            if (cmp >= 0)
                c->now = &rn.v[j++];
            judge_pair(c, missing_fail, base_run, run);
        }
        count(&t, c);
        n++;
    }
    buf name = BUF_INIT;
    buf_printf(&name, "%s against %s", run, base_run);
    suite_open(out, name.failed ? run : name.data, &t, x->b);
    buf_free(&name);
    for (size_t k = 0; k < n; k++) {
        case_open(out, run, cases[k].now ? cases[k].now : cases[k].base);
        case_body(out, &cases[k], base_run, run);
        buf_free(&cases[k].message);
    }
    suite_close(out);
    free(cases);
    jrun_free(&rb);
    jrun_free(&rn);
    return out->failed ? err_set(e, ERR_NOMEM, "out of memory") : 0;
}
