/*
 * callpairs: the calls of one episode, matched with their answers.  A
 * log keeps a call and its answer apart (an assistant message and a tool
 * message, a chat span and a tool span), tied by the call's id, or by
 * their order when the log gives no id.  A reader adds each call where
 * it finds it, answers it where it finds the answer, and writes the
 * episode's calls at its end, in order, each with its answer.
 *
 * Promises: a call id given a second time is told to the reader
 * (lrc_add: 1), never joined to the first call, and so is an answer of
 * an id no call has, or of a call answered already (lrc_answer: 1, 2),
 * for the reader to say; a call left without an answer is written all
 * the same (replayed, its answer not compared), and is a problem with its
 * place.  Memory: the calls of one episode, as pointers to the reader's
 * values.
 */
#ifndef TR_CALLPAIRS_H
#define TR_CALLPAIRS_H

#include <stddef.h>

#include "lines.h"
#include "strmap.h"
#include "value.h"

typedef struct lr_call_item {
    const value *call;   /* in one of the transcript's shapes */
    const value *id;     /* a string, or NULL */
    const value *answer; /* NULL until answered */
    size_t at[2];        /* where the call is, in its reader's terms */
} lr_call_item;

/* Writes where a call is (from its at) into out, size bytes, for a
 * problem: a place is written only when a problem names it, never for
 * the calls that are in order. */
typedef void (*lr_place_fn)(void *ctx, const lr_call_item *it, char *out,
                            size_t size);

typedef struct lr_calls {
    lr_call_item *items;
    size_t n, cap;
    strmap ids;
    lr_place_fn place; /* NULL: no place is said */
    void *place_ctx;   /* as the reader set them */
} lr_calls;

/* Adds a call (its id a string, or NULL) at (at0, at1) as c->place reads
 * them; the values must outlive c.  0, 1 when the id was given to
 * another call already (not added), -1 out of memory. */
int lrc_add(lr_calls *c, const value *call, const value *id, size_t at0,
            size_t at1);

/* Answers the call of that id: 0; 1 no call has it; 2 it was answered
 * already; -1 out of memory. */
int lrc_answer(lr_calls *c, const value *id, const value *answer);

/* Answers the oldest call without an id and without an answer: 0, or 1
 * when there is none. */
int lrc_answer_next(lr_calls *c, const value *answer);

/* Writes the calls in order (lr_call); a call without an answer is
 * written all the same, and is a problem (file, its place, at most 159
 * bytes of it).  0, 1 stop, -1. */
int lrc_emit(logr *r, lrun *run, const char *episode, lr_calls *c,
             err *e);

/* Forgets the calls (keeps the memory, and the place function, for the
 * next episode). */
void lrc_reset(lr_calls *c);
void lrc_free(lr_calls *c);

#endif
