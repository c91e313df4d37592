/* keymap: entries come and go; memory follows what is there.  idset:
 * ids kept once. */
#include <stdio.h>
#include <string.h>

#include <xxhash.h>

#include "idset.h"
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

/* The seed keys the hash: keys crafted to share one home slot under one
 * seed are spread under another, and lookups work under both. */
START_TEST(the_seed_keys_the_hash)
{
    keymap a = KEYMAP_INIT, b = KEYMAP_INIT;
    b.seed = 0x243F6A8885A308D3ull;
    char key[32];
    size_t crafted = 0, home_b[64] = {0};
    for (size_t i = 0; crafted < 40 && i < 1000000; i++) {
        int len = snprintf(key, sizeof key, "e%zu", i);
        if ((XXH3_64bits(key, (size_t)len) & 1023) != 7)
            continue; /* one home slot under seed 0, in a table of 1024 */
        ck_assert_int_eq(keymap_put(&a, key, (size_t)len, i), 0);
        ck_assert_int_eq(keymap_put(&b, key, (size_t)len, i), 0);
        home_b[XXH3_64bits_withSeed(key, (size_t)len, b.seed) & 63]++;
        crafted++;
    }
    ck_assert_uint_eq(crafted, 40);
    size_t most = 0;
    for (size_t i = 0; i < 64; i++)
        most = home_b[i] > most ? home_b[i] : most;
    ck_assert_uint_lt(most, 8); /* spread, not 40 in one slot */
    for (size_t i = 0; i < a.cap; i++)
        if (a.slots[i].key) {
            size_t va, vb;
            ck_assert_int_eq(keymap_get(&a, a.slots[i].key, a.slots[i].len,
                                        &va), 1);
            ck_assert_int_eq(keymap_get(&b, a.slots[i].key, a.slots[i].len,
                                        &vb), 1);
            ck_assert_uint_eq(va, vb);
        }
    keymap_free(&a);
    keymap_free(&b);
}
END_TEST

START_TEST(idset_adds_once)
{
    idset s = IDSET_INIT;
    for (uint64_t i = 0; i < 5000; i++)
        ck_assert_int_eq(idset_add(&s, i * 0x9E3779B97F4A7C15ull), 1);
    for (uint64_t i = 0; i < 5000; i++)
        ck_assert_int_eq(idset_add(&s, i * 0x9E3779B97F4A7C15ull), 0);
    ck_assert_int_eq(idset_add(&s, 1), 0); /* 0 is kept as 1 */
    ck_assert_uint_eq(s.n, 5000);
    idset_free(&s);
}
END_TEST

Suite *keymap_suite(void)
{
    Suite *s = suite_create("keymap");
    TCase *tc = tcase_create("keymap");
    tcase_set_timeout(tc, 120); /* room for a busy machine, under ASan */
    tcase_add_test(tc, puts_gets_and_removes);
    tcase_add_test(tc, churn_keeps_the_table_small);
    tcase_add_test(tc, the_seed_keys_the_hash);
    tcase_add_test(tc, idset_adds_once);
    suite_add_tcase(s, tc);
    return s;
}
