/*
 * pynum: numbers written the way Python writes them; see pynum.h.
 *
 * Floats.  The C library does the exact arithmetic: glibc's printf rounds
 * correctly to any number of significant digits and strtod reads decimal
 * text correctly, so the shortest digits that read back to the same double
 * are found by rounding to p digits and reading the result back.  Whether
 * some p-digit decimal reads back is monotone in p (a p-digit decimal is
 * also a (p+1)-digit one), so p is found by bisection over 1..17, after a
 * guess read from the 17-digit form that is usually right.  The only
 * p-digit decimals that can read back are the correctly rounded one and its
 * neighbour on the other side of the double: the interval of decimals that
 * read back is at most twice as wide on one side as on the other (next to a
 * power of two), never wider.  Of the two, the nearer is preferred, as
 * Python does.  The layout (positional or exponent form) is written here,
 * with '.' spelled out, so the locale never matters.
 *
 * Most doubles met in practice have a short form of at most 15 digits and
 * take a faster path first, one that needs neither printf nor strtod: x is
 * scaled by an exact power of ten 10^-s to y below 10^15, and the integer m
 * nearest to y is the only decimal m * 10^s that can read back as x (see
 * decimal_shortest_fast()).  Whether it does is decided by one division or
 * multiplication of two exact doubles, which IEEE arithmetic rounds
 * correctly, just as strtod rounds m * 10^s.  When m does not read back,
 * the search above decides.
 *
 * Integers.  A small bignum in base 1e9 limbs: multiply by a small number
 * and add, then print.  Python refuses integers of more than 4300 decimal
 * digits; the size of the result is bounded from the length of the input
 * before any quadratic work, and checked exactly once it is known.
 */
#include "pynum.h"
#include "utf8.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ floats */

#define SIG_MAX 17 /* 17 significant digits always read back */

/* A positive decimal d[0].d[1]...d[n-1] * 10^exp, d[0] nonzero. */
typedef struct decimal {
    char d[SIG_MAX];
    int n;
    int exp;
} decimal;

/* The decimal nearest to x (positive, finite) with p significant digits,
 * from printf. */
static void decimal_print(double x, int p, decimal *out)
{
    char tmp[64];
    snprintf(tmp, sizeof tmp, "%.*e", p - 1, x);
    /* "d.ddde+XX": the radix character depends on the locale, so take the
     * digits before the 'e', whatever separates them. */
    const char *s = tmp;
    int n = 0;
    for (; *s && *s != 'e'; s++)
        if (*s >= '0' && *s <= '9' && n < SIG_MAX)
            out->d[n++] = *s;
    out->n = n;
    out->exp = *s == 'e' ? (int)strtol(s + 1, NULL, 10) : 0;
}

/* The double that the decimal reads back as. */
static double decimal_value(const decimal *g)
{
    /* Written as an integer with an exponent: no radix character, so
     * strtod reads it the same in every locale. */
    char tmp[64];
    size_t k = (size_t)g->n;
    memcpy(tmp, g->d, k);
    int e = g->exp - (g->n - 1);
    tmp[k++] = 'e';
    if (e < 0)
        tmp[k++] = '-';
    unsigned u = e < 0 ? 0u - (unsigned)e : (unsigned)e;
    char rev[12];
    int m = 0;
    do {
        rev[m++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    while (m)
        tmp[k++] = rev[--m];
    tmp[k] = '\0';
    return strtod(tmp, NULL);
}

/* Moves g to the next decimal with as many significant digits, up or down.
 * Crossing a power of ten changes the exponent: 9.99e5 up is 1.00e6, and
 * 1.00e6 down is 9.99e5 (the spacing is finer below 1e6). */
static void decimal_step(decimal *g, int up)
{
    int i = g->n - 1;
    if (up) {
        while (i >= 0 && g->d[i] == '9')
            g->d[i--] = '0';
        if (i >= 0) {
            g->d[i]++;
        } else {
            g->d[0] = '1';
            g->exp++;
        }
        return;
    }
    while (i > 0 && g->d[i] == '0')
        g->d[i--] = '9';
    g->d[i]--;
    if (g->d[0] == '0') {
        memset(g->d, '9', (size_t)g->n);
        g->exp--;
    }
}

/* The decimal nearest to x with p significant digits, given full, the
 * nearest with SIG_MAX.  Rounding full again gives the same digits unless
 * full lies exactly halfway between two p-digit decimals (x may be on
 * either side of it): only then is printf asked again, since printing is
 * the slow part. */
static void decimal_round(double x, const decimal *full, int p, decimal *out)
{
    int exact_half = full->d[p] == '5';
    for (int i = p + 1; i < full->n && exact_half; i++)
        exact_half = full->d[i] == '0';
    if (exact_half) {
        decimal_print(x, p, out);
        return;
    }
    memcpy(out->d, full->d, (size_t)p);
    out->n = p;
    out->exp = full->exp;
    if (full->d[p] >= '5')
        decimal_step(out, 1);
}

/* Whether some p-digit decimal reads back as x; if so, out is the one
 * nearest to x. */
static int decimal_shortest_at(double x, const decimal *full, int p,
                               decimal *out)
{
    if (p == full->n)
        *out = *full;
    else
        decimal_round(x, full, p, out);
    double v = decimal_value(out);
    if (v == x)
        return 1;
    decimal_step(out, v < x);
    return decimal_value(out) == x;
}

/* The search for the fewest digits that read back, over [lo, hi]: hi is
 * known to read back and best holds its digits. */
typedef struct search {
    double x;
    decimal full, best;
    int lo, hi;
} search;

static void search_probe(search *s, int p)
{
    if (p < s->lo || p >= s->hi)
        return;
    decimal g;
    if (decimal_shortest_at(s->x, &s->full, p, &g)) {
        s->best = g;
        s->hi = p;
    } else {
        s->lo = p + 1;
    }
}

/* The shortest decimal that reads back as x (positive, finite), nearest to
 * x among those as short. */
static void decimal_shortest(double x, decimal *out)
{
    search s;
    s.x = x;
    decimal_print(x, SIG_MAX, &s.full);
    s.best = s.full;
    s.lo = 1;
    s.hi = SIG_MAX;
    /* A guess first, so most doubles take two probes.  A short decimal
     * such as 0.3 prints as 2.9999999999999999e-01: the run of 0s or 9s
     * before the last digit starts where its digits end.  Without such a
     * run, the answer is 16 or 17 digits. */
    int guess = SIG_MAX - 1;
    char c = s.full.d[SIG_MAX - 2];
    if (c == '0' || c == '9') {
        guess = SIG_MAX - 2;
        while (guess > 1 && s.full.d[guess - 1] == c)
            guess--;
    }
    search_probe(&s, guess);
    if (s.hi == guess)
        search_probe(&s, guess - 1);
    while (s.lo < s.hi)
        search_probe(&s, s.lo + (s.hi - s.lo) / 2);
    *out = s.best;
}

/* 10^0 .. 10^22, each of them exactly a double (5^22 < 2^53). */
static const double exact_pow10[] = {
    1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
#define EXACT_POW10_MAX 22

/*
 * The shortest decimal that reads back as x (positive, finite), when it can
 * be found with a few exactly rounded operations; 0 when it cannot (the
 * search decides then).
 *
 * x is scaled to y = x / 10^s, y at most 10^15, with s chosen so that 10^|s|
 * is an exact double; the one rounding of that scaling moves y by at most
 * 1/16.  The doubles next to x are at most 2^-52 x apart, so the decimals
 * that read back as x lie within 2^-53 x = 2^-53 y 10^s <= 10^s / 8 of it:
 * the only multiple of 10^s among them can be m * 10^s, m the integer
 * nearest to y, and only if (double)m / 10^-s (or * 10^s) gives back x.  m
 * and 10^|s| are exact doubles, so that one operation rounds m * 10^s
 * exactly as strtod would.
 *
 * When m * 10^s reads back, it is what Python prints.  Call it q, and let r
 * be the shortest decimal that reads back, nearest to x among those.  r has
 * no more digits than q.  If r is at or above q's power of ten, 10^e, it is
 * then a multiple of 10^s, and so r = q, the only one that reads back.  If
 * r were below 10^e, then 10^e would lie between r and q and read back as
 * x too, so r would have one digit; but no one-digit decimal below 10^e
 * (at most 0.9 * 10^e) is close enough to 10^e to read back as the same
 * double.
 */
static int decimal_shortest_fast(double x, decimal *out)
{
#if FLT_EVAL_METHOD == 0
    /* The exponent of x in base 2, and from it a first guess at s, within
     * one of the s that puts y in [10^14, 10^15). */
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    int e2 = (int)((bits >> 52) & 0x7ff) - 1023;
    int s = e2 * 30103 / 100000 - 14;
    double y = 0;
    for (int tries = 0;; tries++) {
        if (s < -EXACT_POW10_MAX || s > EXACT_POW10_MAX)
            return 0;
        y = s < 0 ? x * exact_pow10[-s] : x / exact_pow10[s];
        if (tries == 2)
            break;
        if (y >= 1e15)
            s++;
        else if (y < 1e14)
            s--;
        else
            break;
    }
    if (!(y <= 1e15))
        return 0;
    uint64_t m = (uint64_t)(y + 0.5);
    double back = s < 0 ? (double)m / exact_pow10[-s]
                        : (double)m * exact_pow10[s];
    if (m == 0 || back != x)
        return 0;
    while (m % 10 == 0) {
        m /= 10;
        s++;
    }
    char rev[SIG_MAX];
    int n = 0;
    for (; m; m /= 10)
        rev[n++] = (char)('0' + m % 10);
    for (int i = 0; i < n; i++)
        out->d[i] = rev[n - 1 - i];
    out->n = n;
    out->exp = s + n - 1;
    return 1;
#else
    /* Intermediate results carried in more precision than a double would
     * break the reasoning above; the search is always right. */
    (void)x;
    (void)out;
    return 0;
#endif
}

/* Writes the exponent as Python does: a sign and at least two digits. */
static size_t put_exponent(char *out, int e)
{
    size_t k = 0;
    out[k++] = 'e';
    out[k++] = e < 0 ? '-' : '+';
    unsigned u = e < 0 ? (unsigned)-e : (unsigned)e;
    char rev[8];
    int m = 0;
    do {
        rev[m++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (m < 2)
        rev[m++] = '0';
    while (m)
        out[k++] = rev[--m];
    return k;
}

size_t pyfloat_repr(double d, char *out)
{
    size_t k = 0;
    if (signbit(d)) {
        out[k++] = '-';
        d = -d;
    }
    if (d == 0) {
        memcpy(out + k, "0.0", 4);
        return k + 3;
    }

    decimal best;
    if (!decimal_shortest_fast(d, &best))
        decimal_shortest(d, &best);
    int n = best.n;
    while (n > 1 && best.d[n - 1] == '0')
        n--;

    /* value = 0.d1d2...dn * 10^decpt */
    int decpt = best.exp + 1;
    if (decpt <= -4 || decpt > 16) {
        out[k++] = best.d[0];
        if (n > 1) {
            out[k++] = '.';
            memcpy(out + k, best.d + 1, (size_t)n - 1);
            k += (size_t)n - 1;
        }
        k += put_exponent(out + k, best.exp);
    } else if (decpt <= 0) {
        out[k++] = '0';
        out[k++] = '.';
        for (int i = 0; i < -decpt; i++)
            out[k++] = '0';
        memcpy(out + k, best.d, (size_t)n);
        k += (size_t)n;
    } else if (decpt < n) {
        memcpy(out + k, best.d, (size_t)decpt);
        k += (size_t)decpt;
        out[k++] = '.';
        memcpy(out + k, best.d + decpt, (size_t)(n - decpt));
        k += (size_t)(n - decpt);
    } else {
        memcpy(out + k, best.d, (size_t)n);
        k += (size_t)n;
        for (int i = n; i < decpt; i++)
            out[k++] = '0';
        out[k++] = '.';
        out[k++] = '0';
    }
    out[k] = '\0';
    return k;
}

/* ---------------------------------------------------------------- integers */

#define LIMB_BASE 1000000000u /* 9 decimal digits a limb */
#define LIMB_DIGITS 9

/* 2^14300 has 4305 decimal digits (14300 * log10(2) = 4304.7): more bits
 * than that is certainly too long. */
#define MAX_BITS 14300
/* 60^2420 has 4304 decimal digits (2420 * log10(60) = 4303.1): a nonzero
 * part followed by more than that many parts is certainly too long. */
#define MAX_SEXAGESIMAL_STEPS 2420

/* A natural number, least significant limb first, no zero limb on top. */
typedef struct bignum {
    uint32_t *limb;
    size_t n, cap;
} bignum;

static void bignum_free(bignum *b)
{
    free(b->limb);
}

static int bignum_reserve(bignum *b, size_t need)
{
    if (need <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : 16;
    while (cap < need)
        cap *= 2;
    uint32_t *p = realloc(b->limb, cap * sizeof *p);
    if (!p)
        return PYNUM_NOMEM;
    b->limb = p;
    b->cap = cap;
    return 0;
}

static void bignum_trim(bignum *b)
{
    while (b->n && b->limb[b->n - 1] == 0)
        b->n--;
}

/* b = b * mul + add, for mul and add below 2^32. */
static int bignum_muladd(bignum *b, uint32_t mul, uint32_t add)
{
    /* limb * mul + carry < 1e9 * 2^32 + 2^33, well inside 64 bits */
    uint64_t carry = add;
    for (size_t i = 0; i < b->n; i++) {
        uint64_t t = (uint64_t)b->limb[i] * mul + carry;
        b->limb[i] = (uint32_t)(t % LIMB_BASE);
        carry = t / LIMB_BASE;
    }
    while (carry) {
        if (bignum_reserve(b, b->n + 1) < 0)
            return PYNUM_NOMEM;
        b->limb[b->n++] = (uint32_t)(carry % LIMB_BASE);
        carry /= LIMB_BASE;
    }
    return 0;
}

/* b = b + the decimal digits s[0..len). */
static int bignum_add_decimal(bignum *b, const char *s, size_t len)
{
    size_t chunks = (len + LIMB_DIGITS - 1) / LIMB_DIGITS;
    size_t need = (chunks > b->n ? chunks : b->n) + 1;
    if (bignum_reserve(b, need) < 0)
        return PYNUM_NOMEM;
    while (b->n < chunks)
        b->limb[b->n++] = 0;
    uint32_t carry = 0;
    size_t end = len;
    for (size_t i = 0; i < b->n; i++) {
        uint32_t chunk = 0;
        if (i < chunks) {
            size_t start = end > LIMB_DIGITS ? end - LIMB_DIGITS : 0;
            for (size_t k = start; k < end; k++)
                chunk = chunk * 10 + (uint32_t)(s[k] - '0');
            end = start;
        } else if (!carry) {
            break;
        }
        uint32_t t = b->limb[i] + chunk + carry; /* < 2e9 + 1 */
        carry = t >= LIMB_BASE;
        b->limb[i] = carry ? t - LIMB_BASE : t;
    }
    if (carry)
        b->limb[b->n++] = carry;
    bignum_trim(b);
    return 0;
}

static size_t decimal_len(uint32_t v)
{
    size_t k = 1;
    while (v >= 10) {
        v /= 10;
        k++;
    }
    return k;
}

/* Appends "-"? and digits[0..len) to out as one append (out unchanged on
 * failure). */
static int put_integer(buf *out, int negative, const char *digits,
                       size_t len)
{
    if (buf_reserve(out, len + 1) < 0)
        return PYNUM_NOMEM;
    if (negative)
        buf_putc(out, '-');
    buf_append(out, digits, len);
    return 0;
}

/* Appends b's decimal text, refusing it when it is too long for Python. */
static int bignum_put(buf *out, const bignum *b, int negative)
{
    if (b->n == 0)
        return put_integer(out, 0, "0", 1);
    size_t top = decimal_len(b->limb[b->n - 1]);
    size_t len = top + (b->n - 1) * LIMB_DIGITS;
    if (len > PYINT_MAX_DIGITS)
        return PYNUM_TOO_LONG;
    /* The reservation makes the appends below unable to fail. */
    if (buf_reserve(out, len + 1) < 0)
        return PYNUM_NOMEM;
    if (negative)
        buf_putc(out, '-');
    buf_put_uint(out, b->limb[b->n - 1]);
    for (size_t i = b->n - 1; i-- > 0;) {
        char tmp[LIMB_DIGITS];
        uint32_t v = b->limb[i];
        for (int k = LIMB_DIGITS; k-- > 0; v /= 10)
            tmp[k] = (char)('0' + v % 10);
        buf_append(out, tmp, LIMB_DIGITS);
    }
    return 0;
}

/* The value of digit c, or 99 when it is not a digit of any base here. */
static unsigned digit_value(char c)
{
    if (c >= '0' && c <= '9')
        return (unsigned)(c - '0');
    if (c >= 'a' && c <= 'f')
        return (unsigned)(c - 'a' + 10);
    if (c >= 'A' && c <= 'F')
        return (unsigned)(c - 'A' + 10);
    return 99;
}

static int all_digits(const char *s, size_t len, unsigned base)
{
    if (len == 0)
        return 0;
    for (size_t i = 0; i < len; i++)
        if (digit_value(s[i]) >= base)
            return 0;
    return 1;
}

static int is_zero(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (s[i] != '0')
            return 0;
    return 1;
}

int pyint_from_digits(buf *out, const char *digits, size_t len, unsigned base,
                      int negative)
{
    unsigned bits_per_digit;
    switch (base) {
    case 2: bits_per_digit = 1; break;
    case 8: bits_per_digit = 3; break;
    case 16: bits_per_digit = 4; break;
    case 10: bits_per_digit = 0; break;
    default: return PYNUM_BAD_DIGIT;
    }
    if (!all_digits(digits, len, base))
        return PYNUM_BAD_DIGIT;

    /* Python counts every digit given, leading zeros too, against its
     * limit on decimal input. */
    if (base == 10 && len > PYINT_MAX_DIGITS)
        return PYNUM_TOO_LONG;
    size_t skip = 0;
    while (skip < len && digits[skip] == '0')
        skip++;
    digits += skip;
    len -= skip;
    if (len == 0)
        return put_integer(out, 0, "0", 1);
    if (base == 10)
        return put_integer(out, negative, digits, len);

    /* Each digit after the first carries at least one bit, so this test
     * also keeps the product below from overflowing. */
    if (len > MAX_BITS)
        return PYNUM_TOO_LONG;
    size_t bits = (len - 1) * bits_per_digit;
    for (unsigned v = digit_value(digits[0]); v; v >>= 1)
        bits++;
    if (bits > MAX_BITS)
        return PYNUM_TOO_LONG;

    /* Horner's rule, a group of digits (28 bits) at a time. */
    unsigned group = 28 / bits_per_digit;
    bignum b = {NULL, 0, 0};
    int rc = 0;
    for (size_t i = 0; i < len && rc == 0; i += group) {
        size_t end = i + group < len ? i + group : len;
        uint32_t chunk = 0, mul = 1;
        for (size_t k = i; k < end; k++) {
            chunk = chunk * base + digit_value(digits[k]);
            mul *= base;
        }
        rc = bignum_muladd(&b, mul, chunk);
    }
    if (rc == 0)
        rc = bignum_put(out, &b, negative);
    bignum_free(&b);
    return rc;
}

int pyint_sexagesimal(buf *out, const char *const *parts, const size_t *lens,
                      size_t nparts, int negative)
{
    if (nparts == 0)
        return PYNUM_BAD_DIGIT;
    for (size_t i = 0; i < nparts; i++)
        if (!all_digits(parts[i], lens[i], 10))
            return PYNUM_BAD_DIGIT;
    /* Each part is read by int() on its own, under the same limit. */
    for (size_t i = 0; i < nparts; i++)
        if (lens[i] > PYINT_MAX_DIGITS)
            return PYNUM_TOO_LONG;

    size_t first = 0;
    while (first < nparts && is_zero(parts[first], lens[first]))
        first++;
    if (first == nparts)
        return put_integer(out, 0, "0", 1);
    if (nparts - 1 - first > MAX_SEXAGESIMAL_STEPS)
        return PYNUM_TOO_LONG;

    bignum b = {NULL, 0, 0};
    int rc = 0;
    for (size_t i = first; i < nparts && rc == 0; i++) {
        rc = bignum_muladd(&b, 60, 0);
        if (rc == 0)
            rc = bignum_add_decimal(&b, parts[i], lens[i]);
    }
    if (rc == 0)
        rc = bignum_put(out, &b, negative);
    bignum_free(&b);
    return rc;
}

/* Splits decimal integer text into its sign and significant digits; zero
 * has no digits and is never negative.  Returns 0 when it is not an
 * integer. */
static int integer_parts(const char *s, size_t len, int *negative,
                         const char **digits, size_t *ndigits)
{
    *negative = 0;
    if (len && (s[0] == '-' || s[0] == '+')) {
        *negative = s[0] == '-';
        s++;
        len--;
    }
    if (!all_digits(s, len, 10))
        return 0;
    while (len && s[0] == '0') {
        s++;
        len--;
    }
    if (len == 0)
        *negative = 0;
    *digits = s;
    *ndigits = len;
    return 1;
}

int pyint_equals_double(const char *text, size_t len, double d)
{
    if (!isfinite(d) || d != floor(d))
        return 0;
    /* An integral double printed with "%.0f" is exact in glibc; the
     * largest, DBL_MAX, has 309 digits. */
    char tmp[400];
    int n = snprintf(tmp, sizeof tmp, "%.0f", d);
    if (n < 0 || (size_t)n >= sizeof tmp)
        return 0;
    int neg_a, neg_b;
    const char *da, *db;
    size_t na, nb;
    if (!integer_parts(text, len, &neg_a, &da, &na) ||
        !integer_parts(tmp, (size_t)n, &neg_b, &db, &nb))
        return 0;
    return neg_a == neg_b && na == nb && memcmp(da, db, na) == 0;
}

/* ------------------------------------------------------------ digits */

/* The code points of Unicode's decimal digit zeros (category Nd, Unicode
 * 14.0, as Python 3.11 knows them); each begins a run of ten. */
static const unsigned nd_zeros[] = {
    0x30,    0x660,   0x6F0,   0x7C0,   0x966,   0x9E6,   0xA66,   0xAE6,
    0xB66,   0xBE6,   0xC66,   0xCE6,   0xD66,   0xDE6,   0xE50,   0xED0,
    0xF20,   0x1040,  0x1090,  0x17E0,  0x1810,  0x1946,  0x19D0,  0x1A80,
    0x1A90,  0x1B50,  0x1BB0,  0x1C40,  0x1C50,  0xA620,  0xA8D0,  0xA900,
    0xA9D0,  0xA9F0,  0xAA50,  0xABF0,  0xFF10,  0x104A0, 0x10D30, 0x11066,
    0x110F0, 0x11136, 0x111D0, 0x112F0, 0x11450, 0x114D0, 0x11650, 0x116C0,
    0x11730, 0x118E0, 0x11950, 0x11C50, 0x11D50, 0x11DA0, 0x16A60, 0x16AC0,
    0x16B50, 0x1D7CE, 0x1D7D8, 0x1D7E2, 0x1D7EC, 0x1D7F6, 0x1E140, 0x1E2F0,
    0x1E950, 0x1FBF0};

static int py_space(unsigned c)
{
    return (c >= 0x9 && c <= 0xD) || (c >= 0x1C && c <= 0x20) || c == 0x85 ||
           c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) ||
           c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F ||
           c == 0x3000;
}

int pynum_ascii(buf *out, const char *s, size_t len)
{
    size_t i = 0, start = out->len, keep = out->len;
    int seen = 0;
    while (i < len) {
        size_t at = i;
        uint32_t cp;
        int ok;
        i += utf8_next((const unsigned char *)s + i, len - i, &cp, &ok);
        if (!ok)
            return PYNUM_BAD_DIGIT;
        if (py_space((unsigned)cp)) {
            if (seen && buf_putc(out, ' ') < 0)
                return PYNUM_NOMEM;
            continue;
        }
        seen = 1;
        size_t lo = 0, hi = sizeof nd_zeros / sizeof nd_zeros[0];
        while (lo < hi) { /* the last zero <= cp */
            size_t mid = (lo + hi) / 2;
            if (nd_zeros[mid] <= (unsigned long)cp)
                lo = mid + 1;
            else
                hi = mid;
        }
        int rc;
        if (lo > 0 && (unsigned long)cp < nd_zeros[lo - 1] + 10)
            rc = buf_putc(out, (char)('0' + (cp - nd_zeros[lo - 1])));
        else
            rc = buf_append(out, s + at, i - at);
        if (rc < 0)
            return PYNUM_NOMEM;
        keep = out->len;
    }
    /* trailing whitespace goes; inner whitespace stays (and fails later) */
    out->len = keep > start ? keep : start;
    if (out->data)
        out->data[out->len] = '\0';
    return 0;
}
