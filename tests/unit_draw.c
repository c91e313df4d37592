/* The keyed draw: the same key gives the same value, any part of the key
 * changed gives another; drawn values follow their schema's hints. */
#include <string.h>

#include "canon.h"
#include "draw.h"
#include "json_load.h"
#include "unit.h"

static const char *const FILE_A =
    "4acacf4693dbcbc81c0cc9e98ed4d2e017a2189edcfa89e0fba05e7433e4fd54";
/* FILE_A with its last hex digit changed, as one changed byte of the file
 * changes its hash */
static const char *const FILE_B =
    "4acacf4693dbcbc81c0cc9e98ed4d2e017a2189edcfa89e0fba05e7433e4fd55";

/* Draws from the schema (JSON text) and returns the canonical JSON in out. */
static void drawn(const char *file, uint64_t seed, const char *tool,
                  const char *args, const char *schema_json, buf *out)
{
    arena *a = arena_new();
    value *schema = NULL, *v = NULL;
    err e;
    draw_key k;
    ck_assert_int_eq(json_load(&schema, a, schema_json, strlen(schema_json),
                               &e), 0);
    draw_key_init(&k, file, seed, tool, args, strlen(args));
    ck_assert_int_eq(draw_value(&v, a, schema, schema, &k, "$", &e), 0);
    buf_reset(out);
    ck_assert_int_eq(canon_write(out, v, &e), 0);
    arena_free(a);
}

static const char *const ORDER =
    "{\"type\":\"object\",\"required\":[\"order_id\"],\"properties\":{"
    "\"order_id\":{\"type\":\"string\",\"minLength\":6,\"maxLength\":6},"
    "\"amount\":{\"type\":\"number\",\"minimum\":0,\"maximum\":50},"
    "\"when\":{\"type\":\"string\",\"format\":\"date\"},"
    "\"email\":{\"type\":\"string\"}}}";

START_TEST(same_key_same_value)
{
    buf x = BUF_INIT, y = BUF_INIT;
    drawn(FILE_A, 7, "get_order", "{\"order_id\":\"A-3317\"}", ORDER, &x);
    drawn(FILE_A, 7, "get_order", "{\"order_id\":\"A-3317\"}", ORDER, &y);
    ck_assert_str_eq(x.data, y.data);
    /* and the same on every machine: the layout is fixed (docs/draws.md) */
    ck_assert_str_eq(x.data, "{\"amount\":40.56,\"email\":"
                             "\"lena.mensah@example.com\",\"order_id\":"
                             "\"Q-4814\",\"when\":\"2025-11-15\"}");
    buf_free(&x);
    buf_free(&y);
}
END_TEST

START_TEST(any_part_of_the_key_changes_the_value)
{
    buf base = BUF_INIT, other = BUF_INIT;
    drawn(FILE_A, 7, "get_order", "{}", ORDER, &base);
    drawn(FILE_A, 8, "get_order", "{}", ORDER, &other);
    ck_assert_str_ne(base.data, other.data);
    drawn(FILE_B, 7, "get_order", "{}", ORDER, &other);
    ck_assert_str_ne(base.data, other.data);
    drawn(FILE_A, 7, "get_orders", "{}", ORDER, &other);
    ck_assert_str_ne(base.data, other.data);
    drawn(FILE_A, 7, "get_order", "{\"x\":1}", ORDER, &other);
    ck_assert_str_ne(base.data, other.data);
    buf_free(&base);
    buf_free(&other);
}
END_TEST

/* The formats people write besides JSON Schema's are drawn as what they
 * say; an integer format bounds the integer. */
START_TEST(written_formats_are_what_they_say)
{
    static const char *const cases[][2] = {
        {"{\"type\":\"string\",\"format\":\"ip-address\"}", "\"192.0.2.134\""},
        {"{\"type\":\"string\",\"format\":\"cidr\"}", "\"203.0.113.0/24\""},
        {"{\"type\":\"string\",\"format\":\"CIDR\"}", "\"203.0.113.0/24\""},
        {"{\"type\":\"string\",\"format\":\"byte\"}", "\"Y29wcGVy\""},
        {"{\"type\":\"string\",\"format\":\"base64\"}", "\"Y29wcGVy\""},
        {"{\"type\":\"string\",\"format\":\"url\"}",
         "\"https://example.com/copper/0306\""},
        {"{\"type\":\"string\",\"format\":\"uriref\"}",
         "\"https://example.com/copper/0306\""},
        {"{\"type\":\"string\",\"format\":\"dateTime\"}",
         "\"2026-04-27T08:39:50Z\""},
        /* 1 to 1000 by default, but a uint8 is at most 255 (a plain
         * integer of this key is 48: another span) and an int8 at
         * least -128 */
        {"{\"type\":\"integer\",\"format\":\"uint8\"}", "213"},
        {"{\"type\":\"integer\",\"format\":\"uint8\",\"minimum\":250}",
         "255"},
        {"{\"type\":\"integer\",\"format\":\"int8\",\"minimum\":-1000}",
         "71"},
        {"{\"type\":\"integer\",\"format\":\"uint32\",\"maximum\":-5}",
         NULL},
        /* and the default where the format holds it: as with no format */
        {"{\"type\":\"integer\",\"format\":\"int32\"}", "48"},
        {"{\"type\":\"integer\"}", "48"},
    };
    buf out = BUF_INIT;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (!cases[i][1]) { /* no integer is both */
            arena *a = arena_new();
            value *schema = NULL, *v = NULL;
            err e;
            draw_key k;
            ck_assert_int_eq(json_load(&schema, a, cases[i][0],
                                       strlen(cases[i][0]), &e), 0);
            draw_key_init(&k, FILE_A, 7, "t", "{}", 2);
            ck_assert_int_eq(draw_value(&v, a, schema, schema, &k, "$", &e),
                             -1);
            ck_assert_str_eq(e.msg, "no value can be drawn at $: no integer "
                                    "lies within its bounds");
            arena_free(a);
            continue;
        }
        drawn(FILE_A, 7, "t", "{}", cases[i][0], &out);
        ck_assert_msg(strcmp(out.data, cases[i][1]) == 0, "%s: %s, not %s",
                      cases[i][0], out.data, cases[i][1]);
    }
    buf_free(&out);
}
END_TEST

START_TEST(draws_spread_evenly)
{
    draw_key k;
    int counts[10] = {0};
    draw_key_init(&k, FILE_A, 1, "t", "{}", 2);
    draw_stream s = draw_at(&k, "$", 1);
    for (int i = 0; i < 100000; i++)
        counts[draw_below(&s, 10)]++;
    for (int i = 0; i < 10; i++)
        ck_assert(counts[i] > 9500 && counts[i] < 10500);
}
END_TEST

Suite *draw_suite(void)
{
    Suite *s = suite_create("draw");
    TCase *tc = tcase_create("keyed");
    tcase_set_timeout(tc, 120); /* room for a busy machine, under ASan */
    tcase_add_test(tc, same_key_same_value);
    tcase_add_test(tc, any_part_of_the_key_changes_the_value);
    tcase_add_test(tc, draws_spread_evenly);
    tcase_add_test(tc, written_formats_are_what_they_say);
    suite_add_tcase(s, tc);
    return s;
}
