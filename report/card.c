/* card: per-run cards from the results database, and an honest
 * comparison of two runs (docs/card.md). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "carddata.h"
#include "config.h"
#include "db.h"
#include "html.h"
#include "json.h"
#include "markdown.h"
#include "shown.h"
#include "text.h"

#define EXIT_USAGE 2
#define EXIT_DB 3

enum format { TEXT, MARKDOWN, JSON, HTML };

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
    "  --width N   the text's width, 60 and up (default: 80): every line\n"
    "              fits it; prose wraps, tables narrow their gaps, then\n"
    "              cut long names with an ellipsis; below 80, hashes are\n"
    "              cut to 16 digits\n"
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
        fprintf(stderr, "card: -o %s: the path is too long\n", shown_tx(path));
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
            if (*end || w < TEXT_MIN_WIDTH || w > 1000)
                return usage_error("--width takes a number of columns (%d "
                                   "to 1000), not '%s'",
                                   TEXT_MIN_WIDTH, argv[i]);
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
                               shown_tx(a));
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
                           shown_tx(runs[0]), shown_tx(runs[0]));
    if (list && (cmp || nruns))
        return usage_error("--list takes no run");

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
        if (card_compare(&x, db, &cards[0], &cards[1], &e) < 0) {
            fprintf(stderr, "card: %s\n", shown_safe(e.msg));
            status = EXIT_DB;
        } else {
            status = (int)x.k;
            if (f == HTML) {
                html_begin(&page, "taskreplay: compare");
                html_compare(&page, &x);
                html_end(&page);
            } else if (f == JSON) {
                json_compare(&page, &x);
                buf_putc(&page, '\n');
            } else if (f == MARKDOWN) {
                md_compare(&page, &x);
            } else {
                text_compare(&page, &x, width);
            }
        }
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
    shown_free();
    sqlite3_close(db);
    if (fflush(stdout) != 0) {
        fprintf(stderr, "card: cannot write the output\n");
        return EXIT_DB;
    }
    return status;
}
