/*
 * epages: the episode pages of a night's report (card --html --all): the
 * episodes a run's or a compare's page links to are gathered with their
 * page names (folder_page_name "episode", run, episode: the same episode
 * always the same page), then each is written once, beside the others,
 * whole or not at all.
 */
#ifndef TR_EPAGES_H
#define TR_EPAGES_H

#include <stddef.h>

#include <sqlite3.h>

#include "buf.h"
#include "err.h"
#include "progress.h"

/* How many of a compare's flipped tasks get pages (their trials shown
 * in each run); the table lists every one, the rest unlinked. */
#define EPAGES_FLIPS 100

typedef struct epage {
    char *run, *episode;
    buf name;
} epage;

typedef struct epages {
    epage **v; /* each its own allocation: names stay where they are */
    size_t n, cap;
} epages;

#define EPAGES_INIT {NULL, 0, 0}

/* The page of the episode of run (added when new to p): its file name,
 * alive as long as p; NULL out of memory. */
const char *epages_add(epages *p, const char *run, const char *episode);

/* How many pages epages_write will write (an episode linked twice is one
 * page). */
size_t epages_count(epages *p);

/* Writes each page once into dir (which exists), each with a link back
 * to the index; *written counts them, and so does pr (when not NULL).
 * 0, or -1 with e set. */
int epages_write(epages *p, sqlite3 *db, const char *dir, size_t *written,
                 progress *pr,
                 err *e);

void epages_free(epages *p);

#endif
