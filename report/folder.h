/*
 * folder: a night's pages written into a folder (card --html --all -o
 * DIR), so that the folder holds this night's pages and no other of
 * card's, and never a half-written one.
 *
 * card's pages are known by name and content both: a file of the folder
 * named index.html, run-*.html, compare-*.html or episode-*.html (or
 * one of those with
 * ".tmp" after it: a page being written), a regular file whose first
 * bytes are HTML_PAGE_START (html.h), which every page card writes
 * begins with.  Nothing else in the folder is touched: a page is written
 * over only when it is card's, and a file of another's with a page's
 * name stops the whole run before anything is written.
 *
 * Each page is written whole to NAME.tmp beside it, then renamed over
 * NAME: a reader sees the old page or the new one, and a failure leaves
 * at most that .tmp file, which the next run removes.
 */
#ifndef TR_FOLDER_H
#define TR_FOLDER_H

#include <stddef.h>

#include "buf.h"
#include "err.h"

/* Makes dir when it is not there (not its parents). */
int folder_make(const char *dir, err *e);

/* 1 when dir/name is a page card wrote, 0 when it is not or is not
 * there (*there says which). */
int folder_is_page(const char *dir, const char *name, int *there);

/* A page's file name: prefix ("run", "compare" or "episode"), "-", a
 * part of each name made of its letters, digits and "_" (anything else a
 * "-", at most 40 bytes), joined by "-vs-" for a compare, else "-" (an
 * episode's page: its run, then its name), then "-" and 10 hex digits of the
 * SHA-256 of the names (each followed by a NUL byte), ".html": names
 * that differ get files that differ, and any name gives a file name
 * that is safe in any folder and any URL.  b is NULL for a run's page. */
void folder_page_name(buf *out, const char *prefix, const char *a,
                      const char *b);

/* Makes the page names of one night distinct, so that two runs never
 * share a page: a name that an earlier one in the array already has gets
 * "-2" before its ".html" (a third "-3", and so on), which no name of
 * folder_page_name's ends with.  Empty names (no page) are skipped.
 * -1 out of memory (a name's buffer then says failed). */
int folder_names_distinct(buf *names, size_t n);

/* Writes page to dir/name through dir/name.tmp.  ERR_IO with one line. */
int folder_write(const char *dir, const char *name, const buf *page,
                 err *e);

/* Removes card's pages of dir (and their .tmp files) that are not named
 * in keep; *removed counts the pages. */
int folder_sweep(const char *dir, char *const *keep, size_t nkeep,
                 size_t *removed, err *e);

#endif
