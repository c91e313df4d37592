/*
 * schema: JSON Schema as tool files use it, read from a document's value
 * tree: following local $refs, and checking a value against a schema.
 *
 * Keywords checked: type (a name or a list; "integer" accepts 2.0, as JSON
 * Schema does; a name outside the seven leaves the keyword unchecked),
 * nullable (OpenAPI 3.0: null passes whatever else the schema says), enum,
 * const, required, properties, patternProperties, additionalProperties
 * (false or a schema), minProperties/maxProperties, items (a schema, or
 * draft 4's array with additionalItems), prefixItems, minItems/maxItems,
 * uniqueItems, minLength/maxLength (in code points), pattern (see regex.h;
 * a pattern outside the subset is not checked), format (date-time, date,
 * time, email, uri, uuid, hostname, ipv4, ipv6; unknown formats pass),
 * minimum/maximum, exclusiveMinimum/exclusiveMaximum (the draft-4 booleans
 * and the later numbers), multipleOf, allOf, anyOf, oneOf, $ref, and the
 * boolean schemas true and false.  Other keywords (not, if/then/else,
 * contains, propertyNames, dependencies...) are not checked.
 *
 * $ref: only local refs ("#" or "#/..."), a JSON Pointer after percent-
 * decoding, with ~0/~1 escapes and array indexes.  A schema with a $ref
 * IS its target: members beside the $ref (which OpenAPI 3.1 and JSON
 * Schema 2019+ allow) are ignored.
 *
 * Numbers compare by exact value: 1 equals 1.0, and an integer of any size
 * orders correctly against a double (2**64 is above 1e19, 2**64 + 1 above
 * 18446744073709551616.0).  multipleOf is exact for two integers (divisor
 * up to about 1.8e18), and otherwise asks that value/multipleOf be within
 * 4 * DBL_EPSILON (relative) of an integer, the error that two
 * once-rounded decimals and a division can leave: 0.3 is a multiple of
 * 0.1, 1000000000.5 is not a multiple of 1.
 *
 * The check stops at the first rule broken and says it in one sentence,
 * naming the place: `name` for the instance itself, `argument "amount"`
 * for a member, `argument "address.city"` and `argument "tags[2]"` below
 * (when name has the form word "x", members extend it: word "x.city").
 * The sentences (P is the place):
 *   P must be a number, not a string          (also "a string or null")
 *   P is required
 *   P is not allowed here; the allowed arguments are "order_id", "channel"
 *                               ("fields" below the top; "no ... are
 *                               allowed" when none are declared)
 *   P is not allowed here                     (the schema false)
 *   P must be one of "damaged", "late", "other"   (10 shown, then ", ...")
 *   P must be "refund"                        (const, or a one-value enum)
 *   P must be at least 6 characters long      (at most; "1 character")
 *   P must match the pattern ^[A-Z]-\d{4}$
 *   P must be a valid email                   (and the other formats)
 *   P must be at least 0 / at most 100 / greater than 0 / less than 100
 *   P must be a multiple of 5
 *   P must have at least 2 items              (at most; "1 item")
 *   P must have at least 2 properties         (at most; "1 property")
 *   P must have unique items, but [0] and [2] are equal
 *   P matches none of the schemas anyOf allows       (oneOf alike)
 *   P matches 2 of the schemas oneOf allows; it must match exactly one
 * allOf reports its first failing subschema's sentence.  Values are
 * written as canonical JSON (floats as Python's repr).
 *
 * Limits: the walk follows the instance, so recursive schemas are fine.
 * A $ref that does not resolve conforms (the tool model refuses such
 * tools first); so does a schema re-entered for the same instance without
 * consuming any of it.  A check that passes 4 * VALUE_MAX_DEPTH frames or
 * 200,000 schema visits (combinators over recursive schemas can be
 * exponential), or whose pattern searches pass their budget of work
 * (REGEX_SEARCH_WORK for the whole check, see regex.h), gives up: it
 * neither conforms nor fails, it could not be checked, and says so:
 *   P could not be checked: the check stops after 200000 steps through
 *     the schema, and this value needs more; send one that nests less
 *   P could not be checked: the schema goes more than 1024 levels deep
 *     for it; send a value that nests less
 *   P could not be checked against the pattern ^[a-z]+$: the match takes
 *     more work than the check allows; send a shorter value
 * (P is the place of the string for a pattern, the instance's name
 * otherwise; a pattern is shown to 100 bytes).  Every limit is a count,
 * never a clock: the same check gives up, or not, on every machine.
 */
#ifndef TR_SCHEMA_H
#define TR_SCHEMA_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "err.h"
#include "patterns.h"
#include "value.h"

/* Follows schema's $ref chain inside root ("#/components/schemas/Order",
 * with ~0 and ~1 escapes and percent-encoding).  Returns the schema
 * reached (schema itself when it has no $ref: true, false and other
 * non-objects come back as they are), or NULL with e set (ERR_VALUE, one
 * line, the place of the $ref at fault) when a $ref is not local, names
 * nothing, or loops:
 *   $ref "#/components/schemas/Nope" names nothing in the file
 *   $ref "x.yaml#/A" points outside the file; only local refs (#/...) are
 *   followed
 *   $ref "#anchor" is not a JSON Pointer; only refs of the form #/... are
 *   followed
 *   $ref "#/definitions/A" loops back to itself
 * A NULL schema gives ERR_USAGE. */
const value *schema_deref(const value *root, const value *schema, err *e);

/* One step of schema_deref: the node that schema's own $ref names inside
 * root, or schema itself when it has no $ref; NULL when the $ref does not
 * name a node (schema_deref says why).  For a walk that visits every $ref
 * of a document once: following each chain to its end from each of its
 * nodes would cost the square of the chain's length. */
const value *schema_deref_step(const value *root, const value *schema);

/* Checks instance against schema, following $refs inside root.  Returns
 * 0 when it conforms (msg emptied), 1 when it does not (msg replaced by
 * one sentence an agent can act on, naming the place and the rule, e.g.
 *   argument "amount" must be at least 0
 * where `name` is what to call the instance: "the arguments" or
 * "argument \"amount\""; NULL means "the value"), 2 when it could not
 * be checked (a limit above; msg replaced by the sentence saying which),
 * -1 out of memory.  msg NULL asks for the verdict alone: no sentence is
 * written. */
int schema_check(const value *root, const value *schema,
                 const value *instance, const char *name, buf *msg);

/* schema_check, with the compiled patterns of root's document (the
 * toolset's: patterns.h), so that no pattern is compiled again; pt NULL
 * is schema_check. */
int schema_check_with(const value *root, const patterns *pt,
                      const value *schema, const value *instance,
                      const char *name, buf *msg);

/* JSON equality as enum, const and uniqueItems mean it: numbers by value
 * (1 equals 1.0), booleans apart from numbers, objects whatever their
 * member order; a YAML timestamp equals the string it becomes. */
int schema_equal(const value *a, const value *b);

/* Looks up a keyword of a schema object ($ref not followed).  Inline, so
 * that a literal keyword's length is known when compiling. */
static inline const value *schema_kw(const value *schema, const char *keyword)
{
    if (!schema || schema->kind != V_OBJECT)
        return NULL;
    return value_getz(schema, keyword);
}

/* The keywords the check and the draw read, by number. */
enum schema_keyword {
    SK_REF, SK_NULLABLE, SK_TYPE, SK_CONST, SK_ENUM,
    SK_MIN_LENGTH, SK_MAX_LENGTH, SK_PATTERN, SK_FORMAT,
    SK_MINIMUM, SK_MAXIMUM, SK_EXCLUSIVE_MINIMUM, SK_EXCLUSIVE_MAXIMUM,
    SK_MULTIPLE_OF,
    SK_MIN_ITEMS, SK_MAX_ITEMS, SK_UNIQUE_ITEMS, SK_PREFIX_ITEMS, SK_ITEMS,
    SK_ADDITIONAL_ITEMS,
    SK_PROPERTIES, SK_PATTERN_PROPERTIES, SK_ADDITIONAL_PROPERTIES,
    SK_REQUIRED, SK_MIN_PROPERTIES, SK_MAX_PROPERTIES,
    SK_ALL_OF, SK_ANY_OF, SK_ONE_OF,
    SK_COUNT
};

/* A schema object's keywords, found in one pass over its members. */
typedef struct schema_keywords {
    uint32_t present; /* bit id set: kw[id] holds keyword id */
    const value *kw[SK_COUNT];
} schema_keywords;

/* Fills out with schema's keywords (none when schema is not an object). */
void schema_keywords_read(schema_keywords *out, const value *schema);

/* Keyword id of what schema_keywords_read() read: what schema_kw() gives
 * for the same schema and name, NULL when absent. */
static inline const value *schema_keyword(const schema_keywords *k,
                                          enum schema_keyword id)
{
    return k->present >> id & 1 ? k->kw[id] : NULL;
}

#endif
