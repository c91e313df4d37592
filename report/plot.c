/* plot: see plot.h. */
#include "plot.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "shown.h"
#include "utf8.h"

/* A layout: its width, where its axis runs, its rows' height. */
typedef struct layout {
    const char *cls;
    int w;
    double x0, x1;
    int row;
} layout;

/* Every text is 12 px; the last tick's value must end within the width,
 * hence x1 a little short of it. */
static const layout layouts[2] = {{"wide", 640, 160, 610, 22},
                                  {"narrow", 340, 112, 318, 24}};

#define FONT 12
/* A character's width at 12 px, generous (DejaVu Sans, the widest of the
 * usual sans faces, averages less), so that what is placed by it fits
 * in any of them. */
#define CHAR_W 7.4

/* Columns that fit in w units. */
static size_t cols_in(double w)
{
    return w > CHAR_W ? (size_t)(w / CHAR_W) : 1;
}

/* The width a text of n columns takes. */
static double width_of(size_t n)
{
    return CHAR_W * (double)n;
}

static double at(const layout *g, const plot_spec *s, double v)
{
    if (v < s->lo)
        v = s->lo;
    if (v > s->hi)
        v = s->hi;
    return g->x0 + (g->x1 - g->x0) * (v - s->lo) / (s->hi - s->lo);
}

/* ---------------------------------------------------------- the axis */

static void tick_values(buf *b, const layout *g, const plot_spec *s,
                        double y)
{
    /* n steps, not a running sum: no value drifts off its tick */
    long n = (long)floor((s->hi - s->lo) / s->step + 0.5);
    for (long i = 0; i <= n; i++) {
        double v = s->lo + (double)i * s->step;
        buf_printf(b, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" "
                      "text-anchor=\"middle\">%s%g%s</text>\n",
                   at(g, s, v), y, s->signed_ticks && v > 0 ? "+" : "",
                   v == 0 ? 0.0 : v, s->unit);
    }
}

static void grid(buf *b, const layout *g, const plot_spec *s, double top,
                 double bottom)
{
    long n = (long)floor((s->hi - s->lo) / s->step + 0.5);
    for (long i = 0; i <= n; i++) {
        double v = s->lo + (double)i * s->step;
        double x = at(g, s, v);
        /* zero on a difference's axis is a mark: no difference */
        buf_printf(b, "<line class=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
                      "y2=\"%.1f\"/>\n",
                   v == 0 && s->lo < 0 ? "zero mark" : "grid", x, top, x,
                   bottom);
    }
}

/* Our own words on lines of at most cols columns, each at x; the y of
 * the line after them. */
static double words(buf *b, const char *text, double x, double y,
                    size_t cols, const char *cls)
{
    const char *p = text;
    while (*p) {
        size_t len = strlen(p), take = len;
        if (utf8_count(p, len) > cols) {
            /* back to the last space within cols columns */
            size_t end = 0, n = 0, space = 0;
            while (end < len && n < cols) {
                if (p[end] == ' ')
                    space = end;
                end++;
                while (end < len && ((unsigned char)p[end] & 0xC0) == 0x80)
                    end++;
                n++;
            }
            take = space ? space : end;
        }
        buf_printf(b, "<text class=\"%s\" x=\"%.1f\" y=\"%.1f\">", cls, x,
                   y + 13);
        buf tmp = BUF_INIT;
        buf_append(&tmp, p, take);
        shown_html_raw(b, tmp.data ? tmp.data : "");
        b->failed |= tmp.failed;
        buf_free(&tmp);
        buf_puts(b, "</text>\n");
        y += 17;
        p += take;
        while (*p == ' ')
            p++;
    }
    return y;
}

/* ---------------------------------------------------------- the marks */

static void shape(buf *b, int series, double x, double y, int big)
{
    if (series == 0)
        buf_printf(b, "<circle class=\"a mark\" cx=\"%.1f\" cy=\"%.1f\" "
                      "r=\"%s\"/>\n",
                   x, y, big ? "6" : "4.5");
    else
        buf_printf(b, "<rect class=\"b mark\" x=\"%.1f\" y=\"%.1f\" "
                      "width=\"%s\" height=\"%s\"/>\n",
                   x - (big ? 5.5 : 4.5), y - (big ? 5.5 : 4.5),
                   big ? "11" : "9", big ? "11" : "9");
}

/* A value and its interval as a whisker with caps, and the mark. */
static void mark(buf *b, const layout *g, const plot_spec *s,
                 const plot_mark *m, double y, int big)
{
    if (!isfinite(m->x) || !isfinite(m->lo) || !isfinite(m->hi))
        return;
    const char *cls = m->series ? "b" : "a";
    double lo = at(g, s, m->lo), hi = at(g, s, m->hi);
    buf_printf(b, "<path class=\"%s whisker mark\" d=\"M%.1f %.1fH%.1f"
                  "M%.1f %.1fV%.1fM%.1f %.1fV%.1f\"/>\n",
               cls, lo, y, hi, lo, y - 4, y + 4, hi, y - 4, y + 4);
    shape(b, m->series, at(g, s, m->x), y, big);
}

/* The legend of the series drawn: shape and word. */
static double legend(buf *b, const plot_spec *s, double y)
{
    double x = 0;
    if (!s->series[0] && !s->series[1])
        return y;
    for (int i = 0; i < 2; i++) {
        if (!s->series[i])
            continue;
        shape(b, i, x + 6, y + 9, 0);
        buf_printf(b, "<text class=\"key\" x=\"%.1f\" y=\"%.1f\">", x + 16,
                   y + 13);
        shown_html_raw(b, s->series[i]);
        buf_puts(b, "</text>\n");
        x += 16 + width_of(utf8_count(s->series[i], strlen(s->series[i]))) +
             18;
    }
    return y + 22;
}

/* "<- favours B" and "favours A ->", and the runs' names under them. */
static double favours(buf *b, const layout *g, const plot_spec *s, double y)
{
    if (!s->favours_a || !s->favours_b)
        return y;
    /* each side has half the width */
    size_t cols = cols_in(g->w / 2.0 - 8);
    double left = 0;
    buf_printf(b, "<text class=\"fav\" x=\"%.1f\" y=\"%.1f\">\xe2\x86\x90 "
                  "favours B</text>\n<text class=\"fav\" x=\"%.1f\" "
                  "y=\"%.1f\" text-anchor=\"end\">favours A \xe2\x86\x92"
                  "</text>\n",
               left, y + 13, (double)g->w, y + 13);
    buf_printf(b, "<text class=\"fav\" x=\"%.1f\" y=\"%.1f\">", left, y + 30);
    shown_html_fit(b, s->favours_b, cols);
    buf_printf(b, "</text>\n<text class=\"fav\" x=\"%.1f\" y=\"%.1f\" "
                  "text-anchor=\"end\">",
               (double)g->w, y + 30);
    shown_html_fit(b, s->favours_a, cols);
    buf_puts(b, "</text>\n");
    return y + 36;
}

/* The opening of a picture in layout g of height h: the first carries
 * the title and the text alternative, the second names them. */
static void svg_open(buf *b, const layout *g, const plot_spec *s, double h,
                     int first)
{
    buf_printf(b, "<svg class=\"%s\" role=\"img\" aria-labelledby=\"%s-t "
                  "%s-d\" viewBox=\"0 0 %d %.0f\" width=\"%d\" "
                  "height=\"%.0f\">\n",
               g->cls, s->id, s->id, g->w, h, g->w, h);
    if (!first)
        return;
    buf_printf(b, "<title id=\"%s-t\">", s->id);
    shown_html_raw(b, s->title);
    buf_printf(b, "</title>\n<desc id=\"%s-d\">%s</desc>\n", s->id, s->desc);
}

/* Writes the picture drawn into in (its height h now known) as one svg
 * element, and frees in. */
static void svg_write(buf *b, const layout *g, const plot_spec *s, double h,
                      int first, buf *in)
{
    svg_open(b, g, s, h, first);
    if (in->failed)
        b->failed = 1;
    else if (in->len)
        buf_append(b, in->data, in->len);
    buf_free(in);
    buf_puts(b, "</svg>\n");
}

/* ---------------------------------------------------------- the rows */

static void draw_rows(buf *b, const layout *g, const plot_spec *s,
                      const plot_row *rows, size_t n, int first)
{
    buf in = BUF_INIT; /* the picture, drawn before its height is known */
    double y = legend(&in, s, 0);
    y = words(&in, s->axis_title, 0, y, cols_in(g->w), "axis");
    tick_values(&in, g, s, y + 12);
    y += 20;
    double top = y;
    double bottom = top;
    for (size_t i = 0; i < n; i++)
        bottom += g->row + (rows[i].overall && i + 1 < n ? 8 : 0);
    grid(&in, g, s, top - 4, bottom + 4);
    size_t label_cols = cols_in(g->x0 - 8);
    for (size_t i = 0; i < n; i++) {
        const plot_row *r = &rows[i];
        if (r->group_break && i && !rows[i - 1].overall)
            buf_printf(&in, "<line class=\"grid\" x1=\"0\" y1=\"%.1f\" "
                            "x2=\"%d\" y2=\"%.1f\"/>\n",
                       y, g->w, y);
        double cy = y + g->row / 2.0;
        size_t suffix = r->suffix ? utf8_count(r->suffix, strlen(r->suffix))
                                  : 0;
        buf_printf(&in, "<text class=\"lab%s\" x=\"0\" y=\"%.1f\">",
                   r->overall ? " all" : "", cy + 4);
        /* a bold label is wider: a column less */
        shown_html_fit(&in, r->label,
                       label_cols > suffix + 2 + (size_t)r->overall
                           ? label_cols - suffix - (size_t)r->overall
                           : 1);
        if (r->suffix)
            shown_html_raw(&in, r->suffix);
        buf_puts(&in, "</text>\n");
        if (r->nmarks == 0 && r->none) {
            buf_printf(&in, "<text class=\"none\" x=\"%.1f\" y=\"%.1f\" "
                            "text-anchor=\"middle\">",
                       (g->x0 + g->x1) / 2, cy + 4);
            shown_html_raw(&in, r->none);
            buf_puts(&in, "</text>\n");
        }
        for (int k = 0; k < r->nmarks && k < 2; k++)
            mark(&in, g, s, &r->marks[k],
                 r->nmarks == 2 ? cy + (k ? 4.5 : -4.5) : cy, r->overall);
        y += g->row;
        if (r->overall && i + 1 < n) { /* set apart from the rest */
            buf_printf(&in, "<line class=\"apart\" x1=\"0\" y1=\"%.1f\" "
                            "x2=\"%d\" y2=\"%.1f\"/>\n",
                       y + 4, g->w, y + 4);
            y += 8;
        }
    }
    tick_values(&in, g, s, bottom + 18);
    y = favours(&in, g, s, bottom + 24);
    svg_write(b, g, s, y + 4, first, &in);
}

void plot_rows(buf *b, const plot_spec *s, const plot_row *rows, size_t n)
{
    buf_puts(b, "<figure class=\"plot\">\n");
    for (int l = 0; l < 2; l++)
        draw_rows(b, &layouts[l], s, rows, n, l == 0);
    buf_puts(b, "</figure>\n");
}

/* ---------------------------------------------------------- the dials */

/* The outcomes' fills (card_outcomes' order), one for every scheme:
 * each gives at least 3:1 against white and against the dark scheme's
 * #151515, and the ink written on it (black, or white where black would
 * give less than 4.5:1) at least 4.5:1.  Hues: the good outcomes blue,
 * green, teal and violet, the bad ones vermilion, crimson and pink, those
 * in between olive and ochre, not reached grey. */
static const struct {
    const char *fill;
    int white_ink;
    const char *means;
} outcome_look[10] = {
    {"#0072b2", 1, "a later call matched the same step"},          /* retried */
    {"#d55e00", 0, "no later call matched the same step"},        /* gave_up */
    {"#009e73", 0, "a read showed the target write"},             /* checked */
    {"#c8324e", 1, "the target write was made again"},         /* duplicated */
    {"#8a7d00", 0, "the target write was neither read nor made again"},
    {"#1f8fa6", 0, "step 2 was done, with the right value"},       /* caught */
    {"#cc79a7", 0, "an accepted write was sent the wrong value"},  /* fooled */
    {"#b06f00", 0, "step 2 was not done, nor a wrong value written"},
    {"#7a67c9", 0, "the target write was not made again after the "
                   "lagging read"},                                /* trusted */
    {"#7f7f7f", 0, "the episode never got to the event"}};    /* not_reached */

/* A part of a dial's bar, and where its label goes. */
typedef struct part {
    int o;          /* the outcome */
    double x, w;    /* the part */
    char label[48]; /* "retried 28" */
    double need;    /* the label's width (and a swatch's, outside) */
    int line;       /* 0: inside the part; else the line under the bar */
    double lx;      /* outside: where the swatch begins */
} part;

/* Lays the labels that do not fit inside their parts on lines under the
 * bar, in the parts' order: as many on a line as fit between the axis's
 * start and the picture's end, each at its part's start or after the one
 * before, then moved left as far as needed for the last to end within
 * the picture.  The lines used. */
static int lay_out(part *p, int n, const layout *g)
{
    int out[10], nout = 0, lines = 0;
    for (int i = 0; i < n; i++)
        if (p[i].line)
            out[nout++] = i;
    for (int k = 0; k < nout;) {
        int from = k;
        double total = p[out[k++]].need;
        while (k < nout && total + 10 + p[out[k]].need <= g->w - g->x0)
            total += 10 + p[out[k++]].need;
        lines++;
        double end = g->x0 - 10;
        for (int j = from; j < k; j++) {
            part *q = &p[out[j]];
            q->lx = q->x > end + 10 ? q->x : end + 10;
            end = q->lx + q->need;
            q->line = lines;
        }
        double bound = g->w;
        for (int j = k - 1; j >= from; j--) {
            part *q = &p[out[j]];
            if (q->lx > bound - q->need)
                q->lx = bound - q->need;
            bound = q->lx - 10;
        }
    }
    return lines;
}

/* One dial's bar at y in layout g: its parts, their labels; the y after
 * it. */
static double dial_bar(buf *b, const layout *g, const card_dial *d, double y)
{
    long total = 0;
    for (int o = 0; o < 10; o++)
        total += d->outcomes[o] > 0 ? d->outcomes[o] : 0;
    buf_printf(b, "<text class=\"lab\" x=\"0\" y=\"%.1f\">", y + 14);
    shown_html_fit(b, d->dial, cols_in(g->x0 - 8));
    buf_puts(b, "</text>\n");
    part p[10];
    int n = 0;
    double x = g->x0;
    for (int o = 0; o < 10 && total > 0; o++) {
        if (d->outcomes[o] <= 0)
            continue;
        part *q = &p[n++];
        q->o = o;
        q->x = x;
        q->w = (g->x1 - g->x0) * (double)d->outcomes[o] / (double)total;
        snprintf(q->label, sizeof q->label, "%s %ld", card_outcomes[o],
                 d->outcomes[o]);
        double text_w = width_of(strlen(q->label));
        q->line = q->w < text_w + 8; /* else inside */
        q->need = q->line ? 14 + text_w : text_w;
        x += q->w;
    }
    int lines = lay_out(p, n, g);
    for (int i = 0; i < n; i++) {
        const part *q = &p[i];
        buf_printf(b, "<g class=\"part\" data-outcome=\"%s\"><title>%s</title>"
                      "<rect class=\"seg\" x=\"%.1f\" y=\"%.1f\" "
                      "width=\"%.1f\" height=\"16\" fill=\"%s\"/>",
                   card_outcomes[q->o], q->label, q->x, y + 2, q->w,
                   outcome_look[q->o].fill);
        if (!q->line) {
            buf_printf(b, "<text class=\"in %s\" x=\"%.1f\" y=\"%.1f\">%s"
                          "</text>",
                       outcome_look[q->o].white_ink ? "ink-w" : "ink-k",
                       q->x + 4, y + 14, q->label);
        } else { /* under the bar, beside a swatch of its colour */
            double ly = y + 16 + 16.0 * q->line;
            buf_printf(b, "<rect class=\"sw\" x=\"%.1f\" y=\"%.1f\" "
                          "width=\"10\" height=\"10\" fill=\"%s\"/>"
                          "<text class=\"out\" x=\"%.1f\" y=\"%.1f\">%s"
                          "</text>",
                       q->lx, ly - 9, outcome_look[q->o].fill, q->lx + 14, ly,
                       q->label);
        }
        buf_puts(b, "</g>\n");
    }
    return y + 22 + 16.0 * lines;
}

void plot_dials(buf *b, const card *c, int n)
{
    char id[32];
    snprintf(id, sizeof id, "dials%d", n);
    buf desc = BUF_INIT;
    for (size_t i = 0; i < c->ndials; i++) {
        const card_dial *d = &c->dials[i];
        shown_html(&desc, d->dial);
        buf_printf(&desc, ": %ld events, ", d->events);
        card_outcomes_text(&desc, d);
        buf_puts(&desc, i + 1 < c->ndials ? "; " : ".");
    }
    plot_spec s = {.id = id,
                   .title = "The outcomes of each dial's planned events",
                   .desc = desc.failed || !desc.data ? "" : desc.data,
                   .lo = 0,
                   .hi = 100,
                   .step = 25,
                   .unit = "%",
                   .axis_title = "Share of the dial's planned events, %, "
                                 "by outcome"};
    b->failed |= desc.failed;
    buf_puts(b, "<figure class=\"plot\">\n");
    for (int l = 0; l < 2; l++) {
        const layout *g = &layouts[l];
        buf in = BUF_INIT;
        double y = words(&in, s.axis_title, 0, 0, cols_in(g->w), "axis");
        tick_values(&in, g, &s, y + 12);
        y += 20;
        double top = y;
        buf bars = BUF_INIT;
        for (size_t i = 0; i < c->ndials; i++)
            y = dial_bar(&bars, g, &c->dials[i], y);
        grid(&in, g, &s, top - 4, y);
        if (bars.failed)
            in.failed = 1;
        else if (bars.len)
            buf_append(&in, bars.data, bars.len);
        buf_free(&bars);
        svg_write(b, g, &s, y + 4, l == 0, &in);
    }
    buf_puts(b, "</figure>\n<ul class=\"legend\">\n");
    for (int o = 0; o < 10; o++) {
        int used = 0;
        for (size_t i = 0; i < c->ndials; i++)
            used |= c->dials[i].outcomes[o] > 0;
        if (!used)
            continue;
        buf_printf(b, "<li data-outcome=\"%s\"><svg width=\"12\" height=\"12\" "
                      "aria-hidden=\"true\"><rect class=\"sw\" width=\"12\" "
                      "height=\"12\" fill=\"%s\"/></svg> <b>%s</b>: %s</li>\n",
                   card_outcomes[o], outcome_look[o].fill, card_outcomes[o],
                   outcome_look[o].means);
    }
    buf_puts(b, "</ul>\n");
    buf_free(&desc);
}

/* ---------------------------------------------------------- the index */

enum { INDEX_W = 160, INDEX_X0 = 8, INDEX_X1 = 152 };

static double index_at(double v)
{
    if (!(v >= 0))
        v = 0;
    if (v > 1)
        v = 1;
    return INDEX_X0 + (INDEX_X1 - INDEX_X0) * v;
}

void plot_index_mark(buf *b, const card_figure *f)
{
    if (!f->measure) {
        buf_puts(b, "-");
        return;
    }
    double rate = f->n ? (double)f->x / (double)f->n : 0;
    buf_printf(b, "<svg class=\"dot\" role=\"img\" width=\"%d\" height=\"18\" "
                  "viewBox=\"0 0 %d 18\"><title>%s %.1f%%, 95%% CI "
                  "%.1f-%.1f%%</title>"
                  "<line class=\"grid\" x1=\"%d\" y1=\"9\" x2=\"%d\" y2=\"9\"/>"
                  "<line class=\"grid\" x1=\"%.1f\" y1=\"3\" x2=\"%.1f\" "
                  "y2=\"15\"/>",
               INDEX_W, INDEX_W, f->measure, 100 * rate, 100 * f->ci.lo,
               100 * f->ci.hi, INDEX_X0, INDEX_X1, index_at(0.5),
               index_at(0.5));
    buf_printf(b, "<path class=\"a whisker mark\" d=\"M%.1f 9H%.1f\"/>"
                  "<circle class=\"a mark\" cx=\"%.1f\" cy=\"9\" r=\"4.5\"/>"
                  "</svg>",
               index_at(f->ci.lo), index_at(f->ci.hi), index_at(rate));
}

void plot_index_axis(buf *b)
{
    buf_printf(b, "<svg class=\"dot\" aria-hidden=\"true\" width=\"%d\" "
                  "height=\"16\" viewBox=\"0 0 %d 16\">",
               INDEX_W, INDEX_W);
    static const char *const ticks[] = {"0", "50", "100%"};
    for (int i = 0; i < 3; i++)
        buf_printf(b, "<text class=\"tick\" x=\"%.1f\" y=\"12\" "
                      "text-anchor=\"%s\">%s</text>",
                   index_at(i / 2.0), i == 0 ? "start" : i == 2 ? "end"
                                                               : "middle",
                   ticks[i]);
    buf_puts(b, "</svg>");
}
