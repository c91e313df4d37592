/* text: see text.h. */
#include "text.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shown.h"
#include "stats.h"

/* ------------------------------------------------------------- lines */

/* A line of prose, wrapped within width; continued lines start with
 * indent spaces.  What it quotes from the database is shown already. */
static void say(buf *out, int width, int indent, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void say(buf *out, int width, int indent, const char *fmt, ...)
{
    va_list ap, again;
    va_start(ap, fmt);
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *line = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (line) {
        vsnprintf(line, (size_t)n + 1, fmt, again);
        shown_wrap(out, "", line, width, indent, INT_MAX);
    } else {
        out->failed = 1;
    }
    va_end(again);
    free(line);
}

/* A sentence carddata made into s (which it frees), shown and wrapped
 * after prefix, continued lines indented. */
static void say_made(buf *out, buf *s, const char *prefix, int width,
                     int indent)
{
    if (s->failed)
        out->failed = 1;
    else
        shown_wrap(out, prefix, shown_tx(s->data ? s->data : ""), width,
                   indent, INT_MAX);
    buf_free(s);
}

/* ------------------------------------------------------------ tables */

#define TABLE_COLS 8

/* A table: a header and rows of cells shown already.  Column c is left
 * aligned when align[c] is 'l', right aligned when 'r', at least minw[c]
 * columns wide; gap[c] spaces go before it (none before the first).
 * Columns whose bit is in fit may be cut to make the table fit, then those
 * in fit_last; wrap_last lets the last column wrap. */
typedef struct table {
    int ncols;
    const char *align;
    int gap[TABLE_COLS];
    int minw[TABLE_COLS];
    unsigned fit, fit_last;
    int wrap_last;
    char **cells; /* ncols a row; the header first */
    size_t nrows, cap;
    int failed;
} table;

static void table_init(table *t, const char *align, const int *gaps,
                       const int *minw, unsigned fit, int wrap_last)
{
    memset(t, 0, sizeof *t);
    t->ncols = (int)strlen(align);
    t->align = align;
    for (int c = 0; c < t->ncols; c++) {
        t->gap[c] = c ? gaps[c - 1] : 0;
        t->minw[c] = minw ? minw[c] : 0;
    }
    t->fit = fit;
    t->wrap_last = wrap_last;
}

/* Adds a row of ncols cells (copied). */
static void table_row(table *t, ...)
{
    if (t->nrows == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 32;
        char **more = realloc(t->cells, cap * (size_t)t->ncols * sizeof *more);
        if (!more) {
            t->failed = 1;
            return;
        }
        t->cells = more;
        t->cap = cap;
    }
    va_list ap;
    va_start(ap, t);
    char **row = t->cells + t->nrows * (size_t)t->ncols;
    for (int c = 0; c < t->ncols; c++) {
        const char *s = va_arg(ap, const char *);
        row[c] = strdup(s ? s : "");
        if (!row[c])
            t->failed = 1;
    }
    va_end(ap);
    t->nrows++;
}

static void table_free(table *t)
{
    for (size_t i = 0; i < t->nrows * (size_t)t->ncols; i++)
        free(t->cells[i]);
    free(t->cells);
    memset(t, 0, sizeof *t);
}

/* Appends the table, each line starting with indent spaces, within width
 * as text.h says. */
static void table_print(buf *out, table *t, int indent, int width)
{
    size_t w[TABLE_COLS] = {0};
    if (t->failed) {
        out->failed = 1;
        table_free(t);
        return;
    }
    for (int c = 0; c < t->ncols; c++)
        w[c] = (size_t)t->minw[c];
    for (size_t r = 0; r < t->nrows; r++)
        for (int c = 0; c < t->ncols; c++) {
            size_t n = shown_columns(t->cells[r * (size_t)t->ncols + c]);
            if (n > w[c])
                w[c] = n;
        }
    size_t total = (size_t)indent;
    for (int c = 0; c < t->ncols; c++)
        total += w[c] + (size_t)t->gap[c];
    if (total > (size_t)width) { /* tight: one space between columns */
        for (int c = 1; c < t->ncols; c++) {
            total -= (size_t)t->gap[c] - 1;
            t->gap[c] = 1;
        }
    }
    /* then the widest of the name columns, a column at a time: those of
     * fit, then those of fit_last */
    while (total > (size_t)width) {
        int widest = -1;
        for (int pass = 0; pass < 2 && widest < 0; pass++)
            for (int c = 0; c < t->ncols; c++)
                if (((pass ? t->fit_last : t->fit) >> c & 1) && w[c] > 8 &&
                    (widest < 0 || w[c] > w[widest]))
                    widest = c;
        if (widest < 0)
            break;
        w[widest]--;
        total--;
    }
    size_t last_at = total - w[t->ncols - 1];
    for (size_t r = 0; r < t->nrows; r++) {
        buf line = BUF_INIT;
        buf_printf(&line, "%*s", indent, "");
        for (int c = 0; c < t->ncols; c++) {
            const char *cell = t->cells[r * (size_t)t->ncols + c];
            int last = c == t->ncols - 1;
            if ((t->fit | t->fit_last) >> c & 1)
                cell = shown_fit(cell, w[c]);
            size_t n = shown_columns(cell);
            size_t pad = n < w[c] ? w[c] - n : 0;
            buf_printf(&line, "%*s", t->gap[c], "");
            if (last && t->wrap_last && t->align[c] == 'l') {
                /* the rest of the line, wrapped under its column */
                shown_wrap_from(&line, cell, (int)last_at,
                                (int)(last_at + 8 > (size_t)width
                                          ? last_at + 8
                                          : (size_t)width),
                                (int)last_at, INT_MAX);
                line.len--; /* shown_wrap ends the line */
                break;
            }
            if (t->align[c] == 'r')
                buf_printf(&line, "%*s", (int)pad, "");
            buf_puts(&line, cell);
            if (t->align[c] == 'l' && !last)
                buf_printf(&line, "%*s", (int)pad, "");
        }
        /* no spaces at the end of a line */
        while (line.len && line.data[line.len - 1] == ' ')
            line.len--;
        if (line.failed)
            out->failed = 1;
        else
            buf_append(out, line.data, line.len);
        buf_putc(out, '\n');
        buf_free(&line);
    }
    table_free(t);
}

/* -------------------------------------------------------------- card */

static void text_problems(buf *out, const card *c, int width)
{
    buf_printf(out, "  problems     %5ld\n", c->problems);
    for (size_t i = 0; i < c->nfirst; i++) {
        buf at = BUF_INIT, where = BUF_INIT;
        card_problem_where(&where, &c->first_problems[i]);
        buf_printf(&at, "    %s: ",
                   shown_tx(where.data && !where.failed ? where.data : ""));
        at.failed |= where.failed;
        buf_free(&where);
        if (at.failed)
            out->failed = 1;
        else
            shown_wrap(out, at.data, shown_tx(c->first_problems[i].message),
                       width, 6, 4);
        buf_free(&at);
    }
    if (c->problems > (long)c->nfirst) {
        /* the query, with the run's name quoted as SQL quotes it */
        buf name = BUF_INIT;
        for (const char *p = c->run; *p; p++) {
            if (*p == '\'')
                buf_putc(&name, '\'');
            buf_putc(&name, *p);
        }
        say(out, width, 6, "    ... and %ld more: SELECT * FROM problems "
                           "WHERE run = '%s'",
            c->problems - (long)c->nfirst,
            shown_tx(name.failed || !name.data ? "" : name.data));
        buf_free(&name);
    }
    if (c->problems_no_run) {
        say(out, width, 6, "    and %ld in the database that name no run:",
            c->problems_no_run);
        say(out, width, 8, "      %s", card_no_run_query);
    }
}

/* The harness's verdicts on episodes of one kind, when it gave any. */
static void text_harness(buf *out, const card_harness *h,
                         const card_rate *r, int width)
{
    if (h->judged) {
        card_rate plain = card_rate_plain(h->successes, h->judged);
        if (!r)
            r = &plain;
        say(out, width, 6,
            "  harness success %3ld of %ld  %5.1f%%  95%% CI %5.1f-%5.1f%%%s",
            h->successes, h->judged, card_pct(h->successes, h->judged),
            100 * r->ci.lo, 100 * r->ci.hi,
            r->clustered ? "  clustered by task" : "");
    }
    if (h->rewarded && isfinite(h->mean_reward))
        say(out, width, 6, "  harness reward  %.3f mean, over %ld episode%s",
            h->mean_reward, h->rewarded, h->rewarded == 1 ? "" : "s");
    else if (h->rewarded)
        say(out, width, 6, "  harness reward  -  over %ld episode%s: their "
                           "mean is not a finite number",
            h->rewarded, h->rewarded == 1 ? "" : "s");
}

static void text_tools(buf *out, const card *c, int width)
{
    static const int gaps[] = {1, 1, 1, 1, 1, 1};
    static const int minw[] = {18, 5, 6, 5, 6, 7, 10};
    table t;
    int guessed = 0;
    table_init(&t, "lllrrrr", gaps, minw, 1u, 0);
    table_row(&t, "tool", "kind", "by", "calls", "errors", "invalid",
              "off schema");
    for (size_t i = 0; i < c->ntools; i++) {
        const card_tool *x = &c->tools[i];
        char calls[24], errors[24], invalid[24], off[24], kind[80];
        snprintf(calls, sizeof calls, "%ld", x->calls);
        snprintf(errors, sizeof errors, "%ld", x->errors);
        if (x->kind_ok || !x->kind) /* none: no schema said one */
            snprintf(kind, sizeof kind, "%s", x->kind ? x->kind : "-");
        else /* a kind that is not one: shown as what it is, cut */
            snprintf(kind, sizeof kind, "?%s",
                     shown_fit(shown_tx(x->kind ? x->kind : ""), 11));
        guessed |= x->kind_from && strcmp(x->kind_from, "name") == 0;
        table_row(&t, shown_tx(x->tool), kind,
                  x->kind_from ? x->kind_from : "-", calls, errors,
                  shown_count(invalid, sizeof invalid, x->args_checked > 0,
                                x->invalid),
                  shown_count(off, sizeof off, x->answers_checked > 0,
                                x->off_schema));
    }
    buf_puts(out, "\nper tool (observed calls)\n");
    table_print(out, &t, 2, width);
    if (guessed)
        say(out, width, 4, "  kind by name: a guess from its first word "
                           "(get, list...)");
    if (c->no_schema)
        say(out, width, 4, "  no schema: the run's tool file has no tool "
                           "(the log offers no definitions), so no call was "
                           "checked; --tools FILE adds the checks");
    for (size_t i = 0; i < c->ntools; i++) {
        const card_tool *x = &c->tools[i];
        if (!x->rule)
            continue;
        buf at = BUF_INIT;
        buf_printf(&at, "  %s: the commonest rule broken (%ld of %ld): ",
                   shown_fit(shown_tx(x->tool), 30), x->rule_calls,
                   x->invalid);
        if (at.failed)
            out->failed = 1;
        else
            shown_wrap(out, at.data, shown_tx(x->rule), width, 6, 6);
        buf_free(&at);
    }
}

/* What the episodes used, as their logs say, when they say anything:
 * each figure over the episodes (calls) that give it. */
static void text_usage(buf *out, const card *c, int width)
{
    const card_usage *u = &c->usage;
    if (!card_usage_any(u))
        return;
    long n = c->simulated + c->observed;
    buf_putc(out, '\n');
    say(out, width, 2, "usage, as logged (each figure over the episodes "
                       "that give it, of %ld)", n);
    if (u->tokened)
        say(out, width, 6, "  tokens       %.0f input, %.0f output, over "
                           "%ld episode%s",
            u->input_tokens, u->output_tokens, u->tokened,
            u->tokened == 1 ? "" : "s");
    if (u->tokened)
        say(out, width, 6, "    an episode's: median %.0f, 95th percentile "
                           "%.0f",
            u->median_tokens, u->p95_tokens);
    if (u->costed)
        say(out, width, 6, "  cost         $%.4f, over %ld episode%s",
            u->cost, u->costed, u->costed == 1 ? "" : "s");
    if (u->timed)
        say(out, width, 6, "  time         %.1f s an episode (mean), over "
                           "%ld",
            u->mean_seconds, u->timed);
    if (u->timed)
        say(out, width, 6, "    median %.1f s, 95th percentile %.1f s",
            u->median_seconds, u->p95_seconds);
    if (u->timed_calls)
        say(out, width, 6, "  call time    %.3f s a call (mean), over %ld",
            u->mean_call_seconds, u->timed_calls);
}

/* The observed episodes: what the tool file can tell of their calls. */
static void text_observed(buf *out, const card *c, int width)
{
    const card_harness *h = &c->harness[1];
    buf_putc(out, '\n');
    say(out, width, 2, "observed: %ld episode%s, run against something "
                       "other than the simulator",
        c->observed, c->observed == 1 ? "" : "s");
    say(out, width, 3, "  (no simulator figure: nothing was replayed against "
                       "a task)");
    if (!h->judged)
        buf_puts(out, "  harness success    -  not given\n");
    text_harness(out, h, &c->rate[1], width);
    buf_printf(out, "  unfinished   %5ld\n", h->unfinished);
    buf_printf(out, "  calls        %5ld\n", c->observed_calls);
    if (!c->simulated)
        text_problems(out, c, width);
    if (c->ntools)
        text_tools(out, c, width);
    if (c->nunknown) {
        buf list = BUF_INIT;
        size_t shown = c->nunknown < 10 ? c->nunknown : 10;
        long calls = 0;
        for (size_t i = 0; i < c->nunknown; i++)
            calls += c->unknown[i].calls;
        for (size_t i = 0; i < shown; i++)
            buf_printf(&list, "%s%s \xc3\x97%ld", i ? ", " : "",
                       shown_tx(c->unknown[i].tool), c->unknown[i].calls);
        if (c->nunknown > shown)
            buf_printf(&list, ", and %zu more", c->nunknown - shown);
        char head[96];
        snprintf(head, sizeof head,
                 "  tools the file does not have (%ld call%s): ", calls,
                 calls == 1 ? "" : "s");
        if (list.failed)
            out->failed = 1;
        else
            shown_wrap(out, head, list.data, width, 4, 4);
        buf_free(&list);
    }
}

/* Why the run's episodes ended as they did: each class with its count,
 * what it means, and its arms. */
static void text_classes(buf *out, const card *c, int width)
{
    static const int gaps[] = {1, 2};
    static const int minw[] = {19, 4, 0};
    if (c->nclasses == 0)
        return;
    table t;
    table_init(&t, "lrl", gaps, minw, 0, 1);
    table_row(&t, "class", "eps", "what happened; arms");
    for (size_t i = 0; i < c->nclasses; i++) {
        const card_class *k = &c->classes[i];
        char eps[24];
        snprintf(eps, sizeof eps, "%ld", k->episodes);
        buf what = BUF_INIT;
        if (strcmp(k->name, "passed") != 0) {
            buf_puts(&what, card_class_meaning(k->name));
            if (k->narms)
                buf_puts(&what, "; ");
            card_class_arms_text(&what, k, c->narms);
        }
        if (what.failed)
            out->failed = 1;
        /* the arms' names are the database's */
        table_row(&t, k->name, eps,
                  what.data && !what.failed ? shown_tx(what.data) : "");
        buf_free(&what);
    }
    buf_putc(out, '\n');
    say(out, width, 2, "why episodes ended as they did (episode_outcomes)");
    table_print(out, &t, 2, width);
}

/* pass^k (or success^k) when some task has two trials or more. */
static void text_passk(buf *out, const card *c, int width)
{
    static const char *const names[2] = {"pass^k", "success^k"};
    static const int gaps[] = {1, 2, 1};
    static const int minw[] = {3, 9, 11, 6};
    for (int k = 0; k < 2; k++) {
        if (c->passk_largest[k] < 2)
            continue;
        buf_putc(out, '\n');
        say(out, width, 2, "trials: %s, over the tasks with k trials or more",
            names[k]);
        if (c->passk_largest[k] > 4)
            say(out, width, 2, "  k = 1 to 4, the powers of two, and the "
                               "largest (%ld)",
                c->passk_largest[k]);
        table t;
        table_init(&t, "rrrr", gaps, minw, 0, 0);
        table_row(&t, "k", names[k], "95% CI", "tasks");
        for (size_t i = 0; i < c->npassk[k]; i++) {
            const card_passk *pk = &c->passk[k][i];
            char kk[24], rate[24], ci[40], tasks[24];
            snprintf(kk, sizeof kk, "%ld", pk->k);
            snprintf(rate, sizeof rate, "%.1f%%", 100 * pk->rate);
            snprintf(ci, sizeof ci, "%.1f-%.1f%%", 100 * pk->ci.lo,
                     100 * pk->ci.hi);
            snprintf(tasks, sizeof tasks, "%ld", pk->tasks);
            table_row(&t, kk, rate, ci, tasks);
        }
        table_print(out, &t, 2, width);
    }
    if (c->trial_tasks)
        say(out, width, 4, "  flaky: %ld of %ld task%s of several trials "
                           "passed some and failed others (card --flaky "
                           "lists them)",
            c->flaky_tasks, c->trial_tasks, c->trial_tasks == 1 ? "" : "s");
}

static void text_arms(buf *out, const card *c, int width)
{
    static const int gaps[] = {1, 1, 2, 2, 1, 1};
    static const int minw[] = {14, 4, 5, 11, 7, 5, 4};
    table t;
    table_init(&t, "lrrrrrr", gaps, minw, 1u, 0);
    table_row(&t, "arm", "eps", "pass", "95% CI", "reached", "side", "dup");
    for (size_t i = 0; i < c->narms; i++) {
        const card_arm *a = &c->arms[i];
        interval w = wilson((unsigned long)a->pass, (unsigned long)a->episodes);
        char eps[24], pass[24], ci[32], reached[24], side[24], dup[24];
        snprintf(eps, sizeof eps, "%ld", a->episodes);
        snprintf(pass, sizeof pass, "%ld", a->pass);
        snprintf(ci, sizeof ci, "%5.1f-%5.1f", 100 * w.lo, 100 * w.hi);
        snprintf(reached, sizeof reached, "%ld", a->reached);
        snprintf(side, sizeof side, "%ld", a->side_effects);
        snprintf(dup, sizeof dup, "%ld", a->duplicates);
        table_row(&t, shown_tx(a->arm), eps, pass, ci, reached, side, dup);
    }
    buf_puts(out, "\nper arm (pass, with its 95% CI)\n");
    table_print(out, &t, 2, width);
}

static void text_dials(buf *out, const card *c, int width)
{
    static const int gaps[] = {1, 1, 2};
    static const int minw[] = {10, 7, 6, 0};
    table t;
    table_init(&t, "lrrl", gaps, minw, 0, 1);
    table_row(&t, "dial", "events", "fired", "outcomes");
    for (size_t i = 0; i < c->ndials; i++) {
        const card_dial *d = &c->dials[i];
        char events[24], fired[24];
        buf outcomes = BUF_INIT;
        snprintf(events, sizeof events, "%ld", d->events);
        snprintf(fired, sizeof fired, "%ld", d->fired);
        card_outcomes_text(&outcomes, d);
        table_row(&t, d->dial, events, fired,
                  outcomes.data && !outcomes.failed ? outcomes.data : "");
        buf_free(&outcomes);
    }
    buf_puts(out, "\nper dial\n");
    table_print(out, &t, 2, width);
}

/* The figures of episodes replayed against tasks. */
static void text_result(buf *out, const card *c, int width)
{
    long n = c->simulated;
    buf_putc(out, '\n');
    if (c->observed)
        say(out, width, 2, "result: %ld episode%s replayed against tasks (and "
                           "%ld observed, below)",
            n, n == 1 ? "" : "s", c->observed);
    else
        say(out, width, 2, "result: %ld episode%s", n, n == 1 ? "" : "s");
    if (n == 0) { /* nothing was measured: no figure at all */
        buf_puts(out, "  pass             -  no episodes\n"
                      "  reached          -  no episodes\n");
        text_problems(out, c, width);
        return;
    }
    interval p = c->rate[0].ci;
    interval r = wilson((unsigned long)c->reached, (unsigned long)n);
    say(out, width, 6, "  pass         %5ld  %5.1f%%  95%% CI %5.1f-%5.1f%%%s",
        c->pass, card_pct(c->pass, n), 100 * p.lo, 100 * p.hi,
        c->rate[0].clustered ? "  clustered by task" : "");
    buf_printf(out, "  reached      %5ld  %5.1f%%  95%% CI %5.1f-%5.1f%%\n",
               c->reached, card_pct(c->reached, n), 100 * r.lo, 100 * r.hi);
    text_harness(out, &c->harness[0], NULL, width);
    say(out, width, 6, "  side effects %5ld  (duplicate writes %ld)",
        c->side_effects, c->duplicates);
    buf_printf(out, "  errors       %5ld\n", c->errors);
    buf codes = BUF_INIT;
    for (int i = 0; i < CARD_CODES; i++)
        if (c->by_code[i])
            buf_printf(&codes, "%s%s %ld", codes.len ? ", " : "",
                       card_codes[i], c->by_code[i]);
    if (codes.len && !codes.failed)
        shown_wrap(out, "    ", codes.data, width, 4, INT_MAX);
    buf_free(&codes);
    const card_efficiency *f = &c->efficiency;
    say(out, width, 6, "  calls        %5ld  %.1f an episode; its task's steps "
                       "%.1f",
        f->calls, (double)f->calls / (double)n, (double)f->steps / (double)n);
    if (f->repeated_reads || f->retries || f->planned_errors)
        say(out, width, 6, "    repeated reads %ld, retries after an error "
                           "%ld (planned errors %ld)",
            f->repeated_reads, f->retries, f->planned_errors);
    buf_printf(out, "  unfinished   %5ld\n", c->harness[0].unfinished);
    if (c->compared_episodes == 0)
        say(out, width, 6, "  diverged         -  nothing to compare: no "
                           "call had an answer logged");
    else
        say(out, width, 6, "  diverged     %5ld  of %ld episodes; calls: %ld "
                           "of %ld",
            c->diverged_episodes, c->compared_episodes, c->diverged_calls,
            c->compared_calls);
    if (c->compared_episodes && c->compared_episodes < n)
        say(out, width, 6, "    %ld episode%s not compared: no call had an "
                           "answer logged",
            n - c->compared_episodes, n - c->compared_episodes == 1 ? "" : "s");
    if (c->compared_episodes && c->unlogged_calls)
        say(out, width, 6, "    %ld call%s with no answer logged: not compared",
            c->unlogged_calls, c->unlogged_calls == 1 ? "" : "s");
    text_problems(out, c, width);
    if (c->narms)
        text_arms(out, c, width);
    if (c->ndials)
        text_dials(out, c, width);
}

void text_card(buf *out, const card *c, int width)
{
    int narrow = width < 80;
    say(out, width, 6, "card: %s", shown_tx(c->run));
    /* the sentence first, then what it stands on */
    buf headline = BUF_INIT;
    card_headline(&headline, c);
    say_made(out, &headline, "  ", width, 2);
    buf_putc(out, '\n');
    say(out, width, 15, "  model        %s",
        c->model[0] ? shown_tx(c->model) : "-");
    if (c->tools_found)
        say(out, width, 15, "  tool file    %s (found at %s)",
            shown_tx(c->tools_path), shown_tx(c->tools_found));
    else
        say(out, width, 15, "  tool file    %s", shown_tx(c->tools_path));
    /* a hash is 64 digits; one that is not (a database tampered with)
     * wraps like any text */
    say(out, width, 15, "  file hash    %s", shown_hash(c->file_sha256, narrow));
    say(out, width, 15, "  contract     %s",
        shown_hash(c->contract_sha256, narrow));
    buf_printf(out, "  generator    %d\n", c->generator_version);
    say(out, width, 15, "  fingerprint  %s",
        shown_hash(c->fingerprint, narrow));
    say(out, width, 15, "  replayed     %s", shown_tx(c->replayed_at));
    if (c->simulated || !c->observed)
        text_result(out, c, width);
    if (c->observed)
        text_observed(out, c, width);
    text_classes(out, c, width);
    text_passk(out, c, width);
    text_usage(out, c, width);
}

/* ----------------------------------------------------------- compare */

/* "  added: a, b, c", wrapped within the width (continued lines
 * indented). */
static void say_list(buf *out, const char *what, char **names, size_t n,
                     int width)
{
    if (n == 0)
        return;
    buf list = BUF_INIT;
    for (size_t i = 0; i < n; i++)
        buf_printf(&list, "%s%s", i ? ", " : "", shown_tx(names[i]));
    char head[32];
    snprintf(head, sizeof head, "  %s: ", what);
    if (list.failed)
        out->failed = 1;
    else
        shown_wrap(out, head, list.data, width, 4, INT_MAX);
    buf_free(&list);
}

/* The sentence of a comparison that sets no figure side by side. */
static void why_not(buf *out, const card_compared *x, int width)
{
    buf why = BUF_INIT;
    card_refusal(&why, x->a, x->b, x->k);
    shown_wrap(out, "", shown_tx(why.failed || !why.data ? "" : why.data),
               width, 0, INT_MAX);
    buf_free(&why);
    if (x->k == COMPARE_CONTRACTS) {
        const contract_diff *d = &x->d;
        if (d->nadded + d->nremoved + d->nchanged == 0)
            shown_wrap(out, "  ", card_same_tools, width, 2, INT_MAX);
        say_list(out, "added", d->added, d->nadded, width);
        say_list(out, "removed", d->removed, d->nremoved, width);
        say_list(out, "changed", d->changed, d->nchanged, width);
    }
    const card *both[2] = {x->a, x->b};
    for (int i = 0; i < 2; i++) {
        const card *r = both[i];
        say(out, width, 4, "  %s", shown_tx(r->run));
        say(out, width, 16, "    file hash   %s",
            shown_hash(r->file_sha256, width < 80));
        if (x->k == COMPARE_CONTRACTS)
            say(out, width, 16, "    contract    %s",
                shown_hash(r->contract_sha256, width < 80));
        if (x->k == COMPARE_GENERATORS) {
            buf_printf(out, "    generator   %d\n", r->generator_version);
            say(out, width, 16, "    fingerprint %s",
                shown_hash(r->fingerprint, width < 80));
        }
    }
}

/* A p-value as people read it: 0.125, 0.0031, 2.5e-29. */
static void p_value(char *room, size_t size, double p)
{
    snprintf(room, size, p >= 0.001 ? "%.3g" : "%.1e", p);
}

/* The paired analysis of two runs. */
static void text_paired(buf *out, const card_compared *x, int width)
{
    static const int gaps[] = {1, 2, 2, 2, 1, 2};
    static const int minw[] = {14, 5, 6, 16, 6, 6, 0};
    const card_paired *r = x->paired;
    table t;
    int open = 0;
    for (size_t i = 0; i < x->npaired; i++) {
        const card_paired *p = &r[i];
        const card_pairs *q = &p->pairs;
        if (i == 0 || strcmp(p->measure, r[i - 1].measure) != 0) {
            if (open)
                table_print(out, &t, 0, width);
            int pass = strcmp(p->measure, "pass") == 0;
            buf_putc(out, '\n');
            say(out, width, 0, "paired, by task (%s)",
                pass ? "pass" : "the harness's success");
            say(out, width, 2, "  %ld tasks in both runs, %ld only in %s, %ld "
                               "only in %s",
                p->shared, p->only_a, shown_tx(x->a->run), p->only_b,
                shown_tx(x->b->run));
            if (p->shared == 0) {
                say(out, width, 0, "no task is in both runs: nothing to "
                                   "pair, and no paired figure");
                open = 0;
                continue;
            }
            if (p->one_trial) {
                say(out, width, 0, "one trial of each task in each run: A-B "
                                   "with Tango's score interval;");
                say(out, width, 0, "the pairs by outcome, and McNemar's "
                                   "exact p");
            } else {
                say(out, width, 0, "several trials of a task: A-B is the "
                                   "mean of per-task differences, its "
                                   "interval");
                say(out, width, 0, "clustered by task; the pairs by outcome "
                                   "and McNemar's exact p are of each");
                say(out, width, 0, "task's first trial");
            }
            table_init(&t, "lrrlrrl", gaps, minw, 1u, 0);
            /* "p" where "McNemar p" does not fit: the line above says
             * what it is */
            table_row(&t, "arm", "tasks", "A-B", "95% CI of A-B", "A only",
                      "B only", width < 72 ? "p" : "McNemar p");
            open = 1;
        }
        if (!open)
            continue;
        char tasks[24], diff[24], ci[48], ao[24], bo[24], pv[24];
        snprintf(tasks, sizeof tasks, "%ld", p->shared);
        if (p->shared == 0) {
            table_row(&t, shown_tx(p->arm), tasks, "-", "-", "", "", "");
            continue;
        }
        snprintf(diff, sizeof diff, "%+.1f", 100 * p->diff);
        snprintf(ci, sizeof ci, "%+6.1f to %+6.1f", 100 * p->ci.lo,
                 100 * p->ci.hi);
        snprintf(ao, sizeof ao, "%ld", q->a_only);
        snprintf(bo, sizeof bo, "%ld", q->b_only);
        if (q->n)
            p_value(pv, sizeof pv, q->p);
        else
            snprintf(pv, sizeof pv, "-");
        table_row(&t, shown_tx(p->arm), tasks, diff, ci, ao, bo, pv);
    }
    if (open) {
        table_print(out, &t, 0, width);
        buf_puts(out, "(percentage points, A-B)\n");
    }
}

/* The unpaired table, per arm. */
static void text_unpaired(buf *out, const card_compared *x, int width)
{
    static const int gaps[] = {1, 2, 2, 2, 1};
    static const int wide[] = {14, 13, 13, 6, 15, 0};
    static const int narrow[] = {14, 5, 5, 6, 15, 0};
    table t;
    int starred = 0, lone = 0;
    /* "96/96 100%" where it fits, else "96/96" */
    int with_pct = width >= 72;
    table_init(&t, "lrrrll", gaps, with_pct ? wide : narrow, 1u, 0);
    table_row(&t, "arm", "A pass", "B pass", "A-B", "95% CI of A-B", "");
    for (size_t i = 0; i < x->nrows; i++) {
        const card_row *r = &x->rows[i];
        char sa[48], sb[48], diff[24], ci[48];
        char fa[32], fb[32];
        snprintf(fa, sizeof fa, "%ld/%ld", r->xa, r->na);
        snprintf(fb, sizeof fb, "%ld/%ld", r->xb, r->nb);
        if (with_pct && r->na)
            snprintf(sa, sizeof sa, "%7s %4.0f%%", fa, card_pct(r->xa, r->na));
        else if (with_pct)
            snprintf(sa, sizeof sa, "%7s     -", fa);
        else
            snprintf(sa, sizeof sa, "%s", fa);
        if (with_pct && r->nb)
            snprintf(sb, sizeof sb, "%7s %4.0f%%", fb, card_pct(r->xb, r->nb));
        else if (with_pct)
            snprintf(sb, sizeof sb, "%7s     -", fb);
        else
            snprintf(sb, sizeof sb, "%s", fb);
        if (!r->measured) { /* an arm only one run has: no difference */
            lone = 1;
            table_row(&t, shown_tx(r->arm), sa, sb, "-",
                      r->na ? "only in A" : "only in B", "");
            continue;
        }
        snprintf(diff, sizeof diff, "%+.1f", 100 * r->diff);
        snprintf(ci, sizeof ci, "%+6.1f to %+6.1f", 100 * r->ci.lo,
                 100 * r->ci.hi);
        starred |= r->excludes_zero;
        table_row(&t, shown_tx(r->arm), sa, sb, diff, ci,
                  r->excludes_zero ? "*" : "");
    }
    buf_puts(out, "\nunpaired, per arm: each run's pass rate\n");
    table_print(out, &t, 0, width);
    buf_putc(out, '\n');
    if (starred) {
        say(out, width, 2, "* the 95%% interval of A-B excludes zero "
                           "(percentage points; Newcombe's");
        say(out, width, 2, "  hybrid score interval)");
    } else {
        say(out, width, 0, "no 95%% interval of A-B excludes zero "
                           "(percentage points; Newcombe's");
        say(out, width, 0, "hybrid score interval)");
    }
    if (lone)
        say(out, width, 2, "- an arm only one run has episodes of: no "
                           "difference to show");
}

/* The tasks whose outcome differs, the largest change first. */
static void text_flips(buf *out, const card_compared *x, int width)
{
    static const int gaps[] = {2, 2, 2};
    static const int minw[] = {4, 3, 1, 1};
    const card_flips *f = &x->flips;
    buf_putc(out, '\n');
    if (f->n == 0) {
        say(out, width, 0, f->shared ? "flipped tasks: none (every task both "
                                       "runs have passed as often in each)"
                                     : "flipped tasks: none (no task is in "
                                       "both runs)");
        return;
    }
    say(out, width, 0, "flipped tasks: %zu (passed more often in A: %ld; "
                       "in B: %ld)",
        f->n, f->better_a, f->better_b);
    say(out, width, 0, "passes of trials, and the class of the first "
                       "trial that failed (else the first)");
    size_t shown = f->n < x->flips_shown ? f->n : x->flips_shown;
    table t;
    table_init(&t, "llll", gaps, minw, 3u, 0);
    table_row(&t, "task", "arm", "A", "B");
    for (size_t i = 0; i < shown; i++) {
        const card_flip *p = &f->v[i];
        char sa[CARD_FLIP_SIDE], sb[CARD_FLIP_SIDE];
        table_row(&t, shown_tx(p->task), p->arm ? shown_tx(p->arm) : "-",
                  card_flip_side(sa, p, 0), card_flip_side(sb, p, 1));
    }
    table_print(out, &t, 2, width);
    if (shown < f->n)
        say(out, width, 4, "  and %zu more: --tasks all lists every one",
            f->n - shown);
}

/* What the runs used, task by task, where their logs say it. */
static void text_usage_pairs(buf *out, const card_compared *x, int width)
{
    static const int gaps[] = {2, 2, 2, 2, 2};
    static const int tgaps[] = {2, 2, 2, 2};
    const usage_pairs *u = &x->usage;
    if (!usage_pairs_any(u))
        return;
    buf_putc(out, '\n');
    say(out, width, 0, "usage by task, as logged: each task's mean over its "
                       "episodes that give it; A-B the mean of per-task "
                       "differences, its 95%% CI clustered by task");
    table t;
    table_init(&t, "lrrrrl", gaps, NULL, 0u, 0);
    table_row(&t, "measure", "tasks", "A", "B", "A-B", "95% CI");
    for (int m = 0; m < USAGE_MEASURES; m++) {
        const usage_paired *p = &u->m[m];
        if (!p->tasks)
            continue;
        char n[24], va[USAGE_VALUE], vb[USAGE_VALUE], d[USAGE_VALUE],
            lo[USAGE_VALUE], hi[USAGE_VALUE], ci[2 * USAGE_VALUE + 8];
        snprintf(n, sizeof n, "%ld", p->tasks);
        if (p->has_ci)
            snprintf(ci, sizeof ci, "%s to %s",
                     usage_value(lo, m, p->ci.lo, 1),
                     usage_value(hi, m, p->ci.hi, 1));
        else
            snprintf(ci, sizeof ci, "- (one task)");
        table_row(&t, usage_measures[m], n, usage_value(va, m, p->mean[0], 0),
                  usage_value(vb, m, p->mean[1], 0),
                  usage_value(d, m, p->diff, 1), ci);
    }
    table_print(out, &t, 2, width);
    for (int m = 0; m < USAGE_MEASURES; m++) {
        const usage_paired *p = &u->m[m];
        if (!p->tasks)
            continue;
        size_t all = (size_t)p->tasks;
        size_t shown = all < x->usage_shown ? all : x->usage_shown;
        say(out, width, 0, "%s: the task%s that changed most", usage_measures[m],
            shown == 1 ? "" : "s");
        table_init(&t, "llrrr", tgaps, NULL, 3u, 0);
        table_row(&t, "task", "arm", "A", "B", "A-B");
        for (size_t i = 0; i < shown; i++) {
            const usage_task *k = &p->v[i];
            char va[USAGE_VALUE], vb[USAGE_VALUE], d[USAGE_VALUE];
            table_row(&t, shown_tx(k->task), k->arm ? shown_tx(k->arm) : "-",
                      usage_value(va, m, k->mean[0], 0),
                      usage_value(vb, m, k->mean[1], 0),
                      usage_value(d, m, k->mean[0] - k->mean[1], 1));
        }
        table_print(out, &t, 2, width);
        if (shown < all)
            say(out, width, 4, "  and %zu more: --tasks all lists every one",
                all - shown);
    }
}

void text_compare(buf *out, const card_compared *x, int width)
{
    say(out, width, 2, "compare: %s (A) and %s (B)", shown_tx(x->a->run),
        shown_tx(x->b->run));
    if (x->k != COMPARE_SAME) {
        why_not(out, x, width);
        return;
    }
    buf verdict = BUF_INIT;
    card_verdict_text(&verdict, x);
    say_made(out, &verdict, "", width, 0);
    buf pairing = BUF_INIT;
    card_pairing_text(&pairing, x, 0);
    say_made(out, &pairing, "", width, 0);
    if (x->contract == CONTRACT_ACROSS) {
        say_list(out, "added", x->d.added, x->d.nadded, width);
        say_list(out, "removed", x->d.removed, x->d.nremoved, width);
        say_list(out, "changed", x->d.changed, x->d.nchanged, width);
    }
    if (x->nrows)
        text_unpaired(out, x, width);
    text_paired(out, x, width);
    text_flips(out, x, width);
    text_usage_pairs(out, x, width);
}

void text_gate(buf *out, const gate *g, const card_compared *x, int width)
{
    buf sentence = BUF_INIT, pairing = BUF_INIT;
    gate_text(&sentence, g, x->a->run, x->b->run);
    if (x->contract != CONTRACT_CHECKED)
        card_pairing_text(&pairing, x, 0);
    if (x->contract == CONTRACT_ACROSS) /* said first */
        say_made(out, &pairing, "gate: ", width, 2);
    say_made(out, &sentence, "gate: ", width, 2);
    if (pairing.len)
        say_made(out, &pairing, "gate: ", width, 2);
    buf_free(&pairing);
    text_flips(out, x, width);
    if (g->missing) {
        buf names = BUF_INIT;
        long shown = g->missing < GATE_MISSING_SHOWN ? g->missing
                                                     : GATE_MISSING_SHOWN;
        for (long i = 0; i < shown; i++)
            buf_printf(&names, "%s%s", i ? ", " : "",
                       shown_tx(g->missing_names[i]));
        if (shown < g->missing)
            buf_printf(&names, " and %ld more", g->missing - shown);
        buf_putc(out, '\n');
        say(out, width, 2, "missing from %s: %ld task%s (%s): %s",
            shown_tx(x->b->run), g->missing, g->missing == 1 ? "" : "s",
            g->missing_fail ? "counted as failed" : "left out",
            names.failed || !names.data ? "" : names.data);
        out->failed |= names.failed;
        buf_free(&names);
    }
}

void text_trend(buf *out, const trend *t, int width, size_t shown)
{
    static const int gaps[] = {2, 2, 2, 2};
    if (t->n == 0) {
        say(out, width, 0, "trend: no run matches");
        return;
    }
    say(out, width, 2, "trend: %zu run%s, in the order replayed", t->n,
        t->n == 1 ? "" : "s");
    /* a table a series, each after the reason it starts again */
    table tb;
    for (size_t i = 0; i < t->n; i++) {
        const trend_night *n = &t->v[i];
        if (i == 0 || n->breaks) {
            if (i) {
                table_print(out, &tb, 2, width);
                buf why = BUF_INIT;
                trend_break_words(&why, n->breaks);
                say(out, width, 2, "a new series from %s: %s",
                    shown_tx(n->run), why.failed ? "" : why.data);
                out->failed |= why.failed;
                buf_free(&why);
            }
            table_init(&tb, "llllr", gaps, NULL, 1u | 2u, 0);
            table_row(&tb, "run", "replayed", "measure", "rate (95% CI)",
                      "episodes");
        }
        char rate[64], eps[24];
        if (n->measure)
            snprintf(rate, sizeof rate, "%.1f%% (%.1f-%.1f%%)",
                     card_pct(n->x, n->n), 100 * n->ci.lo, 100 * n->ci.hi);
        else
            snprintf(rate, sizeof rate, "-");
        snprintf(eps, sizeof eps, "%ld", n->n);
        table_row(&tb, shown_tx(n->run), shown_tx(n->replayed_at),
                  n->measure ? n->measure : "-", rate, eps);
    }
    table_print(out, &tb, 2, width);
    buf_putc(out, '\n');
    const char *first = t->v[t->series].run, *last = t->v[t->n - 1].run;
    if (t->nf == 0) {
        say(out, width, 2, "failing in the last series (%s to %s): none",
            shown_tx(first), shown_tx(last));
        return;
    }
    say(out, width, 2, "failing in the last series (%s to %s): %zu task%s, "
                       "each since the night its failing began",
        shown_tx(first), shown_tx(last), t->nf, t->nf == 1 ? "" : "s");
    size_t n = t->nf < shown ? t->nf : shown;
    table_init(&tb, "llllr", gaps, NULL, 1u | 2u | 4u, 0);
    table_row(&tb, "task", "arm", "since", "passed before", "nights");
    for (size_t i = 0; i < n; i++) {
        const trend_failing *f = &t->f[i];
        char nights[24];
        snprintf(nights, sizeof nights, "%ld", f->nights);
        table_row(&tb, shown_tx(f->task), f->arm ? shown_tx(f->arm) : "-",
                  shown_tx(t->v[f->since].run),
                  f->passed_before ? "yes" : "no", nights);
    }
    table_print(out, &tb, 2, width);
    if (n < t->nf)
        say(out, width, 4, "  and %zu more: --tasks all lists every one",
            t->nf - n);
}

void text_flaky(buf *out, const flaky *f, int width, size_t shown)
{
    static const int gaps[] = {2, 2, 2, 2, 2, 2};
    if (f->t.n == 0) {
        say(out, width, 0, "flaky: no run matches");
        return;
    }
    say(out, width, 2, "flaky tasks of %zu run%s", f->t.n,
        f->t.n == 1 ? "" : "s");
    say(out, width, 2, "within a run: %zu of %ld task%s of several trials "
                       "passed some and failed others",
        f->nwithin, f->tasks_with_trials,
        f->tasks_with_trials == 1 ? "" : "s");
    table t;
    size_t n = f->nwithin < shown ? f->nwithin : shown;
    if (n) {
        table_init(&t, "lllr", gaps, NULL, 1u | 2u | 4u, 0);
        table_row(&t, "run", "task", "arm", "passed");
        for (size_t i = 0; i < n; i++) {
            const flaky_trials *w = &f->within[i];
            char passed[48];
            snprintf(passed, sizeof passed, "%ld/%ld", w->passed, w->trials);
            table_row(&t, shown_tx(f->t.v[w->night].run), shown_tx(w->task),
                      w->arm ? shown_tx(w->arm) : "-", passed);
        }
        table_print(out, &t, 2, width);
        if (n < f->nwithin)
            say(out, width, 4, "  and %zu more: --tasks all lists every one",
                f->nwithin - n);
    }
    buf_putc(out, '\n');
    say(out, width, 2, "across the nights of a series: %zu task%s whose "
                       "outcome changed twice or more (+ passed, - failed, "
                       "in the order replayed)",
        f->nacross, f->nacross == 1 ? "" : "s");
    n = f->nacross < shown ? f->nacross : shown;
    if (!n)
        return;
    table_init(&t, "llrrll", gaps, NULL, 1u | 2u | 16u | 32u, 0);
    table_row(&t, "task", "arm", "nights", "changes", "outcomes", "from, to");
    for (size_t i = 0; i < n; i++) {
        const flaky_nights *x = &f->across[i];
        char nights[24], changes[24];
        buf span = BUF_INIT;
        snprintf(nights, sizeof nights, "%ld", x->nights);
        snprintf(changes, sizeof changes, "%ld", x->changes);
        buf_printf(&span, "%s, ", shown_tx(f->t.v[x->first].run));
        buf_puts(&span, shown_tx(f->t.v[x->last].run));
        table_row(&t, shown_tx(x->task), x->arm ? shown_tx(x->arm) : "-",
                  nights, changes, shown_tx_max(x->outcomes, 40),
                  span.failed ? "" : span.data);
        out->failed |= span.failed;
        buf_free(&span);
    }
    table_print(out, &t, 2, width);
    if (n < f->nacross)
        say(out, width, 4, "  and %zu more: --tasks all lists every one",
            f->nacross - n);
}

/* ----------------------------------------------------------- episode */

/* How much of a JSON value an episode's text shows: --json shows all. */
#define EPISODE_VALUE_MAX 480

/* "     sent      VALUE", wrapped under itself, cut past the most shown. */
static void value_line(buf *out, const char *label, const char *value,
                       int width)
{
    char head[32];
    snprintf(head, sizeof head, "     %-9s ", label);
    size_t len = strlen(value);
    buf v = BUF_INIT;
    buf_puts(&v, shown_tx_max(value, EPISODE_VALUE_MAX));
    if (len > EPISODE_VALUE_MAX)
        buf_printf(&v, " (%zu bytes; --json shows all)", len);
    if (v.failed)
        out->failed = 1;
    else
        shown_wrap(out, head, v.data, width, 15, INT_MAX);
    buf_free(&v);
}

void text_episode(buf *out, const episode_view *v, int width)
{
    char r1[24], r2[24], r3[24];
    say(out, width, 6, "episode: %s (run %s)", shown_tx(v->episode),
        shown_tx(v->run));
    buf headline = BUF_INIT;
    episode_headline(&headline, v);
    if (headline.failed)
        out->failed = 1;
    else
        shown_wrap(out, "  ", shown_tx(headline.data), width, 2, INT_MAX);
    buf_free(&headline);
    buf_putc(out, '\n');
    if (v->observed) {
        say(out, width, 13, "  task       %s (observed: the harness's name)",
            v->task ? shown_tx(v->task) : "-");
    } else {
        say(out, width, 13, "  task       %s (seed %ld, arm %s, depth %s)",
            v->task ? shown_tx(v->task) : "-", v->seed,
            v->arm ? shown_tx(v->arm) : "-",
            shown_count(r1, sizeof r1, v->depth >= 0, v->depth));
        if (v->request)
            shown_wrap(out, "  request    ", shown_tx(v->request), width, 13,
                       INT_MAX);
        say(out, width, 13, "  verdict    %s, %s; side effects %s, "
                            "duplicate writes %s, errors %s",
            v->reached == 1 ? "reached" : "not reached",
            v->pass == 1 ? "passed" : "not passed",
            shown_count(r1, sizeof r1, v->side_effects >= 0, v->side_effects),
            shown_count(r2, sizeof r2, v->duplicate_writes >= 0, v->duplicate_writes),
            shown_count(r3, sizeof r3, v->errors >= 0, v->errors));
    }
    buf harness = BUF_INIT;
    buf_printf(&harness, "success %s",
               v->success < 0 ? "-" : v->success ? "true" : "false");
    if (v->has_reward)
        buf_printf(&harness, ", reward %g", v->reward);
    if (v->status)
        buf_printf(&harness, ", status %s", shown_tx(v->status));
    if (v->unfinished)
        buf_puts(&harness, "; unfinished: no end line");
    if (harness.failed)
        out->failed = 1;
    else
        say(out, width, 13, "  harness    %s", harness.data);
    buf_free(&harness);
    if (v->final)
        value_line(out, "final", v->final, width);
    say(out, width, 13, "  source     %s:%ld", shown_tx(v->source_file),
        v->source_line);

    buf_putc(out, '\n');
    say(out, width, 2, "calls: %zu", v->ncalls);
    for (size_t i = 0; i < v->ncalls; i++) {
        const ep_call *c = &v->calls[i];
        buf head = BUF_INIT;
        buf_printf(&head, "%3ld  %s", c->seq, shown_tx(c->tool));
        if (c->step >= 0)
            buf_printf(&head, "  step %ld", c->step);
        if (!c->kind)
            buf_puts(&head, "  (no such tool)");
        if (c->effect)
            buf_printf(&head, "  %s", shown_tx(c->effect));
        if (c->error)
            buf_printf(&head, "  error %s", shown_tx(c->error));
        if (c->dial)
            buf_printf(&head, "  dial %s", shown_tx(c->dial));
        if (c->arguments_valid == 0)
            buf_puts(&head, "  invalid arguments");
        if (c->duration >= 0)
            buf_printf(&head, "  %.3f s", c->duration);
        if (head.failed)
            out->failed = 1;
        else
            shown_wrap(out, "", head.data, width, 5, INT_MAX);
        buf_free(&head);
        if (c->arguments)
            value_line(out, "sent", c->arguments, width);
        else if (c->arguments_raw)
            value_line(out, "sent", c->arguments_raw, width);
        if (c->rule)
            value_line(out, "rule", c->rule, width);
        if (c->answer)
            value_line(out, "answer", c->answer, width);
        if (c->logged)
            value_line(out, c->answer ? "logged" : "answer", c->logged,
                       width);
        if (c->answer && c->diverged == 1)
            say(out, width, 15, "               (the logged answer differs "
                                "from the simulator's)");
    }
    if (v->nevents) {
        static const int gaps[] = {2, 2, 2, 2};
        table t;
        table_init(&t, "rlrrl", gaps, NULL, 1u << 1 | 1u << 4, 0);
        table_row(&t, "event", "dial", "step", "call", "outcome");
        for (size_t i = 0; i < v->nevents; i++) {
            const ep_event *o = &v->events[i];
            char ev[24], st[24], sq[24];
            snprintf(ev, sizeof ev, "%ld", o->event);
            snprintf(st, sizeof st, "%ld", o->step);
            table_row(&t, ev, shown_tx(o->dial), st,
                      shown_count(sq, sizeof sq, o->seq >= 0, o->seq), shown_tx(o->outcome));
        }
        buf_putc(out, '\n');
        say(out, width, 2, "dial events");
        table_print(out, &t, 2, width);
    }
}

/* -------------------------------------------------------------- list */

void text_list(buf *out, const card_listing *l, int width)
{
    static const int gaps[] = {2, 1, 1, 1, 2};
    static const int minw[] = {3, 5, 5, 5, 7, 0};
    table t;
    /* models (and a time that is not one) are cut before run names,
     * which people type */
    table_init(&t, "llrrrl", gaps, minw, 2u | 32u, 0);
    t.fit_last = 1u;
    table_row(&t, "run", "model", "eps", "pass", "success", "replayed");
    for (size_t i = 0; i < l->n; i++) {
        const card_listed *r = &l->runs[i];
        char eps[24], pass[24], success[24];
        snprintf(eps, sizeof eps, "%ld", r->episodes);
        table_row(&t, shown_tx(r->run),
                  r->model[0] ? shown_tx(r->model) : "-", eps,
                  shown_count(pass, sizeof pass, r->pass >= 0, r->pass),
                  shown_count(success, sizeof success, r->success >= 0,
                              r->success),
                  shown_tx(r->replayed_at));
    }
    table_print(out, &t, 0, width);
    if (l->no_run)
        say(out, width, 2, "%ld problem%s in the database name%s no run: %s",
            l->no_run, l->no_run == 1 ? "" : "s", l->no_run == 1 ? "s" : "",
            card_no_run_query);
}
