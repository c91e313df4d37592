/*
 * html: cards as one self-contained HTML page.
 *
 * The page holds everything it shows: its style inline, its plots as
 * inline SVG drawn here, no script, no font, no image, no link out, so it
 * can be mailed, attached or printed as it is, and read with scripts off.
 * It follows the reader's light or dark scheme and prints on white.
 * Every figure comes from the card (carddata) and the intervals of stats,
 * as the text, Markdown and JSON cards take them; every plot has a title
 * and a text alternative that states its figures, and a table beside it
 * with the same numbers, and tells its marks apart by shape and label as
 * well as by colour.  Text from the database is escaped for HTML after
 * utf8_shown, as the text card shows it.
 */
#ifndef TR_HTML_H
#define TR_HTML_H

#include "buf.h"
#include "carddata.h"

/* The page's head, titled title, and the opening of its body. */
void html_begin(buf *b, const char *title);

/* One run's card as a <section>; n numbers the cards of a page (ids). */
void html_card(buf *b, const card *c, int n);

/* Two runs compared: when they are comparable, the forest plot and table
 * of the unpaired per-arm differences A - B (for runs with simulated
 * episodes), then the paired analysis; else the refusal with its reason
 * and both runs' hashes and no figure of either (and the tools added,
 * removed and changed, for other contracts). */
void html_compare(buf *b, const card_compared *x);

/* The end of the page. */
void html_end(buf *b);

#endif
