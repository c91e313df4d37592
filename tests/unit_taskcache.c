/* taskcache: a task is made by the caller the first time, kept from the
 * second, lent until given back, and the least recently used one nobody
 * holds makes room; what it lends is what task_make makes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc.h"
#include "generator.h"
#include "taskcache.h"
#include "unit.h"

struct cf {
    doc *d;
    toolset *ts;
    taskcache *c;
    arm base;
};

static void cf_open(struct cf *f, size_t max)
{
    char path[1024];
    const char *top = getenv("TOP_SRCDIR");
    err e;
    snprintf(path, sizeof path, "%s/samples/tools/shop.json", top ? top : ".");
    ck_assert_msg(doc_load_file(&f->d, path, &e) == 0, "%s: %s", path, e.msg);
    ck_assert_int_eq(toolset_build(&f->ts, f->d, &e), 0);
    ck_assert_int_eq(arm_parse(&f->base, "base", 4, &e), 0);
    ck_assert_ptr_nonnull(f->c = taskcache_new(max));
}

static void cf_close(struct cf *f)
{
    taskcache_free(f->c);
    toolset_free(f->ts);
    doc_free(f->d);
}

/* taskcache_get of seed at the base arm: its return, and what it lent. */
static int get(struct cf *f, uint64_t seed, const task **t,
               const char **json, task_loan **loan)
{
    err e;
    *t = NULL;
    *json = NULL;
    return taskcache_get(f->c, f->ts, seed, &f->base, t, json, loan, &e);
}

START_TEST(kept_from_the_second_ask_and_lent)
{
    struct cf f;
    cf_open(&f, 4);
    const task *t1, *t2;
    const char *j1, *j2;
    task_loan *l1, *l2;
    /* the first time: remembered, not made */
    ck_assert_int_eq(get(&f, 7, &t1, &j1, &l1), 1);
    ck_assert_ptr_null(l1);
    ck_assert_ptr_null(t1);
    /* the second: made, its JSON the one task_make's task writes */
    ck_assert_int_eq(get(&f, 7, &t1, &j1, &l1), 0);
    ck_assert_ptr_nonnull(l1);
    arena *a = arena_new();
    task *made = NULL;
    buf b = BUF_INIT;
    err e;
    ck_assert_int_eq(task_make(&made, a, f.ts, 7, &f.base, &e), 0);
    ck_assert_int_eq(task_write_json(&b, made, GENERATOR_VERSION, &e), 0);
    ck_assert_str_eq(j1, b.data);
    buf_free(&b);
    arena_free(a);
    /* the third: the same task, lent again */
    ck_assert_int_eq(get(&f, 7, &t2, &j2, &l2), 0);
    ck_assert_ptr_eq(t2, t1);
    ck_assert_ptr_eq(j2, j1);
    ck_assert_ptr_eq(l2, l1);
    /* another seed is another task */
    ck_assert_int_eq(get(&f, 8, &t2, &j2, &l2), 1);
    taskcache_release(l1);
    taskcache_release(l1);
    cf_close(&f);
}
END_TEST

START_TEST(room_is_made_from_what_nobody_holds)
{
    struct cf f;
    cf_open(&f, 2);
    const task *t;
    const char *j;
    task_loan *held, *l;
    /* seed 1 kept and held; seed 2 kept and given back */
    ck_assert_int_eq(get(&f, 1, &t, &j, &held), 1);
    ck_assert_int_eq(get(&f, 1, &t, &j, &held), 0);
    const task *t1 = t;
    ck_assert_int_eq(get(&f, 2, &t, &j, &l), 1);
    ck_assert_int_eq(get(&f, 2, &t, &j, &l), 0);
    taskcache_release(l);
    /* seed 3 takes seed 2's slot (not held), so seed 2 is new again */
    ck_assert_int_eq(get(&f, 3, &t, &j, &l), 1);
    ck_assert_int_eq(get(&f, 2, &t, &j, &l), 1);
    /* seed 1, held all along, is still there, the same task */
    ck_assert_int_eq(get(&f, 1, &t, &j, &l), 0);
    ck_assert_ptr_eq(t, t1);
    taskcache_release(l);
    /* every slot held: a new seed is made by the caller, not kept */
    ck_assert_int_eq(get(&f, 2, &t, &j, &l), 0);
    task_loan *l2 = l;
    ck_assert_int_eq(get(&f, 4, &t, &j, &l), 1);
    ck_assert_int_eq(get(&f, 4, &t, &j, &l), 1);
    taskcache_release(l2);
    taskcache_release(held);
    cf_close(&f);
}
END_TEST

START_TEST(a_refused_task_is_not_kept)
{
    struct cf f;
    cf_open(&f, 4);
    arm deep;
    err e;
    ck_assert_int_eq(arm_parse(&deep, "depth:d8", 8, &e), 0);
    const task *t;
    const char *j;
    task_loan *l;
    ck_assert_int_eq(taskcache_get(f.c, f.ts, 5, &deep, &t, &j, &l, &e), 1);
    ck_assert_int_eq(taskcache_get(f.c, f.ts, 5, &deep, &t, &j, &l, &e), -1);
    ck_assert_int_eq(e.code, ERR_VALUE);
    ck_assert_ptr_null(l);
    cf_close(&f);
}
END_TEST

Suite *taskcache_suite(void)
{
    Suite *s = suite_create("taskcache");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, kept_from_the_second_ask_and_lent);
    tcase_add_test(tc, room_is_made_from_what_nobody_holds);
    tcase_add_test(tc, a_refused_task_is_not_kept);
    suite_add_tcase(s, tc);
    return s;
}
