/* stats: see stats.h. */
#include "stats.h"

#include <math.h>

#define Z 1.959963984540054

interval wilson(unsigned long x, unsigned long n)
{
    interval r = {0.0, 1.0};
    if (n == 0)
        return r;
    double nn = (double)n, p = (double)x / nn, z2 = Z * Z;
    double denom = 1.0 + z2 / nn;
    double center = (p + z2 / (2.0 * nn)) / denom;
    double half = Z * sqrt(p * (1.0 - p) / nn + z2 / (4.0 * nn * nn)) / denom;
    r.lo = center - half;
    r.hi = center + half;
    /* exact at the ends (x = 0 or x = n), whatever the rounding */
    if (x == 0 || r.lo < 0.0)
        r.lo = 0.0;
    if (x == n || r.hi > 1.0)
        r.hi = 1.0;
    return r;
}

interval newcombe(unsigned long x1, unsigned long n1, unsigned long x2,
                  unsigned long n2, double *diff)
{
    double p1 = n1 ? (double)x1 / (double)n1 : 0.0;
    double p2 = n2 ? (double)x2 / (double)n2 : 0.0;
    interval w1 = wilson(x1, n1), w2 = wilson(x2, n2);
    double d = p1 - p2;
    interval r;
    r.lo = d - sqrt((p1 - w1.lo) * (p1 - w1.lo) + (w2.hi - p2) * (w2.hi - p2));
    r.hi = d + sqrt((w1.hi - p1) * (w1.hi - p1) + (p2 - w2.lo) * (p2 - w2.lo));
    *diff = d;
    return r;
}
