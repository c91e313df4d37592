/*
 * stats: the intervals a card prints.
 *  - wilson: the 95% Wilson score interval of a proportion x/n;
 *  - newcombe: the 95% interval of a difference of two independent
 *    proportions x1/n1 - x2/n2 by Newcombe's hybrid score method (his
 *    method 10, 1998), built from the two Wilson intervals.
 * z is 1.959963984540054 (the 97.5th percentile of the normal).  With
 * n = 0 the interval is [0, 1] (nothing is known).
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

#endif
