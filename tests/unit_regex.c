/* regex: searching (checked against Python's re where it agrees with
 * ECMA-262), the refusals and their reasons, and generation: every string
 * generated is matched, lengths land in range, the same seed gives the
 * same string. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "regex.h"
#include "unit.h"

/* splitmix64: a tiny, well-mixed stream for the generation tests. */
static uint64_t splitmix64(void *state)
{
    uint64_t *s = state;
    uint64_t z = (*s += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static regex *compile_ok(const char *pattern)
{
    char why[256];
    regex *re = regex_compile(pattern, strlen(pattern), why, sizeof why);
    ck_assert_msg(re != NULL, "%s refused: %s", pattern, why);
    return re;
}

static int search(const regex *re, const char *s)
{
    return regex_search(re, s, strlen(s));
}

static size_t code_points(const char *s, size_t len)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        n += ((unsigned char)s[i] & 0xC0) != 0x80;
    return n;
}

/* Generates with seed into out (emptied first).  The loops below call
 * this hundreds of thousands of times, so they check with plain ifs and
 * abort on failure: every passing ck_assert costs Check a write. */
static void generate(const regex *re, uint64_t seed, size_t min, size_t max,
                     buf *out)
{
    uint64_t state = seed;
    regex_rng rng = {splitmix64, &state};
    buf_reset(out);
    if (regex_generate(re, &rng, min, max, out) != 0 || !out->data)
        ck_abort_msg("generating with seed %llu failed",
                     (unsigned long long)seed);
}

typedef struct search_case {
    const char *pattern, *subject;
    int want;
} search_case;

/* Each expectation is what Python's re.search gives (patterns and
 * subjects where Python and ECMA-262 agree; the long subjects of the
 * catastrophic patterns are short here because Python backtracks). */
static const search_case python_agrees[] = {
    {"abc", "xabcx", 1},
    {"abc", "ab", 0},
    {"^abc", "xabc", 0},
    {"abc$", "abcx", 0},
    {"^$", "", 1},
    {"^$", "a", 0},
    {"", "anything", 1},
    {"a|b", "b", 1},
    {"a|b", "c", 0},
    {"^(a|bc)+$", "abcbca", 1},
    {"^(a|bc)+$", "abcb", 0},
    {"^a{3}$", "aaa", 1},
    {"^a{3}$", "aa", 0},
    {"^a{3}$", "aaaa", 0},
    {"^a{2,}$", "aaaaa", 1},
    {"^a{2,}$", "a", 0},
    {"^a{2,3}$", "aaaa", 0},
    {"^a{0}b$", "b", 1},
    {"^a*?b$", "aaab", 1},
    {"^a+?$", "aaa", 1},
    {"^a?\?b$", "ab", 1},
    {"^a{2,3}?$", "aaa", 1},
    {"^(?:a{2}){2}$", "aaaa", 1},
    {"^(?:a{2}){2}$", "aaa", 0},
    {"^\\d{4}-\\d{2}-\\d{2}$", "2024-01-31", 1},
    {"^\\d{4}-\\d{2}-\\d{2}$", "2024-1-31", 0},
    {"^[A-Z]-\\d{4}$", "Q-5120", 1},
    {"^[A-Z]-\\d{4}$", "q-5120", 0},
    {"^[a-z0-9]+(?:-[a-z0-9]+)*$", "my-slug-1", 1},
    {"^[a-z0-9]+(?:-[a-z0-9]+)*$", "-bad", 0},
    {"^[a-z0-9]+(?:-[a-z0-9]+)*$", "bad-", 0},
    {"^[a-z0-9]+(?:-[a-z0-9]+)*$", "a--b", 0},
    {"^#?([a-fA-F0-9]{6}|[a-fA-F0-9]{3})$", "#1a2B3c", 1},
    {"^#?([a-fA-F0-9]{6}|[a-fA-F0-9]{3})$", "#abcd", 0},
    {"^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-((?:0|[1-9]\\d*|\\d*[a"
     "-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*))*)"
     ")?(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$",
     "1.2.3-alpha.1+build.5", 1},
    {"^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-((?:0|[1-9]\\d*|\\d*[a"
     "-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*))*)"
     ")?(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$",
     "01.2.3", 0},
    {"^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$", "a@b.co", 1},
    {"^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$", "a@b", 0},
    {"^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$", "a b@c.d", 0},
    {"^\\+?[1-9]\\d{1,14}$", "+14155552671", 1},
    {"^\\+?[1-9]\\d{1,14}$", "+0123", 0},
    {"^.$", "\303\251", 1},
    {"^.$", "\012", 0},
    {"^.$", "\360\237\230\200", 1},
    {"^..$", "\360\237\230\200", 0},
    {"^[\\w.-]+$", "a.b-c_d", 1},
    {"[^abc]", "abc", 0},
    {"[^abc]", "abcd", 1},
    {"^[a-]$", "-", 1},
    {"^[-a]$", "-", 1},
    {"^[a\\-z]$", "-", 1},
    {"^[a-z]$", "-", 0},
    {"^[\\]]$", "]", 1},
    {"^[\\\\]$", "\\", 1},
    {"^[\\.]$", ".", 1},
    {"^[.]$", "x", 0},
    {"^\\u0041$", "A", 1},
    {"^\\x41$", "A", 1},
    {"\\t", "a\011b", 1},
    {"^\\/$", "/", 1},
    {"^\\.$", "x", 0},
    {"^\\.+$", "...", 1},
    {"^a{$", "a{", 1},
    {"^{}$", "{}", 1},
    {"^x{1,2$", "x{1,2", 1},
    {"^x{a}$", "x{a}", 1},
    {"^]$", "]", 1},
    {"^}$", "}", 1},
    {"^\\s$", "\302\240", 1},
    {"^\\s$", " ", 1},
    {"^\\s$", "\011", 1},
    {"^\\s$", "\343\200\200", 1},
    {"^\\S+$", "ab", 1},
    {"^[\\u4e00-\\u9fff]+$", "\344\270\255\346\226\207", 1},
    {"^[\\u00C0-\\u00FF]$", "\303\251", 1},
    {"^[\\u00C0-\\u00FF]$", "e", 0},
    {"^(a|b|c)*$", "abcabcx", 0},
    {"^(a|b|c)*$", "abcabc", 1},
    {"^$|^[A-Za-z0-9]{2,4}$", "", 1},
    {"^$|^[A-Za-z0-9]{2,4}$", "ab", 1},
    {"^$|^[A-Za-z0-9]{2,4}$", "a", 0},
    {"^$|^[A-Za-z0-9]{2,4}$", "abcde", 0},
    {"a\\d*b", "xxa123b", 1},
    {"\\D", "123", 0},
    {"\\W", "abc_", 0},
    {"\\S", "  ", 0},
    {"^[\\d]+$", "123", 1},
    {"^[\\D]$", "5", 0},
    {"^[\\s\\S]$", "\012", 1},
    {"(?:)", "", 1},
    {"^(|a)$", "", 1},
    {"^a(?:b|)$", "a", 1},
    {"[a-c]+z", "xxbcz", 1},
    {"^.+/.+$", "a/b", 1},
    {"^.+/.+$", "/b", 0},
    {"^-?[0-9]{0,13}(\\.[0-9]{1,3})?$", "-12.5", 1},
    {"^-?[0-9]{0,13}(\\.[0-9]{1,3})?$", "1.2345", 0},
    {"^-?[0-9]{0,13}(\\.[0-9]{1,3})?$", "", 1},
    {"^(default|[a-z_]+=(on|off|default)(,[a-z_]+=(on|off|default))*)$",
     "a_b=on,c=off", 1},
    {"^(default|[a-z_]+=(on|off|default)(,[a-z_]+=(on|off|default))*)$",
     "a_b=on,", 0},
    {"^[A-Z_]*(,[A-Z_]+)*$", "A_B,C", 1},
    {"^[A-Z_]*(,[A-Z_]+)*$", ",A", 1},
    {"^[A-Z_]*(,[A-Z_]+)*$", "A,,B", 0},
    {"^[0-9]{2}:[0-9]{2}?$", "12:30", 1},
    {"^[0-9]{2}:[0-9]{2}?$", "12:3", 0},
    {"^/?[a-zA-Z0-9][a-zA-Z0-9_.-]+$", "/my_image.v2", 1},
    {"^/?[a-zA-Z0-9][a-zA-Z0-9_.-]+$", "/_x", 0},
    {"^[0-9a-fA-F]{64}$",
     "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 1},
    {"^[0-9a-fA-F]{64}$",
     "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 0},
    {"^(\\d{1,3}\\.){3}\\d{1,3}$", "192.168.0.1", 1},
    {"^(\\d{1,3}\\.){3}\\d{1,3}$", "192.168.0", 0},
    {"^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}$",
     "john.doe+x@mail.example.org", 1},
    {"^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}$", "john@mail.c", 0},
    {"^(sms|email)$", "sms", 1},
    {"^(sms|email)$", "smsemail", 0},
    {"^(sms|email)$", "emai", 0},
    {"(x+x+)+y", "xxxxxxxxxxxx", 0},
    {"^(a|aa)*c$", "aaaaaaaaaaaaaa", 0},
    {"^(\\w+\\s?)*$", "an odd one!", 0},
    {"^[\\t ]*$", " \011 ", 1},
    {"^\\f\\v\\r\\n$", "\014\013\015\012", 1},
    {"^[\\-]$", "-", 1},
    {"^[\\^]$", "^", 1},
    {"^[a^]$", "^", 1},
    {"^[ab[]$", "[", 1},
    {"^\\$\\(\\)\\*\\+\\?\\[\\{\\|$", "$()*+?[{|", 1},
};

START_TEST(search_agrees_with_python)
{
    for (size_t i = 0; i < sizeof python_agrees / sizeof *python_agrees; i++) {
        const search_case *c = &python_agrees[i];
        regex *re = compile_ok(c->pattern);
        ck_assert_msg(search(re, c->subject) == c->want,
                      "/%s/ on \"%s\": want %d", c->pattern, c->subject,
                      c->want);
        regex_free(re);
    }
}
END_TEST

/* Where ECMA-262 (and this module) differ from Python's re. */
static const search_case ecma_only[] = {
    {"^.$", "\r", 0},                 /* Python's . takes \r */
    {"^.$", "\342\200\250", 0},       /* and U+2028 */
    {"^a$", "a\n", 0},                /* Python's $ matches before a final \n */
    {"^\\d$", "\331\243", 0},         /* Arabic-Indic 3: \d is ASCII */
    {"^\\w$", "\303\251", 0},         /* \w is ASCII */
    {"^\\s$", "\357\273\277", 1},     /* U+FEFF is ECMA white space */
    {"^\\s$", "\034", 0},             /* U+001C is not */
    {"^a{,5}$", "a{,5}", 1},          /* not a quantifier: literals */
    {"^a{,5}$", "aaa", 0},
    {"^[\\w-.]+$", "a-b.c", 1},       /* Annex B: - next to \w is literal */
    {"^[\\d-z]$", "-", 1},
    {"^[^]$", "\n", 1},               /* [^] is anything */
    {"^[]?$", "", 1},                 /* [] is nothing */
    {"^[]?$", "a", 0},
    {"^\\uD83D\\uDE00$", "\360\237\230\200", 1}, /* a pair is one code point */
    {"^\\u{1F600}$", "\360\237\230\200", 1},
    {"^\\cJ$", "\n", 1},
    {"^[\\b]$", "\b", 1},             /* \b in a class is backspace */
    {"^.$", "\377", 1},               /* a bad byte reads as U+FFFD */
    {"^\\uFFFD$", "\377", 1},
    {"^.{2}$", "\355\240\200a", 1},   /* a lone surrogate, as loaders pass it */
    {"^\\uD83Dx$", "\355\240\275x", 1}, /* a high surrogate escape alone */
    {"^.$", "\303(", 0},              /* a bad continuation: two code points */
    {"^..$", "\303(", 1},
    {"^..$", "\344\270", 1},           /* a cut sequence: one per byte */
    {"^\\\303\251$", "\303\251", 1},   /* an escaped non-ASCII letter */
};

START_TEST(search_ecma_where_python_differs)
{
    for (size_t i = 0; i < sizeof ecma_only / sizeof *ecma_only; i++) {
        const search_case *c = &ecma_only[i];
        regex *re = compile_ok(c->pattern);
        ck_assert_msg(search(re, c->subject) == c->want, "/%s/: want %d",
                      c->pattern, c->want);
        regex_free(re);
    }
}
END_TEST

START_TEST(search_handles_nul_bytes)
{
    char why[128];
    regex *re = regex_compile("^a\0b$", 5, why, sizeof why);
    ck_assert_ptr_nonnull(re);
    ck_assert_int_eq(regex_search(re, "a\0b", 3), 1);
    ck_assert_int_eq(regex_search(re, "a\0c", 3), 0);
    regex_free(re);
    re = compile_ok("^a\\0b$");
    ck_assert_int_eq(regex_search(re, "a\0b", 3), 1);
    ck_assert_int_eq(regex_search(re, "ab", 2), 0);
    regex_free(re);
}
END_TEST

/* Patterns that make a backtracking matcher take exponential time. */
START_TEST(search_does_not_blow_up)
{
    static const char *const patterns[] = {
        "(a*)*b", "^(a|aa)*c$", "(x+x+)+y", "^(\\w+\\s?)*$", "^(a|a?)+$",
        "^(?:a?){1000}a{1000}$"};
    char s[8001];
    memset(s, 'a', sizeof s - 1);
    s[sizeof s - 1] = '\0';
    for (size_t i = 0; i < sizeof patterns / sizeof *patterns; i++) {
        regex *re = compile_ok(patterns[i]);
        memset(s, patterns[i][1] == 'x' ? 'x' : 'a', sizeof s - 1);
        s[sizeof s - 2] = '!';
        ck_assert_int_eq(search(re, s), 0);
        regex_free(re);
    }
    regex *re = compile_ok("(a*)*b");
    s[sizeof s - 2] = 'b';
    ck_assert_int_eq(search(re, s), 1);
    regex_free(re);
}
END_TEST

/* A search has a budget of work (regex.h): 18,000 states, most of them
 * live, against a long string give up, at the same place every time;
 * within the budget the answer is as ever, and one budget can be shared
 * by many searches. */
START_TEST(search_gives_up_past_its_budget)
{
    static char s[4u << 20];
    memset(s, 'a', sizeof s);
    regex *big = compile_ok("(a{0,999}){9}x");
    ck_assert_int_eq(regex_search(big, s, 20000), REGEX_GAVE_UP);
    s[999] = 'x';
    ck_assert_int_eq(regex_search(big, s, 1000), 1);
    ck_assert_int_eq(regex_search(big, s, 999), 0);
    /* spent from a caller's budget: the same string twice takes twice */
    size_t work = REGEX_SEARCH_WORK;
    ck_assert_int_eq(regex_search_within(big, s, 1000, &work), 1);
    size_t once = REGEX_SEARCH_WORK - work;
    ck_assert(once > 0);
    ck_assert_int_eq(regex_search_within(big, s, 1000, &work), 1);
    ck_assert_uint_eq(REGEX_SEARCH_WORK - work, 2 * once);
    /* a budget too small for the answer gives up, and is spent */
    work = once / 2;
    ck_assert_int_eq(regex_search_within(big, s, 1000, &work),
                     REGEX_GAVE_UP);
    ck_assert_uint_eq(work, 0);
    s[999] = 'a';
    regex_free(big);
    /* a plain pattern against the longest line there is: well within */
    regex *plain = compile_ok("^[A-Za-z0-9+/]*={0,2}$");
    work = REGEX_SEARCH_WORK;
    ck_assert_int_eq(regex_search_within(plain, s, sizeof s, &work), 1);
    ck_assert(REGEX_SEARCH_WORK - work < REGEX_SEARCH_WORK / 2);
    regex_free(plain);
}
END_TEST

typedef struct refusal {
    const char *pattern, *why;
} refusal;

static const refusal refusals[] = {
    {"(a)\\1", "backreference \\1 is not supported"},
    {"(a)\\12", "backreference \\12 is not supported"},
    {"(?<n>a)\\k<n>", "named group (?<name>...) is not supported"},
    {"\\k<n>", "named backreference \\k is not supported"},
    {"a(?=b)", "lookahead (?=...) is not supported"},
    {"a(?!b)", "negative lookahead (?!...) is not supported"},
    {"(?<=a)b", "lookbehind (?<=...) is not supported"},
    {"(?<!a)b", "negative lookbehind (?<!...) is not supported"},
    {"(?<year>\\d{4})", "named group (?<name>...) is not supported"},
    {"(?P<year>\\d{4})", "Python-style group (?P...) is not supported"},
    {"(?i)abc", "inline flags (?i) are not supported"},
    {"(?im-s:abc)", "inline flags (?im-s) are not supported"},
    {"(?#note)", "unknown group syntax (?#"},
    {"(?", "unknown group syntax (?"},
    {"\\p{L}+", "Unicode property escape \\p{...} is not supported"},
    {"[\\P{L}]", "Unicode property escape \\P{...} is not supported"},
    {"\\bword\\b", "word boundary \\b is not supported"},
    {"a\\B", "word boundary \\B is not supported"},
    {"[\\B]", "unknown escape \\B"},
    {"\\01", "octal escape \\01 is not supported"},
    {"[\\1]", "octal escape \\1 is not supported"},
    {"\\Aabc\\Z", "unknown escape \\A"},
    {"a\\z", "unknown escape \\z"},
    {"\\x4", "\\x must be followed by two hex digits"},
    {"\\xg0", "\\x must be followed by two hex digits"},
    {"\\u12", "\\u must be followed by four hex digits or {hex}"},
    {"\\u{}", "\\u must be followed by four hex digits or {hex}"},
    {"\\u{110000}", "\\u{...} is above U+10FFFF"},
    {"\\c1", "\\c must be followed by a letter"},
    {"abc\\", "pattern ends with a lone backslash"},
    {"[abc\\", "pattern ends with a lone backslash"},
    {"(a", "unbalanced parenthesis: missing )"},
    {"((a)|b", "unbalanced parenthesis: missing )"},
    {"a)", "unbalanced parenthesis: unexpected )"},
    {"(a))", "unbalanced parenthesis: unexpected )"},
    {"[abc", "unterminated character class: missing ]"},
    {"[a-", "unterminated character class: missing ]"},
    {"[z-a]", "character class range z-a is out of order"},
    {"[\\u0100-\\u00ff]",
     "character class range \\u0100-\\u00FF is out of order"},
    {"[\\u{1F600}-\\u{1F300}]",
     "character class range \\u{1F600}-\\u{1F300} is out of order"},
    {"a{2,1}", "repetition {2,1} is out of order"},
    {"a{1001}", "repetition count above 1000 is not supported"},
    {"a{1,99999999999999999999}",
     "repetition count above 1000 is not supported"},
    {"*a", "nothing to repeat before *"},
    {"a|+b", "nothing to repeat before +"},
    {"(?b)", "inline flags (?b) are not supported"},
    {"(?:?b)", "nothing to repeat before ?"},
    {"^*", "nothing to repeat before *"},
    {"a$+", "nothing to repeat before +"},
    {"{2}", "nothing to repeat before {2}"},
    {"a**", "nothing to repeat before *"},
    {"a{2}{3}", "nothing to repeat before {3}"},
    {"a+?+", "nothing to repeat before +"},
    {"(?:a{1000}){1000}",
     "pattern too large once its repetitions are expanded"},
    {"((){1000}){1000}",
     "pattern too large once its repetitions are expanded"},
    {"a^b", "the pattern can never match"},
    {"$a", "the pattern can never match"},
    {"[]", "the pattern can never match"},
    {"^[^\\s\\S]$", "the pattern can never match"},
    {"\377", "pattern is not valid UTF-8"},
    {"a\300\200", "pattern is not valid UTF-8"},
};

START_TEST(refusals_name_the_construct)
{
    for (size_t i = 0; i < sizeof refusals / sizeof *refusals; i++) {
        char why[256];
        const refusal *r = &refusals[i];
        regex *re = regex_compile(r->pattern, strlen(r->pattern), why,
                                  sizeof why);
        ck_assert_msg(re == NULL, "%s compiled", r->pattern);
        ck_assert_msg(strcmp(why, r->why) == 0, "%s: \"%s\", want \"%s\"",
                      r->pattern, why, r->why);
    }
}
END_TEST

START_TEST(refusal_reason_fits_the_buffer)
{
    char why[8];
    ck_assert_ptr_null(regex_compile("(?=a)", 5, why, sizeof why));
    ck_assert_str_eq(why, "lookahe");
    ck_assert_ptr_null(regex_compile("(?=a)", 5, NULL, 0));
    regex *re = regex_compile("a", 1, why, sizeof why);
    ck_assert_ptr_nonnull(re);
    ck_assert_str_eq(why, "");
    regex_free(re);
    regex_free(NULL);
}
END_TEST

START_TEST(nesting_is_capped_at_64)
{
    char p[2 * 65 + 2];
    for (int depth = 64; depth <= 65; depth++) {
        char why[128];
        size_t n = 0;
        for (int i = 0; i < depth; i++)
            p[n++] = '(';
        p[n++] = 'a';
        for (int i = 0; i < depth; i++)
            p[n++] = ')';
        regex *re = regex_compile(p, n, why, sizeof why);
        if (depth == 64) {
            ck_assert_ptr_nonnull(re);
            ck_assert_int_eq(regex_search(re, "xa", 2), 1);
            regex_free(re);
        } else {
            ck_assert_ptr_null(re);
            ck_assert_str_eq(why, "groups nested more than 64 deep");
        }
    }
}
END_TEST

typedef struct gen_case {
    const char *pattern;
    size_t min, max; /* a length range the pattern can meet */
} gen_case;

static const gen_case realistic[] = {
    {"^[A-Z]-\\d{4}$", 6, 6},
    {"^\\d{4}-\\d{2}-\\d{2}$", 10, 10},
    {"^[1-9][0-9]{3}-[0-9]{2}-[0-9]{2}$", 10, 10},
    {"^([1-2][0-9]{3}-[0-9]{2}-[0-9]{2})?$", 0, 0},
    {"^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}(:[0-9]{2})?$", 16, 19},
    {"^[0-9]{2}:[0-9]{2}(:[0-9]{2})?$", 8, 8},
    {"^([01]\\d|2[0-3]):[0-5]\\d$", 5, 5},
    {"^[a-z0-9]+(?:-[a-z0-9]+)*$", 5, 8},
    {"^[a-z]+(?:_[a-z]+)*$", 6, 10},
    {"^(sms|email)$", 5, 5},
    {"^(default|[a-z_]+=(on|off|default)(,[a-z_]+=(on|off|default))*)$", 12,
     30},
    {"^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}$", 10, 20},
    {"^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$", 6, 30},
    {"^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-((?:0|[1-9]\\d*|\\d*"
     "[a-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)"
     ")*))?(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$", 7, 15},
    {"^v?\\d+\\.\\d+(\\.\\d+)?$", 5, 9},
    {"^#?([a-fA-F0-9]{6}|[a-fA-F0-9]{3})$", 4, 4},
    {"^\\+?[1-9]\\d{1,14}$", 8, 12},
    {"^\\(\\d{3}\\) \\d{3}-\\d{4}$", 14, 14},
    {"^[0-9]{3}-?[0-9]{4}$", 8, 8},
    {"^[a-f0-9]{8}-[a-f0-9]{4}-[1-5][a-f0-9]{3}-[89ab][a-f0-9]{3}-"
     "[a-f0-9]{12}$", 36, 36},
    {"^(\\d{1,3}\\.){3}\\d{1,3}$", 11, 13},
    {"^https?://[^\\s/$.?#].[^\\s]*$", 12, 40},
    {"^[A-Z]{2}\\d{2}[A-Z0-9]{1,30}$", 10, 20},
    {"^[\\u4e00-\\u9fa5]{2,8}$", 3, 5},
    {"^[\\u00C0-\\u017Fa-zA-Z'\\- ]+$", 4, 12},
    {"^[a-z][a-z0-9_]{2,29}$", 10, 12},
    {"^[A-Z_]*(,[A-Z_]+)*$", 7, 9},
    {"^$|^[A-Za-z0-9]{2,4}$", 2, 4},
    {"^-?[0-9]{0,13}(\\.[0-9]{1,3})?$", 3, 8},
    {"^.+/.+$", 3, 10},
    {"^/?[a-zA-Z0-9][a-zA-Z0-9_.-]+$", 2, 64},
    {"^[0-9a-fA-F]{64}$", 64, 64},
    {"^sk-[A-Za-z0-9]{20,}$", 30, 40},
    {"^[a-z]{2}(-[A-Z]{2})?$", 5, 5},
    {"^\\d+(\\.\\d{1,2})?$", 4, 7},
    {"^[0-9]{5}(?:-[0-9]{4})?$", 10, 10},
    {"^P(?:\\d+Y)?(?:\\d+M)?(?:\\d+D)?(?:T(?:\\d+H)?(?:\\d+M)?(?:\\d+S)?)?$",
     3, 8},
    {"^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$", 8, 8},
    {"^[\\x20-\\x7E]{1,10}$", 5, 10},
    {"^[\\w.-]+$", 1, 3},
    {"^\\S+$", 20, 25},
    {"^[^\"\\\\]*$", 0, 5},
    {"^.{0,100}$", 40, 60},
    {"\\d+", 10, 10},           /* unanchored: the match alone */
    {"abc", 8, 10},             /* padded on either side */
    {"^abc", 6, 6},             /* padded after */
    {"xyz$", 5, 5},             /* padded before */
    {"^\\uD83D\\uDE00+$", 2, 3}, /* astral code points */
};

START_TEST(generated_strings_match)
{
    buf out = BUF_INIT, again = BUF_INIT;
    for (size_t i = 0; i < sizeof realistic / sizeof *realistic; i++) {
        const gen_case *c = &realistic[i];
        regex *re = compile_ok(c->pattern);
        for (uint64_t seed = 0; seed < 1000; seed++) {
            generate(re, seed, 0, SIZE_MAX, &out);
            if (regex_search(re, out.data, out.len) != 1)
                ck_abort_msg("/%s/ seed %llu: \"%s\" does not match",
                             c->pattern, (unsigned long long)seed, out.data);
            if (code_points(out.data, out.len) > 120)
                ck_abort_msg("/%s/: \"%s\" is long", c->pattern, out.data);

            generate(re, seed, c->min, c->max, &out);
            size_t n = code_points(out.data, out.len);
            if (regex_search(re, out.data, out.len) != 1)
                ck_abort_msg("/%s/ [%zu, %zu] seed %llu: \"%s\" does not "
                             "match", c->pattern, c->min, c->max,
                             (unsigned long long)seed, out.data);
            if (n < c->min || n > c->max)
                ck_abort_msg("/%s/ [%zu, %zu]: \"%s\" has %zu code points",
                             c->pattern, c->min, c->max, out.data, n);

            generate(re, seed, c->min, c->max, &again);
            if (strcmp(out.data, again.data) != 0)
                ck_abort_msg("/%s/ seed %llu: \"%s\", then \"%s\"",
                             c->pattern, (unsigned long long)seed, out.data,
                             again.data);
        }
        regex_free(re);
    }
    buf_free(&out);
    buf_free(&again);
}
END_TEST

/* Lengths the pattern cannot have: the string still matches, at the
 * nearest length it can have. */
START_TEST(impossible_lengths_give_the_nearest)
{
    static const struct {
        const char *pattern;
        size_t min, max, want;
    } cases[] = {
        {"^\\d{4}$", 0, 2, 4},
        {"^\\d{4}$", 6, 9, 4},
        {"^abc$", 10, SIZE_MAX, 3},
        {"^(ab)+$", 5, 5, 4},        /* 4 and 6 are as near: the shorter */
        {"^(ab)+$", 7, 7, 6},
        {"^(a{3}|b{7})$", 5, 5, 3},  /* 3 and 7 as near: the shorter */
        {"abc", 0, 1, 3},
        {"^$", 3, 5, 0},
        {"^\\d{2}$", 5, 1, 2},       /* min above max */
    };
    buf out = BUF_INIT;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        regex *re = compile_ok(cases[i].pattern);
        for (uint64_t seed = 0; seed < 50; seed++) {
            generate(re, seed, cases[i].min, cases[i].max, &out);
            if (regex_search(re, out.data, out.len) != 1
                || out.len != cases[i].want)
                ck_abort_msg("/%s/ [%zu, %zu]: \"%s\"", cases[i].pattern,
                             cases[i].min, cases[i].max, out.data);
        }
        regex_free(re);
    }
    buf_free(&out);
}
END_TEST

/* Empty loops, anchors inside groups and alternatives: the walk must not
 * go round forever nor pass an anchor where it cannot hold. */
START_TEST(odd_patterns_still_generate)
{
    static const char *const patterns[] = {
        "(a|)*b",   "(?:a?)*b",    "(^|x)+y",     "(a*)*",      "x|^y$",
        "(?:$|a)b?", "^(?:)*$",    "(a|b?)+c",    "((^)*a)+",   "(?:a|$)+",
        "^(|a|bb)*$", "(?:^a|b)c$", "[]?x",       "a{0}b{0,0}", "(a{0,2}|b*)*c",
        "(?:\\s*,?)*;",
    };
    buf out = BUF_INIT;
    for (size_t i = 0; i < sizeof patterns / sizeof *patterns; i++) {
        regex *re = compile_ok(patterns[i]);
        for (uint64_t seed = 0; seed < 300; seed++) {
            size_t min = seed % 7, max = min + seed % 5;
            generate(re, seed, min, max, &out);
            if (regex_search(re, out.data, out.len) != 1)
                ck_abort_msg("/%s/ [%zu, %zu]: \"%s\" does not match",
                             patterns[i], min, max, out.data);
        }
        regex_free(re);
    }
    buf_free(&out);
}
END_TEST

static bool all_in(const char *s, const char *allowed)
{
    for (; *s; s++)
        if (!strchr(allowed, *s))
            return false;
    return true;
}

START_TEST(generated_text_is_readable)
{
    static const char alnum[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    static const char word_chars[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_";
    buf out = BUF_INIT;
    regex *id = compile_ok("^[A-Z]-\\d{4}$");
    regex *dot = compile_ok("^.{12}$");
    regex *neg = compile_ok("^[^\"]{12}$");
    regex *word = compile_ok("^\\w{12}$");
    regex *space = compile_ok("^\\s$");
    regex *cjk = compile_ok("^[\\u4e00-\\u9fa5]$");
    regex *latin = compile_ok("^[\\u00C0-\\u00FF]{3}$");
    regex *lone = compile_ok("^\\uD83D$");
    for (uint64_t seed = 0; seed < 200; seed++) {
        generate(id, seed, 0, SIZE_MAX, &out);
        ck_assert_uint_eq(out.len, 6);
        ck_assert(out.data[0] >= 'A' && out.data[0] <= 'Z');
        ck_assert(out.data[1] == '-' && all_in(out.data + 2, "0123456789"));
        generate(dot, seed, 0, SIZE_MAX, &out);
        ck_assert_msg(all_in(out.data, alnum), "\"%s\"", out.data);
        generate(neg, seed, 0, SIZE_MAX, &out);
        ck_assert_msg(all_in(out.data, alnum), "\"%s\"", out.data);
        generate(word, seed, 0, SIZE_MAX, &out);
        ck_assert_msg(all_in(out.data, word_chars), "\"%s\"", out.data);
        generate(space, seed, 0, SIZE_MAX, &out);
        ck_assert_str_eq(out.data, " ");
        generate(cjk, seed, 0, SIZE_MAX, &out);
        ck_assert_uint_eq(out.len, 3);
        ck_assert_int_eq(regex_search(cjk, out.data, out.len), 1);
        generate(latin, seed, 0, SIZE_MAX, &out);
        ck_assert_uint_eq(out.len, 6);
        ck_assert_int_eq(regex_search(latin, out.data, out.len), 1);
        /* Nothing readable to draw: the surrogate itself, as WTF-8. */
        generate(lone, seed, 0, SIZE_MAX, &out);
        ck_assert_str_eq(out.data, "\355\240\275");
    }
    regex_free(id);
    regex_free(dot);
    regex_free(neg);
    regex_free(word);
    regex_free(space);
    regex_free(cjk);
    regex_free(latin);
    regex_free(lone);
    buf_free(&out);
}
END_TEST

START_TEST(every_alternative_and_member_is_reached)
{
    buf out = BUF_INIT;
    regex *re = compile_ok("^(sms|email|push|webhook)$");
    int seen[4] = {0};
    static const char *const names[] = {"sms", "email", "push", "webhook"};
    for (uint64_t seed = 0; seed < 400; seed++) {
        generate(re, seed, 0, SIZE_MAX, &out);
        for (int i = 0; i < 4; i++)
            seen[i] += strcmp(out.data, names[i]) == 0;
    }
    for (int i = 0; i < 4; i++)
        ck_assert_msg(seen[i] > 40, "%s seen %d times", names[i], seen[i]);
    regex_free(re);

    re = compile_ok("^[a-z_.-]$");
    char members[256] = {0};
    for (uint64_t seed = 0; seed < 2000; seed++) {
        generate(re, seed, 0, SIZE_MAX, &out);
        members[(unsigned char)out.data[0]] = 1;
    }
    ck_assert(members['_'] && members['.'] && members['-'] && members['q']);
    regex_free(re);
    buf_free(&out);
}
END_TEST

START_TEST(generate_appends)
{
    buf out = BUF_INIT;
    uint64_t state = 7;
    regex_rng rng = {splitmix64, &state};
    regex *re = compile_ok("^x$");
    ck_assert_int_eq(buf_puts(&out, "say "), 0);
    ck_assert_int_eq(regex_generate(re, &rng, 0, SIZE_MAX, &out), 0);
    ck_assert_str_eq(out.data, "say x");
    regex_free(re);
    buf_free(&out);

    /* An empty match into a fresh buf is still a terminated string. */
    re = compile_ok("^$");
    ck_assert_int_eq(regex_generate(re, &rng, 0, SIZE_MAX, &out), 0);
    ck_assert_ptr_nonnull(out.data);
    ck_assert_uint_eq(out.len, 0);
    ck_assert_str_eq(out.data, "");
    regex_free(re);
    buf_free(&out);
}
END_TEST

/* Finding the lengths a pattern can have is bounded in work: a long
 * literal with a loop after it (whose every length has many states) is
 * still generated; a shortest match past the bounds is refused, and out
 * is left as it was. */
START_TEST(generate_bounds_its_work)
{
    buf out = BUF_INIT, pat = BUF_INIT;
    uint64_t state = 11;
    regex_rng rng = {splitmix64, &state};

    buf_puts(&pat, "^");
    for (int i = 0; i < 1400; i++)
        buf_putc(&pat, '7');
    buf_puts(&pat, "[a-z]+$");
    regex *re = compile_ok(pat.data);
    ck_assert_int_eq(regex_generate(re, &rng, 0, SIZE_MAX, &out), 0);
    ck_assert_uint_ge(out.len, 1401);
    ck_assert_int_eq(regex_search(re, out.data, out.len), 1);
    regex_free(re);

    /* 11,000 states in a row: long, but the work is what the layers hold */
    re = compile_ok("^(x{1000}){11}$");
    buf_reset(&out);
    ck_assert_int_eq(regex_generate(re, &rng, 0, SIZE_MAX, &out), 0);
    ck_assert_uint_eq(out.len, 11000);
    regex_free(re);

    /* past the bits: 12,000 code points at least, of 12,000 states */
    re = compile_ok("^(x{1000}){12}$");
    buf_reset(&out);
    buf_puts(&out, "kept");
    ck_assert_int_eq(regex_generate(re, &rng, 0, SIZE_MAX, &out),
                     REGEX_TOO_LONG);
    ck_assert_str_eq(out.data, "kept");
    regex_free(re);

    /* past the work: every layer below the shortest match is wide */
    re = compile_ok("^(a|ab|abc|abcd|abcde){1000}$");
    ck_assert_int_eq(regex_generate(re, &rng, 0, SIZE_MAX, &out),
                     REGEX_TOO_LONG);
    ck_assert_str_eq(out.data, "kept");
    regex_free(re);

    /* wide layers above the shortest match: the lengths end where the
     * work does, short of the 2,900 asked (the pattern allows 3,000), and
     * the string still matches */
    re = compile_ok("^([ab]?){1000}([ab]?){1000}([ab]?){1000}$");
    for (uint64_t seed = 0; seed < 4; seed++) {
        generate(re, seed, 2900, SIZE_MAX, &out);
        ck_assert_uint_lt(out.len, 2900);
        ck_assert_int_eq(regex_search(re, out.data, out.len), 1);
    }
    regex_free(re);
    buf_free(&pat);
    buf_free(&out);
}
END_TEST

Suite *regex_suite(void)
{
    Suite *s = suite_create("regex");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, search_agrees_with_python);
    tcase_add_test(tc, search_ecma_where_python_differs);
    tcase_add_test(tc, search_handles_nul_bytes);
    tcase_add_test(tc, search_does_not_blow_up);
    tcase_add_test(tc, search_gives_up_past_its_budget);
    tcase_add_test(tc, refusals_name_the_construct);
    tcase_add_test(tc, refusal_reason_fits_the_buffer);
    tcase_add_test(tc, nesting_is_capped_at_64);
    tcase_add_test(tc, generated_strings_match);
    tcase_add_test(tc, impossible_lengths_give_the_nearest);
    tcase_add_test(tc, odd_patterns_still_generate);
    tcase_add_test(tc, generated_text_is_readable);
    tcase_add_test(tc, every_alternative_and_member_is_reached);
    tcase_add_test(tc, generate_appends);
    tcase_add_test(tc, generate_bounds_its_work);
    suite_add_tcase(s, tc);
    return s;
}
