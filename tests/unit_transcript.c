/* transcript: whose a line is, found from its start (tline_route), is
 * whose tline_parse reads it to be, or tline_parse refuses the line; an
 * episode line's seed, arm and task name are judged alike by the line
 * and by the functions the log readers ask. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_load.h"
#include "transcript.h"
#include "unit.h"

/* tline_route of text: 1 with "TYPE RUN EPISODE" in out, or 0. */
static int route(const char *text, char *out, size_t cap)
{
    enum tline_type t;
    const char *r, *e;
    size_t rl, el;
    if (!tline_route(text, strlen(text), &t, &r, &rl, &e, &el))
        return 0;
    snprintf(out, cap, "%s %.*s %.*s", tline_type_name(t), (int)rl, r,
             (int)el, e);
    return 1;
}

/* tline_parse of text: "TYPE RUN EPISODE", or its refusal. */
static void parse(const char *text, char *out, size_t cap)
{
    arena *a = arena_new();
    ck_assert_ptr_nonnull(a);
    tline tl;
    err e;
    err_clear(&e);
    if (tline_parse(&tl, a, text, strlen(text), NULL, &e) < 0)
        snprintf(out, cap, "refused: %s", e.msg);
    else
        snprintf(out, cap, "%s %s %s", tline_type_name(tl.type), tl.run,
                 tl.episode ? tl.episode : "-");
    arena_free(a);
}

static const struct {
    const char *line, *route; /* NULL: not routed */
} routes[] = {
    /* as replay sim writes a line, and the same end line short */
    {"{\"type\":\"call\",\"run\":\"r1\",\"episode\":\"e-7\",\"call\":{\"name\":"
     "\"search_orders\",\"arguments\":{\"query\":\"x\"}},\"answer\":{}}",
     "call r1 e-7"},
    {"{\"type\":\"end\",\"run\":\"r\",\"episode\":\"e\"}", "end r e"},
    {"{\"type\":\"episode\",\"run\":\"careful-0412\",\"episode\":\"e-17\","
     "\"seed\":7,\"arm\":\"landed:l1\"}",
     "episode careful-0412 e-17"},
    /* blanks anywhere, members in any order, nesting to skip */
    {"  { \"type\" : \"end\" ,\t\"run\" : \"r\" , \"episode\" : \"e\" }  ",
     "end r e"},
    {"{\"call\":{\"a\":\"}{[\\\"]\",\"b\":[1,{\"c\":\"\\\\\"}]},\"seed\":-1.5e3,"
     "\"episode\":\"e\",\"ok\":true,\"type\":\"call\",\"run\":\"r\"}",
     "call r e"},
    /* cut after the three: routed (its reader refuses it) */
    {"{\"type\":\"call\",\"run\":\"r\",\"episode\":\"e\",\"call\":{\"na",
     "call r e"},
    /* not routed: a run line, an unknown type, one missing */
    {"{\"type\":\"run\",\"run\":\"r\",\"episode\":\"e\",\"tools\":\"t\"}", NULL},
    {"{\"type\":\"calls\",\"run\":\"r\",\"episode\":\"e\"}", NULL},
    {"{\"type\":\"call\",\"run\":\"r\",\"call\":{}}", NULL},
    /* names that need decoding, or are not ASCII */
    {"{\"type\":\"call\",\"run\":\"r\\u0031\",\"episode\":\"e\"}", NULL},
    {"{\"type\":\"call\",\"run\":\"r\",\"episode\":\"\xc3\xa9t\xc3\xa9\"}",
     NULL},
    {"{\"type\":\"call\",\"r\\u0075n\":\"r\",\"episode\":\"e\"}", NULL},
    {"{\"x\\n\":1,\"type\":\"call\",\"run\":\"r\",\"episode\":\"e\"}", NULL},
    /* a name not a string, given twice before the third, cut short */
    {"{\"type\":\"call\",\"run\":7,\"episode\":\"e\"}", NULL},
    {"{\"type\":\"call\",\"run\":\"a\",\"run\":\"b\",\"episode\":\"e\"}", NULL},
    {"{\"type\":\"call\",\"run\":\"r\",\"episode\":\"e", NULL},
    {"{\"call\":{\"a\":[1,2},\"type\":\"call\",\"run\":\"r\",\"episode\":\"e\"}",
     NULL},
    /* not an object, or empty */
    {"[\"type\",\"call\"]", NULL},
    {"{}", NULL},
    {"", NULL},
    {"{\"type\":\"end\",\"run\":\"r\",\"episode\":\"e\"} x", NULL},
};

START_TEST(routes_from_the_start)
{
    char got[256];
    int routed = route(routes[_i].line, got, sizeof got);
    if (routes[_i].route) {
        ck_assert_msg(routed, "line %d not routed", _i);
        ck_assert_str_eq(got, routes[_i].route);
    } else {
        ck_assert_msg(!routed, "line %d routed: %s", _i, got);
    }
}
END_TEST

/* Every line routed is read as routed, or refused. */
START_TEST(parse_agrees_with_route)
{
    char r[256], p[512];
    if (!route(routes[_i].line, r, sizeof r))
        return;
    parse(routes[_i].line, p, sizeof p);
    if (strncmp(p, "refused: ", 9) != 0)
        ck_assert_str_eq(p, r);
}
END_TEST

START_TEST(names_given_twice_are_refused)
{
    char got[512];
    /* after the three the route looks no further: the reader refuses */
    parse("{\"type\":\"call\",\"run\":\"a\",\"episode\":\"e\",\"call\":"
          "{\"name\":\"x\"},\"run\":\"b\"}",
          got, sizeof got);
    ck_assert_str_eq(got, "refused: \"run\" is given more than once on this "
                          "line; give it once (readers of JSON differ on "
                          "which one counts)");
    parse("{\"type\":\"end\",\"run\":\"a\",\"episode\":\"e\","
          "\"\\u0065pisode\":\"f\"}",
          got, sizeof got);
    ck_assert_str_eq(got, "refused: \"episode\" is given more than once on "
                          "this line; give it once (readers of JSON differ "
                          "on which one counts)");
    parse("{\"type\":\"end\",\"type\":\"end\",\"run\":\"a\",\"episode\":\"e\"}",
          got, sizeof got);
    ck_assert_str_eq(got, "refused: \"type\" is given more than once on this "
                          "line; give it once (readers of JSON differ on "
                          "which one counts)");
    /* another member twice: the last one, as JSON reads it */
    parse("{\"type\":\"end\",\"run\":\"a\",\"episode\":\"e\",\"final\":\"x\","
          "\"final\":\"y\"}",
          got, sizeof got);
    ck_assert_str_eq(got, "end a e");
    /* the same names nested are other members */
    parse("{\"type\":\"call\",\"run\":\"a\",\"episode\":\"e\",\"call\":{"
          "\"name\":\"x\",\"arguments\":{\"run\":\"b\",\"run\":\"c\"}}}",
          got, sizeof got);
    ck_assert_str_eq(got, "call a e");
}
END_TEST

/* Lines made from the table's by many small changes (a byte replaced by
 * one that matters to JSON, a member inserted, a byte cut), with a seed
 * of their own: each routed one is read as routed, or refused. */
START_TEST(changed_lines_route_as_read)
{
    static const char bytes[] = "\"\\{}[],: \t0ru\xc3";
    static const char *const snippets[] = {
        ",\"run\":\"z\"", ",\"episode\":\"z\"", ",\"type\":\"end\"",
        "\"r\\u0075n\"", "\\u0072", "{\"run\":\"q\"}", ",\"x\":[\"]\"]",
        "\"\"", " ", "\\\""};
    uint64_t x = 0x9e3779b97f4a7c15u;
    char buf[600], r[256], p[512];
    size_t n = sizeof routes / sizeof routes[0], routed = 0, agreed = 0;
    for (int k = 0; k < 1000000; k++) {
        const char *from = routes[k % n].line;
        size_t len = strlen(from);
        memcpy(buf, from, len + 1);
        for (int c = 0, changes = 1 + k % 2; c < changes; c++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            size_t at = len ? (size_t)(x >> 8) % (len + 1) : 0;
            switch (x % 3) {
            case 0: /* a byte replaced */
                if (at < len)
                    buf[at] = bytes[(x >> 40) % (sizeof bytes - 1)];
                break;
            case 1: { /* a snippet inserted */
                const char *sn = snippets[(x >> 40) % 10];
                size_t sl = strlen(sn);
                if (len + sl < sizeof buf) {
                    memmove(buf + at + sl, buf + at, len - at + 1);
                    memcpy(buf + at, sn, sl);
                    len += sl;
                }
                break;
            }
            default: /* a byte cut */
                if (at < len) {
                    memmove(buf + at, buf + at + 1, len - at);
                    len--;
                }
            }
        }
        if (!route(buf, r, sizeof r))
            continue;
        routed++;
        parse(buf, p, sizeof p);
        if (strncmp(p, "refused: ", 9) != 0) {
            agreed++;
            ck_assert_msg(strcmp(p, r) == 0, "%s: routed %s, read %s", buf, r,
                          p);
        }
    }
    /* the changes leave many lines routed and read */
    ck_assert_uint_gt(routed, 50000);
    ck_assert_uint_gt(agreed, 10000);
}
END_TEST

/* tline_names of text's first len bytes: "RUN EPISODE" ("-" for none). */
static void names(const char *text, size_t len, char *out, size_t cap)
{
    arena *a = arena_new();
    ck_assert_ptr_nonnull(a);
    const char *run, *episode;
    err e;
    err_clear(&e);
    ck_assert_int_eq(tline_names(a, text, len, &run, &episode, &e), 0);
    snprintf(out, cap, "%s %s", run ? run : "-", episode ? episode : "-");
    arena_free(a);
}

/* A line too long to read: the names its whole members give, decoded,
 * nested values skipped, the last of a name given twice. */
START_TEST(names_from_a_line_start)
{
    char got[128];
    const char *line = "{\"type\":\"call\",\"call\":{\"run\":\"x\"},"
                       "\"r\\u0075n\":\"r\\u002d1\",\"seed\":3,"
                       "\"episode\":\"e1\",\"answer\":\"aaaa";
    names(line, strlen(line), got, sizeof got);
    ck_assert_str_eq(got, "r-1 e1");
    /* cut inside the episode's name: not read */
    names(line, (size_t)(strstr(line, "e1") - line) + 1, got, sizeof got);
    ck_assert_str_eq(got, "r-1 -");
    const char *nul = "{\"run\":\"a\",\"run\":\"b\",\"episode\":\"n\\u0000\",";
    names(nul, strlen(nul), got, sizeof got);
    ck_assert_str_eq(got, "b -");
    names("[\"run\",\"a\"]", 11, got, sizeof got);
    ck_assert_str_eq(got, "- -");
}
END_TEST

/* What the log readers ask of a seed, an arm and a task name before they
 * write an episode line (tline_seed_arm, tline_task_name) is what the
 * line holding them reads as: observed, replayed, or the same refusal. */
START_TEST(seed_arm_as_the_line_reads)
{
    static const char *const seeds[] = {
        NULL, "null", "7", "0", "-5", "9223372036854775807",
        "9223372036854775808", "1.5", "\"7\"", "true", "[7]"};
    static const char *const arms[] = {
        NULL, "null", "\"base\"", "\"depth:d3\"", "\"nope\"", "\"\"",
        "\"base\\u0000\"", "3", "{}"};
    static const char *const names[] = {
        NULL, "null", "\"t1\"", "12", "\"t\\u0000\"", "\"\\ud800\"",
        "1.5", "false", "[]"};
    char text[256];
    for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++)
        for (size_t j = 0; j < sizeof arms / sizeof arms[0]; j++)
            for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
                snprintf(text, sizeof text,
                         "{\"type\":\"episode\",\"run\":\"r\","
                         "\"episode\":\"e\"%s%s%s%s%s%s}",
                         seeds[i] ? ",\"seed\":" : "",
                         seeds[i] ? seeds[i] : "",
                         arms[j] ? ",\"arm\":" : "", arms[j] ? arms[j] : "",
                         names[k] ? ",\"task_name\":" : "",
                         names[k] ? names[k] : "");
                arena *a = arena_new();
                ck_assert_ptr_nonnull(a);
                tline tl;
                err le, se, ne;
                int line = tline_parse(&tl, a, text, strlen(text), NULL, &le);
                value *v;
                ck_assert_int_eq(json_load(&v, a, text, strlen(text), &se),
                                 0);
                int sa = tline_seed_arm(value_getz(v, "seed"),
                                        value_getz(v, "arm"), &se);
                int tn = tline_task_name(value_getz(v, "task_name"), &ne);
                if (line == 0) {
                    ck_assert_msg(sa == !tl.observed && tn == 0, "%s", text);
                } else if (sa < 0) {
                    ck_assert_msg(strcmp(se.msg, le.msg) == 0,
                                  "%s: %s against %s", text, se.msg, le.msg);
                } else {
                    ck_assert_msg(tn < 0 && strcmp(ne.msg, le.msg) == 0,
                                  "%s: %s", text, le.msg);
                }
                arena_free(a);
            }
}
END_TEST

Suite *transcript_suite(void)
{
    Suite *s = suite_create("transcript");
    TCase *tc = tcase_create("route");
    tcase_set_timeout(tc, 60); /* room for a busy machine, under ASan */
    int n = (int)(sizeof routes / sizeof routes[0]);
    tcase_add_loop_test(tc, routes_from_the_start, 0, n);
    tcase_add_loop_test(tc, parse_agrees_with_route, 0, n);
    tcase_add_test(tc, names_given_twice_are_refused);
    tcase_add_test(tc, changed_lines_route_as_read);
    tcase_add_test(tc, names_from_a_line_start);
    tcase_add_test(tc, seed_arm_as_the_line_reads);
    suite_add_tcase(s, tc);
    return s;
}
