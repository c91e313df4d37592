/*
 * stats: the intervals a card prints.
 *  - wilson: the 95% Wilson score interval of a proportion x/n;
 *  - newcombe: the 95% interval of a difference of two independent
 *    proportions x1/n1 - x2/n2 by Newcombe's hybrid score method (his
 *    method 10, 1998), built from the two Wilson intervals.
 *  - tango: the 95% score interval of a difference of two paired
 *    proportions (Tango, 1998): n pairs, x of them where only the first
 *    succeeded, y where only the second did; the difference is
 *    (x - y) / n, the interval every difference whose score statistic
 *    stays within z (found by bisection, to 1e-10);
 *  - mcnemar_exact: McNemar's exact two-sided p-value for x against y
 *    discordant pairs: min(1, 2 P(X <= min(x, y))), X binomial(x + y,
 *    1/2); 1 when there are none;
 *  - mean_interval: a mean and mean +- z s / sqrt(m) (s with m - 1): the
 *    interval of a mean of per-task differences, clustered by task;
 *  - wilson_at: Wilson's interval of a rate p at an effective sample
 *    size n_eff (any positive real), the form the next two use;
 *  - clustered_rate: the interval of a rate x/n whose n trials fall in m
 *    tasks (clusters): V = m/(m - 1) sum_i (x_i - p n_i)^2 / n^2, the
 *    clustered variance of p = x/n, gives n_eff = p(1 - p)/V, at most n
 *    (never narrower than Wilson's over the trials), n when V = 0 with p
 *    strictly between 0 and 1, m when p is 0 or 1 (every trial alike says
 *    nothing of how alike a task's trials are); then wilson_at(p, n_eff).
 *    For tasks of several trials (with one trial a task, wilson is the
 *    interval); with m < 2, [0, 1];
 *  - mean_rate_interval: the interval of a mean of m per-task values in
 *    [0, 1] (pass^k, each from its task's trials, n of them in all): V =
 *    s^2/m (s with m - 1), n_eff = mean(1 - mean)/V at most n, n when V =
 *    0, m when the mean is 0 or 1, as clustered_rate's (pass^1 of tasks
 *    of equal trials is the rate, and gets its interval); then
 *    wilson_at(mean, n_eff); m < 2: [0, 1];
 *  - pass_hat_k: C(c, k) / C(n, k), the unbiased estimate that k trials
 *    of a task drawn from its n (c of them passed) all pass;
 *  - holm: Holm's step-down adjustment of m p-values (1979): sorted
 *    ascending, the i-th (from 1) becomes the largest of min(1, (m - j +
 *    1) p_(j)) over j <= i; a test survives at level a when its adjusted
 *    p is below a, which keeps the chance of any false difference among
 *    the m below a.
 * z is 1.959963984540054 (the 97.5th percentile of the normal).  With
 * n = 0 the interval is [0, 1] (nothing is known); for a difference,
 * [-1, 1].
 */
#ifndef TR_STATS_H
#define TR_STATS_H

typedef struct interval {
    double lo, hi;
} interval;

interval wilson(unsigned long x, unsigned long n);

/* The difference p1 - p2 in *diff, and its interval. */
interval newcombe(unsigned long x1, unsigned long n1, unsigned long x2,
                  unsigned long n2, double *diff);

/* The paired difference (x - y) / n in *diff, and its interval. */
interval tango(unsigned long x, unsigned long y, unsigned long n,
               double *diff);

double mcnemar_exact(unsigned long x, unsigned long y);

/* The mean of v[0..m) in *mean, and its interval (m < 2: [-1, 1]). */
interval mean_interval(const double *v, unsigned long m, double *mean);

interval wilson_at(double p, double n_eff);

/* Per-task sums of a rate's trials: m tasks, n = sum n_i trials, x = sum
 * x_i passed, and the sums of x_i^2, x_i n_i and n_i^2. */
typedef struct cluster_sums {
    double m, n, x, xx, xn, nn;
} cluster_sums;

/* *n_eff (when not NULL) gets the effective sample size used (0: none). */
interval clustered_rate(const cluster_sums *s, double *n_eff);

/* m values of mean `mean` and sum of squares `sumsq`, from n trials. */
interval mean_rate_interval(double mean, double sumsq, unsigned long m,
                            double n, double *n_eff);

/* 0 when k > n. */
double pass_hat_k(unsigned long c, unsigned long n, unsigned long k);

/* adjusted[i]: p[i] adjusted over the m (adjusted may be p).  0, or -1
 * out of memory (adjusted untouched). */
int holm(const double *p, unsigned long m, double *adjusted);

#endif
