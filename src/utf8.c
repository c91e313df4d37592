/*
 * utf8: see utf8.h.
 *
 * The rules are those of CPython's codecs: the UTF-8 decoder accepts the
 * shortest form of every code point up to U+10FFFF and nothing else; with
 * 'surrogatepass' it also accepts ED A0..BF xx, one surrogate per three
 * bytes (two such sequences stay two code points: CPython does not pair
 * them).  The UTF-16 decoder pairs a high surrogate with a low one that
 * follows it and passes every other surrogate through; the UTF-32 decoder
 * refuses code units past 0x10FFFF.  A truncated last unit is an error in
 * both.
 */
#include "utf8.h"

#include <stdint.h>
#include <string.h>

size_t utf8_detect_json(const unsigned char *b, size_t len,
                        utf8_encoding *enc)
{
    *enc = UTF8_ENC_UTF8;
    if (len >= 4 && b[0] == 0 && b[1] == 0 && b[2] == 0xFE && b[3] == 0xFF) {
        *enc = UTF8_ENC_UTF32BE;
        return 4;
    }
    if (len >= 4 && b[0] == 0xFF && b[1] == 0xFE && b[2] == 0 && b[3] == 0) {
        *enc = UTF8_ENC_UTF32LE;
        return 4;
    }
    if (len >= 2 && b[0] == 0xFE && b[1] == 0xFF) {
        *enc = UTF8_ENC_UTF16BE;
        return 2;
    }
    if (len >= 2 && b[0] == 0xFF && b[1] == 0xFE) {
        *enc = UTF8_ENC_UTF16LE;
        return 2;
    }
    if (len >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF)
        return 3;
    /* No mark: JSON text starts with ASCII, so zero bytes give the unit
     * size and byte order away. */
    if (len >= 4) {
        if (b[0] == 0)
            *enc = b[1] ? UTF8_ENC_UTF16BE : UTF8_ENC_UTF32BE;
        else if (b[1] == 0)
            *enc = (b[2] || b[3]) ? UTF8_ENC_UTF16LE : UTF8_ENC_UTF32LE;
    } else if (len == 2) {
        if (b[0] == 0)
            *enc = UTF8_ENC_UTF16BE;
        else if (b[1] == 0)
            *enc = UTF8_ENC_UTF16LE;
    }
    return 0;
}

static int invalid(utf8_report *r, size_t at, const char *why)
{
    r->bad_at = at;
    r->why = why;
    return UTF8_INVALID;
}

/* Whether the 8 bytes at s are all ASCII. */
static int ascii8(const unsigned char *s)
{
    uint64_t w;
    memcpy(&w, s, sizeof w);
    return (w & UINT64_C(0x8080808080808080)) == 0;
}

int utf8_check(const unsigned char *s, size_t len, int flags,
               utf8_report *r)
{
    r->bad_at = 0;
    r->why = NULL;
    r->surrogates = 0;
    size_t i = 0;
    while (i < len) {
        unsigned char c = s[i];
        if (c < 0x80) {
            /* Most text is ASCII: skip it a word at a time. */
            i++;
            while (i + 8 <= len && ascii8(s + i))
                i += 8;
            continue;
        }
        size_t more;
        unsigned char lo = 0x80, hi = 0xBF; /* range of the second byte */
        const char *second_why = "a missing continuation byte";
        if (c >= 0xC2 && c <= 0xDF) {
            more = 1;
        } else if (c >= 0xE0 && c <= 0xEF) {
            more = 2;
            if (c == 0xE0) {
                lo = 0xA0;
                second_why = "an overlong form";
            } else if (c == 0xED && !(flags & UTF8_SURROGATEPASS)) {
                hi = 0x9F;
                second_why = "a surrogate";
            }
        } else if (c >= 0xF0 && c <= 0xF4) {
            more = 3;
            if (c == 0xF0) {
                lo = 0x90;
                second_why = "an overlong form";
            } else if (c == 0xF4) {
                hi = 0x8F;
                second_why = "a code point past U+10FFFF";
            }
        } else if (c <= 0xBF) {
            return invalid(r, i, "a continuation byte with no lead byte");
        } else if (c <= 0xC1) {
            return invalid(r, i, "an overlong form");
        } else {
            return invalid(r, i, "a byte that UTF-8 never uses");
        }
        if (i + 1 >= len)
            return invalid(r, i, "a character cut short by the end");
        if (s[i + 1] < lo || s[i + 1] > hi)
            return invalid(r, i, s[i + 1] >= 0x80 && s[i + 1] <= 0xBF
                                     ? second_why
                                     : "a missing continuation byte");
        for (size_t k = 2; k <= more; k++) {
            if (i + k >= len)
                return invalid(r, i, "a character cut short by the end");
            if (s[i + k] < 0x80 || s[i + k] > 0xBF)
                return invalid(r, i, "a missing continuation byte");
        }
        if (c == 0xED && s[i + 1] >= 0xA0)
            r->surrogates++;
        i += more + 1;
    }
    return UTF8_OK;
}

int utf8_put(buf *out, unsigned long cp)
{
    char b[4];
    size_t n;
    if (cp < 0x80) {
        b[0] = (char)cp;
        n = 1;
    } else if (cp < 0x800) {
        b[0] = (char)(0xC0 | (cp >> 6));
        b[1] = (char)(0x80 | (cp & 0x3F));
        n = 2;
    } else if (cp < 0x10000) {
        b[0] = (char)(0xE0 | (cp >> 12));
        b[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        b[2] = (char)(0x80 | (cp & 0x3F));
        n = 3;
    } else {
        b[0] = (char)(0xF0 | (cp >> 18));
        b[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        b[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        b[3] = (char)(0x80 | (cp & 0x3F));
        n = 4;
    }
    return buf_append(out, b, n);
}

static unsigned long unit16(const unsigned char *p, int big)
{
    return big ? ((unsigned long)p[0] << 8 | p[1])
               : ((unsigned long)p[1] << 8 | p[0]);
}

static unsigned long unit32(const unsigned char *p, int big)
{
    return big ? ((unsigned long)p[0] << 24 | (unsigned long)p[1] << 16 |
                  (unsigned long)p[2] << 8 | p[3])
               : ((unsigned long)p[3] << 24 | (unsigned long)p[2] << 16 |
                  (unsigned long)p[1] << 8 | p[0]);
}

static int transcode16(buf *out, const unsigned char *s, size_t len,
                       int big, utf8_report *r)
{
    size_t end = len & ~(size_t)1;
    for (size_t i = 0; i < end; i += 2) {
        unsigned long u = unit16(s + i, big);
        if (u >= 0xD800 && u <= 0xDBFF && i + 4 <= end) {
            unsigned long low = unit16(s + i + 2, big);
            if (low >= 0xDC00 && low <= 0xDFFF) {
                u = 0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00);
                i += 2;
            }
        }
        if (u >= 0xD800 && u <= 0xDFFF)
            r->surrogates++;
        if (utf8_put(out, u) < 0)
            return UTF8_NOMEM;
    }
    if (end != len)
        return invalid(r, end, "half a UTF-16 code unit at the end");
    return UTF8_OK;
}

static int transcode32(buf *out, const unsigned char *s, size_t len,
                       int big, utf8_report *r)
{
    size_t end = len & ~(size_t)3;
    for (size_t i = 0; i < end; i += 4) {
        unsigned long u = unit32(s + i, big);
        if (u > 0x10FFFF)
            return invalid(r, i, "a UTF-32 code unit past U+10FFFF");
        if (u >= 0xD800 && u <= 0xDFFF)
            r->surrogates++;
        if (utf8_put(out, u) < 0)
            return UTF8_NOMEM;
    }
    if (end != len)
        return invalid(r, end, "part of a UTF-32 code unit at the end");
    return UTF8_OK;
}

int utf8_transcode(buf *out, const unsigned char *s, size_t len,
                   utf8_encoding enc, utf8_report *r)
{
    r->bad_at = 0;
    r->why = NULL;
    r->surrogates = 0;
    /* Most JSON is ASCII: one code unit, one byte. */
    size_t unit = (enc == UTF8_ENC_UTF32LE || enc == UTF8_ENC_UTF32BE) ? 4
                                                                        : 2;
    if (buf_reserve(out, len / unit) < 0)
        return UTF8_NOMEM;
    switch (enc) {
    case UTF8_ENC_UTF16LE:
        return transcode16(out, s, len, 0, r);
    case UTF8_ENC_UTF16BE:
        return transcode16(out, s, len, 1, r);
    case UTF8_ENC_UTF32LE:
        return transcode32(out, s, len, 0, r);
    case UTF8_ENC_UTF32BE:
        return transcode32(out, s, len, 1, r);
    case UTF8_ENC_UTF8:
        break;
    }
    if (utf8_check(s, len, UTF8_SURROGATEPASS, r) != UTF8_OK)
        return UTF8_INVALID;
    return buf_append(out, s, len) < 0 ? UTF8_NOMEM : UTF8_OK;
}

int hex_digit_value(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Decodes the code point at s (n > 0 bytes), accepting the 3-byte form of
 * a lone surrogate as the loaders pass them on.  Returns the bytes used;
 * a byte that starts no valid sequence is one byte of U+FFFD with *ok 0. */
size_t utf8_next(const unsigned char *s, size_t n, uint32_t *cp, int *ok)
{
    unsigned c = s[0];
    *ok = 1;
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    size_t len;
    uint32_t v, min;
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2, v = c & 0x1F, min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3, v = c & 0x0F, min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4, v = c & 0x07, min = 0x10000;
    } else {
        len = 0, v = 0, min = 0;
    }
    if (len == 0 || len > n)
        goto bad;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            goto bad;
        v = v << 6 | (s[i] & 0x3F);
    }
    if (v < min || v > 0x10FFFFu)
        goto bad;
    *cp = v;
    return len;
bad:
    *ok = 0;
    *cp = 0xFFFD;
    return 1;
}

int utf8_printable(buf *out, const char *s, size_t len, size_t max)
{
    size_t used = 0;
    while (len > 0) {
        uint32_t cp;
        int ok;
        size_t n = utf8_next((const unsigned char *)s, len, &cp, &ok);
        if (!ok || (cp >= 0xD800 && cp <= 0xDFFF))
            cp = 0xFFFD;
        size_t width = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
        if (used + width > max)
            return buf_puts(out, "...");
        if (utf8_put(out, cp) < 0)
            return -1;
        used += width;
        s += n;
        len -= n;
    }
    return 0;
}

/* Whether utf8_shown() escapes code point cp (a valid character). */
static int escaped_for_terminal(uint32_t cp)
{
    return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F) ||
           (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) ||
           cp == 0x2028 || cp == 0x2029 || (cp >= 0xD800 && cp <= 0xDFFF);
}

static int shown(buf *out, const char *s, size_t len, size_t max,
                 int backslash)
{
    static const char hex[] = "0123456789abcdef";
    size_t used = 0;
    while (len > 0) {
        uint32_t cp;
        int ok;
        size_t n = utf8_next((const unsigned char *)s, len, &cp, &ok);
        char esc[16];
        const char *piece = s;
        size_t width = n;
        if (!ok || cp < 0x20 || cp == 0x7F) { /* one byte */
            unsigned char c = (unsigned char)s[0];
            piece = esc;
            width = 2;
            esc[0] = '\\';
            if (c == '\n' || c == '\t' || c == '\r') {
                esc[1] = c == '\n' ? 'n' : c == '\t' ? 't' : 'r';
            } else {
                esc[1] = 'x';
                esc[2] = hex[c >> 4];
                esc[3] = hex[c & 15];
                width = 4;
            }
        } else if (cp == '\\' && backslash) {
            piece = "\\\\";
            width = 2;
        } else if (escaped_for_terminal(cp)) {
            int shift = cp > 0xFFF ? 12 : 4; /* 2 or 4 digits (< 0x10000) */
            piece = esc;
            width = 0;
            esc[width++] = '\\';
            esc[width++] = 'u';
            esc[width++] = '{';
            for (; shift >= 0; shift -= 4)
                esc[width++] = hex[(cp >> shift) & 15];
            esc[width++] = '}';
        }
        if (width > max - used)
            return buf_puts(out, "...");
        if (buf_append(out, piece, width) < 0)
            return -1;
        used += width;
        s += n;
        len -= n;
    }
    return 0;
}

int utf8_shown(buf *out, const char *s, size_t len, size_t max)
{
    return shown(out, s, len, max, 1);
}

int utf8_safe(buf *out, const char *s, size_t len)
{
    return shown(out, s, len, (size_t)-1, 0);
}

size_t utf8_count(const char *s, size_t len)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        n += ((unsigned char)s[i] & 0xC0) != 0x80;
    return n;
}
