/* callpairs: see callpairs.h. */
#include "callpairs.h"

#include <stdlib.h>
#include <string.h>

int lrc_add(lr_calls *c, const value *call, const value *id, size_t at0,
            size_t at1)
{
    if (id && id->kind == V_STRING) {
        size_t at = c->n;
        int had = strmap_get_or_put(&c->ids, id->u.str.ptr, id->u.str.len,
                                    &at);
        if (had < 0)
            return -1;
        if (had)
            return 1;
    } else {
        id = NULL;
    }
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 16;
        lr_call_item *more = realloc(c->items, cap * sizeof *more);
        if (!more)
            return -1;
        c->items = more;
        c->cap = cap;
    }
    lr_call_item *it = &c->items[c->n++];
    it->call = call;
    it->id = id;
    it->answer = NULL;
    it->at[0] = at0;
    it->at[1] = at1;
    return 0;
}

int lrc_answer(lr_calls *c, const value *id, const value *answer)
{
    if (!id || id->kind != V_STRING || !c->ids.n)
        return 1;
    size_t at = (size_t)-1;
    int had = strmap_get_or_put(&c->ids, id->u.str.ptr, id->u.str.len, &at);
    if (had < 0)
        return -1;
    if (!had) {
        /* not a call's: forget it again, as if never asked */
        strmap_set(&c->ids, id->u.str.ptr, id->u.str.len, (size_t)-1);
        return 1;
    }
    if (at == (size_t)-1)
        return 1;
    if (c->items[at].answer)
        return 2;
    c->items[at].answer = answer;
    return 0;
}

int lrc_answer_next(lr_calls *c, const value *answer)
{
    for (size_t i = 0; i < c->n; i++)
        if (!c->items[i].id && !c->items[i].answer) {
            c->items[i].answer = answer;
            return 0;
        }
    return 1;
}

int lrc_emit(logr *r, lrun *run, const char *episode, lr_calls *c, err *e)
{
    for (size_t i = 0; i < c->n; i++) {
        lr_call_item *it = &c->items[i];
        int rc = lr_call(r, run, episode, it->call, it->answer, e);
        if (rc)
            return rc;
        if (it->answer)
            continue;
        /* a call's place is said in 159 bytes at most (callpairs.h) */
        char place[160] = "";
        if (c->place)
            c->place(c->place_ctx, it, place, sizeof place);
        if (lr_problem(r, place[0] ? place : NULL, NULL,
                       "call %s%.*s%s of episode \"%s\" has no answer in the "
                       "log: it is replayed, and its answer is not compared",
                       it->id ? "\"" : "", it->id ? (int)it->id->u.str.len : 0,
                       it->id ? it->id->u.str.ptr : "", it->id ? "\"" : "",
                       episode))
            return 1;
    }
    return 0;
}

void lrc_reset(lr_calls *c)
{
    c->n = 0;
    strmap_free(&c->ids);
    memset(&c->ids, 0, sizeof c->ids);
}

void lrc_free(lr_calls *c)
{
    free(c->items);
    strmap_free(&c->ids);
    memset(c, 0, sizeof *c);
}

