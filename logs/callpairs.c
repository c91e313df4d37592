/* callpairs: see callpairs.h.  Per id, the unanswered calls form a stack
 * (open: its top; each call's link the one under it), and the answers
 * waiting for a call a queue (first_wait, last_wait; each answer's link
 * the next): every step is a lookup and a link.  The calls of one at0 on
 * top of the stack are in their order, the first on top: a call of the
 * top's at0 goes in after the last of them (the top's tail), not on top. */
#include "callpairs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The maps' seed: ids come from the log, so that no crafted ids can make
 * the probes long. */
static void seed(lr_calls *c)
{
    if (c->seeded)
        return;
    keymap_secret(&c->open);
    c->first_wait.seed = c->last_wait.seed = c->open.seed;
    c->seeded = 1;
}

static int push(lr_call_item **items, size_t *n, size_t *cap,
                const lr_call_item *it)
{
    if (*n == *cap) {
        size_t more = *cap ? 2 * *cap : 16;
        lr_call_item *grown = realloc(*items, more * sizeof *grown);
        if (!grown)
            return -1;
        *items = grown;
        *cap = more;
    }
    (*items)[(*n)++] = *it;
    return 0;
}

int lrc_add(lr_calls *c, const value *call, const value *id, size_t at0,
            size_t at1)
{
    lr_call_item it = {call, NULL, NULL, {at0, at1}, LRC_NONE, NAN, c->n};
    if (id && id->kind == V_STRING) {
        seed(c);
        const char *k = id->u.str.ptr;
        size_t len = id->u.str.len, w, top = LRC_NONE;
        it.id = id;
        if (keymap_get(&c->first_wait, k, len, &w)) {
            /* an answer came before its call: the earliest one is its */
            it.answer = c->waiting[w].answer;
            c->waiting[w].call = call;
            if (c->waiting[w].link == LRC_NONE) {
                keymap_remove(&c->first_wait, k, len);
                keymap_remove(&c->last_wait, k, len);
            } else if (keymap_put(&c->first_wait, k, len,
                                  c->waiting[w].link) < 0) {
                return -1;
            }
            keymap_get(&c->open, k, len, &top);
            if (keymap_put(&c->open, k, len, top) < 0) /* the id is known */
                return -1;
        } else if (keymap_get(&c->open, k, len, &top) && top != LRC_NONE &&
                   c->items[top].at[0] == at0) {
            /* after the calls of its id made with it, which are answered
             * first */
            size_t tail = c->items[top].tail;
            it.link = c->items[tail].link;
            c->items[tail].link = c->n;
            c->items[top].tail = c->n;
        } else {
            it.link = top;
            if (keymap_put(&c->open, k, len, c->n) < 0)
                return -1;
        }
    }
    return push(&c->items, &c->n, &c->cap, &it);
}

int lrc_answer(lr_calls *c, const value *id, const value *answer,
               size_t at0, size_t at1)
{
    if (!id || id->kind != V_STRING)
        return 1;
    seed(c);
    const char *k = id->u.str.ptr;
    size_t len = id->u.str.len, top;
    if (keymap_get(&c->open, k, len, &top)) {
        if (top == LRC_NONE)
            return 2;
        lr_call_item *it = &c->items[top];
        it->answer = answer;
        if (it->tail != top) /* the next of its at0 is the top now */
            c->items[it->link].tail = it->tail;
        return keymap_put(&c->open, k, len, it->link) < 0 ? -1 : 0;
    }
    lr_call_item it = {NULL, id, answer, {at0, at1}, LRC_NONE, NAN, 0};
    size_t last;
    if (keymap_get(&c->last_wait, k, len, &last))
        c->waiting[last].link = c->nw;
    else if (keymap_put(&c->first_wait, k, len, c->nw) < 0)
        return -1;
    if (keymap_put(&c->last_wait, k, len, c->nw) < 0 ||
        push(&c->waiting, &c->nw, &c->capw, &it) < 0)
        return -1;
    return 3;
}

int lrc_answer_next(lr_calls *c, const value *answer)
{
    while (c->plain < c->n &&
           (c->items[c->plain].id || c->items[c->plain].answer))
        c->plain++;
    if (c->plain == c->n)
        return 1;
    c->items[c->plain++].answer = answer;
    return 0;
}

/* The id of it, quoted, for a problem: at most 100 bytes of it. */
static void id_text(const lr_call_item *it, char *out, size_t size)
{
    if (it->id)
        snprintf(out, size, "\"%.*s\"",
                 (int)(it->id->u.str.len < 100 ? it->id->u.str.len : 100),
                 it->id->u.str.ptr);
    else
        out[0] = '\0';
}

int lrc_emit(logr *r, lrun *run, const char *episode, lr_calls *c, err *e)
{
    char place[160], id[110]; /* a place in 159 bytes at most */
    for (size_t i = 0; i < c->n; i++) {
        lr_call_item *it = &c->items[i];
        int rc = lr_call(r, run, episode, it->call, it->answer,
                         it->duration, e);
        if (rc)
            return rc;
        if (it->answer)
            continue;
        place[0] = '\0';
        if (c->place)
            c->place(c->place_ctx, it, place, sizeof place);
        id_text(it, id, sizeof id);
        if (lr_problem(r, place[0] ? place : NULL, NULL,
                       "call %s%sof episode \"%s\" has no answer in the "
                       "log: %s",
                       id, id[0] ? " " : "", episode,
                       lr_observed(r)
                           ? "it is counted, with no answer (the episode is "
                             "observed, not replayed)"
                           : "it is replayed, and its answer is not "
                             "compared"))
            return 1;
    }
    for (size_t i = 0; i < c->nw; i++) {
        lr_call_item *it = &c->waiting[i];
        if (it->call)
            continue; /* its call came */
        place[0] = '\0';
        if (c->place)
            c->place(c->place_ctx, it, place, sizeof place);
        id_text(it, id, sizeof id);
        if (lr_problem(r, place[0] ? place : NULL, NULL,
                       "an answer to call %s, which no call of episode "
                       "\"%s\" made: it is skipped",
                       id, episode))
            return 1;
    }
    return 0;
}

void lrc_reset(lr_calls *c)
{
    c->n = c->nw = c->plain = 0;
    keymap *maps[] = {&c->open, &c->first_wait, &c->last_wait};
    for (size_t i = 0; i < 3; i++) {
        uint64_t s = maps[i]->seed;
        keymap_free(maps[i]);
        memset(maps[i], 0, sizeof *maps[i]);
        maps[i]->seed = s;
    }
}

void lrc_free(lr_calls *c)
{
    free(c->items);
    free(c->waiting);
    keymap_free(&c->open);
    keymap_free(&c->first_wait);
    keymap_free(&c->last_wait);
    memset(c, 0, sizeof *c);
}
