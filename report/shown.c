/* shown: see shown.h. */
#include "shown.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "canon.h"
#include "utf8.h"

static buf pool[SHOWN_KEPT];
static unsigned next;

static buf *take(void)
{
    buf *b = &pool[next++ % SHOWN_KEPT];
    buf_reset(b);
    return b;
}

static const char *result(const buf *b)
{
    return b->failed || !b->data ? "" : b->data;
}

/* Markdown: what could begin markup inline, outside code. */
#define MD_ACTIVE "\\`*_[]<>&|~"

static int ascii_alnum(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9');
}

/* s shown for a terminal, then escaped for Markdown: outside code (all
 * of MD_ACTIVE, and links broken) or inside it ("|" only). */
static const char *markdown(const char *s, int in_code)
{
    buf *b = take();
    buf tmp = BUF_INIT;
    utf8_shown(&tmp, s, strlen(s), (size_t)-1);
    const char *active = in_code ? "|" : MD_ACTIVE;
    for (size_t i = 0; i < tmp.len; i++) {
        char c = tmp.data[i];
        /* "_" between two letters or digits can neither open nor close
         * emphasis (CommonMark 6.2): snake_case stays as it is */
        int inert = c == '_' && i > 0 && i + 1 < tmp.len &&
                    ascii_alnum(tmp.data[i - 1]) &&
                    ascii_alnum(tmp.data[i + 1]);
        /* no "http://x" or "www.x" becomes a link (GitHub's extended
         * autolinks), which would swallow the escapes */
        int link = !in_code &&
                   ((c == ':' && tmp.len - i >= 3 &&
                     memcmp(tmp.data + i + 1, "//", 2) == 0) ||
                    (c == '.' && i >= 3 &&
                     strncasecmp(tmp.data + i - 3, "www", 3) == 0));
        if ((c && strchr(active, c) && !inert) || link)
            buf_putc(b, '\\');
        buf_putc(b, c);
        /* nor an e-mail address (mailto: and xmpp: ones too), which GitHub
         * links after parsing, where no escape reaches: an empty comment
         * after the "@" parts the text, and shows nothing */
        if (!in_code && c == '@' && i + 1 < tmp.len &&
            (ascii_alnum(tmp.data[i + 1]) || tmp.data[i + 1] == '-' ||
             tmp.data[i + 1] == '_'))
            buf_puts(b, "<!-- -->");
    }
    if (tmp.failed)
        b->failed = 1;
    buf_free(&tmp);
    return result(b);
}

const char *shown_tx(const char *s)
{
    return shown_tx_max(s, (size_t)-1);
}

const char *shown_tx_max(const char *s, size_t max)
{
    buf *b = take();
    utf8_shown(b, s, strlen(s), max);
    return result(b);
}

const char *shown_safe(const char *s)
{
    buf *b = take();
    utf8_safe(b, s, strlen(s));
    return result(b);
}

const char *shown_md(const char *s)
{
    return markdown(s, 0);
}

const char *shown_md_code(const char *s)
{
    return markdown(s, 1);
}

const char *shown_code(const char *c)
{
    size_t run = 0, longest = 0;
    for (const char *p = c; *p; p++) {
        run = *p == '`' ? run + 1 : 0;
        if (run > longest)
            longest = run;
    }
    /* a space inside, when there are backticks: one at either end is then
     * not taken for part of the fence */
    const char *pad = longest ? " " : "";
    buf *b = take();
    for (size_t i = 0; i <= longest; i++)
        buf_putc(b, '`');
    buf_printf(b, "%s%s%s", pad, c, pad);
    for (size_t i = 0; i <= longest; i++)
        buf_putc(b, '`');
    return result(b);
}

const char *shown_hash(const char *hash, int narrow)
{
    return shown_tx_max(hash, narrow ? 16 : (size_t)-1);
}

const char *shown_count(char *room, size_t size, int measured, long n)
{
    if (!measured)
        return "-";
    snprintf(room, size, "%ld", n);
    return room;
}

size_t shown_columns(const char *s)
{
    return utf8_count(s, strlen(s));
}

const char *shown_fit(const char *s, size_t cols)
{
    if (shown_columns(s) <= cols)
        return s;
    buf *b = take();
    size_t end = 0, n = 0, len = strlen(s);
    while (end < len && n + 1 < cols) {
        end++;
        while (end < len && ((unsigned char)s[end] & 0xC0) == 0x80)
            end++;
        n++;
    }
    buf_append(b, s, end);
    buf_puts(b, "\xe2\x80\xa6");
    return result(b);
}

void shown_wrap_from(buf *b, const char *text, int col, int width, int indent,
                     int max_lines)
{
    const char *p = text;
    for (int line = 1;; line++) {
        size_t lead = line == 1 ? (size_t)col : (size_t)indent;
        size_t room = (size_t)width > lead + 8 ? (size_t)width - lead : 8;
        size_t len = strlen(p);
        if (utf8_count(p, len) <= room) {
            buf_append(b, p, len);
            buf_putc(b, '\n');
            return;
        }
        if (line == max_lines)
            room = room > 3 ? room - 3 : 1;
        /* the bytes of the first room columns, then back to a space that
         * follows some text (not one of the line's leading spaces) */
        size_t end = 0, cols = 0;
        while (end < len && cols < room) {
            end++;
            while (end < len && ((unsigned char)p[end] & 0xC0) == 0x80)
                end++;
            cols++;
        }
        size_t first = 0;
        while (first < end && p[first] == ' ')
            first++;
        size_t cut = end;
        while (cut > first && p[cut] != ' ')
            cut--;
        if (cut <= first)
            cut = end; /* one long word: cut between characters */
        buf_append(b, p, cut);
        if (line == max_lines) {
            buf_puts(b, "...\n");
            return;
        }
        p += cut;
        while (*p == ' ')
            p++;
        buf_printf(b, "\n%*s", indent, "");
    }
}

void shown_wrap(buf *b, const char *prefix, const char *text, int width,
                int indent, int max_lines)
{
    /* the prefix is wrapped with the text: a long file name in it is cut
     * too, not left to pass the width */
    buf all = BUF_INIT;
    buf_puts(&all, prefix);
    buf_puts(&all, text);
    if (all.failed)
        b->failed = 1;
    else
        shown_wrap_from(b, all.data ? all.data : "", 0, width, indent,
                        max_lines);
    buf_free(&all);
}

void shown_json(buf *b, const char *s)
{
    size_t len = strlen(s);
    const unsigned char *u = (const unsigned char *)s;
    /* valid UTF-8 runs as json.dumps writes them; each byte that starts
     * no valid sequence (or a lone surrogate's bytes) as \udcNN */
    buf_putc(b, '"');
    size_t i = 0;
    while (i < len) {
        size_t run = i;
        while (run < len) {
            uint32_t cp;
            int ok;
            size_t n = utf8_next(u + run, len - run, &cp, &ok);
            if (!ok || (cp >= 0xD800 && cp <= 0xDFFF))
                break;
            run += n;
        }
        if (run > i) { /* between the quotes canon_write_string adds */
            buf tmp = BUF_INIT;
            if (canon_write_string(&tmp, s + i, run - i) < 0)
                b->failed = 1;
            else
                buf_append(b, tmp.data + 1, tmp.len - 2);
            buf_free(&tmp);
            i = run;
            continue;
        }
        uint32_t cp;
        int ok;
        size_t n = utf8_next(u + i, len - i, &cp, &ok);
        if (ok) { /* a lone surrogate: its three bytes, each escaped */
            for (size_t k = 0; k < n; k++)
                buf_printf(b, "\\udc%02x", u[i + k]);
            i += n;
        } else {
            buf_printf(b, "\\udc%02x", u[i]);
            i++;
        }
    }
    buf_putc(b, '"');
}

void shown_html_raw(buf *b, const char *shown)
{
    for (const char *p = shown; *p; p++) {
        if (*p == '&')
            buf_puts(b, "&amp;");
        else if (*p == '<')
            buf_puts(b, "&lt;");
        else if (*p == '>')
            buf_puts(b, "&gt;");
        else if (*p == '"')
            buf_puts(b, "&quot;");
        else if (*p == '\'')
            buf_puts(b, "&#39;");
        else
            buf_putc(b, *p);
    }
}

/* s shown in a buffer of its own, whose running out of memory is b's */
void shown_html_fit(buf *b, const char *s, size_t cols)
{
    buf t = BUF_INIT;
    utf8_shown(&t, s, strlen(s), (size_t)-1);
    if (t.failed)
        b->failed = 1;
    else
        shown_html_raw(b, cols ? shown_fit(t.data ? t.data : "", cols)
                               : t.data ? t.data : "");
    buf_free(&t);
}

void shown_html(buf *b, const char *s)
{
    shown_html_fit(b, s, 0);
}

void shown_json_number(buf *b, const char *fmt, double x)
{
    if (isfinite(x))
        buf_printf(b, fmt, x);
    else
        buf_puts(b, "null");
}

void shown_free(void)
{
    for (int i = 0; i < SHOWN_KEPT; i++)
        buf_free(&pool[i]);
}
