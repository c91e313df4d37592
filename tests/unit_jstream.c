/* jstream: a document gives the same pieces however its bytes are cut
 * into feeds; Python's NaN, Infinity and -Infinity are the floats they
 * stand for, in their places, and glued to other bytes stay refused. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "buf.h"
#include "jstream.h"
#include "json_load.h"
#include "unit.h"

/* Writes v as text that tells every kind apart: floats by %.17g (nan,
 * inf, -inf), integers by their digits, strings quoted as they are. */
static void show(buf *b, const value *v)
{
    if (!v) {
        buf_puts(b, "(skipped)");
        return;
    }
    switch (v->kind) {
    case V_NULL:
        buf_puts(b, "null");
        break;
    case V_BOOL:
        buf_puts(b, v->u.b ? "true" : "false");
        break;
    case V_INT:
        buf_printf(b, "i%s", v->u.str.ptr);
        break;
    case V_FLOAT:
        buf_printf(b, "f%.17g", v->u.d);
        break;
    case V_STRING:
        buf_printf(b, "\"%.*s\"", (int)v->u.str.len, v->u.str.ptr);
        break;
    case V_ARRAY:
        buf_puts(b, "[");
        for (size_t i = 0; i < v->u.arr.len; i++) {
            buf_puts(b, i ? "," : "");
            show(b, v->u.arr.items[i]);
        }
        buf_puts(b, "]");
        break;
    case V_OBJECT:
        buf_puts(b, "{");
        for (size_t i = 0; i < v->u.obj.len; i++) {
            buf_puts(b, i ? "," : "");
            show(b, v->u.obj.items[i].key);
            buf_puts(b, ":");
            show(b, v->u.obj.items[i].val);
        }
        buf_puts(b, "}");
        break;
    default:
        buf_puts(b, "?");
    }
}

static int collect(void *ctx, const char *key, size_t index, const value *v,
                   err *e)
{
    (void)e;
    buf *b = ctx;
    buf_printf(b, "%s#%zu=", key ? key : "", index);
    show(b, v);
    buf_puts(b, "\n");
    return 0;
}

static const char *const streamed[] = {"samples", NULL};

/* The pieces of doc fed in feeds of at most `step` bytes, the first cut
 * at `cut`; the error's message after "!" when it is refused. */
static void pieces(buf *out, const char *doc, size_t cut, size_t step)
{
    jstream *s = jstream_new(streamed, 1 << 20, collect, out);
    ck_assert_ptr_nonnull(s);
    err e;
    err_clear(&e);
    size_t len = strlen(doc), at = 0;
    int rc = 0;
    while (rc == 0 && at < len) {
        size_t n = at == 0 && cut ? cut : step;
        if (n > len - at)
            n = len - at;
        rc = jstream_feed(s, doc + at, n, &e);
        at += n;
    }
    if (rc == 0)
        rc = jstream_finish(s, &e);
    if (rc < 0)
        buf_printf(out, "!%s", e.msg);
    jstream_free(s);
    ck_assert(!out->failed);
}

static const char doc[] =
    "{\"meta\": {\"cost\": NaN, \"max\": Infinity},\n"
    " \"samples\": [\n"
    "  {\"reward\": -Infinity, \"text\": \"NaN \\\"Infinity\\\" -Infinity\","
    " \"n\": [1, -2, 0.5, NaN, -0, 3e2]},\n"
    "  [NaN,Infinity,-Infinity],\n"
    "  {\"NaN\": 7, \"k\": -1.5e-3}\n"
    " ]}";

static const char want[] =
    "meta#18446744073709551615={\"cost\":fnan,\"max\":finf}\n"
    "samples#0={\"reward\":f-inf,\"text\":\"NaN \"Infinity\" "
    "-Infinity\",\"n\":[i1,i-2,f0.5,fnan,i0,f300]}\n"
    "samples#1=[fnan,finf,f-inf]\n"
    "samples#2={\"NaN\":i7,\"k\":f-0.0015}\n";

START_TEST(specials_are_floats_however_cut)
{
    buf whole = BUF_INIT;
    pieces(&whole, doc, 0, sizeof doc);
    ck_assert_str_eq(whole.data, want);
    buf_free(&whole);
    /* every first cut, then the rest at once; and byte by byte */
    for (size_t cut = 1; cut < sizeof doc - 1; cut++) {
        buf b = BUF_INIT;
        pieces(&b, doc, cut, sizeof doc);
        ck_assert_msg(strcmp(b.data ? b.data : "", want) == 0, "cut at %zu: %s", cut,
                      b.data);
        buf_free(&b);
    }
    buf one = BUF_INIT;
    pieces(&one, doc, 0, 1);
    ck_assert_str_eq(one.data, want);
    buf_free(&one);
}
END_TEST

/* Glued words are no NaN: refused where yajl finds them, at the same
 * byte of the document however it is fed (the stand-ins are of the
 * words' length), the pieces before them kept; a NaN the document ends
 * on is read, and the end said. */
START_TEST(glued_words_stay_refused)
{
    static const struct {
        const char *doc, *want;
    } cases[] = {
        {"[1, -NaN]", "#0=i1\n!not JSON at byte 5: lexical error: malformed "
                      "number, a digit is required after the minus sign."},
        {"[NaN, NaN1]", "#0=fnan\n!not JSON at byte 7: lexical error: "
                        "invalid char in json text."},
        {"[Infinity0]", "!not JSON at byte 2: lexical error: invalid char "
                        "in json text."},
        {"[2, 1NaN]", "#0=i2\n#1=i1\n!not JSON at byte 6: lexical error: "
                      "invalid char in json text."},
        {"[\"a\", Inf]", "#0=\"a\"\n!not JSON at byte 7: lexical error: "
                         "invalid char in json text."},
        {"[NaN", "#0=fnan\n!not JSON at byte 4: parse error: premature "
                 "EOF"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (size_t step = 1; step <= strlen(cases[i].doc); step++) {
            buf b = BUF_INIT;
            pieces(&b, cases[i].doc, 0, step);
            ck_assert_msg(strcmp(b.data ? b.data : "", cases[i].want) == 0,
                          "%s in feeds of %zu: %s", cases[i].doc, step,
                          b.data);
            buf_free(&b);
        }
}
END_TEST

/* A document of many records, made so that every 64-byte stretch of it,
 * wherever the feeds cut it, meets something: runs of 1 to 4 backslashes
 * before quotes and at a block's edge, escaped quotes, N, I and - inside
 * strings and out (numbers, the three words), strings long and short,
 * and long strings of escapes alone. */
static void make_long(buf *d)
{
    static const char *const texts[] = {
        "plain", "a\\\\", "q\\\"NaN\\\"", "\\\\\\\"-Infinity",
        "NaN", "Infinity -1", "x\\\\\\\\\\\"y", "",
        "long text, long enough to fill a block of sixty-four bytes: ok"};
    static const char *const numbers[] = {"NaN", "-Infinity", "Infinity",
                                          "-12", "3.5e-2", "-0", "7"};
    buf_puts(d, "[");
    for (int r = 0; r < 120; r++) {
        buf_printf(d, "%s{\"t\": \"%s\", \"n\": %s, \"l\": [%s,%s]%*s}",
                   r ? ",\n" : "", texts[r % 9], numbers[r % 7],
                   numbers[(r + 3) % 7], numbers[(r + 5) % 7], r % 5, "");
    }
    /* and long strings of escapes, nothing else: blocks read whole that
     * end on a backslash, or inside an escape */
    for (int r = 0; r < 40; r++) {
        buf_printf(d, ",\n{\"t\": \"%*s", r % 13, "");
        for (int k = 0; k < 12; k++)
            buf_puts(d, k % 3 ? "\\\\ab\\\"c" : "\\\\\\\"-N I\\\\");
        buf_printf(d, "\", \"n\": %s}", r % 4 ? "7" : "NaN");
    }
    buf_puts(d, "]");
}

/* What json_load reads the same document as, piece by piece. */
static void oracle(buf *out, const char *doc)
{
    arena *a = arena_new();
    ck_assert_ptr_nonnull(a);
    value *v = NULL;
    err e;
    err_clear(&e);
    ck_assert_msg(json_load(&v, a, doc, strlen(doc), &e) == 0, "%s", e.msg);
    ck_assert_int_eq(v->kind, V_ARRAY);
    for (size_t i = 0; i < v->u.arr.len; i++)
        collect(out, NULL, i, v->u.arr.items[i], &e);
    arena_free(a);
}

START_TEST(long_documents_read_as_json_load_reads_them)
{
    buf d = BUF_INIT, want = BUF_INIT;
    make_long(&d);
    ck_assert(!d.failed);
    oracle(&want, d.data);
    ck_assert(strstr(want.data, "fnan") && strstr(want.data, "f-inf") &&
              strstr(want.data, "\"q\"NaN\"\""));
    /* feeds under 64 bytes: stop by stop; the rest at once after a first
     * cut of each length up to 64: every alignment of the 64-byte
     * blocks; and feeds of sizes that move it along */
    static const size_t steps[] = {1, 2, 3, 5, 7, 64, 65, 100, 127, 0};
    for (size_t k = 0; k < sizeof steps / sizeof steps[0]; k++)
        for (size_t cut = 0; cut <= 64; cut += steps[k] && steps[k] < 64
                                                 ? 16 : 1) {
            buf b = BUF_INIT;
            pieces(&b, d.data, cut, steps[k] ? steps[k] : d.len);
            const char *got = b.data ? b.data : "";
            size_t at = 0;
            while (got[at] && got[at] == want.data[at])
                at++;
            ck_assert_msg(strcmp(got, want.data) == 0,
                          "feeds of %zu, the first %zu: at byte %zu, %.80s "
                          "where json_load reads %.80s", steps[k], cut, at,
                          got + at, want.data + at);
            buf_free(&b);
        }
    buf_free(&want);
    buf_free(&d);
}
END_TEST

Suite *jstream_suite(void)
{
    Suite *s = suite_create("jstream");
    TCase *tc = tcase_create("jstream");
    tcase_set_timeout(tc, 120); /* room for a busy machine, under ASan */
    tcase_add_test(tc, specials_are_floats_however_cut);
    tcase_add_test(tc, glued_words_stay_refused);
    tcase_add_test(tc, long_documents_read_as_json_load_reads_them);
    suite_add_tcase(s, tc);
    return s;
}
