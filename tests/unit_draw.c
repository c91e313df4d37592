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
    suite_add_tcase(s, tc);
    return s;
}
