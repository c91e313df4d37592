/* strmap: see strmap.h.  Linear probing; the table doubles at 50% load. */
#include "strmap.h"

#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

static strmap_slot *find(const strmap *m, const char *key, size_t len,
                         uint64_t h)
{
    size_t mask = m->cap - 1;
    for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
        strmap_slot *s = &m->slots[i];
        if (!s->key)
            return s;
        if (s->hash == h && s->len == len &&
            (len == 0 || memcmp(s->key, key, len) == 0))
            return s;
    }
}

static int grow(strmap *m)
{
    size_t cap = m->cap ? m->cap * 2 : 16;
    strmap_slot *slots = calloc(cap, sizeof *slots);
    if (!slots)
        return -1;
    strmap old = *m;
    m->slots = slots;
    m->cap = cap;
    for (size_t i = 0; i < old.cap; i++)
        if (old.slots[i].key)
            *find(m, old.slots[i].key, old.slots[i].len, old.slots[i].hash) =
                old.slots[i];
    free(old.slots);
    return 0;
}

int strmap_get_or_put(strmap *m, const char *key, size_t len, size_t *val)
{
    if ((m->n + 1) * 2 > m->cap && grow(m) < 0)
        return -1;
    uint64_t h = XXH3_64bits(key, len);
    strmap_slot *s = find(m, key, len, h);
    if (s->key) {
        *val = s->val;
        return 1;
    }
    /* An empty key still needs a non-NULL pointer to mark the slot used. */
    s->key = key ? key : "";
    s->len = len;
    s->hash = h;
    s->val = *val;
    m->n++;
    return 0;
}

void strmap_set(strmap *m, const char *key, size_t len, size_t val)
{
    if (!m->cap)
        return;
    strmap_slot *s = find(m, key, len, XXH3_64bits(key, len));
    if (s->key)
        s->val = val;
}

void strmap_free(strmap *m)
{
    if (!m)
        return;
    free(m->slots);
    m->slots = NULL;
    m->cap = m->n = 0;
}
