/*
 * callpairs: the calls of one episode, matched with their answers.  A
 * log keeps a call and its answer apart (an assistant message and a tool
 * message, a tool_use block and a tool_result block), tied by the call's
 * id, or by their order when the log gives no id.  A reader adds each
 * call where it finds it, answers it where it finds the answer, and
 * writes the episode's calls at its end, in order, each with its answer.
 *
 * The rules, for logs as they are written (ids reused, answers early):
 *  - No call is ever dropped: a call whose id an earlier call has (real
 *    trajectories reuse ids) is a call of its own.
 *  - An answer goes to the latest unanswered call of its id before it;
 *    calls of one id at one place (at0: one message's calls, made at
 *    once) take their answers in their order (tau2-bench gives every call
 *    the id "" and answers them in turn).
 *  - An answer of an id that no call has yet waits for its call: the
 *    first call of that id to come takes it (the earliest answer first).
 *    One still waiting when the episode is written is a problem there.
 *  - An answer of an id whose calls are all answered is a second answer:
 *    the reader says so (the first stands).
 *  - A call left without an answer is written all the same (replayed, its
 *    answer not compared), and is a problem with its place.
 * Every step costs constant time, however ids repeat.  Memory: the calls
 * and answers of one episode (pointers to the reader's values, which
 * must outlive them) and their ids.
 */
#ifndef TR_CALLPAIRS_H
#define TR_CALLPAIRS_H

#include <stddef.h>

#include "keymap.h"
#include "lines.h"
#include "value.h"

typedef struct lr_call_item {
    const value *call;   /* in one of the transcript's shapes; NULL for an
                            answer waiting for its call */
    const value *id;     /* a string, or NULL */
    const value *answer; /* NULL until answered */
    size_t at[2];        /* where it is, in its reader's terms */
    size_t link;         /* a call: the unanswered call of its id before
                            it; an answer waiting: the next one of its id */
    double duration;     /* the seconds the tool took; NAN: not logged */
    size_t tail;         /* a call on top of its id's stack: the last
                            unanswered call of its id at its at0, which
                            the next call of both goes after */
} lr_call_item;

/* Writes where a call (or a waiting answer) is, from its at, into out,
 * size bytes, for a problem: a place is written only when a problem
 * names it, never for the calls that are in order. */
typedef void (*lr_place_fn)(void *ctx, const lr_call_item *it, char *out,
                            size_t size);

typedef struct lr_calls {
    lr_call_item *items; /* the calls, in order */
    size_t n, cap;
    lr_call_item *waiting; /* answers that came before their calls */
    size_t nw, capw;
    keymap open;       /* id -> its latest unanswered call (LRC_NONE: its
                          calls are all answered) */
    keymap first_wait; /* id -> its earliest answer waiting */
    keymap last_wait;  /* id -> its latest answer waiting */
    size_t plain;      /* no call without an id before it is unanswered */
    int seeded;        /* the maps' secret seed is set (ids are input) */
    lr_place_fn place; /* NULL: no place is said */
    void *place_ctx;   /* as the reader set them */
} lr_calls;

#define LRC_NONE ((size_t)-1)

/* Adds a call (its id a string, or NULL) at (at0, at1) as c->place reads
 * them; an answer of its id that was waiting answers it.  0, or -1 out
 * of memory. */
int lrc_add(lr_calls *c, const value *call, const value *id, size_t at0,
            size_t at1);

/* Answers the latest unanswered call of that id (the first of those at
 * its at0): 0; 1 the id is no
 * string (nothing kept); 2 the calls of that id are all answered (nothing
 * kept: a second answer); 3 no call has that id yet: the answer, found
 * at (at0, at1), waits for its call; -1 out of memory. */
int lrc_answer(lr_calls *c, const value *id, const value *answer,
               size_t at0, size_t at1);

/* Answers the oldest call without an id and without an answer: 0, or 1
 * when there is none. */
int lrc_answer_next(lr_calls *c, const value *answer);

/* Writes the calls in order (lr_call); a call without an answer is
 * written all the same, and is a problem (file, its place, at most 159
 * bytes of it), and so is each answer still waiting for its call.  0, 1
 * stop, -1. */
int lrc_emit(logr *r, lrun *run, const char *episode, lr_calls *c,
             err *e);

/* Forgets the calls and answers (keeps the memory, and the place
 * function, for the next episode). */
void lrc_reset(lr_calls *c);
void lrc_free(lr_calls *c);

#endif
