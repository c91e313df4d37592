/*
 * html: cards, compares and a night's index as self-contained HTML pages.
 *
 * A page holds everything it shows: its style inline, its pictures as
 * inline SVG (plot.h), no script, no font, no image, nothing loaded, so
 * it can be mailed, attached or printed as it is, and read with scripts
 * off.  It follows the reader's light or dark scheme and prints on
 * white.  Every figure comes from the card data (carddata), as the text,
 * Markdown and JSON cards take it; each card and compare opens with the
 * headline those give (card_headline, card_verdict_text).  Every picture
 * has a title and a text alternative that states its figures, and a
 * table of the same numbers after it.  Wide tables scroll within a box
 * of their own and the index's rows reflow, so that the page itself
 * never scrolls sideways, down to a phone's 390 pixels.  Text from the
 * database is escaped for HTML after utf8_shown, as the text card shows
 * it (shown_html); the only links are the ones a night's pages give
 * each other, relative, to the file names the caller gives.
 */
#ifndef TR_HTML_H
#define TR_HTML_H

#include <stddef.h>

#include "buf.h"
#include "carddata.h"
#include "episode.h"
#include "trend.h"

/* How every page card writes begins: what tells its pages from others
 * (a folder of a night's pages is cleaned of its own pages only). */
#define HTML_PAGE_START                                                    \
    "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"    \
    "<meta name=\"generator\" content=\"taskreplay card\">"

/* The page's head, titled title, and the opening of its body. */
void html_begin(buf *b, const char *title);

/* A link back to a night's index (index.html, beside the page). */
void html_back(buf *b);

/* Episode pages a night's pages link to (card --html --all): for a
 * card, each class's first episode; for a compare, the first nflips
 * flipped tasks' trials shown, A's and B's.  A NULL name: no page. */
typedef struct html_links {
    const char *const *class_pages; /* one per c->classes[i] */
    const char *const *flip_pages;  /* two per flip: A's, B's */
    size_t nflips;
} html_links;

/* One run's card as a <section>; n numbers the cards of a page (ids). */
void html_card(buf *b, const card *c, int n);
/* ... each class linked to its first episode's page. */
void html_card_linked(buf *b, const card *c, int n, const html_links *l);

/* Two runs compared: the verdict first; when they are comparable, each
 * run's rate, then the paired differences A - B (per arm for the pass
 * rate, and the harness's success), then the unpaired ones, each as a
 * picture and a table; else the refusal with both runs' hashes and no
 * figure of either (and the tools added, removed and changed, for other
 * contracts).  page_a and page_b, when not NULL, are the file names of
 * the runs' own pages, linked. */
void html_compare(buf *b, const card_compared *x, const char *page_a,
                  const char *page_b);
/* ... each flipped task's trials linked to their pages. */
void html_compare_linked(buf *b, const card_compared *x, const char *page_a,
                         const char *page_b, const html_links *l);

/* A run of a night's index. */
typedef struct html_entry {
    const card *c;
    const char *page;           /* its page's file name */
    const card_compared *vs;    /* compared with the baseline, or NULL */
    const char *compare_page;   /* that compare's page, or NULL */
} html_entry;

/* The index of a night's pages: every run (in the order given), with its
 * model, tool file, episodes and headline figure (drawn on one axis for
 * all), linked to its page; the runs each can be compared with (the same
 * tasks, card_compare_case); with a baseline (one of the entries, or
 * NULL), each run's verdict against it, linked to the compare's page. */
void html_index(buf *b, const html_entry *runs, size_t n,
                const card *baseline, long no_run);

/* The night's runs over time (the index's, when it has two or more):
 * the latest TREND_SHOWN runs' figures in the order replayed, each with
 * its interval, a line where a series starts again (and why, in a list),
 * and the tasks failing in the last series, each since the night its
 * failing began (the first TREND_FAILING_SHOWN). */
#define TREND_SHOWN 60
void html_trend(buf *b, const trend *t);

/* One episode (card --episode): its class in a sentence, its task and
 * verdicts, every call in order (what was sent, the simulator's answer
 * and the logged one where it differs; the call the class points at
 * marked) and its dial events. */
void html_episode(buf *b, const episode_view *v);

/* The end of the page. */
void html_end(buf *b);

#endif
