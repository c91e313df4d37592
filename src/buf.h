/*
 * buf: a growable byte buffer, always NUL-terminated after `len` bytes.
 *
 * Appends return 0, or -1 when memory runs out (the buffer then keeps what
 * it had, and `failed` is set until buf_reset or buf_free, so a series of
 * appends can be checked once at its end).  A zeroed buf is empty and
 * valid; buf_free() accepts one.
 */
#ifndef TR_BUF_H
#define TR_BUF_H

#include <stddef.h>

typedef struct buf {
    char *data;
    size_t len, cap;
    int failed; /* an append ran out of memory since the last reset */
} buf;

#define BUF_INIT {NULL, 0, 0, 0}

int buf_reserve(buf *b, size_t extra);
int buf_append(buf *b, const void *data, size_t len);
int buf_putc(buf *b, char c);
int buf_puts(buf *b, const char *s);
int buf_printf(buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void buf_reset(buf *b);
void buf_free(buf *b);

#endif
