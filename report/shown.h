/*
 * shown: text from the results database as each card format shows it.
 *
 * A database is input: a run name may hold a newline, an escape sequence,
 * a "|", a "<", a right-to-left override or bytes that are not UTF-8.
 * Every string a card prints goes through one of these, so that none can
 * forge a line, a row, a cell, a key or a tag, nor recolour or reorder
 * the card:
 *  - text and Markdown show it through utf8_shown() (controls, overrides
 *    and invalid bytes escaped, a backslash doubled);
 *  - Markdown outside code also puts a backslash before every character
 *    that could begin markup inline (emphasis, links, raw HTML, entities,
 *    cells, strikethrough) and breaks what GitHub would make a link of
 *    (http://, www., mailto:, xmpp:, an e-mail address); inside code,
 *    where a backslash is a backslash, only "|" is escaped;
 *  - HTML shows it through utf8_shown() too, then writes "&", "<", ">",
 *    '"' and "'" as character references, so that it is text (or an
 *    attribute's value), never markup;
 *  - JSON writes a string that is always valid JSON: controls escaped,
 *    and a byte that is not UTF-8 written as the lone surrogate
 *    \udcNN that Python's "surrogateescape" gives it (PEP 383).
 * The functions that return a string keep it in a pool of SHOWN_KEPT
 * buffers, each reused in turn (the module's one state): a result lasts
 * until the SHOWN_KEPT-th call after it, enough for one printf's
 * arguments.  shown_free() gives the pool's memory back.
 */
#ifndef TR_SHOWN_H
#define TR_SHOWN_H

#include <stddef.h>

#include "buf.h"

#define SHOWN_KEPT 12

/* s for a terminal. */
const char *shown_tx(const char *s);

/* s for a terminal, cut to max bytes ("..." after). */
const char *shown_tx_max(const char *s, size_t max);

/* A message that may quote input, some of it shown already (utf8_safe). */
const char *shown_safe(const char *s);

/* s in Markdown, outside code: a table cell, a title, a list item. */
const char *shown_md(const char *s);

/* s for shown_code() in a Markdown table cell. */
const char *shown_md_code(const char *s);

/* Text already shown (shown_tx, shown_md_code) as Markdown code: between
 * more backticks than its longest run of them. */
const char *shown_code(const char *shown);

/* A hash as the text shows it: whole, or (narrow) its first 16 digits. */
const char *shown_hash(const char *hash, int narrow);

/* Text already shown, cut to at most cols columns: when it is longer, its
 * first cols - 1 columns and an ellipsis ("\u2026"). */
const char *shown_fit(const char *shown, size_t cols);

/* A count as text and Markdown show it: its digits in room, or "-" when
 * it was not measured. */
const char *shown_count(char *room, size_t size, int measured, long n);

/* Columns of text already shown: its code points (what is shown has no
 * controls; wide characters are rare in what a card quotes). */
size_t shown_columns(const char *s);

/* Appends prefix and text (both shown already) to b, wrapped at spaces so
 * that no line passes width columns (width > indent + 8); continued lines
 * start with indent spaces.  A word longer than a line (a prefix's too)
 * is cut between characters, never inside one.  At most max_lines lines:
 * the last one then ends with "...". */
void shown_wrap(buf *b, const char *prefix, const char *text, int width,
                int indent, int max_lines);

/* shown_wrap of text alone, whose first line starts at column col of a
 * line b holds already (a table's last column). */
void shown_wrap_from(buf *b, const char *text, int col, int width, int indent,
                     int max_lines);

/* Appends s as HTML text (or a quoted attribute's value). */
void shown_html(buf *b, const char *s);

/* shown_html of s cut to at most cols columns (shown_fit); 0: whole. */
void shown_html_fit(buf *b, const char *s, size_t cols);

/* Appends text already shown, or a page's own words, for HTML: the five
 * characters above as character references. */
void shown_html_raw(buf *b, const char *shown);

/* Appends s as a JSON string, valid whatever its bytes. */
void shown_json(buf *b, const char *s);

/* Appends x as a JSON number, or null when it is not finite. */
void shown_json_number(buf *b, const char *fmt, double x);

void shown_free(void);

#endif
