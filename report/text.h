/*
 * text: cards, compares and the list of runs as a terminal shows them,
 * each card and compare led by its headline (card_headline,
 * card_verdict_text), wrapped like any prose.
 *
 * Every line fits the width asked for (60 columns and up; 80 by
 * default): prose wraps at spaces, continued lines indented; a table's
 * columns are as wide as their widest cell, and when a table is wider
 * than the line its gaps narrow to one space, then its name columns (run,
 * model, arm, tool) are cut, each name's end replaced by an ellipsis, and
 * a free-text last column wraps under itself.  Text from the database is
 * shown through shown_tx (shown.h).  A figure that was not measured is
 * "-", never 0.
 */
#ifndef TR_TEXT_H
#define TR_TEXT_H

#include "buf.h"
#include "carddata.h"
#include "episode.h"
#include "gate.h"
#include "flaky.h"
#include "trend.h"

/* The narrowest width asked for that every line keeps to. */
#define TEXT_MIN_WIDTH 60

void text_card(buf *out, const card *c, int width);
void text_compare(buf *out, const card_compared *x, int width);
void text_list(buf *out, const card_listing *l, int width);
void text_episode(buf *out, const episode_view *v, int width);
/* The gate's verdict of x's runs (a: BASE, b: NEW), then their flipped
 * tasks and the tasks NEW lacks. */
void text_gate(buf *out, const gate *g, const card_compared *x, int width);
/* The runs over time, and the tasks failing in the last series (the
 * first shown of them; the rest counted). */
void text_trend(buf *out, const trend *t, int width, size_t shown);
/* The flaky tasks, within runs and across nights (the first shown of
 * each; the rest counted). */
void text_flaky(buf *out, const flaky *f, int width, size_t shown);

#endif
