/*
 * buf: a growable byte buffer, always NUL-terminated after `len` bytes.
 *
 * Appends return 0, or -1 when memory runs out (the buffer then keeps what
 * it had, and `failed` is set until buf_reset or buf_free, so a series of
 * appends can be checked once at its end).  A zeroed buf is empty and
 * valid; buf_free() accepts one.
 *
 * buf_printf() writes what the C library's printf would, byte for byte.
 */
#ifndef TR_BUF_H
#define TR_BUF_H

#include <stddef.h>
#include <string.h>

typedef struct buf {
    char *data;
    size_t len, cap;
    int failed; /* an append ran out of memory since the last reset */
} buf;

#define BUF_INIT {NULL, 0, 0, 0}

int buf_printf(buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The decimal text of v, as printf's "%lld" and "%llu" write it. */
int buf_put_int(buf *b, long long v);
int buf_put_uint(buf *b, unsigned long long v);
void buf_reset(buf *b);
void buf_free(buf *b);

/* buf_reserve() and buf_append() when the room asked for, and the NUL, do
 * not fit in what is allocated: they grow the buffer. */
int buf_reserve_grow(buf *b, size_t extra);
int buf_append_grow(buf *b, const void *data, size_t len);

/* Appends are the most frequent call of the library, and most of them fit
 * in what is already allocated: that case is written here, so that it
 * costs no call. */

/* Makes room for `extra` more bytes (and the NUL), so that appends of that
 * many bytes cannot fail. */
static inline int buf_reserve(buf *b, size_t extra)
{
    if (extra < b->cap - b->len)
        return 0;
    return buf_reserve_grow(b, extra);
}

static inline int buf_append(buf *b, const void *data, size_t len)
{
    if (len < b->cap - b->len) { /* room for the data and the NUL */
        if (len)
            memcpy(b->data + b->len, data, len);
        b->len += len;
        b->data[b->len] = '\0';
        return 0;
    }
    return buf_append_grow(b, data, len);
}

static inline int buf_putc(buf *b, char c)
{
    if (b->cap - b->len >= 2) {
        b->data[b->len++] = c;
        b->data[b->len] = '\0';
        return 0;
    }
    return buf_append_grow(b, &c, 1);
}

static inline int buf_puts(buf *b, const char *s)
{
    return buf_append(b, s, strlen(s));
}

#endif
