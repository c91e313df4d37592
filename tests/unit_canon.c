/* The canonical writer: json.dumps(sort_keys=True, separators=(",", ":"),
 * ensure_ascii=False, allow_nan=False), byte for byte, on trees built by
 * hand so that each rule is checked alone.  Also the buffer it writes
 * into, whose buf_printf() must write what snprintf writes. */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include "canon.h"
#include "json_load.h"
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

/* An object of what canonical JSON refuses: NaN and infinities, lone
 * surrogates in a string and in a key, and a NaN for a key. */
static value *unencodable(arena *a)
{
    value *lone = str(a, "a\xed\xa0\x80\n\xed\xbf\xbfz\xc3\xa9", 11);
    lone->flags = VF_UNENCODABLE;
    value *key = str(a, "\xed\xb0\x80k", 4);
    key->flags = VF_UNENCODABLE;
    value *kv[] = {str(a, "nan", 3), num(a, NAN),
                   str(a, "inf", 3), num(a, INFINITY),
                   str(a, "minus", 5), num(a, -INFINITY),
                   str(a, "s", 1), lone,
                   key, num(a, 1.5),
                   num(a, NAN), str(a, "float key", 9)};
    return obj(a, 6, kv);
}

/* The loose writer: what canonical JSON refuses and a reader reads back,
 * written as json.dumps(allow_nan=True, ensure_ascii=False) writes it,
 * but a lone surrogate as its escape (UTF-8 cannot carry it); the text
 * read back by json_load and written again is the same text. */
START_TEST(loose_writes_what_readers_read_back)
{
    arena *a = arena_new();
    value *tree = unencodable(a);
    static const char want[] =
        "{\"NaN\":\"float key\",\"inf\":Infinity,\"minus\":-Infinity,"
        "\"nan\":NaN,\"s\":\"a\\ud800\\n\\udfffz\xc3\xa9\",\"\\udc00k\":1.5}";
    buf out = BUF_INIT, again = BUF_INIT;
    err e;
    ck_assert_int_eq(canon_append_loose(&out, tree, &e), 0);
    ck_assert_str_eq(out.data, want);
    /* strict, the same tree is refused */
    ck_assert_int_eq(canon_append(&again, tree, &e), -1);
    value *back = NULL;
    ck_assert_int_eq(json_load(&back, a, out.data, out.len, &e), 0);
    ck_assert_int_eq(canon_append_loose(&again, back, &e), 0);
    ck_assert_str_eq(again.data, want);
    /* what needs neither is the canonical text */
    buf_reset(&out);
    buf_reset(&again);
    value *plain[] = {str(a, "b", 1), num(a, 0.1), str(a, "a", 1),
                      str(a, "\x01\"", 2)};
    ck_assert_int_eq(canon_append_loose(&out, obj(a, 2, plain), &e), 0);
    ck_assert_int_eq(canon_append(&again, obj(a, 2, plain), &e), 0);
    ck_assert_str_eq(out.data, again.data);
    buf_free(&out);
    buf_free(&again);
    arena_free(a);
}
END_TEST

/* canon_loose_length: the length canon_append_loose writes, unwritten,
 * for every kind of value, escape and key; and the limits refused. */
START_TEST(loose_length_is_the_length_written)
{
    static const char *const texts[] = {
        "null", "true", "false", "0", "-12345678901234567890123", "1.5",
        "-0.0", "1e300", "5e-324", "\"\"", "\"\\u0000\\u001f\\\"\\\\\"",
        "\"\\n\\r\\t\\b\\f\\u007f \\u00e9\\u20ac\\ud83d\\ude00\"",
        "[]", "{}", "[[],{},[1,[2,[3]]]]",
        "{\"b\":1,\"a\":[true,null],\"\\u00e9\":{\"\":\"\\n\"},"
        "\"a\\\"b\":2.25}",
        "{\"m\":1,\"c\":2,\"q\":3,\"a\":4,\"k\":5,\"b\":6,\"p\":7,\"d\":8,"
        "\"o\":9,\"e\":[0.1,-7,\"x\\ty\"]}",
        "\"\\ud800\"",
        "{\"\\udc00k\\ud800\":\"a\\ud800b\\udfff\\ud83d\\ude00\"}",
        "[NaN,Infinity,-Infinity]",
        /* escapes in every place of the words scanned eight at a time */
        "\"abcdefgh\\\"ijklmnop\\\\qrstuvw\\nxyz\\u0001a\\tbcdefgh"
        "12345\\u001f\"",
    };
    arena *a = arena_new();
    buf out = BUF_INIT;
    err e;
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
        value *v = NULL;
        size_t len = 0;
        ck_assert_int_eq(json_load(&v, a, texts[i], strlen(texts[i]), &e), 0);
        buf_reset(&out);
        ck_assert_int_eq(canon_append_loose(&out, v, &e), 0);
        ck_assert_int_eq(canon_loose_length(v, &len, &e), 0);
        ck_assert_uint_eq(len, out.len);
    }
    /* the tree of loose_writes_what_readers_read_back: 101 bytes */
    value *tree = unencodable(a);
    size_t len = 0;
    buf_reset(&out);
    ck_assert_int_eq(canon_append_loose(&out, tree, &e), 0);
    ck_assert_int_eq(canon_loose_length(tree, &len, &e), 0);
    ck_assert_uint_eq(out.len, 101);
    ck_assert_uint_eq(len, 101);
    /* past the nesting limit, and binary data: refused, as written */
    value *deep = value_new(a, V_NULL, 1, 1);
    for (int i = 0; i < VALUE_MAX_DEPTH + 1; i++) {
        value *arr = value_new(a, V_ARRAY, 1, 1);
        arr->u.arr.items = arena_alloc(a, sizeof(value *));
        arr->u.arr.items[0] = deep;
        arr->u.arr.len = 1;
        deep = arr;
    }
    ck_assert_int_eq(canon_loose_length(deep, &len, &e), -1);
    ck_assert_int_eq(e.code, ERR_LIMIT);
    value *bad = value_new_text(a, V_BAD, "binary data", 11, 1, 1);
    ck_assert_int_eq(canon_loose_length(bad, &len, &e), -1);
    ck_assert_str_eq(e.msg, "binary data");
    buf_free(&out);
    arena_free(a);
}
END_TEST

START_TEST(strings_escape_anywhere)
{
    /* Escapes first, last, in a row, and none, in strings long and short. */
    static const struct {
        const char *in, *out;
    } cases[] = {
        {"", "\"\""},
        {"\"", "\"\\\"\""},
        {"\\\\", "\"\\\\\\\\\""},
        {"\nabcdefghijklmnopqrstuvwxyz", "\"\\nabcdefghijklmnopqrstuvwxyz\""},
        {"abcdefghijklmnopqrstuvwxyz\x1f",
         "\"abcdefghijklmnopqrstuvwxyz\\u001f\""},
        {"abcdefgh\"ijklmnop\\", "\"abcdefgh\\\"ijklmnop\\\\\""},
        {"plain text of some length, nothing to escape in it at all",
         "\"plain text of some length, nothing to escape in it at all\""},
    };
    buf out = BUF_INIT;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        buf_reset(&out);
        ck_assert_int_eq(
            canon_write_string(&out, cases[i].in, strlen(cases[i].in)), 0);
        ck_assert_str_eq(out.data, cases[i].out);
    }
    buf_free(&out);
}
END_TEST

/* Objects of up to 8 members and larger ones are sorted differently; both
 * must give code point order, and both must see two keys that become one. */
START_TEST(large_objects_sort_and_collide)
{
    static const char *const names[] = {"m", "c", "q", "a", "k", "b", "p",
                                        "d", "o", "e", "n", "f", "l", "g",
                                        "j", "h", "i", "r", "Z", "aa"};
    enum { N = sizeof names / sizeof names[0] };
    arena *a = arena_new();
    value *kv[2 * N];
    for (size_t n = 1; n <= N; n++) {
        for (size_t i = 0; i < n; i++) {
            kv[2 * i] = str(a, names[i], strlen(names[i]));
            kv[2 * i + 1] = num(a, (double)i);
        }
        /* The expected text, by a plain selection of the least key left. */
        int used[N] = {0};
        char want[512] = "{";
        for (size_t k = 0; k < n; k++) {
            size_t best = N;
            for (size_t i = 0; i < n; i++)
                if (!used[i] &&
                    (best == N || strcmp(names[i], names[best]) < 0))
                    best = i;
            used[best] = 1;
            char member[32];
            snprintf(member, sizeof member, "%s\"%s\":%zu.0", k ? "," : "",
                     names[best], best);
            strcat(want, member);
        }
        strcat(want, "}");
        buf out = BUF_INIT;
        err e;
        ck_assert_int_eq(canon_write(&out, obj(a, n, kv), &e), 0);
        ck_assert_str_eq(out.data, want);
        buf_free(&out);
    }
    /* A float key among many, and one that becomes the text of another. */
    kv[2 * 17] = num(a, 2.5);
    value *o = obj(a, N, kv);
    buf out = BUF_INIT;
    err e;
    ck_assert_int_eq(canon_write(&out, o, &e), 0);
    ck_assert_ptr_nonnull(strstr(out.data, "{\"2.5\":17.0,\"Z\":18.0,"));
    kv[2 * 3] = str(a, "2.5", 3);
    err_clear(&e);
    ck_assert_int_eq(canon_write(&out, obj(a, N, kv), &e), -1);
    ck_assert_str_eq(e.msg, "two keys become one: the string \"2.5\" and "
                            "the number 2.5 are both written \"2.5\"; "
                            "rename or remove one");
    value *few[] = {num(a, 1.0), str(a, "x", 1), str(a, "1.0", 3),
                    str(a, "y", 1)};
    ck_assert_int_eq(canon_write(&out, obj(a, 2, few), &e), -1);
    ck_assert_str_eq(e.msg, "two keys become one: the number 1.0 and the "
                            "string \"1.0\" are both written \"1.0\"; "
                            "rename or remove one");
    buf_free(&out);
    arena_free(a);
}
END_TEST

/* ------------------------------------------------------------------- buf */

/* buf_printf() after some text already there, against snprintf. */
#define CHECK_PRINTF(...)                                                     \
    do {                                                                      \
        char want_[600];                                                      \
        int n_ = snprintf(want_, sizeof want_, __VA_ARGS__);                  \
        ck_assert(n_ >= 0 && (size_t)n_ < sizeof want_);                      \
        buf b_ = BUF_INIT;                                                    \
        ck_assert_int_eq(buf_puts(&b_, ">"), 0);                              \
        ck_assert_int_eq(buf_printf(&b_, __VA_ARGS__), 0);                    \
        ck_assert_uint_eq(b_.len, (size_t)n_ + 1);                            \
        ck_assert_mem_eq(b_.data + 1, want_, (size_t)n_ + 1);                 \
        buf_free(&b_);                                                        \
    } while (0)

START_TEST(printf_integers)
{
    CHECK_PRINTF("%d|%i|%d|%d|%d", 0, -1, 42, INT_MIN, INT_MAX);
    CHECK_PRINTF("%u|%u|%x|%x", 0u, UINT_MAX, 0xdeadbeefu, 0u);
    CHECK_PRINTF("%ld|%ld|%lu|%lx", LONG_MIN, LONG_MAX, ULONG_MAX, 255ul);
    CHECK_PRINTF("%lld|%lld|%llu|%llx", LLONG_MIN, LLONG_MAX, ULLONG_MAX,
                 0x123456789abcdefull);
    CHECK_PRINTF("%zu|%zx|%zu", SIZE_MAX, (size_t)4096, (size_t)0);
    CHECK_PRINTF("%04ld-%02ld-%02ld", 2026L, 7L, 31L);
    CHECK_PRINTF("%02ld:%02ld:%02ldZ", 0L, 5L, 123L);
    CHECK_PRINTF("%05d|%05d|%5d|%5d|%1d|%09u", -42, 42, -42, 42, -42, 7u);
    CHECK_PRINTF("%020lld|%3x|%08x", LLONG_MIN, 0xfu, 0xabcu);
    CHECK_PRINTF("[%zu].%s#%d", (size_t)3, "key", 2);
}
END_TEST

START_TEST(printf_strings)
{
    CHECK_PRINTF("%s", "");
    CHECK_PRINTF("plain text, no conversion");
    CHECK_PRINTF("%%|%s%%%s|%%", "a", "b");
    CHECK_PRINTF("%s %s", "first", "second");
    CHECK_PRINTF("(%.*s)", 3, "abcdef");
    CHECK_PRINTF("(%.*s)", 10, "abc");
    CHECK_PRINTF("(%.*s)", -1, "abc");
    CHECK_PRINTF("(%.*s)", 0, "abc");
    CHECK_PRINTF("(%.2s|%5s|%5.2s|%2s)", "abc", "abc", "abc", "abcdef");
    CHECK_PRINTF("%c|%3c|%c", 'x', 'y', 0xe9);
    static const char text[] = "0123456789012345678901234567890123456789"
                               "0123456789012345678901234567890123456789";
    CHECK_PRINTF("%s/%s/%s", text, text, text); /* grows the buffer */
}
END_TEST

/* Formats buf.c leaves to vsnprintf, alone and after conversions it
 * writes itself (whose arguments must then be read again). */
START_TEST(printf_other_formats)
{
    CHECK_PRINTF("%.0f|%.6f|%g|%e|%a", 2.5, 1.0 / 3.0, 1e100, -0.0, 1.0);
    CHECK_PRINTF("%s=%d then %.3f", "x", 5, 3.14159);
    CHECK_PRINTF("%-5s|%+d|% d|%#x|%#o|%o", "ab", 5, 5, 255u, 8u, 8u);
    CHECK_PRINTF("%hd|%hhu|%jd|%5.3d|%.0d", (short)-3, (unsigned char)200,
                 (intmax_t)-7, 12, 0);
    CHECK_PRINTF("%*d|%-*d|%*s", 6, 42, 6, 42, -4, "x");
    CHECK_PRINTF("%zd|%td", (ptrdiff_t)-5, (ptrdiff_t)9);
    CHECK_PRINTF("%-100s|%d", "wider than the room left", 1);
    CHECK_PRINTF("%ls|%lc", L"wide", (wint_t)L'w');
}
END_TEST

START_TEST(put_int_and_uint)
{
    static const long long ints[] = {0, 1, -1, 9, 10, -10, 99, 100,
                                     123456789, -987654321012LL, LLONG_MIN,
                                     LLONG_MAX};
    buf b = BUF_INIT;
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
        char want[32];
        snprintf(want, sizeof want, "%lld", ints[i]);
        buf_reset(&b);
        ck_assert_int_eq(buf_put_int(&b, ints[i]), 0);
        ck_assert_str_eq(b.data, want);
        snprintf(want, sizeof want, "%llu", (unsigned long long)ints[i]);
        buf_reset(&b);
        ck_assert_int_eq(buf_put_uint(&b, (unsigned long long)ints[i]), 0);
        ck_assert_str_eq(b.data, want);
    }
    buf_free(&b);
}
END_TEST

Suite *canon_suite(void)
{
    Suite *s = suite_create("canon");
    TCase *tc = tcase_create("writer");
    tcase_set_timeout(tc, 120); /* room for a busy machine, under ASan */
    tcase_add_test(tc, strings_escape_as_python_does);
    tcase_add_test(tc, strings_escape_anywhere);
    tcase_add_test(tc, keys_sort_by_code_point);
    tcase_add_test(tc, large_objects_sort_and_collide);
    tcase_add_test(tc, scalars_and_keys_as_text);
    tcase_add_test(tc, unrepresentable_values_are_refused);
    tcase_add_test(tc, loose_writes_what_readers_read_back);
    tcase_add_test(tc, loose_length_is_the_length_written);
    suite_add_tcase(s, tc);

    /* buf has no suite of its own: the writer is its main user. */
    tc = tcase_create("buf");
    tcase_set_timeout(tc, 120); /* room for a busy machine, under ASan */
    tcase_add_test(tc, printf_integers);
    tcase_add_test(tc, printf_strings);
    tcase_add_test(tc, printf_other_formats);
    tcase_add_test(tc, put_int_and_uint);
    suite_add_tcase(s, tc);
    return s;
}
