/* YAML loading: PyYAML's resolution, rule by rule.  Each case is YAML in,
 * canonical JSON out; the expected texts were taken from Python
 * (yaml.safe_load, then the canonical writer's rule). */
#include <string.h>

#include "canon.h"
#include "unit.h"
#include "yaml_load.h"

static const struct {
    const char *yaml, *canonical;
} cases[] = {
    {"[yes, No, ON, off, True, FALSE, y, n]",
     "[true,false,true,false,true,false,\"y\",\"n\"]"},
    {"- ~\n- null\n- Null\n- NULL\n-\n- nul\n",
     "[null,null,null,null,null,\"nul\"]"},
    {"[+5, 0b101, 017, 0x1F, 1_000, 190:20:30, -0, 0, 0o17, -0x_ff]",
     "[5,5,15,31,1000,685230,0,0,\"0o17\",-255]"},
    {"[1.5, 1.0e+5, .5, 1_0.5, 1., 1e5, -.5, 190:20:30.15, 1.0e5, +12e+03, 6.8523015e+5]",
     "[1.5,100000.0,0.5,10.5,1.0,\"1e5\",\"-.5\",685230.15,\"1.0e5\",\"+12e+03\",685230.15]"},
    {"[2001-12-14, 2001-12-14t21:59:43.10-05:00, 2001-12-14 21:59:43.10 -5, 2001-12-15 2:59:43.10, 2002-12-14T00:00:00Z, 2001-1-1, 2001-12-14 21:59:43.1234567 +05:30]",
     "[\"2001-12-14\",\"2001-12-14T21:59:43.100000-05:00\",\"2001-12-14T21:59:43.100000-05:00\",\"2001-12-15T02:59:43.100000\",\"2002-12-14T00:00:00+00:00\",\"2001-1-1\",\"2001-12-14T21:59:43.123456+05:30\"]"},
    {"{1: a, 1.0: b, true: c}",
     "{\"1\":\"c\"}"},
    {"{1.0: a, 1: b}",
     "{\"1.0\":\"b\"}"},
    {"{~: a, null: b, false: c, 0: d}",
     "{\"false\":\"d\",\"null\":\"b\"}"},
    {"base: &b {x: 1, y: 2}\nover: {<<: *b, y: 3}\nlist: {<<: [{a: 1}, {a: 2, b: 2}], c: 3}\n",
     "{\"base\":{\"x\":1,\"y\":2},\"list\":{\"a\":1,\"b\":2,\"c\":3},\"over\":{\"x\":1,\"y\":3}}"},
    {"[!!str 123, !!float 1, ! 123, !!bool yes, !!int '42', !!null x, !!str yes, '12']",
     "[\"123\",1.0,123,true,42,null,\"yes\",\"12\"]"},
    {"!!omap [a: 1, b: 2]",
     "[[\"a\",1],[\"b\",2]]"},
    {"",
     "null"},
    {"# only a comment\n",
     "null"},
    {"a: &x [1, 2]\nb: *x\n",
     "{\"a\":[1,2],\"b\":[1,2]}"},
    {"? 2001-12-14t21:59:43.10-05:00\n: a\n? 2001-12-15T02:59:43.10Z\n: b\n",
     "{\"2001-12-14T21:59:43.100000-05:00\":\"b\"}"},
    {"text: |\n  keep\n  this\n\nfolded: >-\n  one\n  two\n",
     "{\"folded\":\"one two\",\"text\":\"keep\\nthis\\n\"}"},
    {"\"\\x41\\u00e9\\U0001F600\\0\\e\\N\\_\"",
     "\"A\303\251\360\237\230\200\\u0000\\u001b\302\205\302\240\""},
    {"{=: b, c: d}",
     "{\"=\":\"b\",\"c\":\"d\"}"},
};

/* Loads yaml and writes its canonical JSON into out; returns the loader's
 * or writer's status, with e filled on failure. */
static int load_canonical(const char *yaml, buf *out, err *e)
{
    arena *a = arena_new();
    value *v = NULL;
    err_clear(e);
    int rc = yaml_load(&v, a, yaml, strlen(yaml), e);
    if (rc == 0)
        rc = canon_write(out, v, e);
    arena_free(a);
    return rc;
}

START_TEST(resolves_like_pyyaml)
{
    buf out = BUF_INIT;
    err e;
    int rc = load_canonical(cases[_i].yaml, &out, &e);
    ck_assert_msg(rc == 0, "case %d refused: %s", _i, e.msg);
    ck_assert_str_eq(out.data, cases[_i].canonical);
    buf_free(&out);
}
END_TEST

static void assert_refused(const char *yaml, unsigned line, unsigned col,
                           const char *path, const char *msg)
{
    buf out = BUF_INIT;
    err e;
    ck_assert_int_eq(load_canonical(yaml, &out, &e), -1);
    ck_assert_uint_eq(e.line, line);
    ck_assert_uint_eq(e.col, col);
    ck_assert_str_eq(e.path, path);
    ck_assert_str_eq(e.msg, msg);
    buf_free(&out);
}

START_TEST(refusals_name_the_place)
{
    assert_refused("a:\n  b: [1, .NaN]\n", 2, 10, "$.a.b[1]",
                   "NaN is not a JSON number; quote it or remove it");
    assert_refused("x: 2001-13-01\n", 1, 4, "$.x",
                   "\"2001-13-01\" reads as a date, but the month is out of "
                   "range; quote it to keep it as text");
    assert_refused("x: 2001-12-14 25:00:00\n", 1, 4, "$.x",
                   "\"2001-12-14 25:00:00\" reads as a date, but the time of "
                   "day is out of range; quote it to keep it as text");
    assert_refused("x: 2001-12-14 12:00:00 +24:00\n", 1, 4, "$.x",
                   "\"2001-12-14 12:00:00 +24:00\" reads as a date, but the "
                   "UTC offset is 24 hours or more; quote it to keep it as "
                   "text");
    assert_refused("{1: a, \"1\": b}", 1, 8, "$",
                   "two keys become one: the integer 1 and the string \"1\" "
                   "are both written \"1\"; rename or remove one");
    assert_refused("{true: a, \"true\": b}", 1, 11, "$",
                   "two keys become one: the boolean true and the string "
                   "\"true\" are both written \"true\"; rename or remove one");
    assert_refused("? {a: 1}\n: x\n", 1, 3, "$",
                   "a key is a mapping or a set, which cannot be a key; use a "
                   "string key");
    assert_refused("a: <<\n", 1, 4, "$.a",
                   "a bare << is a merge key and can only be a key; quote it "
                   "to mean the text \"<<\"");
    assert_refused("a: !!str [1]\n", 1, 4, "$.a",
                   "the tag !!str needs a scalar, but the node is a sequence; "
                   "remove the tag");
    assert_refused("a: !!float abc\n", 1, 4, "$.a",
                   "\"abc\" is not a number; remove the !!float tag");
    assert_refused("a: !!bool maybe\n", 1, 4, "$.a",
                   "\"maybe\" is not a boolean; remove the !!bool tag");
    assert_refused("a: !!timestamp 12\n", 1, 4, "$.a",
                   "\"12\" is not a timestamp; remove the !!timestamp tag");
    assert_refused("a: !!omap [1]\n", 1, 12, "$.a[0]",
                   "an ordered map (!!omap, !!pairs) holds mappings of one "
                   "pair each; this item is not one");
    assert_refused("a: &m {<<: *m}\n", 1, 4, "$.a",
                   "a merge key (<<) merges a mapping into itself; remove the "
                   "merge");
}
END_TEST

START_TEST(keys_that_python_holds_equal_fold)
{
    /* The first key's spelling, the last value, at the first key's place. */
    arena *a = arena_new();
    value *v = NULL;
    err e;
    const char *y = "{1: a, x: y, 1.0: b, true: c}";
    ck_assert_int_eq(yaml_load(&v, a, y, strlen(y), &e), 0);
    ck_assert_int_eq(v->kind, V_OBJECT);
    ck_assert_uint_eq(v->u.obj.len, 2);
    ck_assert_int_eq(v->u.obj.items[0].key->kind, V_INT);
    ck_assert_str_eq(v->u.obj.items[0].val->u.str.ptr, "c");
    arena_free(a);
}
END_TEST

START_TEST(aliases_are_shared_not_copied)
{
    arena *a = arena_new();
    value *v = NULL;
    err e;
    const char *y = "a: &x {k: [1, 2, 3]}\nb: *x\n";
    ck_assert_int_eq(yaml_load(&v, a, y, strlen(y), &e), 0);
    ck_assert_ptr_eq(v->u.obj.items[0].val, v->u.obj.items[1].val);
    arena_free(a);
}
END_TEST

START_TEST(alias_bomb_is_refused_fast)
{
    /* 10^9 values once expanded; refused when the sum passes the limit. */
    buf y = BUF_INIT;
    buf_puts(&y, "a: &a [x, x, x, x, x, x, x, x, x, x]\n");
    const char *names = "abcdefghi";
    for (int i = 1; i < 9; i++) {
        buf_printf(&y, "%c: &%c [", names[i], names[i]);
        for (int j = 0; j < 10; j++)
            buf_printf(&y, "%s*%c", j ? ", " : "", names[i - 1]);
        buf_puts(&y, "]\n");
    }
    buf out = BUF_INIT;
    err e;
    ck_assert_int_eq(load_canonical(y.data, &out, &e), -1);
    ck_assert_int_eq(e.code, ERR_LIMIT);
    ck_assert_str_eq(e.path, "$.g");
    buf_free(&y);
    buf_free(&out);
}
END_TEST

START_TEST(nesting_limit)
{
    buf y = BUF_INIT;
    for (int i = 0; i < VALUE_MAX_DEPTH; i++)
        buf_putc(&y, '[');
    for (int i = 0; i < VALUE_MAX_DEPTH; i++)
        buf_putc(&y, ']');
    buf out = BUF_INIT;
    err e;
    ck_assert_int_eq(load_canonical(y.data, &out, &e), 0);
    buf_reset(&y);
    for (int i = 0; i <= VALUE_MAX_DEPTH; i++)
        buf_putc(&y, '[');
    for (int i = 0; i <= VALUE_MAX_DEPTH; i++)
        buf_putc(&y, ']');
    ck_assert_int_eq(load_canonical(y.data, &out, &e), -1);
    ck_assert_str_eq(e.msg, "nesting deeper than 256 levels; this is the limit");
    ck_assert_uint_eq(e.col, VALUE_MAX_DEPTH + 1);
    buf_free(&y);
    buf_free(&out);
}
END_TEST

Suite *yaml_suite(void)
{
    Suite *s = suite_create("yaml");
    TCase *tc = tcase_create("resolution");
    tcase_set_timeout(tc, 120); /* room for a busy machine, under ASan */
    tcase_add_loop_test(tc, resolves_like_pyyaml, 0,
                        (int)(sizeof cases / sizeof cases[0]));
    tcase_add_test(tc, refusals_name_the_place);
    tcase_add_test(tc, keys_that_python_holds_equal_fold);
    tcase_add_test(tc, aliases_are_shared_not_copied);
    tcase_add_test(tc, alias_bomb_is_refused_fast);
    tcase_add_test(tc, nesting_limit);
    suite_add_tcase(s, tc);
    return s;
}
