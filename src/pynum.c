/* STUB: replaced by the real implementation. */
#include "pynum.h"
#include <stdio.h>
size_t pyfloat_repr(double d, char *out) { return (size_t)snprintf(out, PYFLOAT_REPR_MAX, "%.17g", d); }
int pyint_from_digits(buf *out, const char *digits, size_t len, unsigned base, int negative) { (void)base; if (negative) buf_putc(out, '-'); return buf_append(out, digits, len); }
int pyint_sexagesimal(buf *out, const char *const *parts, const size_t *lens, size_t nparts, int negative) { (void)out; (void)parts; (void)lens; (void)nparts; (void)negative; return PYNUM_BAD_DIGIT; }
int pyint_equals_double(const char *text, size_t len, double d) { (void)text; (void)len; (void)d; return 0; }
