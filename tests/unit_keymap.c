/* keymap: entries come and go; memory follows what is there. */
#include <stdio.h>
#include <string.h>

#include "keymap.h"
#include "unit.h"

START_TEST(puts_gets_and_removes)
{
    keymap m = KEYMAP_INIT;
    char key[32];
    size_t v;
    for (size_t i = 0; i < 20000; i++) {
        /* keys hold a NUL, as the replayer's "run\0episode" keys do */
        memcpy(key, "run", 4);
        size_t len = 4 + (size_t)snprintf(key + 4, sizeof key - 4, "ep-%zu", i);
        ck_assert_int_eq(keymap_put(&m, key, len, i), 0);
    }
    ck_assert_uint_eq(m.n, 20000);
    for (size_t i = 0; i < 20000; i += 2) { /* every other one goes */
        size_t len = 4 + (size_t)snprintf(key + 4, sizeof key - 4, "ep-%zu", i);
        ck_assert_int_eq(keymap_remove(&m, key, len), 1);
        ck_assert_int_eq(keymap_remove(&m, key, len), 0);
    }
    ck_assert_uint_eq(m.n, 10000);
    for (size_t i = 0; i < 20000; i++) {
        size_t len = 4 + (size_t)snprintf(key + 4, sizeof key - 4, "ep-%zu", i);
        int found = keymap_get(&m, key, len, &v);
        ck_assert_int_eq(found, (int)(i % 2));
        if (found)
            ck_assert_uint_eq(v, i);
    }
    /* the same key again updates its value */
    size_t len = 4 + (size_t)snprintf(key + 4, sizeof key - 4, "ep-%d", 1);
    ck_assert_int_eq(keymap_put(&m, key, len, 77), 0);
    ck_assert_int_eq(keymap_get(&m, key, len, &v), 1);
    ck_assert_uint_eq(v, 77);
    ck_assert_uint_eq(m.n, 10000);
    /* "run" alone is another key than "run\0ep-1" */
    ck_assert_int_eq(keymap_get(&m, "run", 3, &v), 0);
    keymap_free(&m);
}
END_TEST

/* Put and remove in turns, many times: the table does not grow with the
 * entries ever put, only with those present at once. */
START_TEST(churn_keeps_the_table_small)
{
    keymap m = KEYMAP_INIT;
    char key[32];
    for (size_t i = 0; i < 100000; i++) {
        int len = snprintf(key, sizeof key, "k%zu", i);
        ck_assert_int_eq(keymap_put(&m, key, (size_t)len, i), 0);
        if (i >= 10) {
            len = snprintf(key, sizeof key, "k%zu", i - 10);
            ck_assert_int_eq(keymap_remove(&m, key, (size_t)len), 1);
        }
    }
    ck_assert_uint_eq(m.n, 10);
    ck_assert_uint_le(m.cap, 64);
    keymap_free(&m);
}
END_TEST

Suite *keymap_suite(void)
{
    Suite *s = suite_create("keymap");
    TCase *tc = tcase_create("keymap");
    tcase_add_test(tc, puts_gets_and_removes);
    tcase_add_test(tc, churn_keeps_the_table_small);
    suite_add_tcase(s, tc);
    return s;
}
