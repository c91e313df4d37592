/*
 * buf: see buf.h.
 *
 * buf_printf() writes the conversions the library uses most itself: %s,
 * %c, %d, %i, %u and %x, with the lengths l, ll and z (z not with d or i),
 * a width, the flag 0 (not with %s or %c), and a precision on %s (digits
 * or *).  They are simple enough to write exactly as printf does, and
 * printf, which is slow in comparison, is then not needed.  Any other
 * format (another conversion, flag or length, a precision on a number, a
 * NULL string) goes to vsnprintf whole, with the arguments from the start.
 */
#include "buf.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int buf_reserve_grow(buf *b, size_t extra)
{
    if (extra > SIZE_MAX - b->len - 1) {
        b->failed = 1;
        return -1;
    }
    size_t need = b->len + extra + 1;
    if (need <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < need)
        cap = cap > SIZE_MAX / 2 ? need : cap * 2;
    char *p = realloc(b->data, cap);
    if (!p) {
        b->failed = 1;
        return -1;
    }
    b->data = p;
    b->cap = cap;
    return 0;
}

int buf_append_grow(buf *b, const void *data, size_t len)
{
    if (buf_reserve(b, len) < 0)
        return -1;
    if (len)
        memcpy(b->data + b->len, data, len);
    b->len += len;
    b->data[b->len] = '\0';
    return 0;
}

/* ---------------------------------------------------------------- numbers */

/* The longest text of a number here: 64 bits in octal would be 22 digits;
 * in decimal they take 20, and a sign. */
#define NUMBER_MAX 24

/* Writes the digits of u in base 10 or 16 (lower case) to the end of
 * tmp[0..NUMBER_MAX) and returns where they start. */
static char *digits_of(unsigned long long u, unsigned base, char *tmp)
{
    static const char hex[] = "0123456789abcdef";
    char *p = tmp + NUMBER_MAX;
    do {
        *--p = hex[u % base];
        u /= base;
    } while (u);
    return p;
}

int buf_put_uint(buf *b, unsigned long long v)
{
    char tmp[NUMBER_MAX];
    char *p = digits_of(v, 10, tmp);
    return buf_append(b, p, (size_t)(tmp + NUMBER_MAX - p));
}

int buf_put_int(buf *b, long long v)
{
    char tmp[NUMBER_MAX];
    /* The magnitude, computed unsigned so that LLONG_MIN has one too. */
    char *p = digits_of(v < 0 ? 0ull - (unsigned long long)v
                              : (unsigned long long)v,
                        10, tmp);
    if (v < 0)
        *--p = '-';
    return buf_append(b, p, (size_t)(tmp + NUMBER_MAX - p));
}

/* ----------------------------------------------------------------- printf */

/* Appends n copies of c. */
static int put_repeat(buf *b, char c, size_t n)
{
    if (buf_reserve(b, n) < 0)
        return -1;
    memset(b->data + b->len, c, n);
    b->len += n;
    b->data[b->len] = '\0';
    return 0;
}

/* Appends text[0..len) right-aligned in `width` columns: spaces before it,
 * or, when zero is set, zeros after the sign it may start with. */
static int put_padded(buf *b, const char *text, size_t len, size_t width,
                      int zero)
{
    if (width <= len)
        return buf_append(b, text, len);
    size_t pad = width - len;
    if (!zero)
        return put_repeat(b, ' ', pad) < 0 ? -1 : buf_append(b, text, len);
    size_t sign = len && text[0] == '-';
    if (buf_append(b, text, sign) < 0 || put_repeat(b, '0', pad) < 0)
        return -1;
    return buf_append(b, text + sign, len - sign);
}

enum { FORMAT_DONE = 0, FORMAT_NOMEM = -1, FORMAT_OTHER = 1 };

/* Appends the formatted text when every conversion of fmt is one this file
 * writes (see the top); FORMAT_OTHER, with some of it appended, when not. */
static int format_simple(buf *b, const char *fmt, va_list ap)
{
    const char *p = fmt;
    for (;;) {
        const char *lit = p;
        while (*p && *p != '%')
            p++;
        if (buf_append(b, lit, (size_t)(p - lit)) < 0)
            return FORMAT_NOMEM;
        if (!*p)
            return FORMAT_DONE;
        p++;
        if (*p == '%') {
            if (buf_putc(b, '%') < 0)
                return FORMAT_NOMEM;
            p++;
            continue;
        }

        int zero = *p == '0';
        p += zero;
        if (*p == '-' || *p == '+' || *p == ' ' || *p == '#' || *p == '\'' ||
            *p == '0')
            return FORMAT_OTHER;
        size_t width = 0;
        for (; *p >= '0' && *p <= '9'; p++) {
            width = width * 10 + (size_t)(*p - '0');
            if (width > 4096)
                return FORMAT_OTHER;
        }
        int has_precision = 0;
        size_t precision = 0;
        if (*p == '.') {
            p++;
            has_precision = 1;
            if (*p == '*') {
                p++;
                int n = va_arg(ap, int);
                /* A negative precision is taken as if none were given. */
                has_precision = n >= 0;
                precision = n >= 0 ? (size_t)n : 0;
            } else {
                for (; *p >= '0' && *p <= '9'; p++) {
                    precision = precision * 10 + (size_t)(*p - '0');
                    if (precision > 1000000)
                        return FORMAT_OTHER;
                }
            }
        }
        enum { PLAIN, LONG, LONG_LONG, SIZE } length = PLAIN;
        if (*p == 'l') {
            p++;
            length = LONG;
            if (*p == 'l') {
                p++;
                length = LONG_LONG;
            }
        } else if (*p == 'z') {
            p++;
            length = SIZE;
        }

        char conv = *p++;
        char tmp[NUMBER_MAX];
        const char *text;
        size_t len;
        int rc;
        switch (conv) {
        case 's': {
            if (zero || length != PLAIN)
                return FORMAT_OTHER;
            const char *s = va_arg(ap, const char *);
            if (!s)
                return FORMAT_OTHER;
            if (has_precision) {
                /* memchr stops at the first NUL, before the end of s */
                const char *nul = memchr(s, '\0', precision);
                len = nul ? (size_t)(nul - s) : precision;
            } else {
                len = strlen(s);
            }
            rc = put_padded(b, s, len, width, 0);
            break;
        }
        case 'c':
            if (zero || has_precision || length != PLAIN)
                return FORMAT_OTHER;
            tmp[0] = (char)(unsigned char)va_arg(ap, int);
            rc = put_padded(b, tmp, 1, width, 0);
            break;
        case 'd':
        case 'i': {
            if (has_precision || length == SIZE)
                return FORMAT_OTHER;
            long long v = length == LONG_LONG ? va_arg(ap, long long)
                          : length == LONG    ? va_arg(ap, long)
                                              : va_arg(ap, int);
            char *start = digits_of(v < 0 ? 0ull - (unsigned long long)v
                                          : (unsigned long long)v,
                                    10, tmp);
            if (v < 0)
                *--start = '-';
            text = start;
            len = (size_t)(tmp + NUMBER_MAX - start);
            rc = put_padded(b, text, len, width, zero);
            break;
        }
        case 'u':
        case 'x': {
            if (has_precision)
                return FORMAT_OTHER;
            unsigned long long v =
                length == LONG_LONG ? va_arg(ap, unsigned long long)
                : length == LONG    ? va_arg(ap, unsigned long)
                : length == SIZE    ? va_arg(ap, size_t)
                                    : va_arg(ap, unsigned);
            text = digits_of(v, conv == 'x' ? 16 : 10, tmp);
            len = (size_t)(tmp + NUMBER_MAX - text);
            rc = put_padded(b, text, len, width, zero);
            break;
        }
        default:
            return FORMAT_OTHER;
        }
        if (rc < 0)
            return FORMAT_NOMEM;
    }
}

/* buf_printf() through vsnprintf: straight into the room left when the
 * text fits there, else a second time once the room is made. */
static int format_libc(buf *b, const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    size_t room = b->cap - b->len;
    int n = vsnprintf(room ? b->data + b->len : NULL, room, fmt, ap);
    int rc = 0;
    if (n < 0) {
        b->failed = 1;
        rc = -1;
    } else if ((size_t)n >= room) {
        rc = buf_reserve(b, (size_t)n);
        if (rc == 0)
            vsnprintf(b->data + b->len, (size_t)n + 1, fmt, again);
    }
    if (rc == 0)
        b->len += (size_t)n;
    else if (b->data)
        b->data[b->len] = '\0'; /* a cut-off text may have been written */
    va_end(again);
    return rc;
}

int buf_printf(buf *b, const char *fmt, ...)
{
    size_t start = b->len;
    va_list ap, from_start;
    va_start(ap, fmt);
    va_copy(from_start, ap);
    int rc = format_simple(b, fmt, ap);
    if (rc != FORMAT_DONE) {
        b->len = start;
        if (b->data)
            b->data[start] = '\0';
    }
    if (rc == FORMAT_OTHER)
        rc = format_libc(b, fmt, from_start);
    va_end(from_start);
    va_end(ap);
    return rc < 0 ? -1 : 0;
}

void buf_reset(buf *b)
{
    b->len = 0;
    b->failed = 0;
    if (b->data)
        b->data[0] = '\0';
}

void buf_free(buf *b)
{
    if (!b)
        return;
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
    b->failed = 0;
}
