/* html: see html.h. */
#include "html.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "utf8.h"

/* Plot geometry, in SVG units (pixels at 100%). */
enum {
    PLOT_W = 640,  /* the whole plot */
    LABEL_W = 130, /* the arm names on the left */
    AXIS_W = 480,  /* 0% to 100% (or -100% to 100%) */
    ROW_H = 22,
    TOP = 28 /* the axis labels above the rows */
};

static const char style[] =
    ":root{color-scheme:light dark;--fg:#1b1b1b;--bg:#fff;--mute:#5d5d5d;"
    "--grid:#d4d4d4;--a:#0072b2;--b:#d55e00}"
    "@media (prefers-color-scheme:dark){:root{--fg:#ececec;--bg:#151515;"
    "--mute:#a9a9a9;--grid:#444;--a:#56b4e9;--b:#f0a050}}"
    "body{font:15px/1.45 system-ui,sans-serif;color:var(--fg);"
    "background:var(--bg);max-width:56rem;margin:1.5rem auto;"
    "padding:0 1rem}"
    "h1{font-size:1.4rem}h2{font-size:1.2rem;margin-top:2rem}"
    "h3{font-size:1rem;margin-top:1.5rem}"
    "table{border-collapse:collapse;margin:.5rem 0}"
    "th,td{padding:.15rem .6rem;border-bottom:1px solid var(--grid);"
    "text-align:right;vertical-align:top}"
    "th:first-child,td:first-child{text-align:left}"
    ".made td{text-align:left}"
    "code{font-size:.85em;overflow-wrap:anywhere}"
    ".note{color:var(--mute)}"
    "svg{max-width:100%;height:auto;display:block}"
    "svg text{fill:var(--fg);font:11px system-ui,sans-serif}"
    "svg .grid{stroke:var(--grid)}svg .zero{stroke:var(--fg)}"
    "svg .a{stroke:var(--a);fill:var(--a)}"
    "svg .b{stroke:var(--b);fill:var(--b)}"
    "svg .seg{stroke:var(--bg)}"
    "@media print{:root{--fg:#000;--bg:#fff;--mute:#444;--grid:#bbb}"
    "body{max-width:none;margin:0}section{break-inside:avoid-page}}";

/* Text from the database: shown as the text card shows it (controls and
 * overrides escaped), then escaped for HTML. */
static void esc(buf *b, const char *s)
{
    buf shown = BUF_INIT;
    utf8_shown(&shown, s, strlen(s), (size_t)-1);
    for (size_t i = 0; !shown.failed && i < shown.len; i++) {
        char ch = shown.data[i];
        if (ch == '&')
            buf_puts(b, "&amp;");
        else if (ch == '<')
            buf_puts(b, "&lt;");
        else if (ch == '>')
            buf_puts(b, "&gt;");
        else if (ch == '"')
            buf_puts(b, "&quot;");
        else if (ch == '\'')
            buf_puts(b, "&#39;");
        else
            buf_putc(b, ch);
    }
    buf_free(&shown);
}

static double pct(long x, long n)
{
    return n ? 100.0 * (double)x / (double)n : 0.0;
}

/* "4 of 4 (100.0%, 95% CI 51.0-100.0%)", or "no episodes". */
static void rate_text(buf *b, long x, long n)
{
    interval w = wilson((unsigned long)x, (unsigned long)n);
    if (n == 0)
        buf_puts(b, "no episodes");
    else
        buf_printf(b, "%ld of %ld (%.1f%%, 95%% CI %.1f-%.1f%%)", x, n,
                   pct(x, n), 100 * w.lo, 100 * w.hi);
}

void html_begin(buf *b, const char *title)
{
    buf_puts(b, "<!DOCTYPE html>\n<html lang=\"en\"><head>"
                "<meta charset=\"utf-8\">"
                "<meta name=\"viewport\" content=\"width=device-width\">"
                "<title>");
    esc(b, title);
    buf_printf(b, "</title><style>%s</style></head>\n<body>\n", style);
}

void html_end(buf *b)
{
    buf_puts(b, "</body></html>\n");
}

/* The provenance table of a run. */
static void made_with(buf *b, const card *c)
{
    buf_puts(b, "<table class=\"made\"><tbody>\n<tr><th>model</th><td>");
    if (c->model[0])
        esc(b, c->model);
    else
        buf_puts(b, "-");
    buf_puts(b, "</td></tr>\n<tr><th>tool file</th><td><code>");
    esc(b, c->tools_path);
    buf_puts(b, "</code></td></tr>\n<tr><th>file hash</th><td><code>");
    esc(b, c->file_sha256);
    buf_puts(b, "</code></td></tr>\n<tr><th>contract hash</th><td><code>");
    esc(b, c->contract_sha256);
    buf_printf(b, "</code></td></tr>\n<tr><th>generator</th><td>%d, "
                  "fingerprint <code>",
               c->generator_version);
    esc(b, c->fingerprint);
    buf_puts(b, "</code></td></tr>\n<tr><th>replayed</th><td>");
    esc(b, c->replayed_at);
    buf_puts(b, "</td></tr>\n</tbody></table>\n");
}

/* x in [lo, hi] as an SVG x coordinate on the axis. */
static double at(double x, double lo, double hi)
{
    return LABEL_W + AXIS_W * (x - lo) / (hi - lo);
}

/* Grid lines and labels of an axis from lo to hi, each label followed by
 * unit. */
static void axis(buf *b, int lo, int hi, int step, double bottom,
                 const char *unit)
{
    for (int v = lo; v <= hi; v += step) {
        double x = at(v, lo, hi);
        buf_printf(b, "<line class=\"%s\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" "
                      "y2=\"%.1f\"/><text x=\"%.1f\" y=\"%d\" "
                      "text-anchor=\"middle\">%s%d%s</text>\n",
                   v == 0 && lo < 0 ? "zero" : "grid", x, TOP - 6, x, bottom,
                   x, TOP - 10, v > 0 && lo < 0 ? "+" : "", v, unit);
    }
}

/* A mark with its whisker at row y: a circle (shape 0) or a square. */
static void mark(buf *b, const char *cls, int shape, double x, double lo,
                 double hi, double y)
{
    buf_printf(b, "<line class=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
                  "y2=\"%.1f\" stroke-width=\"2\"/>",
               cls, lo, y, hi, y);
    if (shape == 0)
        buf_printf(b, "<circle class=\"%s\" cx=\"%.1f\" cy=\"%.1f\" "
                      "r=\"4\"/>\n",
                   cls, x, y);
    else
        buf_printf(b, "<rect class=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"8\" "
                      "height=\"8\"/>\n",
                   cls, x - 4, y - 4);
}

/* The plot of pass (circles) and reached (squares) per arm, with their
 * 95% intervals as whiskers, arms in the card's order (by dial, then
 * level). */
static void arm_plot(buf *b, const card *c, int n)
{
    double bottom = TOP + (double)c->narms * ROW_H;
    buf_printf(b, "<svg role=\"img\" aria-labelledby=\"arms-t%d arms-d%d\" "
                  "viewBox=\"0 0 %d %.0f\" width=\"%d\">\n"
                  "<title id=\"arms-t%d\">Pass (circles) and reached "
                  "(squares) per arm, with 95%% intervals</title>\n"
                  "<desc id=\"arms-d%d\">",
               n, n, PLOT_W, bottom + 8, PLOT_W, n, n);
    for (size_t i = 0; i < c->narms; i++) {
        const card_arm *a = &c->arms[i];
        esc(b, a->arm);
        buf_puts(b, ": pass ");
        rate_text(b, a->pass, a->episodes);
        buf_puts(b, ", reached ");
        rate_text(b, a->reached, a->episodes);
        buf_puts(b, i + 1 < c->narms ? "; " : ".");
    }
    buf_puts(b, "</desc>\n");
    axis(b, 0, 100, 25, bottom, "%");
    /* the legend: shapes and words, not colour alone */
    buf_printf(b, "<circle class=\"a\" cx=\"%d\" cy=\"%d\" r=\"4\"/>"
                  "<text x=\"%d\" y=\"%d\">pass</text><rect class=\"b\" "
                  "x=\"%d\" y=\"%d\" width=\"8\" height=\"8\"/><text "
                  "x=\"%d\" y=\"%d\">reached</text>\n",
               4, TOP - 14, 12, TOP - 10, 50, TOP - 18, 62, TOP - 10);
    const char *dial_before = "";
    size_t dial_len = 0;
    for (size_t i = 0; i < c->narms; i++) {
        const card_arm *a = &c->arms[i];
        double y = TOP + (double)i * ROW_H + ROW_H / 2.0;
        size_t len = strcspn(a->arm, ":");
        if (i && (len != dial_len || strncmp(a->arm, dial_before, len) != 0))
            buf_printf(b, "<line class=\"grid\" x1=\"0\" y1=\"%.1f\" "
                          "x2=\"%d\" y2=\"%.1f\"/>\n",
                       y - ROW_H / 2.0, PLOT_W, y - ROW_H / 2.0);
        dial_before = a->arm;
        dial_len = len;
        buf_printf(b, "<text x=\"0\" y=\"%.1f\">", y + 4);
        esc(b, a->arm);
        buf_puts(b, "</text>\n");
        if (a->episodes == 0)
            continue;
        interval p = wilson((unsigned long)a->pass, (unsigned long)a->episodes);
        interval r = wilson((unsigned long)a->reached,
                            (unsigned long)a->episodes);
        mark(b, "a", 0, at(pct(a->pass, a->episodes), 0, 100),
             at(100 * p.lo, 0, 100), at(100 * p.hi, 0, 100), y - 4);
        mark(b, "b", 1, at(pct(a->reached, a->episodes), 0, 100),
             at(100 * r.lo, 0, 100), at(100 * r.hi, 0, 100), y + 4);
    }
    buf_puts(b, "</svg>\n");
}

/* Fill colours of the outcomes, told apart by their labels as well. */
static const char *const outcome_fill[10] = {
    "#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00",
    "#56b4e9", "#f0e442", "#7f7f7f", "#b07aa1", "#bab0ac"};

/* One bar per dial: its events split by outcome, each part labelled. */
static void dial_plot(buf *b, const card *c, int n)
{
    double bottom = TOP + (double)c->ndials * ROW_H;
    buf_printf(b, "<svg role=\"img\" aria-labelledby=\"dials-t%d dials-d%d\" "
                  "viewBox=\"0 0 %d %.0f\" width=\"%d\">\n"
                  "<title id=\"dials-t%d\">The outcomes of each dial's "
                  "events</title>\n<desc id=\"dials-d%d\">",
               n, n, PLOT_W, bottom + 8, PLOT_W, n, n);
    for (size_t i = 0; i < c->ndials; i++) {
        const card_dial *d = &c->dials[i];
        buf_printf(b, "%s: %ld events, ", d->dial, d->events);
        card_outcomes_text(b, d);
        buf_puts(b, i + 1 < c->ndials ? "; " : ".");
    }
    buf_puts(b, "</desc>\n");
    axis(b, 0, 100, 25, bottom, "%");
    for (size_t i = 0; i < c->ndials; i++) {
        const card_dial *d = &c->dials[i];
        double y = TOP + (double)i * ROW_H;
        long total = 0;
        for (int o = 0; o < 10; o++)
            total += d->outcomes[o];
        buf_printf(b, "<text x=\"0\" y=\"%.1f\">%s</text>\n", y + 15, d->dial);
        double x = LABEL_W;
        for (int o = 0; o < 10 && total; o++) {
            if (!d->outcomes[o])
                continue;
            double w = (double)AXIS_W * (double)d->outcomes[o] / (double)total;
            buf_printf(b, "<rect class=\"seg\" x=\"%.1f\" y=\"%.1f\" "
                          "width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>%s "
                          "%ld</title></rect>\n",
                       x, y + 3, w, ROW_H - 6, outcome_fill[o],
                       card_outcomes[o], d->outcomes[o]);
            /* the label inside when it fits, in black on these fills */
            if (w >= 7.0 * (double)(strlen(card_outcomes[o]) + 4))
                buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" "
                              "style=\"fill:#000\">%s %ld</text>\n",
                           x + 4, y + 15, card_outcomes[o], d->outcomes[o]);
            x += w;
        }
    }
    buf_puts(b, "</svg>\n");
}

/* A row of the result table: name (": detail"), a count. */
static void count_row(buf *b, const char *name, const char *detail, long n)
{
    buf_printf(b, "<tr><td>%s%s%s</td><td>%ld</td><td></td><td></td></tr>\n",
               name, detail ? ": " : "", detail ? detail : "", n);
}

/* A row of the result table: a count of episodes, its rate and interval
 * (none of either when there are no episodes). */
static void rate_row(buf *b, const char *name, long x, long n)
{
    interval w = wilson((unsigned long)x, (unsigned long)n);
    if (n == 0)
        buf_printf(b, "<tr><td>%s</td><td>-</td><td>-</td><td>no episodes"
                      "</td></tr>\n",
                   name);
    else
        buf_printf(b, "<tr><td>%s</td><td>%ld</td><td>%.1f%%</td>"
                      "<td>%.1f-%.1f%%</td></tr>\n",
                   name, x, pct(x, n), 100 * w.lo, 100 * w.hi);
}

/* The observed episodes' tools, and pass^k, as tables. */
static void html_observed(buf *b, const card *c)
{
    static const char *const names[2] = {"pass^k", "success^k"};
    if (c->observed) {
        buf_printf(b, "<h3>Observed episodes</h3>\n<p>%ld episodes, run "
                      "against something other than the simulator: no "
                      "simulator figure applies; %ld calls.",
                   c->observed, c->observed_calls);
        for (int k = 1; k < 2; k++)
            if (c->harness[k].rewarded && isfinite(c->harness[k].mean_reward))
                buf_printf(b, " Harness reward: %.3f mean, over %ld "
                              "episodes.",
                           c->harness[k].mean_reward, c->harness[k].rewarded);
            else if (c->harness[k].rewarded)
                buf_printf(b, " Harness reward: over %ld episodes, their "
                              "mean is not a finite number.",
                           c->harness[k].rewarded);
        buf_puts(b, "</p>\n");
        if (c->ntools) {
            int guessed = 0;
            buf_puts(b, "<table class=\"tools\"><thead><tr><th>tool</th>"
                        "<th>kind</th><th>kind from</th><th>calls</th>"
                        "<th>invalid arguments</th>"
                        "<th>answers off schema</th><th>commonest rule broken"
                        "</th></tr></thead><tbody>\n");
            for (size_t i = 0; i < c->ntools; i++) {
                const card_tool *t = &c->tools[i];
                buf_puts(b, "<tr><td>");
                esc(b, t->tool);
                buf_puts(b, t->kind_ok ? "</td><td>" : "</td><td>?");
                esc(b, t->kind ? t->kind : "");
                buf_printf(b, "</td><td>%s</td><td>%ld</td><td>",
                           t->kind_from ? t->kind_from : "-", t->calls);
                if (t->args_checked)
                    buf_printf(b, "%ld", t->invalid);
                else
                    buf_putc(b, '-');
                buf_puts(b, "</td><td>");
                if (t->answers_checked)
                    buf_printf(b, "%ld", t->off_schema);
                else
                    buf_putc(b, '-');
                buf_puts(b, "</td><td>");
                if (t->rule)
                    esc(b, t->rule);
                buf_puts(b, "</td></tr>\n");
                guessed |= t->kind_from && strcmp(t->kind_from, "name") == 0;
            }
            buf_puts(b, "</tbody></table>\n");
            if (guessed)
                buf_puts(b, "<p>A kind from the name is a guess from the "
                            "name&#39;s first word (get, list, search... "
                            "read): the file does not say it.</p>\n");
        }
        if (c->nunknown) {
            buf_puts(b, "<p>Tools the file does not have: ");
            size_t shown = c->nunknown < 10 ? c->nunknown : 10;
            for (size_t i = 0; i < shown; i++) {
                buf_puts(b, i ? ", <code>" : "<code>");
                esc(b, c->unknown[i].tool);
                buf_printf(b, "</code> &#215;%ld", c->unknown[i].calls);
            }
            if (c->nunknown > shown)
                buf_printf(b, ", and %zu more", c->nunknown - shown);
            buf_puts(b, ".</p>\n");
        }
    }
    for (int k = 0; k < 2; k++) {
        if (c->passk_largest[k] < 2)
            continue;
        buf_printf(b, "<h3>Trials: %s</h3>\n<table class=\"passk\"><thead>"
                      "<tr><th>k</th><th>%s</th><th>tasks</th></tr></thead>"
                      "<tbody>\n",
                   names[k], names[k]);
        for (size_t i = 0; i < c->npassk[k]; i++)
            buf_printf(b, "<tr><td>%ld</td><td>%.1f%%</td><td>%ld</td></tr>\n",
                       c->passk[k][i].k, 100 * c->passk[k][i].rate,
                       c->passk[k][i].tasks);
        buf_puts(b, "</tbody></table>\n");
    }
}

void html_card(buf *b, const card *c, int n)
{
    buf_puts(b, "<section class=\"card\">\n<h2>Card: ");
    esc(b, c->run);
    buf_puts(b, "</h2>\n");
    made_with(b, c);

    buf_printf(b, "<h3>Result: %ld episode%s</h3>\n<table class=\"result\">"
                  "<thead><tr><th></th><th>count</th><th>rate</th>"
                  "<th>95%% CI</th></tr></thead><tbody>\n",
               c->episodes, c->episodes == 1 ? "" : "s");
    if (c->observed) {
        count_row(b, "replayed against tasks", NULL, c->simulated);
        count_row(b, "observed", NULL, c->observed);
    }
    int sim = c->simulated || !c->observed; /* simulator figures apply */
    if (sim) {
        rate_row(b, "pass", c->pass, c->simulated);
        rate_row(b, "reached", c->reached, c->simulated);
    }
    for (int k = 0; k < 2; k++)
        if (c->harness[k].judged)
            rate_row(b, k ? "harness success (observed)"
                          : "harness success (replayed)",
                     c->harness[k].successes, c->harness[k].judged);
    if (sim && c->simulated) { /* none: nothing was measured */
        count_row(b, "side effects", NULL, c->side_effects);
        count_row(b, "duplicate writes", NULL, c->duplicates);
        count_row(b, "errors", NULL, c->errors);
        for (int i = 0; i < CARD_CODES; i++)
            if (c->by_code[i])
                count_row(b, "errors", card_codes[i], c->by_code[i]);
    }
    count_row(b, "unfinished", NULL, c->unfinished);
    if (sim && c->simulated && !c->compared_episodes) {
        buf_puts(b, "<tr><td>diverged episodes</td><td>-</td><td></td>"
                    "<td>no call had an answer logged</td></tr>\n");
    } else if (sim && c->simulated) {
        count_row(b, "diverged episodes", NULL, c->diverged_episodes);
        count_row(b, "episodes compared", NULL, c->compared_episodes);
        count_row(b, "diverged calls", NULL, c->diverged_calls);
        count_row(b, "calls compared", NULL, c->compared_calls);
        count_row(b, "calls with no answer logged", NULL, c->unlogged_calls);
    }
    count_row(b, "problems", NULL, c->problems);
    if (c->problems_no_run)
        count_row(b, "problems that name no run (in the database)", NULL,
                  c->problems_no_run);
    buf_puts(b, "</tbody></table>\n");

    if (c->narms) {
        buf_puts(b, "<h3>Per arm</h3>\n");
        arm_plot(b, c, n);
        buf_puts(b, "<table class=\"arms\"><thead><tr><th>arm</th>"
                    "<th>episodes</th><th>pass</th><th>95% CI</th>"
                    "<th>reached</th><th>95% CI</th><th>side effects</th>"
                    "<th>duplicate writes</th></tr></thead><tbody>\n");
        for (size_t i = 0; i < c->narms; i++) {
            const card_arm *a = &c->arms[i];
            interval w = wilson((unsigned long)a->pass,
                                (unsigned long)a->episodes);
            interval v = wilson((unsigned long)a->reached,
                                (unsigned long)a->episodes);
            buf_puts(b, "<tr><td>");
            esc(b, a->arm);
            buf_printf(b, "</td><td>%ld</td><td>%ld</td><td>%.1f-%.1f%%</td>"
                          "<td>%ld</td><td>%.1f-%.1f%%</td><td>%ld</td>"
                          "<td>%ld</td></tr>\n",
                       a->episodes, a->pass, 100 * w.lo, 100 * w.hi,
                       a->reached, 100 * v.lo, 100 * v.hi, a->side_effects,
                       a->duplicates);
        }
        buf_puts(b, "</tbody></table>\n");
    }
    if (c->ndials) {
        buf_puts(b, "<h3>Per dial</h3>\n");
        dial_plot(b, c, n);
        buf_puts(b, "<table class=\"dials\"><thead><tr><th>dial</th>"
                    "<th>events</th><th>fired</th><th>outcomes</th></tr>"
                    "</thead><tbody>\n");
        for (size_t i = 0; i < c->ndials; i++) {
            const card_dial *d = &c->dials[i];
            buf_printf(b, "<tr><td>%s</td><td>%ld</td><td>%ld</td><td>",
                       d->dial, d->events, d->fired);
            card_outcomes_text(b, d);
            buf_puts(b, "</td></tr>\n");
        }
        buf_puts(b, "</tbody></table>\n");
    }
    html_observed(b, c);
    if (c->nfirst) {
        buf_printf(b, "<h3>Problems (first %zu)</h3>\n<ul class=\"problems\">",
                   c->nfirst);
        for (size_t i = 0; i < c->nfirst; i++) {
            buf_puts(b, "<li><code>");
            esc(b, c->first_problems[i].file);
            buf_printf(b, ":%ld</code>: ", c->first_problems[i].line);
            esc(b, c->first_problems[i].message);
            buf_puts(b, "</li>\n");
        }
        if (c->problems > (long)c->nfirst) {
            buf q = BUF_INIT;
            for (const char *p = c->run; *p; p++) {
                if (*p == '\'')
                    buf_putc(&q, '\'');
                buf_putc(&q, *p);
            }
            buf_printf(b, "<li>... and %ld more (<code>SELECT * FROM problems "
                          "WHERE run = &#39;",
                       c->problems - (long)c->nfirst);
            esc(b, q.failed || !q.data ? "" : q.data);
            buf_puts(b, "&#39;</code>)</li>\n");
            buf_free(&q);
        }
        buf_puts(b, "</ul>\n");
    }
    buf_puts(b, "</section>\n");
}

/* The paired analysis: a table per measure. */
static void html_paired(buf *b, const card *a, const card *c,
                        const card_paired *r, size_t n)
{
    int open = 0;
    for (size_t i = 0; i < n; i++) {
        const card_paired *x = &r[i];
        const card_pairs *q = &x->pairs;
        if (i == 0 || strcmp(x->measure, r[i - 1].measure) != 0) {
            if (open)
                buf_puts(b, "</tbody></table>\n");
            buf_printf(b, "<h3>Paired, by task (%s)</h3>\n<p>%ld tasks in "
                          "both runs, %ld only in ",
                       strcmp(x->measure, "pass") == 0
                           ? "pass"
                           : "the harness&#39;s success",
                       x->shared, x->only_a);
            esc(b, a->run);
            buf_printf(b, ", %ld only in ", x->only_b);
            esc(b, c->run);
            if (x->shared == 0) {
                buf_puts(b, ". No task is in both runs: nothing to pair, "
                            "and no paired figure.</p>\n");
                open = 0;
                continue;
            }
            open = 1;
            buf_puts(b, x->one_trial
                            ? ". One trial of each task in each run: A - B "
                              "with Tango&#39;s score interval; the pairs by "
                              "outcome, and McNemar&#39;s exact p.</p>\n"
                            : ". Several trials of a task: A - B is the mean "
                              "of per-task differences, its interval "
                              "clustered by task; the pairs by outcome and "
                              "McNemar&#39;s exact p are of each task&#39;s "
                              "first trial.</p>\n");
            buf_puts(b, "<table class=\"paired\"><thead><tr><th>arm</th>"
                        "<th>tasks</th><th>A - B (points)</th><th>95% CI</th>"
                        "<th>A only</th><th>B only</th><th>both</th>"
                        "<th>neither</th><th>McNemar p</th></tr></thead>"
                        "<tbody>\n");
        }
        if (!open)
            continue;
        buf_puts(b, "<tr><td>");
        esc(b, x->arm);
        if (x->shared == 0) {
            buf_puts(b, "</td><td>0</td><td>-</td><td>-</td><td></td><td></td>"
                        "<td></td><td></td><td></td></tr>\n");
            continue;
        }
        buf_printf(b, "</td><td>%ld</td><td>%+.1f</td><td>%+.1f to %+.1f</td>"
                      "<td>%ld</td><td>%ld</td><td>%ld</td><td>%ld</td><td>",
                   x->shared, 100 * x->diff, 100 * x->ci.lo, 100 * x->ci.hi,
                   q->a_only, q->b_only, q->both, q->neither);
        if (q->n == 0)
            buf_putc(b, '-');
        else if (q->p >= 0.001)
            buf_printf(b, "%.3g", q->p);
        else
            buf_printf(b, "%.1e", q->p);
        buf_puts(b, "</td></tr>\n");
    }
    if (open)
        buf_puts(b, "</tbody></table>\n");
}

/* The hashes of both runs, as the refusal gives them. */
static void both_hashes(buf *b, const card *a, const card *c,
                        enum compare_case k)
{
    const card *both[2] = {a, c};
    buf_puts(b, "<table class=\"hashes\"><tbody>\n");
    for (int i = 0; i < 2; i++) {
        const card *x = both[i];
        buf_puts(b, "<tr><th colspan=\"2\">");
        esc(b, x->run);
        buf_puts(b, "</th></tr>\n<tr><td>file hash</td><td><code>");
        esc(b, x->file_sha256);
        buf_puts(b, "</code></td></tr>\n");
        if (k == COMPARE_CONTRACTS) {
            buf_puts(b, "<tr><td>contract</td><td><code>");
            esc(b, x->contract_sha256);
            buf_puts(b, "</code></td></tr>\n");
        }
        if (k == COMPARE_GENERATORS) {
            buf_printf(b, "<tr><td>generator</td><td>%d</td></tr>\n"
                          "<tr><td>fingerprint</td><td><code>",
                       x->generator_version);
            esc(b, x->fingerprint);
            buf_puts(b, "</code></td></tr>\n");
        }
    }
    buf_puts(b, "</tbody></table>\n");
}

static void name_list(buf *b, const char *what, char **names, size_t n)
{
    if (n == 0)
        return;
    buf_printf(b, "<li>%s: ", what);
    for (size_t i = 0; i < n; i++) {
        if (i)
            buf_puts(b, ", ");
        esc(b, names[i]);
    }
    buf_puts(b, "</li>\n");
}

void html_compare(buf *b, const card_compared *x)
{
    const card *a = x->a, *c = x->b;
    enum compare_case k = x->k;
    const contract_diff *d = &x->d;
    buf_puts(b, "<section class=\"compare\">\n<h2>Compare: ");
    esc(b, a->run);
    buf_puts(b, " (A) and ");
    esc(b, c->run);
    buf_puts(b, " (B)</h2>\n<p>");
    if (k != COMPARE_SAME) {
        buf why = BUF_INIT;
        card_refusal(&why, a, c, k);
        esc(b, why.failed ? "" : why.data);
        b->failed |= why.failed;
        buf_free(&why);
        buf_puts(b, "</p>\n");
        if (k == COMPARE_CONTRACTS) {
            buf_puts(b, "<ul class=\"tools\">\n");
            if (d->nadded + d->nremoved + d->nchanged == 0)
                buf_printf(b, "<li>%s</li>\n", card_same_tools);
            name_list(b, "added", d->added, d->nadded);
            name_list(b, "removed", d->removed, d->nremoved);
            name_list(b, "changed", d->changed, d->nchanged);
            buf_puts(b, "</ul>\n");
        }
        both_hashes(b, a, c, k);
        buf_puts(b, "</section>\n");
        return;
    }
    if (!a->simulated && !c->simulated) {
        buf_puts(b, "Same tool file; observed episodes, paired by the "
                    "harness's names of their tasks.</p>\n");
        html_paired(b, a, c, x->paired, x->npaired);
        buf_puts(b, "</section>\n");
        return;
    }
    buf_puts(b, "Same tool file and generator: the same tasks, side by "
                "side. Unpaired, per arm: each row is the difference of pass "
                "rates A - B, in percentage points, with its 95% interval "
                "(Newcombe's, for two independent proportions).</p>\n");
    const card_row *rows = x->rows;
    size_t n = x->nrows;
    int lone = 0;
    double bottom = TOP + (double)n * ROW_H;
    buf_printf(b, "<svg role=\"img\" aria-labelledby=\"diff-t diff-d\" "
                  "viewBox=\"0 0 %d %.0f\" width=\"%d\">\n<title id=\"diff-t\">"
                  "Pass rate A - B per arm in percentage points, with 95%% "
                  "intervals</title>\n"
                  "<desc id=\"diff-d\">",
               PLOT_W, bottom + 8, PLOT_W);
    for (size_t i = 0; i < n; i++) {
        esc(b, rows[i].arm);
        if (rows[i].measured)
            buf_printf(b, ": %+.1f points, 95%% CI %+.1f to %+.1f%s",
                       100 * rows[i].diff, 100 * rows[i].ci.lo,
                       100 * rows[i].ci.hi, i + 1 < n ? "; " : ".");
        else
            buf_printf(b, ": only in %s, no difference%s",
                       rows[i].na ? "A" : "B", i + 1 < n ? "; " : ".");
    }
    buf_puts(b, "</desc>\n");
    axis(b, -100, 100, 50, bottom, "");
    for (size_t i = 0; i < n; i++) {
        double y = TOP + (double)i * ROW_H + ROW_H / 2.0;
        buf_printf(b, "<text x=\"0\" y=\"%.1f\">", y + 4);
        esc(b, rows[i].arm);
        buf_puts(b, "</text>\n");
        if (!rows[i].measured)
            continue;
        mark(b, "a", 0, at(100 * rows[i].diff, -100, 100),
             at(100 * rows[i].ci.lo, -100, 100),
             at(100 * rows[i].ci.hi, -100, 100), y);
    }
    buf_puts(b, "</svg>\n<table class=\"diffs\"><thead><tr><th>arm</th>"
                "<th>A pass</th><th>B pass</th><th>A - B (points)</th>"
                "<th>95% CI</th>"
                "<th>excludes 0</th></tr></thead><tbody>\n");
    for (size_t i = 0; i < n; i++) {
        buf_puts(b, "<tr><td>");
        esc(b, rows[i].arm);
        buf_printf(b, "</td><td>%ld/%ld</td><td>%ld/%ld</td>", rows[i].xa,
                   rows[i].na, rows[i].xb, rows[i].nb);
        if (rows[i].measured) {
            buf_printf(b, "<td>%+.1f</td><td>%+.1f to %+.1f</td><td>%s</td>"
                          "</tr>\n",
                       100 * rows[i].diff, 100 * rows[i].ci.lo,
                       100 * rows[i].ci.hi,
                       rows[i].excludes_zero ? "yes" : "no");
        } else {
            lone = 1;
            buf_printf(b, "<td>-</td><td>only in %s</td><td>-</td></tr>\n",
                       rows[i].na ? "A" : "B");
        }
    }
    buf_puts(b, "</tbody></table>\n");
    if (lone)
        buf_puts(b, "<p>An arm only one run has episodes of has no "
                    "difference to show.</p>\n");
    html_paired(b, a, c, x->paired, x->npaired);
    buf_puts(b, "</section>\n");
}
