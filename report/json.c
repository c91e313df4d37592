/* json: see json.h. */
#include "json.h"

#include <math.h>
#include <string.h>

#include "shown.h"
#include "stats.h"

/* A figure measured over n of something: null when n is 0. */
static void json_figure(buf *b, const char *fmt, long n, double x)
{
    if (n)
        shown_json_number(b, fmt, x);
    else
        buf_puts(b, "null");
}

static void key(buf *b, int comma, const char *k)
{
    buf_printf(b, "%s\"%s\":", comma ? "," : "", k);
}

/* A count, or null when it was not measured. */
static void count(buf *b, int measured, long n)
{
    if (measured)
        buf_printf(b, "%ld", n);
    else
        buf_puts(b, "null");
}

/* {"count", "rate", "ci95"} of x in n; count null when not measured,
 * rate and interval null when n is 0 (a rate of nothing is no figure);
 * with r (the run's rate), also "ci_method" ("wilson", or
 * "clustered_by_task") and the "tasks" it is over. */
static void rate_of(buf *b, const char *k, int measured, long x, long n,
                    const card_rate *r)
{
    key(b, 0, k);
    if (!measured || n == 0) {
        buf_puts(b, "{\"count\":");
        count(b, measured, x);
        buf_puts(b, ",\"rate\":null,\"ci95\":null");
        if (r)
            buf_puts(b, ",\"ci_method\":null,\"tasks\":null");
        buf_putc(b, '}');
        return;
    }
    interval w = r ? r->ci : wilson((unsigned long)x, (unsigned long)n);
    buf_printf(b, "{\"count\":%ld,\"rate\":%.6f,\"ci95\":[%.6f,%.6f]", x,
               (double)x / (double)n, w.lo, w.hi);
    if (r)
        buf_printf(b, ",\"ci_method\":\"%s\",\"tasks\":%ld",
                   r->clustered ? "clustered_by_task" : "wilson", r->tasks);
    buf_putc(b, '}');
}

static void rate(buf *b, const char *k, int measured, long x, long n)
{
    rate_of(b, k, measured, x, n, NULL);
}

static void string_or_null(buf *b, const char *s)
{
    if (s)
        shown_json(b, s);
    else
        buf_puts(b, "null");
}

void json_card(buf *b, const card *c)
{
    int sim = c->simulated > 0; /* the simulator's figures were measured */
    buf_puts(b, "{\"run\":");
    shown_json(b, c->run);
    buf headline = BUF_INIT;
    card_headline(&headline, c);
    key(b, 1, "headline");
    shown_json(b, headline.failed ? "" : headline.data);
    b->failed |= headline.failed;
    buf_free(&headline);
    key(b, 1, "model");
    string_or_null(b, c->model[0] ? c->model : NULL);
    key(b, 1, "tools_path");
    shown_json(b, c->tools_path);
    key(b, 1, "tools_found");
    string_or_null(b, c->tools_found);
    key(b, 1, "file_sha256");
    shown_json(b, c->file_sha256);
    key(b, 1, "contract_sha256");
    shown_json(b, c->contract_sha256);
    buf_printf(b, ",\"generator\":{\"version\":%d,\"fingerprint\":",
               c->generator_version);
    shown_json(b, c->fingerprint);
    buf_putc(b, '}');
    key(b, 1, "replayed_at");
    shown_json(b, c->replayed_at);
    buf_printf(b, ",\"episodes\":%ld,\"simulated\":%ld,\"observed\":%ld,",
               c->episodes, c->simulated, c->observed);
    rate_of(b, "pass", sim, c->pass, c->simulated, &c->rate[0]);
    buf_putc(b, ',');
    rate(b, "reached", sim, c->reached, c->simulated);
    key(b, 1, "side_effects");
    count(b, sim, c->side_effects);
    key(b, 1, "duplicate_writes");
    count(b, sim, c->duplicates);
    buf_puts(b, ",\"errors\":{\"total\":");
    count(b, sim, c->errors);
    buf_puts(b, ",\"by_code\":{");
    for (int i = 0; i < CARD_CODES; i++) {
        key(b, i, card_codes[i]);
        count(b, sim, c->by_code[i]);
    }
    buf_printf(b, "}},\"unfinished\":%ld,\"diverged\":{\"episodes\":",
               c->unfinished);
    count(b, sim && c->compared_episodes > 0, c->diverged_episodes);
    buf_printf(b, ",\"episodes_compared\":%ld,\"calls\":",
               c->compared_episodes);
    count(b, sim && c->compared_calls > 0, c->diverged_calls);
    buf_printf(b, ",\"compared\":%ld,\"not_logged\":%ld", c->compared_calls,
               c->unlogged_calls);
    buf_printf(b, "},\"problems\":{\"count\":%ld,\"no_run\":%ld,\"first\":[",
               c->problems, c->problems_no_run);
    for (size_t i = 0; i < c->nfirst; i++) {
        buf_puts(b, i ? ",{\"file\":" : "{\"file\":");
        shown_json(b, c->first_problems[i].file);
        buf_printf(b, ",\"line\":%ld,\"message\":", c->first_problems[i].line);
        shown_json(b, c->first_problems[i].message);
        buf_puts(b, ",\"place\":");
        if (c->first_problems[i].place)
            shown_json(b, c->first_problems[i].place);
        else
            buf_puts(b, "null");
        buf_putc(b, '}');
    }
    buf_puts(b, "]},\"arms\":[");
    for (size_t i = 0; i < c->narms; i++) {
        const card_arm *a = &c->arms[i];
        buf_puts(b, i ? ",{\"arm\":" : "{\"arm\":");
        shown_json(b, a->arm);
        buf_printf(b, ",\"episodes\":%ld,", a->episodes);
        rate(b, "pass", 1, a->pass, a->episodes);
        buf_putc(b, ',');
        rate(b, "reached", 1, a->reached, a->episodes);
        buf_printf(b, ",\"side_effects\":%ld,\"duplicate_writes\":%ld,"
                      "\"errors\":%ld}",
                   a->side_effects, a->duplicates, a->errors);
    }
    buf_puts(b, "],\"dials\":[");
    for (size_t i = 0; i < c->ndials; i++) {
        const card_dial *d = &c->dials[i];
        buf_printf(b, "%s{\"dial\":\"%s\",\"events\":%ld,\"fired\":%ld,"
                      "\"outcomes\":{",
                   i ? "," : "", d->dial, d->events, d->fired);
        int n = 0;
        for (int o = 0; o < 10; o++)
            if (d->outcomes[o])
                buf_printf(b, "%s\"%s\":%ld", n++ ? "," : "", card_outcomes[o],
                           d->outcomes[o]);
        buf_puts(b, "}}");
    }
    buf_puts(b, "],\"harness\":{");
    for (int k = 0; k < 2; k++) {
        const card_harness *h = &c->harness[k];
        buf_printf(b, "%s\"%s\":{\"judged\":%ld,", k ? "," : "",
                   k ? "observed" : "simulated", h->judged);
        rate_of(b, "success", 1, h->successes, h->judged,
                k ? &c->rate[1] : NULL);
        buf_printf(b, ",\"rewarded\":%ld,\"mean_reward\":", h->rewarded);
        if (h->rewarded)
            shown_json_number(b, "%.6f", h->mean_reward);
        else
            buf_puts(b, "null");
        if (h->rewarded && !isfinite(h->mean_reward))
            buf_puts(b, ",\"note\":\"the mean of the rewards is not a finite "
                        "number\"");
        buf_printf(b, ",\"unfinished\":%ld}", h->unfinished);
    }
    const card_usage *u = &c->usage;
    buf_printf(b, "},\"usage\":{\"tokened\":%ld,\"input_tokens\":",
               u->tokened);
    json_figure(b, "%.0f", u->tokened, u->input_tokens);
    buf_puts(b, ",\"output_tokens\":");
    json_figure(b, "%.0f", u->tokened, u->output_tokens);
    buf_printf(b, ",\"costed\":%ld,\"cost\":", u->costed);
    json_figure(b, "%.6f", u->costed, u->cost);
    buf_printf(b, ",\"timed\":%ld,\"mean_seconds\":", u->timed);
    json_figure(b, "%.6f", u->timed, u->mean_seconds);
    buf_printf(b, ",\"timed_calls\":%ld,\"mean_call_seconds\":",
               u->timed_calls);
    json_figure(b, "%.6f", u->timed_calls, u->mean_call_seconds);
    buf_puts(b, ",\"median_seconds\":");
    json_figure(b, "%.6f", u->timed, u->median_seconds);
    buf_puts(b, ",\"p95_seconds\":");
    json_figure(b, "%.6f", u->timed, u->p95_seconds);
    buf_puts(b, ",\"median_tokens\":");
    json_figure(b, "%.0f", u->tokened, u->median_tokens);
    buf_puts(b, ",\"p95_tokens\":");
    json_figure(b, "%.0f", u->tokened, u->p95_tokens);
    const card_efficiency *f = &c->efficiency;
    buf_printf(b, "},\"efficiency\":{\"calls\":%ld,\"steps\":%ld,"
                  "\"repeated_reads\":%ld,\"retries\":%ld,"
                  "\"planned_errors\":%ld",
               f->calls, f->steps, f->repeated_reads, f->retries,
               f->planned_errors);
    buf_printf(b, "},\"observed_calls\":%ld,\"observed_errors\":%ld,"
                  "\"no_schema\":%s,\"tools\":[",
               c->observed_calls, c->observed_errors,
               c->no_schema ? "true" : "false");
    for (int u = 0; u < 2; u++) {
        const card_tool *v = u ? c->unknown : c->tools;
        size_t n = u ? c->nunknown : c->ntools;
        if (u)
            buf_puts(b, "],\"unknown_tools\":[");
        for (size_t i = 0; i < n; i++) {
            buf_puts(b, i ? ",{\"tool\":" : "{\"tool\":");
            shown_json(b, v[i].tool);
            buf_printf(b, ",\"calls\":%ld", v[i].calls);
            if (u) {
                buf_putc(b, '}');
                continue;
            }
            buf_printf(b, ",\"errors\":%ld", v[i].errors);
            key(b, 1, "kind");
            string_or_null(b, v[i].kind);
            key(b, 1, "kind_from");
            string_or_null(b, v[i].kind_from);
            buf_printf(b, ",\"arguments_checked\":%ld,\"invalid\":",
                       v[i].args_checked);
            count(b, v[i].args_checked > 0, v[i].invalid);
            buf_printf(b, ",\"answers_checked\":%ld,\"off_schema\":",
                       v[i].answers_checked);
            count(b, v[i].answers_checked > 0, v[i].off_schema);
            key(b, 1, "rule");
            string_or_null(b, v[i].rule);
            buf_printf(b, ",\"rule_calls\":%ld}", v[i].rule_calls);
        }
    }
    for (int k = 0; k < 2; k++) {
        buf_puts(b, k ? "],\"success_hat_k\":[" : "],\"pass_hat_k\":[");
        for (size_t i = 0; i < c->npassk[k]; i++)
            buf_printf(b, "%s{\"k\":%ld,\"rate\":%.6f,"
                          "\"ci95\":[%.6f,%.6f],\"tasks\":%ld}",
                       i ? "," : "", c->passk[k][i].k, c->passk[k][i].rate,
                       c->passk[k][i].ci.lo, c->passk[k][i].ci.hi,
                       c->passk[k][i].tasks);
    }
    buf_printf(b, "],\"flaky_tasks\":{\"count\":%ld,\"of\":%ld",
               c->flaky_tasks, c->trial_tasks);
    buf_puts(b, "},\"largest_k\":{\"pass\":");
    count(b, c->passk_largest[0] > 0, c->passk_largest[0]);
    buf_puts(b, ",\"success\":");
    count(b, c->passk_largest[1] > 0, c->passk_largest[1]);
    buf_puts(b, "},\"classes\":[");
    for (size_t i = 0; i < c->nclasses; i++) {
        const card_class *k = &c->classes[i];
        buf_printf(b, "%s{\"class\":\"%s\",\"episodes\":%ld,"
                      "\"example\":",
                   i ? "," : "", k->name, k->episodes);
        shown_json(b, k->example);
        buf_puts(b, ",\"arms\":[");
        for (size_t j = 0; j < k->narms; j++) {
            buf_puts(b, j ? ",{\"arm\":" : "{\"arm\":");
            shown_json(b, k->arms[j].arm);
            buf_printf(b, ",\"episodes\":%ld}", k->arms[j].episodes);
        }
        buf_puts(b, "]}");
    }
    buf_puts(b, "]}");
}

/* ----------------------------------------------------------- compare */

static const char *case_name(enum compare_case k)
{
    return k == COMPARE_SAME          ? "same_tasks"
           : k == COMPARE_REFORMATTED ? "reformatted"
           : k == COMPARE_CONTRACTS   ? "other_contracts"
                                      : "other_generators";
}

static void json_paired(buf *b, const card_paired *r, size_t n)
{
    buf_puts(b, ",\"paired\":[");
    for (size_t i = 0; i < n; i++) {
        const card_pairs *q = &r[i].pairs;
        buf_printf(b, "%s{\"measure\":\"%s\",\"arm\":", i ? "," : "",
                   r[i].measure);
        shown_json(b, r[i].arm);
        buf_printf(b, ",\"shared\":%ld,\"only_a\":%ld,\"only_b\":%ld,",
                   r[i].shared, r[i].only_a, r[i].only_b);
        if (r[i].shared == 0) { /* nothing to pair: no figure */
            buf_puts(b, "\"one_trial\":null,\"difference\":null,"
                        "\"ci95\":null,\"method\":null,\"pairs\":null}");
            continue;
        }
        buf_printf(b, "\"one_trial\":%s,\"difference\":%.6f,"
                      "\"ci95\":[%.6f,%.6f],\"method\":\"%s\","
                      "\"pairs\":{\"of\":\"%s\",\"n\":%ld,\"both\":%ld,"
                      "\"a_only\":%ld,\"b_only\":%ld,\"neither\":%ld,",
                   r[i].one_trial ? "true" : "false", r[i].diff, r[i].ci.lo,
                   r[i].ci.hi, r[i].one_trial ? "tango" : "clustered_mean",
                   r[i].one_trial ? "every trial" : "first trials", q->n,
                   q->both, q->a_only, q->b_only, q->neither);
        if (q->n)
            buf_printf(b, "\"difference\":%.6f,\"ci95\":[%.6f,%.6f],"
                          "\"mcnemar_p\":%.6g}}",
                       q->diff, q->ci.lo, q->ci.hi, q->p);
        else
            buf_puts(b, "\"difference\":null,\"ci95\":null,"
                        "\"mcnemar_p\":null}}");
    }
    buf_putc(b, ']');
}

/* "headline", and "verdict": the figures the headline says. */
static void json_verdict(buf *b, const card_compared *x)
{
    static const char *const bases[] = {"refused", "nothing", "paired",
                                        "unpaired"};
    const card_verdict *v = &x->verdict;
    buf sentence = BUF_INIT;
    card_verdict_text(&sentence, x);
    key(b, 1, "headline");
    shown_json(b, sentence.failed ? "" : sentence.data);
    b->failed |= sentence.failed;
    buf_free(&sentence);
    buf_printf(b, ",\"verdict\":{\"basis\":\"%s\"", bases[v->basis]);
    if (!v->measure) {
        buf_puts(b, ",\"measure\":null,\"ahead\":null,\"difference\":null,"
                    "\"ci95\":null,\"excludes_zero\":null,"
                    "\"too_little_data\":null,\"tasks\":null,"
                    "\"mcnemar_p\":null}");
        return;
    }
    buf_printf(b, ",\"measure\":\"%s\",\"ahead\":%s,\"difference\":%.6f,"
                  "\"ci95\":[%.6f,%.6f],\"excludes_zero\":%s,"
                  "\"too_little_data\":%s,\"tasks\":",
               v->measure,
               v->diff > 0 ? "\"a\"" : v->diff < 0 ? "\"b\"" : "null",
               v->diff, v->ci.lo, v->ci.hi, v->excludes_zero ? "true" : "false",
               v->thin ? "true" : "false");
    count(b, v->basis == VERDICT_PAIRED, v->tasks);
    buf_puts(b, ",\"mcnemar_p\":");
    if (v->basis == VERDICT_PAIRED && v->pairs)
        shown_json_number(b, "%.6g", v->p);
    else
        buf_puts(b, "null");
    buf_putc(b, '}');
}

/* Every flipped task, the largest change first. */
static void json_flips(buf *b, const card_flips *f)
{
    buf_printf(b, ",\"flipped\":{\"shared\":%ld,\"better_in_a\":%ld,"
                  "\"better_in_b\":%ld,\"tasks\":[",
               f->shared, f->better_a, f->better_b);
    for (size_t i = 0; i < f->n; i++) {
        const card_flip *p = &f->v[i];
        buf_puts(b, i ? ",{\"task\":" : "{\"task\":");
        shown_json(b, p->task);
        key(b, 1, "arm");
        string_or_null(b, p->arm);
        buf_printf(b, ",\"measure\":\"%s\"", p->arm ? "pass" : "success");
        for (int k = 0; k < 2; k++) {
            buf_printf(b, ",\"%s\":{\"trials\":%ld,\"passed\":%ld,"
                          "\"class\":",
                       k ? "b" : "a", p->n[k], p->c[k]);
            string_or_null(b, p->cls[k]);
            key(b, 1, "episode");
            shown_json(b, p->episode[k]);
            buf_putc(b, '}');
        }
        buf_putc(b, '}');
    }
    buf_puts(b, "]}");
}

/* Tokens and seconds by task, where the logs say them. */
static void json_usage_pairs(buf *b, const usage_pairs *u)
{
    buf_puts(b, ",\"usage_by_task\":{");
    for (int m = 0; m < USAGE_MEASURES; m++) {
        const usage_paired *p = &u->m[m];
        buf_printf(b, "%s\"%s\":{\"tasks\":%ld,\"a\":", m ? "," : "",
                   usage_measures[m], p->tasks);
        json_figure(b, "%.17g", p->tasks, p->mean[0]);
        buf_puts(b, ",\"b\":");
        json_figure(b, "%.17g", p->tasks, p->mean[1]);
        buf_puts(b, ",\"difference\":");
        json_figure(b, "%.17g", p->tasks, p->diff);
        buf_puts(b, ",\"ci95\":");
        if (p->has_ci) {
            buf_putc(b, '[');
            shown_json_number(b, "%.17g", p->ci.lo);
            buf_putc(b, ',');
            shown_json_number(b, "%.17g", p->ci.hi);
            buf_putc(b, ']');
        } else {
            buf_puts(b, "null");
        }
        buf_puts(b, ",\"per_task\":[");
        for (long i = 0; i < p->tasks; i++) {
            const usage_task *k = &p->v[i];
            buf_puts(b, i ? ",{\"task\":" : "{\"task\":");
            shown_json(b, k->task);
            key(b, 1, "arm");
            string_or_null(b, k->arm);
            for (int s = 0; s < 2; s++) {
                buf_printf(b, ",\"%s\":{\"episodes\":%ld,\"mean\":",
                           s ? "b" : "a", k->n[s]);
                shown_json_number(b, "%.17g", k->mean[s]);
                buf_putc(b, '}');
            }
            buf_puts(b, ",\"difference\":");
            shown_json_number(b, "%.17g", k->mean[0] - k->mean[1]);
            buf_putc(b, '}');
        }
        buf_puts(b, "]}");
    }
    buf_putc(b, '}');
}

void json_compare(buf *b, const card_compared *x)
{
    const card *a = x->a, *c = x->b;
    buf_puts(b, "{\"a\":");
    shown_json(b, a->run);
    buf_puts(b, ",\"b\":");
    shown_json(b, c->run);
    buf_printf(b, ",\"comparable\":%s,\"case\":\"%s\"",
               x->k == COMPARE_SAME ? "true" : "false", case_name(x->k));
    buf_printf(b, ",\"contract\":\"%s\"",
               x->k == COMPARE_CONTRACTS || x->contract == CONTRACT_ACROSS
                   ? "different"
               : x->contract == CONTRACT_UNCHECKED ? "not_checked"
                                                   : "same");
    if (x->k == COMPARE_SAME) {
        buf pairing = BUF_INIT;
        card_pairing_text(&pairing, x, 1);
        buf_printf(b, ",\"across_contracts\":%s,\"pairing\":",
                   x->contract == CONTRACT_ACROSS ? "true" : "false");
        if (pairing.failed)
            b->failed = 1;
        else
            shown_json(b, pairing.data);
        buf_free(&pairing);
    }
    json_verdict(b, x);
    buf_puts(b, ",\"file_sha256\":[");
    shown_json(b, a->file_sha256);
    buf_putc(b, ',');
    shown_json(b, c->file_sha256);
    buf_puts(b, "],\"contract_sha256\":[");
    shown_json(b, a->contract_sha256);
    buf_putc(b, ',');
    shown_json(b, c->contract_sha256);
    buf_printf(b, "],\"generator\":[{\"version\":%d,\"fingerprint\":",
               a->generator_version);
    shown_json(b, a->fingerprint);
    buf_printf(b, "},{\"version\":%d,\"fingerprint\":", c->generator_version);
    shown_json(b, c->fingerprint);
    buf_puts(b, "}]");
    if (x->k == COMPARE_CONTRACTS || x->contract == CONTRACT_ACROSS) {
        char **lists[] = {x->d.added, x->d.removed, x->d.changed};
        size_t ns[] = {x->d.nadded, x->d.nremoved, x->d.nchanged};
        const char *names[] = {"added", "removed", "changed"};
        buf_puts(b, ",\"tools\":{");
        for (int l = 0; l < 3; l++) {
            buf_printf(b, "%s\"%s\":[", l ? "," : "", names[l]);
            for (size_t i = 0; i < ns[l]; i++) {
                if (i)
                    buf_putc(b, ',');
                shown_json(b, lists[l][i]);
            }
            buf_putc(b, ']');
        }
        buf_putc(b, '}');
    }
    if (x->k == COMPARE_SAME) {
        buf_puts(b, ",\"arms\":[");
        for (size_t i = 0; i < x->nrows; i++) {
            const card_row *r = &x->rows[i];
            buf_printf(b, "%s{\"arm\":", i ? "," : "");
            shown_json(b, r->arm);
            buf_printf(b, ",\"a\":{\"pass\":%ld,\"episodes\":%ld},"
                          "\"b\":{\"pass\":%ld,\"episodes\":%ld},",
                       r->xa, r->na, r->xb, r->nb);
            if (r->measured)
                buf_printf(b, "\"difference\":%.6f,\"ci95\":[%.6f,%.6f],"
                              "\"excludes_zero\":%s}",
                           r->diff, r->ci.lo, r->ci.hi,
                           r->excludes_zero ? "true" : "false");
            else /* only one run has episodes of the arm */
                buf_printf(b, "\"difference\":null,\"ci95\":null,"
                              "\"excludes_zero\":null,\"only_in\":\"%s\"}",
                           r->na ? "a" : "b");
        }
        buf_putc(b, ']');
        json_paired(b, x->paired, x->npaired);
        json_flips(b, &x->flips);
        json_usage_pairs(b, &x->usage);
    }
    buf_putc(b, '}');
}

void json_gate(buf *b, const gate *g, const card_compared *x, int status)
{
    static const char *const outcomes[] = {"passed", "failed", "not_judged"};
    buf_puts(b, "{\"gate\":{\"outcome\":");
    if (!g) {
        buf_puts(b, "\"not_comparable\",\"sentence\":null,\"measure\":null,"
                    "\"max_drop\":null,\"missing\":null,\"tasks\":null,"
                    "\"missing_tasks\":null,\"new_only\":null,"
                    "\"method\":null,\"drop\":null,\"ci95\":null");
    } else {
        buf sentence = BUF_INIT;
        gate_text(&sentence, g, x->a->run, x->b->run);
        buf_printf(b, "\"%s\",\"sentence\":", outcomes[g->outcome]);
        shown_json(b, sentence.failed || !sentence.data ? "" : sentence.data);
        b->failed |= sentence.failed;
        buf_free(&sentence);
        buf_printf(b, ",\"measure\":\"%s\",\"max_drop\":%.6f,"
                      "\"missing\":\"%s\",\"tasks\":%ld,"
                      "\"missing_tasks\":%ld,\"new_only\":%ld,\"method\":",
                   g->measure, g->max_drop, g->missing_fail ? "fail" : "ignore",
                   g->tasks, g->missing, g->new_only);
        if (g->outcome == GATE_UNJUDGED)
            buf_puts(b, "null,\"drop\":null,\"ci95\":null");
        else
            buf_printf(b, "\"%s\",\"drop\":%.6f,\"ci95\":[%.6f,%.6f]",
                       g->one_trial ? "tango" : "clustered_mean", g->drop,
                       g->ci.lo, g->ci.hi);
    }
    buf_printf(b, ",\"exit\":%d},\"compare\":", status);
    json_compare(b, x);
    buf_putc(b, '}');
}

void json_trend(buf *b, const trend *t)
{
    buf_puts(b, "{\"runs\":[");
    for (size_t i = 0; i < t->n; i++) {
        const trend_night *n = &t->v[i];
        buf_puts(b, i ? ",{\"run\":" : "{\"run\":");
        shown_json(b, n->run);
        key(b, 1, "model");
        shown_json(b, n->model);
        key(b, 1, "replayed_at");
        shown_json(b, n->replayed_at);
        key(b, 1, "file_sha256");
        shown_json(b, n->file_sha256);
        key(b, 1, "contract_sha256");
        shown_json(b, n->contract_sha256);
        buf_printf(b, ",\"generator\":{\"version\":%d,\"fingerprint\":",
                   n->generator_version);
        shown_json(b, n->fingerprint);
        buf_puts(b, "},\"measure\":");
        string_or_null(b, n->measure);
        if (n->measure)
            buf_printf(b, ",\"count\":%ld,\"of\":%ld,\"rate\":%.6f,"
                          "\"ci95\":[%.6f,%.6f]",
                       n->x, n->n, (double)n->x / (double)n->n, n->ci.lo,
                       n->ci.hi);
        else
            buf_puts(b, ",\"count\":null,\"of\":null,\"rate\":null,"
                        "\"ci95\":null");
        static const struct {
            int bit;
            const char *name;
        } why[] = {{TREND_CONTRACT, "contract"},
                   {TREND_FILE, "file"},
                   {TREND_GENERATOR, "generator"},
                   {TREND_MEASURE, "measure"}};
        buf_puts(b, ",\"new_series\":[");
        const char *sep = "";
        for (int k = 0; k < 4; k++)
            if (n->breaks & why[k].bit) {
                buf_printf(b, "%s\"%s\"", sep, why[k].name);
                sep = ",";
            }
        buf_puts(b, "]}");
    }
    buf_puts(b, "],\"last_series\":");
    if (t->n) {
        buf_puts(b, "{\"from\":");
        shown_json(b, t->v[t->series].run);
        buf_puts(b, ",\"to\":");
        shown_json(b, t->v[t->n - 1].run);
        buf_puts(b, "}");
    } else {
        buf_puts(b, "null");
    }
    buf_puts(b, ",\"failing\":[");
    for (size_t i = 0; i < t->nf; i++) {
        const trend_failing *f = &t->f[i];
        buf_puts(b, i ? ",{\"task\":" : "{\"task\":");
        shown_json(b, f->task);
        key(b, 1, "arm");
        string_or_null(b, f->arm);
        key(b, 1, "since");
        shown_json(b, t->v[f->since].run);
        buf_printf(b, ",\"nights\":%ld,\"passed_before\":%s}", f->nights,
                   f->passed_before ? "true" : "false");
    }
    buf_puts(b, "]}");
}

void json_flaky(buf *b, const flaky *f)
{
    buf_puts(b, "{\"runs\":[");
    for (size_t i = 0; i < f->t.n; i++) {
        if (i)
            buf_putc(b, ',');
        shown_json(b, f->t.v[i].run);
    }
    buf_printf(b, "],\"tasks_with_trials\":%ld,\"within\":[",
               f->tasks_with_trials);
    for (size_t i = 0; i < f->nwithin; i++) {
        const flaky_trials *w = &f->within[i];
        buf_puts(b, i ? ",{\"run\":" : "{\"run\":");
        shown_json(b, f->t.v[w->night].run);
        key(b, 1, "task");
        shown_json(b, w->task);
        key(b, 1, "arm");
        string_or_null(b, w->arm);
        buf_printf(b, ",\"passed\":%ld,\"trials\":%ld}", w->passed,
                   w->trials);
    }
    buf_puts(b, "],\"across\":[");
    for (size_t i = 0; i < f->nacross; i++) {
        const flaky_nights *x = &f->across[i];
        buf_puts(b, i ? ",{\"task\":" : "{\"task\":");
        shown_json(b, x->task);
        key(b, 1, "arm");
        string_or_null(b, x->arm);
        key(b, 1, "from");
        shown_json(b, f->t.v[x->first].run);
        key(b, 1, "to");
        shown_json(b, f->t.v[x->last].run);
        buf_printf(b, ",\"nights\":%ld,\"passed\":%ld,\"changes\":%ld,"
                      "\"outcomes\":",
                   x->nights, x->passed, x->changes);
        shown_json(b, x->outcomes);
        buf_putc(b, '}');
    }
    buf_puts(b, "]}");
}

/* -------------------------------------------------------------- list */

/* ,"k":"v" (or null) */
static void kv(buf *b, const char *k, const char *v)
{
    key(b, 1, k);
    string_or_null(b, v);
}

static void bool_or_null(buf *b, int v)
{
    buf_puts(b, v < 0 ? "null" : v ? "true" : "false");
}

/* ,"k":n (or null when n < 0), and ,"k":true (false, or null) */
static void kl(buf *b, const char *k, long n)
{
    key(b, 1, k);
    count(b, n >= 0, n);
}

static void kb(buf *b, const char *k, int v)
{
    key(b, 1, k);
    bool_or_null(b, v);
}

void json_episode(buf *b, const episode_view *v)
{
    buf_puts(b, "{\"run\":");
    shown_json(b, v->run);
    key(b, 1, "episode");
    shown_json(b, v->episode);
    buf_printf(b, ",\"observed\":%s", v->observed ? "true" : "false");
    buf headline = BUF_INIT;
    episode_headline(&headline, v);
    b->failed |= headline.failed;
    key(b, 1, "headline");
    shown_json(b, headline.failed || !headline.data ? "" : headline.data);
    buf_free(&headline);
    kv(b, "class", v->cls);
    buf_puts(b, ",\"points_at\":{\"seq\":");
    count(b, v->cls_seq >= 0, v->cls_seq);
    kl(b, "step", v->cls_step);
    kv(b, "tool", v->cls_tool);
    kv(b, "error", v->cls_error);
    kv(b, "dial", v->cls_dial);
    buf_puts(b, "},\"task\":");
    string_or_null(b, v->task);
    buf_puts(b, ",\"seed\":");
    if (v->observed)
        buf_puts(b, "null");
    else
        buf_printf(b, "%ld", v->seed);
    kv(b, "arm", v->arm);
    kl(b, "depth", v->depth);
    kv(b, "request", v->request);
    kb(b, "reached", v->reached);
    kb(b, "pass", v->pass);
    kl(b, "side_effects", v->side_effects);
    kl(b, "duplicate_writes", v->duplicate_writes);
    kl(b, "errors", v->errors);
    buf_printf(b, ",\"unfinished\":%s,\"success\":",
               v->unfinished ? "true" : "false");
    bool_or_null(b, v->success);
    buf_puts(b, ",\"reward\":");
    if (v->has_reward)
        shown_json_number(b, "%.17g", v->reward);
    else
        buf_puts(b, "null");
    kv(b, "status", v->status);
    kv(b, "final", v->final);
    key(b, 1, "source_file");
    shown_json(b, v->source_file);
    buf_printf(b, ",\"source_line\":%ld,\"calls\":[", v->source_line);
    for (size_t i = 0; i < v->ncalls; i++) {
        const ep_call *c = &v->calls[i];
        buf_printf(b, "%s{\"seq\":%ld,\"step\":", i ? "," : "", c->seq);
        count(b, c->step >= 0, c->step);
        key(b, 1, "tool");
        shown_json(b, c->tool);
        kv(b, "kind", c->kind);
        /* JSON values as text: they may be past what a reader parses */
        kv(b, "arguments", c->arguments);
        kv(b, "arguments_raw", c->arguments_raw);
        kb(b, "arguments_valid", c->arguments_valid);
        kv(b, "rule", c->rule);
        kv(b, "answer", c->answer);
        kv(b, "logged_answer", c->logged);
        kb(b, "diverged", c->diverged);
        kv(b, "error", c->error);
        kv(b, "effect", c->effect);
        kv(b, "dial", c->dial);
        buf_puts(b, ",\"duration\":");
        if (c->duration >= 0)
            shown_json_number(b, "%.17g", c->duration);
        else
            buf_puts(b, "null");
        buf_putc(b, '}');
    }
    buf_puts(b, "],\"dial_events\":[");
    for (size_t i = 0; i < v->nevents; i++) {
        const ep_event *o = &v->events[i];
        buf_printf(b, "%s{\"event\":%ld,\"dial\":", i ? "," : "", o->event);
        shown_json(b, o->dial);
        buf_printf(b, ",\"step\":%ld,\"seq\":", o->step);
        count(b, o->seq >= 0, o->seq);
        key(b, 1, "outcome");
        shown_json(b, o->outcome);
        buf_putc(b, '}');
    }
    buf_puts(b, "]}");
}

void json_list(buf *b, const card_listing *l)
{
    buf_putc(b, '[');
    for (size_t i = 0; i < l->n; i++) {
        const card_listed *r = &l->runs[i];
        buf_puts(b, i ? ",{\"run\":" : "{\"run\":");
        shown_json(b, r->run);
        key(b, 1, "model");
        string_or_null(b, r->model[0] ? r->model : NULL);
        buf_printf(b, ",\"episodes\":%ld,\"pass\":", r->episodes);
        count(b, r->pass >= 0, r->pass);
        buf_puts(b, ",\"success\":");
        count(b, r->success >= 0, r->success);
        key(b, 1, "replayed_at");
        shown_json(b, r->replayed_at);
        buf_putc(b, '}');
    }
    buf_putc(b, ']');
}
