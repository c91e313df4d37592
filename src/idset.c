/* idset: see idset.h. */
#include "idset.h"

#include <stdlib.h>

static size_t home(const idset *s, uint64_t id)
{
    /* the high bits: the low ones may be what a shard was chosen by */
    return (size_t)(id >> 17) & (s->cap - 1);
}

static int grow(idset *s)
{
    size_t cap = s->cap ? s->cap * 2 : 1024;
    uint64_t *slots = calloc(cap, sizeof *slots);
    if (!slots)
        return -1;
    idset old = *s;
    s->slots = slots;
    s->cap = cap;
    for (size_t i = 0; i < old.cap; i++) {
        if (!old.slots[i])
            continue;
        size_t j = home(s, old.slots[i]);
        while (s->slots[j])
            j = (j + 1) & (cap - 1);
        s->slots[j] = old.slots[i];
    }
    free(old.slots);
    return 0;
}

int idset_add(idset *s, uint64_t id)
{
    if (id == 0)
        id = 1;
    if ((s->n + 1) * 4 > s->cap * 3 && grow(s) < 0)
        return -1;
    size_t j = home(s, id);
    while (s->slots[j]) {
        if (s->slots[j] == id)
            return 0;
        j = (j + 1) & (s->cap - 1);
    }
    s->slots[j] = id;
    s->n++;
    return 1;
}

void idset_free(idset *s)
{
    free(s->slots);
    s->slots = NULL;
    s->cap = s->n = 0;
}
