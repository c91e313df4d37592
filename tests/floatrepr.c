/*
 * floatrepr N [SEED]: prints N lines "HEX16 REPR", the 64-bit pattern of a
 * double in lower-case hex and pyfloat_repr() of it, for float_oracle.py to
 * compare with Python's repr().
 *
 * The doubles come from SEED (default 1) through splitmix64, so a failing
 * run can be repeated.  They mix uniformly random bit patterns with the
 * places where shortest-digit algorithms go wrong: short decimals, integers
 * near 2^53, powers of two (whose rounding interval is lopsided) and their
 * neighbours, subnormals, and the edges where repr switches between
 * positional and exponent form.  Several recipes aim at pyfloat_repr's fast
 * path for decimals of at most 15 digits: such decimals across and past
 * the range of exponents it takes, the doubles next to them (which it must
 * pass on), powers of ten and their neighbours, and decimals of 15 and 16
 * digits, whose scaled value sits at either end of its interval.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pynum.h"

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* A number in [0, n). */
static uint64_t below(uint64_t *state, uint64_t n)
{
    return splitmix64(state) % n;
}

/* A number in [lo, hi]. */
static int64_t between(uint64_t *state, int64_t lo, int64_t hi)
{
    return lo + (int64_t)below(state, (uint64_t)(hi - lo) + 1);
}

static double from_bits(uint64_t u)
{
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

static uint64_t to_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

/* d moved `steps` doubles up (or down when negative). */
static double walk(double d, int64_t steps)
{
    double to = steps < 0 ? -INFINITY : INFINITY;
    for (int64_t i = steps < 0 ? -steps : steps; i > 0; i--)
        d = nextafter(d, to);
    return d;
}

/* A positive integer of 1 to 17 random decimal digits. */
static uint64_t random_mantissa(uint64_t *state)
{
    int ndigits = (int)between(state, 1, 17);
    uint64_t k = 0;
    for (int i = 0; i < ndigits; i++)
        k = k * 10 + below(state, 10);
    return k ? k : 1;
}

/* A positive integer of exactly `ndigits` random decimal digits. */
static uint64_t random_digits(uint64_t *state, int ndigits)
{
    uint64_t k = 1 + below(state, 9);
    for (int i = 1; i < ndigits; i++)
        k = k * 10 + below(state, 10);
    return k;
}

/* The double nearest to k * 10^e, as a literal in a program reads. */
static double decimal_double(uint64_t k, int e)
{
    char tmp[64];
    snprintf(tmp, sizeof tmp, "%" PRIu64 "e%d", k, e);
    return strtod(tmp, NULL);
}

static double draw(uint64_t *state)
{
    static const double edges[] = {1e-4, 1e-5, 1e-3, 1e15, 1e16, 1e17,
                                   1e22, 1e23, 9007199254740992.0};
    double d;
    uint64_t k;
    switch (below(state, 16)) {
    case 0: /* any bit pattern */
    case 1:
        do
            d = from_bits(splitmix64(state));
        while (!isfinite(d));
        return d;
    case 2: /* a short decimal anywhere in range */
        return decimal_double(random_mantissa(state),
                              (int)between(state, -340, 308));
    case 3: /* a short decimal of everyday size: k / 10^j or k * 10^j */
        return decimal_double(random_mantissa(state),
                              (int)between(state, -25, 10));
    case 4: /* integers near 2^53, 2^54, 2^63, 2^64 */
        d = ldexp(1.0, (int)between(state, 52, 65));
        return walk(d, between(state, -200, 200)) +
               (double)between(state, -3, 3);
    case 5: /* powers of two and their neighbours */
        d = ldexp(1.0, (int)between(state, -1074, 1023));
        return walk(d, between(state, -2, 2));
    case 6: /* subnormals: tiny ones, and any */
        if (below(state, 2))
            return from_bits(below(state, 2000));
        return from_bits(below(state, UINT64_C(1) << 52));
    case 7: /* the edges of positional form, and a few famous values */
        d = edges[below(state, sizeof edges / sizeof edges[0])];
        if (below(state, 2))
            d *= (double)between(state, 1, 99) / 10.0;
        return walk(d, between(state, -64, 64));
    case 8: /* mid-range: random mantissa, exponent around 1 */
        return from_bits((uint64_t)between(state, 1023 - 70, 1023 + 60) << 52 |
                         below(state, UINT64_C(1) << 52));
    case 10: /* 1 to 15 digits, exponents past both ends of 10^+-22 */
        return decimal_double(random_digits(state, (int)between(state, 1, 15)),
                              (int)between(state, -45, 45));
    case 11: /* the same, then a few doubles away: none of them is short */
        d = decimal_double(random_digits(state, (int)between(state, 1, 15)),
                           (int)between(state, -40, 40));
        return walk(d, between(state, -3, 3));
    case 12: /* powers of ten, their neighbours, and 10^k - 10^j */
        d = decimal_double(1, (int)between(state, -40, 45));
        if (below(state, 3) == 0)
            d -= decimal_double(1, (int)between(state, -60, 45));
        return walk(d, between(state, -2, 2));
    case 13: /* 15 digits, 9s or 0s at one end */
        k = below(state, 2) ? UINT64_C(999999999999999) - below(state, 1000)
                            : UINT64_C(100000000000000) + below(state, 1000);
        return decimal_double(k, (int)between(state, -40, 40));
    case 14: /* 16 digits from 10^15 to 2^50 and a bit beyond */
        k = UINT64_C(1000000000000000) +
            below(state, below(state, 2) ? 1000 : UINT64_C(130000000000000));
        return decimal_double(k, (int)between(state, -40, 40));
    case 15: /* 16 and 17 digits, anywhere in everyday range */
        return decimal_double(random_digits(state, (int)between(state, 16, 17)),
                              (int)between(state, -40, 30));
    default: /* zeros, small integers and their halves */
        switch (below(state, 3)) {
        case 0: return 0.0;
        case 1: return (double)between(state, 0, 100000);
        default: return (double)between(state, 0, 100000) / 2.0 + 0.25;
        }
    }
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: floatrepr N [SEED]\n");
        return 2;
    }
    char *end;
    unsigned long long n = strtoull(argv[1], &end, 10);
    if (*end || end == argv[1]) {
        fprintf(stderr, "floatrepr: bad count: %s\n", argv[1]);
        return 2;
    }
    uint64_t state = 1;
    if (argc == 3) {
        state = strtoull(argv[2], &end, 10);
        if (*end || end == argv[2]) {
            fprintf(stderr, "floatrepr: bad seed: %s\n", argv[2]);
            return 2;
        }
    }

    char repr[PYFLOAT_REPR_MAX];
    for (unsigned long long i = 0; i < n; i++) {
        double d;
        do /* some recipes overflow near the top of the range */
            d = draw(&state);
        while (!isfinite(d));
        if (below(&state, 2)) /* either sign, -0.0 included */
            d = -d;
        pyfloat_repr(d, repr);
        if (printf("%016" PRIx64 " %s\n", to_bits(d), repr) < 0)
            break;
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "floatrepr: write error\n");
        return 1;
    }
    return 0;
}
