/*
 * shape: the object a schema describes, as drawing builds it.
 *
 * Drawing merges an object from several schemas: the schema itself (its
 * $ref followed), every schema its allOf lists (and theirs, 8 levels
 * deep), and, where the schema has oneOf/anyOf beside properties or
 * "type": "object", the branch it drew.  Placing arguments in an answer,
 * reflecting writes and choosing the field that hands a value must see the
 * same members, or they miss every field an allOf adds (OpenAPI's
 * `Pet = allOf[NewPet, {id}]`).  This module is that one view.
 */
#ifndef TR_SHAPE_H
#define TR_SHAPE_H

#include <stddef.h>

#include "value.h"

#define SHAPE_MAX 32 /* schemas one object is merged from */

typedef struct shape {
    const value *parts[SHAPE_MAX]; /* object schemas, $refs followed */
    size_t n;
} shape;

/* Adds s and, recursively, the schemas its allOf lists ($refs followed
 * inside root) to sh, as drawing collects them. */
void shape_add(shape *sh, const value *root, const value *s);

/* The shape of an object drawn from schema: shape_add of the schema, and
 * for a oneOf/anyOf the branch that drawn conforms to (the first in the
 * list; none when drawn is NULL or conforms to none).  Where schema is a
 * bare oneOf/anyOf, the shape is that branch's.  Without members when
 * the schema describes none (an array, a string).  0, or -1 out of
 * memory. */
int shape_of(shape *sh, const value *root, const value *schema,
             const value *drawn);

/* Whether schema s (its $ref followed) describes an object by itself:
 * it has properties, or "type": "object".  Drawing merges such a schema
 * with its allOf and its oneOf/anyOf branch into one object. */
int shape_objectish(const value *s);

/* The schemas of sh that describe member name (len bytes), up to cap into
 * defs; returns how many. */
size_t shape_field(const shape *sh, const char *name, size_t len,
                   const value **defs, size_t cap);

/* The members of sh's properties one by one, each name once (the first
 * part that describes it): start with *at = 0; NULL at the end. */
const value_member *shape_next(const shape *sh, size_t *at);

#endif
