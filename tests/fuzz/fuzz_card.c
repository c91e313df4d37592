/*
 * fuzz_card: the card writers (text, Markdown, JSON, HTML) on a card, a
 * compare and a list of runs made from the input: every name, hash, time,
 * kind and message is a piece of it (any bytes: controls, escapes, "|",
 * "<", bytes that are not UTF-8), every count and mean a number drawn
 * from it (infinities and NaN among the means).  A real finding is an
 * abort():
 *  - text: a line wider than the width asked for (60 and up), a line that
 *    is not UTF-8, or a control, C1 control or bidirectional override
 *    left raw;
 *  - Markdown: a raw control, or two rows of one table whose cells
 *    (unescaped "|") differ in number;
 *  - JSON: output that is not UTF-8 or that json_load cannot read;
 *  - HTML: a "<script", a raw control, tags that do not balance (<tr>,
 *    <td>, <table>, <section>, <svg>, <g>, <text>, <figure>, <div>,
 *    <ul>, <li>, <a>), a dial's part without exactly one label, a link
 *    to anything but a page's file name, or a picture's coordinate that
 *    is not a finite number (the index too, of both runs and their
 *    compare);
 *  - a page's file name with a character other than a letter, a digit,
 *    "-", "_" or ".", or not ending ".html".
 * Each card has classes, the compare flipped tasks (linked to episode
 * pages in HTML), and an episode is written in text, JSON and HTML.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arena.h"
#include "buf.h"
#include "carddata.h"
#include "folder.h"
#include "html.h"
#include "json.h"
#include "json_load.h"
#include "markdown.h"
#include "shown.h"
#include "text.h"
#include "utf8.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input, read as a stream of pieces. */
struct input {
    const uint8_t *p;
    size_t n;
};

static unsigned byte(struct input *in)
{
    if (!in->n)
        return 0;
    in->n--;
    return *in->p++;
}

/* A number 0..max, most often small. */
static long number(struct input *in, long max)
{
    unsigned b = byte(in);
    long v = b < 200 ? (long)(b % 10) : (long)byte(in) << 8 | byte(in);
    return max ? v % (max + 1) : v;
}

/* A string: the next length byte's worth of bytes, NUL-terminated (a NUL
 * in it ends it, as it ends a string from the database). */
static char *piece(struct input *in)
{
    size_t len = byte(in);
    if (len > in->n)
        len = in->n;
    char *s = malloc(len + 1);
    if (!s)
        abort();
    memcpy(s, in->p, len);
    s[len] = '\0';
    in->p += len;
    in->n -= len;
    return s;
}

static double mean(struct input *in)
{
    switch (byte(in) % 8) {
    case 0: return INFINITY;
    case 1: return -INFINITY;
    case 2: return NAN;
    case 3: return 1e308;
    default: return (double)number(in, 0) / 7.0;
    }
}

static void make_card(card *c, struct input *in)
{
    memset(c, 0, sizeof *c);
    c->run = piece(in);
    c->model = piece(in);
    c->tools_path = piece(in);
    c->file_sha256 = piece(in);
    c->contract_sha256 = piece(in);
    c->fingerprint = piece(in);
    c->replayed_at = piece(in);
    c->generator_version = (int)number(in, 9);
    c->simulated = number(in, 0);
    c->observed = number(in, 0);
    c->episodes = c->simulated + c->observed;
    c->pass = number(in, c->simulated);
    c->reached = number(in, c->simulated);
    c->side_effects = number(in, 0);
    c->duplicates = number(in, 0);
    c->errors = number(in, 0);
    for (int i = 0; i < CARD_CODES; i++)
        c->by_code[i] = number(in, 0);
    c->unfinished = number(in, 0);
    c->compared_episodes = number(in, c->simulated);
    c->diverged_episodes = number(in, c->compared_episodes);
    c->compared_calls = number(in, 0);
    c->diverged_calls = number(in, c->compared_calls);
    c->unlogged_calls = number(in, 0);
    c->problems = number(in, 0);
    c->problems_no_run = number(in, 0);
    for (int k = 0; k < 2; k++) {
        card_harness *h = &c->harness[k];
        h->judged = number(in, 0);
        h->successes = number(in, h->judged);
        h->rewarded = number(in, 0);
        h->mean_reward = mean(in);
        h->unfinished = number(in, 0);
    }
    /* the run's rates, as card_load makes them: clustered or not */
    c->rate[0] = card_rate_plain(c->pass, c->simulated);
    c->rate[1] = card_rate_plain(c->harness[1].successes, c->harness[1].judged);
    for (int k = 0; k < 2; k++)
        if (byte(in) & 1) {
            c->rate[k].clustered = 1;
            c->rate[k].tasks = number(in, c->rate[k].n);
            c->rate[k].ci.lo = (double)byte(in) / 510.0;
            c->rate[k].ci.hi = 0.5 + (double)byte(in) / 510.0;
        }
    c->narms = (size_t)number(in, 6);
    c->arms = calloc(c->narms + 1, sizeof *c->arms);
    for (size_t i = 0; c->arms && i < c->narms; i++) {
        card_arm *a = &c->arms[i];
        a->arm = piece(in);
        a->episodes = number(in, 0);
        a->pass = number(in, a->episodes);
        a->reached = number(in, a->episodes);
        a->side_effects = number(in, 0);
        a->duplicates = number(in, 0);
        a->errors = number(in, 0);
    }
    static const char *const dials[] = {"faults", "timeouts", "ratelimits",
                                        "landed", "baddata", "lagged"};
    c->ndials = (size_t)number(in, 6);
    c->dials = calloc(c->ndials + 1, sizeof *c->dials);
    for (size_t i = 0; c->dials && i < c->ndials; i++) {
        card_dial *d = &c->dials[i];
        d->dial = strdup(dials[i]);
        for (int o = 0; o < 10; o++)
            d->outcomes[o] = number(in, 0);
        d->events = number(in, 0);
        d->fired = number(in, d->events);
    }
    for (int u = 0; u < 2; u++) {
        size_t n = (size_t)number(in, 5);
        card_tool *t = calloc(n + 1, sizeof *t);
        for (size_t i = 0; t && i < n; i++) {
            t[i].tool = piece(in);
            t[i].kind = u ? NULL : piece(in);
            t[i].kind_ok = t[i].kind && (strcmp(t[i].kind, "read") == 0 ||
                                         strcmp(t[i].kind, "write") == 0);
            static const char *const from[] = {"name", "hint", "method"};
            unsigned f = byte(in) % 4;
            t[i].kind_from = f < 3 ? from[f] : NULL;
            t[i].calls = number(in, 0);
            t[i].errors = number(in, t[i].calls);
            c->observed_calls += t[i].calls;
            c->observed_errors += t[i].errors;
            t[i].args_checked = number(in, t[i].calls);
            t[i].invalid = number(in, t[i].args_checked);
            t[i].answers_checked = number(in, t[i].calls);
            t[i].off_schema = number(in, t[i].answers_checked);
            t[i].rule = byte(in) & 1 ? piece(in) : NULL;
            t[i].rule_calls = number(in, t[i].invalid);
        }
        if (u) {
            c->unknown = t;
            c->nunknown = n;
        } else {
            c->tools = t;
            c->ntools = n;
        }
    }
    for (int k = 0; k < 2; k++) {
        size_t n = (size_t)number(in, 12);
        c->passk[k] = calloc(n + 1, sizeof *c->passk[k]);
        for (size_t i = 0; c->passk[k] && i < n; i++)
            c->passk[k][i] = (card_passk){(long)i + 1, number(in, 0),
                                          (double)byte(in) / 255.0,
                                          {(double)byte(in) / 510.0,
                                           0.5 + (double)byte(in) / 510.0}};
        c->npassk[k] = n;
        c->passk_largest[k] = (long)n;
    }
    c->nfirst = (size_t)number(in, 5);
    for (size_t i = 0; i < c->nfirst; i++) {
        c->first_problems[i].file = piece(in);
        c->first_problems[i].line = number(in, 0);
        c->first_problems[i].message = piece(in);
    }
    c->problems += (long)c->nfirst;
    c->tools_found = byte(in) & 1 ? piece(in) : NULL;
    c->nclasses = (size_t)number(in, 4);
    c->classes = calloc(c->nclasses + 1, sizeof *c->classes);
    for (size_t i = 0; c->classes && i < c->nclasses; i++) {
        card_class *k = &c->classes[i];
        k->name = card_class_names[byte(in) % CARD_CLASSES];
        k->episodes = number(in, 0);
        k->example = piece(in);
        k->narms = (size_t)number(in, 3);
        k->arms = calloc(k->narms + 1, sizeof *k->arms);
        for (size_t j = 0; k->arms && j < k->narms; j++)
            k->arms[j] = (card_class_arm){piece(in), number(in, 0)};
    }
}

/* Flipped tasks of a compare, from the input. */
static void make_flips(card_flips *f, struct input *in)
{
    memset(f, 0, sizeof *f);
    f->n = (size_t)number(in, 4);
    f->v = calloc(f->n + 1, sizeof *f->v);
    for (size_t i = 0; f->v && i < f->n; i++) {
        card_flip *p = &f->v[i];
        p->task = piece(in);
        p->arm = byte(in) & 1 ? piece(in) : NULL;
        for (int k = 0; k < 2; k++) {
            p->n[k] = number(in, 0) + 1;
            p->c[k] = number(in, p->n[k]);
            unsigned cls = byte(in) % (CARD_CLASSES + 1);
            p->cls[k] = cls < CARD_CLASSES ? card_class_names[cls] : NULL;
            p->episode[k] = piece(in);
        }
    }
    f->shared = (long)f->n + number(in, 0);
    f->better_a = number(in, (long)f->n);
    f->better_b = (long)f->n - f->better_a;
}

/* An episode, from the input: every name, value and message a piece. */
static void make_episode(episode_view *v, struct input *in)
{
    memset(v, 0, sizeof *v);
    v->run = piece(in);
    v->episode = piece(in);
    v->observed = byte(in) & 1;
    v->seed = number(in, 0);
    v->arm = byte(in) & 1 ? piece(in) : NULL;
    v->task = byte(in) & 1 ? piece(in) : NULL;
    v->request = byte(in) & 1 ? piece(in) : NULL;
    v->depth = number(in, 9) - 1;
    v->reached = (int)number(in, 2) - 1;
    v->pass = (int)number(in, 2) - 1;
    v->side_effects = number(in, 0) - 1;
    v->duplicate_writes = number(in, 0) - 1;
    v->errors = number(in, 0) - 1;
    v->unfinished = byte(in) & 1;
    v->success = (int)number(in, 2) - 1;
    v->status = byte(in) & 1 ? piece(in) : NULL;
    v->final = byte(in) & 1 ? piece(in) : NULL;
    v->has_reward = byte(in) & 1;
    v->reward = mean(in);
    unsigned cls = byte(in) % (CARD_CLASSES + 1);
    v->cls = cls < CARD_CLASSES ? card_class_names[cls] : NULL;
    v->cls_seq = number(in, 0) - 1;
    v->cls_step = number(in, 0) - 1;
    v->cls_tool = byte(in) & 1 ? piece(in) : NULL;
    v->cls_error = byte(in) & 1 ? piece(in) : NULL;
    v->cls_dial = byte(in) & 1 ? piece(in) : NULL;
    v->source_file = piece(in);
    v->source_line = number(in, 0);
    v->ncalls = (size_t)number(in, 4);
    v->calls = calloc(v->ncalls + 1, sizeof *v->calls);
    for (size_t i = 0; v->calls && i < v->ncalls; i++) {
        ep_call *c = &v->calls[i];
        c->seq = (long)i + 1;
        c->step = number(in, 0) - 1;
        c->tool = piece(in);
        char **opt[] = {&c->kind, &c->arguments, &c->arguments_raw, &c->rule,
                        &c->answer, &c->logged, &c->error, &c->effect,
                        &c->dial};
        for (size_t k = 0; k < sizeof opt / sizeof *opt; k++)
            *opt[k] = byte(in) & 1 ? piece(in) : NULL;
        c->arguments_valid = (int)number(in, 2) - 1;
        c->diverged = (int)number(in, 2) - 1;
        c->duration = mean(in);
    }
    v->nevents = (size_t)number(in, 3);
    v->events = calloc(v->nevents + 1, sizeof *v->events);
    for (size_t i = 0; v->events && i < v->nevents; i++)
        v->events[i] = (ep_event){(long)i + 1, number(in, 0), piece(in),
                                  piece(in), number(in, 0) - 1};
}

/* ------------------------------------------------------------- checks */

/* A finding: what the writer wrote, and why it is wrong, then abort(). */
static void fail(const buf *b, const char *why)
{
    fprintf(stderr, "fuzz_card: %s in:\n%.*s\n", why, (int)b->len,
            b->data ? b->data : "");
    abort();
}

/* A code point no writer may leave raw: C0 but the newline, DEL, C1, the
 * bidirectional embeddings, overrides and isolates, line and paragraph
 * separators. */
static int forbidden(uint32_t cp)
{
    return (cp < 0x20 && cp != '\n') || (cp >= 0x7F && cp <= 0x9F) ||
           (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) ||
           cp == 0x2028 || cp == 0x2029;
}

/* Valid UTF-8, no forbidden code point; with width > 0, no line wider. */
static void check_shown(const buf *b, int width)
{
    const unsigned char *s = (const unsigned char *)(b->data ? b->data : "");
    utf8_report r;
    if (utf8_check(s, b->len, 0, &r) != UTF8_OK)
        fail(b, "not UTF-8");
    size_t col = 0;
    for (size_t i = 0; i < b->len;) {
        uint32_t cp;
        int ok;
        i += utf8_next(s + i, b->len - i, &cp, &ok);
        if (!ok || forbidden(cp))
            fail(b, "a raw control");
        if (cp == '\n') {
            col = 0;
            continue;
        }
        if (width > 0 && ++col > (size_t)width)
            fail(b, "a line past the width");
    }
}

/* The cells of a Markdown table row: its "|" that no backslash escapes. */
static int md_cells(const char *line, size_t len)
{
    int n = 0;
    for (size_t i = 0; i < len; i++) {
        if (line[i] == '\\') {
            i++;
            continue;
        }
        /* inside code a backslash is a backslash, and "|" still escaped:
         * the writer writes "\|" there too */
        n += line[i] == '|';
    }
    return n;
}

static void check_markdown(const buf *b)
{
    check_shown(b, 0);
    const char *s = b->data ? b->data : "";
    int cells = -1;
    while (*s) {
        const char *end = strchr(s, '\n');
        size_t len = end ? (size_t)(end - s) : strlen(s);
        if (len && s[0] == '|') {
            int n = md_cells(s, len);
            if (cells >= 0 && n != cells)
                fail(b, "rows of one table with other numbers of cells");
            cells = n;
        } else {
            cells = -1; /* a table ends at a line that is no row */
        }
        s += len + (end ? 1 : 0);
    }
}

static void check_json(const buf *b)
{
    utf8_report r;
    const char *s = b->data ? b->data : "";
    if (utf8_check((const unsigned char *)s, b->len, 0, &r) != UTF8_OK)
        fail(b, "JSON that is not UTF-8");
    /* one document a line */
    while (*s) {
        const char *end = strchr(s, '\n');
        size_t len = end ? (size_t)(end - s) : strlen(s);
        arena *a = arena_new();
        value *v = NULL;
        err e;
        err_clear(&e);
        if (!a)
            abort();
        if (json_load(&v, a, s, len, &e) < 0 && e.code != ERR_NOMEM)
            fail(b, "JSON json_load cannot read");
        arena_free(a);
        s += len + (end ? 1 : 0);
    }
}

/* Occurrences of what in b, any case. */
static size_t count(const buf *b, const char *what)
{
    size_t n = 0, k = strlen(what);
    for (size_t i = 0; b->data && i + k <= b->len; i++)
        n += strncasecmp(b->data + i, what, k) == 0;
    return n;
}

/* Occurrences of what in b, as the writers write it: a jump from one
 * first byte to the next, not a comparison at every byte (a page is tens
 * of kilobytes, and many things are counted in it). */
static size_t count_exact(const buf *b, const char *what)
{
    size_t n = 0, k = strlen(what);
    const char *p = b->data, *end = b->data ? b->data + b->len : NULL;
    while (p && (size_t)(end - p) >= k &&
           (p = memchr(p, what[0], (size_t)(end - p - (ptrdiff_t)k) + 1))) {
        n += memcmp(p, what, k) == 0;
        p++;
    }
    return n;
}

static void check_html(const buf *b)
{
    check_shown(b, 0);
    if (count(b, "<script"))
        fail(b, "a <script");
    static const char *const tags[] = {"tr",  "td", "table", "section",
                                       "svg", "g",  "text",  "figure",
                                       "div", "ul", "li",    "a"};
    for (size_t i = 0; i < sizeof tags / sizeof *tags; i++) {
        char open[16], spaced[16], closed[16];
        snprintf(open, sizeof open, "<%s>", tags[i]);
        snprintf(spaced, sizeof spaced, "<%s ", tags[i]);
        snprintf(closed, sizeof closed, "</%s>", tags[i]);
        if (count_exact(b, open) + count_exact(b, spaced) !=
            count_exact(b, closed))
            fail(b, tags[i]);
    }
    /* every part of a dial's bar has one label, inside it or under */
    if (count_exact(b, "<g class=\"part\"") !=
        count_exact(b, "<text class=\"in ") +
            count_exact(b, "<text class=\"out\""))
        fail(b, "a dial's part without exactly one label");
    /* an attribute's value that printf made of a NaN or an infinity
     * (text from the input cannot hold '="': its quote is escaped) */
    static const char *const bad[] = {"=\"nan",   "=\"-nan",  "=\"inf",
                                      "=\"-inf",  "d=\"Mnan", "d=\"M-nan",
                                      "d=\"Minf", "d=\"M-inf"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        if (count_exact(b, bad[i]))
            fail(b, "a coordinate that is not a number");
    /* links lead to a night's pages only */
    const char *s = b->data ? b->data : "";
    while ((s = strstr(s, "href=\""))) {
        s += 6;
        size_t n = strcspn(s, "\"");
        if (n < 5 || strncmp(s + n - 5, ".html", 5) != 0 ||
            strcspn(s, "/:\\") < n)
            fail(b, "a link to something other than a page");
    }
}

/* A page's file name: letters, digits, "-", "_", "." and ".html". */
static void check_page_name(const buf *name)
{
    const char *s = name->data ? name->data : "";
    if (name->failed)
        return;
    size_t n = strlen(s);
    if (n < 6 || strcmp(s + n - 5, ".html") != 0 ||
        strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                  "0123456789-_.") != n)
        fail(name, "a page's file name that is not safe");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct input in = {data, size};
    int width = TEXT_MIN_WIDTH + (int)(byte(&in) % 120);
    card c[2];
    make_card(&c[0], &in);
    make_card(&c[1], &in);

    buf b = BUF_INIT;
    for (int i = 0; i < 2; i++) {
        buf_reset(&b);
        text_card(&b, &c[i], width);
        check_shown(&b, width);
        buf_reset(&b);
        md_card(&b, &c[i]);
        check_markdown(&b);
        buf_reset(&b);
        json_card(&b, &c[i]);
        check_json(&b);
        buf_reset(&b);
        html_begin(&b, c[i].run);
        html_card(&b, &c[i], i + 1);
        html_end(&b);
        check_html(&b);
    }

    /* a compare of the two, in the case the input names, with rows and
     * paired figures from the cards' arms */
    card_compared x;
    memset(&x, 0, sizeof x);
    x.a = &c[0];
    x.b = &c[1];
    static const enum compare_case cases[] = {
        COMPARE_SAME, COMPARE_REFORMATTED, COMPARE_CONTRACTS,
        COMPARE_GENERATORS};
    x.k = cases[byte(&in) % 4];
    if (x.k == COMPARE_SAME) {
        x.contract = (enum contract_basis)(byte(&in) % 4);
        x.rows = card_compare_rows(&c[0], &c[1], &x.nrows);
        x.npaired = (size_t)number(&in, 4);
        x.paired = calloc(x.npaired + 1, sizeof *x.paired);
        for (size_t i = 0; x.paired && i < x.npaired; i++) {
            card_paired *p = &x.paired[i];
            p->measure = byte(&in) & 1 ? "pass" : "success";
            p->arm = piece(&in);
            p->shared = number(&in, 0);
            p->only_a = number(&in, 0);
            p->only_b = number(&in, 0);
            p->one_trial = byte(&in) & 1;
            p->diff = (double)number(&in, 200) / 100.0 - 1.0;
            p->ci.lo = p->diff - 0.1;
            p->ci.hi = p->diff + 0.1;
            p->pairs.n = number(&in, 0);
            p->pairs.a_only = number(&in, 0);
            p->pairs.b_only = number(&in, 0);
            p->pairs.p = (double)byte(&in) / 255.0;
        }
    }
    if (x.k == COMPARE_CONTRACTS || x.contract == CONTRACT_ACROSS) {
        x.d.nadded = (size_t)number(&in, 3);
        x.d.added = calloc(x.d.nadded + 1, sizeof *x.d.added);
        for (size_t i = 0; x.d.added && i < x.d.nadded; i++)
            x.d.added[i] = piece(&in);
    }
    if (x.k == COMPARE_SAME) {
        make_flips(&x.flips, &in);
        x.flips_shown = (size_t)number(&in, 12);
        /* usage by task: names as they come, means of any value */
        x.usage_shown = (size_t)number(&in, 8);
        for (int m = 0; m < USAGE_MEASURES; m++) {
            usage_paired *u = &x.usage.m[m];
            long n = number(&in, 6);
            if (!n || !(u->v = calloc((size_t)n, sizeof *u->v)))
                continue;
            u->tasks = n;
            u->mean[0] = mean(&in);
            u->mean[1] = mean(&in);
            u->diff = mean(&in);
            u->has_ci = byte(&in) & 1;
            u->ci.lo = mean(&in);
            u->ci.hi = mean(&in);
            for (long i = 0; i < n; i++) {
                u->v[i].task = piece(&in);
                u->v[i].arm = byte(&in) & 1 ? piece(&in) : NULL;
                u->v[i].n[0] = number(&in, 0);
                u->v[i].n[1] = number(&in, 0);
                u->v[i].mean[0] = mean(&in);
                u->v[i].mean[1] = mean(&in);
            }
        }
    }
    card_compare_verdict(&x);
    buf_reset(&b);
    text_compare(&b, &x, width);
    check_shown(&b, width);
    buf_reset(&b);
    md_compare(&b, &x);
    check_markdown(&b);
    buf_reset(&b);
    json_compare(&b, &x);
    check_json(&b);
    buf_reset(&b);
    html_begin(&b, "compare");
    html_compare(&b, &x, NULL, NULL);
    html_end(&b);
    check_html(&b);

    /* the gate's verdict, with its flips and the tasks NEW lacks */
    if (x.k == COMPARE_SAME) {
        gate g;
        memset(&g, 0, sizeof g);
        g.measure = byte(&in) & 1 ? "pass" : "success";
        g.outcome = (gate_outcome)(byte(&in) % 3);
        g.max_drop = (double)number(&in, 100) / 100.0;
        g.missing_fail = byte(&in) & 1;
        g.tasks = number(&in, 0);
        g.missing = number(&in, 0);
        g.new_only = number(&in, 0);
        g.one_trial = byte(&in) & 1;
        g.drop = (double)number(&in, 200) / 100.0 - 1.0;
        g.ci.lo = g.drop - 0.1;
        g.ci.hi = g.drop + 0.1;
        for (long i = 0; i < g.missing && i < GATE_MISSING_SHOWN; i++)
            g.missing_names[i] = piece(&in);
        buf_reset(&b);
        text_gate(&b, &g, &x, width);
        check_shown(&b, width);
        buf_reset(&b);
        json_gate(&b, &g, &x, 1);
        check_json(&b);
        gate_free(&g);
    }

    /* the index of both runs, the second the baseline, with their
     * compare and page names made of their names */
    buf names[3] = {BUF_INIT, BUF_INIT, BUF_INIT};
    folder_page_name(&names[0], "run", c[0].run, NULL);
    folder_page_name(&names[1], "run", c[1].run, NULL);
    folder_page_name(&names[2], "compare", c[0].run, c[1].run);
    for (int i = 0; i < 3; i++)
        check_page_name(&names[i]);
    html_entry entries[2] = {
        {&c[0], names[0].data ? names[0].data : "x.html", &x,
         names[2].data ? names[2].data : "y.html"},
        {&c[1], names[1].data ? names[1].data : "z.html", NULL, NULL}};
    buf_reset(&b);
    html_begin(&b, "index");
    html_index(&b, entries, 2, byte(&in) & 1 ? &c[1] : NULL,
               number(&in, 0));
    html_end(&b);
    check_html(&b);
    /* and with its flipped tasks' episodes and each class's first
     * linked to their pages */
    buf *epn = calloc(2 * x.flips.n + c[0].nclasses + 1, sizeof *epn);
    const char **links = calloc(2 * x.flips.n + c[0].nclasses + 1,
                                sizeof *links);
    for (size_t i = 0; epn && links && i < x.flips.n; i++)
        for (int k = 0; k < 2; k++) {
            buf *nm = &epn[2 * i + (size_t)k];
            folder_page_name(nm, "episode", c[k].run, x.flips.v[i].episode[k]);
            check_page_name(nm);
            links[2 * i + (size_t)k] = nm->data ? nm->data : "e.html";
        }
    for (size_t i = 0; epn && links && i < c[0].nclasses; i++) {
        buf *nm = &epn[2 * x.flips.n + i];
        folder_page_name(nm, "episode", c[0].run, c[0].classes[i].example);
        check_page_name(nm);
        links[2 * x.flips.n + i] = nm->data ? nm->data : "e.html";
    }
    html_links hl = {links ? links + 2 * x.flips.n : NULL, links,
                     (size_t)number(&in, (long)x.flips.n)};
    buf_reset(&b);
    html_begin(&b, "compare");
    html_back(&b);
    html_compare_linked(&b, &x, entries[0].page, entries[1].page,
                        links ? &hl : NULL);
    html_end(&b);
    check_html(&b);
    buf_reset(&b);
    html_begin(&b, c[0].run);
    html_card_linked(&b, &c[0], 1, links ? &hl : NULL);
    html_end(&b);
    check_html(&b);
    for (size_t i = 0; epn && i < 2 * x.flips.n + c[0].nclasses; i++)
        buf_free(&epn[i]);
    free(epn);
    free(links);
    for (int i = 0; i < 3; i++)
        buf_free(&names[i]);
    card_compared_free(&x);

    /* a trend of both runs and the flaky tasks of it: names as they
     * come, figures of any size */
    flaky fl;
    memset(&fl, 0, sizeof fl);
    fl.t.n = 2;
    fl.t.v = calloc(2, sizeof *fl.t.v);
    for (size_t i = 0; fl.t.v && i < 2; i++) {
        trend_night *n = &fl.t.v[i];
        n->run = piece(&in);
        n->model = piece(&in);
        n->replayed_at = piece(&in);
        n->file_sha256 = piece(&in);
        n->contract_sha256 = piece(&in);
        n->fingerprint = piece(&in);
        n->measure = byte(&in) & 1 ? "pass" : NULL;
        n->n = number(&in, 0) + 1;
        n->x = number(&in, n->n);
        n->ci.lo = 0;
        n->ci.hi = 1;
        n->breaks = (int)(byte(&in) & 15);
    }
    fl.t.series = byte(&in) & 1;
    fl.t.nf = fl.t.v ? (size_t)number(&in, 4) : 0;
    fl.t.f = calloc(fl.t.nf + 1, sizeof *fl.t.f);
    for (size_t i = 0; fl.t.f && i < fl.t.nf; i++) {
        fl.t.f[i].task = piece(&in);
        fl.t.f[i].arm = byte(&in) & 1 ? piece(&in) : NULL;
        fl.t.f[i].since = byte(&in) & 1;
        fl.t.f[i].nights = number(&in, 0);
    }
    fl.nwithin = fl.t.v ? (size_t)number(&in, 4) : 0;
    fl.within = calloc(fl.nwithin + 1, sizeof *fl.within);
    for (size_t i = 0; fl.within && i < fl.nwithin; i++) {
        fl.within[i].night = byte(&in) & 1;
        fl.within[i].task = piece(&in);
        fl.within[i].passed = number(&in, 0);
        fl.within[i].trials = number(&in, 0);
    }
    fl.nacross = fl.t.v ? (size_t)number(&in, 4) : 0;
    fl.across = calloc(fl.nacross + 1, sizeof *fl.across);
    for (size_t i = 0; fl.across && i < fl.nacross; i++) {
        fl.across[i].task = piece(&in);
        fl.across[i].outcomes = piece(&in);
        fl.across[i].first = 0;
        fl.across[i].last = byte(&in) & 1;
        fl.across[i].changes = number(&in, 0);
    }
    if (fl.t.v && fl.t.f && fl.within && fl.across) {
        buf_reset(&b);
        text_trend(&b, &fl.t, width, (size_t)number(&in, 5));
        check_shown(&b, width);
        buf_reset(&b);
        json_trend(&b, &fl.t);
        check_json(&b);
        buf_reset(&b);
        text_flaky(&b, &fl, width, (size_t)number(&in, 5));
        check_shown(&b, width);
        buf_reset(&b);
        json_flaky(&b, &fl);
        check_json(&b);
    }
    flaky_free(&fl);

    /* an episode, in the three formats it has */
    episode_view v;
    make_episode(&v, &in);
    buf_reset(&b);
    text_episode(&b, &v, width);
    check_shown(&b, width);
    buf_reset(&b);
    json_episode(&b, &v);
    check_json(&b);
    buf_reset(&b);
    html_begin(&b, v.episode);
    html_episode(&b, &v);
    html_end(&b);
    check_html(&b);
    episode_free(&v);

    /* the list of both runs */
    card_listing l = {.n = 2, .no_run = number(&in, 0)};
    card_listed runs[2];
    for (int i = 0; i < 2; i++)
        runs[i] = (card_listed){c[i].run, c[i].model, c[i].replayed_at,
                                c[i].episodes,
                                c[i].simulated ? c[i].pass : -1,
                                c[i].harness[1].judged
                                    ? c[i].harness[1].successes
                                    : -1};
    l.runs = runs;
    buf_reset(&b);
    text_list(&b, &l, width);
    check_shown(&b, width);
    buf_reset(&b);
    md_list(&b, &l);
    check_markdown(&b);
    buf_reset(&b);
    json_list(&b, &l);
    check_json(&b);

    buf_free(&b);
    card_free(&c[0]);
    card_free(&c[1]);
    shown_free();
    return 0;
}
