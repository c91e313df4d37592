/* Arms by id: every valid id reads back to itself; a mistyped one is
 * refused with the nearest valid id. */
#include <string.h>

#include "arm.h"
#include "unit.h"

static void assert_refused(const char *id, const char *msg)
{
    arm a;
    err e;
    err_clear(&e);
    ck_assert_int_eq(arm_parse(&a, id, strlen(id), &e), -1);
    ck_assert_int_eq(e.code, ERR_USAGE);
    ck_assert_str_eq(e.msg, msg);
}

START_TEST(valid_ids_read_back)
{
    static const char *const ids[] = {
        "base",      "depth:d1",  "depth:d8",     "faults:f0",
        "faults:f4", "timeouts:o2", "ratelimits:r1", "landed:l1",
        "baddata:b3", "lagged:g1"};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        arm a;
        err e;
        char back[ARM_ID_MAX];
        ck_assert_int_eq(arm_parse(&a, ids[i], strlen(ids[i]), &e), 0);
        arm_id(&a, back);
        ck_assert_str_eq(back, ids[i]);
    }
    arm a;
    err e;
    ck_assert_int_eq(arm_parse(&a, "depth:d3", 8, &e), 0);
    ck_assert_int_eq(a.knob, KNOB_DEPTH);
    ck_assert_int_eq(a.level, 3);
    ck_assert_str_eq(knob_name(a.knob), "depth");
}
END_TEST

START_TEST(mistakes_name_the_nearest_id)
{
    assert_refused("depht:d3", "unknown arm \"depht:d3\"; did you mean depth:d3?");
    assert_refused("depth:3", "unknown arm \"depth:3\"; did you mean depth:d3?");
    assert_refused("faults:f3", "unknown arm \"faults:f3\"; did you mean faults:f2?");
    assert_refused("depth:d9", "unknown arm \"depth:d9\"; did you mean depth:d8?");
    assert_refused("lagged:g5", "unknown arm \"lagged:g5\"; did you mean lagged:g1?");
    assert_refused("Base", "unknown arm \"Base\"; did you mean base?");
    assert_refused("", "unknown arm \"\"; did you mean base?");
    assert_refused("timeout:o1", "unknown arm \"timeout:o1\"; did you mean timeouts:o1?");
    assert_refused("baddata:b1 ", "unknown arm \"baddata:b1 \"; did you mean baddata:b1?");
}
END_TEST

Suite *arm_suite(void)
{
    Suite *s = suite_create("arm");
    TCase *tc = tcase_create("ids");
    tcase_set_timeout(tc, 120); /* room for a busy machine, under ASan */
    tcase_add_test(tc, valid_ids_read_back);
    tcase_add_test(tc, mistakes_name_the_nearest_id);
    suite_add_tcase(s, tc);
    return s;
}
