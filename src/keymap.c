/* keymap: see keymap.h. */
#define _DEFAULT_SOURCE /* getentropy */
#include "keymap.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xxhash.h>

void keymap_secret(keymap *m)
{
    uint64_t s;
    if (getentropy(&s, sizeof s) == 0)
        m->seed = s;
}

static size_t find(const keymap *m, const char *key, size_t len, uint64_t h)
{
    size_t mask = m->cap - 1;
    for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
        const keymap_slot *s = &m->slots[i];
        if (!s->key || (s->hash == h && s->len == len &&
                        memcmp(s->key, key, len) == 0))
            return i;
    }
}

int keymap_get(const keymap *m, const char *key, size_t len, size_t *val)
{
    if (m->n == 0)
        return 0;
    size_t i = find(m, key, len, XXH3_64bits_withSeed(key, len, m->seed));
    if (!m->slots[i].key)
        return 0;
    *val = m->slots[i].val;
    return 1;
}

static int grow(keymap *m)
{
    size_t cap = m->cap ? m->cap * 2 : 64;
    keymap_slot *slots = calloc(cap, sizeof *slots);
    if (!slots)
        return -1;
    keymap old = *m;
    m->slots = slots;
    m->cap = cap;
    for (size_t i = 0; i < old.cap; i++)
        if (old.slots[i].key)
            m->slots[find(m, old.slots[i].key, old.slots[i].len,
                          old.slots[i].hash)] = old.slots[i];
    free(old.slots);
    return 0;
}

int keymap_put(keymap *m, const char *key, size_t len, size_t val)
{
    if ((m->n + 1) * 4 > m->cap * 3 && grow(m) < 0)
        return -1;
    uint64_t h = XXH3_64bits_withSeed(key, len, m->seed);
    keymap_slot *s = &m->slots[find(m, key, len, h)];
    if (s->key) {
        s->val = val;
        return 0;
    }
    char *copy = malloc(len + 1);
    if (!copy)
        return -1;
    memcpy(copy, key, len);
    copy[len] = '\0';
    *s = (keymap_slot){copy, len, h, val};
    m->n++;
    return 0;
}

int keymap_remove(keymap *m, const char *key, size_t len)
{
    if (m->n == 0)
        return 0;
    size_t mask = m->cap - 1;
    size_t i = find(m, key, len, XXH3_64bits_withSeed(key, len, m->seed));
    if (!m->slots[i].key)
        return 0;
    free(m->slots[i].key);
    m->slots[i].key = NULL;
    m->n--;
    /* shift back the entries that probed past the hole */
    for (size_t j = (i + 1) & mask; m->slots[j].key; j = (j + 1) & mask) {
        size_t home = (size_t)m->slots[j].hash & mask;
        /* j may move to i when home is not cyclically in (i, j] */
        int stays = i <= j ? (home > i && home <= j) : (home > i || home <= j);
        if (!stays) {
            m->slots[i] = m->slots[j];
            m->slots[j].key = NULL;
            i = j;
        }
    }
    return 1;
}

void keymap_free(keymap *m)
{
    for (size_t i = 0; i < m->cap; i++)
        free(m->slots[i].key);
    free(m->slots);
    m->slots = NULL;
    m->cap = m->n = 0;
}
