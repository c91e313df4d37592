/* The small modules under everything: value lookups, buffers, the arena,
 * error lines, document paths and text shown on a terminal. */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "err.h"
#include "path.h"
#include "strmap.h"
#include "unit.h"
#include "utf8.h"
#include "value.h"
#include "vbuild.h"

START_TEST(arena_aligns_and_copies)
{
    arena *a = arena_new();
    for (size_t n = 1; n < 70000; n = n * 3 + 1) {
        void *p = arena_alloc(a, n);
        ck_assert_ptr_nonnull(p);
        ck_assert_uint_eq((uintptr_t)p % 16, 0);
    }
    char *s = arena_memdup(a, "a\0b", 3);
    ck_assert_int_eq(memcmp(s, "a\0b\0", 4), 0);
    arena_free(a);
    arena_free(NULL);
}
END_TEST

START_TEST(buf_grows_and_stays_terminated)
{
    buf b = BUF_INIT;
    for (int i = 0; i < 1000; i++)
        ck_assert_int_eq(buf_printf(&b, "%d,", i % 10), 0);
    ck_assert_uint_eq(b.len, 2000);
    ck_assert_int_eq(b.data[b.len], '\0');
    buf_reset(&b);
    ck_assert_str_eq(b.data, "");
    buf_free(&b);
    buf_free(&b);
}
END_TEST

START_TEST(err_lines)
{
    err e;
    char line[256];
    err_clear(&e);
    err_set(&e, ERR_VALUE, "bad %s", "thing");
    err_format(&e, "f.yaml", line, sizeof line);
    ck_assert_str_eq(line, "f.yaml: bad thing");
    err_at(&e, 3, 7);
    strcpy(e.path, "$.a[1]");
    err_format(&e, "f.yaml", line, sizeof line);
    ck_assert_str_eq(line, "f.yaml:3:7: $.a[1]: bad thing");
    err_format(&e, NULL, line, sizeof line);
    ck_assert_str_eq(line, "3:7: $.a[1]: bad thing");
}
END_TEST

START_TEST(paths_quote_what_is_not_plain)
{
    char out[128];
    path_seg a = {NULL, "paths", 5, 0};
    path_seg b = {&a, "/orders.get", 11, 0};
    path_seg c = {&b, NULL, 0, 4};
    path_seg d = {&c, "say \"hi\"", 8, 0};
    path_format(&d, out, sizeof out);
    ck_assert_str_eq(out, "$.paths[\"/orders.get\"][4][\"say \\\"hi\\\"\"]");
    path_format(NULL, out, sizeof out);
    ck_assert_str_eq(out, "$");
    path_format(&d, out, 8);
    ck_assert_str_eq(out, "$.paths");
}
END_TEST

START_TEST(strmap_finds_what_it_holds)
{
    strmap m = STRMAP_INIT;
    char keys[2000][8];
    for (size_t i = 0; i < 2000; i++) {
        snprintf(keys[i], sizeof keys[i], "k%zu", i);
        size_t v = i;
        ck_assert_int_eq(strmap_get_or_put(&m, keys[i], strlen(keys[i]), &v), 0);
    }
    size_t v = 99999;
    ck_assert_int_eq(strmap_get_or_put(&m, "k1234", 5, &v), 1);
    ck_assert_uint_eq(v, 1234);
    strmap_set(&m, "k1234", 5, 7);
    ck_assert_int_eq(strmap_get_or_put(&m, "k1234", 5, &v), 1);
    ck_assert_uint_eq(v, 7);
    v = 5;
    ck_assert_int_eq(strmap_get_or_put(&m, "", 0, &v), 0);
    ck_assert_int_eq(strmap_get_or_put(&m, "", 0, &v), 1);
    strmap_free(&m);
}
END_TEST

START_TEST(value_get_finds_string_keys)
{
    arena *a = arena_new();
    value *o = value_new(a, V_OBJECT, 1, 1);
    o->u.obj.items = arena_alloc(a, 2 * sizeof *o->u.obj.items);
    o->u.obj.len = 2;
    o->u.obj.items[0].key = value_new_text(a, V_STRING, "name", 4, 1, 1);
    o->u.obj.items[0].val = value_new_text(a, V_STRING, "x", 1, 1, 1);
    o->u.obj.items[1].key = value_new_text(a, V_INT, "200", 3, 1, 1);
    o->u.obj.items[1].val = value_new(a, V_NULL, 1, 1);
    ck_assert_ptr_eq(value_getz(o, "name"), o->u.obj.items[0].val);
    ck_assert_ptr_null(value_getz(o, "200")); /* an integer key is no string */
    ck_assert_ptr_null(value_getz(NULL, "name"));
    ck_assert_str_eq(value_kind_name(V_TIMESTAMP), "timestamp");
    arena_free(a);
}
END_TEST

/* value_count, value_amount and value_reward, on every kind of figure a
 * log gives */
START_TEST(figures_read_one_way)
{
    arena *a = arena_new();
    value *v;
    int64_t n = -7;
    double d = -7;
#define TEXT(kind, t) value_new_text(a, kind, t, sizeof t - 1, 1, 1)
    ck_assert_int_eq(value_count(NULL, &n), VFIG_NONE);
    ck_assert_int_eq(value_count(value_new(a, V_NULL, 1, 1), &n), VFIG_NONE);
    ck_assert_int_eq(value_count(TEXT(V_INT, "9223372036854775807"), &n),
                     VFIG_OK);
    ck_assert_int_eq(n, INT64_MAX);
    ck_assert_int_eq(value_count(TEXT(V_INT, "9223372036854775808"), &n),
                     VFIG_HUGE);
    ck_assert_int_eq(value_count(TEXT(V_INT, "-1"), &n), VFIG_NEGATIVE);
    ck_assert_int_eq(value_count(TEXT(V_STRING, "12"), &n), VFIG_KIND);
    v = value_new(a, V_FLOAT, 1, 1);
    v->u.d = 1200.0;
    ck_assert_int_eq(value_count(v, &n), VFIG_OK);
    ck_assert_int_eq(n, 1200);
    v->u.d = 12.5;
    ck_assert_int_eq(value_count(v, &n), VFIG_FRACTION);
    v->u.d = 1e20;
    ck_assert_int_eq(value_count(v, &n), VFIG_FLOAT_BIG);
    v->u.d = -0.5;
    ck_assert_int_eq(value_count(v, &n), VFIG_NEGATIVE);
    v->u.d = -0.0;
    ck_assert_int_eq(value_amount(v, &d), VFIG_OK);
    ck_assert(d == 0 && !signbit(d));
    v->u.d = 1e308 * 10;
    ck_assert_int_eq(value_amount(v, &d), VFIG_HUGE);
    ck_assert_int_eq(value_amount(TEXT(V_INT, "3"), &d), VFIG_OK);
    ck_assert(d == 3.0);
    ck_assert_int_eq(value_amount(TEXT(V_INT, "-3"), &d), VFIG_NEGATIVE);
    ck_assert_int_eq(value_amount(TEXT(V_BOOL, "x"), &d), VFIG_KIND);
    /* a reward: either sign, finite */
    ck_assert_int_eq(value_reward(TEXT(V_INT, "-3"), &d), VFIG_OK);
    ck_assert(d == -3.0);
    v->u.d = -0.0;
    ck_assert_int_eq(value_reward(v, &d), VFIG_OK);
    ck_assert(d == 0 && !signbit(d));
    v->u.d = -1e308 * 10;
    d = 7;
    ck_assert_int_eq(value_reward(v, &d), VFIG_HUGE);
    ck_assert(d == 7); /* left as it was */
    char digits[402];
    memset(digits, '9', 400);
    digits[400] = '\0';
    ck_assert_int_eq(value_reward(value_new_text(a, V_INT, digits, 400, 1, 1),
                                  &d),
                     VFIG_HUGE);
    ck_assert_int_eq(value_reward(TEXT(V_STRING, "1"), &d), VFIG_KIND);
    ck_assert_int_eq(value_reward(value_new(a, V_NULL, 1, 1), &d), VFIG_NONE);
    ck_assert_int_eq(value_reward(NULL, &d), VFIG_NONE);
#undef TEXT
    arena_free(a);
}
END_TEST

START_TEST(value_get_compares_whole_keys)
{
    arena *a = arena_new();
    value *o = vb_object(a);
    static const char *const keys[] = {"nbme", "name", "", "n\0x", "n\0y"};
    static const size_t lens[] = {4, 4, 0, 3, 3};
    value *vals[5];
    for (int i = 0; i < 5; i++) {
        vals[i] = vb_int(a, i);
        ck_assert_int_eq(vb_putv(a, o, vb_strn(a, keys[i], lens[i]), vals[i]),
                         0);
    }
    for (int i = 0; i < 5; i++)
        ck_assert_ptr_eq(value_get(o, keys[i], lens[i]), vals[i]);
    ck_assert_ptr_null(value_get(o, "nam", 3));
    ck_assert_ptr_null(value_get(o, "n\0z", 3));
    ck_assert_ptr_eq(value_getz(o, ""), vals[2]);
    arena_free(a);
}
END_TEST

/* The member of o keyed (ptr, len), by a scan. */
static const value *scan_for(const value *o, const char *ptr, size_t len)
{
    for (size_t i = 0; i < o->u.obj.len; i++) {
        const value *k = o->u.obj.items[i].key;
        if (k->u.str.len == len && memcmp(k->u.str.ptr, ptr, len) == 0)
            return o->u.obj.items[i].val;
    }
    return NULL;
}

/* An indexed object (value_index) finds what a scan finds, keeps its
 * members in their order, and its copies are plain objects again. */
START_TEST(value_index_finds_what_a_scan_finds)
{
    arena *a = arena_new();
    value *root = vb_object(a), *small = vb_object(a), *big = vb_object(a);
    ck_assert_int_eq(vb_putv(a, root, vb_str(a, "small"), small), 0);
    ck_assert_int_eq(vb_putv(a, root, vb_str(a, "big"), big), 0);
    char key[32];
    /* keys that share prefixes, differ in length, hold a NUL or none */
    for (int i = 0; i < 300; i++) {
        int n = snprintf(key, sizeof key, "k%d", (i * 37) % 300);
        if (i % 50 == 7)
            key[1] = '\0'; /* "k\0..." */
        ck_assert_int_eq(vb_putv(a, big, vb_strn(a, key, (size_t)n),
                                 vb_int(a, i)),
                         0);
    }
    ck_assert_int_eq(vb_putv(a, big, vb_strn(a, "", 0), vb_int(a, -1)), 0);
    for (int i = 0; i < VALUE_INDEX_MIN - 1; i++) {
        snprintf(key, sizeof key, "s%d", i);
        ck_assert_int_eq(vb_putv(a, small, vb_str(a, key), vb_int(a, i)), 0);
    }
    size_t nbig = big->u.obj.len;
    const value_member *before = big->u.obj.items;
    value_member *copy = malloc(nbig * sizeof *copy);
    ck_assert_ptr_nonnull(copy);
    memcpy(copy, before, nbig * sizeof *copy);
    ck_assert_int_eq(value_index(root, a), 0);
    ck_assert(big->flags & VF_INDEXED);
    ck_assert(!(small->flags & VF_INDEXED));
    ck_assert(!(root->flags & VF_INDEXED));
    ck_assert_uint_eq(big->u.obj.len, nbig);
    for (size_t i = 0; i < nbig; i++) { /* the same members, in order */
        ck_assert_ptr_eq(big->u.obj.items[i].key, copy[i].key);
        ck_assert_ptr_eq(big->u.obj.items[i].val, copy[i].val);
        const value *k = copy[i].key;
        ck_assert_ptr_eq(value_get(big, k->u.str.ptr, k->u.str.len),
                         copy[i].val);
    }
    free(copy);
    /* keys there and not, around every one */
    for (int i = 0; i < 400; i++) {
        int n = snprintf(key, sizeof key, "k%d", i);
        for (int cut = 0; cut <= n; cut++) {
            ck_assert_ptr_eq(value_get(big, key, (size_t)cut),
                             scan_for(big, key, (size_t)cut));
            key[1] ^= '1'; /* another byte there (a NUL for 1), then back */
            ck_assert_ptr_eq(value_get(big, key, (size_t)cut),
                             scan_for(big, key, (size_t)cut));
            key[1] ^= '1';
        }
    }
    ck_assert_ptr_eq(value_getz(big, "k12"), scan_for(big, "k12", 3));
    ck_assert_ptr_nonnull(value_getz(big, "k12"));
    ck_assert_ptr_null(value_getz(big, "k300"));
    ck_assert_ptr_nonnull(value_get(big, "", 0));
    /* indexing again changes nothing */
    const value_member *items = big->u.obj.items;
    ck_assert_int_eq(value_index(root, a), 0);
    ck_assert_ptr_eq(big->u.obj.items, items);
    /* a copy is a plain object, which may grow */
    value *clone = vb_clone(a, big);
    ck_assert(!(clone->flags & VF_INDEXED));
    ck_assert_int_eq(vb_putv(a, clone, vb_str(a, "k999"), vb_int(a, 9)), 0);
    ck_assert_ptr_nonnull(value_getz(clone, "k999"));
    ck_assert_ptr_nonnull(value_getz(clone, "k12"));
    /* an object with a key that is not a string is left as it is */
    value *mixed = vb_object(a);
    for (int i = 0; i < VALUE_INDEX_MIN; i++) {
        snprintf(key, sizeof key, "m%d", i);
        ck_assert_int_eq(vb_putv(a, mixed, vb_str(a, key), vb_int(a, i)), 0);
    }
    mixed->u.obj.items[3].key = vb_int(a, 3);
    ck_assert_int_eq(value_index(mixed, a), 0);
    ck_assert(!(mixed->flags & VF_INDEXED));
    arena_free(a);
}
END_TEST

START_TEST(text_nodes_and_counts)
{
    arena *a = arena_new();
    value *v = value_new_text(a, V_STRING, "a\0b", 3, 2, 5);
    ck_assert_uint_eq(v->u.str.len, 3);
    ck_assert_int_eq(memcmp(v->u.str.ptr, "a\0b\0", 4), 0);
    ck_assert_uint_eq(v->line, 2);
    ck_assert_uint_eq(v->col, 5);
    ck_assert_uint_eq(v->flags, 0);
    ck_assert_uint_eq((uintptr_t)v % 16, 0);
    /* Every length copies exactly, and no byte past it is read. */
    char src[40];
    for (size_t n = 0; n <= sizeof src; n++) {
        char *exact = malloc(n ? n : 1);
        ck_assert_ptr_nonnull(exact);
        for (size_t i = 0; i < n; i++)
            src[i] = exact[i] = (char)('a' + i);
        value *t = value_new_text(a, V_STRING, exact, n, 1, 1);
        ck_assert_uint_eq(t->u.str.len, n);
        ck_assert_int_eq(memcmp(t->u.str.ptr, src, n), 0);
        ck_assert_int_eq(t->u.str.ptr[n], '\0');
        free(exact);
    }
    ck_assert_ptr_null(value_new_text(a, V_STRING, "", SIZE_MAX, 1, 1));
    ck_assert_ptr_null(value_new_text(a, V_STRING, "", SIZE_MAX - 40, 1, 1));
    ck_assert_ptr_null(arena_alloc(a, SIZE_MAX));
    ck_assert_ptr_null(arena_alloc(a, SIZE_MAX - 8));
    size_t before = arena_used(a);
    ck_assert_ptr_nonnull(arena_alloc(a, 1));
    ck_assert_ptr_nonnull(arena_alloc(a, 100000)); /* a chunk of its own */
    ck_assert_uint_eq(arena_used(a), before + 16 + 100000);
    arena_reset(a);
    ck_assert_uint_eq(arena_used(a), 0);
    arena_free(a);
}
END_TEST

START_TEST(vbuild_ints_and_puts)
{
    static const long long ns[] = {0, 7, -1, 10, -10, 1234567890123LL,
                                   LLONG_MAX, LLONG_MIN};
    arena *a = arena_new();
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        char want[32];
        snprintf(want, sizeof want, "%lld", ns[i]);
        value *v = vb_int(a, ns[i]);
        ck_assert_int_eq(v->kind, V_INT);
        ck_assert_str_eq(v->u.str.ptr, want);
        ck_assert_uint_eq(v->u.str.len, strlen(want));
    }
    /* A key put again keeps its place and its first key node. */
    value *o = vb_object(a);
    ck_assert_int_eq(vb_put(a, o, "b", vb_int(a, 1)), 0);
    ck_assert_int_eq(vb_put(a, o, "a", vb_int(a, 2)), 0);
    const value *first_key = o->u.obj.items[0].key;
    ck_assert_int_eq(vb_put(a, o, "b", vb_int(a, 3)), 0);
    ck_assert_uint_eq(o->u.obj.len, 2);
    ck_assert_ptr_eq(o->u.obj.items[0].key, first_key);
    ck_assert_str_eq(o->u.obj.items[0].val->u.str.ptr, "3");
    ck_assert_int_eq(vb_put(a, o, "c", NULL), -1);
    ck_assert_int_eq(vb_put(a, NULL, "c", vb_int(a, 1)), -1);
    ck_assert_int_eq(vb_put(a, vb_array(a), "c", vb_int(a, 1)), -1);
    for (int i = 0; i < 40; i++) {
        char key[16];
        snprintf(key, sizeof key, "k%d", i);
        ck_assert_int_eq(vb_put(a, o, key, vb_int(a, i)), 0);
    }
    ck_assert_uint_eq(o->u.obj.len, 42);
    ck_assert_str_eq(value_getz(o, "k39")->u.str.ptr, "39");
    ck_assert_str_eq(value_getz(o, "a")->u.str.ptr, "2");
    arena_free(a);
}
END_TEST

static buf shown_buf;

/* utf8_shown(s, len, max) as a string, until the next call. */
static const char *shown(const char *s, size_t len, size_t max)
{
    buf_reset(&shown_buf);
    ck_assert_int_eq(utf8_shown(&shown_buf, s, len, max), 0);
    return shown_buf.data ? shown_buf.data : "";
}

START_TEST(utf8_shown_escapes_what_a_terminal_obeys)
{
    const size_t all = (size_t)-1;
#define SHOWN(in, want) \
    ck_assert_str_eq(shown(in, sizeof in - 1, all), want)
    SHOWN("", "");
    SHOWN("plain text, é ü 日本 😀", "plain text, é ü 日本 😀");
    SHOWN("a\nb\tc\rd", "a\\nb\\tc\\rd");
    SHOWN("x\x1b[2Jy", "x\\x1b[2Jy");
    SHOWN("\x01\x1f\x7f", "\\x01\\x1f\\x7f");
    SHOWN("back\\slash \\n", "back\\\\slash \\\\n");
    SHOWN("|pipes| stay", "|pipes| stay");
    /* C1 controls: U+0080, U+0085 (NEL), U+009B (CSI), U+009F; U+00A0 kept */
    SHOWN("\xc2\x80\xc2\x85\xc2\x9b\xc2\x9f\xc2\xa0",
          "\\u{80}\\u{85}\\u{9b}\\u{9f}\xc2\xa0");
    /* bidirectional embeddings, overrides, isolates; U+2029 U+2028 */
    SHOWN("\xe2\x80\xaa\xe2\x80\xae\xe2\x81\xa6\xe2\x81\xa9",
          "\\u{202a}\\u{202e}\\u{2066}\\u{2069}");
    SHOWN("\xe2\x80\xa8\xe2\x80\xa9", "\\u{2028}\\u{2029}");
    /* their neighbours are kept: U+2027, U+202F, U+2065, U+206A */
    SHOWN("\xe2\x80\xa7\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa",
          "\xe2\x80\xa7\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa");
    /* invalid bytes, a character cut short, an overlong form, a lone
     * surrogate */
    SHOWN("a\xff" "b\xc3", "a\\xffb\\xc3");
    SHOWN("\xc0\xaf", "\\xc0\\xaf");
    SHOWN("\xed\xa0\x80", "\\u{d800}");
#undef SHOWN
    /* NUL, with its length */
    ck_assert_str_eq(shown("a\0b", 3, all), "a\\x00b");
    /* cut before the character or escape that would pass max */
    ck_assert_str_eq(shown("abcdef", 6, 6), "abcdef");
    ck_assert_str_eq(shown("abcdef", 6, 5), "abcde...");
    ck_assert_str_eq(shown("ab\ncd", 5, 3), "ab...");
    ck_assert_str_eq(shown("ab\ncd", 5, 4), "ab\\n...");
    ck_assert_str_eq(shown("a\xc3\xa9", 3, 2), "a...");
    ck_assert_str_eq(shown("abc", 3, 0), "...");
    /* appends */
    buf b = BUF_INIT;
    buf_puts(&b, "x:");
    ck_assert_int_eq(utf8_shown(&b, "\t", 1, all), 0);
    ck_assert_str_eq(b.data, "x:\\t");
    buf_free(&b);
    buf_free(&shown_buf);
}
END_TEST

/* utf8_safe escapes as utf8_shown does but keeps backslashes, so that
 * utf8_shown's output comes through unchanged. */
START_TEST(utf8_safe_keeps_what_was_shown)
{
    const char raw[] = "a\\b\x1b[2J\n\xe2\x80\xae\xff";
    buf once = BUF_INIT, safe = BUF_INIT, again = BUF_INIT;
    ck_assert_int_eq(utf8_safe(&safe, raw, sizeof raw - 1), 0);
    ck_assert_str_eq(safe.data, "a\\b\\x1b[2J\\n\\u{202e}\\xff");
    ck_assert_int_eq(utf8_shown(&once, raw, sizeof raw - 1, (size_t)-1), 0);
    ck_assert_str_eq(once.data, "a\\\\b\\x1b[2J\\n\\u{202e}\\xff");
    ck_assert_int_eq(utf8_safe(&again, once.data, once.len), 0);
    ck_assert_str_eq(again.data, once.data);
    buf_free(&once);
    buf_free(&safe);
    buf_free(&again);
}
END_TEST

Suite *value_suite(void)
{
    Suite *s = suite_create("value");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120); /* room for a busy machine, under ASan */
    tcase_add_test(tc, arena_aligns_and_copies);
    tcase_add_test(tc, buf_grows_and_stays_terminated);
    tcase_add_test(tc, err_lines);
    tcase_add_test(tc, paths_quote_what_is_not_plain);
    tcase_add_test(tc, strmap_finds_what_it_holds);
    tcase_add_test(tc, value_get_finds_string_keys);
    tcase_add_test(tc, value_get_compares_whole_keys);
    tcase_add_test(tc, figures_read_one_way);
    tcase_add_test(tc, value_index_finds_what_a_scan_finds);
    tcase_add_test(tc, text_nodes_and_counts);
    tcase_add_test(tc, vbuild_ints_and_puts);
    tcase_add_test(tc, utf8_shown_escapes_what_a_terminal_obeys);
    tcase_add_test(tc, utf8_safe_keeps_what_was_shown);
    suite_add_tcase(s, tc);
    return s;
}
