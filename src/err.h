/*
 * err: the one error type of the library.
 *
 * A function that can fail takes an `err *` last and, on failure, fills it
 * with what went wrong (code and message), where (line and column in the
 * input, 1-based, 0 when unknown) and the path inside the document
 * (`$.paths./orders.get`, empty when none).  The library never prints;
 * the programs format an err once, with err_format(), and decide what to do.
 */
#ifndef TR_ERR_H
#define TR_ERR_H

#include <stddef.h>

enum err_code {
    ERR_NONE = 0,
    ERR_NOMEM,   /* out of memory */
    ERR_IO,      /* reading or writing a file failed */
    ERR_SYNTAX,  /* neither JSON nor YAML */
    ERR_VALUE,   /* parsed, but holds something JSON cannot carry */
    ERR_LIMIT,   /* past a documented limit (size, nesting, aliases) */
    ERR_USAGE    /* the caller asked for something meaningless */
};

typedef struct err {
    enum err_code code;
    unsigned line, col;
    char path[512];
    char msg[512];
} err;

/* Clear e to "no error". */
void err_clear(err *e);

/* Set code and a printf-style message; keeps line, col and path.
 * Returns -1 so that callers can `return err_set(...)`. */
int err_set(err *e, enum err_code code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Set the place: line and column (0 = unknown). */
void err_at(err *e, unsigned line, unsigned col);

/* Format e for humans into out (always NUL-terminated):
 *   FILE:LINE:COL: PATH: MESSAGE
 * leaving out the parts that are unknown.  `file` may be NULL. */
void err_format(const err *e, const char *file, char *out, size_t size);

#endif
