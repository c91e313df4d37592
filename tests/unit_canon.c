/* The canonical writer: json.dumps(sort_keys=True, separators=(",", ":"),
 * ensure_ascii=False, allow_nan=False), byte for byte, on trees built by
 * hand so that each rule is checked alone. */
#include <math.h>
#include <string.h>

#include "canon.h"
#include "unit.h"

static value *str(arena *a, const char *s, size_t len)
{
    return value_new_text(a, V_STRING, s, len, 1, 1);
}

static value *obj(arena *a, size_t n, value **kv)
{
    value *o = value_new(a, V_OBJECT, 1, 1);
    o->u.obj.items = arena_alloc(a, n * sizeof *o->u.obj.items);
    o->u.obj.len = n;
    for (size_t i = 0; i < n; i++) {
        o->u.obj.items[i].key = kv[2 * i];
        o->u.obj.items[i].val = kv[2 * i + 1];
    }
    return o;
}

static value *num(arena *a, double d)
{
    value *v = value_new(a, V_FLOAT, 1, 1);
    v->u.d = d;
    return v;
}

START_TEST(strings_escape_as_python_does)
{
    buf out = BUF_INIT;
    static const char in[] = "q\" b\\ \b\f\n\r\t \x01\x1f \x7f \xe2\x80\xa8 "
                             "\xc3\xa9 \xf0\x9f\x98\x80 \0end";
    ck_assert_int_eq(canon_write_string(&out, in, sizeof in - 1), 0);
    ck_assert_str_eq(out.data,
                     "\"q\\\" b\\\\ \\b\\f\\n\\r\\t \\u0001\\u001f \x7f "
                     "\xe2\x80\xa8 \xc3\xa9 \xf0\x9f\x98\x80 \\u0000end\"");
    buf_free(&out);
}
END_TEST

START_TEST(keys_sort_by_code_point)
{
    arena *a = arena_new();
    value *one = value_new_text(a, V_INT, "1", 1, 1, 1);
    value *kv[] = {str(a, "\xf0\x9f\x98\x80", 4), one, str(a, "\xc3\xa9", 2),
                   one, str(a, "b", 1), one, str(a, "Z", 1), one,
                   str(a, "", 0), one, str(a, "a\0b", 3), one,
                   str(a, "a", 1), one};
    buf out = BUF_INIT;
    err e;
    ck_assert_int_eq(canon_write(&out, obj(a, 7, kv), &e), 0);
    ck_assert_str_eq(out.data, "{\"\":1,\"Z\":1,\"a\":1,\"a\\u0000b\":1,"
                               "\"b\":1,\"\xc3\xa9\":1,\"\xf0\x9f\x98\x80\":1}");
    buf_free(&out);
    arena_free(a);
}
END_TEST

START_TEST(scalars_and_keys_as_text)
{
    arena *a = arena_new();
    value *t = value_new(a, V_BOOL, 1, 1), *n = value_new(a, V_NULL, 1, 1);
    t->u.b = 1;
    value *date = value_new_text(a, V_TIMESTAMP, "2026-10-26", 10, 1, 1);
    date->flags = VF_DATE;
    value *kv[] = {value_new_text(a, V_INT, "200", 3, 1, 1), str(a, "ok", 2),
                   t, num(a, 1e16), n, num(a, -0.0), num(a, 1.5), num(a, 1e-5),
                   date, value_new(a, V_ARRAY, 1, 1)};
    buf out = BUF_INIT;
    err e;
    ck_assert_int_eq(canon_write(&out, obj(a, 5, kv), &e), 0);
    ck_assert_str_eq(out.data, "{\"1.5\":1e-05,\"200\":\"ok\",\"2026-10-26\":[],"
                               "\"null\":-0.0,\"true\":1e+16}");
    buf_free(&out);
    arena_free(a);
}
END_TEST

static void assert_refused(value *v, const char *path, const char *msg)
{
    buf out = BUF_INIT;
    err e;
    err_clear(&e);
    ck_assert_int_eq(canon_write(&out, v, &e), -1);
    ck_assert_str_eq(e.path, path);
    ck_assert_str_eq(e.msg, msg);
    ck_assert_uint_eq(out.len, 0); /* nothing half-written */
    buf_free(&out);
}

START_TEST(unrepresentable_values_are_refused)
{
    arena *a = arena_new();
    value *inner[] = {str(a, "x.y", 3), num(a, NAN)};
    value *kv[] = {str(a, "paths", 5), obj(a, 1, inner)};
    assert_refused(obj(a, 1, kv), "$.paths[\"x.y\"]",
                   "NaN is not a JSON number; quote it or remove it");
    value *inf[] = {str(a, "max", 3), num(a, -INFINITY)};
    assert_refused(obj(a, 1, inf), "$.max",
                   "an infinite number is not a JSON number; quote it or "
                   "write a finite one");
    value *lone = str(a, "a\xed\xa0\x80", 4);
    lone->flags = VF_UNENCODABLE;
    value *sur[] = {str(a, "name", 4), lone};
    assert_refused(obj(a, 1, sur), "$.name",
                   "a string holds a lone surrogate (\\ud800), which UTF-8 "
                   "cannot carry; write the character whole or remove it");
    value *twice[] = {value_new_text(a, V_INT, "200", 3, 1, 1), str(a, "a", 1),
                      str(a, "200", 3), str(a, "b", 1)};
    assert_refused(obj(a, 2, twice), "$",
                   "two keys become one: the integer 200 and the string "
                   "\"200\" are both written \"200\"; rename or remove one");
    arena_free(a);
}
END_TEST

Suite *canon_suite(void)
{
    Suite *s = suite_create("canon");
    TCase *tc = tcase_create("writer");
    tcase_add_test(tc, strings_escape_as_python_does);
    tcase_add_test(tc, keys_sort_by_code_point);
    tcase_add_test(tc, scalars_and_keys_as_text);
    tcase_add_test(tc, unrepresentable_values_are_refused);
    suite_add_tcase(s, tc);
    return s;
}
