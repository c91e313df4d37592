/*
 * Unit tests of pynum: known answers, each taken from Python 3 (repr() of
 * the float, str() of the int, and whether int == float), and the refusals
 * at Python's 4300-digit limit, on both sides of it.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pynum.h"
#include "unit.h"

/* ------------------------------------------------------------ float repr */

static void check_repr(double d, const char *expected)
{
    char out[PYFLOAT_REPR_MAX];
    size_t n = pyfloat_repr(d, out);
    ck_assert_str_eq(out, expected);
    ck_assert_uint_eq(n, strlen(expected));
}

START_TEST(repr_zeros_and_small_integers)
{
    check_repr(0.0, "0.0");
    check_repr(-0.0, "-0.0");
    check_repr(1.0, "1.0");
    check_repr(-1.5, "-1.5");
    check_repr(100000.0, "100000.0");
    check_repr(1e15, "1000000000000000.0");
}
END_TEST

START_TEST(repr_shortest_digits)
{
    check_repr(0.1, "0.1");
    check_repr(0.3, "0.3");
    check_repr(2.0 / 3.0, "0.6666666666666666");
    check_repr(0.1 + 0.2, "0.30000000000000004");
    check_repr(123.456, "123.456");
    check_repr(1e23, "1e+23");
    check_repr(1e100, "1e+100");
}
END_TEST

START_TEST(repr_positional_and_exponent_edges)
{
    check_repr(0.0001, "0.0001");
    check_repr(0.00012, "0.00012");
    check_repr(1e-5, "1e-05");
    check_repr(1.5e-5, "1.5e-05");
    check_repr(-1e-5, "-1e-05");
    check_repr(9999999999999998.0, "9999999999999998.0");
    check_repr(1e16, "1e+16");
    check_repr(1.5e16, "1.5e+16");
    check_repr(1e22, "1e+22");
    check_repr(123456789012345680.0, "1.2345678901234568e+17");
}
END_TEST

START_TEST(repr_range_ends)
{
    check_repr(5e-324, "5e-324");
    check_repr(0x1p-1074, "5e-324");
    check_repr(-0x1p-1074, "-5e-324");
    check_repr(0x1p-1022, "2.2250738585072014e-308");
    check_repr(0x0.fffffffffffffp-1022, "2.225073858507201e-308");
    check_repr(1.7976931348623157e308, "1.7976931348623157e+308");
    check_repr(-0x1.fffffffffffffp+1023, "-1.7976931348623157e+308");
}
END_TEST

START_TEST(repr_integers_near_2_53)
{
    /* 2**53 + 1 is not a double: it reads as 2**53. */
    check_repr(9007199254740993.0, "9007199254740992.0");
    check_repr(0x1p53, "9007199254740992.0");
    check_repr(0x1p53 + 2, "9007199254740994.0");
    check_repr(0x1p63, "9.223372036854776e+18");
}
END_TEST

/* Next to a power of two the interval of decimals that read back is
 * narrower below than above: the correctly rounded 16-digit decimal falls
 * outside it, and the one above it is the answer. */
START_TEST(repr_powers_of_two)
{
    check_repr(0x1p89, "6.189700196426902e+26");
    check_repr(0x1p405, "8.263199609878108e+121");
    check_repr(-0x1p-808, "-5.858190679279809e-244");
}
END_TEST

/* Decimals of at most 15 digits take a path of their own; these sit at
 * its edges: the range of exponents it takes (10^-8 to 10^37 or so), 15
 * and 16 digits, and doubles next to short decimals, which it passes on. */
START_TEST(repr_short_decimals)
{
    check_repr(280.41, "280.41");
    check_repr(-280.41, "-280.41");
    check_repr(0.07, "0.07");
    check_repr(2.675, "2.675");
    check_repr(12345678.9, "12345678.9");
    check_repr(0x1p-20, "9.5367431640625e-07");
    check_repr(1e-8, "1e-08");
    check_repr(1.5e-8, "1.5e-08");
    check_repr(1.2345e-9, "1.2345e-09");
    check_repr(-1e-7, "-1e-07");
    check_repr(123456789012345.0, "123456789012345.0");
    check_repr(999999999999999.0, "999999999999999.0");
    check_repr(999999999999999.9, "999999999999999.9");
    check_repr(999999999999999.5, "999999999999999.5");
    check_repr(1000000000000001.0, "1000000000000001.0");
    check_repr(1234567890123456.0, "1234567890123456.0");
    check_repr(0x1.52d02c7e14af6p+76, "1e+23"); /* 9.999999999999999e22 */
    check_repr(1e22, "1e+22");
    check_repr(1e37, "1e+37");
    check_repr(1e38, "1e+38");
    check_repr(1.2345678901234e37, "1.2345678901234e+37");
    check_repr(0.1 + 0.7, "0.7999999999999999");
    check_repr(1.0 / 3.0, "0.3333333333333333");
    check_repr(0x1.869ffffffffffp+16, "99999.99999999999");
    check_repr(0x1.a36e2eb1c432ep-14, "0.00010000000000000002");
    check_repr(0x1.3a92a30553262p-12, "0.00030000000000000003");
}
END_TEST

/* -------------------------------------------------------------- integers */

static void check_digits(const char *digits, unsigned base, int negative,
                         const char *expected)
{
    buf b = BUF_INIT;
    ck_assert_int_eq(pyint_from_digits(&b, digits, strlen(digits), base,
                                       negative),
                     PYNUM_OK);
    ck_assert_str_eq(b.data, expected);
    buf_free(&b);
}

static void check_digits_fail(const char *digits, size_t len, unsigned base,
                              int expected)
{
    buf b = BUF_INIT;
    ck_assert_int_eq(pyint_from_digits(&b, digits, len, base, 0), expected);
    ck_assert_uint_eq(b.len, 0);
    buf_free(&b);
}

/* A string of `len` copies of c, after `head`. */
static char *repeat(const char *head, char c, size_t len)
{
    size_t h = strlen(head);
    char *s = malloc(h + len + 1);
    ck_assert_ptr_nonnull(s);
    memcpy(s, head, h);
    memset(s + h, c, len);
    s[h + len] = '\0';
    return s;
}

START_TEST(digits_bases)
{
    check_digits("0000101", 2, 0, "5");
    check_digits("101", 2, 1, "-5");
    check_digits("0777", 8, 0, "511");
    check_digits("00ffFFffFFffFFffFF", 16, 0, "18446744073709551615");
    check_digits("100000000000000000000000000000000", 16, 1,
                 "-340282366920938463463374607431768211456");
    check_digits("1000000000000000000000000000000000000000000000000000"
                 "0000000000000000000000000000000000000000000000000",
                 2, 0, "1267650600228229401496703205376");
    check_digits("000123", 10, 0, "123");
    check_digits("9007199254740993", 10, 1, "-9007199254740993");
}
END_TEST

START_TEST(digits_zero)
{
    check_digits("0", 10, 0, "0");
    check_digits("0", 10, 1, "0");
    check_digits("0000", 16, 1, "0");
    check_digits("000", 2, 0, "0");
    check_digits("00", 8, 1, "0");
}
END_TEST

START_TEST(digits_appends)
{
    buf b = BUF_INIT;
    ck_assert_int_eq(buf_puts(&b, "x="), 0);
    ck_assert_int_eq(pyint_from_digits(&b, "ff", 2, 16, 1), PYNUM_OK);
    ck_assert_str_eq(b.data, "x=-255");
    buf_free(&b);
}
END_TEST

START_TEST(digits_bad)
{
    check_digits_fail("", 0, 10, PYNUM_BAD_DIGIT);
    check_digits_fail("", 0, 16, PYNUM_BAD_DIGIT);
    check_digits_fail("102", 3, 2, PYNUM_BAD_DIGIT);
    check_digits_fail("8", 1, 8, PYNUM_BAD_DIGIT);
    check_digits_fail("12a", 3, 10, PYNUM_BAD_DIGIT);
    check_digits_fail("fg", 2, 16, PYNUM_BAD_DIGIT);
    check_digits_fail("-1", 2, 10, PYNUM_BAD_DIGIT);
    check_digits_fail("1_0", 3, 10, PYNUM_BAD_DIGIT);
    check_digits_fail("12", 3, 10, PYNUM_BAD_DIGIT); /* a NUL is no digit */
    check_digits_fail("12", 2, 7, PYNUM_BAD_DIGIT);
}
END_TEST

START_TEST(digits_decimal_limit)
{
    /* 4300 digits pass, 4301 do not, leading zeros included. */
    char *s = repeat("", '9', 4300);
    check_digits(s, 10, 0, s);
    free(s);
    s = repeat("", '1', 4301);
    check_digits_fail(s, 4301, 10, PYNUM_TOO_LONG);
    free(s);
    s = repeat("", '0', 4301);
    s[4300] = '1';
    check_digits_fail(s, 4301, 10, PYNUM_TOO_LONG);
    free(s);
    /* A bad digit is reported before the length. */
    s = repeat("", '1', 5000);
    s[4999] = 'x';
    check_digits_fail(s, 5000, 10, PYNUM_BAD_DIGIT);
    free(s);
}
END_TEST

START_TEST(digits_binary_limit)
{
    /* 2**14284 has 4300 decimal digits; 2**14285 - 1 has 4301. */
    char *s = repeat("1", '0', 3571);
    buf b = BUF_INIT;
    ck_assert_int_eq(pyint_from_digits(&b, s, strlen(s), 16, 0), PYNUM_OK);
    ck_assert_uint_eq(b.len, 4300);
    ck_assert_int_eq(strncmp(b.data, "81744410132094422503", 20), 0);
    ck_assert_str_eq(b.data + 4280, "47391660265823010816");
    free(s);
    buf_reset(&b);

    s = repeat("1", '0', 14284);
    ck_assert_int_eq(pyint_from_digits(&b, s, strlen(s), 2, 1), PYNUM_OK);
    ck_assert_uint_eq(b.len, 4301);
    ck_assert_int_eq(strncmp(b.data, "-81744410132094422503", 21), 0);
    free(s);
    buf_free(&b);

    s = repeat("1", 'f', 3571);
    check_digits_fail(s, strlen(s), 16, PYNUM_TOO_LONG);
    free(s);
    s = repeat("000", '7', 4762); /* 14286 bits */
    check_digits_fail(s, strlen(s), 8, PYNUM_TOO_LONG);
    free(s);
}
END_TEST

START_TEST(digits_absurd_lengths)
{
    /* Ten million digits: refused at once, or read in one pass when all
     * but the last are leading zeros. */
    size_t n = 10000000;
    char *s = repeat("", '1', n);
    check_digits_fail(s, n, 2, PYNUM_TOO_LONG);
    check_digits_fail(s, n, 16, PYNUM_TOO_LONG);
    check_digits_fail(s, n, 10, PYNUM_TOO_LONG);
    memset(s, '0', n - 1);
    buf b = BUF_INIT;
    ck_assert_int_eq(pyint_from_digits(&b, s, n, 16, 1), PYNUM_OK);
    ck_assert_str_eq(b.data, "-1");
    buf_free(&b);
    free(s);
}
END_TEST

/* ----------------------------------------------------------- sexagesimal */

static int sexagesimal(buf *b, const char *text, int negative)
{
    /* Splits text at ':' into the parts pyint_sexagesimal() takes. */
    size_t nparts = 1;
    for (const char *p = text; *p; p++)
        nparts += *p == ':';
    const char **parts = malloc(nparts * sizeof *parts);
    size_t *lens = malloc(nparts * sizeof *lens);
    ck_assert_ptr_nonnull(parts);
    ck_assert_ptr_nonnull(lens);
    size_t i = 0;
    const char *start = text;
    for (const char *p = text;; p++) {
        if (*p == ':' || *p == '\0') {
            parts[i] = start;
            lens[i++] = (size_t)(p - start);
            start = p + 1;
            if (*p == '\0')
                break;
        }
    }
    int rc = pyint_sexagesimal(b, parts, lens, nparts, negative);
    free(parts);
    free(lens);
    return rc;
}

static void check_sexagesimal(const char *text, int negative,
                              const char *expected)
{
    buf b = BUF_INIT;
    ck_assert_int_eq(sexagesimal(&b, text, negative), PYNUM_OK);
    ck_assert_str_eq(b.data, expected);
    buf_free(&b);
}

static void check_sexagesimal_fail(const char *text, int expected)
{
    buf b = BUF_INIT;
    ck_assert_int_eq(sexagesimal(&b, text, 0), expected);
    ck_assert_uint_eq(b.len, 0);
    buf_free(&b);
}

/* "head" followed by n parts ":0". */
static char *sexagesimal_zeros(const char *head, size_t n)
{
    size_t h = strlen(head);
    char *s = malloc(h + 2 * n + 1);
    ck_assert_ptr_nonnull(s);
    memcpy(s, head, h);
    for (size_t i = 0; i < n; i++)
        memcpy(s + h + 2 * i, ":0", 2);
    s[h + 2 * n] = '\0';
    return s;
}

START_TEST(sexagesimal_values)
{
    check_sexagesimal("190:20:30", 0, "685230");
    check_sexagesimal("1:30", 0, "90");
    check_sexagesimal("1:0", 1, "-60");
    check_sexagesimal("01:05", 0, "65");
    check_sexagesimal("0:0", 1, "0");
    check_sexagesimal("0:00:7", 1, "-7");
    check_sexagesimal("42", 0, "42");
    check_sexagesimal("1:0:0:0:0:0:0:0:0:0:0:0", 0,
                      "36279705600000000000");
    /* Parts need not be below 60: each is just multiplied. */
    check_sexagesimal("1:99", 0, "159");
    check_sexagesimal("123456789012345678901234567890:1", 0,
                      "7407407340740740734074074073401");
}
END_TEST

START_TEST(sexagesimal_bad)
{
    check_sexagesimal_fail("1:3a", PYNUM_BAD_DIGIT);
    check_sexagesimal_fail("1::2", PYNUM_BAD_DIGIT);
    check_sexagesimal_fail(":1", PYNUM_BAD_DIGIT);
    check_sexagesimal_fail("1:-2", PYNUM_BAD_DIGIT);
    buf b = BUF_INIT;
    ck_assert_int_eq(pyint_sexagesimal(&b, NULL, NULL, 0, 0),
                     PYNUM_BAD_DIGIT);
    buf_free(&b);
}
END_TEST

START_TEST(sexagesimal_limit)
{
    /* 2 * 60**2418 has 4300 digits, 3 * 60**2418 has 4301. */
    char *s = sexagesimal_zeros("2", 2418);
    buf b = BUF_INIT;
    ck_assert_int_eq(sexagesimal(&b, s, 0), PYNUM_OK);
    ck_assert_uint_eq(b.len, 4300);
    ck_assert_int_eq(strncmp(b.data, "74259739826247397700", 20), 0);
    buf_free(&b);
    free(s);
    s = sexagesimal_zeros("3", 2418);
    check_sexagesimal_fail(s, PYNUM_TOO_LONG);
    free(s);
    s = sexagesimal_zeros("1", 2420);
    check_sexagesimal_fail(s, PYNUM_TOO_LONG);
    free(s);
    s = sexagesimal_zeros("1", 1000000);
    check_sexagesimal_fail(s, PYNUM_TOO_LONG);
    free(s);
    /* Leading zero parts add nothing. */
    s = sexagesimal_zeros("0", 1000000);
    s[2000000] = '5';
    check_sexagesimal(s, 0, "5");
    free(s);
    /* A part of more than 4300 digits is refused, as int() refuses it. */
    s = repeat("1:", '0', 4301);
    check_sexagesimal_fail(s, PYNUM_TOO_LONG);
    free(s);
    /* 4300 nines times 60 has 4302 digits. */
    s = repeat("", '9', 4302);
    memcpy(s + 4300, ":0", 2);
    check_sexagesimal_fail(s, PYNUM_TOO_LONG);
    free(s);
}
END_TEST

/* ------------------------------------------------------ int == float */

static int equals(const char *text, double d)
{
    return pyint_equals_double(text, strlen(text), d);
}

START_TEST(equals_double)
{
    ck_assert(equals("1", 1.0));
    ck_assert(equals("-1", -1.0));
    ck_assert(!equals("1", -1.0));
    ck_assert(!equals("1", 1.5));
    ck_assert(!equals("1", 1.0000000000000002));
    ck_assert(equals("0", 0.0));
    ck_assert(equals("0", -0.0));
    ck_assert(equals("-0", 0.0));
    ck_assert(!equals("0", 5e-324));
    ck_assert(equals("9007199254740992", 0x1p53));
    ck_assert(!equals("9007199254740993", 9007199254740993.0));
    ck_assert(equals("9007199254740994", 9007199254740994.0));
    ck_assert(!equals("1", NAN));
    ck_assert(!equals("1", INFINITY));
    ck_assert(!equals("-1", -INFINITY));
    ck_assert(!equals("", 0.0));
    ck_assert(!equals("abc", 0.0));
}
END_TEST

START_TEST(equals_double_huge)
{
    ck_assert(equals("1000000000000000052504760255204420248704468581108159154"
                     "9158541155118024579889081957863713750804478640437044438"
                     "3288387817694252323536043057564479218478670698284838720"
                     "0926575803737830233794788090059368953234970799945081119"
                     "0389676408800746527427801424945792587888200568428381156"
                     "69472196386865459400540160",
                     1e300));
    char *s = repeat("1", '0', 300); /* 10**300 is not a double */
    ck_assert(!equals(s, 1e300));
    free(s);
    s = repeat("-1", '0', 400);
    ck_assert(!equals(s, -1.7976931348623157e308));
    free(s);
    ck_assert(equals("1797693134862315708145274237317043567980705675258449965"
                     "9891747680315726078002853876058955863276687817154045895"
                     "3514382464234321326889464182768467546703537516986049910"
                     "5765512820762454900903893289440758685084551339423045832"
                     "3690322294816580855933212334827479782620414472316873817"
                     "7180919299881250404026184124858368",
                     1.7976931348623157e308));
}
END_TEST

Suite *pynum_suite(void)
{
    Suite *s = suite_create("pynum");

    TCase *tc = tcase_create("float repr");
    tcase_set_timeout(tc, 120); /* room for a busy machine, under ASan */
    tcase_add_test(tc, repr_zeros_and_small_integers);
    tcase_add_test(tc, repr_shortest_digits);
    tcase_add_test(tc, repr_positional_and_exponent_edges);
    tcase_add_test(tc, repr_range_ends);
    tcase_add_test(tc, repr_integers_near_2_53);
    tcase_add_test(tc, repr_powers_of_two);
    tcase_add_test(tc, repr_short_decimals);
    suite_add_tcase(s, tc);

    tc = tcase_create("int from digits");
    tcase_set_timeout(tc, 120); /* room for a busy machine, under ASan */
    tcase_add_test(tc, digits_bases);
    tcase_add_test(tc, digits_zero);
    tcase_add_test(tc, digits_appends);
    tcase_add_test(tc, digits_bad);
    tcase_add_test(tc, digits_decimal_limit);
    tcase_add_test(tc, digits_binary_limit);
    tcase_add_test(tc, digits_absurd_lengths);
    suite_add_tcase(s, tc);

    tc = tcase_create("sexagesimal");
    tcase_set_timeout(tc, 120); /* room for a busy machine, under ASan */
    tcase_add_test(tc, sexagesimal_values);
    tcase_add_test(tc, sexagesimal_bad);
    tcase_add_test(tc, sexagesimal_limit);
    suite_add_tcase(s, tc);

    tc = tcase_create("int equals float");
    tcase_set_timeout(tc, 120); /* room for a busy machine, under ASan */
    tcase_add_test(tc, equals_double);
    tcase_add_test(tc, equals_double_huge);
    suite_add_tcase(s, tc);

    return s;
}
