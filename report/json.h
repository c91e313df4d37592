/*
 * json: cards, compares and the list of runs as JSON, one document a
 * line: the plumbing the other formats are renderings of (docs/card.md
 * gives every key).  The output is always valid JSON: every string from
 * the database goes through shown_json (shown.h), whatever its bytes; a
 * figure that was not measured, or a mean that is not a finite number,
 * is null.
 */
#ifndef TR_JSON_H
#define TR_JSON_H

#include "buf.h"
#include "carddata.h"
#include "episode.h"
#include "gate.h"
#include "flaky.h"
#include "trend.h"

void json_card(buf *out, const card *c);
void json_compare(buf *out, const card_compared *x);
void json_list(buf *out, const card_listing *l);
void json_episode(buf *out, const episode_view *v);
/* {"gate": {...}, "compare": the compare of x}; g NULL: x's runs could
 * not be compared, and were not judged. */
void json_gate(buf *out, const gate *g, const card_compared *x, int status);
void json_trend(buf *out, const trend *t);
void json_flaky(buf *out, const flaky *f);

#endif
