/* The intervals of a card, against published and independently computed
 * values: Newcombe (1998), "Two-sided confidence intervals for the single
 * proportion" (81/263: Wilson 0.2553 to 0.3662) and "Interval estimation
 * for the difference between independent proportions" (56/70 - 48/80:
 * method 10, 0.0524 to 0.3339); the rest computed by the formulas in
 * Python, apart from this code. */
#include <math.h>

#include "stats.h"
#include "unit.h"

#define NEAR(a, b, tol) ck_assert_msg(fabs((a) - (b)) < (tol), \
                                      "%.10f is not %.10f", (a), (b))

START_TEST(wilson_known_values)
{
    interval w = wilson(81, 263);
    NEAR(w.lo, 0.2553, 5e-5);
    NEAR(w.hi, 0.3662, 5e-5);
    w = wilson(81, 263);
    NEAR(w.lo, 0.2552885198782742, 1e-12);
    NEAR(w.hi, 0.36620957698280004, 1e-12);
    w = wilson(56, 70);
    NEAR(w.lo, 0.6918335550374695, 1e-12);
    NEAR(w.hi, 0.8769526075163705, 1e-12);
    /* the ends are exact */
    w = wilson(0, 10);
    ck_assert(w.lo == 0.0);
    NEAR(w.hi, 0.2775327998628892, 1e-12);
    w = wilson(96, 96);
    ck_assert(w.hi == 1.0);
    NEAR(w.lo, 0.9615244121423243, 1e-12);
    w = wilson(4, 4);
    NEAR(w.lo, 0.5101091635454027, 1e-12);
    /* nothing known */
    w = wilson(0, 0);
    ck_assert(w.lo == 0.0 && w.hi == 1.0);
}
END_TEST

/* 50 tasks of 4 trials: 10 passed 4, 8 passed 3, 7 passed 2, 6 passed 1,
 * 19 none (84 of 200); the values from the formulas in Python. */
START_TEST(clustered_known_values)
{
    cluster_sums s = {0};
    static const int passed[] = {4, 3, 2, 1, 0}, tasks[] = {10, 8, 7, 6, 19};
    for (int i = 0; i < 5; i++) {
        double x = passed[i], n = 4, m = tasks[i];
        s.m += m;
        s.n += m * n;
        s.x += m * x;
        s.xx += m * x * x;
        s.xn += m * x * n;
        s.nn += m * n * n;
    }
    double ne;
    interval r = clustered_rate(&s, &ne);
    NEAR(ne, 76.4663677130044, 1e-9);
    NEAR(r.lo, 0.3158126170207175, 1e-12);
    NEAR(r.hi, 0.5318408513626304, 1e-12);
    /* wider than Wilson's over the 200 trials as if independent */
    interval w = wilson(84, 200);
    ck_assert(r.lo < w.lo && r.hi > w.hi);
    /* every trial passed: Wilson's over the 6 tasks */
    s = (cluster_sums){6, 24, 24, 96, 96, 96};
    r = clustered_rate(&s, &ne);
    ck_assert(ne == 6.0 && r.hi == 1.0);
    NEAR(r.lo, 0.6096657120978346, 1e-12);
    /* pass^1 of tasks of equal trials is the rate: the same interval */
    s = (cluster_sums){0};
    double v1[50], m1 = 0, sq1 = 0;
    for (int i = 0, t = 0; i < 5; i++)
        for (int j = 0; j < tasks[i]; j++, t++) {
            v1[t] = passed[i] / 4.0;
            m1 += v1[t] / 50;
            sq1 += v1[t] * v1[t];
        }
    r = mean_rate_interval(m1, sq1, 50, 200, &ne);
    NEAR(ne, 76.4663677130044, 1e-9);
    NEAR(r.lo, 0.3158126170207175, 1e-12);
    NEAR(r.hi, 0.5318408513626304, 1e-12);
    /* one task: nothing known */
    s = (cluster_sums){1, 3, 2, 4, 6, 9};
    r = clustered_rate(&s, &ne);
    ck_assert(ne == 0.0 && r.lo == 0.0 && r.hi == 1.0);
    /* pass^k's: the mean of per-task values */
    double v[] = {1, 1, 0.5, 0, 1.0 / 3}, mean = 0, sq = 0;
    for (int i = 0; i < 5; i++) {
        mean += v[i] / 5;
        sq += v[i] * v[i];
    }
    r = mean_rate_interval(mean, sq, 5, 15, &ne);
    NEAR(ne, 6.5, 1e-12);
    NEAR(r.lo, 0.23887148587978146, 1e-12);
    NEAR(r.hi, 0.8449335827950938, 1e-12);
    r = mean_rate_interval(1.0, 3.0, 3, 9, &ne);
    ck_assert(ne == 3.0 && r.hi == 1.0);
    NEAR(r.lo, 0.4385029682449546, 1e-12);
    r = mean_rate_interval(0.5, 0.25, 1, 2, &ne);
    ck_assert(ne == 0.0 && r.lo == 0.0 && r.hi == 1.0);
}
END_TEST

START_TEST(newcombe_known_values)
{
    double d;
    interval n = newcombe(56, 70, 48, 80, &d);
    NEAR(d, 0.2, 1e-12);
    NEAR(n.lo, 0.0524, 5e-5);
    NEAR(n.hi, 0.3339, 5e-5);
    NEAR(n.lo, 0.05243147240236498, 1e-12);
    NEAR(n.hi, 0.333872654036906, 1e-12);
    /* all against none */
    n = newcombe(96, 96, 0, 96, &d);
    NEAR(d, 1.0, 1e-12);
    NEAR(n.lo, 0.9455873018313975, 1e-12);
    ck_assert(n.hi == 1.0);
    /* equal rates: the interval straddles zero */
    n = newcombe(5, 10, 5, 10, &d);
    ck_assert(d == 0.0 && n.lo < 0 && n.hi > 0);
    NEAR(n.hi, 0.3725136238199143, 1e-12);
    NEAR(n.lo, -0.3725136238199143, 1e-12);
}
END_TEST

/* Holm (1979): four p-values, adjusted by hand: sorted 0.005, 0.01,
 * 0.03, 0.04, they become 4 x 0.005, then the running largest of 3 x
 * 0.01, 2 x 0.03 and 1 x 0.04; in their own places again. */
START_TEST(holm_known_values)
{
    double p[] = {0.01, 0.04, 0.03, 0.005}, a[4];
    ck_assert_int_eq(holm(p, 4, a), 0);
    NEAR(a[0], 0.03, 1e-15);
    NEAR(a[1], 0.06, 1e-15);
    NEAR(a[2], 0.06, 1e-15);
    NEAR(a[3], 0.02, 1e-15);
    /* capped at 1; one test is its own; ties keep their places */
    double q[] = {0.6, 0.6, 0.001};
    ck_assert_int_eq(holm(q, 3, q), 0);
    NEAR(q[0], 1.0, 1e-15);
    NEAR(q[1], 1.0, 1e-15);
    NEAR(q[2], 0.003, 1e-15);
    double one = 0.04;
    ck_assert_int_eq(holm(&one, 1, &one), 0);
    NEAR(one, 0.04, 1e-15);
    ck_assert_int_eq(holm(NULL, 0, NULL), 0);
}
END_TEST

Suite *stats_suite(void)
{
    Suite *s = suite_create("stats");
    TCase *tc = tcase_create("stats");
    tcase_set_timeout(tc, 120); /* room for a busy machine, under ASan */
    tcase_add_test(tc, wilson_known_values);
    tcase_add_test(tc, clustered_known_values);
    tcase_add_test(tc, newcombe_known_values);
    tcase_add_test(tc, holm_known_values);
    suite_add_tcase(s, tc);
    return s;
}
