/* card: per-run cards from the results database, and an honest
 * comparison of two runs (docs/card.md). */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "canon.h"
#include "carddata.h"
#include "config.h"
#include "db.h"
#include "html.h"
#include "utf8.h"

#define EXIT_USAGE 2
#define EXIT_DB 3

enum format { TEXT, MARKDOWN, JSON, HTML };

/* Where to look for the problems that name no run. */
static const char no_run_query[] =
    "SELECT * FROM problems WHERE run IS NULL";

static const char usage_text[] =
    "usage: card [--db results.db] [--json | --markdown | --html [-o FILE]]\n"
    "            [--width N] [--] [RUN...]\n"
    "       card [--db results.db] --list\n"
    "       card [--db results.db] [--json | --markdown | --html [-o FILE]]\n"
    "            --compare RUN_A RUN_B\n"
    "\n"
    "  RUN...      one card per run (the latest run when none is named):\n"
    "              what produced it, pass and reached with 95% Wilson\n"
    "              intervals, side effects, errors, per arm, per dial;\n"
    "              the harness's success and reward; observed episodes\n"
    "              (calls per tool, no simulator figure); pass^k\n"
    "  --list      the runs in the database\n"
    "  --html      one self-contained HTML page (inline style and SVG plots,\n"
    "              no script, nothing loaded): pass and reached per arm with\n"
    "              their intervals, each dial's outcomes, a compare's\n"
    "              differences; the same figures as the other formats\n"
    "  -o FILE     the page into FILE (written whole, or not at all)\n"
    "  --width N   the text's width (default: 80): problem lines and a\n"
    "              compare's tool lists wrap within it; below 80, hashes\n"
    "              are cut to 16 digits\n"
    "  --compare   two runs side by side, only when their tasks are the\n"
    "              same (same tool file bytes and generator); otherwise\n"
    "              says why not, with no figure set side by side; then\n"
    "              paired by task: A-B with Tango's or a clustered\n"
    "              interval, discordant pairs, McNemar's exact p\n"
    "  --          the end of the options: what follows are runs, even\n"
    "              one named '-x'\n"
    "\n"
    "Exit status: 0 printed (compared); 4 not compared: same contract, the\n"
    "file reformatted; 5 not compared: other contracts; 6 not compared:\n"
    "other generators; 2 usage error or no such run; 3 the database cannot\n"
    "be read, or the page cannot be written to -o FILE.  See docs/card.md.\n";


/* ------------------------------------------------- text from the database */

/* Every string a card prints comes from the database, and a database is
 * input: a run name may hold a newline, an escape sequence, a "|", a "<"
 * or a right-to-left override.  Text and Markdown show each through
 * utf8_shown() (controls, overrides and invalid bytes escaped, a
 * backslash doubled), so that none can forge a line, a row or a cell, nor
 * recolour or reorder the card.  In Markdown, text outside code also has
 * a backslash before every character that could begin markup inline
 * (MD_ACTIVE: emphasis, links, raw HTML, entities, cells, strikethrough;
 * the ":" of "://" and the "." of "www."), so that rendered it reads as
 * the text card does; inside code, where a backslash is a backslash, only
 * "|" is escaped, as tables need.  --json escapes as JSON does.  Each
 * result lasts until the SHOWN_KEPT-th call after it: enough for one
 * printf's arguments. */
#define SHOWN_KEPT 12
static buf shown_pool[SHOWN_KEPT];
static unsigned shown_next;

#define MD_ACTIVE "\\`*_[]<>&|~"

enum shown_as { AS_TEXT, AS_MD, AS_MD_CODE, AS_SAFE };

static int ascii_alnum(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9');
}

static const char *shown_max(const char *s, size_t max, enum shown_as as)
{
    buf *b = &shown_pool[shown_next++ % SHOWN_KEPT];
    buf tmp = BUF_INIT;
    buf_reset(b);
    if (as == AS_TEXT) {
        utf8_shown(b, s, strlen(s), max);
    } else if (as == AS_SAFE) {
        utf8_safe(b, s, strlen(s));
    } else {
        const char *active = as == AS_MD ? MD_ACTIVE : "|";
        utf8_shown(&tmp, s, strlen(s), max);
        for (size_t i = 0; i < tmp.len; i++) {
            char c = tmp.data[i];
            /* "_" between two letters or digits can neither open nor
             * close emphasis (CommonMark 6.2): snake_case stays as it is */
            int inert = c == '_' && i > 0 && i + 1 < tmp.len &&
                        ascii_alnum(tmp.data[i - 1]) &&
                        ascii_alnum(tmp.data[i + 1]);
            /* and no "http://x" or "www.x" becomes a link (GitHub's
             * extended autolinks), which would swallow the escapes */
            int link = as == AS_MD &&
                       ((c == ':' && tmp.len - i >= 3 &&
                         memcmp(tmp.data + i + 1, "//", 2) == 0) ||
                        (c == '.' && i >= 3 &&
                         strncasecmp(tmp.data + i - 3, "www", 3) == 0));
            if ((c && strchr(active, c) && !inert) || link)
                buf_putc(b, '\\');
            buf_putc(b, c);
        }
        buf_free(&tmp);
    }
    return b->failed || !b->data ? "" : b->data;
}

/* s for a terminal. */
static const char *tx(const char *s)
{
    return shown_max(s, (size_t)-1, AS_TEXT);
}

/* A message that may quote input, some of it shown already, for a
 * terminal (utf8_safe). */
static const char *safe(const char *s)
{
    return shown_max(s, (size_t)-1, AS_SAFE);
}

/* Says "card: " and the message on stderr, made safe (it may quote the
 * command line), then a hint to --help. */
static int usage_error(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...)
{
    char line[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fprintf(stderr, "card: %s\nTry 'card --help'.\n", safe(line));
    return EXIT_USAGE;
}

/* s in Markdown, outside code: a table cell, a title, a list item. */
static const char *md_text(const char *s)
{
    return shown_max(s, (size_t)-1, AS_MD);
}

/* s for code() in a Markdown table cell. */
static const char *md_code(const char *s)
{
    return shown_max(s, (size_t)-1, AS_MD_CODE);
}

/* Text already shown (tx, md_code), as Markdown code: between more
 * backticks than its longest run of them. */
static const char *code(const char *c)
{
    size_t run = 0, longest = 0;
    for (const char *p = c; *p; p++) {
        run = *p == '`' ? run + 1 : 0;
        if (run > longest)
            longest = run;
    }
    /* a space inside, when there are backticks: one at either end is then
     * not taken for part of the fence */
    const char *pad = longest ? " " : "";
    buf *b = &shown_pool[shown_next++ % SHOWN_KEPT];
    buf_reset(b);
    for (size_t i = 0; i <= longest; i++)
        buf_putc(b, '`');
    buf_printf(b, "%s%s%s", pad, c, pad);
    for (size_t i = 0; i <= longest; i++)
        buf_putc(b, '`');
    return b->failed ? "" : b->data;
}

static void shown_free(void)
{
    for (int i = 0; i < SHOWN_KEPT; i++)
        buf_free(&shown_pool[i]);
}

static double pct(long x, long n)
{
    return n ? 100.0 * (double)x / (double)n : 0.0;
}

/* A dial's outcomes that happened, in their order: "retried 28, gave_up 2". */
static void print_outcomes(const card_dial *d)
{
    buf b = BUF_INIT;
    card_outcomes_text(&b, d);
    if (!b.failed && b.len)
        fwrite(b.data, 1, b.len, stdout);
    buf_free(&b);
}

/* -------------------------------------------------------------- text */

/* Columns of UTF-8 text: its code points (what is shown has no controls;
 * wide characters are rare in what a card quotes). */
static size_t columns(const char *s, size_t len)
{
    return utf8_count(s, len);
}

/* Appends prefix and text (shown already) to b, wrapped at spaces so
 * that no line passes width columns; continued lines start with indent
 * spaces.  A word longer than a line is cut between characters, never
 * inside one.  At most max_lines lines: the last one then ends with
 * "...". */
static void wrap_into(buf *b, const char *prefix, const char *text,
                      int width, int indent, int max_lines)
{
    size_t col = columns(prefix, strlen(prefix));
    buf_puts(b, prefix);
    const char *p = text;
    for (int line = 1;; line++) {
        size_t room = (size_t)width > col + 8 ? (size_t)width - col : 8;
        size_t len = strlen(p);
        if (columns(p, len) <= room) {
            buf_puts(b, p);
            buf_putc(b, '\n');
            return;
        }
        if (line == max_lines)
            room = room > 3 ? room - 3 : 1;
        /* the bytes of the first room columns, then back to a space */
        size_t end = 0, cols = 0;
        while (end < len && cols < room) {
            end++;
            while (end < len && ((unsigned char)p[end] & 0xC0) == 0x80)
                end++;
            cols++;
        }
        size_t cut = end;
        while (cut > 0 && p[cut] != ' ')
            cut--;
        if (cut == 0)
            cut = end; /* one long word: cut between characters */
        buf_append(b, p, cut);
        if (line == max_lines) {
            buf_puts(b, "...\n");
            return;
        }
        p += cut;
        while (*p == ' ')
            p++;
        buf_printf(b, "\n%*s", indent, "");
        col = (size_t)indent;
    }
}

/* A hash as the text shows it: whole, or (narrow) its first 16 digits. */
static const char *shown_hash(const char *hash, int narrow)
{
    return shown_max(hash, narrow ? 16 : (size_t)-1, AS_TEXT);
}

static void text_problems(const card *c, int width)
{
    printf("  problems     %5ld\n", c->problems);
    for (size_t i = 0; i < c->nfirst; i++) {
        char at[1200];
        buf b = BUF_INIT;
        snprintf(at, sizeof at, "    %s:%ld: ", tx(c->first_problems[i].file),
                 c->first_problems[i].line);
        wrap_into(&b, at, tx(c->first_problems[i].message), width, 6, 4);
        if (!b.failed)
            fwrite(b.data, 1, b.len, stdout);
        buf_free(&b);
    }
    if (c->problems > (long)c->nfirst)
        printf("    ... and %ld more: SELECT * FROM problems WHERE run = "
               "'<run>'\n",
               c->problems - (long)c->nfirst);
    if (c->problems_no_run)
        printf("    and %ld in the database that name no run: %s\n",
               c->problems_no_run, no_run_query);
}

/* The harness's verdicts on episodes of one kind, when it gave any. */
static void text_harness(const card_harness *h)
{
    if (h->judged) {
        interval w = wilson((unsigned long)h->successes,
                            (unsigned long)h->judged);
        printf("  harness success %3ld of %ld  %5.1f%%  95%% CI %5.1f-%5.1f%%"
               "  (the harness's verdict)\n",
               h->successes, h->judged, pct(h->successes, h->judged),
               100 * w.lo, 100 * w.hi);
    }
    if (h->rewarded)
        printf("  harness reward  %.3f mean, over %ld episode%s\n",
               h->mean_reward, h->rewarded, h->rewarded == 1 ? "" : "s");
}

/* The observed episodes: what the tool file can tell of their calls. */
static void text_observed(const card *c, int width)
{
    const card_harness *h = &c->harness[1];
    printf("\nobserved: %ld episode%s, run against something other than the "
           "simulator\n  (no simulator figure: nothing was replayed against "
           "a task)\n",
           c->observed, c->observed == 1 ? "" : "s");
    if (!h->judged)
        printf("  harness success    -  not given\n");
    text_harness(h);
    printf("  unfinished   %5ld\n", h->unfinished);
    printf("  calls        %5ld\n", c->observed_calls);
    if (!c->simulated)
        text_problems(c, width);
    if (c->ntools) {
        printf("\nper tool (observed calls)\n  %-18s %-5s %6s %8s %10s\n",
               "tool", "kind", "calls", "invalid", "off schema");
        for (size_t i = 0; i < c->ntools; i++) {
            const card_tool *t = &c->tools[i];
            printf("  %-18s %-5s %6ld %8ld %10ld\n", tx(t->tool), t->kind,
                   t->calls, t->invalid, t->off_schema);
            if (t->rule) {
                char at[96];
                buf b = BUF_INIT;
                snprintf(at, sizeof at, "    the commonest rule broken "
                                        "(%ld of %ld): ",
                         t->rule_calls, t->invalid);
                wrap_into(&b, at, tx(t->rule), width, 6, 6);
                if (!b.failed)
                    fwrite(b.data, 1, b.len, stdout);
                buf_free(&b);
            }
        }
    }
    if (c->nunknown) {
        buf list = BUF_INIT;
        size_t shown = c->nunknown < 10 ? c->nunknown : 10;
        long calls = 0;
        for (size_t i = 0; i < c->nunknown; i++)
            calls += c->unknown[i].calls;
        for (size_t i = 0; i < shown; i++)
            buf_printf(&list, "%s%s \xc3\x97%ld", i ? ", " : "",
                       tx(c->unknown[i].tool), c->unknown[i].calls);
        if (c->nunknown > shown)
            buf_printf(&list, ", and %zu more", c->nunknown - shown);
        char head[96];
        snprintf(head, sizeof head, "  tools the file does not have (%ld "
                                    "call%s): ",
                 calls, calls == 1 ? "" : "s");
        buf b = BUF_INIT;
        if (!list.failed)
            wrap_into(&b, head, list.data, width, 4, 4);
        if (!b.failed)
            fwrite(b.data, 1, b.len, stdout);
        buf_free(&b);
        buf_free(&list);
    }
}

/* pass^k (or success^k) when some task has two trials or more. */
static void text_passk(const card *c)
{
    static const char *const names[2] = {"pass^k", "success^k"};
    for (int k = 0; k < 2; k++) {
        if (c->npassk[k] < 2)
            continue;
        printf("\ntrials: %s, over the tasks with k trials or more\n"
               "  %3s %9s %6s\n",
               names[k], "k", names[k], "tasks");
        for (size_t i = 0; i < c->npassk[k]; i++)
            printf("  %3ld %8.1f%% %6ld\n", c->passk[k][i].k,
                   100 * c->passk[k][i].rate, c->passk[k][i].tasks);
    }
}

static void text_card(const card *c, int width)
{
    int narrow = width < 80;
    long n = c->simulated;
    interval p = wilson((unsigned long)c->pass, (unsigned long)n);
    interval r = wilson((unsigned long)c->reached, (unsigned long)n);
    printf("card: %s\n", tx(c->run));
    printf("  model        %s\n", c->model[0] ? tx(c->model) : "-");
    printf("  tool file    %s\n", tx(c->tools_path));
    printf("  file hash    %s\n", shown_hash(c->file_sha256, narrow));
    printf("  contract     %s\n", shown_hash(c->contract_sha256, narrow));
    printf("  generator    %d\n", c->generator_version);
    printf("  fingerprint  %s\n", shown_hash(c->fingerprint, narrow));
    printf("  replayed     %s\n", tx(c->replayed_at));
    if (n || !c->observed) {
        if (c->observed)
            printf("\nresult: %ld episode%s replayed against tasks (and %ld "
                   "observed, below)\n",
                   n, n == 1 ? "" : "s", c->observed);
        else
            printf("\nresult: %ld episode%s\n", n, n == 1 ? "" : "s");
        if (n == 0) { /* a rate of nothing is no figure */
            printf("  pass             -  no episodes\n");
            printf("  reached          -  no episodes\n");
        } else {
            printf("  pass         %5ld  %5.1f%%  95%% CI %5.1f-%5.1f%%\n",
                   c->pass, pct(c->pass, n), 100 * p.lo, 100 * p.hi);
            printf("  reached      %5ld  %5.1f%%  95%% CI %5.1f-%5.1f%%\n",
                   c->reached, pct(c->reached, n), 100 * r.lo, 100 * r.hi);
        }
        text_harness(&c->harness[0]);
        printf("  side effects %5ld  (duplicate writes %ld)\n",
               c->side_effects, c->duplicates);
        printf("  errors       %5ld\n", c->errors);
        int any = 0;
        for (int i = 0; i < CARD_CODES; i++)
            if (c->by_code[i])
                printf("%s%s %ld", any++ ? ", " : "    ", card_codes[i],
                       c->by_code[i]);
        printf("%s  unfinished   %5ld\n", any ? "\n" : "",
               c->harness[0].unfinished);
        printf("  diverged     %5ld  (episodes; %ld calls, of %ld compared)\n",
               c->diverged_episodes, c->diverged_calls, c->compared_calls);
        if (c->unlogged_calls)
            printf("    %ld call%s with no answer logged: not compared\n",
                   c->unlogged_calls, c->unlogged_calls == 1 ? "" : "s");
        text_problems(c, width);

        printf("\nper arm (pass, with its 95%% CI)\n");
        printf("  %-14s %4s %5s  %11s  %7s %5s %4s\n", "arm", "eps", "pass",
               "95% CI", "reached", "side", "dup");
        for (size_t i = 0; i < c->narms; i++) {
            const card_arm *a = &c->arms[i];
            interval w = wilson((unsigned long)a->pass,
                                (unsigned long)a->episodes);
            printf("  %-14s %4ld %5ld  %5.1f-%5.1f  %7ld %5ld %4ld\n",
                   tx(a->arm), a->episodes, a->pass, 100 * w.lo, 100 * w.hi,
                   a->reached, a->side_effects, a->duplicates);
        }
        if (c->ndials) {
            printf("\nper dial\n  %-10s %7s %6s  %s\n", "dial", "events",
                   "fired", "outcomes");
            for (size_t i = 0; i < c->ndials; i++) {
                const card_dial *d = &c->dials[i];
                printf("  %-10s %7ld %6ld  ", d->dial, d->events, d->fired);
                print_outcomes(d);
                putchar('\n');
            }
        }
    }
    if (c->observed)
        text_observed(c, width);
    text_passk(c);
}

/* ---------------------------------------------------------- markdown */

/* The harness's verdicts as result rows: "| harness success (observed) |". */
static void md_harness(const card_harness *h, const char *kind)
{
    if (h->judged) {
        interval w = wilson((unsigned long)h->successes,
                            (unsigned long)h->judged);
        printf("| harness success%s | %ld of %ld | %.1f%% | %.1f-%.1f%% |\n",
               kind, h->successes, h->judged, pct(h->successes, h->judged),
               100 * w.lo, 100 * w.hi);
    }
    if (h->rewarded)
        printf("| harness reward%s | %ld episodes | %.3f mean | |\n", kind,
               h->rewarded, h->mean_reward);
}

/* The observed episodes' tools, unknown names, and pass^k tables. */
static void md_observed(const card *c)
{
    static const char *const names[2] = {"pass^k", "success^k"};
    if (c->observed) {
        printf("\nObserved episodes: %ld, run against something other than "
               "the simulator (no simulator figure); %ld calls.\n",
               c->observed, c->observed_calls);
        if (c->ntools) {
            printf("\n| tool | kind | calls | invalid arguments | answers off "
                   "schema | commonest rule broken |\n"
                   "|---|---|---:|---:|---:|---|\n");
            for (size_t i = 0; i < c->ntools; i++) {
                const card_tool *t = &c->tools[i];
                printf("| %s | %s | %ld | %ld | %ld | %s |\n", md_text(t->tool),
                       t->kind, t->calls, t->invalid, t->off_schema,
                       t->rule ? md_text(t->rule) : "");
            }
        }
        if (c->nunknown) {
            printf("\nTools the file does not have:");
            size_t shown = c->nunknown < 10 ? c->nunknown : 10;
            for (size_t i = 0; i < shown; i++)
                printf("%s %s \xc3\x97%ld", i ? "," : "",
                       code(md_code(c->unknown[i].tool)), c->unknown[i].calls);
            if (c->nunknown > shown)
                printf(", and %zu more", c->nunknown - shown);
            printf(".\n");
        }
    }
    for (int k = 0; k < 2; k++) {
        if (c->npassk[k] < 2)
            continue;
        printf("\n| k | %s | tasks |\n|---:|---:|---:|\n", names[k]);
        for (size_t i = 0; i < c->npassk[k]; i++)
            printf("| %ld | %.1f%% | %ld |\n", c->passk[k][i].k,
                   100 * c->passk[k][i].rate, c->passk[k][i].tasks);
    }
}

static void md_card(const card *c)
{
    interval p = wilson((unsigned long)c->pass, (unsigned long)c->simulated);
    interval r = wilson((unsigned long)c->reached, (unsigned long)c->simulated);
    printf("## Card: %s\n\n", md_text(c->run));
    printf("| made with | |\n|---|---|\n");
    printf("| model | %s |\n", c->model[0] ? md_text(c->model) : "-");
    printf("| tool file | %s |\n", code(md_code(c->tools_path)));
    printf("| file hash | %s |\n", code(md_code(c->file_sha256)));
    printf("| contract hash | %s |\n", code(md_code(c->contract_sha256)));
    printf("| generator | %d, fingerprint %s |\n", c->generator_version,
           code(md_code(c->fingerprint)));
    printf("| replayed | %s |\n\n", md_text(c->replayed_at));
    printf("| result | count | rate | 95%% CI |\n|---|---:|---:|---|\n");
    printf("| episodes | %ld | | |\n", c->episodes);
    if (c->observed)
        printf("| replayed against tasks | %ld | | |\n"
               "| observed | %ld | | |\n", c->simulated, c->observed);
    int sim = c->simulated || !c->observed; /* simulator figures apply */
    if (sim && c->simulated == 0) {
        printf("| pass | 0 | - | no episodes |\n");
        printf("| reached | 0 | - | no episodes |\n");
    } else if (sim) {
        printf("| pass | %ld | %.1f%% | %.1f-%.1f%% |\n", c->pass,
               pct(c->pass, c->simulated), 100 * p.lo, 100 * p.hi);
        printf("| reached | %ld | %.1f%% | %.1f-%.1f%% |\n", c->reached,
               pct(c->reached, c->simulated), 100 * r.lo, 100 * r.hi);
    }
    md_harness(&c->harness[0], c->observed ? " (replayed)" : "");
    md_harness(&c->harness[1], " (observed)");
    if (sim) {
        printf("| side effects | %ld | | |\n", c->side_effects);
        printf("| duplicate writes | %ld | | |\n", c->duplicates);
        printf("| errors | %ld | | |\n", c->errors);
        for (int i = 0; i < CARD_CODES; i++)
            if (c->by_code[i])
                printf("| errors: %s | %ld | | |\n", card_codes[i],
                       c->by_code[i]);
    }
    printf("| unfinished | %ld | | |\n", c->unfinished);
    if (sim) {
        printf("| diverged episodes | %ld | | |\n", c->diverged_episodes);
        printf("| diverged calls | %ld | | |\n", c->diverged_calls);
        printf("| calls compared | %ld | | |\n", c->compared_calls);
        printf("| calls with no answer logged | %ld | | |\n",
               c->unlogged_calls);
    }
    printf("| problems | %ld | | |\n", c->problems);
    if (c->problems_no_run)
        printf("| problems that name no run (in the database) | %ld | | |\n",
               c->problems_no_run);
    if (c->narms)
        printf("\n| arm | episodes | pass | 95%% CI | reached | side effects "
               "| duplicate writes |\n|---|---:|---:|---|---:|---:|---:|\n");
    for (size_t i = 0; i < c->narms; i++) {
        const card_arm *a = &c->arms[i];
        interval w = wilson((unsigned long)a->pass, (unsigned long)a->episodes);
        printf("| %s | %ld | %ld | %.1f-%.1f%% | %ld | %ld | %ld |\n",
               md_text(a->arm), a->episodes, a->pass, 100 * w.lo, 100 * w.hi,
               a->reached, a->side_effects, a->duplicates);
    }
    if (c->ndials) {
        printf("\n| dial | events | fired | outcomes |\n|---|---:|---:|---|\n");
        for (size_t i = 0; i < c->ndials; i++) {
            const card_dial *d = &c->dials[i];
            printf("| %s | %ld | %ld | ", d->dial, d->events, d->fired);
            print_outcomes(d);
            printf(" |\n");
        }
    }
    md_observed(c);
    if (c->nfirst) {
        printf("\nProblems (first %zu):\n\n", c->nfirst);
        for (size_t i = 0; i < c->nfirst; i++) {
            buf *at = &shown_pool[shown_next++ % SHOWN_KEPT];
            buf_reset(at);
            buf_printf(at, "%s:%ld", tx(c->first_problems[i].file),
                       c->first_problems[i].line);
            printf("- %s: %s\n", code(at->failed ? "" : at->data),
                   md_text(c->first_problems[i].message));
        }
        if (c->problems > (long)c->nfirst)
            printf("- ... and %ld more (`SELECT * FROM problems WHERE run = "
                   "'<run>'`)\n",
                   c->problems - (long)c->nfirst);
    }
}

/* -------------------------------------------------------------- JSON */

static void js(buf *b, const char *s)
{
    canon_write_string(b, s, strlen(s));
}

static void js_rate(buf *b, const char *key, long x, long n)
{
    interval w = wilson((unsigned long)x, (unsigned long)n);
    if (n == 0) /* no episodes: no rate, as the SQL of docs/card.md says */
        buf_printf(b, "\"%s\":{\"count\":0,\"rate\":null,\"ci95\":null}",
                   key);
    else
        buf_printf(b, "\"%s\":{\"count\":%ld,\"rate\":%.6f,"
                      "\"ci95\":[%.6f,%.6f]}",
                   key, x, (double)x / (double)n, w.lo, w.hi);
}

static void json_card(buf *b, const card *c)
{
    buf_puts(b, "{\"run\":");
    js(b, c->run);
    buf_puts(b, ",\"model\":");
    if (c->model[0])
        js(b, c->model);
    else
        buf_puts(b, "null");
    buf_puts(b, ",\"tools_path\":");
    js(b, c->tools_path);
    buf_printf(b, ",\"file_sha256\":\"%s\",\"contract_sha256\":\"%s\","
                  "\"generator\":{\"version\":%d,\"fingerprint\":\"%s\"},"
                  "\"replayed_at\":\"%s\",\"episodes\":%ld,",
               c->file_sha256, c->contract_sha256, c->generator_version,
               c->fingerprint, c->replayed_at, c->episodes);
    buf_printf(b, "\"simulated\":%ld,\"observed\":%ld,", c->simulated,
               c->observed);
    js_rate(b, "pass", c->pass, c->simulated);
    buf_putc(b, ',');
    js_rate(b, "reached", c->reached, c->simulated);
    buf_printf(b, ",\"side_effects\":%ld,\"duplicate_writes\":%ld,"
                  "\"errors\":{\"total\":%ld,\"by_code\":{",
               c->side_effects, c->duplicates, c->errors);
    for (int i = 0; i < CARD_CODES; i++)
        buf_printf(b, "%s\"%s\":%ld", i ? "," : "", card_codes[i],
                   c->by_code[i]);
    buf_printf(b, "}},\"unfinished\":%ld,\"diverged\":{\"episodes\":%ld,"
                  "\"calls\":%ld,\"compared\":%ld,\"not_logged\":%ld},"
                  "\"problems\":{\"count\":%ld,\"no_run\":%ld,\"first\":[",
               c->unfinished, c->diverged_episodes, c->diverged_calls,
               c->compared_calls, c->unlogged_calls, c->problems,
               c->problems_no_run);
    for (size_t i = 0; i < c->nfirst; i++) {
        buf_puts(b, i ? ",{\"file\":" : "{\"file\":");
        js(b, c->first_problems[i].file);
        buf_printf(b, ",\"line\":%ld,\"message\":", c->first_problems[i].line);
        js(b, c->first_problems[i].message);
        buf_putc(b, '}');
    }
    buf_puts(b, "]},\"arms\":[");
    for (size_t i = 0; i < c->narms; i++) {
        const card_arm *a = &c->arms[i];
        buf_puts(b, i ? ",{\"arm\":" : "{\"arm\":");
        js(b, a->arm);
        buf_printf(b, ",\"episodes\":%ld,", a->episodes);
        js_rate(b, "pass", a->pass, a->episodes);
        buf_putc(b, ',');
        js_rate(b, "reached", a->reached, a->episodes);
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
        js_rate(b, "success", h->successes, h->judged);
        buf_printf(b, ",\"rewarded\":%ld,\"mean_reward\":", h->rewarded);
        if (h->rewarded)
            buf_printf(b, "%.6f", h->mean_reward);
        else
            buf_puts(b, "null");
        buf_printf(b, ",\"unfinished\":%ld}", h->unfinished);
    }
    buf_printf(b, "},\"observed_calls\":%ld,\"tools\":[", c->observed_calls);
    for (int u = 0; u < 2; u++) {
        const card_tool *v = u ? c->unknown : c->tools;
        size_t n = u ? c->nunknown : c->ntools;
        if (u)
            buf_puts(b, "],\"unknown_tools\":[");
        for (size_t i = 0; i < n; i++) {
            buf_puts(b, i ? ",{\"tool\":" : "{\"tool\":");
            js(b, v[i].tool);
            buf_printf(b, ",\"calls\":%ld", v[i].calls);
            if (!u) {
                buf_printf(b, ",\"kind\":\"%s\",\"invalid\":%ld,"
                              "\"off_schema\":%ld,\"rule\":",
                           v[i].kind, v[i].invalid, v[i].off_schema);
                if (v[i].rule)
                    js(b, v[i].rule);
                else
                    buf_puts(b, "null");
                buf_printf(b, ",\"rule_calls\":%ld", v[i].rule_calls);
            }
            buf_putc(b, '}');
        }
    }
    for (int k = 0; k < 2; k++) {
        buf_puts(b, k ? "],\"success_hat_k\":[" : "],\"pass_hat_k\":[");
        for (size_t i = 0; i < c->npassk[k]; i++)
            buf_printf(b, "%s{\"k\":%ld,\"rate\":%.6f,\"tasks\":%ld}",
                       i ? "," : "", c->passk[k][i].k, c->passk[k][i].rate,
                       c->passk[k][i].tasks);
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

/* s as format f shows text from the database (Markdown outside code, or
 * a terminal's). */
static const char *shown_in(enum format f, const char *s)
{
    return f == MARKDOWN ? md_text(s) : tx(s);
}

/* "  added: a, b, c", wrapped within the text's width (continued lines
 * indented); Markdown keeps one line, which Markdown wraps itself. */
static void say_list(buf *b, const char *what, char **names, size_t n,
                     enum format f, int width)
{
    if (n == 0)
        return;
    size_t start = b->len;
    buf_printf(b, "%s%s: ", f == MARKDOWN ? "- " : "  ", what);
    size_t col = b->len - start;
    for (size_t i = 0; i < n; i++) {
        const char *name = shown_in(f, names[i]);
        size_t len = columns(name, strlen(name)) + (i + 1 < n ? 1 : 0);
        if (i && f != MARKDOWN && col + 1 + len > (size_t)width) {
            buf_puts(b, ",\n    ");
            col = 4;
        } else if (i) {
            buf_puts(b, ", ");
            col += 2;
        }
        buf_puts(b, name);
        col += len - (i + 1 < n ? 1 : 0);
    }
    buf_putc(b, '\n');
}

/* The sentence of a comparison that sets no figure side by side. */
static void why_not(buf *b, const card *a, const card *c,
                    enum compare_case k, const contract_diff *d, enum format f,
                    int width)
{
    const char *bullet = f == MARKDOWN ? "- " : "  ";
    buf why = BUF_INIT;
    card_refusal(&why, a, c, k);
    /* Markdown keeps one line, which Markdown wraps itself */
    wrap_into(b, "", shown_in(f, why.failed ? "" : why.data),
              f == MARKDOWN ? INT_MAX : width, 0, INT_MAX);
    buf_free(&why);
    if (k == COMPARE_CONTRACTS) {
        if (d->nadded + d->nremoved + d->nchanged == 0)
            wrap_into(b, bullet, card_same_tools,
                      f == MARKDOWN ? INT_MAX : width, 2, INT_MAX);
        say_list(b, "added", d->added, d->nadded, f, width);
        say_list(b, "removed", d->removed, d->nremoved, f, width);
        say_list(b, "changed", d->changed, d->nchanged, f, width);
    }
    const card *both[2] = {a, c};
    for (int i = 0; i < 2; i++) {
        const card *x = both[i];
        buf_printf(b, "%s%s\n", bullet, shown_in(f, x->run));
        buf_printf(b, "    file hash   %s\n", tx(x->file_sha256));
        if (k == COMPARE_CONTRACTS)
            buf_printf(b, "    contract    %s\n", tx(x->contract_sha256));
        if (k == COMPARE_GENERATORS)
            buf_printf(b, "    generator   %d\n    fingerprint %s\n",
                       x->generator_version, tx(x->fingerprint));
    }
}

/* Appends the compare of a and c in format f to b; returns the exit
 * status (the compare's case, or EXIT_DB). */
/* A p-value as people read it: 0.125, 0.0031, 2.5e-29. */
static void p_value(buf *b, double p)
{
    if (p >= 0.001)
        buf_printf(b, "%.3g", p);
    else
        buf_printf(b, "%.1e", p);
}

static void json_paired(buf *b, const card_paired *r, size_t n)
{
    buf_puts(b, ",\"paired\":[");
    for (size_t i = 0; i < n; i++) {
        const card_pairs *q = &r[i].pairs;
        buf_printf(b, "%s{\"measure\":\"%s\",\"arm\":", i ? "," : "",
                   r[i].measure);
        js(b, r[i].arm);
        buf_printf(b, ",\"shared\":%ld,\"only_a\":%ld,\"only_b\":%ld,"
                      "\"one_trial\":%s,\"difference\":%.6f,"
                      "\"ci95\":[%.6f,%.6f],\"method\":\"%s\","
                      "\"pairs\":{\"of\":\"%s\",\"n\":%ld,\"both\":%ld,"
                      "\"a_only\":%ld,\"b_only\":%ld,\"neither\":%ld,"
                      "\"difference\":%.6f,\"ci95\":[%.6f,%.6f],"
                      "\"mcnemar_p\":%.6g}}",
                   r[i].shared, r[i].only_a, r[i].only_b,
                   r[i].one_trial ? "true" : "false", r[i].diff, r[i].ci.lo,
                   r[i].ci.hi, r[i].one_trial ? "tango" : "clustered_mean",
                   r[i].one_trial ? "every trial" : "first trials", q->n,
                   q->both, q->a_only, q->b_only, q->neither, q->diff,
                   q->ci.lo, q->ci.hi, q->p);
    }
    buf_putc(b, ']');
}

/* The paired analysis of two runs, after the unpaired table. */
static void text_paired(buf *b, const card *a, const card *c,
                        const card_paired *r, size_t n, enum format f)
{
    int md = f == MARKDOWN;
    for (size_t i = 0; i < n; i++) {
        const card_paired *x = &r[i];
        const card_pairs *q = &x->pairs;
        if (i == 0 || strcmp(x->measure, r[i - 1].measure) != 0) {
            int pass = strcmp(x->measure, "pass") == 0;
            buf_printf(b, md ? "\n**Paired, by task** (%s): %ld tasks in "
                               "both runs, %ld only in %s, %ld only in %s. "
                             : "\npaired, by task (%s)\n  %ld tasks in both "
                               "runs, %ld only in %s, %ld only in %s\n",
                       pass ? "pass" : "the harness's success", x->shared,
                       x->only_a, shown_in(f, a->run), x->only_b,
                       shown_in(f, c->run));
            if (x->one_trial)
                buf_puts(b, md ? "One trial of each task in each run: A - B "
                                 "with Tango's score interval; the pairs by "
                                 "outcome, and McNemar's exact p.\n\n"
                               : "one trial of each task in each run: A-B "
                                 "with Tango's score interval;\nthe pairs "
                                 "by outcome, and McNemar's exact p\n");
            else
                buf_puts(b, md ? "Several trials of a task: A - B is the "
                                 "mean of per-task differences, its interval "
                                 "clustered by task; the pairs by outcome "
                                 "and McNemar's exact p are of each task's "
                                 "first trial.\n\n"
                               : "several trials of a task: A-B is the mean "
                                 "of per-task differences, its interval\n"
                                 "clustered by task; the pairs by outcome "
                                 "and McNemar's exact p are of each\ntask's "
                                 "first trial\n");
            buf_puts(b, md ? "| arm | tasks | A - B | 95% CI | A only | "
                             "B only | both | neither | McNemar p |\n"
                             "|---|---:|---:|---|---:|---:|---:|---:|---:|\n"
                           : "arm            tasks     A-B  95% CI of A-B     "
                             "A only B only  McNemar p\n");
        }
        if (x->shared == 0) {
            buf_printf(b, md ? "| %s | 0 | - | - | | | | | |\n"
                             : "%-14s     0       -  -\n",
                       shown_in(f, x->arm));
            continue;
        }
        if (md)
            buf_printf(b, "| %s | %ld | %+.1f | %+.1f to %+.1f | %ld | %ld | "
                          "%ld | %ld | ",
                       md_text(x->arm), x->shared, 100 * x->diff,
                       100 * x->ci.lo, 100 * x->ci.hi, q->a_only, q->b_only,
                       q->both, q->neither);
        else
            buf_printf(b, "%-14s %5ld  %+6.1f  %+6.1f to %+6.1f  %6ld %6ld  ",
                       tx(x->arm), x->shared, 100 * x->diff, 100 * x->ci.lo,
                       100 * x->ci.hi, q->a_only, q->b_only);
        if (q->n)
            p_value(b, q->p);
        else
            buf_putc(b, '-');
        buf_puts(b, md ? " |\n" : "\n");
    }
    if (n)
        buf_puts(b, md ? "\nIn percentage points, A - B.\n"
                       : "(percentage points, A-B)\n");
}

static int compare(sqlite3 *db, const card *a, const card *c, enum format f,
                   int width, buf *b)
{
    enum compare_case k = card_compare_case(a, c);
    contract_diff d = {0};
    err e;
    err_clear(&e);
    if (k == COMPARE_CONTRACTS && card_contract_diff(&d, db, a, c, &e) < 0) {
        fprintf(stderr, "card: %s\n", safe(e.msg));
        return EXIT_DB;
    }
    card_row *rows = NULL;
    size_t n = 0, npaired = 0;
    card_paired *paired = NULL;
    if (k == COMPARE_SAME) {
        if (card_compare_paired(db, a, c, &paired, &npaired, &e) < 0) {
            fprintf(stderr, "card: %s\n", safe(e.msg));
            contract_diff_free(&d);
            return EXIT_DB;
        }
        if (a->simulated || c->simulated) /* per arm, unpaired */
            rows = card_compare_rows(a, c, &n);
    }
    if (f == HTML) {
        html_compare(b, a, c, k, &d, paired, npaired);
    } else if (f == JSON) {
        buf_puts(b, "{\"a\":");
        js(b, a->run);
        buf_puts(b, ",\"b\":");
        js(b, c->run);
        buf_printf(b, ",\"comparable\":%s,\"case\":\"%s\"",
                   k == COMPARE_SAME ? "true" : "false", case_name(k));
        buf_printf(b, ",\"file_sha256\":[\"%s\",\"%s\"],\"contract_sha256\":"
                       "[\"%s\",\"%s\"],\"generator\":[{\"version\":%d,"
                       "\"fingerprint\":\"%s\"},{\"version\":%d,"
                       "\"fingerprint\":\"%s\"}]",
                   a->file_sha256, c->file_sha256, a->contract_sha256,
                   c->contract_sha256, a->generator_version, a->fingerprint,
                   c->generator_version, c->fingerprint);
        if (k == COMPARE_CONTRACTS) {
            char **lists[] = {d.added, d.removed, d.changed};
            size_t ns[] = {d.nadded, d.nremoved, d.nchanged};
            const char *names[] = {"added", "removed", "changed"};
            buf_puts(b, ",\"tools\":{");
            for (int l = 0; l < 3; l++) {
                buf_printf(b, "%s\"%s\":[", l ? "," : "", names[l]);
                for (size_t i = 0; i < ns[l]; i++) {
                    if (i)
                        buf_putc(b, ',');
                    js(b, lists[l][i]);
                }
                buf_putc(b, ']');
            }
            buf_putc(b, '}');
        }
        if (k == COMPARE_SAME) {
            buf_puts(b, ",\"arms\":[");
            for (size_t i = 0; i < n; i++) {
                double diff;
                interval w = newcombe((unsigned long)rows[i].xa,
                                      (unsigned long)rows[i].na,
                                      (unsigned long)rows[i].xb,
                                      (unsigned long)rows[i].nb, &diff);
                buf_printf(b, "%s{\"arm\":", i ? "," : "");
                js(b, rows[i].arm);
                buf_printf(b, ",\"a\":{\"pass\":%ld,\"episodes\":%ld},"
                               "\"b\":{\"pass\":%ld,\"episodes\":%ld},"
                               "\"difference\":%.6f,\"ci95\":[%.6f,%.6f],"
                               "\"excludes_zero\":%s}",
                           rows[i].xa, rows[i].na, rows[i].xb, rows[i].nb, diff,
                           w.lo, w.hi,
                           (w.lo > 0 || w.hi < 0) && rows[i].na && rows[i].nb
                               ? "true"
                               : "false");
            }
            buf_putc(b, ']');
            json_paired(b, paired, npaired);
        }
        buf_puts(b, "}\n");
    } else {
        buf_printf(b, f == MARKDOWN ? "## Compare: %s (A) and %s (B)\n\n"
                                     : "compare: %s (A) and %s (B)\n",
                   shown_in(f, a->run), shown_in(f, c->run));
        if (k != COMPARE_SAME) {
            why_not(b, a, c, k, &d, f, width);
        } else if (!a->simulated && !c->simulated) {
            buf_puts(b, f == MARKDOWN
                            ? "Same tool file; observed episodes, paired by "
                              "the harness's names of their tasks.\n"
                            : "same tool file; observed episodes, paired by "
                              "the harness's names of their tasks\n");
        } else if (f == MARKDOWN) {
            buf_puts(b, "Same tool file and generator: the same tasks.\n");
            if (n)
                buf_puts(b, "\nUnpaired, per arm (each run's pass rate):\n\n"
                            "| arm | A pass | B pass | A - B | 95% CI | "
                            "excludes 0 |\n|---|---:|---:|---:|---|---|\n");
        } else {
            buf_puts(b, "same tool file and generator: the same tasks, "
                         "side by side\n");
            if (n) {
                buf_puts(b, "\nunpaired, per arm: each run's pass rate\n");
                buf_printf(b, "%-14s %13s  %13s  %6s  %s\n", "arm", "A pass",
                           "B pass", "A-B", "95% CI of A-B");
            }
        }
        int starred = 0;
        for (size_t i = 0; i < n; i++) {
            double diff;
            interval w = newcombe((unsigned long)rows[i].xa,
                                  (unsigned long)rows[i].na,
                                  (unsigned long)rows[i].xb,
                                  (unsigned long)rows[i].nb, &diff);
            int excl = (w.lo > 0 || w.hi < 0) && rows[i].na && rows[i].nb;
            starred |= excl;
            char sa[32], sb[32];
            snprintf(sa, sizeof sa, "%ld/%ld", rows[i].xa, rows[i].na);
            snprintf(sb, sizeof sb, "%ld/%ld", rows[i].xb, rows[i].nb);
            if (f == MARKDOWN)
                buf_printf(b, "| %s | %s (%.1f%%) | %s (%.1f%%) | %+.1f | "
                               "%+.1f to %+.1f | %s |\n",
                           md_text(rows[i].arm), sa,
                           pct(rows[i].xa, rows[i].na),
                           sb, pct(rows[i].xb, rows[i].nb), 100 * diff,
                           100 * w.lo, 100 * w.hi, excl ? "yes" : "no");
            else
                buf_printf(b, "%-14s %7s %4.0f%%  %7s %4.0f%%  %+6.1f  "
                               "%+6.1f to %+6.1f%s\n",
                           tx(rows[i].arm), sa, pct(rows[i].xa, rows[i].na),
                           sb, pct(rows[i].xb, rows[i].nb), 100 * diff,
                           100 * w.lo, 100 * w.hi, excl ? " *" : "");
        }
        if (k == COMPARE_SAME && n)
            buf_puts(b, f == MARKDOWN
                             ? "\nDifferences and intervals are in "
                               "percentage points (Newcombe's hybrid score "
                               "interval).\n"
                         : starred
                             ? "\n* the 95% interval of A-B excludes zero "
                               "(percentage points; Newcombe's\n  hybrid "
                               "score interval)\n"
                             : "\nno 95% interval of A-B excludes zero "
                               "(percentage points; Newcombe's\nhybrid score "
                               "interval)\n");
    }
    if (k == COMPARE_SAME && f != JSON && f != HTML)
        text_paired(b, a, c, paired, npaired, f);
    free(rows);
    card_paired_free(paired, npaired);
    contract_diff_free(&d);
    int rc = (int)k;
    if (b->failed) {
        fputs("card: out of memory\n", stderr);
        rc = EXIT_DB;
    }
    return rc;
}

/* -------------------------------------------------------------- main */

struct listed {
    char *run, *model, *at;
    long episodes, pass;
};

static int list_runs(sqlite3 *db, enum format f)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db,
                           "SELECT run, coalesce(model, ''), episodes, pass, "
                           "replayed_at FROM run_summary "
                           "ORDER BY replayed_at, run",
                           -1, &s, NULL) != SQLITE_OK) {
        fprintf(stderr, "card: cannot read the database: %s\n",
                safe(sqlite3_errmsg(db)));
        return EXIT_DB;
    }
    struct listed *rows = NULL;
    size_t n = 0;
    int wr = 3, wm = 5, oom = 0, rc = SQLITE_DONE;
    while (!oom && (rc = sqlite3_step(s)) == SQLITE_ROW) {
        struct listed *more = realloc(rows, (n + 1) * sizeof *more);
        if (!more) {
            oom = 1;
            break;
        }
        rows = more;
        struct listed *r = &rows[n++];
        r->run = strdup((const char *)sqlite3_column_text(s, 0));
        r->model = strdup((const char *)sqlite3_column_text(s, 1));
        r->episodes = (long)sqlite3_column_int64(s, 2);
        r->pass = (long)sqlite3_column_int64(s, 3);
        r->at = strdup((const char *)sqlite3_column_text(s, 4));
        if (!r->run || !r->model || !r->at)
            oom = 1;
        else if (f == TEXT) { /* the widths of the text shown */
            if ((int)strlen(tx(r->run)) > wr)
                wr = (int)strlen(tx(r->run));
            if ((int)strlen(tx(r->model)) > wm)
                wm = (int)strlen(tx(r->model));
        }
    }
    int failed = !oom && rc != SQLITE_DONE;
    if (failed)
        fprintf(stderr, "card: cannot read the database: %s\n",
                safe(sqlite3_errmsg(db)));
    sqlite3_finalize(s);
    buf b = BUF_INIT;
    if (f == TEXT)
        buf_printf(&b, "%-*s  %-*s %5s %5s  %s\n", wr, "run", wm, "model",
                   "eps", "pass", "replayed");
    if (f == MARKDOWN)
        buf_puts(&b, "| run | model | episodes | pass | replayed |\n"
                     "|---|---|---:|---:|---|\n");
    if (f == JSON)
        buf_putc(&b, '[');
    for (size_t i = 0; !oom && i < n; i++) {
        const struct listed *r = &rows[i];
        const char *model = r->model[0] ? r->model : "-";
        if (f == TEXT) {
            buf_printf(&b, "%-*s  %-*s %5ld %5ld  %s\n", wr, tx(r->run), wm,
                       tx(model), r->episodes, r->pass, tx(r->at));
        } else if (f == MARKDOWN) {
            buf_printf(&b, "| %s | %s | %ld | %ld | %s |\n", md_text(r->run),
                       md_text(model), r->episodes, r->pass, md_text(r->at));
        } else {
            buf_puts(&b, i ? ",{\"run\":" : "{\"run\":");
            js(&b, r->run);
            buf_puts(&b, ",\"model\":");
            if (r->model[0])
                js(&b, r->model);
            else
                buf_puts(&b, "null");
            buf_printf(&b, ",\"episodes\":%ld,\"pass\":%ld,\"replayed_at\":"
                           "\"%s\"}",
                       r->episodes, r->pass, r->at);
        }
    }
    if (f == JSON)
        buf_puts(&b, "]\n");
    long no_run = 0;
    err e;
    if (!failed && card_problems_no_run(db, &no_run, &e) < 0) {
        fprintf(stderr, "card: %s\n", safe(e.msg));
        failed = 1;
    }
    if (no_run && f != JSON)
        buf_printf(&b, "%s%ld problem%s in the database name%s no run: %s\n",
                   f == MARKDOWN ? "\n" : "", no_run, no_run == 1 ? "" : "s",
                   no_run == 1 ? "s" : "", no_run_query);
    for (size_t i = 0; i < n; i++) {
        free(rows[i].run);
        free(rows[i].model);
        free(rows[i].at);
    }
    free(rows);
    int status = 0;
    if (failed) {
        status = EXIT_DB;
    } else if (oom || b.failed) {
        fputs("card: out of memory\n", stderr);
        status = EXIT_DB;
    } else {
        fwrite(b.data ? b.data : "", 1, b.len, stdout);
    }
    buf_free(&b);
    return status;
}

/* Writes the page to path (through a file beside it, renamed when whole:
 * a page is never half-written), or to standard output when path is
 * NULL.  -1 with one line said. */
static int write_page(const buf *page, const char *path)
{
    if (page->failed) {
        fputs("card: out of memory\n", stderr);
        return -1;
    }
    if (!path) {
        fwrite(page->data, 1, page->len, stdout);
        return 0;
    }
    char tmp[4200];
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp", path) >= sizeof tmp) {
        fprintf(stderr, "card: -o %s: the path is too long\n", tx(path));
        return -1;
    }
    FILE *fp = fopen(tmp, "wb");
    int ok = fp && fwrite(page->data, 1, page->len, fp) == page->len;
    ok = fp && fclose(fp) == 0 && ok;
    if (!ok || rename(tmp, path) != 0) {
        fprintf(stderr, "card: cannot write %s: %s; nothing was written\n",
                tx(path), strerror(errno));
        remove(tmp);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *db_path = "results.db", *out_path = NULL;
    enum format f = TEXT;
    buf page = BUF_INIT; /* the compare, and the whole HTML page */
    int list = 0, cmp = 0, width = 80, formats = 0;
    const char *runs[256];
    int nruns = 0, options = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!options || a[0] != '-' || !a[1]) { /* a run ("-" too) */
            if (nruns == 256)
                return usage_error("too many runs named (at most 256)");
            runs[nruns++] = a;
        } else if (strcmp(a, "--") == 0) { /* then runs only: "-x" too */
            options = 0;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage_text, stdout);
            return 0;
        } else if (strcmp(a, "--version") == 0) {
            printf("card (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
            return 0;
        } else if (strcmp(a, "--db") == 0 && i + 1 < argc) {
            db_path = argv[++i];
        } else if (strcmp(a, "--json") == 0) {
            formats |= 1;
            f = JSON;
        } else if (strcmp(a, "--markdown") == 0) {
            formats |= 2;
            f = MARKDOWN;
        } else if (strcmp(a, "--html") == 0) {
            formats |= 4;
            f = HTML;
        } else if (strcmp(a, "-o") == 0 && i + 1 < argc) {
            out_path = argv[++i];
        } else if (strcmp(a, "--width") == 0 && i + 1 < argc) {
            char *end;
            long w = strtol(argv[++i], &end, 10);
            if (*end || w < 20 || w > 1000)
                return usage_error("--width takes a number of columns (20 "
                                   "to 1000), not '%s'", argv[i]);
            width = (int)w;
        } else if (strcmp(a, "--list") == 0) {
            list = 1;
        } else if (strcmp(a, "--compare") == 0) {
            cmp = 1;
        } else if (strcmp(a, "--db") == 0 || strcmp(a, "--width") == 0 ||
                   strcmp(a, "-o") == 0) {
            return usage_error("%s needs a value", a);
        } else {
            return usage_error("unknown option '%s' (a run whose name "
                               "starts with '-' goes after --)",
                               tx(a));
        }
    }
    if (formats & (formats - 1))
        return usage_error("--json, --markdown and --html go apart: choose "
                           "one");
    if (out_path && f != HTML)
        return usage_error("-o FILE is for --html; the other formats go to "
                           "standard output");
    if (list && f == HTML)
        return usage_error("--list has no HTML form; use it as text, "
                           "Markdown or JSON");
    if (cmp && nruns != 2)
        return usage_error("--compare takes two runs: RUN_A RUN_B");
    if (cmp && strcmp(runs[0], runs[1]) == 0)
        return usage_error("--compare takes two runs, and \"%s\" is one run "
                           "named twice; card %s shows its card",
                           tx(runs[0]), tx(runs[0]));
    if (list && (cmp || nruns))
        return usage_error("--list takes no run");

    sqlite3 *db = NULL;
    err e;
    err_clear(&e);
    int migrated = 0;
    if (card_db_open(&db, db_path, &migrated, &e) < 0) {
        fprintf(stderr, "card: %s\n", safe(e.msg));
        return EXIT_DB;
    }
    if (migrated)
        fprintf(stderr, "card: %s: migrated from schema version %d to %d\n",
                safe(db_path), migrated, DB_SCHEMA_VERSION);
    int status = 0;
    char *latest = NULL;
    if (list) {
        status = list_runs(db, f);
        goto out;
    }
    if (nruns == 0) {
        latest = card_latest(db, &e);
        if (!latest && e.code != ERR_NONE) {
            fprintf(stderr, "card: %s\n", safe(e.msg));
            status = EXIT_DB;
            goto out;
        }
        if (!latest) {
            fprintf(stderr, "card: %s holds no run yet; replay a night into "
                            "it first\n",
                    tx(db_path));
            status = EXIT_USAGE;
            goto out;
        }
        runs[nruns++] = latest;
    }
    card cards[2];
    if (cmp) {
        for (int i = 0; i < 2; i++)
            if (card_load(&cards[i], db, runs[i], &e) < 0) {
                fprintf(stderr, "card: %s\n", safe(e.msg));
                if (i)
                    card_free(&cards[0]);
                card_free(&cards[i]);
                status = e.code == ERR_VALUE ? EXIT_USAGE : EXIT_DB;
                goto out;
            }
        if (f == HTML)
            html_begin(&page, "taskreplay: compare");
        status = compare(db, &cards[0], &cards[1], f, width, &page);
        card_free(&cards[0]);
        card_free(&cards[1]);
        if (f == HTML && status != EXIT_DB) {
            html_end(&page);
            if (write_page(&page, out_path) < 0)
                status = EXIT_DB;
        } else if (f != HTML && status != EXIT_DB) {
            fwrite(page.data, 1, page.len, stdout);
        }
        goto out;
    }
    if (f == HTML)
        html_begin(&page, nruns == 1 ? runs[0] : "taskreplay: cards");
    for (int i = 0; i < nruns; i++) {
        card c;
        if (card_load(&c, db, runs[i], &e) < 0) {
            fprintf(stderr, "card: %s\n", safe(e.msg));
            card_free(&c);
            status = e.code == ERR_VALUE ? EXIT_USAGE : EXIT_DB;
            goto out;
        }
        if (f == HTML) {
            html_card(&page, &c, i + 1);
        } else if (f == JSON) {
            buf b = BUF_INIT;
            json_card(&b, &c);
            buf_putc(&b, '\n');
            if (b.failed)
                status = EXIT_DB;
            else
                fwrite(b.data, 1, b.len, stdout);
            buf_free(&b);
        } else {
            if (i)
                putchar('\n');
            if (f == MARKDOWN)
                md_card(&c);
            else
                text_card(&c, width);
        }
        card_free(&c);
    }
    if (f == HTML) {
        html_end(&page);
        if (write_page(&page, out_path) < 0)
            status = EXIT_DB;
    }
out:
    buf_free(&page);
    free(latest);
    shown_free();
    sqlite3_close(db);
    if (fflush(stdout) != 0) {
        fprintf(stderr, "card: cannot write the output\n");
        return EXIT_DB;
    }
    return status;
}
