/* path: see path.h. */
#include "path.h"

#include <stdio.h>
#include <string.h>

static int plain_key(const char *k, size_t len)
{
    if (len == 0)
        return 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)k[i];
        if (c < 0x20 || c == '.' || c == '[' || c == ']' || c == '"' ||
            c == '\\' || c == 0x7f)
            return 0;
    }
    return 1;
}

struct out {
    char *p;
    size_t size, n;
};

static void put(struct out *o, const char *s, size_t len)
{
    for (size_t i = 0; i < len && o->n + 1 < o->size; i++)
        o->p[o->n++] = s[i];
    o->p[o->n] = '\0';
}

static void put_seg(struct out *o, const path_seg *s)
{
    char tmp[32];
    if (!s->key) {
        int k = snprintf(tmp, sizeof tmp, "[%zu]", s->index);
        put(o, tmp, (size_t)k);
        return;
    }
    if (plain_key(s->key, s->keylen)) {
        put(o, ".", 1);
        put(o, s->key, s->keylen);
        return;
    }
    put(o, "[\"", 2);
    for (size_t i = 0; i < s->keylen; i++) {
        unsigned char c = (unsigned char)s->key[i];
        if (c == '"' || c == '\\') {
            tmp[0] = '\\';
            tmp[1] = (char)c;
            put(o, tmp, 2);
        } else if (c < 0x20) {
            int k = snprintf(tmp, sizeof tmp, "\\u%04x", c);
            put(o, tmp, (size_t)k);
        } else {
            put(o, (const char *)&s->key[i], 1);
        }
    }
    put(o, "\"]", 2);
}

static void put_chain(struct out *o, const path_seg *s)
{
    if (!s)
        return;
    put_chain(o, s->up);
    put_seg(o, s);
}

void path_format(const path_seg *leaf, char *out, size_t size)
{
    if (size == 0)
        return;
    struct out o = {out, size, 0};
    out[0] = '\0';
    put(&o, "$", 1);
    put_chain(&o, leaf);
}
