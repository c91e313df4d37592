/*
 * vbuild: building value trees by hand (answers, tasks, transcripts).
 *
 * Every constructor allocates in an arena and returns NULL when out of
 * memory; vb_put and vb_push accept a NULL value and then fail, so a
 * chain of calls needs one check at its end.  Objects and arrays grow by
 * doubling inside the arena (the old items are left to the arena), so
 * vb_put and vb_push take only containers made here (vb_object, vb_array,
 * vb_copy_object), never a loaded tree's.
 */
#ifndef TR_VBUILD_H
#define TR_VBUILD_H

#include <stddef.h>

#include "arena.h"
#include "value.h"

value *vb_str(arena *a, const char *s);
value *vb_strn(arena *a, const char *s, size_t len);
value *vb_int(arena *a, long long n);
value *vb_bool(arena *a, int b);
value *vb_object(arena *a);
value *vb_array(arena *a);

/* Sets member key of object o to v (replacing an existing member of that
 * key in place, else appending).  0, or -1 when o or v is NULL or out of
 * memory. */
int vb_put(arena *a, value *o, const char *key, value *v);
/* The same with a key value (a string). */
int vb_putv(arena *a, value *o, value *key, value *v);
/* Appends v to array arr.  0 or -1, as vb_put. */
int vb_push(arena *a, value *arr, value *v);

/* A shallow copy of object o (its members copied, values shared). */
value *vb_copy_object(arena *a, const value *o);

/* A deep copy of v in arena a (a loaded tree's shape: not for vb_put). */
value *vb_clone(arena *a, const value *v);

#endif
