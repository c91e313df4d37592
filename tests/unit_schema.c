/*
 * Unit tests of schema: $ref resolution and the checker, one keyword at a
 * time, each with a value that passes and one that fails with its exact
 * message.  Schemas and instances are written as JSON text with single
 * quotes standing for double quotes (a literal apostrophe is \u0027), and
 * the schema is its own root for $refs unless a test says otherwise.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "json_load.h"
#include "schema.h"
#include "shape.h"
#include "unit.h"
#include "vbuild.h"
#include "yaml_load.h"

/* ------------------------------------------------------------ helpers */

/* Loads text with ' read as ". */
static value *load(arena *a, const char *text)
{
    size_t n = strlen(text);
    char *json = malloc(n + 1);
    ck_assert_ptr_nonnull(json);
    for (size_t i = 0; i <= n; i++)
        json[i] = text[i] == '\'' ? '"' : text[i];
    err e;
    err_clear(&e);
    value *v = NULL;
    int rc = json_load(&v, a, json, n, &e);
    ck_assert_msg(rc == 0, "refused %s: %s", json, e.msg);
    free(json);
    return v;
}

static value *load_yaml(arena *a, const char *text)
{
    err e;
    err_clear(&e);
    value *v = NULL;
    int rc = yaml_load(&v, a, text, strlen(text), &e);
    ck_assert_msg(rc == 0, "refused %s: %s", text, e.msg);
    return v;
}

/* Checks instance against schema under name; returns the result code and
 * a copy of the message (to free). */
static char *run(const char *schema, const char *instance, const char *name,
                 int *rc)
{
    arena *a = arena_new();
    ck_assert_ptr_nonnull(a);
    value *s = load(a, schema), *i = load(a, instance);
    buf msg = BUF_INIT;
    *rc = schema_check(s, s, i, name, &msg);
    char *copy = strdup(msg.data ? msg.data : "");
    ck_assert_ptr_nonnull(copy);
    buf_free(&msg);
    arena_free(a);
    return copy;
}

#define PASSES_AS(schema, instance, name)                                    \
    do {                                                                     \
        int rc_;                                                             \
        char *m_ = run(schema, instance, name, &rc_);                        \
        ck_assert_msg(rc_ == 0 && m_[0] == '\0',                             \
                      "%s against %s: %d \"%s\"", instance, schema, rc_,     \
                      m_);                                                   \
        free(m_);                                                            \
    } while (0)

#define FAILS_AS(schema, instance, name, expected)                           \
    do {                                                                     \
        int rc_;                                                             \
        char *m_ = run(schema, instance, name, &rc_);                        \
        ck_assert_msg(rc_ == 1, "%s against %s: %d \"%s\"", instance,        \
                      schema, rc_, m_);                                      \
        ck_assert_str_eq(m_, expected);                                      \
        free(m_);                                                            \
    } while (0)

/* The check could not decide (schema.h's limits), and says why. */
#define UNDECIDED(schema, instance, expected)                                \
    do {                                                                     \
        int rc_;                                                             \
        char *m_ = run(schema, instance, "the arguments", &rc_);             \
        ck_assert_msg(rc_ == 2, "%s against %s: %d \"%s\"", instance,        \
                      schema, rc_, m_);                                      \
        ck_assert_str_eq(m_, expected);                                      \
        free(m_);                                                            \
    } while (0)

#define PASSES(schema, instance) PASSES_AS(schema, instance, "the arguments")
#define FAILS(schema, instance, expected)                                    \
    FAILS_AS(schema, instance, "the arguments", expected)

/* Follows the $ref of the schema at the JSON Pointer-free path `at`
 * (a member of root) and returns it; NULL with e set on failure. */
static const value *deref_member(const value *root, const char *at, err *e)
{
    err_clear(e);
    return schema_deref(root, value_getz(root, at), e);
}

/* ---------------------------------------------------------------- $ref */

/* In an indexed object (value.h: a document's large objects), refs find
 * what they find in a small one: plain, escaped (~1, ~0) and percent-
 * encoded tokens, a chain through it, and nothing for a missing name. */
START_TEST(refs_into_an_indexed_object)
{
    arena *a = arena_new();
    buf text = BUF_INIT;
    ck_assert_int_eq(buf_puts(&text, "{'defs': {'a/b': {'type': 'string'},"
                                     " 'm~n': {'type': 'integer'},"
                                     " 'hop': {'$ref': '#/defs/a~1b'},"
                                     " '%': {'type': 'null'}"), 0);
    for (int i = 0; i < 100; i++)
        ck_assert_int_eq(buf_printf(&text, ", 'd%d': {'minimum': %d}", i, i),
                         0);
    ck_assert_int_eq(buf_puts(&text, "}}"), 0);
    value *root = load(a, text.data);
    ck_assert_int_eq(value_index(root, a), 0);
    const value *defs = value_getz(root, "defs");
    ck_assert(defs->flags & VF_INDEXED);
    static const struct {
        const char *ref, *target;
    } cases[] = {
        {"#/defs/a~1b", "a/b"}, {"#/defs/m~0n", "m~n"},
        {"#/defs/hop", "a/b"},  {"#/defs/%25", "%"},
        {"#/defs/d%37%37", "d77"}, {"#/defs/d99", "d99"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        value *s = vb_object(a);
        ck_assert_int_eq(vb_putv(a, s, vb_str(a, "$ref"),
                                 vb_str(a, cases[i].ref)), 0);
        err e;
        err_clear(&e);
        ck_assert_ptr_eq(schema_deref(root, s, &e),
                         value_getz(defs, cases[i].target));
    }
    value *s = vb_object(a);
    ck_assert_int_eq(vb_putv(a, s, vb_str(a, "$ref"), vb_str(a, "#/defs/d100")),
                     0);
    err e;
    err_clear(&e);
    ck_assert_ptr_null(schema_deref(root, s, &e));
    ck_assert_str_eq(e.msg, "$ref \"#/defs/d100\" names nothing in the file");
    buf_free(&text);
    arena_free(a);
}
END_TEST

START_TEST(ref_chain_is_followed)
{
    arena *a = arena_new();
    value *root = load(a, "{'start': {'$ref': '#/defs/a'},"
                          " 'defs': {'a': {'$ref': '#/defs/b'},"
                          "          'b': {'type': 'string'}}}");
    err e;
    const value *s = deref_member(root, "start", &e);
    ck_assert_ptr_eq(s, value_getz(value_getz(root, "defs"), "b"));
    /* No $ref: the schema itself. */
    const value *b = value_getz(value_getz(root, "defs"), "b");
    ck_assert_ptr_eq(schema_deref(root, b, &e), b);
    /* "#" is the whole document. */
    value *whole = load(a, "{'$ref': '#'}");
    ck_assert_ptr_null(schema_deref(whole, whole, &e));
    ck_assert_str_eq(e.msg, "$ref \"#\" loops back to itself");
    arena_free(a);
}
END_TEST

START_TEST(ref_booleans_and_non_objects_are_returned)
{
    arena *a = arena_new();
    value *t = load(a, "true"), *f = load(a, "false"), *n = load(a, "[1]");
    err e;
    err_clear(&e);
    ck_assert_ptr_eq(schema_deref(t, t, &e), t);
    ck_assert_ptr_eq(schema_deref(t, f, &e), f);
    ck_assert_ptr_eq(schema_deref(t, n, &e), n);
    /* A $ref that is not a string is no reference. */
    value *odd = load(a, "{'$ref': 5}");
    ck_assert_ptr_eq(schema_deref(odd, odd, &e), odd);
    ck_assert_int_eq(e.code, ERR_NONE);
    ck_assert_ptr_null(schema_deref(t, NULL, &e));
    ck_assert_int_eq(e.code, ERR_USAGE);
    arena_free(a);
}
END_TEST

START_TEST(ref_to_nothing)
{
    arena *a = arena_new();
    value *root = load(a, "{'s': {'$ref': '#/components/schemas/Nope'},\n"
                          " 'components': {'schemas': {'Yes': {}}},\n"
                          " 'bad_escape': {'$ref': '#/components/%zz'},\n"
                          " 'bad_tilde': {'$ref': '#/a~2b'}, 'a~2b': {}}");
    err e;
    ck_assert_ptr_null(deref_member(root, "s", &e));
    ck_assert_int_eq(e.code, ERR_VALUE);
    ck_assert_str_eq(e.msg, "$ref \"#/components/schemas/Nope\" names "
                            "nothing in the file");
    ck_assert_uint_eq(e.line, 1);
    ck_assert_uint_eq(e.col, 16);
    ck_assert_ptr_null(deref_member(root, "bad_escape", &e));
    ck_assert_str_eq(e.msg, "$ref \"#/components/%zz\" names nothing in the "
                            "file");
    ck_assert_ptr_null(deref_member(root, "bad_tilde", &e));
    ck_assert_int_eq(e.code, ERR_VALUE);
    /* A step into a scalar names nothing either. */
    value *scalar = load(a, "{'$ref': '#/x/y', 'x': 3}");
    err_clear(&e);
    ck_assert_ptr_null(schema_deref(scalar, scalar, &e));
    ck_assert_str_eq(e.msg, "$ref \"#/x/y\" names nothing in the file");
    /* Without a root nothing can be named. */
    err_clear(&e);
    ck_assert_ptr_null(schema_deref(NULL, scalar, &e));
    ck_assert_int_eq(e.code, ERR_VALUE);
    arena_free(a);
}
END_TEST

START_TEST(ref_outside_the_file)
{
    arena *a = arena_new();
    value *root = load(a, "{'file': {'$ref': 'x.yaml#/A'},"
                          " 'web': {'$ref': 'http://example.com/s.json'},"
                          " 'anchor': {'$ref': '#foo'}}");
    err e;
    ck_assert_ptr_null(deref_member(root, "file", &e));
    ck_assert_int_eq(e.code, ERR_VALUE);
    ck_assert_str_eq(e.msg, "$ref \"x.yaml#/A\" points outside the file; "
                            "only local refs (#/...) are followed");
    ck_assert_ptr_null(deref_member(root, "web", &e));
    ck_assert_str_eq(e.msg, "$ref \"http://example.com/s.json\" points "
                            "outside the file; only local refs (#/...) are "
                            "followed");
    ck_assert_ptr_null(deref_member(root, "anchor", &e));
    ck_assert_str_eq(e.msg, "$ref \"#foo\" is not a JSON Pointer; only refs "
                            "of the form #/... are followed");
    arena_free(a);
}
END_TEST

START_TEST(ref_loops)
{
    arena *a = arena_new();
    value *root = load(a, "{'self': {'$ref': '#/definitions/A'},"
                          " 'pair': {'$ref': '#/definitions/B'},"
                          " 'definitions': {"
                          "   'A': {'$ref': '#/definitions/A'},"
                          "   'B': {'$ref': '#/definitions/C'},"
                          "   'C': {'$ref': '#/definitions/B'}}}");
    err e;
    ck_assert_ptr_null(deref_member(root, "self", &e));
    ck_assert_int_eq(e.code, ERR_VALUE);
    ck_assert_str_eq(e.msg, "$ref \"#/definitions/A\" loops back to itself");
    ck_assert_ptr_null(deref_member(root, "pair", &e));
    ck_assert_int_eq(e.code, ERR_VALUE);
    ck_assert_ptr_nonnull(strstr(e.msg, "loops back to itself"));
    arena_free(a);
}
END_TEST

START_TEST(ref_escapes_and_indexes)
{
    arena *a = arena_new();
    value *root = load(a, "{'tilde': {'$ref': '#/d/a~1b~0c'},"
                          " 'percent': {'$ref': '#/d/with%20space'},"
                          " 'both': {'$ref': '#/d/a%7E1b%7E0c'},"
                          " 'slash': {'$ref': '#/d%2Fwith%20space'},"
                          " 'index': {'$ref': '#/list/1'},"
                          " 'zero': {'$ref': '#/list/01'},"
                          " 'past': {'$ref': '#/list/2'},"
                          " 'dash': {'$ref': '#/list/-'},"
                          " 'empty': {'$ref': '#/'},"
                          " '': {'const': 'empty key'},"
                          " 'list': [{'const': 0}, {'const': 1}],"
                          " 'd': {'a/b~c': {'const': 'x'},"
                          "       'with space': {'const': 'y'}}}");
    const value *d = value_getz(root, "d");
    const value *list = value_getz(root, "list");
    err e;
    ck_assert_ptr_eq(deref_member(root, "tilde", &e), value_getz(d, "a/b~c"));
    ck_assert_ptr_eq(deref_member(root, "percent", &e),
                     value_getz(d, "with space"));
    /* Percent-decoding comes first: %7E1 is ~1, %2F separates tokens. */
    ck_assert_ptr_eq(deref_member(root, "both", &e), value_getz(d, "a/b~c"));
    ck_assert_ptr_eq(deref_member(root, "slash", &e),
                     value_getz(d, "with space"));
    ck_assert_ptr_eq(deref_member(root, "index", &e), list->u.arr.items[1]);
    ck_assert_ptr_null(deref_member(root, "zero", &e));
    ck_assert_ptr_null(deref_member(root, "past", &e));
    ck_assert_ptr_null(deref_member(root, "dash", &e));
    ck_assert_ptr_eq(deref_member(root, "empty", &e), value_getz(root, ""));
    arena_free(a);
}
END_TEST

START_TEST(ref_odd_pointers)
{
    arena *a = arena_new();
    value *root = load(a, "{'huge': {'$ref': '#/list/99999999999999999999999'},"
                          " 'minus': {'$ref': '#/list/-1'},"
                          " 'list': [{}]}");
    err e;
    ck_assert_ptr_null(deref_member(root, "huge", &e));
    ck_assert_int_eq(e.code, ERR_VALUE);
    ck_assert_ptr_null(deref_member(root, "minus", &e));
    ck_assert_int_eq(e.code, ERR_VALUE);
    /* "#" with no document to point into */
    value *whole = load(a, "{'$ref': '#'}");
    err_clear(&e);
    ck_assert_ptr_null(schema_deref(NULL, whole, &e));
    ck_assert_str_eq(e.msg, "$ref \"#\" names nothing in the file");
    arena_free(a);
}
END_TEST

START_TEST(ref_into_yaml_keys_that_are_not_strings)
{
    /* PyYAML reads 200 and yes as an int and a bool; as JSON they are the
     * keys "200" and "true", and a pointer names them so. */
    arena *a = arena_new();
    value *root = load_yaml(a, "responses:\n"
                               "  200: {schema: {type: string}}\n"
                               "  yes: {schema: {type: integer}}\n"
                               "  1.5: {schema: {type: boolean}}\n"
                               "  ~: {schema: {type: 'null'}}\n"
                               "ok: {$ref: '#/responses/200/schema'}\n"
                               "flag: {$ref: '#/responses/true/schema'}\n"
                               "half: {$ref: '#/responses/1.5/schema'}\n"
                               "none: {$ref: '#/responses/null/schema'}\n");
    err e;
    const value *s = deref_member(root, "ok", &e);
    ck_assert_ptr_nonnull(s);
    ck_assert_str_eq(value_getz(s, "type")->u.str.ptr, "string");
    s = deref_member(root, "flag", &e);
    ck_assert_ptr_nonnull(s);
    ck_assert_str_eq(value_getz(s, "type")->u.str.ptr, "integer");
    s = deref_member(root, "half", &e);
    ck_assert_ptr_nonnull(s);
    ck_assert_str_eq(value_getz(s, "type")->u.str.ptr, "boolean");
    s = deref_member(root, "none", &e);
    ck_assert_ptr_nonnull(s);
    ck_assert_str_eq(value_getz(s, "type")->u.str.ptr, "null");
    arena_free(a);
}
END_TEST

START_TEST(ref_cut_keeps_characters_whole)
{
    /* 199 bytes of "#/x..." then a 2-byte character across the cut */
    arena *a = arena_new();
    char text[300];
    size_t n = 0;
    memcpy(text, "{'$ref': '#/", 12);
    n = 12;
    memset(text + n, 'x', 197);
    n += 197;
    memcpy(text + n, "\xc3\xa9\xc3\xa9'}", 7);
    value *root = load(a, text);
    err e;
    err_clear(&e);
    ck_assert_ptr_null(schema_deref(root, root, &e));
    ck_assert_ptr_nonnull(strstr(e.msg, "xx...\" names nothing"));
    ck_assert_ptr_null(strstr(e.msg, "\xc3"));
    arena_free(a);
}
END_TEST

START_TEST(ref_siblings_are_ignored)
{
    /* The $ref target is the schema; minLength beside it does not count. */
    const char *s = "{'$ref': '#/$defs/S', 'minLength': 5,"
                    " '$defs': {'S': {'type': 'string'}}}";
    PASSES(s, "'ab'");
    FAILS(s, "1", "the arguments must be a string, not an integer");
}
END_TEST

START_TEST(ref_long_text_is_cut_in_messages)
{
    arena *a = arena_new();
    char text[400];
    memset(text, 'x', sizeof text);
    memcpy(text, "{'$ref': '#/", 12);
    memcpy(text + sizeof text - 3, "'}", 3);
    value *root = load(a, text);
    err e;
    err_clear(&e);
    ck_assert_ptr_null(schema_deref(root, root, &e));
    ck_assert_int_eq(strncmp(e.msg, "$ref \"#/xxx", 11), 0);
    ck_assert_ptr_nonnull(strstr(e.msg, "xxx...\" names nothing in the file"));
    arena_free(a);
}
END_TEST

/* ------------------------------------------------------------- type */

START_TEST(type_single)
{
    PASSES("{'type': 'string'}", "'a'");
    FAILS("{'properties': {'amount': {'type': 'number'}}}",
          "{'amount': '5'}",
          "argument \"amount\" must be a number, not a string");
    PASSES("{'type': 'number'}", "1.5");
    PASSES("{'type': 'number'}", "-7");
    FAILS("{'type': 'number'}", "true",
          "the arguments must be a number, not a boolean");
    PASSES("{'type': 'boolean'}", "false");
    FAILS("{'type': 'boolean'}", "0",
          "the arguments must be a boolean, not an integer");
    PASSES("{'type': 'object'}", "{}");
    FAILS("{'type': 'object'}", "[]",
          "the arguments must be an object, not an array");
    PASSES("{'type': 'array'}", "[]");
    FAILS("{'type': 'array'}", "{}",
          "the arguments must be an array, not an object");
    PASSES("{'type': 'null'}", "null");
    FAILS("{'type': 'string'}", "null",
          "the arguments must be a string, not null");
    FAILS("{'type': 'null'}", "'x'",
          "the arguments must be null, not a string");
    /* A name JSON Schema does not know leaves the keyword unchecked. */
    PASSES("{'type': 'file'}", "3");
}
END_TEST

START_TEST(type_integer_accepts_integral_floats)
{
    PASSES("{'type': 'integer'}", "2");
    PASSES("{'type': 'integer'}", "2.0");
    PASSES("{'type': 'integer'}", "-0.0");
    PASSES("{'type': 'integer'}", "1e300");
    FAILS("{'type': 'integer'}", "2.5",
          "the arguments must be an integer, not a number");
    FAILS("{'type': 'integer'}", "'2'",
          "the arguments must be an integer, not a string");
}
END_TEST

START_TEST(type_lists)
{
    const char *s = "{'type': ['string', 'null']}";
    PASSES(s, "'a'");
    PASSES(s, "null");
    FAILS(s, "3", "the arguments must be a string or null, not an integer");
    FAILS("{'type': ['string', 'integer', 'null']}", "[]",
          "the arguments must be a string, an integer or null, not an array");
    PASSES("{'type': ['string', 'integer']}", "4.0");
    PASSES("{'type': []}", "4");
    PASSES("{'type': ['string', 'file']}", "4");
    PASSES("{'type': ['string', 7]}", "4");
    PASSES("{'type': 7}", "4");
}
END_TEST

START_TEST(nullable_lets_null_pass)
{
    PASSES("{'type': 'string', 'nullable': true}", "null");
    PASSES("{'type': 'string', 'nullable': true, 'enum': ['a']}", "null");
    FAILS("{'type': 'string', 'nullable': true}", "1",
          "the arguments must be a string, not an integer");
    FAILS("{'type': 'string', 'nullable': false}", "null",
          "the arguments must be a string, not null");
}
END_TEST

/* ------------------------------------------------------ objects */

START_TEST(required_members)
{
    const char *s = "{'type': 'object', 'required': ['order_id'],"
                    " 'properties': {'order_id': {'type': 'string'}}}";
    PASSES(s, "{'order_id': 'A1'}");
    FAILS(s, "{}", "argument \"order_id\" is required");
    const char *nested =
        "{'properties': {'address': {'type': 'object',"
        " 'required': ['street', 'city']}}}";
    PASSES(nested, "{'address': {'street': 'x', 'city': 'y'}}");
    FAILS(nested, "{'address': {'street': 'x'}}",
          "argument \"address.city\" is required");
    /* required only speaks of objects. */
    PASSES("{'required': ['a']}", "'text'");
}
END_TEST

START_TEST(additional_properties_false)
{
    const char *s = "{'type': 'object', 'additionalProperties': false,"
                    " 'properties': {'order_id': {}, 'channel': {}}}";
    PASSES(s, "{'order_id': 1, 'channel': 2}");
    FAILS(s, "{'order_id': 1, 'colour': 'red'}",
          "argument \"colour\" is not allowed here; the allowed arguments "
          "are \"order_id\", \"channel\"");
    const char *nested =
        "{'properties': {'address': {'additionalProperties': false,"
        " 'properties': {'city': {}, 'zip': {}}}}}";
    FAILS(nested, "{'address': {'city': 'x', 'street': 'y'}}",
          "argument \"address.street\" is not allowed here; the allowed "
          "fields are \"city\", \"zip\"");
    FAILS("{'additionalProperties': false}", "{'a': 1}",
          "argument \"a\" is not allowed here; no arguments are allowed");
    /* A name the schema does not know beats a missing one. */
    FAILS("{'additionalProperties': false, 'required': ['color'],"
          " 'properties': {'color': {}}}",
          "{'colour': 'red'}",
          "argument \"colour\" is not allowed here; the allowed arguments "
          "are \"color\"");
    /* false reached through a $ref is false too. */
    FAILS("{'additionalProperties': {'$ref': '#/$defs/no'},"
          " '$defs': {'no': false}}",
          "{'a': 1}",
          "argument \"a\" is not allowed here; no arguments are allowed");
}
END_TEST

START_TEST(pattern_properties)
{
    const char *s = "{'properties': {'a': {}},"
                    " 'patternProperties': {'^x-': {'type': 'string'}},"
                    " 'additionalProperties': false}";
    PASSES(s, "{'a': 1, 'x-b': 's'}");
    FAILS(s, "{'x-b': 1}", "argument \"x-b\" must be a string, not an integer");
    FAILS(s, "{'c': 1}",
          "argument \"c\" is not allowed here; the allowed arguments are "
          "\"a\", or names matching ^x-");
    FAILS("{'patternProperties': {'^x-': {}, '^y-': {}},"
          " 'additionalProperties': false}",
          "{'z': 1}",
          "argument \"z\" is not allowed here; the allowed arguments are "
          "names matching ^x-, or names matching ^y-");
    /* A member both named and matched is held to both schemas. */
    FAILS("{'properties': {'x-a': {'minLength': 2}},"
          " 'patternProperties': {'^x-': {'maxLength': 2}}}",
          "{'x-a': 'abc'}",
          "argument \"x-a\" must be at most 2 characters long");
    /* A pattern outside the subset may name anything. */
    PASSES("{'patternProperties': {'(?=a)': {'type': 'string'}},"
           " 'additionalProperties': false}",
           "{'zz': 1}");
    /* Malformed keywords are not checked. */
    PASSES("{'properties': [1], 'patternProperties': 3,"
           " 'additionalProperties': false}",
           "{}");
}
END_TEST

START_TEST(allowed_names_are_listed_up_to_fifty)
{
    buf s = BUF_INIT, want = BUF_INIT;
    ck_assert_int_eq(buf_puts(&s, "{'additionalProperties': false, "
                                  "'properties': {"),
                     0);
    ck_assert_int_eq(buf_puts(&want, "argument \"zz\" is not allowed "
                                     "here; the allowed arguments are "),
                     0);
    for (int i = 0; i < 60; i++) {
        ck_assert_int_eq(buf_printf(&s, "%s'p%d': {}", i ? ", " : "", i), 0);
        if (i < 50)
            ck_assert_int_eq(
                buf_printf(&want, "%s\"p%d\"", i ? ", " : "", i), 0);
    }
    ck_assert_int_eq(buf_puts(&s, "}}"), 0);
    ck_assert_int_eq(buf_puts(&want, ", ..."), 0);
    FAILS(s.data, "{'zz': 1}", want.data);
    buf_free(&s);
    buf_free(&want);
}
END_TEST

START_TEST(additional_properties_schema)
{
    const char *s = "{'properties': {'name': {'type': 'string'}},"
                    " 'additionalProperties': {'type': 'integer'}}";
    PASSES(s, "{'name': 'x', 'a': 1, 'b': 2}");
    FAILS(s, "{'name': 'x', 'a': 'one'}",
          "argument \"a\" must be an integer, not a string");
    /* The declared member is not held to the additional schema. */
    FAILS(s, "{'name': 3}", "argument \"name\" must be a string, not an "
                            "integer");
    PASSES("{'additionalProperties': true}", "{'a': 1}");
}
END_TEST

START_TEST(property_counts)
{
    PASSES("{'minProperties': 1}", "{'a': 1}");
    FAILS("{'minProperties': 1}", "{}",
          "the arguments must have at least 1 property");
    FAILS("{'minProperties': 2}", "{'a': 1}",
          "the arguments must have at least 2 properties");
    PASSES("{'maxProperties': 1}", "{'a': 1}");
    FAILS("{'maxProperties': 1}", "{'a': 1, 'b': 2}",
          "the arguments must have at most 1 property");
}
END_TEST

START_TEST(nested_paths)
{
    const char *s =
        "{'properties': {'order': {'properties': {'lines': {'items':"
        " {'properties': {'qty': {'type': 'integer', 'minimum': 1}}}}}}}}";
    PASSES(s, "{'order': {'lines': [{'qty': 1}, {'qty': 2}]}}");
    FAILS(s, "{'order': {'lines': [{'qty': 1}, {'qty': 2}, {'qty': 0}]}}",
          "argument \"order.lines[2].qty\" must be at least 1");
    FAILS("{'items': {'type': 'string'}}", "['a', 1]",
          "argument \"[1]\" must be a string, not an integer");
    FAILS("{'properties': {'': {'type': 'string'}}}", "{'': 1}",
          "argument \"\" must be a string, not an integer");
    /* Names are written as JSON strings, so the sentence stays one line. */
    FAILS("{'properties': {'a\\\"b\\n': {'type': 'string'}}}",
          "{'a\\\"b\\n': 1}",
          "argument \"a\\\"b\\n\" must be a string, not an integer");
}
END_TEST

START_TEST(names_extend_a_quoted_place)
{
    const char *s = "{'properties': {'city': {'type': 'string'}, 'zip': {}},"
                    " 'required': ['zip'], 'additionalProperties': false}";
    FAILS_AS(s, "{'city': 1, 'zip': 'z'}", "argument \"address\"",
             "argument \"address.city\" must be a string, not an integer");
    FAILS_AS(s, "{'city': 'x'}", "argument \"address\"",
             "argument \"address.zip\" is required");
    FAILS_AS(s, "{'town': 'x'}", "argument \"address\"",
             "argument \"address.town\" is not allowed here; the allowed "
             "fields are \"city\", \"zip\"");
    FAILS_AS("{'items': {'type': 'string'}}", "[1]", "argument \"tags\"",
             "argument \"tags[0]\" must be a string, not an integer");
    FAILS_AS("{'type': 'string'}", "1", "argument \"tags\"",
             "argument \"tags\" must be a string, not an integer");
    /* Any other name is the top level only. */
    FAILS_AS("{'properties': {'a': {'type': 'string'}}}", "{'a': 1}",
             "the answer", "argument \"a\" must be a string, not an integer");
    FAILS_AS("{'type': 'string'}", "1", NULL,
             "the value must be a string, not an integer");
}
END_TEST

/* ------------------------------------------------------ enum, const */

START_TEST(enum_values)
{
    const char *s = "{'properties': {'reason':"
                    " {'enum': ['damaged', 'late', 'other']}}}";
    PASSES(s, "{'reason': 'late'}");
    FAILS(s, "{'reason': 'lost'}",
          "argument \"reason\" must be one of \"damaged\", \"late\", "
          "\"other\"");
    /* Numbers by value, booleans apart from numbers. */
    PASSES("{'enum': [1, 2]}", "1.0");
    FAILS("{'enum': [1, 2.5, null, true, {'b': 1, 'a': [1]}]}", "false",
          "the arguments must be one of 1, 2.5, null, true, "
          "{\"a\":[1],\"b\":1}");
    PASSES("{'enum': [{'b': 1, 'a': [1]}]}", "{'a': [1.0], 'b': 1}");
    FAILS("{'enum': [{'a': 1}, [1, 2]]}", "{'b': 1}",
          "the arguments must be one of {\"a\":1}, [1,2]");
    FAILS("{'enum': [{'a': 1}, [1, 2]]}", "[1, 3]",
          "the arguments must be one of {\"a\":1}, [1,2]");
    FAILS("{'enum': [{'a': 1}, [1, 2]]}", "[1]",
          "the arguments must be one of {\"a\":1}, [1,2]");
    FAILS("{'enum': [{'a': 1}, [1, 2]]}", "{'a': 1, 'b': 2}",
          "the arguments must be one of {\"a\":1}, [1,2]");
    PASSES("{'enum': []}", "1");
    FAILS("{'enum': [0,1,2,3,4,5,6,7,8,9,10,11]}", "12",
          "the arguments must be one of 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, ...");
    FAILS("{'enum': ['only']}", "'other'",
          "the arguments must be \"only\"");
    FAILS("{'enum': [1e-05, 100000.0]}", "1",
          "the arguments must be one of 1e-05, 100000.0");
}
END_TEST

START_TEST(yaml_values_in_schemas)
{
    arena *a = arena_new();
    value *s = load_yaml(a, "properties:\n"
                            "  yes: {type: string}\n"
                            "  day: {enum: [2026-10-26, 2026-10-27]}\n"
                            "  blob: {enum: [!!binary aGk=]}\n");
    value *ok = load(a, "{'true': 'x', 'day': '2026-10-26'}");
    value *bad_key = load(a, "{'true': 1}");
    value *bad_day = load(a, "{'day': '2026-10-28'}");
    value *bad_blob = load(a, "{'blob': 'hi'}");
    buf msg = BUF_INIT;
    ck_assert_int_eq(schema_check(s, s, ok, "the arguments", &msg), 0);
    ck_assert_int_eq(schema_check(s, s, bad_key, "the arguments", &msg), 1);
    ck_assert_str_eq(msg.data,
                     "argument \"true\" must be a string, not an integer");
    ck_assert_int_eq(schema_check(s, s, bad_day, "the arguments", &msg), 1);
    ck_assert_str_eq(msg.data, "argument \"day\" must be one of "
                               "\"2026-10-26\", \"2026-10-27\"");
    ck_assert_int_eq(schema_check(s, s, bad_blob, "the arguments", &msg), 1);
    ck_assert_str_eq(msg.data, "argument \"blob\" must be (a value JSON "
                               "cannot carry)");
    /* A YAML date is a string to type and format. */
    value *date = load_yaml(a, "2026-10-26");
    value *tschema = load(a, "{'type': 'string', 'format': 'date'}");
    ck_assert_int_eq(schema_check(tschema, tschema, date, "the date", &msg),
                     0);
    /* Binary data is no JSON type. */
    value *blob = load_yaml(a, "!!binary aGk=");
    ck_assert_int_eq(schema_check(tschema, tschema, blob, "the blob", &msg),
                     1);
    ck_assert_str_eq(msg.data,
                     "the blob must be a string, not a value JSON cannot "
                     "carry");
    value *any = load(a, "{'enum': [1]}");
    ck_assert_int_eq(schema_check(any, any, blob, "the blob", &msg), 1);
    /* Binary data equals nothing, itself included. */
    value *blobs = load_yaml(a, "enum: [!!binary aGk=]");
    ck_assert_int_eq(schema_check(blobs, blobs, blob, "the blob", &msg), 1);
    /* A key with no JSON text (.inf) is neither allowed nor pointed at. */
    value *inf = load_yaml(a, "properties: {.inf: {}, a: {}}\n"
                              "additionalProperties: false\n"
                              "x: {$ref: '#/properties/inf'}\n");
    value *extra = load(a, "{'b': 1}");
    ck_assert_int_eq(schema_check(inf, inf, extra, "the arguments", &msg), 1);
    ck_assert_str_eq(msg.data, "argument \"b\" is not allowed here; the "
                               "allowed arguments are \"a\"");
    err e;
    err_clear(&e);
    ck_assert_ptr_null(schema_deref(inf, value_getz(inf, "x"), &e));
    ck_assert_int_eq(e.code, ERR_VALUE);
    buf_free(&msg);
    arena_free(a);
}
END_TEST

START_TEST(const_value)
{
    const char *s = "{'properties': {'kind': {'const': 'refund'}}}";
    PASSES(s, "{'kind': 'refund'}");
    FAILS(s, "{'kind': 'refunds'}", "argument \"kind\" must be \"refund\"");
    PASSES("{'const': [1, {'x': null}]}", "[1.0, {'x': null}]");
    FAILS("{'const': [1, {'x': null}]}", "[1, {'x': 0}]",
          "the arguments must be [1,{\"x\":null}]");
    FAILS("{'const': 1}", "true", "the arguments must be 1");
    FAILS("{'const': null}", "0", "the arguments must be null");
}
END_TEST

/* ------------------------------------------------------------ strings */

START_TEST(string_lengths_count_code_points)
{
    const char *s = "{'properties': {'order_id':"
                    " {'minLength': 6, 'maxLength': 6}}}";
    PASSES(s, "{'order_id': 'ABC123'}");
    /* six code points in more than six bytes */
    PASSES(s, "{'order_id': '\xc3\xa9\xc3\xa9\xc3\xa9\xf0\x9f\x98\x80xy'}");
    FAILS(s, "{'order_id': 'ABC12'}",
          "argument \"order_id\" must be at least 6 characters long");
    FAILS(s, "{'order_id': 'ABC1234'}",
          "argument \"order_id\" must be at most 6 characters long");
    FAILS("{'minLength': 1}", "''",
          "the arguments must be at least 1 character long");
    FAILS("{'maxLength': 2.0}", "'abc'",
          "the arguments must be at most 2 characters long");
    /* malformed lengths are not checked */
    PASSES("{'minLength': -1, 'maxLength': 'x'}", "''");
    PASSES("{'minLength': 1.5}", "''");
    /* lengths only speak of strings */
    PASSES("{'minLength': 3}", "1");
}
END_TEST

START_TEST(string_pattern)
{
    const char *s = "{'properties': {'code':"
                    " {'pattern': '^[A-Z]-\\\\d{4}$'}}}";
    PASSES(s, "{'code': 'A-1234'}");
    FAILS(s, "{'code': 'A-123'}",
          "argument \"code\" must match the pattern ^[A-Z]-\\d{4}$");
    /* Searched, not anchored, unless the pattern says so. */
    PASSES("{'pattern': 'b+'}", "'abbc'");
    FAILS("{'pattern': 'b+'}", "'ac'",
          "the arguments must match the pattern b+");
    /* A pattern outside the supported subset is not checked. */
    PASSES("{'pattern': '^(?=x)y'}", "'anything'");
    PASSES("{'pattern': '(a)\\\\1'}", "'b'");
}
END_TEST

static void format_case(const char *format, const char *good,
                        const char *bad, const char *message)
{
    char schema[128], in_good[256], in_bad[256];
    snprintf(schema, sizeof schema, "{'format': '%s'}", format);
    snprintf(in_good, sizeof in_good, "'%s'", good);
    snprintf(in_bad, sizeof in_bad, "'%s'", bad);
    PASSES(schema, in_good);
    FAILS(schema, in_bad, message);
}

static void format_rejects(const char *format, const char *bad)
{
    char schema[128], in_bad[512];
    snprintf(schema, sizeof schema, "{'format': '%s'}", format);
    snprintf(in_bad, sizeof in_bad, "'%s'", bad);
    int rc;
    char *m = run(schema, in_bad, "the arguments", &rc);
    ck_assert_msg(rc == 1, "%s should not be a valid %s", bad, format);
    free(m);
}

static void format_accepts(const char *format, const char *good)
{
    char schema[128], in_good[512];
    snprintf(schema, sizeof schema, "{'format': '%s'}", format);
    snprintf(in_good, sizeof in_good, "'%s'", good);
    int rc;
    char *m = run(schema, in_good, "the arguments", &rc);
    ck_assert_msg(rc == 0, "%s should be a valid %s: %s", good, format, m);
    free(m);
}

START_TEST(format_date_time)
{
    format_case("date-time", "2026-10-26T09:00:00Z", "2026-10-26 09:00:00Z",
                "the arguments must be a valid date-time (RFC 3339, like "
                "2026-10-26T09:00:00Z)");
    format_accepts("date-time", "2026-10-26T09:00:00.123+02:00");
    format_accepts("date-time", "2024-02-29t23:59:59z");
    format_accepts("date-time", "1998-12-31T23:59:60Z");
    format_accepts("date-time", "1998-12-31T15:59:60-08:00");
    format_rejects("date-time", "1998-12-31T22:59:60Z");
    format_rejects("date-time", "2023-02-29T00:00:00Z");
    format_rejects("date-time", "2100-02-29T00:00:00Z");
    format_accepts("date-time", "2000-02-29T00:00:00Z");
    format_rejects("date-time", "2026-04-31T00:00:00Z");
    format_rejects("date-time", "2026-13-01T00:00:00Z");
    format_rejects("date-time", "2026-10-26T24:00:00Z");
    format_rejects("date-time", "2026-10-26T09:00:00");
    format_rejects("date-time", "2026-10-26T09:00:00.Z");
    format_rejects("date-time", "2026-10-26T09:00:00+2:00");
    format_rejects("date-time", "2026-10-26T09:00:00+24:00");
    format_rejects("date-time", "2026-10-26");
    format_rejects("date-time", "");
}
END_TEST

START_TEST(format_date_and_time)
{
    format_case("date", "2026-10-26", "2026-10-32",
                "the arguments must be a valid date (like 2026-10-26)");
    format_rejects("date", "2026-1-26");
    format_rejects("date", "2026-10-26T00:00:00Z");
    format_rejects("date", "2026-00-10");
    format_rejects("date", "2026-1a-26");
    format_rejects("time", "09:00:00.5");
    format_rejects("time", "09:00:00Zx");
    format_rejects("time", "09:00:00X");
    format_case("time", "09:00:00Z", "09:00",
                "the arguments must be a valid time (like 09:00:00Z)");
    format_accepts("time", "23:59:59.5-05:30");
    format_rejects("time", "09:00:00");
    format_rejects("time", "09:60:00Z");
}
END_TEST

START_TEST(format_email_uri_uuid)
{
    format_case("email", "ann.lee+tag@example.co.uk", "ann@localhost",
                "the arguments must be a valid email");
    format_accepts("email", "o\\u0027neil@example.com");
    format_rejects("email", "ann lee@example.com");
    format_rejects("email", ".ann@example.com");
    format_rejects("email", "ann..lee@example.com");
    format_rejects("email", "ann@@example.com");
    format_rejects("email", "@example.com");
    format_rejects("email", "ann@-example.com");
    format_rejects("email", "ann@example..com");
    format_rejects("email", "ann.example.com");
    format_rejects("email", "an\\u0000n@example.com");
    format_case("uri", "https://example.com/a?b=c%20d#e", "example.com/a",
                "the arguments must be a valid uri");
    format_accepts("uri", "urn:isbn:0451450523");
    format_accepts("uri", "mailto:ann@example.com");
    format_rejects("uri", "https://example.com/a b");
    format_rejects("uri", "https://example.com/%zz");
    format_rejects("uri", "1http://example.com");
    format_rejects("uri", "://example.com");
    format_case("uuid", "123e4567-e89b-12d3-A456-426614174000",
                "123e4567e89b12d3a456426614174000",
                "the arguments must be a valid uuid");
    format_rejects("uuid", "123e4567-e89b-12d3-a456-42661417400g");
    format_rejects("uuid", "123e4567-e89b-12d3-a456-4266141740001");
    format_rejects("uuid", "123e4567xe89b-12d3-a456-426614174000");
}
END_TEST

START_TEST(format_hosts_and_addresses)
{
    format_case("hostname", "api.example.com", "-bad.example.com",
                "the arguments must be a valid hostname");
    format_accepts("hostname", "localhost");
    format_accepts("hostname", "xn--bcher-kva.example");
    format_rejects("hostname", "bad-.example.com");
    format_rejects("hostname", "a..b");
    format_rejects("hostname", "example.com.");
    format_rejects("hostname", "under_score.com");
    format_rejects("hostname", "");
    char name[300];
    memset(name, 'a', 63);
    strcpy(name + 63, ".com");
    format_accepts("hostname", name);
    memset(name, 'a', 64);
    strcpy(name + 64, ".com");
    format_rejects("hostname", name);
    /* 253 bytes in all: four labels of 63 and a dot between each, and one
     * more byte is too many. */
    for (int i = 0; i < 4; i++) {
        memset(name + 64 * i, 'b', 63);
        name[64 * i + 63] = '.';
    }
    name[253] = '\0';
    ck_assert_uint_eq(strlen(name), 253);
    name[252] = 'b';
    format_accepts("hostname", name);
    name[253] = 'b';
    name[254] = '\0';
    format_rejects("hostname", name);
    format_case("ipv4", "192.168.0.1", "192.168.0.256",
                "the arguments must be a valid ipv4 address");
    format_accepts("ipv4", "0.0.0.0");
    format_rejects("ipv4", "192.168.01.1");
    format_rejects("ipv4", "1.2.3");
    format_rejects("ipv4", "1.2.3.4.5");
    format_rejects("ipv4", "1.2.3.");
    format_rejects("ipv4", "1.2.3.1000");
    format_case("ipv6", "2001:db8::8a2e:370:7334", "2001:db8:::1",
                "the arguments must be a valid ipv6 address");
    format_accepts("ipv6", "::");
    format_accepts("ipv6", "::1");
    format_accepts("ipv6", "1::");
    format_accepts("ipv6", "1:2:3:4:5:6:7:8");
    format_accepts("ipv6", "::ffff:192.0.2.1");
    format_accepts("ipv6", "1:2:3:4:5:6:1.2.3.4");
    format_rejects("ipv6", "1:2:3:4:5:6:7");
    format_rejects("ipv6", "1:2:3:4:5:6:7:8:9");
    format_rejects("ipv6", "1::2::3");
    format_rejects("ipv6", "1:2:3:4:5:6:7::8");
    format_rejects("ipv6", "12345::");
    format_rejects("ipv6", ":1:2:3:4:5:6:7");
    format_rejects("ipv6", "1:2:3:4:5:6:7:");
    format_rejects("ipv6", "::1.2.3.4:5");
    format_rejects("ipv6", "fe80::1%eth0");
    format_rejects("ipv6", "1.2.3.4");
    format_rejects("ipv6", "1:2:3:4:5:6:7:zz");
    format_rejects("ipv6", "");
}
END_TEST

START_TEST(format_unknown_and_non_strings)
{
    PASSES("{'format': 'credit-card'}", "'nope'");
    PASSES("{'format': 'email'}", "42");
}
END_TEST

/* ------------------------------------------------------------ numbers */

START_TEST(number_bounds)
{
    const char *s = "{'properties': {'amount':"
                    " {'minimum': 0, 'maximum': 100}}}";
    PASSES(s, "{'amount': 0}");
    PASSES(s, "{'amount': 100.0}");
    FAILS(s, "{'amount': -5}", "argument \"amount\" must be at least 0");
    FAILS(s, "{'amount': -0.5}", "argument \"amount\" must be at least 0");
    FAILS(s, "{'amount': 100.5}", "argument \"amount\" must be at most 100");
    FAILS("{'minimum': 0.5}", "0", "the arguments must be at least 0.5");
    /* bounds only speak of numbers */
    PASSES("{'minimum': 5}", "'3'");
}
END_TEST

START_TEST(number_exclusive_bounds)
{
    /* draft 4: booleans beside minimum and maximum */
    const char *d4 = "{'minimum': 0, 'exclusiveMinimum': true,"
                     " 'maximum': 100, 'exclusiveMaximum': true}";
    PASSES(d4, "0.5");
    PASSES(d4, "99");
    FAILS(d4, "0", "the arguments must be greater than 0");
    FAILS(d4, "100", "the arguments must be less than 100");
    PASSES("{'minimum': 0, 'exclusiveMinimum': false}", "0");
    /* later drafts: the bounds themselves */
    const char *d6 = "{'exclusiveMinimum': 0, 'exclusiveMaximum': 100}";
    PASSES(d6, "1");
    FAILS(d6, "0", "the arguments must be greater than 0");
    FAILS(d6, "-1.5", "the arguments must be greater than 0");
    FAILS(d6, "100.0", "the arguments must be less than 100");
}
END_TEST

START_TEST(number_big_integers)
{
    /* 2**64 against 1e19: above it, though both round to similar doubles */
    FAILS("{'maximum': 1e19}", "18446744073709551616",
          "the arguments must be at most 1e+19");
    PASSES("{'maximum': 1e19}", "10000000000000000000");
    FAILS("{'maximum': 1e19}", "10000000000000000001",
          "the arguments must be at most 1e+19");
    /* 2**64 is exactly 18446744073709551616.0; one more is above it. */
    PASSES("{'maximum': 18446744073709551616.0}", "18446744073709551616");
    FAILS("{'maximum': 18446744073709551616.0}", "18446744073709551617",
          "the arguments must be at most 1.8446744073709552e+19");
    FAILS("{'exclusiveMinimum': 18446744073709551616.0}",
          "18446744073709551616",
          "the arguments must be greater than 1.8446744073709552e+19");
    FAILS("{'minimum': 100000000000000000000000000000}",
          "99999999999999999999999999999",
          "the arguments must be at least 100000000000000000000000000000");
    PASSES("{'minimum': -1e300}", "-99999999999999999999999999999");
    FAILS("{'maximum': 0.5}", "1", "the arguments must be at most 0.5");
    PASSES("{'maximum': 1.5}", "1");
    PASSES("{'type': 'integer', 'maximum': 2.0}", "2");
    PASSES("{'enum': [18446744073709551616.0]}", "18446744073709551616");
    FAILS("{'enum': [18446744073709551616.0]}", "18446744073709551617",
          "the arguments must be 1.8446744073709552e+19");
}
END_TEST

START_TEST(number_floats_and_infinities)
{
    PASSES("{'maximum': 1.5}", "1.25");
    FAILS("{'maximum': 1.5}", "2.5", "the arguments must be at most 1.5");
    FAILS("{'minimum': 1e-05}", "1e-06",
          "the arguments must be at least 1e-05");
    PASSES("{'maximum': Infinity}", "1" "000000000000000000000000000000000000"
                                    "000000000000000000000000000000000000");
    FAILS("{'maximum': -Infinity}", "0",
          "the arguments must be at most -Infinity");
    FAILS("{'minimum': Infinity}", "5",
          "the arguments must be at least Infinity");
    /* NaN compares with nothing, so no bound fails it. */
    PASSES("{'minimum': 0, 'maximum': 1}", "NaN");
    PASSES("{'minimum': NaN}", "5");
    PASSES("{'minimum': NaN}", "5.0");
    FAILS("{'enum': [NaN, Infinity, -Infinity]}", "NaN",
          "the arguments must be one of NaN, Infinity, -Infinity");
    FAILS("{'type': 'integer'}", "Infinity",
          "the arguments must be an integer, not a number");
    /* Malformed bounds are not checked. */
    PASSES("{'minimum': '5', 'exclusiveMinimum': 'x'}", "1");
}
END_TEST

START_TEST(number_multiple_of)
{
    const char *s = "{'properties': {'qty': {'multipleOf': 5}}}";
    PASSES(s, "{'qty': 15}");
    PASSES(s, "{'qty': 0}");
    PASSES(s, "{'qty': -10}");
    PASSES(s, "{'qty': 20.0}");
    FAILS(s, "{'qty': 7}", "argument \"qty\" must be a multiple of 5");
    FAILS(s, "{'qty': 7.5}", "argument \"qty\" must be a multiple of 5");
    PASSES("{'multipleOf': 0.1}", "0.3");
    PASSES("{'multipleOf': 0.1}", "0.7");
    PASSES("{'multipleOf': 0.01}", "1234567.89");
    FAILS("{'multipleOf': 0.1}", "0.35",
          "the arguments must be a multiple of 0.1");
    FAILS("{'multipleOf': 1}", "1000000000.5",
          "the arguments must be a multiple of 1");
    FAILS("{'multipleOf': 1}", "1e-10",
          "the arguments must be a multiple of 1");
    /* exact on big integers */
    PASSES("{'multipleOf': 7}", "700000000000000000000000000000000000000007");
    FAILS("{'multipleOf': 7}", "700000000000000000000000000000000000000008",
          "the arguments must be a multiple of 7");
    PASSES("{'multipleOf': 1000000000000000000}",
           "-123000000000000000000");
    PASSES("{'multipleOf': 0.5}", "123456789012345678901234567890");
    /* past 40 digits the integer is rounded, which 0.5 does not see */
    PASSES("{'multipleOf': 0.5}",
           "1234567890123456789012345678901234567890123456789");
    /* a quotient too large for a double decides nothing */
    PASSES("{'multipleOf': 1e-300}", "1e300");
    /* a divisor that is not a positive number is not checked */
    PASSES("{'multipleOf': 0}", "3");
    PASSES("{'multipleOf': -2}", "3");
}
END_TEST

/* ------------------------------------------------------------- arrays */

START_TEST(array_counts_and_items)
{
    const char *s = "{'properties': {'tags': {'type': 'array',"
                    " 'minItems': 1, 'maxItems': 3,"
                    " 'items': {'type': 'string', 'minLength': 2}}}}";
    PASSES(s, "{'tags': ['ab', 'cd']}");
    FAILS(s, "{'tags': []}", "argument \"tags\" must have at least 1 item");
    FAILS(s, "{'tags': ['ab', 'cd', 'ef', 'gh']}",
          "argument \"tags\" must have at most 3 items");
    FAILS(s, "{'tags': ['ab', 'cd', 7]}",
          "argument \"tags[2]\" must be a string, not an integer");
    FAILS(s, "{'tags': ['ab', 'c']}",
          "argument \"tags[1]\" must be at least 2 characters long");
    FAILS("{'minItems': 2}", "[1]",
          "the arguments must have at least 2 items");
    FAILS("{'maxItems': 1}", "[1, 2]",
          "the arguments must have at most 1 item");
}
END_TEST

START_TEST(array_positional_items)
{
    const char *d4 = "{'items': [{'type': 'string'}, {'type': 'integer'}],"
                     " 'additionalItems': false}";
    PASSES(d4, "['a', 1]");
    FAILS(d4, "[1]", "argument \"[0]\" must be a string, not an integer");
    FAILS(d4, "['a', 1, null]", "argument \"[2]\" is not allowed here");
    const char *d2020 = "{'prefixItems': [{'type': 'string'}],"
                        " 'items': {'type': 'integer'}}";
    PASSES(d2020, "['a', 1, 2]");
    FAILS(d2020, "['a', 1, 'b']",
          "argument \"[2]\" must be an integer, not a string");
}
END_TEST

START_TEST(array_unique_items)
{
    PASSES("{'uniqueItems': true}", "[1, 'a', [1], {'a': 1}]");
    FAILS("{'uniqueItems': true}", "[1, 'a', 1.0]",
          "the arguments must have unique items, but [0] and [2] are equal");
    FAILS("{'uniqueItems': true}", "[{'a': 1, 'b': 2}, {'b': 2, 'a': 1}]",
          "the arguments must have unique items, but [0] and [1] are equal");
    PASSES("{'uniqueItems': false}", "[1, 1]");
    PASSES("{'uniqueItems': true}", "[true, 1, false, 0]");
}
END_TEST

/* -------------------------------------------------------- combinators */

START_TEST(all_of)
{
    const char *s = "{'allOf': [{'type': 'integer'}, {'minimum': 3},"
                    " {'maximum': 5}]}";
    PASSES(s, "4");
    FAILS(s, "'4'", "the arguments must be an integer, not a string");
    FAILS(s, "2", "the arguments must be at least 3");
    FAILS(s, "6", "the arguments must be at most 5");
}
END_TEST

START_TEST(any_of)
{
    const char *s = "{'properties': {'x': {'anyOf': [{'type': 'string'},"
                    " {'type': 'integer', 'minimum': 10}]}}}";
    PASSES(s, "{'x': 'a'}");
    PASSES(s, "{'x': 11}");
    FAILS(s, "{'x': 5}",
          "argument \"x\" matches none of the schemas anyOf allows");
}
END_TEST

START_TEST(one_of)
{
    const char *s = "{'properties': {'x': {'oneOf': [{'type': 'integer'},"
                    " {'type': 'number', 'minimum': 10},"
                    " {'type': 'string'}]}}}";
    PASSES(s, "{'x': 5}");
    PASSES(s, "{'x': 10.5}");
    PASSES(s, "{'x': 'a'}");
    FAILS(s, "{'x': 12}", "argument \"x\" matches 2 of the schemas oneOf "
                          "allows; it must match exactly one");
    FAILS(s, "{'x': null}",
          "argument \"x\" matches none of the schemas oneOf allows");
}
END_TEST

START_TEST(boolean_schemas)
{
    PASSES("true", "{'anything': [1]}");
    FAILS("false", "1", "the arguments is not allowed here");
    FAILS("{'properties': {'legacy': false}}", "{'legacy': 1}",
          "argument \"legacy\" is not allowed here");
    PASSES("{'properties': {'legacy': false}}", "{}");
    /* Neither an object nor a boolean: not a schema, nothing checked. */
    PASSES("{'properties': {'a': 5}}", "{'a': 1}");
}
END_TEST

/* ------------------------------------------------ $ref while checking */

START_TEST(check_follows_refs)
{
    const char *s =
        "{'type': 'object', 'properties': {'order': {'$ref': '#/$defs/O'}},"
        " '$defs': {'O': {'$ref': '#/$defs/O2'},"
        "           'O2': {'required': ['id'],"
        "                  'properties': {'id': {'type': 'string'}}}}}";
    PASSES(s, "{'order': {'id': 'a'}}");
    FAILS(s, "{'order': {}}", "argument \"order.id\" is required");
    FAILS(s, "{'order': {'id': 1}}",
          "argument \"order.id\" must be a string, not an integer");
}
END_TEST

START_TEST(check_recursive_schema)
{
    const char *s =
        "{'$ref': '#/$defs/node', '$defs': {'node': {'type': 'object',"
        " 'required': ['name'], 'additionalProperties': false,"
        " 'properties': {'name': {'type': 'string'},"
        "   'children': {'type': 'array',"
        "                'items': {'$ref': '#/$defs/node'}}}}}}";
    PASSES(s, "{'name': 'root', 'children': [{'name': 'a'},"
              " {'name': 'b', 'children': [{'name': 'c', 'children': []}]}]}");
    FAILS(s, "{'name': 'root', 'children': [{'name': 'a'},"
             " {'name': 'b', 'children': [{'children': []}]}]}",
          "argument \"children[1].children[0].name\" is required");
    FAILS(s, "{'name': 'root', 'children': [{'name': 'a', 'kids': []}]}",
          "argument \"children[0].kids\" is not allowed here; the allowed "
          "fields are \"name\", \"children\"");
}
END_TEST

START_TEST(check_deep_instance)
{
    /* As deep as the loader allows, against a schema that recurses. */
    enum { DEPTH = VALUE_MAX_DEPTH };
    char *text = malloc(2 * DEPTH + 8);
    ck_assert_ptr_nonnull(text);
    memset(text, '[', DEPTH);
    memcpy(text + DEPTH, "'x'", 3);
    memset(text + DEPTH + 3, ']', DEPTH);
    text[2 * DEPTH + 3] = '\0';
    const char *s = "{'$ref': '#/$defs/t', '$defs': {'t': {'anyOf': ["
                    "{'type': 'string'},"
                    " {'type': 'array', 'items': {'$ref': '#/$defs/t'}}]}}}";
    PASSES(s, text);
    text[DEPTH] = '1';
    text[DEPTH + 1] = ' ';
    text[DEPTH + 2] = ' ';
    FAILS(s, text, "the arguments matches none of the schemas anyOf allows");
    free(text);
}
END_TEST

START_TEST(check_broken_refs_conform)
{
    /* The tool model refuses these earlier; the checker must not crash. */
    PASSES("{'$ref': '#/nope'}", "1");
    PASSES("{'$ref': 'other.json#/A'}", "1");
    PASSES("{'properties': {'a': {'$ref': '#/$defs/A'}},"
           " '$defs': {'A': {'$ref': '#/$defs/A'}}}",
           "{'a': 1}");
    /* A loop through combinators that consumes nothing ends too. */
    PASSES("{'$ref': '#/$defs/A', '$defs': {'A': {'allOf': ["
           "{'$ref': '#/$defs/A'}, {'type': 'integer'}]}}}",
           "1");
    FAILS("{'$ref': '#/$defs/A', '$defs': {'A': {'allOf': ["
          "{'$ref': '#/$defs/A'}, {'type': 'integer'}]}}}",
          "'x'", "the arguments must be an integer, not a string");
}
END_TEST

/* A schema whose every level is anyOf [next, next], 40 levels deep,
 * entered at #/$defs/<top>. */
static void exponential_schema(buf *s, const char *top)
{
    ck_assert_int_eq(buf_printf(s, "{'$ref': '#/$defs/%s', '$defs': {", top),
                     0);
    for (int i = 0; i < 40; i++)
        ck_assert_int_eq(buf_printf(s, "'d%d': {'anyOf': [{'$ref': "
                                       "'#/$defs/d%d'}, {'$ref': "
                                       "'#/$defs/d%d'}]}, ",
                                    i, i + 1, i + 1),
                         0);
    ck_assert_int_eq(buf_puts(s, "'both': {'oneOf': [{'$ref': '#/$defs/d0'},"
                                 " {'$ref': '#/$defs/d0'}]},"
                                 " 'd40': {'type': 'integer'}}}"),
                     0);
}

#define TOO_MANY_STEPS                                                       \
    "the arguments could not be checked: the check stops after 200000 "    \
    "steps through the schema, and this value needs more; send one that "  \
    "nests less"

START_TEST(check_exponential_schema_ends)
{
    /* Each level doubles the work; the walk gives up, and says it could
     * not decide, instead of running for ages (or saying "conforms"). */
    buf s = BUF_INIT;
    exponential_schema(&s, "d0");
    PASSES(s.data, "5"); /* the first branch all the way down: 41 visits */
    UNDECIDED(s.data, "'x'", TOO_MANY_STEPS);
    buf_free(&s);
    /* Given up, a oneOf counts two matches: that failure is not said,
     * since nothing after giving up can be trusted. */
    exponential_schema(&s, "both");
    UNDECIDED(s.data, "'x'", TOO_MANY_STEPS);
    buf_free(&s);
}
END_TEST

/* allOf [a tree, the plain rules], as OpenAPI composes schemas: a tree
 * 16 levels deep that every level checks twice (anyOf [Oak, Elm], Oak
 * failing only at its leaf) passes the limit before the plain rules are
 * reached.  Past the limit nothing is known: the broken id and mode are
 * never called valid. */
START_TEST(check_gives_up_before_later_rules)
{
    const char *schema =
        "{'allOf': [{'$ref': '#/$defs/Planted'}, {'$ref': '#/$defs/Rules'}],"
        " '$defs': {"
        "  'Planted': {'properties': {'canopy': {'$ref': '#/$defs/Tree'}}},"
        "  'Rules': {'properties': {"
        "    'id': {'type': 'string', 'pattern': '^T-[0-9]{4}$'},"
        "    'mode': {'enum': ['trim', 'shape']}}},"
        "  'Tree': {'anyOf': [{'$ref': '#/$defs/Oak'},"
        "                     {'$ref': '#/$defs/Elm'}]},"
        "  'Oak': {'properties': {'kid': {'$ref': '#/$defs/Tree'},"
        "                         'leaf': {'const': 'oak'}}},"
        "  'Elm': {'properties': {'kid': {'$ref': '#/$defs/Tree'},"
        "                         'leaf': {'const': 'elm'}}}}}";
    buf tree = BUF_INIT, args = BUF_INIT;
    for (int depth = 1; depth <= 16; depth++) {
        buf_reset(&tree);
        ck_assert_int_eq(buf_puts(&tree, "{'leaf': 'elm'}"), 0);
        for (int i = 1; i < depth; i++) {
            buf_reset(&args);
            ck_assert_int_eq(buf_printf(&args, "{'kid': %s, 'leaf': 'elm'}",
                                        tree.data),
                             0);
            buf_reset(&tree);
            ck_assert_int_eq(buf_puts(&tree, args.data), 0);
        }
        buf_reset(&args);
        ck_assert_int_eq(buf_printf(&args, "{'canopy': %s, 'id': 42,"
                                           " 'mode': 'destroy'}",
                                    tree.data),
                         0);
        if (depth < 16) /* within the limit: the broken id is said */
            FAILS(schema, args.data,
                  "argument \"id\" must be a string, not an integer");
        else
            UNDECIDED(schema, args.data, TOO_MANY_STEPS);
    }
    buf_free(&tree);
    buf_free(&args);
}
END_TEST

/* Members are checked in the order canonical JSON writes them, whatever
 * the order they came in: a call is answered live as it is when replayed
 * from its transcript (which holds canonical JSON). */
START_TEST(check_members_in_canonical_order)
{
    const char *schema = "{'properties': {'amount': {'minimum': 0},"
                         " 'reason': {'enum': ['late']},"
                         " 'zone': {'type': 'string'}}}";
    const char *want = "argument \"amount\" must be at least 0";
    FAILS(schema, "{'reason': 'x', 'amount': -1}", want);
    FAILS(schema, "{'amount': -1, 'reason': 'x'}", want);
    /* nine members: past the small sort, the same order */
    FAILS(schema, "{'zone': 1, 'z8': 0, 'z7': 0, 'z6': 0, 'z5': 0, 'z4': 0,"
                  " 'z3': 0, 'reason': 'x', 'amount': -1}", want);
    FAILS(schema, "{'zone': 1, 'z8': 0, 'z7': 0, 'z6': 0, 'z5': 0, 'z4': 0,"
                  " 'z3': 0, 'reason': 'x'}",
          "argument \"reason\" must be \"late\"");
    /* code point order, as canonical JSON: "B" before "a" before "é" */
    FAILS("{'additionalProperties': false}", "{'\u00e9': 1, 'a': 1, 'B': 1}",
          "argument \"B\" is not allowed here; no arguments are allowed");
    /* a YAML float key is ordered by the text it becomes */
    arena *a = arena_new();
    ck_assert_ptr_nonnull(a);
    value *s = load(a, "{'additionalProperties': false}");
    value *keys = load_yaml(a, "{2.5: 1, 1.0e+20: 1}");
    buf msg = BUF_INIT;
    ck_assert_int_eq(schema_check(s, s, keys, "the arguments", &msg), 1);
    ck_assert_str_eq(msg.data, "argument \"1e+20\" is not allowed here; "
                               "no arguments are allowed");
    buf_free(&msg);
    arena_free(a);
}
END_TEST

/* A pattern search past its budget (regex.h) could not decide either,
 * and the budget is the whole check's: many strings cannot add up to
 * more. */
START_TEST(check_pattern_past_its_budget)
{
    const char *big = "(a{0,999}){9}x";
    buf schema = BUF_INIT, inst = BUF_INIT;
    ck_assert_int_eq(buf_printf(&schema, "{'properties': {'id': {'pattern':"
                                         " '%s'}}}", big), 0);
    ck_assert_int_eq(buf_puts(&inst, "{'id': '"), 0);
    for (int i = 0; i < 20000; i++)
        ck_assert_int_eq(buf_putc(&inst, 'a'), 0);
    ck_assert_int_eq(buf_puts(&inst, "'}"), 0);
    UNDECIDED(schema.data, inst.data,
              "argument \"id\" could not be checked against the pattern "
              "(a{0,999}){9}x: the match takes more work than the check "
              "allows; send a shorter value");
    /* short strings are checked as ever */
    FAILS(schema.data, "{'id': 'aaa'}",
          "argument \"id\" must match the pattern (a{0,999}){9}x");
    PASSES(schema.data, "{'id': 'aaax'}");
    /* 200 strings of 1,000 a's and an x: each alone matches within the
     * budget, all together pass it, at the tenth */
    buf_reset(&schema);
    ck_assert_int_eq(buf_printf(&schema, "{'items': {'pattern': '%s'}}",
                                big), 0);
    buf_reset(&inst);
    ck_assert_int_eq(buf_putc(&inst, '['), 0);
    for (int i = 0; i < 200; i++) {
        ck_assert_int_eq(buf_puts(&inst, i ? ", '" : "'"), 0);
        for (int j = 0; j < 1000; j++)
            ck_assert_int_eq(buf_putc(&inst, 'a'), 0);
        ck_assert_int_eq(buf_puts(&inst, "x'"), 0);
    }
    ck_assert_int_eq(buf_putc(&inst, ']'), 0);
    UNDECIDED(schema.data, inst.data,
              "argument \"[9]\" could not be checked against the pattern "
              "(a{0,999}){9}x: the match takes more work than the check "
              "allows; send a shorter value");
    /* a long pattern (101 bytes) is shown to 100 */
    buf_reset(&schema);
    ck_assert_int_eq(buf_puts(&schema, "{'pattern': '"), 0);
    for (int i = 0; i < 10; i++)
        ck_assert_int_eq(buf_puts(&schema, "(a{0,999})"), 0);
    ck_assert_int_eq(buf_puts(&schema, "x'}"), 0);
    buf_reset(&inst);
    ck_assert_int_eq(buf_putc(&inst, '\''), 0);
    for (int i = 0; i < 20000; i++)
        ck_assert_int_eq(buf_putc(&inst, 'a'), 0);
    ck_assert_int_eq(buf_putc(&inst, '\''), 0);
    UNDECIDED(schema.data, inst.data,
              "the arguments could not be checked against the pattern "
              "(a{0,999})(a{0,999})(a{0,999})(a{0,999})(a{0,999})(a{0,999})"
              "(a{0,999})(a{0,999})(a{0,999})(a{0,999})...: the match takes "
              "more work "
              "than the check allows; send a shorter value");
    buf_free(&schema);
    buf_free(&inst);
}
END_TEST

START_TEST(check_depth_is_capped)
{
    /* 2000 schemas, each only an allOf of the next: no instance is
     * consumed, and the walk stops at its frame limit instead of the
     * stack's. */
    buf s = BUF_INIT;
    ck_assert_int_eq(buf_puts(&s, "{'$ref': '#/$defs/d0', '$defs': {"), 0);
    for (int i = 0; i < 2000; i++)
        ck_assert_int_eq(buf_printf(&s, "'d%d': {'allOf': [{'$ref': "
                                        "'#/$defs/d%d'}]}, ",
                                    i, i + 1),
                         0);
    ck_assert_int_eq(buf_puts(&s, "'d2000': {'type': 'integer'}}}"), 0);
    UNDECIDED(s.data, "'x'",
              "the arguments could not be checked: the schema goes more "
              "than 1024 levels deep for it; send a value that nests less");
    buf_free(&s);
    /* Well below the limit, the same chain is checked. */
    FAILS("{'allOf': [{'allOf': [{'allOf': [{'type': 'integer'}]}]}]}",
          "'x'", "the arguments must be an integer, not a string");
}
END_TEST

START_TEST(check_refs_against_another_root)
{
    arena *a = arena_new();
    value *root = load(a, "{'components': {'schemas': {'Money':"
                          " {'type': 'number', 'minimum': 0}}},"
                          " 'op': {'properties': {'amount':"
                          " {'$ref': '#/components/schemas/Money'}}}}");
    value *good = load(a, "{'amount': 3}"), *bad = load(a, "{'amount': -3}");
    buf msg = BUF_INIT;
    const value *op = value_getz(root, "op");
    ck_assert_int_eq(schema_check(root, op, good, "the arguments", &msg), 0);
    ck_assert_uint_eq(msg.len, 0);
    ck_assert_int_eq(schema_check(root, op, bad, "the arguments", &msg), 1);
    ck_assert_str_eq(msg.data, "argument \"amount\" must be at least 0");
    /* A previous message is replaced, not appended to. */
    ck_assert_int_eq(schema_check(root, op, bad, "the arguments", &msg), 1);
    ck_assert_str_eq(msg.data, "argument \"amount\" must be at least 0");
    ck_assert_int_eq(schema_check(root, op, good, "the arguments", &msg), 0);
    ck_assert_uint_eq(msg.len, 0);
    buf_free(&msg);
    arena_free(a);
}
END_TEST

START_TEST(schema_kw_looks_up_members)
{
    arena *a = arena_new();
    value *s = load(a, "{'type': 'string', '$ref': '#/x'}");
    ck_assert_ptr_eq(schema_kw(s, "type"), value_getz(s, "type"));
    ck_assert_ptr_eq(schema_kw(s, "$ref"), value_getz(s, "$ref"));
    ck_assert_ptr_null(schema_kw(s, "format"));
    ck_assert_ptr_null(schema_kw(load(a, "true"), "type"));
    ck_assert_ptr_null(schema_kw(NULL, "type"));
    arena_free(a);
}
END_TEST

START_TEST(keywords_read_in_one_pass)
{
    static const struct {
        enum schema_keyword id;
        const char *name;
    } names[] = {
        {SK_REF, "$ref"}, {SK_NULLABLE, "nullable"}, {SK_TYPE, "type"},
        {SK_CONST, "const"}, {SK_ENUM, "enum"},
        {SK_MIN_LENGTH, "minLength"}, {SK_MAX_LENGTH, "maxLength"},
        {SK_PATTERN, "pattern"}, {SK_FORMAT, "format"},
        {SK_MINIMUM, "minimum"}, {SK_MAXIMUM, "maximum"},
        {SK_EXCLUSIVE_MINIMUM, "exclusiveMinimum"},
        {SK_EXCLUSIVE_MAXIMUM, "exclusiveMaximum"},
        {SK_MULTIPLE_OF, "multipleOf"}, {SK_MIN_ITEMS, "minItems"},
        {SK_MAX_ITEMS, "maxItems"}, {SK_UNIQUE_ITEMS, "uniqueItems"},
        {SK_PREFIX_ITEMS, "prefixItems"}, {SK_ITEMS, "items"},
        {SK_ADDITIONAL_ITEMS, "additionalItems"},
        {SK_PROPERTIES, "properties"},
        {SK_PATTERN_PROPERTIES, "patternProperties"},
        {SK_ADDITIONAL_PROPERTIES, "additionalProperties"},
        {SK_REQUIRED, "required"}, {SK_MIN_PROPERTIES, "minProperties"},
        {SK_MAX_PROPERTIES, "maxProperties"}, {SK_ALL_OF, "allOf"},
        {SK_ANY_OF, "anyOf"}, {SK_ONE_OF, "oneOf"}};
    ck_assert_uint_eq(sizeof names / sizeof names[0], SK_COUNT);
    arena *a = arena_new();
    /* Every keyword, with names of the same lengths around them. */
    buf text = BUF_INIT;
    buf_puts(&text, "{\"typo\": 0, \"Type\": 0, \"$reg\": 0");
    for (size_t i = 0; i < SK_COUNT; i++)
        buf_printf(&text, ", \"%s\": %zu, \"%.*sx\": 0", names[i].name, i,
                   (int)strlen(names[i].name) - 1, names[i].name);
    buf_puts(&text, "}");
    err e;
    err_clear(&e);
    value *s = NULL;
    ck_assert_int_eq(json_load(&s, a, text.data, text.len, &e), 0);
    schema_keywords k;
    schema_keywords_read(&k, s);
    for (size_t i = 0; i < SK_COUNT; i++) {
        const value *v = schema_keyword(&k, names[i].id);
        ck_assert_ptr_nonnull(v);
        ck_assert_ptr_eq(v, schema_kw(s, names[i].name));
    }
    /* Non-string keys are no keywords; nothing is read from a non-object. */
    value *y = load_yaml(a, "1: a\ntype: string\ntrue: b\n");
    schema_keywords_read(&k, y);
    ck_assert_ptr_eq(schema_keyword(&k, SK_TYPE), schema_kw(y, "type"));
    ck_assert_uint_eq(k.present, (uint32_t)1 << SK_TYPE);
    schema_keywords_read(&k, load(a, "true"));
    ck_assert_uint_eq(k.present, 0);
    schema_keywords_read(&k, NULL);
    ck_assert_ptr_null(schema_keyword(&k, SK_TYPE));
    buf_free(&text);
    arena_free(a);
}
END_TEST

/* The names of the members shape_next gives, in order, comma-separated. */
static const char *members(const shape *sh)
{
    static char out[256];
    size_t n = 0, at = 0;
    out[0] = '\0';
    for (const value_member *m; (m = shape_next(sh, &at));)
        n += (size_t)snprintf(out + n, sizeof out - n, "%s%s", n ? "," : "",
                              m->key->u.str.ptr);
    return out;
}

/* shape: what drawing merges (allOf, the branch the value conforms to),
 * each member once, from the first part that describes it. */
START_TEST(shape_merges_what_drawing_merges)
{
    arena *a = arena_new();
    value *root = load(a, "{'d':{"
        "'Pet':{'allOf':[{'$ref':'#/d/New'},{'properties':{'id':{},"
        "'name':{'maxLength':3}}}]},"
        "'New':{'type':'object','properties':{'name':{},'tag':{}}},"
        "'Kind':{'type':'object','properties':{'id':{}},'oneOf':["
        "{'required':['a'],'properties':{'a':{'type':'string'}}},"
        "{'required':['b'],'properties':{'b':{'type':'integer'}}}]},"
        "'Bare':{'oneOf':[{'type':'string'},{'properties':{'x':{}}}]},"
        "'List':{'type':'array','items':{'$ref':'#/d/New'}}}}");
    value *pet = load(a, "{'$ref':'#/d/Pet'}");
    value *kind = load(a, "{'$ref':'#/d/Kind'}");
    value *bare = load(a, "{'$ref':'#/d/Bare'}");
    value *list = load(a, "{'$ref':'#/d/List'}");
    shape sh;
    ck_assert_int_eq(shape_of(&sh, root, pet, NULL), 0);
    ck_assert_uint_eq(sh.n, 3);
    ck_assert_str_eq(members(&sh), "name,tag,id");
    const value *defs[SHAPE_MAX];
    ck_assert_uint_eq(shape_field(&sh, "name", 4, defs, SHAPE_MAX), 2);
    /* the branch the value was drawn from, never the other */
    ck_assert_int_eq(shape_of(&sh, root, kind, load(a, "{'id':'x','b':2}")), 0);
    ck_assert_str_eq(members(&sh), "id,b");
    ck_assert_int_eq(shape_of(&sh, root, kind, NULL), 0);
    ck_assert_str_eq(members(&sh), "id");
    /* a bare oneOf is its branch; no object, no members */
    ck_assert_int_eq(shape_of(&sh, root, bare, load(a, "{'x':1}")), 0);
    ck_assert_str_eq(members(&sh), "x");
    ck_assert_int_eq(shape_of(&sh, root, bare, load(a, "'s'")), 0);
    ck_assert_str_eq(members(&sh), "");
    ck_assert_int_eq(shape_of(&sh, root, list, NULL), 0);
    ck_assert_str_eq(members(&sh), "");
    ck_assert(shape_objectish(load(a, "{'type':'object'}")));
    ck_assert(!shape_objectish(load(a, "{'type':'objects'}")));
    arena_free(a);
}
END_TEST

Suite *schema_suite(void)
{
    Suite *s = suite_create("schema");
    TCase *ref = tcase_create("ref");
    tcase_set_timeout(ref, 120); /* room for a busy machine, under ASan */
    tcase_add_test(ref, ref_chain_is_followed);
    tcase_add_test(ref, refs_into_an_indexed_object);
    tcase_add_test(ref, ref_booleans_and_non_objects_are_returned);
    tcase_add_test(ref, ref_to_nothing);
    tcase_add_test(ref, ref_outside_the_file);
    tcase_add_test(ref, ref_loops);
    tcase_add_test(ref, ref_escapes_and_indexes);
    tcase_add_test(ref, ref_odd_pointers);
    tcase_add_test(ref, ref_into_yaml_keys_that_are_not_strings);
    tcase_add_test(ref, ref_cut_keeps_characters_whole);
    tcase_add_test(ref, ref_siblings_are_ignored);
    tcase_add_test(ref, ref_long_text_is_cut_in_messages);
    suite_add_tcase(s, ref);

    TCase *kw = tcase_create("keywords");
    tcase_set_timeout(kw, 120); /* room for a busy machine, under ASan */
    tcase_add_test(kw, shape_merges_what_drawing_merges);
    tcase_add_test(kw, type_single);
    tcase_add_test(kw, type_integer_accepts_integral_floats);
    tcase_add_test(kw, type_lists);
    tcase_add_test(kw, nullable_lets_null_pass);
    tcase_add_test(kw, required_members);
    tcase_add_test(kw, additional_properties_false);
    tcase_add_test(kw, pattern_properties);
    tcase_add_test(kw, allowed_names_are_listed_up_to_fifty);
    tcase_add_test(kw, additional_properties_schema);
    tcase_add_test(kw, property_counts);
    tcase_add_test(kw, nested_paths);
    tcase_add_test(kw, names_extend_a_quoted_place);
    tcase_add_test(kw, enum_values);
    tcase_add_test(kw, yaml_values_in_schemas);
    tcase_add_test(kw, const_value);
    tcase_add_test(kw, string_lengths_count_code_points);
    tcase_add_test(kw, string_pattern);
    tcase_add_test(kw, format_date_time);
    tcase_add_test(kw, format_date_and_time);
    tcase_add_test(kw, format_email_uri_uuid);
    tcase_add_test(kw, format_hosts_and_addresses);
    tcase_add_test(kw, format_unknown_and_non_strings);
    tcase_add_test(kw, number_bounds);
    tcase_add_test(kw, number_exclusive_bounds);
    tcase_add_test(kw, number_big_integers);
    tcase_add_test(kw, number_floats_and_infinities);
    tcase_add_test(kw, number_multiple_of);
    tcase_add_test(kw, array_counts_and_items);
    tcase_add_test(kw, array_positional_items);
    tcase_add_test(kw, array_unique_items);
    tcase_add_test(kw, all_of);
    tcase_add_test(kw, any_of);
    tcase_add_test(kw, one_of);
    tcase_add_test(kw, boolean_schemas);
    suite_add_tcase(s, kw);

    TCase *walk = tcase_create("walk");
    tcase_set_timeout(walk, 120); /* room for a busy machine, under ASan */
    tcase_add_test(walk, check_follows_refs);
    tcase_add_test(walk, check_recursive_schema);
    tcase_add_test(walk, check_deep_instance);
    tcase_add_test(walk, check_broken_refs_conform);
    tcase_add_test(walk, check_exponential_schema_ends);
    tcase_add_test(walk, check_depth_is_capped);
    tcase_add_test(walk, check_gives_up_before_later_rules);
    tcase_add_test(walk, check_members_in_canonical_order);
    tcase_add_test(walk, check_pattern_past_its_budget);
    tcase_add_test(walk, check_refs_against_another_root);
    tcase_add_test(walk, schema_kw_looks_up_members);
    tcase_add_test(walk, keywords_read_in_one_pass);
    suite_add_tcase(s, walk);
    return s;
}
