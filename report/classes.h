/*
 * classes: why each episode of a run ended as it did (the view
 * episode_outcomes, whose rules sql/schema.sql gives), counted per run and
 * per arm, and the tasks whose outcome flipped between two runs, each with
 * the class of a trial on each side.  Every card format takes these
 * figures, and the words for a class, from here.
 */
#ifndef TR_CLASSES_H
#define TR_CLASSES_H

#include <stddef.h>

#include <sqlite3.h>

#include "buf.h"
#include "err.h"

#define CARD_CLASSES 15

/* The classes, in the view's order of precedence: "passed", "diverged",
 * "fooled", ... "failed", "unjudged". */
extern const char *const card_class_names[CARD_CLASSES];

/* What a class means, in a few words ("a write the task did not ask
 * for"); NULL for a name that is not a class. */
const char *card_class_meaning(const char *name);

/* The static name a database's class string stands for; NULL when it is
 * none of them. */
const char *card_class_named(const char *name);

typedef struct card_class_arm {
    char *arm;
    long episodes;
} card_class_arm;

/* One class of a run's episodes. */
typedef struct card_class {
    const char *name; /* one of card_class_names */
    long episodes;
    char *example;    /* its first episode, in the order written */
    card_class_arm *arms; /* its simulated episodes by arm, in the cards'
                             order (none for observed episodes) */
    size_t narms;
} card_class;

/* Appends the class's arms as every card says them: "baddata:b1 2,
 * landed:l1 1", or "every arm, 4 each" when it has run_arms arms (the
 * run's) with one count (nothing when it has none). */
void card_class_arms_text(buf *b, const card_class *c, size_t run_arms);

/* The classes the run's episodes fall in (those with none are left
 * out), in card_class_names' order.  0, or -1 with e set. */
int card_classes_load(card_class **out, size_t *n, sqlite3 *db,
                      const char *run, err *e);
void card_classes_free(card_class *v, size_t n);

/* A task of two comparable runs whose outcome differs: its rate in A
 * (passes of its trials, or for an observed task successes of its judged
 * trials) is not its rate in B.  For each run, the trial shown is its
 * first that failed, else its first. */
typedef struct card_flip {
    char *task;
    char *arm;          /* NULL: observed */
    long n[2], c[2];    /* trials and passes (judged, successes): A, B */
    const char *cls[2]; /* the class of the trial shown (NULL: unknown) */
    char *episode[2];   /* the trial shown */
} card_flip;

typedef struct card_flips {
    card_flip *v;  /* by the size of the change, the larger first; then
                      those better in A; then by task */
    size_t n;
    long shared;   /* tasks both runs have (each measured in both) */
    long better_a; /* tasks that passed more often in A */
    long better_b; /* and in B */
} card_flips;

/* A flipped task's trials in run k (0: A, 1: B) as every card says
 * them, written into room: "1/1 passed", "0/2 fooled" (passes of trials,
 * then the class of the trial shown; "-" for a class this card does not
 * know).  Returns room. */
#define CARD_FLIP_SIDE 64
const char *card_flip_side(char room[CARD_FLIP_SIDE], const card_flip *f,
                           int k);

/* The flipped tasks of runs a and b (which the caller found comparable).
 * 0, or -1 with e set. */
int card_flips_load(card_flips *f, sqlite3 *db, const char *a,
                    const char *b, err *e);
void card_flips_free(card_flips *f);

/* How many flipped tasks text and Markdown list unless asked for all. */
#define CARD_FLIPS_SHOWN 10

#endif
