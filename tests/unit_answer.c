/* Answers (SPEC 3.3, 3.4; the reference page's "How the responses are
 * made"): errors in each idiom, drawn answers, and the write rule. */
#include <stdio.h>
#include <string.h>

#include "answer.h"
#include "canon.h"
#include "json_load.h"
#include "unit.h"

START_TEST(errors_in_each_idiom)
{
    buf b = BUF_INIT;
    ck_assert_int_eq(answer_error(&b, TOOLS_OPENAI, SIM_NOT_FOUND,
                                  "no tool is named \"x\""), 0);
    ck_assert_str_eq(b.data, "{\"error\":{\"code\":\"not_found\",\"message\":"
                             "\"no tool is named \\\"x\\\"\"}}");
    buf_reset(&b);
    answer_error(&b, TOOLS_OPENAI, SIM_RATE_LIMITED, "slow down");
    ck_assert_str_eq(b.data, "{\"error\":{\"code\":\"rate_limited\",\"message\":"
                             "\"slow down\",\"retry_after\":1}}");
    buf_reset(&b);
    answer_error(&b, TOOLS_MCP, SIM_RATE_LIMITED, "slow down");
    ck_assert_str_eq(b.data, "{\"content\":[{\"text\":\"slow down\",\"type\":"
                             "\"text\"}],\"isError\":true}");
    buf_reset(&b);
    answer_error(&b, TOOLS_OPENAPI, SIM_RATE_LIMITED, "slow down");
    ck_assert_str_eq(b.data, "{\"detail\":\"slow down\",\"retry_after\":1,"
                             "\"status\":429}");
    buf_reset(&b);
    answer_error(&b, TOOLS_OPENAPI, SIM_TIMEOUT, "no answer in time");
    ck_assert_str_eq(b.data, "{\"detail\":\"no answer in time\",\"status\":504}");
    buf_free(&b);
    static const struct {
        enum sim_error e;
        const char *code;
        int status;
    } table[] = {{SIM_NOT_FOUND, "not_found", 404},
                 {SIM_INVALID_ARGUMENTS, "invalid_arguments", 422},
                 {SIM_NOT_READY, "not_ready", 409},
                 {SIM_UNAVAILABLE, "unavailable", 503},
                 {SIM_TIMEOUT, "timeout", 504},
                 {SIM_RATE_LIMITED, "rate_limited", 429}};
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        ck_assert_str_eq(sim_error_code(table[i].e), table[i].code);
        ck_assert_int_eq(sim_error_status(table[i].e), table[i].status);
    }
}
END_TEST

struct fixture {
    doc *d;
    toolset *ts;
    arena *a;
};

static void open_tools(struct fixture *f, const char *json)
{
    err e;
    ck_assert_int_eq(doc_parse(&f->d, json, strlen(json), &e), 0);
    ck_assert_int_eq(toolset_build(&f->ts, f->d, &e), 0);
    f->a = arena_new();
}

static void close_tools(struct fixture *f)
{
    toolset_free(f->ts);
    doc_free(f->d);
    arena_free(f->a);
}

static value *args_of(struct fixture *f, const char *json)
{
    value *v = NULL;
    err e;
    ck_assert_int_eq(json_load(&v, f->a, json, strlen(json), &e), 0);
    return v;
}

static void canonical(const value *v, buf *out)
{
    err e;
    buf_reset(out);
    ck_assert_int_eq(canon_write(out, v, &e), 0);
}

static const char SHOP[] =
    "[{\"type\":\"function\",\"function\":{\"name\":\"refund_order\","
    "\"parameters\":{\"type\":\"object\",\"properties\":{\"order_id\":"
    "{\"type\":\"string\"},\"amount\":{\"type\":\"number\"},\"id\":"
    "{\"type\":\"string\"}}}}}]";

START_TEST(a_call_without_output_schema_answers_ok_and_an_id)
{
    struct fixture f;
    open_tools(&f, SHOP);
    const tool *t = &f.ts->tools[0];
    value *a1, *a2, *a3;
    err e;
    value *args = args_of(&f, "{\"order_id\":\"A-3317\",\"amount\":12.5}");
    ck_assert_int_eq(answer_draw(&a1, f.a, f.ts, t, args, 7, &e), 0);
    ck_assert_int_eq(answer_draw(&a2, f.a, f.ts, t, args, 7, &e), 0);
    ck_assert_int_eq(answer_draw(&a3, f.a, f.ts, t, args, 8, &e), 0);
    buf x = BUF_INIT, y = BUF_INIT;
    canonical(a1, &x);
    canonical(a2, &y);
    /* rule: the draw depends on the call's content, not its position */
    ck_assert_str_eq(x.data, y.data);
    ck_assert_uint_eq(x.len, strlen("{\"id\":\"A-0000\",\"ok\":true}"));
    ck_assert(strncmp(x.data, "{\"id\":\"", 7) == 0 && x.data[8] == '-');
    canonical(a3, &y);
    ck_assert_str_ne(x.data, y.data); /* another seed, another id */

    /* rule: an accepted write answers with what it was sent, beside ok
     * and id */
    value *placed;
    ck_assert_int_eq(answer_place_args(&placed, f.a, f.ts, t, a1, args, &e), 0);
    canonical(placed, &y);
    char want[128];
    snprintf(want, sizeof want,
             "{\"amount\":12.5,\"id\":\"%.6s\",\"ok\":true,\"order_id\":"
             "\"A-3317\"}",
             x.data + 7);
    ck_assert_str_eq(y.data, want);

    /* rule: an argument named id is the answer's id */
    value *with_id = args_of(&f, "{\"id\":\"R-0001\",\"amount\":1}");
    ck_assert_int_eq(answer_place_args(&placed, f.a, f.ts, t, a1, with_id, &e),
                     0);
    canonical(placed, &y);
    ck_assert_str_eq(y.data, "{\"amount\":1,\"id\":\"R-0001\",\"ok\":true}");
    buf_free(&x);
    buf_free(&y);
    close_tools(&f);
}
END_TEST

static const char WITH_OUTPUT[] =
    "{\"tools\":[{\"name\":\"update_order\",\"inputSchema\":{\"type\":"
    "\"object\"},\"outputSchema\":{\"type\":\"object\",\"required\":["
    "\"order_id\",\"amount\"],\"properties\":{\"order_id\":{\"type\":"
    "\"string\",\"minLength\":6,\"maxLength\":6},\"amount\":{\"type\":"
    "\"number\",\"minimum\":0}}}}]}";

START_TEST(a_write_fills_the_output_schema_where_values_fit)
{
    struct fixture f;
    open_tools(&f, WITH_OUTPUT);
    const tool *t = &f.ts->tools[0];
    value *drawn, *placed;
    err e;
    value *args = args_of(&f, "{\"order_id\":\"A-3317\",\"amount\":-4,"
                              "\"note\":\"x\"}");
    ck_assert_int_eq(answer_draw(&drawn, f.a, f.ts, t, args, 1, &e), 0);
    ck_assert_int_eq(answer_place_args(&placed, f.a, f.ts, t, drawn, args, &e),
                     0);
    /* order_id fits its field and is placed; amount -4 breaks minimum 0,
     * so the drawn amount stays; note has no field and is left out */
    const value *amount = value_getz(placed, "amount");
    ck_assert_str_eq(value_getz(placed, "order_id")->u.str.ptr, "A-3317");
    ck_assert_ptr_eq(amount, value_getz(drawn, "amount"));
    ck_assert_ptr_null(value_getz(placed, "note"));
    ck_assert_uint_eq(placed->u.obj.len, 2);
    close_tools(&f);
}
END_TEST

Suite *answer_suite(void)
{
    Suite *s = suite_create("answer");
    TCase *tc = tcase_create("rules");
    tcase_set_timeout(tc, 120); /* room for a busy machine, under ASan */
    tcase_add_test(tc, errors_in_each_idiom);
    tcase_add_test(tc, a_call_without_output_schema_answers_ok_and_an_id);
    tcase_add_test(tc, a_write_fills_the_output_schema_where_values_fit);
    suite_add_tcase(s, tc);
    return s;
}
