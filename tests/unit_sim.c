/* The simulator, rule by rule: each test names the rule of the reference
 * page's "How the responses are made" (or SPEC 3.6-3.7) that it checks,
 * and runs it on the shop's tools in all three idioms (samples/tools:
 * OpenAI without output schemas, MCP and OpenAPI with them). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canon.h"
#include "json_load.h"
#include "schema.h"
#include "sim.h"
#include "unit.h"
#include "vbuild.h"

static const char *const FILES[] = {"shop.json", "shop-mcp.json",
                                    "shop-openapi.yaml"};
#define NFILES 3

struct ep {
    doc *d;
    toolset *ts;
    arena *a;
    task *t;
    sim *s;
    sim_result r;
};

static void ep_open_doc(struct ep *p, uint64_t seed, const char *arm_text)
{
    err e;
    arm arm;
    ck_assert_int_eq(toolset_build(&p->ts, p->d, &e), 0);
    ck_assert_int_eq(arm_parse(&arm, arm_text, strlen(arm_text), &e), 0);
    p->a = arena_new();
    ck_assert_ptr_nonnull(p->a);
    ck_assert_msg(task_make(&p->t, p->a, p->ts, seed, &arm, &e) == 0, "%s",
                  e.msg);
    ck_assert_int_eq(sim_new(&p->s, p->ts, p->t, &e), 0);
    p->r = (sim_result){.answer = BUF_INIT, .arguments = BUF_INIT, .error = -1, .event = -1};
}

/* An episode on samples/tools/FILE. */
static void ep_open(struct ep *p, const char *file, uint64_t seed,
                    const char *arm_text)
{
    char path[1024];
    const char *top = getenv("TOP_SRCDIR");
    err e;
    snprintf(path, sizeof path, "%s/samples/tools/%s", top ? top : ".", file);
    memset(p, 0, sizeof *p);
    ck_assert_msg(doc_load_file(&p->d, path, &e) == 0, "%s: %s", path, e.msg);
    ep_open_doc(p, seed, arm_text);
}

/* An episode on a tool file given as text. */
static void ep_open_text(struct ep *p, const char *text, uint64_t seed,
                         const char *arm_text)
{
    err e;
    memset(p, 0, sizeof *p);
    ck_assert_int_eq(doc_parse(&p->d, text, strlen(text), &e), 0);
    ep_open_doc(p, seed, arm_text);
}

static void ep_close(struct ep *p)
{
    buf_free(&p->r.answer);
    buf_free(&p->r.arguments);
    sim_free(p->s);
    arena_free(p->a);
    toolset_free(p->ts);
    doc_free(p->d);
}

static value *json(struct ep *p, const char *text)
{
    value *v = NULL;
    err e;
    ck_assert_msg(json_load(&v, p->a, text, strlen(text), &e) == 0,
                  "%s: %s", text, e.msg);
    return v;
}

static char *text_of(struct ep *p, const value *v)
{
    buf b = BUF_INIT;
    err e;
    ck_assert_int_eq(canon_write(&b, v, &e), 0);
    char *s = arena_memdup(p->a, b.data, b.len);
    buf_free(&b);
    return s;
}

/* Calls tool with args (a value); returns the answer's text. */
static const char *call_v(struct ep *p, const char *tool, const value *args)
{
    err e;
    ck_assert_int_eq(sim_call(p->s, tool, strlen(tool), args, NULL, &p->r, &e),
                     0);
    return arena_memdup(p->a, p->r.answer.data, p->r.answer.len);
}

static const char *call(struct ep *p, const char *tool, const char *args)
{
    return call_v(p, tool, json(p, args));
}

/* Makes step k (1-based) of the task as the task says. */
static const char *step(struct ep *p, int k)
{
    const task_step *s = &p->t->steps[k - 1];
    return call_v(p, s->tool->name, s->args);
}

/* {"order_id": <the handed value>} */
static value *by_handed(struct ep *p)
{
    value *o = vb_object(p->a);
    ck_assert_int_eq(vb_put(p->a, o, "order_id", p->t->handed), 0);
    return o;
}

/* The member key of the answer text, or NULL. */
static const value *field(struct ep *p, const char *answer, const char *key)
{
    return value_getz(json(p, answer), key);
}

static const char *str_field(struct ep *p, const char *answer, const char *key)
{
    const value *v = field(p, answer, key);
    ck_assert_msg(v && v->kind == V_STRING, "no string %s in %s", key, answer);
    return v->u.str.ptr;
}

/* Whether the answer conforms to the tool's output schema. */
static void conforms(struct ep *p, const char *tool, const char *answer)
{
    const struct tool *t = toolset_find(p->ts, tool, strlen(tool));
    buf msg = BUF_INIT;
    ck_assert_ptr_nonnull(t->output_schema);
    int r = schema_check(p->ts->doc->root, t->output_schema, json(p, answer),
                         "the answer", &msg);
    ck_assert_msg(r == 0, "%s: %s", answer, msg.data);
    buf_free(&msg);
}

/* "Answers to calls and reads": a call the task expects, or any read,
 * answers with a JSON object conforming to the output schema, else
 * {"ok": true, "id": "<value>"}. */
START_TEST(rule_reads_and_expected_calls_answer_an_object)
{
    for (int f = 0; f < NFILES; f++) {
        struct ep p;
        ep_open(&p, FILES[f], 3, "base");
        const char *a = call(&p, "get_order", "{\"order_id\":\"A-1234\"}");
        ck_assert_int_eq(p.r.effect, EFFECT_READ);
        if (f == 0) {
            value *v = json(&p, a);
            ck_assert_int_eq(v->u.obj.len, 2);
            ck_assert_int_eq(field(&p, a, "ok")->u.b, 1);
            ck_assert_uint_eq(strlen(str_field(&p, a, "id")), 6);
        } else {
            conforms(&p, "get_order", a);
            conforms(&p, "search_orders", step(&p, 1));
        }
        const char *l = call(&p, "list_channels", "{}");
        ck_assert_int_eq(field(&p, l, "ok")->u.b, 1);
        ck_assert_int_eq(p.r.error, -1);
        ep_close(&p);
    }
}
END_TEST

/* "The draw depends on the call's content and not on its position, so the
 * same call in the same episode always gets the same answer." */
START_TEST(rule_the_draw_depends_on_content_not_position)
{
    for (int f = 0; f < NFILES; f++) {
        struct ep p, q;
        ep_open(&p, FILES[f], 5, "base");
        ep_open(&q, FILES[f], 5, "base");
        const char *first = call(&p, "get_order", "{\"order_id\":\"K-2211\"}");
        call(&q, "list_channels", "{}");
        call(&q, "search_orders", "{\"query\":\"blue mug\"}");
        call(&q, "get_order", "{\"order_id\":\"B-0001\"}");
        const char *later = call(&q, "get_order", "{\"order_id\":\"K-2211\"}");
        ck_assert_str_eq(first, later);
        ck_assert_str_eq(call(&p, "get_order", "{\"order_id\":\"K-2211\"}"),
                         first);
        /* other content, another answer */
        ck_assert_str_ne(call(&p, "get_order", "{\"order_id\":\"K-2212\"}"),
                         first);
        ep_close(&p);
        ep_close(&q);
    }
}
END_TEST

/* "The values a task needs (a value that one call hands the next) sit in
 * a named string field of a response, chosen when the task is made." */
START_TEST(rule_the_handed_value_sits_in_a_named_field)
{
    static const char *const fields[] = {"id", "order_id", "order_id"};
    for (int f = 0; f < NFILES; f++) {
        struct ep p;
        ep_open(&p, FILES[f], 7, "base");
        ck_assert_str_eq(p.t->hand_field, fields[f]);
        ck_assert_str_eq(p.t->hand_arg, "order_id");
        const char *a = step(&p, 1);
        ck_assert_int_eq(p.r.step, 1);
        ck_assert_str_eq(str_field(&p, a, fields[f]), p.t->handed->u.str.ptr);
        /* the same read for other words hands nothing */
        const char *o = call(&p, "search_orders", "{\"query\":\"other words\"}");
        ck_assert_int_eq(p.r.step, 0);
        ck_assert_str_ne(str_field(&p, o, fields[f]), p.t->handed->u.str.ptr);
        ep_close(&p);
    }
}
END_TEST

/* "Answers to writes": a write that is accepted answers with what it was
 * sent, every argument under its name: beside ok and id without an output
 * schema; into the output schema's field when the value fits it (drawn as
 * usual when it does not). */
START_TEST(rule_an_accepted_write_answers_with_what_it_was_sent)
{
    for (int f = 0; f < NFILES; f++) {
        struct ep p;
        ep_open(&p, FILES[f], 7, "base");
        const char *a = call(&p, "refund_order",
                             "{\"order_id\":\"C-7777\",\"amount\":12.5,"
                             "\"reason\":\"damaged\"}");
        ck_assert_int_eq(p.r.effect, EFFECT_SIDE_EFFECT);
        ck_assert_str_eq(str_field(&p, a, "order_id"), "C-7777");
        ck_assert_str_eq(text_of(&p, field(&p, a, "amount")), "12.5");
        if (f == 0) {
            ck_assert_str_eq(str_field(&p, a, "reason"), "damaged");
            ck_assert_int_eq(field(&p, a, "ok")->u.b, 1);
            ck_assert_int_eq(json(&p, a)->u.obj.len, 5);
        } else {
            /* no field named reason: it has nowhere to go */
            ck_assert_ptr_null(field(&p, a, "reason"));
            conforms(&p, "refund_order", a);
            /* 250 does not fit "amount" (at most 100): drawn as usual */
            const char *b = call(&p, "refund_order",
                                 "{\"order_id\":\"C-7777\",\"amount\":250}");
            ck_assert_str_ne(text_of(&p, field(&p, b, "amount")), "250");
            ck_assert_str_eq(str_field(&p, b, "order_id"), "C-7777");
            conforms(&p, "refund_order", b);
        }
        ep_close(&p);
    }
}
END_TEST

/* A file where a write can set the field a read hands its value in. */
static const char TAGS[] =
    "[{\"type\":\"function\",\"function\":{\"name\":\"search_orders\","
    "\"parameters\":{\"type\":\"object\",\"required\":[\"query\"],"
    "\"properties\":{\"query\":{\"type\":\"string\"}}}}},"
    "{\"type\":\"function\",\"function\":{\"name\":\"tag_order\","
    "\"parameters\":{\"type\":\"object\",\"required\":[\"order_id\"],"
    "\"properties\":{\"order_id\":{\"type\":\"string\",\"minLength\":6,"
    "\"maxLength\":6},\"query\":{\"type\":\"string\"},\"id\":{\"type\":"
    "\"string\"}}}}}]";

/* "The values a task hands from one call to the next are placed after
 * that, so a value the task serves is never overwritten." */
START_TEST(rule_handed_values_are_placed_last)
{
    struct ep p;
    ep_open_text(&p, TAGS, 1, "base");
    ck_assert_str_eq(p.t->steps[0].tool->name, "search_orders");
    ck_assert_str_eq(p.t->hand_field, "id");
    const value *query = value_getz(p.t->steps[0].args, "query");
    value *w = vb_object(p.a);
    ck_assert_int_eq(vb_put(p.a, w, "order_id", vb_str(p.a, "Z-9999")), 0);
    ck_assert_int_eq(vb_put(p.a, w, "query", (value *)query), 0);
    ck_assert_int_eq(vb_put(p.a, w, "id", vb_str(p.a, "OVERWRITTEN")), 0);
    call_v(&p, "tag_order", w);
    ck_assert_int_eq(p.r.effect, EFFECT_SIDE_EFFECT);
    const char *a = step(&p, 1);
    /* the write shows (its order_id), but the handed id is the task's */
    ck_assert_str_eq(str_field(&p, a, "order_id"), "Z-9999");
    ck_assert_str_eq(str_field(&p, a, "id"), p.t->handed->u.str.ptr);
    ep_close(&p);
}
END_TEST

/* "Errors come in each format's own idiom", with the codes and statuses
 * of the table; rate_limited carries retry_after: 1 in the OpenAI and
 * OpenAPI idioms. */
START_TEST(rule_errors_come_in_each_idiom)
{
    static const char *const not_found[] = {
        "{\"error\":{\"code\":\"not_found\",\"message\":\"no tool is named "
        "\\\"cancel_order\\\"\"}}",
        "{\"content\":[{\"text\":\"no tool is named \\\"cancel_order\\\"\","
        "\"type\":\"text\"}],\"isError\":true}",
        "{\"detail\":\"no tool is named \\\"cancel_order\\\"\",\"status\":404}"};
    static const char *const invalid[] = {
        "{\"error\":{\"code\":\"invalid_arguments\",\"message\":\"argument "
        "\\\"order_id\\\" must be at least 6 characters long\"}}",
        "{\"content\":[{\"text\":\"argument \\\"order_id\\\" must be at least 6 "
        "characters long\",\"type\":\"text\"}],\"isError\":true}",
        "{\"detail\":\"argument \\\"order_id\\\" must be at least 6 characters "
        "long\",\"status\":422}"};
    static const char *const limited[] = {
        "{\"error\":{\"code\":\"rate_limited\",\"message\":\"too many "
        "requests; retry after 1 second\",\"retry_after\":1}}",
        "{\"content\":[{\"text\":\"too many requests; retry after 1 second\","
        "\"type\":\"text\"}],\"isError\":true}",
        "{\"detail\":\"too many requests; retry after 1 second\","
        "\"retry_after\":1,\"status\":429}"};
    for (int f = 0; f < NFILES; f++) {
        struct ep p;
        ep_open(&p, FILES[f], 2, "ratelimits:r1");
        ck_assert_str_eq(call(&p, "cancel_order", "{}"), not_found[f]);
        ck_assert_int_eq(p.r.error, SIM_NOT_FOUND);
        ck_assert_ptr_null(p.r.tool);
        ck_assert_str_eq(call(&p, "refund_order",
                              "{\"order_id\":\"A-1\",\"amount\":5}"),
                         invalid[f]);
        ck_assert_int_eq(p.r.error, SIM_INVALID_ARGUMENTS);
        ck_assert_int_eq(p.r.effect, EFFECT_REFUSED);
        ck_assert_str_eq(step(&p, 1), limited[f]);
        ck_assert_int_eq(p.r.event, 0);
        step(&p, 1); /* the retry is answered */
        ck_assert_int_eq(p.r.error, -1);
        ck_assert_int_eq(p.r.effect, EFFECT_READ);
        ep_close(&p);
    }
}
END_TEST

/* "The store": a write the task expects moves its record; any other
 * accepted write is recorded as a side effect. */
START_TEST(rule_expected_writes_move_others_are_side_effects)
{
    for (int f = 0; f < NFILES; f++) {
        struct ep p;
        sim_verdict v;
        ep_open(&p, FILES[f], 7, "depth:d3");
        step(&p, 1);
        call(&p, "notify_customer", "{\"order_id\":\"Q-0000\",\"channel\":"
                                    "\"sms\"}");
        ck_assert_int_eq(p.r.effect, EFFECT_SIDE_EFFECT);
        step(&p, 2);
        ck_assert_int_eq(p.r.effect, EFFECT_EXPECTED_WRITE);
        ck_assert_int_eq(p.r.step, 2);
        sim_judge(p.s, &v);
        ck_assert_int_eq(v.reached, 0);
        step(&p, 3);
        ck_assert_int_eq(p.r.effect, EFFECT_EXPECTED_WRITE);
        sim_judge(p.s, &v);
        ck_assert_int_eq(v.reached, 1);
        ck_assert_int_eq(v.pass, 0);
        ck_assert_uint_eq(v.side_effects, 1);
        ck_assert_uint_eq(v.duplicates, 0);
        ep_close(&p);
    }
}
END_TEST

/* "The store keeps every accepted write, and a read reflects them": a
 * read whose checkable arguments all name values a write was sent answers
 * with the written values, by the write rule, the latest write winning. */
START_TEST(rule_reads_reflect_writes_latest_wins)
{
    for (int f = 0; f < NFILES; f++) {
        struct ep p;
        ep_open(&p, FILES[f], 4, "base");
        const char *before = call(&p, "get_order", "{\"order_id\":\"M-4040\"}");
        call(&p, "refund_order", "{\"order_id\":\"M-4040\",\"amount\":10}");
        call(&p, "refund_order", "{\"order_id\":\"M-4040\",\"amount\":20,"
                                 "\"reason\":\"late\"}");
        call(&p, "refund_order", "{\"order_id\":\"M-4041\",\"amount\":30}");
        const char *after = call(&p, "get_order", "{\"order_id\":\"M-4040\"}");
        if (f == 0) {
            /* no output schema: every argument beside ok and id */
            ck_assert_str_eq(text_of(&p, field(&p, after, "amount")), "20");
            ck_assert_str_eq(str_field(&p, after, "reason"), "late");
            ck_assert_str_eq(str_field(&p, after, "order_id"), "M-4040");
            ck_assert_str_eq(str_field(&p, after, "id"),
                             str_field(&p, before, "id"));
        } else {
            /* get_order's fields: only order_id is written; the rest is
             * its usual answer */
            ck_assert_str_eq(str_field(&p, after, "order_id"), "M-4040");
            ck_assert_ptr_null(field(&p, after, "amount"));
            ck_assert_str_eq(text_of(&p, field(&p, after, "total")),
                             text_of(&p, field(&p, before, "total")));
            conforms(&p, "get_order", after);
        }
        ep_close(&p);
    }
}
END_TEST

/* "Before any such write, and for a read that shares no argument name
 * with a write, a read answers as it always did." */
START_TEST(rule_unrelated_reads_answer_as_before)
{
    for (int f = 0; f < NFILES; f++) {
        struct ep p;
        ep_open(&p, FILES[f], 4, "base");
        const char *s0 = call(&p, "search_orders", "{\"query\":\"red lamp\"}");
        const char *g0 = call(&p, "get_order", "{\"order_id\":\"N-1000\"}");
        call(&p, "refund_order", "{\"order_id\":\"M-4040\",\"amount\":10}");
        call(&p, "notify_customer", "{\"order_id\":\"M-4040\",\"channel\":"
                                    "\"email\"}");
        ck_assert_str_eq(call(&p, "search_orders", "{\"query\":\"red lamp\"}"),
                         s0);
        ck_assert_str_eq(call(&p, "get_order", "{\"order_id\":\"N-1000\"}"),
                         g0);
        ep_close(&p);
    }
}
END_TEST

/* "The expected write made a second time is accepted and recorded as a
 * side effect and as a duplicate write." */
START_TEST(rule_the_expected_write_again_is_a_duplicate)
{
    for (int f = 0; f < NFILES; f++) {
        struct ep p;
        sim_verdict v;
        ep_open(&p, FILES[f], 9, "base");
        step(&p, 1);
        const char *first = step(&p, 2);
        ck_assert_int_eq(p.r.effect, EFFECT_EXPECTED_WRITE);
        ck_assert_str_eq(step(&p, 2), first);
        ck_assert_int_eq(p.r.effect, EFFECT_DUPLICATE_WRITE);
        ck_assert_int_eq(p.r.error, -1);
        sim_judge(p.s, &v);
        ck_assert_int_eq(v.reached, 1);
        ck_assert_int_eq(v.pass, 0);
        ck_assert_uint_eq(v.side_effects, 1);
        ck_assert_uint_eq(v.duplicates, 1);
        ep_close(&p);
    }
}
END_TEST

/* SPEC 3.6: a write matching step k made before step k-1 is done answers
 * not_ready and lands nothing. */
START_TEST(rule_a_step_before_its_prerequisite_is_not_ready)
{
    static const char *const idiom[] = {"\"code\":\"not_ready\"",
                                        "\"isError\":true", "\"status\":409"};
    for (int f = 0; f < NFILES; f++) {
        struct ep p;
        sim_verdict v;
        ep_open(&p, FILES[f], 7, "depth:d3");
        step(&p, 1);
        const char *a = step(&p, 3);
        ck_assert_int_eq(p.r.error, SIM_NOT_READY);
        ck_assert_int_eq(p.r.effect, EFFECT_REFUSED);
        ck_assert_int_eq(p.r.step, 3);
        ck_assert_ptr_nonnull(strstr(a, idiom[f]));
        ck_assert_ptr_nonnull(strstr(a, " is not ready: "));
        sim_judge(p.s, &v);
        ck_assert_uint_eq(v.side_effects, 0);
        ck_assert_uint_eq(v.errors[SIM_NOT_READY], 1);
        step(&p, 2);
        step(&p, 3);
        ck_assert_int_eq(p.r.effect, EFFECT_EXPECTED_WRITE);
        sim_judge(p.s, &v);
        ck_assert_int_eq(v.pass, 1);
        ep_close(&p);
    }
}
END_TEST

/* "Reads on the bad-data dials": on a baddata or lagged arm, and on no
 * other, a read's answer also says what it was asked, by the write rule;
 * a read whose output schema has no field named as its argument cannot. */
START_TEST(rule_reads_say_what_they_were_asked_on_baddata_and_lagged_only)
{
    static const char *const arms[] = {"base", "faults:f1", "landed:l1",
                                       "baddata:b2", "lagged:g1"};
    for (int f = 0; f < NFILES; f++)
        for (int i = 0; i < 5; i++) {
            struct ep p;
            ep_open(&p, FILES[f], 11, arms[i]);
            const char *a = call(&p, "get_order", "{\"order_id\":\"H-0042\"}");
            const value *o = field(&p, a, "order_id");
            int says = o && o->kind == V_STRING &&
                       strcmp(o->u.str.ptr, "H-0042") == 0;
            ck_assert_msg(says == (i >= 3), "%s %s: %s", FILES[f], arms[i], a);
            const char *s = call(&p, "search_orders", "{\"query\":\"tea\"}");
            const value *q = field(&p, s, "query");
            /* MCP and OpenAPI: search_orders has no field "query" */
            ck_assert_int_eq(q != NULL, i >= 3 && f == 0);
            ep_close(&p);
        }
}
END_TEST

/* "On a baddata arm above level 0, the one read the request names answers
 * wrongly the first time it is made and correctly from then on": b1 for
 * another record, and says so; b2 another value with nothing to say so;
 * b3 the value off by one in its last digit.  Neither is an error. */
START_TEST(rule_baddata_answers_wrongly_once)
{
    for (int f = 0; f < NFILES; f++)
        for (int level = 1; level <= 3; level++) {
            struct ep p;
            char arm_text[32];
            snprintf(arm_text, sizeof arm_text, "baddata:b%d", level);
            ep_open(&p, FILES[f], 7, arm_text);
            const char *hf = p.t->hand_field;
            const char *right = p.t->handed->u.str.ptr;
            const char *first = step(&p, 1);
            ck_assert_int_eq(p.r.error, -1);
            ck_assert_int_eq(p.r.event, 0);
            const char *wrong = str_field(&p, first, hf);
            ck_assert_str_ne(wrong, right);
            ck_assert_str_eq(wrong, p.t->wrong->u.str.ptr);
            const char *asked = text_of(
                &p, value_getz(p.t->steps[0].args, "query"));
            const value *q = field(&p, first, "query");
            if (f == 0 && level == 1) /* the other record's words */
                ck_assert_str_ne(text_of(&p, q), asked);
            else if (f == 0)
                ck_assert_str_eq(text_of(&p, q), asked);
            if (level == 3) {
                size_t n = strlen(right);
                ck_assert_uint_eq(strlen(wrong), n);
                ck_assert_int_eq(memcmp(wrong, right, n - 1), 0);
                ck_assert_int_eq(abs(wrong[n - 1] - right[n - 1]), 1);
            }
            const char *second = step(&p, 1);
            ck_assert_str_eq(str_field(&p, second, hf), right);
            ck_assert_str_eq(step(&p, 1), second);
            ep_close(&p);
        }
}
END_TEST

/* "On a lagged arm at level 1, the first read that would show the target
 * write answers as if the write had not landed, once in an episode, and
 * every later read shows it." */
START_TEST(rule_lagged_reads_lag_once)
{
    for (int f = 0; f < NFILES; f++) {
        struct ep p, base;
        ep_open(&p, FILES[f], 7, "lagged:g1");
        ep_open(&base, FILES[f], 7, "base");
        /* before the target write: as always (no event) */
        call_v(&p, "get_order", by_handed(&p));
        ck_assert_int_eq(p.r.event, -1);
        step(&p, 1);
        step(&p, 2);
        const char *lag = call_v(&p, "get_order", by_handed(&p));
        ck_assert_int_eq(p.r.event, 0);
        const char *shows = call_v(&p, "get_order", by_handed(&p));
        ck_assert_int_eq(p.r.event, -1);
        /* what base answers (no lag) after the same calls */
        step(&base, 1);
        step(&base, 2);
        const char *want = call_v(&base, "get_order", by_handed(&base));
        if (f == 0) {
            /* no output schema: the target write's arguments show only
             * once the lag is over */
            ck_assert_str_ne(lag, shows);
            ck_assert_str_eq(shows, want);
        }
        ck_assert_str_eq(str_field(&p, lag, "order_id"),
                         p.t->handed->u.str.ptr);
        ep_close(&p);
        ep_close(&base);
    }
}
END_TEST

/* SPEC 3.7: faults, timeouts and ratelimits answer that many step calls
 * with their error first, landing nothing; the retry is answered. */
START_TEST(rule_dials_answer_step_calls_first)
{
    static const struct {
        const char *arm;
        enum sim_error code;
    } dials[] = {{"faults:f2", SIM_UNAVAILABLE},
                 {"timeouts:o2", SIM_TIMEOUT},
                 {"ratelimits:r2", SIM_RATE_LIMITED}};
    for (int f = 0; f < NFILES; f++)
        for (int d = 0; d < 3; d++) {
            struct ep p;
            sim_verdict v;
            ep_open(&p, FILES[f], 7, dials[d].arm);
            step(&p, 1); /* event 0: step 1's first call */
            ck_assert_int_eq(p.r.error, dials[d].code);
            ck_assert_int_eq(p.r.event, 0);
            step(&p, 1);
            ck_assert_int_eq(p.r.error, -1);
            step(&p, 2); /* event 1: step 2's first call; nothing lands */
            ck_assert_int_eq(p.r.error, dials[d].code);
            ck_assert_int_eq(p.r.effect, EFFECT_REFUSED);
            sim_judge(p.s, &v);
            ck_assert_int_eq(v.reached, 0);
            ck_assert_int_eq(v.events[0].outcome, OUTCOME_RETRIED);
            ck_assert_int_eq(v.events[1].outcome, OUTCOME_GAVE_UP);
            step(&p, 2);
            ck_assert_int_eq(p.r.effect, EFFECT_EXPECTED_WRITE);
            sim_judge(p.s, &v);
            ck_assert_int_eq(v.pass, 1);
            ck_assert_uint_eq(v.errors[dials[d].code], 2);
            ck_assert_int_eq(v.events[1].outcome, OUTCOME_RETRIED);
            ep_close(&p);
        }
}
END_TEST

/* SPEC 3.7: on landed:l1 the target write lands but answers timeout; a
 * read then shows it (checked), a blind retry is a duplicate. */
START_TEST(rule_landed_lands_and_answers_timeout)
{
    for (int f = 0; f < NFILES; f++)
        for (int retry = 0; retry < 2; retry++) {
            struct ep p;
            sim_verdict v;
            ep_open(&p, FILES[f], 7, "landed:l1");
            step(&p, 1);
            step(&p, 2);
            ck_assert_int_eq(p.r.error, SIM_TIMEOUT);
            ck_assert_int_eq(p.r.effect, EFFECT_EXPECTED_WRITE);
            if (retry) {
                step(&p, 2);
                ck_assert_int_eq(p.r.effect, EFFECT_DUPLICATE_WRITE);
            } else {
                call_v(&p, "get_order", by_handed(&p));
            }
            sim_judge(p.s, &v);
            ck_assert_int_eq(v.reached, 1);
            ck_assert_int_eq(v.pass, !retry);
            ck_assert_int_eq(v.events[0].outcome,
                             retry ? OUTCOME_DUPLICATED : OUTCOME_CHECKED);
            ep_close(&p);
        }
}
END_TEST

/* Arguments that cannot be read, and arguments that are not an object. */
START_TEST(unreadable_arguments_are_invalid)
{
    struct ep p;
    err e;
    ep_open(&p, FILES[0], 1, "base");
    ck_assert_int_eq(sim_call(p.s, "get_order", 9, NULL, "expected a value",
                              &p.r, &e), 0);
    ck_assert_str_eq(p.r.answer.data,
                     "{\"error\":{\"code\":\"invalid_arguments\",\"message\":"
                     "\"the arguments are not valid JSON: expected a "
                     "value\"}}");
    ck_assert_str_eq(call(&p, "get_order", "[1]"),
                     "{\"error\":{\"code\":\"invalid_arguments\",\"message\":"
                     "\"the arguments must be an object, not an array\"}}");
    ck_assert_str_eq(call_v(&p, "get_order", NULL),
                     "{\"error\":{\"code\":\"invalid_arguments\",\"message\":"
                     "\"argument \\\"order_id\\\" is required\"}}");
    ep_close(&p);
}
END_TEST

Suite *sim_suite(void)
{
    Suite *s = suite_create("sim");
    TCase *tc = tcase_create("rules");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, rule_reads_and_expected_calls_answer_an_object);
    tcase_add_test(tc, rule_the_draw_depends_on_content_not_position);
    tcase_add_test(tc, rule_the_handed_value_sits_in_a_named_field);
    tcase_add_test(tc, rule_an_accepted_write_answers_with_what_it_was_sent);
    tcase_add_test(tc, rule_handed_values_are_placed_last);
    tcase_add_test(tc, rule_errors_come_in_each_idiom);
    tcase_add_test(tc, rule_expected_writes_move_others_are_side_effects);
    tcase_add_test(tc, rule_reads_reflect_writes_latest_wins);
    tcase_add_test(tc, rule_unrelated_reads_answer_as_before);
    tcase_add_test(tc, rule_the_expected_write_again_is_a_duplicate);
    tcase_add_test(tc, rule_a_step_before_its_prerequisite_is_not_ready);
    tcase_add_test(tc,
                   rule_reads_say_what_they_were_asked_on_baddata_and_lagged_only);
    tcase_add_test(tc, rule_baddata_answers_wrongly_once);
    tcase_add_test(tc, rule_lagged_reads_lag_once);
    tcase_add_test(tc, rule_dials_answer_step_calls_first);
    tcase_add_test(tc, rule_landed_lands_and_answers_timeout);
    tcase_add_test(tc, unreadable_arguments_are_invalid);
    suite_add_tcase(s, tc);
    return s;
}
