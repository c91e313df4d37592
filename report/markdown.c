/* markdown: see markdown.h. */
#include "markdown.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "shown.h"
#include "stats.h"

/* The harness's verdicts as result rows: "| harness success (observed) |". */
static void md_harness(buf *out, const card_harness *h, const card_rate *r,
                       const char *kind)
{
    if (h->judged) {
        card_rate plain = card_rate_plain(h->successes, h->judged);
        if (!r)
            r = &plain;
        buf_printf(out, "| harness success%s | %ld of %ld | %.1f%% | "
                        "%.1f-%.1f%%%s |\n",
                   kind, h->successes, h->judged,
                   card_pct(h->successes, h->judged), 100 * r->ci.lo,
                   100 * r->ci.hi, r->clustered ? ", clustered by task" : "");
    }
    if (h->rewarded && isfinite(h->mean_reward))
        buf_printf(out, "| harness reward%s | %ld episodes | %.3f mean | |\n",
                   kind, h->rewarded, h->mean_reward);
    else if (h->rewarded)
        buf_printf(out, "| harness reward%s | %ld episodes | - | the mean is "
                        "not a finite number |\n",
                   kind, h->rewarded);
}

/* The observed episodes' tools, unknown names, and pass^k tables. */
static void md_observed(buf *out, const card *c)
{
    static const char *const names[2] = {"pass^k", "success^k"};
    if (c->observed) {
        buf_printf(out, "\nObserved episodes: %ld, run against something "
                        "other than the simulator (no simulator figure); "
                        "%ld calls.\n",
                   c->observed, c->observed_calls);
        int guessed = 0;
        if (c->ntools)
            buf_puts(out, "\n| tool | kind | kind from | calls | errors | "
                          "invalid arguments | answers off schema | "
                          "commonest rule broken |\n"
                          "|---|---|---|---:|---:|---:|---:|---|\n");
        for (size_t i = 0; i < c->ntools; i++) {
            const card_tool *t = &c->tools[i];
            char inv[24], off[24];
            buf_printf(out, "| %s | %s%s | %s | %ld | %ld | %s | %s | %s |\n",
                       shown_md(t->tool), t->kind_ok || !t->kind ? "" : "?",
                       shown_md(t->kind ? t->kind : "-"),
                       t->kind_from ? t->kind_from : "-", t->calls, t->errors,
                       shown_count(inv, sizeof inv, t->args_checked > 0,
                                     t->invalid),
                       shown_count(off, sizeof off, t->answers_checked > 0,
                                     t->off_schema),
                       t->rule ? shown_md(t->rule) : "");
            guessed |= t->kind_from && strcmp(t->kind_from, "name") == 0;
        }
        if (guessed)
            buf_puts(out, "\nA kind from the name is a guess from the name's "
                          "first word (get, list, search... read): the file "
                          "does not say it.\n");
        if (c->no_schema)
            buf_puts(out, "\nNo schema: the run's tool file has no tool (the "
                          "log offers no definitions), so no call was "
                          "checked; `--tools FILE` adds the checks.\n");
        if (c->nunknown) {
            buf_puts(out, "\nTools the file does not have:");
            size_t shown = c->nunknown < 10 ? c->nunknown : 10;
            for (size_t i = 0; i < shown; i++)
                buf_printf(out, "%s %s \xc3\x97%ld", i ? "," : "",
                           shown_code(shown_md_code(c->unknown[i].tool)),
                           c->unknown[i].calls);
            if (c->nunknown > shown)
                buf_printf(out, ", and %zu more", c->nunknown - shown);
            buf_puts(out, ".\n");
        }
    }
    for (int k = 0; k < 2; k++) {
        if (c->passk_largest[k] < 2)
            continue;
        if (c->passk_largest[k] > 4)
            buf_printf(out, "\n%s for k = 1 to 4, the powers of two, and the "
                            "largest k:\n",
                       names[k]);
        buf_printf(out, "\n| k | %s | 95%% CI | tasks |\n"
                        "|---:|---:|---|---:|\n",
                   names[k]);
        for (size_t i = 0; i < c->npassk[k]; i++)
            buf_printf(out, "| %ld | %.1f%% | %.1f-%.1f%% | %ld |\n",
                       c->passk[k][i].k, 100 * c->passk[k][i].rate,
                       100 * c->passk[k][i].ci.lo, 100 * c->passk[k][i].ci.hi,
                       c->passk[k][i].tasks);
    }
    if (c->trial_tasks)
        buf_printf(out, "\nFlaky: %ld of %ld task%s of several trials passed "
                        "some and failed others (`card --flaky` lists "
                        "them).\n",
                   c->flaky_tasks, c->trial_tasks,
                   c->trial_tasks == 1 ? "" : "s");
    const card_usage *u = &c->usage;
    if (card_usage_any(u)) {
        buf_printf(out, "\nUsage, as logged (each figure over the episodes "
                        "that give it, of %ld):\n\n"
                        "| usage | value | over |\n|---|---:|---:|\n",
                   c->simulated + c->observed);
        if (u->tokened)
            buf_printf(out, "| input tokens | %.0f | %ld |\n"
                            "| output tokens | %.0f | %ld |\n",
                       u->input_tokens, u->tokened, u->output_tokens,
                       u->tokened);
        if (u->tokened)
            buf_printf(out, "| tokens an episode (median) | %.0f | %ld |\n"
                            "| tokens an episode (95th percentile) | %.0f | "
                            "%ld |\n",
                       u->median_tokens, u->tokened, u->p95_tokens,
                       u->tokened);
        if (u->costed)
            buf_printf(out, "| cost | $%.4f | %ld |\n", u->cost, u->costed);
        if (u->timed)
            buf_printf(out, "| seconds an episode (mean) | %.1f | %ld |\n",
                       u->mean_seconds, u->timed);
        if (u->timed)
            buf_printf(out, "| seconds an episode (median) | %.1f | %ld |\n"
                            "| seconds an episode (95th percentile) | %.1f | "
                            "%ld |\n",
                       u->median_seconds, u->timed, u->p95_seconds, u->timed);
        if (u->timed_calls)
            buf_printf(out, "| seconds a call (mean) | %.3f | %ld calls |\n",
                       u->mean_call_seconds, u->timed_calls);
    }
}

static void md_problems(buf *out, const card *c)
{
    if (!c->nfirst)
        return;
    buf_printf(out, "\nProblems (first %zu):\n\n", c->nfirst);
    for (size_t i = 0; i < c->nfirst; i++) {
        buf at = BUF_INIT, where = BUF_INIT;
        card_problem_where(&where, &c->first_problems[i]);
        buf_puts(&at, shown_tx(where.data && !where.failed ? where.data : ""));
        at.failed |= where.failed;
        buf_free(&where);
        buf_printf(out, "- %s: %s\n",
                   shown_code(at.failed || !at.data ? "" : at.data),
                   shown_md(c->first_problems[i].message));
        buf_free(&at);
    }
    if (c->problems > (long)c->nfirst) {
        buf q = BUF_INIT;
        buf_puts(&q, "SELECT * FROM problems WHERE run = '");
        for (const char *p = c->run; *p; p++) {
            if (*p == '\'')
                buf_putc(&q, '\'');
            buf_putc(&q, *p);
        }
        buf_putc(&q, '\'');
        buf_printf(out, "- ... and %ld more (%s)\n",
                   c->problems - (long)c->nfirst,
                   shown_code(shown_tx(q.failed || !q.data ? "" : q.data)));
        buf_free(&q);
    }
}

/* Why the run's episodes ended as they did. */
static void md_classes(buf *out, const card *c)
{
    if (c->nclasses == 0)
        return;
    buf_puts(out, "\nWhy episodes ended as they did (`episode_outcomes`):"
                  "\n\n| class | episodes | what happened | arms |\n"
                  "|---|---:|---|---|\n");
    for (size_t i = 0; i < c->nclasses; i++) {
        const card_class *k = &c->classes[i];
        buf arms = BUF_INIT;
        card_class_arms_text(&arms, k, c->narms);
        if (arms.failed)
            out->failed = 1;
        buf_printf(out, "| %s | %ld | %s | %s |\n", k->name, k->episodes,
                   strcmp(k->name, "passed") ? card_class_meaning(k->name)
                                             : "",
                   arms.len && !arms.failed ? shown_md(arms.data) : "");
        buf_free(&arms);
    }
}

void md_card(buf *out, const card *c)
{
    long n = c->simulated;
    interval p = c->rate[0].ci;
    interval r = wilson((unsigned long)c->reached, (unsigned long)n);
    buf_printf(out, "## Card: %s\n\n", shown_md(c->run));
    buf headline = BUF_INIT;
    card_headline(&headline, c);
    if (headline.failed)
        out->failed = 1;
    else
        buf_printf(out, "**%s**\n\n", shown_md(headline.data));
    buf_free(&headline);
    buf_puts(out, "| made with | |\n|---|---|\n");
    buf_printf(out, "| model | %s |\n",
               c->model[0] ? shown_md(c->model) : "-");
    buf_printf(out, "| tool file | %s",
               shown_code(shown_md_code(c->tools_path)));
    if (c->tools_found)
        buf_printf(out, " (found at %s)",
                   shown_code(shown_md_code(c->tools_found)));
    buf_puts(out, " |\n");
    buf_printf(out, "| file hash | %s |\n",
               shown_code(shown_md_code(c->file_sha256)));
    buf_printf(out, "| contract hash | %s |\n",
               shown_code(shown_md_code(c->contract_sha256)));
    buf_printf(out, "| generator | %d, fingerprint %s |\n",
               c->generator_version,
               shown_code(shown_md_code(c->fingerprint)));
    buf_printf(out, "| replayed | %s |\n\n", shown_md(c->replayed_at));
    buf_puts(out, "| result | count | rate | 95% CI |\n|---|---:|---:|---|\n");
    buf_printf(out, "| episodes | %ld | | |\n", c->episodes);
    if (c->observed)
        buf_printf(out, "| replayed against tasks | %ld | | |\n"
                        "| observed | %ld | | |\n",
                   n, c->observed);
    int sim = n || !c->observed; /* simulator figures apply */
    if (sim && n == 0) {
        buf_puts(out, "| pass | - | - | no episodes |\n");
        buf_puts(out, "| reached | - | - | no episodes |\n");
    } else if (sim) {
        buf_printf(out, "| pass | %ld | %.1f%% | %.1f-%.1f%%%s |\n", c->pass,
                   card_pct(c->pass, n), 100 * p.lo, 100 * p.hi,
                   c->rate[0].clustered ? ", clustered by task" : "");
        buf_printf(out, "| reached | %ld | %.1f%% | %.1f-%.1f%% |\n",
                   c->reached, card_pct(c->reached, n), 100 * r.lo,
                   100 * r.hi);
    }
    md_harness(out, &c->harness[0], NULL, c->observed ? " (replayed)" : "");
    md_harness(out, &c->harness[1], &c->rate[1], " (observed)");
    if (sim && n) {
        buf_printf(out, "| side effects | %ld | | |\n", c->side_effects);
        buf_printf(out, "| duplicate writes | %ld | | |\n", c->duplicates);
        buf_printf(out, "| errors | %ld | | |\n", c->errors);
        const card_efficiency *f = &c->efficiency;
        buf_printf(out, "| calls | %ld | | |\n| the tasks' steps | %ld | | "
                        "|\n| repeated reads | %ld | | |\n| retries after "
                        "an error | %ld | | |\n| planned errors (faults, "
                        "timeouts, rate limits) | %ld | | |\n",
                   f->calls, f->steps, f->repeated_reads, f->retries,
                   f->planned_errors);
        for (int i = 0; i < CARD_CODES; i++)
            if (c->by_code[i])
                buf_printf(out, "| errors: %s | %ld | | |\n", card_codes[i],
                           c->by_code[i]);
    }
    buf_printf(out, "| unfinished | %ld | | |\n", c->unfinished);
    if (sim && n) {
        char d[24];
        buf_printf(out, "| diverged episodes | %s | |%s|\n",
                   shown_count(d, sizeof d, c->compared_episodes > 0,
                                 c->diverged_episodes),
                   c->compared_episodes ? " "
                                        : " no call had an answer logged ");
        buf_printf(out, "| episodes compared | %ld | | |\n",
                   c->compared_episodes);
        buf_printf(out, "| diverged calls | %s | | |\n",
                   shown_count(d, sizeof d, c->compared_calls > 0,
                                 c->diverged_calls));
        buf_printf(out, "| calls compared | %ld | | |\n", c->compared_calls);
        buf_printf(out, "| calls with no answer logged | %ld | | |\n",
                   c->unlogged_calls);
    }
    buf_printf(out, "| problems | %ld | | |\n", c->problems);
    if (c->problems_no_run)
        buf_printf(out, "| problems that name no run (in the database) | %ld "
                        "| | |\n",
                   c->problems_no_run);
    if (c->narms)
        buf_puts(out, "\n| arm | episodes | pass | 95% CI | reached | side "
                      "effects | duplicate writes |\n"
                      "|---|---:|---:|---|---:|---:|---:|\n");
    for (size_t i = 0; i < c->narms; i++) {
        const card_arm *a = &c->arms[i];
        interval w = wilson((unsigned long)a->pass, (unsigned long)a->episodes);
        buf_printf(out, "| %s | %ld | %ld | %.1f-%.1f%% | %ld | %ld | %ld |\n",
                   shown_md(a->arm), a->episodes, a->pass, 100 * w.lo,
                   100 * w.hi, a->reached, a->side_effects, a->duplicates);
    }
    if (c->ndials) {
        buf_puts(out, "\n| dial | events | fired | outcomes |\n"
                      "|---|---:|---:|---|\n");
        for (size_t i = 0; i < c->ndials; i++) {
            const card_dial *d = &c->dials[i];
            buf_printf(out, "| %s | %ld | %ld | ", d->dial, d->events,
                       d->fired);
            card_outcomes_text(out, d);
            buf_puts(out, " |\n");
        }
    }
    md_observed(out, c);
    md_classes(out, c);
    md_problems(out, c);
}

/* ----------------------------------------------------------- compare */

static void md_names(buf *out, const char *what, char **names, size_t n)
{
    if (n == 0)
        return;
    buf_printf(out, "- %s: ", what);
    for (size_t i = 0; i < n; i++)
        buf_printf(out, "%s%s", i ? ", " : "", shown_md(names[i]));
    buf_putc(out, '\n');
}

static void why_not(buf *out, const card_compared *x)
{
    buf why = BUF_INIT;
    card_refusal(&why, x->a, x->b, x->k);
    buf_printf(out, "%s\n", shown_md(why.failed || !why.data ? "" : why.data));
    buf_free(&why);
    if (x->k == COMPARE_CONTRACTS) {
        const contract_diff *d = &x->d;
        if (d->nadded + d->nremoved + d->nchanged == 0)
            buf_printf(out, "- %s\n", card_same_tools);
        md_names(out, "added", d->added, d->nadded);
        md_names(out, "removed", d->removed, d->nremoved);
        md_names(out, "changed", d->changed, d->nchanged);
    }
    const card *both[2] = {x->a, x->b};
    for (int i = 0; i < 2; i++) {
        const card *r = both[i];
        buf_printf(out, "- %s\n", shown_md(r->run));
        buf_printf(out, "    file hash   %s\n", shown_tx(r->file_sha256));
        if (x->k == COMPARE_CONTRACTS)
            buf_printf(out, "    contract    %s\n",
                       shown_tx(r->contract_sha256));
        if (x->k == COMPARE_GENERATORS)
            buf_printf(out, "    generator   %d\n    fingerprint %s\n",
                       r->generator_version, shown_tx(r->fingerprint));
    }
}

static void p_value(buf *b, double p)
{
    buf_printf(b, p >= 0.001 ? "%.3g" : "%.1e", p);
}

static void md_paired(buf *out, const card_compared *x)
{
    const card_paired *r = x->paired;
    int open = 0;
    for (size_t i = 0; i < x->npaired; i++) {
        const card_paired *p = &r[i];
        const card_pairs *q = &p->pairs;
        if (i == 0 || strcmp(p->measure, r[i - 1].measure) != 0) {
            int pass = strcmp(p->measure, "pass") == 0;
            buf_printf(out, "\n**Paired, by task** (%s): %ld tasks in both "
                            "runs, %ld only in %s, %ld only in %s. ",
                       pass ? "pass" : "the harness's success", p->shared,
                       p->only_a, shown_md(x->a->run), p->only_b,
                       shown_md(x->b->run));
            open = p->shared > 0;
            if (!open)
                buf_puts(out, "No task is in both runs: nothing to pair, and "
                              "no paired figure.\n");
            else if (p->one_trial)
                buf_puts(out, "One trial of each task in each run: A - B "
                              "with Tango's score interval; the pairs by "
                              "outcome, and McNemar's exact p.\n\n");
            else
                buf_puts(out, "Several trials of a task: A - B is the mean "
                              "of per-task differences, its interval "
                              "clustered by task; the pairs by outcome and "
                              "McNemar's exact p are of each task's first "
                              "trial.\n\n");
            if (open)
                buf_puts(out, "| arm | tasks | A - B | 95% CI | A only | "
                              "B only | both | neither | McNemar p |\n"
                              "|---|---:|---:|---|---:|---:|---:|---:|---:|\n");
        }
        if (!open)
            continue;
        if (p->shared == 0) {
            buf_printf(out, "| %s | 0 | - | - | | | | | |\n",
                       shown_md(p->arm));
            continue;
        }
        buf_printf(out, "| %s | %ld | %+.1f | %+.1f to %+.1f | %ld | %ld | "
                        "%ld | %ld | ",
                   shown_md(p->arm), p->shared, 100 * p->diff,
                   100 * p->ci.lo, 100 * p->ci.hi, q->a_only, q->b_only,
                   q->both, q->neither);
        if (q->n)
            p_value(out, q->p);
        else
            buf_putc(out, '-');
        buf_puts(out, " |\n");
    }
    for (size_t i = 0; i < x->npaired; i++)
        if (r[i].shared) {
            buf_puts(out, "\nIn percentage points, A - B.\n");
            break;
        }
}

/* The tasks whose outcome differs, the largest change first. */
static void md_flips(buf *out, const card_compared *x)
{
    const card_flips *f = &x->flips;
    if (f->n == 0) {
        buf_puts(out, f->shared ? "\nFlipped tasks: none (every task both "
                                  "runs have passed as often in each).\n"
                                : "\nFlipped tasks: none (no task is in both "
                                  "runs).\n");
        return;
    }
    buf_printf(out, "\nFlipped tasks: %zu (passed more often in A: %ld; in "
                    "B: %ld). Passes of trials, and the class of the first "
                    "trial that failed (else the first):\n\n"
                    "| task | arm | A | B |\n|---|---|---|---|\n",
               f->n, f->better_a, f->better_b);
    size_t shown = f->n < x->flips_shown ? f->n : x->flips_shown;
    for (size_t i = 0; i < shown; i++) {
        const card_flip *p = &f->v[i];
        char sa[CARD_FLIP_SIDE], sb[CARD_FLIP_SIDE];
        buf_printf(out, "| %s ", shown_md(p->task));
        buf_printf(out, "| %s ", p->arm ? shown_md(p->arm) : "-");
        buf_printf(out, "| %s | %s |\n", card_flip_side(sa, p, 0),
                   card_flip_side(sb, p, 1));
    }
    if (shown < f->n)
        buf_printf(out, "\nAnd %zu more: `--tasks all` lists every one.\n",
                   f->n - shown);
}

/* Tokens and seconds by task, where the logs say them. */
static void md_usage_pairs(buf *out, const card_compared *x)
{
    const usage_pairs *u = &x->usage;
    if (!usage_pairs_any(u))
        return;
    buf_puts(out, "\nUsage by task, as logged: each task's mean over its "
                  "episodes that give the figure; A - B is the mean of "
                  "per-task differences, its 95% interval clustered by "
                  "task.\n\n| measure | tasks | A | B | A - B | 95% CI |\n"
                  "|---|---:|---:|---:|---:|---|\n");
    for (int m = 0; m < USAGE_MEASURES; m++) {
        const usage_paired *p = &u->m[m];
        char va[USAGE_VALUE], vb[USAGE_VALUE], d[USAGE_VALUE],
            lo[USAGE_VALUE], hi[USAGE_VALUE];
        if (!p->tasks)
            continue;
        buf_printf(out, "| %s | %ld | %s | %s | %s | ", usage_measures[m],
                   p->tasks, usage_value(va, m, p->mean[0], 0),
                   usage_value(vb, m, p->mean[1], 0),
                   usage_value(d, m, p->diff, 1));
        if (p->has_ci)
            buf_printf(out, "%s to %s |\n", usage_value(lo, m, p->ci.lo, 1),
                       usage_value(hi, m, p->ci.hi, 1));
        else
            buf_puts(out, "- (one task) |\n");
    }
    for (int m = 0; m < USAGE_MEASURES; m++) {
        const usage_paired *p = &u->m[m];
        size_t all = (size_t)p->tasks;
        size_t shown = all < x->usage_shown ? all : x->usage_shown;
        if (!all)
            continue;
        buf_printf(out, "\n%s, the task%s that changed most:\n\n"
                        "| task | arm | A | B | A - B |\n"
                        "|---|---|---:|---:|---:|\n",
                   usage_measures[m], shown == 1 ? "" : "s");
        for (size_t i = 0; i < shown; i++) {
            const usage_task *k = &p->v[i];
            char va[USAGE_VALUE], vb[USAGE_VALUE], d[USAGE_VALUE];
            buf_printf(out, "| %s ", shown_md(k->task));
            buf_printf(out, "| %s ", k->arm ? shown_md(k->arm) : "-");
            buf_printf(out, "| %s | %s | %s |\n",
                       usage_value(va, m, k->mean[0], 0),
                       usage_value(vb, m, k->mean[1], 0),
                       usage_value(d, m, k->mean[0] - k->mean[1], 1));
        }
        if (shown < all)
            buf_printf(out, "\nAnd %zu more: `--tasks all` lists every "
                            "one.\n",
                       all - shown);
    }
}

void md_compare(buf *out, const card_compared *x)
{
    buf_printf(out, "## Compare: %s (A) and %s (B)\n\n", shown_md(x->a->run),
               shown_md(x->b->run));
    if (x->k != COMPARE_SAME) { /* the refusal is the headline */
        why_not(out, x);
        return;
    }
    buf verdict = BUF_INIT;
    card_verdict_text(&verdict, x);
    if (verdict.failed)
        out->failed = 1;
    else
        buf_printf(out, "**%s**\n\n", shown_md(verdict.data));
    buf_free(&verdict);
    buf pairing = BUF_INIT;
    card_pairing_text(&pairing, x, 1);
    if (pairing.failed)
        out->failed = 1;
    else
        buf_printf(out, "%s\n", shown_md(pairing.data));
    buf_free(&pairing);
    if (x->contract == CONTRACT_ACROSS) {
        buf_putc(out, '\n');
        md_names(out, "added", x->d.added, x->d.nadded);
        md_names(out, "removed", x->d.removed, x->d.nremoved);
        md_names(out, "changed", x->d.changed, x->d.nchanged);
    }
    if (x->nrows)
        buf_puts(out, "\nUnpaired, per arm (each run's pass rate):\n\n"
                      "| arm | A pass | B pass | A - B | 95% CI | excludes 0 "
                      "|\n|---|---:|---:|---:|---|---|\n");
    int lone = 0;
    for (size_t i = 0; i < x->nrows; i++) {
        const card_row *r = &x->rows[i];
        char sa[64], sb[64];
        if (r->na)
            snprintf(sa, sizeof sa, "%ld/%ld (%.1f%%)", r->xa, r->na,
                     card_pct(r->xa, r->na));
        else
            snprintf(sa, sizeof sa, "0/0");
        if (r->nb)
            snprintf(sb, sizeof sb, "%ld/%ld (%.1f%%)", r->xb, r->nb,
                     card_pct(r->xb, r->nb));
        else
            snprintf(sb, sizeof sb, "0/0");
        if (!r->measured) {
            lone = 1;
            buf_printf(out, "| %s | %s | %s | - | only in %s | - |\n",
                       shown_md(r->arm), sa, sb, r->na ? "A" : "B");
            continue;
        }
        buf_printf(out, "| %s | %s | %s | %+.1f | %+.1f to %+.1f | %s |\n",
                   shown_md(r->arm), sa, sb, 100 * r->diff, 100 * r->ci.lo,
                   100 * r->ci.hi, r->excludes_zero ? "yes" : "no");
    }
    if (x->nrows)
        buf_puts(out, "\nDifferences and intervals are in percentage points "
                      "(Newcombe's hybrid score interval).\n");
    if (lone)
        buf_puts(out, "An arm only one run has episodes of has no "
                      "difference to show.\n");
    md_paired(out, x);
    md_flips(out, x);
    md_usage_pairs(out, x);
}

/* -------------------------------------------------------------- list */

void md_list(buf *out, const card_listing *l)
{
    buf_puts(out, "| run | model | episodes | pass | success | replayed |\n"
                  "|---|---|---:|---:|---:|---|\n");
    for (size_t i = 0; i < l->n; i++) {
        const card_listed *r = &l->runs[i];
        char pass[24], success[24];
        buf_printf(out, "| %s | %s | %ld | %s | %s | %s |\n", shown_md(r->run),
                   r->model[0] ? shown_md(r->model) : "-", r->episodes,
                   shown_count(pass, sizeof pass, r->pass >= 0, r->pass),
                   shown_count(success, sizeof success, r->success >= 0,
                               r->success),
                   shown_md(r->replayed_at));
    }
    if (l->no_run)
        buf_printf(out, "\n%ld problem%s in the database name%s no run: %s\n",
                   l->no_run, l->no_run == 1 ? "" : "s",
                   l->no_run == 1 ? "s" : "", card_no_run_query);
}
