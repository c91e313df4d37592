/* card: per-run cards from the results database, and an honest
 * comparison of two runs (docs/card.md). */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "carddata.h"
#include "config.h"
#include "db.h"
#include "epages.h"
#include "folder.h"
#include "gate.h"
#include "html.h"
#include "json.h"
#include "junit.h"
#include "progress.h"
#include "split.h"
#include "markdown.h"
#include "shown.h"
#include "text.h"
#include "trend.h"

#define EXIT_REGRESSED 1
#define EXIT_USAGE 2
#define EXIT_DB 3
#define EXIT_UNJUDGED 7

enum format { TEXT, MARKDOWN, JSON, HTML };

static const char usage_text[] =
    "usage: card [--db results.db] [--json | --markdown | --html [-o FILE]]\n"
    "            [--width N] [--] [RUN...]\n"
    "       card [--db results.db] --list\n"
    "       card [--db results.db] [--json | --markdown | --html [-o FILE]]\n"
    "            --compare RUN_A RUN_B [--tasks all] [--across-contracts]\n"
    "       card [--db results.db] [--json] --gate --compare BASE NEW\n"
    "            [--max-drop POINTS] [--missing fail|ignore] [--junit FILE]\n"
    "            [--across-contracts]\n"
    "       card [--db results.db] --junit FILE [RUN | --compare BASE NEW]\n"
    "       card [--db results.db] [--json] --trend [PATTERN] [--model M]\n"
    "            [--tasks all]\n"
    "       card [--db results.db] [--json] --flaky [PATTERN] [--model M]\n"
    "            [--tasks all]\n"
    "       card [--db results.db] [--json | --html [-o FILE]]\n"
    "            --episode EPISODE [RUN]\n"
    "       card [--db results.db] --html --all -o DIR [--baseline RUN]\n"
    "\n"
    "  RUN...      one card per run (the latest run when none is named):\n"
    "              its headline (a sentence: the pass rate with its\n"
    "              interval, and what went wrong, in words), what\n"
    "              produced it, pass and reached with 95% Wilson\n"
    "              intervals (the run's rate clustered by task where\n"
    "              tasks have several trials), side effects, errors,\n"
    "              calls against the tasks' steps, per arm, per dial;\n"
    "              the harness's success and reward; observed episodes\n"
    "              (calls and errors per tool, no simulator figure);\n"
    "              why episodes ended as they did (a class each: passed,\n"
    "              side_effect, fooled...; the view episode_outcomes);\n"
    "              pass^k\n"
    "  RUN@N, RUN@A-B  wherever a run is named: the run narrowed to\n"
    "              each task's N-th trial, or its trials A to B (in the\n"
    "              order written), as a run of its own\n"
    "  --list      the runs in the database\n"
    "  --html      one self-contained HTML page (inline style and SVG\n"
    "              pictures, no script, nothing loaded), the figures of\n"
    "              the other formats: each card and compare led by its\n"
    "              headline; pass and reached per arm, each dial's\n"
    "              outcomes, a compare's paired and unpaired differences,\n"
    "              each picture with its axis's title and unit, and a\n"
    "              table; laid out for a desktop and for a phone\n"
    "  -o FILE     the page into FILE (written whole, or not at all)\n"
    "  --all       with --html -o DIR: the night's report, DIR/index.html\n"
    "              (every run: model, tool file, episodes, its figure and\n"
    "              interval on one axis, the runs with the same tasks)\n"
    "              and a page per run (run-NAME-HASH.html), and per\n"
    "              episode those link to, each class's first\n"
    "              (episode-RUN-EPISODE-HASH.html); rerun into\n"
    "              DIR, it replaces its pages and removes those of runs\n"
    "              gone, and touches no other file (card's pages are\n"
    "              known by name and by their first line); on a\n"
    "              terminal, a line of progress while it works\n"
    "  --baseline RUN  with --all: also each run with the same tasks as\n"
    "              RUN compared with it (compare-A-vs-RUN-HASH.html),\n"
    "              its verdict in the index (with Holm's p over the\n"
    "              night's compares, the runs grouped by what survives),\n"
    "              and each flipped task's trials (the first 100) given\n"
    "              pages too\n"
    "  --width N   the text's width, 60 and up (default: 80): every line\n"
    "              fits it; prose wraps, tables narrow their gaps, then\n"
    "              cut long names with an ellipsis; below 80, hashes are\n"
    "              cut to 16 digits\n"
    "  --compare   two runs side by side, only when their tasks are the\n"
    "              same (same tool file bytes and generator; for runs of\n"
    "              observed episodes, the harness's task ids on one tool\n"
    "              contract, or where either recorded none), led by the\n"
    "              verdict (which run is ahead, by how much, on how many\n"
    "              shared tasks, McNemar's p); otherwise says why not,\n"
    "              with no figure set side by side; then\n"
    "              paired by task: A-B with Tango's or a clustered\n"
    "              interval, discordant pairs, McNemar's exact p; then\n"
    "              the flipped tasks (passed more often in one run than\n"
    "              in the other), each with the class of a trial in each\n"
    "              run, the largest change first; then, where logs give\n"
    "              them, tokens and seconds by task: each side's mean,\n"
    "              A-B with an interval clustered by task, the tasks\n"
    "              that changed most\n"
    "  --across-contracts  with --compare: runs of observed episodes on\n"
    "              different tool contracts compared anyway, the\n"
    "              headline saying so first\n"
    "  --tasks all with --compare: every flipped task and every task's\n"
    "              usage in text and Markdown (default: the first 10\n"
    "              flipped, 5 of each usage figure; JSON lists every one,\n"
    "              HTML every flipped task)\n"
    "  --gate      with --compare BASE NEW: whether NEW fell behind BASE,\n"
    "              for a CI job: exit 1 only when the whole 95% interval\n"
    "              of BASE-NEW (paired by task) lies above --max-drop\n"
    "              POINTS (default 0); a task NEW lacks counts as failed\n"
    "              (--missing ignore: left out); prints the verdict, the\n"
    "              flipped tasks and the missing ones\n"
    "  --junit FILE  the run's tasks (with --compare: NEW's against\n"
    "              BASE's) as JUnit XML for a CI's test view: a case per\n"
    "              task; failures name the failed trials' episodes and\n"
    "              classes; against BASE, only regressions fail\n"
    "  --trend     the runs whose names match PATTERN (SQLite's GLOB:\n"
    "              'nightly-*'; default every run), or declare --model M,\n"
    "              in the order replayed: each one's rate and interval,\n"
    "              a new series where the contract, the file's bytes or\n"
    "              the generator changed; then the tasks failing in the\n"
    "              last series, each since the night its failing began\n"
    "              (the first 20; --tasks all: every one)\n"
    "  --flaky     the same runs' flaky tasks: within a run, those of\n"
    "              several trials that passed some and failed others;\n"
    "              across the nights of a series, those whose outcome\n"
    "              changed twice or more (once is a change, not a flake)\n"
    "  --episode EPISODE [RUN]  one episode: its class and what it\n"
    "              points at, its task, verdicts, every call in order\n"
    "              (what was sent, the simulator's answer and the logged\n"
    "              one where it differs, effect, error, dial) and its dial\n"
    "              events; RUN when several runs have an episode so named\n"
    "  --          the end of the options: what follows are runs, even\n"
    "              one named '-x'\n"
    "\n"
    "Exit status: 0 printed (compared; --gate: no regression shown); 1\n"
    "--gate: NEW regressed; 4 not compared: same contract, the file\n"
    "reformatted; 5 not compared: other contracts; 6 not compared: other\n"
    "generators; 7 --gate: not judged (NEW has none of BASE's tasks); 2\n"
    "usage error, or no such run or episode (or an episode name several\n"
    "runs have); 3 the database cannot be read, or the page (or --junit\n"
    "FILE) cannot be written.  See docs/card.md; the words a card uses\n"
    "are explained in docs/glossary.md.\n";

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
    fprintf(stderr, "card: %s\nTry 'card --help'.\n", shown_safe(line));
    return EXIT_USAGE;
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
        fprintf(stderr, "card: %s: the path is too long\n", shown_tx(path));
        return -1;
    }
    FILE *fp = fopen(tmp, "wb");
    int ok = fp && fwrite(page->data, 1, page->len, fp) == page->len;
    ok = fp && fclose(fp) == 0 && ok;
    if (!ok || rename(tmp, path) != 0) {
        fprintf(stderr, "card: cannot write %s: %s; nothing was written\n",
                shown_tx(path), strerror(errno));
        remove(tmp);
        return -1;
    }
    return 0;
}
/* The JUnit report of run c, or of x's runs (a: BASE, b: NEW), into
 * path (whole, or not at all); of two runs that cannot be compared,
 * none (said).  0, or -1 with one line said. */
static int write_junit(sqlite3 *db, const char *path, const card *c,
                       const card_compared *x, int missing_fail)
{
    buf xml = BUF_INIT;
    err e;
    err_clear(&e);
    if (x && x->k != COMPARE_SAME) {
        fprintf(stderr, "card: %s: not written: the runs cannot be "
                        "compared, so no task of one can be judged against "
                        "the other's\n",
                shown_tx(path));
        return 0;
    }
    int rc = x ? junit_compare(&xml, db, x, missing_fail, &e)
               : junit_run(&xml, db, c, &e);
    if (rc < 0)
        fprintf(stderr, "card: %s\n", shown_safe(e.msg));
    else
        rc = write_page(&xml, path);
    buf_free(&xml);
    return rc;
}

/* Writes what the other formats made to standard output, whole: 0, or
 * -1 with one line said. */
static int put_out(const buf *out)
{
    if (out->failed) {
        fputs("card: out of memory\n", stderr);
        return -1;
    }
    if (out->len)
        fwrite(out->data, 1, out->len, stdout);
    return 0;
}

/* The page of one run of the night, or of its compare with the
 * baseline (x not NULL), into dir/name.  0, or -1 with one line said. */
static int night_page(const char *dir, const char *name, const card *c,
                      const card_compared *x, const char *page_a,
                      const char *page_b, const html_links *links)
{
    buf page = BUF_INIT, title = BUF_INIT;
    err e;
    err_clear(&e);
    if (x)
        buf_printf(&title, "%s and %s", x->a->run, x->b->run);
    html_begin(&page, x ? (title.failed ? "" : title.data) : c->run);
    html_back(&page);
    if (x)
        html_compare_linked(&page, x, page_a, page_b, links);
    else
        html_card_linked(&page, c, 1, links);
    html_end(&page);
    page.failed |= title.failed;
    int rc = folder_write(dir, name, &page, &e);
    if (rc < 0)
        fprintf(stderr, "card: %s; the pages written before it are whole, "
                        "and the index is the last run's\n",
                shown_safe(e.msg));
    buf_free(&title);
    buf_free(&page);
    return rc;
}

static const char *plural(size_t n)
{
    return n == 1 ? "" : "s";
}

/* card --html --all -o DIR [--baseline RUN]: a page per run of the
 * database, a compare page per run with the baseline's tasks, the index
 * last (so that it never links to a page not yet written), then card's
 * pages of runs no longer there removed.  The exit status. */
static int write_night(sqlite3 *db, const char *db_path, const char *dir,
                       const char *baseline)
{
    err e;
    err_clear(&e);
    card_listing l;
    if (card_list(&l, db, &e) < 0) {
        fprintf(stderr, "card: %s\n", shown_safe(e.msg));
        card_listing_free(&l);
        return EXIT_DB;
    }
    if (l.n == 0) {
        fprintf(stderr, "card: %s holds no run yet; replay a night into it "
                        "first\n",
                shown_tx(db_path));
        card_listing_free(&l);
        return EXIT_USAGE;
    }
    size_t n = l.n, loaded = 0, nkeep = 0, compares = 0, removed = 0;
    card *cards = calloc(n, sizeof *cards);
    card_compared *vs = calloc(n, sizeof *vs);
    html_entry *entries = calloc(n, sizeof *entries);
    buf *names = calloc(2 * n, sizeof *names); /* run pages, then compares */
    char **keep = NULL;
    /* the episode pages each run's and compare's page links to */
    epages ep = EPAGES_INIT;
    html_links *links = calloc(2 * n, sizeof *links);
    const char ***linked = calloc(2 * n, sizeof *linked);
    size_t episodes = 0;
    int status = 0;
    long base = -1;
    if (!cards || !vs || !entries || !names || !links || !linked) {
        fputs("card: out of memory\n", stderr);
        status = EXIT_DB;
        goto done;
    }
    progress pr;
    progress_start(&pr, "reading the runs", n);
    for (; loaded < n; loaded++) {
        if (card_load(&cards[loaded], db, l.runs[loaded].run, &e) < 0) {
            loaded++; /* freed below, as a failed card_load needs */
            progress_end(&pr);
            fprintf(stderr, "card: %s\n", shown_safe(e.msg));
            status = e.code == ERR_VALUE ? EXIT_USAGE : EXIT_DB;
            goto done;
        }
        progress_add(&pr, 1);
    }
    progress_end(&pr);
    for (size_t i = 0; baseline && i < n; i++)
        if (strcmp(cards[i].run, baseline) == 0)
            base = (long)i;
    if (baseline && base < 0) { /* card_load says it as everywhere */
        card none;
        if (card_load(&none, db, baseline, &e) < 0)
            fprintf(stderr, "card: %s\n", shown_safe(e.msg));
        card_free(&none);
        status = e.code == ERR_VALUE || e.code == ERR_NONE ? EXIT_USAGE
                                                           : EXIT_DB;
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        folder_page_name(&names[i], "run", cards[i].run, NULL);
        entries[i].c = &cards[i];
        if (base < 0 || (long)i == base ||
            card_compare_case(&cards[i], &cards[base]) != COMPARE_SAME)
            continue;
        if (card_compare(&vs[i], db, &cards[i], &cards[base], 0, &e) < 0) {
            fprintf(stderr, "card: %s\n", shown_safe(e.msg));
            status = EXIT_DB;
            goto done;
        }
        folder_page_name(&names[n + i], "compare", cards[i].run,
                         cards[base].run);
        entries[i].vs = &vs[i];
        compares++;
    }
    /* each class's first episode, and each compare's first flipped
     * tasks, get pages of their own */
    for (size_t i = 0; i < 2 * n; i++) {
        const card *c = i < n ? &cards[i] : NULL;
        const card_flips *f = i >= n && entries[i - n].vs ? &vs[i - n].flips
                                                          : NULL;
        size_t m = c ? c->nclasses : f ? (f->n < EPAGES_FLIPS ? f->n
                                                              : EPAGES_FLIPS)
                                       : 0;
        if (m == 0)
            continue;
        linked[i] = calloc(c ? m : 2 * m, sizeof *linked[i]);
        if (!linked[i]) {
            fputs("card: out of memory\n", stderr);
            status = EXIT_DB;
            goto done;
        }
        int nomem = 0;
        for (size_t k = 0; k < m; k++) {
            if (c && strcmp(c->classes[k].name, "passed") != 0)
                nomem |= !(linked[i][k] =
                               epages_add(&ep, c->run, c->classes[k].example));
            else if (!c)
                for (int side = 0; side < 2; side++)
                    nomem |= !(linked[i][2 * k + (size_t)side] = epages_add(
                                   &ep, side ? vs[i - n].b->run
                                             : vs[i - n].a->run,
                                   f->v[k].episode[side]));
        }
        if (nomem) {
            fputs("card: out of memory\n", stderr);
            status = EXIT_DB;
            goto done;
        }
        if (c)
            links[i].class_pages = linked[i];
        else
            links[i] = (html_links){.flip_pages = linked[i], .nflips = m};
    }
    keep = calloc(2 * n + 1 + ep.n, sizeof *keep);
    if (!keep) {
        fputs("card: out of memory\n", stderr);
        status = EXIT_DB;
        goto done;
    }
    keep[nkeep++] = "index.html";
    /* two runs never share a page, whatever their names */
    if (folder_names_distinct(names, 2 * n) < 0)
        names[0].failed = 1;
    for (size_t i = 0; i < 2 * n; i++)
        if (names[i].failed) {
            fputs("card: out of memory\n", stderr);
            status = EXIT_DB;
            goto done;
        }
    for (size_t i = 0; i < n; i++) {
        entries[i].page = names[i].data;
        keep[nkeep++] = names[i].data;
        if (entries[i].vs) {
            entries[i].compare_page = names[n + i].data;
            keep[nkeep++] = names[n + i].data;
        }
    }
    for (size_t i = 0; i < ep.n; i++)
        keep[nkeep++] = ep.v[i]->name.data;
    /* nothing is written where a file of another's has a page's name */
    if (folder_make(dir, &e) < 0) {
        fprintf(stderr, "card: %s\n", shown_safe(e.msg));
        status = EXIT_DB;
        goto done;
    }
    for (size_t i = 0; i < nkeep; i++) {
        int there;
        if (!folder_is_page(dir, keep[i], &there) && there) {
            fprintf(stderr, "card: %s/%s is not a page card wrote; nothing "
                            "was written\n",
                    shown_tx(dir), shown_tx(keep[i]));
            status = EXIT_DB;
            goto done;
        }
    }
    progress_start(&pr, "writing pages", n + compares + epages_count(&ep));
    for (size_t i = 0; i < n; i++) {
        if (night_page(dir, names[i].data, &cards[i], NULL, NULL, NULL,
                       &links[i]) < 0 ||
            (entries[i].vs &&
             night_page(dir, names[n + i].data, NULL, &vs[i], names[i].data,
                        names[base].data, &links[n + i]) < 0)) {
            progress_end(&pr);
            status = EXIT_DB;
            goto done;
        }
        progress_add(&pr, entries[i].vs ? 2 : 1);
    }
    int written = epages_write(&ep, db, dir, &episodes, &pr, &e);
    progress_end(&pr);
    if (written < 0) {
        fprintf(stderr, "card: %s; the pages written before it are whole, "
                        "and the index is the last run's\n",
                shown_safe(e.msg));
        status = EXIT_DB;
        goto done;
    }
    buf index = BUF_INIT;
    trend t;
    if (trend_load(&t, db, NULL, NULL, &e) < 0) {
        fprintf(stderr, "card: %s\n", shown_safe(e.msg));
        status = EXIT_DB;
        goto done;
    }
    html_begin(&index, "taskreplay: the night's runs");
    html_index(&index, entries, n, base >= 0 ? &cards[base] : NULL, l.no_run);
    html_trend(&index, &t);
    html_end(&index);
    trend_free(&t);
    int rc = folder_write(dir, "index.html", &index, &e);
    buf_free(&index);
    if (rc < 0 || folder_sweep(dir, keep, nkeep, &removed, &e) < 0) {
        fprintf(stderr, "card: %s\n", shown_safe(e.msg));
        status = EXIT_DB;
        goto done;
    }
    fprintf(stderr, "card: %s: index.html, %zu run page%s, %zu compare "
                    "page%s, %zu episode page%s; %zu page%s gone removed\n",
            shown_tx(dir), n, plural(n), compares, plural(compares),
            episodes, plural(episodes), removed, plural(removed));
done:
    for (size_t i = 0; i < loaded; i++)
        card_free(&cards[i]);
    for (size_t i = 0; vs && i < n; i++)
        card_compared_free(&vs[i]);
    for (size_t i = 0; names && i < 2 * n; i++)
        buf_free(&names[i]);
    for (size_t i = 0; linked && i < 2 * n; i++)
        free(linked[i]);
    free(linked);
    free(links);
    epages_free(&ep);
    free(cards);
    free(vs);
    free(entries);
    free(names);
    free(keep);
    card_listing_free(&l);
    return status;
}

int main(int argc, char **argv)
{
    const char *db_path = "results.db", *out_path = NULL;
    enum format f = TEXT;
    buf page = BUF_INIT; /* the compare, and the whole HTML page */
    int list = 0, cmp = 0, width = 80, formats = 0, all = 0, all_tasks = 0;
    int gate_on = 0, missing_fail = 1, missing_set = 0, drop_set = 0;
    int trend_on = 0, flaky_on = 0, across = 0;
    const char *model = NULL;
    double max_drop = 0;
    const char *baseline = NULL, *episode = NULL, *junit_path = NULL;
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
            if (*end || w < TEXT_MIN_WIDTH || w > 1000)
                return usage_error("--width takes a number of columns (%d "
                                   "to 1000), not '%s'",
                                   TEXT_MIN_WIDTH, argv[i]);
            width = (int)w;
        } else if (strcmp(a, "--list") == 0) {
            list = 1;
        } else if (strcmp(a, "--all") == 0) {
            all = 1;
        } else if (strcmp(a, "--baseline") == 0 && i + 1 < argc) {
            baseline = argv[++i];
        } else if (strcmp(a, "--compare") == 0) {
            cmp = 1;
        } else if (strcmp(a, "--episode") == 0 && i + 1 < argc) {
            episode = argv[++i];
        } else if (strcmp(a, "--gate") == 0) {
            gate_on = 1;
        } else if (strcmp(a, "--across-contracts") == 0) {
            across = 1;
        } else if (strcmp(a, "--trend") == 0) {
            trend_on = 1;
        } else if (strcmp(a, "--flaky") == 0) {
            flaky_on = 1;
        } else if (strcmp(a, "--model") == 0 && i + 1 < argc) {
            model = argv[++i];
        } else if (strcmp(a, "--max-drop") == 0 && i + 1 < argc) {
            char *end;
            const char *v = argv[++i];
            double d = strtod(v, &end);
            if (end == v || *end || !(d >= 0 && d <= 100))
                return usage_error("--max-drop takes percentage points, 0 "
                                   "to 100, not '%s'",
                                   shown_tx(v));
            max_drop = d / 100;
            drop_set = 1;
        } else if (strcmp(a, "--missing") == 0 && i + 1 < argc) {
            const char *v = argv[++i];
            if (strcmp(v, "fail") != 0 && strcmp(v, "ignore") != 0)
                return usage_error("--missing takes 'fail' (a task the new "
                                   "run lacks counts as failed) or "
                                   "'ignore', not '%s'",
                                   shown_tx(v));
            missing_fail = strcmp(v, "fail") == 0;
            missing_set = 1;
        } else if (strcmp(a, "--junit") == 0 && i + 1 < argc) {
            junit_path = argv[++i];
        } else if (strcmp(a, "--tasks") == 0 && i + 1 < argc) {
            if (strcmp(argv[++i], "all") != 0)
                return usage_error("--tasks takes 'all' (every flipped "
                                   "task), not '%s'",
                                   shown_tx(argv[i]));
            all_tasks = 1;
        } else if (strcmp(a, "--db") == 0 || strcmp(a, "--width") == 0 ||
                   strcmp(a, "-o") == 0 || strcmp(a, "--baseline") == 0 ||
                   strcmp(a, "--tasks") == 0 || strcmp(a, "--episode") == 0 ||
                   strcmp(a, "--max-drop") == 0 || strcmp(a, "--missing") == 0 ||
                   strcmp(a, "--junit") == 0 || strcmp(a, "--model") == 0) {
            return usage_error("%s needs a value", a);
        } else {
            return usage_error("unknown option '%s' (a run whose name "
                               "starts with '-' goes after --)",
                               shown_tx(a));
        }
    }
    if (formats & (formats - 1))
        return usage_error("--json, --markdown and --html go apart: choose "
                           "one");
    if (all && (f != HTML || !out_path))
        return usage_error("--all writes a folder of pages: card --html "
                           "--all -o DIR");
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
                           shown_tx(runs[0]), shown_tx(runs[0]));
    if (list && (cmp || nruns))
        return usage_error("--list takes no run");
    if (all && (cmp || list || nruns))
        return usage_error("--all takes no run, nor --compare or --list: "
                           "it writes a page for every run");
    if (episode && (cmp || list || all || nruns > 1))
        return usage_error("--episode EPISODE takes at most one run (the "
                           "episode's), and goes alone");
    if (episode && f == MARKDOWN)
        return usage_error("--episode shows an episode as text, JSON or "
                           "HTML");
    if (all_tasks && !cmp && !trend_on && !flaky_on)
        return usage_error("--tasks all goes with --compare RUN_A RUN_B, "
                           "--trend or --flaky");
    if (flaky_on && (trend_on || cmp || list || all || episode ||
                     junit_path || nruns > 1))
        return usage_error("--flaky takes at most one pattern of run names "
                           "(and --model M), and goes alone");
    if (flaky_on && (f == MARKDOWN || f == HTML))
        return usage_error("--flaky prints text or JSON");
    if (trend_on && (cmp || list || all || episode || junit_path || nruns > 1))
        return usage_error("--trend takes at most one pattern of run names "
                           "(and --model M), and goes alone");
    if (trend_on && (f == MARKDOWN || f == HTML))
        return usage_error("--trend prints text or JSON");
    if (across && !cmp)
        return usage_error("--across-contracts goes with --compare RUN_A "
                           "RUN_B");
    if (model && !trend_on && !flaky_on)
        return usage_error("--model M goes with --trend or --flaky");
    if (baseline && !all)
        return usage_error("--baseline RUN goes with --html --all -o DIR");
    if (gate_on && !cmp)
        return usage_error("--gate judges two runs: card --gate --compare "
                           "BASE NEW");
    if (gate_on && (f == MARKDOWN || f == HTML))
        return usage_error("--gate prints text or JSON (--junit FILE writes "
                           "the tasks for a CI's test view)");
    if (drop_set && !gate_on)
        return usage_error("--max-drop goes with --gate --compare BASE NEW");
    if (missing_set && !(gate_on || (junit_path && cmp)))
        return usage_error("--missing goes with --gate, or --junit FILE "
                           "--compare BASE NEW");
    if (junit_path && (list || all || episode))
        return usage_error("--junit FILE goes with a run, or --compare BASE "
                           "NEW, not with --list, --all or --episode");
    if (junit_path && !cmp && nruns > 1)
        return usage_error("--junit FILE takes one run, or --compare BASE "
                           "NEW");

    sqlite3 *db = NULL;
    err e;
    err_clear(&e);
    int migrated = 0;
    if (card_db_open(&db, db_path, &migrated, &e) < 0) {
        fprintf(stderr, "card: %s\n", shown_safe(e.msg));
        return EXIT_DB;
    }
    if (migrated)
        fprintf(stderr, "card: %s: migrated from schema version %d to %d\n",
                shown_safe(db_path), migrated, DB_SCHEMA_VERSION);
    int status = 0;
    char *latest = NULL;
    char *named[256] = {NULL};
    /* runs narrowed to some trials (RUN@1-2) are made first, as runs of
     * their own on this connection alone; then every run named is found
     * (by a prefix of its name too) */
    int narrowed = 0;
    if (!trend_on && !flaky_on && !episode && !all &&
        (narrowed = split_prepare(db, runs, nruns, named, &e)) < 0) {
        fprintf(stderr, "card: %s\n", shown_safe(e.msg));
        status = e.code == ERR_VALUE ? EXIT_USAGE : EXIT_DB;
        goto out;
    }
    for (int i = 0; narrowed && i < nruns; i++)
        runs[i] = named[i];
    /* runs named by a prefix of their name, as people call them (not an
     * episode's run, whose errors name the episode's runs) */
    for (int i = 0; !narrowed && !trend_on && !flaky_on && !episode &&
                    i < nruns; i++) {
        if (card_run_named(db, runs[i], &named[i], &e) < 0) {
            fprintf(stderr, "card: %s\n", shown_safe(e.msg));
            status = e.code == ERR_VALUE ? EXIT_USAGE : EXIT_DB;
            goto out;
        }
        runs[i] = named[i];
    }
    if (cmp && strcmp(runs[0], runs[1]) == 0) {
        fprintf(stderr, "card: --compare takes two runs, and both names "
                        "given are run \"%s\"\n",
                shown_tx(runs[0]));
        status = EXIT_USAGE;
        goto out;
    }
    if (all) {
        status = write_night(db, db_path, out_path, baseline);
        goto out;
    }
    if (episode) {
        episode_view v;
        if (episode_load(&v, db, episode, nruns ? runs[0] : NULL, &e) < 0) {
            fprintf(stderr, "card: %s\n", shown_safe(e.msg));
            status = e.code == ERR_VALUE ? EXIT_USAGE : EXIT_DB;
        } else if (f == JSON) {
            json_episode(&page, &v);
            buf_putc(&page, '\n');
        } else if (f == HTML) {
            html_begin(&page, v.episode);
            html_episode(&page, &v);
            html_end(&page);
        } else {
            text_episode(&page, &v, width);
        }
        episode_free(&v);
        if (status == 0 &&
            (f == HTML ? write_page(&page, out_path) : put_out(&page)) < 0)
            status = EXIT_DB;
        goto out;
    }
    if (flaky_on) {
        flaky fl;
        if (flaky_load(&fl, db, nruns ? runs[0] : NULL, model, &e) < 0) {
            fprintf(stderr, "card: %s\n", shown_safe(e.msg));
            status = EXIT_DB;
            goto out;
        }
        if (f == JSON) {
            json_flaky(&page, &fl);
            buf_putc(&page, '\n');
        } else {
            text_flaky(&page, &fl, width,
                       all_tasks ? SIZE_MAX : TREND_FAILING_SHOWN);
        }
        flaky_free(&fl);
        if (put_out(&page) < 0)
            status = EXIT_DB;
        goto out;
    }
    if (trend_on) {
        trend t;
        if (trend_load(&t, db, nruns ? runs[0] : NULL, model, &e) < 0) {
            fprintf(stderr, "card: %s\n", shown_safe(e.msg));
            status = EXIT_DB;
            goto out;
        }
        if (f == JSON) {
            json_trend(&page, &t);
            buf_putc(&page, '\n');
        } else {
            text_trend(&page, &t, width,
                       all_tasks ? SIZE_MAX : TREND_FAILING_SHOWN);
        }
        trend_free(&t);
        if (put_out(&page) < 0)
            status = EXIT_DB;
        goto out;
    }
    if (list) {
        card_listing l;
        if (card_list(&l, db, &e) < 0) {
            fprintf(stderr, "card: %s\n", shown_safe(e.msg));
            status = EXIT_DB;
        } else if (f == JSON) {
            json_list(&page, &l);
            buf_putc(&page, '\n');
        } else if (f == MARKDOWN) {
            md_list(&page, &l);
        } else {
            text_list(&page, &l, width);
        }
        card_listing_free(&l);
        if (status == 0 && put_out(&page) < 0)
            status = EXIT_DB;
        goto out;
    }
    if (nruns == 0) {
        latest = card_latest(db, &e);
        if (!latest && e.code != ERR_NONE) {
            fprintf(stderr, "card: %s\n", shown_safe(e.msg));
            status = EXIT_DB;
            goto out;
        }
        if (!latest) {
            fprintf(stderr, "card: %s holds no run yet; replay a night into "
                            "it first\n",
                    shown_tx(db_path));
            status = EXIT_USAGE;
            goto out;
        }
        runs[nruns++] = latest;
    }
    card cards[2];
    if (cmp) {
        for (int i = 0; i < 2; i++)
            if (card_load(&cards[i], db, runs[i], &e) < 0) {
                fprintf(stderr, "card: %s\n", shown_safe(e.msg));
                if (i)
                    card_free(&cards[0]);
                card_free(&cards[i]);
                status = e.code == ERR_VALUE ? EXIT_USAGE : EXIT_DB;
                goto out;
            }
        card_compared x;
        gate g;
        memset(&g, 0, sizeof g);
        if (card_compare(&x, db, &cards[0], &cards[1], across, &e) < 0) {
            fprintf(stderr, "card: %s\n", shown_safe(e.msg));
            status = EXIT_DB;
        } else if (gate_on && x.k == COMPARE_SAME &&
                   gate_judge(&g, db, runs[0], runs[1],
                              x.verdict.measure ? x.verdict.measure : "pass",
                              max_drop, missing_fail, &e) < 0) {
            fprintf(stderr, "card: %s\n", shown_safe(e.msg));
            status = EXIT_DB;
        } else {
            status = (int)x.k;
            if (gate_on && x.k == COMPARE_SAME)
                status = g.outcome == GATE_PASSED      ? 0
                         : g.outcome == GATE_REGRESSED ? EXIT_REGRESSED
                                                       : EXIT_UNJUDGED;
            if (all_tasks) {
                x.flips_shown = x.flips.n;
                x.usage_shown = SIZE_MAX;
            }
            if (gate_on) {
                if (f == JSON) {
                    json_gate(&page, x.k == COMPARE_SAME ? &g : NULL, &x,
                              status);
                    buf_putc(&page, '\n');
                } else if (x.k == COMPARE_SAME) {
                    text_gate(&page, &g, &x, width);
                } else {
                    buf_puts(&page, "gate: not judged: ");
                    text_compare(&page, &x, width);
                }
            } else if (f == HTML) {
                html_begin(&page, "taskreplay: compare");
                html_compare(&page, &x, NULL, NULL);
                html_end(&page);
            } else if (f == JSON) {
                json_compare(&page, &x);
                buf_putc(&page, '\n');
            } else if (f == MARKDOWN) {
                md_compare(&page, &x);
            } else {
                text_compare(&page, &x, width);
            }
            if (junit_path && write_junit(db, junit_path, NULL, &x,
                                          missing_fail) < 0)
                status = EXIT_DB;
        }
        gate_free(&g);
        card_compared_free(&x);
        card_free(&cards[0]);
        card_free(&cards[1]);
        if (status != EXIT_DB &&
            (f == HTML ? write_page(&page, out_path) : put_out(&page)) < 0)
            status = EXIT_DB;
        goto out;
    }
    if (f == HTML)
        html_begin(&page, nruns == 1 ? runs[0] : "taskreplay: cards");
    for (int i = 0; i < nruns; i++) {
        card c;
        if (card_load(&c, db, runs[i], &e) < 0) {
            fprintf(stderr, "card: %s\n", shown_safe(e.msg));
            card_free(&c);
            status = e.code == ERR_VALUE ? EXIT_USAGE : EXIT_DB;
            goto out;
        }
        if (junit_path && write_junit(db, junit_path, &c, NULL, 1) < 0) {
            card_free(&c);
            status = EXIT_DB;
            goto out;
        }
        if (f == HTML) {
            html_card(&page, &c, i + 1);
        } else if (f == JSON) {
            json_card(&page, &c);
            buf_putc(&page, '\n');
        } else {
            if (i)
                buf_putc(&page, '\n');
            if (f == MARKDOWN)
                md_card(&page, &c);
            else
                text_card(&page, &c, width);
        }
        card_free(&c);
    }
    if (f == HTML)
        html_end(&page);
    if ((f == HTML ? write_page(&page, out_path) : put_out(&page)) < 0)
        status = EXIT_DB;
out:
    buf_free(&page);
    free(latest);
    for (int i = 0; i < nruns; i++)
        free(named[i]);
    shown_free();
    sqlite3_close(db);
    if (fflush(stdout) != 0) {
        fprintf(stderr, "card: cannot write the output\n");
        return EXIT_DB;
    }
    return status;
}
