/* err: see err.h. */
#include "err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void err_clear(err *e)
{
    if (!e)
        return;
    e->code = ERR_NONE;
    e->line = e->col = 0;
    e->path[0] = '\0';
    e->msg[0] = '\0';
}

int err_set(err *e, enum err_code code, const char *fmt, ...)
{
    if (!e)
        return -1;
    e->code = code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    return -1;
}

void err_at(err *e, unsigned line, unsigned col)
{
    if (!e)
        return;
    e->line = line;
    e->col = col;
}

void err_format(const err *e, const char *file, char *out, size_t size)
{
    size_t n = 0;
    if (size == 0)
        return;
    out[0] = '\0';
#define APPEND(...)                                                        \
    do {                                                                   \
        if (n < size) {                                                    \
            int k = snprintf(out + n, size - n, __VA_ARGS__);              \
            if (k > 0)                                                     \
                n += (size_t)k;                                            \
        }                                                                  \
    } while (0)
    if (file)
        APPEND("%s:", file);
    if (e->line) {
        APPEND("%u:", e->line);
        if (e->col)
            APPEND("%u:", e->col);
    }
    if (n)
        APPEND(" ");
    if (e->path[0])
        APPEND("%s: ", e->path);
    APPEND("%s", e->msg[0] ? e->msg : "unknown error");
#undef APPEND
}
