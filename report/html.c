/* html: see html.h. */
#include "html.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "shown.h"
#include "stats.h"

/* Colours: every text gives at least 4.5:1 against its background and
 * every mark (--a, --b, --fg) at least 3:1, in the light scheme, the
 * dark one and print (which is the light one on white, whatever the
 * reader's scheme); the grid lines are guides, not marks, and are
 * lighter.  The page's column is at most 56rem; below 42rem (672 px,
 * where it is narrower than the wide pictures) the narrow pictures are
 * shown and the index's rows reflow; wide tables scroll in a box of
 * their own. */
static const char style[] =
    ":root{color-scheme:light dark;--fg:#1b1b1b;--bg:#fff;--mute:#5d5d5d;"
    "--grid:#d4d4d4;--a:#0072b2;--b:#d55e00;--link:#0b5cad}"
    "@media (prefers-color-scheme:dark){:root{--fg:#ececec;--bg:#151515;"
    "--mute:#a9a9a9;--grid:#444;--a:#56b4e9;--b:#f0a050;--link:#8cc4ff}}"
    "body{font:15px/1.45 system-ui,sans-serif;color:var(--fg);"
    "background:var(--bg);max-width:56rem;margin:1.5rem auto;"
    "padding:0 1rem}"
    "a{color:var(--link)}"
    "h1,h2{font-size:1.35rem;margin:1rem 0 .5rem;overflow-wrap:anywhere}"
    "h3{font-size:1.05rem;margin-top:1.75rem}"
    "p,li{overflow-wrap:anywhere}"
    ".headline{font-size:1.15rem;font-weight:600;line-height:1.4;"
    "margin:.5rem 0 1rem;padding-left:.75rem;border-left:4px solid "
    "var(--a)}"
    /* a table wider than the column scrolls in its box, a shadow at the
     * side where more of it is (the local backgrounds cover the shadows
     * at the ends) */
    ".scroll{overflow-x:auto;background:"
    "linear-gradient(to right,var(--bg) 30%,transparent) left/2rem 100% "
    "no-repeat local,"
    "linear-gradient(to left,var(--bg) 30%,transparent) right/2rem 100% "
    "no-repeat local,"
    "radial-gradient(farthest-side at 0 50%,rgba(0,0,0,.3),transparent) "
    "left/.6rem 100% no-repeat scroll,"
    "radial-gradient(farthest-side at 100% 50%,rgba(0,0,0,.3),transparent) "
    "right/.6rem 100% no-repeat scroll}"
    "table{border-collapse:collapse;margin:.5rem 0}"
    "th,td{padding:.15rem .6rem;border-bottom:1px solid var(--grid);"
    "text-align:right;vertical-align:top}"
    "th:first-child,td:first-child{text-align:left}"
    ".made td,.index td{text-align:left}"
    "code{font-size:.85em;overflow-wrap:anywhere}"
    ".note{color:var(--mute)}"
    "figure{margin:.5rem 0}"
    "svg{max-width:100%;height:auto;display:block}"
    ".plot .narrow{display:none}"
    "svg text{fill:var(--fg);font:12px system-ui,sans-serif}"
    "svg text.all{font-weight:700}svg text.none{fill:var(--mute)}"
    "svg text.ink-k{fill:#000}svg text.ink-w{fill:#fff}"
    "svg .grid{stroke:var(--grid)}svg .zero,svg .apart{stroke:var(--fg)}"
    "svg .a{stroke:var(--a);fill:var(--a)}"
    "svg .b{stroke:var(--b);fill:var(--b)}"
    "svg .whisker{fill:none;stroke-width:2}"
    "svg .seg{stroke:var(--bg)}"
    ".legend{list-style:none;padding:0;margin:.25rem 0 .75rem}"
    ".legend li{display:inline-block;margin-right:1.25rem}"
    ".legend svg{display:inline-block;vertical-align:-1px}"
    ".index svg{display:block;max-width:none}"
    "body:has(.night){max-width:72rem}"
    ".index th{text-align:left}.index .run{min-width:14rem}"
    "th+th,td+td{white-space:nowrap}"
    ".made td,.hashes td,.result td+td+td+td,.index td,.index th"
    "{white-space:normal}"
    ".index .fig{white-space:nowrap}"
    ".index .vs{min-width:12rem}.index summary{white-space:nowrap}"
    ".classes th,.classes td+td+td,.flips td,.flips th,.failing td,"
    ".failing th{white-space:normal;"
    "text-align:left;overflow-wrap:anywhere}"
    ".calls td,.calls th{text-align:left;white-space:normal}"
    ".val code,.names{overflow-wrap:anywhere;word-break:break-all}"
    "tr.key td{font-weight:600}"
    "@media (max-width:42rem){.plot .wide{display:none}"
    "th,td{padding:.15rem .3rem}"
    ".plot .narrow{display:block}}"
    /* the index's rows as blocks, on a phone and on paper */
    "@media (max-width:42rem),print{.index thead{display:none}"
    ".index,.index tbody,.index tr,.index td{display:block}"
    ".index tr{padding:.5rem 0;border-bottom:1px solid var(--grid)}"
    ".index td{border:0;padding:.1rem 0}.index .run,.index .vs{min-width:0}"
    ".index td[data-label]::before{content:attr(data-label) \": \";"
    "color:var(--mute)}}"
    "@media print{:root{--fg:#000;--bg:#fff;--mute:#444;--grid:#bbb;"
    "--a:#0072b2;--b:#d55e00;--link:#000}"
    "body{max-width:none;margin:0}section,figure{break-inside:avoid-page}"
    /* a table fits an A4 column: tighter, smaller, cells that wrap */
    "table{font-size:.8em}th,td{padding:.1rem .25rem}"
    "th+th,td+td{white-space:normal}"
    ".scroll{overflow:visible;background:none}}";

static double pct(long x, long n)
{
    return n ? 100.0 * (double)x / (double)n : 0.0;
}

/* "4 of 4 (100.0%, 95% CI 51.0-100.0%)", or "no episodes". */
static void rate_text(buf *b, card_rate r)
{
    if (r.n == 0) {
        buf_puts(b, "no episodes");
        return;
    }
    buf_printf(b, "%ld of %ld (%.1f%%, ", r.x, r.n, pct(r.x, r.n));
    card_rate_ci_text(b, &r);
    buf_putc(b, ')');
}

/* A rate and its interval as a plot's mark, in percent. */
static plot_mark rate_mark(card_rate r, int series)
{
    return (plot_mark){pct(r.x, r.n), 100 * r.ci.lo, 100 * r.ci.hi, series};
}

#define PLAIN(x, n) card_rate_plain((x), (n))

/* Whether arm b begins another dial than arm a (the text before ":"). */
static int new_dial(const char *a, const char *b)
{
    size_t la = strcspn(a, ":"), lb = strcspn(b, ":");
    return la != lb || strncmp(a, b, la) != 0;
}

void html_begin(buf *b, const char *title)
{
    buf_puts(b, HTML_PAGE_START "<meta name=\"viewport\" "
                "content=\"width=device-width, initial-scale=1\"><title>");
    shown_html(b, title);
    buf_printf(b, "</title><style>%s</style></head>\n<body>\n", style);
}

void html_back(buf *b)
{
    buf_puts(b, "<nav><a href=\"index.html\">\xe2\x86\x90 The night&#39;s "
                "runs</a></nav>\n");
}

void html_end(buf *b)
{
    buf_puts(b, "</body></html>\n");
}

/* A sentence of carddata's, escaped, as the page's headline. */
static void headline(buf *b, const buf *sentence)
{
    buf_puts(b, "<p class=\"headline\">");
    if (sentence->failed)
        b->failed = 1;
    else
        shown_html(b, sentence->data ? sentence->data : "");
    buf_puts(b, "</p>\n");
}

/* A table in a box of its own, which scrolls sideways when the table is
 * wider than the page. */
static void table_open(buf *b, const char *cls)
{
    buf_printf(b, "<div class=\"scroll\"><table class=\"%s\">", cls);
}

static void table_close(buf *b)
{
    buf_puts(b, "</tbody></table></div>\n");
}

/* ----------------------------------------------------------- a card */

/* The provenance table of a run. */
static void made_with(buf *b, const card *c)
{
    buf_puts(b, "<h3>What produced it</h3>\n");
    table_open(b, "made");
    buf_puts(b, "<tbody>\n<tr><th>model</th><td>");
    if (c->model[0])
        shown_html(b, c->model);
    else
        buf_puts(b, "-");
    buf_puts(b, "</td></tr>\n<tr><th>tool file</th><td><code>");
    shown_html(b, c->tools_path);
    buf_puts(b, "</code>");
    if (c->tools_found) {
        buf_puts(b, " (found at <code>");
        shown_html(b, c->tools_found);
        buf_puts(b, "</code>)");
    }
    buf_puts(b, "</td></tr>\n<tr><th>file hash</th><td><code>");
    shown_html(b, c->file_sha256);
    buf_puts(b, "</code></td></tr>\n<tr><th>contract hash</th><td><code>");
    shown_html(b, c->contract_sha256);
    buf_printf(b, "</code></td></tr>\n<tr><th>generator</th><td>%d, "
                  "fingerprint <code>",
               c->generator_version);
    shown_html(b, c->fingerprint);
    buf_puts(b, "</code></td></tr>\n<tr><th>replayed</th><td>");
    shown_html(b, c->replayed_at);
    buf_puts(b, "</td></tr>\n");
    table_close(b);
}

/* The picture of pass (circles) and reached (squares), all episodes and
 * per arm, with their 95% intervals. */
static void arm_plot(buf *b, const card *c, int n)
{
    plot_row *rows = calloc(c->narms + 1, sizeof *rows);
    buf desc = BUF_INIT;
    if (!rows) {
        b->failed = 1;
        return;
    }
    rows[0] = (plot_row){.label = "all", .overall = 1, .nmarks = 2,
                         .marks = {rate_mark(c->rate[0], 0),
                                   rate_mark(PLAIN(c->reached, c->simulated), 1)}};
    if (!c->simulated) /* a rate of nothing is no figure */
        rows[0] = (plot_row){.label = "all", .overall = 1,
                             .none = "no episodes"};
    buf_puts(&desc, "all: pass ");
    rate_text(&desc, c->rate[0]);
    buf_puts(&desc, ", reached ");
    rate_text(&desc, PLAIN(c->reached, c->simulated));
    for (size_t i = 0; i < c->narms; i++) {
        const card_arm *a = &c->arms[i];
        plot_row *r = &rows[i + 1];
        r->label = a->arm;
        r->group_break = i && new_dial(c->arms[i - 1].arm, a->arm);
        if (a->episodes) {
            r->nmarks = 2;
            r->marks[0] = rate_mark(PLAIN(a->pass, a->episodes), 0);
            r->marks[1] = rate_mark(PLAIN(a->reached, a->episodes), 1);
        } else {
            r->none = "no episodes";
        }
        buf_puts(&desc, "; ");
        shown_html(&desc, a->arm);
        buf_puts(&desc, ": pass ");
        rate_text(&desc, PLAIN(a->pass, a->episodes));
        buf_puts(&desc, ", reached ");
        rate_text(&desc, PLAIN(a->reached, a->episodes));
    }
    buf_putc(&desc, '.');
    char id[32];
    snprintf(id, sizeof id, "arms%d", n);
    plot_spec s = {.id = id,
                   .title = "Pass (circles) and reached (squares), all "
                            "episodes and per arm, with 95% intervals",
                   .desc = desc.failed || !desc.data ? "" : desc.data,
                   .lo = 0,
                   .hi = 100,
                   .step = 25,
                   .unit = "%",
                   .axis_title = "Share of the episodes, %; bars: 95% "
                                 "Wilson intervals",
                   .series = {"pass", "reached"}};
    b->failed |= desc.failed;
    plot_rows(b, &s, rows, c->narms + 1);
    buf_free(&desc);
    free(rows);
}

/* A row's opening: the rows the headline stands on are set in bold. */
static void row_open(buf *b, int key)
{
    buf_puts(b, key ? "<tr class=\"key\"><td>" : "<tr><td>");
}

/* A row of the result table: name (": detail"), a count. */
static void count_row(buf *b, const char *name, const char *detail, long n,
                      int key)
{
    row_open(b, key);
    buf_printf(b, "%s%s%s</td><td>%ld</td><td></td><td></td></tr>\n", name,
               detail ? ": " : "", detail ? detail : "", n);
}

/* A row of the result table: a count of episodes, its rate and interval
 * (none of either when there are no episodes). */
static void rate_row(buf *b, const char *name, card_rate r, int key)
{
    row_open(b, key);
    if (r.n == 0)
        buf_printf(b, "%s</td><td>-</td><td>-</td><td>no episodes</td></tr>\n",
                   name);
    else {
        buf_printf(b, "%s</td><td>%ld</td><td>%.1f%%</td>"
                      "<td>%.1f-%.1f%%",
                   name, r.x, pct(r.x, r.n), 100 * r.ci.lo, 100 * r.ci.hi);
        if (r.clustered)
            buf_printf(b, " (clustered by %ld task%s)", r.tasks,
                       r.tasks == 1 ? "" : "s");
        buf_puts(b, "</td></tr>\n");
    }
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
        const card_harness *h = &c->harness[1];
        if (h->rewarded && isfinite(h->mean_reward))
            buf_printf(b, " Harness reward: %.3f mean, over %ld episodes.",
                       h->mean_reward, h->rewarded);
        else if (h->rewarded)
            buf_printf(b, " Harness reward: over %ld episodes, their mean "
                          "is not a finite number.",
                       h->rewarded);
        buf_puts(b, "</p>\n");
        if (c->ntools) {
            int guessed = 0;
            table_open(b, "tools");
            buf_puts(b, "<thead><tr><th>tool</th><th>kind</th>"
                        "<th>kind from</th><th>calls</th><th>errors</th>"
                        "<th>invalid arguments</th>"
                        "<th>answers off schema</th><th>commonest rule broken"
                        "</th></tr></thead><tbody>\n");
            for (size_t i = 0; i < c->ntools; i++) {
                const card_tool *t = &c->tools[i];
                buf_puts(b, "<tr><td>");
                shown_html(b, t->tool);
                buf_puts(b, t->kind_ok || !t->kind ? "</td><td>"
                                                   : "</td><td>?");
                shown_html(b, t->kind ? t->kind : "-");
                buf_printf(b, "</td><td>%s</td><td>%ld</td><td>%ld</td><td>",
                           t->kind_from ? t->kind_from : "-", t->calls,
                           t->errors);
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
                    shown_html(b, t->rule);
                buf_puts(b, "</td></tr>\n");
                guessed |= t->kind_from && strcmp(t->kind_from, "name") == 0;
            }
            table_close(b);
            if (guessed)
                buf_puts(b, "<p>A kind from the name is a guess from the "
                            "name&#39;s first word (get, list, search... "
                            "read): the file does not say it.</p>\n");
            if (c->no_schema)
                buf_puts(b, "<p>No schema: the run&#39;s tool file has no "
                            "tool (the log offers no definitions), so no "
                            "call was checked; <code>--tools FILE</code> "
                            "adds the checks.</p>\n");
        }
        if (c->nunknown) {
            buf_puts(b, "<p>Tools the file does not have: ");
            size_t shown = c->nunknown < 10 ? c->nunknown : 10;
            for (size_t i = 0; i < shown; i++) {
                buf_puts(b, i ? ", <code>" : "<code>");
                shown_html(b, c->unknown[i].tool);
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
        buf_printf(b, "<h3>Trials: %s</h3>\n", names[k]);
        table_open(b, "passk");
        buf_printf(b, "<thead><tr><th>k</th><th>%s</th><th>95%% CI</th>"
                      "<th>tasks</th></tr></thead><tbody>\n",
                   names[k]);
        for (size_t i = 0; i < c->npassk[k]; i++)
            buf_printf(b, "<tr><td>%ld</td><td>%.1f%%</td><td>%.1f-%.1f%%"
                          "</td><td>%ld</td></tr>\n",
                       c->passk[k][i].k, 100 * c->passk[k][i].rate,
                       100 * c->passk[k][i].ci.lo, 100 * c->passk[k][i].ci.hi,
                       c->passk[k][i].tasks);
        table_close(b);
    }
    if (c->trial_tasks)
        buf_printf(b, "<p>Flaky: %ld of %ld task%s of several trials passed "
                      "some and failed others (<code>card --flaky</code> "
                      "lists them).</p>\n",
                   c->flaky_tasks, c->trial_tasks,
                   c->trial_tasks == 1 ? "" : "s");
    const card_usage *u = &c->usage;
    if (card_usage_any(u)) {
        buf_printf(b, "<h3>Usage, as logged</h3>\n<p>Each figure is over the "
                      "episodes that give it, of %ld.</p>\n",
                   c->simulated + c->observed);
        table_open(b, "usage");
        buf_puts(b, "<thead><tr><th>usage</th><th>value</th><th>over</th>"
                    "</tr></thead><tbody>\n");
        if (u->tokened)
            buf_printf(b, "<tr><td>input tokens</td><td>%.0f</td><td>%ld</td>"
                          "</tr>\n<tr><td>output tokens</td><td>%.0f</td>"
                          "<td>%ld</td></tr>\n",
                       u->input_tokens, u->tokened, u->output_tokens,
                       u->tokened);
        if (u->tokened)
            buf_printf(b, "<tr><td>tokens an episode (median)</td><td>%.0f"
                          "</td><td>%ld</td></tr>\n<tr><td>tokens an episode "
                          "(95th percentile)</td><td>%.0f</td><td>%ld</td>"
                          "</tr>\n",
                       u->median_tokens, u->tokened, u->p95_tokens,
                       u->tokened);
        if (u->costed)
            buf_printf(b, "<tr><td>cost</td><td>$%.4f</td><td>%ld</td>"
                          "</tr>\n",
                       u->cost, u->costed);
        if (u->timed)
            buf_printf(b, "<tr><td>seconds an episode (mean)</td>"
                          "<td>%.1f</td><td>%ld</td></tr>\n",
                       u->mean_seconds, u->timed);
        if (u->timed)
            buf_printf(b, "<tr><td>seconds an episode (median)</td>"
                          "<td>%.1f</td><td>%ld</td></tr>\n<tr><td>seconds "
                          "an episode (95th percentile)</td><td>%.1f</td>"
                          "<td>%ld</td></tr>\n",
                       u->median_seconds, u->timed, u->p95_seconds, u->timed);
        if (u->timed_calls)
            buf_printf(b, "<tr><td>seconds a call (mean)</td><td>%.3f</td>"
                          "<td>%ld calls</td></tr>\n",
                       u->mean_call_seconds, u->timed_calls);
        table_close(b);
    }
}

/* The words a card uses, each explained where it first appears (its
 * title shown on hover and read by screen readers; docs/glossary.md says
 * them all). */
#define TERM(word, says) "<abbr title=\"" says "\">" word "</abbr>"
static const char term_pass[] =
    TERM("pass", "reached, with no side effect and no duplicate write");
static const char term_reached[] =
    TERM("reached", "every write step of the task was done");
static const char term_side[] =
    TERM("side effects", "writes the task did not ask for, accepted");
static const char term_dup[] =
    TERM("duplicate writes", "writes the task asked for, made again");
static const char term_diverged[] =
    TERM("diverged", "a logged answer differs from the simulator's answer "
                     "to the same call: the agent saw something else");
static const char term_arm[] =
    TERM("arm", "one setting of the tasks: base, a depth, or one dial at a "
                "level (faults:f2)");
static const char term_dial[] =
    TERM("dial", "a way the simulator makes a task harder: faults, "
                 "timeouts, rate limits, a write that lands but times out, "
                 "bad data, a lagging read");
static const char term_fired[] =
    TERM("fired", "events the agent came to (the planned call was made)");

/* The result table. */
static void result_table(buf *b, const card *c)
{
    buf_printf(b, "<h3>Result: %ld episode%s</h3>\n", c->episodes,
               c->episodes == 1 ? "" : "s");
    table_open(b, "result");
    buf_puts(b, "<thead><tr><th></th><th>count</th><th>rate</th>"
                "<th>95% CI</th></tr></thead><tbody>\n");
    if (c->observed) {
        count_row(b, "replayed against tasks", NULL, c->simulated, 0);
        count_row(b, "observed", NULL, c->observed, 0);
    }
    int sim = c->simulated || !c->observed; /* simulator figures apply */
    if (sim) {
        rate_row(b, term_pass, c->rate[0], 1);
        rate_row(b, term_reached, PLAIN(c->reached, c->simulated), 1);
    }
    for (int k = 0; k < 2; k++)
        if (c->harness[k].judged)
            rate_row(b, k ? "harness success (observed)"
                          : "harness success (replayed)",
                     k ? c->rate[1]
                       : PLAIN(c->harness[k].successes, c->harness[k].judged),
                     !c->simulated);
    if (sim && c->simulated) { /* none: nothing was measured */
        count_row(b, term_side, NULL, c->side_effects, 1);
        count_row(b, term_dup, NULL, c->duplicates, 1);
        count_row(b, "errors", NULL, c->errors, 0);
        for (int i = 0; i < CARD_CODES; i++)
            if (c->by_code[i])
                count_row(b, "errors", card_codes[i], c->by_code[i], 0);
        const card_efficiency *f = &c->efficiency;
        count_row(b, "calls", NULL, f->calls, 0);
        count_row(b, "the tasks' steps", NULL, f->steps, 0);
        count_row(b, "repeated reads", NULL, f->repeated_reads, 0);
        count_row(b, "retries after an error", NULL, f->retries, 0);
        count_row(b, "planned errors", "faults, timeouts, rate limits",
                  f->planned_errors, 0);
    }
    count_row(b, "unfinished", NULL, c->unfinished, 0);
    char diverged[sizeof term_diverged + 16];
    snprintf(diverged, sizeof diverged, "%s episodes", term_diverged);
    if (sim && c->simulated && !c->compared_episodes) {
        buf_printf(b, "<tr><td>%s</td><td>-</td><td></td>"
                      "<td>no call had an answer logged</td></tr>\n",
                   diverged);
    } else if (sim && c->simulated) {
        count_row(b, diverged, NULL, c->diverged_episodes, 1);
        count_row(b, "episodes compared", NULL, c->compared_episodes, 0);
        count_row(b, "diverged calls", NULL, c->diverged_calls, 0);
        count_row(b, "calls compared", NULL, c->compared_calls, 0);
        count_row(b, "calls with no answer logged", NULL, c->unlogged_calls,
                  0);
    }
    count_row(b, "problems", NULL, c->problems, 0);
    if (c->problems_no_run)
        count_row(b, "problems that name no run (in the database)", NULL,
                  c->problems_no_run, 0);
    table_close(b);
}

static void arms_table(buf *b, const card *c)
{
    table_open(b, "arms");
    buf_puts(b, "<thead><tr><th>arm</th><th>episodes</th><th>pass</th>"
                "<th>95% CI</th><th>reached</th><th>95% CI</th>"
                "<th>side effects</th><th>duplicate writes</th></tr>"
                "</thead><tbody>\n");
    for (size_t i = 0; i < c->narms; i++) {
        const card_arm *a = &c->arms[i];
        interval w = wilson((unsigned long)a->pass, (unsigned long)a->episodes);
        interval v = wilson((unsigned long)a->reached,
                            (unsigned long)a->episodes);
        buf_puts(b, "<tr><td>");
        shown_html(b, a->arm);
        buf_printf(b, "</td><td>%ld</td><td>%ld</td><td>%.1f-%.1f%%</td>"
                      "<td>%ld</td><td>%.1f-%.1f%%</td><td>%ld</td>"
                      "<td>%ld</td></tr>\n",
                   a->episodes, a->pass, 100 * w.lo, 100 * w.hi, a->reached,
                   100 * v.lo, 100 * v.hi, a->side_effects, a->duplicates);
    }
    table_close(b);
}

static void dials_table(buf *b, const card *c)
{
    table_open(b, "dials");
    buf_printf(b, "<thead><tr><th>dial</th><th>events</th><th>%s</th>",
               term_fired);
    buf_puts(b, "<th>outcomes</th></tr></thead><tbody>\n");
    for (size_t i = 0; i < c->ndials; i++) {
        const card_dial *d = &c->dials[i];
        buf_puts(b, "<tr><td>");
        shown_html(b, d->dial);
        buf_printf(b, "</td><td>%ld</td><td>%ld</td><td>", d->events,
                   d->fired);
        card_outcomes_text(b, d);
        buf_puts(b, "</td></tr>\n");
    }
    table_close(b);
}

/* Why the run's episodes ended as they did. */
static void classes_table(buf *b, const card *c, const html_links *l)
{
    buf_puts(b, "<h3>Why episodes ended as they did</h3>\n");
    table_open(b, "classes");
    buf_puts(b, "<thead><tr><th>class</th><th>episodes</th>"
                "<th>what happened</th><th>arms</th></tr></thead><tbody>\n");
    for (size_t i = 0; i < c->nclasses; i++) {
        const card_class *k = &c->classes[i];
        const char *page = l && l->class_pages ? l->class_pages[i] : NULL;
        if (page)
            buf_printf(b, "<tr><td><a href=\"%s\">%s</a></td>", page,
                       k->name);
        else
            buf_printf(b, "<tr><td>%s</td>", k->name);
        buf_printf(b, "<td>%ld</td><td>%s</td><td>", k->episodes,
                   strcmp(k->name, "passed") ? card_class_meaning(k->name)
                                             : "");
        buf arms = BUF_INIT;
        card_class_arms_text(&arms, k, c->narms);
        b->failed |= arms.failed;
        if (arms.len && !arms.failed)
            shown_html(b, arms.data);
        buf_free(&arms);
        buf_puts(b, "</td></tr>\n");
    }
    table_close(b);
}

static void problems_list(buf *b, const card *c)
{
    buf_printf(b, "<h3>Problems (first %zu)</h3>\n<ul class=\"problems\">",
               c->nfirst);
    for (size_t i = 0; i < c->nfirst; i++) {
        buf where = BUF_INIT;
        card_problem_where(&where, &c->first_problems[i]);
        buf_puts(b, "<li><code>");
        shown_html(b, where.data && !where.failed ? where.data : "");
        buf_puts(b, "</code>: ");
        if (where.failed)
            b->failed = 1;
        buf_free(&where);
        shown_html(b, c->first_problems[i].message);
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
        shown_html(b, q.failed || !q.data ? "" : q.data);
        b->failed |= q.failed;
        buf_puts(b, "&#39;</code>)</li>\n");
        buf_free(&q);
    }
    buf_puts(b, "</ul>\n");
}

void html_card(buf *b, const card *c, int n)
{
    html_card_linked(b, c, n, NULL);
}

void html_card_linked(buf *b, const card *c, int n, const html_links *l)
{
    buf_puts(b, "<section class=\"card\">\n<h2>Card: ");
    shown_html(b, c->run);
    buf_puts(b, "</h2>\n");
    buf sentence = BUF_INIT;
    card_headline(&sentence, c);
    headline(b, &sentence);
    buf_free(&sentence);
    /* the provenance in a line: the whole of it is at the end */
    buf_puts(b, "<p class=\"note\">");
    if (c->model[0]) {
        buf_puts(b, "Model ");
        shown_html(b, c->model);
        buf_puts(b, ", tool file <code>");
    } else {
        buf_puts(b, "Tool file <code>");
    }
    shown_html(b, c->tools_path);
    buf_puts(b, "</code>, replayed ");
    shown_html(b, c->replayed_at);
    buf_puts(b, ".</p>\n");

    result_table(b, c);
    if (c->narms) {
        buf_printf(b, "<h3>Per %s</h3>\n", term_arm);
        arm_plot(b, c, n);
        arms_table(b, c);
    }
    if (c->ndials) {
        buf_printf(b, "<h3>Per %s</h3>\n", term_dial);
        plot_dials(b, c, n);
        dials_table(b, c);
    }
    html_observed(b, c);
    if (c->nclasses)
        classes_table(b, c, l);
    if (c->nfirst)
        problems_list(b, c);
    made_with(b, c);
    buf_puts(b, "</section>\n");
}

/* -------------------------------------------------------- a compare */

/* The harness's success over both kinds of a run's episodes (of observed
 * ones only, clustered by task where trials repeat). */
static void success_of(const card *c, card_rate *r)
{
    if (!c->harness[0].judged)
        *r = c->rate[1];
    else
        *r = PLAIN(c->harness[0].successes + c->harness[1].successes,
                   c->harness[0].judged + c->harness[1].judged);
}

/* Each run's pass rate and the harness's success, as a picture and a
 * table: what the differences below are differences of. */
static void html_rates(buf *b, const card_compared *x)
{
    const card *both[2] = {x->a, x->b};
    int pass = x->a->simulated || x->b->simulated;
    card_rate sr[2];
    success_of(x->a, &sr[0]);
    success_of(x->b, &sr[1]);
    int success = sr[0].n || sr[1].n;
    if (!pass && !success)
        return;
    plot_row rows[2];
    buf desc = BUF_INIT;
    memset(rows, 0, sizeof rows);
    for (int i = 0; i < 2; i++) {
        const card *c = both[i];
        rows[i].label = c->run;
        rows[i].suffix = i ? " (B)" : " (A)";
        if (i)
            buf_puts(&desc, "; ");
        shown_html(&desc, c->run);
        buf_puts(&desc, i ? " (B):" : " (A):");
        if (pass) {
            buf_puts(&desc, " pass ");
            rate_text(&desc, c->rate[0]);
            if (c->simulated)
                rows[i].marks[rows[i].nmarks++] =
                    rate_mark(c->rate[0], 0);
        }
        if (success) {
            buf_puts(&desc, pass ? ", the harness's success " :
                                   " the harness's success ");
            rate_text(&desc, sr[i]);
            if (sr[i].n)
                rows[i].marks[rows[i].nmarks++] = rate_mark(sr[i], 1);
        }
        if (!rows[i].nmarks)
            rows[i].none = "no episodes";
    }
    buf_putc(&desc, '.');
    plot_spec s = {.id = "rates",
                   .title = "Each run's rates, with 95% intervals",
                   .desc = desc.failed || !desc.data ? "" : desc.data,
                   .lo = 0,
                   .hi = 100,
                   .step = 25,
                   .unit = "%",
                   .axis_title = "Share of the run's episodes, %; bars: 95% "
                                 "intervals",
                   .series = {pass ? "pass" : NULL,
                              success ? "the harness's success" : NULL}};
    b->failed |= desc.failed;
    buf_puts(b, "<h3>Each run</h3>\n");
    plot_rows(b, &s, rows, 2);
    table_open(b, "rates");
    buf_puts(b, "<thead><tr><th>run</th><th>measure</th><th>count</th>"
                "<th>of</th><th>rate</th><th>95% CI</th></tr></thead>"
                "<tbody>\n");
    for (int m = 0; m < 2; m++) {
        if (!(m ? success : pass))
            continue;
        for (int i = 0; i < 2; i++) {
            card_rate r = m ? sr[i] : both[i]->rate[0];
            buf_puts(b, "<tr><td>");
            shown_html(b, both[i]->run);
            buf_printf(b, " (%c)</td><td>%s</td>", i ? 'B' : 'A',
                       m ? "the harness&#39;s success" : "pass");
            if (r.n) {
                buf_printf(b, "<td>%ld</td><td>%ld</td><td>%.1f%%</td>"
                              "<td>%.1f-%.1f%%",
                           r.x, r.n, pct(r.x, r.n), 100 * r.ci.lo,
                           100 * r.ci.hi);
                if (r.clustered)
                    buf_printf(b, " (clustered by %ld task%s)",
                               r.tasks, r.tasks == 1 ? "" : "s");
                buf_puts(b, "</td></tr>\n");
            } else {
                buf_puts(b, "<td>-</td><td>0</td><td>-</td><td>no episodes"
                            "</td></tr>\n");
            }
        }
    }
    table_close(b);
    buf_free(&desc);
}

/* A difference A - B as a plot's mark, in percentage points. */
static plot_mark diff_mark(double diff, interval ci)
{
    return (plot_mark){100 * diff, 100 * ci.lo, 100 * ci.hi, 0};
}

/* A difference and its interval for a text alternative. */
static void diff_text(buf *b, double diff, interval ci)
{
    buf_printf(b, "%+.1f points, 95%% CI %+.1f to %+.1f", 100 * diff,
               100 * ci.lo, 100 * ci.hi);
}

/* The spec of a difference plot: -100 to +100 points, favours B on the
 * left, A on the right. */
static plot_spec diff_spec(const card_compared *x, const char *id,
                           const char *title, const char *axis_title,
                           const char *desc)
{
    return (plot_spec){.id = id,
                       .title = title,
                       .desc = desc,
                       .lo = -100,
                       .hi = 100,
                       .step = 50,
                       .unit = "",
                       .signed_ticks = 1,
                       .axis_title = axis_title,
                       .favours_a = x->a->run,
                       .favours_b = x->b->run,
                       /* every colour drawn has its word */
                       .series = {"A - B, with its 95% interval", NULL}};
}

/* The paired rows of one measure, [from, to): a picture and a table. */
static void paired_measure(buf *b, const card_compared *x, size_t from,
                           size_t to)
{
    const card_paired *r = x->paired;
    const card_paired *first = &r[from];
    int pass = strcmp(first->measure, "pass") == 0;
    buf_printf(b, "<h3>Paired, by task (%s)</h3>\n<p>%ld tasks in both runs, "
                  "%ld only in ",
               pass ? "pass" : "the harness&#39;s success", first->shared,
               first->only_a);
    shown_html(b, x->a->run);
    buf_printf(b, ", %ld only in ", first->only_b);
    shown_html(b, x->b->run);
    if (first->shared == 0) {
        buf_puts(b, ". No task is in both runs: nothing to pair, and no "
                    "paired figure.</p>\n");
        return;
    }
    buf_puts(b, first->one_trial
                    ? ". One trial of each task in each run: A - B with "
                      "Tango&#39;s score interval; the pairs by outcome, and "
                      "McNemar&#39;s exact p.</p>\n"
                    : ". Several trials of a task: A - B is the mean of "
                      "per-task differences, its interval clustered by task; "
                      "the pairs by outcome and McNemar&#39;s exact p are of "
                      "each task&#39;s first trial.</p>\n");
    size_t n = to - from;
    plot_row *rows = calloc(n, sizeof *rows);
    buf desc = BUF_INIT;
    if (!rows) {
        b->failed = 1;
        return;
    }
    for (size_t i = 0; i < n; i++) {
        const card_paired *p = &r[from + i];
        rows[i].label = p->arm;
        rows[i].overall = i == 0 && strcmp(p->arm, "all") == 0;
        rows[i].group_break = i > 1 && new_dial(r[from + i - 1].arm, p->arm);
        if (i)
            buf_puts(&desc, "; ");
        shown_html(&desc, p->arm);
        buf_puts(&desc, ": ");
        if (p->shared == 0) {
            rows[i].none = "no shared task";
            buf_puts(&desc, "no shared task");
            continue;
        }
        rows[i].nmarks = 1;
        rows[i].marks[0] = diff_mark(p->diff, p->ci);
        diff_text(&desc, p->diff, p->ci);
        buf_printf(&desc, ", %ld tasks", p->shared);
    }
    buf_putc(&desc, '.');
    char id[32];
    snprintf(id, sizeof id, "paired-%s", pass ? "pass" : "success");
    plot_spec s = diff_spec(x, id,
                            pass ? "Paired by task: pass rate A - B, all "
                                   "tasks and per arm, with 95% intervals"
                                 : "Paired by task: the harness's success "
                                   "A - B, with its 95% interval",
                            first->one_trial
                                ? "A - B, percentage points; bars: 95% "
                                  "intervals (Tango's)"
                                : "A - B, percentage points; bars: 95% "
                                  "intervals (clustered by task)",
                            desc.failed || !desc.data ? "" : desc.data);
    b->failed |= desc.failed;
    plot_rows(b, &s, rows, n);
    free(rows);
    buf_free(&desc);
    table_open(b, "paired");
    buf_puts(b, "<thead><tr><th>arm</th><th>tasks</th><th>A - B (points)"
                "</th><th>95% CI</th><th>A only</th><th>B only</th>"
                "<th>both</th><th>neither</th><th>McNemar p</th></tr>"
                "</thead><tbody>\n");
    for (size_t i = from; i < to; i++) {
        const card_paired *p = &r[i];
        const card_pairs *q = &p->pairs;
        buf_puts(b, "<tr><td>");
        shown_html(b, p->arm);
        if (p->shared == 0) {
            buf_puts(b, "</td><td>0</td><td>-</td><td>-</td><td></td><td></td>"
                        "<td></td><td></td><td></td></tr>\n");
            continue;
        }
        buf_printf(b, "</td><td>%ld</td><td>%+.1f</td><td>%+.1f to %+.1f</td>"
                      "<td>%ld</td><td>%ld</td><td>%ld</td><td>%ld</td><td>",
                   p->shared, 100 * p->diff, 100 * p->ci.lo, 100 * p->ci.hi,
                   q->a_only, q->b_only, q->both, q->neither);
        if (q->n == 0)
            buf_putc(b, '-');
        else
            card_p_text(b, q->p);
        buf_puts(b, "</td></tr>\n");
    }
    table_close(b);
}

/* The unpaired per-arm differences: a picture and a table. */
static void html_unpaired(buf *b, const card_compared *x)
{
    const card_row *rows = x->rows;
    size_t n = x->nrows;
    buf_puts(b, "<h3>Unpaired, per arm</h3>\n<p>Each row is the difference "
                "of pass rates A - B over the runs&#39; episodes, as two "
                "independent samples, in percentage points, with its 95% "
                "interval (Newcombe&#39;s): less sensitive than the paired "
                "difference above.</p>\n");
    plot_row *pr = calloc(n ? n : 1, sizeof *pr);
    buf desc = BUF_INIT;
    if (!pr) {
        b->failed = 1;
        return;
    }
    for (size_t i = 0; i < n; i++) {
        pr[i].label = rows[i].arm;
        pr[i].overall = i == 0;
        pr[i].group_break = i > 1 && new_dial(rows[i - 1].arm, rows[i].arm);
        if (i)
            buf_puts(&desc, "; ");
        shown_html(&desc, rows[i].arm);
        if (rows[i].measured) {
            pr[i].nmarks = 1;
            pr[i].marks[0] = diff_mark(rows[i].diff, rows[i].ci);
            buf_puts(&desc, ": ");
            diff_text(&desc, rows[i].diff, rows[i].ci);
        } else {
            pr[i].none = rows[i].na ? "only in A" : "only in B";
            buf_printf(&desc, ": only in %s, no difference",
                       rows[i].na ? "A" : "B");
        }
    }
    buf_putc(&desc, '.');
    plot_spec s = diff_spec(x, "diff",
                            "Unpaired: pass rate A - B, all episodes and "
                            "per arm, with 95% intervals",
                            "A - B, percentage points; bars: 95% intervals "
                            "(Newcombe's)",
                            desc.failed || !desc.data ? "" : desc.data);
    b->failed |= desc.failed;
    plot_rows(b, &s, pr, n);
    free(pr);
    buf_free(&desc);
    int lone = 0;
    table_open(b, "diffs");
    buf_puts(b, "<thead><tr><th>arm</th><th>A pass</th><th>B pass</th>"
                "<th>A - B (points)</th><th>95% CI</th><th>excludes 0</th>"
                "</tr></thead><tbody>\n");
    for (size_t i = 0; i < n; i++) {
        buf_puts(b, "<tr><td>");
        shown_html(b, rows[i].arm);
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
    table_close(b);
    if (lone)
        buf_puts(b, "<p>An arm only one run has episodes of has no "
                    "difference to show.</p>\n");
}

/* The hashes of both runs, as the refusal gives them. */
static void both_hashes(buf *b, const card *a, const card *c,
                        enum compare_case k)
{
    const card *both[2] = {a, c};
    table_open(b, "hashes");
    buf_puts(b, "<tbody>\n");
    for (int i = 0; i < 2; i++) {
        const card *x = both[i];
        buf_puts(b, "<tr><th colspan=\"2\">");
        shown_html(b, x->run);
        buf_puts(b, "</th></tr>\n<tr><td>file hash</td><td><code>");
        shown_html(b, x->file_sha256);
        buf_puts(b, "</code></td></tr>\n");
        if (k == COMPARE_CONTRACTS) {
            buf_puts(b, "<tr><td>contract</td><td><code>");
            shown_html(b, x->contract_sha256);
            buf_puts(b, "</code></td></tr>\n");
        }
        if (k == COMPARE_GENERATORS) {
            buf_printf(b, "<tr><td>generator</td><td>%d</td></tr>\n"
                          "<tr><td>fingerprint</td><td><code>",
                       x->generator_version);
            shown_html(b, x->fingerprint);
            buf_puts(b, "</code></td></tr>\n");
        }
    }
    table_close(b);
}

static void name_list(buf *b, const char *what, char **names, size_t n)
{
    if (n == 0)
        return;
    buf_printf(b, "<li>%s: ", what);
    for (size_t i = 0; i < n; i++) {
        if (i)
            buf_puts(b, ", ");
        shown_html(b, names[i]);
    }
    buf_puts(b, "</li>\n");
}

/* A link to a page of the night's, named by card (no text from the
 * database in it but escaped). */
static void page_link(buf *b, const char *page, const char *run)
{
    buf_puts(b, "<a href=\"");
    shown_html(b, page);
    buf_puts(b, "\">");
    shown_html(b, run);
    buf_puts(b, "</a>");
}

/* Every flipped task, the largest change first. */
static void flips_table(buf *b, const card_compared *x, const html_links *l)
{
    const card_flips *f = &x->flips;
    buf_puts(b, "<h3>Flipped tasks</h3>\n");
    if (f->n == 0) {
        buf_puts(b, f->shared ? "<p>None: every task both runs have passed "
                                "as often in each.</p>\n"
                              : "<p>None: no task is in both runs.</p>\n");
        return;
    }
    buf_printf(b, "<p>%zu task%s (passed more often in A: %ld; in B: %ld). "
                  "Passes of trials, and the class of the first trial that "
                  "failed (else the first), with its episode.</p>\n",
               f->n, f->n == 1 ? "" : "s", f->better_a, f->better_b);
    table_open(b, "flips");
    buf_puts(b, "<thead><tr><th>task</th><th>arm</th><th>A</th>"
                "<th>B</th></tr></thead><tbody>\n");
    for (size_t i = 0; i < f->n; i++) {
        const card_flip *p = &f->v[i];
        buf_puts(b, "<tr><td>");
        shown_html(b, p->task);
        buf_puts(b, "</td><td>");
        shown_html(b, p->arm ? p->arm : "-");
        for (int k = 0; k < 2; k++) {
            char side[CARD_FLIP_SIDE];
            buf_puts(b, "</td><td>");
            shown_html(b, card_flip_side(side, p, k));
            const char *page = l && l->flip_pages && i < l->nflips
                                   ? l->flip_pages[2 * i + (size_t)k]
                                   : NULL;
            buf_puts(b, "<br><span class=\"note\">");
            if (page)
                buf_printf(b, "<a href=\"%s\">", page);
            shown_html(b, p->episode[k]);
            buf_puts(b, page ? "</a></span>" : "</span>");
        }
        buf_puts(b, "</td></tr>\n");
    }
    table_close(b);
}

/* Tokens and seconds by task, where the logs say them. */
static void usage_tables(buf *b, const card_compared *x)
{
    const usage_pairs *u = &x->usage;
    if (!usage_pairs_any(u))
        return;
    buf_puts(b, "<h3>Usage by task, as logged</h3>\n<p>Each task&#39;s mean "
                "over its episodes that give the figure; A - B is the mean "
                "of per-task differences, its 95% interval clustered by "
                "task.</p>\n");
    table_open(b, "usage");
    buf_puts(b, "<thead><tr><th>measure</th><th>tasks</th><th>A</th>"
                "<th>B</th><th>A - B</th><th>95% CI</th></tr></thead>"
                "<tbody>\n");
    for (int m = 0; m < USAGE_MEASURES; m++) {
        const usage_paired *p = &u->m[m];
        char va[USAGE_VALUE], vb[USAGE_VALUE], d[USAGE_VALUE],
            lo[USAGE_VALUE], hi[USAGE_VALUE];
        if (!p->tasks)
            continue;
        buf_printf(b, "<tr><td>%s</td><td>%ld</td><td>%s</td><td>%s</td>"
                      "<td>%s</td><td>",
                   usage_measures[m], p->tasks,
                   usage_value(va, m, p->mean[0], 0),
                   usage_value(vb, m, p->mean[1], 0),
                   usage_value(d, m, p->diff, 1));
        if (p->has_ci)
            buf_printf(b, "%s to %s</td></tr>\n",
                       usage_value(lo, m, p->ci.lo, 1),
                       usage_value(hi, m, p->ci.hi, 1));
        else
            buf_puts(b, "- (one task)</td></tr>\n");
    }
    table_close(b);
    for (int m = 0; m < USAGE_MEASURES; m++) {
        const usage_paired *p = &u->m[m];
        size_t all = (size_t)p->tasks;
        size_t shown = all < x->usage_shown ? all : x->usage_shown;
        if (!all)
            continue;
        buf_printf(b, "<p>%s: the task%s that changed most", usage_measures[m],
                   shown == 1 ? "" : "s");
        if (shown < all)
            buf_printf(b, " (%zu of %zu; <code>card --compare --json</code> "
                          "lists every one)",
                       shown, all);
        buf_puts(b, ".</p>\n");
        table_open(b, "usage");
        buf_puts(b, "<thead><tr><th>task</th><th>arm</th><th>A</th>"
                    "<th>B</th><th>A - B</th></tr></thead><tbody>\n");
        for (size_t i = 0; i < shown; i++) {
            const usage_task *k = &p->v[i];
            char va[USAGE_VALUE], vb[USAGE_VALUE], d[USAGE_VALUE];
            buf_puts(b, "<tr><td>");
            shown_html(b, k->task);
            buf_puts(b, "</td><td>");
            shown_html(b, k->arm ? k->arm : "-");
            buf_printf(b, "</td><td>%s</td><td>%s</td><td>%s</td></tr>\n",
                       usage_value(va, m, k->mean[0], 0),
                       usage_value(vb, m, k->mean[1], 0),
                       usage_value(d, m, k->mean[0] - k->mean[1], 1));
        }
        table_close(b);
    }
}

void html_compare(buf *b, const card_compared *x, const char *page_a,
                  const char *page_b)
{
    html_compare_linked(b, x, page_a, page_b, NULL);
}

/* A run name longer than NAME_LONG code points, as a compare's heading
 * and headline show it: its first NAME_HEAD and last NAME_TAIL code
 * points about an ellipsis (runs of one night often differ only at the
 * end), in a string of one's own; NULL when it is not that long (or out
 * of memory: then whole).  A byte that is not UTF-8 counts as one. */
#define NAME_LONG 48
#define NAME_HEAD 32
#define NAME_TAIL 12
static char *short_name(const char *s)
{
    size_t n = 0, len = strlen(s), head = 0, tail = 0;
    for (size_t i = 0; i < len; i++)
        n += ((unsigned char)s[i] & 0xC0) != 0x80;
    if (n <= NAME_LONG)
        return NULL;
    for (size_t seen = 0; head < len; head++) { /* past NAME_HEAD points */
        if (((unsigned char)s[head] & 0xC0) != 0x80 && seen++ == NAME_HEAD)
            break;
    }
    for (size_t seen = 0, i = len; i > 0; i--) { /* the last NAME_TAIL */
        if (((unsigned char)s[i - 1] & 0xC0) != 0x80 && ++seen == NAME_TAIL) {
            tail = len - (i - 1);
            break;
        }
    }
    char *out = malloc(head + 3 + tail + 1);
    if (!out)
        return NULL;
    memcpy(out, s, head);
    memcpy(out + head, "\xe2\x80\xa6", 3);
    memcpy(out + head + 3, s + len - tail, tail);
    out[head + 3 + tail] = '\0';
    return out;
}

/* The compare's heading and headline, long run names shortened (each
 * then given whole beneath). */
static void compare_head(buf *b, const card_compared *x)
{
    char *sa = short_name(x->a->run), *sb = short_name(x->b->run);
    card a = *x->a, c = *x->b;
    card_compared y = *x;
    a.run = sa ? sa : a.run;
    c.run = sb ? sb : c.run;
    y.a = &a;
    y.b = &c;
    buf_puts(b, "<section class=\"compare\">\n<h2>Compare: ");
    shown_html(b, a.run);
    buf_puts(b, " (A) and ");
    shown_html(b, c.run);
    buf_puts(b, " (B)</h2>\n");
    buf sentence = BUF_INIT;
    card_verdict_text(&sentence, &y);
    headline(b, &sentence);
    buf_free(&sentence);
    if (sa || sb) {
        buf_puts(b, "<p class=\"note names\">A is ");
        shown_html(b, x->a->run);
        buf_puts(b, "<br>B is ");
        shown_html(b, x->b->run);
        buf_puts(b, "</p>\n");
    }
    free(sa);
    free(sb);
}

/* The tools that differ from A's contract to B's. */
static void tools_differ(buf *b, const contract_diff *d)
{
    buf_puts(b, "<ul class=\"tools\">\n");
    if (d->nadded + d->nremoved + d->nchanged == 0)
        buf_printf(b, "<li>%s</li>\n", card_same_tools);
    name_list(b, "added", d->added, d->nadded);
    name_list(b, "removed", d->removed, d->nremoved);
    name_list(b, "changed", d->changed, d->nchanged);
    buf_puts(b, "</ul>\n");
}

void html_compare_linked(buf *b, const card_compared *x, const char *page_a,
                         const char *page_b, const html_links *l)
{
    const card *a = x->a, *c = x->b;
    enum compare_case k = x->k;
    const contract_diff *d = &x->d;
    compare_head(b, x);
    if (page_a && page_b) {
        buf_puts(b, "<p class=\"note\">The runs&#39; cards: ");
        page_link(b, page_a, a->run);
        buf_puts(b, " (A), ");
        page_link(b, page_b, c->run);
        buf_puts(b, " (B).</p>\n");
    }
    if (k != COMPARE_SAME) { /* the headline says why */
        if (k == COMPARE_CONTRACTS)
            tools_differ(b, d);
        both_hashes(b, a, c, k);
        buf_puts(b, "</section>\n");
        return;
    }
    buf pairing = BUF_INIT;
    card_pairing_text(&pairing, x, 1);
    buf_puts(b, "<p>");
    if (pairing.failed)
        b->failed = 1;
    else
        shown_html(b, pairing.data);
    buf_puts(b, "</p>\n");
    buf_free(&pairing);
    if (x->contract == CONTRACT_ACROSS)
        tools_differ(b, d);
    html_rates(b, x);
    /* which tasks changed, before the figures of how much */
    flips_table(b, x, l);
    /* the paired analysis first: on the same tasks, it is the more
     * sensitive */
    for (size_t i = 0; i < x->npaired;) {
        size_t j = i + 1;
        while (j < x->npaired &&
               strcmp(x->paired[j].measure, x->paired[i].measure) == 0)
            j++;
        paired_measure(b, x, i, j);
        i = j;
    }
    if (x->nrows)
        html_unpaired(b, x);
    usage_tables(b, x);
    buf_puts(b, "</section>\n");
}

void html_trend(buf *b, const trend *t)
{
    if (t->n < 2)
        return;
    size_t from = t->n > TREND_SHOWN ? t->n - TREND_SHOWN : 0;
    size_t n = t->n - from;
    plot_row *rows = calloc(n, sizeof *rows);
    buf desc = BUF_INIT, why = BUF_INIT;
    if (!rows) {
        b->failed = 1;
        return;
    }
    buf_puts(b, "<section class=\"trend\">\n<h2>Over time</h2>\n"
                "<p class=\"note\">");
    if (from)
        buf_printf(b, "The latest %zu of the %zu runs", n, t->n);
    else
        buf_printf(b, "The %zu runs", n);
    buf_puts(b, " in the order replayed, each with its figure (pass rate, or "
                "the harness&#39;s success) and 95% interval; a line where a "
                "series starts again (<code>card --trend</code> gives every "
                "run).</p>\n");
    for (size_t i = 0; i < n; i++) {
        const trend_night *x = &t->v[from + i];
        plot_row *r = &rows[i];
        r->label = x->run;
        r->group_break = i && x->breaks;
        if (i)
            buf_puts(&desc, "; ");
        shown_html(&desc, x->run);
        if (x->measure) {
            r->nmarks = 1;
            r->marks[0] = rate_mark(PLAIN(x->x, x->n), 0);
            buf_printf(&desc, ": %s ", x->measure);
            rate_text(&desc, PLAIN(x->x, x->n));
        } else {
            r->none = "no figure";
            buf_puts(&desc, ": no figure");
        }
    }
    buf_putc(&desc, '.');
    plot_spec s = {.id = "trend",
                   .title = "Each run's figure in the order replayed, with "
                            "95% intervals",
                   .desc = desc.failed || !desc.data ? "" : desc.data,
                   .lo = 0,
                   .hi = 100,
                   .step = 25,
                   .unit = "%",
                   .axis_title = "Pass rate (or the harness's success), %; "
                                 "bars: 95% Wilson intervals",
                   .series = {"a run's figure, with its 95% interval",
                              NULL}};
    b->failed |= desc.failed;
    plot_rows(b, &s, rows, n);
    free(rows);
    buf_free(&desc);
    int any = 0;
    for (size_t i = from + 1; i < t->n; i++) {
        if (!t->v[i].breaks)
            continue;
        buf_puts(b, any++ ? "<li>" : "<ul class=\"series\">\n<li>");
        buf_puts(b, "A new series from ");
        shown_html(b, t->v[i].run);
        buf_puts(b, ": ");
        buf_reset(&why);
        trend_break_words(&why, t->v[i].breaks);
        shown_html_raw(b, why.failed || !why.data ? "" : why.data);
        b->failed |= why.failed;
        buf_puts(b, ".</li>\n");
    }
    if (any)
        buf_puts(b, "</ul>\n");
    buf_free(&why);
    buf_puts(b, "<h3>Failing, and since when</h3>\n<p>");
    if (t->nf == 0) {
        buf_puts(b, "No task fails in the last series (from ");
        shown_html(b, t->v[t->series].run);
        buf_puts(b, ").</p>\n</section>\n");
        return;
    }
    buf_printf(b, "%zu task%s fail%s in the latest night of the last series "
                  "(from ",
               t->nf, t->nf == 1 ? "" : "s", t->nf == 1 ? "s" : "");
    shown_html(b, t->v[t->series].run);
    buf_puts(b, "), each since the night its failing began: the night after "
                "it last passed.</p>\n");
    table_open(b, "failing");
    buf_puts(b, "<thead><tr><th>task</th><th>arm</th><th>since</th>"
                "<th>passed before</th><th>nights</th></tr></thead><tbody>\n");
    size_t shown = t->nf < TREND_FAILING_SHOWN ? t->nf : TREND_FAILING_SHOWN;
    for (size_t i = 0; i < shown; i++) {
        const trend_failing *f = &t->f[i];
        buf_puts(b, "<tr><td>");
        shown_html(b, f->task);
        buf_puts(b, "</td><td>");
        shown_html(b, f->arm ? f->arm : "-");
        buf_puts(b, "</td><td>");
        shown_html(b, t->v[f->since].run);
        buf_printf(b, "</td><td>%s</td><td>%ld</td></tr>\n",
                   f->passed_before ? "yes" : "no", f->nights);
    }
    table_close(b);
    if (shown < t->nf)
        buf_printf(b, "<p class=\"note\">And %zu more: <code>card --trend "
                      "--tasks all</code> lists every one.</p>\n",
                   t->nf - shown);
    buf_puts(b, "</section>\n");
}

/* ----------------------------------------------------------- episode */

/* A JSON value of an episode, as code that wraps anywhere. */
static void json_cell(buf *b, const char *label, const char *value)
{
    if (!value)
        return;
    buf_printf(b, "<div class=\"val\"><span class=\"note\">%s</span> "
                  "<code>",
               label);
    shown_html(b, value);
    buf_puts(b, "</code></div>");
}

void html_episode(buf *b, const episode_view *v)
{
    buf_puts(b, "<section class=\"episode\">\n<h2>Episode: ");
    shown_html(b, v->episode);
    buf_puts(b, " <span class=\"note\">(run ");
    shown_html(b, v->run);
    buf_puts(b, ")</span></h2>\n");
    buf sentence = BUF_INIT;
    episode_headline(&sentence, v);
    headline(b, &sentence);
    buf_free(&sentence);
    table_open(b, "made");
    buf_puts(b, "<tbody>\n<tr><td>task</td><td>");
    shown_html(b, v->task ? v->task : "-");
    if (v->observed)
        buf_puts(b, " (observed: the harness&#39;s name)");
    else {
        buf_printf(b, " (seed %ld, arm ", v->seed);
        shown_html(b, v->arm ? v->arm : "-");
        buf_printf(b, ", depth %ld)", v->depth);
    }
    buf_puts(b, "</td></tr>\n");
    if (v->request) {
        buf_puts(b, "<tr><td>request</td><td>");
        shown_html(b, v->request);
        buf_puts(b, "</td></tr>\n");
    }
    if (!v->observed) { /* a figure not measured is "-", never 0 */
        char r1[24], r2[24], r3[24];
        buf_printf(b, "<tr><td>verdict</td><td>%s, %s; side effects %s, "
                      "duplicate writes %s, errors %s</td></tr>\n",
                   v->reached == 1 ? "reached" : "not reached",
                   v->pass == 1 ? "passed" : "not passed",
                   shown_count(r1, sizeof r1, v->side_effects >= 0,
                               v->side_effects),
                   shown_count(r2, sizeof r2, v->duplicate_writes >= 0,
                               v->duplicate_writes),
                   shown_count(r3, sizeof r3, v->errors >= 0, v->errors));
    }
    buf_printf(b, "<tr><td>harness</td><td>success %s",
               v->success < 0 ? "-" : v->success ? "true" : "false");
    if (v->has_reward)
        buf_printf(b, ", reward %g", v->reward);
    if (v->status) {
        buf_puts(b, ", status ");
        shown_html(b, v->status);
    }
    if (v->unfinished)
        buf_puts(b, "; unfinished: no end line");
    if (v->final) {
        buf_puts(b, "; final <code>");
        shown_html(b, v->final);
        buf_puts(b, "</code>");
    }
    buf_puts(b, "</td></tr>\n<tr><td>source</td><td><code>");
    shown_html(b, v->source_file);
    buf_printf(b, ":%ld</code></td></tr>\n", v->source_line);
    table_close(b);

    buf_printf(b, "<h3>Calls (%zu)</h3>\n", v->ncalls);
    if (v->ncalls) {
        table_open(b, "calls");
        buf_puts(b, "<thead><tr><th>#</th><th>call</th><th>what was sent, "
                    "and answered</th></tr></thead><tbody>\n");
    }
    for (size_t i = 0; i < v->ncalls; i++) {
        const ep_call *c = &v->calls[i];
        int marked = v->cls_seq == c->seq;
        buf_printf(b, "<tr id=\"call-%ld\"%s><td>%ld</td><td><b>", c->seq,
                   marked ? " class=\"key\"" : "", c->seq);
        shown_html(b, c->tool);
        buf_puts(b, "</b>");
        if (c->step >= 0)
            buf_printf(b, "<br>step %ld", c->step);
        if (!c->kind)
            buf_puts(b, "<br>no such tool");
        if (c->effect) {
            buf_puts(b, "<br>");
            shown_html(b, c->effect);
        }
        if (c->error) {
            buf_puts(b, "<br>error ");
            shown_html(b, c->error);
        }
        if (c->dial) {
            buf_puts(b, "<br>dial ");
            shown_html(b, c->dial);
        }
        if (c->arguments_valid == 0)
            buf_puts(b, "<br>invalid arguments");
        if (c->duration >= 0)
            buf_printf(b, "<br>%.3f s", c->duration);
        buf_puts(b, "</td><td>");
        json_cell(b, "sent", c->arguments ? c->arguments : c->arguments_raw);
        json_cell(b, "rule", c->rule);
        json_cell(b, "answer", c->answer);
        json_cell(b, c->answer ? "logged" : "answer", c->logged);
        if (c->answer && c->diverged == 1)
            buf_puts(b, "<div class=\"note\">the logged answer differs from "
                        "the simulator&#39;s</div>");
        buf_puts(b, "</td></tr>\n");
    }
    if (v->ncalls)
        table_close(b);
    if (v->nevents) {
        buf_puts(b, "<h3>Dial events</h3>\n");
        table_open(b, "events");
        buf_puts(b, "<thead><tr><th>event</th><th>dial</th><th>step</th>"
                    "<th>call</th><th>outcome</th></tr></thead><tbody>\n");
        for (size_t i = 0; i < v->nevents; i++) {
            const ep_event *o = &v->events[i];
            buf_printf(b, "<tr><td>%ld</td><td>", o->event);
            shown_html(b, o->dial);
            buf_printf(b, "</td><td>%ld</td><td>", o->step);
            if (o->seq >= 0)
                buf_printf(b, "%ld", o->seq);
            else
                buf_puts(b, "-");
            buf_puts(b, "</td><td>");
            shown_html(b, o->outcome);
            buf_puts(b, "</td></tr>\n");
        }
        table_close(b);
    }
    buf_puts(b, "</section>\n");
}

/* ---------------------------------------------------------- the index */

/* Whether entry e's verdict against the baseline has a p-value (a
 * paired compare, with pairs for McNemar's test). */
static int has_p(const html_entry *e, const card *baseline)
{
    return e->c != baseline && e->vs && e->vs->verdict.basis == VERDICT_PAIRED &&
           e->vs->verdict.pairs > 0;
}

/* Holm's adjustment of the runs' p-values against the baseline, into
 * adj (NAN where a run has none); the number adjusted, or -1 out of
 * memory. */
static long holm_of(const html_entry *runs, size_t n, const card *baseline,
                    double *adj)
{
    double *p = calloc(n ? n : 1, sizeof *p);
    if (!p)
        return -1;
    unsigned long m = 0;
    for (size_t i = 0; i < n; i++)
        if (has_p(&runs[i], baseline))
            p[m++] = runs[i].vs->verdict.p;
    if (holm(p, m, p) < 0) {
        free(p);
        return -1;
    }
    for (size_t i = 0, k = 0; i < n; i++)
        adj[i] = has_p(&runs[i], baseline) ? p[k++] : NAN;
    free(p);
    return (long)m;
}

/* The runs against the baseline after Holm's correction, in groups:
 * ahead, behind, not told apart, and with no test. */
static void holm_groups(buf *b, const html_entry *runs, size_t n,
                        const card *baseline, const double *adj, long m)
{
    static const char *const words[4] = {
        "ahead of it", "behind it", "not told apart from it",
        "with no paired test (no task in common, or not comparable)"};
    buf_printf(b, "<p class=\"note holm\">Against ");
    shown_html(b, baseline->run);
    buf_printf(b, ", after Holm&#39;s correction of McNemar&#39;s p over the "
                  "%ld paired compare%s (a difference when the adjusted p is "
                  "below 0.05):",
               m, m == 1 ? "" : "s");
    int printed = 0;
    for (int g = 0; g < 4; g++) {
        size_t count = 0;
        for (size_t i = 0; i < n; i++) {
            if (runs[i].c == baseline)
                continue;
            int group = isnan(adj[i])            ? 3
                        : !(adj[i] < 0.05)       ? 2
                        : runs[i].vs->verdict.diff > 0 ? 0
                                                       : 1;
            if (group != g)
                continue;
            buf_puts(b, count++ ? ", " : printed++ ? "; " : " ");
            if (count == 1)
                buf_printf(b, "%s: ", words[g]);
            shown_html(b, runs[i].c->run);
        }
    }
    buf_puts(b, ".</p>\n");
}

void html_index(buf *b, const html_entry *runs, size_t n,
                const card *baseline, long no_run)
{
    long episodes = 0;
    double *adj = calloc(n ? n : 1, sizeof *adj);
    long m = adj && baseline ? holm_of(runs, n, baseline, adj) : 0;
    if (!adj || m < 0) {
        free(adj);
        b->failed = 1;
        return;
    }
    for (size_t i = 0; i < n; i++)
        episodes += runs[i].c->episodes;
    buf_printf(b, "<section class=\"night\">\n<h1>The night&#39;s runs</h1>\n"
                  "<p class=\"headline\">%zu run%s, %ld episode%s",
               n, n == 1 ? "" : "s", episodes, episodes == 1 ? "" : "s");
    if (baseline) {
        buf_puts(b, "; each compared with ");
        shown_html(b, baseline->run);
        buf_puts(b, " where their tasks are the same");
    }
    buf_puts(b, ".</p>\n<p class=\"note\">Each run&#39;s figure is its pass "
                "rate (the harness&#39;s success for a run of observed "
                "episodes only), drawn with its 95% interval on one axis "
                "for all; two runs can be compared when their tasks are "
                "the same (the same tool file bytes and generator; for "
                "runs of observed episodes, the harness&#39;s task names "
                "on one tool contract).</p>\n");
    table_open(b, "index");
    buf_puts(b, "<thead><tr><th>run</th><th>model</th><th>tool file</th>"
                "<th>episodes</th><th class=\"fig\">figure (95% CI)");
    plot_index_axis(b);
    buf_puts(b, "</th><th>same tasks as</th>");
    if (baseline) {
        buf_puts(b, "<th class=\"vs\">against ");
        shown_html(b, baseline->run);
        buf_puts(b, "</th>");
    }
    buf_puts(b, "</tr></thead><tbody>\n");
    for (size_t i = 0; i < n; i++) {
        const card *c = runs[i].c;
        card_figure f;
        card_headline_figure(c, &f);
        buf_puts(b, "<tr><td class=\"run\">");
        page_link(b, runs[i].page, c->run);
        buf sentence = BUF_INIT;
        card_headline(&sentence, c);
        buf_puts(b, "<div class=\"note\">");
        shown_html(b, sentence.failed || !sentence.data ? "" : sentence.data);
        b->failed |= sentence.failed;
        buf_free(&sentence);
        buf_puts(b, "</div></td><td data-label=\"model\">");
        shown_html(b, c->model[0] ? c->model : "-");
        buf_puts(b, "</td><td data-label=\"tool file\">");
        shown_html(b, c->tools_path);
        buf_printf(b, "</td><td data-label=\"episodes\">%ld</td>"
                      "<td class=\"fig\" data-label=\"",
                   c->episodes);
        if (f.measure) /* pass, or the harness's success: said */
            buf_printf(b, "%s\">%s %.1f%% (%.1f-%.1f%%)", f.measure,
                       f.measure, pct(f.x, f.n), 100 * f.ci.lo,
                       100 * f.ci.hi);
        else
            buf_puts(b, "figure\">");
        plot_index_mark(b, &f);
        buf_puts(b, "</td><td data-label=\"same tasks as\">");
        /* one or two by name; more, a count with the first ten named
         * on demand (then how many more) */
        size_t same = 0;
        for (size_t j = 0; j < n; j++)
            same += j != i && card_compare_case(c, runs[j].c) == COMPARE_SAME;
        if (same > 2)
            buf_printf(b, "<details><summary>%zu runs</summary>", same);
        for (size_t j = 0, k = 0; j < n && k < 10; j++) {
            if (j == i || card_compare_case(c, runs[j].c) != COMPARE_SAME)
                continue;
            if (k++)
                buf_puts(b, ", ");
            shown_html(b, runs[j].c->run);
        }
        if (same > 10)
            buf_printf(b, " and %zu more", same - 10);
        if (same > 2)
            buf_puts(b, "</details>");
        if (!same)
            buf_puts(b, "none");
        buf_puts(b, "</td>");
        if (baseline) {
            buf_puts(b, "<td class=\"vs\" data-label=\"against ");
            shown_html(b, baseline->run);
            buf_puts(b, "\">");
            const card_verdict *v = runs[i].vs ? &runs[i].vs->verdict : NULL;
            if (c == baseline)
                buf_puts(b, "the baseline");
            else if (!v || v->basis == VERDICT_REFUSED) {
                enum compare_case k = card_compare_case(c, baseline);
                buf_puts(b, k == COMPARE_REFORMATTED
                                ? "not comparable: the tool file was "
                                  "reformatted (same contract, other bytes, "
                                  "so other tasks)"
                            : k == COMPARE_CONTRACTS
                                ? "not comparable: other tool contracts"
                            : k == COMPARE_GENERATORS
                                ? "not comparable: other generators"
                                : "not comparable");
            }
            else {
                buf_puts(b, "<a href=\"");
                shown_html(b, runs[i].compare_page);
                buf_puts(b, "\">");
                if (v->basis == VERDICT_NOTHING)
                    buf_puts(b, "nothing to compare");
                else
                    buf_printf(b, "%+.1f points (%+.1f to %+.1f), %s%s",
                               100 * v->diff, 100 * v->ci.lo, 100 * v->ci.hi,
                               v->basis == VERDICT_PAIRED ? "paired"
                                                          : "unpaired",
                               v->excludes_zero ? ": a difference" : "");
                buf_puts(b, "</a>");
                if (!isnan(adj[i])) {
                    buf_puts(b, "<br><span class=\"note\">Holm: p = ");
                    card_p_text(b, adj[i]);
                    buf_puts(b, adj[i] < 0.05 ? ", a difference</span>"
                                              : ", not told apart</span>");
                }
            }
            buf_puts(b, "</td>");
        }
        buf_puts(b, "</tr>\n");
    }
    table_close(b);
    if (baseline)
        holm_groups(b, runs, n, baseline, adj, m);
    free(adj);
    if (baseline)
        buf_puts(b, "<p class=\"note\">Against the baseline: the "
                    "verdict&#39;s difference A - B, A the run and B the "
                    "baseline, in percentage points, with its 95% interval "
                    "(paired by task where the runs share tasks); &quot;a "
                    "difference&quot; when the interval excludes zero. The "
                    "link leads to the compare. With several runs compared "
                    "to one baseline, some differences would show by chance: "
                    "Holm&#39;s p is McNemar&#39;s adjusted over every paired "
                    "compare of the night, and only a difference it keeps "
                    "below 0.05 is counted ahead or behind.</p>\n");
    if (no_run)
        buf_printf(b, "<p class=\"note\">%ld problem%s in the database name%s "
                      "no run: <code>%s</code></p>\n",
                   no_run, no_run == 1 ? "" : "s", no_run == 1 ? "s" : "",
                   card_no_run_query);
    buf_puts(b, "</section>\n");
}
