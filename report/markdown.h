/*
 * markdown: cards, compares and the list of runs as GitHub-flavoured
 * Markdown (tables), the same figures as the text, each card and compare
 * led by its headline in bold (card_headline, card_verdict_text).  Text
 * from the database goes through shown_md or shown_md_code (shown.h):
 * rendered, a name reads as the text card shows it, and makes no markup,
 * link or cell.  A figure that was not measured is "-", never 0.
 */
#ifndef TR_MARKDOWN_H
#define TR_MARKDOWN_H

#include "buf.h"
#include "carddata.h"

void md_card(buf *out, const card *c);
void md_compare(buf *out, const card_compared *x);
void md_list(buf *out, const card_listing *l);

#endif
