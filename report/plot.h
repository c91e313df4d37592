/*
 * plot: the pictures of the HTML pages, as inline SVG drawn here (no
 * script, no font, nothing loaded).
 *
 * Each picture is drawn twice, in a <figure class="plot">: 640 units
 * wide (the <svg class="wide">) and 340 (class "narrow"), each shown at
 * one unit a pixel, the page's style showing the narrow one where the
 * column is narrower than 640 pixels (a phone), so that no picture is
 * shrunk: every text is 12 px as seen wherever the page is 372 pixels
 * wide or more.  Both share one title and one text alternative (the
 * first one's <title> and <desc>, which the second names).
 *
 * What they promise:
 *  - an axis title with its unit, and the ticks' values, above and
 *    below the rows; a difference plot says at its two ends which side
 *    favours which run ("favours B", "favours A", and their names);
 *  - the overall row first, its label bold, its marks larger, a line
 *    between it and the rest;
 *  - marks told apart by shape and a legend in words as well as by
 *    colour; every colour of a mark gives at least 3:1 against the
 *    page's background in its light and dark schemes and in print (the
 *    page's style, html.c, holds the series' colours; the outcomes'
 *    fills are fixed, chosen within that band for both backgrounds), and
 *    every text at least 4.5:1 against what is under it;
 *  - a dial's bar: each part in a <g class="part"> with its <title> and
 *    one visible label, inside the part when it fits, else on a line
 *    under the bar beside a swatch of its colour; a legend in the page
 *    (a list after the picture) says what each outcome shown means;
 *  - text from the database escaped (shown_html), a name longer than its
 *    room cut with an ellipsis (the table beside the picture holds it
 *    whole); a value that is not a finite number is not drawn, and one
 *    off the axis is drawn at its end.
 */
#ifndef TR_PLOT_H
#define TR_PLOT_H

#include <stddef.h>

#include "buf.h"
#include "carddata.h"

typedef struct plot_mark {
    double x, lo, hi; /* a value and its interval, in the axis's units */
    int series;       /* 0: circles (class "a"), 1: squares ("b") */
} plot_mark;

typedef struct plot_row {
    const char *label;  /* from the database: escaped and cut here */
    const char *suffix; /* the page's own words after it (" (A)"), or NULL */
    int overall;        /* the overall row: first, set apart */
    int group_break;    /* a line above it: a new dial's arms */
    int nmarks;         /* 0 to 2 */
    plot_mark marks[2];
    const char *none; /* with no mark, why (the page's own words) */
} plot_row;

typedef struct plot_spec {
    const char *id;    /* unique in the page: "ID-t" and "ID-d" are the
                          title's and the text alternative's ids */
    const char *title; /* the page's own words */
    const char *desc;  /* every figure, as HTML (escaped already) */
    double lo, hi, step; /* the axis */
    const char *unit;    /* after each tick's value: "%" or "" */
    int signed_ticks;    /* "+50" */
    const char *axis_title; /* the page's own words, with the unit */
    const char *series[2];  /* the legend's words, NULL: no such series */
    const char *favours_a, *favours_b; /* a difference plot: the runs'
                                          names (from the database) */
} plot_spec;

/* The picture of rows on one axis: rates, or differences A - B. */
void plot_rows(buf *b, const plot_spec *s, const plot_row *rows, size_t n);

/* The picture of each dial's events split by outcome, and its legend;
 * n numbers the cards of a page (ids). */
void plot_dials(buf *b, const card *c, int n);

/* A small mark of a rate and its interval on the 0-100% axis every
 * row of the night's index shares; none: a dash. */
void plot_index_mark(buf *b, const card_figure *f);

/* The ticks of that axis, for the column's head. */
void plot_index_axis(buf *b);

#endif
