/* Tasks (SPEC 3.6): the chain, the handed value, the planned dial
 * events, the refusal of a depth the tools cannot build, stable ids. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canon.h"
#include "generator.h"
#include "schema.h"
#include "task.h"
#include "unit.h"

struct tf {
    doc *d;
    toolset *ts;
    arena *a;
};

static void tf_open(struct tf *f, const char *file)
{
    char path[1024];
    const char *top = getenv("TOP_SRCDIR");
    err e;
    snprintf(path, sizeof path, "%s/samples/tools/%s", top ? top : ".", file);
    ck_assert_msg(doc_load_file(&f->d, path, &e) == 0, "%s: %s", path, e.msg);
    ck_assert_int_eq(toolset_build(&f->ts, f->d, &e), 0);
    f->a = arena_new();
}

static void tf_open_text(struct tf *f, const char *text)
{
    err e;
    ck_assert_int_eq(doc_parse(&f->d, text, strlen(text), &e), 0);
    ck_assert_int_eq(toolset_build(&f->ts, f->d, &e), 0);
    f->a = arena_new();
}

static void tf_close(struct tf *f)
{
    toolset_free(f->ts);
    doc_free(f->d);
    arena_free(f->a);
}

static task *make(struct tf *f, uint64_t seed, const char *arm_text)
{
    arm arm;
    err e;
    task *t = NULL;
    ck_assert_int_eq(arm_parse(&arm, arm_text, strlen(arm_text), &e), 0);
    ck_assert_msg(task_make(&t, f->a, f->ts, seed, &arm, &e) == 0, "%s",
                  e.msg);
    return t;
}

static const char *refusal(struct tf *f, const char *arm_text)
{
    static char msg[512];
    arm arm;
    err e;
    task *t = NULL;
    ck_assert_int_eq(arm_parse(&arm, arm_text, strlen(arm_text), &e), 0);
    ck_assert_int_eq(task_make(&t, f->a, f->ts, 1, &arm, &e), -1);
    ck_assert_int_eq(e.code, ERR_VALUE);
    snprintf(msg, sizeof msg, "%s", e.msg);
    return msg;
}

static const char *json_of(struct tf *f, const value *v)
{
    buf b = BUF_INIT;
    err e;
    ck_assert_int_eq(canon_write(&b, v, &e), 0);
    char *s = arena_memdup(f->a, b.data, b.len);
    buf_free(&b);
    return s;
}

static const char *task_json(struct tf *f, const task *t)
{
    return json_of(f, task_to_value(f->a, t, GENERATOR_VERSION));
}

START_TEST(a_task_is_pinned)
{
    struct tf f;
    tf_open(&f, "shop.json");
    ck_assert_str_eq(
        task_json(&f, make(&f, 7, "depth:d3")),
        "{\"arm\":\"depth:d3\",\"depth\":3,\"events\":[],\"file_sha256\":"
        "\"4acacf4693dbcbc81c0cc9e98ed4d2e017a2189edcfa89e0fba05e7433e4fd54\","
        "\"generator\":4,\"id\":\"t-01bf9de031d19776\",\"request\":\"Goal: "
        "refund_order (Refund part or all of an order). First call "
        "search_orders with query \\\"lumen willow summit\\\"; the \\\"id\\\" "
        "field of its answer holds the order_id you are not given. Then call "
        "notify_customer with order_id set to the value that answer gave and "
        "channel \\\"email\\\". Last, call refund_order with order_id set to "
        "the value that answer gave and amount 383.96.\",\"seed\":7,\"steps\":"
        "[{\"arguments\":{\"query\":\"lumen willow summit\"},\"hands\":{"
        "\"argument\":\"order_id\",\"field\":\"id\",\"value\":\"W-1659\"},"
        "\"kind\":\"read\",\"step\":1,\"tool\":\"search_orders\"},{"
        "\"arguments\":{\"channel\":\"email\",\"order_id\":\"W-1659\"},"
        "\"handed\":{\"argument\":\"order_id\",\"field\":\"id\",\"from_step\":"
        "1},\"kind\":\"write\",\"step\":2,\"tool\":\"notify_customer\"},{"
        "\"arguments\":{\"amount\":383.96,\"order_id\":\"W-1659\"},\"handed\":"
        "{\"argument\":\"order_id\",\"field\":\"id\",\"from_step\":1},\"kind\":"
        "\"write\",\"step\":3,\"tool\":\"refund_order\"}],\"target\":3}");
    /* made again: the same task */
    ck_assert_str_eq(task_json(&f, make(&f, 7, "depth:d3")),
                     task_json(&f, make(&f, 7, "depth:d3")));
    tf_close(&f);
}
END_TEST

/* The arms of one seed share the chain, and only the events differ. */
START_TEST(the_arms_of_a_seed_share_their_chain)
{
    static const char *const arms[] = {"base",       "faults:f1",
                                       "landed:l1",  "baddata:b2",
                                       "lagged:g1",  "ratelimits:r4",
                                       "depth:d2",   "timeouts:o0"};
    struct tf f;
    tf_open(&f, "shop-mcp.json");
    const task *b = make(&f, 21, "base");
    const char *steps = json_of(
        &f, value_getz(task_to_value(f.a, b, 2), "steps"));
    const char *ids[8];
    for (int i = 0; i < 8; i++) {
        const task *t = make(&f, 21, arms[i]);
        ck_assert_str_eq(
            json_of(&f, value_getz(task_to_value(f.a, t, 2), "steps")), steps);
        ck_assert_str_eq(t->request, b->request);
        ids[i] = t->id;
        for (int j = 0; j < i; j++)
            ck_assert_str_ne(ids[i], ids[j]);
    }
    tf_close(&f);
}
END_TEST

/* Tasks come from the file's bytes: a reformatted file (same contract)
 * gives other tasks, with other ids. */
START_TEST(tasks_come_from_the_bytes)
{
    struct tf f, g;
    tf_open(&f, "shop.json");
    tf_open(&g, "shop-reformatted.json");
    ck_assert_str_eq(f.d->contract_sha256, g.d->contract_sha256);
    const task *a = make(&f, 1, "base"), *b = make(&g, 1, "base");
    ck_assert_str_ne(a->id, b->id);
    ck_assert_str_ne(task_json(&f, a), task_json(&g, b));
    ck_assert_str_ne(make(&f, 1, "base")->id, make(&f, 2, "base")->id);
    tf_close(&f);
    tf_close(&g);
}
END_TEST

static const char READS_ONLY[] =
    "[{\"type\":\"function\",\"function\":{\"name\":\"get_order\","
    "\"parameters\":{\"type\":\"object\",\"properties\":{\"order_id\":"
    "{\"type\":\"string\"}}}}}]";
static const char WRITES_ONLY[] =
    "[{\"type\":\"function\",\"function\":{\"name\":\"refund_order\","
    "\"parameters\":{\"type\":\"object\",\"properties\":{\"order_id\":"
    "{\"type\":\"string\"}}}}},"
    "{\"type\":\"function\",\"function\":{\"name\":\"cancel_order\","
    "\"parameters\":{\"type\":\"object\",\"properties\":{\"order_id\":"
    "{\"type\":\"string\"}}}}}]";

START_TEST(a_depth_the_tools_cannot_build_is_refused)
{
    struct tf f;
    tf_open(&f, "shop.json");
    ck_assert_str_eq(refusal(&f, "depth:d4"),
                     "depth 4 cannot be built from these tools: the longest "
                     "chain is 3 steps (search_orders, refund_order, "
                     "notify_customer); use an arm of depth 3 or less "
                     "(depth:d1 to depth:d3, or any other dial)");
    ck_assert_str_eq(refusal(&f, "depth:d8"),
                     "depth 8 cannot be built from these tools: the longest "
                     "chain is 3 steps (search_orders, refund_order, "
                     "notify_customer); use an arm of depth 3 or less "
                     "(depth:d1 to depth:d3, or any other dial)");
    make(&f, 1, "depth:d1");
    make(&f, 1, "depth:d3");
    tf_close(&f);
    tf_open_text(&f, READS_ONLY);
    ck_assert_str_eq(refusal(&f, "depth:d1"),
                     "depth 1 cannot be built from these tools: there is no "
                     "write among them, so no task can be (a task ends with "
                     "a write)");
    ck_assert_str_eq(refusal(&f, "base"),
                     "depth 2 cannot be built from these tools: there is no "
                     "write among them, so no task can be (a task ends with "
                     "a write)");
    tf_close(&f);
    tf_open_text(&f, WRITES_ONLY);
    ck_assert_str_eq(refusal(&f, "base"),
                     "depth 2 cannot be built from these tools: the longest "
                     "chain is 1 step (refund_order); use the arm depth:d1, "
                     "the only one these tools can build");
    ck_assert_str_eq(make(&f, 3, "depth:d1")->steps[0].tool->kind == TOOL_WRITE
                         ? "write"
                         : "read",
                     "write");
    tf_close(&f);
}
END_TEST

START_TEST(dial_events_are_planned_by_the_arm)
{
    static const struct {
        const char *arm;
        const char *events;
    } plans[] = {
        {"base", "[]"},
        {"depth:d3", "[]"},
        {"faults:f0", "[]"},
        {"faults:f1", "[{\"dial\":\"faults\",\"nth\":1,\"step\":1}]"},
        {"timeouts:o2", "[{\"dial\":\"timeouts\",\"nth\":1,\"step\":1},"
                        "{\"dial\":\"timeouts\",\"nth\":1,\"step\":2}]"},
        {"ratelimits:r4", "[{\"dial\":\"ratelimits\",\"nth\":1,\"step\":1},"
                          "{\"dial\":\"ratelimits\",\"nth\":1,\"step\":2},"
                          "{\"dial\":\"ratelimits\",\"nth\":2,\"step\":1},"
                          "{\"dial\":\"ratelimits\",\"nth\":2,\"step\":2}]"},
        {"landed:l0", "[]"},
        {"landed:l1", "[{\"dial\":\"landed\",\"nth\":1,\"step\":2}]"},
        {"baddata:b0", "[]"},
        {"baddata:b3", "[{\"dial\":\"baddata\",\"nth\":1,\"step\":1}]"},
        {"lagged:g1", "[{\"dial\":\"lagged\",\"nth\":1,\"step\":2}]"},
    };
    struct tf f;
    tf_open(&f, "shop-openapi.yaml");
    for (size_t i = 0; i < sizeof plans / sizeof plans[0]; i++) {
        const task *t = make(&f, 5, plans[i].arm);
        ck_assert_str_eq(
            json_of(&f, value_getz(task_to_value(f.a, t, 2), "events")),
            plans[i].events);
    }
    tf_close(&f);
}
END_TEST

static int fits(const toolset *ts, const value *schema, const value *v)
{
    buf msg = BUF_INIT;
    int r = schema_check(ts->doc->root, schema, v, "the value", &msg);
    buf_free(&msg);
    return r == 0;
}

/* For many seeds, in every idiom: every step's arguments are valid, the
 * handed value fits the field it sits in and every argument it fills,
 * step 1 is a read taking arguments, the handed argument is named as an
 * id, and baddata's wrong value differs from the right one. */
START_TEST(tasks_hold_together)
{
    static const char *const files[] = {"shop.json", "shop-mcp.json",
                                        "shop-openapi.yaml"};
    static const char *const arms[] = {"base", "depth:d3", "baddata:b1",
                                       "baddata:b3", "depth:d1"};
    for (int fi = 0; fi < 3; fi++) {
        struct tf f;
        tf_open(&f, files[fi]);
        for (uint64_t seed = 1; seed <= 60; seed++)
            for (int ai = 0; ai < 5; ai++) {
                const task *t = make(&f, seed, arms[ai]);
                for (int k = 0; k < t->depth; k++)
                    ck_assert(fits(f.ts, t->steps[k].tool->input_schema,
                                   t->steps[k].args));
                ck_assert_int_eq(t->steps[t->depth - 1].tool->kind,
                                 TOOL_WRITE);
                if (t->depth == 1)
                    continue;
                ck_assert_str_eq(t->steps[0].tool->name, "search_orders");
                ck_assert_str_eq(t->hand_arg, "order_id");
                const tool *r = t->steps[0].tool;
                if (r->output_schema) {
                    err e;
                    const value *p = value_getz(
                        schema_deref(f.ts->doc->root, r->output_schema, &e),
                        "properties");
                    ck_assert(fits(f.ts, value_getz(p, t->hand_field),
                                   t->handed));
                }
                for (int k = 1; k < t->depth; k++) {
                    ck_assert(t->steps[k].takes_handed);
                    ck_assert(schema_equal(
                        value_getz(t->steps[k].args, "order_id"), t->handed));
                }
                if (t->wrong) {
                    ck_assert(!schema_equal(t->wrong, t->handed));
                    ck_assert_uint_eq(t->wrong->u.str.len,
                                      t->handed->u.str.len);
                }
                if (t->arm.level == 1 && t->arm.knob == KNOB_BADDATA)
                    ck_assert(t->wrong_args &&
                              !schema_equal(t->wrong_args, t->steps[0].args));
            }
        tf_close(&f);
    }
}
END_TEST

/* A read without output schema hands the value in its answer's id; when
 * it takes an argument named id, that is the argument's name too, and the
 * task says so.  baddata:b3 changes the last digit of a handed date, or,
 * when that makes no date (a month's last day), moves it a day earlier. */
START_TEST(a_handed_date_through_an_id)
{
    static const char text[] =
        "[{\"name\":\"get_box\",\"inputSchema\":{\"type\":\"object\","
        "\"required\":[\"id\"],\"properties\":{\"id\":{\"type\":"
        "\"string\"}}}},"
        "{\"name\":\"ship_box\",\"inputSchema\":{\"type\":\"object\","
        "\"required\":[\"ship_on\"],\"properties\":{\"ship_on\":{"
        "\"type\":\"string\",\"format\":\"date\"}}}}]";
    static const struct {
        uint64_t seed;
        const char *handed, *wrong;
    } cases[] = {
        {1, "\"2026-01-02\"", "\"2026-01-03\""},   /* the last digit up */
        {4, "\"2026-08-09\"", "\"2026-08-08\""},   /* a 9 down */
        {108, "\"2026-03-30\"", "\"2026-03-31\""}, /* up: 31 March is */
        {22, "\"2026-03-31\"", "\"2026-03-30\""},  /* no 32 March: a day
                                                    earlier */
        {57, "\"2025-11-30\"", "\"2025-11-29\""},  /* nor 31 November */
        {106, "\"2025-12-31\"", "\"2025-12-30\""},
    };
    struct tf f;
    tf_open_text(&f, text);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const task *t = make(&f, cases[i].seed, "baddata:b3");
        ck_assert_str_eq(t->steps[0].tool->name, "get_box");
        ck_assert_str_eq(t->hand_field, "id");
        ck_assert_int_eq(t->hand_field_is_arg, 1);
        ck_assert_str_eq(json_of(&f, t->handed), cases[i].handed);
        ck_assert_str_eq(json_of(&f, t->wrong), cases[i].wrong);
    }
    ck_assert(strstr(task_json(&f, make(&f, 22, "baddata:b3")),
                     "\"hands\":{\"argument\":\"ship_on\",\"field\":\"id\","
                     "\"field_named_as_argument\":true,\"value\":"
                     "\"2026-03-31\"}"));
    tf_close(&f);
}
END_TEST

/* task_write_json writes straight what canon_write makes of task_to_value,
 * byte for byte: every arm, 40 seeds, the three sample files, and a task
 * with a baddata value but no wrong arguments (b2 and up). */
START_TEST(the_task_json_is_written_straight)
{
    static const char *const files[] = {"shop.json", "shop-mcp.json",
                                        "shop-openapi.yaml"};
    arm arms[ARM_COUNT];
    size_t narms = arm_all(arms);
    ck_assert_uint_gt(narms, 20);
    buf b = BUF_INIT;
    unsigned baddata_without_args = 0, hands = 0, events = 0, refused = 0;
    for (int fi = 0; fi < 3; fi++) {
        struct tf f;
        tf_open(&f, files[fi]);
        for (uint64_t seed = 1; seed <= 40; seed++)
            for (size_t ai = 0; ai < narms; ai++) {
                err e;
                task *t = NULL;
                if (task_make(&t, f.a, f.ts, seed, &arms[ai], &e) < 0) {
                    ck_assert_int_eq(e.code, ERR_VALUE); /* a depth refused */
                    refused++;
                    continue;
                }
                buf_reset(&b);
                ck_assert_int_eq(task_write_json(&b, t, GENERATOR_VERSION, &e),
                                 0);
                ck_assert_int_eq(buf_putc(&b, '\0'), 0);
                ck_assert_str_eq(b.data, task_json(&f, t));
                baddata_without_args += t->wrong && !t->wrong_args;
                hands += t->depth >= 2;
                events += t->nevents > 0;
            }
        tf_close(&f);
    }
    buf_free(&b);
    ck_assert_uint_gt(baddata_without_args, 0);
    ck_assert_uint_gt(hands, 0);
    ck_assert_uint_gt(events, 0);
    ck_assert_uint_lt(refused, 3 * 40 * narms / 4);
}
END_TEST

Suite *task_suite(void)
{
    Suite *s = suite_create("task");
    TCase *tc = tcase_create("tasks");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, a_task_is_pinned);
    tcase_add_test(tc, the_arms_of_a_seed_share_their_chain);
    tcase_add_test(tc, tasks_come_from_the_bytes);
    tcase_add_test(tc, a_depth_the_tools_cannot_build_is_refused);
    tcase_add_test(tc, dial_events_are_planned_by_the_arm);
    tcase_add_test(tc, tasks_hold_together);
    tcase_add_test(tc, the_task_json_is_written_straight);
    tcase_add_test(tc, a_handed_date_through_an_id);
    suite_add_tcase(s, tc);
    return s;
}
