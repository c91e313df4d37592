/*
 * pynum: numbers written the way Python writes them.
 *
 *  - pyfloat_repr(): the text of Python's repr(float) for a finite double:
 *    the shortest digits that read back to the same double (ties: nearest),
 *    positional from 1e-4 up to 1e16 with at least one digit after the dot
 *    ("100000.0", "0.0001", "-0.0"), exponent form outside that range with a
 *    sign and at least two exponent digits ("1e-05", "1.5e+16").
 *  - pyint_from_digits(): an integer written in base 2, 8, 10 or 16 (digits
 *    only: no sign, prefix or underscore), as Python's str(int(...)) prints it.
 *  - pyint_sexagesimal(): YAML 1.1's base-60 integers ("1:30" is 90).
 * Integers whose decimal text would pass Python's limit of PYINT_MAX_DIGITS
 * digits are refused (return PYNUM_TOO_LONG), as Python refuses them.
 */
#ifndef TR_PYNUM_H
#define TR_PYNUM_H

#include <stddef.h>

#include "buf.h"

#define PYINT_MAX_DIGITS 4300
#define PYFLOAT_REPR_MAX 32 /* bytes, with the NUL */

enum { PYNUM_OK = 0, PYNUM_NOMEM = -1, PYNUM_BAD_DIGIT = -2,
       PYNUM_TOO_LONG = -3 };

/* Writes repr(d) into out (PYFLOAT_REPR_MAX bytes at least) and returns its
 * length.  d must be finite. */
size_t pyfloat_repr(double d, char *out);

/* Appends to out the decimal text of the integer whose digits (in `base`)
 * are digits[0..len), with a '-' when negative and the value is not zero.
 * Leading zeros are allowed; len must be > 0. */
int pyint_from_digits(buf *out, const char *digits, size_t len, unsigned base,
                      int negative);

/* Appends to out the decimal text of a sexagesimal integer: `parts` holds
 * nparts decimal digit strings (no underscores), most significant first;
 * the value is parts[0]*60^(n-1) + ... + parts[n-1]. */
int pyint_sexagesimal(buf *out, const char *const *parts, const size_t *lens,
                      size_t nparts, int negative);

/* Appends s to out as Python's int() and float() read it before parsing:
 * without the whitespace around it (str.isspace), every Unicode decimal
 * digit (Nd) turned into its ASCII digit.  PYNUM_NOMEM when memory runs
 * out, PYNUM_BAD_DIGIT when s is not UTF-8. */
int pynum_ascii(buf *out, const char *s, size_t len);

/* Whether the decimal integer text (as a V_INT holds it) and the double are
 * the same number (Python's 1 == 1.0; 2**53+1 != float(2**53+1)). */
int pyint_equals_double(const char *text, size_t len, double d);

#endif
