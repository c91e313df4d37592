/* stats: see stats.h. */
#include "stats.h"

#include <math.h>
#include <stdlib.h>

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

interval wilson_at(double p, double n_eff)
{
    interval r = {0.0, 1.0};
    if (!(n_eff > 0.0) || !(p >= 0.0 && p <= 1.0))
        return r;
    double z2 = Z * Z, denom = 1.0 + z2 / n_eff;
    double center = (p + z2 / (2.0 * n_eff)) / denom;
    double half = Z * sqrt(p * (1.0 - p) / n_eff +
                           z2 / (4.0 * n_eff * n_eff)) / denom;
    r.lo = p == 0.0 || center - half < 0.0 ? 0.0 : center - half;
    r.hi = p == 1.0 || center + half > 1.0 ? 1.0 : center + half;
    return r;
}

/* The effective sample size of a rate p of variance v (clustered by m
 * tasks, n trials in all): p(1 - p)/v at most n; n when v is 0; m when p
 * is 0 or 1, where v says nothing of how alike a task's trials are. */
static double effective_n(double p, double v, double m, double n)
{
    if (p <= 0.0 || p >= 1.0)
        return m;
    if (v <= 0.0)
        return n;
    return fmin(n, p * (1.0 - p) / v);
}

interval clustered_rate(const cluster_sums *s, double *n_eff)
{
    interval r = {0.0, 1.0};
    double ne = 0.0;
    if (s->m >= 2.0 && s->n > 0.0) {
        double p = s->x / s->n;
        double ss = s->xx - 2.0 * p * s->xn + p * p * s->nn;
        double v = s->m / (s->m - 1.0) * (ss > 0.0 ? ss : 0.0) / (s->n * s->n);
        ne = effective_n(p, v, s->m, s->n);
        r = wilson_at(p, ne);
    }
    if (n_eff)
        *n_eff = ne;
    return r;
}

interval mean_rate_interval(double mean, double sumsq, unsigned long m,
                            double n, double *n_eff)
{
    interval r = {0.0, 1.0};
    double ne = 0.0;
    if (m >= 2 && n > 0.0) {
        double dm = (double)m;
        double ss = sumsq - dm * mean * mean;
        double v = (ss > 0.0 ? ss : 0.0) / (dm - 1.0) / dm;
        ne = effective_n(mean, v, dm, n);
        r = wilson_at(mean, ne);
    }
    if (n_eff)
        *n_eff = ne;
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

/* Tango's score statistic at difference d (= p12 - p21, the first's
 * success minus the second's): the observed x - y against n d, over its
 * standard error with p21 at its maximum likelihood under d. */
static double tango_score(double x, double y, double n, double d)
{
    double b = -x - y + (2.0 * n - x + y) * d;
    double c = -y * d * (1.0 - d);
    double disc = b * b - 8.0 * n * c;
    double q = (sqrt(disc > 0.0 ? disc : 0.0) - b) / (4.0 * n);
    double var = n * (2.0 * q + d * (1.0 - d));
    double num = x - y - n * d;
    if (var <= 0.0)
        return num == 0.0 ? 0.0 : num > 0.0 ? INFINITY : -INFINITY;
    return num / sqrt(var);
}

interval tango(unsigned long x, unsigned long y, unsigned long n,
               double *diff)
{
    interval r = {-1.0, 1.0};
    *diff = n ? ((double)x - (double)y) / (double)n : 0.0;
    if (n == 0)
        return r;
    double dx = (double)x, dy = (double)y, dn = (double)n, d = *diff;
    /* the score falls as the difference grows: the limits are where it
     * crosses z and -z, each side of the estimate */
    if (tango_score(dx, dy, dn, -1.0) > Z) {
        double lo = -1.0, hi = d;
        while (hi - lo > 1e-10) {
            double mid = 0.5 * (lo + hi);
            if (tango_score(dx, dy, dn, mid) > Z)
                lo = mid;
            else
                hi = mid;
        }
        r.lo = 0.5 * (lo + hi);
    }
    if (tango_score(dx, dy, dn, 1.0) < -Z) {
        double lo = d, hi = 1.0;
        while (hi - lo > 1e-10) {
            double mid = 0.5 * (lo + hi);
            if (tango_score(dx, dy, dn, mid) < -Z)
                hi = mid;
            else
                lo = mid;
        }
        r.hi = 0.5 * (lo + hi);
    }
    return r;
}

double mcnemar_exact(unsigned long x, unsigned long y)
{
    unsigned long n = x + y, k = x < y ? x : y;
    if (n == 0)
        return 1.0;
    /* the lower tail of binomial(n, 1/2) up to k, its terms in logs,
     * summed relative to the last (the largest: k is at most n / 2) */
    double top = lgamma((double)n + 1.0) - (double)n * log(2.0);
    double last = top - lgamma((double)k + 1.0) -
                  lgamma((double)(n - k) + 1.0);
    double sum = 0.0;
    for (unsigned long i = 0; i <= k; i++)
        sum += exp(top - lgamma((double)i + 1.0) -
                   lgamma((double)(n - i) + 1.0) - last);
    double p = 2.0 * exp(last + log(sum));
    return p > 1.0 ? 1.0 : p;
}

interval mean_interval(const double *v, unsigned long m, double *mean)
{
    interval r = {-1.0, 1.0};
    double s = 0.0;
    for (unsigned long i = 0; i < m; i++)
        s += v[i];
    *mean = m ? s / (double)m : 0.0;
    if (m < 2)
        return r;
    double ss = 0.0;
    for (unsigned long i = 0; i < m; i++)
        ss += (v[i] - *mean) * (v[i] - *mean);
    double se = sqrt(ss / (double)(m - 1) / (double)m);
    r.lo = *mean - Z * se;
    r.hi = *mean + Z * se;
    return r;
}

/* A p-value and where it came from, sorted by p, then by place. */
typedef struct ranked_p {
    double p;
    unsigned long at;
} ranked_p;

static int ranked_cmp(const void *x, const void *y)
{
    const ranked_p *a = x, *b = y;
    if (a->p != b->p)
        return a->p < b->p ? -1 : 1;
    return a->at < b->at ? -1 : a->at > b->at;
}

int holm(const double *p, unsigned long m, double *adjusted)
{
    if (m == 0)
        return 0;
    ranked_p *r = malloc(m * sizeof *r);
    if (!r)
        return -1;
    for (unsigned long i = 0; i < m; i++)
        r[i] = (ranked_p){p[i], i};
    qsort(r, m, sizeof *r, ranked_cmp);
    double running = 0.0;
    for (unsigned long i = 0; i < m; i++) {
        double a = (double)(m - i) * r[i].p;
        if (a > 1.0)
            a = 1.0;
        if (a > running)
            running = a;
        adjusted[r[i].at] = running;
    }
    free(r);
    return 0;
}

double pass_hat_k(unsigned long c, unsigned long n, unsigned long k)
{
    if (k > n || k == 0)
        return k == 0 ? 1.0 : 0.0;
    double r = 1.0;
    for (unsigned long i = 0; i < k; i++)
        r *= i < c ? (double)(c - i) / (double)(n - i) : 0.0;
    return r;
}
