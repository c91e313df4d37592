/*
 * Unit tests of json_load, and of utf8, which it stands on.  Every
 * expectation about what loads and what is refused was checked against
 * Python 3's json.loads(bytes).
 *
 * Trees are compared through a debug text of their own (see dump()), not
 * through the canonical writer, so that these tests depend on the loader
 * alone: floats print as f:%.17g, a string holding a lone surrogate gets a
 * '!' in front, bytes outside printable ASCII print as \xHH.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "json_load.h"
#include "pynum.h"
#include "unit.h"
#include "utf8.h"

/* ------------------------------------------------------------ helpers */

static void dump(buf *out, const value *v)
{
    switch ((value_kind)v->kind) {
    case V_NULL:
        buf_puts(out, "null");
        return;
    case V_BOOL:
        buf_puts(out, v->u.b ? "true" : "false");
        return;
    case V_INT:
        buf_append(out, v->u.str.ptr, v->u.str.len);
        return;
    case V_FLOAT:
        if (isnan(v->u.d))
            buf_puts(out, "f:nan");
        else if (isinf(v->u.d))
            buf_puts(out, v->u.d > 0 ? "f:inf" : "f:-inf");
        else
            buf_printf(out, "f:%.17g", v->u.d);
        return;
    case V_STRING:
        if (v->flags & VF_UNENCODABLE)
            buf_putc(out, '!');
        buf_putc(out, '"');
        for (size_t i = 0; i < v->u.str.len; i++) {
            unsigned char c = (unsigned char)v->u.str.ptr[i];
            if (c == '"' || c == '\\')
                buf_printf(out, "\\%c", c);
            else if (c < 0x20 || c >= 0x7f)
                buf_printf(out, "\\x%02X", c);
            else
                buf_putc(out, (char)c);
        }
        buf_putc(out, '"');
        return;
    case V_ARRAY:
        buf_putc(out, '[');
        for (size_t i = 0; i < v->u.arr.len; i++) {
            if (i)
                buf_putc(out, ',');
            dump(out, v->u.arr.items[i]);
        }
        buf_putc(out, ']');
        return;
    case V_OBJECT:
        buf_putc(out, '{');
        for (size_t i = 0; i < v->u.obj.len; i++) {
            if (i)
                buf_putc(out, ',');
            dump(out, v->u.obj.items[i].key);
            buf_putc(out, ':');
            dump(out, v->u.obj.items[i].val);
        }
        buf_putc(out, '}');
        return;
    case V_TIMESTAMP:
    case V_BAD:
        break;
    }
    buf_puts(out, "?");
}

/* Loads n bytes and checks that the tree dumps as `want`. */
static void check_load(const char *in, size_t n, const char *want)
{
    arena *a = arena_new();
    ck_assert_ptr_nonnull(a);
    err e;
    err_clear(&e);
    value *v = NULL;
    int rc = json_load(&v, a, in, n, &e);
    ck_assert_msg(rc == 0, "refused %.*s: %s", (int)n, in, e.msg);
    ck_assert_ptr_nonnull(v);
    buf out = BUF_INIT;
    dump(&out, v);
    ck_assert_msg(out.data && strcmp(out.data, want) == 0,
                  "loading %.*s gave %s, want %s", (int)n, in,
                  out.data ? out.data : "", want);
    buf_free(&out);
    arena_free(a);
}

#define LOADS(lit, want) check_load(lit, sizeof lit - 1, want)

/* Loads n bytes and expects a refusal with that code, described in e. */
static void check_refused(const char *in, size_t n, enum err_code code,
                          err *e)
{
    arena *a = arena_new();
    ck_assert_ptr_nonnull(a);
    err_clear(e);
    value *v = NULL;
    int rc = json_load(&v, a, in, n, e);
    ck_assert_msg(rc == -1, "accepted %.*s", (int)n, in);
    ck_assert_ptr_null(v);
    ck_assert_msg(e->code == code, "%.*s: code %d, want %d (%s)", (int)n, in,
                  (int)e->code, (int)code, e->msg);
    ck_assert_msg(e->msg[0] != '\0', "%.*s: no message", (int)n, in);
    ck_assert_msg(!strchr(e->msg, '\n'), "%.*s: message on two lines",
                  (int)n, in);
    arena_free(a);
}

#define REFUSED(lit)                                                         \
    do {                                                                     \
        err e_;                                                              \
        check_refused(lit, sizeof lit - 1, ERR_SYNTAX, &e_);                 \
    } while (0)

/* A refusal of a NUL-terminated text at a place, with a message that
 * holds `msg`. */
static void check_error(const char *in, unsigned line, unsigned col,
                        const char *path, const char *msg)
{
    err e;
    check_refused(in, strlen(in), ERR_SYNTAX, &e);
    ck_assert_msg(e.line == line && e.col == col,
                  "%s: error at %u:%u, want %u:%u (%s)", in, e.line, e.col,
                  line, col, e.msg);
    ck_assert_str_eq(e.path, path);
    ck_assert_msg(strstr(e.msg, msg), "%s: message '%s' lacks '%s'", in,
                  e.msg, msg);
}

/* The loaded tree, for tests that look at nodes. */
static value *load(arena *a, const char *in, size_t n)
{
    err e;
    err_clear(&e);
    value *v = NULL;
    ck_assert_msg(json_load(&v, a, in, n, &e) == 0, "refused: %s", e.msg);
    return v;
}

/* n copies of s, then tail, NUL-terminated; the caller frees it. */
static char *repeat(const char *s, size_t n, const char *tail)
{
    size_t k = strlen(s), t = strlen(tail);
    char *p = malloc(k * n + t + 1);
    ck_assert_ptr_nonnull(p);
    for (size_t i = 0; i < n; i++)
        memcpy(p + i * k, s, k);
    memcpy(p + k * n, tail, t + 1);
    return p;
}

/* ---------------------------------------------------------- encodings */

START_TEST(utf8_bom_is_dropped)
{
    LOADS("\xEF\xBB\xBF{\"a\":1}", "{\"a\":1}");
    LOADS("\xEF\xBB\xBF\"\xC3\xA9\"", "\"\\xC3\\xA9\"");
    /* A second mark is text, and JSON allows no text there. */
    REFUSED("\xEF\xBB\xBF\xEF\xBB\xBF{}");
    REFUSED("\xEF\xBB\xBF");
}
END_TEST

START_TEST(utf16_with_and_without_bom)
{
    /* ["é"] in four spellings, then 12 */
    LOADS("\xFF\xFE[\0\"\0\xE9\0\"\0]\0", "[\"\\xC3\\xA9\"]");
    LOADS("\xFE\xFF\0[\0\"\0\xE9\0\"\0]", "[\"\\xC3\\xA9\"]");
    LOADS("[\0\"\0\xE9\0\"\0]\0", "[\"\\xC3\\xA9\"]");
    LOADS("\0[\0\"\0\xE9\0\"\0]", "[\"\\xC3\\xA9\"]");
    LOADS("1\0" "2\0", "12");
    LOADS("\0" "1\0" "2", "12");
    /* Two bytes: one UTF-16 unit. */
    LOADS("\0" "1", "1");
    LOADS("1\0", "1");
    /* A surrogate pair is one code point (U+1F600). */
    LOADS("\"\0=\xD8\0\xDE\"\0", "\"\\xF0\\x9F\\x98\\x80\"");
    /* An odd length is refused, even after a complete value. */
    REFUSED("1\0" "2\0\0");
    REFUSED("\xFF\xFE" "1\0 ");
}
END_TEST

START_TEST(utf32_with_and_without_bom)
{
    LOADS("\xFF\xFE\0\0\"\0\0\0\xE9\0\0\0\"\0\0\0", "\"\\xC3\\xA9\"");
    LOADS("\0\0\xFE\xFF\0\0\0\"\0\0\0\xE9\0\0\0\"", "\"\\xC3\\xA9\"");
    LOADS("\"\0\0\0\xE9\0\0\0\"\0\0\0", "\"\\xC3\\xA9\"");
    LOADS("\0\0\0\"\0\0\0\xE9\0\0\0\"", "\"\\xC3\\xA9\"");
    LOADS("\0\0\0" "1\0\0\0" "2", "12");
    LOADS("\"\0\0\0\0\xF6\x01\0\"\0\0\0", "\"\\xF0\\x9F\\x98\\x80\"");
    /* Past U+10FFFF, or a unit cut short: refused. */
    REFUSED("\"\0\0\0\0\0\x11\0\"\0\0\0");
    REFUSED("\0\0\0" "1\0\0");
    REFUSED("\xFF\xFE\0\0" "1\0\0\0\0");
}
END_TEST

START_TEST(invalid_utf8_is_refused_anywhere)
{
    REFUSED("\"\xC0\x80\"");         /* overlong NUL */
    REFUSED("\"\xC1\xBF\"");         /* overlong */
    REFUSED("\"\xE0\x80\x80\"");     /* overlong */
    REFUSED("\"\xF0\x80\x80\x80\""); /* overlong */
    REFUSED("\"\xF4\x90\x80\x80\""); /* past U+10FFFF */
    REFUSED("\"\xF5\x80\x80\x80\""); /* never a lead byte */
    REFUSED("\"\xFF\"");
    REFUSED("\"\x80\"");             /* continuation, no lead */
    REFUSED("\"\xE2\x28\xA1\"");     /* missing continuation */
    REFUSED("\"\xED\xA0\"");         /* half a surrogate */
    REFUSED("\"a\xE2\x82");          /* cut short at the end */
    /* Where it is does not matter: after the value, or where JSON fails
     * first. */
    REFUSED("1 \xC0\x80");
    REFUSED("[1] \xFF");
    /* The biggest code point and the last before the surrogates load. */
    LOADS("\"\xF4\x8F\xBF\xBF\xED\x9F\xBF\"",
          "\"\\xF4\\x8F\\xBF\\xBF\\xED\\x9F\\xBF\"");
}
END_TEST

START_TEST(encoding_error_place)
{
    static const char text[] = "[\"a\",\n \"\xC3\xA9\xC0\x80\"]";
    err e;
    check_refused(text, sizeof text - 1, ERR_SYNTAX, &e);
    ck_assert_uint_eq(e.line, 2);
    ck_assert_uint_eq(e.col, 4);
    ck_assert_str_eq(e.path, "");
    ck_assert_ptr_nonnull(strstr(e.msg, "UTF-8"));
}
END_TEST

/* ---------------------------------------------------- NaN and Infinity */

START_TEST(nan_and_infinities_are_floats)
{
    LOADS("[NaN, Infinity, -Infinity]", "[f:nan,f:inf,f:-inf]");
    LOADS("NaN", "f:nan");
    LOADS(" -Infinity ", "f:-inf");
    LOADS("Infinity", "f:inf");
    LOADS("{\"x\":[NaN],\"y\":-Infinity}", "{\"x\":[f:nan],\"y\":f:-inf}");
    LOADS("[1,NaN]", "[1,f:nan]");
    LOADS("[\n\tNaN\r\n]", "[f:nan]");
    /* Only as values: in strings they stay text. */
    LOADS("[\"NaN\",\"a\\\"NaN\",\"\\\\\",NaN]",
          "[\"NaN\",\"a\\\"NaN\",\"\\\\\",f:nan]");
    /* A later duplicate hides a NaN, as in Python. */
    LOADS("{\"a\": NaN, \"a\": 1}", "{\"a\":1}");
}
END_TEST

START_TEST(nan_traps_are_refused)
{
    REFUSED("1NaN");
    REFUSED("NaN1");
    REFUSED("-NaN");
    REFUSED("[-NaN]");
    REFUSED("[NaN,]");
    REFUSED("[NaN1]");
    REFUSED("[1NaN]");
    REFUSED("[NaNe1]");
    REFUSED("[NaN-1]");
    REFUSED("NaN-1");
    REFUSED("NaNx");
    REFUSED("NaNNaN");
    REFUSED("[NaN NaN]");
    REFUSED("[Infinity0]");
    REFUSED("Infinity.5");
    REFUSED("[-Infinity1]");
    REFUSED("[--Infinity]");
    REFUSED("[- Infinity]");
    REFUSED("[+Infinity]");
    REFUSED("{NaN:1}");
    REFUSED("nan");
    REFUSED("inf");
    REFUSED("-infinity");
    REFUSED("[NAN]");
    REFUSED("NaN\x0b");
    REFUSED("NaN/");
    REFUSED("[NaN]]");
}
END_TEST

/* ------------------------------------------------------------ objects */

START_TEST(duplicate_keys_last_value_first_place)
{
    LOADS("{\"b\":1,\"a\":2,\"b\":3}", "{\"b\":3,\"a\":2}");
    LOADS("{\"a\":{\"x\":1},\"a\":[2]}", "{\"a\":[2]}");
    /* Escapes are decoded before keys compare. */
    LOADS("{\"a\":1,\"\\u0061\":2}", "{\"a\":2}");
    LOADS("{}", "{}");
    LOADS("[{},[],{\"\":[]}]", "[{},[],{\"\":[]}]");
}
END_TEST

START_TEST(duplicate_keys_in_a_big_object)
{
    /* Past the linear scan: 40 keys, every fifth one written again. */
    buf in = BUF_INIT, want = BUF_INIT;
    buf_putc(&in, '{');
    for (int i = 0; i < 40; i++)
        buf_printf(&in, "\"k%d\":%d,", i, i);
    for (int i = 0; i < 40; i += 5)
        buf_printf(&in, "\"k%d\":%d,", i, 1000 + i);
    buf_puts(&in, "\"k39\":-1}");
    buf_putc(&want, '{');
    for (int i = 0; i < 40; i++)
        buf_printf(&want, "%s\"k%d\":%d", i ? "," : "", i,
                   i == 39 ? -1 : i % 5 ? i : 1000 + i);
    buf_putc(&want, '}');
    check_load(in.data, in.len, want.data);
    buf_free(&in);
    buf_free(&want);
}
END_TEST

/* ------------------------------------------------------------ strings */

START_TEST(nul_survives_with_its_length)
{
    LOADS("\"a\\u0000b\"", "\"a\\x00b\"");
    arena *a = arena_new();
    static const char text[] = "{\"\\u0000\":\"\\u0000\\u0000\"}";
    value *v = load(a, text, sizeof text - 1);
    ck_assert_uint_eq(v->u.obj.items[0].key->u.str.len, 1);
    ck_assert_uint_eq(v->u.obj.items[0].val->u.str.len, 2);
    arena_free(a);
}
END_TEST

START_TEST(escapes)
{
    LOADS("\"\\/\\b\\f\\n\\r\\t\\\"\\\\\"",
          "\"/\\x08\\x0C\\x0A\\x0D\\x09\\\"\\\\\"");
    LOADS("\"\\u00e9\\u00E9\\u4e2d\"",
          "\"\\xC3\\xA9\\xC3\\xA9\\xE4\\xB8\\xAD\"");
    LOADS("\"\x7f\xE2\x80\xA8\"", "\"\\x7F\\xE2\\x80\\xA8\"");
}
END_TEST

START_TEST(surrogate_pairs_combine)
{
    LOADS("\"\\ud83d\\ude00\"", "\"\\xF0\\x9F\\x98\\x80\"");
    LOADS("\"\\uD83D\\uDE00\"", "\"\\xF0\\x9F\\x98\\x80\"");
    LOADS("\"\\udbff\\udfff\"", "\"\\xF4\\x8F\\xBF\\xBF\"");
    LOADS("\"\xF0\x9F\x98\x80\"", "\"\\xF0\\x9F\\x98\\x80\"");
}
END_TEST

START_TEST(lone_surrogates_are_flagged)
{
    LOADS("\"\\ud800\"", "!\"\\xED\\xA0\\x80\"");
    LOADS("\"\\udc00\"", "!\"\\xED\\xB0\\x80\"");
    LOADS("\"a\\ud800b\"", "!\"a\\xED\\xA0\\x80b\"");
    /* A high one pairs only with a low one right after it. */
    LOADS("\"\\ud800\\u0041\"", "!\"\\xED\\xA0\\x80A\"");
    LOADS("\"\\ud83d\\ud83d\\ude00\"",
          "!\"\\xED\\xA0\\xBD\\xF0\\x9F\\x98\\x80\"");
    LOADS("\"\\ude00\\ud83d\"", "!\"\\xED\\xB8\\x80\\xED\\xA0\\xBD\"");
    /* Raw in UTF-8 (surrogatepass): kept, never paired. */
    LOADS("\"\xED\xA0\x80\"", "!\"\\xED\\xA0\\x80\"");
    LOADS("\"\xED\xA0\xBD\xED\xB8\x80\"",
          "!\"\\xED\\xA0\\xBD\\xED\\xB8\\x80\"");
    LOADS("\"\\ud83d\xED\xB8\x80\"", "!\"\\xED\\xA0\\xBD\\xED\\xB8\\x80\"");
    /* Unpaired in UTF-16, both byte orders; a surrogate in UTF-32. */
    LOADS("\"\0=\xD8\"\0", "!\"\\xED\\xA0\\xBD\"");
    LOADS("\0\"\xDE\0\0\"", "!\"\\xED\\xB8\\x80\"");
    LOADS("\"\0\0\xDC=\xD8\"\0", "!\"\\xED\\xB0\\x80\\xED\\xA0\\xBD\"");
    LOADS("\"\0\0\0\0\xD8\0\0\"\0\0\0", "!\"\\xED\\xA0\\x80\"");
    /* Only the strings that hold one. */
    LOADS("[\"\\ud800\",\"\\ud83d\\ude00\",\"\\u00e9\"]",
          "[!\"\\xED\\xA0\\x80\",\"\\xF0\\x9F\\x98\\x80\",\"\\xC3\\xA9\"]");
}
END_TEST

START_TEST(lone_surrogate_keys)
{
    /* Flagged, and never mistaken for another key. */
    LOADS("{\"\\ud800\":1,\"?\":2}", "{!\"\\xED\\xA0\\x80\":1,\"?\":2}");
    LOADS("{\"?\":1,\"\\ud800\":2}", "{\"?\":1,!\"\\xED\\xA0\\x80\":2}");
    LOADS("{\"\\ud800\":1,\"\\ud800\":2}", "{!\"\\xED\\xA0\\x80\":2}");
    /* Python's str holds the same code points either way. */
    LOADS("{\"\\ud800\":1,\"\xED\xA0\x80\":2}", "{!\"\\xED\\xA0\\x80\":2}");
}
END_TEST

START_TEST(control_characters_are_refused)
{
    REFUSED("\"a\x01\"");
    REFUSED("\"a\tb\"");
    REFUSED("\"a\nb\"");
    REFUSED("\"\x1f\"");
    REFUSED("{\"a\x01\":1}");
    REFUSED("\"\0\"");
    check_error("[\"ab\x01\"]", 1, 5, "$[0]", "control character");
}
END_TEST

/* ------------------------------------------------------------ numbers */

START_TEST(numbers)
{
    LOADS("[-0,0,-0.0,1.0,1,1E5,0.1,-1.5e-3]",
          "[0,0,f:-0,f:1,1,f:100000,f:0.10000000000000001,f:-0.0015]");
    LOADS("-0", "0");
    LOADS("[1e400,-1e400,1E+400,1e-400,4.9e-324,2.4e-324]",
          "[f:inf,f:-inf,f:inf,f:0,f:4.9406564584124654e-324,f:0]");
    LOADS("[123456789012345678901234567890,-18446744073709551616]",
          "[123456789012345678901234567890,-18446744073709551616]");
    arena *a = arena_new();
    value *v = load(a, "-0.0", 4);
    ck_assert(signbit(v->u.d));
    arena_free(a);
    REFUSED("01");
    REFUSED("[01]");
    REFUSED("-01");
    REFUSED("1.");
    REFUSED(".5");
    REFUSED("+1");
    REFUSED("1e");
    REFUSED("1e+");
    REFUSED("-");
    REFUSED("0x10");
}
END_TEST

START_TEST(integer_digit_limit)
{
    char *ok = repeat("7", PYINT_MAX_DIGITS, "");
    char *over = repeat("7", PYINT_MAX_DIGITS + 1, "");
    arena *a = arena_new();
    value *v = load(a, ok, strlen(ok));
    ck_assert_int_eq(v->kind, V_INT);
    ck_assert_uint_eq(v->u.str.len, PYINT_MAX_DIGITS);
    arena_free(a);

    /* The sign is not a digit. */
    char *minus = malloc(strlen(ok) + 2);
    ck_assert_ptr_nonnull(minus);
    minus[0] = '-';
    strcpy(minus + 1, ok);
    a = arena_new();
    v = load(a, minus, strlen(minus));
    ck_assert_uint_eq(v->u.str.len, PYINT_MAX_DIGITS + 1);
    arena_free(a);

    err e;
    check_refused(over, strlen(over), ERR_LIMIT, &e);
    ck_assert_ptr_nonnull(strstr(e.msg, "4301 digits"));
    /* A float has no such limit. */
    char *flt = repeat("7", PYINT_MAX_DIGITS + 1, ".5");
    check_load(flt, strlen(flt), "f:inf");
    free(ok);
    free(over);
    free(minus);
    free(flt);
}
END_TEST

/* ------------------------------------------------------- what follows */

START_TEST(trailing_text_is_refused)
{
    REFUSED("1 2");
    REFUSED("[1]x");
    REFUSED("{}{}");
    REFUSED("[1],");
    REFUSED("true\"");
    REFUSED("1 \"abc");
    REFUSED("[1] tr");
    REFUSED("[1]\0");
    REFUSED("[1]//c");
    LOADS("[1] \t\r\n", "[1]");
    LOADS("\n 1 \n", "1");
}
END_TEST

START_TEST(only_json_whitespace)
{
    REFUSED("[1,\x0b" "2]");
    REFUSED("1\x0c");
    REFUSED("\x0b" "1");
    REFUSED("{\"a\"\x0c:1}");
    /* In a string, \f is an escape and a raw \v a control character. */
    LOADS("[\"\\f\"]", "[\"\\x0C\"]");
    REFUSED("[\"\x0b\"]");
    check_error("{\"a\": [1,\x0b 2]}", 1, 10, "$.a[1]", "vertical tab");
}
END_TEST

START_TEST(not_json)
{
    REFUSED("");
    REFUSED("  \n ");
    REFUSED("/*c*/1");
    REFUSED("[1,]");
    REFUSED("{\"a\":1,}");
    REFUSED("{'a':1}");
    REFUSED("{\"a\" 1}");
    REFUSED("{1:2}");
    REFUSED("[\"a\\x\"]");
    REFUSED("\"\\u12g4\"");
    REFUSED("tru");
    REFUSED("nul");
    REFUSED("True");
    REFUSED("[");
    REFUSED("{\"a\"");
    REFUSED("{\"a\":");
    REFUSED("\"abc");
    REFUSED("[1 2]");
    REFUSED("\0");
    REFUSED("\"\\ud800");
    LOADS("[true,false,null]", "[true,false,null]");
}
END_TEST

/* ------------------------------------------------------------ nesting */

START_TEST(depth_limit)
{
    char *ok = repeat("[", VALUE_MAX_DEPTH, "");
    char *tail = repeat("]", VALUE_MAX_DEPTH, "");
    char *text = malloc(2 * VALUE_MAX_DEPTH + 1);
    ck_assert_ptr_nonnull(text);
    strcpy(text, ok);
    strcat(text, tail);
    arena *a = arena_new();
    value *v = load(a, text, strlen(text));
    for (int d = 1; d < VALUE_MAX_DEPTH; d++)
        v = v->u.arr.items[0];
    ck_assert_uint_eq(v->u.arr.len, 0);
    arena_free(a);

    char *deep = repeat("[", VALUE_MAX_DEPTH + 1, "]");
    err e;
    check_refused(deep, strlen(deep), ERR_LIMIT, &e);
    ck_assert_str_eq(e.msg, "nesting deeper than 256 levels; this is the "
                            "limit");
    ck_assert_uint_eq(e.line, 1);
    ck_assert_uint_eq(e.col, VALUE_MAX_DEPTH + 1);
    ck_assert(strncmp(e.path, "$[0][0][0]", 10) == 0);

    char *objs = repeat("{\"a\":", VALUE_MAX_DEPTH + 1, "1");
    check_refused(objs, strlen(objs), ERR_LIMIT, &e);
    ck_assert_str_eq(e.msg, "nesting deeper than 256 levels; this is the "
                            "limit");
    ck_assert(strncmp(e.path, "$.a.a.a", 7) == 0);
    free(ok);
    free(tail);
    free(text);
    free(deep);
    free(objs);
}
END_TEST

/* ------------------------------------------------------ places, paths */

START_TEST(error_place_and_path)
{
    check_error("{\"a\": [1, 2, {\"b\": tru}]}", 1, 20, "$.a[2].b",
                "expected a value");
    /* Columns count characters, not bytes. */
    check_error("{\n  \"a\": [1,\n    \"\xC3\xA9\xC3\xA9\", tru]}", 3, 11,
                "$.a[2]", "expected a value");
    check_error("{\"a\":1 \"b\":2}", 1, 8, "$",
                "invalid JSON: expected ',' or '}' after a member");
    check_error("[1 2]", 1, 4, "$", "expected ',' or ']' after an element");
    check_error("[1,]", 1, 4, "$[1]", "expected a value");
    check_error("{\"a\":1,}", 1, 8, "$", "expected a key");
    check_error("{\"k\" 1}", 1, 6, "$.k", "expected ':'");
    check_error("[1] 2", 1, 5, "$", "after the value");
    check_error("[1,\n 2", 2, 3, "$", "ends");
    check_error("", 1, 1, "$", "empty");
    check_error("{\"a\":[\"x\\q\"]}", 1, 9, "$.a[0]", "escape");
    check_error("[\"\\u12g4\"]", 1, 3, "$[0]", "four hex digits");
    check_error("/* c */ {}", 1, 1, "$", "comments");
}
END_TEST

START_TEST(node_places)
{
    static const char text[] =
        "{\n \"k\": [true, \"\xC3\xA9\", 3],\n \"\xC3\xA9\": {}\n}";
    arena *a = arena_new();
    value *v = load(a, text, sizeof text - 1);
    ck_assert_uint_eq(v->line, 1);
    ck_assert_uint_eq(v->col, 1);
    const value_member *m = v->u.obj.items;
    ck_assert_uint_eq(m[0].key->line, 2);
    ck_assert_uint_eq(m[0].key->col, 2);
    const value *arr = m[0].val;
    ck_assert_uint_eq(arr->col, 7);
    ck_assert_uint_eq(arr->u.arr.items[0]->col, 8);
    ck_assert_uint_eq(arr->u.arr.items[1]->col, 14);
    ck_assert_uint_eq(arr->u.arr.items[2]->col, 19);
    ck_assert_uint_eq(m[1].key->line, 3);
    ck_assert_uint_eq(m[1].val->line, 3);
    ck_assert_uint_eq(m[1].val->col, 7);
    arena_free(a);

    /* After a byte order mark and in UTF-16, columns count characters of
     * the decoded text. */
    a = arena_new();
    v = load(a, "\xEF\xBB\xBF[1]", 6);
    ck_assert_uint_eq(v->u.arr.items[0]->col, 2);
    v = load(a, "[\0\"\0\xE9\0\"\0,\0" "2\0]\0", 14);
    ck_assert_uint_eq(v->u.arr.items[1]->col, 6);
    arena_free(a);
}
END_TEST

/* ---------------------------------------------------- the fast path */

/* dump() with every node's place and flags, for trees that must be the
 * same to the last column. */
static void dump_placed(buf *out, const value *v)
{
    buf_printf(out, "@%u:%u/%u", (unsigned)v->line, (unsigned)v->col,
               (unsigned)v->flags);
    if (v->kind == V_ARRAY) {
        buf_putc(out, '[');
        for (size_t i = 0; i < v->u.arr.len; i++)
            dump_placed(out, v->u.arr.items[i]);
        buf_putc(out, ']');
    } else if (v->kind == V_OBJECT) {
        buf_putc(out, '{');
        for (size_t i = 0; i < v->u.obj.len; i++) {
            dump_placed(out, v->u.obj.items[i].key);
            dump_placed(out, v->u.obj.items[i].val);
        }
        buf_putc(out, '}');
    } else {
        dump(out, v);
    }
}

/* The strings of v that json_load_lazy kept as written, decoded in
 * place (json_unescaped); how many there were. */
static size_t unescape_all(arena *a, value *v)
{
    size_t n = 0;
    if (v->kind == V_ARRAY)
        for (size_t i = 0; i < v->u.arr.len; i++) {
            value *x = v->u.arr.items[i];
            n += (x->flags & VF_ESCAPED) && x->kind == V_STRING;
            if (x->kind == V_STRING)
                ck_assert_ptr_nonnull(v->u.arr.items[i] = json_unescaped(a, x));
            else
                n += unescape_all(a, x);
        }
    if (v->kind == V_OBJECT)
        for (size_t i = 0; i < v->u.obj.len; i++) {
            value *x = v->u.obj.items[i].val;
            ck_assert(!(v->u.obj.items[i].key->flags & VF_ESCAPED));
            n += (x->flags & VF_ESCAPED) && x->kind == V_STRING;
            if (x->kind == V_STRING)
                ck_assert_ptr_nonnull(v->u.obj.items[i].val =
                                          json_unescaped(a, x));
            else
                n += unescape_all(a, x);
        }
    return n;
}

/* What a load gives: the placed tree, or the refusal in full.  how: 0
 * json_load, 1 its general path, 2 json_load_lazy of "stringValue" with
 * the strings kept as written decoded after (*kept: how many). */
static void outcome_kept(buf *out, int how, const char *in, size_t n,
                         size_t *kept)
{
    arena *a = arena_new();
    ck_assert_ptr_nonnull(a);
    err e;
    err_clear(&e);
    value *v = NULL;
    int rc = how == 1   ? json_load_general(&v, a, in, n, &e)
             : how == 2 ? json_load_lazy(&v, a, in, n, "stringValue", &e)
                        : json_load(&v, a, in, n, &e);
    buf_reset(out);
    size_t k = rc == 0 && how == 2 ? unescape_all(a, v) : 0;
    if (kept)
        *kept = k;
    if (rc == 0)
        dump_placed(out, v);
    else
        buf_printf(out, "refused %d %u:%u %s: %s", (int)e.code,
                   (unsigned)e.line, (unsigned)e.col, e.path, e.msg);
    arena_free(a);
}

static void outcome(buf *out, int general, const char *in, size_t n)
{
    outcome_kept(out, general, in, n, NULL);
}

/* The text, then each of its prefixes and each of its bytes replaced by
 * bytes that matter to a JSON reader: the fast path and the general one
 * must give the same tree or the same refusal for every one. */
static void same_both_ways(const char *text, size_t len)
{
    static const char swaps[] = "\"\\,:[]{} \n\r\t\v\f0-.eE+NIx\x01\x7f"
                                "\x80\xC3\xED\xA0";
    buf fast = BUF_INIT, general = BUF_INIT;
    char *t = malloc(len + 1);
    ck_assert_ptr_nonnull(t);
    for (size_t cut = 0; cut <= len; cut++) {
        outcome(&fast, 0, text, cut);
        outcome(&general, 1, text, cut);
        ck_assert_msg(strcmp(fast.data, general.data) == 0,
                      "%.*s: fast %s, general %s", (int)cut, text, fast.data,
                      general.data);
        outcome(&fast, 2, text, cut);
        ck_assert_msg(strcmp(fast.data, general.data) == 0,
                      "%.*s: lazy %s, general %s", (int)cut, text, fast.data,
                      general.data);
    }
    for (size_t i = 0; i < len; i++)
        for (size_t k = 0; k < sizeof swaps - 1; k++) {
            memcpy(t, text, len);
            t[i] = swaps[k];
            outcome(&fast, 0, t, len);
            outcome(&general, 1, t, len);
            ck_assert_msg(strcmp(fast.data, general.data) == 0,
                          "%.*s: fast %s, general %s", (int)len, t,
                          fast.data, general.data);
            outcome(&fast, 2, t, len);
            ck_assert_msg(strcmp(fast.data, general.data) == 0,
                          "%.*s: lazy %s, general %s", (int)len, t,
                          fast.data, general.data);
        }
    free(t);
    buf_free(&fast);
    buf_free(&general);
}

#define SAME_BOTH_WAYS(lit) same_both_ways(lit, sizeof lit - 1)

START_TEST(fast_path_matches_general)
{
    SAME_BOTH_WAYS("{\"a\": [1, -2.5e3, true, false, null, {}, []],\n"
                   " \"b\": {\"c\": \"\xC3\xA9t\xC3\xA9\", \"a\": 0},\r\n"
                   "\t\"a\": \"x\\n\\u00e9\\\"\\/\\u20AC\"}");
    SAME_BOTH_WAYS("[\"\\ud83d\\ude00\", \"\xF0\x9F\x98\x80\", NaN, -0, 1E+2]");
    SAME_BOTH_WAYS("{\"k1\":1,\"k2\":2,\"k3\":3,\"k4\":4,\"k5\":5,\"k6\":6,"
                   "\"k7\":7,\"k8\":8,\"k9\":9,\"k2\":[0.5],\"\":\"\"}");
    SAME_BOTH_WAYS("\xEF\xBB\xBF [ \"a\\u0000b\" , 12345678901234567890 ]\n");
    SAME_BOTH_WAYS("\"only a string with a long run of plain bytes\"");
    SAME_BOTH_WAYS("[\0\"\0\xE9\0\"\0,\0" "2\0]\0");
    /* strings json_load_lazy may keep as written: escapes on either side
     * of 16-byte blocks, runs of backslashes, UTF-8 past ASCII, a key
     * that is not the member's, a member whose value is no string */
    SAME_BOTH_WAYS("{\"stringValue\":\"[{\\\"role\\\":\\\"user\\\"},\\\\\\\\x"
                   "\\u00e9\xC3\xA9\\n\\t0123456789abcdef\\\"\"}");
    SAME_BOTH_WAYS("[{\"stringValue\":1,\"s\":\"a\\nb\"},{\"stringValue\":"
                   "\"0123456789abcde\\\"0123456789abcd\\\\\\\"z\"}]");
    /* Deep, then too deep. */
    char *deep = repeat("[", VALUE_MAX_DEPTH, "");
    char *text = repeat("]", VALUE_MAX_DEPTH, "");
    buf fast = BUF_INIT, general = BUF_INIT;
    buf both = BUF_INIT;
    buf_puts(&both, deep);
    buf_puts(&both, text);
    outcome(&fast, 0, both.data, both.len);
    outcome(&general, 1, both.data, both.len);
    ck_assert_str_eq(fast.data, general.data);
    buf_reset(&both);
    buf_puts(&both, "[");
    buf_puts(&both, deep);
    buf_puts(&both, text);
    buf_puts(&both, "]");
    outcome(&fast, 0, both.data, both.len);
    outcome(&general, 1, both.data, both.len);
    ck_assert_str_eq(fast.data, general.data);
    ck_assert_ptr_nonnull(strstr(fast.data, "nesting deeper"));
    buf_free(&both);
    buf_free(&fast);
    buf_free(&general);
    free(deep);
    free(text);
}
END_TEST

/* json_load_lazy: random strings of escapes, UTF-8 and plain runs, in
 * the member whose strings it keeps as written and in another, read as
 * json_load reads them (decoded by json_unescaped), the same places
 * and refusals; and the strings that hold an escape are kept so. */
START_TEST(lazy_strings_read_as_decoded)
{
    static const char *const bits[] = {
        "a", "0123456789abcdef", " ", "\\\"", "\\\\", "\\n", "\\/", "\\u0041",
        "\\u00e9", "\\u20AC", "\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80",
        "\\ud83d\\ude00", "\\uDC00", "\x01", "\\x", "\\u12", "\""};
    size_t nbits = sizeof bits / sizeof bits[0];
    unsigned long long seed = 20261207;
    buf text = BUF_INIT, lazy = BUF_INIT, whole = BUF_INIT;
    size_t kept_any = 0;
    for (int round = 0; round < 4000; round++) {
        buf_reset(&text);
        buf_puts(&text, round % 2 ? "{\"stringValue\":\"" : "[{\"x\":1,"
                                                         "\"stringValue\":\"");
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        size_t parts = (size_t)(seed >> 59) + 1;
        for (size_t k = 0; k < parts; k++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            /* the last two (a control character, a lone quote) rarely */
            size_t pick = (size_t)(seed >> 33) % (nbits + 30);
            buf_puts(&text, bits[pick < nbits - 2 ? pick
                                 : pick < nbits   ? pick
                                                  : (pick - nbits) % 4]);
        }
        buf_puts(&text, round % 2 ? "\",\"k\":\"\\t\"}" : "\"}]");
        size_t kept = 0;
        outcome_kept(&lazy, 2, text.data, text.len, &kept);
        outcome(&whole, 0, text.data, text.len);
        ck_assert_msg(strcmp(lazy.data, whole.data) == 0,
                      "%s: lazy %s, json_load %s", text.data, lazy.data,
                      whole.data);
        kept_any += kept;
    }
    ck_assert_msg(kept_any > 500, "only %zu strings kept as written",
                  kept_any);
    buf_free(&text);
    buf_free(&lazy);
    buf_free(&whole);
}
END_TEST

/* json_load_member: the text of the top-level member's value, its last
 * one; nothing for a nested one, or a text the fast path does not read. */
static void member_text(const char *text, size_t len, const char *key,
                        const char *want)
{
    arena *a = arena_new();
    err e;
    value *v = NULL;
    size_t at = 99, span = 99;
    ck_assert_int_eq(json_load_member(&v, a, text, len, key, &at, &span, &e),
                     0);
    if (!want)
        ck_assert_msg(span == 0, "%s: %zu bytes at %zu", text, span, at);
    else
        ck_assert_msg(span == strlen(want) &&
                          memcmp(text + at, want, span) == 0,
                      "%s: \"%.*s\", not \"%s\"", text, (int)span, text + at,
                      want);
    arena_free(a);
}

#define MEMBER_TEXT(lit, key, want) member_text(lit, sizeof lit - 1, key, want)

START_TEST(member_value_text)
{
    MEMBER_TEXT("{\"answer\": {\"a\": [1, 2]} , \"b\": 1}", "answer",
                "{\"a\": [1, 2]}");
    MEMBER_TEXT("{\"b\":{\"answer\":1},\"answer\":\"x\\\"y\"}", "answer",
                "\"x\\\"y\"");
    MEMBER_TEXT("{\"answer\":1,\"answer\" :\t[true]\n}", "answer", "[true]");
    MEMBER_TEXT("{\"\\u0061nswer\":null}", "answer", "null");
    MEMBER_TEXT("\xEF\xBB\xBF{\"answer\":2.5}", "answer", "2.5");
    MEMBER_TEXT("{\"b\":{\"answer\":1}}", "answer", NULL);
    MEMBER_TEXT("[{\"answer\":1}]", "answer", NULL);
    MEMBER_TEXT("{\"answer\":NaN}", "answer", NULL);        /* general path */
    MEMBER_TEXT("{\0\"\0a\0\"\0:\0" "1\0}\0", "a", NULL); /* UTF-16 */
}
END_TEST

/* --------------------------------------------------------------- utf8 */

START_TEST(utf8_detection)
{
    static const struct {
        const char *b;
        size_t len, bom;
        utf8_encoding enc;
    } cases[] = {
        {"\0\0\xFE\xFF", 4, 4, UTF8_ENC_UTF32BE},
        {"\xFF\xFE\0\0", 4, 4, UTF8_ENC_UTF32LE},
        {"\xFE\xFF\0" "1", 4, 2, UTF8_ENC_UTF16BE},
        {"\xFF\xFE" "1\0", 4, 2, UTF8_ENC_UTF16LE},
        {"\xEF\xBB\xBF" "1", 4, 3, UTF8_ENC_UTF8},
        {"\0\0\0" "1", 4, 0, UTF8_ENC_UTF32BE},
        {"\0" "1\0" "2", 4, 0, UTF8_ENC_UTF16BE},
        {"1\0\0\0", 4, 0, UTF8_ENC_UTF32LE},
        {"1\0" "2\0", 4, 0, UTF8_ENC_UTF16LE},
        {"1\0\0" "2", 4, 0, UTF8_ENC_UTF16LE},
        {"\0" "1", 2, 0, UTF8_ENC_UTF16BE},
        {"1\0", 2, 0, UTF8_ENC_UTF16LE},
        {"\0" "1\0", 3, 0, UTF8_ENC_UTF8},
        {"12", 2, 0, UTF8_ENC_UTF8},
        {"", 0, 0, UTF8_ENC_UTF8},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        utf8_encoding enc;
        size_t bom = utf8_detect_json((const unsigned char *)cases[i].b,
                                      cases[i].len, &enc);
        ck_assert_msg(bom == cases[i].bom && enc == cases[i].enc,
                      "case %zu: bom %zu enc %d", i, bom, (int)enc);
    }
}
END_TEST

START_TEST(utf8_check_rules)
{
    utf8_report r;
    const unsigned char *s = (const unsigned char *)"ab\xED\xA0\x80" "c";
    ck_assert_int_eq(utf8_check(s, 6, UTF8_SURROGATEPASS, &r), UTF8_OK);
    ck_assert_uint_eq(r.surrogates, 1);
    ck_assert_int_eq(utf8_check(s, 6, 0, &r), UTF8_INVALID);
    ck_assert_uint_eq(r.bad_at, 2);
    ck_assert_str_eq(r.why, "a surrogate");
    s = (const unsigned char *)"0123456789abcdef\xC0\x80";
    ck_assert_int_eq(utf8_check(s, 18, 0, &r), UTF8_INVALID);
    ck_assert_uint_eq(r.bad_at, 16);
    s = (const unsigned char *)"\xE2\x82\xAC\xF0\x9F\x98\x80\xC3\xA9";
    ck_assert_int_eq(utf8_check(s, 9, 0, &r), UTF8_OK);
    ck_assert_int_eq(utf8_check(s, 8, 0, &r), UTF8_INVALID);
    ck_assert_uint_eq(r.bad_at, 7);
}
END_TEST

START_TEST(utf8_transcoding)
{
    buf out = BUF_INIT;
    utf8_report r;
    /* "a", U+1F600, a lone high surrogate, U+00E9 */
    const unsigned char le[] = "a\0=\xD8\0\xDE=\xD8\xE9\0";
    ck_assert_int_eq(utf8_transcode(&out, le, 10, UTF8_ENC_UTF16LE, &r),
                     UTF8_OK);
    ck_assert_uint_eq(out.len, 10);
    ck_assert(memcmp(out.data, "a\xF0\x9F\x98\x80\xED\xA0\xBD\xC3\xA9", 10) ==
              0);
    ck_assert_uint_eq(r.surrogates, 1);
    buf_reset(&out);
    const unsigned char be32[] = "\0\0\0a\0\x11\0\0";
    ck_assert_int_eq(utf8_transcode(&out, be32, 8, UTF8_ENC_UTF32BE, &r),
                     UTF8_INVALID);
    ck_assert_uint_eq(r.bad_at, 4);
    ck_assert_uint_eq(out.len, 1);
    buf_free(&out);
}
END_TEST

Suite *json_suite(void)
{
    Suite *s = suite_create("json");
    TCase *tc = tcase_create("encodings");
    tcase_set_timeout(tc, 120); /* room for a busy machine, under ASan */
    tcase_add_test(tc, utf8_bom_is_dropped);
    tcase_add_test(tc, utf16_with_and_without_bom);
    tcase_add_test(tc, utf32_with_and_without_bom);
    tcase_add_test(tc, invalid_utf8_is_refused_anywhere);
    tcase_add_test(tc, encoding_error_place);
    suite_add_tcase(s, tc);

    tc = tcase_create("values");
    tcase_set_timeout(tc, 120); /* room for a busy machine, under ASan */
    tcase_add_test(tc, nan_and_infinities_are_floats);
    tcase_add_test(tc, nan_traps_are_refused);
    tcase_add_test(tc, duplicate_keys_last_value_first_place);
    tcase_add_test(tc, duplicate_keys_in_a_big_object);
    tcase_add_test(tc, nul_survives_with_its_length);
    tcase_add_test(tc, escapes);
    tcase_add_test(tc, surrogate_pairs_combine);
    tcase_add_test(tc, lone_surrogates_are_flagged);
    tcase_add_test(tc, lone_surrogate_keys);
    tcase_add_test(tc, control_characters_are_refused);
    tcase_add_test(tc, numbers);
    tcase_add_test(tc, integer_digit_limit);
    suite_add_tcase(s, tc);

    tc = tcase_create("syntax");
    tcase_set_timeout(tc, 120); /* room for a busy machine, under ASan */
    tcase_add_test(tc, trailing_text_is_refused);
    tcase_add_test(tc, only_json_whitespace);
    tcase_add_test(tc, not_json);
    tcase_add_test(tc, depth_limit);
    tcase_add_test(tc, error_place_and_path);
    tcase_add_test(tc, node_places);
    tcase_add_test(tc, fast_path_matches_general);
    tcase_add_test(tc, member_value_text);
    tcase_add_test(tc, lazy_strings_read_as_decoded);
    suite_add_tcase(s, tc);

    tc = tcase_create("utf8");
    tcase_set_timeout(tc, 120); /* room for a busy machine, under ASan */
    tcase_add_test(tc, utf8_detection);
    tcase_add_test(tc, utf8_check_rules);
    tcase_add_test(tc, utf8_transcoding);
    suite_add_tcase(s, tc);
    return s;
}
