/*
 * progress: the line a long job of card keeps on a terminal: what it
 * does, how many of how many, how many a second and about how long is
 * left ("card: writing pages: 1200 of 4001, 118 a second, about 24 s
 * left"), redrawn at most four times a second on standard error and
 * cleared when the job ends.  Where standard error is not a terminal (a
 * CI log, a file) nothing is written at all.
 */
#ifndef TR_PROGRESS_H
#define TR_PROGRESS_H

#include <stddef.h>

typedef struct progress {
    int on;            /* standard error is a terminal */
    const char *what;  /* "writing pages" */
    size_t total, done;
    double began, drawn; /* seconds, monotonic */
} progress;

/* Begins a job of total steps. */
void progress_start(progress *p, const char *what, size_t total);

/* n more steps done; the line is redrawn when a quarter second passed. */
void progress_add(progress *p, size_t n);

/* Clears the line. */
void progress_end(progress *p);

#endif
