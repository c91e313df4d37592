/*
 * fmt: integers and 64-bit hashes written into char arrays, without
 * printf (which costs more than the rest of a hot path's work).
 * Every function NUL-terminates and returns the length written.
 */
#ifndef TR_FMT_H
#define TR_FMT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define FMT_UINT_MAX 21 /* 20 digits of a 64-bit value, and the NUL */

/* v in decimal; out has room for FMT_UINT_MAX bytes. */
static inline size_t fmt_uint(char *out, unsigned long long v)
{
    char tmp[FMT_UINT_MAX];
    char *p = tmp + sizeof tmp;
    do
        *--p = (char)('0' + v % 10);
    while (v /= 10);
    size_t n = (size_t)(tmp + sizeof tmp - p);
    memcpy(out, p, n);
    out[n] = '\0';
    return n;
}

/* v as a (possibly negative) decimal; out has room for FMT_UINT_MAX + 1. */
static inline size_t fmt_int(char *out, long long v)
{
    if (v >= 0)
        return fmt_uint(out, (unsigned long long)v);
    out[0] = '-';
    return 1 + fmt_uint(out + 1, 0ull - (unsigned long long)v);
}

/* v as 16 lower-case hex digits, zero-padded. */
static inline size_t fmt_hex64(char out[17], uint64_t v)
{
    static const char hex[] = "0123456789abcdef";
    for (int i = 15; i >= 0; i--, v >>= 4)
        out[i] = hex[v & 15];
    out[16] = '\0';
    return 16;
}

/* Appends s (len bytes) at out + *at, if it fits before size - 1 (else
 * as much as fits); keeps out NUL-terminated. */
static inline void fmt_cat(char *out, size_t size, size_t *at, const char *s,
                           size_t len)
{
    if (*at >= size)
        return;
    size_t room = size - 1 - *at;
    if (len > room)
        len = room;
    memcpy(out + *at, s, len);
    *at += len;
    out[*at] = '\0';
}

#endif
